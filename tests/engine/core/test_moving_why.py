"""Why a skill curve still moves (issue 41, item 4): the report says which way the top
two levels moved and, with ``--ladder``, from which seat the stronger player gains
(:func:`simulator.engine.core.balance.moving_why`). Built here from hand-made
convergence and ladder dicts (fractions; the text shows points to one decimal)."""

from __future__ import annotations

import numpy as np
import pytest

from reports.balance import convergence_phrase
from reports.scenario_text import convergence_lines
from simulator.engine.core.answers import Convergence
from simulator.engine.core.balance import gain_difference, moving_why, verdict_at_strength
from simulator.run.verdicts import discordant_interval

SIDES = ["american", "german"]


def conv(american: tuple, german: tuple, status: str = "moving") -> dict:
    """A convergence of lookahead -> mcts:64:learned: each side's (p, lo, hi) of its win
    rate at the top minus the next level, and its status."""
    def side(t):
        p, lo, hi = t
        return {"p": p, "ci95": [lo, hi], "status": "moving" if lo > 0.05 or hi < -0.05 else "undecided"}
    return {"status": status, "margin": 0.05, "test": "t", "method": "paired", "games_needed": None,
            "levels": ["lookahead", "mcts:64:learned"], "difference": {"american": side(american),
                                                                       "german": side(german)}}


# Ridge Line's curve (docs/strength.md, seed 4106): american 66.0% at lookahead, 40.5% at
# mcts:64:learned: -25.5 points [-34.8, -16.2]; german the mirror image
RIDGE = conv((-0.255, -0.3482, -0.1618), (0.255, 0.1618, 0.3482))


def seat(side: str, p: float, lo: float, hi: float, ceiling: bool = False) -> dict:
    return {"strong_side": side, "difference": {"p": p, "ci95": [lo, hi]}, "at_ceiling": ceiling,
            "better": lo > 0 or ceiling}


def ladder(american: dict, german: dict, net: tuple | None = None, weak: str = "lookahead",
           strong: str = "mcts:64:learned") -> dict:
    rung = {"weaker": weak, "stronger": strong, "seats": [american, german]}
    if net is not None:
        rung["gain_difference"] = {"side": "american", "p": net[0], "ci95": [net[1], net[2]]}
    return {"games_per_match": 200, "levels": ["greedy", weak, strong],
            "rungs": [{"weaker": "greedy", "stronger": weak, "seats": []}, rung]}


def test_one_seat_gains_the_verdict_leans_to_it():
    # Ridge Line's top rung: as american mcts:64:learned wins 66.5% against lookahead, lookahead's
    # own mirror 66.0% there: +0.5 [-8.5, +9.5], not shown; as german 52.0% against 34.0%: +18.0
    # [+8.3, +27.7], shown. american's gain minus german's: 0.5 - 18.0 = -17.5 points
    lad = ladder(seat("american", 0.005, -0.08450195, 0.09450195), seat("german", 0.18, 0.083, 0.277),
                 net=(-0.175, -0.30, -0.05))
    why = moving_why(RIDGE, SIDES, lad)
    assert why["source"] == "ladder" and why["towards"] == "german" and why["leans"] == "german"
    assert why["agrees"] is True and why["ladder_games"] == 200
    assert why["seats"]["german"] == {"p": 0.18, "ci95": [0.083, 0.277], "shown": "gains"}
    assert why["seats"]["american"]["shown"] == "not shown"
    t = why["text"]
    assert t.startswith("from lookahead to mcts:64:learned the win rates move american -25.5 points [-34.8, -16.2], "
                        "german +25.5 [+16.2, +34.8] (towards german)")
    assert "the american seat +0.5 points [-8.5, +9.5] (gain not shown), the german seat gains +18.0 points " \
           "[+8.3, +27.7]" in t
    assert t.endswith("the stronger player helps german only, so the top level's verdict leans german; a player "
                      "that plays american better may move it back")


def test_both_seats_gain_one_more():
    # american +10 [+5, +15], german +30 [+20, +40]; american's gain minus german's -20 [-30, -10]
    # excludes 0: german gains more, and the curve moved towards german
    lad = ladder(seat("american", 0.10, 0.05, 0.15), seat("german", 0.30, 0.20, 0.40), net=(-0.20, -0.30, -0.10))
    why = moving_why(RIDGE, SIDES, lad)
    assert why["leans"] == "german" and why["agrees"] is True
    assert "the american seat gains +10.0 points [+5.0, +15.0], the german seat gains +30.0 points" in why["text"]
    assert ("helps both seats, german more (american's gain minus german's -20.0 points [-30.0, -10.0]), so the "
            "top level's verdict leans german") in why["text"]


def test_both_seats_gain_about_equally_the_ladder_does_not_say():
    # american's gain minus german's -2 [-12, +8]: not shown either way
    lad = ladder(seat("american", 0.18, 0.08, 0.28), seat("german", 0.20, 0.10, 0.30), net=(-0.02, -0.12, 0.08))
    why = moving_why(RIDGE, SIDES, lad)
    assert why["leans"] is None and why["agrees"] is None
    assert "helps both seats about equally (american's gain minus german's -2.0 points [-12.0, +8.0]); the " \
           "ladder does not say why the curve moves" in why["text"]


def test_neither_seat_shown():
    lad = ladder(seat("american", 0.02, -0.06, 0.10), seat("german", 0.04, -0.04, 0.12), net=(-0.02, -0.1, 0.06))
    why = moving_why(RIDGE, SIDES, lad)
    assert why["leans"] is None
    assert "the american seat +2.0 points [-6.0, +10.0] (gain not shown), the german seat +4.0 points [-4.0, " \
           "+12.0] (gain not shown): neither seat's gain is shown; the ladder does not say why" in why["text"]


def test_a_seat_loses_the_verdict_leans_away_from_it():
    # mcts:64:learned as american loses 20 points [-30, -10] to lookahead's own mirror; as german
    # +3 [-5, +11]: it plays american worse, so the top level leans german, where the curve went
    lad = ladder(seat("american", -0.20, -0.30, -0.10), seat("german", 0.03, -0.05, 0.11), net=(-0.23, -0.35, -0.11))
    why = moving_why(RIDGE, SIDES, lad)
    assert why["seats"]["american"]["shown"] == "loses" and why["leans"] == "german" and why["agrees"] is True
    assert "the american seat loses -20.0 points [-30.0, -10.0]" in why["text"]
    assert "plays american worse than lookahead and shows no gain as german, so the top level's verdict leans " \
           "german; a player that plays american better may move it back" in why["text"]


def test_one_gains_the_other_loses():
    lad = ladder(seat("american", -0.20, -0.30, -0.10), seat("german", 0.18, 0.08, 0.28), net=(-0.38, -0.5, -0.26))
    why = moving_why(RIDGE, SIDES, lad)
    assert why["leans"] == "german" and "helps german only and plays american worse, so" in why["text"]


def test_both_seats_lose():
    lad = ladder(seat("american", -0.20, -0.30, -0.10), seat("german", -0.15, -0.25, -0.05), net=(-0.05, -0.2, 0.1))
    why = moving_why(RIDGE, SIDES, lad)
    assert why["leans"] is None and "plays both seats worse than lookahead: it is not stronger here" in why["text"]


def test_the_gain_against_the_curves_move_is_said():
    # american's seat gains, german's not shown, but the curve moved towards german: the ladder's
    # gains do not explain the move
    lad = ladder(seat("american", 0.12, 0.03, 0.21), seat("german", 0.01, -0.08, 0.10), net=(0.11, 0.0, 0.22))
    why = moving_why(RIDGE, SIDES, lad)
    assert why["leans"] == "american" and why["agrees"] is False
    assert why["text"].endswith("helps american only, yet the curve did not move towards american: the ladder's "
                                "gains do not explain the move (more --ladder-games may)")


def test_a_seat_at_the_ceiling():
    # lookahead as german already wins every game there: nothing to gain; american +15 [+6, +24]
    towards_american = conv((0.20, 0.12, 0.28), (-0.20, -0.28, -0.12))
    lad = ladder(seat("american", 0.15, 0.06, 0.24), seat("german", 0.0, -0.018, 0.018, ceiling=True))
    why = moving_why(towards_american, SIDES, lad)
    assert why["seats"]["german"]["shown"] == "at the ceiling" and why["towards"] == "american"
    assert "the german seat is at the ceiling (lookahead already wins every game there)" in why["text"]
    assert "helps american only, so the top level's verdict leans american; a player that plays german better" \
           in why["text"]


def test_without_the_ladder_the_curve_and_the_flag():
    for lad in (None, ladder(seat("american", 0.1, 0.05, 0.15), seat("german", 0.1, 0.05, 0.15), weak="greedy",
                             strong="lookahead")):     # a ladder without the curve's top rung says nothing of it
        why = moving_why(RIDGE, SIDES, lad)
        assert why["source"] == "curve" and why["towards"] == "german" and "seats" not in why
        assert why["text"] == ("from lookahead to mcts:64:learned the win rates move american -25.5 points [-34.8, "
                               "-16.2], german +25.5 [+16.2, +34.8] (towards german); add --ladder to the command to "
                               "see from which seat the stronger player gains (each level against the one below it, "
                               "from each seat)")


def test_draws_moved():
    # both sides lose 10 points [-16, -4] at the top: the draws rose 20 points, no side's win rate rose
    why = moving_why(conv((-0.10, -0.16, -0.06), (-0.10, -0.16, -0.06)), SIDES)
    assert why["towards"] is None and "(no side's rose beyond the margin and more than the other's: the draws " \
                                      "moved)" in why["text"]
    # both rise (the draws fell): towards the one that rose more; here american +30 [+20,
    # +40] against german +10 [+4, +16]: american; equal rises are towards neither
    assert moving_why(conv((0.30, 0.20, 0.40), (0.10, 0.04, 0.16)), SIDES)["towards"] == "american"
    assert moving_why(conv((0.10, 0.06, 0.14), (0.10, 0.06, 0.14)), SIDES)["towards"] is None


def test_the_gain_difference_is_paired_game_by_game():
    # 10 games. lookahead's mirror: american wins games 0-3, german 4-9. The stronger as american
    # wins games 0-6 (american's gain per game: +1 in games 4-6, 0.3 in all); as german wins games
    # 2-9 (german's gain: +1 in games 2-3, 0.2). Per game american's minus german's: -1 in games
    # 2-3, +1 in 4-6: +0.1, every changed game one step: Tango's interval of 3 against 2 in 10
    mirror = np.array([0] * 4 + [1] * 6)
    as_american = np.array([0] * 7 + [1] * 3)
    as_german = np.array([0] * 2 + [1] * 8)
    net = gain_difference([as_american, as_german], mirror, SIDES)
    assert net["side"] == "american" and net["p"] == pytest.approx(0.1)
    assert net["ci95"] == pytest.approx(list(discordant_interval(3, 2, 10)))


def test_the_verdict_and_the_reports_say_why():
    c = dict(RIDGE, why=moving_why(RIDGE, SIDES))
    v = verdict_at_strength({"text": "undecided: ...", "status": "undecided"}, "mcts:64:learned", c)
    assert "the skill curve still moves" in v["text"] and v["text"].endswith(" — why: " + c["why"]["text"])
    typed = Convergence.of(c)
    assert typed.why == c["why"]["text"]
    assert convergence_phrase(typed, "mcts:64:learned").endswith("; why: " + c["why"]["text"])
    assert f"  why: {c['why']['text']}" in convergence_lines(typed, SIDES)
    assert Convergence.of(RIDGE).why is None
