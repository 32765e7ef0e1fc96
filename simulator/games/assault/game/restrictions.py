"""Restricted play's names for Assault: what ``--restrict SIDE:WHAT`` may forbid, and
the players' parameters that forbid it (Jaffe et al., AIIDE 2012).

``WHAT`` is ``unit=<card id>`` (that side never activates the card's units) or one of
:data:`RESTRICTIONS`, a kind of choice named in the game's words. What each forbids,
action by action, is :func:`simulator.games.assault.game.restrict.forbidden`; a decision
where the restriction would leave nothing legal keeps every action
(:func:`simulator.engine.players.base.legal_for`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from simulator.engine.players.base import RS_CARDS, RS_KINDS
from simulator.games.assault.game.restrict import MAX_CARDS, X_ENTER_CC, X_OVERRUN
from simulator.games.assault.game.state import (
    K_ART_FACE,
    K_DIG,
    K_DISMOUNT,
    K_FAST,
    K_FIRE,
    K_FIREMOVE,
    K_INDIRECT,
    K_INTO_CC,
    K_LEAVE,
    K_LOAD,
    K_MOVE,
    K_MOVEFIRE,
    K_REACT,
    K_RENEW,
    K_REVERSE,
    K_SMOKE,
    K_TURRET,
    K_WITHDRAW,
)
from simulator.run.errors import InputError
from simulator.run.suggest import did_you_mean


@dataclass(frozen=True)
class Restriction:
    """One kind of choice a side may be denied: the action kinds (and ``restrict.X_*``
    bits) it forbids, the rule sections, what it means, and whether a side's unit cards
    can make that choice at all (``--restrict-all`` plays only those)."""

    name: str
    bits: tuple[int, ...]
    sections: str
    meaning: str
    applies: Callable[[list], bool]

    @property
    def mask(self) -> int:
        m = 0
        for b in self.bits:
            m |= 1 << int(b)
        return m


def _any(test: Callable) -> Callable[[list], bool]:
    return lambda cards: any(test(c) for c in cards)


def _always(cards: list) -> bool:
    return bool(cards)


RESTRICTIONS: dict[str, Restriction] = {r.name: r for r in (
    Restriction("close-combat", (X_ENTER_CC, K_RENEW, K_INTO_CC), "12.0, 12.3, 12.10",
                "never starts a close combat (no move into an enemy's hex), renews one or sends "
                "a passenger into one", _always),
    Restriction("fast-move", (K_FAST,), "9.2", "no fast action", _any(lambda c: c.can_fast_action)),
    Restriction("dig-in", (K_DIG,), "9.8.1", "never digs in", _any(lambda c: c.is_infantry)),
    Restriction("indirect-fire", (K_INDIRECT,), "7.1, 7.2", "no indirect fire",
                _any(lambda c: c.indirect_fire is not None)),
    Restriction("smoke", (K_SMOKE,), "7.5", "no smoke", _any(lambda c: c.smoke)),
    Restriction("move", (K_MOVE,), "9.1", "no normal move", _always),
    Restriction("move-and-fire", (K_MOVEFIRE,), "9.3", "no move and fire",
                _any(lambda c: not c.is_artillery)),
    Restriction("fire-and-move", (K_FIREMOVE,), "9.4", "no fire and move", _any(lambda c: not c.is_artillery)),
    Restriction("fire", (K_FIRE,), "10.0, 10.11", "no fire action (fire into a close combat included)",
                _always),
    Restriction("turret-fire", (K_TURRET,), "10.6", "no turret fire", _any(lambda c: c.has_turret)),
    Restriction("reaction-fire", (K_REACT,), "8.2", "never fires in reaction", _always),
    Restriction("reverse", (K_REVERSE,), "9.10", "no vehicle reverses", _any(lambda c: c.is_vehicle)),
    Restriction("overrun", (X_OVERRUN,), "9.10.3", "no vehicle overruns artillery", _any(lambda c: c.is_vehicle)),
    Restriction("withdraw", (K_WITHDRAW, K_LEAVE), "12.6, revised 12.1.6.1", "never leaves a close combat",
                _always),
    Restriction("load", (K_LOAD,), "9.11.2", "never boards a vehicle", _any(lambda c: c.transport_capacity > 0)),
    Restriction("dismount", (K_DISMOUNT,), "9.11.3", "never dismounts (but in an emergency, 10.10.3)",
                _any(lambda c: c.transport_capacity > 0)),
    Restriction("turn-artillery", (K_ART_FACE,), "7.6", "never turns artillery in the support phase",
                _any(lambda c: c.is_artillery)),
)}
UNIT_PREFIX = "unit="
OPTION = "--restrict"


def describe_all() -> str:
    """The names ``--restrict`` takes, for help texts and errors."""
    return "unit=CARD, " + ", ".join(RESTRICTIONS)


@dataclass(frozen=True)
class Asked:
    """One restriction asked for: the side (its index and name) and what it forbids,
    ``unit=<card id>`` (``card`` the full id, ``german/rifles-41``) or a name of
    :data:`RESTRICTIONS`."""

    side: int
    side_name: str
    what: str
    card: str | None = None

    @property
    def label(self) -> str:
        return f"{self.side_name}:{self.what}"


def parse_restriction(text: str, scenario) -> Asked:
    """``"german:unit=rifles-41"``, ``"soviet:close-combat"`` -> :class:`Asked`, checked
    against the scenario's sides and unit cards. Raises InputError (one line)."""
    side_name, colon, what = text.strip().partition(":")
    side_name, what = side_name.strip(), what.strip()
    sides = list(scenario.sides)
    if not colon or not side_name or not what:
        raise InputError(OPTION, text, f"write SIDE:WHAT, e.g. {sides[0]}:close-combat or "
                                       f"{sides[0]}:unit=CARD ({describe_all()})")
    if side_name not in sides:
        raise InputError(OPTION, text, f"unknown side {side_name!r}{did_you_mean(side_name, sides)} "
                                       f"(sides: {', '.join(sides)})")
    side = sides.index(side_name)
    if what.startswith(UNIT_PREFIX):
        card = what[len(UNIT_PREFIX):].strip().lower()
        cards = side_cards(scenario, side_name)
        uid = card if "/" in card else f"{side_name}/{card}"
        if uid not in cards:
            short = [c.split("/", 1)[1] for c in cards]
            raise InputError(OPTION, text, f"unknown unit card {card!r} of {side_name}"
                                           f"{did_you_mean(card.split('/')[-1], short)} "
                                           f"(cards: {', '.join(short) or 'none'})")
        return Asked(side, side_name, f"{UNIT_PREFIX}{uid.split('/', 1)[1]}", uid)
    if what not in RESTRICTIONS:
        raise InputError(OPTION, text, f"unknown restriction {what!r}{did_you_mean(what, RESTRICTIONS)} "
                                       f"({describe_all()})")
    return Asked(side, side_name, what)


def side_cards(scenario, side_name: str) -> list[str]:
    """The ids of the unit cards ``side_name`` fields (forces, reinforcements, formations),
    in the scenario's order."""
    return [uid for uid, card in scenario.units.items() if card.side == side_name]


def every_restriction(scenario, side_text: str, fielded: list[str] | None = None) -> list[Asked]:
    """``--restrict-all SIDE``: each unit card of the side (of ``fielded``, the compiled
    game's cards, when given) and each kind of choice its cards can make."""
    sides = list(scenario.sides)
    name = side_text.strip()
    if name not in sides:
        raise InputError("--restrict-all", side_text, f"unknown side {name!r}{did_you_mean(name, sides)} "
                                                      f"(sides: {', '.join(sides)})")
    ids = [c for c in side_cards(scenario, name) if fielded is None or c in fielded]
    cards = [scenario.units[c] for c in ids]
    side = sides.index(name)
    out = [Asked(side, name, f"{UNIT_PREFIX}{c.split('/', 1)[1]}", c) for c in ids]
    out += [Asked(side, name, r.name) for r in RESTRICTIONS.values() if r.applies(cards)]
    return out


def restricted_params(asked: Asked, card_names: list[str], params: np.ndarray) -> np.ndarray:
    """A copy of the players' ``params`` with ``asked``'s restriction set for its side
    (``card_names``: the compiled game's unit cards, in ``UT_CARD`` order)."""
    out = params.copy()
    if asked.card is not None:
        if asked.card not in card_names:
            raise InputError(OPTION, asked.label, f"the scenario fields no unit of card {asked.card!r}")
        j = card_names.index(asked.card)
        if j >= MAX_CARDS:
            raise InputError(OPTION, asked.label, f"restricted play handles at most {MAX_CARDS} unit cards "
                                                  f"in a scenario (this one has {len(card_names)})")
        out[RS_CARDS + asked.side] |= np.int64(1 << j)
    else:
        out[RS_KINDS + asked.side] |= np.int64(RESTRICTIONS[asked.what].mask)
    return out
