"""Support-phase data (chapter 7) and the smoke marker's LOS die (10.3, 10.9.2).

Loaded from ``scenarios/assault/support.toml`` (``--support FILE`` to swap in
another): the terrains indirect fire may not be fired from (7.1), the "above" armour
bonus against indirect fire (7.3), and the smoke limits and hindrance die (7.5, 10.3).
Pools are checked against the dice set in use and terrain names against the aid.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from simulator.games.assault.rules.aid import Aid
from simulator.games.assault.rules.dice import Pool, parse_pool_at
from simulator.run.datafile import SCENARIOS_DIR, file_digest, read_format, read_toml, validate
from simulator.run.errors import InputError

DEFAULT_SUPPORT_FILE = SCENARIOS_DIR / "assault" / "support.toml"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _IndirectModel(_Strict):
    no_fire_from: list[str]
    vehicle_bonus_if: str
    vehicle_bonus: str


class _SmokeModel(_Strict):
    max_markers_per_hex: int = Field(ge=1, le=9)
    max_hexes: int = Field(ge=1, le=9)
    removed_per_turn: int = Field(ge=0)
    los_dice: str


class _SupportFileModel(_Strict):
    name: str = Field(min_length=1)
    status: str = Field(min_length=1)
    source: str = Field(min_length=1)
    indirect_fire: _IndirectModel
    smoke: _SmokeModel


@dataclass(frozen=True)
class Support:
    """The support-phase data, checked against one dice set and one aid."""

    name: str
    status: str
    source: str
    path: str
    digest: str
    no_indirect_from: tuple[str, ...]   # 7.1
    vehicle_bonus_if: str               # 7.3: a die of this colour among the "above" dice ...
    vehicle_bonus: Pool                 # ... gives this bonus
    max_markers_per_hex: int            # 7.5
    max_hexes: int                      # 7.5
    removed_per_turn: int               # 6.5
    smoke_los_dice: Pool                # 10.3, 10.9.2: per smoke marker on the LOS

    @property
    def label(self) -> str:
        return f"{self.name}, {self.status}"


SUPPORT_FORMAT = 1  # the support.toml format (issue 44.9): 1, the first; a file of a newer format is refused


def load_support(path: str | Path | None = None, aid: Aid | None = None) -> Support:
    """Load and check the support file (default: ``scenarios/assault/support.toml``).

    ``aid`` supplies the dice set and the terrain names (default: the shipped aid).
    """
    if aid is None:
        from simulator.games.assault.rules.aid import load_aid
        aid = load_aid()
    p = Path(path) if path is not None else DEFAULT_SUPPORT_FILE
    where = str(p)
    model = validate(_SupportFileModel, read_format(read_toml(p), where, "support.toml", SUPPORT_FORMAT, {}), where)
    ind, smoke = model.indirect_fire, model.smoke
    for i, name in enumerate(ind.no_fire_from):
        if name not in aid.terrain_names:
            raise InputError(where, f"indirect_fire.no_fire_from[{i}]",
                             f"unknown terrain {name!r} (aid {aid.name} knows: {', '.join(aid.terrain_names)})")
    trigger = parse_pool_at(ind.vehicle_bonus_if, aid.dice, where, "indirect_fire.vehicle_bonus_if")
    if len(trigger) != 1:
        raise InputError(where, "indirect_fire.vehicle_bonus_if", "must name one die colour")
    return Support(
        model.name, model.status, model.source, where, file_digest(p),
        no_indirect_from=tuple(ind.no_fire_from), vehicle_bonus_if=trigger[0],
        vehicle_bonus=parse_pool_at(ind.vehicle_bonus, aid.dice, where, "indirect_fire.vehicle_bonus"),
        max_markers_per_hex=smoke.max_markers_per_hex, max_hexes=smoke.max_hexes,
        removed_per_turn=smoke.removed_per_turn,
        smoke_los_dice=parse_pool_at(smoke.los_dice, aid.dice, where, "smoke.los_dice"))


def as_support(support: Support | str | Path | None, aid: Aid) -> Support:
    """A support data set as given, or loaded from a file (``None``: the shipped one)."""
    return support if isinstance(support, Support) else load_support(support, aid)
