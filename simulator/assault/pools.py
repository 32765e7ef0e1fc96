"""Pool assembly for ranged fire (4.2.2, 10.5, 10.8, 10.9, 10.11): one function.

:func:`fire_pools` turns a firer, a target and the situation into the attack pool,
the defence pool (and the defence pool after a failed spotting roll), the chance
to spot, and a list of :class:`Step` saying which rule added or removed which die.
The exact calculator, the Monte Carlo kernels, ``--explain`` and the scenario engine
all use this one function.

Order (rulings.md #3): every die that is gained is added first (card, terrain, hill,
LOS hindrances, fire status, defender status, experience); then each "lose the
weakest die" effect removes one die, never leaving fewer than one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simulator.assault.aid import Aid
from simulator.assault.cards import FACINGS, UnitCard
from simulator.assault.dice import DiceSet, Pool, format_pool, normalise, weakest_die, without_weakest
from simulator.errors import InputError

# 10.0 fire statuses, with the short names the CLI accepts.
FIRE_STATUS_ALIASES = {"firing": "firing", "turret": "turret-firing", "turret-firing": "turret-firing",
                       "move-fire": "move-and-fire", "move-and-fire": "move-and-fire",
                       "fire-move": "fire-and-move", "fire-and-move": "fire-and-move"}
# Status markers a target may carry (13.1-13.3) that change ranged fire.
TARGET_STATUSES = ("fast", "digging-in", "dug-in", "suppressed", "fallback", "delayed", "fired",
                   "fired-and-moved", "immobilised")
SPOT_MODES = ("rules", "auto", "roll", "passed", "failed")
DUG_IN_DIE = "G"        # 10.9.6, 13.1: dug-in infantry gain a green die (stated)
SUPPRESSED_DIE = "G"    # 10.9.6, 13.3: suppressed infantry/artillery gain a green die (stated)
MAX_HINDRANCES = 2      # 10.3, rulings.md #14: three or more hindrances block LOS


@dataclass(frozen=True)
class FireSituation:
    """Everything about one ranged-fire question besides the two unit cards."""

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
    into_close_combat: bool = False       # 10.11: infantry target in close combat with a friendly armoured vehicle


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


class _Builder:
    """Adds and removes dice on one pool, recording each step."""

    def __init__(self, side: str, dice: DiceSet, steps: list[Step]):
        self.side, self.dice, self.steps, self.pool = side, dice, steps, ()

    def add(self, pool: Pool, section: str, reason: str) -> None:
        if pool:
            self.pool = normalise((*self.pool, *pool), self.dice)
            self.steps.append(Step(self.side, section, reason, "+" + format_pool(pool), format_pool(self.pool)))

    def lose_weakest(self, section: str, reason: str) -> None:
        before = self.pool
        self.pool = without_weakest(self.pool, self.dice)
        change = (f"-{weakest_die(before, self.dice)}" if self.pool != before
                  else "none (keeps at least one die)")
        self.steps.append(Step(self.side, section, reason, change, format_pool(self.pool)))


def fire_status_name(text: str) -> str:
    try:
        return FIRE_STATUS_ALIASES[text]
    except KeyError:
        raise InputError("--fire-status", "", f"unknown fire status {text!r} "
                         "(firing, turret, move-fire, fire-move)") from None


def check_situation(firer: UnitCard, target: UnitCard, s: FireSituation) -> None:
    """Situations the rules forbid, as one-line errors."""
    unknown = sorted(set(s.target_status) - set(TARGET_STATUSES))
    if unknown:
        raise InputError("--target-status", "", f"unknown status {unknown[0]!r} ({', '.join(TARGET_STATUSES)})")
    if s.spot not in SPOT_MODES:
        raise InputError("--spot", "", f"unknown spotting mode {s.spot!r} ({', '.join(SPOT_MODES)})")
    if s.range < 1:
        raise InputError("--range", "", f"ranged fire needs a range of 1 or more (got {s.range})")
    if target.is_vehicle and s.target_facing not in FACINGS:
        raise InputError("--target-facing", "", f"{target.id} is a vehicle: give front, flank, rear or above")
    if s.target_facing == "above":
        raise InputError("--target-facing", "", "'above' applies only to indirect fire (10.9.3)")
    if s.fire_status == "turret-firing" and not firer.has_turret:
        raise InputError("--fire-status", "", f"{firer.id} has no turret (10.6)")
    if len(s.hindrances) > MAX_HINDRANCES:
        raise InputError("--hindrance", "", f"{len(s.hindrances)} hindrances block LOS (10.3)")
    for dmg, unit, opt in ((s.firer_damage, firer, "--firer-damage"), (s.target_damage, target, "--target-damage")):
        if not 0 <= dmg < unit.strength:
            raise InputError(opt, "", f"{unit.id} has strength {unit.strength}: damage must be 0..{unit.strength - 1}")


def spotting(target: UnitCard, s: FireSituation, aid: Aid) -> tuple[int | None, str]:
    """The d6 number needed to spot (10.5), or None, with the reason."""
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
    b = _Builder("attack", dice, steps)
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


def defence_pool(firer: UnitCard, target: UnitCard, s: FireSituation, aid: Aid, steps: list[Step],
                 failed_spot: bool) -> Pool:
    dice = aid.dice
    side = "defence (spotting failed)" if failed_spot else "defence"
    b = _Builder(side, dice, steps)
    vehicle = target.is_vehicle
    b.add(target.defence_dice(s.target_facing if vehicle else None), "4.2, 10.9.3",
          f"card{' (' + s.target_facing + ')' if vehicle else ''}")
    b.add(aid.terrain_defence(s.terrain, vehicle), "10.9.1", f"terrain: {s.terrain}")
    if s.hill:
        b.add(aid.hill.defence_dice(vehicle), "10.9.1, 9.6.1", "hill, firer lower")
    for h in s.hindrances:
        t = aid.terrain(h, "--hindrance")
        if t.blocks:
            raise InputError("--hindrance", "", f"{h} blocks LOS (10.3): no direct fire")
        if not t.hinders:
            raise InputError("--hindrance", "", f"{h} does not hinder LOS")
        b.add(t.los_dice, "10.9.2", f"LOS hindered by {h}")
    fast_vehicle = vehicle and "fast" in s.target_status
    b.add(aid.fire_modifier(s.fire_status, "fast-vehicle" if fast_vehicle else "any"), "10.9.4",
          f"firer {s.fire_status}" + (", target vehicle in fast action" if fast_vehicle else ""))
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


def fire_pools(firer: UnitCard, target: UnitCard, s: FireSituation, aid: Aid) -> FirePools:
    """Attack and defence pools of one ranged fire, with every step that built them."""
    s = FireSituation(**{**s.__dict__, "fire_status": fire_status_name(s.fire_status),
                         "target_status": frozenset(s.target_status)})
    check_situation(firer, target, s)
    steps: list[Step] = []
    attack = attack_pool(firer, target, s, aid, steps)
    half = s.firer_damage >= firer.half_strength_threshold
    if half:  # 10.8.1: a half-strength firer's doubles count once, the strongest symbol
        steps.append(Step("attack", "10.8.1", "half-strength firer", "doubles count once (strongest)",
                          format_pool(attack)))
    extra = aid.experience(s.target_experience).attacker_supp
    if extra:
        steps.append(Step("attack", "4.2.3", f"{s.target_experience} target", f"+{extra} supp symbol",
                          format_pool(attack)))
    number, why = spotting(target, s, aid)
    steps.append(Step("spotting", "10.5", why, "", ""))
    defence = defence_pool(firer, target, s, aid, steps, failed_spot=False)
    unspotted = None
    if number is not None and not target.is_vehicle:   # 10.9.5; vehicles cannot be fired on unspotted
        unspotted = defence_pool(firer, target, s, aid, steps, failed_spot=True)
    p_spotted = 1.0 if number is None else max(0, 7 - number) / 6
    return FirePools(attack, defence, unspotted, number, p_spotted,
                     "strongest" if half else "all", extra, tuple(steps))
