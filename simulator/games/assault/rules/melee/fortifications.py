"""Fortifications (revised 12.1.3, 12.1.3.1, 12.1.3.2) as data.

The revised close-combat chapter names sandbag positions, trenches, gun positions,
bunkers and pillboxes; a fortification's defence dice depend on the side the assault
unit attacks from. The values live in the player's aid, table ``[fortification.NAME]``
of ``scenarios/assault/aid.toml`` (``front``, ``flank``, ``rear`` pool strings and a
``source``); only the bunker's front is stated (revised 12.6 step 5), the rest are
reconstructed and say so.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from simulator.games.assault.rules.aid import Aid
from simulator.games.assault.rules.dice import DiceSet, Pool, parse_pool_at
from simulator.run.datafile import read_toml, validate
from simulator.run.errors import InputError

SIDES = ("front", "flank", "rear")


class _FortificationModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    front: str
    flank: str
    rear: str
    source: str = Field(min_length=1)


@dataclass(frozen=True)
class Fortification:
    """One fortification: defence dice per side attacked from, strongest first."""

    name: str
    sides: tuple[tuple[str, Pool], ...]
    source: str

    def dice(self, side: str) -> Pool:
        """The defence unit's dice when the assault unit attacks from ``side`` (12.1.3.1)."""
        return dict(self.sides)[side]

    def all_dice(self) -> Pool:
        return tuple(d for _, pool in self.sides for d in pool)


def load_fortifications(aid: Aid) -> dict[str, Fortification]:
    """The ``[fortification.*]`` tables of the aid file the ``aid`` was loaded from."""
    raw = read_toml(aid.path).get("fortification", {})
    if not isinstance(raw, dict):
        raise InputError(aid.path, "fortification", "must be a table of fortifications")
    out = {}
    for name, table in raw.items():
        key = f"fortification.{name}"
        model = validate(_FortificationModel, table, aid.path, key)
        sides = tuple((s, parse_pool_at(getattr(model, s), aid.dice, aid.path, f"{key}.{s}")) for s in SIDES)
        out[name] = Fortification(name, sides, model.source)
    return out


def fortification(aid: Aid, name: str) -> Fortification:
    known = load_fortifications(aid)
    key = name.strip().lower().replace(" ", "-").replace("_", "-")
    if key not in known:
        raise InputError("--fortification", "", f"unknown fortification {name!r} "
                         f"(aid {aid.name} knows: {', '.join(known) or 'none'})")
    return known[key]


def strongest(pool: Pool, dice: DiceSet) -> Pool:
    """The strongest die of a pool, as a one-die pool (empty for an empty pool)."""
    return (min(pool, key=dice.rank),) if pool else ()
