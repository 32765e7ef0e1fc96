"""Numba Monte Carlo of close combat, and the functions the scenario engine calls.

Everything here is compiled and takes only arrays and ints: the tables of
:mod:`.tables` (``T``), the unit constants ``U``, the state ``S``, the parameters
``P`` (layouts in :mod:`.fight`) and an xoshiro256** state from
:mod:`simulator.run.rng`. The rules come from :mod:`.damage` (what symbols do),
:mod:`.fight` (the sequence) and :mod:`.policies` (the choices); this module only
rolls the dice.
"""

from __future__ import annotations

from collections import Counter

import numba
import numpy as np

from simulator.games.assault.rules.kernels import cancel_packed
from simulator.games.assault.rules.melee.damage import after_close_combat, after_tracks_attack
from simulator.games.assault.rules.melee.fight import (
    F_DAMAGE,
    F_IMMOBILISED,
    F_MORALE,
    G_ROUNDS,
    TERMINAL,
    TURN_END,
    U_HALF_AT,
    U_IGNORES_SUPP,
    U_KIND,
    U_STRENGTH,
    UNIT_STRIDE,
    after_exchange,
    begin,
    end_code,
    next_exchange,
    set_unit,
)
from simulator.games.assault.rules.melee.situation import A1, D1, V2_FIRST, V2_LATER
from simulator.games.assault.rules.melee.tables import table_for
from simulator.run.checkpoint import register_codec
from simulator.run.rng import below, seed_state, sum_rolls

MELEE_CHUNK_TRIALS = 1 << 18


@numba.njit(cache=True)
def roll_side(faces, gain, t, start, n, rerolls, state):
    """Roll rows ``start .. start+n-1`` of table ``t`` and spend ``rerolls`` re-rolls,
    each on a different die, on the dice whose re-roll gains most (rulings #11; ties
    to the earlier, stronger die; a die whose re-roll gains nothing is kept). Returns
    the packed total.

    It allocates nothing (the faces rolled are kept three bits a die in one integer:
    at most ``tables.MAX_SIDE_DICE`` dice a side, checked when the tables are built),
    so the scenario engine's rules, compiled without reference counting, may call it."""
    if rerolls == 0:
        return sum_rolls(faces[t, start:start + n], state)
    rolled = 0
    total = 0
    for i in range(n):
        f = below(state, 6)
        rolled |= f << (3 * i)
        total += faces[t, start + i, f]
    chosen = 0
    for _ in range(rerolls):
        best = -1
        best_gain = 0.0
        for i in range(n):
            if chosen & (1 << i):
                continue
            g = gain[t, start + i, (rolled >> (3 * i)) & 7]
            if g > best_gain:
                best_gain = g
                best = i
        if best < 0:
            break
        chosen |= 1 << best
        total += faces[t, start + best, below(state, 6)] - faces[t, start + best, (rolled >> (3 * best)) & 7]
    return total


@numba.njit(cache=True)
def roll_pools(faces, gain, t, prereq, prereq_faces, n_attack, n_defence, attack_rerolls, defence_rerolls,
               extra_supp, adrenaline, state):
    """One unit's attack roll against the other's defence roll, table ``t`` of
    ``faces``/``gain`` (attack dice in rows ``0 .. n_attack-1``, then the defence
    dice): the 12.9 green pre-roll when ``prereq`` is 1 (``prereq_faces[f]`` 1 for
    the faces that show a result), the re-rolls of each side (:func:`roll_side`,
    rulings #11), cancellation (10.7.2) with ``extra_supp`` added to the attack, and
    the adrenaline rush (12.7.2, revised 12.1.5: ``adrenaline`` suppressions ignored).
    Returns the uncancelled ``(crit, hit, supp)``.

    The one implementation of a close-combat roll: the melee calculator calls it on
    its :data:`~.tables.MeleeTables` (:func:`roll_direction`), the scenario engine on
    its copy of those tables (``simulator.games.assault.game.closecombat.roll_cc``). It allocates
    nothing, so rules compiled without reference counting may call it."""
    if prereq == 1 and prereq_faces[below(state, 6)] == 0:   # 12.9: the green pre-roll failed
        return 0, 0, 0
    if attack_rerolls == 0 and defence_rerolls == 0:
        total = sum_rolls(faces[t, :n_attack + n_defence], state)
    else:
        total = (roll_side(faces, gain, t, 0, n_attack, attack_rerolls, state)
                 + roll_side(faces, gain, t, n_attack, n_defence, defence_rerolls, state))
    c, h, s = cancel_packed(total, extra_supp)
    return c, h, max(s - adrenaline, 0)


@numba.njit(cache=True)
def roll_direction(T, t, state):
    """:func:`roll_pools` for table ``t`` of the melee calculator's tables ``T``."""
    return roll_pools(T.faces, T.gain, t, T.prereq[t], T.prereq_faces, T.n_attack[t], T.n_defence[t],
                      T.attack_rerolls[t], T.defence_rerolls[t], T.extra_supp[t], T.adrenaline[t], state)


@numba.njit(cache=True)
def struck(T, t, U, S, y, c, h, s):
    """The melee calculator's slot ``y`` (its state in ``S``, constants in ``U``): its new
    ``(status, damage, morale, immobilised)`` after the symbols of table ``t``'s attack.
    (The scenario engine's twin, ``simulator.games.assault.game.closecombat.struck``, reads a game's
    unit; both apply :mod:`.damage`.)"""
    base = y * UNIT_STRIDE
    if T.tracks[t] == 1:
        return after_tracks_attack(U[y, U_STRENGTH], U[y, U_IGNORES_SUPP], S[base + F_DAMAGE],
                                   S[base + F_MORALE], S[base + F_IMMOBILISED], c, h, s)
    return after_close_combat(U[y, U_KIND], U[y, U_STRENGTH], U[y, U_HALF_AT], U[y, U_IGNORES_SUPP],
                              S[base + F_DAMAGE], S[base + F_MORALE], S[base + F_IMMOBILISED], c, h, s)


@numba.njit(cache=True)
def resolve_exchange(T, U, S, P, x, y, kind, state):
    """ENGINE API. One round between slots ``x`` and ``y``, simultaneous (12.4,
    revised 12.1): both attacks are rolled on the states before the round, then both
    results are applied and the round is booked (:func:`~.fight.after_exchange`;
    in the revised edition this includes the withdrawal check)."""
    tx = table_for(T, U, S, P, x, y, kind)
    ty = table_for(T, U, S, P, y, x, kind)
    c, h, s = roll_direction(T, tx, state)
    ys = struck(T, tx, U, S, y, c, h, s)
    c, h, s = roll_direction(T, ty, state)
    xs = struck(T, ty, U, S, x, c, h, s)
    set_unit(S, y, ys[0], ys[1], ys[2], ys[3])
    set_unit(S, x, xs[0], xs[1], xs[2], xs[3])
    after_exchange(S, U, P, x, y)


@numba.njit(cache=True)
def resolve_round_v2(T, U, S, P, state):
    """ENGINE API. One round of the revised edition (initial or later, by the rounds
    already fought) between the assault and the defence unit."""
    resolve_exchange(T, U, S, P, A1, D1, V2_FIRST if S[G_ROUNDS] == 0 else V2_LATER, state)


@numba.njit(cache=True)
def resolve_fight(T, U, S, P, state):
    """ENGINE API. The whole close combat from ``S``: revised edition, rounds until it
    ends or the round cap; first edition, turn by turn until it ends or the turn cap.
    ``S`` holds the final state. Returns ``(code, rounds)`` after the first turn (first
    edition; the revised edition's whole fight is one activation): the end code
    (:func:`~.fight.end_code`) and the rounds fought by then."""
    first, first_rounds = -1, 0
    begin(S, U, P)
    while True:
        x, y, kind = next_exchange(S, U, P)
        if x == TERMINAL:
            break
        if x == TURN_END:
            if first < 0:
                first, first_rounds = end_code(S), S[G_ROUNDS]
            continue
        resolve_exchange(T, U, S, P, x, y, kind, state)
    if first < 0:
        first, first_rounds = end_code(S), S[G_ROUNDS]
    return first, first_rounds


@numba.njit(cache=True, nogil=True)
def melee_codes(T, U, S0, P, n_trials, state, final_codes, first_codes, rounds, first_rounds):
    """``n_trials`` close combats: each one's end code, its code after the first turn
    and the rounds fought (in all, and in the first turn)."""
    S = np.empty_like(S0)
    for i in range(n_trials):
        S[:] = S0
        first_codes[i], first_rounds[i] = resolve_fight(T, U, S, P, state)
        final_codes[i] = end_code(S)
        rounds[i] = S[G_ROUNDS]


class ChunkResult:
    """Counts from one chunk: end codes, first-turn codes, rounds."""

    def __init__(self, final: Counter, first: Counter, rounds: Counter, first_rounds: Counter):
        self.final, self.first, self.rounds, self.first_rounds = final, first, rounds, first_rounds

    def __add__(self, other: "ChunkResult") -> "ChunkResult":
        return ChunkResult(self.final + other.final, self.first + other.first,
                           self.rounds + other.rounds, self.first_rounds + other.first_rounds)


def _count(values: np.ndarray) -> Counter:
    keys, counts = np.unique(values, return_counts=True)
    return Counter(dict(zip(keys.tolist(), counts.tolist(), strict=True)))


def melee_chunk(arrays: tuple, n_trials: int, seed_seq: np.random.SeedSequence) -> ChunkResult:
    """Runner task: one chunk of close combats with its own random stream."""
    T, U, S0, P = arrays
    final = np.empty(n_trials, dtype=np.int64)
    first = np.empty(n_trials, dtype=np.int64)
    rounds = np.empty(n_trials, dtype=np.int64)
    first_rounds = np.empty(n_trials, dtype=np.int64)
    melee_codes(T, U, S0, P, n_trials, seed_state(seed_seq), final, first, rounds, first_rounds)
    return ChunkResult(_count(final), _count(first), _count(rounds), _count(first_rounds))


def merge_chunks(a: ChunkResult, b: ChunkResult) -> ChunkResult:
    return a + b


_COUNTERS = ("final", "first", "rounds", "first_rounds")


def _to_arrays(r: ChunkResult) -> dict[str, np.ndarray]:
    """A chunk's counts as plain arrays (keys, counts) for a checkpoint file."""
    out = {}
    for name in _COUNTERS:
        items = sorted(getattr(r, name).items())
        out[f"{name}.keys"] = np.array([k for k, _ in items], dtype=np.int64)
        out[f"{name}.counts"] = np.array([n for _, n in items], dtype=np.int64)
    return out


def _from_arrays(arrays: dict[str, np.ndarray]) -> ChunkResult:
    parts = []
    for name in _COUNTERS:
        keys, counts = arrays[f"{name}.keys"], arrays[f"{name}.counts"]
        if keys.ndim != 1 or keys.shape != counts.shape or (counts < 0).any():
            raise ValueError(f"{name}: keys and counts do not match")
        parts.append(Counter(dict(zip(keys.tolist(), counts.tolist(), strict=True))))
    return ChunkResult(*parts)


register_codec("melee-counts", ChunkResult, _to_arrays, _from_arrays)
