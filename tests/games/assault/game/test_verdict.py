"""The balance verdict accounts for draws and rare wins; activity warnings (issue 21, item 5)."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.engine.core.batch import Tally, activity_warnings, verdict
from simulator.run.stats import wilson_interval

SIDES = ["german", "soviet"]


def tally(w0: int, w1: int, draws: int) -> Tally:
    t = Tally(turns=6)
    t.wins = np.array([w0, w1, draws], np.int64)
    t.games = w0 + w1 + draws
    return t


def test_even_split_with_few_draws_is_balanced():
    v = verdict(tally(480, 500, 20), SIDES)
    lo, hi = wilson_interval(480, 980)
    assert v["status"] == "balanced" and v["balanced"] is True
    assert v["ci95"] == pytest.approx([lo, hi]) and lo <= 0.5 <= hi
    assert "balanced when 50% lies" in v["test"]


def test_a_98_percent_draw_scenario_is_never_called_balanced():
    v = verdict(tally(8, 7, 985), SIDES)             # Crossroads, greedy v random, before
    assert v["status"] == "draws dominate" and v["balanced"] is None
    assert v["text"].startswith("no balance verdict: 98.5% of games are draws")
    assert v["draw_rate"] == pytest.approx(0.985)


def test_draws_dominate_only_over_half_of_the_games():
    assert verdict(tally(25, 25, 50), SIDES)["status"] == "balanced"        # exactly half: a verdict
    assert verdict(tally(24, 25, 51), SIDES)["status"] == "draws dominate"  # over half: none


def test_a_side_that_almost_never_wins_is_named():
    v = verdict(tally(30, 960, 10), SIDES)           # german wins 3.0% of games
    assert v["status"] == "favoured" and v["favoured"] == "soviet"
    assert v["text"].endswith("german almost never wins (3.0% of games)")
    assert "almost never" not in verdict(tally(100, 800, 100), SIDES)["text"]   # 10%: not rare


def test_no_decisive_game():
    v = verdict(tally(0, 0, 50), SIDES)
    assert v["balanced"] is None and v["status"] == "no decisive game"


def test_favoured_side_is_named():
    v = verdict(tally(100, 800, 100), SIDES)
    assert v["status"] == "favoured" and v["favoured"] == "soviet" and v["balanced"] is False


def test_activity_warnings():
    quiet = {"activity": {"activations": 30.0, "close_combats": 0.05}, "draw_rate": 0.1,
             "verdict": {"status": "balanced"}}
    assert any("hardly ever enter close combat (0.05 a game)" in w for w in activity_warnings(quiet))
    busy = {"activity": {"activations": 30.0, "close_combats": 1.5}, "draw_rate": 0.1,
            "verdict": {"status": "balanced"}}
    assert activity_warnings(busy) == []
    drawn = {**busy, "draw_rate": 0.985, "verdict": {"status": "draws dominate"}}
    assert any("98.5% of games are draws" in w for w in activity_warnings(drawn))
