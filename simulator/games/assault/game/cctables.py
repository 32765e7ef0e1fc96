"""Compiling a scenario, its close combat: the grounds (terrain and fortification,
revised 12.1.2.1, 12.1.3; :func:`cc_grounds`) and the tabulated directions of every close
combat the engine fights (:func:`close_combat_tables`, from the melee package's
``direction_pools``), with their pools' statistics. Part of
:func:`simulator.games.assault.game.compile.compile_game`."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from simulator.engine.core.hexgrid import parse_facing
from simulator.engine.core.hexspec import expand_hexes
from simulator.games.assault.game import closecombat as ccm
from simulator.games.assault.game import tables as tables_mod
from simulator.games.assault.game.compiled import CompiledMap
from simulator.games.assault.game.pooltab import UnitType
from simulator.games.assault.game.scenario_format import Scenario
from simulator.games.assault.rules.cards import UnitCard
from simulator.games.assault.rules.exact import pool_distribution, uncancelled_distribution
from simulator.games.assault.rules.melee.fortifications import fortification
from simulator.games.assault.rules.melee.situation import (
    A1,
    A2,
    AREAS,
    D1,
    D2,
    V1_INITIATE,
    V1_REINFORCE,
    V1_RENEW,
    V2_FIRST,
    V2_LATER,
    Direction,
    MeleeSituation,
    build_cast,
    direction_pools,
)
from simulator.games.assault.rules.melee.tables import _tables as melee_tables
from simulator.run.errors import InputError

# ======================================================================================
# close combat
# ======================================================================================

# (role, kind, x slot, y slot) of every direction the engine fights (closecombat roles)
_V1_ROLES = ((ccm.R1_INIT_A, V1_INITIATE, A1, D1), (ccm.R1_INIT_D, V1_INITIATE, D1, A1),
             (ccm.R1_REIN_TO_HOLDER, V1_REINFORCE, A2, D1), (ccm.R1_REIN_FROM_HOLDER, V1_REINFORCE, D1, A2),
             (ccm.R1_REIN_A, V1_REINFORCE, A2, D2), (ccm.R1_REIN_D, V1_REINFORCE, D2, A2),
             (ccm.R1_RENEW_TO_HOLDER, V1_RENEW, A2, D1), (ccm.R1_RENEW_FROM_HOLDER, V1_RENEW, D1, A2),
             (ccm.R1_RENEW_A, V1_RENEW, A2, D2), (ccm.R1_RENEW_D, V1_RENEW, D2, A2))
_V2_ROLES = ((ccm.R2_FIRST_A, V2_FIRST, A1, D1), (ccm.R2_FIRST_D, V2_FIRST, D1, A1),
             (ccm.R2_LATER_A, V2_LATER, A1, D1), (ccm.R2_LATER_D, V2_LATER, D1, A1))
_MASKS = {ccm.R1_INIT_A: ccm.F_DUG | ccm.F_PASS, ccm.R1_INIT_D: ccm.F_ACT | ccm.F_OUT | ccm.F_PASS,   # F_PASS: 12.10
          ccm.R1_REIN_FROM_HOLDER: ccm.F_OUT, ccm.R1_REIN_A: ccm.F_OUT,      # 12.8.2: the target outflanked
          ccm.R1_REIN_TO_HOLDER: ccm.F_DUG, ccm.R1_RENEW_TO_HOLDER: ccm.F_DUG,
          ccm.R2_FIRST_A: ccm.F_OUT | ccm.F_SUPA | ccm.F_SUPD | ccm.F_DUG | ccm.F_WIRE,   # revised 12.1.2.1
          ccm.R2_FIRST_D: ccm.F_ACT | ccm.F_SUPP | ccm.F_SUPA | ccm.F_SUPD | ccm.F_FAST,
          ccm.R2_LATER_A: ccm.F_DUG}


def _carriers(types: list[UnitType]) -> dict[str, UnitCard]:
    """12.10: for each infantry card, a vehicle card of its side that may carry it (the
    cast of a passenger disembarked into the close-combat hex names its transport; the
    passenger's pools do not depend on which)."""
    out = {}
    for p in types:
        if not p.card.is_infantry:
            continue
        for v in types:
            c = v.card
            if c.side == p.card.side and c.is_vehicle and c.transport_capacity >= p.card.strength:
                out[p.card.id] = c
                break
    return out


def _flag_sets(mask: int):
    bits = [b for b in (1, 2, 4, 8, 16, 32, 64, 128, 256) if mask & b]
    for i in range(1 << len(bits)):
        yield sum(b for j, b in enumerate(bits) if i >> j & 1)


def _area_roles() -> set[int]:
    return {ccm.R1_INIT_A, ccm.R1_INIT_D, ccm.R2_FIRST_A, ccm.R2_FIRST_D} | set(_REIN_TARGET_IS_Y)


# 12.7.3, 12.8.2: the reinforced roles, and whether the reinforcing unit's target is y (the
# reinforcing unit attacks) or x (its target answers); ``situation.reinforcer`` lays them out
_REIN_TARGET_IS_Y = {ccm.R1_REIN_TO_HOLDER: True, ccm.R1_REIN_FROM_HOLDER: False,
                     ccm.R1_REIN_D: True, ccm.R1_REIN_A: False}


def _area_card(role: int, X: UnitType, Y: UnitType, D: UnitType) -> UnitType:
    """The unit whose side was entered: the holder when initiated, the reinforcing unit's
    target when reinforced."""
    if role in _REIN_TARGET_IS_Y:
        return Y if _REIN_TARGET_IS_Y[role] else X
    return D


@dataclass(frozen=True)
class Grounds:
    """What close combat stands on in each hex (revised 12.1.2.1, 12.1.3; rulings S25):
    the distinct (terrain, fortification or None) pairs of the map -- every terrain alone
    first, in the map's terrain order, so a map without features keeps its indices --
    each hex's pair, the vertex its fortification faces (-1 none) and its wire or wall."""

    pairs: tuple[tuple[str, str | None], ...]
    of_hex: np.ndarray
    fort_face: np.ndarray
    wire: np.ndarray


def cc_grounds(scenario: Scenario, cm: CompiledMap) -> Grounds:
    """The grounds of the scenario's map from ``[[map.features]]``."""
    pairs = [(name, None) for name in cm.terrain_names]
    of_hex = cm.terrain.astype(np.int64).copy()
    fort_face = np.full(cm.n, -1, dtype=np.int64)
    wire = np.zeros(cm.n, dtype=np.int64)
    orientation = scenario.map.orientation
    for f in scenario.map.features:
        for name in expand_hexes(f.hexes, scenario.board.grid):
            h = cm.index_of(name)
            wire[h] = int(f.wire)
            if f.fortification is None:
                continue
            pair = (cm.terrain_names[cm.terrain[h]], f.fortification)
            if pair not in pairs:
                pairs.append(pair)
            of_hex[h] = pairs.index(pair)
            fort_face[h] = parse_facing(f.facing, orientation)
    return Grounds(tuple(pairs), of_hex, fort_face, wire)


def close_combat_tables(types: list[UnitType], scenario: Scenario, cm: CompiledMap, edition: str,
                  grounds: Grounds | None = None):
    """Tabulate every close-combat direction (x attacks y) a game can fight: for each
    pair of unit types, role, terrain (and, for a vehicle holding the hex, the area its
    attacker entered from), situation flags, half strength, immobilised x / y and the
    attack on wheels/tracks. Returns the melee tables, the sorted look-up keys, the
    flag masks, the players' expected losses and per-pool statistics."""
    aid, units = scenario.aid, scenario.units
    grounds = grounds or cc_grounds(scenario, cm)
    n_t, n_terr = len(types), len(grounds.pairs)
    if n_terr * 3 > tables_mod.CC_WHERE:
        raise InputError(scenario.path, "map", f"the engine handles at most {tables_mod.CC_WHERE // 3} terrains "
                         "and fortified terrains on one map")
    roles = _V1_ROLES if edition == "v1" else _V2_ROLES
    area_roles = _area_roles()
    mask = np.zeros(ccm.N_ROLES, dtype=np.int32)
    for r, m in _MASKS.items():
        mask[r] = m
    tab = _CCTabulation(edition, aid, units, _supporters(types),
                        _carriers(types) if edition == "v1" else {})     # 12.10
    wire_ok = edition == "v2"
    for i, X in enumerate(types):
        for j, Y in enumerate(types):
            if X.card.side == Y.card.side:
                continue
            for role, kind, xs, ys in roles:
                a_slot = xs in (A1, A2)
                A, D = (X, Y) if a_slot else (Y, X)
                if A.card.is_artillery or (D.card.is_artillery and D1 not in (xs, ys)):
                    continue      # 12.0: artillery never enters a close combat
                for terr, terrain, fort, area, area_name, flags in _cc_cells(
                        grounds, role, X, Y, D, xs, ys, area_roles, mask[role], wire_ok):
                    found = tab.cast(A, D, X, Y, role, xs, ys, terrain, fort, area, area_name, flags)
                    if found is None:
                        continue
                    ck, cast = found
                    where = terr + n_terr * area
                    for half, x_imm, y_imm, tracks in _cc_variants(X, Y):
                        tab.lookup[(i, j, where, role, flags, half, x_imm, y_imm, tracks)] = tab.direction(
                            ck, cast, xs, ys, kind, half, x_imm, y_imm, tracks)
    pools, lookup = tab.pools, tab.lookup
    if not pools:
        raise InputError(scenario.path, "sides", "no close combat is possible between the sides' units")
    keys = np.array(sorted((int(tables_mod.cc_direction_key(*k, n_t)) << tables_mod.CC_POOL_BITS) | v
                           for k, v in lookup.items()), dtype=np.int64)
    melee = melee_tables(pools, aid.dice, np.zeros((1,) * 6, dtype=np.int64))   # the melee package's layout
    stats = _cc_stats(pools, aid)
    return melee, keys, mask, _cc_loss(types, n_terr, lookup, stats, edition), stats, tuple(pools)


def _supporters(types: list[UnitType]) -> dict:
    """Each side's first unit type with ranged fire: the supporter of its close combats."""
    supporter = {}
    for t in types:
        if t.card.has_ranged_fire and t.card.side not in supporter:
            supporter[t.card.side] = t.card.id
    return supporter


def _cc_cells(grounds: Grounds, role: int, X: UnitType, Y: UnitType, D: UnitType, xs: int, ys: int,
              area_roles, flag_mask: int, wire_ok: bool):
    """The terrains, areas entered from and situation flags one direction is tabulated for,
    in the tables' order: yields ``(terr, terrain, fort, area, area_name, flags)``."""
    for terr in range(len(grounds.pairs)):
        terrain, fort = grounds.pairs[terr]
        area_card = _area_card(role, X, Y, D).card
        if area_card.is_vehicle:
            fort = None           # revised 12.1.3: vehicles get no terrain dice
        # the area entered from: a vehicle's (12.7.3, revised 12.3), else a fortification's
        # (revised 12.1.3.1) when the unit attacked holds the fortified hex
        fort_area = fort is not None and area_card is D.card and (
            role not in _REIN_TARGET_IS_Y or D1 in (xs, ys))
        areas = (0, 1, 2) if ((area_card.is_vehicle or fort_area) and role in area_roles) else (0,)
        for area in areas:
            for flags in _flag_sets(flag_mask):
                if flags & ccm.F_WIRE and not wire_ok:
                    continue
                yield terr, terrain, fort, area, AREAS[area] if len(areas) > 1 else None, flags


def _cc_variants(X: UnitType, Y: UnitType):
    """Half strength, immobilised x / y and the attack on wheels/tracks, in the tables'
    order: yields ``(half, x_imm, y_imm, tracks)``."""
    x_imms = (0, 1) if X.card.is_vehicle else (0,)
    y_imms = (0, 1) if Y.card.is_vehicle else (0,)
    for half in (0, 1):
        for x_imm in x_imms:
            for y_imm in y_imms:
                trk = (0, 1) if (X.card.is_infantry and Y.card.is_vehicle
                                 and not y_imm) else (0,)
                for tracks in trk:
                    yield half, x_imm, y_imm, tracks


class _CCTabulation:
    """What :func:`close_combat_tables` gathers: the casts and directions met (each built once),
    the distinct pools (numbered in the order first met) and the look-up from a
    direction's key to its pool."""

    def __init__(self, edition: str, aid, units, supporter: dict, carrier: dict):
        self.edition, self.aid, self.units = edition, aid, units
        self.supporter, self.carrier = supporter, carrier
        self.casts: dict = {}
        self.dirs: dict = {}
        self.index: dict = {}
        self.pools: list = []
        self.lookup: dict[tuple, int] = {}

    def cast(self, A: UnitType, D: UnitType, X: UnitType, Y: UnitType, role: int, xs: int, ys: int,
             terrain: str, fort, area: int, area_name: str | None, flags: int):
        """``(key, cast)`` of the close combat in this situation, or None when there is none."""
        holder = D.card
        if flags & ccm.F_PASS:           # 12.10: D is the passenger; the cast's
            holder = self.carrier.get(D.card.id)   # defender its transport
            if holder is None or area > 0 or flags & (ccm.F_DUG | ccm.F_OUT):
                return None
        sit = _situation(A, D, terrain, flags, self.supporter, xs, ys, area_name, role, X, Y,
                         None if D.card.is_vehicle else fort)
        if sit is None:
            return None
        if flags & ccm.F_PASS:
            sit = replace(sit, passengers=(D.card.id,), entry_area=None, fortification=None,
                          defender_activated=False)
        ck = (A.card.id, D.card.id, sit, fort)
        if ck not in self.casts:
            self.casts[ck] = self._build_cast(A, holder, sit, fort)
        cast = self.casts[ck]
        return None if cast is None else (ck, cast)

    def _build_cast(self, A: UnitType, holder, sit, fort):
        try:
            cast = build_cast(self.edition, A.card, holder, sit, self.aid, self.units)
        except InputError:
            return None
        if cast is not None and fort is not None and sit.fortification is None:
            # the hex's fortification with a vehicle in the defender's slot
            # that is not the unit attacked (renewed, reinforced: the
            # strongest die of the hex, 12.7.1, revised 12.1.3)
            cast = replace(cast, fortification=fortification(self.aid, fort))
        return cast

    def direction(self, ck, cast, xs: int, ys: int, kind, half: int, x_imm: int, y_imm: int,
                  tracks: int) -> int:
        """The pool number of one direction (x attacks y) of the cast ``ck``."""
        dk = (ck, xs, ys, kind, half, x_imm, y_imm, tracks)
        if dk not in self.dirs:
            p = direction_pools(Direction(
                cast, xs, ys, kind, bool(half), bool(x_imm), bool(y_imm),
                bool(tracks)), explain=False)
            k = (p.attack, p.defence, p.doubles, p.extra_supp,
                 p.attack_rerolls, p.defence_rerolls, p.adrenaline,
                 p.tracks, p.prereq)
            if k not in self.index:
                self.index[k] = len(self.pools)
                self.pools.append(p)
            self.dirs[dk] = self.index[k]
        return self.dirs[dk]


def _situation(A: UnitType, D: UnitType, terrain: str, flags: int, supporter: dict, xs: int, ys: int,
               entry_area: str | None = None, role: int = -1, X: UnitType | None = None,
               Y: UnitType | None = None, fortification: str | None = None):
    a, d = A.card, D.card
    reinforce_area, reinforce_out = None, False
    if role in _REIN_TARGET_IS_Y:                 # 12.7.3, 12.8.2: the area is the target's
        target = _area_card(role, X, Y, D).card
        if flags & ccm.F_OUT and (target.is_infantry or target.is_vehicle):
            return None
        reinforce_area, reinforce_out, entry_area = entry_area, bool(flags & ccm.F_OUT), None
        flags &= ~ccm.F_OUT
    if flags & ccm.F_OUT and (d.is_infantry or d.is_vehicle):   # a vehicle's area says it (12.7.3)
        return None
    if flags & ccm.F_FAST and not a.can_fast_action:
        return None
    if flags & ccm.F_DUG and not d.is_infantry:
        return None
    sup_a = supporter.get(a.side) if flags & ccm.F_SUPA else None
    sup_d = supporter.get(d.side) if flags & ccm.F_SUPD else None
    if (flags & ccm.F_SUPA and sup_a is None) or (flags & ccm.F_SUPD and sup_d is None):
        return None
    return MeleeSituation(
        terrain=terrain, defender_activated=bool(flags & ccm.F_ACT),
        defender_suppressed=bool(flags & ccm.F_SUPP), outflanked=bool(flags & ccm.F_OUT),
        entry_area=entry_area,
        attacker_fast=bool(flags & ccm.F_FAST), support_attacker=sup_a, support_defender=sup_d,
        reinforce_attacker=a.id if A2 in (xs, ys) else None,
        reinforce_defender=d.id if D2 in (xs, ys) else None,
        defender_dug_in=bool(flags & ccm.F_DUG),
        reinforce_area=reinforce_area, reinforce_outflanked=reinforce_out,
        fortification=fortification, wire=bool(flags & ccm.F_WIRE),
        attacker_experience=A.experience, defender_experience=D.experience)


CC_STATS = 4     # per close-combat pool: E[hits], E[crits], P(a supp), P(a crit or a hit)


def _cc_stats(pools, aid) -> np.ndarray:
    """Exact statistics of each close-combat pool's uncancelled symbols (the players)."""
    dice = aid.dice
    out = np.zeros((len(pools), CC_STATS))
    for k, p in enumerate(pools):
        if not p.attack:
            continue
        atk = pool_distribution(p.attack, dice, p.doubles, p.extra_supp)
        dfn = pool_distribution(p.defence, dice, "all")
        u = uncancelled_distribution(atk, dfn)
        c, h, sp = np.indices(u.shape)
        sp = np.maximum(sp - p.adrenaline, 0)
        out[k] = [(u * h).sum(), (u * c).sum(), (u * (sp > 0)).sum(), (u * ((c + h) > 0)).sum()]
    return out


def _cc_loss(types, n_terr, lookup, stats, edition) -> np.ndarray:
    """Expected strength points lost by the entering unit and by the holder in an
    initiated round (exact, from the direction pools; a vehicle holder seen from its
    front, a fortification from its front), for the players, by ground (``Grounds``)."""
    n_t = len(types)
    out = np.zeros((n_t, n_t, n_terr, 2))
    first_a, first_d = (ccm.R1_INIT_A, ccm.R1_INIT_D) if edition == "v1" else (ccm.R2_FIRST_A, ccm.R2_FIRST_D)

    def loss(key, victim: UnitType) -> float:
        t = lookup.get(key, -1)
        if t < 0:
            return 0.0
        eh, ec, ps, _ = stats[t]
        # 12.5: a crit halves the unit; a suppression is a fallback (about half a unit again)
        return eh + ec * victim.card.half_strength + ps * 0.5 * victim.card.half_strength
    for i in range(n_t):
        for j in range(n_t):
            for terr in range(n_terr):
                out[i, j, terr, 0] = loss((j, i, terr, first_d, 0, 0, 0, 0, 0), types[i])
                out[i, j, terr, 1] = loss((i, j, terr, first_a, 0, 0, 0, 0, 0), types[j])
    return out
