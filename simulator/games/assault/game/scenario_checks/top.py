"""The top-level keys: the two sides' names and factions (5.2), ``turns``,
``first_setup`` (5.8), ``initiative`` (6.1), ``victory.if_neither`` and ``unit_rules``."""

from __future__ import annotations

from simulator.games.assault.game.scenario_checks.base import CheckBase
from simulator.games.assault.game.scenario_format import Side
from simulator.games.assault.rules.cards import NAME_PATTERN
from simulator.run.vocabulary import UNIT_TYPES


class TopChecks(CheckBase):
    """The top-level keys."""

    def check_top(self, sides: dict[str, Side]) -> None:
        raw_sides = self.raw.get("sides")
        names = list(raw_sides) if isinstance(raw_sides, dict) else []
        if names and len(names) != 2:
            self.r.error("sides", f"a scenario has two sides (got {len(names)}: {', '.join(names)})")
        for name in names:
            if not NAME_PATTERN.fullmatch(name):
                self.r.error(f"sides.{name}", "side names are lower case, e.g. german, soviet")
            elif self.units and not any(u.side == name for u in self.units.values()):
                known = sorted({u.side for u in self.units.values()})
                self.r.error(f"sides.{name}", f"no unit cards of side {name!r} "
                             f"(unit files have: {', '.join(known)})")
        if names and self.raw.get("turns") is None:
            self.r.error("turns", "required key is missing (a scenario with sides is played "
                         "over a number of turns)")
        factions = [s.faction for s in sides.values()]
        if len(factions) == 2 and factions[0] == factions[1]:
            self.r.error(f"sides.{list(sides)[1]}.faction",
                         f"both sides are {factions[0]}: one is blue, the other red (5.2)")
        for key in ("first_setup", "initiative"):
            value = self.raw.get(key, "roll")
            if isinstance(value, str) and value != "roll" and value not in names:
                self.r.error(key, f"must be \"roll\" or a side ({', '.join(names) or 'none given'}), "
                             f"got {value!r}")
        victory = self.raw.get("victory", {})
        if isinstance(victory, dict):
            v = victory.get("if_neither", "draw")
            if isinstance(v, str) and v != "draw" and v not in names:
                self.r.error("victory.if_neither", f"must be \"draw\" or a side, got {v!r}")
        rules = self.raw.get("unit_rules")
        self.unit_rules = tuple(rules) if isinstance(rules, list) else UNIT_TYPES
        self.check_unplayed_rules()

    def check_unplayed_rules(self) -> None:
        """A warning for the optional rules the engine reads and does not play: command
        cards (4.9.1) and their hand limit (6.2.1) have no card texts to play (rulings S12),
        so a scenario that asks for them plays without them."""
        optional = self.raw.get("optional_rules")
        if not isinstance(optional, dict):
            return
        if optional.get("command_cards") is True:
            self.r.warn("optional_rules.command_cards", "command cards (4.9.1) are not played: the rule book gives "
                        "no card texts (rulings S12); the scenario plays without them")
        limit = optional.get("hand_limit")
        if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0:
            self.r.warn("optional_rules.hand_limit", "the hand limit (6.2.1) counts command cards, which are not "
                        "played (rulings S12): it has no effect")
