"""Unit cards (4.2) as data: one TOML file per side under ``scenarios/assault/units/``.

A unit file names its ``side`` and holds one table per unit, keyed by the unit's name
in lower case with dashes; the unit's id is ``side/name`` (``german/rifles-41``).
Every pool string is checked against the dice set in use. Values are the project's
illustrative choice unless the card's ``stated`` table names the section that states
them.

Pools come in two forms: ``*_pool`` methods return pool strings (``"RY"``, ``"-"``),
``*_dice`` methods return pools as tuples of die letters, strongest first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from simulator.games.assault.rules.dice import DiceSet, Pool, as_dice, format_pool, parse_pool_at
from simulator.run.datafile import SCENARIOS_DIR, file_digest, read_format, read_toml, validate
from simulator.run.errors import InputError
from simulator.run.vocabulary import UNIT_TYPES

if TYPE_CHECKING:   # annotations only: pandas loads with the roster table
    import pandas as pd

DEFAULT_UNITS_DIR = SCENARIOS_DIR / "assault" / "units"

MOVEMENT_TYPES = ("foot", "gun", "wheeled", "tracked")
VEHICLE_MOVEMENT = ("wheeled", "tracked")
FACINGS = ("front", "flank", "rear", "above")  # areas of impact (10.9.3)
NAME_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
TANK_RIDERS = 4  # 9.11.1: armoured tracked vehicles carry 4 strength points of infantry
# The roster table, one row per card (``lanchester assault units``, its units.csv;
# docs/report-columns.md, "Rosters").
UNITS_COLUMNS = ["id", "side", "name", "type", "class", "armoured", "strength", "movement",
                 "movement_type", "ranges", "close_combat", "defence", "abilities", "points",
                 "source", "stated"]


# --- the file's shape (pydantic) ------------------------------------------------------

def _positive(value: int) -> int:
    if value < 1:
        raise PydanticCustomError("positive", "must be positive")
    return value


def _not_negative(value: int) -> int:
    if value < 0:
        raise PydanticCustomError("not_negative", "must be 0 or more")
    return value


def _defence_shape(value: Any) -> Any:
    """One pool string (infantry, artillery) or a pool per facing (vehicles, 10.9.3)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in FACINGS:
                raise PydanticCustomError(
                    "facing", f"unknown facing {k!r} (front, flank, rear, above)")
            if not isinstance(v, str):
                raise PydanticCustomError(
                    "facing_pool", f"the {k} defence must be a pool string such as 'YG'")
        return value
    raise PydanticCustomError(
        "defence", "must be a pool string such as 'Y', or for a vehicle a table with a "
                   "pool per facing: front, flank, rear, above")


def _flatten_stated(value: Any, prefix: str = "") -> Any:
    """``stated`` keys may be written dotted without quotes (TOML then nests them)."""
    if not isinstance(value, dict):
        return value
    flat: dict[str, Any] = {}
    for k, v in value.items():
        path = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, dict):
            flat.update(_flatten_stated(v, path))
        else:
            flat[path] = v
    return flat


Positive = Annotated[int, AfterValidator(_positive)]
NotNegative = Annotated[int, AfterValidator(_not_negative)]
Defence = Annotated[str | dict[str, str], BeforeValidator(_defence_shape)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _BandModel(_Strict):
    min: Positive
    max: Positive
    vs_vehicle: str
    vs_infantry: str


class _CloseCombatModel(_Strict):
    vs_vehicle: str
    vs_infantry: str


class _IndirectModel(_Strict):
    min: Positive
    max: Positive
    dice: str


class _AbilitiesModel(_Strict):
    turret: bool = False                # 10.6
    slow: bool = False                  # 9.2, 9.9: no fast action
    immobile: bool = False              # 9.11.4 (German text): loaded by its transport
    transport: NotNegative | None = None  # 9.11: capacity in strength points
    support: bool = False               # the 'S' symbol: activated in the support phase (6.3)
    indirect_fire: _IndirectModel | None = None  # 7.1: one range band, dice on the card back
    smoke: bool = False                 # 7.5: fires smoke with its indirect-fire dice


class _UnitModel(_Strict):
    name: str = Field(min_length=1)
    type: Literal[UNIT_TYPES]        # a tuple subscript is the same as its items
    unit_class: str = Field(alias="class", min_length=1)
    armoured: bool | None = None
    strength: Positive
    half_strength: Positive | None = None
    movement: NotNegative
    movement_type: Literal[MOVEMENT_TYPES]
    ranges: list[_BandModel] = []
    close_combat: _CloseCombatModel
    defence: Defence
    abilities: _AbilitiesModel = _AbilitiesModel()
    points: NotNegative
    source: str = Field(min_length=1)
    stated: Annotated[dict[str, str], BeforeValidator(_flatten_stated)] = {}


class _UnitFileModel(_Strict):
    side: str = Field(min_length=1)
    status: str = Field(min_length=1)
    source: str = Field(min_length=1)
    units: dict[str, _UnitModel] = Field(min_length=1)


# --- what the rest of the program uses ------------------------------------------------

@dataclass(frozen=True)
class RangeBand:
    """One direct-fire range band of a card (10.1): attack dice per target row."""

    min: int
    max: int
    vs_vehicle: Pool
    vs_infantry: Pool

    def covers(self, distance: int) -> bool:
        return self.min <= distance <= self.max

    @property
    def label(self) -> str:
        return f"{self.min}" if self.min == self.max else f"{self.min}-{self.max}"


@dataclass(frozen=True)
class IndirectFire:
    """Indirect fire (7.1): one range band and one pool, used throughout the band."""

    min: int
    max: int
    dice: Pool


@dataclass(frozen=True)
class UnitCard:
    """One unit card (4.2), validated against a dice set."""

    id: str
    side: str
    name: str
    type: str
    unit_class: str
    armoured: bool
    strength: int
    half_strength: int  # strength points left on the counter's reverse side (4.3)
    movement: int
    movement_type: str
    ranges: tuple[RangeBand, ...]
    close_combat_vs_vehicle: Pool
    close_combat_vs_infantry: Pool
    defence: tuple[tuple[str, Pool], ...]  # (("all", pool),) or one pair per facing
    points: int
    source: str
    stated: tuple[tuple[str, str], ...] = ()
    turret: bool = False
    slow: bool = False
    immobile: bool = False
    transport: int | None = None
    support: bool = False
    indirect_fire: IndirectFire | None = None
    smoke: bool = False
    status: str = field(default="", compare=False)  # the unit file's status
    path: str = field(default="", compare=False)

    # -- what kind of unit -----------------------------------------------------------

    @property
    def is_vehicle(self) -> bool:
        return self.type == "vehicle"

    @property
    def is_infantry(self) -> bool:
        return self.type == "infantry"

    @property
    def is_artillery(self) -> bool:
        return self.type == "artillery"

    @property
    def is_armoured_vehicle(self) -> bool:
        """Armoured vehicles are attacked with the vs-vehicle row; unarmoured ones and
        everything else with the vs-infantry row (4.2.2, 10.1)."""
        return self.is_vehicle and self.armoured

    @property
    def has_turret(self) -> bool:
        return self.turret

    @property
    def arc_of_fire(self) -> int:
        """Degrees: infantry fire all round, artillery and vehicles through their two
        frontal hexes (10.6)."""
        return 360 if self.is_infantry else 120

    # -- strength ----------------------------------------------------------------------

    @property
    def half_strength_threshold(self) -> int:
        """Damage points at which the counter flips to its half-strength side (4.3)."""
        return self.strength - self.half_strength

    # -- attack ------------------------------------------------------------------------

    @property
    def max_range(self) -> int:
        return self.ranges[-1].max if self.ranges else 0

    def band(self, distance: int) -> RangeBand | None:
        """The direct-fire range band covering ``distance`` hexes, if any (10.1)."""
        for b in self.ranges:
            if b.covers(distance):
                return b
        return None

    def attack_dice(self, distance: int, target_is_armoured_vehicle: bool) -> Pool | None:
        """Card attack dice at ``distance`` hexes; 0 is close combat (10.1, 12.8).

        Use the vs-vehicle row only against an armoured vehicle (4.2.2). ``None`` when
        the target is out of range; an empty pool when the band has no dice for it.
        """
        if distance < 0:
            raise ValueError(f"distance must be 0 or more (got {distance})")
        if distance == 0:
            return (self.close_combat_vs_vehicle if target_is_armoured_vehicle
                    else self.close_combat_vs_infantry)
        b = self.band(distance)
        if b is None:
            return None
        return b.vs_vehicle if target_is_armoured_vehicle else b.vs_infantry

    def attack_pool(self, distance: int, target_is_armoured_vehicle: bool) -> str | None:
        """:meth:`attack_dice` as a pool string (``"RY"``, ``"-"``), ``None`` out of range."""
        dice = self.attack_dice(distance, target_is_armoured_vehicle)
        return None if dice is None else format_pool(dice)

    def can_fire_at(self, distance: int, target_is_armoured_vehicle: bool) -> bool:
        """Whether the card gives any direct-fire dice at this distance (``distance`` >= 1)."""
        return bool(self.attack_dice(distance, target_is_armoured_vehicle)) and distance > 0

    @property
    def has_ranged_fire(self) -> bool:
        """Any direct-fire dice at all (a truck has none; revised 12: cannot support)."""
        return any(b.vs_vehicle or b.vs_infantry for b in self.ranges)

    # -- defence -----------------------------------------------------------------------

    def defence_dice(self, facing: str | None = None) -> Pool:
        """Card defence dice; vehicles need the area of impact (10.9.3)."""
        table = dict(self.defence)
        if not self.is_vehicle:
            return table["all"]
        if facing not in FACINGS:
            raise ValueError(f"{self.id} is a vehicle: give a facing ({', '.join(FACINGS)}), "
                             f"got {facing!r}")
        return table[facing]

    def defence_pool(self, facing: str | None = None) -> str:
        """:meth:`defence_dice` as a pool string."""
        return format_pool(self.defence_dice(facing))

    def strongest_defence_die(self, dice: DiceSet) -> str | None:
        """The strongest card defence die over all facings (4.2.2, 9.10.1)."""
        letters = [d for _, pool in self.defence for d in pool]
        return min(letters, key=dice.rank) if letters else None

    # -- movement and transport ---------------------------------------------------------

    @property
    def can_fast_action(self) -> bool:
        return not self.slow and not self.immobile

    @property
    def transport_capacity(self) -> int:
        """Strength points it can carry (9.11): the card's value, else 4 tank riders for
        an armoured tracked vehicle (9.11.1), else none."""
        if self.transport is not None:
            return self.transport
        if self.is_armoured_vehicle and self.movement_type == "tracked":
            return TANK_RIDERS
        return 0

    @property
    def carries_tank_riders(self) -> bool:
        """Passengers ride on top and must be infantry (9.11.1, 9.11.2)."""
        return (self.is_armoured_vehicle and self.movement_type == "tracked"
                and self.transport_capacity > 0)

    # -- description -------------------------------------------------------------------

    @property
    def abilities(self) -> tuple[str, ...]:
        out = []
        if self.turret:
            out.append("turret")
        if self.slow:
            out.append("slow")
        if self.immobile:
            out.append("immobile")
        if self.transport_capacity:
            out.append(f"transport {self.transport_capacity}"
                       + (" (tank riders)" if self.carries_tank_riders else ""))
        if self.support:
            out.append("support (S)")
        if self.indirect_fire:
            f = self.indirect_fire
            out.append(f"indirect {f.min}-{f.max} {format_pool(f.dice)}")
        if self.smoke:
            out.append("smoke")
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        """A plain description (JSON output): pools as pool strings."""
        defence = ({k: format_pool(v) for k, v in self.defence} if self.is_vehicle
                   else format_pool(dict(self.defence)["all"]))
        return {
            "id": self.id, "side": self.side, "name": self.name, "type": self.type,
            "class": self.unit_class, "armoured": self.armoured, "strength": self.strength,
            "half_strength": self.half_strength, "movement": self.movement,
            "movement_type": self.movement_type,
            "ranges": [{"min": b.min, "max": b.max, "vs_vehicle": format_pool(b.vs_vehicle),
                        "vs_infantry": format_pool(b.vs_infantry)} for b in self.ranges],
            "close_combat": {"vs_vehicle": format_pool(self.close_combat_vs_vehicle),
                             "vs_infantry": format_pool(self.close_combat_vs_infantry)},
            "defence": defence,
            "abilities": {
                "turret": self.turret, "slow": self.slow, "immobile": self.immobile,
                "transport": self.transport_capacity, "support": self.support,
                "indirect_fire": None if self.indirect_fire is None else {
                    "min": self.indirect_fire.min, "max": self.indirect_fire.max,
                    "dice": format_pool(self.indirect_fire.dice)},
                "smoke": self.smoke},
            "points": self.points, "source": self.source, "stated": dict(self.stated),
        }


# --- loading --------------------------------------------------------------------------

def load_units(directory: str | Path | None = None,
               dice: DiceSet | str | Path | None = None) -> dict[str, UnitCard]:
    """Load every ``*.toml`` unit file in ``directory`` (default: the shipped
    ``scenarios/assault/units/``) into ``{id: UnitCard}``, sorted by id.

    Every pool is parsed against ``dice``: a dice set, a dice file, or ``None`` for the
    shipped dice.
    """
    dice = as_dice(dice)
    d = Path(directory) if directory is not None else DEFAULT_UNITS_DIR
    if not d.is_dir():
        raise InputError(str(d), "", "unit directory not found")
    files = sorted(d.glob("*.toml"))
    if not files:
        raise InputError(str(d), "", "no unit files (*.toml) in this directory")
    stamp = tuple((str(f), f.stat().st_mtime_ns) for f in files)
    return dict(_load_cached(stamp, dice))


def find_unit(units: dict[str, UnitCard], unit_id: str, where: str) -> UnitCard:
    """The card ``unit_id`` names (``german/rifles-41``; case does not matter; a plain
    ``rifles-41`` when only one side has it). ``where`` names the argument or key for the
    error, which suggests the closest ids."""
    card = units.get(unit_id) or units.get(str(unit_id).strip().lower())
    if card is not None:
        return card
    wanted = str(unit_id).strip().lower()
    if "/" not in wanted:
        mine = [c for i, c in units.items() if i.split("/", 1)[1] == wanted]
        if len(mine) == 1:
            return mine[0]
    from simulator.run.suggest import did_you_mean
    hint = did_you_mean(wanted, units) or did_you_mean(wanted, [i.split("/", 1)[1] for i in units])
    raise InputError(where, "", f"unknown unit {unit_id!r}{hint or ' (see lanchester assault units)'}")


def units_digest(directory: str | Path | None = None) -> str:
    """A short hash of the unit files, for provenance in reports."""
    d = Path(directory) if directory is not None else DEFAULT_UNITS_DIR
    return file_digest(*sorted(d.glob("*.toml")))


@cache
def _load_cached(stamp: tuple[tuple[str, int], ...], dice: DiceSet) -> tuple[tuple[str, UnitCard], ...]:
    cards: dict[str, UnitCard] = {}
    for path, _ in stamp:
        for card in load_unit_file(path, dice):
            if card.id in cards:
                raise InputError(path, f"units.{card.id.split('/', 1)[1]}",
                                 f"duplicate unit id {card.id!r} (also in {cards[card.id].path})")
            cards[card.id] = card
    return tuple(sorted(cards.items()))


UNITS_FORMAT = 1  # the unit file format (issue 44.9): 1, the first; a file of a newer format is refused


def load_unit_file(path: str | Path, dice: DiceSet) -> list[UnitCard]:
    """Load and check one unit file."""
    where = str(path)
    raw = read_format(read_toml(path), where, "unit file", UNITS_FORMAT, {})
    model = validate(_UnitFileModel, raw, where)
    if not NAME_PATTERN.fullmatch(model.side):
        raise InputError(where, "side", f"must be lower case letters, digits and dashes "
                         f"(got {model.side!r})")
    return [_card(model.side, model.status, name, u, raw["units"][name], dice, where)
            for name, u in model.units.items()]


def _card(side: str, status: str, name: str, u: _UnitModel, raw: dict[str, Any], dice: DiceSet,
          where: str) -> UnitCard:
    key = f"units.{name}"
    if not NAME_PATTERN.fullmatch(name):
        raise InputError(where, key, "unit names must be lower case letters, digits and "
                         "dashes (e.g. rifles-41)")

    def pool(text: str, sub: str) -> Pool:
        return parse_pool_at(text, dice, where, f"{key}.{sub}")

    def fail(sub: str, problem: str):
        raise InputError(where, f"{key}.{sub}" if sub else key, problem)

    vehicle = u.type == "vehicle"
    # 9.10: vehicles move wheeled or tracked; infantry and artillery do not.
    if vehicle != (u.movement_type in VEHICLE_MOVEMENT):
        article = "an" if u.type[0] in "aeiou" else "a"
        fail("movement_type", f"{article} {u.type} unit cannot have movement type {u.movement_type!r} "
             f"({'wheeled or tracked' if vehicle else 'foot or gun'})")
    if u.half_strength is not None and u.half_strength >= u.strength:
        fail("half_strength", f"must be less than strength {u.strength} "
             f"(got {u.half_strength})")
    half = u.half_strength if u.half_strength is not None else u.strength // 2

    bands = _bands(u.ranges, pool, fail)
    defence = _defence(u.defence, vehicle, pool, fail)
    armoured = _armoured(u, vehicle, defence, dice, fail)
    indirect = _abilities(u, vehicle, pool, fail)
    stated = _stated(u.stated, raw, fail)
    a = u.abilities
    return UnitCard(
        id=f"{side}/{name}", side=side, name=u.name, type=u.type, unit_class=u.unit_class,
        armoured=armoured, strength=u.strength, half_strength=half, movement=u.movement,
        movement_type=u.movement_type, ranges=bands,
        close_combat_vs_vehicle=pool(u.close_combat.vs_vehicle, "close_combat.vs_vehicle"),
        close_combat_vs_infantry=pool(u.close_combat.vs_infantry, "close_combat.vs_infantry"),
        defence=defence, points=u.points, source=u.source, stated=stated,
        turret=a.turret, slow=a.slow, immobile=a.immobile, transport=a.transport,
        support=a.support, indirect_fire=indirect, smoke=a.smoke, status=status, path=where)


def _bands(ranges: list[_BandModel], pool, fail) -> tuple[RangeBand, ...]:
    """Range bands (10.1): each min <= max, contiguous and increasing."""
    out: list[RangeBand] = []
    for i, b in enumerate(ranges):
        sub = f"ranges[{i}]"
        if b.max < b.min:
            fail(f"{sub}.max", f"must not be less than min {b.min} (got {b.max})")
        if out and b.min != out[-1].max + 1:
            problem = ("overlaps the band before it" if b.min <= out[-1].max
                       else "leaves a gap after the band before it")
            fail(f"{sub}.min", f"{problem}: bands must be increasing and contiguous, so this "
                 f"band must start at {out[-1].max + 1} (got {b.min})")
        out.append(RangeBand(b.min, b.max, pool(b.vs_vehicle, f"{sub}.vs_vehicle"),
                             pool(b.vs_infantry, f"{sub}.vs_infantry")))
    return tuple(out)


def _defence(defence: str | dict[str, str], vehicle: bool, pool, fail) -> tuple[tuple[str, Pool], ...]:
    """One pool for infantry/artillery; a pool per area of impact for vehicles (10.9.3)."""
    if not vehicle:
        if not isinstance(defence, str):
            fail("defence", "infantry and artillery have one defence pool (a pool string), "
                 "not one per facing")
        return (("all", pool(defence, "defence")),)
    if isinstance(defence, str):
        fail("defence", "a vehicle needs a defence pool per facing (10.9.3): "
             'defence = { front = "..", flank = "..", rear = "..", above = ".." }')
    missing = [f for f in FACINGS if f not in defence]
    if missing:
        fail("defence", f"a vehicle needs defence dice for front, flank, rear and above "
             f"(missing: {', '.join(missing)})")
    return tuple((f, pool(defence[f], f"defence.{f}")) for f in FACINGS)


def _armoured(u: _UnitModel, vehicle: bool, defence, dice: DiceSet, fail) -> bool:
    """4.2.2: a vehicle is armoured when its strongest defence die is stronger than the
    weakest colour (blue); ``armoured`` may be left out and is then derived."""
    if not vehicle:
        if u.armoured:
            fail("armoured", "only vehicles can be armoured (4.2.2)")
        return False
    letters = [d for _, p in defence for d in p]
    weakest = dice.dice[-1].letter
    derived = any(dice.rank(d) < dice.rank(weakest) for d in letters)
    if u.armoured is not None and u.armoured != derived:
        fail("armoured", f"is {str(u.armoured).lower()}, but 4.2.2 makes a vehicle armoured "
             f"exactly when its strongest defence die is stronger than {dice.dice[-1].colour}")
    return derived


def _abilities(u: _UnitModel, vehicle: bool, pool, fail) -> IndirectFire | None:
    a = u.abilities
    if a.turret and not vehicle:
        fail("abilities.turret", "only vehicles have turrets (10.6)")
    if a.transport is not None and not vehicle:
        fail("abilities.transport", "only vehicles transport units (9.11)")
    if a.immobile and u.type != "artillery":
        fail("abilities.immobile", "only artillery is immobile (9.11.4)")
    if a.immobile and u.movement != 0:
        fail("movement", f"an immobile unit has movement 0 (got {u.movement})")
    indirect = None
    if a.indirect_fire is not None:
        f = a.indirect_fire
        if f.max < f.min:
            fail("abilities.indirect_fire.max", f"must not be less than min {f.min} (got {f.max})")
        indirect = IndirectFire(f.min, f.max, pool(f.dice, "abilities.indirect_fire.dice"))
        if not indirect.dice:
            fail("abilities.indirect_fire.dice", "indirect fire needs at least one die")
    if a.smoke and indirect is None:
        fail("abilities.smoke", "smoke is fired with the indirect-fire dice (7.5): "
             "give abilities.indirect_fire too")
    if (indirect is not None or a.smoke) and not a.support:
        fail("abilities.support", "indirect fire and smoke need the support 'S' (6.3, 7.1): "
             "set support = true")
    if a.support and indirect is None:
        fail("abilities.support", "a support unit needs something to do in the support phase: "
             "give abilities.indirect_fire (6.3, 7.1)")
    return indirect


def _stated(stated: dict[str, str], raw: dict[str, Any], fail) -> tuple[tuple[str, str], ...]:
    """``stated`` maps a key of this card to the section stating its value; the key must
    name a value present on the card (``strength``, ``ranges[1].vs_infantry``)."""
    for path, where in stated.items():
        if not _has_path(raw, path):
            fail(f"stated.{path}", "names no value on this card")
        if not where.strip():
            fail(f"stated.{path}", "needs the section that states the value")
    return tuple(stated.items())


def _has_path(raw: Any, path: str) -> bool:
    node = raw
    for part in path.split("."):
        m = re.fullmatch(r"([A-Za-z_][\w-]*)((?:\[\d+\])*)", part)
        if not m or not isinstance(node, dict) or m.group(1) not in node:
            return False
        node = node[m.group(1)]
        for idx in re.findall(r"\[(\d+)\]", m.group(2)):
            if not isinstance(node, list) or int(idx) >= len(node):
                return False
            node = node[int(idx)]
    return True


# --- the roster as a table ---------------------------------------------------------

def ranges_summary(card: UnitCard) -> str:
    """``1-2 B/RYG; 3-4 -/RY``: each band with its dice vs vehicles / vs infantry (10.1)."""
    return "; ".join(f"{b.label} {format_pool(b.vs_vehicle)}/{format_pool(b.vs_infantry)}"
                     for b in card.ranges) or "-"


def defence_summary(card: UnitCard) -> str:
    """``Y``, or per area of impact for vehicles: ``front RY, flank G, rear B, above B``."""
    if not card.is_vehicle:
        return card.defence_pool()
    return ", ".join(f"{facing} {format_pool(pool)}" for facing, pool in card.defence)


def source_summary(card: UnitCard) -> str:
    """``illustrative + rulebook 12.11, 5.7``: the card's source and the sections that
    state some of its values."""
    sections = sorted({m.group(0) for cite in dict(card.stated).values()
                       for m in [re.search(r"\d+(\.\d+)*", cite)] if m},
                      key=lambda s: tuple(int(x) for x in s.split(".")))
    return card.source + (f" + rulebook {', '.join(sections)}" if sections else "")


def side_cards(side: str | None, units: dict[str, UnitCard]) -> list[UnitCard]:
    """The unit cards of ``side`` (every card when None), sorted by id."""
    cards = list(units.values())
    sides = sorted({c.side for c in cards})
    if side is not None:
        if side not in sides:
            raise InputError("--side", "", f"no units of side {side!r} (sides: {', '.join(sides)})")
        cards = [c for c in cards if c.side == side]
    return cards


def units_frame(cards: list[UnitCard]) -> pd.DataFrame:
    """The roster as a tidy table (:data:`UNITS_COLUMNS`), one row per unit card: what
    ``lanchester assault units`` shows and its report holds (the answer with the data
    used is :func:`simulator.games.assault.questions.units.unit_cards`)."""
    import pandas as pd

    rows = [{
        "id": c.id, "side": c.side, "name": c.name, "type": c.type, "class": c.unit_class,
        "armoured": c.armoured, "strength": c.strength, "movement": c.movement,
        "movement_type": c.movement_type, "ranges": ranges_summary(c),
        "close_combat": f"{format_pool(c.close_combat_vs_vehicle)}/"
                        f"{format_pool(c.close_combat_vs_infantry)}",
        "defence": defence_summary(c), "abilities": ", ".join(c.abilities) or "-",
        "points": c.points, "source": source_summary(c),
        "stated": "; ".join(f"{k}: {v}" for k, v in c.stated),
    } for c in cards]
    return pd.DataFrame(rows, columns=UNITS_COLUMNS)
