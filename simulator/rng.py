"""The random number generator every Monte Carlo kernel uses.

xoshiro256** (Blackman and Vigna) written inline in numba, so a kernel draws
numbers without calling back into numpy. The state is a ``uint64[4]`` array made
from a :class:`numpy.random.SeedSequence`, one per chunk (see ``runner``), which is
what makes results independent of the number of workers.

Dice are drawn unbiased with Lemire's multiply-and-reject method on 32-bit halves
of each 64-bit draw (:func:`sum_rolls`): two dice per draw, rejecting with
probability 4 / 2**32.
"""

from __future__ import annotations

import numba
import numpy as np

_U64 = numba.uint64


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
