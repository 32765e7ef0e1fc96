"""Compiling a close combat: the pools of every round that can happen, tabulated.

The pool assembly (:func:`~simulator.games.assault.rules.melee.situation.direction_pools`) runs
in Python once per possible round, before any dice are rolled: for every ordered pair
of units, kind of round, whether the attacker is at half strength, whether either is
immobilised and whether infantry goes for the wheels/tracks. The result is a
:data:`MeleeTables` of plain arrays that numba kernels index with
:func:`table_for`; the scenario engine builds its tables the same way.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numba
import numpy as np

from simulator.games.assault.rules.damage import FALLBACK, STEADY, SUPPRESSED
from simulator.games.assault.rules.dice import single_symbol
from simulator.games.assault.rules.fire import kind_of
from simulator.games.assault.rules.kernels import packed_faces
from simulator.games.assault.rules.melee.damage import ABSENT, IN_HEX
from simulator.games.assault.rules.melee.fight import (
    F_ACTIVE,
    F_IMMOBILISED,
    G_STEP,
    G_TURN,
    N_PARAM,
    N_SLOTS,
    N_STATE,
    N_UNIT,
    P_EDITION,
    P_MAX,
    P_POLICY_ATTACKER,
    P_POLICY_DEFENDER,
    P_TRACKS,
    STEP_INITIATE,
    U_CAN_RENEW,
    U_EXISTS,
    U_HALF_AT,
    U_IGNORES_SUPP,
    U_INFANTRY,
    U_KIND,
    U_SIDE,
    U_STRENGTH,
    U_VEHICLE,
    UNIT_STRIDE,
    field,
    is_half,
    set_unit,
)
from simulator.games.assault.rules.melee.policies import (
    TRACKS_NEVER,
    TRACKS_WHILE_MOBILE,
    attacks_tracks,
    reroll_gains,
    withdraw_policy_code,
)
from simulator.games.assault.rules.melee.situation import (
    A1,
    D1,
    D2,
    N_KINDS,
    TRACKS_ATTACK_DIE,
    V1_INITIATE,
    V1_REINFORCE,
    V1_RENEW,
    V2_FIRST,
    V2_LATER,
    Cast,
    Direction,
    DirectionPools,
    direction_pools,
)

KINDS = {"v1": (V1_INITIATE, V1_REINFORCE, V1_RENEW), "v2": (V2_FIRST, V2_LATER)}

MeleeTables = namedtuple("MeleeTables", [
    "faces",            # int64[T, MAXD, 6]: packed faces, attack dice then defence dice (kernels.pack_face)
    "n_attack",         # int64[T]
    "n_defence",        # int64[T]
    "attack_rerolls",   # int64[T] (revised 12.1.1.1, 12.1.2)
    "defence_rerolls",  # int64[T]
    "gain",             # float64[T, MAXD, 6]: what re-rolling that die showing that face gains (rulings #11)
    "extra_supp",       # int64[T]: supp added to the attack (4.2.3)
    "adrenaline",       # int64[T]: supp the defender ignores (12.7.2, revised 12.1.5)
    "tracks",           # int64[T]: 1 for an attack on wheels/tracks (12.9, revised 12.5)
    "prereq",           # int64[T]: 1 when the green pre-roll must succeed first (12.9)
    "prereq_faces",     # int64[6]: 1 for the green die's faces that show a result
    "lookup",           # int64[16, N_KINDS, 2, 2, 2, 2]: table of (x*4+y, kind, x_half, x_imm, y_imm, tracks)
])


@dataclass(frozen=True)
class CompiledMelee:
    """A close-combat question ready for the kernels: tables, units, start state, params."""

    cast: Cast
    tables: MeleeTables
    pools: tuple[DirectionPools, ...]     # by table index, with the steps for --explain
    units: np.ndarray                     # U
    state: np.ndarray                     # S at the start
    params: np.ndarray                    # P
    policies: tuple[str, str]
    max_rounds: int


@numba.njit(cache=True)
def table_for(T, U, S, P, x, y, kind):
    """The table of ``x`` attacking ``y`` in a round of ``kind`` given the state."""
    xh = 1 if is_half(S, U, x) else 0
    xi = field(S, x, F_IMMOBILISED)
    yi = field(S, y, F_IMMOBILISED)
    tr = 1 if attacks_tracks(P[P_TRACKS], U[x, U_INFANTRY], U[y, U_VEHICLE], yi) else 0
    return T.lookup[x * N_SLOTS + y, kind, xh, xi, yi, tr]


def unit_constants(cast: Cast) -> np.ndarray:
    U = np.zeros((N_SLOTS, N_UNIT), dtype=np.int64)
    for slot, card in enumerate(cast.units):
        if card is None:
            continue
        U[slot, U_EXISTS] = 1
        U[slot, U_SIDE] = cast.side_of(slot)
        U[slot, U_KIND] = kind_of(card)
        U[slot, U_STRENGTH] = card.strength
        U[slot, U_HALF_AT] = card.half_strength_threshold
        U[slot, U_IGNORES_SUPP] = int(cast.aid.experience(cast.experience(slot)).ignores_supp)
        # 12.0: artillery never renews; renewing is optional (12.3), so a unit without
        # close-combat dice does not either
        U[slot, U_CAN_RENEW] = int(not card.is_artillery and bool(card.close_combat_vs_infantry
                                                                   or card.close_combat_vs_vehicle))
        U[slot, U_INFANTRY] = int(card.is_infantry)
        U[slot, U_VEHICLE] = int(card.is_vehicle)
    return U


def start_state(cast: Cast) -> np.ndarray:
    s = cast.situation
    S = np.zeros(N_STATE, dtype=np.int64)
    for slot, card in enumerate(cast.units):
        if card is None:
            continue
        fighting = slot in (A1, D1) or (cast.passenger_in_hex and slot == D2)
        morale = STEADY
        if slot == cast.defender_slot:
            morale = FALLBACK if s.defender_fallback else SUPPRESSED if s.defender_suppressed else STEADY
        set_unit(S, slot, IN_HEX if fighting else ABSENT, cast.initial_damage(slot), morale,
                 int(cast.initial_immobilised(slot)))
        if cast.passenger_in_hex and slot == D2:   # 12.10: the transport gets an active CC marker
            S[slot * UNIT_STRIDE + F_ACTIVE] = 1
    S[G_TURN] = 1
    S[G_STEP] = STEP_INITIATE
    return S


def params(cast: Cast, max_rounds: int, policies: tuple[str, str]) -> np.ndarray:
    P = np.zeros(N_PARAM, dtype=np.int64)
    P[P_EDITION] = 1 if cast.edition == "v1" else 2
    P[P_MAX] = max_rounds
    P[P_POLICY_ATTACKER] = withdraw_policy_code(policies[0])
    P[P_POLICY_DEFENDER] = withdraw_policy_code(policies[1])
    P[P_TRACKS] = TRACKS_WHILE_MOBILE if cast.situation.tracks else TRACKS_NEVER
    return P


def _pool_key(p: DirectionPools) -> tuple:
    return (p.attack, p.defence, p.doubles, p.extra_supp, p.attack_rerolls, p.defence_rerolls,
            p.adrenaline, p.tracks, p.prereq)


def _rows(p: DirectionPools, dice) -> tuple[np.ndarray, np.ndarray]:
    faces = packed_faces(p.attack, p.defence, dice, p.doubles)
    gains = [reroll_gains([single_symbol(f, p.doubles) for f in dice.die(x).faces], defence=False)
             for x in p.attack]
    gains += [reroll_gains(dice.die(x).faces, defence=True) for x in p.defence]
    return faces, np.array(gains, dtype=np.float64).reshape(len(gains), 6)


def compile_melee(cast: Cast, *, max_rounds: int, policies: tuple[str, str]) -> CompiledMelee:
    """Tabulate every round the close combat can have (the pool assembly runs here)."""
    U = unit_constants(cast)
    P = params(cast, max_rounds, policies)
    lookup = np.full((N_SLOTS * N_SLOTS, N_KINDS, 2, 2, 2, 2), -1, dtype=np.int64)
    pools: list[DirectionPools] = []
    index: dict[tuple, int] = {}
    for x in range(N_SLOTS):
        for y in range(N_SLOTS):
            if U[x, U_EXISTS] == 0 or U[y, U_EXISTS] == 0 or U[x, U_SIDE] == U[y, U_SIDE]:
                continue
            for kind in KINDS[cast.edition]:
                for xh in (0, 1):
                    for xi in ((0, 1) if U[x, U_VEHICLE] else (0,)):
                        for yi in ((0, 1) if U[y, U_VEHICLE] else (0,)):
                            tr = int(attacks_tracks(P[P_TRACKS], U[x, U_INFANTRY], U[y, U_VEHICLE], yi))
                            p = direction_pools(Direction(cast, x, y, kind, bool(xh), bool(xi), bool(yi), bool(tr)))
                            key = _pool_key(p)
                            if key not in index:
                                index[key] = len(pools)
                                pools.append(p)
                            lookup[x * N_SLOTS + y, kind, xh, xi, yi, tr] = index[key]
    tables = _tables(pools, cast.dice, lookup)
    return CompiledMelee(cast, tables, tuple(pools), U, start_state(cast), P, policies, max_rounds)


MAX_SIDE_DICE = 21    # dice of one side whose faces kernels.roll_side keeps in one int64 (3 bits each)


def _tables(pools: list[DirectionPools], dice, lookup: np.ndarray) -> MeleeTables:
    n = len(pools)
    maxd = max(1, max(len(p.attack) + len(p.defence) for p in pools))
    side = max(max(len(p.attack), len(p.defence)) for p in pools)
    if side > MAX_SIDE_DICE:
        raise ValueError(f"a close-combat side rolls {side} dice; the kernels handle at most {MAX_SIDE_DICE}")
    faces = np.zeros((n, maxd, 6), dtype=np.int64)
    gain = np.full((n, maxd, 6), -1.0)
    for t, p in enumerate(pools):
        f, g = _rows(p, dice)
        faces[t, :len(f)] = f
        gain[t, :len(g)] = g
    green = dice.die(TRACKS_ATTACK_DIE[0]).faces
    return MeleeTables(
        faces=faces,
        n_attack=np.array([len(p.attack) for p in pools], dtype=np.int64),
        n_defence=np.array([len(p.defence) for p in pools], dtype=np.int64),
        attack_rerolls=np.array([p.attack_rerolls for p in pools], dtype=np.int64),
        defence_rerolls=np.array([p.defence_rerolls for p in pools], dtype=np.int64),
        gain=gain,
        extra_supp=np.array([p.extra_supp for p in pools], dtype=np.int64),
        adrenaline=np.array([p.adrenaline for p in pools], dtype=np.int64),
        tracks=np.array([int(p.tracks) for p in pools], dtype=np.int64),
        prereq=np.array([int(p.prereq) for p in pools], dtype=np.int64),
        prereq_faces=np.array([int(sum(f) > 0) for f in green], dtype=np.int64),
        lookup=lookup,
    )

