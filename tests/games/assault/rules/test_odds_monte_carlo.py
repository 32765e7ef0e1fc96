"""Monte Carlo odds agree with exact odds; same seed, same numbers, any workers."""

import numpy as np
import pytest

from simulator.games.assault.questions.odds import odds_outcomes, simulate_outcome
from simulator.games.assault.rules.dice import load_dice, parse_pool

TRIALS = 400_000


def merged(exact, mc):
    keys = ["crit", "hit", "supp"]
    return exact.merge(mc, on=keys, how="outer", suffixes=("_exact", "_mc")).fillna(0.0)


@pytest.mark.parametrize("attack,defence,doubles,extra,seed", [
    ("RY", "YG", "all", 0, 1), ("RRYG", "YYB", "all", 0, 2), ("RY", "YG", "strongest", 0, 3),
    ("GGB", "R", "weakest", 1, 4), ("4R", "3G", "all", 0, 5), ("Y", "-", "all", 2, 6),
])
def test_monte_carlo_within_four_standard_errors_of_exact(attack, defence, doubles, extra, seed):
    exact = odds_outcomes(attack, defence, doubles=doubles, extra_supp=extra)
    mc = odds_outcomes(attack, defence, trials=TRIALS, seed=seed, doubles=doubles, extra_supp=extra)
    both = merged(exact.frame(), mc.frame())
    se = np.sqrt(both.p_exact * (1 - both.p_exact) / TRIALS)
    # an outcome exact says is impossible must never be seen
    assert not ((both.p_exact == 0) & (both.p_mc > 0)).any()
    z = np.abs(both.p_mc - both.p_exact) / np.where(se > 0, se, 1)
    assert z.max() < 4, both.assign(z=z)
    es, ms = exact.summary, mc.summary
    assert ms.se is not None and abs(ms.mean_damage - es.mean_damage) < 4 * ms.se["mean_damage"]


def test_same_seed_same_counts_whatever_the_workers():
    dice = load_dice()
    atk, dfn = parse_pool("RRY", dice), parse_pool("YG", dice)
    # small chunks so the run has many of them
    kwargs = dict(doubles="all", extra_supp=0, trials=50_001, seed=42, chunk_trials=4096)
    one = simulate_outcome(atk, dfn, dice, workers=1, **kwargs)
    two = simulate_outcome(atk, dfn, dice, workers=2, **kwargs)
    five = simulate_outcome(atk, dfn, dice, workers=5, **kwargs)
    assert one.sum() == 50_001
    assert np.array_equal(one, two) and np.array_equal(one, five)
    other = simulate_outcome(atk, dfn, dice, workers=1, **{**kwargs, "seed": 43})
    assert not np.array_equal(one, other)


def test_monte_carlo_reports_standard_errors():
    mc = odds_outcomes("RY", "YG", trials=10_000, seed=9)
    assert mc.method == "monte-carlo" and mc.seed == 9 and mc.trials == 10_000
    assert "se" in mc and (mc["se"] > 0).all()
    assert mc["p"].sum() == pytest.approx(1.0)


def test_monte_carlo_intervals_cover_rare_and_unseen_outcomes():
    from scipy.stats import binomtest
    trials = 200
    mc = odds_outcomes("RYY", "GG", trials=trials, seed=3)
    s = mc.summary.to_json()
    # each outcome's interval is scipy's: Wilson, or exact (Clopper-Pearson) at 10 or fewer
    for p, lo, hi in zip(mc["p"], mc["lo"], mc["hi"], strict=True):
        k = round(p * trials)
        method = "exact" if min(k, trials - k) <= 10 else "wilson"
        ci = binomtest(k, trials).proportion_ci(method=method)
        assert (lo, hi) == pytest.approx((ci.low, ci.high), abs=1e-9)
    # every damage the pools can deal is listed (the exact table's most), those never seen
    # at 0 of 200 with the upper bound 1 - 0.025^(1/200) = 0.018275
    at_least = s["ci95"]["p_damage_at_least"]
    exact = odds_outcomes("RYY", "GG")
    assert len(at_least) == len(s["p_damage_at_least"]) == int((exact["crit"] + exact["hit"]).max()) + 1
    assert at_least[0] == [1.0, 1.0]
    unseen = [ci for p, ci in zip(s["p_damage_at_least"], at_least, strict=True) if p == 0]
    assert unseen and all(ci == pytest.approx([0.0, 0.018275], abs=1e-6) for ci in unseen)
    # each quantile's interval holds its estimate
    for q, (lo, hi) in s["ci95"]["damage_quantiles"].items():
        assert lo <= s["damage_quantiles"][q] <= hi
