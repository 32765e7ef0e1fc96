"""The intervals of the figures beside the verdict (simulator/run/intervals.py), checked
against scipy, published worked examples and coverage computed from the exact binomial
or by simulation with fixed seeds. No expectation is computed with the function under
test."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binom, binomtest

from simulator.run.intervals import (
    EXACT_BELOW,
    newcombe_difference,
    outcome_intervals,
    proportion_interval,
    quantile_interval,
)

# Coverage by simulation: with S simulations of an interval whose true coverage is 0.95,
# the count covered is Binomial(S, 0.95); at S = 2,000 its sd is sqrt(2000 * .95 * .05) =
# 9.75 games = 0.49 points, so [0.93, 0.97] is +-4 sd (a chance of about 6e-5 to fail by
# luck alone). A 1-SE interval (68%) or a doubled SE (99.99%) lands far outside it.
SIMS = 2000
COVER_LO, COVER_HI = 0.93, 0.97


# --- Newcombe's hybrid score interval for a difference of two proportions -------------

def test_newcombe_matches_the_published_example():
    # Newcombe (Statistics in Medicine 1998, 17: 873-890), Table II, example (a):
    # 56/70 - 48/80 = 0.8 - 0.6 = 0.2, method 10 (hybrid score): 0.0524 to 0.3339
    d, (lo, hi) = newcombe_difference(56, 70, 48, 80)
    assert d == pytest.approx(0.2)
    assert lo == pytest.approx(0.0524, abs=5e-5) and hi == pytest.approx(0.3339, abs=5e-5)


def test_newcombe_keeps_a_width_at_0_and_100_percent():
    # 0/20 v 0/20: the normal interval is [0, 0]; Newcombe's ends are the Wilson upper bound
    # of 0/20, z^2/(n + z^2) = 3.8415/23.8415 = 0.16113, on either side
    d, (lo, hi) = newcombe_difference(0, 20, 0, 20)
    assert d == 0.0 and lo == pytest.approx(-0.16113, abs=1e-5) and hi == pytest.approx(0.16113, abs=1e-5)
    # 20/20 v 0/20: d = 1, the lower end 1 - 2 * 0.16113 = 0.67774 ... computed exactly:
    # sqrt(0.16113^2 + 0.16113^2) = 0.22787, so lo = 1 - 0.22787 = 0.77213
    d, (lo, hi) = newcombe_difference(20, 20, 0, 20)
    assert d == 1.0 and hi == 1.0 and lo == pytest.approx(0.77213, abs=1e-5)


def test_newcombe_sign_follows_the_first_group():
    # the first group wins more: positive; swapped: the mirror image
    d, (lo, hi) = newcombe_difference(30, 40, 10, 40)
    d2, (lo2, hi2) = newcombe_difference(10, 40, 30, 40)
    assert d == pytest.approx(0.5) and lo > 0 and d2 == pytest.approx(-0.5) and hi2 < 0
    assert lo2 == pytest.approx(-hi) and hi2 == pytest.approx(-lo)


@pytest.mark.parametrize("p1, p2, n", [(0.55, 0.45, 60), (0.9, 0.85, 100), (0.03, 0.01, 200)])
def test_newcombe_coverage_by_simulation(p1, p2, n):
    rng = np.random.default_rng(20261128)
    x1 = rng.binomial(n, p1, SIMS)
    x2 = rng.binomial(n, p2, SIMS)
    covered = 0
    for a, b in zip(x1, x2, strict=True):
        _, (lo, hi) = newcombe_difference(int(a), n, int(b), n)
        covered += lo <= p1 - p2 <= hi
    # Newcombe's method 10 is mildly conservative at small counts (his Table IV: 0.95-0.97)
    assert COVER_LO <= covered / SIMS <= 0.98


# --- one Monte Carlo probability ----------------------------------------------------

@pytest.mark.parametrize("k", [EXACT_BELOW + 1, 37, 100, 163, 200 - EXACT_BELOW - 1])
def test_proportion_interval_is_wilson_at_larger_counts(k):
    ci = binomtest(k, 200).proportion_ci(confidence_level=0.95, method="wilson")
    assert proportion_interval(k, 200) == pytest.approx((ci.low, ci.high), abs=1e-12)


@pytest.mark.parametrize("k", [0, 1, 2, 5, EXACT_BELOW, 200 - EXACT_BELOW, 199, 200])
def test_proportion_interval_is_exact_at_small_counts(k):
    ci = binomtest(k, 200).proportion_ci(confidence_level=0.95, method="exact")
    assert proportion_interval(k, 200) == pytest.approx((ci.low, ci.high), abs=1e-10)


def test_an_outcome_never_seen_has_its_exact_upper_bound():
    # 0 of 200: 1 - 0.025^(1/200) = 1 - exp(ln(0.025)/200) = 0.018275
    lo, hi = proportion_interval(0, 200)
    assert lo == 0.0 and hi == pytest.approx(0.018275, abs=1e-6)


def test_proportion_interval_exact_coverage_at_200_trials():
    # coverage at each true p computed exactly from the binomial pmf (no simulation):
    # Wilson alone covers 90.5% at p = 1/2000 (its lower end at 1 of 200 is 0.00088); with
    # the exact ends at small counts the worst over the grid is 93.5% (Wilson's known dips
    # near np = 11), and the average 95% or more.
    n = 200
    ends = np.array([proportion_interval(k, n) for k in range(n + 1)])
    covs = []
    for p in np.linspace(0.0005, 0.5, 400):
        pmf = binom.pmf(np.arange(n + 1), n, p)
        covs.append(float(pmf[(ends[:, 0] <= p) & (p <= ends[:, 1])].sum()))
    assert min(covs) >= 0.93 and np.mean(covs) >= 0.95


@pytest.mark.parametrize("p", [0.002, 0.01, 0.05, 0.3])
def test_rare_outcome_coverage_by_simulation(p):
    # the measure: rare outcomes at 200 trials covered 63-85% with the 1-SE "±".
    # The tolerance comes from the exact probability: the true coverage c (summed from
    # scipy's pmf: 99.2%, 98.4%, 96.7%, 94.7% for these p) is at least 0.93, and the
    # simulated share lies within 4 sd of it, sd = sqrt(c (1 - c) / 2000).
    n = 200
    pmf = binom.pmf(np.arange(n + 1), n, p)
    ends = np.array([proportion_interval(k, n) for k in range(n + 1)])
    c = float(pmf[(ends[:, 0] <= p) & (p <= ends[:, 1])].sum())
    assert c >= COVER_LO
    rng = np.random.default_rng(7)
    ks = rng.binomial(n, p, SIMS)
    covered = sum(lo <= p <= hi for lo, hi in (proportion_interval(int(k), n) for k in ks)) / SIMS
    assert abs(covered - c) <= 4 * math.sqrt(c * (1 - c) / SIMS) + 1e-9


def test_outcome_intervals_keep_the_shape_and_list_zeros():
    p = np.array([[0.0, 0.25], [0.75, 0.0]])
    lo, hi = outcome_intervals(p, 400)
    assert lo.shape == hi.shape == (2, 2)
    # the zeros: [0, 1 - 0.025^(1/400)] = [0, 0.0091798]
    assert lo[0, 0] == 0.0 and hi[0, 0] == pytest.approx(-math.expm1(math.log(0.025) / 400))
    ci = binomtest(100, 400).proportion_ci(method="wilson")
    assert (lo[0, 1], hi[0, 1]) == pytest.approx((ci.low, ci.high))


# --- a quantile's order-statistic interval ---------------------------------------------

def test_quantile_interval_by_hand():
    # 100 trials of a uniform 0..9 (10 each): the median's ranks are the 2.5% and 97.5%
    # quantiles of Binomial(100, 0.5): 40 and 60 (+1 = 61); X_(40) = 3 (ranks 31-40 are 3s),
    # X_(61) = 6 (ranks 61-70 are 6s)
    assert binom.ppf(0.025, 100, 0.5) == 40 and binom.ppf(0.975, 100, 0.5) == 60
    pmf = np.full(10, 0.1)
    assert quantile_interval(pmf, 100, 0.5) == (3, 6)


@pytest.mark.parametrize("q", [0.05, 0.5, 0.95])
def test_quantile_interval_coverage_by_simulation(q):
    # damage-like counts: Binomial(12, 0.3), 200 trials; the true q-quantile is the
    # smallest k with F(k) >= q (scipy's binom.ppf). For a discrete variable the
    # order-statistic interval is conservative: at least 95%.
    n, sims = 200, 1000
    true = int(binom.ppf(q, 12, 0.3))
    rng = np.random.default_rng(11)
    covered = 0
    for _ in range(sims):
        x = rng.binomial(12, 0.3, n)
        lo, hi = quantile_interval(np.bincount(x, minlength=13) / n, n, q)
        covered += lo <= true <= hi
    # sd of the covered share at 0.95 over 1,000: 0.0069; 0.93 is 3 sd below
    assert covered / sims >= COVER_LO


def test_the_terminal_says_what_brackets_and_plus_minus_mean():
    from simulator.run.output import CI_LEGEND, SE_LEGEND, pct, pct_ci, pct_mc, with_se_legend
    # 0 of 200: "0.00% [0.00, 1.83]" (1 - 0.025^(1/200) = 1.8275%)
    line = pct_ci(0.0, proportion_interval(0, 200))
    assert line.strip() == "0.00% [0.00, 1.83]"
    out = with_se_legend(line)
    assert CI_LEGEND in out and SE_LEGEND not in out
    # a win-rate line (percent signs inside the brackets) is not a Monte Carlo interval
    assert CI_LEGEND not in with_se_legend("german wins  13.33%  [6.91%, 24.17%]")
    # ± is labelled 1 SE
    assert "one standard error (1 SE)" in with_se_legend(pct(0.25, 0.01))
    # pct_mc picks a row's interval, a summary's by key, or none
    assert pct_mc(0.5, {"lo": 0.4, "hi": 0.6}).strip() == "50.00% [40.00, 60.00]"
    assert pct_mc(0.5, {"ci95": {"p_any": [0.45, 0.55]}}, "p_any").strip() == "50.00% [45.00, 55.00]"
    assert pct_mc(0.5, {}).strip() == "50.00%"


# --- which rows an outcome table lists --------------------------------------------------

def test_listed_outcomes_exact_lists_non_zero_monte_carlo_every_possible():
    from simulator.run.intervals import listed_outcomes
    p = np.array([[0.5, 0.0, 0.0], [0.0, 0.5, 0.0]])
    possible = np.array([[True, True, False], [False, True, False]])
    # exact: the two non-zero cells; Monte Carlo: also the possible (0, 1), never the impossible ones
    assert [x.tolist() for x in listed_outcomes(p)] == [[0, 1], [0, 1]]
    assert [x.tolist() for x in listed_outcomes(p, possible)] == [[0, 0, 1], [0, 1, 1]]
    # a seen outcome is listed even if the support said otherwise (the table never hides one)
    assert [x.tolist() for x in listed_outcomes(p, np.zeros_like(possible))] == [[0, 1], [0, 1]]


def test_listed_states_adds_the_possible_codes_at_zero():
    from simulator.run.intervals import listed_states
    assert listed_states({7: 0.6, 9: 0.4}) == {7: 0.6, 9: 0.4}
    assert listed_states({7: 0.6, 9: 0.4}, [7, 9, 11]) == {7: 0.6, 9: 0.4, 11: 0.0}


def test_support_or_none_reads_the_exact_answer_or_gives_up_on_a_refusal():
    from simulator.run.errors import InputError
    from simulator.run.intervals import TOO_LARGE, UNSEEN_LISTED, support_or_none, unseen_note
    assert support_or_none(lambda: np.array([0.0, 0.3, 0.7])).tolist() == [False, True, True]
    assert support_or_none(lambda: {3: 0.0, 5: 1.0}) == {3, 5}

    def refuse():
        raise InputError("ATTACK and DEFENCE", "", "too many pairs")
    assert support_or_none(refuse) is None
    assert unseen_note(None).endswith(f"{TOO_LARGE}, so which outcomes are possible is not known")
    assert unseen_note(np.array([True])) == UNSEEN_LISTED
