"""Intervals for the figures beside the balance verdict (issue 39, item 7): a
difference of two independent proportions (Newcombe's hybrid score interval), the
probability of each outcome of a Monte Carlo calculator (Wilson's score interval, the
exact Clopper-Pearson bound for an outcome never seen or always seen) and a quantile's
order-statistic interval. Pure: numpy and the standard library, the one-proportion
interval from :func:`simulator.run.verdicts.wilson`.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from simulator.run.verdicts import Z95, wilson

ALPHA = 0.05


def newcombe_difference(x1: int, n1: int, x2: int, n2: int, z: float = Z95) -> tuple[float, tuple[float, float]]:
    """``(d, (lo, hi))``: ``x1/n1 - x2/n2`` and Newcombe's hybrid score interval (his
    method 10, Statistics in Medicine 1998): from the two Wilson intervals
    ``(l1, u1)``, ``(l2, u2)``, ``lo = d - sqrt((p1-l1)^2 + (u2-p2)^2)`` and
    ``hi = d + sqrt((u1-p1)^2 + (p2-l2)^2)``. Unlike the normal interval it keeps a
    width at 0% or 100% (Wilson's ends do not collapse there)."""
    if n1 <= 0 or n2 <= 0:
        raise ValueError(f"both groups need games, got n1={n1}, n2={n2}")
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1, z)
    l2, u2 = wilson(x2, n2, z)
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, (max(-1.0, lo), min(1.0, hi))


EXACT_BELOW = 10
"""Counts (of successes or of failures) at or below this get the exact Clopper-Pearson
interval in :func:`proportion_interval`: Wilson's lower end covers poorly there (at
200 trials and a true chance of 1 in 2,000 it covers 90%)."""


def _log_pmf(k: int, n: int, p: float) -> float:
    return (math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def _cdf_small(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p), k small: a direct sum of k + 1 terms."""
    if p <= 0.0:
        return 1.0
    if p >= 1.0:
        return 1.0 if k >= n else 0.0
    return min(1.0, sum(math.exp(_log_pmf(i, n, p)) for i in range(k + 1)))


def _clopper_pearson_small(count: int, trials: int, alpha: float) -> tuple[float, float]:
    """Clopper-Pearson's exact interval for a count of at most :data:`EXACT_BELOW`:
    ``hi`` solves P(X <= count | hi) = alpha/2, ``lo`` solves P(X >= count | lo) =
    alpha/2 (bisection, 100 steps: far below the figures shown)."""
    def root(f, a: float, b: float) -> float:      # f(a) > 0 >= f(b), f decreasing
        for _ in range(100):
            m = 0.5 * (a + b)
            if f(m) > 0.0:
                a = m
            else:
                b = m
        return 0.5 * (a + b)
    half = alpha / 2.0
    hi = root(lambda p: _cdf_small(count, trials, p) - half, count / trials, 1.0)
    lo = 0.0 if count == 0 else root(lambda p: half - (1.0 - _cdf_small(count - 1, trials, p)), 0.0, count / trials)
    return (lo, hi)


@lru_cache(maxsize=65536)
def proportion_interval(count: int, trials: int, alpha: float = ALPHA) -> tuple[float, float]:
    """The 95% interval of a Monte Carlo probability, ``count`` of ``trials``: Wilson's
    score interval, exact (Clopper-Pearson) when ``count`` or ``trials - count`` is at
    most :data:`EXACT_BELOW`: an outcome never seen is shown as 0 with its exact upper
    bound ``1 - (alpha/2)^(1/trials)``, the largest chance it could have."""
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= count <= trials:
        raise ValueError(f"count must lie between 0 and trials={trials}, got {count}")
    if count == 0:
        return (0.0, -math.expm1(math.log(alpha / 2.0) / trials))
    if count == trials:
        return (math.exp(math.log(alpha / 2.0) / trials), 1.0)
    if count <= EXACT_BELOW:
        return _clopper_pearson_small(count, trials, alpha)
    if trials - count <= EXACT_BELOW:
        lo, hi = _clopper_pearson_small(trials - count, trials, alpha)
        return (1.0 - hi, 1.0 - lo)
    if alpha != ALPHA:
        from statistics import NormalDist
        return wilson(count, trials, NormalDist().inv_cdf(1.0 - alpha / 2.0))
    return wilson(count, trials)


def outcome_intervals(p: np.ndarray, trials: int) -> tuple[np.ndarray, np.ndarray]:
    """Each outcome's 95% interval (:func:`proportion_interval`) from its Monte Carlo
    probability ``p`` (counts / trials) as two arrays ``(lo, hi)`` of ``p``'s shape: the
    one function the fire, close combat and smoke calculators use."""
    p = np.asarray(p, dtype=float)
    counts = np.rint(p * trials).astype(np.int64)
    lo, hi = np.empty(p.shape), np.empty(p.shape)
    for idx, c in np.ndenumerate(counts):
        lo[idx], hi[idx] = proportion_interval(int(c), trials)
    return lo, hi


def listed_outcomes(p: np.ndarray, possible: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
    """The rows an outcome table lists, as the index arrays of ``np.nonzero``: an exact
    table (``possible`` None) lists its non-zero outcomes; a Monte Carlo table every
    outcome the pools can give (``possible``, a boolean array of ``p``'s shape: the exact
    calculator's support) and every one seen, so an outcome never seen is a row at 0
    with its exact upper bound (:func:`proportion_interval`) instead of a missing row.
    The one rule the fire, close combat, smoke and Tide of Iron tables share."""
    seen = np.asarray(p) > 0
    return np.nonzero(seen if possible is None else seen | np.asarray(possible, dtype=bool))


def listed_states(dist: dict, possible=None) -> dict:
    """:func:`listed_outcomes` for a table kept as ``{state code: p}`` (close combat):
    every possible code (``possible``, an iterable of codes) not seen added at 0.0."""
    if possible is None:
        return dict(dist)
    return {**{code: 0.0 for code in possible}, **dist}


def support_or_none(exact_answer):
    """The support (``answer > 0``, or a dict's keys) of an exact answer computed by the
    zero-argument ``exact_answer``, for :func:`listed_outcomes`; None when the exact
    calculator refuses the question as too large (an ``InputError``): the Monte Carlo
    table then lists the outcomes seen, and says so."""
    from simulator.run.errors import InputError
    try:
        answer = exact_answer()
    except InputError:
        return None
    if isinstance(answer, dict):
        return set(answer)
    return np.asarray(answer) > 0


UNSEEN_LISTED = "every possible outcome is listed; one never seen shows 0 and its exact 95% upper bound"
UNSEEN_NOT_LISTED = "outcomes never seen are not listed: {why}, so which outcomes are possible is not known"
TOO_LARGE = "the exact calculator refused the question as too large"


def unseen_note(possible, why: str = TOO_LARGE) -> str:
    """What a Monte Carlo outcome table says about the outcomes it did not see (``why``:
    the reason the exact support is not known, when ``possible`` is None)."""
    return UNSEEN_NOT_LISTED.format(why=why) if possible is None else UNSEEN_LISTED


@lru_cache(maxsize=4096)
def _binomial_ppf(q: float, n: int, prob: float) -> int:
    """The smallest ``k`` with ``P(B <= k) >= q`` for ``B ~ Binomial(n, prob)``, summed
    in log space over a window of about 40 standard deviations around the mean."""
    mean, sd = n * prob, math.sqrt(n * prob * (1.0 - prob))
    first, last = max(0, int(mean - 20 * sd - 10)), min(n, int(mean + 20 * sd + 10))
    k = np.arange(first, last + 1)
    lg = np.array([math.lgamma(x + 1.0) for x in k]) + np.array([math.lgamma(n - x + 1.0) for x in k])
    logpmf = math.lgamma(n + 1.0) - lg + k * math.log(prob) + (n - k) * math.log1p(-prob)
    cdf = np.cumsum(np.exp(logpmf))
    return int(k[min(int(np.searchsorted(cdf, q - 1e-12)), len(k) - 1)])


def quantile_interval(pmf: np.ndarray, trials: int, q: float, alpha: float = ALPHA) -> tuple[int, int]:
    """The distribution-free ``1 - alpha`` interval of the ``q``-quantile of a Monte
    Carlo sample of ``trials`` integer values (``pmf``: their frequencies over 0, 1, ...):
    the order statistics ``X_(l)`` and ``X_(u)`` with ``l`` the ``alpha/2`` quantile of
    Binomial(trials, q) and ``u`` one more than its ``1 - alpha/2`` quantile (each end
    misses with chance at most about ``alpha/2``; clipped to the sample's range)."""
    if trials <= 0:
        raise ValueError(f"trials must be positive, got {trials}")
    cum = np.cumsum(np.rint(np.asarray(pmf, dtype=float) * trials))
    lo_rank = max(1, _binomial_ppf(alpha / 2.0, trials, q))
    hi_rank = min(trials, _binomial_ppf(1.0 - alpha / 2.0, trials, q) + 1)
    # X_(r): the smallest value with at least r sampled at or below it
    order = lambda r: int(np.searchsorted(cum, r - 0.5))     # noqa: E731
    return order(lo_rank), order(hi_rank)


def add_interval_columns(frame, trials: int, column: str = "p") -> None:
    """``lo`` and ``hi`` columns on a Monte Carlo outcome table (a DataFrame or a dict of
    numpy columns): each outcome's 95% interval from :func:`outcome_intervals`."""
    frame["lo"], frame["hi"] = outcome_intervals(np.asarray(frame[column], dtype=float), trials)


def summary_intervals(summary: dict, trials: int) -> dict[str, list[float]]:
    """``{"p_any": [lo, hi], ...}``: the 95% interval of each probability (``p_*`` key
    holding a number) of a Monte Carlo summary, from :func:`proportion_interval`."""
    out = {}
    for key, value in summary.items():
        if key.startswith("p_") and isinstance(value, float | int):
            out[key] = list(proportion_interval(int(round(value * trials)), trials))
    return out
