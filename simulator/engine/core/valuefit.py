"""Fitting a position value (numpy): L2-regularised logistic regression by Newton's
method (iteratively reweighted least squares) on standardised features, the
regularisation chosen by held-out log loss, and its calibration on held-out games.

The target is the game's result for side 0: 1 a win, 0 a loss, one half a draw (the
logistic log likelihood takes a fractional target as it is: the fit is then the
quasi-likelihood one, whose probability is side 0's expected score, a draw counting
one half). Every split is by game, never by position: the positions of one game are
alike and share one result, so a split by position would report the fit's memory of
those games as calibration.

Used by :mod:`simulator.engine.players.learned` (the scenario's games) and the tests
(synthetic data with known weights)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.run.stats import wilson_interval

LAMBDAS = tuple(10.0 ** k for k in range(-6, 1))     # the penalty per position tried (lambda * n * |w|^2 / 2)
EPS = 1e-12


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * np.asarray(z, dtype=float)))


def standardise(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(mean, scale)`` of each column (scale 1 for a constant column)."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    return mean, np.where(scale > 1e-12, scale, 1.0)


def fit_logistic(z: np.ndarray, y: np.ndarray, lam: float, *, iters: int = 50, tol: float = 1e-9) -> np.ndarray:
    """Coefficients ``[intercept, w...]`` maximising the log likelihood of targets ``y``
    (in [0, 1]) given standardised features ``z`` less ``lam * n * |w|^2 / 2`` (the
    intercept is not penalised), by Newton steps until the largest step is below
    ``tol``."""
    n, p = z.shape
    z1 = np.hstack([np.ones((n, 1)), z])
    pen = np.full(p + 1, lam * n)
    pen[0] = 0.0
    beta = np.zeros(p + 1)
    beta[0] = np.log((y.mean() + 1e-3) / (1.0 - y.mean() + 1e-3))
    for _ in range(iters):
        q = sigmoid(z1 @ beta)
        grad = z1.T @ (y - q) - pen * beta
        hess = (z1 * (q * (1.0 - q))[:, None]).T @ z1 + np.diag(pen) + 1e-9 * np.eye(p + 1)
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.max(np.abs(step)) < tol:
            break
    return beta


def predict(beta: np.ndarray, z: np.ndarray) -> np.ndarray:
    return sigmoid(beta[0] + z @ beta[1:])


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, EPS, 1.0 - EPS)
    return float(-np.mean(y * np.log(p) + (1.0 - y) * np.log(1.0 - p)))


def brier(p: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((p - y) ** 2))


def split_games(n_games: int, seed: int, share: float) -> np.ndarray:
    """A boolean mask of the games held out (``share`` of them, at least one), drawn
    with ``seed``."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(41, 2)))
    held = np.zeros(n_games, dtype=bool)
    k = max(1, int(round(share * n_games)))
    held[rng.permutation(n_games)[:k]] = True
    return held


@dataclass(frozen=True)
class Fit:
    """A fitted value: the coefficients on standardised features and the
    standardisation, the penalty chosen and each one's validation log loss."""

    beta: np.ndarray        # [intercept, w...] on standardised features
    mean: np.ndarray
    scale: np.ndarray
    lam: float
    tried: dict             # lambda -> validation log loss

    def probability(self, x: np.ndarray) -> np.ndarray:
        return predict(self.beta, (x - self.mean) / self.scale)

    def packed(self) -> np.ndarray:
        """``[intercept, w...]`` on the features' own scale (the standardisation folded
        in): what compiled code multiplies the raw features by."""
        w = self.beta[1:] / self.scale
        return np.concatenate([[self.beta[0] - float(w @ self.mean)], w])


def fit_value(x: np.ndarray, y: np.ndarray, game_of: np.ndarray, seed: int, *, valid_share: float = 0.25,
              lambdas=LAMBDAS) -> Fit:
    """Fit on positions ``x`` (rows) with targets ``y``, ``game_of`` the game of each row:
    each penalty of ``lambdas`` fitted on the games not in a validation share drawn with
    ``seed``, the one with the lowest validation log loss refitted on every game."""
    games = np.unique(game_of)
    held = split_games(len(games), seed, valid_share)
    valid = np.isin(game_of, games[held])
    mean, scale = standardise(x[~valid])
    z = (x - mean) / scale
    tried = {}
    for lam in lambdas:
        beta = fit_logistic(z[~valid], y[~valid], lam)
        tried[float(lam)] = log_loss(predict(beta, z[valid]), y[valid])
    lam = min(tried, key=tried.get)
    mean, scale = standardise(x)
    return Fit(fit_logistic((x - mean) / scale, y, lam), mean, scale, lam, tried)


def calibration(p: np.ndarray, y: np.ndarray, bins: int = 10) -> list[dict]:
    """Predicted against observed by decile of ``p``: each bin's positions, mean
    prediction, observed mean of ``y`` (side 0's score, a draw one half) and its 95%
    Wilson interval (over positions: the positions of one game are not independent,
    so the interval is narrower than the games alone would give)."""
    order = np.argsort(p, kind="stable")
    rows = []
    for k, idx in enumerate(np.array_split(order, bins)):
        if len(idx) == 0:
            continue
        obs = float(y[idx].mean())
        lo, hi = wilson_interval(float(y[idx].sum()), len(idx))
        rows.append({"decile": k + 1, "positions": int(len(idx)), "predicted": float(p[idx].mean()),
                     "observed": obs, "low": float(lo), "high": float(hi)})
    return rows


def scores(p: np.ndarray, y: np.ndarray) -> dict:
    return {"brier": brier(p, y), "log_loss": log_loss(p, y)}
