"""The player's aid (4.6) as data: terrain chart, hill row, ranged-fire modification
table, spotting numbers and experience effects.

Everything comes from a TOML file (``scenarios/assault/aid.toml`` by default,
``--aid FILE`` to swap in another); the shipped values are reconstructed unless the
file's comments name a section. Pools are checked against the dice set in use.

Lookups return pools as tuples of die letters, strongest first (see
:mod:`simulator.games.assault.rules.dice`); use :func:`~simulator.games.assault.rules.dice.format_pool` to
print them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from simulator.games.assault.rules.cards import MOVEMENT_TYPES, NAME_PATTERN
from simulator.games.assault.rules.dice import DiceSet, Pool, as_dice, normalise, parse_pool_at
from simulator.run.datafile import SCENARIOS_DIR, file_digest, read_format, read_toml, validate
from simulator.run.errors import InputError
from simulator.run.suggest import did_you_mean

DEFAULT_AID_FILE = SCENARIOS_DIR / "assault" / "aid.toml"

# 10.0: the four fire statuses; "fire and move" shares the Move/Fire row (10.9.5).
from simulator.run.vocabulary import FIRE_STATUSES  # noqa: E402 - one definition

_FIRE_ROW = {"fire-and-move": "move-and-fire"}
# The three columns of the ranged-fire modification table (10.9.4, 10.9.5).
FIRE_CASES = ("any", "fast-vehicle", "failed-spot")
from simulator.run.vocabulary import EXPERIENCE_LEVELS  # noqa: E402 - one definition

PROHIBITED = "prohibited"


# --- the file's shape (pydantic) ------------------------------------------------------

def _cost_at_least(least: int):
    """A movement cost: a whole number of movement points, or "prohibited" (9.4)."""
    def check(value):
        if value == PROHIBITED or (type(value) is int and value >= least):
            return value
        raise PydanticCustomError(
            "movement_cost",
            f'must be a whole number of movement points ({least} or more) or "prohibited"')
    return check


def _spot(value):
    """A spotting number: the d6 roll needed (1..6), or "auto" (10.5, 10.5.1)."""
    if value == "auto" or (type(value) is int and 1 <= value <= 6):
        return value
    raise PydanticCustomError("spot", 'must be a d6 number 1..6 (roll that or better) or "auto"')


MovementCost = Annotated[int | str, BeforeValidator(_cost_at_least(1))]
ExtraCost = Annotated[int | str, BeforeValidator(_cost_at_least(0))]
SpotNumber = Annotated[int | str, BeforeValidator(_spot)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _MovementModel(_Strict):
    foot: MovementCost
    gun: MovementCost
    wheeled: MovementCost
    tracked: MovementCost


class _TerrainModel(_Strict):
    defence_infantry: str
    defence_vehicle: str
    movement: _MovementModel
    vehicle_damage: str = "-"
    los: Literal["clear", "hinder", "blocked"]
    los_dice: str = "-"
    height: int = Field(ge=0)
    spot: SpotNumber
    free_facing: bool = False
    # where the row's values come from: "stated" (all in the rule book), "partly stated"
    # (the comments name the stated values) or "reconstructed" (the project's choice)
    status: Literal["stated", "partly stated", "reconstructed"] = "reconstructed"


class _ExtraMovementModel(_Strict):
    foot: ExtraCost
    gun: ExtraCost
    wheeled: ExtraCost
    tracked: ExtraCost


class _HillModel(_Strict):
    defence_infantry: str
    defence_vehicle: str
    movement: _ExtraMovementModel
    vehicle_damage: str = "-"
    ground: int = Field(ge=1)
    spot: SpotNumber
    fast_action_uphill: bool = False


class _FireRowModel(_Strict):
    any_target: str
    fast_vehicle: str
    failed_spot: str


class _FireTableModel(_Strict):
    firing: _FireRowModel
    turret_firing: _FireRowModel = Field(alias="turret-firing")
    move_and_fire: _FireRowModel = Field(alias="move-and-fire")


class _SpottingModel(_Strict):
    outside_arc: int = Field(ge=1, le=6)


class _ExperienceModel(_Strict):
    attack: str = "-"
    defence: str = "-"
    attacker_supp: int = Field(default=0, ge=0)
    ignores_supp: bool = False


class _ExperienceTableModel(_Strict):
    recruit: _ExperienceModel
    regular: _ExperienceModel
    hardened: _ExperienceModel
    veteran: _ExperienceModel
    elite: _ExperienceModel


class _AidFileModel(_Strict):
    name: str = Field(min_length=1)
    status: str = Field(min_length=1)
    source: str = Field(min_length=1)
    terrain: dict[str, _TerrainModel] = Field(min_length=1)
    hill: _HillModel
    fire_modifier: _FireTableModel
    spotting: _SpottingModel
    experience: _ExperienceTableModel
    # revised 12.1.3: fortification dice per side; checked by simulator.games.assault.rules.melee.fortifications
    fortification: dict[str, dict[str, str]] = {}


# --- what the rest of the program uses ------------------------------------------------

@dataclass(frozen=True)
class Terrain:
    """One row of the terrain chart. A movement cost of ``None`` means prohibited."""

    name: str
    defence_infantry: Pool
    defence_vehicle: Pool
    movement: tuple[tuple[str, int | None], ...]
    vehicle_damage: Pool
    los: str
    los_dice: Pool
    height: int
    spot: int | None  # None = automatically spotted (10.5.1)
    free_facing: bool
    status: str = "reconstructed"  # "stated", "partly stated" or "reconstructed"

    def defence_dice(self, target_is_vehicle: bool) -> Pool:
        """Terrain defence dice for a target in this hex (10.9.1)."""
        return self.defence_vehicle if target_is_vehicle else self.defence_infantry

    def movement_cost(self, movement_type: str) -> int | None:
        """Movement points to enter (9.4); ``None`` when the movement type may not enter."""
        return dict(self.movement)[movement_type]

    @property
    def hinders(self) -> bool:
        return self.los == "hinder"

    @property
    def blocks(self) -> bool:
        return self.los == "blocked"


@dataclass(frozen=True)
class Hill:
    """The hill row (9.6.1): added to the terrain of a hill hex."""

    defence_infantry: Pool
    defence_vehicle: Pool
    movement: tuple[tuple[str, int | None], ...]
    vehicle_damage: Pool
    ground: int
    spot: int | None
    fast_action_uphill: bool

    def defence_dice(self, target_is_vehicle: bool) -> Pool:
        return self.defence_vehicle if target_is_vehicle else self.defence_infantry

    def movement_cost(self, movement_type: str) -> int | None:
        return dict(self.movement)[movement_type]


@dataclass(frozen=True)
class Experience:
    """The effects of one experience level (4.2.3), cumulated."""

    level: str
    attack: Pool
    defence: Pool
    attacker_supp: int
    ignores_supp: bool


@dataclass(frozen=True)
class Aid:
    """A player's aid, validated against one dice set."""

    name: str
    status: str
    source: str
    path: str
    digest: str
    dice: DiceSet
    terrains: tuple[Terrain, ...]
    hill: Hill
    fire_table: tuple[tuple[str, tuple[Pool, Pool, Pool]], ...]
    outside_arc_spot: int
    levels: tuple[Experience, ...]

    @property
    def label(self) -> str:
        """What reports print: ``aid: assault-default, reconstructed``."""
        return f"{self.name}, {self.status}"

    @property
    def terrain_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.terrains)

    def terrain(self, name: str, where: str = "--terrain", key: str = "") -> Terrain:
        """The terrain chart row for ``name`` ("heavy forest" and "heavy-forest" both work).

        ``where``/``key`` name the caller's file and key for the error message when the
        terrain is unknown.
        """
        wanted = _terrain_key(name)
        for t in self.terrains:
            if t.name == wanted:
                return t
        raise InputError(where, key, f"unknown terrain {name!r}{did_you_mean(name, self.terrain_names)} "
                         f"(aid {self.name} knows: {', '.join(self.terrain_names)})")

    def terrain_defence(self, name: str, target_is_vehicle: bool, *, on_hill: bool = False,
                        hill_counts: bool = True) -> Pool:
        """Terrain defence dice of a hex (10.9.1), with the hill die when it counts (9.6.1).

        ``hill_counts`` is False when the firer is at the target's elevation.
        """
        pool = self.terrain(name).defence_dice(target_is_vehicle)
        if on_hill and hill_counts:
            pool = normalise((*pool, *self.hill.defence_dice(target_is_vehicle)), self.dice)
        return pool

    def movement_cost(self, name: str, movement_type: str, *, climbing: bool = False) -> int | None:
        """Cost to enter a hex (9.4); ``climbing`` adds the hill row (9.6.1).

        ``None`` means the movement type may not enter. Whether a move climbs (it does
        not between hexes of the same hill) is the movement rules' question.
        """
        if movement_type not in MOVEMENT_TYPES:
            raise InputError("movement type", "", f"unknown movement type {movement_type!r} "
                             f"({', '.join(MOVEMENT_TYPES)})")
        cost = self.terrain(name).movement_cost(movement_type)
        if cost is None or not climbing:
            return cost
        extra = self.hill.movement_cost(movement_type)
        return None if extra is None else cost + extra

    def fire_modifier(self, fire_status: str, case: str = "any") -> Pool:
        """The defender's extra dice from the ranged-fire modification table (10.9.4, 10.9.5).

        ``case``: ``any`` (first column), ``fast-vehicle`` (the target is a vehicle marked
        fast action; replaces the first column), ``failed-spot`` (the spotting roll
        failed; infantry and artillery targets only).
        """
        if fire_status not in FIRE_STATUSES:
            raise InputError("fire status", "", f"unknown fire status {fire_status!r} "
                             f"({', '.join(FIRE_STATUSES)})")
        if case not in FIRE_CASES:
            raise InputError("fire case", "", f"unknown case {case!r} ({', '.join(FIRE_CASES)})")
        row = dict(self.fire_table)[_FIRE_ROW.get(fire_status, fire_status)]
        return row[FIRE_CASES.index(case)]

    def spot_number(self, name: str, *, target_is_vehicle: bool = False, on_hill: bool = False,
                    hill_counts: bool = True, outside_arc: bool = False) -> int | None:
        """The d6 roll needed to spot a target in this hex (10.5), or ``None`` if it is
        spotted automatically as far as terrain and arc of fire go.

        10.5.1 item 2: a clear or road hex (spot "auto" in the aid) is spotted
        automatically "regardless of any terrain defence bonus", a hill's included.
        Otherwise a hex sets a number only when it gives *this* target a defence bonus
        (item 1); a hill hex whose terrain sets none uses the hill's. Outside the firer's
        arc (10.6, "see 10.5") the roll is 10.5's: the automatic items come first, as
        they do for adjacent and firing targets (items 3, 4, the fire rules' concern),
        so ``outside_arc`` only matters for a bonus hex without a number of its own
        (then the aid's default). Reading D13.
        """
        terrain = self.terrain(name)
        if terrain.spot is None:                       # 10.5.1 item 2
            return None
        number = None
        bonus = bool(terrain.defence_dice(target_is_vehicle))
        if bonus:
            number = terrain.spot
        if on_hill and hill_counts and self.hill.defence_dice(target_is_vehicle):
            bonus = True
            if number is None:
                number = self.hill.spot
        if number is None and bonus and outside_arc:
            number = self.outside_arc_spot
        return number

    def experience(self, level: str) -> Experience:
        """The effects of an experience level (4.2.3)."""
        for e in self.levels:
            if e.level == level:
                return e
        raise InputError("experience", "", f"unknown experience level {level!r} "
                         f"({', '.join(EXPERIENCE_LEVELS)})")


# --- loading --------------------------------------------------------------------------

def _terrain_key(name: str) -> str:
    return re.sub(r"[\s_]+", "-", name.strip().lower())


AID_FORMAT = 1  # the aid.toml format (issue 44.9): 1, the first; a file of a newer format is refused


def load_aid(path: str | Path | None = None, dice: DiceSet | str | Path | None = None) -> Aid:
    """Load and check a player's aid (default: the shipped ``scenarios/assault/aid.toml``).

    Every pool is parsed against ``dice``: a dice set, a dice file, or ``None`` for the
    shipped dice.
    """
    dice = as_dice(dice)
    p = Path(path) if path is not None else DEFAULT_AID_FILE
    where = str(p)
    model = validate(_AidFileModel, read_format(read_toml(p), where, "aid.toml", AID_FORMAT, {}), where)

    def pool(text: str, key: str) -> Pool:
        return parse_pool_at(text, dice, where, key)

    terrains = []
    for name, t in model.terrain.items():
        key = f"terrain.{name}"
        if not NAME_PATTERN.fullmatch(name):
            raise InputError(where, key, "terrain names must be lower case letters, digits "
                             "and dashes (e.g. heavy-forest)")
        los_dice = pool(t.los_dice, f"{key}.los_dice")
        if t.los == "hinder" and not los_dice:
            raise InputError(where, f"{key}.los_dice",
                             "a hindering terrain needs the die it adds (10.9.2)")
        if t.los != "hinder" and los_dice:
            raise InputError(where, f"{key}.los_dice", f"only hindering terrain adds LOS dice "
                             f"(los is {t.los!r})")
        terrains.append(Terrain(
            name=name,
            defence_infantry=pool(t.defence_infantry, f"{key}.defence_infantry"),
            defence_vehicle=pool(t.defence_vehicle, f"{key}.defence_vehicle"),
            movement=_costs(t.movement),
            vehicle_damage=pool(t.vehicle_damage, f"{key}.vehicle_damage"),
            los=t.los, los_dice=los_dice, height=t.height,
            spot=None if t.spot == "auto" else t.spot, free_facing=t.free_facing, status=t.status))

    h = model.hill
    hill = Hill(defence_infantry=pool(h.defence_infantry, "hill.defence_infantry"),
                defence_vehicle=pool(h.defence_vehicle, "hill.defence_vehicle"),
                movement=_costs(h.movement),
                vehicle_damage=pool(h.vehicle_damage, "hill.vehicle_damage"),
                ground=h.ground, spot=None if h.spot == "auto" else h.spot,
                fast_action_uphill=h.fast_action_uphill)

    fire_table = []
    for status, row in (("firing", model.fire_modifier.firing),
                        ("turret-firing", model.fire_modifier.turret_firing),
                        ("move-and-fire", model.fire_modifier.move_and_fire)):
        key = f"fire_modifier.{status}"
        fire_table.append((status, (pool(row.any_target, f"{key}.any_target"),
                                    pool(row.fast_vehicle, f"{key}.fast_vehicle"),
                                    pool(row.failed_spot, f"{key}.failed_spot"))))

    levels = []
    for level in EXPERIENCE_LEVELS:
        e = getattr(model.experience, level)
        key = f"experience.{level}"
        levels.append(Experience(level, pool(e.attack, f"{key}.attack"),
                                 pool(e.defence, f"{key}.defence"),
                                 e.attacker_supp, e.ignores_supp))

    return Aid(model.name, model.status, model.source, where, file_digest(p), dice,
               tuple(terrains), hill, tuple(fire_table), model.spotting.outside_arc, tuple(levels))


def _costs(m: _MovementModel | _ExtraMovementModel) -> tuple[tuple[str, int | None], ...]:
    return tuple((mt, None if getattr(m, mt) == PROHIBITED else getattr(m, mt))
                 for mt in MOVEMENT_TYPES)

