"""The scenario balance report as text, for the terminal and ``balance.txt``: the run and
its data, win rates with intervals, the verdict, how the games went, and the what-ifs,
tuning, skill ladder, skill curve and restricted play when they were asked for. It renders a
:class:`simulator.engine.core.answers.BalanceReport` (the report dictionary of
:func:`simulator.games.assault.game.balance.balance_report` is its JSON) and computes
nothing: it reads the report's typed fields and sections, never its JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.run.progress import rate_text

if TYPE_CHECKING:     # reports/ may not import the engine (tests/test_layers.py): the fields it reads
    from typing import Any, Protocol

    class Verdict(Protocol):
        """What this module reads of :class:`simulator.engine.core.answers.Verdict`."""

        @property
        def status(self) -> str | None: ...

        @property
        def text(self) -> str: ...

        @property
        def margin(self) -> float | None: ...

        @property
        def interval(self) -> str | None: ...

        @property
        def test(self) -> str: ...

    class BalanceReport(Protocol):
        """What this module reads of :class:`simulator.engine.core.answers.BalanceReport`
        (read-only: the report is frozen)."""

        @property
        def scenario(self) -> str: ...

        @property
        def sides(self) -> tuple[str, ...]: ...

        @property
        def players(self) -> dict[str, str]: ...

        @property
        def games(self) -> int: ...

        @property
        def seed(self) -> int: ...

        @property
        def win_rate(self) -> dict[str, Any]: ...

        @property
        def draw_rate(self) -> float: ...

        @property
        def verdict(self) -> str: ...

        @property
        def verdict_text(self) -> str: ...

        @property
        def verdict_margin(self) -> float | None: ...

        @property
        def verdict_test(self) -> str: ...

        @property
        def verdict_interval(self) -> str | None: ...

        @property
        def edition(self) -> str | None: ...

        @property
        def warnings(self) -> tuple[str, ...]: ...

        @property
        def name(self) -> str: ...

        @property
        def data(self) -> dict[str, Any]: ...

        @property
        def turn_word(self) -> str: ...

        @property
        def activity(self) -> dict[str, float] | None: ...

        @property
        def activity_words(self) -> dict[str, str | None] | None: ...

        @property
        def activity_by_side(self) -> dict[str, Any] | None: ...

        @property
        def first_player_win_rate(self) -> float: ...

        @property
        def first_player_win_rate_ci95(self) -> tuple[float, float] | None: ...

        @property
        def first_player_effect(self) -> dict[str, Any]: ...

        @property
        def closeness(self) -> dict[str, Any]: ...

        @property
        def mean_turns(self) -> float: ...

        @property
        def decided_early_rate(self) -> float: ...

        @property
        def decided_last_turn_rate(self) -> float: ...

        @property
        def mean_losses(self) -> dict[str, dict[str, float]]: ...

        @property
        def mean_losses_se(self) -> dict[str, dict[str, float]]: ...

        @property
        def unit_labels(self) -> dict[str, str]: ...

        @property
        def formations(self) -> list[dict[str, Any]]: ...

        @property
        def truncated_games(self) -> int: ...

        @property
        def truncated_rate(self) -> float: ...

        @property
        def decision_limit(self) -> int | None: ...

        @property
        def until_decided(self) -> dict[str, Any] | None: ...

        @property
        def games_per_second(self) -> float | None: ...

        @property
        def workers(self) -> int | None: ...

        @property
        def files(self) -> tuple[str, ...]: ...

        @property
        def what_matters(self) -> str | None: ...

        # the sections' values (simulator.engine.core.answers: WhatIfFamily, VariantRates,
        # Grid, Tune, SkillLadder, SkillLevel, Convergence, FamilyCheck, Restriction)
        @property
        def what_if(self) -> tuple[Any, ...]: ...

        @property
        def what_if_family(self) -> Any: ...

        @property
        def grid(self) -> Any: ...

        @property
        def tune(self) -> Any: ...

        @property
        def skill_ladder(self) -> Any: ...

        @property
        def skill_curve(self) -> tuple[Any, ...]: ...

        @property
        def skill_curve_test(self) -> str: ...

        @property
        def convergence(self) -> Any: ...

        @property
        def family_check(self) -> Any: ...

        @property
        def out_of_reach(self) -> tuple[Any, ...]: ...

        @property
        def restricted(self) -> tuple[Any, ...] | None: ...

        @property
        def restricted_method(self) -> str: ...

        @property
        def verdict_of(self) -> Verdict: ...

        def to_json(self) -> dict[str, Any]: ...


def report_table(typed: BalanceReport) -> str:
    """The report for people, of a balance report
    (:meth:`simulator.engine.core.answers.BalanceReport.of` the run's JSON summary)."""
    sides = list(typed.sides)
    lines = _outcome_lines(typed) + _play_lines(typed, sides)
    if typed.what_if_family is not None:
        lines += _what_if_lines(typed.what_if_family, typed.what_if, sides)
    if typed.grid is not None:
        lines += _grid_lines(typed.grid)
    if typed.tune is not None:
        lines += _tune_lines(typed.tune)
    if typed.skill_ladder is not None:
        lines += _skill_ladder_lines(typed.skill_ladder)
    if typed.skill_curve:
        lines += _skill_curve_lines(typed, sides)
    if typed.restricted is not None:
        lines += _restricted_lines(typed.restricted)
    gps = typed.games_per_second
    lines += ["", f"{rate_text(gps, 1.0)} with {typed.workers} worker(s)" if gps else ""]
    if typed.files:
        lines.append("records: " + ", ".join(typed.files))
    return "\n".join(lines) + "\n"


def _outcome_lines(typed: BalanceReport) -> list[str]:
    """The run, its data, the win rates, the verdict and the warnings."""
    sides = typed.sides
    edition = f", close combat {typed.edition}" if typed.edition else ""     # Assault's chapter 12
    data = typed.data
    lines = [f"{data['name']} ({typed.scenario}){edition}: "
             f"{typed.games:,} games, seed {typed.seed}, players "
             + ", ".join(f"{s} {typed.players[s]}" for s in sides),
             f"data: {data['data']['dice']}; aid {data['data']['aid']}; "
             f"units {data['units_status']}; map: {data['map_source']}",
             f"scenario source: {data.get('source', '')}", ""]
    for s in sides:
        w = typed.win_rate[s]
        lines.append(f"  {s:>10} wins {w.p:7.2%}  [{w.ci95[0]:.2%}, {w.ci95[1]:.2%}]")
    lines.append(f"  {'draws':>10}      {typed.draw_rate:7.2%}")
    if typed.truncated_games:
        lines.append(f"  {'cut short':>10}      {typed.truncated_rate:7.2%}  ({typed.truncated_games:,} games "
                     f"not over after {typed.decision_limit:,} decisions: no winner)")
    lines += ["", report_verdict_line(typed), "  (test: " + typed.verdict_test + ")"]
    until = typed.until_decided
    if until:
        lines.append(until_decided_line(until))
    lines += [f"warning: {w}" for w in typed.warnings]
    return lines


def verdict_line(v: Verdict) -> str:
    """``verdict (margin ±5 points): balanced within ...``: the verdict's sentence under a
    label naming its status and margin (every command prints the verdict so); ``v``: a
    verdict (:class:`simulator.engine.core.answers.Verdict`: a report's, a tuning's
    confirmation)."""
    return _verdict_words(v.status, v.margin, v.interval, v.text)


def report_verdict_line(report: BalanceReport) -> str:
    """:func:`verdict_line` of a report's verdict, from its typed fields."""
    return _verdict_words(report.verdict or None, report.verdict_margin, report.verdict_interval,
                          report.verdict_text)


def _verdict_words(status: str | None, margin: float | None, interval: str | None, text: str) -> str:
    named = f" ({status}, margin ±{100 * margin:g} points" if margin is not None else f" ({status}"
    shown = ", confidence sequence" if interval == "sequence" else ""
    return f"verdict{named}{shown}): {text}"


def until_decided_line(until: dict) -> str:
    """--until-decided: the rounds played and whether the verdict was decided."""
    rounds = until["rounds"]
    games = rounds[-1]["games"] if rounds else 0
    how = "decided" if until["decided"] else f"NOT decided within --max-games {until['max_games']:,}"
    return (f"  (until decided: {len(rounds)} round{'s' if len(rounds) != 1 else ''}, {games:,} games, {how}; "
            "the confidence sequence keeps its 95% promise however many rounds were looked at)")


def activity_text(act: dict, words: dict | None) -> str:
    """``activations 29.15, reaction fires 1.51, ...``: each count in the game's own words
    (a game's ``activity_words``; a count it names None is not its to show)."""
    words = words or {}
    return ", ".join(f"{words.get(k, k.replace('_', ' '))} {v:.2f}" for k, v in act.items()
                     if words.get(k, k) is not None)


def _play_lines(typed: BalanceReport, sides) -> list[str]:
    """How the games went: activity, the first player, closeness, losses, formations
    (a turn in the game's own word: ``activity_words["turn"]``, Tide of Iron's round)."""
    lines = []
    turn = typed.turn_word
    act = typed.activity
    if act:
        lines.append("activity per game, both sides: " + activity_text(act, typed.activity_words))
    if typed.activity_by_side:
        lines += activity_lines(typed.activity_by_side, sides)
    fp = typed.first_player_effect
    ci = typed.first_player_win_rate_ci95
    lines.append(f"first player (initiative in {turn} 1) wins {typed.first_player_win_rate:.2%} of games"
                 + (" [{:.2%}, {:.2%}]".format(*ci) if ci else ""))
    lines.append(f"  the effect of the initiative in {turn} 1 only (later {turn}s' initiative is not in it); "
                 "difference: win rate when first minus when second, 95% interval")
    for s in sides[:1] if fp.get("same_for_both") else sides:
        e = fp[s]
        if e.get("difference") is not None:
            lines.append(f"  {s}: {e['win_rate_first']:.2%} when first, {e['win_rate_second']:.2%} when second "
                         f"(difference {e['difference']:+.2%} [{e['ci95'][0]:+.2%}, {e['ci95'][1]:+.2%}])"
                         + (f"; with no draws {sides[1]}'s difference is the same number" if fp.get("same_for_both")
                            else ""))
        elif "games_first" in e:       # no games first, or none second: no difference to estimate
            lines.append(f"  {s}: first in {e['games_first']:,} games, second in {e['games_second']:,}: "
                         "no difference to estimate")
    c = typed.closeness
    lines += [f"mean {turn}s {typed.mean_turns:.2f}; over before the last {turn} "
              f"{typed.decided_early_rate:.2%}; settled in the last {turn} {typed.decided_last_turn_rate:.2%}",
              f"closeness: objectives within one {c['objective_margin_at_most_1']:.2%}"
              + (" [{:.2%}, {:.2%}]".format(*c["objective_margin_at_most_1_ci95"])
                 if "objective_margin_at_most_1_ci95" in c else "")
              + f"; mean relative points margin {c['mean_relative_points_margin']:.3f}"
              + (f" ±{c['se']['mean_relative_points_margin']:.3f} (1 SE)" if "se" in c else "")]
    labels = typed.unit_labels          # a game whose unit columns are not card names
    se = typed.mean_losses_se

    def lost(s: str, k: str, v: float) -> str:
        e = se.get(s, {}).get(k)
        return f"{labels.get(k, k.split('/')[1])} {v:.2f}" + (f" ±{e:.2f}" if e is not None else "")
    lines.append("mean losses per game" + (" (± 1 SE)" if se else "") + ": " + "; ".join(
        f"{s}: " + ", ".join(lost(s, k, v) for k, v in typed.mean_losses[s].items()) for s in sides))
    if typed.formations:
        lines += ["", "win rates by drawn formations:"]
        for f in typed.formations:
            lines.append(f"  {f['side']}: {', '.join(f['formations'])}: {f['games']} games, "
                         f"wins {f['win_rate']:.2%} [{f['ci95'][0]:.2%}, {f['ci95'][1]:.2%}]")
    return lines


def _changed(t) -> str:
    """``"12 games changed (9 better, 3 worse), p 0.146, Holm 0.29 of 4"``: the paired
    test (:class:`simulator.engine.core.answers.PairedTest`) of a variant or restriction."""
    return (f"{t.better + t.worse} games changed ({t.better} better, {t.worse} worse), "
            f"exact p {t.p_value:.3g}, Holm {t.p_holm:.3g} of {t.family_size}")


def _what_if_lines(wi, variants, sides) -> list[str]:
    """--vary: each variant's win rates, each side's and the draws' paired change, the
    exact test Holm-corrected over the variants, and the runs closest to even."""
    lines = ["", f"what-ifs (common random numbers; changes in points, paired 95% intervals; "
                 f"{wi.family_size} variant(s) tested as one family):"]
    for r in variants:
        ch = r.changes
        lines.append(f"  {r.variant}: {sides[0]} {r.win_rate[sides[0]]:.2%}, "
                     f"{sides[1]} {r.win_rate[sides[1]]:.2%}, draws {r.draw_rate:.2%}"
                     + (" *" if r.test.significant else ""))
        lines.append("      change " + ", ".join(
            f"{name} {100 * ch[name].change:+.2f} [{100 * ch[name].ci95[0]:+.2f}, "
            f"{100 * ch[name].ci95[1]:+.2f}]" for name in (*sides, "draw")))
        lines.append(f"      {sides[0]}'s result: {_changed(r.test)}")
    if any(r.test.significant for r in variants):
        lines.append("  (*: the exact test of the changed games, Holm-adjusted over the variants, p <= 0.05)")
    if wi.closest_to_even:
        b = wi.closest_to_even
        others = [x for x in b.even_set if x != b.run]
        lines.append(f"  closest to even: {b.run}" + (
            f"; cannot be told apart from {', '.join(others)} (paired, 95% over the comparisons)" if others else
            f"; closer than every other run, the runner-up ({b.runner_up}) too (paired, 95% over the "
            "comparisons)"))
    return lines


def _grid_lines(g) -> list[str]:
    """--grid: each cell's share of decisive games and its paired change, the band marked."""
    k1, k2 = g.keys
    lines = ["", f"what-if grid {k1} x {k2} ({g.side}'s share of decisive games [95% Wilson]; change of its win "
                 f"rate in points [paired 95%]; # within 50% ± {100 * g.margin:g} points):"]
    for r in g.cells:
        share = "-" if r.share != r.share else \
            f"{r.share:.1%} [{r.share_lo:.1%}, {r.share_hi:.1%}]"
        lines.append(f"  {k1}={r.value1}, {k2}={r.value2}: {share}, change "
                     f"{100 * r.win_rate_change:+.2f} [{100 * r.change_lo:+.2f}, {100 * r.change_hi:+.2f}]"
                     + (" #" if r.inside_margin else ""))
    return lines


def _tune_lines(tu) -> list[str]:
    """--tune: the win rate of each value tried, the best."""
    lines = ["", f"tuning {tu.key} for {tu.side} win rate {tu.target:.0%}:"]
    for r in tu.values:
        lines.append(f"  {r.value}: {r.win_rate:.2%} [{r.ci95[0]:.2%}, {r.ci95[1]:.2%}]")
    lines.append(f"  best: {tu.best.value} ({tu.best.win_rate:.2%})")
    if tu.bound_note:
        lines.append(f"  warning: {tu.bound_note}")
    if tu.step_note:
        lines.append(f"  step: {tu.step_note}")
    conf = tu.confirmation
    if conf:
        lines.append(f"  confirmation: {conf.text}")
        lines.append(f"    {verdict_line(conf.verdict)}")
    return lines


def _skill_ladder_lines(sl) -> list[str]:
    """--ladder: each rung from both seats, and whether skill matters."""
    lines = ["", f"skill ladder ({sl.games_per_match} games a match):"]
    for r in sl.rungs:
        for seat in r.seats:
            lines.append(f"  {r.stronger} as {seat.strong_side} v {r.weaker}: wins "
                         f"{seat.strong_win_rate:.2%} [{seat.ci95[0]:.2%}, {seat.ci95[1]:.2%}] "
                         f"({r.weaker} v {r.weaker} in that seat: "
                         f"{r.weaker_same_seat_win_rate[seat.strong_side]:.2%}; paired difference "
                         f"{100 * seat.difference.p:+.2f} points [{100 * seat.difference.ci95[0]:+.2f}, "
                         f"{100 * seat.difference.ci95[1]:+.2f}])"
                         + (" at the ceiling" if seat.at_ceiling else "" if seat.better else " NOT better"))
    failing = sl.first_failing
    lines.append(f"  skill matters: {'yes' if sl.skill_matters else 'no'}"
                 + (f" (the lowest rung not shown from both seats: {failing})" if failing else ""))
    return lines


def _skill_curve_lines(typed: BalanceReport, sides) -> list[str]:
    """--skill-curve: each level's win rates, whether the curve has converged, and at
    which strength the verdict above was made."""
    curve = typed.skill_curve
    lines = ["", f"skill curve (both sides at each level, weakest first; {curve[-1].games:,} games a level):"]
    for r in curve:
        lines.append(f"  {r.level:>12}: " + "; ".join(
            f"{s} {r.win_rate[s].p:6.2%} [{r.win_rate[s].ci95[0]:.2%}, {r.win_rate[s].ci95[1]:.2%}]"
            for s in sides) + f"; draws {r.draw_rate:.2%}")
    top = curve[-1].level
    lines += convergence_lines(typed.convergence, sides)
    lines.append(f"  the verdict above is made at the strongest level, {top} on both sides")
    lines += family_lines(typed.family_check, sides)
    lines += [f"  out of reach: {r.text}" for r in typed.out_of_reach]
    return lines


def family_lines(check, sides) -> list[str]:
    """--family: the second search family beside the top level
    (:class:`simulator.engine.core.answers.FamilyCheck`, or None), and whether the verdict
    depends on the player."""
    if not check:
        return []
    fam = check.win_rate
    head = {"depends": "THE VERDICT DEPENDS ON THE PLAYER", "agrees": "agrees with the top level",
            "undecided": "undecided", "weaker": "weaker than greedy: says nothing of blind spots"}[check.status]
    lines = [f"  second family {check.player:>8}: " + "; ".join(
        f"{s} {fam[s].p:6.2%} [{fam[s].ci95[0]:.2%}, {fam[s].ci95[1]:.2%}]" for s in sides)
        + f"; draws {check.draw_rate:.2%}: {head}"]
    for s in sides:
        d = check.difference[s]
        lines.append(f"    {s}: {check.top_level} minus {check.player} {100 * d.p:+.2f} points "
                     f"[{100 * d.ci95[0]:+.2f}, {100 * d.ci95[1]:+.2f}]")
    for x in check.strength:
        d = x.difference
        lines.append(f"    {check.player} as {x.side} against greedy: wins {x.win_rate:.2%} (greedy itself "
                     f"{x.greedy_win_rate:.2%}; {100 * d.p:+.2f} points [{100 * d.ci95[0]:+.2f}, "
                     f"{100 * d.ci95[1]:+.2f}]){'' if x.better else ' NOT better'}")
    if check.status == "undecided" and check.games_needed is not None:
        lines.append(f"    (about {check.games_needed:,} more games would most likely decide it)")
    lines.append(f"  ({check.test}; ±{100 * check.margin:g} points)")
    return lines


def convergence_lines(conv, sides) -> list[str]:
    """The convergence test of the top two levels
    (:class:`simulator.engine.core.answers.Convergence`, or None): its status, each side's
    difference."""
    if not conv:
        return []
    pts = f"±{100 * conv.margin:g} points"
    head = {"converged": f"converged: the top two levels agree within {pts}",
            "moving": f"NOT converged (moving): the top two levels differ by more than {pts}; stronger players "
                      "may change the verdict",
            "undecided": f"NOT converged (undecided): not enough games to tell whether the top two levels agree "
                         f"within {pts}"}[conv.status]
    if conv.status == "undecided":
        more = conv.games_needed
        head += f" (about {more:,} more games a level would most likely decide it)" if more is not None else ""
    lines = [f"  {head}"]
    if conv.why:
        lines.append(f"  why: {conv.why}")
    levels = conv.levels
    for s in sides:
        d = conv.difference.get(s)
        if d:
            lines.append(f"    {s}: {levels[-1] if levels else 'top'} minus {levels[0] if levels else 'next'} "
                         f"{100 * d.p:+.2f} points [{100 * d.ci95[0]:+.2f}, {100 * d.ci95[1]:+.2f}]: "
                         f"{d.status}")
    lines.append(f"  ({conv.test}; {conv.method or 'no curve'})")
    return lines


def _restricted_lines(rows) -> list[str]:
    """--restrict / --restrict-all: each restriction's win rate and paired change, the
    largest loss first, with the exact test Holm-corrected over the restrictions."""
    lines = ["", f"restricted play (same seeds; change of the restricted side's win rate in points, paired 95% "
                 f"interval; {len(rows)} restriction(s) tested as one family):"]
    for r in sorted(rows, key=lambda r: r.change):
        lines.append(f"  {r.side}:{r.restriction}: wins {r.win_rate:.2%} "
                     f"(unrestricted {r.base_win_rate:.2%}); change {100 * r.change:+.2f} "
                     f"[{100 * r.ci95[0]:+.2f}, {100 * r.ci95[1]:+.2f}]; {_changed(r.test)}"
                     + (" *" if r.test.significant else ""))
    if any(r.test.significant for r in rows):
        lines.append("  (*: the exact test of the changed games, Holm-adjusted over the restrictions, p <= 0.05)")
    return lines


def activity_lines(activity: dict, sides: list[str]) -> list[str]:
    """The terminal's lines: one per side."""
    lines = [f"activity per game by side ({activity['sample']}):"]
    for s in sides:
        a = activity[s]
        lines.append(f"  {s}: " + ", ".join(f"{m.replace('_', ' ')} {a[m]:.2f}" for m in a))   # the game's measures, in its order
    return lines
