"""Checking a scenario file beyond its shape, one module per table of the format:
``[data]`` (:mod:`.data`), ``[map]`` (:mod:`.map`), the top-level keys (:mod:`.top`),
``[[objectives]]`` (:mod:`.objectives`), a side's forces (:mod:`.forces`), formation draws
(:mod:`.formations`), reinforcements (:mod:`.reinforcements`) and victory
(:mod:`.victory`), on the shared state and helpers of :mod:`.base`. :class:`Checker`
runs them all (:func:`simulator.games.assault.game.scenario.check_scenario`) on whatever
sections validated, so one run reports the problems of every section."""

from __future__ import annotations

from simulator.engine.core.hexgrid import parse_facing
from simulator.games.assault.game.scenario_checks.data import DataChecks
from simulator.games.assault.game.scenario_checks.forces import ForceChecks
from simulator.games.assault.game.scenario_checks.formations import FormationChecks
from simulator.games.assault.game.scenario_checks.map import MapChecks
from simulator.games.assault.game.scenario_checks.objectives import ObjectiveChecks
from simulator.games.assault.game.scenario_checks.reinforcements import ReinforcementChecks
from simulator.games.assault.game.scenario_checks.top import TopChecks
from simulator.games.assault.game.scenario_checks.victory import VictoryChecks
from simulator.games.assault.game.scenario_format import Objective, Side, canon_hex, unit_id
from simulator.games.assault.rules.cards import UnitCard
from simulator.run.errors import InputError


class Checker(DataChecks, MapChecks, TopChecks, ObjectiveChecks, ForceChecks, FormationChecks,
              ReinforcementChecks, VictoryChecks):
    """The checks beyond the file's shape, every table's (see the module docstring)."""

    def run(self) -> None:
        self.load_data()
        self.check_map()
        sides = self.sides()
        self.check_top(sides)
        self.check_objectives()
        for name, side in sides.items():
            self.check_side(name, side, sides)
        if self.s is not None and not any(p.severity == "error" for p in self.r.problems):
            self.finish()

    def check_side(self, name: str, side: Side, sides: dict[str, Side]) -> None:
        base = f"sides.{name}"
        zones: dict[str, list[str]] = {}
        for zname, specs in side.zones.items():
            zones[zname] = self.specs_ok(specs, f"{base}.zones.{zname}")
            if not specs:
                self.r.error(f"{base}.zones.{zname}", "an empty set-up zone")
        zone_load: dict[str, list[UnitCard]] = {z: [] for z in zones}
        for i, force in enumerate(side.units):
            self.check_force(name, f"{base}.units[{i}]", force, zones, zone_load)
        if side.formations is not None:
            self.check_formations(name, f"{base}.formations", side.formations, zones, zone_load)
        for zname, cards in zone_load.items():
            self.check_zone_room(f"{base}.zones.{zname}", zones[zname], cards)
        for i, rf in enumerate(side.reinforcements):
            self.check_reinforcement(name, f"{base}.reinforcements[{i}]", rf)
        self.check_victory(f"{base}.victory", side.victory, name)

    def finish(self) -> None:
        """Resolve ids and facings in the validated scenario and attach the data."""
        s = self.s
        s._path = str(self.path)
        s._dice, s._aid, s._units, s._formations = self.dice, self.aid, self.units, self.formations
        s._data_chosen = dict(self.chosen)
        s._board = self.board
        orientation = self.board.grid.orientation if self.board else "flat"
        s.objectives = [Objective(hex=canon_hex(o.hex), value=o.value, name=o.name)
                        for o in s.objective_list]
        for name, side in s.sides.items():
            for f in side.units:
                f.unit = unit_id(f.unit, name)
                if f.hex is not None:
                    f.hex = canon_hex(f.hex)
                if f.facing is not None:
                    try:
                        f.facing = parse_facing(f.facing, orientation)
                    except InputError:
                        pass
                for p in f.carrying:
                    p.unit = unit_id(p.unit, name)
            for rf in side.reinforcements:
                for u in rf.units:
                    u.unit = unit_id(u.unit, name)
                    for p in u.carrying:
                        p.unit = unit_id(p.unit, name)
            side.victory.hold = [canon_hex(h) for h in side.victory.hold]
