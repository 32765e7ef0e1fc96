"""Compiling a scenario, its map's hex tables: the line-of-sight tables near each hex
(:func:`near_tables`, cut to the sight radius on large maps, refused beyond the memory
limit), their geometry classes (:func:`geometry`), cover, where each movement type may
stand and the vehicle-damage pools of the terrain (9.10.1). Part of
:func:`simulator.games.assault.game.compile.compile_game`."""

from __future__ import annotations

import numpy as np

from simulator.engine.core import hexgrid, los
from simulator.games.assault.game.compiled import CompiledMap
from simulator.games.assault.game.pooltab import GeoKey, UnitType, hindrance_names
from simulator.games.assault.game.tables import (
    UT_IND_MAX,
    UT_MAXR,
)
from simulator.games.assault.rules.aid import Aid
from simulator.games.assault.rules.cards import MOVEMENT_TYPES
from simulator.games.assault.rules.vehicle_terrain import terrain_pools
from simulator.run.errors import InputError

# The engine's line-of-sight tables (near_tables) reach ``radius`` hexes from every hex:
# about (5 + dice + 2 K) bytes for each hex and each hex within the radius (K the most
# hexes a line crosses, int16 hex numbers). Maps beyond these limits are refused, before
# any large allocation, with their size and the limit.
NEAR_TABLES_BYTES = 1 << 30
MAX_HEXES = hexgrid.MAX_HEXES   # hex numbers are int16 in the between table


WHOLE_MAP_LINES = 1_000_000   # up to this many (hex, offset) entries, the tables reach across the whole map


def sight_radius(ut: np.ndarray, n: int, diameter: int, n_dice: int) -> int:
    """How far the engine's LOS tables reach. On a map whose tables fit in
    ``WHOLE_MAP_LINES`` entries across the whole map (every shipped map), the whole map, so the
    geometry classes are every line's; else as far as the engine ever asks: the longest
    direct fire (10.1), or an indirect fire's band plus its adjacent spotter and a smoke
    hex beside the target (7.1, 7.2, 7.5). Beyond it a line is never open (tables.geo)."""
    if n * (2 * diameter + 1) ** 2 <= WHOLE_MAP_LINES:
        return max(1, diameter)
    need = max(int(ut[:, UT_MAXR].max(initial=0)), int(ut[:, UT_IND_MAX].max(initial=0)) + 2, 1)
    return max(1, min(diameter, need))


def near_table_bytes(n: int, radius: int, n_dice: int) -> int:
    w = 2 * radius + 1
    return n * w * w * (5 + n_dice + 2 * los.longest_line(radius))


def check_map_size(path, cm: CompiledMap, radius: int) -> None:
    """InputError naming the map's size and the limit when its LOS tables would not fit."""
    per_hex = near_table_bytes(1, radius, len(cm.dice_letters))
    most = min(MAX_HEXES, NEAR_TABLES_BYTES // per_hex)
    if cm.n > most:
        raise InputError(path, "map.rows", f"the {cm.cols} x {cm.rows} map has {cm.n:,} hexes: at most "
                         f"{most:,} hexes with these units (line of sight to {radius} hexes, "
                         f"{per_hex * cm.n / 2**20:,.0f} MiB of tables; limit {NEAR_TABLES_BYTES >> 20:,} MiB)")


def near_tables(cm: CompiledMap, radius: int):
    """The LOS of every line at most ``radius`` long, by axial offset from its firer
    (:func:`los.compute_los_near`): ``(code int8[n, w, w], dice int8[n, w, w, dice],
    between int16[n, w, w, K])``, w = 2 radius + 1, -1 where there is no line."""
    kmax = max(1, los.longest_line(radius))
    w = 2 * radius + 1
    between = np.full((cm.n, w, w, kmax), -1, dtype=np.int16 if cm.n <= MAX_HEXES else np.int32)
    code, dice = los.compute_los_near(cm.q, cm.r, cm.index, cm.qmin, cm.rmin, *cm._los_args()[:-1], radius,
                                      kmax, between)
    return code, dice, between


def geometry(cm: CompiledMap, aid: Aid, code, dice, radius):
    """Geometry classes of every line of fire: target terrain, hill die, hindrances;
    numbered in the order of their first line (firer, then target by hex number), over
    the lines of :func:`near_tables`. ``geo[a, i, j]``: the class of the line from ``a``
    at offset ``(i - radius, j - radius)``, -1 when blocked or none."""
    A, I, J = np.nonzero(code[:, :, :] >= 0)
    ok = code[A, I, J] < 2
    A, I, J = A[ok].astype(np.int32), I[ok].astype(np.int32), J[ok].astype(np.int32)
    B = cm.index[cm.q[A] + I - radius - cm.qmin, cm.r[A] + J - radius - cm.rmin].astype(np.int32)
    order = np.argsort(A.astype(np.int64) * cm.n + B, kind="stable")
    A, I, J, B = A[order], I[order], J[order], B[order]
    del order
    nd = dice.shape[3]
    if nd <= 8:                                   # the dice counts (0-2 on an open line) as one number
        packed = np.zeros(len(A), dtype=np.int64)
        for k in range(nd):
            packed |= dice[A, I, J, k].astype(np.int64) << (8 * k)
        uniq, dice_id = np.unique(packed, return_inverse=True)
        uniq = [tuple((int(u) >> (8 * k)) & 255 for k in range(nd)) for u in uniq]
        del packed
    else:
        uniq, dice_id = np.unique(dice[A, I, J], axis=0, return_inverse=True)
        uniq = [tuple(int(x) for x in u) for u in uniq]
    names = [hindrance_names(aid, u, cm.name) for u in uniq]
    name_ids: dict[tuple, int] = {}
    names_of = np.array([name_ids.setdefault(x, len(name_ids)) for x in names], dtype=np.int64)
    hill = (cm.hill[B] & (cm.elevation[A] != cm.elevation[B])).astype(np.int64)
    n_terr = len(cm.terrain_names)
    key = (names_of[dice_id.ravel()] * 2 + hill) * n_terr + cm.terrain[B].astype(np.int64)
    del hill, dice_id
    uk, first, inv = np.unique(key, return_index=True, return_inverse=True)
    rank = np.empty(len(uk), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(uk))
    geo = np.full(code.shape, -1, dtype=np.int32)
    geo[A, I, J] = rank[inv.ravel()]
    name_list = list(name_ids)
    keys: dict[GeoKey, int] = {}
    for k in uk[np.argsort(first, kind="stable")]:
        k = int(k)
        terr, rest = k % n_terr, k // n_terr
        keys[GeoKey(cm.terrain_names[terr], bool(rest % 2), name_list[rest // 2])] = len(keys)
    for key in list(keys):                       # the same lines at a unit in its fallback (13.3)
        bare = GeoKey(None, False, key.hindrances)
        if bare not in keys:
            keys[bare] = len(keys)
    geos = list(keys)
    geo_bare = np.array([keys[GeoKey(None, False, k.hindrances)] for k in geos], dtype=np.int32)
    nhind = np.array([len(k.hindrances) for k in geos], dtype=np.int32)
    return geos, geo, geo_bare, nhind


def cover_table(cm: CompiledMap, aid: Aid) -> np.ndarray:
    """Mean defence symbols the terrain dice give infantry in each hex (for the players)."""
    dice = aid.dice
    mean = {d.letter: sum(sum(f) for f in d.faces) / 6 for d in dice.dice}
    out = np.zeros(cm.n)
    for h in range(cm.n):
        pool = aid.terrain_defence(cm.terrain_names[cm.terrain[h]], False, on_hill=bool(cm.hill[h]))
        out[h] = sum(mean[x] for x in pool)
    return out


def can_stand(cm: CompiledMap) -> np.ndarray:
    out = np.zeros((len(MOVEMENT_TYPES), cm.n), dtype=np.int32)
    for m in range(len(MOVEMENT_TYPES)):
        for h in range(cm.n):
            for d in range(6):
                g = cm.neighbours[h, d]
                if g >= 0 and cm.move_cost[m, g, (d + 3) % 6] >= 0:
                    out[m, h] = 1
    return out


def terrain_damage(cm: CompiledMap, aid: Aid, types: list[UnitType]):
    """9.10.1: the vehicle-damage attack pool of each hex (terrain, hill row) and each
    vehicle type's defence (its strongest card die), from ``vehicle_terrain.terrain_pools``."""
    vehicles = [t.card for t in types if t.card.is_vehicle]
    hex_pool = [()] * cm.n
    def_pool: list[tuple] = [()] * len(types)
    if not vehicles:
        return hex_pool, def_pool
    for h in range(cm.n):
        for card in vehicles:
            try:
                attack, _, _ = terrain_pools(card, cm.terrain_names[cm.terrain[h]], aid, hill=bool(cm.hill[h]))
            except InputError:
                continue
            hex_pool[h] = tuple(attack)
            break
    for i, t in enumerate(types):
        if t.card.is_vehicle:
            best = t.card.strongest_defence_die(aid.dice)
            def_pool[i] = (best,) if best else ()
    return hex_pool, def_pool
