"""Rolling dice in groups (simulator.run.rng.group_tables / sum_grouped / sum_grouped_pair)
and the grouped odds kernel built on them (simulator.games.assault.rules.kernels).

A group of k dice is rolled with one uniform index into its 6**k face combinations.
These tests check that this is the same thing as rolling each die: the group tables
are exactly the convolution of the single dice, the draws are uniform over face
combinations and independent between the two rolls of a pair, and the kernel's
uncancelled-symbol counts (10.7.2) agree with the exact calculator within 4 standard
errors for pools of 1, 5 and 12 dice a side under every doubles rule (10.8.1).
"""

import itertools
from collections import Counter
from functools import partial

import numba
import numpy as np
import pytest
from scipy import stats

from simulator.games.assault.rules.dice import DOUBLES_MODES, load_dice, parse_pool
from simulator.games.assault.rules.exact import roll_outcome
from simulator.games.assault.rules.kernels import (
    grouped_uncancelled_counts,
    packed_faces,
    uncancelled_chunk,
    uncancelled_counts,
)
from simulator.run import runner
from simulator.run.rng import group_tables, seed_state, sum_grouped, sum_grouped_pair

DICE = load_dice()
TRIALS = 10_000_000
MIN_EXPECTED = 100   # rarer outcomes are pooled into one cell before the 4-SE check


def convolve(distributions):
    """Distribution (Counter value -> ways) of the sum of independent dice."""
    total = Counter({0: 1})
    for dist in distributions:
        nxt = Counter()
        for a, wa in total.items():
            for b, wb in dist.items():
                nxt[a + b] += wa * wb
        total = nxt
    return total


def faces_of(attack, defence, doubles):
    return packed_faces(parse_pool(attack, DICE), parse_pool(defence, DICE), DICE, doubles)


TABLE_CASES = [("R", "-", "all"), ("Y", "G", "strongest"), ("RRYGB", "YYGGB", "weakest"),
               ("4R4Y4G", "3Y3G6B", "all"), ("4R4Y4G", "3Y3G6B", "strongest"), ("2R3G", "B", "weakest")]


@pytest.mark.parametrize("attack,defence,doubles", TABLE_CASES)
@pytest.mark.parametrize("per_group", [1, 2, 3, 4])
def test_group_tables_are_the_convolution_of_single_dice(attack, defence, doubles, per_group):
    faces = faces_of(attack, defence, doubles)
    tables, sizes, floors = group_tables(faces, per_group)
    n = faces.shape[0]
    assert tables.shape == (-(-n // per_group), 6 ** per_group)
    for g in range(tables.shape[0]):
        rows = faces[g * per_group:(g + 1) * per_group]
        k = rows.shape[0]
        assert sizes[g] == 6 ** k and floors[g] == (1 << 32) % 6 ** k
        # entry i is the sum of the faces its base-6 digits name, first die most significant
        for i, combo in enumerate(itertools.product(range(6), repeat=k)):
            assert tables[g, i] == sum(int(rows[j, f]) for j, f in enumerate(combo))
        assert not tables[g, 6 ** k:].any()
        # and as distributions: the group's sums are the convolution of its dice
        assert Counter(tables[g, :6 ** k].tolist()) == convolve(Counter(r.tolist()) for r in rows)
    # the whole pool: convolving the groups is convolving every die (small pools: the
    # number of distinct packed totals of 24 dice makes this slow, and the groups above
    # already cover every row once)
    if n > 11:
        return
    groups = (Counter(tables[g, :int(sizes[g])].tolist()) for g in range(tables.shape[0]))
    assert convolve(groups) == convolve(Counter(r.tolist()) for r in faces)


def test_group_tables_of_no_dice_and_bad_tables():
    tables, sizes, floors = group_tables(np.zeros((0, 6), dtype=np.int64))
    assert tables.shape == (0, 6 ** 4) and sizes.size == 0 and floors.size == 0
    with pytest.raises(ValueError):
        group_tables(np.zeros((3, 5), dtype=np.int64))
    with pytest.raises(ValueError):
        group_tables(np.zeros((3, 6), dtype=np.int64), per_group=0)


def pooled_z(counts: np.ndarray, probs: np.ndarray, trials: int) -> np.ndarray:
    """|MC - exact| in standard errors per outcome; outcomes expected fewer than
    MIN_EXPECTED times are pooled into one cell (the normal approximation needs counts)."""
    p, c = probs.ravel(), counts.ravel() / trials
    big = p * trials >= MIN_EXPECTED
    p = np.append(p[big], p[~big].sum())
    c = np.append(c[big], c[~big].sum())
    se = np.sqrt(p * (1 - p) / trials)
    keep = se > 0
    return np.abs(c - p)[keep] / se[keep]


KERNEL_CASES = [("R", "B", m, 0) for m in ("all",)] + [("G", "Y", "strongest", 1), ("Y", "R", "weakest", 0)] + \
    [("RRYGB", "YYGGB", m, 0) for m in DOUBLES_MODES] + \
    [("4R4Y4G", "3Y3G6B", m, e) for m, e in zip(DOUBLES_MODES, (0, 1, 0), strict=True)]


@pytest.mark.parametrize("attack,defence,doubles,extra", KERNEL_CASES)
def test_kernel_matches_exact_within_four_standard_errors(attack, defence, doubles, extra):
    atk, dfn = parse_pool(attack, DICE), parse_pool(defence, DICE)
    probs = roll_outcome(atk, dfn, DICE, doubles=doubles, extra_supp=extra)
    task = partial(uncancelled_chunk, packed_faces(atk, dfn, DICE, doubles), extra, probs.shape)
    counts = runner.run(task, TRIALS, seed=sum(map(ord, attack + defence + doubles)), workers=1)
    assert counts.sum() == TRIALS
    assert not counts[probs == 0].any()          # an impossible outcome is never seen
    z = pooled_z(counts, probs, TRIALS)
    assert z.max() < 4, z
    # the headline, P(any effect), too
    p_any = 1 - probs[0, 0, 0]
    se = np.sqrt(p_any * (1 - p_any) / TRIALS)
    assert abs((TRIALS - counts[0, 0, 0]) / TRIALS - p_any) < 4 * se


def test_same_seed_same_counts_with_one_and_two_workers():
    faces = faces_of("RRYG", "YGB", "all")
    shape = roll_outcome(parse_pool("RRYG", DICE), parse_pool("YGB", DICE), DICE).shape
    task = partial(uncancelled_chunk, faces, 0, shape)
    # odd chunks: every chunk ends with a trial rolled alone (sum_grouped), not in a pair
    one = runner.run(task, 300_001, seed=7, chunk_trials=9_999, workers=1)
    two = runner.run(task, 300_001, seed=7, chunk_trials=9_999, workers=2)
    assert one.sum() == 300_001 and np.array_equal(one, two)
    assert not np.array_equal(one, runner.run(task, 300_001, seed=8, chunk_trials=9_999, workers=1))


def test_the_wrapper_is_the_grouped_kernel():
    faces = faces_of("RY", "YG", "strongest")
    shape = roll_outcome(parse_pool("RY", DICE), parse_pool("YG", DICE), DICE, doubles="strongest").shape
    a, b = np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.int64)
    uncancelled_counts(faces, 0, 5_001, seed_state(np.random.SeedSequence(3)), a)
    grouped_uncancelled_counts(*group_tables(faces), 0, 5_001, seed_state(np.random.SeedSequence(3)), b)
    assert a.sum() == 5_001 and np.array_equal(a, b)


# --- the draws themselves: uniform over face combinations, pairs independent ---------

FIVE_DICE = np.array([[f * 6 ** j for f in range(6)] for j in range(5)], dtype=np.int64)
"""Five dice whose total spells out every face (die j is base-6 digit j): the total
is the face combination, so its histogram is the joint distribution of the dice."""


@numba.njit(nogil=True)
def _single_counts(tables, sizes, floors, n_trials, state, counts):
    for _ in range(n_trials):
        counts[sum_grouped(tables, sizes, floors, state)] += 1


@numba.njit(nogil=True)
def _pair_counts(tables, sizes, floors, n_pairs, state, first, second, joint):
    for _ in range(n_pairs):
        a, b = sum_grouped_pair(tables, sizes, floors, state)
        first[a] += 1
        second[b] += 1
        joint[a % 36, b % 36] += 1     # the first two dice of each roll


def uniform_checks(counts: np.ndarray, trials: int):
    """All 6**5 face combinations equally likely (chi-square), and each die's faces
    within 4 standard errors of 1/6."""
    assert stats.chisquare(counts).pvalue > 1e-3
    faces = np.arange(counts.size)
    se = np.sqrt((1 / 6) * (5 / 6) / trials)
    for j in range(5):
        marginal = np.bincount((faces // 6 ** j) % 6, weights=counts, minlength=6) / trials
        assert np.abs(marginal - 1 / 6).max() < 4 * se, (j, marginal)


@pytest.mark.parametrize("per_group", [2, 4])   # groups of 2+2+1 (odd count) and 4+1 (even)
def test_sum_grouped_rolls_every_face_combination_alike(per_group):
    tables, sizes, floors = group_tables(FIVE_DICE, per_group)
    counts = np.zeros(6 ** 5, dtype=np.int64)
    _single_counts(tables, sizes, floors, 2_000_000, seed_state(np.random.SeedSequence(11)), counts)
    uniform_checks(counts, 2_000_000)


def test_pair_rolls_are_each_uniform_and_independent():
    tables, sizes, floors = group_tables(FIVE_DICE, 4)
    n = 2_000_000
    first, second = np.zeros(6 ** 5, dtype=np.int64), np.zeros(6 ** 5, dtype=np.int64)
    joint = np.zeros((36, 36), dtype=np.int64)
    _pair_counts(tables, sizes, floors, n, seed_state(np.random.SeedSequence(12)), first, second, joint)
    uniform_checks(first, n)
    uniform_checks(second, n)
    # the first roll's dice 1-2 against the second roll's dice 1-2: all 36 x 36 alike
    assert stats.chisquare(joint.ravel()).pvalue > 1e-3
    # and a correlation would show in the diagonal (the same faces in both rolls)
    p = 1 / 36
    assert abs(np.trace(joint) / n - p) < 4 * np.sqrt(p * (1 - p) / n)
