"""The reports of the Assault commands: which tables, which charts, which question.

Each ``*_report`` function takes what the command computed (its DataFrame(s), with
``.attrs``) and returns a :class:`reports.bundle.Report`. The close-combat and
scenario reports take the tables documented in ``docs/report-columns.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from reports.bundle import Report, Table
from reports.provenance import Provenance, assault_data, method_of, provenance
from reports.scenario_text import activity_text
from reports.tables import (
    CLOSE_COMBAT_COLUMNS,
    CONVERGENCE_COLUMNS,
    DECISION_TURN_COLUMNS,
    DIFFERING_RULE_COLUMNS,
    EDITION_DIFFERENCE_COLUMNS,
    FIRE_STATE_COLUMNS,
    GAMES_INPUT_COLUMNS,
    LADDER_COLUMNS,
    LOSSES_COLUMNS,
    ODDS_OUTCOME_COLUMNS,
    RESOLVE_SYMBOL_COLUMNS,
    RESTRICTED_COLUMNS,
    SIDE_ACTIVITY_COLUMNS,
    SKILL_CURVE_COLUMNS,
    SMOKE_PLACEMENT_COLUMNS,
    TURN_ACTIVITY_COLUMNS,
    VARIANT_COLUMNS,
    WHAT_IF_CHANGE_COLUMNS,
    WIN_RATE_COLUMNS,
    convergence_table,
    decision_turn_table,
    ladder,
    require,
    series_label,
    tidy,
    variant_table,
    win_rate_table,
)
from reports.text import state_label
from simulator.output import pct


def _with_se(p: float, se: float | None) -> str:
    return pct(p, se).strip()


def _highlights(frames: Sequence[pd.DataFrame], rows: Sequence[tuple[str, str, bool]]) -> list[tuple[str, str]]:
    """``rows``: (label, summary key, is a probability) -> one line per series."""
    out = []
    for f in frames:
        s, tag = f.attrs["summary"], series_label(f.attrs)
        se = s.get("se", {})
        for label, key, is_p in rows:
            v = s[key]
            text = _with_se(v, se.get(key)) if is_p else (f"{v:.3f}" + (f" ±{se[key]:.3f}" if key in se else ""))
            out.append((f"{label} ({tag})" if len(frames) > 1 else label, text))
    return out


# --- odds -----------------------------------------------------------------------------

def odds_report(frames: Sequence[pd.DataFrame]) -> Report:
    """``lanchester assault odds``: damage bars and "at least" curve, outcome table."""
    from reports import charts  # matplotlib loads only when a report is written
    from simulator.assault.odds import damage_pmf

    a = frames[0].attrs
    extra = (f", doubles count {a['doubles']}" if a["doubles"] != "all" else "") + \
            (f", +{a['extra_supp']} suppression" if a["extra_supp"] else "")
    question = f"How much damage does {a['attack']} do against {a['defence']}{extra}?"
    sources, files = assault_data(dice=a["dice_file"])
    method, seed, trials = method_of(f.attrs for f in frames)
    prov = provenance(sources, files, method=method, seed=seed, trials=trials)
    steps = pd.concat([ladder(damage_pmf(f), series=series_label(f.attrs), trials=f.attrs["trials"])
                       for f in frames], ignore_index=True)
    outcomes = pd.concat([tidy(f.assign(series=series_label(f.attrs)), ODDS_OUTCOME_COLUMNS) for f in frames],
                         ignore_index=True)
    chart = charts.outcome_chart(steps, name="damage", question=question, prov=prov,
                                 xlabel="damage points after cancellation (uncancelled crit + hit, 10.7.2-10.7.3)")
    return Report(
        kind="assault odds", question=question, provenance=prov,
        tables=[Table("damage", tidy(steps, LADDER_COLUMNS), "Damage points: exactly and at least",
                      "One row per damage level (crit + hit left after the defence cancels, 10.7.2).",
                      chart="damage"),
                Table("outcomes", outcomes, "Uncancelled symbols",
                      "One row per combination of uncancelled crit, hit and supp symbols.", chart="damage")],
        charts=[chart],
        highlights=_highlights(frames, [("mean damage", "mean_damage", False),
                                        ("P(any effect)", "p_any", True),
                                        ("P(suppression symbol left)", "p_supp", True)]))


# --- fire -----------------------------------------------------------------------------

def fire_ladder(frame: pd.DataFrame) -> pd.DataFrame:
    """Damage points this fire deals, the top level being 'eliminated'."""
    a = frame.attrs
    return damage_ladder(frame, a["target_damage_before"], a["target_strength"])


def damage_ladder(frame: pd.DataFrame, before: int, strength: int) -> pd.DataFrame:
    """Damage points taken, from a state table (fire, terrain damage); top level 'eliminated'."""
    a = frame.attrs
    taken = (frame["damage"] - before).to_numpy(int)
    pmf = np.bincount(taken, weights=frame["p"].to_numpy(float), minlength=strength - before + 1)
    labels = [str(k) for k in range(len(pmf) - 1)] + [f"eliminated ({len(pmf) - 1})"]
    return ladder(pmf, series=series_label(a), labels=labels, trials=a["trials"])


def fire_report(frames: Sequence[pd.DataFrame], *, terrain: str | None = None, dice=None, aid=None,
                units_dir=None, support=None) -> Report:
    """``lanchester assault fire``: damage ladder, target states, pools and spotting."""
    from reports import charts  # matplotlib loads only when a report is written

    a = frames[0].attrs
    where = f" in {terrain}" if terrain and terrain != "clear" else ""
    question = f"What happens to {a['target']} when {a['firer']} fires at it at range {a['range']}{where}?"
    sources, files = assault_data(dice=dice, aid=aid, units_dir=units_dir, support=support,
                                  parts=("dice", "aid", "units", "support"))
    method, seed, trials = method_of(f.attrs for f in frames)
    prov = provenance(sources, files, method=method, seed=seed, trials=trials)
    steps = pd.concat([fire_ladder(f) for f in frames], ignore_index=True)
    states = pd.concat([tidy(f.assign(series=series_label(f.attrs),
                                      state=[state_label(r) for r in f.to_dict("records")]), FIRE_STATE_COLUMNS)
                        for f in frames], ignore_index=True)
    pools = f"attack {a['attack_pool']} vs defence {a['defence_pool']}" + (
        f" (spotting failed: {a['defence_pool_unspotted']})" if a["defence_pool_unspotted"] else "")
    return Report(
        kind="assault fire", question=question, provenance=prov,
        tables=[Table("damage", tidy(steps, LADDER_COLUMNS), "Damage points dealt: exactly and at least",
                      "Damage points this fire deals; the top level is the target eliminated.", chart="damage"),
                Table("states", states, "The target afterwards", "One row per state of the target after the fire.",
                      chart="states")],
        charts=[charts.outcome_chart(steps, name="damage", question=question, prov=prov,
                                     xlabel="damage points dealt by this fire (10.7.3)"),
                charts.state_chart(states, name="states", prov=prov,
                                   question=f"In what state is {a['target']} after the fire?")],
        highlights=[("pools", pools), ("P(spotted)", pct(a["p_spotted"]).strip())]
        + _highlights(frames, [("P(eliminated)", "p_eliminated", True),
                               ("P(suppressed, fallback or eliminated)", "p_suppressed_or_worse", True),
                               ("P(fallback)", "p_fallback", True),
                               ("mean damage", "mean_damage", False)]) + _run_highlights(a),
        notes=[f"{s['side']}: {s['change']} -> {s['pool']} {s['reason']} ({s['section']})"
               if s["side"] != "spotting" else f"spotting: {s['reason']}" for s in a["explain"]])


def state_table(frame: pd.DataFrame) -> pd.DataFrame:
    """A state table (fire, terrain damage) as ``FIRE_STATE_COLUMNS``, states in words."""
    return tidy(frame.assign(series=series_label(frame.attrs),
                             state=[state_label(r) for r in frame.to_dict("records")]), FIRE_STATE_COLUMNS)


def _explain_notes(a: dict) -> list[str]:
    return [f"{s['side']}: {s['change']} -> {s['pool']} {s['reason']} ({s['section']})"
            if s["side"] != "spotting" else f"spotting: {s['reason']}" for s in a["explain"]]


def _run_highlights(a: dict) -> list[tuple[str, str]]:
    """How a --precision run ended (its headline, trials and interval width)."""
    run = a.get("run") or {}
    if run.get("precision") is None:
        return []
    how = "reached" if run["reached"] else "not reached (trial cap)"
    return [("precision", f"{run['precision']:g} {how}: 95% interval of {run['headline']} "
                          f"{run['width']:.4f} wide after {run['trials']:,} trials")]


# --- resolve, smoke, terrain damage ----------------------------------------------------

def resolve_report(result: dict, *, target: str, dice=None, aid=None, units_dir=None) -> Report:
    """``lanchester assault resolve``: the given roll, what is left uncancelled, the target's state."""

    question = f"What does this roll do to {target}?"
    sources, files = assault_data(dice=dice, aid=aid, units_dir=units_dir, parts=("dice", "aid", "units"))
    prov = provenance(sources, files, method="given roll")
    rows = [("attack", result["attack_symbols"]), ("defence", result["defence_symbols"]),
            ("uncancelled", result["uncancelled"])]
    if result["critical_hit_roll"]:
        rows.append(("critical-hit roll", result["critical_hit_roll"]))
    symbols = pd.DataFrame([{"roll": name, **{k: r[k] for k in ("crit", "hit", "supp")}} for name, r in rows],
                           columns=RESOLVE_SYMBOL_COLUMNS)
    st = result["state"]
    state = pd.DataFrame([{"series": "given roll", "state": state_label(st), **st, "p": 1.0}])
    u = result["uncancelled"]
    high = [("uncancelled", f"{u['crit']} crit, {u['hit']} hit, {u['supp']} supp"),
            ("target afterwards", state_label(st))]
    if result["critical_hit_roll"]:
        high.append(("critical-hit roll", f"strongest {result['critical_hit_roll']['strongest']}"))
    if result["passenger_event"]:
        high.append(("passengers", result["passenger_event"]))
    return Report(
        kind="assault resolve", question=question, provenance=prov,
        tables=[Table("symbols", symbols, "The roll", "Symbols rolled by each side and left after "
                      "cancellation (10.7.2)."),
                Table("state", tidy(state, FIRE_STATE_COLUMNS), "The target afterwards",
                      "The target's state after the roll (10.7.3-10.7.6).")],
        highlights=high)


def smoke_report(frame: pd.DataFrame, *, dice=None, aid=None, units_dir=None, support=None) -> Report:
    """``lanchester assault smoke``: markers in each hex (exactly / at least), the placements."""
    from reports import charts  # matplotlib loads only when a report is written

    a = frame.attrs
    question = f"How many smoke markers does {a['firer']} land in each of up to {a['hexes']} hexes?"
    sources, files = assault_data(dice=dice, aid=aid, units_dir=units_dir, support=support,
                                  parts=("dice", "aid", "units", "support"))
    method, seed, trials = method_of([a])
    prov = provenance(sources, files, method=method, seed=seed, trials=trials)
    cap = a["max_markers_per_hex"]
    markers = pd.concat([ladder(h["p_markers"], series=f"hex {h['hex']} ({h['name']})", trials=a["trials"],
                                labels=[f"{k} marker{'s' if k != 1 else ''}" for k in range(cap + 1)])
                         for h in a["per_hex"]], ignore_index=True)
    chart = charts.outcome_chart(markers, name="markers", question=question, prov=prov,
                                 xlabel=f"smoke markers in the hex (7.5: each crit or hit, at most {cap})")
    first, s = a["per_hex"][0], a["summary"]
    high = [("smoke dice", a["smoke_pool"] + (f" (doubles count {a['doubles']})" if a["doubles"] != "all" else "")),
            ("P(target hex smoked)", _with_se(first["p_any"], first.get("se", {}).get("p_any"))),
            ("P(LOS through the target hex blocked)",
             _with_se(first["p_los_blocked"], first.get("se", {}).get("p_los_blocked"))),
            ("mean markers, all hexes", f"{s['mean_total_markers']:.3f}"),
            ("P(every hex smoked)", pct(s["p_every_hex_smoked"]).strip())] + _run_highlights(a)
    return Report(
        kind="assault smoke", question=question, provenance=prov,
        tables=[Table("markers", tidy(markers, LADDER_COLUMNS), "Markers in each hex: exactly and at least",
                      "One row per hex and number of markers (7.5).", chart="markers"),
                Table("placements", tidy(frame, SMOKE_PLACEMENT_COLUMNS), "Markers in hex 1, 2 and 3 together",
                      "One row per placement of markers over the hexes.", chart="markers")],
        charts=[chart], highlights=high, notes=_explain_notes(a))


def terrain_damage_report(frame: pd.DataFrame, *, dice=None, aid=None, units_dir=None) -> Report:
    """``lanchester assault terrain-damage``: damage ladder and the vehicle's states."""
    from reports import charts  # matplotlib loads only when a report is written

    a = frame.attrs
    question = f"What does entering {a['terrain']}{' on a hill' if a['hill'] else ''} do to {a['vehicle']}?"
    sources, files = assault_data(dice=dice, aid=aid, units_dir=units_dir, parts=("dice", "aid", "units"))
    method, seed, trials = method_of([a])
    prov = provenance(sources, files, method=method, seed=seed, trials=trials)
    steps = damage_ladder(frame, a["damage_before"], a["vehicle_strength"])
    states = state_table(frame)
    return Report(
        kind="assault terrain damage", question=question, provenance=prov,
        tables=[Table("damage", tidy(steps, LADDER_COLUMNS), "Damage points taken: exactly and at least",
                      "Damage points the terrain roll deals; the top level is the vehicle eliminated (9.10.2).",
                      chart="damage"),
                Table("states", states, "The vehicle afterwards", "One row per state of the vehicle.",
                      chart="states")],
        charts=[charts.outcome_chart(steps, name="damage", question=question, prov=prov,
                                     xlabel="damage points taken entering the hex (9.10.2)"),
                charts.state_chart(states, name="states", prov=prov,
                                   question=f"In what state is {a['vehicle']} afterwards?")],
        highlights=[("pools", f"terrain {a['attack_pool']} vs {a['defence_pool']} (strongest card die)")]
        + _highlights([frame], [("P(immobilised)", "p_immobilised", True),
                                ("P(eliminated)", "p_eliminated", True),
                                ("P(suppressed, fallback or eliminated)", "p_suppressed_or_worse", True),
                                ("mean damage", "mean_damage", False)]) + _run_highlights(a),
        notes=_explain_notes(a))


# --- units ----------------------------------------------------------------------------

def units_report(frame: pd.DataFrame, *, dice=None) -> Report:
    """``lanchester assault units``: the roster table and a range card of every unit."""
    from reports import charts  # matplotlib loads only when a report is written
    from simulator.assault.cards import UNITS_COLUMNS

    a = frame.attrs
    question = "What can each unit card do: how many attack dice at each range?"
    sources, files = assault_data(dice=dice, units_dir=a["units_dir"], parts=("dice", "units"))
    prov = provenance(sources, files, method="data")
    return Report(
        kind="assault units", question=question, provenance=prov,
        tables=[Table("units", tidy(frame, UNITS_COLUMNS), "Unit cards",
                      "One row per unit card; ranges and close_combat: dice vs armoured vehicles / vs the rest.",
                      chart="ranges")],
        charts=[charts.unit_range_chart(a["cards"], question="How many attack dice does each unit roll "
                                        "at each range?", prov=prov)],
        highlights=[("units", str(len(frame))), ("sides", ", ".join(sorted(frame["side"].unique())))])


# --- the matchup matrix -----------------------------------------------------------------

MATRIX_QUESTIONS = {
    "p_eliminated": "How likely is each firer to eliminate each target with direct fire{where}?",
    "p_suppressed_or_worse": "How likely is each firer to leave each target suppressed, fallen back or eliminated with "
                             "direct fire{where}?",
    "mean_damage": "How much damage does each firer deal to each target with direct fire{where}, on average?",
}


def matrix_report(frame: pd.DataFrame, metric: str = "p_eliminated", *, dice=None, aid=None,
                  units_dir=None, support=None, plot: str = "heatmap") -> Report:
    """``lanchester assault matrix``: the tidy matrix and one heatmap per terrain
    (``plot="lines"``: one line chart of ``metric`` by range, a panel per terrain)."""
    from reports import charts  # matplotlib loads only when a report is written
    from simulator.assault.matrix import MATRIX_COLUMNS

    a = frame.attrs
    terrains = a["terrains"]
    question = MATRIX_QUESTIONS[metric].format(where="")
    sources, files = assault_data(dice=dice, aid=aid, units_dir=units_dir, support=support,
                                  parts=("dice", "aid", "units", "support"))
    prov = provenance(sources, files, method="exact")
    if plot == "lines":
        maps = [charts.matrix_lines(frame, metric=metric, prov=prov, name="matrix-lines",
                                    question=MATRIX_QUESTIONS[metric].format(where=" at each range"))]
    else:
        maps = [charts.matrix_heatmap(frame, metric=metric, terrain=t, prov=prov, name=f"matrix-{t}",
                                      question=MATRIX_QUESTIONS[metric].format(where=f" in {t}, at each range"))
                for t in terrains]
    fired = frame[frame["can_fire"]]
    best = fired.nlargest(1, metric)
    high = [("fire", a["fire"]),
            ("cells", f"{len(frame):,} ({len(fired):,} can fire)"),
            ("situation", f"regular units, undamaged, steady; firer firing; spotting by the rules; "
                          f"vehicle targets hit on the {a['facing']}")]
    if len(best):
        b = best.iloc[0]
        high.append((f"highest {metric}", f"{b['firer']} at {b['target']}, range {b['range']}, {b['terrain']}: "
                     + (pct(b[metric]).strip() if metric.startswith("p_") else f"{b[metric]:.3f}")))
    return Report(
        kind="assault matrix", question=question, provenance=prov,
        tables=[Table("matrix", tidy(frame, MATRIX_COLUMNS), "Matchup matrix",
                      "One row per firer, target, range and terrain, with every metric (exact; "
                      "direct fire: the fire column).", chart=maps[0].name)],
        charts=maps, highlights=high,
        result={k: a[k] for k in ("fire", "firers", "targets", "ranges", "terrains", "facing", "dice",
                                  "dice_status", "aid", "aid_status", "cells", "computed")}
        | {"metric": metric, "plot": plot})


# --- close combat ---------------------------------------------------------------------

def close_combat_report(end_states: pd.DataFrame, *, question: str, provenance: Provenance,
                        result: dict | None = None, highlights: Sequence[tuple[str, str]] = ()) -> Report:
    """Close combat (chapter 12): end states, both editions side by side.

    ``end_states`` has the columns ``edition, end_state, p`` and optionally ``se``
    (docs/report-columns.md); ``provenance`` is built by the caller with
    :func:`reports.provenance.provenance` and :func:`reports.provenance.assault_data`.
    """
    from reports import charts  # matplotlib loads only when a report is written

    require(end_states, CLOSE_COMBAT_COLUMNS, "close-combat end states")
    table = tidy(end_states, CLOSE_COMBAT_COLUMNS)
    return Report(
        kind="assault close combat", question=question, provenance=provenance,
        tables=[Table("end-states", table, "End states of the close combat",
                      "One row per edition and end state.", chart="end-states")],
        charts=[charts.close_combat_chart(table, question=question, prov=provenance)],
        highlights=list(highlights), result=result)


MELEE_END_STATES = ("attacker holds", "defender holds", "neither holds", "unresolved")


def melee_end_states(editions: dict[str, dict]) -> pd.DataFrame:
    """``CLOSE_COMBAT_COLUMNS`` from melee answers (``frame.attrs`` by edition): who holds
    the hex, one row per edition and end state, with ``se`` by Monte Carlo."""
    rows = []
    for edition, a in editions.items():
        s = a["summary"]
        se = s.get("se", {})
        for end in MELEE_END_STATES:
            key = "p_" + end.replace(" ", "_")
            rows.append({"edition": edition, "end_state": end, "p": s[key], "se": se.get(key, np.nan)})
    return pd.DataFrame(rows, columns=CLOSE_COMBAT_COLUMNS)


def melee_report(editions: dict[str, dict], *, terrain: str = "clear", dice=None, aid=None,
                 units_dir=None, compare: dict | None = None) -> Report:
    """``lanchester assault melee``: who holds the hex, in one edition or both side by side;
    ``compare`` (the attrs of :func:`simulator.assault.melee.compare_editions`) adds the
    differences, the first round alone and the rules that cause them."""
    first = next(iter(editions.values()))
    where = f" ({terrain})" if terrain and terrain != "clear" else ""
    both = " under each edition of chapter 12" if len(editions) > 1 else ""
    question = f"Who holds the hex when {first['attacker']} enters {first['defender']}'s hex{where}{both}?"
    sources, files = assault_data(dice=dice, aid=aid, units_dir=units_dir, parts=("dice", "aid", "units"))
    method, seed, trials = method_of(editions.values())
    prov = provenance(sources, files, method=method, seed=seed, trials=trials)
    high = []
    for edition, a in editions.items():
        tag = f" ({edition})" if len(editions) > 1 else ""
        s, se = a["summary"], a["summary"].get("se", {})
        high += [(f"round one{tag}", f"attacker {a['attacker_attack_pool']} vs {a['defender_defence_pool']}; "
                                     f"defender {a['defender_attack_pool']} vs {a['attacker_defence_pool']}"),
                 (f"P(attacker holds){tag}", _with_se(s["p_attacker_holds"], se.get("p_attacker_holds"))),
                 (f"P(defender holds){tag}", _with_se(s["p_defender_holds"], se.get("p_defender_holds"))),
                 (f"mean rounds{tag}", f"{s['mean_rounds']:.3f}"),
                 (f"strength points lost{tag}", f"attacker {s['attacker_mean_damage']:.3f}, "
                                               f"defender {s['defender_mean_damage']:.3f}")] + _run_highlights(a)
    report = close_combat_report(melee_end_states(editions), question=question, provenance=prov, highlights=high)
    report.notes = list(dict.fromkeys(n for a in editions.values() for n in a["notes"]))
    if compare is not None:
        add_edition_differences(report, compare)
    return report


DIFFERENCE_ROWS = (("P(attacker holds)", "p_attacker_holds"), ("P(defender holds)", "p_defender_holds"),
                   ("P(neither holds)", "p_neither_holds"), ("P(both eliminated)", "p_both_eliminated"),
                   ("P(unresolved)", "p_unresolved"), ("mean rounds", "mean_rounds"),
                   ("attacker's strength points lost", "attacker_mean_damage"),
                   ("defender's strength points lost", "defender_mean_damage"))


def edition_differences(compare: dict) -> pd.DataFrame:
    """``--compare-editions``: v1, v2 and v2 - v1 of each number, for the whole fight and
    for its first round alone (``EDITION_DIFFERENCE_COLUMNS``)."""
    e = compare["editions"]
    rows = [{"part": "whole fight", "measure": label, "v1": e["v1"]["summary"][key], "v2": e["v2"]["summary"][key],
             "difference": compare["difference"][key]} for label, key in DIFFERENCE_ROWS]
    fr = compare["first_round"]
    rows += [{"part": "first round alone", "measure": label, "v1": fr["v1"][key], "v2": fr["v2"][key],
              "difference": fr["difference"][key]} for label, key in DIFFERENCE_ROWS]
    return pd.DataFrame(rows, columns=EDITION_DIFFERENCE_COLUMNS)


def add_edition_differences(report: Report, compare: dict) -> None:
    """What ``melee --compare-editions`` prints beyond the end states: the difference of
    every number (whole fight, first round alone), the round-one pools of each edition and
    the rules that make them differ."""
    diff = edition_differences(compare)
    rules = pd.DataFrame(compare["differing_rules"], columns=DIFFERING_RULE_COLUMNS)
    report.tables += [
        Table("edition-differences", diff, "The two editions' numbers and their difference",
              "Each number under v1 and v2 and v2 minus v1, for the whole fight and for its first round "
              "alone (v1's single round, v2's initial round without withdrawal): the rest of the difference "
              "comes from the sequence of rounds, withdrawal and the later-round rules."),
        Table("differing-rules", rules, "Why the numbers differ",
              "The rules that differ between the editions and apply to this fight.")]
    d = compare["difference"]
    report.highlights += [("v2 - v1, P(attacker holds)", f"{100 * d['p_attacker_holds']:+.2f} points"),
                          ("v2 - v1, first round alone",
                           f"{100 * compare['first_round']['difference']['p_attacker_holds']:+.2f} points")]
    if compare["pools_differ"]:
        report.highlights.append(("round-one pools that differ", ", ".join(compare["pools_differ"])))
    report.highlights.append(("rules that differ here", ", ".join(r["rule"] for r in compare["differing_rules"])
                              or "none"))


# --- scenarios ------------------------------------------------------------------------

def scenario_report(games: pd.DataFrame, *, question: str, provenance: Provenance,
                    losses: pd.DataFrame | None = None, variants: pd.DataFrame | None = None,
                    sides: Sequence[str] | None = None, variant_side: str | None = None,
                    result: dict | None = None, games_table: bool = True,
                    losses_measure: str = "strength points", turn: str = "turn",
                    kind: str = "assault scenario") -> Report:
    """Scenario runs: win rates with intervals, convergence, turn of decision, losses by
    unit type, what-if variants.

    ``games``: one row per game (``game, winner, decided_turn``); ``losses``: ``side,
    unit_type, mean_lost[, se]``; ``variants``: ``variant, side, wins, games``
    (docs/report-columns.md). ``sides`` lists every side (so a side that never won
    still shows); ``variant_side`` is the side whose win rate the forest plot shows.
    ``games_table=False`` leaves ``games.csv`` to the caller (the scenario command
    streams its full per-game records there); ``losses_measure`` names what
    ``mean_lost`` counts; ``turn`` is the game's word for a turn (Tide of Iron's "round"),
    ``kind`` the report's kind.
    """
    from reports import charts  # matplotlib loads only when a report is written

    require(games, GAMES_INPUT_COLUMNS, "games table", optional=())
    rates = win_rate_table(games, sides)
    tables = [Table("games", tidy(games, GAMES_INPUT_COLUMNS), "Games", "One row per game played.",
                    chart="decision-turn")] \
        if games_table else []
    tables += [Table("win-rates", tidy(rates, WIN_RATE_COLUMNS), "Win rate per side",
                    "Wins over all games, with the 95% Wilson interval."),
              Table("convergence", tidy(convergence_table(games, sides), CONVERGENCE_COLUMNS),
                    "Win rate as games accumulate", "Running win rate at log-spaced numbers of games.",
                    chart="convergence"),
              Table("decision-turns", tidy(decision_turn_table(games), DECISION_TURN_COLUMNS),
                    f"{turn.capitalize()} of decision", f"Games decided in each {turn}, by winner.",
                    chart="decision-turn")]
    chart_list = [charts.win_rate_chart(games, question=question, prov=provenance, sides=sides),
                  charts.convergence_chart(games, prov=provenance, sides=sides,
                                           question="How sure are we? The win rate as games accumulate"),
                  charts.decision_turn_chart(games, prov=provenance, sides=sides, turn=turn,
                                             question=f"In which {turn} are games decided?")]
    if losses is not None:
        require(losses, LOSSES_COLUMNS, "losses table")
        tables.append(Table("losses", tidy(losses, LOSSES_COLUMNS), "Losses by unit type",
                            f"Mean {losses_measure} lost per game, by side and unit type.", chart="losses"))
        chart_list.append(charts.losses_chart(losses, prov=provenance, measure=losses_measure,
                                              question="What does each side lose, by unit type?"))
    if variants is not None:
        vt = variant_table(variants, variant_side)
        tables.append(Table("variants", tidy(vt, VARIANT_COLUMNS), "What-if variants",
                            "One side's win rate under each variant, with the 95% Wilson interval.",
                            chart="what-if"))
        chart_list.append(charts.what_if_chart(variants, side=variant_side, prov=provenance,
                                               question=f"Which variants change {vt['side'].iloc[0]}'s "
                                                        "chance to win?"))
    ends = {"draw": "P(draw)", "truncated": "P(cut short, no winner)"}
    high = [(ends.get(r["side"], f"P({r['side']} wins)"),
             f"{100 * r['p']:.1f}% (95% interval {100 * r['lo']:.1f}-{100 * r['hi']:.1f}%)")
            for r in rates.to_dict("records")] + [("games", f"{len(games):,}")]
    return Report(kind=kind, question=question, provenance=provenance, tables=tables,
                  charts=chart_list, highlights=high, result=result)


def balance_bundle(report: dict, frames: dict[str, pd.DataFrame], *, provenance: Provenance,
                   record_files: Sequence[str] = (), map_png: bytes | None = None,
                   kind: str = "assault scenario", losses_measure: str = "units eliminated",
                   first_player: bool = False) -> Report:
    """``lanchester assault scenario --out DIR``: the balance summary of
    :func:`simulator.engine.assault.balance.balance_run` with its charts (win rates, convergence,
    turn of decision, losses, what-ifs and their paired changes, each side's activity,
    the map ``map_png``) and tables; everything the terminal report says is on the page.
    The per-game records the run streamed (``record_files``, e.g. ``games.csv``,
    ``games.parquet``) stay beside them.

    Game-neutral: the words come from the report (``activity_words``, its ``turn``: Tide of
    Iron's "round"); ``frames["reasons"]`` (``reason, games, share``: how the games ended)
    adds a table and chart, ``first_player`` the table of :func:`first_player_frame`;
    ``report["data"]["notes"]`` are the page's notes on the data."""
    from reports import charts  # matplotlib loads only when a report is written

    sides = list(report["sides"])
    turn = (report.get("activity_words") or {}).get("turn", "turn")
    players = ", ".join(f"{s} {report['players'][s]}" for s in sides)
    edition = f", close combat {report['edition']}" if report.get("edition") else ""
    question = f"Is {report['data']['name']} balanced? ({players}{edition})"
    rep = scenario_report(frames["games"], question=question, provenance=provenance, losses=frames.get("losses"),
                          variants=frames.get("variants"), sides=sides, variant_side=sides[0], result=report,
                          games_table=False, losses_measure=losses_measure, turn=turn, kind=kind)
    v = report["verdict"]
    rep.highlights += [("verdict", v["text"]), ("balance test", v["test"])]
    rep.highlights += [("warning", w) for w in report.get("warnings", [])]
    rep.highlights += [
                       ("first player wins", f"{report['first_player_win_rate']:.1%}"),
                       (f"mean {turn}s", f"{report['mean_turns']:.2f} (decided before the last {turn} "
                                        f"{report['decided_early_rate']:.1%})")]
    for side in sides:
        e = report["first_player_effect"][side]
        if e.get("difference") is not None:
            rep.highlights.append((f"{side} with the initiative in {turn} 1",
                                   f"wins {e['win_rate_first']:.1%} when first, {e['win_rate_second']:.1%} "
                                   f"when second (difference {e['difference']:+.1%}, 95% interval "
                                   f"{e['ci95'][0]:+.1%} to {e['ci95'][1]:+.1%})"))
    c = report["closeness"]
    rep.highlights.append(("closeness", f"final objectives within one in {c['objective_margin_at_most_1']:.1%} "
                                        f"of games; mean relative points margin "
                                        f"{c['mean_relative_points_margin']:.3f}"))
    act = report.get("activity")
    if act:
        rep.highlights.append(("activity per game, both sides", activity_text(act, report.get("activity_words"))))
    by_side = report.get("activity_by_side")
    if by_side:
        from simulator.engine.assault.activity import activity_frame
        frame = tidy(activity_frame(by_side, sides), SIDE_ACTIVITY_COLUMNS)
        for side in sides:
            rep.highlights.append((f"{side} per game", ", ".join(
                f"{m.replace('_', ' ')} {v:.2f}" for m, v in by_side[side].items())))
        rep.tables.append(Table("activity-by-side", frame, "What each side does per game",
                                f"Per game, on average, over {by_side['sample']}: activations, shots "
                                "(ranged attack rolls, reaction fire included), reaction fires, moves "
                                "(hexes entered), close combats started.", chart="activity"))
        rep.charts.append(charts.activity_chart(frame, prov=provenance, question="What does each side do in a game?",
                                                xlabel=f"per game, on average ({by_side['sample']})"))
    if "tune" in report:
        tu = report["tune"]
        rep.highlights.append(("tuning", f"{tu['key']} for {tu['side']} winning {tu['target']:.0%}: best "
                                         f"{tu['best']['value']} ({tu['best']['win_rate']:.1%}), searched "
                                         f"{tu['values'][0]['value']}-{tu['values'][-1]['value']}"))
        if tu.get("bound_note"):
            rep.highlights.append(("warning", tu["bound_note"]))
    add_endings(rep, report, frames, provenance, first_player=first_player, turn=turn)
    if map_png is not None:
        from reports.charts import Chart
        w, h = int.from_bytes(map_png[16:20], "big"), int.from_bytes(map_png[20:24], "big")
        rep.charts.insert(1, Chart("map", f"The map of {report['data']['name']}",
                                   f"map of {report['data']['name']}: terrain, objectives and set-up",
                                   map_png, w, h))
    if report.get("games_per_second"):
        rep.highlights.append(("speed", f"{report['games_per_second']:,.0f} games/s with "
                                        f"{report['workers']} worker(s)"))
    if report.get("formations"):
        rep.tables.append(Table("formations", pd.DataFrame(
            [{"side": f["side"], "formations": " + ".join(f["formations"]), "games": f["games"],
              "p": f["win_rate"], "lo": f["ci95"][0], "hi": f["ci95"][1]} for f in report["formations"]]),
            "Win rate by drawn formations", "Each side's win rate in the games where it drew these "
            "formation cards (5.6, 5.7), with the 95% Wilson interval."))
    for key, add in (("what_if", add_what_if), ("skill_ladder", add_skill_ladder),
                     ("skill_curve", add_skill_curve), ("restricted", add_restricted)):
        if key in report:
            add(rep, report, provenance)
    if record_files:
        rep.notes.append(f"One row per game (winner, reason, {turn}s, objectives, losses by side and unit "
                         "card, first player): " + ", ".join(record_files)
                         + " (columns: docs/report-columns.md, scenario records).")
    rep.notes += list(report["data"].get("notes", []))
    rep.notes.append("Verdict: " + v["text"])
    return rep


def add_endings(rep: Report, report: dict, frames: dict[str, pd.DataFrame], provenance: Provenance, *,
                first_player: bool, turn: str) -> None:
    """How the games end (``frames["reasons"]``) and, with ``first_player``, the first player's table."""
    if "reasons" in frames:
        add_reasons(rep, frames["reasons"], provenance)
    if first_player:
        rep.tables.append(Table("first-player", first_player_frame(report), "The first player",
                                f"Each side's win rate when it had the initiative in {turn} 1 and when it did "
                                "not, the difference with its 95% interval (empty when a side always or never "
                                "starts: a what-if on who starts measures it then)."))


def first_player_frame(report: dict) -> pd.DataFrame:
    """The summary's ``first_player_effect``, one row per side."""
    rows = []
    for side in report["sides"]:
        e = report["first_player_effect"][side]
        ci = e.get("ci95") or [None, None]
        rows.append({"side": side, "games_first": e.get("games_first"), "p_first": e.get("win_rate_first"),
                     "games_second": e.get("games_second"), "p_second": e.get("win_rate_second"),
                     "difference": e.get("difference"), "lo": ci[0], "hi": ci[1]})
    return pd.DataFrame(rows, columns=["side", "games_first", "p_first", "games_second", "p_second",
                                       "difference", "lo", "hi"])


def reason_frame(records: pd.DataFrame) -> pd.DataFrame:
    """How the games ended: ``reason, games, share`` from the per-game records (their
    ``reason_name``), the most frequent first."""
    counts = records["reason_name"].value_counts()
    return pd.DataFrame({"reason": counts.index.astype(str), "games": counts.to_numpy(int),
                         "share": counts.to_numpy(float) / max(len(records), 1)})


def add_reasons(rep: Report, reasons: pd.DataFrame, provenance: Provenance) -> None:
    """How the games ended (:func:`reason_frame`): a table and a bar chart."""
    from reports import charts

    rep.tables.append(Table("reasons", reasons, "How the games end",
                            "Games by the reason they ended (the records' reason), with their share.",
                            chart="reasons"))
    rep.charts.append(charts.count_bars_chart(list(reasons["reason"]), [round(100 * float(v), 1) for v in reasons["share"]],
                                              question="How do the games end?", xlabel="reason the game ended",
                                              ylabel="% of games", prov=provenance, name="reasons"))
    top = reasons.iloc[0] if len(reasons) else None
    if top is not None:
        rep.highlights.append(("most games end", f"{top['reason']} ({top['share']:.1%})"))


def add_what_if(rep: Report, report: dict, provenance: Provenance) -> None:
    """--vary: each variant's paired change as a table and a forest plot."""
    from reports import charts

    sides = list(report["sides"])
    wi = report["what_if"]
    changes = pd.DataFrame([{"variant": f"{r['key']}={r['value']}", "side": sides[0],
                             "p": r["win_rate"][sides[0]], "other_p": r["win_rate"][sides[1]],
                             "draw_rate": r["draw_rate"], "change": r["change"],
                             "change_lo": r["change_ci95"][0], "change_hi": r["change_ci95"][1],
                             "significant": r["significant"]} for r in wi["variants"]],
                           columns=WHAT_IF_CHANGE_COLUMNS)
    rep.tables.append(Table("what-if-changes", changes, "What-if changes",
                            f"Each variant's change of {sides[0]}'s win rate against the baseline: "
                            + wi["method"] + "; significant when the 95% interval excludes 0.",
                            chart="what-if-change"))
    rep.charts.append(charts.change_chart(changes, side=sides[0], prov=provenance,
                                          question=f"How much does each variant change {sides[0]}'s "
                                                   "chance to win?"))
    n_sig = int(changes["significant"].sum())
    rep.highlights.append(("what-ifs", f"{len(changes)} variant(s); {n_sig} change {sides[0]}'s win rate "
                                       "beyond the 95% interval of the paired games"))
    if wi["closest_to_even"]:
        even = wi["closest_to_even"]
        rep.highlights.append(("closest to even of the variants", f"{even['key']}={even['value']}: " + ", ".join(
            f"{s} {even['win_rate'][s]:.1%}" for s in sides)))


def add_skill_ladder(rep: Report, report: dict, provenance: Provenance) -> None:
    """--ladder: the stronger player's win rate in each seat, as a table."""
    rows = [{"stronger": r["stronger"], "weaker": r["weaker"], "side": seat["strong_side"],
             "p": seat["strong_win_rate"], "lo": seat["ci95"][0], "hi": seat["ci95"][1],
             "weaker_p": r["weaker_same_seat_win_rate"][seat["strong_side"]], "better": seat["better"]}
            for r in report["skill_ladder"]["rungs"] for seat in r["seats"]]
    rep.tables.append(Table("skill-ladder", pd.DataFrame(rows), "Skill ladder",
                            "The stronger player's win rate in each seat against the weaker one, "
                            "beside the weaker player's own rate in that seat."))


def add_skill_curve(rep: Report, report: dict, provenance: Provenance) -> None:
    """--skill-curve: the curve's table and chart, and whether it has converged."""
    from reports import charts

    sides = list(report["sides"])
    rows = [{"level": r["level"], "side": s, "p": r["win_rate"][s]["p"], "lo": r["win_rate"][s]["ci95"][0],
             "hi": r["win_rate"][s]["ci95"][1], "games": r["games"]}
            for r in report["skill_curve"] for s in sides]
    frame = pd.DataFrame(rows, columns=SKILL_CURVE_COLUMNS)
    top = report["skill_curve"][-1]["level"]
    rep.tables.append(Table("skill-curve", frame, "Skill curve",
                            "Each side's win rate with both sides played at each level, weakest first, "
                            "with the 95% Wilson interval. " + report["skill_curve_test"] + ".",
                            chart="skill-curve"))
    rep.charts.append(charts.skill_curve_chart(frame, prov=provenance,
                                               question="Does the balance hold as the players get stronger?"))
    rep.highlights.append(("skill curve", (
        f"converged: the two strongest levels agree; the verdict is made at {top}" if report["converged"] else
        f"NOT converged: the win rates still move between the two strongest levels; the verdict, made at "
        f"{top}, may change with stronger players")))


def add_restricted(rep: Report, report: dict, provenance: Provenance) -> None:
    """--restrict / --restrict-all: each restriction's paired change, sorted, as a table
    and a forest plot."""
    from reports import charts

    rows = sorted(report["restricted"], key=lambda r: r["change"])
    frame = pd.DataFrame([{"variant": f"{r['side']}:{r['restriction']}", "side": r["side"], "p": r["win_rate"],
                           "base_p": r["base_win_rate"], "change": r["change"], "change_lo": r["ci95"][0],
                           "change_hi": r["ci95"][1], "significant": r["significant"]} for r in rows],
                         columns=RESTRICTED_COLUMNS)
    rep.tables.append(Table("restricted", frame, "Restricted play",
                            "Each restriction's win rate of the restricted side and its change against the "
                            "unrestricted run: " + report["restricted_method"] + ".", chart="restricted"))
    rep.charts.append(charts.change_chart(
        frame, side="the restricted side", prov=provenance, name="restricted", ylabel="side:restriction",
        xlabel="change of the restricted side's win rate, paired 95% interval (* red: the interval excludes 0)",
        question="What is each unit and kind of action worth? The win rate lost without it"))
    n_sig = int(frame["significant"].sum())
    rep.highlights.append(("restricted play", f"{len(frame)} restriction(s); {n_sig} change the restricted "
                                              "side's win rate beyond the 95% interval of the paired games"))


def scenario_bundle(name: str, folder: Path, *, with_result: bool = False, **kwargs):
    """``lanchester assault scenario --out DIR`` and ``lanchester demo``: play the batch of
    :func:`simulator.engine.assault.balance.balance_run` into ``folder`` (records,
    ``balance.json``); return the JSON summary and the :class:`reports.bundle.Report`
    that completes the folder (and the :class:`~simulator.engine.core.batch.RunResult` with
    ``with_result``)."""
    from reports.provenance import scenario_data
    from simulator.engine.assault.balance import balance_run
    from simulator.engine.core.balance import report_frames
    from simulator.output import atomic_write_text, to_json

    report, result = balance_run(name, out_dir=str(folder), **kwargs)
    report["files"] = [Path(f).name for f in report["files"]]
    sources, files = scenario_data(result.game)
    prov = provenance(sources, files, method="monte-carlo", seed=report["seed"], trials=report["games"],
                      unit="games")
    atomic_write_text(Path(folder) / "balance.json", to_json(report), option=None)   # inside the staging folder
    from simulator.engine.assault.mapdraw import draw_map
    scenario = result.game.scenario
    map_png = draw_map(scenario, title=f"{scenario.name}: the map and the set-up",
                       footer="\n".join(prov.footer_lines()))
    bundle = balance_bundle(report, report_frames(report, result), provenance=prov,
                            record_files=report["files"], map_png=map_png)
    return (report, bundle, result) if with_result else (report, bundle)


def replay_report(events: pd.DataFrame, *, final_png: Callable[[str], bytes], provenance: Provenance,
                  result: dict, turns: pd.DataFrame | None = None) -> Report:
    """``lanchester assault replay --out DIR``: one game of a batch, turn by turn, and
    its final position. ``final_png(footer)`` draws the position with the footer;
    ``turns`` (``TURN_ACTIVITY_COLUMNS``, :func:`simulator.engine.assault.activity.turn_activity`)
    what each side did in each turn, drawn as a chart."""
    from reports import charts
    from reports.charts import Chart

    a = events.attrs
    question = f"How did game {a['game']} of {a['scenario']} (seed {a['seed']}) go?"
    png = final_png("\n".join(provenance.footer_lines()))
    w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    cut = bool(a.get("truncated"))
    winner = "none (cut short at the decision limit)" if cut else a["winner"] or "draw"
    chart = Chart("final-position", f"The final position: {winner if winner == 'draw' or cut else winner + ' wins'}",
                  f"map of the final position of game {a['game']}; winner {winner}", png, w, h)
    tables = [Table("events", events, "The game, event by event",
                    "Every activation, roll and result in order, as `assault replay` prints it; every "
                    "unit named with its side.", chart="turns" if turns is not None else None)]
    chart_list = [chart]
    if turns is not None:
        turns = tidy(turns, TURN_ACTIVITY_COLUMNS)
        tables.append(Table("turns", turns, "What each side did in each turn",
                            "Activations, shots (ranged attack rolls), reaction fires, moves (hexes entered) "
                            "and close combats started, by turn and side.", chart="turns"))
        chart_list.append(charts.turn_activity_chart(turns, prov=provenance,
                                                     question=f"What did each side do in each turn of game "
                                                              f"{a['game']}?"))
    rep = Report(kind="assault replay", question=question, provenance=provenance,
                 tables=tables, charts=chart_list, result=result,
                 highlights=[("winner", winner), ("turns played", str(result["turns"])),
                             ("players", ", ".join(f"{k} {v}" for k, v in result["players"].items()))])
    return rep
