"""Who fires with what: a unit's share of a ranged attack or an assault, its halvings and
the target's cover dice, as small pure integer functions (issue 40, item 15).

The calculator (:mod:`simulator.games.toi.rules.attack`, :mod:`simulator.games.toi.rules.assault`)
calls them with numbers it reads from the unit descriptions; the whole-game engine
(``simulator/games/toi/game/fire.py``, ``assault.py``) calls their compiled forms
(:mod:`simulator.games.toi.rules.jit`) with numbers it reads from the state. Each rule is
written here once; the two callers only gather the numbers and, the calculator, say why in
its notes. Conditions are 0 normal, 1 pinned, 2 disrupted (``results.SQUAD_STEPS``).
"""

from __future__ import annotations

PINNED, DISRUPTED = 1, 2


def band_index(distance: int, range_value: int) -> int:
    """The index into ``BANDS`` (0 close, 1 normal, 2 long), -1 out of range (001 Range;
    rulings #15). The whole-game engine compiles it with numba (``simulator.games.toi.rules.jit``)."""
    if distance <= 1:
        return 0                       # adjacent targets are at close range
    if distance <= range_value:
        return 1
    if distance <= 2 * range_value:
        return 2
    return -1


def hex_halvings(for_all: int, for_squads: int, is_vehicle: bool) -> int:
    """Halvings a unit takes from markers in its own hex, one for each (rulings T2):
    ``for_all`` markers halve every unit (001 Smoke, Minefields), ``for_squads`` squads only
    (001 Razor wire); ``halves_fpr_of`` in ``terrain.toml`` says which is which."""
    return for_all + (0 if is_vehicle else for_squads)


def firer_halvings(condition: int, lead: bool, concentrated: bool, officer: bool, supporting: bool,
                   fire_and_movement: bool, in_hex: int, heavy_damage: bool) -> int:
    """How often a firer's FPR is halved in a ranged attack, -1 when it may not fire at all
    (001 Squad conditions: disrupted never, pinned only leading a concentrated attack with an
    officer's Rally, itself a halving; Combined fire: supporting; Fire & movement; its hex,
    ``in_hex`` from :func:`hex_halvings`; Normal attack results: heavy damage). Twice or more
    is refused by :func:`strength_after` (rulings #15, T1, T2)."""
    if condition == DISRUPTED:
        return -1
    n = in_hex
    if condition == PINNED:
        if not (lead and concentrated and officer):
            return -1
        n += 1
    if supporting:
        n += 1
    if fire_and_movement:
        n += 1
    if heavy_damage:
        n += 1
    return n


def strength_after(fpr: int, halvings: int) -> int:
    """What a unit adds after its halvings: FPR, or half rounded up, or -1 (halved twice, or
    no firepower: it takes no part; 001 Combined fire note; rulings #15)."""
    if halvings < 0 or halvings >= 2 or fpr <= 0:
        return -1
    return -(-fpr // 2) if halvings == 1 else fpr


def figure_band(fpr: int, range_value: int, distance: int, higher_bonus: int, anti_tank: bool,
                anti_tank_range: int) -> int:
    """The band at which one figure type reaches the target, -1 when it does not fire (no
    firepower against this target type, or beyond twice its range: rulings T3); anti-tank
    figures have the base range ``anti_tank_range`` against vehicles (001 Anti-tank); higher
    ground adds its bonus (rulings #15)."""
    if fpr == 0 and not anti_tank:
        return -1
    rng = anti_tank_range if anti_tank else range_value
    return band_index(distance, rng + higher_bonus)


def squad_bonus(anti_tank: bool, anti_tank_fpr: int, flame: bool, flame_fpr: int) -> int:
    """FPR a squad adds once, when some figure fires: anti-tank against vehicles, supporting
    too (001 Anti-tank); a flamethrower within reach, as rulings T4 says for supporters."""
    return (anti_tank_fpr if anti_tank else 0) + (flame_fpr if flame else 0)


def vehicle_fire(fpr: int, range_value: int, concussive: bool, concussive_fpr: int, concussive_range: int,
                 distance: int, higher_bonus: int) -> tuple[int, int, int]:
    """A vehicle's ``(fpr, range, band)`` against a target (001 Combat: by target type; Tanks:
    Concussive Firepower when the target squad is in a building or pillbox, rulings T4);
    band -1 out of range."""
    if concussive:
        fpr += concussive_fpr
        range_value += concussive_range
    rng = range_value + higher_bonus
    return fpr, rng, band_index(distance, rng)


def ability_cover(suppressive: bool, hardened: int, officer: bool, determination: int, medic: bool,
                  medic_cover: int) -> int:
    """A squad's cover from abilities (rulings T6): against suppressive fire ``hardened`` (the
    Battle-Hardened cover of its elite figures, per figure) and +``determination`` with an
    officer in the squad or hex; against normal fire +``medic_cover`` with a medic (Bandage)."""
    if suppressive:
        return hardened + (determination if officer else 0)
    return medic_cover if medic else 0


def defence_dice(cover_all: int, cover_squads: int, is_vehicle: bool, abilities: int, cut: int,
                 armour: int) -> int:
    """Red dice of a ranged attack (001 step 2; rulings T5, T7): cover that counts for every
    unit (terrain, smoke), for squads only (fortification, tank trap) and from abilities, less
    the flamethrower's ``cut`` (not below 0), then a vehicle's armour."""
    cover = cover_all
    if not is_vehicle:
        cover += cover_squads + abilities
    return max(cover - cut, 0) + armour


def assault_attacker_halvings(supporting: bool, target_smoke: bool, in_hex: int) -> int:
    """An assaulting squad's halvings (002 step 1: supporters at half; 001 Smoke: assaulting a
    smoke hex, rulings T10; wire or a minefield in its own hex, ``in_hex`` counted without
    smoke, which does not halve an assault from the hex, rulings T18). Two or more: it may
    not take part (:func:`strength_after` gives -1)."""
    return (1 if supporting else 0) + (1 if target_smoke else 0) + in_hex


def assault_defender_halvings(is_vehicle: bool, condition: int, officer: bool, in_hex: int,
                              heavy_damage: bool) -> int:
    """A defender's halvings in an assault (002 step 3; rulings T12): -1 for a disrupted squad
    (no firepower); pinned without an officer in the hex; its hex (:func:`hex_halvings`);
    heavy damage."""
    if not is_vehicle and condition == DISRUPTED:
        return -1
    n = in_hex
    if not is_vehicle and condition == PINNED and not officer:
        n += 1
    if is_vehicle and heavy_damage:
        n += 1
    return n


def assault_cover_dice(cover: int, flamethrower: bool, cut: int) -> int:
    """The assault's red dice (002 step 4): the cover added up, less ``cut`` once if a
    flamethrower squad attacks, not below 0 (rulings T5, T11)."""
    return max(cover - cut, 0) if flamethrower else cover
