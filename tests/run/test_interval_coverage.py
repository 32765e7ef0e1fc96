"""Coverage of the intervals the program prints (issue 39, "every interval the program
prints has a coverage test"; docs/statistics.md, "Every interval and its coverage test").

Each test draws many runs with fixed seeds from a known truth, builds the interval the
program prints and counts how often it holds the truth. Tolerances come from the exact
probability, never from the program's own standard error: with S runs of an interval
whose true coverage is c, the count covered is Binomial(S, c); at S = 2,000 and c = 0.95
its sd is sqrt(0.95 * 0.05 / 2000) = 0.0049, so [0.93, 0.97] is about +-4 sd (a chance
near 6e-5 of failing by luck). A 1-SE interval (68%) or a doubled SE (99.99%) lands far
outside it. Wilson's intervals oscillate with p (Brown, Cai and DasGupta 2001): where the
test states the exact coverage c it is summed from scipy's binomial pmf, not simulated.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binom

from reports.tables import win_rate_table
from simulator.run.stats import mean_se, wilson_interval
from simulator.run.verdicts import balance_verdict, confidence_sequence

SIMS = 2000
COVER_LO, COVER_HI = 0.93, 0.97
SD95 = math.sqrt(0.95 * 0.05 / SIMS)      # 0.00487


def exact_coverage(interval, n: int, p: float) -> float:
    """P(interval(K, n) holds p), K ~ Binomial(n, p): summed over every K from scipy's pmf."""
    ends = np.array([interval(k, n) for k in range(n + 1)])
    pmf = binom.pmf(np.arange(n + 1), n, p)
    return float(pmf[(ends[:, 0] <= p) & (p <= ends[:, 1])].sum())


@pytest.mark.parametrize("n,p", [(150, 0.5), (150, 0.3), (60, 0.1), (400, 0.53)])
def test_wilson_win_rate_coverage(n, p):
    # the win rate's [lo, hi] of every scenario command (summary "win_rate", the verdict's
    # ci95, first-player win rate, closeness, win rates by formation card, --vary values)
    c = exact_coverage(wilson_interval, n, p)
    # exact coverage of Wilson at these (n, p): 0.9591, 0.9600, 0.9520, 0.9494 (scipy pmf)
    assert c >= COVER_LO
    rng = np.random.default_rng(39_100 + n)
    ks = rng.binomial(n, p, SIMS)
    covered = np.mean([lo <= p <= hi for lo, hi in (wilson_interval(int(k), n) for k in ks)])
    assert abs(covered - c) <= 4 * math.sqrt(c * (1 - c) / SIMS)
    assert COVER_LO <= covered <= COVER_HI


def test_win_rate_table_prints_the_same_interval():
    # the table a report writes (win-rates.csv) is made by the function whose coverage is
    # tested above: 100 simulated runs of 120 games (true german share 0.45, 10% draws),
    # each row's [lo, hi] equal to wilson_interval of its wins
    n = 120
    rng = np.random.default_rng(391)
    for _ in range(100):
        winner = rng.choice(["german", "soviet", "draw"], size=n, p=[0.45, 0.45, 0.10])
        games = pd.DataFrame({"game": np.arange(n), "winner": winner, "decided_turn": 1})
        for row in win_rate_table(games, ["german", "soviet"]).to_dict("records"):
            assert (row["lo"], row["hi"]) == wilson_interval(int(row["wins"]), n)


@pytest.mark.parametrize("true_share", [0.50, 0.53])
def test_verdict_interval_covers_the_share_of_decisive_games(true_share):
    # the verdict's ci95 is the Wilson interval of the first side's share of the decisive
    # games (draws left out): 2,000 runs of 300 games, 15% draws
    rng = np.random.default_rng(int(1000 * true_share))
    covered = 0
    for _ in range(SIMS):
        counts = rng.multinomial(300, [0.85 * true_share, 0.85 * (1 - true_share), 0.15])
        v = balance_verdict(int(counts[0]), int(counts[1]), int(counts[2]), 300, ["a", "b"], margin=0.05)
        covered += v.ci95[0] <= true_share <= v.ci95[1]
    assert COVER_LO <= covered / SIMS <= COVER_HI


def test_confidence_sequence_covers_at_a_single_look_conservatively():
    # at one look the anytime-valid sequence is wider than Wilson: coverage at least 95%
    # (0.9975 at 300 games and p = 0.53, summed from the pmf); its time-uniform promise under repeated looks is
    # tests/run/test_verdicts.py::test_the_sequence_rarely_ever_excludes_the_truth_looking_after_every_round
    c = exact_coverage(confidence_sequence, 300, 0.53)
    assert c >= 0.95


@pytest.mark.parametrize("pmf", [[0.5, 0.3, 0.15, 0.05], [0.05, 0.1, 0.2, 0.3, 0.2, 0.1, 0.05]])
def test_mean_plus_minus_two_se_covers(pmf):
    # the "±" of a Monte Carlo mean (mean damage, mean markers, mean rounds: one SE,
    # :func:`simulator.run.stats.mean_se` from the table's probabilities) is honest when
    # mean ± 1.96 SE covers the true mean about 95% of the time: 2,000 runs of 200 trials
    pmf = np.array(pmf)
    values = np.arange(len(pmf), dtype=float)
    truth = float((values * pmf).sum())
    rng = np.random.default_rng(len(pmf))
    counts = rng.multinomial(200, pmf, size=SIMS)
    covered = 0
    for row in counts:
        freq = row / 200
        mean = float((values * freq).sum())
        se = mean_se(values, freq, 200)
        covered += abs(mean - truth) <= 1.959963984540054 * se
    assert COVER_LO <= covered / SIMS <= COVER_HI
