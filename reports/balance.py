"""The balance report of a scenario run, shared by every game: its tables, charts and
highlights (win rates, convergence, decision turns, losses, what-ifs, the skill ladder and
curve, restricted play, how games end)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import pandas as pd

from reports.bundle import Report, Table
from reports.provenance import Provenance
from reports.scenario_text import activity_text, until_decided_line, verdict_line
from reports.tables import (
    BY_DEFAULT,
    CONVERGENCE_COLUMNS,
    DECISION_TURN_COLUMNS,
    GAMES_INPUT_COLUMNS,
    GRID_COLUMNS,
    LOSSES_COLUMNS,
    REASON_COLUMNS,
    RESTRICTED_COLUMNS,
    SIDE_ACTIVITY_COLUMNS,
    SKILL_CONVERGENCE_COLUMNS,
    SKILL_CURVE_COLUMNS,
    VARIANT_COLUMNS,
    WHAT_IF_CHANGE_COLUMNS,
    WIN_RATE_COLUMNS,
    convergence_table,
    decision_turn_table,
    hex_heat_table,
    objective_control_table,
    require,
    tidy,
    variant_table,
    win_rate_table,
)
from simulator.run.progress import rate_text

if TYPE_CHECKING:     # reports/ may not import the engine (tests/test_layers.py): the fields it reads
    from reports.scenario_text import BalanceReport

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
              Table("decision-turns", tidy(decision_turn_table(games, turn=turn), DECISION_TURN_COLUMNS),
                    f"{turn.capitalize()} of decision",
                    f"Games decided in each {turn}, by winner; games won by default (neither side met its "
                    f"conditions: the scenario's winner then) in their own row, '{BY_DEFAULT}'.",
                    chart="decision-turn")]
    verdict = (result or {}).get("verdict") if isinstance((result or {}).get("verdict"), dict) else None
    margin = verdict.get("margin") if verdict else None
    chart_list = [charts.win_rate_chart(games, question=question, prov=provenance, sides=sides, verdict=verdict),
                  charts.convergence_chart(games, prov=provenance, sides=sides, margin=margin,
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


def balance_bundle(typed: BalanceReport, frames: dict[str, pd.DataFrame], *, provenance: Provenance,
                   record_files: Sequence[str] = (), map_png: bytes | None = None,
                   kind: str = "assault scenario", losses_measure: str = "units eliminated",
                   first_player: bool = False, heat_map=None) -> Report:
    """``lanchester assault scenario --out DIR``: the balance report ``typed``
    (:class:`simulator.engine.core.answers.BalanceReport` of the summary of
    :func:`simulator.games.assault.game.balance.balance_run`) with its charts (win rates, convergence,
    turn of decision, losses, what-ifs and their paired changes, each side's activity,
    the map ``map_png``) and tables; everything the terminal report says is on the page.
    The per-game records the run streamed (``record_files``, e.g. ``games.csv``,
    ``games.parquet``) stay beside them.

    Game-neutral: the words come from the report (``activity_words``, its ``turn``: Tide of
    Iron's "round"); ``frames["reasons"]`` (``reason, games, share``: how the games ended)
    adds a table and chart, ``first_player`` the table of :func:`first_player_frame`;
    the data's ``notes`` are the page's notes on the data. ``frames["control"]`` and
    ``frames["heat"]`` (:func:`simulator.engine.core.balance.where_frames`) add where the games
    are won and lost (:func:`add_where`); ``heat_map(values, side, kind, title)`` draws one
    side's heat of one kind over the game's map (PNG bytes)."""
    from reports import charts  # matplotlib loads only when a report is written

    sides = list(typed.sides)
    turn = typed.turn_word
    players = ", ".join(f"{s} {typed.players[s]}" for s in sides)
    edition = f", close combat {typed.edition}" if typed.edition else ""
    question = f"Is {typed.name} balanced? ({players}{edition})"
    rep = scenario_report(frames["games"], question=question, provenance=provenance, losses=frames.get("losses"),
                          variants=frames.get("variants"), sides=sides, variant_side=sides[0],
                          result=typed.to_json(), games_table=False, losses_measure=losses_measure, turn=turn,
                          kind=kind)
    v = typed.verdict_of
    rep.highlights += [(verdict_label(v), v.text), ("balance test", v.test)]
    until = typed.until_decided
    if until:
        rep.highlights.append(("until decided", until_decided_line(until).strip(" ()")))
    rep.highlights += [("warning", w) for w in typed.warnings]
    rep.highlights += [
                       ("first player wins", f"{typed.first_player_win_rate:.1%}"),
                       (f"mean {turn}s", f"{typed.mean_turns:.2f} (over before the last {turn} "
                                        f"{typed.decided_early_rate:.1%})")]
    fp = typed.first_player_effect
    for side in sides[:1] if fp.get("same_for_both") else sides:
        e = fp[side]
        if e.get("difference") is not None:
            rep.highlights.append((f"{side} with the initiative in {turn} 1",
                                   f"wins {e['win_rate_first']:.1%} when first, {e['win_rate_second']:.1%} "
                                   f"when second (difference {e['difference']:+.1%}, 95% interval "
                                   f"{e['ci95'][0]:+.1%} to {e['ci95'][1]:+.1%}"
                                   + (f"; no draws, so {sides[1]}'s difference is the same" if fp.get(
                                       "same_for_both") else "") + f"; {turn} 1's initiative only)"))
    c = typed.closeness
    ci = c.get("objective_margin_at_most_1_ci95")
    se = c.get("se", {}).get("mean_relative_points_margin")
    rep.highlights.append(("closeness", f"final objectives within one in {c['objective_margin_at_most_1']:.1%} "
                                        + (f"[{ci[0]:.1%}, {ci[1]:.1%}] " if ci else "")
                                        + "of games; mean relative points margin "
                                        f"{c['mean_relative_points_margin']:.3f}"
                                        + (f" ±{se:.3f} (1 SE)" if se is not None else "")))
    act = typed.activity
    if act:
        rep.highlights.append(("activity per game, both sides", activity_text(act, typed.activity_words)))
    by_side = typed.activity_by_side
    if by_side:
        frame = tidy(activity_frame(by_side, sides), SIDE_ACTIVITY_COLUMNS)
        for side in sides:
            rep.highlights.append((f"{side} per game", ", ".join(
                f"{m.replace('_', ' ')} {v:.2f}" for m, v in by_side[side].items())))
        rep.tables.append(Table("activity-by-side", frame, "What each side does per game",
                                f"Per game, on average, over {by_side['sample']}: "
                                + by_side.get("measures", "activations, shots (ranged attack rolls, reaction fire "
                                              "included), reaction fires, moves (hexes entered), close combats "
                                              "started."), chart="activity"))
        rep.charts.append(charts.activity_chart(frame, prov=provenance, question="What does each side do in a game?",
                                                xlabel=f"per game, on average ({by_side['sample']})"))
    if typed.tune is not None:
        rep.highlights += tune_highlights(typed.tune)
    add_endings(rep, typed, frames, provenance, first_player=first_player, turn=turn)
    add_where(rep, frames, provenance, sides=sides, turn=turn, heat_map=heat_map)
    if typed.what_matters:
        rep.highlights.append(("what matters most", typed.what_matters))
    if map_png is not None:
        from reports.charts import Chart
        w, h = int.from_bytes(map_png[16:20], "big"), int.from_bytes(map_png[20:24], "big")
        rep.charts.insert(1, Chart("map", f"The map of {typed.name}", f"map of {typed.name}: terrain, objectives "
                                   "and set-up", map_png, w, h))
    if typed.games_per_second:
        rep.highlights.append(("speed", f"{rate_text(typed.games_per_second, 1.0)} with "
                                        f"{typed.workers} worker(s)"))
    if typed.formations:
        rep.tables.append(Table("formations", pd.DataFrame(
            [{"side": f["side"], "formations": " + ".join(f["formations"]), "games": f["games"],
              "p": f["win_rate"], "lo": f["ci95"][0], "hi": f["ci95"][1]} for f in typed.formations]),
            "Win rate by drawn formations", "Each side's win rate in the games where it drew these "
            "formation cards (5.6, 5.7), with the 95% Wilson interval."))
    for present, add in ((typed.what_if_family is not None, add_what_if), (typed.grid is not None, add_grid),
                         (typed.skill_ladder is not None, add_skill_ladder), (bool(typed.skill_curve), add_skill_curve),
                         (typed.restricted is not None, add_restricted)):
        if present:
            add(rep, typed, provenance)
    if record_files:
        rep.notes.append(f"One row per game (winner, reason, {turn}s, objectives, losses by side and unit "
                         "card, first player): " + ", ".join(record_files)
                         + " (columns: docs/report-columns.md, scenario records).")
    rep.notes += list(typed.data.get("notes", []))
    rep.notes.append(verdict_line(v))
    return rep


def tune_highlights(tu) -> list[tuple[str, str]]:
    """--tune (:class:`simulator.engine.core.answers.Tune`): the best value, a warning at the
    search's end, the confirmation on fresh seeds."""
    out = [("tuning", f"{tu.key} for {tu.side} winning {tu.target:.0%}: best "
                      f"{tu.best.value} ({tu.best.win_rate:.1%}), searched "
                      f"{tu.values[0].value}-{tu.values[-1].value}")]
    if tu.bound_note:
        out.append(("warning", tu.bound_note))
    if tu.step_note:
        out.append(("tuning step", tu.step_note))
    conf = tu.confirmation
    if conf:
        out.append(("tuning confirmed on fresh seeds" if conf.confirmed else "tuning NOT confirmed on fresh seeds",
                    conf.text))
    return out


def add_endings(rep: Report, typed: BalanceReport, frames: dict[str, pd.DataFrame], provenance: Provenance, *,
                first_player: bool, turn: str) -> None:
    """How the games end (``frames["reasons"]``) and, with ``first_player``, the first player's table."""
    if "reasons" in frames:
        add_reasons(rep, frames["reasons"], provenance, sides=typed.sides)
    if first_player:
        rep.tables.append(Table("first-player", first_player_frame(typed), "The first player",
                                f"Each side's win rate when it had the initiative in {turn} 1 and when it did "
                                "not, the difference with its 95% interval (empty when a side always or never "
                                "starts: a what-if on who starts measures it then)."))


def add_where(rep: Report, frames: dict[str, pd.DataFrame], provenance: Provenance, *, sides: list[str],
              turn: str = "turn", heat_map=None) -> None:
    """Where the games are won and lost: each side's hold of each objective at the end of
    each turn (``objective-control.csv`` and its chart) and where units are lost, shot at
    and close combats fought (``hex-heat.csv``; with ``heat_map``, one map per kind and
    side)."""
    from reports import charts

    if "control" in frames and len(frames["control"]):
        control = objective_control_table(frames["control"])
        rep.tables.append(Table("objective-control", control, f"Objective control by {turn}",
                                f"The share of all games in which each side held each objective at the end of "
                                f"each {turn}, with the 95% Wilson interval (a game over before that {turn} counts "
                                "with its holders at its end).", chart="objective-control"))
        rep.charts.append(charts.objective_control_chart(control, prov=provenance, sides=sides, turn=turn,
                                                         question=f"Who holds each objective at the end of each "
                                                                  f"{turn}?"))
        last = control[control["turn"] == control["turn"].max()]
        rep.highlights.append((f"objectives at the end of the last {turn}", "; ".join(
            f"{r['objective']}: " + ", ".join(f"{x['side']} {x['share']:.0%}" for x in last[
                last["objective"] == r["objective"]].to_dict("records"))
            for r in last.drop_duplicates("objective").to_dict("records"))))
    if "heat" not in frames:
        return
    heat = hex_heat_table(frames["heat"])
    first = heat.iloc[0] if heat_map is not None and len(heat) else None
    attacks = next((k for k in dict.fromkeys(heat["kind"]) if k not in ("units lost", "shots received")),
                   "attacks into the hex")
    rep.tables.append(Table("hex-heat", heat, "Where it happens, hex by hex",
                            "Per hex and side: units lost there, attack rolls at its units there (shots "
                            f"received), the {attacks} it started there (kind as named); the count over the batch "
                            "and the rate per game (hexes where it never happened left out).",
                            chart=None if first is None else heat_chart_name(first["kind"], sides.index(first["side"]))))
    if heat_map is None:
        return
    for kind in heat["kind"].unique():
        for i, side in enumerate(sides):
            part = heat[(heat["kind"] == kind) & (heat["side"] == side)]
            if part.empty:
                continue
            values = dict(zip(part["hex"], part["per_game"].astype(float), strict=True))
            name = heat_chart_name(kind, i)
            title = f"Where {side}: {kind}, per game"
            png = heat_map(values, i, kind, title)
            w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
            top = part.sort_values("per_game", ascending=False).head(3)
            alt = f"map of {side}'s {kind} per game by hex; most: " + ", ".join(
                f"{x} {v:.2f}" for x, v in zip(top["hex"], top["per_game"], strict=True))
            rep.charts.append(charts.Chart(name, title, alt, png, w, h, "\n".join(provenance.footer_lines())))


def heat_chart_name(kind: str, side: int) -> str:
    """The heat map's chart name: ``heat-units-lost-0``."""
    return f"heat-{kind.replace(' ', '-')}-{side}"


def first_player_frame(typed: BalanceReport) -> pd.DataFrame:
    """The report's ``first_player_effect``, one row per side."""
    rows = []
    for side in typed.sides:
        e = typed.first_player_effect[side]
        ci = e.get("ci95") or [None, None]
        rows.append({"side": side, "games_first": e.get("games_first"), "p_first": e.get("win_rate_first"),
                     "games_second": e.get("games_second"), "p_second": e.get("win_rate_second"),
                     "difference": e.get("difference"), "lo": ci[0], "hi": ci[1]})
    return pd.DataFrame(rows, columns=["side", "games_first", "p_first", "games_second", "p_second",
                                       "difference", "lo", "hi"])


def reason_frame(records: pd.DataFrame) -> pd.DataFrame:
    """How the games ended, by winner: ``reason, games, share, winner`` (``REASON_COLUMNS``)
    from the per-game records (their ``reason_name`` and ``winner_side``), one row per reason
    and winner, the most frequent reason first."""
    n = max(len(records), 1)
    order = records["reason_name"].value_counts().index.astype(str).tolist()
    winners = records["winner_side"].astype(str) if "winner_side" in records else pd.Series("?", records.index)
    counts = records.assign(winner=winners).groupby(["reason_name", "winner"], sort=False).size()
    rows = [{"reason": r, "games": int(g), "share": g / n, "winner": w}
            for r in order for (rr, w), g in counts.items() if str(rr) == r]
    return pd.DataFrame(rows, columns=REASON_COLUMNS)


def add_reasons(rep: Report, reasons: pd.DataFrame, provenance: Provenance, sides: Sequence[str] = ()) -> None:
    """How the games ended (:func:`reason_frame`): a table and a bar chart, one bar per
    reason split by winner in the sides' colours."""
    from reports import charts

    rep.tables.append(Table("reasons", reasons, "How the games end",
                            "Games by the reason they ended (the records' reason) and by winner, with their "
                            "share of all games.", chart="reasons"))
    rep.charts.append(charts.reasons_by_winner_chart(reasons, question="How do the games end, and who wins by each?",
                                                     prov=provenance, sides=list(sides)))
    by_reason = reasons.groupby("reason", sort=False)["share"].sum()
    if len(by_reason):
        top = by_reason.idxmax()
        wins = reasons[reasons["reason"] == top]
        rep.highlights.append(("most games end", f"{top} ({by_reason[top]:.1%}: " + ", ".join(
            f"{w} {g:,}" for w, g in zip(wins["winner"], wins["games"], strict=True)) + ")"))


def add_what_if(rep: Report, typed: BalanceReport, provenance: Provenance) -> None:
    """--vary: each variant's paired change as a table and a forest plot."""
    from reports import charts

    sides = list(typed.sides)
    wi = typed.what_if_family

    def row(r) -> dict:
        other, draw = r.changes[sides[1]], r.changes["draw"]
        return {"variant": r.variant, "side": sides[0], "p": r.win_rate[sides[0]], "other_p": r.win_rate[sides[1]],
                "draw_rate": r.draw_rate, "change": r.change.change, "change_lo": r.change.ci95[0],
                "change_hi": r.change.ci95[1], "other_change": other.change, "other_change_lo": other.ci95[0],
                "other_change_hi": other.ci95[1], "draw_change": draw.change, "draw_change_lo": draw.ci95[0],
                "draw_change_hi": draw.ci95[1], **_test_columns(r.test)}
    changes = pd.DataFrame([row(r) for r in typed.what_if], columns=WHAT_IF_CHANGE_COLUMNS)
    rep.tables.append(Table("what-if-changes", changes, "What-if changes",
                            f"Each variant's change of {sides[0]}'s win rate, {sides[1]}'s and the draw rate "
                            "against the baseline: " + wi.method + ".",
                            chart="what-if-change"))
    rep.charts.append(charts.change_chart(changes, side=sides[0], prov=provenance,
                                          question=f"How much does each variant change {sides[0]}'s "
                                                   "chance to win?"))
    n_sig = int(changes["significant"].sum())
    rep.highlights.append(("what-ifs", f"{len(changes)} variant(s); {n_sig} change {sides[0]}'s results "
                                       "(exact test of the paired games, Holm-adjusted over the variants, "
                                       "p <= 0.05)"))
    if wi.closest_to_even:
        even = wi.closest_to_even
        others = [x for x in even.even_set if x != even.run]
        rep.highlights.append(("closest to even of the variants", f"{even.run}: " + ", ".join(
            f"{s} {even.win_rate[s]:.1%}" for s in sides) + (
            f"; cannot be told apart from {', '.join(others)}" if others else
            f"; closer than every other run (runner-up {even.runner_up})") + " (paired, 95%)"))


def add_grid(rep: Report, typed: BalanceReport, provenance: Provenance) -> None:
    """--grid: every cell's share with its Wilson interval and paired change (``grid.csv``)
    and the heatmap of the share, the balance band outlined."""
    from reports import charts

    g = typed.grid
    cells = pd.DataFrame([{k: getattr(r, k) for k in GRID_COLUMNS} for r in g.cells], columns=GRID_COLUMNS)
    k1, k2 = g.keys
    rep.tables.append(Table("grid", cells, f"What-if grid: {k1} x {k2}",
                            f"Every pair of values of {k1} and {k2}, played on the baseline's seeds: {g.side}'s "
                            "share of the decisive games with its 95% Wilson interval, and the change of its win "
                            "rate against the baseline with the paired 95% interval (" + g.method + ").",
                            chart="grid"))
    rep.charts.append(charts.grid_heatmap(cells, side=g.side, margin=g.margin, prov=provenance,
                                          question=f"{g.side}'s share of decisive games: which {k1} and {k2} "
                                                   f"make {typed.name} even?"))
    inside = [f"{r.key1}={r.value1}, {r.key2}={r.value2}" for r in g.cells if r.inside_margin]
    rep.highlights.append(("grid", f"{len(g.cells)} cells of {k1} x {k2}; within 50% ± {100 * g.margin:g} "
                                   "points: " + ("; ".join(inside) if inside else "none")))


def add_skill_ladder(rep: Report, typed: BalanceReport, provenance: Provenance) -> None:
    """--ladder: the stronger player's win rate in each seat, as a table."""
    sl = typed.skill_ladder
    rows = [{"stronger": r.stronger, "weaker": r.weaker, "side": seat.strong_side,
             "p": seat.strong_win_rate, "lo": seat.ci95[0], "hi": seat.ci95[1],
             "weaker_p": r.weaker_same_seat_win_rate[seat.strong_side], "better": seat.better,
             "difference": seat.difference.p, "difference_lo": seat.difference.ci95[0],
             "difference_hi": seat.difference.ci95[1]}
            for r in sl.rungs for seat in r.seats]
    rep.tables.append(Table("skill-ladder", pd.DataFrame(rows), "Skill ladder",
                            "The stronger player's win rate in each seat against the weaker one, "
                            "beside the weaker player's own rate in that seat; "
                            + sl.test + "."))


def add_skill_curve(rep: Report, typed: BalanceReport, provenance: Provenance) -> None:
    """--skill-curve: the curve's table and chart, and whether it has converged."""
    from reports import charts

    sides = list(typed.sides)
    rows = [{"level": r.level, "side": s, "p": r.win_rate[s].p, "lo": r.win_rate[s].ci95[0],
             "hi": r.win_rate[s].ci95[1], "games": r.games}
            for r in typed.skill_curve for s in sides]
    fam = typed.family_check
    if fam:              # the second search family beside the top level (--family): a row of its own
        rows += [{"level": f"{fam.player} (second family)", "side": s, "p": fam.win_rate[s].p,
                  "lo": fam.win_rate[s].ci95[0], "hi": fam.win_rate[s].ci95[1],
                  "games": fam.games} for s in sides]
    frame = pd.DataFrame(rows, columns=SKILL_CURVE_COLUMNS)
    top = typed.skill_curve[-1].level
    rep.tables.append(Table("skill-curve", frame, "Skill curve",
                            "Each side's win rate with both sides played at each level, weakest first, "
                            "with the 95% Wilson interval. " + typed.skill_curve_test + "."
                            + (f" The last row is a second search family beside the top level: {fam.test}."
                               if fam else ""),
                            chart="skill-curve"))
    conv = typed.convergence
    rep.charts.append(charts.skill_curve_chart(frame, prov=provenance, margin=conv.margin if conv else None,
                                               question="Does the balance hold as the players get stronger?"))
    if conv and conv.difference:
        rep.tables.append(Table("skill-convergence", pd.DataFrame(
            [{"side": s, "levels": " minus ".join(reversed(conv.levels)), "difference": d.p,
              "lo": d.ci95[0], "hi": d.ci95[1], "status": d.status, "margin": conv.margin}
             for s, d in conv.difference.items()], columns=SKILL_CONVERGENCE_COLUMNS),
            "Has the skill curve converged?", conv.test + "; " + (conv.method or "") + "."))
    rep.highlights.append(("skill curve", convergence_phrase(conv, top) if conv else
                           f"no convergence test; the verdict is made at {top}"))
    if fam:
        rep.highlights.append(("second family", fam.text))
    for r in typed.out_of_reach:
        rep.highlights.append((f"{r.side}'s wins out of reach", r.text))


def verdict_label(v) -> str:
    """The highlight's label of the verdict (:class:`simulator.engine.core.answers.Verdict`):
    ``verdict (margin ±5 points)``."""
    return f"verdict (margin ±{100 * v.margin:g} points)" if v.margin is not None else "verdict"


def convergence_phrase(conv, top: str) -> str:
    """The skill curve's status (:class:`simulator.engine.core.answers.Convergence`) in one
    line for the page."""
    pts = f"±{100 * conv.margin:g} points"
    if conv.status == "converged":
        return f"converged: the top two levels agree within {pts}; the verdict is made at {top}"
    if conv.status == "moving":
        return (f"NOT converged (moving): the top two levels differ by more than {pts}; the verdict, made at "
                f"{top}, may change with stronger players" + (f"; why: {conv.why}" if conv.why else ""))
    more = conv.games_needed
    how = f"; about {more:,} more games a level would most likely decide it" if more is not None else ""
    return (f"NOT converged (undecided): not enough games to tell whether the top two levels agree within {pts}"
            f"{how}; the verdict is made at {top}")


def add_restricted(rep: Report, typed: BalanceReport, provenance: Provenance) -> None:
    """--restrict / --restrict-all: each restriction's paired change, sorted, as a table
    and a forest plot."""
    from reports import charts

    rows = sorted(typed.restricted or (), key=lambda r: r.change)
    frame = pd.DataFrame([{"variant": f"{r.side}:{r.restriction}", "side": r.side, "p": r.win_rate,
                           "base_p": r.base_win_rate, "change": r.change, "change_lo": r.ci95[0],
                           "change_hi": r.ci95[1], **_test_columns(r.test)} for r in rows],
                         columns=RESTRICTED_COLUMNS)
    rep.tables.append(Table("restricted", frame, "Restricted play",
                            "Each restriction's win rate of the restricted side and its change against the "
                            "unrestricted run: " + typed.restricted_method + ".", chart="restricted"))
    rep.charts.append(charts.change_chart(
        frame, side="the restricted side", prov=provenance, name="restricted", ylabel="side:restriction",
        xlabel=f"change of the restricted side's win rate, paired 95% interval (* red: exact test Holm-adjusted "
               f"over {len(frame)} restriction(s), p <= 0.05)",
        question="What is each unit and kind of action worth? The win rate lost without it"))
    n_sig = int(frame["significant"].sum())
    rep.highlights.append(("restricted play", f"{len(frame)} restriction(s); {n_sig} change the restricted "
                                              "side's results (exact test of the paired games, Holm-adjusted "
                                              "over the restrictions, p <= 0.05)"))


def _test_columns(t) -> dict:
    """The paired test's columns of a what-if or restriction row
    (:class:`simulator.engine.core.answers.PairedTest`)."""
    return {"better": t.better, "worse": t.worse, "p_value": t.p_value, "p_holm": t.p_holm,
            "family_size": t.family_size, "significant": t.significant}


def activity_frame(activity: dict, sides: list[str]) -> pd.DataFrame:
    """``side, measure, per_game``: each side's activity per game as a tidy table (the
    game's measures, in its order)."""
    return pd.DataFrame([{"side": s, "measure": m, "per_game": activity[s][m]} for s in sides for m in activity[s]],
                        columns=["side", "measure", "per_game"])
