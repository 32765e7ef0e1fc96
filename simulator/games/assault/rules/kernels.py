"""Numba Monte Carlo kernels for battle-dice rolls.

Compile, then run: a question becomes one ``int64[n_dice, 6]`` table of *packed*
faces, so a trial is a handful of table look-ups and one add per die. Six 10-bit
fields hold the attack's crit, hit, supp and the defence's crit, hit, supp
counts; summing packed faces sums all six counts at once.

The odds kernel goes further: the dice are rolled four at a time from group tables
of packed sums (:func:`simulator.run.rng.group_tables`), trials are rolled in pairs (one
64-bit draw per group serves two trials), and trials are resolved in blocks: roll a
block, cancel the whole block (a loop the compiler vectorises), then count it.

Kernels return histograms (counts), never per-trial objects.
"""

from __future__ import annotations

import numba
import numpy as np

from simulator.games.assault.rules.compare import uncancelled
from simulator.games.assault.rules.damage import (
    CRIT_ATTACK_DIE,
    CRIT_DEFENCE_DIE,
    CRIT_ROLL_NONE,
    after_fire,
    crit_roll_due,
    state_index,
    strongest_symbol,
)
from simulator.games.assault.rules.dice import MAX_ROLL_SYMBOLS, DiceSet, Pool, format_pool, single_symbol
from simulator.run.errors import InputError
from simulator.run.rng import below, group_tables, seed_state, sum_grouped, sum_grouped_pair, sum_rolls

FIELD_BITS = 10
FIELD_MAX = (1 << FIELD_BITS) - 1
assert FIELD_MAX == MAX_ROLL_SYMBOLS   # the pool limits of dice.py rely on it
ATTACK_SHIFT = 0
DEFENCE_SHIFT = 3 * FIELD_BITS

uncancelled_jit = numba.njit(inline="always")(uncancelled)   # 10.7.2, compiled into the kernels


def pack_face(face, shift: int) -> int:
    c, h, s = face
    return (c | (h << FIELD_BITS) | (s << 2 * FIELD_BITS)) << shift


def packed_faces(attack: Pool, defence: Pool, dice: DiceSet, doubles: str) -> np.ndarray:
    """The compiled question: one row of six packed faces per die, attack dice first."""
    rows = [[pack_face(single_symbol(f, doubles), ATTACK_SHIFT) for f in dice.die(x).faces] for x in attack]
    rows += [[pack_face(f, DEFENCE_SHIFT) for f in dice.die(x).faces] for x in defence]
    for side, pool in (("attack", attack), ("defence", defence)):
        most = sum(max(sum(f) for f in dice.die(x).faces) for x in pool)
        if most > FIELD_MAX:
            raise InputError(f"{side} pool", "", f"{format_pool(pool)[:40]} can roll {most} symbols; "
                             f"at most {FIELD_MAX} symbols in a roll")
    return np.array(rows, dtype=np.int64).reshape(len(rows), 6)


@numba.njit(inline="always")
def field(total, k):
    return (total >> (k * FIELD_BITS)) & FIELD_MAX


@numba.njit(inline="always")
def cancel_packed(t, extra_supp):
    """Unpack a packed roll total and cancel (10.7.2): the uncancelled (crit, hit, supp)."""
    return uncancelled_jit(field(t, 0), field(t, 1), field(t, 2) + extra_supp,
                           field(t, 3), field(t, 4), field(t, 5))


@numba.njit(inline="always")
def crit_roll_result(total):
    """A critical-hit roll's result from its packed total (green attack dice against
    blue defence dice, no extra supp): its uncancelled ``(crit, hit, supp)`` (10.7.2)
    and their strongest symbol (10.7.5), ``CRIT_ROLL_*``."""
    cc, ch, cs = cancel_packed(total, 0)
    return cc, ch, cs, strongest_symbol(cc, ch, cs)


@numba.njit(inline="always")
def roll_crit(crit, hit, damage, strength, crit_attack, crit_defence, state):
    """The critical-hit roll (10.7.5, 10.7.6) for ``crit`` uncancelled crits and ``hit``
    hits on a unit of ``strength`` with ``damage`` points taken: ``crit`` dice of the
    packed tables ``crit_attack`` (green) against ``crit`` of ``crit_defence`` (blue),
    at most as many as the tables have rows (:func:`crit_roll_tables`), unless the
    damage has eliminated the unit (:func:`~simulator.games.assault.rules.damage.crit_roll_due`,
    rulings #6). Returns the strongest symbol, ``CRIT_ROLL_NONE`` when there is no roll.
    The one implementation: the odds, fire and scenario-engine kernels call it."""
    if not crit_roll_due(crit, hit, damage, strength):
        return CRIT_ROLL_NONE
    t = sum_rolls(crit_attack[:crit], state) + sum_rolls(crit_defence[:crit], state)
    return crit_roll_result(t)[3]


BLOCK_TRIALS = 256
"""Trials rolled, then cancelled, then counted together by :func:`grouped_uncancelled_counts`."""


@numba.njit(cache=True, nogil=True)
def grouped_uncancelled_counts(tables, sizes, floors, extra_supp, n_trials, state, counts):
    """Roll attack against defence ``n_trials`` times; histogram the uncancelled symbols.

    ``tables, sizes, floors`` are :func:`~simulator.run.rng.group_tables` of a
    :func:`packed_faces` table. ``counts[crit, hit, supp]`` (C-contiguous) is
    incremented in place; its shape must hold the attack's largest possible totals.
    Trials go in blocks of :data:`BLOCK_TRIALS`: rolled in pairs
    (:func:`~simulator.run.rng.sum_grouped_pair`), cancelled (10.7.2), then counted.
    """
    flat = counts.reshape(-1)
    stride_supp = counts.shape[2]
    stride_hit = counts.shape[1] * stride_supp
    block = np.empty(BLOCK_TRIALS, dtype=np.int64)
    done = 0
    while done < n_trials:
        n = min(BLOCK_TRIALS, n_trials - done)
        j = 0
        while j + 1 < n:
            first, second = sum_grouped_pair(tables, sizes, floors, state)
            block[j] = first
            block[j + 1] = second
            j += 2
        if j < n:
            block[j] = sum_grouped(tables, sizes, floors, state)
        for j in range(n):
            c, h, s = cancel_packed(block[j], extra_supp)
            block[j] = c * stride_hit + h * stride_supp + s
        for j in range(n):
            flat[block[j]] += 1
        done += n


def uncancelled_counts(faces: np.ndarray, extra_supp: int, n_trials: int, state: np.ndarray,
                       counts: np.ndarray) -> None:
    """:func:`grouped_uncancelled_counts` for a :func:`packed_faces` table ``faces``."""
    grouped_uncancelled_counts(*group_tables(faces), extra_supp, n_trials, state, counts)


def uncancelled_chunk(faces: np.ndarray, extra_supp: int, shape: tuple[int, int, int],
                      n_trials: int, seed_seq: np.random.SeedSequence) -> np.ndarray:
    """Runner task: one chunk of trials with its own random stream."""
    counts = np.zeros(shape, dtype=np.int64)
    uncancelled_counts(faces, extra_supp, n_trials, seed_state(seed_seq), counts)
    return counts


def crit_roll_tables(max_crits: int, dice: DiceSet) -> tuple[np.ndarray, np.ndarray]:
    """Packed faces for the critical-hit roll: green for the attacker, blue for the
    defender, one row per possible uncancelled crit (10.7.5, 10.7.6)."""
    g = [pack_face(f, ATTACK_SHIFT) for f in dice.die(CRIT_ATTACK_DIE).faces]
    b = [pack_face(f, DEFENCE_SHIFT) for f in dice.die(CRIT_DEFENCE_DIE).faces]
    n = max(1, max_crits)
    return np.array([g] * n, dtype=np.int64), np.array([b] * n, dtype=np.int64)


@numba.njit(cache=True, nogil=True)
def fire_state_counts(spot_need, faces_spotted, faces_unspotted, unspotted_fires, extra_supp,
                      crit_attack, crit_defence, kind, strength, ignores_supp, delayed,
                      damage0, morale0, immobilised0, n_trials, state, counts):
    """Ranged fire ``n_trials`` times; histogram the target's state afterwards.

    ``spot_need``: 0 spotted without a roll, 1-6 the d6 needed, 7 always failed (10.5).
    A failed roll uses ``faces_unspotted`` (10.9.5), or leaves a vehicle target
    unfired when ``unspotted_fires`` is 0. ``counts`` is indexed by
    :func:`~simulator.games.assault.rules.damage.state_index`.
    """
    for _ in range(n_trials):
        faces = faces_spotted
        if spot_need > 0 and below(state, 6) + 1 < spot_need:
            if unspotted_fires == 0:
                counts[state_index(0, damage0, morale0, immobilised0)] += 1
                continue
            faces = faces_unspotted
        c, h, s = cancel_packed(sum_rolls(faces, state), extra_supp)
        symbol = roll_crit(c, h, damage0, strength, crit_attack, crit_defence, state)
        e, d, m, i = after_fire(kind, strength, ignores_supp, delayed, damage0, morale0, immobilised0,
                                c, h, s, symbol)
        counts[state_index(e, d, m, i)] += 1


def fire_chunk(args: tuple, n_states: int, n_trials: int, seed_seq: np.random.SeedSequence) -> np.ndarray:
    """Runner task for :func:`fire_state_counts`."""
    counts = np.zeros(n_states, dtype=np.int64)
    fire_state_counts(*args, n_trials, seed_state(seed_seq), counts)
    return counts
