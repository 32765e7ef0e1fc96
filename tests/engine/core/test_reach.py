"""A side that wins almost no game at any level of the skill curve: the scenario or the
players? (issue 41; :func:`simulator.engine.core.reach.out_of_reach`). Built from
hand-made curve rows, convergence and control tallies; the figures are Crossroads'
(docs/strength.md)."""

from __future__ import annotations

import numpy as np
import pytest

from reports.scenario_text import _skill_curve_lines
from simulator.engine.core.answers import BalanceReport
from simulator.engine.core.balance import curve_convergence, curve_row
from simulator.engine.core.reach import objective_holds, out_of_reach

SIDES = ["german", "soviet"]
OBJECTIVES = ["crossroads", "village house", "wooded hill top"]


def rows(*levels: tuple[str, int, int], games: int = 200) -> list[dict]:
    """Curve rows from (level, german wins, soviet wins) over ``games``."""
    return [curve_row(lv, np.array([g, s, games - g - s]), games, SIDES) for lv, g, s in levels]


def step(p: float, lo: float, hi: float) -> dict:
    return {"p": p, "ci95": [lo, hi], "status": "undecided"}


def conv(german: dict, soviet: dict, levels=("lookahead", "mcts:64:learned")) -> dict:
    return {"status": "undecided", "margin": 0.05, "levels": list(levels),
            "difference": {"german": german, "soviet": soviet}}


# Crossroads at 200 games a level (seed 4104): german 0.0% at every level, soviet 27.5-35.0%
CROSSROADS = rows(("random", 0, 63), ("greedy", 0, 55), ("lookahead", 0, 70), ("mcts:64:learned", 0, 55))


def control(games: int = 200, turns: int = 8) -> np.ndarray:
    """German holds crossroads in up to 90 games (turn 3), village house 40 (turns 5
    and 6: the first is named), wooded hill top never; soviet holds each in 150 at the end."""
    c = np.zeros((turns, 2, 3), np.int64)
    c[:, 0, 0] = [0, 30, 90, 80, 60, 50, 40, 30]
    c[:, 0, 1] = [0, 0, 10, 20, 40, 40, 30, 20]
    c[:, 1, :] = 150
    return c


def test_a_side_that_never_wins_and_does_not_gain_points_at_the_scenario():
    c = conv(step(0.0, -0.0183, 0.0183), step(-0.075, -0.167, 0.017))
    out = out_of_reach(CROSSROADS, SIDES, c, control=control(), objectives=OBJECTIVES)
    assert [r["side"] for r in out] == ["german"]          # soviet wins 27.5% and more: not listed
    r = out[0]
    assert r["reading"] == "scenario" and r["step"] == {"p": 0.0, "ci95": [-0.0183, 0.0183]}
    assert r["win_rates"] == {"random": 0.0, "greedy": 0.0, "lookahead": 0.0, "mcts:64:learned": 0.0}
    assert r["holds"] == [{"objective": "wooded hill top", "share": 0.0, "turn": 1},
                          {"objective": "village house", "share": 0.2, "turn": 5},
                          {"objective": "crossroads", "share": 0.45, "turn": 3}]
    t = r["text"]
    assert t.startswith("german wins fewer than 5% of the games at every level (random 0.0%, greedy 0.0%, "
                        "lookahead 0.0%, mcts:64:learned 0.0%)")
    assert "the strongest step adds at most +1.8 points (mcts:64:learned minus lookahead +0.0 points [-1.8, +1.8])" in t
    assert "the likelier cause is the scenario" in t
    assert ("at mcts:64:learned the objectives it held at the end of a turn, at best: wooded hill top never, "
            "village house 20% (turn 5), crossroads 45% (turn 3)") in t


@pytest.mark.parametrize("german,reading,words", [
    (step(0.02, 0.004, 0.076), "players", "the strongest step raises it ("),
    (step(0.0075, 0.0006, 0.0144), "scenario", "the strongest step raises it, by at most +1.4 points"),
    (step(0.01, -0.10, 0.12), "undecided", "whether the strongest step raises it is undecided"),
    (step(0.0, -0.05, 0.05), "scenario", "adds at most +5.0 points"),      # the margin's edge counts as within
    (None, "undecided", None),
])
def test_the_reading_follows_the_strongest_steps_interval(german, reading, words):
    c = conv(german, step(0.0, -0.05, 0.05)) if german else None
    out = out_of_reach(CROSSROADS, SIDES, c)
    assert out[0]["reading"] == reading and out[0]["holds"] == []
    if words:
        assert words in out[0]["text"]


def test_five_percent_at_any_level_or_a_single_level_lists_no_side():
    assert out_of_reach(rows(("greedy", 0, 50), ("mcts:64", 10, 50)), SIDES, None) == []   # 10 of 200 = 5%
    assert [r["side"] for r in out_of_reach(rows(("greedy", 0, 50), ("mcts:64", 9, 50)), SIDES, None)] == ["german"]
    assert out_of_reach(rows(("greedy", 0, 50)), SIDES, None) == []


def test_objective_holds_takes_each_objectives_best_turn():
    h = objective_holds(control(), 1, OBJECTIVES, 200)
    assert [x["share"] for x in h] == [0.75, 0.75, 0.75] and [x["turn"] for x in h] == [1, 1, 1]


def test_the_paired_convergence_feeds_it_and_the_text_report_shows_it():
    """End to end from per-game outcomes: 400 games, german never wins at either level;
    soviet wins 120 at both (the same games): paired difference 0 for german."""
    below = np.full(400, 2, np.int8)
    below[:120] = 1
    top = below.copy()
    levels = [curve_row(lv, np.bincount(o, minlength=3)[:3], 400, SIDES) for lv, o in (("greedy", below),
                                                                                     ("mcts:64", top))]
    c = curve_convergence(levels, SIDES, 0.05, top, below)
    out = out_of_reach(levels, SIDES, c, control=control(400), objectives=OBJECTIVES)
    bound = 1 - 0.025 ** (1 / 400)                         # no game changed: the exact bound
    assert out[0]["step"]["ci95"] == pytest.approx([-bound, bound]) and out[0]["reading"] == "scenario"
    report = BalanceReport.of(minimal_report(levels, c, out))
    assert report.out_of_reach[0].side == "german" and report.out_of_reach[0].reading == "scenario"
    assert f"  out of reach: {out[0]['text']}" in _skill_curve_lines(report, SIDES)


def minimal_report(levels: list[dict], c: dict, reach: list[dict]) -> dict:
    """The smallest report whose skill curve the text report renders."""
    top = levels[-1]
    return {"scenario": "crossroads", "sides": SIDES,
            "players": {s: top["level"] for s in SIDES}, "games": top["games"], "seed": 1,
            "win_rate": top["win_rate"], "draw_rate": top["draw_rate"],
            "verdict": {"status": "no verdict", "text": "no verdict: draws dominate", "margin": 0.05},
            "skill_curve": levels, "skill_curve_test": "t", "convergence": c, "out_of_reach": reach}
