"""Tide of Iron data files: the roster (``units.toml``) and the terrain (``terrain.toml``).

Every number a designer might change lives in those files as ``{ value, source,
reconstructed }``; this module validates them (unknown keys, wrong types and
missing values become :class:`~simulator.run.errors.InputError` naming the file and key)
and hands out typed, read-only objects. The rules code never repeats a number.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from simulator.run.datafile import SCENARIOS_DIR, file_digest, read_format, read_toml, validate
from simulator.run.errors import InputError

UNITS_FILE = SCENARIOS_DIR / "toi" / "units.toml"
TERRAIN_FILE = SCENARIOS_DIR / "toi" / "terrain.toml"

FIGURE_TRAITS = {"battle_hardened", "determination", "rally", "fast_recovery", "increased_mobility",
                 "heavy_weapon", "rapid_op_fire", "area_attack", "minimum_distance", "no_mixed_fire",
                 "no_fire_from_buildings", "ballistic_fire", "no_op_fire"}
VEHICLE_TRAITS = {"transport", "fragile", "effective_road_movement", "tank", "sturdy",
                  "concussive_firepower", "overrun"}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Stat(_Strict):
    """A number from the rules with where it comes from.

    ``alternative``: for a reconstructed value, the other reading of the seed a designer
    may switch to (by writing it as ``value``); the units listing shows both."""

    value: int = Field(ge=0, le=99)
    source: str = Field(min_length=1)
    reconstructed: bool = False
    alternative: int | None = Field(default=None, ge=0, le=99)


class Flag(_Strict):
    value: bool
    source: str = Field(min_length=1)
    reconstructed: bool = False
    alternative: bool | None = None


class CoverCount(_Strict):
    """How a cover bonus counts in an assault's cover dice (002 step 4): not at all,
    once for the hex, or once per defending squad."""

    value: Literal["none", "hex", "per_squad"]
    source: str = Field(min_length=1)
    alternative: Literal["none", "hex", "per_squad"] | None = None


class Text(_Strict):
    value: str
    source: str = Field(min_length=1)
    reconstructed: bool = False


class Traits(_Strict):
    value: list[str]
    source: str = Field(min_length=1)


class Weapon(_Strict):
    """Range and firepower against one kind of target (001 Combat)."""

    range: Stat
    fpr: Stat


class Figure(_Strict):
    name: str = Field(min_length=1)
    traits: Traits
    movement: Stat
    infantry: Weapon
    vehicle: Weapon

    @field_validator("traits")
    @classmethod
    def _known_traits(cls, traits: Traits) -> Traits:
        unknown = set(traits.value) - FIGURE_TRAITS
        if unknown:
            raise ValueError(f"unknown trait(s) {sorted(unknown)} (known: {', '.join(sorted(FIGURE_TRAITS))})")
        return traits

    def has(self, trait: str) -> bool:
        return trait in self.traits.value


class WeightStat(_Strict):
    value: Literal["light", "heavy"]
    source: str = Field(min_length=1)
    reconstructed: bool = False


class VehicleModel(_Strict):
    name: str = Field(min_length=1)
    nation: str = Field(min_length=1)
    weight: WeightStat
    traits: Traits
    transport: Stat
    thick_armour: Flag
    movement: Stat
    armour: Stat
    infantry: Weapon
    vehicle: Weapon

    @field_validator("traits")
    @classmethod
    def _known_traits(cls, traits: Traits) -> Traits:
        unknown = set(traits.value) - VEHICLE_TRAITS
        if unknown:
            raise ValueError(f"unknown trait(s) {sorted(unknown)} (known: {', '.join(sorted(VEHICLE_TRAITS))})")
        return traits

    def has(self, trait: str) -> bool:
        return trait in self.traits.value

    @property
    def light(self) -> bool:
        return self.weight.value == "light"


class BattleHardened(_Strict):
    cover_vs_suppressive_per_figure: Stat


class Determination(_Strict):
    cover_vs_suppressive: Stat


class Concussive(_Strict):
    fpr_bonus: Stat
    range_bonus: Stat
    when_supporting: Flag


class MinimumDistance(_Strict):
    hexes: Stat


class Abilities(_Strict):
    battle_hardened: BattleHardened
    determination: Determination
    concussive_firepower: Concussive
    minimum_distance: MinimumDistance


class _Specialisation(_Strict):
    """What every specialisation may say: its name, and whether it may dig entrenchments
    (001 Engineer: Dig Entrenchment; the whole-game engine, rulings T40)."""

    name: str
    dig_entrenchment: Flag | None = None

    @property
    def digs(self) -> bool:
        return self.dig_entrenchment is not None and self.dig_entrenchment.value


class Engineer(_Specialisation):
    minefield_exempt: Flag


class AntiTank(_Specialisation):
    vehicle_range: Stat
    vehicle_fpr_bonus: Stat


class Flamethrower(_Specialisation):
    fpr_bonus: Stat
    cover_reduction: Stat
    max_distance: Stat
    when_supporting: Flag


class Medic(_Specialisation):
    cover_vs_normal: Stat
    assault_cover: CoverCount


class Specialisations(_Strict):
    engineer: Engineer
    anti_tank: AntiTank
    flamethrower: Flamethrower
    medic: Medic


class SquadRules(_Strict):
    max_figures: Stat


class UnitsFile(_Strict):
    name: str = Field(min_length=1)
    status: str = Field(min_length=1)
    source: str = Field(min_length=1)
    squads: SquadRules
    figures: dict[str, Figure]
    vehicles: dict[str, VehicleModel]
    abilities: Abilities
    specialisations: Specialisations

    @field_validator("figures", "vehicles")
    @classmethod
    def _not_empty(cls, table: dict) -> dict:
        if not table:
            raise ValueError("at least one entry is needed")
        return table


class Feature(_Strict):
    """A terrain type, fortification or obstacle (001 Terrain; Fortifications)."""

    kind: Literal["terrain", "overlay", "elevation", "fortification", "obstacle"]
    cover: Stat | None = None
    cover_for: Literal["all", "squads"] = "all"
    assault_cover: Literal["hex", "per_squad", "none"]
    halves_fpr_of: Literal["none", "squads", "all"] = "none"
    concussive_target: bool = False
    no_mortar_fire: bool = False
    no_smoke: bool = False
    no_dig: bool = False                # no entrenchment may be dug here (001 Engineer: Dig Entrenchment)
    closed_to: Literal["none", "vehicles", "all"] = "none"
    entry_dice: Stat | None = None
    entry_success_from: Stat | None = None
    area_removal_successes: Stat | None = None
    blocking: Text
    movement: Text
    move_squads: Stat | None = None     # MPs a squad pays to enter (whole-game engine); road: from a road hex,
    move_vehicles: Stat | None = None   # hill: uphill; absent where closed_to forbids or nothing is added

    @property
    def cover_value(self) -> int:
        return self.cover.value if self.cover is not None else 0


class TerrainRules(_Strict):
    higher_ground_range_bonus: Stat


class TerrainFile(_Strict):
    name: str = Field(min_length=1)
    status: str = Field(min_length=1)
    source: str = Field(min_length=1)
    rules: TerrainRules
    features: dict[str, Feature]

    @field_validator("features")
    @classmethod
    def _minefield_has_entry_dice(cls, features: dict[str, Feature]) -> dict[str, Feature]:
        mines = features.get("minefield")
        if mines is not None and (mines.entry_dice is None or mines.entry_success_from is None):
            raise ValueError("minefield needs entry_dice and entry_success_from")
        return features


def _name(key: str) -> str:
    """Names in files and on the command line: lower case, ``-`` and ``_`` alike."""
    return key.strip().lower().replace("-", "_")


def _check_names(table: dict, where: str, prefix: str) -> None:
    for key in table:
        if _name(key) != key:
            raise InputError(where, f"{prefix}.{key}", "names must be lower case with '_' (e.g. 'anti_tank')")


# units.toml formats (issue 44.9): 1, the first release (no ``format`` key); 2 (issue 22)
# made these keys required. A format 1 file is read with them at these defaults, the
# readings the shipped file states (rulings T4, T11).
UNITS_FORMAT = 2
UNITS_ADDED = {2: {
    "abilities.concussive_firepower.when_supporting": {
        "value": True, "source": "format 1 default: a supporting tank attacks too (rulings T4)"},
    "specialisations.flamethrower.when_supporting": {
        "value": True, "source": "format 1 default: each attacking squad, supporters included (rulings T4)"},
    "specialisations.medic.assault_cover": {
        "value": "none", "source": "format 1 default: Bandage is no assault cover (rulings T11)"},
}}
TERRAIN_FORMAT = 1


@cache
def _load_units(path: str, mtime_ns: int) -> UnitsFile:
    model = validate(UnitsFile, read_format(read_toml(path), path, "units.toml", UNITS_FORMAT, UNITS_ADDED), path)
    _check_names(model.figures, path, "figures")
    _check_names(model.vehicles, path, "vehicles")
    clash = set(model.figures) & set(model.vehicles)
    if clash:
        raise InputError(path, f"vehicles.{sorted(clash)[0]}", "a vehicle may not share a name with a figure")
    return model


@cache
def _load_terrain(path: str, mtime_ns: int) -> TerrainFile:
    model = validate(TerrainFile, read_format(read_toml(path), path, "terrain.toml", TERRAIN_FORMAT, {}), path)
    _check_names(model.features, path, "features")
    return model


def _stamp(path: str | Path | None, default: Path) -> tuple[str, int]:
    p = Path(path) if path is not None else default
    try:
        return str(p), p.stat().st_mtime_ns
    except OSError:
        raise InputError(str(p), "", "file not found") from None


def load_units(path: str | Path | None = None) -> UnitsFile:
    """The roster (default ``scenarios/toi/units.toml``), validated and cached."""
    return _load_units(*_stamp(path, UNITS_FILE))


def load_terrain(path: str | Path | None = None) -> TerrainFile:
    """The terrain and fortifications (default ``scenarios/toi/terrain.toml``)."""
    return _load_terrain(*_stamp(path, TERRAIN_FILE))


def digest(units: str | Path | None = None, terrain: str | Path | None = None) -> str:
    """A short hash of the two data files, for provenance in outputs."""
    return file_digest(units or UNITS_FILE, terrain or TERRAIN_FILE)


def normal_name(text: str) -> str:
    return _name(text)


class GameData(BaseModel):
    """Both data files together: what every rule function is given."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    units: UnitsFile
    terrain: TerrainFile
    digest: str

    @property
    def label(self) -> str:
        return f"units {self.units.name} ({self.units.status}), terrain {self.terrain.name} ({self.terrain.status})"


def load_game(units: str | Path | None = None, terrain: str | Path | None = None) -> GameData:
    """Load ``units.toml`` and ``terrain.toml`` (defaults: the shipped files)."""
    u = load_units(units)
    t = load_terrain(terrain)
    return GameData(units=u, terrain=t, digest=digest(units, terrain))
