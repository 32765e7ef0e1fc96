"""Compiling a scenario for the engine: :func:`compile_game` -> :class:`Game`.

Everything a game needs becomes integer arrays once (:class:`~simulator.games.assault.game.tables.Tables`):
the map (``compile_map``), the unit types (card + experience), every unit slot of the
scenario (set-up forces, formation cards that may be drawn, reinforcements), zones,
objectives, victory conditions, the ranged-fire pools (``fire_pools`` via
:mod:`~simulator.games.assault.game.pooltab`) and the close-combat directions
(``direction_pools`` of the melee package). Overrides (``turns``, ``edition``, a side's
command points, a unit's count or experience) are how ``--vary`` and ``--tune``
make variants of a scenario.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from simulator.engine.core import hexgrid, los
from simulator.engine.core.hexgrid import parse_facing
from simulator.engine.core.hexspec import expand_hexes
from simulator.games.assault.game import closecombat as ccm
from simulator.games.assault.game import tables as tables_mod
from simulator.games.assault.game.compiled import CompiledMap, compile_map
from simulator.games.assault.game.pooltab import GeoKey, UnitType, can_overrun, hindrance_names, tabulate_fire
from simulator.games.assault.game.scenario import Scenario, alternate_history, load_scenario
from simulator.games.assault.game.scenario_game import Game, Slot  # noqa: E402
from simulator.games.assault.game.tables import (
    CI_ADRENALINE,
    CI_ATK_REROLLS,
    CI_DEF_REROLLS,
    CI_EXTRA,
    CI_FIELDS,
    CI_NATK,
    CI_NDEF,
    CI_PREREQ,
    CI_TRACKS,
    D_COUNT,
    D_METHOD,
    FO_CLASS,
    FO_FIELDS,
    FO_SIDE,
    FO_TYPE,
    HI_CCT,
    HI_ELEV,
    HI_FIELDS,
    HI_FORTFACE,
    HI_FREEFACE,
    HI_HILL,
    HI_NOIND,
    HI_OBJ,
    HI_Q,
    HI_R,
    HI_STAND,
    HI_TDMG,
    HI_TERRAIN,
    HI_WIRE,
    ICC_HEAD,
    META_WIDTH,
    METHOD_CHOOSE,
    METHOD_DOUBLE,
    METHOD_DRAW,
    OB_HEX,
    OB_START,
    OB_VALUE,
    P_BASE_CP0,
    P_CC_STACK,
    P_CP_ALWAYS,
    P_CP_RULE,
    P_CRIT_B,
    P_CRIT_G,
    P_CRIT_MAX,
    P_EDITION,
    P_FALLBACK_EVER,
    P_FAST_UPHILL,
    P_FIELDS,
    P_HAS_VEHICLES,
    P_IF_NEITHER,
    P_INITIATIVE,
    P_MAX_SMOKE,
    P_MAXR,
    P_MIN_CP,
    P_N_ATK,
    P_N_FORMS,
    P_N_OBJ,
    P_N_UNITS,
    P_N_ZONES,
    P_NAREA,
    P_NB,
    P_NCCT,
    P_NEED_SUPPORT,
    P_NFLAGS,
    P_NG,
    P_NOUT,
    P_NR,
    P_NROLES,
    P_NSMOKE,
    P_NT,
    P_NTERR,
    P_O_ATK,
    P_O_BAND,
    P_O_CC,
    P_O_CCLOSS,
    P_O_COVER,
    P_O_DEF,
    P_O_DRAW,
    P_O_FORM,
    P_O_ICC,
    P_O_IND,
    P_O_INDDEF,
    P_O_INDSPOT,
    P_O_OBJ,
    P_O_OVR,
    P_O_PFIRE,
    P_O_SMOKE,
    P_O_SPOT,
    P_O_VIC,
    P_OVERRUN,
    P_SETUP_FIRST,
    P_SMOKE_DECAY,
    P_SUDDEN,
    P_TRANSPORT,
    P_TURNS,
    PO_EXTRA,
    PO_N,
    S6_CLIMB,
    S6_COST,
    S6_FIELDS,
    S6_NBR,
    S6_TDMG,
    SL_ARRIVE,
    SL_CARRIER,
    SL_ENTRY,
    SL_FACE,
    SL_FORM,
    SL_GROUP,
    SL_HEX,
    SL_ROLL,
    SL_SIDE,
    SL_TYPE,
    SL_ZONE,
    UT_ARMOURED,
    UT_CAP,
    UT_CARD,
    UT_CC_INIT,
    UT_ELITE,
    UT_EXP,
    UT_FAST_OK,
    UT_FIELDS,
    UT_HALF,
    UT_IMMOBILE,
    UT_IND_MAX,
    UT_IND_MIN,
    UT_KIND,
    UT_LOAD_FULL,
    UT_LOAD_HALF,
    UT_MAXR,
    UT_MOVE,
    UT_MTYPE,
    UT_OVERRUN,
    UT_RANGED,
    UT_RIDEDEF,
    UT_RIDERS,
    UT_SLOW,
    UT_SMOKE,
    UT_STR,
    UT_SUPPORT,
    UT_TDEF,
    UT_TURRET,
    UT_VALUE,
    Tables,
)
from simulator.games.assault.rules.aid import Aid
from simulator.games.assault.rules.cards import MOVEMENT_TYPES, UnitCard
from simulator.games.assault.rules.exact import pool_distribution, uncancelled_distribution
from simulator.games.assault.rules.kernels import packed_faces
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
from simulator.games.assault.rules.support import load_support
from simulator.games.assault.rules.vehicle_terrain import terrain_pools
from simulator.run.errors import InputError
from simulator.run.vocabulary import EDITIONS, EXPERIENCE_LEVELS, UNIT_TYPES

KINDS = UNIT_TYPES               # unit kinds by their code in the tables (INFANTRY, ARTILLERY, VEHICLE)
EXPERIENCES = EXPERIENCE_LEVELS  # experience by its code in the tables (UT_EXP)
METHODS = {"choose": METHOD_CHOOSE, "draw-double": METHOD_DOUBLE, "draw": METHOD_DRAW}
MIN_COMMAND_POINTS = 4      # 10.7.3: a player always has at least four command points
VARY_KEYS = ("turns", "edition", "cp", "count", "experience", "initiative", "sudden_death", "cp_minimum",
             "second_fallback")


def _side_index(s: Scenario, name: str, where: str) -> int:
    if name not in s.sides:
        raise InputError(where, "", f"unknown side {name!r} (sides: {', '.join(s.sides)})")
    return list(s.sides).index(name)


def _check_supported(types: list[UnitType], slots: list[Slot], scenario: Scenario) -> None:
    """Refuse what the engine cannot play, in one line naming the unit: an illegal load."""
    for sl in slots:
        if sl.carrier >= 0:
            _check_carried(sl, slots, scenario)


def _check_carried(sl: Slot, slots: list[Slot], scenario: Scenario) -> None:
    """A load set up in a vehicle must be legal (9.11, 9.11.1): ``transport.check_load``."""
    from simulator.games.assault.rules.transport import Passenger, check_load
    carrier = slots[sl.carrier]
    load = [Passenger(scenario.units[x.unit]) for x in slots if x.carrier == sl.carrier]
    check_load(scenario.units[carrier.unit], load, f"{scenario.path}: sides ({carrier.unit} carrying)")


class _Builder:
    def __init__(self, scenario: Scenario, cm: CompiledMap, overrides: dict):
        self.s = scenario
        self.cm = cm
        self.ov = overrides
        self.types: list[UnitType] = []
        self.type_ix: dict[tuple[str, str], int] = {}
        self.slots: list[Slot] = []
        self.zones: list[list[int]] = []
        self.zone_names: list[str] = []
        self.zone_ix: dict[tuple, int] = {}
        self.formations: list[str] = []
        self.form_rows: list[list[int]] = []
        self.group = 0
        self.class_draws = 0

    # -- names and ids ------------------------------------------------------------------
    def type_of(self, unit: str, experience: str) -> int:
        key = (unit, experience)
        if key not in self.type_ix:
            self.type_ix[key] = len(self.types)
            self.types.append(UnitType(self.s.units[unit], experience))
        return self.type_ix[key]

    def zone(self, key: tuple, hexes: list[str], label: str) -> int:
        if key not in self.zone_ix:
            self.zone_ix[key] = len(self.zones)
            self.zones.append([self.cm.index_of(h) for h in hexes])
            self.zone_names.append(label)
        return self.zone_ix[key]

    def experience(self, side: str, unit: str, given: str) -> str:
        return self.ov.get(("experience", side, unit), given)

    def count(self, side: str, unit: str, given: int) -> int:
        return self.ov.get(("count", side, unit), given)

    # -- slots ---------------------------------------------------------------------------
    def add(self, side: int, unit: str, experience: str, **kw) -> int:
        self.type_of(unit, experience)
        self.slots.append(Slot(side, unit, experience, **kw))
        return len(self.slots) - 1

    def passengers(self, side_i: int, side: str, carrying, carrier: int, **kw) -> None:
        for p in carrying:
            for _ in range(self.count(side, p.unit, p.count)):
                self.add(side_i, p.unit, self.experience(side, p.unit, p.experience), carrier=carrier, **kw)

    def forces(self) -> None:
        for side_i, (name, side) in enumerate(self.s.sides.items()):
            for force in side.units:
                zone = -1
                if force.zone is not None:
                    zone = self.zone((name, force.zone), self.s.zone_hexes(name, force.zone), f"{name}/{force.zone}")
                for _ in range(self.count(name, force.unit, force.count)):
                    hx = self.cm.index_of(force.hex) if force.hex is not None else -1
                    u = self.add(side_i, force.unit, self.experience(name, force.unit, force.experience),
                                 hex=hx, zone=zone, facing=-1 if force.facing is None else int(force.facing))
                    self.passengers(side_i, name, force.carrying, u)

    def formation_cards(self) -> np.ndarray:
        draw = np.zeros((2, 3, 2), dtype=np.int32)
        for side_i, (name, side) in enumerate(self.s.sides.items()):
            fd = side.formations
            if fd is None:
                continue
            zone = -1
            if fd.zone is not None:
                zone = self.zone((name, fd.zone), self.s.zone_hexes(name, fd.zone), f"{name}/{fd.zone}")
            deck = fd.deck or [f for f, c in self.s.formation_cards.items() if c.side == name]
            for k, kind in enumerate(KINDS):
                draw[side_i, k, D_COUNT] = fd.count(kind)
                draw[side_i, k, D_METHOD] = METHODS[fd.method]
            for fid in deck:
                card = self.s.formation_cards[fid]
                if fd.count(card.type) == 0:
                    continue
                f = self.formation(fid, side_i, card, zone)
                for unit, n, exp in card.units:
                    for _ in range(self.count(name, unit, n)):
                        self.add(side_i, unit, self.experience(name, unit, exp), formation=f, zone=zone)
        return draw

    def formation(self, fid: str, side_i: int, card, zone: int) -> int:
        self.formations.append(fid)
        self.form_rows.append([side_i, KINDS.index(card.type), card.command_points, zone, -1])
        return len(self.formations) - 1

    def class_option(self, card_id: str, unit_class: str, side_i: int, zone: int) -> int:
        """One card a class draw may bring (5.7): kept with the formation cards (type
        ``FO_CLASS``, no command points) so the per-game record says which card came."""
        self.formations.append(f"{card_id} (drawn for class {unit_class!r})")
        self.form_rows.append([side_i, FO_CLASS, 0, zone, self.class_draws])
        return len(self.formations) - 1

    def reinforcements(self) -> None:
        for side_i, (name, side) in enumerate(self.s.sides.items()):
            for j, rf in enumerate(side.reinforcements):
                entry = self.zone((name, "entry", j), expand_hexes(rf.entry, self.s.board.grid),
                                  f"{name}/entry {j + 1}")
                kw = dict(arrive=rf.turn, entry=entry, roll=rf.roll or 0)
                grp = self.group
                self.group += 1
                for ru in rf.units:
                    for _ in range(self.count(name, ru.unit, ru.count)):
                        u = self.add(side_i, ru.unit, self.experience(name, ru.unit, ru.experience),
                                     group=grp, **kw)
                        self.passengers(side_i, name, ru.carrying, u, group=grp, **kw)
                for cd in rf.draw_class:
                    options = sorted(c.id for c in self.s.units.values()
                                     if c.side == name and c.type == cd.type and c.unit_class == cd.unit_class)
                    if len(options) == 1:
                        for _ in range(cd.count):
                            self.add(side_i, options[0], cd.experience, group=grp, **kw)
                        continue
                    # 5.7, reading S17: one card of the class, chosen by its owner in each game (turn.class_step)
                    for card_id in options:
                        f = self.class_option(card_id, cd.unit_class, side_i, entry)
                        for _ in range(cd.count):
                            self.add(side_i, card_id, cd.experience, formation=f, group=grp, **kw)
                    self.class_draws += 1
                for kind in rf.formations:
                    fgrp = self.group
                    self.group += 1
                    for fid, card in self.s.formation_cards.items():
                        if card.side != name or card.type != kind:
                            continue
                        f = self.formation(fid, side_i, card, entry) if fid not in self.formations \
                            else self.formations.index(fid)
                        for unit, n, exp in card.units:
                            for _ in range(n):
                                self.add(side_i, unit, exp, formation=f, group=fgrp, **kw)

    def slot_array(self) -> np.ndarray:
        out = np.full((max(1, len(self.slots)), META_WIDTH), -1, dtype=np.int32)
        for i, sl in enumerate(self.slots):
            out[i, SL_SIDE] = sl.side
            out[i, SL_TYPE] = self.type_ix[(sl.unit, sl.experience)]
            out[i, SL_HEX] = sl.hex
            out[i, SL_ZONE] = sl.zone
            out[i, SL_FACE] = sl.facing
            out[i, SL_CARRIER] = sl.carrier
            out[i, SL_ARRIVE] = sl.arrive
            out[i, SL_ENTRY] = sl.entry
            out[i, SL_FORM] = sl.formation
            out[i, SL_ROLL] = sl.roll
            out[i, SL_GROUP] = sl.group
        return out


def _unit_types(types: list[UnitType], scenario: Scenario, max_range: int) -> np.ndarray:
    aid = scenario.aid
    cards = list(dict.fromkeys(t.card.id for t in types))
    ut = np.zeros((len(types), UT_FIELDS), dtype=np.int32)
    for i, t in enumerate(types):
        c = t.card
        ut[i, UT_KIND] = KINDS.index(c.type)
        ut[i, UT_STR] = c.strength
        ut[i, UT_HALF] = c.half_strength_threshold
        ut[i, UT_MOVE] = c.movement
        ut[i, UT_MTYPE] = MOVEMENT_TYPES.index(c.movement_type)
        ut[i, UT_FAST_OK] = int(c.can_fast_action)
        ut[i, UT_TURRET] = int(c.has_turret)
        ut[i, UT_CAP] = c.transport_capacity
        ut[i, UT_RIDERS] = int(c.carries_tank_riders)
        ut[i, UT_ARMOURED] = int(c.is_armoured_vehicle)
        ut[i, UT_ELITE] = int(aid.experience(t.experience).ignores_supp)
        ut[i, UT_VALUE] = c.points
        ut[i, UT_CARD] = cards.index(c.id)
        ut[i, UT_RANGED] = int(c.has_ranged_fire)
        ut[i, UT_MAXR] = min(c.max_range, max_range)
        ut[i, UT_SUPPORT] = int(c.support)
        ut[i, UT_IND_MIN] = c.indirect_fire.min if c.indirect_fire else 0
        ut[i, UT_IND_MAX] = c.indirect_fire.max if c.indirect_fire else 0
        ut[i, UT_SMOKE] = int(c.smoke)
        ut[i, UT_CC_INIT] = int(not c.is_artillery)              # 12.0
        ut[i, UT_SLOW] = int(c.slow)
        ut[i, UT_IMMOBILE] = int(c.immobile)
        ut[i, UT_EXP] = EXPERIENCES.index(t.experience)
        ut[i, UT_LOAD_FULL] = c.strength                          # 9.11: damage ignored
        ut[i, UT_LOAD_HALF] = c.half_strength
        ut[i, UT_OVERRUN] = int(c.is_armoured_vehicle and c.movement_type == "tracked")   # 9.10.3
    return ut


def _riders(types: list[UnitType]) -> dict:
    """``{type index: carrier card}`` for the infantry types that may ride as tank riders
    on a vehicle of their side (9.11.1, 10.10.1)."""
    out = {}
    for j, t in enumerate(types):
        if not t.card.is_infantry:
            continue
        for o in types:
            if o.card.carries_tank_riders and o.card.side == t.card.side:
                out[j] = o.card
                break
    return out


# The engine's line-of-sight tables (near_tables) reach ``radius`` hexes from every hex:
# about (5 + dice + 2 K) bytes for each hex and each hex within the radius (K the most
# hexes a line crosses, int16 hex numbers). Maps beyond these limits are refused, before
# any large allocation, with their size and the limit.
NEAR_TABLES_BYTES = 1 << 30
MAX_HEXES = hexgrid.MAX_HEXES   # hex numbers are int16 in the between table


WHOLE_MAP_LINES = 1_000_000   # up to this many (hex, offset) entries, the tables reach across the whole map


def sight_radius(ut: np.ndarray, n: int, diameter: int, n_dice: int) -> int:
    """How far the engine's LOS tables reach. On a map whose tables fit in
    ``WHOLE_MAP_LINES`` entries across the whole map (every shipped map), the whole map, so the
    geometry classes are every line's; else as far as the engine ever asks: the longest
    direct fire (10.1), or an indirect fire's band plus its adjacent spotter and a smoke
    hex beside the target (7.1, 7.2, 7.5). Beyond it a line is never open (tables.geo)."""
    if n * (2 * diameter + 1) ** 2 <= WHOLE_MAP_LINES:
        return max(1, diameter)
    need = max(int(ut[:, UT_MAXR].max(initial=0)), int(ut[:, UT_IND_MAX].max(initial=0)) + 2, 1)
    return max(1, min(diameter, need))


def near_table_bytes(n: int, radius: int, n_dice: int) -> int:
    w = 2 * radius + 1
    return n * w * w * (5 + n_dice + 2 * los.longest_line(radius))


def check_map_size(path, cm: CompiledMap, radius: int) -> None:
    """InputError naming the map's size and the limit when its LOS tables would not fit."""
    per_hex = near_table_bytes(1, radius, len(cm.dice_letters))
    most = min(MAX_HEXES, NEAR_TABLES_BYTES // per_hex)
    if cm.n > most:
        raise InputError(path, "map.rows", f"the {cm.cols} x {cm.rows} map has {cm.n:,} hexes: at most "
                         f"{most:,} hexes with these units (line of sight to {radius} hexes, "
                         f"{per_hex * cm.n / 2**20:,.0f} MiB of tables; limit {NEAR_TABLES_BYTES >> 20:,} MiB)")


def near_tables(cm: CompiledMap, radius: int):
    """The LOS of every line at most ``radius`` long, by axial offset from its firer
    (:func:`los.compute_los_near`): ``(code int8[n, w, w], dice int8[n, w, w, dice],
    between int16[n, w, w, K])``, w = 2 radius + 1, -1 where there is no line."""
    kmax = max(1, los.longest_line(radius))
    w = 2 * radius + 1
    between = np.full((cm.n, w, w, kmax), -1, dtype=np.int16 if cm.n <= MAX_HEXES else np.int32)
    code, dice = los.compute_los_near(cm.q, cm.r, cm.index, cm.qmin, cm.rmin, *cm._los_args()[:-1], radius,
                                      kmax, between)
    return code, dice, between


def _geometry(cm: CompiledMap, aid: Aid, code, dice, radius):
    """Geometry classes of every line of fire: target terrain, hill die, hindrances;
    numbered in the order of their first line (firer, then target by hex number), over
    the lines of :func:`near_tables`. ``geo[a, i, j]``: the class of the line from ``a``
    at offset ``(i - radius, j - radius)``, -1 when blocked or none."""
    A, I, J = np.nonzero(code[:, :, :] >= 0)
    ok = code[A, I, J] < 2
    A, I, J = A[ok].astype(np.int32), I[ok].astype(np.int32), J[ok].astype(np.int32)
    B = cm.index[cm.q[A] + I - radius - cm.qmin, cm.r[A] + J - radius - cm.rmin].astype(np.int32)
    order = np.argsort(A.astype(np.int64) * cm.n + B, kind="stable")
    A, I, J, B = A[order], I[order], J[order], B[order]
    del order
    nd = dice.shape[3]
    if nd <= 8:                                   # the dice counts (0-2 on an open line) as one number
        packed = np.zeros(len(A), dtype=np.int64)
        for k in range(nd):
            packed |= dice[A, I, J, k].astype(np.int64) << (8 * k)
        uniq, dice_id = np.unique(packed, return_inverse=True)
        uniq = [tuple((int(u) >> (8 * k)) & 255 for k in range(nd)) for u in uniq]
        del packed
    else:
        uniq, dice_id = np.unique(dice[A, I, J], axis=0, return_inverse=True)
        uniq = [tuple(int(x) for x in u) for u in uniq]
    names = [hindrance_names(aid, u, cm.name) for u in uniq]
    name_ids: dict[tuple, int] = {}
    names_of = np.array([name_ids.setdefault(x, len(name_ids)) for x in names], dtype=np.int64)
    hill = (cm.hill[B] & (cm.elevation[A] != cm.elevation[B])).astype(np.int64)
    n_terr = len(cm.terrain_names)
    key = (names_of[dice_id.ravel()] * 2 + hill) * n_terr + cm.terrain[B].astype(np.int64)
    del hill, dice_id
    uk, first, inv = np.unique(key, return_index=True, return_inverse=True)
    rank = np.empty(len(uk), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(uk))
    geo = np.full(code.shape, -1, dtype=np.int32)
    geo[A, I, J] = rank[inv.ravel()]
    name_list = list(name_ids)
    keys: dict[GeoKey, int] = {}
    for k in uk[np.argsort(first, kind="stable")]:
        k = int(k)
        terr, rest = k % n_terr, k // n_terr
        keys[GeoKey(cm.terrain_names[terr], bool(rest % 2), name_list[rest // 2])] = len(keys)
    for key in list(keys):                       # the same lines at a unit in its fallback (13.3)
        bare = GeoKey(None, False, key.hindrances)
        if bare not in keys:
            keys[bare] = len(keys)
    geos = list(keys)
    geo_bare = np.array([keys[GeoKey(None, False, k.hindrances)] for k in geos], dtype=np.int32)
    nhind = np.array([len(k.hindrances) for k in geos], dtype=np.int32)
    return geos, geo, geo_bare, nhind


def _cover(cm: CompiledMap, aid: Aid) -> np.ndarray:
    """Mean defence symbols the terrain dice give infantry in each hex (for the players)."""
    dice = aid.dice
    mean = {d.letter: sum(sum(f) for f in d.faces) / 6 for d in dice.dice}
    out = np.zeros(cm.n)
    for h in range(cm.n):
        pool = aid.terrain_defence(cm.terrain_names[cm.terrain[h]], False, on_hill=bool(cm.hill[h]))
        out[h] = sum(mean[x] for x in pool)
    return out


def _can_stand(cm: CompiledMap) -> np.ndarray:
    out = np.zeros((len(MOVEMENT_TYPES), cm.n), dtype=np.int32)
    for m in range(len(MOVEMENT_TYPES)):
        for h in range(cm.n):
            for d in range(6):
                g = cm.neighbours[h, d]
                if g >= 0 and cm.move_cost[m, g, (d + 3) % 6] >= 0:
                    out[m, h] = 1
    return out


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


def _close_combat(types: list[UnitType], scenario: Scenario, cm: CompiledMap, edition: str,
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
    """What :func:`_close_combat` gathers: the casts and directions met (each built once),
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


# ======================================================================================
# the whole scenario
# ======================================================================================


def compile_game(name_or_path, *, edition: str | None = None, overrides: dict | None = None,
                 scenario: Scenario | None = None, data: dict | None = None) -> Game:
    """Compile a scenario (a shipped name or a file) for play.

    ``overrides``: ``{"turns": 8}``, ``{"cp": {"german": 6}}``,
    ``{("count", "german", "german/rifles-41"): 3}``,
    ``{("experience", "soviet", "soviet/mmg-maxim"): "veteran"}``, ``{"initiative": "german"}``,
    ``{"history": "alternate"}`` (the alternate-history version, 5.3).
    ``data``: data files given on the command line (``{"aid": "my-aid.toml"}``), as for
    :func:`simulator.games.assault.game.scenario.load_scenario`.

    A scenario compiled before with the same data, code and overrides is read back
    from the disk cache (:mod:`simulator.games.assault.game.gamecache`).
    """
    from simulator.games.assault.game.gamecache import cached

    scenario = scenario or load_scenario(name_or_path, data)
    overrides = dict(overrides or {})
    return cached(scenario, edition, overrides, lambda: _compile(scenario, edition, overrides))


def _compile(scenario: Scenario, edition: str | None, overrides: dict) -> Game:
    """:func:`compile_game` without the cache."""
    if overrides.get("history") == "alternate":
        scenario = alternate_history(scenario)
    edition = edition or overrides.get("edition") or scenario.edition
    if edition not in EDITIONS:
        raise InputError("--edition", "", f"unknown close-combat edition {edition!r} (v1 or v2)")
    if len(scenario.sides) != 2:
        raise InputError(scenario.path, "sides", "a playable scenario has exactly two sides")
    if scenario.turns is None:
        raise InputError(scenario.path, "turns", "a playable scenario needs turns")
    cm = compile_map(scenario)
    aid = scenario.aid
    b = _Builder(scenario, cm, overrides)
    b.forces()
    draw = b.formation_cards()
    b.reinforcements()
    if not b.slots:
        raise InputError(scenario.path, "sides", "no units")
    _check_supported(b.types, b.slots, scenario)
    side_names = tuple(scenario.sides)
    max_range = cm.diameter
    ut = _unit_types(b.types, scenario, max_range)
    radius = sight_radius(ut, cm.n, max_range, len(cm.dice_letters))
    check_map_size(scenario.path, cm, radius)
    code, hdice, between = near_tables(cm, radius)
    geos, geo, geo_bare, nhind = _geometry(cm, aid, code, hdice, radius)
    del code, hdice
    support = load_support(None, aid)
    smoke = any(t.card.smoke for t in b.types)
    ft = tabulate_fire(b.types, geos, aid, max_range=max_range, support=support, smoke=smoke,
                       riders=_riders(b.types), terrains=tuple(cm.terrain_names))
    grounds = cc_grounds(scenario, cm)                  # revised 12.1.2.1, 12.1.3: [[map.features]]
    melee, cck, cc_mask, cc_loss, cc_stats, cc_pools = _close_combat(b.types, scenario, cm, edition, grounds)

    objectives = scenario.objective_list
    if len(objectives) > 30:
        raise InputError(scenario.path, "objectives", "the engine handles at most 30 objectives")
    obj_start = [-1] * len(objectives)
    for side_i, (name, side) in enumerate(scenario.sides.items()):   # 5.5: in a side's set-up area
        area = {h for z in side.zones for h in scenario.zone_hexes(name, z)}
        for k, o in enumerate(objectives):
            if o.hex in area and obj_start[k] == -1:
                obj_start[k] = side_i

    vic = np.zeros((2, 6), dtype=np.int32)
    sudden_all = bool(overrides.get("sudden_death", scenario.victory.sudden_death))
    for side_i, side in enumerate(scenario.sides.values()):   # 3.1, 6.6
        v = side.victory
        mask = 0
        for h in v.hold:
            mask |= 1 << [o.hex for o in objectives].index(h)
        sudden = sudden_all if (v.sudden_death is None or "sudden_death" in overrides) else v.sudden_death
        vic[side_i] = [mask, v.hold_count, v.objective_points, v.eliminate, int(not v.is_empty), int(sudden)]

    p = np.zeros(P_FIELDS + ccm.N_ROLES + 6, dtype=np.int32)
    p[P_TURNS] = int(overrides.get("turns", scenario.turns))
    init = overrides.get("initiative", scenario.initiative)
    p[P_INITIATIVE] = -1 if init == "roll" else _side_index(scenario, init, "initiative")
    p[P_SETUP_FIRST] = -1 if scenario.first_setup == "roll" else _side_index(scenario, scenario.first_setup, "first_setup")
    p[P_EDITION] = 1 if edition == "v1" else 2
    p[P_CP_RULE] = int(scenario.optional_rules.command_points)
    p[P_SUDDEN] = int(vic[:, 5].any())
    neither = scenario.victory.if_neither
    p[P_IF_NEITHER] = -1 if neither == "draw" else _side_index(scenario, neither, "victory.if_neither")
    p[P_CC_STACK] = 2 if edition == "v1" else 1          # 9.0 item 3; revised 12.0
    p[P_FAST_UPHILL] = int(aid.hill.fast_action_uphill)
    p[P_MAX_SMOKE] = support.max_markers_per_hex
    p[P_SMOKE_DECAY] = support.removed_per_turn
    p[P_MIN_CP] = MIN_COMMAND_POINTS
    p[P_CP_ALWAYS] = int(overrides.get("cp_minimum", scenario.optional_rules.command_point_minimum) == "always")
    p[P_FALLBACK_EVER] = int(overrides.get("second_fallback", scenario.optional_rules.second_fallback) == "ever")
    p[P_N_OBJ] = len(objectives)
    p[P_NEED_SUPPORT] = int(any(t.card.support or t.card.is_artillery for t in b.types))   # 6.3, 7.6
    p[P_HAS_VEHICLES] = int(any(t.card.is_vehicle for t in b.types))
    p[P_MAXR] = max_range
    p[P_TRANSPORT] = int(any(t.card.transport_capacity > 0 for t in b.types))   # 9.11
    p[P_OVERRUN] = int(any(can_overrun(x.card, y.card) for x in b.types for y in b.types))   # 9.10.3
    p[P_NCCT] = len(grounds.pairs)                       # close combat's grounds (Grounds)
    cp = overrides.get("cp", {})
    for side_i, name in enumerate(side_names):
        p[P_BASE_CP0 + side_i] = int(cp.get(name, 0))

    t = _pack(cm, aid, support, geo, between, geo_bare, nhind, ut, ft, melee, cck, cc_mask, cc_loss, cc_stats, b, draw,
              vic, objectives, obj_start, p, len(b.types))
    t.hexi[:, HI_CCT] = grounds.of_hex                   # revised 12.1.2.1, 12.1.3 (rulings S25)
    t.hexi[:, HI_FORTFACE] = grounds.fort_face
    t.hexi[:, HI_WIRE] = grounds.wire
    _check_cp(scenario, t.p, b)
    return Game(scenario, cm, t, side_names, b.types, b.slots, b.formations, b.zone_names, edition,
                {k: v for k, v in overrides.items()}, ft.atk_pools, ft.def_pools, cc_pools)


def _cumulative_odds(p_dmg: np.ndarray, p_morale: np.ndarray) -> np.ndarray:
    """``odds[a, d, :, k]`` for a target with ``k`` strength points left: P(eliminated)
    = P(damage >= k), E[strength points taken] = E[min(damage, k)], P(morale hit and
    survives) = P(damage < k and a crit or supp uncancelled). One look-up each."""
    bins = p_dmg.shape[2]
    out = np.zeros(p_dmg.shape[:2] + (3, bins), dtype=np.float64)
    for k in range(bins):
        out[:, :, 0, k] = p_dmg[:, :, k:].sum(axis=2)
        dmg = np.minimum(np.arange(bins), k)
        out[:, :, 1, k] = (p_dmg * dmg).sum(axis=2)
        out[:, :, 2, k] = p_morale[:, :, :k].sum(axis=2)
    return out


def _terrain_damage(cm: CompiledMap, aid: Aid, types: list[UnitType]):
    """9.10.1: the vehicle-damage attack pool of each hex (terrain, hill row) and each
    vehicle type's defence (its strongest card die), from ``vehicle_terrain.terrain_pools``."""
    vehicles = [t.card for t in types if t.card.is_vehicle]
    hex_pool = [()] * cm.n
    def_pool: list[tuple] = [()] * len(types)
    if not vehicles:
        return hex_pool, def_pool
    for h in range(cm.n):
        for card in vehicles:
            try:
                attack, _, _ = terrain_pools(card, cm.terrain_names[cm.terrain[h]], aid, hill=bool(cm.hill[h]))
            except InputError:
                continue
            hex_pool[h] = tuple(attack)
            break
    for i, t in enumerate(types):
        if t.card.is_vehicle:
            best = t.card.strongest_defence_die(aid.dice)
            def_pool[i] = (best,) if best else ()
    return hex_pool, def_pool


def _into_cc_parts(icc, n_atk) -> list[np.ndarray]:
    """10.11: the block of fire into a close combat in ``keys`` (``tables.icc_*``): a header
    (where each table starts in the block, the keep masks' width), the two defence tables
    (pool ids shifted past the attack pools) and the success-dice masks. None: no block."""
    if icc is None:
        return []
    shift = [np.where(x >= 0, x + n_atk, -1).astype(np.int32).ravel() for x in (icc.infantry, icc.friendly)]
    keep = icc.keep.astype(np.int32)
    head = np.array([ICC_HEAD, ICC_HEAD + len(shift[0]), ICC_HEAD + len(shift[0]) + len(shift[1]),
                     keep.shape[1]], dtype=np.int32)
    return [head, shift[0], shift[1], keep.ravel()]


def _pack(cm, aid, support, geo, between, geo_bare, nhind, ut, ft, melee, cck, cc_mask, cc_loss, cc_stats, b, draw, vic,
          objectives, obj_start, p, n_types) -> Tables:
    """Lay every table out in the few arrays of :class:`Tables`."""
    n = cm.n
    hexi = np.zeros((n, HI_FIELDS), dtype=np.int64)
    hexi[:, HI_TDMG] = -1
    hexi[:, HI_TERRAIN] = cm.terrain
    hexi[:, HI_ELEV] = cm.elevation
    hexi[:, HI_HILL] = cm.hill
    hexi[:, HI_OBJ] = -1
    for k, o in enumerate(objectives):
        hexi[cm.index_of(o.hex), HI_OBJ] = k
    hexi[:, HI_NOIND] = [int(cm.terrain_names[x] in support.no_indirect_from) for x in cm.terrain]
    hexi[:, HI_Q] = cm.q
    hexi[:, HI_R] = cm.r
    hexi[:, HI_STAND:HI_STAND + len(MOVEMENT_TYPES)] = _can_stand(cm).T
    hexi[:, HI_FREEFACE] = cm.free_facing.astype(np.int64)
    side6 = np.zeros((n, 6, S6_FIELDS), dtype=np.int64)
    side6[:, :, S6_NBR] = cm.neighbours
    side6[:, :, S6_CLIMB] = cm.climb
    for m in range(len(MOVEMENT_TYPES)):
        side6[:, :, S6_COST + m] = cm.move_cost[m]
    geoi = np.stack([geo_bare, nhind], axis=1).astype(np.int64)

    # ranged pools: attack pools, defence pools, then the two critical-hit rows
    # then the terrain-damage pools (9.10.1)
    n_atk, n_def = ft.atk_rows.shape[0], ft.def_rows.shape[0]
    hex_pool, def_pool = _terrain_damage(cm, aid, b.types)
    td = sorted({x for x in hex_pool if x})
    td_def = sorted({x for x in def_pool if x})
    td_rows = [packed_faces(x, (), aid.dice, "all") for x in td] + [packed_faces((), x, aid.dice, "all")
                                                                      for x in td_def]
    n_fixed = n_atk + n_def + 2
    width = max([ft.atk_rows.shape[1], ft.def_rows.shape[1], ft.crit_g.shape[0]] + [r.shape[0] for r in td_rows])
    rows = np.zeros((n_fixed + len(td_rows), width, 6), dtype=np.int64)
    rows[:n_atk, :ft.atk_rows.shape[1]] = ft.atk_rows
    rows[n_atk:n_atk + n_def, :ft.def_rows.shape[1]] = ft.def_rows
    rows[n_atk + n_def, :ft.crit_g.shape[0]] = ft.crit_g
    rows[n_atk + n_def + 1, :ft.crit_b.shape[0]] = ft.crit_b
    pooli = np.zeros((n_fixed + len(td_rows), 2), dtype=np.int64)
    pooli[:n_atk, PO_N] = ft.atk_n
    pooli[:n_atk, PO_EXTRA] = ft.atk_extra
    pooli[n_atk:n_atk + n_def, PO_N] = ft.def_n
    pooli[n_atk + n_def:n_fixed, PO_N] = ft.crit_g.shape[0]
    for k, r in enumerate(td_rows):
        rows[n_fixed + k, :r.shape[0]] = r
        pooli[n_fixed + k, PO_N] = r.shape[0]
    hexi[:, HI_TDMG] = [n_fixed + td.index(x) if x else -1 for x in hex_pool]
    nb = cm.neighbours
    side6[:, :, S6_TDMG] = np.where(nb >= 0, hexi[np.maximum(nb, 0), HI_TDMG] >= 0, False)   # 9.10.3
    ut = ut.copy()
    ut[:, UT_TDEF] = [n_fixed + len(td) + td_def.index(x) if x else -1 for x in def_pool]
    ut[:, UT_RIDEDEF] = np.where(ft.rider_def >= 0, ft.rider_def + n_atk, -1)     # 10.10.1
    def_key = np.where(ft.def_key >= 0, ft.def_key + n_atk, -1).astype(np.int32)
    odds = _cumulative_odds(ft.p_dmg, ft.p_morale)

    last_shot = ft.last_shot.copy()
    last_shot[..., 1] = np.where(last_shot[..., 1] >= 0, last_shot[..., 1] + n_atk, -1)   # 9.10.3
    parts = [ft.atk_key.ravel(), ft.band_of.ravel(), def_key.ravel(), ft.spot_need.astype(np.int32).ravel(),
             last_shot.ravel()]
    parts += _support_parts(ft.support, n_atk)                                     # chapter 7
    p[P_O_ICC] = sum(len(x) for x in parts) if ft.into_cc is not None else -1     # 10.11
    parts += _into_cc_parts(ft.into_cc, n_atk)
    pfire = ft.passenger_fire.copy()                                               # revised 12.4
    pfire[..., 1] = np.where(pfire[..., 1] >= 0, pfire[..., 1] + n_atk, -1)
    p[P_O_PFIRE] = sum(len(x) for x in parts)
    parts.append(pfire.ravel())
    offsets = np.cumsum([0] + [len(x) for x in parts])
    keys = np.concatenate(parts).astype(np.int32)
    p[P_O_ATK], p[P_O_BAND], p[P_O_DEF], p[P_O_SPOT], p[P_O_OVR] = offsets[:5]
    if ft.support is not None:
        p[P_O_IND], p[P_O_INDDEF], p[P_O_INDSPOT], p[P_O_SMOKE] = offsets[5:9]
    p[P_NT] = n_types
    p[P_NB] = ft.atk_key.shape[2]
    p[P_NR] = ft.band_of.shape[1]
    p[P_NG] = ft.def_key.shape[1]
    p[P_NSMOKE] = ft.def_key.shape[2]
    p[P_NAREA] = ft.def_key.shape[5]
    p[P_NOUT] = ft.spot_need.shape[4]
    p[P_NTERR] = len(cm.terrain_names)
    p[P_NROLES] = ccm.N_ROLES
    p[P_NFLAGS] = ccm.N_FLAGS
    p[P_CRIT_G] = n_atk + n_def
    p[P_CRIT_B] = n_atk + n_def + 1
    p[P_CRIT_MAX] = ft.crit_g.shape[0]
    p[P_N_ATK] = n_atk
    p[P_FIELDS:P_FIELDS + ccm.N_ROLES] = cc_mask
    p[ccm.P_PREREQ_FACES:ccm.P_PREREQ_FACES + 6] = melee.prereq_faces

    cci = np.zeros((len(melee.n_attack), CI_FIELDS), dtype=np.int64)
    cci[:, CI_NATK] = melee.n_attack
    cci[:, CI_NDEF] = melee.n_defence
    cci[:, CI_ATK_REROLLS] = melee.attack_rerolls
    cci[:, CI_DEF_REROLLS] = melee.defence_rerolls
    cci[:, CI_EXTRA] = melee.extra_supp
    cci[:, CI_ADRENALINE] = melee.adrenaline
    cci[:, CI_TRACKS] = melee.tracks
    cci[:, CI_PREREQ] = melee.prereq

    slots = b.slot_array()
    meta_rows = [slots]
    p[P_N_UNITS] = len(b.slots)
    p[P_O_FORM] = sum(len(x) for x in meta_rows)
    forms = np.zeros((max(1, len(b.form_rows)), META_WIDTH), dtype=np.int32)
    for i, r in enumerate(b.form_rows):
        forms[i, :FO_FIELDS] = r
    meta_rows.append(forms)
    p[P_N_FORMS] = len(b.form_rows)
    p[P_O_VIC] = sum(len(x) for x in meta_rows)
    v = np.zeros((2, META_WIDTH), dtype=np.int32)
    v[:, :vic.shape[1]] = vic
    meta_rows.append(v)
    p[P_O_OBJ] = sum(len(x) for x in meta_rows)
    ob = np.zeros((max(1, len(objectives)), META_WIDTH), dtype=np.int32)
    for k, o in enumerate(objectives):
        ob[k, OB_HEX] = cm.index_of(o.hex)
        ob[k, OB_VALUE] = o.value
        ob[k, OB_START] = obj_start[k]
    meta_rows.append(ob)
    p[P_O_DRAW] = sum(len(x) for x in meta_rows)
    dr = np.zeros((6, META_WIDTH), dtype=np.int32)
    dr[:, :2] = draw.reshape(6, 2)
    meta_rows.append(dr)
    meta = np.concatenate(meta_rows).astype(np.int64)

    p[P_N_ZONES] = len(b.zones)
    starts = np.zeros(len(b.zones) + 1, dtype=np.int64)
    for i, z in enumerate(b.zones):
        starts[i + 1] = starts[i] + len(z)
    zones = np.concatenate([starts, np.array([h for z in b.zones for h in z], dtype=np.int64)]).astype(np.int64)

    cover = _cover(cm, aid)
    p[P_O_COVER] = 0
    p[P_O_CCLOSS] = n
    p[P_O_CC] = n + cc_loss.size          # close-combat pool statistics (CC_STATS each)
    fconst = np.concatenate([cover, cc_loss.ravel(), cc_stats.ravel()]).astype(np.float64)
    return Tables(hexi=hexi, side6=side6, near=geo, between=between, geoi=geoi,
                  ut=ut.astype(np.int64), p=p.astype(np.int64),
                  rows=rows, pooli=pooli, keys=keys, odds=odds, cc_faces=melee.faces.astype(np.int64),
                  cc_gain=melee.gain.astype(np.float64), cci=cci, cck=cck, meta=meta, zones=zones, fconst=fconst)


def _support_parts(sup, n_atk: int) -> list[np.ndarray]:
    """The support phase's key blocks (chapter 7), defence pools moved past the attack pools."""
    if sup is None:
        return []
    ind_def = np.where(sup.ind_def >= 0, sup.ind_def + n_atk, -1)
    return [sup.ind_atk.ravel(), ind_def.ravel(), sup.ind_spot.ravel(), sup.smoke_atk.ravel()]


def _check_cp(scenario: Scenario, p: np.ndarray, b: _Builder) -> None:
    """With command points on, each side needs a source of them (4.9.2)."""
    if not p[P_CP_RULE]:
        return
    for side_i in range(len(scenario.sides)):
        has_cards = any(r[FO_SIDE] == side_i and r[FO_TYPE] != FO_CLASS for r in b.form_rows)
        if not has_cards and p[P_BASE_CP0 + side_i] == 0:
            p[P_BASE_CP0 + side_i] = MIN_COMMAND_POINTS   # 10.7.3: never fewer than four

