"""``[[sides.*.reinforcements]]`` (5.7): their turn, entry hexes, units, class draws
and formations."""

from __future__ import annotations

from simulator.games.assault.game.scenario_checks.base import CheckBase
from simulator.games.assault.game.scenario_format import Reinforcement
from simulator.games.assault.rules.cards import UnitCard


class ReinforcementChecks(CheckBase):
    """``[[sides.*.reinforcements]]``."""

    def check_reinforcement(self, side: str, key: str, rf: Reinforcement) -> None:
        turns = self.raw.get("turns")
        if isinstance(turns, int) and rf.turn > turns:
            self.r.error(f"{key}.turn", f"turn {rf.turn} is after the last turn ({turns})")
        entry = self.specs_ok(rf.entry, f"{key}.entry")
        if not (rf.units or rf.draw_class or rf.formations):
            self.r.error(key, "brings nothing: give units, draw_class or formations (5.7)")
        cards: list[UnitCard] = []
        for j, u in enumerate(rf.units):
            c = self.card(u.unit, side, f"{key}.units[{j}].unit")
            if c is not None:
                cards.append(c)
                if self.s is not None:
                    u.unit = c.id
            self.check_carrying(side, f"{key}.units[{j}]", c, u.carrying)
        for j, d in enumerate(rf.draw_class):
            if d.type not in self.unit_rules:
                self.r.error(f"{key}.draw_class[{j}].type", f"the scenario uses only the "
                             f"{', '.join(self.unit_rules)} rules")
            match = [u for u in self.units.values()
                     if u.side == side and u.type == d.type and u.unit_class == d.unit_class]
            if self.units and not match:
                classes = sorted({u.unit_class for u in self.units.values()
                                  if u.side == side and u.type == d.type})
                self.r.error(f"{key}.draw_class[{j}].class", f"side {side} has no {d.type} of class "
                             f"{d.unit_class!r} (5.7; classes: {', '.join(classes)})")
            cards.extend(match[:1] * d.count)
        for j, t in enumerate(rf.formations):
            if t not in self.unit_rules:
                self.r.error(f"{key}.formations[{j}]", f"the scenario uses only the "
                             f"{', '.join(self.unit_rules)} rules")
            if self.formations and not any(c.side == side and c.type == t
                                           for c in self.formations.values()):
                self.r.error(f"{key}.formations[{j}]", f"side {side} has no {t} formation card (5.7)")
        if self.board is not None and self.aid is not None and entry:
            for mt in sorted({c.movement_type for c in cards}):
                if not any(self.aid.movement_cost(self.board.terrain[self.board.grid.index_of(h)], mt)
                           is not None for h in entry):
                    self.r.error(f"{key}.entry", f"no entry hex allows {mt} movement (9.4)")
