"""Statistical health of the Monte Carlo machinery: RNG, dice draws and chunk seeding.

Many seeded runs of a question whose exact answer is known each give a chi-square
goodness-of-fit p-value. If the kernels are unbiased and the chunk streams are
independent, those p-values are uniform on [0, 1]; a Kolmogorov-Smirnov test checks
that. Runs use small chunks (many chunks per run) so that chunk seeding is exercised:
a negative control with a deliberately broken seeding (every chunk of a run on the
same stream) must fail the same check.
"""

from functools import partial

import numba
import numpy as np
import pytest
from scipy import stats

from simulator.games.assault.rules.dice import load_dice, parse_pool
from simulator.games.assault.rules.exact import roll_outcome
from simulator.games.assault.rules.kernels import packed_faces, uncancelled_chunk
from simulator.run import runner
from simulator.run.rng import below, seed_state

RUNS = 300
TRIALS = 4000
CHUNK = 250          # 16 chunks per run
KS_ALPHA = 0.001     # fixed seeds: pass or fail is deterministic; this only sets how strict


def chi_square_p(counts: np.ndarray, probs: np.ndarray, min_expected: float = 5.0) -> float:
    """Goodness-of-fit p-value, cells expected fewer than ``min_expected`` times pooled."""
    counts, probs = counts.ravel().astype(float), probs.ravel()
    n = counts.sum()
    big = probs * n >= min_expected
    obs = np.append(counts[big], counts[~big].sum())
    exp = np.append(probs[big] * n, probs[~big].sum() * n)
    keep = exp > 0
    return float(stats.chisquare(obs[keep], exp[keep]).pvalue)


def p_values(task, probs: np.ndarray, seeds) -> np.ndarray:
    return np.array([chi_square_p(runner.run(task, TRIALS, seed=s, chunk_trials=CHUNK, workers=1), probs)
                     for s in seeds])


@pytest.fixture(scope="module")
def odds_question():
    dice = load_dice()
    atk, dfn = parse_pool("RYG", dice), parse_pool("YB", dice)
    probs = roll_outcome(atk, dfn, dice)
    task = partial(uncancelled_chunk, packed_faces(atk, dfn, dice, "all"), 0, probs.shape)
    return task, probs


def test_dice_kernel_p_values_are_uniform(odds_question):
    task, probs = odds_question
    p = p_values(task, probs, range(1000, 1000 + RUNS))
    ks = stats.kstest(p, "uniform")
    assert ks.pvalue > KS_ALPHA, (ks, np.histogram(p, bins=10, range=(0, 1))[0])
    # and no run is wildly off (Bonferroni over the runs)
    assert p.min() > KS_ALPHA / RUNS


def one_stream_for_all_chunks(task, run_seed, n, seed_seq):
    """A broken chunk seeding: every chunk of a run draws the same stream."""
    return task(n, np.random.SeedSequence(run_seed))


def test_the_check_catches_broken_chunk_seeding(odds_question):
    task, probs = odds_question
    p = np.array([chi_square_p(runner.run(partial(one_stream_for_all_chunks, task, s), TRIALS, seed=s,
                                          chunk_trials=CHUNK, workers=1), probs)
                  for s in range(1000, 1000 + 60)])
    assert stats.kstest(p, "uniform").pvalue < 1e-6


@numba.njit(nogil=True)
def _below_counts(n_sides, n_trials, state, counts):
    for _ in range(n_trials):
        counts[below(state, n_sides)] += 1


def below_chunk(n_sides, n, seed_seq):
    counts = np.zeros(n_sides, dtype=np.int64)
    _below_counts(n_sides, n, seed_state(seed_seq), counts)
    return counts


@pytest.mark.parametrize("sides", [6, 7])
def test_uniform_draws_are_uniform(sides):
    """``rng.below`` (the spotting roll and other single draws) is unbiased too."""
    p = p_values(partial(below_chunk, sides), np.full(sides, 1 / sides), range(RUNS))
    assert stats.kstest(p, "uniform").pvalue > KS_ALPHA


def test_runs_with_neighbouring_seeds_are_independent(odds_question):
    """Seeds s and s + 1 must not give correlated results (SeedSequence mixes them)."""
    task, _ = odds_question
    x = np.array([runner.run(task, TRIALS, seed=s, chunk_trials=CHUNK, workers=1)[0, 0, 0] for s in range(201)])
    r, p = stats.pearsonr(x[:-1], x[1:])
    assert p > KS_ALPHA, r
