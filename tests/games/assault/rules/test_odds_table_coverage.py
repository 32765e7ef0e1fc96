"""Coverage of the Monte Carlo odds table's intervals, through the functions that build
the table (:func:`outcome_columns`, :func:`summarise`): each outcome's [lo, hi] (Wilson's,
exact at 10 or fewer, and for an outcome never seen 0 with its exact upper bound), the
damage "at least" intervals and the quantile intervals. The truth is the exact
calculator's distribution of RYY against GG; each simulated run draws its 200 trials'
counts from it (numpy's multinomial, fixed seeds), as the kernel would.

Tolerance: Wilson's coverage oscillates with p; at 200 trials its worst over p (with the
exact ends at small counts) is 0.935 (tests/run/test_intervals.py, summed from the pmf).
With S runs the share covered has sd sqrt(c (1 - c) / S): at S = 2,000 and c = 0.935,
0.0055, so an outcome's share is held to at least 0.935 - 3 * 0.0055 = 0.918 and the
mean over outcomes (less noisy) to at least 0.94.
"""

from __future__ import annotations

import numpy as np

from simulator.games.assault.questions.odds import QUANTILES, outcome_columns, summarise
from simulator.games.assault.rules.dice import load_dice, parse_pool
from simulator.games.assault.rules.exact import roll_outcome

DICE = load_dice()
TRIALS = 200


def _truth():
    exact = roll_outcome(parse_pool("RYY", DICE), parse_pool("GG", DICE), DICE)
    return exact, exact > 0


def _runs(exact, sims, seed):
    """``sims`` simulated runs of TRIALS trials: count arrays of the exact table's shape."""
    flat = exact.ravel()
    counts = np.random.default_rng(seed).multinomial(TRIALS, flat / flat.sum(), size=sims)
    return counts.reshape((sims,) + exact.shape)


def test_every_outcome_interval_covers_including_never_seen():
    exact, possible = _truth()
    idx = np.nonzero(possible)
    truth = exact[idx]
    covered = np.zeros(len(truth))
    unseen_rows = 0
    for counts in _runs(exact, 2000, 3906):
        cols = outcome_columns(counts / TRIALS, TRIALS, possible)
        # every possible outcome is a row, in the same order, seen or not
        assert np.array_equal(cols["crit"], idx[0]) and np.array_equal(cols["supp"], idx[2])
        covered += (cols["lo"] <= truth) & (truth <= cols["hi"])
        unseen_rows += int((cols["p"] == 0).sum())
    share = covered / 2000
    assert unseen_rows > 2000          # rare outcomes go unseen in most runs: their rows are tested
    assert share.min() >= 0.918, dict(zip(map(tuple, np.transpose(idx).tolist()), share.round(3), strict=True))
    assert share.mean() >= 0.94


def test_damage_at_least_and_quantile_intervals_cover():
    exact, possible = _truth()
    c, h, _ = np.nonzero(possible)
    dmg_pmf = np.bincount(c + h, weights=exact[possible])
    at_least = np.cumsum(dmg_pmf[::-1])[::-1]
    cdf = np.cumsum(dmg_pmf)
    # the true q-quantile: the smallest damage k with P(damage <= k) >= q
    true_q = {f"{int(q * 100)}%": int(np.argmax(cdf >= q - 1e-12)) for q, _ in QUANTILES}
    sims = 1000
    at_covered = np.zeros(len(at_least))
    q_covered = dict.fromkeys(true_q, 0)
    for counts in _runs(exact, sims, 3907):
        cols = outcome_columns(counts / TRIALS, TRIALS, possible)
        ci = summarise(cols, TRIALS)["ci95"]
        ends = np.array(ci["p_damage_at_least"][:len(at_least)])
        at_covered += (ends[:, 0] <= at_least + 1e-12) & (at_least - 1e-12 <= ends[:, 1])
        for key, (lo, hi) in ci["damage_quantiles"].items():
            q_covered[key] += lo <= true_q[key] <= hi
    # 1,000 runs: sd at 0.935 is 0.0078; 0.91 is 3.2 sd below
    assert (at_covered / sims).min() >= 0.91, at_covered / sims
    # a quantile of a discrete variable: the order-statistic interval is conservative (at least 95%)
    assert min(q_covered.values()) / sims >= 0.93, q_covered
