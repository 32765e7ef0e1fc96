"""Compiling a scenario, its forces: every unit slot of the scenario (set-up forces,
formation cards that may be drawn, reinforcements), the set-up zones and the unit types
(card + experience) they use (:class:`Builder`), the unit types' table
(:func:`unit_types_table`) and the checks of what the engine can play. Part of
:func:`simulator.games.assault.game.compile.compile_game`."""

from __future__ import annotations

import numpy as np

from simulator.engine.core.hexspec import expand_hexes
from simulator.games.assault.game.compiled import CompiledMap
from simulator.games.assault.game.pooltab import UnitType
from simulator.games.assault.game.scenario_format import Scenario
from simulator.games.assault.game.scenario_game import Slot  # noqa: E402
from simulator.games.assault.game.tables import (
    D_COUNT,
    D_METHOD,
    FO_CLASS,
    FO_SIDE,
    FO_TYPE,
    META_WIDTH,
    METHOD_CHOOSE,
    METHOD_DOUBLE,
    METHOD_DRAW,
    P_BASE_CP0,
    P_CP_RULE,
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
    UT_RIDERS,
    UT_SLOW,
    UT_SMOKE,
    UT_STR,
    UT_SUPPORT,
    UT_TURRET,
    UT_VALUE,
)
from simulator.games.assault.rules.cards import MOVEMENT_TYPES
from simulator.run.errors import InputError
from simulator.run.vocabulary import EXPERIENCE_LEVELS, UNIT_TYPES

KINDS = UNIT_TYPES               # unit kinds by their code in the tables (INFANTRY, ARTILLERY, VEHICLE)
EXPERIENCES = EXPERIENCE_LEVELS  # experience by its code in the tables (UT_EXP)
METHODS = {"choose": METHOD_CHOOSE, "draw-double": METHOD_DOUBLE, "draw": METHOD_DRAW}
MIN_COMMAND_POINTS = 4      # 10.7.3: a player always has at least four command points


def side_index(s: Scenario, name: str, where: str) -> int:
    if name not in s.sides:
        raise InputError(where, "", f"unknown side {name!r} (sides: {', '.join(s.sides)})")
    return list(s.sides).index(name)


def check_supported(types: list[UnitType], slots: list[Slot], scenario: Scenario) -> None:
    """Refuse what the engine cannot play, in one line naming the unit: an illegal load."""
    for sl in slots:
        if sl.carrier >= 0:
            check_carried(sl, slots, scenario)


def check_carried(sl: Slot, slots: list[Slot], scenario: Scenario) -> None:
    """A load set up in a vehicle must be legal (9.11, 9.11.1): ``transport.check_load``."""
    from simulator.games.assault.rules.transport import Passenger, check_load
    carrier = slots[sl.carrier]
    load = [Passenger(scenario.units[x.unit]) for x in slots if x.carrier == sl.carrier]
    check_load(scenario.units[carrier.unit], load, f"{scenario.path}: sides ({carrier.unit} carrying)")


class Builder:
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


def unit_types_table(types: list[UnitType], scenario: Scenario, max_range: int) -> np.ndarray:
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


def riders(types: list[UnitType]) -> dict:
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



def check_command_points(scenario: Scenario, p: np.ndarray, b: Builder) -> None:
    """With command points on, each side needs a source of them (4.9.2)."""
    if not p[P_CP_RULE]:
        return
    for side_i in range(len(scenario.sides)):
        has_cards = any(r[FO_SIDE] == side_i and r[FO_TYPE] != FO_CLASS for r in b.form_rows)
        if not has_cards and p[P_BASE_CP0 + side_i] == 0:
            p[P_BASE_CP0 + side_i] = MIN_COMMAND_POINTS   # 10.7.3: never fewer than four
