"""The learned value's fit (simulator.engine.core.valuefit): L2 logistic regression by
Newton steps recovers known weights, picks a small penalty when the data are plentiful,
and its calibration table and scores are what their definitions give."""

from __future__ import annotations

import numpy as np

from simulator.engine.core import valuefit


def _synthetic(n_games: int, per_game: int, seed: int):
    """Positions whose true P(side 0 wins) is sigmoid(0.3 + 1.2 x0 - 0.8 x1 + 0 x2), x on
    their own scales (x0 ~ N(2, 3^2), x1 ~ N(-1, 0.5^2), x2 ~ N(0, 1)); each position
    its own Bernoulli result, grouped ``per_game`` to a game."""
    rng = np.random.default_rng(seed)
    n = n_games * per_game
    x = np.column_stack([rng.normal(2.0, 3.0, n), rng.normal(-1.0, 0.5, n), rng.normal(0.0, 1.0, n)])
    p = valuefit.sigmoid(0.3 + 1.2 * x[:, 0] - 0.8 * x[:, 1])
    y = (rng.random(n) < p).astype(float)
    return x, y, np.repeat(np.arange(n_games), per_game)


def test_the_fit_recovers_known_weights():
    x, y, g = _synthetic(4000, 10, seed=1)
    fit = valuefit.fit_value(x, y, g, seed=3)
    packed = fit.packed()                      # [intercept, w...] on the features' own scale
    # 40,000 positions: the maximum-likelihood estimate's standard error is about
    # 0.02 for the intercept and w0 and 0.05 for w1 (sqrt of the inverse Fisher information
    # at these weights); 0.1 is 2-5 of them, and the chosen penalty (at most 1e-4 per
    # position here) shrinks the weights by well under that
    assert abs(packed[0] - 0.3) < 0.1, packed
    assert abs(packed[1] - 1.2) < 0.1, packed
    assert abs(packed[2] + 0.8) < 0.1, packed
    assert abs(packed[3]) < 0.1, packed        # a feature that does not matter gets about 0
    assert fit.lam <= 1e-4, fit.tried


def test_packed_weights_give_the_same_probability_as_the_standardised_fit():
    x, y, g = _synthetic(300, 5, seed=2)
    fit = valuefit.fit_value(x, y, g, seed=1)
    packed = fit.packed()
    direct = valuefit.sigmoid(packed[0] + x @ packed[1:])
    assert np.allclose(direct, fit.probability(x), atol=1e-12)


def test_a_strong_penalty_shrinks_the_weights_to_zero():
    x, y, _ = _synthetic(500, 4, seed=4)
    z = (x - x.mean(axis=0)) / x.std(axis=0)
    beta = valuefit.fit_logistic(z, y, lam=1e4)
    # penalty 1e4 per position against a log likelihood whose gradient per position is
    # at most |z| (a few): the weights are below 1e-3, the intercept the base rate's logit
    assert np.all(np.abs(beta[1:]) < 1e-3), beta
    assert abs(valuefit.sigmoid(beta[0]) - y.mean()) < 1e-3


def test_calibration_bins_and_scores_by_their_definitions():
    p = np.array([0.1, 0.1, 0.2, 0.2, 0.8, 0.8, 0.9, 0.9, 0.5, 0.5])
    y = np.array([0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.5, 0.0, 1.0])
    rows = valuefit.calibration(p, y, bins=5)
    # sorted by p: (0.1, 0.1) (0.2, 0.2) (0.5, 0.5) (0.8, 0.8) (0.9, 0.9), two positions a bin
    assert [r["positions"] for r in rows] == [2, 2, 2, 2, 2]
    assert [round(r["predicted"], 6) for r in rows] == [0.1, 0.2, 0.5, 0.8, 0.9]
    # observed: mean y of each bin: (0+0)/2, (0+1)/2, (0+1)/2, (1+1)/2, (1+0.5)/2
    assert [r["observed"] for r in rows] == [0.0, 0.5, 0.5, 1.0, 0.75]
    assert all(r["low"] <= r["observed"] <= r["high"] for r in rows)
    s = valuefit.scores(p, y)
    # Brier: mean (p - y)^2 = (0.01 + 0.01 + 0.04 + 0.64 + 0.04 + 0.04 + 0.01 + 0.16 + 0.25 + 0.25) / 10
    assert abs(s["brier"] - 1.45 / 10) < 1e-12


def test_the_split_is_by_game_and_reproducible():
    a = valuefit.split_games(100, seed=5, share=0.2)
    b = valuefit.split_games(100, seed=5, share=0.2)
    assert a.sum() == 20 and np.array_equal(a, b)          # round(0.2 * 100) games held out
    assert not np.array_equal(a, valuefit.split_games(100, seed=6, share=0.2))
