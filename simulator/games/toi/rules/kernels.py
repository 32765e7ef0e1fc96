"""Numba Monte Carlo kernels for Tide of Iron rolls.

Compile, then run: a roll becomes an ``int64[n_dice, 6]`` table whose rows say what
each face of one die adds to a packed total (black successes in the low field, red
successes in the next, the defender's black successes in the third), so a trial is
one :func:`~simulator.run.rng.sum_rolls` call. Kernels return histograms whose shape
matches the exact tables in ``exact.py``; the runner sums them chunk by chunk.
"""

from __future__ import annotations

import numba
import numpy as np

from simulator.games.toi.rules.attack import net_hits
from simulator.run.rng import seed_state, sum_rolls

FIELD_BITS = 20
FIELD_MASK = (1 << FIELD_BITS) - 1
net_hits_jit = numba.njit(inline="always")(net_hits)


def success_rows(n: int, from_face: int, field_index: int) -> np.ndarray:
    """``n`` rows of one die that adds 1 to field ``field_index`` on ``from_face``-6."""
    value = 1 << (FIELD_BITS * field_index)
    row = [value if face >= from_face else 0 for face in range(1, 7)]
    return np.array([row] * n, dtype=np.int64).reshape(n, 6)


@numba.njit(cache=True, nogil=True)
def fire_counts(table, n_def, thick, n_trials, state, counts):
    """Ranged attack: histogram of (black successes, red successes) into ``counts``.

    ``thick``: the defender turns one failed red die into a 6 (001 Tanks: Thick Armor).
    """
    for _ in range(n_trials):
        t = sum_rolls(table, state)
        a = t & FIELD_MASK
        d = (t >> FIELD_BITS) & FIELD_MASK
        if thick and d < n_def:
            d += 1
        counts[a, d] += 1


@numba.njit(cache=True, nogil=True)
def assault_counts(table, n_trials, state, counts):
    """Assault: histogram of (attacker hits, defender hits) into ``counts`` (002 steps 4-5)."""
    for _ in range(n_trials):
        t = sum_rolls(table, state)
        black = t & FIELD_MASK
        red = (t >> FIELD_BITS) & FIELD_MASK
        counts[net_hits_jit(black, red), (t >> (2 * FIELD_BITS)) & FIELD_MASK] += 1


def fire_chunk(table: np.ndarray, n_def: int, thick: bool, shape: tuple[int, int],
               n_trials: int, seed_seq: np.random.SeedSequence) -> np.ndarray:
    """Runner task: one chunk of ranged attacks with its own random stream."""
    counts = np.zeros(shape, dtype=np.int64)
    fire_counts(table, n_def, thick, n_trials, seed_state(seed_seq), counts)
    return counts


def assault_chunk(table: np.ndarray, shape: tuple[int, int], n_trials: int,
                  seed_seq: np.random.SeedSequence) -> np.ndarray:
    """Runner task: one chunk of assaults with its own random stream."""
    counts = np.zeros(shape, dtype=np.int64)
    assault_counts(table, n_trials, seed_state(seed_seq), counts)
    return counts
