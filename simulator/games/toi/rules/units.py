"""Units on the table: squads built from figures, and vehicles, with their state.

A unit is written as a *unit spec*, the same on the command line and in Python::

    squad:3regular+officer            a squad of three regular figures and an officer
    squad:2elite+2regular:medic:pinned    with a specialisation and a condition
    squad:4                           a squad of 4 figures, nothing else known
    sherman:light                     a lightly damaged Sherman
    vehicle:heavy                     some heavily damaged vehicle

Tags after the name, separated by ``:``, say what else is true of the unit:

* condition ``pinned`` / ``disrupted`` (squads, 001 Squad conditions),
  damage ``light`` / ``heavy`` (vehicles, 001 Normal attack results);
* a specialisation ``engineer``, ``anti-tank``, ``flamethrower``, ``medic``
  (001 Specialized squads);
* any feature of ``terrain.toml`` the unit is in or behind: ``woods``,
  ``entrenchment``, ``pillbox``, ``smoke``, ``razor-wire`` (or ``wire``),
  ``minefield``, ...;
* ``higher`` (on higher ground than its target, 001 Range), ``with-officer`` /
  ``with-medic`` (such a figure or squad shares its hex), ``fatigued`` or
  ``op-fire`` (its activation token: such a unit may not lead or support a
  concentrated attack, 001 Action phase; Combined fire), ``unmoved`` (an active
  assaulting squad that has not moved this activation, rulings T18);
* ``dist=N``: hexes to the target, overriding ``--distance``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from simulator.games.toi.rules.data import GameData, normal_name
from simulator.run.errors import InputError

CONDITIONS = ("normal", "pinned", "disrupted")          # 001 Squad conditions
DAMAGE = ("undamaged", "light", "heavy")                # 001 Normal attack results (vehicles)
SPECIALISATIONS = ("engineer", "anti_tank", "flamethrower", "medic")  # 001 Specialized squads
SITUATION = ("higher", "with_officer", "with_medic", "fatigued", "op_fire", "unmoved")
ALIASES = {"wire": "razor_wire", "at": "anti_tank", "light_damage": "light", "heavy_damage": "heavy"}

_FIGURE = re.compile(r"^(\d*)\s*\*?\s*([a-z_]+)$")


@dataclass(frozen=True)
class Squad:
    """A squad base with its figures (001 Setup: build squads)."""

    size: int
    figures: tuple[tuple[str, int], ...] = ()   # (figure id, count); empty when only the size is known
    condition: str = "normal"
    specialisation: str | None = None
    features: frozenset[str] = frozenset()
    situation: frozenset[str] = frozenset()
    distance: int | None = None
    spec: str = ""

    is_vehicle = False

    @property
    def generic(self) -> bool:
        return not self.figures

    def count(self, figure: str) -> int:
        return sum(n for f, n in self.figures if f == figure)

    def ability_usable(self) -> bool:
        """A specialised squad loses its ability while pinned or disrupted (001 Specialized squads)."""
        return self.specialisation is not None and self.condition == "normal"

    def has_specialisation(self, name: str) -> bool:
        return self.specialisation == name and self.ability_usable()

    @property
    def fresh(self) -> bool:
        """No activation token (001 Action phase): neither fatigued nor in Op Fire mode."""
        return not ({"fatigued", "op_fire"} & self.situation)


@dataclass(frozen=True)
class Vehicle:
    """A vehicle and its damage (001 Normal attack results)."""

    model: str | None             # id in units.toml; None for a generic vehicle
    damage: str = "undamaged"
    features: frozenset[str] = frozenset()
    situation: frozenset[str] = frozenset()
    distance: int | None = None
    spec: str = ""

    is_vehicle = True
    condition = "normal"
    specialisation = None

    @property
    def generic(self) -> bool:
        return self.model is None

    @property
    def fresh(self) -> bool:
        return not ({"fatigued", "op_fire"} & self.situation)


Unit = Squad | Vehicle


@dataclass
class _Tags:
    condition: list[str] = field(default_factory=list)
    damage: list[str] = field(default_factory=list)
    specialisation: list[str] = field(default_factory=list)
    features: set[str] = field(default_factory=set)
    situation: set[str] = field(default_factory=set)
    distance: int | None = None


def _read_tags(tokens: list[str], game: GameData, where: str, text: str) -> _Tags:
    tags = _Tags()
    for raw in tokens:
        tag = ALIASES.get(normal_name(raw), normal_name(raw))
        if tag.startswith("dist="):
            tags.distance = _distance(tag[5:], where, text)
        elif tag in CONDITIONS[1:]:
            tags.condition.append(tag)
        elif tag in DAMAGE[1:]:
            tags.damage.append(tag)
        elif tag in SPECIALISATIONS:
            tags.specialisation.append(tag)
        elif tag in SITUATION:
            tags.situation.add(tag)
        elif tag in game.terrain.features:
            tags.features.add(tag)
        else:
            known = (list(CONDITIONS[1:]) + list(DAMAGE[1:]) + list(SPECIALISATIONS) + list(SITUATION)
                     + list(game.terrain.features) + ["dist=N"])
            raise InputError(where, "", f"unknown tag {raw!r} in {text!r} (known: {', '.join(known)})")
    return tags


def _distance(text: str, where: str, spec: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise InputError(where, "", f"dist= needs a whole number of hexes >= 1 in {spec!r}")
    return int(text)


def _read_figures(text: str, game: GameData, where: str, spec: str) -> tuple[int, tuple[tuple[str, int], ...]]:
    text = normal_name(text)
    if text.isdigit():
        return int(text), ()
    counts: dict[str, int] = {}
    for part in text.split("+"):
        m = _FIGURE.match(part.strip())
        name = m.group(2) if m else ""
        if not m or name not in game.units.figures:
            raise InputError(where, "", f"cannot read figure {part!r} in {spec!r} "
                             f"(write e.g. '3regular+officer'; figures: {', '.join(game.units.figures)})")
        counts[name] = counts.get(name, 0) + (int(m.group(1)) if m.group(1) else 1)
    return sum(counts.values()), tuple(counts.items())


def _one(values: list[str], what: str, where: str, spec: str) -> str | None:
    if len(values) > 1:
        raise InputError(where, "", f"more than one {what} in {spec!r}: {', '.join(values)}")
    return values[0] if values else None


def check_hex(features: set[str] | frozenset[str], game: GameData, where: str, spec: str) -> None:
    """What one hex may hold (001 Terrain; Smoke): one main terrain, no smoke where it may not be placed."""
    kinds = [f for f in features if game.terrain.features[f].kind == "terrain"]
    if len(kinds) > 1:
        raise InputError(where, "", f"a hex has one main terrain, {spec!r} names {', '.join(sorted(kinds))}")
    if "smoke" in features:
        for f in sorted(features):
            if game.terrain.features[f].no_smoke:  # 001 Smoke: may not be placed on a building hex
                raise InputError(where, "", f"smoke may not be placed on a {f} hex ({spec!r})")


def check_unit_in(features: set[str] | frozenset[str], is_vehicle: bool, game: GameData, where: str,
                  spec: str) -> None:
    """Whether a unit can be in a hex with these features (001 Terrain movement; Entrenchments)."""
    check_hex(features, game, where, spec)
    for f in sorted(features):
        feat = game.terrain.features[f]
        if feat.closed_to == "all" or (feat.closed_to == "vehicles" and is_vehicle):  # 001 Terrain: impassable
            who = "no vehicle" if feat.closed_to == "vehicles" else "no unit"
            raise InputError(where, "", f"{who} can be in a {f} hex: {feat.movement.value} ({spec!r})")
        if is_vehicle and feat.kind == "fortification":  # 001 Entrenchments & pillboxes: vehicles cannot enter
            raise InputError(where, "", f"a vehicle cannot be in a {f} ({spec!r})")


def _check_features(features: set[str], is_vehicle: bool, game: GameData, where: str, spec: str) -> None:
    check_unit_in(features, is_vehicle, game, where, spec)


def _squad(tokens: list[str], game: GameData, where: str, text: str) -> Squad:
    if len(tokens) < 2 or not tokens[1].strip():
        raise InputError(where, "", f"{text!r}: a squad needs its figures, e.g. 'squad:3regular+officer' or 'squad:4'")
    size, figures = _read_figures(tokens[1], game, where, text)
    tags = _read_tags(tokens[2:], game, where, text)
    if tags.damage:
        raise InputError(where, "", f"{text!r}: damage ({tags.damage[0]}) is for vehicles; "
                         "squads are pinned or disrupted")
    most = game.units.squads.max_figures.value
    if not 1 <= size <= most:
        raise InputError(where, "", f"{text!r}: a squad has 1 to {most} figures (got {size})")
    spec_name = _one(tags.specialisation, "specialisation", where, text)
    heavy = [f for f, _ in figures if game.units.figures[f].has("heavy_weapon")]
    if spec_name and heavy:  # 001 Specialized squads: no heavy infantry weapon figure
        raise InputError(where, "", f"{text!r}: a specialised squad may not hold a {heavy[0]} figure")
    _check_features(tags.features, False, game, where, text)
    return Squad(size=size, figures=figures, condition=_one(tags.condition, "condition", where, text) or "normal",
                 specialisation=spec_name, features=frozenset(tags.features),
                 situation=frozenset(tags.situation), distance=tags.distance, spec=text)


def _vehicle(model: str | None, tokens: list[str], game: GameData, where: str, text: str) -> Vehicle:
    tags = _read_tags(tokens, game, where, text)
    if tags.condition or tags.specialisation:
        bad = (tags.condition + tags.specialisation)[0]
        raise InputError(where, "", f"{text!r}: {bad} is for squads; vehicles take light or heavy damage")
    _check_features(tags.features, True, game, where, text)
    return Vehicle(model=model, damage=_one(tags.damage, "damage", where, text) or "undamaged",
                   features=frozenset(tags.features), situation=frozenset(tags.situation),
                   distance=tags.distance, spec=text)


def parse_unit(text: str, game: GameData, where: str = "unit") -> Unit:
    """Read a unit spec (see the module docstring); ``where`` names the option for errors."""
    tokens = [t for t in text.strip().split(":")]
    head = normal_name(tokens[0]) if tokens else ""
    if head == "squad":
        return _squad(tokens, game, where, text)
    if head == "vehicle":
        return _vehicle(None, tokens[1:], game, where, text)
    if head in game.units.vehicles:
        return _vehicle(head, tokens[1:], game, where, text)
    raise InputError(where, "", f"unknown unit {tokens[0]!r} in {text!r} (squad:FIGURES, vehicle, "
                     f"or one of: {', '.join(game.units.vehicles)})")


def with_features(unit: Unit, features: set[str], game: GameData, where: str) -> Unit:
    """The same unit with extra hex features (``--terrain``, ``--smoke``), checked again."""
    merged = set(unit.features) | set(features)
    _check_features(merged, unit.is_vehicle, game, where, unit.spec)
    return replace(unit, features=frozenset(merged))


def label(unit: Unit, game: GameData) -> str:
    """Short readable name: ``squad 3regular+officer (pinned)``, ``Tiger I (light damage)``."""
    if unit.is_vehicle:
        name = game.units.vehicles[unit.model].name if unit.model else "vehicle"
        state = f" ({unit.damage} damage)" if unit.damage != "undamaged" else ""
        return name + state
    figs = "+".join(f"{n}{f}" for f, n in unit.figures) if unit.figures else f"{unit.size} figures"
    extra = [x for x in (unit.specialisation, unit.condition if unit.condition != "normal" else None) if x]
    return f"squad {figs}" + (f" ({', '.join(extra)})" if extra else "")
