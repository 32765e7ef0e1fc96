"""Pool assembly for ranged fire (4.2.2, 7.1-7.3, 9.10.3, 10.5, 10.8-10.11): one function.

:func:`fire_pools` turns a firer, a target and the situation into the attack pool,
the defence pool (and the defence pool after a failed spotting roll), the chance
to spot, and a list of :class:`Step` saying which rule added or removed which die.
The exact calculator, the Monte Carlo kernels, ``--explain`` and the scenario engine
all use this one function.

Order (rulings.md #3): every die that is gained is added first (card, terrain, hill,
LOS hindrances and smoke, fire status, defender status, experience); then each "lose
the weakest die" effect removes one die, never leaving fewer than one.

Besides direct fire it builds the pools of indirect fire (7.1-7.3: card-back dice,
no hindrance dice, a vehicle's "above" armour with its bonus die, dice set aside),
fire at tank riders (10.10.1: card dice only), fire at an enemy vehicle in close
combat with a friendly one (10.11: the success dice are rolled again at the friendly
vehicle) and the last shot of artillery at an overrunning tank (9.10.3: card dice
against front armour, nothing else).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping

from simulator.games.assault.rules.aid import Aid
from simulator.games.assault.rules.cards import FACINGS, UnitCard, find_unit, load_units
from simulator.games.assault.rules.dice import DiceSet, Pool, format_pool, normalise, weakest_die, without_weakest
from simulator.games.assault.rules.indirect import (
    INDIRECT_FIRE_STATUS,
    VEHICLE_FACING,
    check_fired_from,
    check_spotter,
    indirect_dice,
    vehicle_bonus,
)
from simulator.games.assault.rules.support import Support, as_support
from simulator.run.errors import InputError

# 10.0 fire statuses, with the short names the CLI accepts.
from simulator.run.vocabulary import FIRE_STATUS_ALIASES, TARGET_STATUSES  # noqa: E402 - one definition

# Status markers of the firer that matter here (9.10.3: no last shot with these).
FIRER_STATUSES = ("suppressed", "fallback", "fast", "delayed", "normal", "fired")
NO_LAST_SHOT = frozenset({"suppressed", "fallback", "fast", "delayed"})   # 9.10.3
SPOT_MODES = ("rules", "auto", "roll", "passed", "failed")
DUG_IN_DIE = "G"        # 10.9.6, 13.1: dug-in infantry gain a green die (stated)
SUPPRESSED_DIE = "G"    # 10.9.6, 13.3: suppressed infantry/artillery gain a green die (stated)
MAX_HINDRANCES = 2      # 10.3, rulings.md #14: three or more hindrances (hexes + smoke markers) block LOS

# How the attack dice are rolled (FirePools.reroll)
ROLL_ONCE = "once"
REROLL_DAMAGE_DICE = "damage-dice"     # 7.3: dice without a damage symbol set aside, the rest re-rolled
REROLL_SUCCESS_DICE = "success-dice"   # 10.11: success dice rolled again at the friendly vehicle


@dataclass(frozen=True)
class FireSituation:
    """Everything about one ranged-fire question besides the two unit cards.

    Units other than firer and target (spotter, carrier, friendly vehicle, passengers)
    are named by id and looked up in the unit cards.
    """

    range: int
    terrain: str = "clear"
    hill: bool = False                    # target on a hill, firer lower (10.9.1, 9.6.1)
    hindrances: tuple[str, ...] = ()      # terrain of each hindering hex crossed (10.9.2)
    fire_status: str = "firing"           # 10.0, 10.9.4
    spot: str = "rules"                   # 10.5: by the rules, or forced
    outside_arc: bool = False             # target outside the firer's arc of fire (10.5, 10.6)
    target_status: frozenset[str] = frozenset()
    target_facing: str | None = None      # vehicles: area of impact (10.9.3)
    firer_damage: int = 0
    target_damage: int = 0
    firer_experience: str = "regular"
    target_experience: str = "regular"
    firer_attack_die_minus_one: bool = False   # 13.1: fast action in the previous turn
    into_close_combat: bool = False       # 10.11: target in close combat with a friendly vehicle
    # --- chapter 7, 9.10.3, 10.3, 10.10, 10.11 ---
    indirect: bool = False                # 7.1-7.4: indirect fire in the support phase
    spotter: str | None = None            # 7.1, 7.2: adjacent friendly infantry/artillery spotting
    firer_terrain: str | None = None      # 7.1: the firer's hex (no indirect fire from some)
    smoke: int = 0                        # 10.3, 10.9.2: smoke markers the LOS crosses
    overrun: bool = False                 # 9.10.3: the gun's last shot at an overrunning tank
    firer_status: frozenset[str] = frozenset()   # the firer's markers (9.10.3)
    riding_on: str | None = None          # 10.10.1: the target is tank riders on this vehicle
    passengers: tuple[tuple[str, int], ...] = ()   # 10.10: (unit id, damage) carried by a vehicle target
    friendly_vehicle: str | None = None   # 10.11: the friendly vehicle in close combat with the target
    friendly_facing: str | None = None    # its area of impact from the firer (10.9.3)
    friendly_damage: int = 0


@dataclass(frozen=True)
class Step:
    """One line of ``--explain``: which rule changed which pool, and the pool after it."""

    side: str
    section: str
    reason: str
    change: str
    pool: str


@dataclass(frozen=True)
class FirePools:
    attack: Pool
    defence: Pool                    # the target spotted (or no roll needed)
    defence_unspotted: Pool | None   # after a failed spotting roll; None: cannot be fired at
    spot_number: int | None          # d6 needed; None: no roll
    p_spotted: float
    doubles: str                     # how the attacker's doubles count (10.8.1)
    extra_supp: int                  # supp symbols added to the attack (4.2.3)
    steps: tuple[Step, ...] = field(default=())
    reroll: str = ROLL_ONCE          # how the attack dice are rolled (7.3, 10.11)
    friendly_defence: Pool | None = None   # 10.11: the friendly vehicle's defence


class Unexplained(list):
    """A list of steps that keeps none: for pools wanted without their ``--explain``
    (compiling a scenario builds some 400,000 of them)."""

    def append(self, step) -> None:
        pass


def steps_for(explain: bool) -> list[Step]:
    """Where a pool's steps go: a list, or with ``explain`` False nowhere."""
    return [] if explain else Unexplained()


class PoolBuilder:
    """Adds and removes dice on one pool, recording each step (unless ``steps`` is
    :class:`Unexplained`)."""

    def __init__(self, side: str, dice: DiceSet, steps: list[Step]):
        self.side, self.dice, self.steps, self.pool = side, dice, steps, ()
        self.explain = not isinstance(steps, Unexplained)

    def add(self, pool: Pool, section: str, reason: str) -> None:
        if pool:
            self.pool = normalise((*self.pool, *pool), self.dice)
            if self.explain:
                self.steps.append(Step(self.side, section, reason, "+" + format_pool(pool), format_pool(self.pool)))

    def note(self, section: str, reason: str, change: str = "none") -> None:
        """A rule that applies but changes no die (shown so --explain names it)."""
        if self.explain:
            self.steps.append(Step(self.side, section, reason, change, format_pool(self.pool)))

    def lose_weakest(self, section: str, reason: str) -> None:
        before = self.pool
        self.pool = without_weakest(self.pool, self.dice)
        if not self.explain:
            return
        change = (f"-{weakest_die(before, self.dice)}" if self.pool != before
                  else "none (keeps at least one die)")
        self.steps.append(Step(self.side, section, reason, change, format_pool(self.pool)))


@dataclass(frozen=True)
class _Others:
    """The cards of the units a situation names besides firer and target."""

    spotter: UnitCard | None = None
    carrier: UnitCard | None = None
    friendly: UnitCard | None = None


def fire_status_name(text: str) -> str:
    try:
        return FIRE_STATUS_ALIASES[text]
    except KeyError:
        raise InputError("--fire-status", "", f"unknown fire status {text!r} "
                         "(firing, turret, move-fire, fire-move)") from None


def other_units(s: FireSituation, units: Mapping[str, UnitCard] | None, dice: DiceSet) -> _Others:
    """Look up the spotter, the tank riders' carrier and the friendly vehicle."""
    if not (s.spotter or s.riding_on or s.friendly_vehicle):
        return _Others()
    units = units if units is not None else load_units(None, dice)
    return _Others(
        spotter=find_unit(units, s.spotter, "--spotter") if s.spotter else None,
        carrier=find_unit(units, s.riding_on, "--riding-on") if s.riding_on else None,
        friendly=find_unit(units, s.friendly_vehicle, "--friendly-vehicle") if s.friendly_vehicle else None)


def check_situation(firer: UnitCard, target: UnitCard, s: FireSituation, aid: Aid | None = None,
                    support: Support | None = None, others: _Others = _Others()) -> None:
    """Situations the rules forbid, as one-line errors (the first one found, in this order)."""
    _check_words(s)
    _check_range(firer, target, s)
    _check_facing(target, s)
    _check_fire_mode(firer, s, aid, support, others)
    _check_damage_and_carried(firer, target, s)
    _check_close_combat(firer, target, s, others)


def _check_words(s: FireSituation) -> None:
    """Statuses and the spotting mode are known words."""
    unknown = sorted(set(s.target_status) - set(TARGET_STATUSES))
    if unknown:
        raise InputError("--target-status", "", f"unknown status {unknown[0]!r} ({', '.join(TARGET_STATUSES)})")
    unknown = sorted(set(s.firer_status) - set(FIRER_STATUSES))
    if unknown:
        raise InputError("--firer-status", "", f"unknown status {unknown[0]!r} ({', '.join(FIRER_STATUSES)})")
    if s.spot not in SPOT_MODES:
        raise InputError("--spot", "", f"unknown spotting mode {s.spot!r} ({', '.join(SPOT_MODES)})")


def _check_range(firer: UnitCard, target: UnitCard, s: FireSituation) -> None:
    """An overrun's last shot, or ranged fire at range 1 or more; smoke markers counted."""
    if s.overrun:
        _check_last_shot(firer, target, s)
    elif s.range < 1:
        raise InputError("--range", "", f"ranged fire needs a range of 1 or more (got {s.range})")
    if s.smoke < 0:
        raise InputError("--smoke", "", f"a number of smoke markers cannot be negative (got {s.smoke})")


def _check_facing(target: UnitCard, s: FireSituation) -> None:
    """10.9.3: a vehicle target's facing; 'above' for indirect fire only, and always for it."""
    if target.is_vehicle and not s.indirect and not s.overrun and s.target_facing not in FACINGS:
        raise InputError("--target-facing", "", f"{target.id} is a vehicle: give front, flank or rear "
                         "(10.9.3; indirect fire hits above)")
    if s.target_facing == VEHICLE_FACING and not s.indirect:
        raise InputError("--target-facing", "", "'above' applies only to indirect fire (10.9.3)")
    if s.indirect and target.is_vehicle and s.target_facing not in (None, VEHICLE_FACING):
        raise InputError("--target-facing", "", "indirect fire always hits a vehicle's above armour "
                         "(7.3, 10.9.3): leave out --target-facing")


def _check_fire_mode(firer: UnitCard, s: FireSituation, aid: Aid | None, support: Support | None,
                     others: _Others) -> None:
    """Turret fire needs a turret; indirect fire (7.0-7.2) or direct fire's line of sight (10.3)."""
    if s.fire_status == "turret-firing" and not firer.has_turret:
        raise InputError("--fire-status", "", f"{firer.id} has no turret (10.6)")
    if s.indirect:
        _check_indirect(firer, s, aid, support, others)
    elif s.spotter:
        raise InputError("--spotter", "", "a spotter directs indirect fire only (7.2): add --indirect")
    elif len(s.hindrances) + s.smoke > MAX_HINDRANCES:
        raise InputError("--hindrance", "", f"{len(s.hindrances)} hindering hexes and {s.smoke} smoke "
                         "markers: three or more block LOS (10.3)")


def _check_damage_and_carried(firer: UnitCard, target: UnitCard, s: FireSituation) -> None:
    """Damage below strength; tank riders are infantry, passengers ride in vehicles (9.11)."""
    for dmg, unit, opt in ((s.firer_damage, firer, "--firer-damage"), (s.target_damage, target, "--target-damage")):
        if not 0 <= dmg < unit.strength:
            raise InputError(opt, "", f"{unit.id} has strength {unit.strength}: damage must be 0..{unit.strength - 1}")
    if s.riding_on and not target.is_infantry:
        raise InputError("--riding-on", "", f"{target.id} is not infantry: only tank riders ride on top (9.11.1)")
    if s.passengers and not target.is_vehicle:
        raise InputError("--passengers", "", f"{target.id} is not a vehicle: only vehicles carry units (9.11)")


def _check_indirect(firer: UnitCard, s: FireSituation, aid: Aid | None, support: Support | None,
                    others: _Others) -> None:
    """7.0-7.2: who fires indirectly, from where, at what range, seen by whom."""
    indirect_dice(firer, s.range)
    if support is not None:
        check_fired_from(firer, s.firer_terrain, support)
    if s.fire_status != INDIRECT_FIRE_STATUS:
        raise InputError("--fire-status", "", "indirect fire is marked firing (7.0): leave out --fire-status")
    if s.into_close_combat:
        raise InputError("--into-close-combat", "", "only infantry fire into a close combat, directly (10.11)")
    blocked = len(s.hindrances) + s.smoke > MAX_HINDRANCES or (
        aid is not None and any(aid.terrain(h, "--hindrance").blocks for h in s.hindrances))
    if others.spotter is not None:
        check_spotter(firer, others.spotter)
    elif blocked:
        raise InputError("--spotter", "", "the firer's LOS is blocked (10.3): name an adjacent friendly "
                         "infantry or artillery unit that sees the target (7.1, 7.2)")


def _check_last_shot(firer: UnitCard, target: UnitCard, s: FireSituation) -> None:
    """9.10.3: who may overrun whom, and when the gun may take its last shot."""
    if s.range != 0:
        raise InputError("--range", "", "the last shot is at range 0, in the gun's own hex (9.10.3)")
    if not firer.is_artillery:
        raise InputError("FIRER", "", f"{firer.id} is not artillery: only artillery is overrun (9.10.3)")
    if not (target.is_armoured_vehicle and target.movement_type == "tracked"):
        raise InputError("TARGET", "", f"{target.id} cannot overrun: only armoured tracked vehicles (9.10.3)")
    if s.passengers:
        raise InputError("--passengers", "", "a vehicle transporting infantry cannot overrun (9.10.3)")
    if s.indirect or s.into_close_combat or s.riding_on:
        raise InputError("--overrun", "", "the last shot is its own procedure (9.10.3): drop --indirect, "
                         "--into-close-combat and --riding-on")
    if s.target_facing not in (None, "front"):
        raise InputError("--target-facing", "", "the last shot always hits the front armour (9.10.3)")
    barred = sorted(s.firer_status & NO_LAST_SHOT)
    if barred:
        raise InputError("--firer-status", "", f"no last shot by a gun marked {barred[0]} (9.10.3)")


def _check_close_combat(firer: UnitCard, target: UnitCard, s: FireSituation, others: _Others) -> None:
    """10.11: only infantry fire into a close combat; at a vehicle, a friendly vehicle is hit too."""
    if s.friendly_vehicle and not (s.into_close_combat and target.is_vehicle):
        raise InputError("--friendly-vehicle", "", "a friendly vehicle is hit only by fire into a close "
                         "combat at an enemy vehicle (10.11): add --into-close-combat")
    if not s.into_close_combat:
        return
    if not firer.is_infantry:
        raise InputError("--into-close-combat", "", f"{firer.id} is not infantry: only infantry fire "
                         "into a close combat (10.11)")
    if target.is_artillery:
        raise InputError("--into-close-combat", "", "10.11 allows fire at enemy infantry or vehicles "
                         "in close combat, not artillery")
    if target.is_vehicle:
        f = others.friendly
        if f is None:
            raise InputError("--friendly-vehicle", "", "fire at an enemy vehicle in close combat hits "
                             "the friendly vehicle too (10.11): name it")
        if not f.is_vehicle or f.side != firer.side:
            raise InputError("--friendly-vehicle", "", f"{f.id} is not a vehicle of {firer.id}'s side (10.11)")
        if s.friendly_facing not in FACINGS or s.friendly_facing == VEHICLE_FACING:
            raise InputError("--friendly-facing", "", "give the friendly vehicle's area of impact: "
                             "front, flank or rear (10.9.3)")
        if not 0 <= s.friendly_damage < f.strength:
            raise InputError("--friendly-damage", "", f"{f.id} has strength {f.strength}: "
                             f"damage must be 0..{f.strength - 1}")
    if s.passengers:
        raise InputError("--passengers", "", "fire into a close combat at a loaded transport is not modelled")


def spotting(target: UnitCard, s: FireSituation, aid: Aid) -> tuple[int | None, str]:
    """The d6 number needed to spot (10.5), or None, with the reason.

    ``target`` is the unit seen: for tank riders, the vehicle they ride on.
    """
    if s.spot == "auto":
        return None, "spotting forced automatic"
    if s.spot == "passed":
        return None, "spotting roll given as passed"
    if s.spot == "failed":
        return 7, "spotting roll given as failed"
    status = s.target_status
    if s.spot == "rules":
        if s.range == 1:
            return None, "10.5.1: adjacent target is spotted automatically"
        if status & {"fast", "delayed", "fired"}:
            return None, "10.5.1: target fired, took a fast or delayed action this turn"
    number = aid.spot_number(s.terrain, target_is_vehicle=target.is_vehicle, on_hill=s.hill,
                             outside_arc=s.outside_arc)
    if number is None and s.spot == "roll":
        number = aid.outside_arc_spot
    if number is None:
        return None, "10.5.1: the target's hex gives it no defence bonus"
    return number, f"10.5: spotting roll needs {number}+"


def attack_pool(firer: UnitCard, target: UnitCard, s: FireSituation, aid: Aid, steps: list[Step]) -> Pool:
    dice = aid.dice
    b = PoolBuilder("attack", dice, steps)
    if s.indirect:
        f = firer.indirect_fire
        b.add(indirect_dice(firer, s.range), "7.1", f"card back: indirect fire, one band {f.min}-{f.max}, any target")
    else:
        card = firer.attack_dice(s.range, target.is_armoured_vehicle)
        row = "vs vehicle" if target.is_armoured_vehicle else "vs infantry/artillery"
        if not card:
            raise InputError("--range", "", f"{firer.id} has no {row} dice at range {s.range} "
                             f"(max range {firer.max_range})")
        b.add(card, "10.1, 4.2.2", f"card, range {s.range}, {row} row")
    b.add(aid.experience(s.firer_experience).attack, "10.8.3", f"{s.firer_experience} firer")
    if s.firer_attack_die_minus_one:
        b.lose_weakest("13.1, 10.8.1", "attack die -1 (fast action last turn)")
    return b.pool


def _los_dice(b: PoolBuilder, s: FireSituation, aid: Aid, support: Support) -> None:
    """10.9.2, 10.3: a die per hindering hex and per smoke marker; none against indirect fire (7.1)."""
    for h in s.hindrances:
        t = aid.terrain(h, "--hindrance")
        if not (t.hinders or t.blocks):
            raise InputError("--hindrance", "", f"{h} does not hinder LOS")
        if s.indirect:
            b.note("7.1", f"LOS {'blocked' if t.blocks else 'hindered'} by {h}: no die against indirect fire")
            continue
        if t.blocks:
            raise InputError("--hindrance", "", f"{h} blocks LOS (10.3): no direct fire")
        b.add(t.los_dice, "10.9.2", f"LOS hindered by {h}")
    for _ in range(s.smoke):
        if s.indirect:
            b.note("7.1", "LOS through a smoke marker: no die against indirect fire")
        else:
            b.add(support.smoke_los_dice, "10.3, 10.9.2", "LOS through a smoke marker")


def defence_pool(firer: UnitCard, target: UnitCard, s: FireSituation, aid: Aid, steps: list[Step],
                 failed_spot: bool, support: Support, *, side: str | None = None,
                 riders: bool = False) -> Pool:
    dice = aid.dice
    side = side or ("defence (spotting failed)" if failed_spot else "defence")
    b = PoolBuilder(side, dice, steps)
    vehicle = target.is_vehicle
    facing = VEHICLE_FACING if (vehicle and s.indirect) else s.target_facing
    b.add(target.defence_dice(facing if vehicle else None),
          "7.3, 10.9.3" if (vehicle and s.indirect) else "4.2, 10.9.3",
          f"card{' (' + facing + ')' if vehicle else ''}")
    if riders:   # 10.10.1: tank riders defend with their card dice and nothing else
        b.note("10.10.1", "tank riders: card dice only (no terrain, LOS, status or experience dice)")
        return b.pool
    b.add(aid.terrain_defence(s.terrain, vehicle), "10.9.1", f"terrain: {s.terrain}")
    if s.hill:
        b.add(aid.hill.defence_dice(vehicle), "10.9.1, 9.6.1", "hill, firer lower")
    _los_dice(b, s, aid, support)
    if vehicle and s.indirect:
        bonus = vehicle_bonus(target, support)
        if bonus:
            b.add(bonus, "7.3", f"indirect fire on a vehicle: {support.vehicle_bonus_if} among its above dice")
    fast_vehicle = vehicle and "fast" in s.target_status
    status_dice = aid.fire_modifier(s.fire_status, "fast-vehicle" if fast_vehicle else "any")
    reason = f"firer {s.fire_status}" + (", target vehicle in fast action" if fast_vehicle else "")
    if s.indirect and not status_dice:
        b.note("7.0, 10.9.4", "indirect fire is marked firing: " + reason)
    b.add(status_dice, "7.0, 10.9.4" if s.indirect else "10.9.4", reason)
    if failed_spot:
        b.add(aid.fire_modifier(s.fire_status, "failed-spot"), "10.9.5", "spotting roll failed")
    if "dug-in" in s.target_status and target.is_infantry:
        b.add((DUG_IN_DIE,), "10.9.6, 13.1", "dug in")
    if "suppressed" in s.target_status and not vehicle:
        b.add((SUPPRESSED_DIE,), "10.9.6, 13.3", "suppressed")
    b.add(aid.experience(s.target_experience).defence, "10.9.8", f"{s.target_experience} target")
    if "digging-in" in s.target_status:
        b.lose_weakest("10.9.6", "digging in")
    if "fast" in s.target_status and not vehicle:
        b.lose_weakest("10.9.6", "fast action (infantry/artillery)")
    if s.into_close_combat and target.is_infantry:
        b.lose_weakest("10.11", "in close combat with a friendly armoured vehicle")
    return b.pool


def last_shot_pools(firer: UnitCard, target: UnitCard, s: FireSituation, aid: Aid,
                    steps: list[Step]) -> FirePools:
    """9.10.3: the gun's vs-vehicle dice at range 0 against the tank's front armour, unmodified."""
    a = PoolBuilder("attack", aid.dice, steps)
    a.add(firer.attack_dice(0, True), "9.10.3", "last shot: card vs-vehicle dice at range 0")
    if not a.pool:
        raise InputError("FIRER", "", f"{firer.id} has no vs-vehicle dice at range 0: no last shot (9.10.3)")
    a.note("9.10.3", "a last shot takes no attack modifiers (experience, status, half strength)")
    steps.append(Step("spotting", "9.10.3", "9.10.3: the tank moves into the gun's hex: no spotting", "", ""))
    d = PoolBuilder("defence", aid.dice, steps)
    d.add(target.defence_dice("front"), "9.10.3, 10.9.3", "card (front)")
    d.note("9.10.3", "front armour only: no terrain, status or experience dice")
    return FirePools(a.pool, d.pool, None, None, 1.0, "all", 0, tuple(steps))


def canonical_situation(s: FireSituation) -> FireSituation:
    """``s`` with the fire status's canonical name and the statuses as frozensets (``s``
    itself when it has them already: compiling a scenario asks for pools 150,000 times)."""
    name = fire_status_name(s.fire_status)
    if name == s.fire_status and type(s.target_status) is frozenset and type(s.firer_status) is frozenset:
        return s
    return replace(s, fire_status=name, target_status=frozenset(s.target_status),
                   firer_status=frozenset(s.firer_status))


def fire_pools(firer: UnitCard, target: UnitCard, s: FireSituation, aid: Aid, *,
               units: Mapping[str, UnitCard] | None = None, support: Support | None = None,
               explain: bool = True) -> FirePools:
    """Attack and defence pools of one ranged fire, with every step that built them
    (none with ``explain`` False: the same pools, quicker).

    ``units`` holds the cards of the other units the situation names (spotter,
    carrier, friendly vehicle; default: the shipped cards); ``support`` the chapter 7
    data (default: the shipped ``support.toml``).
    """
    s = canonical_situation(s)
    support = as_support(support, aid)
    others = other_units(s, units, aid.dice)
    check_situation(firer, target, s, aid, support, others)
    steps = steps_for(explain)
    if s.overrun:
        return last_shot_pools(firer, target, s, aid, steps)
    attack = attack_pool(firer, target, s, aid, steps)
    half = s.firer_damage >= firer.half_strength_threshold
    if half:  # 10.8.1: a half-strength firer's doubles count once, the strongest symbol
        steps.append(Step("attack", "10.8.1", "half-strength firer", "doubles count once (strongest)",
                          format_pool(attack)))
    extra = aid.experience(s.target_experience).attacker_supp
    if extra:
        steps.append(Step("attack", "4.2.3", f"{s.target_experience} target", f"+{extra} supp symbol",
                          format_pool(attack)))
    reroll = ROLL_ONCE
    if s.indirect and target.is_vehicle:
        reroll = REROLL_DAMAGE_DICE
        steps.append(Step("attack", "7.3", "indirect fire on a vehicle: roll all, set aside the dice "
                          "showing blank or suppression, re-roll the rest as the attack", "two-stage roll",
                          format_pool(attack)))
    if s.indirect:
        who = f"{s.spotter} spots (adjacent to the firer; marked normal action)" if s.spotter else "the firer sees the target"
        steps.append(Step("spotting", "7.1, 7.2", f"7.2: {who}", "", ""))
    seen = others.carrier or target   # tank riders are seen on their vehicle
    number, why = spotting(seen, s, aid)
    if others.carrier is not None:
        why += f" (tank riders are seen on {others.carrier.id}, 10.10.1)"
    steps.append(Step("spotting", "10.5", why, "", ""))
    riders = others.carrier is not None
    defence = defence_pool(firer, target, s, aid, steps, False, support, riders=riders)
    unspotted = None
    # 10.9.5; vehicles cannot be fired on unspotted (10.5), nor their riders (10.10.1: no extra dice)
    if number is not None and not seen.is_vehicle:
        unspotted = defence_pool(firer, target, s, aid, steps, True, support)
    friendly = None
    if s.into_close_combat and target.is_vehicle:   # 10.11, second case
        reroll = REROLL_SUCCESS_DICE
        steps.append(Step("attack", "10.11", "the dice showing a success symbol against the enemy vehicle "
                          "are rolled again at the friendly vehicle", "re-roll at friendly", format_pool(attack)))
        fs = replace(s, target_facing=s.friendly_facing, target_status=frozenset(),
                     target_experience="regular", into_close_combat=False)
        friendly = defence_pool(firer, others.friendly, fs, aid, steps, False, support,
                                side="defence (friendly vehicle, 10.11)")
    p_spotted = 1.0 if number is None else max(0, 7 - number) / 6
    return FirePools(attack, defence, unspotted, number, p_spotted,
                     "strongest" if half else "all", extra, tuple(steps), reroll, friendly)
