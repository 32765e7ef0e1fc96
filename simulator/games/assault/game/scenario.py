"""Scenarios as data: ``scenarios/assault/*.scenario.toml`` and the formation cards of
``scenarios/assault/formations/*.toml`` (4.1, 4.7, chapter 5).

A scenario file names the scenario, its turns, its map (:class:`MapSpec`), objective
hexes, the two sides' forces, formation draws (5.6), reinforcements (5.7), who sets up
first (5.8), the initiative rule (6.1), optional rules (4.9), victory conditions (3.1,
6.6, 9.7) and the close-combat edition. A file with only ``name`` and ``[map]`` is
enough for the map and LOS commands. The models below document every key; the
shipped scenario files show them in use, with comments.

:func:`check_scenario` reports every problem of a file, each with its key path;
:func:`load_scenario` raises the first as an :class:`~simulator.run.errors.InputError`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from simulator.engine.core.hexgrid import HexGrid, parse_facing, parse_hex_name, too_many_hexes, vertex_names
from simulator.engine.core.hexspec import expand_hexes, parse_hex_spec
from simulator.games.assault.rules.aid import Aid, load_aid
from simulator.games.assault.rules.cards import NAME_PATTERN, UnitCard, load_units
from simulator.games.assault.rules.dice import DiceSet, load_dice
from simulator.run.datafile import (
    SCENARIOS_DIR,
    CheckResult,
    Problem,
    file_digest,
    model_problems,
    read_format,
    read_regular,
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
                uid = _unit_id(u.unit, model.side)
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

class _Report:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def error(self, key: str, message: str) -> None:
        self.problems.append(Problem(key, message, "error"))

    def warn(self, key: str, message: str) -> None:
        self.problems.append(Problem(key, message, "warning"))


def _pydantic_problems(exc: pydantic.ValidationError, prefix: str = "",
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
        p = _pydantic_problems(exc, prefix, model)[0]
        raise InputError(where, p.key, p.message) from None


def _unit_id(text: str, side: str) -> str:
    return text if "/" in text else f"{side}/{text}"


# --- finding files --------------------------------------------------------------------

def shipped_scenarios() -> list[Path]:
    """The scenario files shipped in ``scenarios/assault/``, sorted by name."""
    return sorted(ASSAULT_DIR.glob(f"*{SUFFIX}"))


def resolve_scenario(path_or_name: str | Path) -> Path:
    """A scenario file path, or the name of a shipped scenario (``infantry-training``)."""
    p = Path(path_or_name)
    if p.is_file():
        return p
    shipped = ASSAULT_DIR / f"{path_or_name}{SUFFIX}"
    if "/" not in str(path_or_name) and shipped.is_file():
        return shipped
    if p.exists():                  # a folder, a FIFO, a device: say which (issue 44.8), never "no such file"
        read_regular(p, what="a scenario")
    names = [s.name[: -len(SUFFIX)] for s in shipped_scenarios()]
    hint = did_you_mean(Path(str(path_or_name)).name.removesuffix(SUFFIX), names)
    raise InputError(str(path_or_name), "", f"no such scenario file or shipped scenario{hint} "
                     f"(shipped: {', '.join(names)})")


# --- checking -------------------------------------------------------------------------

def check_scenario(path_or_name: str | Path, data: Mapping[str, str | Path] | None = None) -> CheckResult:
    """Check a scenario file and report EVERY problem found, each with its key path.

    ``data`` holds data files given on the command line (keys ``dice``, ``aid``,
    ``units``, ``formations``; paths relative to the working folder): they beat the
    scenario's ``[data]`` table, which beats the shipped files. The result holds the
    loaded :class:`Scenario` when there are no errors (warnings allowed)."""
    try:
        path = resolve_scenario(path_or_name)
    except InputError as exc:
        return CheckResult(str(path_or_name), [Problem(exc.key, exc.problem)])
    where = str(path)
    result = CheckResult(where)
    try:
        raw = read_toml(path)
    except InputError as exc:
        result.problems.append(Problem(exc.key, exc.problem))
        return result
    report = _Report()
    scenario = None
    try:
        scenario = Scenario.model_validate(raw)
    except pydantic.ValidationError as exc:
        report.problems.extend(_pydantic_problems(exc, model=Scenario))
    _Checker(path, raw, scenario, report, data).run()
    result.problems = report.problems
    if scenario is not None and result.ok:
        result.scenario = scenario
    return result


def load_scenario(path_or_name: str | Path, data: Mapping[str, str | Path] | None = None) -> Scenario:
    """Load and check a scenario (a file path, or a shipped scenario's name); ``data``
    as for :func:`check_scenario`.

    Raises :class:`~simulator.run.errors.InputError` with the key path of the first error;
    ``lanchester assault check`` lists them all."""
    result = check_scenario(path_or_name, data)
    if not result.ok:
        first = result.errors[0]
        raise InputError(result.where, first.key, first.message)
    return result.scenario


class _Checker:
    """The checks beyond the file's shape. Works on whatever sections validated, so one
    run reports the problems of every section."""

    def __init__(self, path: Path, raw: dict[str, Any], scenario: Scenario | None, report: _Report,
                 given: Mapping[str, str | Path] | None = None):
        self.path, self.raw, self.s, self.r = path, raw, scenario, report
        self.given = {k: v for k, v in (given or {}).items() if v is not None}
        self.chosen: dict[str, str] = {}   # kind -> what chose its file: "--aid", "data.aid", "shipped"
        unknown = set(self.given) - set(DATA_OPTIONS)
        if unknown:
            raise ValueError(f"unknown data files {sorted(unknown)} (known: {', '.join(DATA_OPTIONS)})")
        self.board: Board | None = None
        self.units: dict[str, UnitCard] = {}
        self.formations: dict[str, FormationCard] = {}
        self.aid: Aid | None = None
        self.dice: DiceSet | None = None
        self.occupied: dict[str, str] = {}  # hex -> key of the force fixed there

    # -- sections that may not have validated as a whole --------------------------------

    def section(self, model, name: str):
        if self.s is not None:
            return getattr(self.s, name)
        if name not in self.raw:
            return model() if name not in ("map",) else None
        try:
            return model.model_validate(self.raw[name])
        except pydantic.ValidationError:
            return None  # already reported by the whole-file validation

    def sides(self) -> dict[str, Side]:
        if self.s is not None:
            return self.s.sides
        out = {}
        raw = self.raw.get("sides")
        if isinstance(raw, dict):
            for name, v in raw.items():
                try:
                    out[name] = Side.model_validate(v)
                except pydantic.ValidationError:
                    pass
        return out

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

    # -- data files -------------------------------------------------------------------

    def data_path(self, kind: str, data: DataFiles) -> tuple[Path | None, str]:
        """The file of one kind of data and the key to blame for it: the command line's
        (``--aid``, relative to the working folder), else the scenario's ``[data]``
        (``data.aid``, relative to the scenario file), else ``None`` (the shipped file)."""
        if kind in self.given:
            path, key = Path(self.given[kind]), DATA_OPTIONS[kind]
        else:
            value = getattr(data, kind)
            path, key = (None if value is None else self.path.parent / value), f"data.{kind}"
        self.chosen[kind] = key if path is not None else "shipped"
        return path, key

    def load_data(self) -> None:
        data = self.section(DataFiles, "data") or DataFiles()
        path, key = self.data_path("dice", data)
        try:
            self.dice = load_dice(path)
        except InputError as exc:
            self.r.error(key, exc.one_line())
            return
        path, key = self.data_path("aid", data)
        try:
            self.aid = load_aid(path, self.dice)
        except InputError as exc:
            self.r.error(key, exc.one_line())
        path, key = self.data_path("units", data)
        try:
            self.units = load_units(path, self.dice)
        except InputError as exc:
            self.r.error(key, exc.one_line())
            return
        path, key = self.data_path("formations", data)
        try:
            self.formations = load_formations(path, self.units)
        except InputError as exc:
            self.r.error(key, exc.one_line())

    # -- the map ----------------------------------------------------------------------

    def check_map(self) -> None:
        spec = self.section(MapSpec, "map")
        if spec is None or self.aid is None:
            return
        legend: dict[str, tuple[str, bool]] = {}
        for char, value in spec.legend.items():
            key = f"map.legend.{_quote(char)}"
            if len(char) != 1:
                self.r.error(key, "legend keys are single characters, one per hex")
                continue
            try:
                legend[char] = parse_terrain(value, self.aid)
            except ValueError as exc:
                self.r.error(key, str(exc))
        width = len(spec.rows[0])
        if too_many_hexes(width, len(spec.rows)):   # before any per-hex work
            self.r.error("map.rows", too_many_hexes(width, len(spec.rows)))
            return
        ragged = False
        terrain: list[str] = []
        hill: list[bool] = []
        for i, row in enumerate(spec.rows):
            key = f"map.rows[{i}]"
            if not row:
                self.r.error(key, "empty row")
                ragged = True
                continue
            if len(row) != width:
                self.r.error(key, f"has {len(row)} hexes but row 0 has {width}: rows must be "
                             f"equally long (the map is a rectangle of hexes)")
                ragged = True
            unknown = sorted({c for c in row if c not in spec.legend})
            if unknown:
                cols = [str(j) for j, c in enumerate(row) if c in unknown]
                self.r.error(key, f"character{'s' if len(unknown) > 1 else ''} "
                             f"{', '.join(repr(c) for c in unknown)} (column {', '.join(cols[:6])}"
                             f"{'...' if len(cols) > 6 else ''}) not in map.legend")
            # a ragged row is cut or padded to row 0's width so the other checks can run
            for c in (row + " " * width)[:width]:
                t, h = legend.get(c, ("clear", False))
                terrain.append(t)
                hill.append(h)
        if width == 0:
            return
        if ragged:
            while len(terrain) < width * len(spec.rows):
                terrain.append("clear")
                hill.append(False)
        grid = HexGrid(width, len(spec.rows), spec.orientation)
        self.board = Board(grid, tuple(terrain), tuple(hill), spec.source)
        self.check_features(spec)

    def check_features(self, spec: MapSpec) -> None:
        """``[[map.features]]``: known fortifications with a facing, hexes on the map, each
        hex in one feature at most."""
        from simulator.games.assault.rules.melee.fortifications import load_fortifications
        known = None
        seen: dict[str, int] = {}
        for i, f in enumerate(spec.features):
            key = f"map.features[{i}]"
            if f.fortification is None and not f.wire:
                self.r.error(key, "a feature names a fortification or sets wire = true")
            if f.fortification is not None:
                if known is None:
                    try:
                        known = load_fortifications(self.aid)
                    except InputError as exc:
                        self.r.error(key, exc.one_line())
                        known = {}
                if f.fortification not in known:
                    self.r.error(f"{key}.fortification", f"unknown fortification {f.fortification!r} "
                                 f"(aid {self.aid.name} knows: {', '.join(known) or 'none'})")
                if f.facing is None:
                    self.r.error(f"{key}.facing", "a fortification needs the vertex its front faces "
                                 "(revised 12.1.3.1: its dice depend on the side attacked from)")
            if f.facing is not None:
                if f.fortification is None:
                    self.r.error(f"{key}.facing", "only a fortification has a facing")
                try:
                    parse_facing(f.facing, spec.orientation, "", f"{key}.facing")
                except InputError as exc:
                    self.r.error(f"{key}.facing", exc.one_line())
            for h in self.specs_ok(f.hexes, f"{key}.hexes"):
                if h in seen:
                    self.r.error(f"{key}.hexes", f"hex {h} is already in map.features[{seen[h]}]")
                seen[h] = i

    def hex_ok(self, name: Any, key: str) -> bool:
        """Is ``name`` a hex of the map? Reports the problem if not."""
        if not isinstance(name, str):
            self.r.error(key, f"a hex is a string \"col,row\" (got {name!r})")
            return False
        try:
            c, r = parse_hex_name(name)
        except ValueError as exc:
            self.r.error(key, str(exc))
            return False
        if self.board is not None and not self.board.grid.on_map(c, r):
            g = self.board.grid
            self.r.error(key, f"hex {name!r} is off the map (columns 0-{g.cols - 1}, rows "
                         f"0-{g.rows - 1})")
            return False
        return True

    def specs_ok(self, specs: list[str], key: str) -> list[str]:
        """Expand hex specs, reporting malformed and off-map ones; returns hex names."""
        out: dict[str, None] = {}
        for j, spec in enumerate(specs):
            try:
                cells = parse_hex_spec(spec)
            except ValueError as exc:
                self.r.error(f"{key}[{j}]", str(exc))
                continue
            if self.board is None:
                continue
            off = [f"{c},{r}" for c, r in cells if not self.board.grid.on_map(c, r)]
            if off:
                self.r.error(f"{key}[{j}]", f"{len(off)} hex{'es' if len(off) > 1 else ''} off "
                             f"the map ({', '.join(off[:4])}{'...' if len(off) > 4 else ''})")
            for c, r in cells:
                if self.board.grid.on_map(c, r):
                    out[f"{c},{r}"] = None
        return list(out)

    # -- top-level keys -----------------------------------------------------------------

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

    def check_objectives(self) -> None:
        objs = self.raw.get("objectives", [])
        if not isinstance(objs, list):
            return
        seen: dict[str, int] = {}
        for i, o in enumerate(objs):
            hx = o if isinstance(o, str) else (o.get("hex") if isinstance(o, dict) else None)
            key = f"objectives[{i}]" if isinstance(o, str) else f"objectives[{i}].hex"
            if hx is None or not self.hex_ok(hx, key):
                continue
            name = _canon(hx)
            if name in seen:
                self.r.error(key, f"objective hex {name} is listed twice (also objectives[{seen[name]}])")
            seen[name] = i
        self.objective_hexes = set(seen)

    # -- one side -----------------------------------------------------------------------

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

    def card(self, text: str, side: str, key: str) -> UnitCard | None:
        if not self.units:
            return None
        uid = _unit_id(text, side)
        card = self.units.get(uid)
        if card is None:
            mine = sorted(u.split("/", 1)[1] for u in self.units if u.startswith(f"{side}/"))
            self.r.error(key, f"unknown unit {text!r} (side {side} has: {', '.join(mine)})")
            return None
        if card.side != side:
            self.r.error(key, f"{uid} is a unit of side {card.side}, not {side}")
        if card.type not in self.unit_rules:
            self.r.error(key, f"{uid} is {card.type}, but the scenario uses only the "
                         f"{', '.join(self.unit_rules)} rules (unit_rules, 2.1, 3.2.2)")
        return card

    def check_force(self, side: str, key: str, force: Force, zones: dict[str, list[str]],
                    zone_load: dict[str, list[UnitCard]]) -> None:
        card = self.card(force.unit, side, f"{key}.unit")
        if force.hex is None and force.zone is None:
            self.r.error(key, "give a fixed hex or a set-up zone (5.8)")
        if force.hex is not None and force.zone is not None:
            self.r.error(f"{key}.zone", "give a fixed hex or a set-up zone, not both")
        if force.hex is not None:
            if force.count != 1:
                self.r.error(f"{key}.count", f"{force.count} units cannot share one fixed hex "
                             f"(stacking limit one unit per hex, 5.8, 9.0): list them one by one")
            if self.hex_ok(force.hex, f"{key}.hex"):
                hx = _canon(force.hex)
                if hx in self.occupied:
                    self.r.error(f"{key}.hex", f"hex {hx} already holds {self.occupied[hx]} "
                                 f"(stacking limit one unit per hex, 5.8, 9.0)")
                self.occupied[hx] = key
                if card is not None:
                    self.check_ground(card, hx, f"{key}.hex")
        if force.zone is not None:
            if force.zone not in zones:
                self.r.error(f"{key}.zone", f"no set-up zone {force.zone!r} in this side's "
                             f"zones ({', '.join(zones) or 'none defined'})")
            elif card is not None:
                zone_load[force.zone].extend([card] * force.count)
        self.check_facing(card, force.facing, f"{key}.facing")
        self.check_carrying(side, key, card, force.carrying)

    def check_ground(self, card: UnitCard, hx: str, key: str) -> None:
        """A unit may not be set up where its movement type may not go (9.4)."""
        if self.board is None or self.aid is None:
            return
        h = self.board.grid.index_of(hx)
        terrain = self.board.terrain[h]
        if self.aid.movement_cost(terrain, card.movement_type) is None:
            self.r.error(key, f"{card.id} cannot stand in {hx}: {self.board.describe(h)} is "
                         f"prohibited terrain for {card.movement_type} movement (9.4)")

    def check_facing(self, card: UnitCard | None, facing: Any, key: str) -> None:
        if facing is None:
            return
        if card is not None and card.is_infantry:
            self.r.error(key, f"{card.id} is infantry: infantry has no facing (9.8)")
            return
        orientation = self.board.grid.orientation if self.board else "flat"
        try:
            parse_facing(facing, orientation, "", key)
        except InputError as exc:
            self.r.error(key, exc.problem)

    def check_carrying(self, side: str, key: str, card: UnitCard | None,
                       carrying: list[Passenger]) -> None:
        if not carrying:
            return
        if card is not None and card.transport_capacity == 0:
            self.r.error(f"{key}.carrying", f"{card.id} has no transport capacity (9.11)")
            return
        load = 0
        for j, p in enumerate(carrying):
            pkey = f"{key}.carrying[{j}].unit"
            pc = self.card(p.unit, side, pkey)
            if pc is None:
                continue
            if pc.is_vehicle:
                self.r.error(pkey, f"{pc.id} is a vehicle: only infantry and artillery are "
                             f"transported (9.11)")
            if card is not None and card.carries_tank_riders and not pc.is_infantry:
                self.r.error(pkey, f"{card.id} carries tank riders, which must be infantry (9.11.1)")
            load += pc.strength * p.count  # full strength at set-up (9.11)
        if card is not None and load > card.transport_capacity:
            self.r.error(f"{key}.carrying", f"{load} strength points aboard, but {card.id} carries "
                         f"{card.transport_capacity} (9.11, 9.11.1)")

    def check_zone_room(self, key: str, hexes: list[str], cards: list[UnitCard]) -> None:
        """Every unit set up in a zone needs a hex of its own it may stand in (5.8, 9.0, 9.4)."""
        if self.board is None or self.aid is None or not cards:
            return
        free = [h for h in hexes if h not in self.occupied]
        for mt in sorted({c.movement_type for c in cards}):
            allowed = [h for h in free if self.aid.movement_cost(
                self.board.terrain[self.board.grid.index_of(h)], mt) is not None]
            # units of this movement type and those that can stand anywhere they can
            need = sum(1 for c in cards if c.movement_type == mt)
            if len(allowed) < need:
                self.r.error(key, f"{need} {mt}-moving unit{'s' if need > 1 else ''} set up here, "
                             f"but only {len(allowed)} free hex{'es' if len(allowed) != 1 else ''} "
                             f"of the zone allow {mt} movement (prohibited terrain, 9.4; one unit "
                             f"per hex, 5.8)")
        if len(free) < len(cards):
            self.r.error(key, f"{len(cards)} units set up here but the zone has {len(free)} free "
                         f"hexes (one unit per hex, 5.8)")

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
            full = _unit_id(fid, side)
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
            fd.deck = [_unit_id(f, side) for f in fd.deck]
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

    def check_victory(self, key: str, v: SideVictory, side: str) -> None:
        objs = getattr(self, "objective_hexes", set())
        for j, hx in enumerate(v.hold):
            if self.hex_ok(hx, f"{key}.hold[{j}]") and _canon(hx) not in objs:
                self.r.error(f"{key}.hold[{j}]", f"{hx} is not an objective hex (objectives)")
        if v.hold_count > len(objs):
            self.r.error(f"{key}.hold_count", f"{v.hold_count} objectives to hold but the scenario "
                         f"has {len(objs)}")
        if self.raw.get("sides") and v.is_empty:
            self.r.warn(key, f"side {side} has no victory condition: it can only win by "
                        f"victory.if_neither")

    # -- the loaded scenario --------------------------------------------------------------

    def finish(self) -> None:
        """Resolve ids and facings in the validated scenario and attach the data."""
        s = self.s
        s._path = str(self.path)
        s._dice, s._aid, s._units, s._formations = self.dice, self.aid, self.units, self.formations
        s._data_chosen = dict(self.chosen)
        s._board = self.board
        orientation = self.board.grid.orientation if self.board else "flat"
        s.objectives = [Objective(hex=_canon(o.hex), value=o.value, name=o.name)
                        for o in s.objective_list]
        for name, side in s.sides.items():
            for f in side.units:
                f.unit = _unit_id(f.unit, name)
                if f.hex is not None:
                    f.hex = _canon(f.hex)
                if f.facing is not None:
                    try:
                        f.facing = parse_facing(f.facing, orientation)
                    except InputError:
                        pass
                for p in f.carrying:
                    p.unit = _unit_id(p.unit, name)
            for rf in side.reinforcements:
                for u in rf.units:
                    u.unit = _unit_id(u.unit, name)
                    for p in u.carrying:
                        p.unit = _unit_id(p.unit, name)
            side.victory.hold = [_canon(h) for h in side.victory.hold]


def _canon(name: str) -> str:
    c, r = parse_hex_name(name)
    return f"{c},{r}"


def _quote(char: str) -> str:
    return f'"{char}"' if not re.fullmatch(r"[A-Za-z0-9_-]+", char) else char


def facing_name(facing: int, orientation: str) -> str:
    return vertex_names(orientation)[facing]


# --- alternate history (5.3) ------------------------------------------------------------

def equivalent_unit(card: UnitCard, side: str, units: dict[str, UnitCard]) -> UnitCard:
    """The other side's closest equivalent of a unit (5.3, 5.7): the same type, then the
    same class, else the class sharing most trailing words ("medium machine gun" ~
    "heavy machine gun"), then the nearest points value (4.2.1), then the lowest id."""
    own = [u for u in units.values() if u.side == side and u.type == card.type]
    if not own:
        raise InputError("alternate history", card.id, f"side {side} has no {card.type} unit "
                         f"to stand in for {card.id} (5.3)")

    def shared(a: str, b: str) -> int:
        n = 0
        for x, y in zip(reversed(a.split()), reversed(b.split()), strict=False):
            if x != y:
                break
            n += 1
        return n

    return min(own, key=lambda u: (u.unit_class != card.unit_class,
                                   -shared(u.unit_class, card.unit_class),
                                   abs(u.points - card.points), u.id))


def alternate_history(scenario: Scenario) -> Scenario:
    """The alternate-history version of a scenario (5.3): each side takes the other
    faction's colour, set-up zones, formation draws, reinforcements and victory
    conditions; the individual units listed for the other faction (starting forces and
    reinforcements) become the side's own closest equivalents (:func:`equivalent_unit`).
    Formation draws come from the side's own deck (``deck`` reset to all its cards).
    Side order, map and objectives stay."""
    a, b = scenario.side_names
    new = scenario.model_copy(deep=True)
    for attr in ("_path", "_dice", "_aid", "_units", "_formations", "_board", "_data_chosen"):
        setattr(new, attr, getattr(scenario, attr))
    units = scenario.units
    swap = {a: b, b: a}

    def convert(uid: str, side: str) -> str:
        return equivalent_unit(units[uid], side, units).id

    for side in (a, b):
        theirs = scenario.sides[swap[side]].model_copy(deep=True)
        for f in theirs.units:
            f.unit = convert(f.unit, side)
            for p in f.carrying:
                p.unit = convert(p.unit, side)
        for rf in theirs.reinforcements:
            for u in rf.units:
                u.unit = convert(u.unit, side)
                for p in u.carrying:
                    p.unit = convert(p.unit, side)
        if theirs.formations is not None:
            theirs.formations.deck = None
        new.sides[side] = theirs
    for key in ("first_setup", "initiative"):
        value = getattr(scenario, key)
        setattr(new, key, swap.get(value, value))
    new.victory.if_neither = swap.get(scenario.victory.if_neither, scenario.victory.if_neither)
    new.name = f"{scenario.name} (alternate history)"
    return new
