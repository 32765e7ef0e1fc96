"""Small statistics used across commands: standard errors, intervals, quantiles."""

from __future__ import annotations

import math

import numpy as np

from simulator.run.verdicts import wilson

Z95 = 1.959963984540054


def proportion_se(p, n: int):
    """Standard error of a proportion estimated from ``n`` trials."""
    p = np.asarray(p, dtype=float)
    return np.sqrt(p * (1.0 - p) / n)


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default): the one
    implementation, :func:`simulator.run.verdicts.wilson`, under the name its callers
    know (exactly 0.0 below at no success, 1.0 above when all succeed)."""
    return wilson(successes, n, z)


def mean_se(values: np.ndarray, probs: np.ndarray, n: int) -> float:
    """Standard error of a mean estimated from ``n`` trials of a discrete variable."""
    mean = float(np.sum(values * probs))
    var = float(np.sum((values - mean) ** 2 * probs))
    return math.sqrt(var / n)


def at_least(pmf: np.ndarray) -> np.ndarray:
    """``P(X >= k)`` for ``k = 0..len(pmf)-1`` from a pmf over ``0..``."""
    return np.clip(np.cumsum(pmf[::-1])[::-1], 0.0, 1.0)


def quantile(pmf: np.ndarray, q: float) -> int:
    """Smallest ``k`` with ``P(X <= k) >= q`` for a pmf over ``0..``."""
    cdf = np.cumsum(pmf)
    return int(np.searchsorted(cdf, q - 1e-12))
