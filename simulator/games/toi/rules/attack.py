"""Ranged attacks: attack strength, defence strength and range (001 Resolving an attack).

An :class:`Attack` is the compiled question: so many black dice succeeding from some
face, so many red dice succeeding on 5-6, a result table to apply. It is built
either from the two strengths directly (:func:`from_strengths`) or from the units
taking part (:func:`build_attack`), which applies every modifier of 001 and logs
each one in the attack's ``notes`` and ``contributions``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simulator.games.toi.rules import shares
from simulator.games.toi.rules.data import Figure, GameData
from simulator.games.toi.rules.results import MODES, Target
from simulator.games.toi.rules.shares import band_index
from simulator.games.toi.rules.units import Squad, Unit, Vehicle, label
from simulator.run.errors import InputError

BANDS = ("close", "normal", "long")
BAND_SUCCESS_FROM = (4, 5, 6)                             # 001 Resolving an attack, step 4, by band index
SUCCESS_FROM = dict(zip(BANDS, BAND_SUCCESS_FROM, strict=True))
AREA_BAND_SUCCESS_FROM = (5, 5, 6)                        # 001 Area attacks; Mortar crew: 6 at long range
AREA_SUCCESS_FROM = dict(zip(BANDS, AREA_BAND_SUCCESS_FROM, strict=True))
DEFENCE_SUCCESS_FROM = 5                                  # 001 step 4: red dice succeed on 5-6
MAX_DICE = 400


def net_hits(successes, cancels):
    """Hits left after the defence cancels one success per success of its own, never
    below 0 (001 Resolving an attack, step 4; 002 step 4).

    Works on ints and element-wise on numpy arrays; the Monte Carlo kernels compile
    it, so exact odds, Monte Carlo and replays share this one rule.
    """
    return np.maximum(successes - cancels, 0)


def range_band(distance: int, range_value: int) -> str | None:
    """Close, normal, long or ``None`` for out of range (001 Range; rulings #15)."""
    i = band_index(distance, range_value)
    return BANDS[i] if i >= 0 else None


def worse_band(a: str, b: str) -> str:
    """The less favourable of two bands (001 Combined fire: the worst range counts)."""
    return a if BANDS.index(a) >= BANDS.index(b) else b


def halved_fpr(fpr: int, times: int) -> int:
    """FPR halved ``times`` times, rounding up; -1 when halved twice, which is not allowed
    (001 Combined fire note; rulings #15). Compiled by the whole-game engine too."""
    if times >= 2:
        return -1
    return -(-fpr // 2) if times == 1 else fpr


def halve(fpr: int, times: int) -> int:
    """FPR halved ``times`` times, rounding up; twice is not allowed (001 Combined fire, rulings #15)."""
    out = halved_fpr(fpr, times)
    if out < 0:
        raise ValueError("halved twice")
    return out


@dataclass(frozen=True)
class Contribution:
    """One unit's share of the attack strength, and why."""

    unit: str
    role: str                  # "lead" or "support"
    fpr: int                   # before halving, bonuses included
    halvings: tuple[str, ...]
    strength: int              # what it adds to the attack
    range: int
    distance: int
    band: str
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Attack:
    """A compiled ranged attack (or minefield entry)."""

    attack_strength: int
    defence_strength: int
    band: str
    success_from: int
    mode: str = "normal"
    area: bool = False
    thick_armour: bool = False
    target: Target | None = None
    armour: int = 0
    cover: int = 0
    contributions: tuple[Contribution, ...] = ()
    notes: tuple[str, ...] = field(default=())
    kind: str = "ranged"       # "ranged", "area" or "minefield"

    @property
    def defence_from(self) -> int:
        return DEFENCE_SUCCESS_FROM


def _check_dice(n: int, where: str) -> None:
    if not 0 <= n <= MAX_DICE:
        raise InputError(where, "", f"must be 0 to {MAX_DICE} dice (got {n})")


def from_strengths(attack_strength: int, defence_strength: int, band: str, *, mode: str = "normal",
                   area: bool = False, thick_armour: bool = False, target: Target | None = None) -> Attack:
    """An attack given by its strengths (001 steps 1-2 already done by the player)."""
    _check_dice(attack_strength, "--attack-strength")
    _check_dice(defence_strength, "--defence-strength")
    if band not in BANDS:
        raise InputError("--range", "", f"unknown range {band!r} (close, normal or long)")
    _check_mode(mode, target)
    table = AREA_SUCCESS_FROM if area else SUCCESS_FROM
    return Attack(attack_strength, defence_strength, band, table[band], mode=mode, area=area,
                  thick_armour=thick_armour, target=target, armour=0, cover=defence_strength,
                  kind="area" if area else "ranged")


def _check_mode(mode: str, target: Target | None) -> None:
    if mode not in MODES:
        raise InputError("--mode", "", f"unknown mode {mode!r} (normal or suppressive)")
    if mode == "suppressive" and target is not None and target.kind == "vehicle":
        raise InputError("--mode", "", "vehicles are immune to suppressive attacks (001 step 3)")


# ---------------------------------------------------------------- the firing side

@dataclass
class _Share:
    """A unit's FPR, range and modifiers while they are being worked out."""

    fpr: int = 0
    range: int = 0
    band: str = "close"
    halvings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    area: bool = False


def _when_supporting(role: str, support_abilities: bool | None, flag) -> bool:
    """Whether an ability "when attacking" works for this unit (rulings T4): always for the
    leading unit; for a supporter as ``support_abilities`` says, else as the data file says."""
    if role == "lead":
        return True
    return flag.value if support_abilities is None else support_abilities


def _weapon(thing, vs: str):
    return thing.vehicle if vs == "vehicle" else thing.infantry


def _hex_halvings(unit: Unit, game: GameData) -> tuple[int, int, list[str]]:
    """Smoke, minefield (all units) and razor wire (squads) in the firer's hex (001 Obstacles):
    the markers halving every unit, those halving squads only, and the names that halve it."""
    for_all, for_squads, out = 0, 0, []
    for name in sorted(unit.features):
        who = game.terrain.features[name].halves_fpr_of
        for_all += who == "all"
        for_squads += who == "squads"
        if who == "all" or (who == "squads" and not unit.is_vehicle):
            out.append(f"in {name}")
    return for_all, for_squads, out


def _firing_figures(squad: Squad, game: GameData) -> tuple[list[tuple[Figure, int, str]], bool]:
    """The figures that fire: mortars alone if the squad has any (001 Mortar crew: No Mixed Fire)."""
    figs = [(game.units.figures[f], n, f) for f, n in squad.figures]
    mortars = [x for x in figs if x[0].has("area_attack")]
    if mortars:
        return mortars, True
    return figs, False


def _squad_share(squad: Squad, role: str, vs: str, target: Unit, distance: int, game: GameData,
                 where: str, support_abilities: bool | None) -> _Share:
    if squad.generic:
        raise InputError(where, "", f"{squad.spec!r}: name the figures of a firing squad, e.g. squad:3regular+officer")
    share = _Share()
    if squad.condition == "pinned":
        share.halvings.append("rally (pinned with officer)")       # allowed: see contribution
    figures, share.area = _firing_figures(squad, game)
    if share.area:
        _mortar_checks(squad, distance, game, where)
        share.notes.append("mortar figures fire alone: area attack (001 Mortar crew)")
    anti_tank = vs == "vehicle" and squad.has_specialisation("anti_tank")
    at = game.units.specialisations.anti_tank
    bonus = game.terrain.rules.higher_ground_range_bonus.value if "higher" in squad.situation else 0
    bands, dropped = [], []
    for fig, n, name in figures:
        w = _weapon(fig, vs)
        i = shares.figure_band(w.fpr.value, w.range.value, distance, bonus, anti_tank, at.vehicle_range.value)
        if i < 0:
            dropped.append(name)
            continue
        share.fpr += n * w.fpr.value                       # 001 step 1: FPR is the sum over the figures
        bands.append(((at.vehicle_range.value if anti_tank else w.range.value) + bonus, BANDS[i]))
    if not bands:
        raise InputError(where, "", f"{squad.spec!r}: no figure can reach a target {distance} hexes away")
    if dropped:
        share.notes.append(f"out of range, not firing: {', '.join(dropped)}")
    share.range = min(r for r, _ in bands)                 # 001 Range: lowest range of the firing figures
    share.band = max((b for _, b in bands), key=BANDS.index)
    if bonus:
        share.notes.append(f"higher ground: +{bonus} range")
    if anti_tank:  # 001 Anti-tank: base range 3, +3 FPR vs vehicles, even when supporting
        share.notes.append(f"anti-tank: base range {at.vehicle_range.value}, +{at.vehicle_fpr_bonus.value} FPR")
    flame = game.units.specialisations.flamethrower
    flaming = (squad.has_specialisation("flamethrower") and distance <= flame.max_distance.value
               and _when_supporting(role, support_abilities, flame.when_supporting))  # 001 Flamethrower
    if flaming:
        share.notes.append(f"flamethrower: +{flame.fpr_bonus.value} FPR")
    share.fpr += shares.squad_bonus(anti_tank, at.vehicle_fpr_bonus.value, flaming, flame.fpr_bonus.value)
    return share


def _mortar_checks(squad: Squad, distance: int, game: GameData, where: str) -> None:
    least = game.units.abilities.minimum_distance.hexes.value
    if distance < least:  # 001 Mortar crew: Minimum Distance
        raise InputError(where, "", f"{squad.spec!r}: mortars cannot fire at a target closer than {least} hexes")
    for name in squad.features:
        if game.terrain.features[name].no_mortar_fire:  # 001 Mortar crew: not from a building or pillbox
            raise InputError(where, "", f"{squad.spec!r}: mortars cannot fire from a {name}")


def _vehicle_share(vehicle: Vehicle, role: str, vs: str, target: Unit, distance: int, game: GameData,
                   where: str, support_abilities: bool | None) -> _Share:
    if vehicle.generic:
        raise InputError(where, "", f"{vehicle.spec!r}: name the firing vehicle (e.g. sherman)")
    model = game.units.vehicles[vehicle.model]
    weapon = _weapon(model, vs)
    if weapon.fpr.value == 0:
        raise InputError(where, "", f"{vehicle.spec!r}: a {model.name} has no firepower against this target")
    share = _Share()
    if vehicle.damage == "heavy":  # 001 Normal attack results: heavy damage halves FPR
        share.halvings.append("heavy damage")
    concussive = game.units.abilities.concussive_firepower
    conc = (model.has("concussive_firepower") and not target.is_vehicle
            and _when_supporting(role, support_abilities, concussive.when_supporting)
            and any(game.terrain.features[f].concussive_target for f in target.features))
    if conc:  # 001 Tanks: Concussive Firepower
        share.notes.append(f"concussive firepower: +{concussive.fpr_bonus.value} FPR, "
                           f"+{concussive.range_bonus.value} range")
    bonus = game.terrain.rules.higher_ground_range_bonus.value if "higher" in vehicle.situation else 0
    if bonus:
        share.notes.append(f"higher ground: +{bonus} range")
    share.fpr, share.range, i = shares.vehicle_fire(weapon.fpr.value, weapon.range.value, conc,
                                                    concussive.fpr_bonus.value, concussive.range_bonus.value,
                                                    distance, bonus)
    if i < 0:
        raise InputError(where, "", f"{vehicle.spec!r}: range {share.range} cannot reach {distance} hexes")
    share.band = BANDS[i]
    return share


def _check_fresh(unit: Unit, role: str, where: str, game: GameData, fire_and_movement: bool) -> None:
    """Only fresh units lead or support a concentrated attack (001 Action phase; Combined fire);
    a squad with a heavy infantry weapon may not take Fire & Movement (001 Fire & movement; MG and
    Mortar crew: Limited Choice of Actions)."""
    if not unit.fresh:
        token = "fatigued" if "fatigued" in unit.situation else "in Op Fire mode"
        why = ("only a fresh unit may be activated (001 Action phase)" if role == "lead" else
               "only fresh units support with combined fire (001 Combined fire)")
        raise InputError(where, "", f"{unit.spec!r} is {token}: {why}; Op Fire attacks are not modelled")
    if fire_and_movement and unit.condition == "pinned":  # 001 Squad conditions: Rally is for a concentrated attack
        raise InputError("--fire-and-movement", "", f"{unit.spec!r}: a pinned squad may not move; an officer's "
                         "Rally lets it make only a concentrated attack")
    if fire_and_movement and not unit.is_vehicle:
        heavy = [f for f, _ in unit.figures if game.units.figures[f].has("heavy_weapon")]
        if heavy:
            raise InputError("--fire-and-movement", "", f"{unit.spec!r}: a squad with a {heavy[0]} figure "
                             "(heavy infantry weapon) may not take a Fire & Movement action")


def contribution(unit: Unit, role: str, target: Unit, distance: int, game: GameData, *, where: str,
                 fire_and_movement: bool = False,
                 support_abilities: bool | None = None) -> tuple[Contribution, bool]:
    """One unit's part in the attack (001 steps 1; Combined fire). Returns it and whether it is an area attack."""
    _check_fresh(unit, role, where, game, fire_and_movement)
    for_all, for_squads, in_hex = _hex_halvings(unit, game)
    condition = 0 if unit.is_vehicle else ("normal", "pinned", "disrupted").index(unit.condition)
    officer = not unit.is_vehicle and (unit.count("officer") > 0 or "with_officer" in unit.situation)
    halvings = shares.firer_halvings(condition, role == "lead", not fire_and_movement, officer, role == "support",
                                     fire_and_movement, shares.hex_halvings(for_all, for_squads, unit.is_vehicle),
                                     unit.is_vehicle and unit.damage == "heavy")
    if halvings < 0 and condition == 2:  # 001 Squad conditions: disrupted squads may not fire
        raise InputError(where, "", f"{unit.spec!r}: a disrupted squad cannot fire")
    if halvings < 0:  # 001 Officer: Rally lets a pinned squad lead a concentrated attack
        raise InputError(where, "", f"{unit.spec!r}: a pinned squad cannot fire "
                         "(only as the active unit with an officer in its hex: Rally)")
    d = unit.distance or distance
    vs = "vehicle" if target.is_vehicle else "infantry"
    make = _vehicle_share if unit.is_vehicle else _squad_share
    share = make(unit, role, vs, target, d, game, where, support_abilities)
    if role == "support":
        share.halvings.insert(0, "supporting (combined fire)")     # 001 Combined fire: half FPR
    if fire_and_movement:
        share.halvings.insert(0, "fire and movement")              # 001 Fire & movement: half FPR
    share.halvings += in_hex
    if halvings >= 2:  # 001 Combined fire note; rulings #15
        raise InputError(where, "", f"{unit.spec!r} cannot attack: its FPR would be halved twice "
                         f"({'; '.join(share.halvings)})")
    strength = max(shares.strength_after(share.fpr, halvings), 0)
    c = Contribution(label(unit, game), role, share.fpr, tuple(share.halvings), strength, share.range, d,
                     share.band, tuple(share.notes))
    return c, share.area


# ---------------------------------------------------------------- the target's side

def target_of(unit: Unit, game: GameData) -> Target:
    """The result-table view of a unit."""
    if unit.is_vehicle:
        fragile = bool(unit.model) and game.units.vehicles[unit.model].has("fragile")
        return Target("vehicle", damage=unit.damage, fragile=fragile)
    return Target("squad", figures=unit.size, condition=unit.condition)


def armour_of(unit: Unit, game: GameData, where: str) -> tuple[int, bool]:
    """Armour value (damaged: -1, 001 Normal attack results) and thick armour."""
    if not unit.is_vehicle:
        return 0, False
    if unit.generic:
        raise InputError(where, "", f"{unit.spec!r}: name the vehicle so its armour is known (e.g. tiger)")
    model = game.units.vehicles[unit.model]
    loss = 1 if unit.damage != "undamaged" else 0
    return max(model.armour.value - loss, 0), model.thick_armour.value


def cover_parts(unit: Unit, mode: str, game: GameData, notes: list[str]) -> tuple[int, int, int]:
    """The cover of a unit (001 step 2; abilities) in the three parts
    :func:`simulator.games.toi.rules.shares.defence_dice` adds up: for every unit (terrain,
    smoke), for squads only (fortifications, tank traps), from abilities (rulings T6)."""
    cover_all, cover_squads = 0, 0
    for name in sorted(unit.features):
        feat = game.terrain.features[name]
        if feat.cover_value and (feat.cover_for == "all" or not unit.is_vehicle):
            if feat.cover_for == "all":
                cover_all += feat.cover_value
            else:
                cover_squads += feat.cover_value
            notes.append(f"{name}: +{feat.cover_value} cover")
    if unit.is_vehicle:
        return cover_all, cover_squads, 0
    ab = game.units.abilities
    suppressive = mode == "suppressive"
    elite = sum(n for f, n in unit.figures if game.units.figures[f].has("battle_hardened"))
    hardened = elite * ab.battle_hardened.cover_vs_suppressive_per_figure.value     # 001 Elite: per figure
    officer = bool(unit.count("officer")) or "with_officer" in unit.situation     # 001 Officer: Determination
    medic = unit.has_specialisation("medic") or "with_medic" in unit.situation     # 001 Medic: Bandage
    bandage = game.units.specialisations.medic.cover_vs_normal.value
    abilities = shares.ability_cover(suppressive, hardened, officer, ab.determination.cover_vs_suppressive.value,
                                     medic, bandage)
    if suppressive and elite:
        notes.append(f"battle-hardened ({elite} elite): +{hardened} cover")
    if suppressive and officer:
        notes.append(f"officer's determination: +{ab.determination.cover_vs_suppressive.value} cover")
    if not suppressive and medic:
        notes.append(f"medic's bandage: +{bandage} cover")
    return cover_all, cover_squads, abilities


def cover_of(unit: Unit, mode: str, game: GameData, notes: list[str]) -> int:
    """Cover dice for terrain, fortifications and abilities (001 step 2; abilities), before
    any flamethrower cut and without armour."""
    cover_all, cover_squads, abilities = cover_parts(unit, mode, game, notes)
    return shares.defence_dice(cover_all, cover_squads, unit.is_vehicle, abilities, 0, 0)


def _flame_reduction(lead: Unit, supporters: list[Unit], distance: int, game: GameData,
                     support_abilities: bool | None) -> int:
    flame = game.units.specialisations.flamethrower
    firers = [lead] + [s for s in supporters if _when_supporting("support", support_abilities, flame.when_supporting)]
    for u in firers:
        near = (u.distance or distance) <= flame.max_distance.value
        if not u.is_vehicle and u.has_specialisation("flamethrower") and near:
            return flame.cover_reduction.value  # 001 Flamethrower: -5 cover, armour untouched
    return 0


# ---------------------------------------------------------------- the whole attack

def build_attack(game: GameData, lead: Unit, supporters: list[Unit], target: Unit, *, distance: int,
                 mode: str = "normal", fire_and_movement: bool = False, extra_cover: int = 0,
                 support_abilities: bool | None = None) -> Attack:
    """An attack from the units taking part (001 Resolving an attack; Combined fire; abilities)."""
    tgt = target_of(target, game)
    _check_mode(mode, tgt)
    if distance < 1:
        raise InputError("--distance", "", f"must be at least 1 hex (got {distance})")
    if extra_cover < 0:
        raise InputError("--cover", "", f"must be 0 or more (got {extra_cover})")
    if fire_and_movement and supporters:  # 001 Fire & movement: no support
        raise InputError("--supporter", "", "a fire-and-movement attack cannot be supported")
    lead_c, area = contribution(lead, "lead", target, distance, game, where="--attacker",
                                fire_and_movement=fire_and_movement, support_abilities=support_abilities)
    parts = [lead_c]
    for s in supporters:
        parts.append(contribution(s, "support", target, distance, game, where="--supporter",
                                  support_abilities=support_abilities)[0])
    band = lead_c.band
    for c in parts[1:]:
        band = worse_band(band, c.band)
    if fire_and_movement and band == "long":  # 001 Fire & movement: no long-range attack
        raise InputError("--distance", "", "a fire-and-movement attack cannot be made at long range")
    notes: list[str] = []
    armour, thick = armour_of(target, game, "--target")
    cover_all, cover_squads, abilities = cover_parts(target, mode, game, notes)
    if extra_cover:
        notes.append(f"--cover: +{extra_cover} cover")
    cut = _flame_reduction(lead, supporters, distance, game, support_abilities)
    cover = shares.defence_dice(cover_all + extra_cover, cover_squads, target.is_vehicle, abilities, cut, 0)
    if cut:
        full = shares.defence_dice(cover_all + extra_cover, cover_squads, target.is_vehicle, abilities, 0, 0)
        notes.append(f"flamethrower: cover {full} - {cut}, not below 0")
    strength = sum(c.strength for c in parts)
    _check_dice(strength, "attack strength")
    _check_dice(armour + cover, "defence strength")
    table = AREA_SUCCESS_FROM if area else SUCCESS_FROM
    return Attack(strength, armour + cover, band, table[band], mode=mode, area=area, thick_armour=thick,
                  target=tgt, armour=armour, cover=cover, contributions=tuple(parts), notes=tuple(notes),
                  kind="area" if area else "ranged")


def minefield_entry(game: GameData, unit: Unit) -> Attack | None:
    """The roll for a unit entering a minefield (001 Minefields); ``None`` for engineers."""
    mines = game.terrain.features.get("minefield")
    if mines is None:
        raise InputError("terrain", "features.minefield", "the terrain file has no minefield")
    if not unit.is_vehicle and unit.has_specialisation("engineer") \
            and game.units.specialisations.engineer.minefield_exempt.value:
        return None
    dice, success = mines.entry_dice.value, mines.entry_success_from.value
    return Attack(dice, 0, "close", success, mode="normal", target=target_of(unit, game),
                  notes=(f"minefield entry: {dice} dice hitting on {success}-6, no defence dice",), kind="minefield")
