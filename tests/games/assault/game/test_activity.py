"""Each side's activity, counted from the event log (simulator/games/assault/game/activity.py)."""

from __future__ import annotations

import re

import pytest

from simulator.games.assault.game.activity import MEASURES, count_events, side_activity, turn_activity
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.replay import describe_events, replay_game
from simulator.games.assault.game.state import U_SIDE


@pytest.fixture(scope="module")
def game():
    return replay_game(compile_game("infantry-training"), 2026, 1, ("greedy", "greedy"))


def test_turn_activity_adds_up_to_the_games_events(game):
    turns = turn_activity(game)
    total = count_events(game.events(), game.s.u[:, U_SIDE])
    for i, side in enumerate(game.game.sides):
        for j, m in enumerate(MEASURES):
            got = turns[(turns["side"] == side) & (turns["measure"] == m)]["count"].sum()
            assert got == total[i, j], (side, m)
    # and the activations are the lines "SIDE activates ..." of the replay
    acts = [r["text"] for r in describe_events(game) if re.match(r"^(german|soviet) activates ", r["text"])]
    assert turns[turns["measure"] == "activations"]["count"].sum() == len(acts)


def test_side_activity_is_the_mean_of_the_replayed_games():
    g = compile_game("infantry-training")
    act = side_activity(g, 2026, ("greedy", "greedy"), games=3)
    totals = sum(count_events(st.events(), st.s.u[:, U_SIDE])
                 for st in (replay_game(g, 2026, k, ("greedy", "greedy")) for k in range(3)))
    for i, side in enumerate(g.sides):
        assert [act[side][m] for m in MEASURES] == pytest.approx(list(totals[i] / 3))
    assert act["games"] == 3 and "first 3 games" in act["sample"]
