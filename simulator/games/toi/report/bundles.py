"""The reports of the Tide of Iron commands (``lanchester toi ...``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np
import pandas as pd

from reports.bundle import Report, Table
from reports.provenance import method_of, provenance
from reports.tables import (
    LADDER_COLUMNS,
    TOI_ASSAULT_OUTCOME_COLUMNS,
    TOI_REPLAY_COLUMNS,
    TOI_STATE_COLUMNS,
    TOI_UNITS_COLUMNS,
    ladder,
    tidy,
)
from simulator.games.toi.report.provenance import toi_data
from simulator.run.output import pct

if TYPE_CHECKING:
    from simulator.games.toi.questions.answers import AssaultAnswer, FireAnswer


def _prov(methods, units_file=None, terrain_file=None, method=None):
    """The provenance of answers computed by ``methods`` (each ``{"method", "trials", "seed"}``)."""
    sources, files = toi_data(units_file, terrain_file)
    m, seed, trials = method_of(methods)
    return provenance(sources, files, method=method or m, seed=seed, trials=trials)


def pmf(hits, p) -> np.ndarray:
    """A distribution over 0..max hits from (hits, p) pairs."""
    return np.bincount(np.asarray(hits, dtype=int), weights=np.asarray(p, dtype=float))


def _p(summary: dict, key: str) -> str:
    return pct(summary[key], summary.get("se", {}).get(key)).strip()


def _mean(summary: dict, key: str) -> str:
    se = summary.get("se", {}).get(key)
    return f"{summary[key]:.3f}" + (f" ±{se:.3f}" if se is not None else "")


def fire_report(frames: Sequence[FireAnswer], *, units_file=None, terrain_file=None) -> Report:
    """``lanchester toi fire`` and ``toi minefield``: hits exactly / at least, the target afterwards."""
    from reports import charts  # matplotlib loads only when a report is written

    a = frames[0]
    several = len(frames) > 1
    what = {"area": "area attack", "minefield": "minefield entry"}.get(a.kind, f"{a.mode} attack")
    article = "an" if what[0] in "aeiou" else "a"
    if a.kind == "minefield":
        question = f"What does entering a minefield do to {a.target}?"
    elif several:
        question = (f"How many hits does {article} {what} of strength {a.attack_strength} score against "
                    f"each unit in the hex at {a.range} range?")
    else:
        question = (f"How many hits does {article} {what} of strength {a.attack_strength} score against "
                    f"defence {a.defence_strength} at {a.range} range"
                    + (f", and what happens to {a.target}?" if a.target else "?"))
    prov = _prov([f.how.to_json() for f in frames], units_file, terrain_file)

    def series(f: FireAnswer) -> str:
        return str(f.target) if several else f.how.label

    hits = pd.concat([ladder(pmf(f["hits"], f["p"]), series=series(f), trials=f.trials) for f in frames],
                     ignore_index=True)
    states = pd.DataFrame([{"series": series(f), "state": s["state"], "p": f.summary[s["key"]],
                            "se": f.summary.get("se", {}).get(s["key"]),
                            "lo": f.summary.get("ci95", {}).get(s["key"], (None, None))[0],
                            "hi": f.summary.get("ci95", {}).get(s["key"], (None, None))[1]}
                           for f in frames for s in f.states], columns=TOI_STATE_COLUMNS)
    tables = [Table("hits", tidy(hits, LADDER_COLUMNS), "Hits: exactly and at least",
                    "One row per number of hits after the defence dice.", chart="hits")]
    chart_list = [charts.outcome_chart(hits, name="hits", question=question, prov=prov,
                                       xlabel="hits after the defence dice")]
    if len(states):
        tables.append(Table("states", states, "The target afterwards", "One row per state of the target.",
                            chart="states"))
        chart_list.append(charts.state_chart(states, name="states", prov=prov,
                                             question="In what state is the target afterwards?"))
    high = [(f"mean hits{' (' + series(f) + ')' if several else ''}", _mean(f.summary, "mean_hits"))
            for f in frames]
    high += [(f"P(at least one hit){' (' + series(f) + ')' if several else ''}", _p(f.summary, "p_hit"))
             for f in frames]
    if "p_wire_removed" in a.summary:  # one chance for the hex (docs/rulings.md T8)
        high.append(("P(razor wire removed)", _p(a.summary, "p_wire_removed")))
    return Report(kind=f"toi {a.kind}", question=question, provenance=prov, tables=tables, charts=chart_list,
                  highlights=high, notes=list(a.notes) + [f"not attacked: {u}" for u in a.unaffected])


def assault_report(answer: AssaultAnswer, *, units_file=None, terrain_file=None) -> Report:
    """``lanchester toi assault``: both sides' hits, and the chance the assault succeeds."""
    from reports import charts  # matplotlib loads only when a report is written

    a, s, frame = answer, answer.summary, answer.frame()
    question = (f"Does an assault of strength {a.attack_strength} against defender strength "
                f"{a.defender_strength} (cover dice {a.defence_strength}) succeed?")
    prov = _prov([a.how.to_json()], units_file, terrain_file)
    trials = a.trials
    hits = pd.concat([ladder(pmf([h["hits"] for h in rows], [h["p"] for h in rows]), series=name, trials=trials)
                      for name, rows in (("attacker's hits", a.hits), ("defender's hits", a.defender_hits))],
                     ignore_index=True)
    return Report(
        kind="toi assault", question=question, provenance=prov,
        tables=[Table("hits", tidy(hits, LADDER_COLUMNS), "Hits of each side: exactly and at least",
                      "One row per side and number of hits.", chart="hits"),
                Table("outcomes", tidy(frame, TOI_ASSAULT_OUTCOME_COLUMNS), "Both sides' hits together",
                      "One row per (attacker's hits, defender's hits).", chart="hits")],
        charts=[charts.outcome_chart(hits, name="hits", question=question, prov=prov,
                                     xlabel="hits scored (the attacker needs more than the defender)")],
        highlights=[("P(assault succeeds)", _p(s, "p_success")),
                    ("P(active squad eliminated)", _p(s, "p_active_eliminated")),
                    ("P(all defenders destroyed)", _p(s, "p_defenders_eliminated")),
                    ("mean attacker losses", _mean(s, "mean_attacker_losses")),
                    ("mean defender losses (hits)", _mean(s, "mean_defender_losses"))])


def replay_report(frame: pd.DataFrame, obj: dict, *, units_file=None, terrain_file=None) -> Report:
    """``lanchester toi assault --replay``: one assault from given dice."""
    from reports import charts  # matplotlib loads only when a report is written

    r = frame.iloc[0]
    question = "Who wins this replayed assault?"
    prov = _prov([], units_file, terrain_file, method="replay")
    return Report(
        kind="toi assault replay", question=question, provenance=prov,
        tables=[Table("replay", tidy(frame, TOI_REPLAY_COLUMNS), "The replayed assault", "The two hit counts.")],
        charts=[charts.count_bars_chart(["attacker", "defender"], [float(r["attacker_hits"]),
                                                                   float(r["defender_hits"])],
                                        question=question, xlabel="side", ylabel="hits scored",
                                        prov=prov, name="hits")],
        highlights=[("result", "success, the defender retreats" if obj["success"]
                     else "repulsed (ties go to the defender)")], result=obj)


def units_report(frame: pd.DataFrame, *, units_file=None, terrain_file=None) -> Report:
    """``lanchester toi units``: the roster and its firepower."""
    from reports import charts  # matplotlib loads only when a report is written

    prov = _prov([], units_file, terrain_file, method="data")
    return Report(
        kind="toi units", question="How much firepower does each Tide of Iron unit have?", provenance=prov,
        tables=[Table("units", tidy(frame, TOI_UNITS_COLUMNS), "The roster",
                      "One row per figure or vehicle; * marks a reconstructed value.", chart="firepower")],
        charts=[charts.firepower_chart(frame, prov=prov,
                                       question="How much firepower does each unit have, vs infantry and vs "
                                                "vehicles?")],
        highlights=[("units", str(len(frame)))])


def scenario_bundle(name: str, folder: Path, *, with_result: bool = False, **kwargs):
    """``lanchester toi scenario --out DIR`` and ``lanchester demo``: Assault's bundle
    (:func:`reports.balance.balance_bundle`) for a Tide of Iron scenario. Plays
    :func:`simulator.games.toi.game.balance.toi_balance` into ``folder`` (records,
    ``balance.json``, ``balance.txt``); returns the JSON summary and the report that
    completes the folder (and the run with ``with_result``): win rates, how the games end,
    the first player, losses per unit, the map with the set-up zones, the what-ifs."""
    from reports.balance import balance_bundle, reason_frame
    from reports.scenario_text import report_table
    from simulator.engine.core.answers import BalanceReport
    from simulator.engine.core.balance import report_frames
    from simulator.games.toi.game.balance import toi_balance
    from simulator.games.toi.game.board import draw_toi_map
    from simulator.games.toi.report.provenance import toi_scenario_data
    from simulator.run.output import atomic_write_text, to_json

    folder = Path(folder)
    report, result = toi_balance(name, out_dir=str(folder), **kwargs)
    report["files"] = [Path(f).name for f in report["files"]]
    typed = BalanceReport.of(report)       # the renderers read its fields; the dict is its JSON
    sources, files = toi_scenario_data(result.game)
    prov = provenance(sources, files, method="monte-carlo", seed=typed.seed, trials=typed.games,
                      unit="games")
    from reports.value import add_learned_value
    add_learned_value(report, result.game, folder, prov)      # mcts:N:learned: the value used, its calibration
    atomic_write_text(folder / "balance.json", to_json(typed.to_json()), option=None)   # inside the staging folder
    atomic_write_text(folder / "balance.txt", report_table(typed), option=None)
    scenario = result.game.scenario
    map_png = draw_toi_map(scenario, title=f"{scenario.name}: the map and the set-up",
                           footer="\n".join(prov.footer_lines()))
    frames = report_frames(report, result)
    records = _records(folder)
    if records is not None:
        frames["reasons"] = reason_frame(records)
    footer = "\n".join(prov.footer_lines())

    def heat_map(values: dict, side: int, kind: str, title: str) -> bytes:
        from simulator.engine.core.mapdraw import FACTION_COLOURS, Heat
        from simulator.games.toi.game.board import SIDE_FACTIONS
        return draw_toi_map(scenario, title=title, footer=footer, heat=Heat(
            values, FACTION_COLOURS[SIDE_FACTIONS[side]], f"{scenario.side_names[side]}: {kind} per game"))
    bundle = balance_bundle(typed, frames, provenance=prov, record_files=typed.files, map_png=map_png,
                            kind="toi scenario", losses_measure="units eliminated", first_player=True,
                            heat_map=heat_map)
    return (report, bundle, result) if with_result else (report, bundle)


def _records(folder: Path) -> pd.DataFrame | None:
    """The reason and winner of each game from the records the run streamed (Parquet, else CSV)."""
    columns = ["reason_name", "winner_side"]
    if (folder / "games.parquet").is_file():
        return pd.read_parquet(folder / "games.parquet", columns=columns)
    if (folder / "games.csv").is_file():
        return pd.read_csv(folder / "games.csv", usecols=columns)
    return None


def replay_viewer_html(rp, footer: str = "") -> str:
    """``lanchester toi replay --out DIR``'s ``viewer.html``: the replayed game ``rp``
    (:func:`simulator.games.toi.game.replay.replay_game`) step by step on its map
    (:func:`reports.replay_viewer.viewer_page`), the positions from
    :func:`simulator.games.toi.game.replay.viewer_data`."""
    from reports.replay_viewer import viewer_page
    from simulator.engine.core.mapdraw import FACTION_COLOURS
    from simulator.games.toi.game import state as S
    from simulator.games.toi.game.board import SIDE_FACTIONS, Board, draw_toi_map
    from simulator.games.toi.game.replay import result, short_label, unit_strength, viewer_data

    g, sc = rp.game, rp.game.scenario
    data = viewer_data(rp)
    geometry: dict = {}
    title = f"{sc.name}: game {rp.game_index} of seed {rp.seed}"
    png = draw_toi_map(sc, pieces=[], title=title, geometry=geometry)
    sides = [{"name": name, "colour": FACTION_COLOURS[SIDE_FACTIONS[i]]} for i, name in enumerate(g.sides)]
    units = [{"label": sc.squad_label(k), "short": short_label(g, k), "side": int(rp.state.s.u[k, S.U_SIDE]),
              "strength": unit_strength(g, k)} for k in range(g.n_units)]
    r = result(rp)
    what = "cut short, no winner" if rp.truncated else (f"{r['winner']} wins" if r["winner"] else "a draw")
    return viewer_page(title=title, subtitle=f"{what} ({r['reason']}) after {r['rounds']} rounds; players: "
                       + ", ".join(f"{s} {p}" for s, p in zip(g.sides, rp.players, strict=True)),
                       map_png=png, geometry=geometry, hex_names=list(Board(sc).names), units=units, sides=sides,
                       rows=data["rows"], frames=data["frames"], status_names=list(S.STATUS_NAMES),
                       on_map=[int(S.ONMAP)], morale_names=list(S.COND_NAMES),
                       objectives=[o.hex for o in sc.spec.objectives], footer=footer)
