"""``[[sides.*.units]]``: a side's set-up forces (5.8): a fixed hex or a zone, ground its
movement type may stand on (9.4), facings (9.8), loads (9.11), room in the zones."""

from __future__ import annotations

from typing import Any

from simulator.engine.core.hexgrid import parse_facing
from simulator.games.assault.game.scenario_checks.base import CheckBase
from simulator.games.assault.game.scenario_format import Force, Passenger, canon_hex
from simulator.games.assault.rules.cards import UnitCard
from simulator.run.errors import InputError


class ForceChecks(CheckBase):
    """``[[sides.*.units]]`` and the room in the set-up zones."""

    def check_force(self, side: str, key: str, force: Force, zones: dict[str, list[str]],
                    zone_load: dict[str, list[UnitCard]]) -> None:
        card = self.card(force.unit, side, f"{key}.unit")
        if force.hex is None and force.zone is None:
            self.r.error(key, "give a fixed hex or a set-up zone (5.8)")
        if force.hex is not None and force.zone is not None:
            self.r.error(f"{key}.zone", "give a fixed hex or a set-up zone, not both")
        if force.hex is not None:
            if force.count != 1:
                self.r.error(f"{key}.count", f"{force.count} units cannot share one fixed hex "
                             f"(stacking limit one unit per hex, 5.8, 9.0): list them one by one")
            if self.hex_ok(force.hex, f"{key}.hex"):
                hx = canon_hex(force.hex)
                if hx in self.occupied:
                    self.r.error(f"{key}.hex", f"hex {hx} already holds {self.occupied[hx]} "
                                 f"(stacking limit one unit per hex, 5.8, 9.0)")
                self.occupied[hx] = key
                if card is not None:
                    self.check_ground(card, hx, f"{key}.hex")
        if force.zone is not None:
            if force.zone not in zones:
                self.r.error(f"{key}.zone", f"no set-up zone {force.zone!r} in this side's "
                             f"zones ({', '.join(zones) or 'none defined'})")
            elif card is not None:
                zone_load[force.zone].extend([card] * force.count)
        self.check_facing(card, force.facing, f"{key}.facing")
        self.check_carrying(side, key, card, force.carrying)

    def check_ground(self, card: UnitCard, hx: str, key: str) -> None:
        """A unit may not be set up where its movement type may not go (9.4)."""
        if self.board is None or self.aid is None:
            return
        h = self.board.grid.index_of(hx)
        terrain = self.board.terrain[h]
        if self.aid.movement_cost(terrain, card.movement_type) is None:
            self.r.error(key, f"{card.id} cannot stand in {hx}: {self.board.describe(h)} is "
                         f"prohibited terrain for {card.movement_type} movement (9.4)")

    def check_facing(self, card: UnitCard | None, facing: Any, key: str) -> None:
        if facing is None:
            return
        if card is not None and card.is_infantry:
            self.r.error(key, f"{card.id} is infantry: infantry has no facing (9.8)")
            return
        orientation = self.board.grid.orientation if self.board else "flat"
        try:
            parse_facing(facing, orientation, "", key)
        except InputError as exc:
            self.r.error(key, exc.problem)

    def check_carrying(self, side: str, key: str, card: UnitCard | None,
                       carrying: list[Passenger]) -> None:
        if not carrying:
            return
        if card is not None and card.transport_capacity == 0:
            self.r.error(f"{key}.carrying", f"{card.id} has no transport capacity (9.11)")
            return
        load = 0
        for j, p in enumerate(carrying):
            pkey = f"{key}.carrying[{j}].unit"
            pc = self.card(p.unit, side, pkey)
            if pc is None:
                continue
            if pc.is_vehicle:
                self.r.error(pkey, f"{pc.id} is a vehicle: only infantry and artillery are "
                             f"transported (9.11)")
            if card is not None and card.carries_tank_riders and not pc.is_infantry:
                self.r.error(pkey, f"{card.id} carries tank riders, which must be infantry (9.11.1)")
            load += pc.strength * p.count  # full strength at set-up (9.11)
        if card is not None and load > card.transport_capacity:
            self.r.error(f"{key}.carrying", f"{load} strength points aboard, but {card.id} carries "
                         f"{card.transport_capacity} (9.11, 9.11.1)")

    def check_zone_room(self, key: str, hexes: list[str], cards: list[UnitCard]) -> None:
        """Every unit set up in a zone needs a hex of its own it may stand in (5.8, 9.0, 9.4)."""
        if self.board is None or self.aid is None or not cards:
            return
        free = [h for h in hexes if h not in self.occupied]
        for mt in sorted({c.movement_type for c in cards}):
            allowed = [h for h in free if self.aid.movement_cost(
                self.board.terrain[self.board.grid.index_of(h)], mt) is not None]
            # units of this movement type and those that can stand anywhere they can
            need = sum(1 for c in cards if c.movement_type == mt)
            if len(allowed) < need:
                self.r.error(key, f"{need} {mt}-moving unit{'s' if need > 1 else ''} set up here, "
                             f"but only {len(allowed)} free hex{'es' if len(allowed) != 1 else ''} "
                             f"of the zone allow {mt} movement (prohibited terrain, 9.4; one unit "
                             f"per hex, 5.8)")
        if len(free) < len(cards):
            self.r.error(key, f"{len(cards)} units set up here but the zone has {len(free)} free "
                         f"hexes (one unit per hex, 5.8)")
