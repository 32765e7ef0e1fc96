"""The balance verdict of a run (issue 39; draws and rare wins, issue 21 item 5): the
margin, the four outcomes at and either side of each boundary, games needed, and the
activity warnings. Tallies are built by hand and go through the real code path,
:func:`simulator.engine.core.batch.verdict`; every expected interval comes from scipy's
Wilson interval, an implementation independent of ours."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binomtest

from simulator.engine.core.batch import Tally, activity_warnings, margin_fraction, verdict
from simulator.run.errors import InputError

SIDES = ["german", "soviet"]
Z = 1.959963984540054


def tally(w0: int, w1: int, draws: int) -> Tally:
    t = Tally(turns=6)
    t.wins = np.array([w0, w1, draws], np.int64)
    t.games = w0 + w1 + draws
    return t


def scipy_wilson(k: int, n: int) -> tuple[float, float]:
    ci = binomtest(k, n).proportion_ci(0.95, "wilson")
    return ci.low, ci.high


# The boundaries at margin 0.05 with 1,000 decisive games (no draws), found with scipy's
# Wilson interval (lo, hi) of k wins of 1,000:
#   k = 480: lo 0.44917 < 0.45        k = 481: lo 0.45016 >= 0.45   (lower edge of "balanced")
#   k = 519: hi 0.54984 <= 0.55       k = 520: hi 0.55083 > 0.55    (upper edge of "balanced")
#   k = 580: lo 0.54916 <= 0.55       k = 581: lo 0.55017 > 0.55    (german "unbalanced")
#   k = 419: hi 0.44983 < 0.45        k = 420: hi 0.45083 >= 0.45   (soviet "unbalanced")
@pytest.mark.parametrize("k,status,favoured", [
    (480, "undecided", None), (481, "balanced", None),
    (519, "balanced", None), (520, "undecided", None),
    (580, "undecided", "german"), (581, "unbalanced", "german"),
    (419, "unbalanced", "soviet"), (420, "undecided", "soviet"),
])
def test_the_verdict_at_and_either_side_of_each_boundary(k, status, favoured):
    v = verdict(tally(k, 1000 - k, 0), SIDES, margin=0.05)
    lo, hi = scipy_wilson(k, 1000)
    assert v["ci95"] == pytest.approx([lo, hi], abs=1e-12)
    assert v["status"] == status and v["favoured"] == favoured
    assert v["margin"] == 0.05 and v["interval"] == "wilson"
    assert (v["games_needed"] is None) == (status != "undecided")
    assert v["edge_detectable"] == (lo > 0.5 or hi < 0.5)


def test_an_edge_can_be_detectable_and_the_verdict_undecided():
    # 469 of 1,000: scipy's Wilson hi is 0.49999 < 0.5 (an edge for soviet), lo 0.43828 < 0.45
    v = verdict(tally(469, 531, 0), SIDES)
    assert v["status"] == "undecided" and v["edge_detectable"] is True and v["favoured"] == "soviet"
    assert "soviet's edge is detectable" in v["text"]
    # 470 of 1,000: hi 0.50099 >= 0.5, no edge
    assert verdict(tally(470, 530, 0), SIDES)["edge_detectable"] is False


def test_two_farms_at_20000_games_balanced_at_5_points_unbalanced_at_2():
    # the measurement: american (the first side here) wins 52.7% of 20,000 decisive games
    sides = ["american", "german"]
    t = tally(10_540, 9_460, 0)
    lo, hi = scipy_wilson(10_540, 20_000)          # 0.52008, 0.53391
    at5 = verdict(t, sides, margin=0.05)
    assert at5["status"] == "balanced" and at5["ci95"] == pytest.approx([lo, hi], abs=1e-12)
    assert at5["edge_detectable"] is True and at5["favoured"] == "american"     # lo 0.52008 > 0.5
    assert "balanced within ±5 points" in at5["text"] and "edge is real but inside the margin" in at5["text"]
    at2 = verdict(t, sides, margin=0.02)            # lo 0.52008 > 0.52: wholly outside 48%-52%
    assert at2["status"] == "unbalanced" and at2["favoured"] == "american" and at2["games_needed"] is None
    assert "wholly outside ±2 points" in at2["text"]


def _projected_lo(p: float, n: int) -> float:
    """Wilson's lower end at share p of n, written out here (the score interval's centre
    minus its half-width)."""
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half


def test_thirty_games_of_a_near_even_scenario_are_undecided_with_the_games_needed():
    v = verdict(tally(14, 16, 0), SIDES)            # 46.7%: scipy's Wilson [0.3023, 0.6393]
    assert v["status"] == "undecided" and v["ci95"] == pytest.approx(list(scipy_wilson(14, 30)), abs=1e-12)
    assert "not enough games" in v["text"] and "more decisive games would most likely decide it" in v["text"]
    # games needed: the fewest N at which the interval at the same share, 14/30, lies inside
    # 45%-55% (its lower end the binding one, the share being below 50%), minus the 30 played
    total = v["games_needed"] + 30
    assert _projected_lo(14 / 30, total) >= 0.45 > _projected_lo(14 / 30, total - 1)
    assert 3_000 < v["games_needed"] < 4_000        # about 3,400 (docs/statistics.md's example)


def test_the_confidence_sequence_is_wider_and_named():
    fixed = verdict(tally(10_540, 9_460, 0), SIDES)
    seq = verdict(tally(10_540, 9_460, 0), SIDES, sequential=True)
    assert seq["interval"] == "sequence" and "confidence sequence" in seq["test"]
    assert seq["ci95"][0] < fixed["ci95"][0] and seq["ci95"][1] > fixed["ci95"][1]
    # 20,000 decisive games at an even share: the sequence is 1.72 times as wide (verdicts' docstring)
    even = verdict(tally(10_000, 10_000, 0), SIDES, sequential=True)["ci95"]
    lo, hi = scipy_wilson(10_000, 20_000)
    assert (even[1] - even[0]) / (hi - lo) == pytest.approx(1.72, abs=0.01)


def test_the_margin_comes_from_the_option_then_the_scenario_then_five_points():
    assert margin_fraction(2, 7) == 0.02 and margin_fraction(None, 7) == 0.07 and margin_fraction(None) == 0.05
    for bad in (0, 50, -1):
        with pytest.raises(InputError, match="a margin in points"):
            margin_fraction(bad)


def test_a_98_percent_draw_scenario_gets_no_verdict():
    v = verdict(tally(8, 7, 985), SIDES)             # Crossroads, greedy v random, before
    assert v["status"] == "no verdict" and v["games_needed"] is None
    assert v["text"].startswith("no verdict: draws dominate: 98.5% of 1,000 games were draws")
    assert v["draw_rate"] == pytest.approx(0.985)


def test_draws_dominate_only_over_half_of_the_games():
    assert verdict(tally(25, 25, 50), SIDES)["status"] == "undecided"       # exactly half: a verdict
    assert verdict(tally(24, 25, 51), SIDES)["status"] == "no verdict"      # over half: none


def test_a_side_that_almost_never_wins_is_named():
    v = verdict(tally(30, 960, 10), SIDES)           # german wins 3.0% of games
    assert v["status"] == "unbalanced" and v["favoured"] == "soviet"
    assert v["text"].endswith("german almost never wins (3.0% of games)")
    assert "almost never" not in verdict(tally(100, 800, 100), SIDES)["text"]   # 10%: not rare


def test_no_decisive_game():
    v = verdict(tally(0, 0, 50), SIDES)
    assert v["status"] == "no verdict" and v["ci95"] is None and v["edge_detectable"] is False
    assert v["text"] == "no verdict: none of the 50 games was decisive"


def test_the_json_keys_of_the_verdict():
    v = verdict(tally(100, 800, 100), SIDES, margin=0.03)
    assert {"status", "margin", "games_needed", "edge_detectable", "ci95", "share_first_side", "favoured",
            "decisive_games", "draw_rate", "interval", "text", "test"} <= set(v)
    assert v["status"] == "unbalanced" and v["favoured"] == "soviet" and v["margin"] == 0.03
    assert v["share_first_side"] == pytest.approx(100 / 900) and v["decisive_games"] == 900
    assert "50% ± 3 points (47%-53%)" in v["test"]


def test_activity_warnings():
    quiet = {"activity": {"activations": 30.0, "close_combats": 0.05}, "draw_rate": 0.1,
             "verdict": {"status": "balanced"}}
    assert any("hardly ever enter close combat (0.05 a game)" in w for w in activity_warnings(quiet))
    busy = {"activity": {"activations": 30.0, "close_combats": 1.5}, "draw_rate": 0.1,
            "verdict": {"status": "balanced"}}
    assert activity_warnings(busy) == []
    drawn = {**busy, "draw_rate": 0.985, "verdict": {"status": "no verdict"}}
    assert any("98.5% of games are draws" in w for w in activity_warnings(drawn))
    none_decisive_few_draws = {**busy, "draw_rate": 0.0, "verdict": {"status": "no verdict"}}
    assert not any("are draws" in w for w in activity_warnings(none_decisive_few_draws))
