"""Ranged-fire pools tabulated for the scenario engine (10.1-10.9, via ``fire_pools``).

The scenario engine never assembles a pool itself: at compile time it asks
:func:`simulator.games.assault.rules.pools.fire_pools` (the one pool assembly) for every
situation a game can produce, and stores the answers as integer arrays of packed
dice faces (:func:`simulator.games.assault.rules.kernels.packed_faces`). In the hot loop a fire
is two table look-ups, ``sum_rolls`` over the attack rows and the defence rows,
``cancel_packed`` and ``after_fire``.

The attack pool depends only on the firer, the target's row and experience, the
range band, the firer's half strength (10.8.1) and attack die -1 (13.1); the defence
pool and the spotting number only on the target, the geometry between the two hexes
(target terrain, hill die, hindering hexes, smoke markers), the fire status (10.9.4), the
target's status markers, the area of impact (10.9.3) and whether the target is
outside the firer's arc (10.5, 10.6). So the two are tabulated separately: one call
of ``fire_pools`` per attack key with a fixed defence situation, one per defence key
with a fixed attack situation. Identical pools share one row block.

For the players, every (attack pool, defence pool) pair also gets its exact
distribution of uncancelled damage symbols (``exact.pool_distribution`` and
``exact.uncancelled_distribution``), so ``greedy`` scores actions with exact odds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations_with_replacement

import numpy as np

from simulator.games.assault.rules.aid import Aid
from simulator.games.assault.rules.cards import UnitCard
from simulator.games.assault.rules.dice import Pool
from simulator.games.assault.rules.exact import pool_distribution, uncancelled_distribution
from simulator.games.assault.rules.kernels import crit_roll_tables, packed_faces
from simulator.games.assault.rules.melee.situation import passenger_fire_pools
from simulator.games.assault.rules.pools import MAX_HINDRANCES, ROLL_ONCE, FireSituation, fire_pools, spotting
from simulator.games.assault.rules.set_aside import KEEP_DAMAGE, KEEP_SUCCESS, keep_table, kept_distribution
from simulator.games.assault.rules.smoke import smoke_pool
from simulator.games.assault.rules.support import Support, as_support
from simulator.run.errors import InputError
from simulator.run.vocabulary import FIRE_STATUSES

# Fire statuses of the firer (10.0, 10.9.4); fire-and-move shares the move/fire row.
FS_FIRING, FS_TURRET, FS_MOVE = 0, 1, 2
FIRE_STATUS_NAMES = FIRE_STATUSES[:3]     # the statuses FS_* name, in their order
assert FIRE_STATUS_NAMES == ("firing", "turret-firing", "move-and-fire")
# Target action classes as far as ranged fire cares (10.5.1, 10.9.6, 13.2):
# 0 nothing that matters (none, normal, fire and move, dig-in done earlier),
# 1 spotted automatically (fired, turret, move and fire, delayed, after a fallback),
# 2 fast action (spotted, infantry/artillery lose the weakest die, vehicles gain one),
# 3 digging in (loses the weakest die).
AC_PLAIN, AC_SPOTTED, AC_FAST, AC_DIGGING = 0, 1, 2, 3
N_ACTION_CLASSES = 4
N_STATUS = N_ACTION_CLASSES * 4     # x suppressed x dug in
AREAS = ("front", "flank", "rear")  # 10.9.3 areas of impact for direct fire
DMG_BINS = 9                        # exact damage distribution kept for 0..8 (last bin: 8 or more)
SPOT_AUTO = 0


def status_index(action_class: int, suppressed: int, dug_in: int) -> int:
    return action_class * 4 + suppressed * 2 + dug_in


def status_set(index: int) -> frozenset[str]:
    ac, rest = divmod(index, 4)
    supp, dug = divmod(rest, 2)
    out = {AC_PLAIN: set(), AC_SPOTTED: {"fired"}, AC_FAST: {"fast"}, AC_DIGGING: {"digging-in"}}[ac]
    if supp:
        out = out | {"suppressed"}
    if dug:
        out = out | {"dug-in"}
    return frozenset(out)


@dataclass(frozen=True)
class UnitType:
    """A unit card at one experience level: what the engine's tables are indexed by."""

    card: UnitCard
    experience: str = "regular"

    @property
    def label(self) -> str:
        return self.card.id if self.experience == "regular" else f"{self.card.id} ({self.experience})"


@dataclass(frozen=True)
class GeoKey:
    """What the hexes between a firer and a target do to the defence (10.3, 10.9.1-2).

    ``terrain`` None: the target gets no terrain dice (a unit during its fallback
    movement, 13.3). ``hill``: the target's hill die counts (9.6.1: target on a hill,
    firer at another elevation). ``hindrances``: terrain of each hindering hex crossed.
    """

    terrain: str | None
    hill: bool
    hindrances: tuple[str, ...]


@dataclass(frozen=True)
class FireTables:
    """Packed pools and the index arrays the engine reads them through."""

    atk_rows: np.ndarray      # int64[n_atk, max_dice, 6] packed attack faces (doubles applied)
    atk_n: np.ndarray         # int32[n_atk] dice in each attack pool
    atk_extra: np.ndarray     # int32[n_atk] supp symbols added to the roll (4.2.3)
    def_rows: np.ndarray      # int64[n_def, max_dice, 6] packed defence faces
    def_n: np.ndarray         # int32[n_def]
    atk_key: np.ndarray       # int32[type, type, band, half, minus1] -> attack pool (-1: no dice)
    band_of: np.ndarray       # int32[type, range] -> band index of the firer's card (-1: out of range)
    def_key: np.ndarray       # int32[type, geo, smoke, fs, status, area, failed] -> defence pool
                              #   (-1: no such fire; failed=1 and -1: a vehicle is not fired at, 10.5)
    spot_need: np.ndarray     # int8[type, geo, status, adjacent, outside] d6 to spot, 0 automatic (10.5)
    p_dmg: np.ndarray         # float32[n_atk, n_def, DMG_BINS] P(uncancelled crit+hit = k)
    p_morale: np.ndarray      # float32[n_atk, n_def, DMG_BINS] P(= k and some crit or supp left)
    mean_dmg: np.ndarray      # float32[n_atk, n_def] E[uncancelled crit + hit]
    crit_g: np.ndarray        # int64[k, 6] critical-hit roll rows, attacker (10.7.5)
    crit_b: np.ndarray        # int64[k, 6] critical-hit roll rows, defender
    atk_pools: tuple          # (pool, doubles, extra) per attack pool id, for replays
    def_pools: tuple          # pool per defence pool id
    rider_def: np.ndarray | None = None   # int32[type] defence pool of tank riders (10.10.1), -1 none
    last_shot: np.ndarray | None = None   # int32[gun type, tank type, 2] last-shot attack / defence pool
                                          #   (9.10.3), -1 none
    passenger_fire: np.ndarray | None = None   # int32[assault type, passenger type, half, 2] attack /
                                               #   defence pool of the revised 12.4 shot, -1 none
    support: "SupportTables | None" = None  # chapter 7: indirect fire and smoke, None without support units
    into_cc: "IntoCloseCombat | None" = None  # 10.11: fire into a close combat, None without infantry and vehicles


@dataclass(frozen=True)
class SupportTables:
    """The pools of the support phase (chapter 7), by ``fire_pools`` and ``smoke_pool``."""

    ind_atk: np.ndarray       # int32[firer type, target type, half, minus] -> attack pool (-1: none)
    ind_def: np.ndarray       # int32[target type, terrain, hill, status, failed] -> defence pool
    ind_spot: np.ndarray      # int32[target type, terrain, hill, status, adjacent] d6 to spot, 0 automatic
    smoke_atk: np.ndarray     # int32[firer type, half, minus] -> smoke dice (-1: no smoke)


def bare_terrain(aid: Aid) -> str:
    """An aid terrain that gives no defence dice and needs no spotting: what a unit in its
    fallback movement counts as standing in (13.3: no terrain modifiers)."""
    for t in aid.terrains:
        if not t.defence_infantry and not t.defence_vehicle and t.spot is None:
            return t.name
    raise InputError(aid.path, "terrain", "the engine needs one terrain without defence dice "
                     "and without a spotting number (like road) for units in fallback (13.3)")


def hindrance_names(aid: Aid, counts, where: str) -> tuple[str, ...]:
    """Terrain names whose LOS dice add up to ``counts`` (one count per die, dice-set order).

    The compiled map stores the hindrance dice of a line; ``fire_pools`` wants the
    hindering terrains. Any combination with the same dice gives the same pool.
    """
    letters = aid.dice.letters
    want = tuple(int(c) for c in counts)
    hinder = [t for t in aid.terrains if t.hinders]
    for n in range(0, 3):
        for combo in combinations_with_replacement(hinder, n):
            got = [0] * len(letters)
            for t in combo:
                for d in t.los_dice:
                    got[letters.index(d)] += 1
            if tuple(got) == want:
                return tuple(t.name for t in combo)
    raise InputError(where, "los", f"hindrance dice {want} match no combination of hindering terrain")


class _Pools:
    """Distinct pools, each stored once as packed rows."""

    def __init__(self, aid: Aid, attack: bool):
        self.aid, self.attack = aid, attack
        self.ids: dict[tuple, int] = {}
        self.keys: list[tuple] = []

    def id(self, pool: Pool, doubles: str = "all", extra: int = 0, reroll: str = ROLL_ONCE) -> int:
        """The pool's id; an attack rolled as 7.3 says (``reroll``) is a pool of its own:
        the same dice, but its exact odds are those of the dice kept and rolled again."""
        key = (pool, doubles, extra) if self.attack else (pool,)
        if self.attack and reroll != ROLL_ONCE:
            key = key + (reroll,)
        if key not in self.ids:
            self.ids[key] = len(self.keys)
            self.keys.append(key)
        return self.ids[key]

    def arrays(self):
        dice = self.aid.dice
        rows = [packed_faces(k[0], (), dice, k[1]) if self.attack else packed_faces((), k[0], dice, "all")
                for k in self.keys]
        width = max([1] + [len(r) for r in rows])
        out = np.zeros((max(1, len(rows)), width, 6), dtype=np.int64)
        n = np.zeros(max(1, len(rows)), dtype=np.int32)
        for i, r in enumerate(rows):
            out[i, :len(r)] = r
            n[i] = len(r)
        return out, n

    def distributions(self):
        dice = self.aid.dice
        if self.attack:
            return [pool_distribution(k[0], dice, k[1], k[2]) if len(k) == 3 else _kept_mixture(k, dice)
                    for k in self.keys]
        return [pool_distribution(k[0], dice, "all") for k in self.keys]


def _kept_mixture(key: tuple, dice) -> np.ndarray:
    """7.3: the totals of the real attack, the dice kept by a first roll rolled again (no
    dice kept: no effect), as one distribution (the defence roll is independent)."""
    pool, doubles, extra, _ = key
    out = np.zeros(pool_distribution(pool, dice, doubles, extra).shape)
    for kept, q in kept_distribution(pool, dice, KEEP_DAMAGE, doubles).items():
        if not kept:
            out[0, 0, 0] += q
            continue
        d = pool_distribution(kept, dice, doubles, extra)
        out[:d.shape[0], :d.shape[1], :d.shape[2]] += q * d
    return out


def _canonical_firer(types: list[UnitType], target: UnitType, fs: int):
    """Some firer and range for which ``fire_pools`` accepts a fire at ``target``: the
    defence pool does not depend on who fires, only on the fire status (10.9.4)."""
    armoured = target.card.is_armoured_vehicle
    for t in types:
        c = t.card
        if fs == FS_TURRET and not c.has_turret:
            continue
        for b in c.ranges:
            if c.can_fire_at(b.max, armoured):
                return c, b.max
    return None, 0


def _attack_table(types, aid, support, attack: _Pools, n_bands: int) -> np.ndarray:
    n_t = len(types)
    atk_key = np.full((n_t, n_t, n_bands, 2, 2), -1, dtype=np.int32)
    for i, f in enumerate(types):
        for j, g in enumerate(types):
            armoured = g.card.is_armoured_vehicle
            for b_i, b in enumerate(f.card.ranges):
                if not f.card.can_fire_at(b.max, armoured):
                    continue
                for half in (0, 1):
                    for minus in (0, 1):
                        s = FireSituation(range=b.max, target_facing="front" if g.card.is_vehicle else None,
                                          firer_damage=f.card.half_strength_threshold if half else 0,
                                          firer_experience=f.experience, target_experience=g.experience,
                                          firer_attack_die_minus_one=bool(minus))
                        p = fire_pools(f.card, g.card, s, aid, support=support, explain=False)
                        atk_key[i, j, b_i, half, minus] = attack.id(p.attack, p.doubles, p.extra_supp)
    return atk_key


def _defence_table(types, geos, aid, support, defence: _Pools, n_smoke: int, n_area: int) -> np.ndarray:
    bare = bare_terrain(aid)
    shape = (len(types), len(geos), n_smoke, 3, N_STATUS, n_area, 2)
    def_key = np.full(shape, -1, dtype=np.int32)
    for j, g in enumerate(types):
        areas = AREAS[:n_area] if g.card.is_vehicle else (None,)
        for fs in range(3):
            firer, r = _canonical_firer(types, g, fs)
            if firer is None:
                continue
            for k, geo in enumerate(geos):
                for smoke in range(n_smoke):
                    if len(geo.hindrances) + smoke > MAX_HINDRANCES:
                        continue     # 10.3: three or more hindrances block the LOS
                    for st in range(N_STATUS):
                        status = status_set(st)
                        for a_i, area in enumerate(areas):
                            s = FireSituation(range=r, terrain=geo.terrain or bare,
                                              hill=geo.hill and geo.terrain is not None,
                                              hindrances=geo.hindrances, smoke=smoke,
                                              fire_status=FIRE_STATUS_NAMES[fs], spot="failed",
                                              target_status=status, target_facing=area,
                                              target_experience=g.experience)
                            p = fire_pools(firer, g.card, s, aid, support=support, explain=False)
                            def_key[j, k, smoke, fs, st, a_i, 0] = defence.id(p.defence)
                            if p.defence_unspotted is not None:
                                def_key[j, k, smoke, fs, st, a_i, 1] = defence.id(p.defence_unspotted)
                        if n_area > 1 and not g.card.is_vehicle:   # non-vehicles: same for every area
                            def_key[j, k, smoke, fs, st, 1:] = def_key[j, k, smoke, fs, st, :1]
    return def_key


def _spot_table(types, geos, aid, n_out: int) -> np.ndarray:
    """d6 needed to spot (10.5, 10.5.1) by ``pools.spotting``; 0 automatic."""
    bare = bare_terrain(aid)
    out = np.zeros((len(types), len(geos), N_STATUS, 2, n_out), dtype=np.int8)
    for j, g in enumerate(types):
        for k, geo in enumerate(geos):
            for st in range(N_STATUS):
                for adj in (0, 1):
                    for o in range(n_out):
                        s = FireSituation(range=1 if adj else 2, terrain=geo.terrain or bare,
                                          hill=geo.hill and geo.terrain is not None, outside_arc=bool(o),
                                          target_status=status_set(st))
                        number, _ = spotting(g.card, s, aid)
                        out[j, k, st, adj, o] = SPOT_AUTO if number is None else min(7, number)
    return out


def _rider_table(types, aid, support, defence: _Pools, riders) -> np.ndarray:
    """10.10.1: the defence pool of each type that may ride on ``riders[type]`` (a card
    carrying tank riders), by ``fire_pools`` with ``riding_on``: card dice only."""
    out = np.full(len(types), -1, dtype=np.int32)
    for j, carrier in (riders or {}).items():
        g = types[j]
        firer, r = _canonical_firer(types, g, FS_FIRING)
        if firer is None:
            continue
        s = FireSituation(range=r, riding_on=carrier.id, target_experience=g.experience)
        p = fire_pools(firer, g.card, s, aid, units={carrier.id: carrier}, support=support, explain=False)
        out[j] = defence.id(p.defence)
    return out


def can_overrun(tank: UnitCard, gun: UnitCard) -> bool:
    """9.10.3: an armoured vehicle with track movement may overrun enemy artillery."""
    return (gun.is_artillery and tank.is_armoured_vehicle and tank.movement_type == "tracked"
            and tank.side != gun.side)


def _last_shot_table(types, aid, support, attack: _Pools, defence: _Pools) -> np.ndarray:
    """9.10.3: the pools of each gun type's last shot at each tank type that may overrun
    it, by ``fire_pools`` with ``FireSituation(overrun=True)``; -1 when there is none (the
    gun has no vs-vehicle dice at range 0)."""
    out = np.full((len(types), len(types), 2), -1, dtype=np.int32)
    for i, gun in enumerate(types):
        for j, tank in enumerate(types):
            if not can_overrun(tank.card, gun.card):
                continue
            try:
                p = fire_pools(gun.card, tank.card, FireSituation(range=0, overrun=True), aid, support=support,
                               explain=False)
            except InputError:
                continue
            out[i, j] = attack.id(p.attack, p.doubles, p.extra_supp), defence.id(p.defence)
    return out


def _passenger_fire_table(types, aid, attack: _Pools, defence: _Pools) -> np.ndarray:
    """Revised 12.4: the pools of an assault unit's shot at each passenger type of the
    other side, by ``melee.situation.passenger_fire_pools`` (the melee calculator's);
    -1 when it has no range-0 dice or cannot initiate (artillery, 12.0), or the
    passenger would be a vehicle (9.11)."""
    out = np.full((len(types), len(types), 2, 2), -1, dtype=np.int32)
    if not any(t.card.transport_capacity for t in types):
        return out
    for i, a in enumerate(types):
        if a.card.is_artillery:
            continue
        for j, p in enumerate(types):
            if p.card.side == a.card.side or p.card.is_vehicle:
                continue
            for half in (0, 1):
                atk, dfn, doubles, extra = passenger_fire_pools(a.card, p.card, aid, bool(half), p.experience)
                if atk:
                    out[i, j, half] = attack.id(atk, doubles, extra), defence.id(dfn)
    return out


def _indirect_firer(types: list[UnitType]):
    """Some card with indirect fire: the defence against it does not depend on which (7.1)."""
    for t in types:
        if t.card.indirect_fire is not None:
            return t.card
    return None


def _support_tables(types, aid, support, attack: _Pools, defence: _Pools, terrains) -> SupportTables:
    """Chapter 7's pools: indirect fire by ``fire_pools(FireSituation(indirect=True))``
    (7.1-7.3), its spotting roll by ``spotting`` (10.5), smoke by ``smoke_pool`` (7.5)."""
    n_t, n_terr = len(types), len(terrains)
    ind_atk = np.full((n_t, n_t, 2, 2), -1, dtype=np.int32)
    smoke_atk = np.full((n_t, 2, 2), -1, dtype=np.int32)
    for i, f in enumerate(types):
        c = f.card
        if c.indirect_fire is None:
            continue
        for half in (0, 1):
            for minus in (0, 1):
                dmg = c.half_strength_threshold if half else 0
                for j, g in enumerate(types):
                    if g.card.side == c.side:
                        continue
                    s = FireSituation(range=c.indirect_fire.min, indirect=True, firer_damage=dmg,
                                      firer_experience=f.experience, target_experience=g.experience,
                                      firer_attack_die_minus_one=bool(minus))
                    p = fire_pools(c, g.card, s, aid, support=support, explain=False)
                    ind_atk[i, j, half, minus] = attack.id(p.attack, p.doubles, p.extra_supp, p.reroll)
                if c.smoke:
                    pool, doubles, _ = smoke_pool(c, aid, support, firer_damage=dmg, firer_experience=f.experience,
                                                  attack_die_minus_one=bool(minus))
                    smoke_atk[i, half, minus] = attack.id(pool, doubles, 0)
    shape = (n_t, n_terr, 2, N_STATUS, 2)
    ind_def = np.full(shape, -1, dtype=np.int32)
    ind_spot = np.zeros(shape, dtype=np.int32)
    for j, g in enumerate(types):
        firer = next((t.card for t in types if t.card.indirect_fire is not None and t.card.side != g.card.side), None)
        if firer is None:
            continue
        for k, terrain in enumerate(terrains):
            for hill in (0, 1):
                for st in range(N_STATUS):
                    status = status_set(st)
                    s = FireSituation(range=firer.indirect_fire.min, terrain=terrain, hill=bool(hill), indirect=True,
                                      spot="failed", target_status=status, target_experience=g.experience)
                    p = fire_pools(firer, g.card, s, aid, support=support, explain=False)
                    ind_def[j, k, hill, st, 0] = defence.id(p.defence)
                    if p.defence_unspotted is not None:
                        ind_def[j, k, hill, st, 1] = defence.id(p.defence_unspotted)
                    for adj in (0, 1):
                        number, _ = spotting(g.card, FireSituation(range=1 if adj else 2, terrain=terrain,
                                                                   hill=bool(hill), target_status=status), aid)
                        ind_spot[j, k, hill, st, adj] = SPOT_AUTO if number is None else min(7, number)
    return SupportTables(ind_atk, ind_def, ind_spot, smoke_atk)


def tabulate_fire(types: list[UnitType], geos: list[GeoKey], aid: Aid, *, max_range: int,
                  support: Support | None = None, smoke: bool = False, riders: dict | None = None,
                  terrains: tuple[str, ...] = ()) -> FireTables:
    """Every ranged-fire pool a game on this map with these unit types can need.

    ``smoke``: some unit can fire smoke, so lines through 1 or 2 smoke markers are
    tabulated too (10.3, 10.9.2). ``riders``: ``{type index: carrier card}`` for the
    types that may ride as tank riders (10.10.1). ``terrains``: the map's terrain names,
    for the support phase's tables when some type has indirect fire (chapter 7).
    """
    support = as_support(support, aid)
    n_t = len(types)
    n_bands = max(1, max(len(t.card.ranges) for t in types))
    n_area = 3 if any(t.card.is_vehicle for t in types) else 1
    n_out = 2 if any(not t.card.is_infantry for t in types) else 1
    n_smoke = MAX_HINDRANCES + 1 if smoke else 1

    band_of = np.full((n_t, max_range + 1), -1, dtype=np.int32)
    for i, t in enumerate(types):
        for b_i, b in enumerate(t.card.ranges):
            for r in range(b.min, min(b.max, max_range) + 1):
                band_of[i, r] = b_i

    attack = _Pools(aid, attack=True)
    atk_key = _attack_table(types, aid, support, attack, n_bands)
    defence = _Pools(aid, attack=False)
    def_key = _defence_table(types, geos, aid, support, defence, n_smoke, n_area)
    spot_need = _spot_table(types, geos, aid, n_out)
    rider_def = _rider_table(types, aid, support, defence, riders)
    last_shot = _last_shot_table(types, aid, support, attack, defence)
    passenger_fire = _passenger_fire_table(types, aid, attack, defence)     # revised 12.4
    sup = None
    if _indirect_firer(types) is not None:
        sup = _support_tables(types, aid, support, attack, defence, terrains)

    into_cc = _into_cc_table(types, geos, aid, support, attack, defence, n_smoke)   # 10.11
    atk_rows, atk_n = attack.arrays()
    if into_cc is not None:
        into_cc = into_cc.with_keep(attack.keys, aid)
    def_rows, def_n = defence.arrays()
    atk_extra = np.array([k[2] for k in attack.keys] or [0], dtype=np.int32)
    p_dmg, p_morale, mean_dmg = _exact_stats(attack.distributions(), defence.distributions())
    max_crits = max([1] + [sum(max(f[0] for f in aid.dice.die(x).faces) for x in k[0]) for k in attack.keys])
    crit_g, crit_b = crit_roll_tables(max_crits, aid.dice)
    return FireTables(atk_rows, atk_n, atk_extra, def_rows, def_n, atk_key, band_of, def_key, spot_need,
                      p_dmg, p_morale, mean_dmg, crit_g, crit_b,
                      tuple(attack.keys), tuple(k[0] for k in defence.keys), rider_def, last_shot, support=sup,
                      into_cc=into_cc, passenger_fire=passenger_fire)


# 10.11: the fire statuses of the active player's own fire into a close combat (fire, fire and move)
INTO_CC_STATUSES = (FS_FIRING, FS_MOVE)


@dataclass(frozen=True)
class IntoCloseCombat:
    """10.11: the pools of infantry firing into a close combat, by ``fire_pools`` with
    ``FireSituation(into_close_combat=True)``.

    ``infantry``: int32[type, geo, smoke, fs, status, failed] the defence pool of enemy
    infantry in a close combat with a friendly armoured vehicle (first case: its weakest
    defence die lost), -1 where there is none (not infantry; turret fire).
    ``friendly``: int32[vehicle type, geo, smoke, fs, area] the defence pool of the friendly
    vehicle against the success dice rolled again at it (second case), -1 none.
    ``keep``: int32[attack pool, die] six bits, bit ``r`` set when face ``r`` of the die
    keeps it (``set_aside.keep_table(..., KEEP_SUCCESS)`` under the firer's doubles rule).
    """

    infantry: np.ndarray
    friendly: np.ndarray
    keep: np.ndarray | None = None

    def with_keep(self, attack_keys, aid: Aid) -> "IntoCloseCombat":
        """The success-dice masks of every attack pool (``attack_keys``: ``_Pools.keys``)."""
        width = max([1] + [len(k[0]) for k in attack_keys])
        keep = np.zeros((max(1, len(attack_keys)), width), dtype=np.int32)
        for i, (pool, doubles, *_) in enumerate(attack_keys):   # (7.3 keys carry a fourth item)
            if pool:
                table = keep_table(pool, aid.dice, KEEP_SUCCESS, doubles)
                keep[i, :len(pool)] = (table << np.arange(6)).sum(axis=1)
        return replace(self, keep=keep)


def _into_cc_firer(types, target: UnitCard, side: str | None = None):
    """Some infantry card (of card side ``side`` if given) and a range at which it may fire
    at ``target``: the 10.11 defence pools do not depend on who fires, only on the fire
    status (10.9.4)."""
    for t in types:
        c = t.card
        if not c.is_infantry or (side is not None and c.side != side):
            continue
        for b in c.ranges:
            if c.can_fire_at(b.max, target.is_armoured_vehicle):
                return c, b.max
    return None, 0


def _into_cc_lines(geos, n_smoke):
    """The lines of fire a game can have: ``(geo index, geo, smoke markers)`` (10.3)."""
    for k, geo in enumerate(geos):
        if geo.terrain is None:          # the bare line of a fallback movement: not a 10.11 fire
            continue
        for smoke in range(n_smoke):
            if len(geo.hindrances) + smoke <= MAX_HINDRANCES:
                yield k, geo, smoke


def _into_cc_table(types, geos, aid, support, attack: _Pools, defence: _Pools, n_smoke: int):
    """10.11: the defence pools of both cases, tabulated only when the scenario has infantry
    (the only firers) and vehicles (without them neither case arises); else None."""
    if not any(t.card.is_infantry for t in types) or not any(t.card.is_vehicle for t in types):
        return None
    n_t, n_g = len(types), len(geos)
    inf = np.full((n_t, n_g, n_smoke, 3, N_STATUS, 2), -1, dtype=np.int32)
    fr = np.full((n_t, n_g, n_smoke, 3, len(AREAS)), -1, dtype=np.int32)
    for j, g in enumerate(types):
        if g.card.is_infantry:                       # first case: the target
            firer, r = _into_cc_firer(types, g.card)
            if firer is None:
                continue
            for k, geo, smoke in _into_cc_lines(geos, n_smoke):
                for fs in INTO_CC_STATUSES:
                    for st in range(N_STATUS):
                        s = FireSituation(range=r, terrain=geo.terrain, hill=geo.hill, hindrances=geo.hindrances,
                                          smoke=smoke, fire_status=FIRE_STATUS_NAMES[fs], spot="failed",
                                          target_status=status_set(st), target_experience=g.experience,
                                          into_close_combat=True)
                        p = fire_pools(firer, g.card, s, aid, support=support, explain=False)
                        inf[j, k, smoke, fs, st, 0] = defence.id(p.defence)
                        if p.defence_unspotted is not None:
                            inf[j, k, smoke, fs, st, 1] = defence.id(p.defence_unspotted)
        elif g.card.is_vehicle:                      # second case: the friendly vehicle
            enemy = next((e.card for e in types if e.card.is_vehicle and e.card.side != g.card.side
                          and _into_cc_firer(types, e.card, g.card.side)[0] is not None), None)
            if enemy is None:
                continue
            firer, r = _into_cc_firer(types, enemy, g.card.side)
            for k, geo, smoke in _into_cc_lines(geos, n_smoke):
                for fs in INTO_CC_STATUSES:
                    for a_i, area in enumerate(AREAS):
                        s = FireSituation(range=r, terrain=geo.terrain, hill=geo.hill, hindrances=geo.hindrances,
                                          smoke=smoke, fire_status=FIRE_STATUS_NAMES[fs], target_facing="front",
                                          into_close_combat=True, friendly_vehicle=g.card.id,
                                          friendly_facing=area)
                        p = fire_pools(firer, enemy, s, aid, units={g.card.id: g.card}, support=support, explain=False)
                        fr[j, k, smoke, fs, a_i] = defence.id(p.friendly_defence)
    return IntoCloseCombat(inf, fr)


def _exact_stats(attacks: list[np.ndarray], defences: list[np.ndarray]):
    """Exact damage and morale odds of every (attack pool, defence pool) pair."""
    na, nd = max(1, len(attacks)), max(1, len(defences))
    p_dmg = np.zeros((na, nd, DMG_BINS), dtype=np.float32)
    p_morale = np.zeros((na, nd, DMG_BINS), dtype=np.float32)
    mean = np.zeros((na, nd), dtype=np.float32)
    for a, atk in enumerate(attacks):
        c, h, s = np.indices(atk.shape)
        dmg = np.minimum(c + h, DMG_BINS - 1).ravel()
        morale = ((c > 0) | (s > 0)).ravel()
        total = (c + h).ravel()
        for d, dfn in enumerate(defences):
            u = uncancelled_distribution(atk, dfn).ravel()
            p_dmg[a, d] = np.bincount(dmg, weights=u, minlength=DMG_BINS)
            p_morale[a, d] = np.bincount(dmg[morale], weights=u[morale], minlength=DMG_BINS)
            mean[a, d] = float((total * u).sum())
    return p_dmg, p_morale, mean


from simulator.games.assault.game.state import int64_constants  # noqa: E402

int64_constants(globals())
