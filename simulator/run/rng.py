"""The random number generator every Monte Carlo kernel uses.

xoshiro256** (Blackman and Vigna) written inline in numba, so a kernel draws
numbers without calling back into numpy. The state is a ``uint64[4]`` array made
from a :class:`numpy.random.SeedSequence`, one per chunk (see ``runner``), which is
what makes results independent of the number of workers.

Dice are drawn unbiased with Lemire's multiply-and-reject method on 32-bit halves
of each 64-bit draw (:func:`sum_rolls`): two dice per draw, rejecting with
probability 4 / 2**32.

Faster still, several dice at once (:func:`group_tables`, :func:`sum_grouped`,
:func:`sum_grouped_pair`): a group of ``k`` dice has ``6**k`` equally likely face
combinations, so one uniform index into a table of the group's ``6**k`` sums rolls
the whole group. That is exactly the joint distribution of rolling each die (a
bijection between indices and face tuples), with one 32-bit draw per group instead
of one per die.
"""

from __future__ import annotations

import numba
import numpy as np

_U64 = numba.uint64
_LOW32 = _U64(0xFFFFFFFF)
DICE_PER_GROUP = 4
"""Dice rolled by one draw: 6**4 = 1296 sums (10 KiB) a group. Of 2 to 5 dice a group,
4 measured fastest for pools of 2 to 24 dice; 5 (61 KiB a group) leave the L1 cache."""


def seed_state(seed_seq: np.random.SeedSequence) -> np.ndarray:
    """A fresh xoshiro256** state (``uint64[4]``, never all zero) from a SeedSequence."""
    state = seed_seq.generate_state(4, dtype=np.uint64)
    if not state.any():  # the one state xoshiro cannot leave; astronomically unlikely
        state[0] = np.uint64(0x9E3779B97F4A7C15)
    return state


@numba.njit(inline="always")
def _rotl(x, k):
    return (x << _U64(k)) | (x >> _U64(64 - k))


@numba.njit(inline="always")
def next_u64(state):
    """Advance the state and return the next 64-bit output."""
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    result = _rotl(s1 * _U64(5), 7) * _U64(9)
    t = s1 << _U64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@numba.njit(inline="always")
def below(state, n):
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**32`` (Lemire, unbiased)."""
    bound = _U64(n)
    threshold = (_U64(0x100000000) - bound) % bound  # 2**32 mod n
    while True:
        x = next_u64(state) >> _U64(32)
        m = x * bound
        if (m & _U64(0xFFFFFFFF)) >= threshold:
            return np.int64(m >> _U64(32))


@numba.njit(inline="always")
def uniform(state):
    """A uniform float in ``[0, 1)`` with 53 random bits."""
    return (next_u64(state) >> _U64(11)) * (1.0 / 9007199254740992.0)


@numba.njit(inline="always")
def sum_rolls(table, state):
    """Roll one d6 per row of ``table`` (``int64[n, 6]``) and sum ``table[row, face]``.

    The work-horse of dice kernels: a row holds what each face of one die is worth
    (for example packed symbol counts), so a whole pool is rolled with one add per
    die. Two dice per 64-bit draw, unbiased (a draw is redrawn when either 32-bit
    half falls in the 4-in-2**32 rejection zone). Written as one loop with
    ``continue``: numba compiles this shape about three times faster than a helper
    that loops until it can return a pair of faces.
    """
    n = table.shape[0]
    total = 0
    i = 0
    while i < n:
        x = next_u64(state)
        m0 = (x & _U64(0xFFFFFFFF)) * _U64(6)
        m1 = (x >> _U64(32)) * _U64(6)
        if (m0 & _U64(0xFFFFFFFF)) < _U64(4) or (m1 & _U64(0xFFFFFFFF)) < _U64(4):
            continue
        total += table[i, np.int64(m0 >> _U64(32))]
        if i + 1 < n:
            total += table[i + 1, np.int64(m1 >> _U64(32))]
        i += 2
    return total


def group_tables(table: np.ndarray, per_group: int = DICE_PER_GROUP) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Tables to roll ``per_group`` dice with one draw: the input of :func:`sum_grouped`.

    ``table`` is a :func:`sum_rolls` table (``int64[n, 6]``, one row per die). Its
    rows are cut, in order, into groups of ``per_group`` dice (the last group may have
    fewer). Returns ``(tables, sizes, floors)``:

    * ``tables[g, i]`` (``int64[n_groups, 6**per_group]``) is the sum of the group's
      entries for face combination ``i``, where the group's die ``j`` (of ``k``) shows
      face ``(i // 6**(k - 1 - j)) % 6``; entries past ``6**k`` are 0 and never drawn;
    * ``sizes[g] = 6**k`` (``uint64``), the number of combinations;
    * ``floors[g] = 2**32 mod 6**k`` (``uint64``), Lemire's rejection bound: a 32-bit
      draw whose low product half is below it is redrawn, which makes each index
      exactly equally likely.
    """
    table = np.asarray(table, dtype=np.int64)
    if table.ndim != 2 or table.shape[1] != 6:
        raise ValueError(f"a dice table is int64[n, 6], got shape {table.shape}")
    if not 1 <= per_group <= 8:
        raise ValueError(f"per_group must be 1 to 8 dice, got {per_group}")
    starts = range(0, table.shape[0], per_group)
    tables = np.zeros((len(starts), 6 ** per_group), dtype=np.int64)
    sizes = np.zeros(len(starts), dtype=np.uint64)
    for g, start in enumerate(starts):
        sums = np.zeros(1, dtype=np.int64)
        for row in table[start:start + per_group]:
            sums = (sums[:, None] + row[None, :]).ravel()   # first die = most significant digit
        tables[g, :sums.size] = sums
        sizes[g] = sums.size
    floors = (np.uint64(1 << 32) % np.maximum(sizes, np.uint64(1))).astype(np.uint64)
    return tables, sizes, floors


@numba.njit(inline="always")
def sum_grouped(tables, sizes, floors, state):
    """One roll of the pool behind :func:`group_tables`: the same distribution as
    ``sum_rolls(table, state)``, with one 32-bit half of a draw per group of dice
    (two groups per 64-bit draw, redrawn when either half falls in its group's
    rejection zone)."""
    n = tables.shape[0]
    total = 0
    g = 0
    while g < n:
        x = next_u64(state)
        m0 = (x & _LOW32) * sizes[g]
        if (m0 & _LOW32) < floors[g]:
            continue
        if g + 1 < n:
            m1 = (x >> _U64(32)) * sizes[g + 1]
            if (m1 & _LOW32) < floors[g + 1]:
                continue
            total += tables[g + 1, np.int64(m1 >> _U64(32))]
        total += tables[g, np.int64(m0 >> _U64(32))]
        g += 2
    return total


@numba.njit(inline="always")
def sum_grouped_pair(tables, sizes, floors, state):
    """Two independent rolls of the pool behind :func:`group_tables`, ``(first,
    second)``: each group's draw gives its low 32-bit half to the first roll and its
    high half to the second (redrawn when either half falls in the rejection zone).
    Kernels that run many trials roll them in pairs with this."""
    n = tables.shape[0]
    first = 0
    second = 0
    g = 0
    while g < n:
        x = next_u64(state)
        size = sizes[g]
        m0 = (x & _LOW32) * size
        m1 = (x >> _U64(32)) * size
        if (m0 & _LOW32) < floors[g] or (m1 & _LOW32) < floors[g]:
            continue
        first += tables[g, np.int64(m0 >> _U64(32))]
        second += tables[g, np.int64(m1 >> _U64(32))]
        g += 1
    return first, second
