"""Restricted play for Tide of Iron (Jaffe et al., "Evaluating competitive game balance
with restricted play", AIIDE 2012): what ``lanchester toi scenario --restrict SIDE:WHAT``
may forbid, and the players' parameters that forbid it, as Assault's
(:mod:`simulator.games.assault.game.restrictions`); the games and statistics are the
shared driver's (:func:`simulator.engine.core.balance.restricted_play`).

A restriction is two bit masks in the players' parameters (``params[RS_KINDS + side]``,
``params[RS_CARDS + side]``), read by the game's ``forbidden``
(:func:`simulator.games.toi.game.playerapi.forbidden`) through the shared players' one
filter of the legal actions (:func:`simulator.engine.players.base.legal_for`):

- ``WHAT`` a name of :data:`RESTRICTIONS`: the action kinds (``state.K_*``) the side
  never takes (rulings T46);
- ``unit=UNIT``: the units of one squad or vehicle entry of the side (named as the
  what-ifs name it, :func:`simulator.games.toi.game.variants.unit_entry`: its figures, a
  vehicle's model or ``squads[K]`` / ``vehicles[K]``) are never activated: no action of
  the action phase (001 Action phase). Op fire, assault defence, set-up and transfers are
  not activations: they still do those.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from simulator.engine.players.base import RS_CARDS, RS_KINDS
from simulator.games.toi.game import tables as T
from simulator.games.toi.game.scenario import Scenario
from simulator.games.toi.game.state import (
    K_ADVANCE,
    K_AREA,
    K_ASSAULT,
    K_CUT_WIRE,
    K_DIG,
    K_EMBARK,
    K_FIRE,
    K_FIREMOVE,
    K_FORT_IN,
    K_HEAL,
    K_OPFIRE,
    K_PLACE_IN,
    K_PREP_OPFIRE,
    K_SET_OPFIRE,
    K_TRANSFER,
)
from simulator.games.toi.game.variants import unit_entry
from simulator.run.errors import InputError
from simulator.run.suggest import did_you_mean

OPTION = "--restrict"
UNIT_PREFIX = "unit="
MAX_UNITS = 63          # the units ``cards`` can name (a bit each; playerapi.forbidden)


@dataclass(frozen=True)
class Restriction:
    """One kind of choice a side may be denied: its action kinds, the rule sections, what
    it means, and whether the side (in this scenario) can make that choice at all
    (``--restrict-all`` plays only those)."""

    name: str
    kinds: tuple[int, ...]
    sections: str
    meaning: str
    applies: Callable[[Scenario, int], bool]

    @property
    def mask(self) -> int:
        m = 0
        for k in self.kinds:
            m |= 1 << int(k)
        return m


def _always(sc: Scenario, side: int) -> bool:
    return True


def _own(sc: Scenario, side: int) -> np.ndarray:
    return sc.tables.slots[sc.tables.slots[:, T.SL_SIDE] == side]


def _with_trait(trait: str) -> Callable[[Scenario, int], bool]:
    """The side fields a squad with a figure of ``trait`` (units.toml)."""
    def test(sc: Scenario, side: int) -> bool:
        figs = [f for f, name in enumerate(sc.figure_names) if sc.game.units.figures[name].has(trait)]
        return bool(any(_own(sc, side)[:, T.SL_FIG + f].any() for f in figs))
    return test


def _with_spec(*names: str) -> Callable[[Scenario, int], bool]:
    ids = [T.SPEC_NAMES.index(n) for n in names]
    return lambda sc, side: bool(np.isin(_own(sc, side)[:, T.SL_SPEC], ids).any())


def _transports(sc: Scenario, side: int) -> bool:
    own = _own(sc, side)
    models = own[own[:, T.SL_VEHICLE] == 1, T.SL_MODEL]
    return bool(len(models) and (sc.tables.vt[models, T.VT_TRANSPORT] > 0).any())


def _wire(sc: Scenario, side: int) -> bool:
    return bool(sc.tables.hexi[:, T.HI_WIRE].any())


def _forts(sc: Scenario, side: int) -> bool:
    return bool(sc.tables.hexi[:, T.HI_FORT].any()) or _with_spec("engineer")(sc, side)


def _squads(n: int) -> Callable[[Scenario, int], bool]:
    return lambda sc, side: int((_own(sc, side)[:, T.SL_VEHICLE] == 0).sum()) >= n


RESTRICTIONS: dict[str, Restriction] = {r.name: r for r in (
    Restriction("assault", (K_ASSAULT,), "001 Assault action; 002", "never assaults", _always),
    Restriction("concentrated-fire", (K_FIRE,), "001 Concentrated fire", "no concentrated fire action", _always),
    Restriction("fire-and-movement", (K_FIREMOVE,), "001 Fire and movement", "no fire and movement action",
                _always),
    Restriction("advance", (K_ADVANCE,), "001 Advance", "no advance action", _always),
    Restriction("op-fire", (K_PREP_OPFIRE, K_SET_OPFIRE, K_OPFIRE), "001 Prepare op fire; Opportunity fire",
                "never prepares op fire, sets a unit in op fire mode or fires op fire", _always),
    Restriction("area-attack", (K_AREA,), "001 Area attacks", "no area attack", _with_trait("area_attack")),
    Restriction("dig", (K_DIG,), "001 Engineer: Dig Entrenchment", "never digs an entrenchment",
                _with_spec("engineer")),
    Restriction("heal", (K_HEAL,), "001 Medic: Heal", "never heals", _with_spec("medic")),
    Restriction("cut-wire", (K_CUT_WIRE,), "001 Razor wire", "never removes razor wire", _wire),
    Restriction("transport", (K_EMBARK, K_PLACE_IN), "001 Transporting squads in vehicles",
                "never boards a vehicle (nor sets up in one)", _transports),
    Restriction("fortification", (K_FORT_IN,), "001 Entrenchments & pillboxes",
                "never enters a fortification during a move", _forts),
    Restriction("transfer", (K_TRANSFER,), "001 Status phase, 4", "never transfers a figure", _squads(2)),
)}


def describe_all() -> str:
    """The names ``--restrict`` takes, for help texts and errors."""
    return "unit=UNIT, " + ", ".join(RESTRICTIONS)


@dataclass(frozen=True)
class Asked:
    """One restriction asked for: the side (index and name) and what it forbids, a name of
    :data:`RESTRICTIONS` or ``unit=UNIT`` (``units``: the unit indices of that entry)."""

    side: int
    side_name: str
    what: str
    units: tuple[int, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.side_name}:{self.what}"


def _side(text: str, sc: Scenario, option: str, shown: str) -> int:
    sides = list(sc.side_names)
    if text not in sides:
        raise InputError(option, shown, f"unknown side {text!r}{did_you_mean(text, sides)} "
                                        f"(sides: {', '.join(sides)})")
    return sides.index(text)


def unit_asked(sc: Scenario, side: int, kind: str, k: int, shown: str) -> Asked:
    """``unit=`` the entry ``kind[k]`` of ``side``: the units it fields."""
    name = sc.side_names[side]
    units = tuple(i for i, e in enumerate(sc.entries) if e == (name, kind, k))
    if not units:
        raise InputError(OPTION, shown, f"{name}'s {kind}[{k}] fields no unit")
    if max(units) >= MAX_UNITS:
        raise InputError(OPTION, shown, f"restricted play names at most the first {MAX_UNITS} units "
                                        f"(this entry's units: {units[0]}-{units[-1]})")
    entry = getattr(sc.spec.sides[name], kind)[k]
    label = entry.figures if kind == "squads" else entry.model
    return Asked(side, name, f"{UNIT_PREFIX}{label}", units)


def parse_restriction(text: str, sc: Scenario) -> Asked:
    """``"german:assault"``, ``"american:unit=2regular+2mg"`` -> :class:`Asked`, checked
    against the scenario. Raises InputError (one line, exit status 2)."""
    side_name, colon, what = text.strip().partition(":")
    side_name, what = side_name.strip(), what.strip()
    sides = list(sc.side_names)
    if not colon or not side_name or not what:
        raise InputError(OPTION, text, f"write SIDE:WHAT, e.g. {sides[0]}:assault or {sides[0]}:unit=UNIT "
                                       f"({describe_all()})")
    side = _side(side_name, sc, OPTION, text)
    if what.startswith(UNIT_PREFIX):
        _, kind, k = unit_entry(f"unit.{side_name}.{what[len(UNIT_PREFIX):]}", sc, OPTION)
        return unit_asked(sc, side, kind, k, text)
    if what not in RESTRICTIONS:
        raise InputError(OPTION, text, f"unknown restriction {what!r}{did_you_mean(what, RESTRICTIONS)} "
                                       f"({describe_all()})")
    return Asked(side, side_name, what)


def every_restriction(sc: Scenario, side_text: str) -> list[Asked]:
    """``--restrict-all SIDE``: each squad and vehicle entry of the side, then each kind of
    choice the side can make in this scenario."""
    name = side_text.strip()
    side = _side(name, sc, "--restrict-all", side_text)
    sp = sc.spec.sides[name]
    out = [unit_asked(sc, side, kind, k, side_text) for kind in ("squads", "vehicles")
           for k in range(len(getattr(sp, kind)))]
    out += [Asked(side, name, r.name) for r in RESTRICTIONS.values() if r.applies(sc, side)]
    return out


def restricted_params(asked: Asked, params: np.ndarray) -> np.ndarray:
    """A copy of the players' ``params`` with ``asked``'s restriction set for its side."""
    out = params.copy()
    if asked.units:
        for u in asked.units:
            out[RS_CARDS + asked.side] |= np.int64(1 << u)
    else:
        out[RS_KINDS + asked.side] |= np.int64(RESTRICTIONS[asked.what].mask)
    return out
