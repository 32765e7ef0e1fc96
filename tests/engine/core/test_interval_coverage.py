"""Coverage of the intervals the scenario commands print that are built in the engine's
core (simulator/engine/core/batch.py, balance.py): the first-player effect, the skill
curve's convergence difference (paired and unpaired), the ladder's seat difference, the
closest-to-even comparison and the "±" of mean losses and closeness. Each test draws
runs with fixed seeds from a known truth and goes through the function that makes the
printed figure (docs/statistics.md, "Every interval and its coverage test").

Tolerance: with S = 2,000 runs and a true coverage near 0.95 the share covered has sd
sqrt(0.95 * 0.05 / 2000) = 0.0049, so [0.93, 0.97] is about +-4 sd; a 1-SE interval
(68%) or a doubled SE (99.99%) falls far outside it.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from simulator.engine.core.balance import _signed_difference, curve_convergence, seat_difference
from simulator.engine.core.batch import first_player_effect, mean_se_of

SIMS = 2000
COVER_LO, COVER_HI = 0.93, 0.97
Z = 1.959963984540054


def test_first_player_effect_coverage_and_sign():
    # 120 games with the first side moving first: it wins 0.62, the second 0.30, 8% draws;
    # 120 with the second moving first: the first side wins 0.45, the second 0.47. True
    # effect for the first side 0.62 - 0.45 = +0.17, for the second 0.47 - 0.30 = +0.17
    rng = np.random.default_rng(3901)
    first_moves = rng.multinomial(120, [0.62, 0.30, 0.08, 0.0], size=SIMS)
    second_moves = rng.multinomial(120, [0.45, 0.47, 0.08, 0.0], size=SIMS)
    covered = np.zeros(2)
    positive = 0
    for a, b in zip(first_moves, second_moves, strict=True):
        fp = first_player_effect(SimpleNamespace(first_counts=np.stack([a, b])), ["first", "second"])
        for i, side in enumerate(("first", "second")):
            lo, hi = fp[side]["ci95"]
            covered[i] += lo <= 0.17 <= hi
        positive += fp["first"]["difference"] > 0
    share = covered / SIMS
    assert (share >= COVER_LO).all() and (share <= COVER_HI).all(), share
    # the sign: moving first helps here; P(estimate <= 0) is tiny (0.17 is 2.7 sd of the
    # difference, sd = sqrt(.62*.38/120 + .45*.55/120) = 0.064): at least 99% positive
    assert positive / SIMS >= 0.99


def _paired_outcomes(rng, n, top, below, common=0.7):
    """Outcome arrays (0 first side won, 1 second, 2 draw) of two levels on the same seeds:
    game i's uniform decides both levels with chance ``common``, else the lower level
    draws its own. ``top`` / ``below``: (first side's win chance, second side's)."""
    u = rng.random(n)
    v = np.where(rng.random(n) < common, u, rng.random(n))

    def out(x, p):
        return np.where(x < p[0], 0, np.where(x >= 1 - p[1], 1, 2))
    return out(u, top), out(v, below)


def test_skill_curve_paired_difference_coverage():
    # true differences top - below: first side 0.50 - 0.45 = +0.05, second 0.42 - 0.45 = -0.03
    rng = np.random.default_rng(3902)
    rows = [{"level": "greedy", "games": 400, "win_rate": {}}, {"level": "lookahead", "games": 400, "win_rate": {}}]
    covered = np.zeros(2)
    for _ in range(SIMS):
        top, below = _paired_outcomes(rng, 400, (0.50, 0.42), (0.45, 0.45))
        conv = curve_convergence(rows, ["first", "second"], 0.05, top, below)
        for i, (side, truth) in enumerate((("first", 0.05), ("second", -0.03))):
            lo, hi = conv["difference"][side]["ci95"]
            covered[i] += lo <= truth <= hi
    share = covered / SIMS
    assert (share >= COVER_LO).all() and (share <= COVER_HI).all(), share


def test_skill_curve_unpaired_difference_coverage():
    # no per-game records: Newcombe's interval from the two levels' Wilson intervals;
    # 300 games a level, first side 0.55 at the top and 0.48 below (difference +0.07)
    rng = np.random.default_rng(3903)
    covered = 0
    for w_top, w_below in zip(rng.binomial(300, 0.55, SIMS), rng.binomial(300, 0.48, SIMS), strict=True):
        rows = [{"level": "a", "games": 300, "win_rate": {"first": {"p": w_below / 300}}},
                {"level": "b", "games": 300, "win_rate": {"first": {"p": w_top / 300}}}]
        lo, hi = curve_convergence(rows, ["first"], 0.05)["difference"]["first"]["ci95"]
        covered += lo <= 0.07 <= hi
    assert COVER_LO <= covered / SIMS <= COVER_HI


def test_ladder_seat_difference_coverage():
    # the ladder's paired difference in one seat (stronger player's win rate minus the
    # weaker's, same seeds): first seat wins 0.60 with the stronger player, 0.50 without
    rng = np.random.default_rng(3904)
    covered = 0
    for _ in range(SIMS):
        strong, weak = _paired_outcomes(rng, 300, (0.60, 0.35), (0.50, 0.45), common=0.6)
        lo, hi = seat_difference(strong, weak, 0)["ci95"]
        covered += lo <= 0.10 <= hi
    assert COVER_LO <= covered / SIMS <= COVER_HI


def test_closest_to_even_paired_interval_coverage():
    # the closest-to-even comparison's paired interval on per-game values in {-1, 0, 1}
    # (first side won = 1, second = -1), the normal path (changes of one and two steps):
    # a per game from (0.45, 0.10, 0.45) over (1, 0, -1); b equals a with chance 0.6, else
    # its own draw from (0.40, 0.10, 0.50). True mean of a - b: 0.4 * ((0.45 - 0.45) -
    # (0.40 - 0.50)) = 0.4 * 0.10 = +0.04
    rng = np.random.default_rng(3905)
    vals = np.array([1, 0, -1])
    covered = 0
    for _ in range(SIMS):
        a = vals[rng.choice(3, 300, p=[0.45, 0.10, 0.45])]
        b = np.where(rng.random(300) < 0.6, a, vals[rng.choice(3, 300, p=[0.40, 0.10, 0.50])])
        _, (lo, hi) = _signed_difference(a, b, 0.05)
        covered += lo <= 0.04 <= hi
    assert COVER_LO <= covered / SIMS <= COVER_HI


@pytest.mark.parametrize("pmf", [[0.55, 0.25, 0.12, 0.08], [0.1, 0.3, 0.4, 0.2]])
def test_mean_losses_plus_minus_two_se_covers(pmf):
    # units of a card lost per game (mean_losses, with mean_losses_se) and the closeness
    # means (objectives held, strength left): mean_se_of from the sum and the sum of
    # squares; 100 games a run, mean ± 1.96 SE against the true mean
    pmf = np.array(pmf)
    values = np.arange(len(pmf))
    truth = float((values * pmf).sum())
    rng = np.random.default_rng(len(pmf) + int(100 * pmf[0]))
    covered = 0
    for _ in range(SIMS):
        x = values[rng.choice(len(pmf), 100, p=pmf)]
        se = mean_se_of(float(x.sum()), float((x * x).sum()), 100)
        covered += abs(x.mean() - truth) <= Z * se
    assert COVER_LO <= covered / SIMS <= COVER_HI
