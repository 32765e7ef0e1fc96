"""``[sides.*.formations]``: a side's formation draws (5.6): the deck, enough cards of
each type, room in the zone for the largest draw."""

from __future__ import annotations

from simulator.games.assault.game.scenario_checks.base import CheckBase
from simulator.games.assault.game.scenario_format import FormationDraw, unit_id
from simulator.games.assault.rules.cards import UnitCard
from simulator.run.vocabulary import UNIT_TYPES


class FormationChecks(CheckBase):
    """``[sides.*.formations]``."""

    def check_formations(self, side: str, key: str, fd: FormationDraw,
                         zones: dict[str, list[str]], zone_load) -> None:
        if fd.zone is None:
            self.r.error(f"{key}.zone", "required: the set-up zone of the drawn formations' units")
        elif fd.zone not in zones:
            self.r.error(f"{key}.zone", f"no set-up zone {fd.zone!r} in this side's zones")
        cards = self._formation_deck(side, key, fd)
        for t in UNIT_TYPES:
            n = fd.count(t)
            if n:
                self._check_formation_type(key, fd, t, n, cards)
        if fd.zone in zone_load:
            zone_load[fd.zone].extend(self._largest_draw(fd, cards))

    def _formation_deck(self, side: str, key: str, fd: FormationDraw) -> list:
        """The known formation cards of the deck (every card of the side's without one);
        the deck's names made full ids."""
        deck = fd.deck
        if deck is None:
            deck = [f for f, c in self.formations.items() if c.side == side]
        cards = []
        for j, fid in enumerate(deck):
            full = unit_id(fid, side)
            c = self.formations.get(full)
            if c is None and self.formations:
                mine = sorted(f for f in self.formations if f.startswith(f"{side}/"))
                self.r.error(f"{key}.deck[{j}]", f"unknown formation card {fid!r} "
                             f"(side {side} has: {', '.join(mine)})")
                continue
            if c is not None:
                cards.append(c)
                if c.side != side:
                    self.r.error(f"{key}.deck[{j}]", f"{full} is a formation of side {c.side}")
        if fd.deck is not None and self.s is not None:
            fd.deck = [unit_id(f, side) for f in fd.deck]
        return cards

    def _check_formation_type(self, key: str, fd: FormationDraw, t: str, n: int, cards: list) -> None:
        """``n`` formation cards of type ``t`` to draw (5.6): a type the scenario uses, enough
        cards in the deck, no unit of a type it does not use."""
        if t not in self.unit_rules:
            self.r.error(f"{key}.{t}", f"the scenario uses only the {', '.join(self.unit_rules)} "
                         f"rules (unit_rules)")
        have = sum(1 for c in cards if c.type == t)
        if have < n:
            self.r.error(f"{key}.{t}", f"{n} {t} formation card{'s' if n > 1 else ''} to draw "
                         f"but the deck has {have} (5.6)")
        elif fd.method == "draw-double" and have < 2 * n:
            self.r.warn(f"{key}.{t}", f"the draw-double method (5.6) draws {2 * n} but the deck "
                        f"has {have}: the whole deck is drawn")
        for c in cards:
            for uid, _, _ in c.units:
                u = self.units.get(uid)
                if u is not None and u.type not in self.unit_rules:
                    self.r.error(f"{key}.deck", f"{c.id} holds {uid}, a {u.type} unit, but the "
                                 f"scenario uses only the {', '.join(self.unit_rules)} rules")

    def _largest_draw(self, fd: FormationDraw, cards: list) -> list[UnitCard]:
        """Room for the largest possible draw: the biggest cards of each type."""
        worst: list[UnitCard] = []
        for t in UNIT_TYPES:
            biggest = sorted((c for c in cards if c.type == t), key=lambda c: -c.unit_count)
            for c in biggest[: fd.count(t)]:
                for uid, cnt, _ in c.units:
                    if uid in self.units:
                        worst.extend([self.units[uid]] * cnt)
        return worst
