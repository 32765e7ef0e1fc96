"""Exact close combat: one round exactly, and the whole fight as a Markov chain.

One round (:func:`direction_distribution`): the distribution of the uncancelled
symbols of one unit's attack, with the re-roll rule enumerated exactly (rulings #11),
the recruit's extra suppression (4.2.3), the adrenaline rush and the green pre-roll of
12.9. The whole fight (:func:`exact_fight`): a Markov chain over the states of
:mod:`.fight` (damage, status, immobilised, marker of every unit; rounds and turn),
stepped with the same :func:`~.fight.next_exchange` and
:func:`~.fight.after_exchange` the Monte Carlo kernels use, until every path has
ended or reached the cap. Each round's transition is the product of the two units'
independent results (the attacks are simultaneous and independent, 12.4).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numba
import numpy as np

from simulator.games.assault.rules.compare import uncancelled
from simulator.games.assault.rules.dice import DiceSet, single_symbol
from simulator.games.assault.rules.kernels import ATTACK_SHIFT, DEFENCE_SHIFT, FIELD_BITS, FIELD_MAX, pack_face
from simulator.games.assault.rules.melee.damage import after_close_combat, after_tracks_attack
from simulator.games.assault.rules.melee.fight import (
    F_DAMAGE,
    F_IMMOBILISED,
    F_MORALE,
    G_ROUNDS,
    P_EDITION,
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
from simulator.games.assault.rules.melee.policies import reroll_gains
from simulator.games.assault.rules.melee.situation import TRACKS_ATTACK_DIE, DirectionPools
from simulator.games.assault.rules.melee.tables import CompiledMelee, table_for

Symbols = tuple[int, int, int]


def _die_rows(pool, dice: DiceSet, doubles: str, shift: int, defence: bool):
    """Per die: its distinct ``(packed value, re-roll gain, probability)`` faces."""
    rows = []
    for letter in pool:
        faces = [single_symbol(f, doubles) for f in dice.die(letter).faces]
        gains = reroll_gains(faces, defence=defence)
        merged: dict[tuple[int, float], float] = defaultdict(float)
        for f, g in zip(faces, gains, strict=True):
            merged[(pack_face(f, shift), float(g))] += 1 / len(faces)
        rows.append([(v, g, p) for (v, g), p in merged.items()])
    return rows


def _convolve(dist: dict[int, float], row) -> dict[int, float]:
    out: dict[int, float] = defaultdict(float)
    for total, p in dist.items():
        for value, _, q in row:
            out[total + value] += p * q
    return out


def _insert(top: tuple, item: tuple, k: int) -> tuple:
    """Keep the ``k`` best re-roll candidates by gain; a later die only passes an
    earlier one with a strictly larger gain (as in the kernel)."""
    for i, other in enumerate(top):
        if item[0] > other[0]:
            return (top[:i] + (item,) + top[i:])[:k]
    return top + (item,) if len(top) < k else top


def side_distribution(rows, rerolls: int) -> dict[int, float]:
    """Distribution of a pool's packed total after spending ``rerolls`` re-rolls on the
    dice with the largest positive gains (rulings #11), each die at most once."""
    if rerolls == 0:
        dist: dict[int, float] = {0: 1.0}
        for row in rows:
            dist = _convolve(dist, row)
        return dist
    states: dict[tuple[int, tuple], float] = {(0, ()): 1.0}
    for r, row in enumerate(rows):
        nxt: dict[tuple[int, tuple], float] = defaultdict(float)
        for (total, top), p in states.items():
            for value, gain, q in row:
                top2 = _insert(top, (gain, r, value), rerolls) if gain > 0 else top
                nxt[(total + value, top2)] += p * q
        states = nxt
    out: dict[int, float] = defaultdict(float)
    for (total, top), p in states.items():
        dist = {total - sum(v for _, _, v in top): p}
        for _, r, _ in top:
            dist = _convolve(dist, rows[r])
        for t, q in dist.items():
            out[t] += q
    return out


def _fields(totals: np.ndarray, k: int) -> np.ndarray:
    return (totals >> (k * FIELD_BITS)) & FIELD_MAX


def direction_distribution(p: DirectionPools, dice: DiceSet) -> dict[Symbols, float]:
    """Exact distribution of the uncancelled ``(crit, hit, supp)`` of one attack."""
    attack = side_distribution(_die_rows(p.attack, dice, p.doubles, ATTACK_SHIFT, False), p.attack_rerolls)
    defence = side_distribution(_die_rows(p.defence, dice, "all", DEFENCE_SHIFT, True), p.defence_rerolls)
    ta, pa = np.array(list(attack.keys()), dtype=np.int64), np.array(list(attack.values()))
    td, pd = np.array(list(defence.keys()), dtype=np.int64), np.array(list(defence.values()))
    t = (ta[:, None] + td[None, :]).ravel()
    w = (pa[:, None] * pd[None, :]).ravel()
    c, h, s = uncancelled(_fields(t, 0), _fields(t, 1), _fields(t, 2) + p.extra_supp,
                          _fields(t, 3), _fields(t, 4), _fields(t, 5))
    s = np.maximum(s - p.adrenaline, 0)
    out: dict[Symbols, float] = defaultdict(float)
    p_go = 1.0
    if p.prereq:   # 12.9: the fast-action green pre-roll must show a result first
        p_go = sum(1 for f in dice.die(TRACKS_ATTACK_DIE[0]).faces if sum(f) > 0) / 6
        out[(0, 0, 0)] += 1 - p_go
    for key, weight in zip(zip(c.tolist(), h.tolist(), s.tolist(), strict=True), w.tolist(), strict=True):
        out[key] += p_go * weight
    return dict(out)


@dataclass
class ExactFight:
    """The exact answer: end states and the states after the first turn (end code ->
    probability), and the mean rounds fought by then."""

    final: dict[int, float]
    first: dict[int, float]
    mean_rounds: float
    first_mean_rounds: float


class _Chain:
    """Transitions of one compiled close combat, cached by table and unit state."""

    def __init__(self, cm: CompiledMelee):
        self.cm = cm
        self.symbols: dict[int, dict[Symbols, float]] = {}
        self.results: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}

    def direction(self, t: int) -> dict[Symbols, float]:
        if t not in self.symbols:
            self.symbols[t] = direction_distribution(self.cm.pools[t], self.cm.cast.dice)
        return self.symbols[t]

    def unit_results(self, t: int, y: int, unit: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
        """Unit ``y``'s possible new (status, damage, morale, immobilised) after table
        ``t``'s attack, as ``(int64[k, 4], float64[k])``."""
        key = (t, y, unit)
        if key not in self.results:
            U = self.cm.units
            damage, morale, immobilised = unit
            tracks = self.cm.pools[t].tracks
            out: dict[tuple, float] = defaultdict(float)
            for (c, h, s), p in self.direction(t).items():
                if tracks:
                    new = after_tracks_attack(U[y, U_STRENGTH], U[y, U_IGNORES_SUPP], damage, morale,
                                              immobilised, c, h, s)
                else:
                    new = after_close_combat(U[y, U_KIND], U[y, U_STRENGTH], U[y, U_HALF_AT], U[y, U_IGNORES_SUPP],
                                             damage, morale, immobilised, c, h, s)
                out[tuple(int(v) for v in new)] += p
            self.results[key] = (np.array(list(out.keys()), dtype=np.int64).reshape(len(out), 4),
                                 np.array(list(out.values())))
        return self.results[key]


@numba.njit(cache=True)
def successors(S, U, P, x, y, ys, xs, forget_rounds):
    """Every state after a round between ``x`` and ``y``: one row per pair of results
    (``ys`` row-major, as ``np.outer(py, px).ravel()``)."""
    out = np.empty((ys.shape[0] * xs.shape[0], S.shape[0]), dtype=np.int64)
    k = 0
    for i in range(ys.shape[0]):
        for j in range(xs.shape[0]):
            S2 = out[k]
            S2[:] = S
            set_unit(S2, y, ys[i, 0], ys[i, 1], ys[i, 2], ys[i, 3])
            set_unit(S2, x, xs[j, 0], xs[j, 1], xs[j, 2], xs[j, 3])
            after_exchange(S2, U, P, x, y)
            if forget_rounds:
                S2[G_ROUNDS] = 0
            k += 1
    return out


def _unit(S: np.ndarray, u: int) -> tuple[int, int, int]:
    base = u * UNIT_STRIDE
    return int(S[base + F_DAMAGE]), int(S[base + F_MORALE]), int(S[base + F_IMMOBILISED])


def exact_fight(cm: CompiledMelee) -> ExactFight:
    """The close combat as a Markov chain, every path to its end or the cap.

    A path's weight is carried with its rounds-weighted weight, so the mean rounds come
    out without keeping the round count in the state where the rules do not need it
    (the first edition counts turns; the revised edition's round count stays)."""
    chain = _Chain(cm)
    T, U, P = cm.tables, cm.units, cm.params
    forget_rounds = bool(P[P_EDITION] == 1)
    final: dict[int, float] = defaultdict(float)
    first: dict[int, float] = defaultdict(float)
    rounds = [0.0, 0.0]                      # rounds-weighted mass: at the end, after the first turn
    S = cm.state.copy()
    begin(S, U, P)
    frontier: dict[tuple, list[float]] = {tuple(S.tolist()) + (0,): [1.0, 0.0]}
    while frontier:
        nxt: dict[tuple, list[float]] = defaultdict(lambda: [0.0, 0.0])
        for key, (p, pr) in frontier.items():
            S, seen_first = np.array(key[:-1], dtype=np.int64), key[-1]
            while True:
                x, y, kind = next_exchange(S, U, P)
                if x != TURN_END:
                    break
                if not seen_first:
                    first[end_code(S)] += p
                    rounds[1] += pr
                    seen_first = 1
            if x == TERMINAL:
                code = end_code(S)
                final[code] += p
                rounds[0] += pr
                if not seen_first:
                    first[code] += p
                    rounds[1] += pr
                continue
            tx = table_for(T, U, S, P, x, y, kind)
            ty = table_for(T, U, S, P, y, x, kind)
            ys, py = chain.unit_results(tx, y, _unit(S, y))
            xs, px = chain.unit_results(ty, x, _unit(S, x))
            rows = successors(S, U, P, x, y, ys, xs, forget_rounds).tolist()
            for row, q in zip(rows, np.outer(py, px).ravel().tolist(), strict=True):
                acc = nxt[tuple(row) + (seen_first,)]
                acc[0] += p * q
                acc[1] += (pr + p) * q
        frontier = nxt
    return ExactFight(dict(final), dict(first), rounds[0], rounds[1])
