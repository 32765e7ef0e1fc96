"""The scenario file's shape: ``scenarios/assault/*.scenario.toml`` (the pydantic models
below document every key: :class:`Scenario`, :class:`MapSpec`, the sides' forces,
formation draws, reinforcements, victory), the formation cards of
``scenarios/assault/formations/*.toml`` (4.1, 4.7; :func:`load_formations`), the parsed
map (:class:`Board`) and the small helpers the checks share. Checking a file beyond its
shape is :mod:`simulator.games.assault.game.scenario_checks`'s; loading one,
:func:`simulator.games.assault.game.scenario.load_scenario`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from simulator.engine.core.hexgrid import HexGrid, parse_hex_name, vertex_names
from simulator.engine.core.hexspec import expand_hexes
from simulator.games.assault.rules.aid import Aid
from simulator.games.assault.rules.cards import NAME_PATTERN, UnitCard, load_units
from simulator.games.assault.rules.dice import DiceSet
from simulator.run.datafile import (
    SCENARIOS_DIR,
    Problem,
    file_digest,
    model_problems,
    read_format,
    read_toml,
)
from simulator.run.errors import InputError
from simulator.run.suggest import did_you_mean
from simulator.run.vocabulary import EDITIONS, EXPERIENCE_LEVELS, UNIT_TYPES

ASSAULT_DIR = SCENARIOS_DIR / "assault"
DEFAULT_FORMATIONS_DIR = ASSAULT_DIR / "formations"
SUFFIX = ".scenario.toml"
DRAW_METHODS = ("choose", "draw-double", "draw")  # the three methods of 5.6, in order
FACTIONS = ("blue", "red")  # 5.2: historically blue = German, red = Soviet
HILL = "hill"
# What the engine can represent: a game record keeps its turn of decision
# in one signed byte; counts and values go into 64-bit tables, far below these limits.
MAX_TURNS = 127
MAX_COUNT = 99          # units of one entry (a force, a passenger, a reinforcement, a draw)
MAX_NUMBER = 1_000_000  # objective values, victory thresholds, hand limits

Experience = Literal[EXPERIENCE_LEVELS]     # 4.2.3 (a tuple subscript is the same as its items)
UnitType = Literal[UNIT_TYPES]
Edition = Literal[EDITIONS]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# --- the file's shape ----------------------------------------------------------------

class MapFeature(_Strict):
    """``[[map.features]]``: secondary terrain on hexes, for close combat (revised 12.1.2.1,
    12.1.3, 12.1.3.1, 12.1.3.2; rulings CC7, S25): a fortification of the aid's
    ``[fortification.NAME]`` tables with the vertex its front faces, and/or barbed wire or
    a stone wall that a close combat initiated into the hex crosses."""

    hexes: list[str] = Field(min_length=1)  # hex specs, as in zones ("3,1", "2-4,0")
    fortification: str | None = None  # e.g. "bunker", "trench", "sandbags"
    facing: str | int | None = None  # the fortification's front: a hex vertex (4.8)
    wire: bool = False  # barbed wire or a stone wall (revised 12.1.2.1)


class MapSpec(_Strict):
    """``[map]``: rows of one character per hex, row 0 first, and the legend.

    Legend values name a terrain of the aid (``"forest"``, ``"heavy_forest"``, ``"road"``,
    ``"wooden building"``), ``"hill"`` (a bare hill, 9.6.1) or a hill with a terrain on
    it (``"hill+forest"``)."""

    orientation: Literal["flat", "pointy"] = "flat"
    rows: list[str] = Field(min_length=1)
    legend: dict[str, str] = Field(min_length=1)
    source: str = ""  # who drew the map (the shipped maps are the project's own)
    features: list[MapFeature] = []  # fortifications, wire and walls (close combat)


class Objective(_Strict):
    hex: str
    value: int = Field(default=1, ge=0, le=MAX_NUMBER)
    name: str = ""


class Passenger(_Strict):
    """A unit transported at set-up (5.8, 9.11)."""

    unit: str
    count: int = Field(default=1, ge=1, le=MAX_COUNT)
    experience: Experience = "regular"


class Force(_Strict):
    """Units of one card at set-up: a fixed ``hex`` or a set-up ``zone`` (5.8)."""

    unit: str
    count: int = Field(default=1, ge=1, le=MAX_COUNT)
    experience: Experience = "regular"
    hex: str | None = None
    zone: str | None = None
    facing: str | int | None = None  # vehicles and artillery: a hex vertex (5.8, 4.8)
    carrying: list[Passenger] = []


class ReinforcementUnit(_Strict):
    unit: str
    count: int = Field(default=1, ge=1, le=MAX_COUNT)
    experience: Experience = "regular"
    carrying: list[Passenger] = []


class ClassDraw(_Strict):
    """Individual units chosen by type and class (5.7): ``class`` must match a card."""

    type: UnitType
    unit_class: str = Field(alias="class", min_length=1)
    count: int = Field(default=1, ge=1, le=MAX_COUNT)
    experience: Experience = "regular"


class Reinforcement(_Strict):
    """Units arriving at the end of ``turn`` (6.7) through the ``entry`` hexes (5.7)."""

    turn: int = Field(ge=1, le=MAX_TURNS)
    units: list[ReinforcementUnit] = []
    draw_class: list[ClassDraw] = []
    formations: list[UnitType] = []  # one random formation card of each listed type (5.7)
    entry: list[str] = Field(min_length=1)
    roll: int | None = Field(default=None, ge=1, le=6)  # arrives only on a d6 >= roll


class FormationDraw(_Strict):
    """How many formation cards of each type a side gets, and how (5.6)."""

    method: Literal["choose", "draw-double", "draw"] = "draw"
    infantry: int = Field(default=0, ge=0, le=MAX_COUNT)
    artillery: int = Field(default=0, ge=0, le=MAX_COUNT)
    vehicle: int = Field(default=0, ge=0, le=MAX_COUNT)
    deck: list[str] | None = None  # formation ids; default: all of the side's cards
    zone: str | None = None  # where the drawn units set up

    def count(self, unit_type: str) -> int:
        return getattr(self, unit_type)


class SideVictory(_Strict):
    """A side wins when it meets ALL its conditions (3.1); objectives count when held at
    the end of a turn (9.7)."""

    hold: list[str] = []  # every one of these objective hexes
    hold_count: int = Field(default=0, ge=0, le=MAX_NUMBER)  # at least this many objective hexes
    objective_points: int = Field(default=0, ge=0, le=MAX_NUMBER)  # at least this many objective values
    eliminate: int = Field(default=0, ge=0, le=MAX_NUMBER)  # at least this many enemy units eliminated
    sudden_death: bool | None = None  # 6.6: may win in any victory-check phase (None: victory.sudden_death)

    @property
    def is_empty(self) -> bool:
        return not (self.hold or self.hold_count or self.objective_points or self.eliminate)


class Side(_Strict):
    faction: Literal["blue", "red"]
    zones: dict[str, list[str]] = {}
    units: list[Force] = []
    formations: FormationDraw | None = None
    reinforcements: list[Reinforcement] = []
    victory: SideVictory = SideVictory()


class OptionalRules(_Strict):
    command_points: bool = False  # 4.9.2
    command_cards: bool = False  # 4.9.1
    hand_limit: int = Field(default=0, ge=0, le=MAX_NUMBER)  # 6.2.1: command cards held
    # 10.7.3's minimum of four command points: "always" (as the text reads)
    # or "losses" (only a floor on points lost; fewer from the cards stay fewer)
    command_point_minimum: Literal["always", "losses"] = "always"
    # 13.3 "eliminated if they ever receive a second fallback": "marker" (a fallback while the
    # unit is still marked fallback, the markers going at the end of the turn, reading S22) or
    # "ever" (any second fallback in the game)
    second_fallback: Literal["marker", "ever"] = "marker"


class Victory(_Strict):
    sudden_death: bool = False  # 6.6: both sides may win in any victory-check phase
    if_neither: str = "draw"  # a side name or "draw"


class VerdictSpec(_Strict):
    """How the balance verdict is judged (docs/statistics.md): ``margin``, in points of the
    first side's share of decisive games either side of 50% (5: 45%-55%); ``--margin`` beats it."""

    margin: float = Field(default=5.0, gt=0, lt=50)


# the command-line options that name each kind of data file (they beat [data])
DATA_OPTIONS = {"dice": "--dice", "aid": "--aid", "units": "--units-dir", "formations": "--formations"}


class DataFiles(_Strict):
    """Data files used; paths relative to the scenario file. Default: the shipped ones."""

    dice: str | None = None
    aid: str | None = None
    units: str | None = None
    formations: str | None = None


class Scenario(_Strict):
    """A validated scenario. Unit and formation ids are resolved to ``side/name``,
    facings to vertex indices 0..5 (see :mod:`simulator.engine.core.hexgrid`)."""

    name: str = Field(min_length=1)
    description: str = ""
    source: str = ""
    turns: int | None = Field(default=None, ge=1, le=MAX_TURNS)
    close_combat_edition: Edition = "v1"
    unit_rules: list[UnitType] = ["infantry", "artillery", "vehicle"]  # 2.1, 3.2.2
    optional_rules: OptionalRules = OptionalRules()
    first_setup: str = "roll"  # a side name, or "roll" (5.8)
    initiative: str = "roll"  # a side name (it starts every turn), or "roll" (6.1)
    data: DataFiles = DataFiles()
    map: MapSpec
    objectives: list[Objective | str] = []
    sides: dict[str, Side] = {}
    victory: Victory = Victory()
    verdict: VerdictSpec = VerdictSpec()

    _path: str = PrivateAttr("")
    _dice: DiceSet | None = PrivateAttr(None)
    _aid: Aid | None = PrivateAttr(None)
    _units: dict = PrivateAttr(default_factory=dict)
    _formations: dict = PrivateAttr(default_factory=dict)
    _board: "Board | None" = PrivateAttr(None)
    _data_chosen: dict = PrivateAttr(default_factory=dict)   # kind -> "--aid" | "data.aid" | "shipped"

    # -- what the engine reads ---------------------------------------------------------

    @property
    def id(self) -> str:
        """The file name without ``.scenario.toml`` (``infantry-training``)."""
        name = Path(self._path).name
        return name[: -len(SUFFIX)] if name.endswith(SUFFIX) else Path(name).stem

    @property
    def path(self) -> str:
        return self._path

    @property
    def edition(self) -> str:
        return self.close_combat_edition

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(self.sides)

    @property
    def dice(self) -> DiceSet:
        return self._dice

    @property
    def aid(self) -> Aid:
        return self._aid

    @property
    def units(self) -> dict[str, UnitCard]:
        """Every unit card of the unit files in use, by id."""
        return self._units

    @property
    def formation_cards(self) -> dict[str, "FormationCard"]:
        """Every formation card of the formation files in use, by id."""
        return self._formations

    @property
    def board(self) -> "Board":
        """The parsed map: grid, terrain and hill of each hex."""
        return self._board

    def sudden_death(self, side: str) -> bool:
        """Whether ``side`` can win before the last turn (6.6)."""
        own = self.sides[side].victory.sudden_death
        return self.victory.sudden_death if own is None else own

    @property
    def objective_list(self) -> list[Objective]:
        return [o if isinstance(o, Objective) else Objective(hex=o) for o in self.objectives]

    def zone_hexes(self, side: str, zone: str) -> list[str]:
        """The hex names of a set-up zone, in the order given, without repeats."""
        return expand_hexes(self.sides[side].zones[zone], self._board.grid)

    def data_files(self) -> dict[str, str]:
        """Provenance for reports: the data files used and their labels."""
        from simulator.games.assault.rules.aid import DEFAULT_AID_FILE
        from simulator.games.assault.rules.dice import DEFAULT_DICE_FILE

        def label(data, default: Path) -> str:     # a copy of a shipped file keeps its name
            if Path(data.path).resolve() == default.resolve():
                return data.label
            return f"{data.label} ({_shown_path(data.path)})"

        return {"scenario": self._path, "scenario_digest": file_digest(self._path),
                "dice": label(self._dice, DEFAULT_DICE_FILE), "aid": label(self._aid, DEFAULT_AID_FILE),
                "dice_file": self._dice.path, "aid_file": self._aid.path,
                "chosen_by": {k: d["from"] for k, d in self.data_used().items()}}

    def data_used(self) -> dict[str, dict[str, str]]:
        """Each data file actually used and what chose it: ``{"aid": {"file": ...,
        "name": ..., "status": ..., "from": "--aid" | "data.aid" | "shipped"}, ...}``
        (the command line beats the scenario's ``[data]``, which beats the shipped file)."""
        from simulator.games.assault.rules.cards import DEFAULT_UNITS_DIR

        units_dirs = sorted({str(Path(c.path).parent) for c in self._units.values()}) or [str(DEFAULT_UNITS_DIR)]
        out = {"dice": {"file": self._dice.path, "name": self._dice.name, "status": self._dice.status},
               "aid": {"file": self._aid.path, "name": self._aid.name, "status": self._aid.status},
               "units": {"file": ", ".join(units_dirs), "name": f"{len(self._units)} cards",
                         "status": ", ".join(sorted({c.status for c in self._units.values()}))}}
        for kind, d in out.items():
            d["from"] = self._data_chosen.get(kind, "shipped")
        return out


def _shown_path(path: str | Path) -> str:
    """A file as reports show it: relative to the project when inside it."""
    from simulator.run.datafile import REPO_ROOT

    p = Path(path).resolve()
    try:
        return str(p.relative_to(REPO_ROOT))
    except ValueError:
        return str(p)


# --- formation cards (4.1) ------------------------------------------------------------

class _FormationUnit(_Strict):
    unit: str
    count: int = Field(default=1, ge=1, le=MAX_COUNT)
    experience: Experience | None = None


class _FormationModel(_Strict):
    name: str = Field(min_length=1)
    type: UnitType
    command: str = ""  # the parent command shown on the card (4.1)
    command_points: int = Field(ge=0, le=MAX_NUMBER)  # 4.9.2
    experience: Experience = "regular"
    units: list[_FormationUnit] = Field(min_length=1)
    source: str = Field(min_length=1)


class _FormationFileModel(_Strict):
    side: str = Field(min_length=1)
    status: str = Field(min_length=1)
    source: str = Field(min_length=1)
    formations: dict[str, _FormationModel] = Field(min_length=1)


@dataclass(frozen=True)
class FormationCard:
    """One formation card (4.1): its type, units with experience, command points."""

    id: str
    side: str
    name: str
    type: str
    command: str
    command_points: int
    units: tuple[tuple[str, int, str], ...]  # (unit id, count, experience)
    source: str
    status: str = ""
    path: str = ""

    @property
    def unit_count(self) -> int:
        return sum(n for _, n, _ in self.units)


def load_formations(directory: str | Path | None = None,
                    units: dict[str, UnitCard] | None = None) -> dict[str, FormationCard]:
    """Load every ``*.toml`` formation file in ``directory`` (default: the shipped
    ``scenarios/assault/formations/``), checking unit ids against ``units``."""
    d = Path(directory) if directory is not None else DEFAULT_FORMATIONS_DIR
    if not d.is_dir():
        raise InputError(str(d), "", "formation directory not found")
    units = load_units() if units is None else units
    cards: dict[str, FormationCard] = {}
    for path in sorted(d.glob("*.toml")):
        where = str(path)
        model = _validate(_FormationFileModel, read_format(read_toml(path), where, "formation file", 1, {}), where)
        for name, f in model.formations.items():
            key = f"formations.{name}"
            if not NAME_PATTERN.fullmatch(name):
                raise InputError(where, key, "formation names must be lower case letters, "
                                 "digits and dashes")
            fid = f"{model.side}/{name}"
            if fid in cards:
                raise InputError(where, key, f"duplicate formation id {fid!r}")
            listed = []
            for i, u in enumerate(f.units):
                uid = unit_id(u.unit, model.side)
                card = units.get(uid)
                if card is None:
                    raise InputError(where, f"{key}.units[{i}].unit", f"unknown unit {u.unit!r}")
                listed.append((uid, u.count, u.experience or f.experience))
            cards[fid] = FormationCard(fid, model.side, f.name, f.type, f.command,
                                       f.command_points, tuple(listed), f.source,
                                       model.status, where)
    return cards


# --- the parsed map -------------------------------------------------------------------

@dataclass(frozen=True)
class Board:
    """A map made concrete: grid plus the terrain name and hill flag of every hex."""

    grid: HexGrid
    terrain: tuple[str, ...]  # aid terrain key per hex
    hill: tuple[bool, ...]
    source: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        return self.grid.names

    def describe(self, h: int) -> str:
        return ("hill+" if self.hill[h] else "") + self.terrain[h]


def parse_terrain(value: str, aid: Aid) -> tuple[str, bool]:
    """A legend value -> (aid terrain key, on a hill). ``"hill"`` is a bare hill (clear
    ground, 9.6.1); ``"hill+forest"`` a forest on a hill. Raises ValueError."""
    parts = [p.strip() for p in str(value).split("+")]
    hill = parts.count(HILL)
    rest = [p for p in parts if p != HILL]
    if hill > 1:
        raise ValueError(f"{value!r} names the hill twice")
    if any(not p for p in parts):
        raise ValueError(f"{value!r} has an empty part (write e.g. \"hill+forest\")")
    if len(rest) > 1:
        raise ValueError(f"{value!r} names {len(rest)} terrains; a hex has one terrain "
                         f"(10.3 note), possibly on a hill: \"hill+forest\"")
    name = rest[0] if rest else "clear"
    try:
        return aid.terrain(name).name, bool(hill)
    except InputError:
        raise ValueError(f"unknown terrain {name!r}{did_you_mean(name, aid.terrain_names)} (the aid {aid.name} knows: "
                         f"{', '.join(aid.terrain_names)}; and \"hill\")") from None


# --- hex lists ------------------------------------------------------------------------

# --- problems -------------------------------------------------------------------------

class Report:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def error(self, key: str, message: str) -> None:
        self.problems.append(Problem(key, message, "error"))

    def warn(self, key: str, message: str) -> None:
        self.problems.append(Problem(key, message, "warning"))


def pydantic_problems(exc: pydantic.ValidationError, prefix: str = "",
                       model: type[BaseModel] | None = None) -> list[Problem]:
    return _dedupe_union_errors(model_problems(exc, prefix, model))


def _dedupe_union_errors(problems: list[Problem]) -> list[Problem]:
    """Pydantic reports a union (``Objective | str``) once per member: keep the first per key
    stem so a user reads one line per mistake."""
    seen: dict[str, Problem] = {}
    for p in problems:
        stem = re.sub(r"\.(Objective|str|int)(?=\.|$)", "", p.key)
        if stem not in seen:
            seen[stem] = Problem(stem, p.message, p.severity)
    return list(seen.values())


def _validate(model, data, where: str, prefix: str = ""):
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as exc:
        p = pydantic_problems(exc, prefix, model)[0]
        raise InputError(where, p.key, p.message) from None


def unit_id(text: str, side: str) -> str:
    return text if "/" in text else f"{side}/{text}"



def canon_hex(name: str) -> str:
    c, r = parse_hex_name(name)
    return f"{c},{r}"


def quote_key(char: str) -> str:
    return f'"{char}"' if not re.fullmatch(r"[A-Za-z0-9_-]+", char) else char


def facing_name(facing: int, orientation: str) -> str:
    return vertex_names(orientation)[facing]
