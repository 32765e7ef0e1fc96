"""Tide of Iron's greedy player against random, and the balance of the shipped scenarios
greedy against greedy (simulator/games/toi/game/greedy.py; scenarios/toi/).

Fixed seeds, so each figure below is exact; the assertions are on 95% Wilson intervals
(:func:`simulator.run.stats.wilson_interval`), so a small change of the rules or of the
player moves them only as much as chance would.

- greedy against random, from either seat: the whole interval of greedy's win rate above
  0.65 (the target), so the margin over random is outside the interval;
- greedy against greedy on the two shipped scenarios, both rebalanced in issue 41 for the
  strongest players (mcts:64:learned on both sides, docs/strength.md), where greedy plays
  one side worse: on two-farms the Germans favoured (the American interval inside
  0.30-0.45), on ridge-line the Americans (inside 0.62-0.80).
"""

from __future__ import annotations

import pytest

from simulator.games.toi.game.game import play_games
from simulator.run.stats import wilson_interval

SEED = 1
TARGET = 0.65             # greedy's win rate against random, either seat


def wins(scenario: str, players: tuple[str, str], n: int) -> tuple[int, int]:
    """Wins of the first and the second side in ``n`` games."""
    recs = play_games(scenario, n, seed=SEED, players=players)
    return sum(r.winner == 0 for r in recs), sum(r.winner == 1 for r in recs)


# measured (wins of greedy / games): two-farms 988/1000 American seat, 999/1000 German
# seat (issue 41's data); ridge-line 292/300 American seat, 300/300 German seat (issue 41's
# greedy, which assaults; issue 40's ridge-line).
@pytest.mark.parametrize(("scenario", "n"), [("two-farms", 1000), ("ridge-line", 300)])
@pytest.mark.parametrize("seat", [0, 1])
def test_greedy_beats_random_from_either_seat(scenario, n, seat):
    players = ("greedy", "random") if seat == 0 else ("random", "greedy")
    won = wins(scenario, players, n)[seat]
    lo, hi = wilson_interval(won, n)
    assert lo > TARGET, (scenario, seat, won, n, (lo, hi))


# Both shipped scenarios were rebalanced in issue 41 for mcts:64:learned on both sides, where
# greedy plays one side worse; the band holds greedy's American win rate, seed 1. Measured:
# two-farms (5 rounds, the German MG squad elite: American 51.1% of 4,000 games at the top,
# seed 4304) American 758/2000 (37.9%, Wilson [35.8%, 40.1%]; the old data: 1001/2000);
# ridge-line (the counter-attack without its 3regular squad) American 433/600 (72.2%,
# Wilson [68.4%, 75.6%]; the data before: 316/600, near even, as tuned with greedy).
@pytest.mark.parametrize(("scenario", "n", "band"), [("two-farms", 2000, (0.30, 0.45)),
                                                     ("ridge-line", 600, (0.62, 0.80))])
def test_greedy_against_greedy_favours_the_side_it_plays_better(scenario, n, band):
    won = wins(scenario, ("greedy", "greedy"), n)[0]
    lo, hi = wilson_interval(won, n)
    assert band[0] < lo and hi < band[1], (scenario, won, n, (lo, hi))
