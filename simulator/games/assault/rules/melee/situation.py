"""A close combat's participants and situation, and the ONE pool assembly for close
combat (12.4-12.10; revised 12.1-12.5).

A close combat has up to two units a side in four *slots*: the attacker (the unit
that enters the hex; the revised edition's assault unit), its reinforcement, the
defender (the unit that held the hex; the defence unit) and the defender's second
unit (a reinforcement, or in the first edition the transport whose passenger
disembarked into the hex, 12.10). A :class:`Cast` holds the cards of the slots, the
:class:`MeleeSituation` and the edition.

:func:`direction_pools` builds one unit's attack on another in one round: the attack
pool, the defence pool, how doubles count, re-rolls, the adrenaline rush, with a
:class:`~simulator.games.assault.rules.pools.Step` per rule for ``--explain``. Every question
(exact, Monte Carlo, the scenario engine's tables, the worked-example replays) gets
its pools from this function; the edition's own rules are in :mod:`.v1` and
:mod:`.v2`.

Order (rulings #3): every die gained is added first (card, experience; card by area,
terrain or fortification, dug in, experience), then each "lose the weakest die"
effect, never below one die.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from simulator.games.assault.rules.aid import Aid
from simulator.games.assault.rules.cards import UnitCard, find_unit
from simulator.games.assault.rules.dice import DiceSet, Pool, format_pool
from simulator.games.assault.rules.melee.fortifications import Fortification, fortification, strongest
from simulator.games.assault.rules.melee.policies import TRACKS_NEVER, TRACKS_WHILE_MOBILE, attacks_tracks
from simulator.games.assault.rules.pools import PoolBuilder as FirePoolBuilder
from simulator.games.assault.rules.pools import Step, steps_for
from simulator.run.errors import InputError
from simulator.run.vocabulary import AREAS, EDITIONS  # noqa: E402 - one definition

# Slots
A1, A2, D1, D2 = 0, 1, 2, 3
SLOTS = (A1, A2, D1, D2)
SLOT_KEYS = ("attacker", "attacker_2", "defender", "defender_2")

# Kinds of round: v1 initiated, reinforced, renewed (12.1-12.3); v2 initial, later (12.1)
V1_INITIATE, V1_REINFORCE, V1_RENEW, V2_FIRST, V2_LATER = 0, 1, 2, 3, 4
N_KINDS = 5
KIND_NAMES = ("initiated", "reinforced", "renewed", "initial round", "later round")
FIRST_KIND = {"v1": V1_INITIATE, "v2": V2_FIRST}
LATER_KIND = {"v1": V1_RENEW, "v2": V2_LATER}

TRACKS_ATTACK_DIE, TRACKS_DEFENCE_DIE = ("G",), ("B",)   # 12.9, revised 12.5 (stated)
TRACKS_REASON = "attack on wheels/tracks: one green die against one blue die"
ASSAULT_BLUE_DIE = ("B",)     # revised 12.1.3.2 (stated)
DUG_IN_DIE = ("G",)           # 9.8.1, 13.1 (stated)


@dataclass(frozen=True)
class MeleeSituation:
    """Everything about one close-combat question besides the two unit cards."""

    terrain: str = "clear"
    defender_activated: bool = False      # 12.8.1; revised 12.1.2.2
    defender_suppressed: bool = False     # 12.0 (v1: falls back); revised 12.1.2.2 (no attack)
    defender_fallback: bool = False       # 12.0: eliminated when entered
    outflanked: bool = False              # 12.8.2; revised 12.1.2.1
    entry_area: str | None = None         # side the attacker enters from (12.7.3, revised 12.1.3.1, 12.3)
    attacker_fast: bool = False           # revised 12.1.3.2; 12.9 green pre-roll
    support_attacker: str | None = None   # revised 12.1.1.1
    support_defender: str | None = None
    reinforce_attacker: str | None = None  # 12.2 (first edition)
    reinforce_defender: str | None = None
    defender_dug_in: bool = False         # 9.8.1; revised 12.2
    fortification: str | None = None      # revised 12.1.3
    wire: bool = False                    # revised 12.1.2.1: barbed wire or stone wall crossed
    tracks: bool = False                  # 12.9, revised 12.5: infantry attacks wheels/tracks
    attacker_damage: int = 0
    defender_damage: int = 0
    attacker_experience: str = "regular"
    defender_experience: str = "regular"
    defender_immobilised: bool = False    # 12.7.3, 12.8.2; revised 12.1.2, 12.3
    passengers: tuple[str, ...] = ()      # 12.10, revised 12.4: units the defender transports
    # 12.7.3, 12.8.2 (first edition): a reinforcing unit (12.2) entered from this area of the
    # unit it attacks (None: its front, reading CC9), or from outside its arc of fire
    reinforce_area: str | None = None
    reinforce_outflanked: bool = False


# Options that exist in one edition only: (field, edition that has it, what the other lacks)
EDITION_ONLY = (
    ("support_attacker", "v2", "support units (revised 12.1.1.1)"),
    ("support_defender", "v2", "support units (revised 12.1.1.1)"),
    ("wire", "v2", "crossing wire or walls (revised 12.1.2.1)"),
    ("reinforce_attacker", "v1", "reinforcing (12.2; the revised edition allows one unit per faction)"),
    ("reinforce_defender", "v1", "reinforcing (12.2; the revised edition allows one unit per faction)"),
    ("reinforce_area", "v1", "reinforcing (12.2; the revised edition allows one unit per faction)"),
    ("reinforce_outflanked", "v1", "reinforcing (12.2; the revised edition allows one unit per faction)"),
)


def for_edition(s: MeleeSituation, edition: str) -> tuple[MeleeSituation, list[str]]:
    """The situation with the options the edition lacks dropped, and a note for each
    (``--compare-editions`` runs one situation in both editions)."""
    notes, changes = [], {}
    for name, has, what in EDITION_ONLY:
        if edition != has and getattr(s, name):
            changes[name] = MeleeSituation.__dataclass_fields__[name].default
            notes.append(f"--{name.replace('_', '-')} ignored in {edition}: {what} exist only in {has}")
    return replace(s, **changes), notes


class PoolBuilder(FirePoolBuilder):
    """The ranged-fire pool builder (``add``, ``note``, ``lose_weakest``), plus the
    step close combat also needs."""

    def clear(self, section: str, reason: str) -> None:
        """The unit rolls no dice at all."""
        before = self.pool
        self.pool = ()
        self.steps.append(Step(self.side, section, reason, f"-{format_pool(before)}", "-"))


@dataclass(frozen=True)
class Cast:
    """The units of one close combat, by slot, and its situation and edition."""

    edition: str
    units: tuple[UnitCard | None, ...]
    situation: MeleeSituation
    aid: Aid
    fortification: Fortification | None = None
    passenger_in_hex: bool = False         # v1 12.10: slot D1 is a passenger, D2 its transport
    supported: tuple[bool, bool] = (False, False)   # v2: attacker side, defender side
    supports: tuple[UnitCard | None, UnitCard | None] = (None, None)
    passengers: tuple[UnitCard, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def dice(self) -> DiceSet:
        return self.aid.dice

    def card(self, slot: int) -> UnitCard:
        return self.units[slot]

    def present(self, slot: int) -> bool:
        return self.units[slot] is not None

    def label(self, slot: int) -> str:
        if self.passenger_in_hex and slot == D1:
            return "defender's passenger"
        return ("attacker", "attacker's reinforcement", "defender", "defender's second unit")[slot]

    def side_of(self, slot: int) -> int:
        return 0 if slot in (A1, A2) else 1

    def experience(self, slot: int) -> str:
        s = self.situation
        return s.attacker_experience if self.side_of(slot) == 0 else s.defender_experience

    @property
    def defender_slot(self) -> int:
        """The slot of the unit named as DEFENDER (the transport when its passenger
        disembarked into the hex, 12.10)."""
        return D2 if self.passenger_in_hex else D1

    def initial_damage(self, slot: int) -> int:
        s = self.situation
        return s.attacker_damage if slot == A1 else s.defender_damage if slot == self.defender_slot else 0

    def initial_immobilised(self, slot: int) -> bool:
        return slot == self.defender_slot and self.situation.defender_immobilised

    def holds_hex(self, slot: int) -> bool:
        """The unit that originally occupied the hex (12.7.1)."""
        return slot == D1 and not self.passenger_in_hex

    @property
    def entry_area(self) -> str:
        """The side the attacker enters from: as given, else the flank when it outflanks
        the defender, else the front."""
        s = self.situation
        return s.entry_area or ("flank" if s.outflanked else "front")

    def reinforce_outflanks(self, target: UnitCard) -> bool:
        """12.8.2: ``target`` had a reinforced close combat started against it from outside
        its arc of fire: said so, or entered from the flank or rear of a unit whose arc is
        its front. Infantry fire all round (10.6)."""
        s = self.situation
        if target.is_infantry:
            return False
        return s.reinforce_outflanked or (s.reinforce_area in ("flank", "rear") and target.arc_of_fire < 360)

    @property
    def outflanked(self) -> bool:
        """Entered from outside the defender's arc of fire (10.6, 12.8.2): said so, or
        entering from the flank or rear of a unit whose arc is its front."""
        s = self.situation
        return s.outflanked or (s.entry_area in ("flank", "rear") and self.card(self.defender_slot).arc_of_fire < 360)

    def hex_dice(self, area: str | None = None) -> Pool:
        """The full terrain defence bonus of the hex for infantry/artillery: the
        fortification's dice for the side attacked from (``area``, else the attacker's
        entry area), else the terrain's."""
        if self.fortification is not None:
            return self.fortification.dice(area or self.entry_area)
        return self.aid.terrain_defence(self.situation.terrain, False)

    def strongest_hex_die(self) -> Pool:
        """The strongest terrain defence die of the hex, fortification included."""
        pool = self.aid.terrain_defence(self.situation.terrain, False)
        if self.fortification is not None:
            pool = (*pool, *self.fortification.all_dice())
        return strongest(pool, self.dice)


def reinforcer(x: int, y: int) -> int:
    """The reinforcing unit's slot in a reinforced exchange (12.2) between slots ``x`` and
    ``y``: the attacker's reinforcement against the unit that held the hex, else the
    defender's (the melee sequence, ``fight._next_v1``; the engine's reinforced roles are
    laid out the same way, ``engine.closecombat.v1_roles``)."""
    return A2 if D1 in (x, y) else D2


@dataclass(frozen=True)
class Direction:
    """One unit (``x``) attacking another (``y``) in one round of a close combat."""

    cast: Cast
    x: int
    y: int
    kind: int
    x_half: bool = False
    x_immobilised: bool = False
    y_immobilised: bool = False
    tracks: bool = False      # x (infantry) attacks y's wheels/tracks (12.9, revised 12.5)

    @property
    def X(self) -> UnitCard:
        return self.cast.card(self.x)

    @property
    def Y(self) -> UnitCard:
        return self.cast.card(self.y)

    @property
    def situation(self) -> MeleeSituation:
        return self.cast.situation


@dataclass(frozen=True)
class DirectionPools:
    """One unit's attack on another in one round: both pools and how they are rolled."""

    attack: Pool
    defence: Pool
    doubles: str           # how the attacker's doubles count (rulings #2)
    extra_supp: int        # supp symbols added to the attack (4.2.3 recruit)
    attack_rerolls: int    # revised 12.1.1.1, 12.1.2
    defence_rerolls: int
    adrenaline: int        # supp results the defender ignores (12.7.2, revised 12.1.5)
    tracks: bool           # the attack is on wheels/tracks (12.9, revised 12.5)
    prereq: bool           # the green pre-roll of a fast-action initiation (12.9)
    steps: tuple[Step, ...] = ()


EDITION_RULES: dict = {}     # edition name -> its round rules' module (v1, v2 register themselves)


def _rules(edition: str):
    return EDITION_RULES[edition]


def direction_pools(d: Direction, explain: bool = True) -> DirectionPools:
    """``d.x``'s attack on ``d.y`` in a round of kind ``d.kind``: the one close-combat
    pool assembly (12.7, 12.8; revised 12.1.2, 12.1.3), with the steps that built it
    (none with ``explain`` False: the same pools, quicker)."""
    rules = _rules(d.cast.edition)
    dice = d.cast.dice
    steps = steps_for(explain)
    atk = PoolBuilder(f"{d.cast.label(d.x)} attack", dice, steps)
    dfn = PoolBuilder(f"{d.cast.label(d.y)} defence", dice, steps)
    section = rules.TRACKS_SECTION
    if d.tracks:
        atk.add(TRACKS_ATTACK_DIE, section, TRACKS_REASON)
        dfn.add(TRACKS_DEFENCE_DIE, section, TRACKS_REASON)
        prereq = rules.is_first(d.kind) and d.x == A1 and d.situation.attacker_fast
        if prereq:
            atk.note(section, "fast-action initiation: the green die must first show a result")
        return DirectionPools(atk.pool, dfn.pool, "all", 0, 0, 0, 0, True, prereq, tuple(steps))

    X, Y = d.X, d.Y
    row = "vs vehicle" if Y.is_armoured_vehicle else "vs infantry/artillery"
    atk.add(X.attack_dice(0, Y.is_armoured_vehicle), rules.CARD_ATTACK_SECTION, f"card, close combat {row} row")
    atk.add(d.cast.aid.experience(d.cast.experience(d.x)).attack, rules.EXPERIENCE_ATTACK_SECTION,
            f"{d.cast.experience(d.x)} unit")
    rules.attack_losses(atk, d)

    facing, area_section, area_reason = rules.defence_area(d) if Y.is_vehicle else (None, "", "")
    dfn.add(Y.defence_dice(facing), "4.2" + (f", {area_section}" if facing else ""),
            "card" + (f" ({facing}): {area_reason}" if facing else ""))
    if Y.is_vehicle:
        dfn.note(rules.TERRAIN_SECTION, "vehicles get no terrain defence dice in close combat")
    else:
        rules.terrain(dfn, d)
    if d.situation.defender_dug_in and d.y == D1 and Y.is_infantry:
        dfn.add(DUG_IN_DIE, "9.8.1, 13.1", "dug in")
    dfn.add(d.cast.aid.experience(d.cast.experience(d.y)).defence, rules.EXPERIENCE_DEFENCE_SECTION,
            f"{d.cast.experience(d.y)} unit")
    rules.defence_losses(dfn, d)

    doubles = rules.doubles(atk, d)
    attack_rerolls, defence_rerolls = rules.rerolls(atk, dfn, d)
    adrenaline = rules.adrenaline(dfn, d)
    extra = d.cast.aid.experience(d.cast.experience(d.y)).attacker_supp
    if extra and atk.pool:
        atk.note("4.2.3", f"{d.cast.experience(d.y)} target", f"+{extra} supp symbol")
    return DirectionPools(atk.pool, dfn.pool, doubles, extra if atk.pool else 0, attack_rerolls,
                          defence_rerolls, adrenaline, False, False, tuple(steps))


def passenger_fire_pools(attacker: UnitCard, passenger: UnitCard, aid: Aid, attacker_half: bool,
                         passenger_experience: str) -> tuple[Pool, Pool, str, int]:
    """Revised 12.4: before the emergency disembark the assault unit fires the strongest
    die of its range-0 (close-combat) attack at one passenger, which defends with its
    card's defence dice only; resolved as ranged fire (chapter 10: doubles once at half
    strength, 10.8.1; a recruit target's extra suppression, 4.2.3). Returns ``(attack,
    defence, doubles, extra_supp)``: the one assembly of the melee calculator
    (``questions.passenger_fire``) and the scenario engine (``pooltab``)."""
    attack = strongest(attacker.attack_dice(0, False), aid.dice)
    extra = aid.experience(passenger_experience).attacker_supp
    return attack, passenger.defence_dice(None), "strongest" if attacker_half else "all", extra


# --- building a cast (validation) ---------------------------------------------------

def _same_side(card: UnitCard, other: UnitCard, where: str) -> None:
    if card.side != other.side:
        raise InputError(where, "", f"{card.id} is not on the {other.side} side of {other.id}")


def _check_edition_options(s: MeleeSituation, edition: str) -> None:
    for name, has, what in EDITION_ONLY:
        if edition != has and getattr(s, name):
            raise InputError(f"--{name.replace('_', '-')}", "",
                             f"{what} exist only in edition {has} (use --edition {has} or --compare-editions)")


def _check_units(attacker: UnitCard, defender: UnitCard, s: MeleeSituation) -> None:
    if attacker.is_artillery:
        raise InputError("ATTACKER", "", f"{attacker.id} is artillery: artillery cannot initiate a close combat (12.0)")
    if attacker.side == defender.side:
        raise InputError("DEFENDER", "", f"{defender.id} is on the attacker's side ({attacker.side})")
    for dmg, unit, opt in ((s.attacker_damage, attacker, "--attacker-damage"),
                           (s.defender_damage, defender, "--defender-damage")):
        if not 0 <= dmg < unit.strength:
            raise InputError(opt, "", f"{unit.id} has strength {unit.strength}: damage must be 0..{unit.strength - 1}")
    if s.defender_suppressed and s.defender_fallback:
        raise InputError("--defender-suppressed", "", "a unit is either suppressed or in fallback, not both (13.3)")
    if s.outflanked and defender.is_infantry:
        raise InputError("--outflanked", "", f"{defender.id} is infantry: infantry fire all round (10.6), "
                         "so it cannot be outflanked")
    if s.attacker_fast and not attacker.can_fast_action:
        raise InputError("--attacker-fast", "", f"{attacker.id} is slow: it cannot take a fast action (9.2)")
    if s.defender_dug_in and not defender.is_infantry:
        raise InputError("--defender-dug-in", "", f"{defender.id} is not infantry: only infantry dig in (9.8.1)")
    if s.defender_immobilised and not defender.is_vehicle:
        raise InputError("--defender-immobilised", "", f"{defender.id} is not a vehicle (13.1)")
    if s.tracks and not ((attacker.is_infantry and defender.is_vehicle) or
                         (attacker.is_vehicle and defender.is_infantry)):
        raise InputError("--tracks", "", "wheels/tracks are attacked by infantry in close combat with a "
                         "vehicle (12.9, revised 12.5)")
    if s.reinforce_area is not None and s.reinforce_area not in AREAS:
        raise InputError("--reinforce-area", "", f"unknown area {s.reinforce_area!r} ({', '.join(AREAS)})")
    if s.entry_area is not None and s.entry_area not in AREAS:
        raise InputError("--entry-area", "", f"unknown area {s.entry_area!r} ({', '.join(AREAS)})")
    if s.outflanked and s.entry_area == "front":
        raise InputError("--entry-area", "", "the front is inside the arc of fire (10.6): an outflanking attacker "
                         "enters from the flank or the rear")


def _check_fortification(cast_aid: Aid, defender: UnitCard, s: MeleeSituation) -> Fortification | None:
    if s.fortification is None:
        return None
    if defender.is_vehicle:
        raise InputError("--fortification", "", f"{defender.id} is a vehicle: vehicles get no terrain "
                         "defence bonus in close combat (revised 12.1.3)")
    return fortification(cast_aid, s.fortification)


def _passengers(units, attacker: UnitCard, defender: UnitCard, s: MeleeSituation) -> tuple[UnitCard, ...]:
    cards = tuple(find_unit(units, p, "--passengers") for p in s.passengers)
    if not cards:
        return ()
    if not defender.is_vehicle or defender.transport_capacity == 0:
        raise InputError("--passengers", "", f"{defender.id} transports no units (9.11)")
    for c in cards:
        _same_side(c, defender, "--passengers")
        if defender.carries_tank_riders and not c.is_infantry:
            raise InputError("--passengers", "", f"{c.id}: tank riders must be infantry (9.11.1)")
    load = sum(c.strength for c in cards)
    if load > defender.transport_capacity:
        raise InputError("--passengers", "", f"{load} strength points exceed {defender.id}'s capacity "
                         f"of {defender.transport_capacity} (9.11)")
    if s.defender_suppressed or s.defender_fallback:
        raise InputError("--passengers", "", "a suppressed or fallen-back transport is not fought in close combat here")
    return cards


def build_cast(edition: str, attacker: UnitCard, defender: UnitCard, s: MeleeSituation, aid: Aid,
               units: dict[str, UnitCard]) -> Cast:
    """Check a close-combat question and place its units in their slots."""
    if edition not in EDITIONS:
        raise InputError("--edition", "", f"unknown edition {edition!r} ({', '.join(EDITIONS)})")
    _check_edition_options(s, edition)
    _check_units(attacker, defender, s)
    aid.terrain(s.terrain, "--terrain")
    fort = _check_fortification(aid, defender, s)
    if s.entry_area is not None and defender.is_infantry and fort is None:
        raise InputError("--entry-area", "", "the area attacked from matters only for a vehicle (12.7.3) or "
                         "artillery (10.6) defender, or a fortification (revised 12.1.3.1)")
    passengers = _passengers(units, attacker, defender, s)
    slots: list[UnitCard | None] = [attacker, None, defender, None]
    supports: list[UnitCard | None] = [None, None]
    passenger_in_hex = False
    if edition == "v1" and passengers:
        infantry = [c for c in passengers if c.is_infantry]
        if infantry:    # 12.10: one infantry passenger disembarks into the close-combat hex
            slots[D1], slots[D2], passenger_in_hex = infantry[0], defender, True
    for opt, unit_id, slot, lead in (("--reinforce-attacker", s.reinforce_attacker, A2, attacker),
                                     ("--reinforce-defender", s.reinforce_defender, D2, defender)):
        if unit_id is None:
            continue
        card = find_unit(units, unit_id, opt)
        _same_side(card, lead, opt)
        if card.is_artillery:
            raise InputError(opt, "", f"{card.id} is artillery: it cannot reinforce a close combat (12.0)")
        if slots[slot] is not None:
            raise InputError(opt, "", "the close-combat hex holds at most two units a faction (12.0): "
                             "the defender's passenger already disembarked into it (12.10)")
        slots[slot] = card
    for i, (opt, unit_id, lead) in enumerate((("--support-attacker", s.support_attacker, attacker),
                                              ("--support-defender", s.support_defender, defender))):
        if unit_id is None:
            continue
        card = find_unit(units, unit_id, opt)
        _same_side(card, lead, opt)
        if not card.has_ranged_fire:
            raise InputError(opt, "", f"{card.id} has no ranged fire: it cannot support (revised 12.1.1.1)")
        supports[i] = card
    return Cast(edition, tuple(slots), s, aid, fort, passenger_in_hex,
                (supports[0] is not None, supports[1] is not None), tuple(supports), passengers)


def round_pools(cast: Cast, kind: int, x: int = A1, y: int = D1) -> tuple[DirectionPools, DirectionPools]:
    """Both directions of a round between ``x`` and ``y`` with the units as the
    situation gives them: ``(x attacks y, y attacks x)``."""
    tracks_policy = TRACKS_WHILE_MOBILE if cast.situation.tracks else TRACKS_NEVER

    def direction(a: int, b: int) -> DirectionPools:
        A, B = cast.card(a), cast.card(b)
        half = cast.initial_damage(a) >= A.half_strength_threshold
        imm_a, imm_b = cast.initial_immobilised(a), cast.initial_immobilised(b)
        tracks = bool(attacks_tracks(tracks_policy, int(A.is_infantry), int(B.is_vehicle), int(imm_b)))
        return direction_pools(Direction(cast, a, b, kind, half, imm_a, imm_b, tracks))

    return direction(x, y), direction(y, x)
