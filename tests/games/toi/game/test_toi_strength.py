"""Tide of Iron's greedy player against random, and the balance of the shipped scenarios
greedy against greedy (simulator/games/toi/game/greedy.py; scenarios/toi/).

Fixed seeds, so each figure below is exact; the assertions are on 95% Wilson intervals
(:func:`simulator.run.stats.wilson_interval`), so a small change of the rules or of the
player moves them only as much as chance would.

- greedy against random, from either seat: the whole interval of greedy's win rate above
  0.65 (the target), so the margin over random is outside the interval;
- greedy against greedy: the whole interval of each side's win rate inside 0.35-0.65
  (the band the scenarios were tuned to; measured 2000 games, seed 1: two-farms
  American 50.2%, ridge-line 49.7% as re-balanced in issue 40,
  `lanchester toi scenario NAME --games 2000 --seed 1`).
"""

from __future__ import annotations

import pytest

from simulator.games.toi.game.game import play_games
from simulator.run.stats import wilson_interval

SEED = 1
TARGET = 0.65             # greedy's win rate against random, either seat
BAND = (0.35, 0.65)       # each side's win rate greedy against greedy


def wins(scenario: str, players: tuple[str, str], n: int) -> tuple[int, int]:
    """Wins of the first and the second side in ``n`` games."""
    recs = play_games(scenario, n, seed=SEED, players=players)
    return sum(r.winner == 0 for r in recs), sum(r.winner == 1 for r in recs)


# measured (wins of greedy / games): two-farms 992/1000 American seat, 999/1000 German
# seat; ridge-line 292/300 American seat, 300/300 German seat (issue 41's greedy, which
# assaults; issue 40's ridge-line).
@pytest.mark.parametrize(("scenario", "n"), [("two-farms", 1000), ("ridge-line", 300)])
@pytest.mark.parametrize("seat", [0, 1])
def test_greedy_beats_random_from_either_seat(scenario, n, seat):
    players = ("greedy", "random") if seat == 0 else ("random", "greedy")
    won = wins(scenario, players, n)[seat]
    lo, hi = wilson_interval(won, n)
    assert lo > TARGET, (scenario, seat, won, n, (lo, hi))


# measured (American wins / games): two-farms 1001/2000 (50.1%), ridge-line 316/600
# (52.7%) with issue 41's greedy (before it: 1003/2000 and 292/600).
@pytest.mark.parametrize(("scenario", "n"), [("two-farms", 2000), ("ridge-line", 600)])
def test_greedy_against_greedy_is_near_even(scenario, n):
    for side, won in enumerate(wins(scenario, ("greedy", "greedy"), n)):
        lo, hi = wilson_interval(won, n)
        assert BAND[0] < lo and hi < BAND[1], (scenario, side, won, n, (lo, hi))
