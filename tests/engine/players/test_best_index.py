"""The players' one argmax, :func:`simulator.engine.players.base.best_index` (issue 42,
item 2): every greedy choice of both games and the look-ahead's candidates go through
it, so its tie rules are the players' (the golden games hold the players' choices)."""

from __future__ import annotations

import numba
import numpy as np

from simulator.engine.players.base import NEG, TIE_FIRST, TIE_RANDOM, best_index
from simulator.run.rng import below, seed_state


@numba.njit
def _best(scores, n, floor, tie, rng):
    return best_index(scores, n, floor, tie, rng)


@numba.njit
def _draws(rng, ties):
    """What the reservoir draws for ties 2 .. ties (the first tie never draws a loser)."""
    out = np.zeros(ties + 1, np.int64)
    for k in range(2, ties + 1):
        out[k] = below(rng, k)
    return out


def _rng(seed=7):
    return seed_state(np.random.SeedSequence(seed))


def test_first_of_equal_scores():
    # 2.0 first at index 1, again at 3: the first stays (a later one must score strictly more)
    scores = np.array([1.0, 2.0, -3.0, 2.0, 0.5])
    assert _best(scores, 5, NEG, TIE_FIRST, _rng()) == 1
    # only the first n count: without index 1..4 the best of [1.0] is index 0
    assert _best(scores, 1, NEG, TIE_FIRST, _rng()) == 0


def test_floor_and_nan():
    scores = np.array([np.nan, -1.0, 0.0, np.nan])
    # nothing strictly above 0.0 (0.0 itself is not above it; NaN is never taken): -1
    assert _best(scores, 4, 0.0, TIE_FIRST, _rng()) == -1
    # above NEG: 0.0 at index 2 is the best
    assert _best(scores, 4, NEG, TIE_FIRST, _rng()) == 2


def test_first_draws_nothing():
    rng = _rng()
    before = rng.copy()
    _best(np.array([1.0, 1.0, 1.0]), 3, NEG, TIE_FIRST, rng)
    assert (rng == before).all()


def test_random_ties_are_a_reservoir():
    # three scores within TIE_EPS of 5.0 (indices 1, 2, 4) and a lower one: the draws
    # below(rng, 2) and below(rng, 3) decide, in this order; index k is kept when its
    # draw is 0, so the answer is the last tie whose draw was 0 (index 1 if none)
    scores = np.array([4.0, 5.0, 5.0 + 1e-10, 3.0, 5.0 - 1e-10])
    draws = _draws(_rng(), 3)
    expected = 1
    for k, idx in ((2, 2), (3, 4)):
        if draws[k] == 0:
            expected = idx
    rng = _rng()
    assert _best(scores, 5, -1e18, TIE_RANDOM, rng) == expected
    assert not (rng == _rng()).all()            # it drew from the stream given


def test_random_ties_uniform_over_seeds():
    # two exact ties (indices 0 and 2) and a clear loser: over 4000 streams each tie is
    # kept about half the time (binomial sd sqrt(4000 / 4) ~ 32: 2000 +- 200 is over 6 sd)
    scores = np.array([2.0, 1.0, 2.0])
    picks = [_best(scores, 3, -1e18, TIE_RANDOM, _rng(k)) for k in range(4000)]
    assert set(picks) == {0, 2}
    assert 1800 < picks.count(0) < 2200


def test_strictly_better_resets_ties():
    # index 2 is better by more than TIE_EPS: no draw can keep 0 or 1
    scores = np.array([1.0, 1.0, 1.0 + 1e-6])
    for seed in range(20):
        assert _best(scores, 3, -1e18, TIE_RANDOM, _rng(seed)) == 2
