"""Assault attacks (002; 001 Assault attacks): strengths, and resolution from the dice.

Resolution is a pure function of what was rolled: :func:`replay` takes the faces of
the three rolls (the attacker's black dice, the cover dice he rolls for the
defender, the defender's black dice) and :func:`resolve` takes just the two hit
counts. The exact calculator and the Monte Carlo kernel only produce the joint
distribution of those two counts; every consequence (casualties, retreat,
destruction) comes from :func:`resolve`, the one place it is written.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations

from simulator.games.toi.rules import shares
from simulator.games.toi.rules.attack import DEFENCE_SUCCESS_FROM, MAX_DICE, net_hits
from simulator.games.toi.rules.data import GameData
from simulator.games.toi.rules.results import VEHICLE_STEPS, damaged, hits_to_destroy
from simulator.games.toi.rules.units import Squad, Unit, check_hex, check_unit_in, label
from simulator.run.errors import InputError

ASSAULT_SUCCESS_FROM = 4        # 002 steps 4-5: black dice succeed on 4-6, as at close range
from simulator.run.vocabulary import HIT_POLICIES  # noqa: E402 - one definition

MAX_SUPPORTERS = 2              # 002 step 1
MAX_DEFENDERS = 3               # 001 Setup: stacking, three units a hex
MAX_VEHICLES = 2                # 001 Setup: stacking, two vehicles a hex


@dataclass(frozen=True)
class Part:
    """One unit's firepower in the assault, and why."""

    unit: str
    role: str               # "active", "support" or "defender"
    fpr: int
    halvings: tuple[str, ...]
    strength: int
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class AssaultSetup:
    """A compiled assault: who takes part, the three dice counts, and the policies."""

    attackers: tuple[Squad, ...]        # active squad first, then supporters
    defenders: tuple[Unit, ...]
    fragile: tuple[bool, ...]           # per defender (vehicles: 001 Trucks, Fragile)
    attack_strength: int
    defender_strength: int
    cover: int
    parts: tuple[Part, ...]
    cover_notes: tuple[str, ...]
    retreat_space: int = 3
    hit_policy: str = "vehicles-first"
    labels: tuple[str, ...] = ()        # defenders


# ---------------------------------------------------------------- who may take part

def _check_attacker(squad: Unit, role: str, where: str, game: GameData) -> Squad:
    if squad.is_vehicle:  # 001 Assault: only squads
        raise InputError(where, "", f"{squad.spec!r}: only squads may assault or support an assault")
    if squad.generic:
        raise InputError(where, "", f"{squad.spec!r}: name the figures, e.g. squad:4regular")
    heavy = [f for f, _ in squad.figures if game.units.figures[f].has("heavy_weapon")]
    if heavy:  # 002 (first list): no heavy infantry weapon figure, active or supporting
        raise InputError(where, "", f"{squad.spec!r}: a squad with a {heavy[0]} figure cannot take part in an assault")
    if squad.condition != "normal":  # 002 step 1 (support); 001 Squad conditions (active)
        raise InputError(where, "", f"{squad.spec!r}: a {squad.condition} squad cannot {role} an assault")
    if role == "assault" and not squad.fresh:  # 001 Action phase: only a fresh unit is activated
        token = "fatigued" if "fatigued" in squad.situation else "in Op Fire mode"
        raise InputError(where, "", f"{squad.spec!r} is {token}: only a fresh squad may be activated to assault "
                         "(supporters may be fatigued, 002 step 1)")
    entered = sorted(f for f in squad.features if f in ("razor_wire", "minefield"))
    if role == "assault" and entered and "unmoved" not in squad.situation:  # 002 first list; rulings T18
        raise InputError(where, "", f"{squad.spec!r}: a squad that entered {entered[0]} during its move may not "
                         "assault that activation (tag it 'unmoved' if it started there and did not move)")
    return squad


def _check_defenders(defenders: list[Unit], game: GameData) -> None:
    if not 1 <= len(defenders) <= MAX_DEFENDERS:
        raise InputError("--defender", "", f"the assaulted hex holds 1 to {MAX_DEFENDERS} units (got {len(defenders)})")
    if sum(u.is_vehicle for u in defenders) > MAX_VEHICLES:
        raise InputError("--defender", "", f"a hex holds at most {MAX_VEHICLES} vehicles")
    for u in defenders:
        if u.generic:
            raise InputError("--defender", "", f"{u.spec!r}: name the defender's figures or vehicle model")
        if u.is_vehicle and not game.units.vehicles[u.model].light:  # 002 (first list)
            raise InputError("--defender", "", f"{u.spec!r}: a hex with an enemy heavy vehicle cannot be assaulted")


# ---------------------------------------------------------------- strengths

def _infantry_fpr(squad: Squad, game: GameData, skip_mortars: bool = False) -> int:
    return sum(n * game.units.figures[f].infantry.fpr.value for f, n in squad.figures
               if not (skip_mortars and game.units.figures[f].has("area_attack")))


def _hex_halvings(features: frozenset[str], is_vehicle: bool, game: GameData, skip: set[str]) -> tuple[int, list[str]]:
    """Halvings from the markers of a hex (rulings T2; :func:`shares.hex_halvings`) and their names."""
    for_all, for_squads, out = 0, 0, []
    for name in sorted(features - skip):
        who = game.terrain.features[name].halves_fpr_of
        for_all += who == "all"
        for_squads += who == "squads"
        if who == "all" or (who == "squads" and not is_vehicle):
            out.append(f"in {name}")
    return shares.hex_halvings(for_all, for_squads, is_vehicle), out


def _attacker_part(squad: Squad, role: str, target_smoke: bool, game: GameData, where: str) -> Part:
    halvings = ["supporting (combined fire)"] if role == "support" else []   # 002 step 1
    if target_smoke:
        halvings.append("assaulting a smoke hex")                            # 001 Smoke
    # 001 Smoke: assaulting or supporting from a smoke hex does not halve FPR
    in_hex, names = _hex_halvings(squad.features, False, game, skip={"smoke"})
    halvings += names
    n = shares.assault_attacker_halvings(role == "support", target_smoke, in_hex)
    if n >= 2:  # 001 Smoke (supporters against smoke), 001 Combined fire note, rulings #15
        raise InputError(where, "", f"{squad.spec!r} cannot {role} this assault: its FPR would be halved "
                         f"twice ({'; '.join(halvings)})")
    fpr = _infantry_fpr(squad, game)  # 002 step 2: FPR against infantry
    return Part(label(squad, game), "active" if role == "assault" else "support", fpr, tuple(halvings),
                max(shares.strength_after(fpr, n), 0))


def _flamethrowers(attackers: list[Squad]) -> int:
    return sum(1 for s in attackers if s.has_specialisation("flamethrower"))


def _defender_part(unit: Unit, officer_present: bool, hex_features: frozenset[str], game: GameData) -> Part:
    """002 step 3 (rulings T12): :func:`shares.assault_defender_halvings`, with the reasons."""
    in_hex, names = _hex_halvings(hex_features, unit.is_vehicle, game, skip=set())
    condition = 0 if unit.is_vehicle else ("normal", "pinned", "disrupted").index(unit.condition)
    heavy = unit.is_vehicle and unit.damage == "heavy"
    n = shares.assault_defender_halvings(unit.is_vehicle, condition, officer_present, in_hex, heavy)
    if unit.is_vehicle:  # 002 step 3: light vehicles add their FPR against infantry
        fpr = game.units.vehicles[unit.model].infantry.fpr.value
        halvings = ["heavy damage"] if heavy else []
    else:
        fpr = _infantry_fpr(unit, game, skip_mortars=True)  # 001 Mortar crew: not in an assault on its own hex
        if n < 0:  # 002 step 3: disrupted
            return Part(label(unit, game), "defender", fpr, ("disrupted: no firepower",), 0)
        halvings = ["pinned"] if unit.condition == "pinned" and not officer_present else []
    halvings += names
    if n >= 2:  # rulings #15: a unit halved twice cannot attack
        return Part(label(unit, game), "defender", fpr, tuple(halvings), 0, ("halved twice: no firepower",))
    return Part(label(unit, game), "defender", fpr, tuple(halvings), max(shares.strength_after(fpr, n), 0))


def _medic_cover(defenders: list[Unit], game: GameData) -> tuple[int, list[str]]:
    """The medic's Bandage in the cover dice, as ``specialisations.medic.assault_cover`` says (rulings T11)."""
    medic = game.units.specialisations.medic
    how, bonus = medic.assault_cover.value, medic.cover_vs_normal.value
    squads = [u for u in defenders if not u.is_vehicle]
    in_hex = any(u.has_specialisation("medic") for u in squads)
    helped = [u for u in squads if in_hex or "with_medic" in u.situation]  # 001 Medic: Bandage
    if how == "none" or not helped or not bonus:
        return 0, []
    if how == "hex":
        return bonus, [f"medic's bandage: +{bonus}"]
    return bonus * len(helped), [f"medic's bandage ({u.spec}): +{bonus}" for u in helped]


def _cover(defenders: list[Unit], hex_features: frozenset[str], game: GameData, extra: int,
           flame_cut: int) -> tuple[int, list[str]]:
    """Cover dice (002 step 4): terrain once, fortifications once per squad in one."""
    cover, notes = 0, []
    any_squad = any(not u.is_vehicle for u in defenders)
    for name in sorted(hex_features):
        feat = game.terrain.features[name]
        if feat.assault_cover == "hex" and feat.cover_value and (feat.cover_for == "all" or any_squad):
            cover += feat.cover_value
            notes.append(f"{name}: +{feat.cover_value}")
    for u in defenders:
        for name in sorted(u.features):
            feat = game.terrain.features[name]
            if feat.assault_cover == "per_squad" and not u.is_vehicle and feat.cover_value:
                cover += feat.cover_value
                notes.append(f"{name} ({u.spec}): +{feat.cover_value}")
    bandage, bandage_notes = _medic_cover(defenders, game)
    cover += bandage
    notes += bandage_notes
    if extra:
        cover += extra
        notes.append(f"--cover: +{extra}")
    if flame_cut:  # 002 step 4: flamethrower assault, -5 (not below 0)
        notes.append(f"flamethrower: {cover} - {flame_cut}, not below 0")
    return shares.assault_cover_dice(cover, flame_cut > 0, flame_cut), notes


def build_assault(game: GameData, active: Unit, supporters: list[Unit], defenders: list[Unit], *,
                  hex_features: set[str] = frozenset(), extra_cover: int = 0, retreat_space: int = 3,
                  hit_policy: str = "vehicles-first") -> AssaultSetup:
    """Strengths and cover of an assault (002 steps 1-4)."""
    if len(supporters) > MAX_SUPPORTERS:
        raise InputError("--supporter", "", f"at most {MAX_SUPPORTERS} squads may support an assault (002 step 1)")
    if hit_policy not in HIT_POLICIES:
        raise InputError("--hits-to", "", f"unknown policy {hit_policy!r} ({', '.join(HIT_POLICIES)})")
    if retreat_space < 0 or extra_cover < 0:
        raise InputError("--retreat-space" if retreat_space < 0 else "--cover", "", "must be 0 or more")
    attackers = [_check_attacker(active, "assault", "--attacker", game)]
    attackers += [_check_attacker(s, "support", "--supporter", game) for s in supporters]
    _check_defenders(defenders, game)
    hex_feats = frozenset(hex_features).union(*(
        {f for f in u.features if game.terrain.features[f].kind != "fortification"} for u in defenders))
    terrains = sorted(f for f in hex_feats if game.terrain.features[f].kind == "terrain")
    if len(terrains) > 1:
        raise InputError("--terrain", "", f"the assaulted hex has one main terrain, got {', '.join(terrains)}")
    check_hex(hex_feats, game, "--terrain", "the assaulted hex")
    for u in defenders:
        check_unit_in(hex_feats | u.features, u.is_vehicle, game, "--defender", u.spec)
    smoke = "smoke" in hex_feats
    parts = [_attacker_part(attackers[0], "assault", smoke, game, "--attacker")]
    parts += [_attacker_part(s, "support", smoke, game, "--supporter") for s in attackers[1:]]
    flames = _flamethrowers(attackers)
    flame = game.units.specialisations.flamethrower
    strength = sum(p.strength for p in parts) + flames * flame.fpr_bonus.value  # 002 step 2
    officer = any(not u.is_vehicle and (u.count("officer") or "with_officer" in u.situation) for u in defenders)
    dparts = [_defender_part(u, officer, hex_feats, game) for u in defenders]
    cover, notes = _cover(defenders, hex_feats, game, extra_cover, flame.cover_reduction.value if flames else 0)
    if flames:
        notes.insert(0, f"{flames} flamethrower squad(s): +{flames * flame.fpr_bonus.value} attack FPR")
    for n, what in ((strength, "attack strength"), (sum(p.strength for p in dparts), "defender strength"),
                    (cover, "cover")):
        if n > MAX_DICE:
            raise InputError("assault", "", f"{what} {n} is more than {MAX_DICE} dice")
    fragile = tuple(u.is_vehicle and game.units.vehicles[u.model].has("fragile") for u in defenders)
    return AssaultSetup(tuple(attackers), tuple(defenders), fragile, strength, sum(p.strength for p in dparts),
                        cover, tuple(parts + dparts), tuple(notes), retreat_space, hit_policy,
                        tuple(label(u, game) for u in defenders))


# ---------------------------------------------------------------- resolution

@dataclass(frozen=True)
class DefenderOutcome:
    """One defending unit after the assault."""

    hits: int                 # hits the defender assigned to it (002 step 7)
    figures_left: int         # squads
    condition: str            # squads: normal / pinned / disrupted
    damage: str               # vehicles: undamaged / light / heavy / destroyed
    destroyed: bool
    destroyed_by: str | None  # "hits", "retreat" or None
    retreated: bool


@dataclass(frozen=True)
class AssaultResult:
    attacker_hits: int
    defender_hits: int
    success: bool
    attacker_losses: tuple[int, ...]     # figures lost per attacking squad, active first
    attacker_sizes: tuple[int, ...]
    defenders: tuple[DefenderOutcome, ...]

    @property
    def active_eliminated(self) -> bool:
        return self.attacker_losses[0] == self.attacker_sizes[0]

    @property
    def defenders_eliminated(self) -> bool:
        return all(d.destroyed for d in self.defenders)


def count_successes(faces: list[int], from_face: int) -> int:
    """Dice showing ``from_face`` or more."""
    for f in faces:
        if not 1 <= f <= 6:
            raise InputError("dice", "", f"a d6 shows 1 to 6 (got {f})")
    return sum(1 for f in faces if f >= from_face)


def _attacker_losses(setup: AssaultSetup, hits: int) -> tuple[int, ...]:
    """002 step 6: the active squad loses figures first, then the supporters in order."""
    out = []
    for squad in setup.attackers:
        lost = min(hits, squad.size)
        out.append(lost)
        hits -= lost
    return tuple(out)


def _capacity(setup: AssaultSetup, i: int) -> int:
    """Most hits defender ``i`` can absorb: its figures, or what destroys a vehicle (002 step 7)."""
    u = setup.defenders[i]
    return hits_to_destroy(u.damage, setup.fragile[i]) if u.is_vehicle else u.size


def _doomed(setup: AssaultSetup, i: int, success: bool) -> bool:
    """Units a successful assault destroys whatever the defender chooses: disrupted squads, or all
    with nowhere to go (002 step 9)."""
    if not success:
        return False
    return setup.retreat_space == 0 or setup.defenders[i].condition == "disrupted"


def hit_order(setup: AssaultSetup, success: bool) -> list[int]:
    """The defender's order of preference for hits when his choices lose the same (rulings T13).

    Units the retreat will destroy anyway come first; then light vehicles before squads
    (``vehicles-first``, as in the 002 example) or after them (``squads-first``);
    otherwise in the order given.
    """
    n = len(setup.defenders)
    vehicle_rank = 0 if setup.hit_policy == "vehicles-first" else 1

    def rank(i: int) -> tuple[int, int, int]:
        is_vehicle = setup.defenders[i].is_vehicle
        return (0 if _doomed(setup, i, success) else 1, vehicle_rank if is_vehicle else 1 - vehicle_rank, i)
    return sorted(range(n), key=rank)


def _splits(hits: int, caps: list[int]):
    """Every way to put ``hits`` on units that take at most ``caps`` each."""
    if not caps:
        if hits == 0:
            yield ()
        return
    for k in range(min(hits, caps[0]), -1, -1):
        for rest in _splits(hits - k, caps[1:]):
            yield (k,) + rest


def _after_hits(setup: AssaultSetup, i: int, hits: int) -> DefenderOutcome:
    u = setup.defenders[i]
    if u.is_vehicle:
        state = damaged(u.damage, hits, setup.fragile[i]) if hits else u.damage
        gone = state == "destroyed"
        return DefenderOutcome(hits, 0, "-", state, gone, "hits" if gone else None, False)
    left = u.size - hits
    return DefenderOutcome(hits, left, u.condition, "-", left == 0, "hits" if left == 0 else None, False)


def _retreat(outcomes: list[DefenderOutcome], keep: frozenset[int]) -> list[DefenderOutcome]:
    """002 step 9: the units in ``keep`` retreat (a pinned one becomes disrupted); the other survivors
    are destroyed (disrupted, no retreat hex, or beyond the stacking room)."""
    out = []
    for i, o in enumerate(outcomes):
        if o.destroyed:
            out.append(o)
        elif i not in keep:
            out.append(replace(o, figures_left=0, damage="destroyed" if o.damage != "-" else "-",
                               destroyed=True, destroyed_by="retreat"))
        else:
            condition = "disrupted" if o.condition == "pinned" else o.condition  # pinned -> disrupted
            out.append(replace(o, condition=condition, retreated=True))
    return out


def _keeps(setup: AssaultSetup, outcomes: list[DefenderOutcome]):
    """Every legal choice of the units that retreat: as many survivors able to retreat as the room takes."""
    able = [i for i, o in enumerate(outcomes) if not o.destroyed and o.condition != "disrupted"]
    room = min(setup.retreat_space, len(able))
    return [frozenset(c) for c in combinations(able, room)]


def _cost(setup: AssaultSetup, outcomes: list[DefenderOutcome]) -> tuple[int, ...]:
    """What the defender loses: figures, vehicles destroyed, vehicle damage steps, in the order his
    policy values them (``vehicles-first`` spares figures, ``squads-first`` spares vehicles)."""
    figures = sum(u.size - o.figures_left for u, o in zip(setup.defenders, outcomes, strict=True) if not u.is_vehicle)
    wrecks = sum(o.destroyed for u, o in zip(setup.defenders, outcomes, strict=True) if u.is_vehicle)
    steps = sum(VEHICLE_STEPS.index(o.damage) for u, o in zip(setup.defenders, outcomes, strict=True) if u.is_vehicle)
    return (figures, wrecks, steps) if setup.hit_policy == "vehicles-first" else (wrecks, steps, figures)


@lru_cache(maxsize=8192)
def defender_choice(setup: AssaultSetup, hits: int, success: bool) -> tuple[DefenderOutcome, ...]:
    """The defender's casualties and retreat (002 steps 7 and 9; rulings T13, T14).

    He puts every hit he must (a squad takes at most its figures, a light vehicle at most what
    destroys it) and, after a successful assault, picks the units that retreat when the hex
    cannot take them all. Of all his choices he takes the one that loses least (:func:`_cost`);
    among equals, the one that puts the most hits on the units the retreat destroys, then
    follows :func:`hit_order`, then keeps the units given first.
    """
    n = len(setup.defenders)
    caps = [_capacity(setup, i) for i in range(n)]
    order = hit_order(setup, success)
    best, best_key = None, None
    for taken in _splits(min(hits, sum(caps)), caps):
        hit = [_after_hits(setup, i, h) for i, h in enumerate(taken)]
        for keep in (_keeps(setup, hit) if success else [None]):
            outcomes = _retreat(hit, keep) if success else hit
            lost_anyway = sum(h for h, o in zip(taken, outcomes, strict=True) if o.destroyed_by == "retreat")
            key = (_cost(setup, outcomes), -lost_anyway, tuple(-taken[i] for i in order),
                   tuple(keep is not None and i not in keep for i in range(n)))
            if best_key is None or key < best_key:
                best, best_key = outcomes, key
    return tuple(best)


def assault_succeeds(attacker_hits: int, defender_hits: int) -> bool:
    """Only strictly more attacker hits make the defender retreat (002 steps 8-9; rulings #16).
    Compiled by the whole-game engine too (``simulator.games.toi.rules.jit``)."""
    return attacker_hits > defender_hits


def resolve(setup: AssaultSetup, attacker_hits: int, defender_hits: int) -> AssaultResult:
    """Everything that follows from the two hit counts (002 steps 6-9; ties to the defender, rulings #16)."""
    success = assault_succeeds(attacker_hits, defender_hits)      # 002 steps 8-9
    losses = _attacker_losses(setup, defender_hits)               # 002 step 6
    outcomes = defender_choice(setup, attacker_hits, success)     # 002 steps 7 and 9
    return AssaultResult(attacker_hits, defender_hits, success, losses,
                         tuple(s.size for s in setup.attackers), outcomes)


def rolled_hits(setup: AssaultSetup, attack_faces: list[int], cover_faces: list[int],
                defender_faces: list[int]) -> tuple[int, int]:
    """The two hit counts from the faces rolled (002 steps 4-5)."""
    for faces, n, what in ((attack_faces, setup.attack_strength, "attack dice"),
                           (cover_faces, setup.cover, "cover dice"),
                           (defender_faces, setup.defender_strength, "defender dice")):
        if len(faces) != n:
            raise InputError("dice", "", f"{what}: {n} faces needed, {len(faces)} given")
    black = count_successes(attack_faces, ASSAULT_SUCCESS_FROM)
    red = count_successes(cover_faces, DEFENCE_SUCCESS_FROM)
    return int(net_hits(black, red)), count_successes(defender_faces, ASSAULT_SUCCESS_FROM)


def replay(setup: AssaultSetup, attack_faces: list[int], cover_faces: list[int],
           defender_faces: list[int]) -> AssaultResult:
    """Resolve an assault from the dice actually rolled."""
    return resolve(setup, *rolled_hits(setup, attack_faces, cover_faces, defender_faces))


def defender_figures(result: AssaultResult, setup: AssaultSetup) -> tuple[int, int]:
    """Figures the defender lost to hits, and figures destroyed by the retreat."""
    to_hits = sum(o.hits for u, o in zip(setup.defenders, result.defenders, strict=True) if not u.is_vehicle)
    in_retreat = sum(u.size - o.hits for u, o in zip(setup.defenders, result.defenders, strict=True)
                     if not u.is_vehicle and o.destroyed_by == "retreat")
    return to_hits, in_retreat


__all__ = ["AssaultSetup", "AssaultResult", "DefenderOutcome", "Part", "build_assault", "resolve", "replay",
           "rolled_hits", "count_successes", "hit_order", "defender_choice", "defender_figures", "HIT_POLICIES"]
