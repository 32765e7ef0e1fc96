"""The reports of the Assault commands: which tables, which charts, which question.

Each ``*_report`` function takes what the command computed (its answer(s), values of
:mod:`simulator.games.assault.questions.answers`, or its table) and returns a
:class:`reports.bundle.Report`. The close-combat and
scenario reports take the tables documented in ``docs/report-columns.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np
import pandas as pd

from reports.balance import balance_bundle
from reports.bundle import Report, Table
from reports.provenance import Provenance, method_of, provenance
from reports.tables import (
    CLOSE_COMBAT_COLUMNS,
    DIFFERING_RULE_COLUMNS,
    EDITION_DIFFERENCE_COLUMNS,
    FIRE_STATE_COLUMNS,
    LADDER_COLUMNS,
    ODDS_OUTCOME_COLUMNS,
    RESOLVE_SYMBOL_COLUMNS,
    SMOKE_PLACEMENT_COLUMNS,
    TURN_ACTIVITY_COLUMNS,
    ladder,
    require,
    tidy,
)
from simulator.games.assault.report.provenance import assault_data
from simulator.games.assault.report.text import state_label
from simulator.run.output import pct

if TYPE_CHECKING:
    from simulator.games.assault.questions.answers import (
        EditionsAnswer,
        FireAnswer,
        MatrixAnswer,
        MeleeAnswer,
        OddsAnswer,
        SmokeAnswer,
        TerrainDamageAnswer,
        UnitCards,
    )


def _with_se(p: float, se: float | None) -> str:
    return pct(p, se).strip()


def _highlights(answers: Sequence[FireAnswer | TerrainDamageAnswer],
                rows: Sequence[tuple[str, str, bool]]) -> list[tuple[str, str]]:
    """``rows``: (label, summary key, is a probability) -> one line per series."""
    return _summary_highlights([(x.summary, x.how.label) for x in answers], rows)


def _summary_highlights(series: Sequence[tuple[dict, str]],
                        rows: Sequence[tuple[str, str, bool]]) -> list[tuple[str, str]]:
    """``series``: (summary as JSON, series label) of each answer; ``rows``: (label,
    summary key, is a probability) -> one line per series."""
    out = []
    for s, tag in series:
        se = s.get("se", {})
        for label, key, is_p in rows:
            v = s[key]
            text = _with_se(v, se.get(key)) if is_p else (f"{v:.3f}" + (f" ±{se[key]:.3f}" if key in se else ""))
            out.append((f"{label} ({tag})" if len(series) > 1 else label, text))
    return out


# --- odds -----------------------------------------------------------------------------

def odds_report(answers: Sequence[OddsAnswer]) -> Report:
    """``lanchester assault odds``: damage bars and "at least" curve, outcome table."""
    from reports import charts  # matplotlib loads only when a report is written
    from simulator.games.assault.questions.odds import damage_pmf

    a = answers[0]
    extra = (f", doubles count {a.doubles}" if a.doubles != "all" else "") + \
            (f", +{a.extra_supp} suppression" if a.extra_supp else "")
    question = f"How much damage does {a.attack} do against {a.defence}{extra}?"
    sources, files = assault_data(dice=a.dice_file)
    method, seed, trials = method_of(x.how.to_json() for x in answers)
    prov = provenance(sources, files, method=method, seed=seed, trials=trials)
    steps = pd.concat([ladder(damage_pmf(x), series=x.how.label, trials=x.trials) for x in answers],
                      ignore_index=True)
    outcomes = pd.concat([tidy(x.frame().assign(series=x.how.label), ODDS_OUTCOME_COLUMNS) for x in answers],
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
        highlights=_summary_highlights([(x.summary.to_json(), x.how.label) for x in answers],
                                       [("mean damage", "mean_damage", False),
                                        ("P(any effect)", "p_any", True),
                                        ("P(suppression symbol left)", "p_supp", True)]))


# --- fire -----------------------------------------------------------------------------

def fire_ladder(answer: FireAnswer) -> pd.DataFrame:
    """Damage points this fire deals, the top level being 'eliminated'."""
    return damage_ladder(answer, answer.target_damage_before, answer.target_strength)


def damage_ladder(answer: FireAnswer | TerrainDamageAnswer, before: int, strength: int) -> pd.DataFrame:
    """Damage points taken, from a state table (fire, terrain damage); top level 'eliminated'."""
    frame = answer.table
    taken = (frame["damage"] - before).to_numpy(int)
    pmf = np.bincount(taken, weights=frame["p"].to_numpy(float), minlength=strength - before + 1)
    labels = [str(k) for k in range(len(pmf) - 1)] + [f"eliminated ({len(pmf) - 1})"]
    return ladder(pmf, series=answer.how.label, labels=labels, trials=answer.trials)


def fire_report(answers: Sequence[FireAnswer], *, terrain: str | None = None, dice=None, aid=None,
                units_dir=None, support=None) -> Report:
    """``lanchester assault fire``: damage ladder, target states, pools and spotting."""
    from reports import charts  # matplotlib loads only when a report is written

    a = answers[0]
    where = f" in {terrain}" if terrain and terrain != "clear" else ""
    question = f"What happens to {a.target} when {a.firer} fires at it at range {a.range}{where}?"
    sources, files = assault_data(dice=dice, aid=aid, units_dir=units_dir, support=support,
                                  parts=("dice", "aid", "units", "support"))
    method, seed, trials = method_of(x.how.to_json() for x in answers)
    prov = provenance(sources, files, method=method, seed=seed, trials=trials)
    steps = pd.concat([fire_ladder(x) for x in answers], ignore_index=True)
    states = pd.concat([state_table(x) for x in answers], ignore_index=True)
    pools = f"attack {a.attack_pool} vs defence {a.defence_pool}" + (
        f" (spotting failed: {a.defence_pool_unspotted})" if a.defence_pool_unspotted else "")
    return Report(
        kind="assault fire", question=question, provenance=prov,
        tables=[Table("damage", tidy(steps, LADDER_COLUMNS), "Damage points dealt: exactly and at least",
                      "Damage points this fire deals; the top level is the target eliminated.", chart="damage"),
                Table("states", states, "The target afterwards", "One row per state of the target after the fire.",
                      chart="states")],
        charts=[charts.outcome_chart(steps, name="damage", question=question, prov=prov,
                                     xlabel="damage points dealt by this fire (10.7.3)"),
                charts.state_chart(states, name="states", prov=prov,
                                   question=f"In what state is {a.target} after the fire?")],
        highlights=[("pools", pools), ("P(spotted)", pct(a.p_spotted).strip())]
        + _highlights(answers, [("P(eliminated)", "p_eliminated", True),
                               ("P(suppressed, fallback or eliminated)", "p_suppressed_fallback_or_eliminated", True),
                               ("P(fallback)", "p_fallback", True),
                               ("mean damage", "mean_damage", False)]) + _run_highlights({"run": a.run}),
        notes=_explain_notes({"explain": a.explain}))


def state_table(answer: FireAnswer | TerrainDamageAnswer) -> pd.DataFrame:
    """A state table (fire, terrain damage) as ``FIRE_STATE_COLUMNS``, states in words."""
    frame = answer.table
    return tidy(frame.assign(series=answer.how.label,
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


def smoke_report(a: SmokeAnswer, *, dice=None, aid=None, units_dir=None, support=None) -> Report:
    """``lanchester assault smoke``: markers in each hex (exactly / at least), the placements."""
    from reports import charts  # matplotlib loads only when a report is written

    question = f"How many smoke markers does {a.firer} land in each of up to {a.hexes} hexes?"
    sources, files = assault_data(dice=dice, aid=aid, units_dir=units_dir, support=support,
                                  parts=("dice", "aid", "units", "support"))
    method, seed, trials = method_of([a.how.to_json()])
    prov = provenance(sources, files, method=method, seed=seed, trials=trials)
    cap = a.max_markers_per_hex
    markers = pd.concat([ladder(h["p_markers"], series=f"hex {h['hex']} ({h['name']})", trials=a.trials,
                                labels=[f"{k} marker{'s' if k != 1 else ''}" for k in range(cap + 1)])
                         for h in a.per_hex], ignore_index=True)
    chart = charts.outcome_chart(markers, name="markers", question=question, prov=prov,
                                 xlabel=f"smoke markers in the hex (7.5: each crit or hit, at most {cap})")
    first, s = a.per_hex[0], a.summary
    high = [("smoke dice", a.smoke_pool + (f" (doubles count {a.doubles})" if a.doubles != "all" else "")),
            ("P(target hex smoked)", _with_se(first["p_any"], first.get("se", {}).get("p_any"))),
            ("P(LOS through the target hex blocked)",
             _with_se(first["p_los_blocked"], first.get("se", {}).get("p_los_blocked"))),
            ("mean markers, all hexes", f"{s['mean_total_markers']:.3f}"),
            ("P(every hex smoked)", pct(s["p_every_hex_smoked"]).strip())] + _run_highlights({"run": a.run})
    return Report(
        kind="assault smoke", question=question, provenance=prov,
        tables=[Table("markers", tidy(markers, LADDER_COLUMNS), "Markers in each hex: exactly and at least",
                      "One row per hex and number of markers (7.5).", chart="markers"),
                Table("placements", tidy(a.table, SMOKE_PLACEMENT_COLUMNS), "Markers in hex 1, 2 and 3 together",
                      "One row per placement of markers over the hexes.", chart="markers")],
        charts=[chart], highlights=high, notes=_explain_notes({"explain": a.explain}))


def terrain_damage_report(answer: TerrainDamageAnswer, *, dice=None, aid=None, units_dir=None) -> Report:
    """``lanchester assault terrain-damage``: damage ladder and the vehicle's states."""
    from reports import charts  # matplotlib loads only when a report is written

    question = f"What does entering {answer.terrain}{' on a hill' if answer.hill else ''} do to {answer.vehicle}?"
    sources, files = assault_data(dice=dice, aid=aid, units_dir=units_dir, parts=("dice", "aid", "units"))
    method, seed, trials = method_of([answer.how.to_json()])
    prov = provenance(sources, files, method=method, seed=seed, trials=trials)
    steps = damage_ladder(answer, answer.damage_before, answer.vehicle_strength)
    states = state_table(answer)
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
                                   question=f"In what state is {answer.vehicle} afterwards?")],
        highlights=[("pools", f"terrain {answer.attack_pool} vs {answer.defence_pool} (strongest card die)")]
        + _highlights([answer], [("P(immobilised)", "p_immobilised", True),
                                ("P(eliminated)", "p_eliminated", True),
                                ("P(suppressed, fallback or eliminated)", "p_suppressed_fallback_or_eliminated", True),
                                ("mean damage", "mean_damage", False)]) + _run_highlights({"run": answer.run}),
        notes=_explain_notes({"explain": answer.explain}))


# --- units ----------------------------------------------------------------------------

def units_report(answer: UnitCards, *, dice=None) -> Report:
    """``lanchester assault units``: the roster table and a range card of every unit."""
    from reports import charts  # matplotlib loads only when a report is written
    from simulator.games.assault.rules.cards import UNITS_COLUMNS

    frame = answer.table
    question = "What can each unit card do: how many attack dice at each range?"
    sources, files = assault_data(dice=dice, units_dir=answer.units_dir, parts=("dice", "units"))
    prov = provenance(sources, files, method="data")
    return Report(
        kind="assault units", question=question, provenance=prov,
        tables=[Table("units", tidy(frame, UNITS_COLUMNS), "Unit cards",
                      "One row per unit card; ranges and close_combat: dice vs armoured vehicles / vs the rest.",
                      chart="ranges")],
        charts=[charts.unit_range_chart(answer.cards, question="How many attack dice does each unit roll "
                                        "at each range?", prov=prov)],
        highlights=[("units", str(len(frame))), ("sides", ", ".join(sorted(frame["side"].unique())))])


# --- the matchup matrix -----------------------------------------------------------------

MATRIX_QUESTIONS = {
    "p_eliminated": "How likely is each firer to eliminate each target with direct fire{where}?",
    "p_suppressed_fallback_or_eliminated": "How likely is each firer to leave each target suppressed, fallen back "
                                           "or eliminated with direct fire{where}?",
    "mean_damage": "How much damage does each firer deal to each target with direct fire{where}, on average?",
}


def matrix_report(answer: MatrixAnswer, metric: str = "p_eliminated", *, dice=None, aid=None,
                  units_dir=None, support=None, plot: str = "heatmap") -> Report:
    """``lanchester assault matrix``: the tidy matrix and one heatmap per terrain
    (``plot="lines"``: one line chart of ``metric`` by range, a panel per terrain)."""
    from reports import charts  # matplotlib loads only when a report is written
    from simulator.games.assault.questions.matrix import MATRIX_COLUMNS

    frame = answer.frame()
    terrains = answer.terrains
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
    high = [("fire", answer.fire),
            ("cells", f"{len(frame):,} ({len(fired):,} can fire)"),
            ("situation", f"regular units, undamaged, steady; firer firing; spotting by the rules; "
                          f"vehicle targets hit on the {answer.facing}")]
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
        result=answer.question() | {"metric": metric, "plot": plot})


# --- close combat ---------------------------------------------------------------------

def close_combat_report(end_states: pd.DataFrame, *, question: str, provenance: Provenance,
                        result: dict | None = None, highlights: Sequence[tuple[str, str]] = ()) -> Report:
    """Close combat (chapter 12): end states, both editions side by side.

    ``end_states`` has the columns ``edition, end_state, p`` and optionally ``se``
    (docs/report-columns.md); ``provenance`` is built by the caller with
    :func:`reports.provenance.provenance` and :func:`simulator.games.assault.report.provenance.assault_data`.
    """
    from reports import charts  # matplotlib loads only when a report is written

    require(end_states, CLOSE_COMBAT_COLUMNS, "close-combat end states", optional=("se", "lo", "hi"))
    table = tidy(end_states, CLOSE_COMBAT_COLUMNS)
    return Report(
        kind="assault close combat", question=question, provenance=provenance,
        tables=[Table("end-states", table, "End states of the close combat",
                      "One row per edition and end state.", chart="end-states")],
        charts=[charts.close_combat_chart(table, question=question, prov=provenance)],
        highlights=list(highlights), result=result)


MELEE_END_STATES = ("attacker holds", "defender holds", "neither holds", "unresolved")


def melee_end_states(editions: dict[str, MeleeAnswer]) -> pd.DataFrame:
    """``CLOSE_COMBAT_COLUMNS`` from melee answers (by edition): who holds
    the hex, one row per edition and end state, with ``se`` and the 95% interval ``lo``,
    ``hi`` (the summary's ``ci95``: Wilson's, exact at 10 or fewer) by Monte Carlo."""
    rows = []
    for edition, a in editions.items():
        s = a.summary
        se = s.get("se", {})
        ci = s.get("ci95", {})
        for end in MELEE_END_STATES:
            key = "p_" + end.replace(" ", "_")
            lo, hi = ci.get(key, (np.nan, np.nan))
            rows.append({"edition": edition, "end_state": end, "p": s[key], "se": se.get(key, np.nan),
                         "lo": lo, "hi": hi})
    return pd.DataFrame(rows, columns=CLOSE_COMBAT_COLUMNS)


def melee_report(editions: dict[str, MeleeAnswer], *, terrain: str = "clear", dice=None, aid=None,
                 units_dir=None, compare: EditionsAnswer | None = None) -> Report:
    """``lanchester assault melee``: who holds the hex, in one edition or both side by side;
    ``compare`` (the answer of :func:`simulator.games.assault.questions.melee.compare_editions`) adds the
    differences, the first round alone and the rules that cause them."""
    first = next(iter(editions.values()))
    where = f" ({terrain})" if terrain and terrain != "clear" else ""
    both = " under each edition of chapter 12" if len(editions) > 1 else ""
    question = f"Who holds the hex when {first.attacker} enters {first.defender}'s hex{where}{both}?"
    sources, files = assault_data(dice=dice, aid=aid, units_dir=units_dir, parts=("dice", "aid", "units"))
    method, seed, trials = method_of(a.how.to_json() for a in editions.values())
    prov = provenance(sources, files, method=method, seed=seed, trials=trials)
    high = []
    for edition, a in editions.items():
        tag = f" ({edition})" if len(editions) > 1 else ""
        s, se, r1 = a.summary, a.summary.get("se", {}), a.round_one
        high += [(f"round one{tag}", f"attacker {r1['attacker_attack_pool']} vs {r1['defender_defence_pool']}; "
                                     f"defender {r1['defender_attack_pool']} vs {r1['attacker_defence_pool']}"),
                 (f"P(attacker holds){tag}", _with_se(s["p_attacker_holds"], se.get("p_attacker_holds"))),
                 (f"P(defender holds){tag}", _with_se(s["p_defender_holds"], se.get("p_defender_holds"))),
                 (f"mean rounds{tag}", f"{s['mean_rounds']:.3f}"),
                 (f"strength points lost{tag}", f"attacker {s['attacker_mean_damage']:.3f}, "
                                               f"defender {s['defender_mean_damage']:.3f}")] + _run_highlights({"run": a.run})
    report = close_combat_report(melee_end_states(editions), question=question, provenance=prov, highlights=high)
    report.notes = list(dict.fromkeys(n for a in editions.values() for n in a.notes))
    if compare is not None:
        add_edition_differences(report, compare)
    return report


DIFFERENCE_ROWS = (("P(attacker holds)", "p_attacker_holds"), ("P(defender holds)", "p_defender_holds"),
                   ("P(neither holds)", "p_neither_holds"), ("P(both eliminated)", "p_both_eliminated"),
                   ("P(unresolved)", "p_unresolved"), ("mean rounds", "mean_rounds"),
                   ("attacker's strength points lost", "attacker_mean_damage"),
                   ("defender's strength points lost", "defender_mean_damage"))


def edition_differences(compare: EditionsAnswer) -> pd.DataFrame:
    """``--compare-editions``: v1, v2 and v2 - v1 of each number, for the whole fight and
    for its first round alone (``EDITION_DIFFERENCE_COLUMNS``)."""
    e = compare.editions
    rows = [{"part": "whole fight", "measure": label, "v1": e["v1"].summary[key], "v2": e["v2"].summary[key],
             "difference": compare.difference[key]} for label, key in DIFFERENCE_ROWS]
    fr = compare.first_round
    rows += [{"part": "first round alone", "measure": label, "v1": fr["v1"][key], "v2": fr["v2"][key],
              "difference": fr["difference"][key]} for label, key in DIFFERENCE_ROWS]
    return pd.DataFrame(rows, columns=EDITION_DIFFERENCE_COLUMNS)


def add_edition_differences(report: Report, compare: EditionsAnswer) -> None:
    """What ``melee --compare-editions`` prints beyond the end states: the difference of
    every number (whole fight, first round alone), the round-one pools of each edition and
    the rules that make them differ."""
    diff = edition_differences(compare)
    rules = pd.DataFrame(compare.differing_rules, columns=DIFFERING_RULE_COLUMNS)
    report.tables += [
        Table("edition-differences", diff, "The two editions' numbers and their difference",
              "Each number under v1 and v2 and v2 minus v1, for the whole fight and for its first round "
              "alone (v1's single round, v2's initial round without withdrawal): the rest of the difference "
              "comes from the sequence of rounds, withdrawal and the later-round rules."),
        Table("differing-rules", rules, "Why the numbers differ",
              "The rules that differ between the editions and apply to this fight.")]
    d = compare.difference
    report.highlights += [("v2 - v1, P(attacker holds)", f"{100 * d['p_attacker_holds']:+.2f} points"),
                          ("v2 - v1, first round alone",
                           f"{100 * compare.first_round['difference']['p_attacker_holds']:+.2f} points")]
    if compare.pools_differ:
        report.highlights.append(("round-one pools that differ", ", ".join(compare.pools_differ)))
    report.highlights.append(("rules that differ here", ", ".join(r["rule"] for r in compare.differing_rules)
                              or "none"))


def scenario_bundle(name: str, folder: Path, *, with_result: bool = False, **kwargs):
    """``lanchester assault scenario --out DIR`` and ``lanchester demo``: play the batch of
    :func:`simulator.games.assault.game.balance.balance_run` into ``folder`` (records,
    ``balance.json``); return the JSON summary and the :class:`reports.bundle.Report`
    that completes the folder (and the :class:`~simulator.engine.core.batch.RunResult` with
    ``with_result``)."""
    from simulator.engine.core.answers import BalanceReport
    from simulator.engine.core.balance import report_frames
    from simulator.games.assault.game.balance import balance_run
    from simulator.games.assault.report.provenance import scenario_data
    from simulator.run.output import atomic_write_text, to_json

    kwargs.setdefault("what_matters", "auto")      # the batch report's short restricted play (what matters most)
    report, result = balance_run(name, out_dir=str(folder), **kwargs)
    report["files"] = [Path(f).name for f in report["files"]]
    typed = BalanceReport.of(report)       # the renderers read its fields; the dict is its JSON
    sources, files = scenario_data(result.game)
    prov = provenance(sources, files, method="monte-carlo", seed=typed.seed, trials=typed.games,
                      unit="games")
    from reports.value import add_learned_value
    add_learned_value(report, result.game, folder, prov)      # mcts:N:learned: the value used, its calibration
    atomic_write_text(Path(folder) / "balance.json", to_json(typed.to_json()), option=None)   # inside the staging folder
    from simulator.games.assault.game.mapdraw import draw_map
    scenario = result.game.scenario
    map_png = draw_map(scenario, title=f"{scenario.name}: the map and the set-up",
                       footer="\n".join(prov.footer_lines()))
    bundle = balance_bundle(typed, report_frames(report, result), provenance=prov,
                            record_files=typed.files, map_png=map_png,
                            heat_map=heat_drawer(scenario, "\n".join(prov.footer_lines())))
    return (report, bundle, result) if with_result else (report, bundle)


def heat_drawer(scenario, footer: str):
    """The balance page's heat maps: ``(values, side, kind, title)`` -> the map with one
    side's per-game rate by hex in its faction's colour."""
    from simulator.engine.core.mapdraw import FACTION_COLOURS, Heat
    from simulator.games.assault.game.mapdraw import draw_map

    names = list(scenario.sides)

    def draw(values: dict, side: int, kind: str, title: str) -> bytes:
        colour = FACTION_COLOURS.get(scenario.sides[names[side]].faction, "#555555")
        return draw_map(scenario, title=title, footer=footer,
                        heat=Heat(values, colour, f"{names[side]}: {kind} per game"))
    return draw


def replay_report(events: pd.DataFrame, *, final_png: Callable[[str], bytes], provenance: Provenance,
                  result: dict, turns: pd.DataFrame | None = None) -> Report:
    """``lanchester assault replay --out DIR``: one game of a batch, turn by turn, and
    its final position. ``final_png(footer)`` draws the position with the footer;
    ``turns`` (``TURN_ACTIVITY_COLUMNS``, :func:`simulator.games.assault.game.activity.turn_activity`)
    what each side did in each turn, drawn as a chart."""
    from reports import charts
    from reports.charts import Chart

    a = result      # the game as replay_json says it: scenario, seed, game, winner, truncated
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


def replay_viewer_html(st, players: tuple[str, str], footer: str = "", exact: bool = True) -> str:
    """``lanchester assault replay --out DIR``'s ``viewer.html``: the game ``st`` (from
    :func:`simulator.games.assault.game.replay.replay_game`) step by step on its map
    (:func:`reports.replay_viewer.viewer_page`), the positions from
    :func:`simulator.games.assault.game.replay.viewer_data`."""
    from reports.replay_viewer import viewer_page
    from simulator.engine.core.mapdraw import FACTION_COLOURS
    from simulator.games.assault.game.mapdraw import draw_map
    from simulator.games.assault.game.replay import truncated, viewer_data
    from simulator.games.assault.game.state import ONMAP, STATUS_NAMES, U_SIDE, U_TYPE
    from simulator.games.assault.rules.damage import MORALE_NAMES

    g, sc = st.game, st.game.scenario
    data = viewer_data(st, exact=exact)
    geometry: dict = {}
    png = draw_map(sc, pieces=[], dpi=110, title=f"{sc.name}: game {st.game_index} of seed {st.seed}",
                   geometry=geometry)
    sides = [{"name": s, "colour": FACTION_COLOURS.get(sc.sides[s].faction, "#444444")} for s in g.sides]
    units = []
    for u in range(g.n_units):
        label = g.unit_label(u)
        units.append({"label": label, "short": label.replace("'", "")[:12], "side": int(st.s.u[u, U_SIDE]),
                      "strength": int(g.types[int(st.s.u[u, U_TYPE])].card.strength)})
    w = st.winner
    result = "cut short, no winner" if truncated(st) else "a draw" if w < 0 else g.sides[w] + " wins"
    return viewer_page(title=f"{sc.name}: game {st.game_index} of seed {st.seed}",
                       subtitle=f"{result} after {st.turn} turns; players: "
                                + ", ".join(f"{s} {p}" for s, p in zip(g.sides, players, strict=True)),
                       map_png=png, geometry=geometry, hex_names=list(g.cm.names), units=units, sides=sides,
                       rows=data["rows"], frames=data["frames"], status_names=list(STATUS_NAMES),
                       on_map=[int(ONMAP)], morale_names=list(MORALE_NAMES),
                       objectives=[o.hex for o in sc.objective_list], footer=footer)
