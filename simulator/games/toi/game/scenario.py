"""Tide of Iron scenario files (``scenarios/toi/*.scenario.toml``) -> :class:`Tables`.

A scenario names the map (rows of legend letters, a legend of ``terrain.toml``
features joined with ``+``; ``hill`` is level 1, ``high_hill`` level 2, 001 Range:
elevation), the objectives with their command and victory points (001 Command phase),
the rounds and the actions per player turn (001 Action phase), which side starts with
the initiative (001 Setup), and each side's deployment zones and squads, each squad
written as its figures (``"3regular+officer"``, 001 Setup: build squads; the figure
names of ``units.toml``; ``concealed = true`` for a squad concealed from the set-up,
rulings T39), markers (``[[markers]]``, rulings T27) and smoke markers for the first
round (``smoke = ["3,0"]``, rulings T36).

Checks raise :class:`~simulator.run.errors.InputError` naming the file and key. The line of
sight of every two hexes is computed here once (001 Line of sight, rulings T23; again
with the smoke markers as blocking terrain when the scenario places any), with
the core's exact line tracer :func:`simulator.engine.core.los.line_steps`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from numba import njit
from pydantic import BaseModel, ConfigDict, Field

from simulator.engine.core import los as core_los
from simulator.engine.core.hexgrid import HexGrid, axial_distance, too_many_hexes
from simulator.engine.core.hexgrid import _all_distances as all_distances
from simulator.engine.core.hexspec import parse_hex_spec
from simulator.games.toi.game import tables as T
from simulator.games.toi.game.state import MAX_FIG
from simulator.games.toi.rules.data import GameData, load_game
from simulator.run.datafile import SCENARIOS_DIR, load_model
from simulator.run.errors import InputError

SCENARIO_DIR = SCENARIOS_DIR / "toi"
ELEVATION_WORDS = {"hill": 1, "high_hill": 2}       # 001 Range: level 1 low hill, level 2 high hill


class _Strict(BaseModel):
    """The file's models: unknown keys refused, values frozen; each field's docstring is its
    description in the JSON Schema (``lanchester toi schema``; docs/toi-scenarios.md)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class MapSpec(_Strict):
    orientation: str = "flat"
    """"flat" or "pointy" hexes."""
    source: str = ""
    """Who drew the map."""
    rows: list[str] = Field(min_length=1)
    """One legend character per hex, row 0 first, column 0 leftmost; a hex is named "column,row"."""
    legend: dict[str, str]
    """Character -> terrain.toml features joined with "+" (road, hill, high_hill; 001 Terrain)."""


class ObjectiveSpec(_Strict):
    hex: str
    """The objective hex, "column,row"."""
    name: str = ""
    """Its name in reports and in --vary vp.NAME."""
    command: int = Field(default=0, ge=0, le=20)
    """Command tokens a round to the side controlling it (001 Command phase; rulings T25)."""
    vp: int = Field(default=0, ge=0, le=20)
    """Victory points a round to the side controlling it (001 Winning the game; rulings T25)."""
    nation: str = "neutral"
    """"neutral", or the side whose command objective it is: only that side gets its command."""


class SquadSpec(_Strict):
    figures: str
    """The squad's figures, e.g. "3regular+officer" (units.toml figures; 001 Setup: build squads)."""
    count: int = Field(default=1, ge=1, le=40)
    """How many such squads."""
    zone: str | None = None
    """The deployment zone it sets up in (001 Setup); give zone or hex."""
    hex: str | None = None
    """A fixed hex it sets up in instead of a zone (rulings T44)."""
    arrives_after_round: int = Field(default=0, ge=0, le=30)
    """0: from the set-up; r: a reinforcement placed in round r's status phase (001 Status phase, 5)."""
    specialisation: str | None = None
    """engineer, anti_tank, flamethrower or medic (001 Specialized squads)."""
    concealed: bool = False
    """Concealed from the set-up (001 Concealed squads; rulings T39)."""


class VehicleSpec(_Strict):
    model: str
    """A vehicle of units.toml, e.g. "sherman"."""
    count: int = Field(default=1, ge=1, le=20)
    """How many."""
    zone: str | None = None
    """The deployment zone it sets up in (001 Setup); give zone or hex."""
    hex: str | None = None
    """A fixed hex it sets up in instead of a zone (rulings T44)."""
    arrives_after_round: int = Field(default=0, ge=0, le=30)
    """0: from the set-up; r: a reinforcement placed in round r's status phase (001 Status phase, 5)."""


class SideSpec(_Strict):
    zones: dict[str, list[str]]
    """Zone name -> hexes and ranges ("0-5,8-9"): where the side sets up (001 Setup)."""
    squads: list[SquadSpec] = Field(min_length=1)
    """The side's squads, one entry per kind."""
    vehicles: list[VehicleSpec] = []
    """The side's vehicles."""


class MarkerSpec(_Strict):
    """A fortification or obstacle marker on the map (001 Fortifications, obstacles & cover)."""

    hex: str
    """The marker's hex."""
    kind: str
    """entrenchment, pillbox, minefield, razor_wire or tank_trap (rulings T27)."""
    count: int = Field(default=1, ge=1, le=3)
    """Fortification markers in the hex (at most three, of one kind)."""


MARKERS = ("entrenchment", "pillbox", "minefield", "razor_wire", "tank_trap")
FORT_MAX = 3        # 001 Entrenchments & pillboxes; Engineer: at most 3 fortification markers a hex


class RulesSpec(_Strict):
    """Readings a scenario may switch (rulings T23)."""

    lower_hills_block: bool = True
    """A hill above the lower unit and at or below the higher one blocks LOS (001 LOS; rulings T23 revised)."""


class VerdictSpec(_Strict):
    """How the balance verdict is judged (docs/statistics.md): ``margin`` in points either
    side of 50% of the first side's share of decisive games; ``--margin`` beats it."""

    margin: float = Field(default=5.0, gt=0, lt=50)
    """The verdict's margin in points either side of 50%; --margin beats it."""


class ScenarioFile(_Strict):
    """A Tide of Iron scenario file (docs/toi-scenarios.md)."""

    name: str
    """The scenario's title, shown in reports."""
    description: str = ""
    """One sentence for the report."""
    source: str
    """Who made the scenario; every report quotes it."""
    rounds: int = Field(ge=1, le=30)
    """The rounds of the game (001 Advance the round marker; rulings T25)."""
    actions_per_turn: int = Field(ge=1, le=10)
    """Actions per player turn (001 Action phase)."""
    initiative: str
    """The side that starts with the initiative token (001 Setup)."""
    map: MapSpec
    """The map."""
    objectives: list[ObjectiveSpec] = Field(min_length=1)
    """The objective hexes (001 Command phase)."""
    markers: list[MarkerSpec] = []
    """Fortification and obstacle markers (rulings T27)."""
    smoke: list[str] = []
    """Hexes with a smoke marker at the start (001 Smoke; rulings T36)."""
    rules: RulesSpec = RulesSpec()
    """Readings the scenario switches."""
    sides: dict[str, SideSpec]
    """The two sides, by name; the first written is the reports' first side."""
    verdict: VerdictSpec = VerdictSpec()
    """How the balance verdict is judged."""


@dataclass(frozen=True)
class Scenario:
    """A checked scenario with its compiled tables and the names reports print."""

    name: str
    path: str
    spec: ScenarioFile
    game: GameData
    grid: HexGrid
    tables: T.Tables
    side_names: tuple[str, str]
    figure_names: tuple[str, ...]
    terrain_names: tuple[str, ...]
    entries: tuple[tuple[str, str, int], ...] = ()   # each unit's file entry: (side, "squads"/"vehicles", index)

    def hex_name(self, h: int) -> str:
        return self.grid.names[h] if h >= 0 else "-"

    def squad_label(self, k: int) -> str:
        sl = self.tables.slots[k]
        if sl[T.SL_VEHICLE]:
            name = self.game.units.vehicles[list(self.game.units.vehicles)[sl[T.SL_MODEL]]].name
            return f"{self.side_names[sl[T.SL_SIDE]]} {name} {k}"
        figs = "+".join(f"{sl[T.SL_FIG + f]}{name}" for f, name in enumerate(self.figure_names)
                        if sl[T.SL_FIG + f] > 0)
        spec = f" {T.SPEC_NAMES[sl[T.SL_SPEC]]}" if sl[T.SL_SPEC] >= 0 else ""
        return f"{self.side_names[sl[T.SL_SIDE]]}{spec} squad {k} ({figs})"


def scenario_path(name: str) -> Path:
    p = Path(name)
    if p.suffix == ".toml" and p.exists():
        return p
    q = SCENARIO_DIR / f"{name}.scenario.toml"
    if q.exists():
        return q
    known = sorted(x.name.removesuffix(".scenario.toml") for x in SCENARIO_DIR.glob("*.scenario.toml"))
    raise InputError("scenario", "", f"no Tide of Iron scenario {name!r} (known: {', '.join(known)})")


@cache
def _load(path: str, mtime: int) -> Scenario:
    spec = load_model(ScenarioFile, path)
    return compile_scenario(spec, path, load_game())


def load_scenario(name: str) -> Scenario:
    """A scenario by name (``two-farms``) or path, checked and compiled (cached)."""
    p = scenario_path(name)
    return _load(str(p), p.stat().st_mtime_ns)


# --- the map -----------------------------------------------------------------------

def _hex_features(text: str, game: GameData, where: str) -> tuple[str, int, bool]:
    """(main terrain, elevation, road) of a legend entry such as ``hill+woods+road``."""
    terrain, elev, road = "clear", 0, False
    for raw in text.split("+"):
        w = raw.strip().lower().replace("-", "_")
        if w in ELEVATION_WORDS:
            elev = ELEVATION_WORDS[w]
        elif w == "road":
            road = True
        elif w in game.terrain.features and game.terrain.features[w].kind == "terrain":
            terrain = w
        else:
            known = [k for k, f in game.terrain.features.items() if f.kind == "terrain"]
            raise InputError(where, "map.legend", f"unknown terrain {raw!r} (known: {', '.join(known)}, "
                             "road, hill, high_hill)")
    return terrain, elev, road


def _move_cost(x: int, y: int, terrain, elev, road, stand, game: GameData, vehicle: bool = False) -> int:
    """MPs a squad (or a vehicle) pays to enter ``y`` from ``x`` (001 Terrain; rulings T23),
    -1 impassable."""
    if not stand[y]:
        return -1
    if abs(elev[y] - elev[x]) >= 2:
        return -1                                   # 001 Terrain: Hill, cliff sides impassable, up or down
    feats = game.terrain.features

    def cost_of(name: str):
        stat = feats[name].move_vehicles if vehicle else feats[name].move_squads
        return None if stat is None else stat.value
    cost = cost_of(terrain[y])
    if cost is None:
        return -1                                   # 001 Terrain: deep stream, no vehicles
    if road[x] and road[y] and terrain[y] != "building":
        cost = cost_of("road")                      # 001 Terrain: Road; Building: 2 even with a road
    if elev[y] > elev[x]:
        cost = max(cost, cost_of("hill"))           # 001 Terrain: Hill, uphill
    return cost


def line_tracer(grid: HexGrid):
    """``trace(a, b)``: the hexes the line from hex ``a`` to hex ``b`` crosses, with the
    core's exact tracer (:func:`simulator.engine.core.los.line_steps`): ``(prim, alt)``,
    ``alt[k]`` the other hex of a line along a hex side (-2 when none)."""
    n = grid.n
    qmin, rmin = int(grid.q.min()) - 2, int(grid.r.min()) - 2
    index = np.full((int(grid.q.max()) - qmin + 3, int(grid.r.max()) - rmin + 3), -1, dtype=np.int64)
    index[grid.q - qmin, grid.r - rmin] = np.arange(n)
    stamp = np.zeros(index.shape, dtype=np.int64)
    size = (grid.diameter + 3) * 7
    prim = np.empty(size, dtype=np.int64)
    alt = np.empty(size, dtype=np.int64)
    work, fkey = core_los.line_work(grid.diameter + 2)
    sid = [0]

    def trace(a: int, b: int):
        sid[0] += 1
        ns = core_los.line_steps(int(grid.q[a]), int(grid.r[a]), int(grid.q[b]), int(grid.r[b]), index,
                                 qmin, rmin, prim, alt, stamp, sid[0], work, fkey)
        return prim[:ns], alt[:ns]
    return trace


def _line_of_sight(grid: HexGrid, elev: np.ndarray, blocking: np.ndarray, lower_hills: bool = True) -> np.ndarray:
    """1 where a unit in hex a sees a unit in hex b (001 Line of sight; rulings T23), every
    two hexes in compiled code (issue 44.2). A line's hexes depend only on the offset from
    its firer (the exact tracer works in whole axial coordinates), so each offset is traced
    once (:func:`_offset_lines`) and moved to every firer."""
    qmin, rmin = int(grid.q.min()) - 2, int(grid.r.min()) - 2
    index = np.full((int(grid.q.max()) - qmin + 3, int(grid.r.max()) - rmin + 3), -1, dtype=np.int64)
    index[grid.q - qmin, grid.r - rmin] = np.arange(grid.n)
    spans = int(np.ptp(grid.q)), int(np.ptp(grid.r))
    work, fkey = core_los.line_work(grid.diameter + 2)
    size = (grid.diameter + 3) * 7
    start, steps = _offset_lines(spans[0], spans[1], work, fkey, size)
    return _los_table(grid.q, grid.r, index, qmin, rmin, spans[0], spans[1], start, steps, size,
                      elev.astype(np.int64), blocking.astype(np.int64), bool(lower_hills))


@njit(cache=True)
def _offset_lines(sq, sr, work, fkey, size):
    """Every line from (0, 0) to an offset (dq, dr), |dq| <= sq, |dr| <= sr, traced on a
    map without edges: ``steps[start[o]:start[o + 1]]`` rows (q, r, other hex's q, r, kind)
    of offset o = (dq + sq) * (2 sr + 1) + dr + sr; kind -2 one hex, -1 a hex side with
    no hex across, 0 a hex side between two hexes (line_steps' prim and alt)."""
    m = 2
    vq0, vr0 = -sq - m, -sr - m
    wq, wr = 2 * sq + 2 * m + 1, 2 * sr + 2 * m + 1
    vindex = np.arange(wq * wr).reshape(wq, wr)
    stamp = np.zeros((wq, wr), dtype=np.int64)
    prim = np.empty(size, dtype=np.int64)
    alt = np.empty(size, dtype=np.int64)
    n_off = (2 * sq + 1) * (2 * sr + 1)
    start = np.zeros(n_off + 1, dtype=np.int64)
    total = 0
    for pass_ in range(2):                       # count, then fill
        if pass_ == 1:
            steps = np.empty((total, 5), dtype=np.int64)
        at = 0
        sid = 0
        for dq in range(-sq, sq + 1):
            for dr in range(-sr, sr + 1):
                o = (dq + sq) * (2 * sr + 1) + dr + sr
                sid += 1
                ns = core_los.line_steps(0, 0, dq, dr, vindex, vq0, vr0, prim, alt, stamp, sid, work, fkey)
                if pass_ == 0:
                    total += ns
                    continue
                start[o] = at
                for k in range(ns):
                    steps[at, 0], steps[at, 1] = prim[k] // wr + vq0, prim[k] % wr + vr0
                    if alt[k] >= 0:
                        steps[at, 2], steps[at, 3], steps[at, 4] = alt[k] // wr + vq0, alt[k] % wr + vr0, 0
                    else:
                        steps[at, 2], steps[at, 3], steps[at, 4] = 0, 0, alt[k]
                    at += 1
        if pass_ == 1:
            start[n_off] = at
    return start, steps


@njit(cache=True)
def _hex_at(index, qmin, rmin, q, r):
    i, j = q - qmin, r - rmin
    if i < 0 or j < 0 or i >= index.shape[0] or j >= index.shape[1]:
        return -1
    return index[i, j]


@njit(cache=True)
def _los_table(q, r, index, qmin, rmin, sq, sr, start, steps, size, elev, blocking, lower_hills):
    n = q.shape[0]
    out = np.zeros((n, n), dtype=np.int64)
    prim = np.empty(size, dtype=np.int64)
    alt = np.empty(size, dtype=np.int64)
    for a in range(n):
        for b in range(n):
            if axial_distance(q[a], r[a], q[b], r[b]) <= 1:
                out[a, b] = 1                       # 001 LOS: adjacent units always see each other
                continue
            o = (q[b] - q[a] + sq) * (2 * sr + 1) + r[b] - r[a] + sr
            ns = start[o + 1] - start[o] if o + 1 < start.shape[0] else 0
            for k in range(ns):                     # line_steps' answer on this map (its off-map rule)
                row = steps[start[o] + k]
                h1 = _hex_at(index, qmin, rmin, q[a] + row[0], r[a] + row[1])
                h2 = row[4] if row[4] < 0 else _hex_at(index, qmin, rmin, q[a] + row[2], r[a] + row[3])
                if h1 < 0 and h2 >= 0:
                    h1, h2 = h2, h1
                prim[k], alt[k] = h1, h2
            out[a, b] = _sight_code(a, b, prim[:ns], alt[:ns], elev, blocking, q, r, lower_hills)[0] == SEES
    return out


# What _sight_code says: the line is open, or what closes it (``lanchester toi los`` words them).
SEES, BLOCKED, SIDE_BLOCKED, OWN_LEVEL, BLIND = 0, 1, 2, 3, 4


@njit(cache=True)
def _obstructs(x, lo, top, least, elev, blocking) -> bool:
    # BT, or a hill from ``least`` up to the higher unit's level, or above it (rulings T23)
    return x >= 0 and (blocking[x] != 0 or (elev[x] >= least and elev[x] > elev[lo]) or elev[x] > top)


@njit(cache=True)
def _side_distance(x, y, lo, q, r):
    """Hexes from ``lo`` to the nearer of a line's step ``x`` and, on a hex side, ``y``
    (-2 none, -1 off the map): the distance the blind hexes count from (rulings T23)."""
    d = axial_distance(q[x], r[x], q[lo], r[lo])
    if y >= 0:
        d = min(d, axial_distance(q[y], r[y], q[lo], r[lo]))
    return d


@njit(cache=True)
def _own_level(x, hi, top, elev, q, r) -> bool:
    # a hex adjacent to the higher unit, at its level (001 LOS; rulings T23)
    return x >= 0 and elev[x] == top and axial_distance(q[x], r[x], q[hi], r[hi]) == 1


@njit(cache=True)
def _sight_code(a, b, prim, alt, elev, blocking, q, r, lower_hills=True):
    """Whether ``a`` sees ``b`` along the traced line ``prim``/``alt``: ``(code, x, y)``,
    code SEES or what blocks it, ``x``/``y`` the hex(es) that do (-1 when none). The one
    implementation of the rule, for the game's table and for ``lanchester toi los``.
    ``lower_hills``: a hill above the lower unit and at or below the higher one is BT (001
    LOS, the literal reading, rulings T23 revised); else only a hill at the higher unit's level."""
    lo, hi = (a, b) if elev[a] <= elev[b] else (b, a)
    top = elev[hi]
    least = elev[lo] + 1 if lower_hills else top
    closest = -1
    near = 0
    for k in range(prim.shape[0]):
        x, y = prim[k], alt[k]
        hit = _obstructs(x, lo, top, least, elev, blocking) and (y == -2 or _obstructs(y, lo, top, least, elev, blocking))
        if not hit:                                 # along a hex side: both sides must block (001 LOS)
            continue
        if elev[a] == elev[b] or elev[x] > top or (y >= 0 and elev[y] > top):
            return (BLOCKED, x, -1) if y == -2 else (SIDE_BLOCKED, x, y)   # same level (or higher hill): BT blocks
        d = _side_distance(x, y, lo, q, r)          # a hex side's two hexes: the nearer (either way: T23 revised)
        if closest < 0 or d < near:
            closest, near = x, d
    if elev[a] != elev[b]:
        k = 0 if a == hi else prim.shape[0] - 1
        if _own_level(prim[k], hi, top, elev, q, r) and (alt[k] == -2 or _own_level(alt[k], hi, top, elev, q, r)):
            return OWN_LEVEL, prim[k], -1           # 001 LOS: across an adjacent hex at its own level (a side: both)
        if closest >= 0:
            blind = 2 if top - elev[lo] == 1 else 1  # 001 LOS: blind hexes behind the obstruction
            if near <= blind:
                return BLIND, closest, near
    return SEES, -1, -1


def sight(scenario: Scenario, a: int, b: int) -> tuple[int, list[tuple[str, tuple[int, ...]]], list[int]]:
    """Whether hex ``a`` sees hex ``b`` on ``scenario``'s map and why: ``(sees, why,
    crossed)``, ``why`` the blocking reasons with their hexes (empty when it sees),
    ``crossed`` the hexes strictly between. The same function as the game's table
    (:func:`_sight_code`), which it agrees with."""
    t, grid = scenario.tables, scenario.grid
    elev = t.hexi[:, T.HI_ELEV].astype(np.int64)
    feats = scenario.game.terrain.features
    blocking = np.array([feats[scenario.terrain_names[int(x)]].blocking.value == "yes"
                         for x in t.hexi[:, T.HI_TERRAIN]], dtype=np.int64)
    if axial_distance(grid.q[a], grid.r[a], grid.q[b], grid.r[b]) <= 1:
        return 1, [], []                            # 001 LOS: adjacent units always see each other
    prim, alt = line_tracer(grid)(a, b)
    code, x, y = _sight_code(a, b, prim, alt, elev, blocking, grid.q, grid.r,
                             scenario.spec.rules.lower_hills_block)
    crossed = [int(h) for p, s in zip(prim, alt, strict=True) for h in (p, s) if h >= 0]
    return int(code == SEES), _why(code, int(x), int(y), abs(int(elev[a]) - int(elev[b])), elev, blocking), crossed


def _why(code, x, y, rise, elev, blocking) -> list[tuple[str, tuple[int, ...]]]:
    """:func:`_sight_code`'s answer in words, with the hexes; ``rise`` the levels between the units."""
    def what(h):
        return "blocking terrain" if blocking[h] else f"a level {int(elev[h])} hill"
    if code == BLOCKED:
        return [(what(x), (x,))]
    if code == SIDE_BLOCKED:
        return [(f"{what(x)} and {what(y)}, on both sides of the hex side", (x, y))]
    if code == OWN_LEVEL:
        return [("the higher unit looks out across an adjacent hex at its own level", (x,))]
    if code == BLIND:
        blind = 2 if rise == 1 else 1
        return [(f"the lower unit is in a blind hex, {y} behind the obstruction (blind up to {blind})", (x,))]
    return []


# The engine's tables hold every two hexes (line of sight with and without smoke, the
# distance: int64[n, n] each). Maps beyond these limits are refused, before any large
# allocation, with their size and the limit (the same hex limit as Assault's maps).
TABLES_BYTES = 1 << 30
PAIR_BYTES = 3 * 8


def check_map_size(where, cols: int, rows: int) -> None:
    """InputError naming the map's size and the limit when its tables would not fit."""
    if too_many_hexes(cols, rows):
        raise InputError(where, "map.rows", too_many_hexes(cols, rows))
    n = cols * rows
    most = int((TABLES_BYTES // PAIR_BYTES) ** 0.5)
    if n > most:
        raise InputError(where, "map.rows", f"the {cols} x {rows} map has {n:,} hexes: at most {most:,} hexes "
                         f"(line of sight between every two hexes, {PAIR_BYTES * n * n / 2**20:,.0f} MiB of "
                         f"tables; limit {TABLES_BYTES >> 20:,} MiB)")


def compile_scenario(spec: ScenarioFile, path: str, game: GameData) -> Scenario:
    """Check a scenario file and build its tables, one function per table of the format:
    the map (:func:`_hex_table`, :func:`_side_table`, markers, smoke), the objectives,
    the units (:func:`_unit_slots`), the figure, vehicle and parameter tables, the lines
    of sight."""
    where = path
    cols, n_rows, sides = _check_frame(spec, where)
    grid = HexGrid(cols, n_rows, spec.map.orientation)
    feats = game.terrain.features
    terrain_names = tuple(sorted(k for k, f in feats.items() if f.kind == "terrain"))
    terrain, elev, road = _hex_terrain(spec, grid, game, where)
    stand = np.array([feats[t].closed_to != "all" for t in terrain], dtype=np.int64)
    blocking = np.array([feats[t].blocking.value == "yes" for t in terrain], dtype=np.int64)
    hexi = _hex_table(terrain, terrain_names, elev, road, stand, feats)
    side6 = _side_table(grid, terrain, elev, road, stand, game)
    _markers(spec, grid, hexi, terrain, stand, game, where)
    dug = feats["entrenchment"].cover_value              # rulings T40: what a dug entrenchment gives
    hexi[:, T.HI_FORT_COVER] = np.where(hexi[:, T.HI_FORT] > 0, hexi[:, T.HI_FORT_COVER], dug)
    _smoke(spec, grid, hexi, terrain, stand, game, where)
    obj = _objectives(spec, grid, hexi, sides, where)
    figure_names = tuple(game.units.figures)
    if len(figure_names) > MAX_FIG:
        raise InputError("units.toml", "figures", f"the engine takes at most {MAX_FIG} figure types")
    slots, owners = _unit_slots(spec, grid, hexi, stand, terrain, sides, figure_names, game, where)
    p = _parameters(spec, game, sides, (len(slots), grid.n, len(obj)), figure_names)
    los, los_smoke = _sight_tables(spec, grid, elev, blocking, hexi, feats)
    tables = T.Tables(hexi=hexi, side6=side6, los=los, los_smoke=los_smoke, dist=all_distances(grid.q, grid.r),
                      ft=_figure_table(game, figure_names), vt=_vehicle_table(game),
                      slots=np.array(slots, dtype=np.int64).reshape(len(slots), T.SL_FIELDS), obj=obj, p=p)
    return Scenario(spec.name, path, spec, game, grid, tables, (sides[0], sides[1]), figure_names, terrain_names,
                    tuple(owners))


def _check_frame(spec: ScenarioFile, where: str) -> tuple[int, int, tuple[str, ...]]:
    """The map's width and height and the two sides, checked (the map's size before any
    per-hex work)."""
    if spec.map.orientation not in ("flat", "pointy"):
        raise InputError(where, "map.orientation", "must be flat or pointy")
    rows = spec.map.rows
    cols = len(rows[0])
    if any(len(r) != cols for r in rows):
        raise InputError(where, "map.rows", "every row must have the same number of hexes")
    check_map_size(where, cols, len(rows))             # before any per-hex work
    sides = tuple(spec.sides)
    if len(sides) != 2:
        raise InputError(where, "sides", f"a scenario has two sides (got {len(sides)})")
    if spec.initiative not in sides:
        raise InputError(where, "initiative", f"must be one of the sides: {', '.join(sides)}")
    return cols, len(rows), sides


def _hex_terrain(spec: ScenarioFile, grid: HexGrid, game: GameData, where: str):
    """Each hex's terrain name, elevation and road, from the map's letters and legend."""
    terrain, elev, road = [], np.zeros(grid.n, dtype=np.int64), np.zeros(grid.n, dtype=np.int64)
    for h in range(grid.n):
        ch = spec.map.rows[grid.row[h]][grid.col[h]]
        if ch not in spec.map.legend:
            raise InputError(where, "map.rows", f"letter {ch!r} is not in the legend")
        t, e, rd = _hex_features(spec.map.legend[ch], game, where)
        terrain.append(t)
        elev[h], road[h] = e, rd
    return terrain, elev, road


def _hex_table(terrain, terrain_names, elev, road, stand, feats) -> np.ndarray:
    """The per-hex table (``HI_*``) of the terrain; no objective yet."""
    hexi = np.zeros((len(terrain), T.HI_FIELDS), dtype=np.int64)
    hexi[:, T.HI_TERRAIN] = [terrain_names.index(t) for t in terrain]
    hexi[:, T.HI_ELEV] = elev
    hexi[:, T.HI_COVER] = [feats[t].cover_value for t in terrain]
    hexi[:, T.HI_OBJ] = -1
    hexi[:, T.HI_STAND] = stand
    hexi[:, T.HI_ROAD] = road
    hexi[:, T.HI_CONCUSSIVE] = [feats[t].concussive_target for t in terrain]
    hexi[:, T.HI_NO_MORTAR] = [feats[t].no_mortar_fire for t in terrain]
    hexi[:, T.HI_NO_SMOKE] = [feats[t].no_smoke for t in terrain]
    hexi[:, T.HI_NO_DIG] = [feats[t].no_dig for t in terrain]            # rulings T40
    return hexi


def _side_table(grid: HexGrid, terrain, elev, road, stand, game: GameData) -> np.ndarray:
    """The per-hex-side table (``S6_*``): the neighbour and the cost to move there, on
    foot and by vehicle."""
    side6 = np.full((grid.n, 6, T.S6_FIELDS), -1, dtype=np.int64)
    for h in range(grid.n):
        for d in range(6):
            y = int(grid.neighbours[h, d])
            side6[h, d, T.S6_NBR] = y
            if y >= 0:
                side6[h, d, T.S6_COST] = _move_cost(h, y, terrain, elev, road, stand, game)
                side6[h, d, T.S6_VCOST] = _move_cost(h, y, terrain, elev, road, stand, game, vehicle=True)
    return side6


def _objectives(spec: ScenarioFile, grid: HexGrid, hexi, sides, where: str) -> np.ndarray:
    """The objectives table (``OB_*``; 001 Command phase: objective hexes), marking each
    objective's hex in ``hexi``."""
    obj = np.zeros((len(spec.objectives), T.OB_FIELDS), dtype=np.int64)
    for k, o in enumerate(spec.objectives):
        key = f"objectives[{k}]"
        try:
            h = grid.index_of(o.hex)
        except KeyError:
            raise InputError(where, f"{key}.hex", f"{o.hex!r} is not on the map") from None
        if hexi[h, T.HI_OBJ] >= 0:
            raise InputError(where, f"{key}.hex", f"two objectives in {o.hex}")
        if o.nation != "neutral" and o.nation not in sides:
            raise InputError(where, f"{key}.nation", f"neutral or one of the sides ({', '.join(sides)})")
        hexi[h, T.HI_OBJ] = k
        obj[k] = (h, o.command, o.vp, -1 if o.nation == "neutral" else sides.index(o.nation))
    return obj


def _unit_slots(spec: ScenarioFile, grid: HexGrid, hexi, stand, terrain, sides, figure_names, game: GameData,
                where: str) -> tuple[list, list]:
    """The unit slots (``SL_*``, one row per squad or vehicle) and who wrote each
    (side, kind, index), zones marked in ``hexi`` (001 Setup); each side's fixed hexes
    first (rulings T44); every zone's room checked."""
    zone_ids: dict[tuple[int, str], int] = {}
    slots: list = []
    owners: list = []
    for si, side in enumerate(sides):
        sp = spec.sides[side]
        _zones(sp, si, side, zone_ids, grid, hexi, where)
        first = len(slots)
        _squad_slots(spec, sp, si, side, zone_ids, grid, stand, terrain, figure_names, game, where, slots, owners)
        _vehicle_slots(sp, si, side, zone_ids, grid, stand, terrain, game, where, slots, owners)
        order = sorted(range(first, len(slots)), key=lambda i: slots[i][T.SL_ZONE] >= 0)   # T44: fixed hexes first
        slots[first:], owners[first:] = [slots[i] for i in order], [owners[i] for i in order]
    if len(slots) > 250:
        raise InputError(where, "sides", "at most 250 squads")
    _fixed_hexes(slots, zone_ids, hexi, grid, sides, where)
    _zone_room(spec, zone_ids, slots, hexi, stand, grid, sides, where)
    return slots, owners


def _zones(sp, si: int, side: str, zone_ids: dict, grid: HexGrid, hexi, where: str) -> None:
    """A side's deployment zones: an id each (at most 60), its bit set in ``HI_ZONE``."""
    for zname, zspecs in sp.zones.items():
        z = len(zone_ids)
        if z >= 60:
            raise InputError(where, f"sides.{side}.zones", "at most 60 zones")
        zone_ids[(si, zname)] = z
        for zs in zspecs:
            try:
                cells = parse_hex_spec(zs)
            except ValueError as e:
                raise InputError(where, f"sides.{side}.zones.{zname}", str(e)) from None
            for c, r in cells:
                if grid.on_map(c, r):
                    hexi[r * grid.cols + c, T.HI_ZONE] |= 1 << z


def _squad_slots(spec: ScenarioFile, sp, si: int, side: str, zone_ids: dict, grid: HexGrid, stand, terrain,
                 figure_names, game: GameData, where: str, slots: list, owners: list) -> None:
    """A side's squads, ``count`` slots each (figures, specialisation, arrival)."""
    most = game.units.squads.max_figures.value
    feats = game.terrain.features
    for k, sq in enumerate(sp.squads):
        key = f"sides.{side}.squads[{k}]"
        place = _placement(sq, si, side, key, zone_ids, grid, stand, terrain, feats, where)
        if sq.arrives_after_round >= spec.rounds:
            raise InputError(where, f"{key}.arrives_after_round",
                             f"must be before the last round ({spec.rounds}): placed in that round's status phase")
        counts = _figures(sq.figures, figure_names, where, f"{key}.figures")
        if not 1 <= sum(counts) <= most:
            raise InputError(where, f"{key}.figures", f"a squad has 1 to {most} figures (rulings T17)")
        spec_id = _specialisation(sq, counts, figure_names, game, where, key)
        for _ in range(sq.count):
            row = np.zeros(T.SL_FIELDS, dtype=np.int64)
            row[T.SL_SPEC] = spec_id
            row[T.SL_HIDDEN] = int(sq.concealed)
            row[T.SL_SIDE] = si
            row[T.SL_ZONE] = place
            row[T.SL_ARRIVE] = sq.arrives_after_round
            row[T.SL_FIG:T.SL_FIG + len(counts)] = counts
            row[T.SL_MODEL] = -1
            slots.append(row)
            owners.append((side, "squads", k))


def _vehicle_slots(sp, si: int, side: str, zone_ids: dict, grid: HexGrid, stand, terrain, game: GameData,
                   where: str, slots: list, owners: list) -> None:
    """A side's vehicles, ``count`` slots each (model, arrival)."""
    for k, vs in enumerate(sp.vehicles):
        key = f"sides.{side}.vehicles[{k}]"
        model = vs.model.strip().lower().replace("-", "_")
        if model not in game.units.vehicles:
            raise InputError(where, f"{key}.model", f"unknown vehicle {vs.model!r} "
                             f"(units.toml: {', '.join(game.units.vehicles)})")
        place = _placement(vs, si, side, key, zone_ids, grid, stand, terrain, game.terrain.features, where,
                           ("all", "vehicles"))
        for _ in range(vs.count):
            row = np.zeros(T.SL_FIELDS, dtype=np.int64)
            row[T.SL_SIDE] = si
            row[T.SL_ZONE] = place
            row[T.SL_ARRIVE] = vs.arrives_after_round
            row[T.SL_VEHICLE] = 1
            row[T.SL_SPEC] = T.SPEC_NONE
            row[T.SL_MODEL] = list(game.units.vehicles).index(model)
            slots.append(row)
            owners.append((side, "vehicles", k))


def _zone_room(spec: ScenarioFile, zone_ids: dict, slots: list, hexi, stand, grid: HexGrid, sides,
               where: str) -> None:
    """Every zone holds the units that set up in it (001 Setup: three units a hex)."""
    for (si, zname), z in zone_ids.items():
        room = int(((hexi[:, T.HI_ZONE] >> z) & 1 & stand).sum()) * 3
        need = sum(1 for r in slots if r[T.SL_SIDE] == si and r[T.SL_ZONE] == z and r[T.SL_ARRIVE] == 0)
        if need > room:
            key = f"sides.{sides[si]}.zones.{zname}"
            if not ((hexi[:, T.HI_ZONE] >> z) & 1).any():     # issue 44.8: say so, not "room for 0"
                raise InputError(where, key, f"the zone is wholly off the {grid.cols} x {grid.rows} map "
                                 f"({', '.join(spec.sides[sides[si]].zones[zname])}): {need} squads cannot set up")
            raise InputError(where, key, f"{need} squads do not fit in the zone (room for {room}, 001 Setup: stacking)")


def _figure_table(game: GameData, figure_names) -> np.ndarray:
    """The figure table (``FT_*``): movement, fire, abilities, and the loss order."""
    ft = np.zeros((len(figure_names), T.FT_FIELDS), dtype=np.int64)
    for f, name in enumerate(figure_names):
        fig = game.units.figures[name]
        ft[f] = (fig.movement.value, fig.infantry.range.value, fig.infantry.fpr.value,
                 fig.vehicle.range.value, fig.vehicle.fpr.value,
                 fig.has("heavy_weapon"), fig.has("rally"),
                 game.units.abilities.battle_hardened.cover_vs_suppressive_per_figure.value
                 if fig.has("battle_hardened") else 0, fig.has("rapid_op_fire"), fig.has("area_attack"), 0)
    # rulings T24: the owner loses plain riflemen first, the officer last
    order = sorted(range(len(figure_names)), key=lambda f: (ft[f, T.FT_OFFICER], ft[f, T.FT_HEAVY],
                                                          ft[f, T.FT_HARDENED] > 0, ft[f, T.FT_IFPR], f))
    ft[:, T.FT_LOSS_ORDER] = order
    return ft


def _parameters(spec: ScenarioFile, game: GameData, sides, counts: tuple[int, int, int], figure_names) -> np.ndarray:
    """The parameter vector (``P_*``): the counts (units, hexes, objectives), the rounds
    and the rules' numbers."""
    feats = game.terrain.features
    p = np.zeros(T.P_FIELDS, dtype=np.int64)
    p[T.P_N_UNITS], p[T.P_N_HEX], p[T.P_N_OBJ] = counts
    p[T.P_N_FIG] = len(figure_names)
    p[T.P_ROUNDS], p[T.P_ACTIONS] = spec.rounds, spec.actions_per_turn
    p[T.P_INIT] = sides.index(spec.initiative)
    p[T.P_SQUAD_MAX] = game.units.squads.max_figures.value     # rulings T17 (squad transfers, T35)
    p[T.P_SMOKE_COVER] = feats["smoke"].cover_value            # 001 Smoke: +2 cover
    p[T.P_SMOKE_ASSAULT] = int(feats["smoke"].assault_cover != "none")   # rulings T10
    p[T.P_REGULAR] = figure_names.index("regular") if "regular" in figure_names else -1   # 001 Medic: Heal
    p[T.P_HEAL_FROM] = 4                                       # 001 Medic: Heal succeeds on 4, 5 or 6
    p[T.P_WIRE_MP] = 2                                         # 001 Razor wire: 2 MP to remove it
    p[T.P_WIRE_AREA] = feats["razor_wire"].area_removal_successes.value    # 001 Razor wire: 3+ successes
    p[T.P_STACK] = 3                                           # 001 Setup: three units a hex
    p[T.P_FORT_MAX] = FORT_MAX                                 # 001 Entrenchments & pillboxes; Engineer
    p[T.P_DIG_SPECS] = sum(1 << i for i, name in enumerate(T.SPEC_NAMES)   # rulings T40
                           if getattr(game.units.specialisations, name).digs)
    p[T.P_DETERMINATION] = game.units.abilities.determination.cover_vs_suppressive.value
    p[T.P_HIGHER] = game.terrain.rules.higher_ground_range_bonus.value
    p[T.P_MOBILITY] = 1                                        # 001 Officer: Increased Mobility (+1)
    p[T.P_MAX_SUPPORT] = 2                                     # 002 step 1
    p[T.P_FORT_MP] = feats["entrenchment"].move_squads.value  # 001 Entrenchments & pillboxes: 1 MP
    p[T.P_MINE_DICE] = feats["minefield"].entry_dice.value     # 001 Minefields (rulings T16)
    p[T.P_MINE_FROM] = feats["minefield"].entry_success_from.value
    p[T.P_VEH_STACK] = 2                                       # 001 Setup: never more than two vehicles
    p[T.P_MORTAR_MIN] = game.units.abilities.minimum_distance.hexes.value
    p[T.P_TRANSPORT_MP] = 2                                    # 001 Transporting squads in vehicles: 2 MPs
    _specialist_parameters(p, game)
    return p


def _specialist_parameters(p: np.ndarray, game: GameData) -> None:
    """The specialisations' and concussive firepower's numbers in the parameter vector."""
    sp = game.units.specialisations
    p[T.P_ENG_MINES] = int(sp.engineer.minefield_exempt.value)
    p[T.P_AT_RANGE], p[T.P_AT_FPR] = sp.anti_tank.vehicle_range.value, sp.anti_tank.vehicle_fpr_bonus.value
    p[T.P_FLAME_FPR], p[T.P_FLAME_CUT] = sp.flamethrower.fpr_bonus.value, sp.flamethrower.cover_reduction.value
    p[T.P_FLAME_DIST] = sp.flamethrower.max_distance.value
    p[T.P_FLAME_SUPPORT] = int(sp.flamethrower.when_supporting.value)
    p[T.P_MEDIC_COVER] = sp.medic.cover_vs_normal.value
    p[T.P_MEDIC_ASSAULT] = ("none", "hex", "per_squad").index(sp.medic.assault_cover.value)
    conc = game.units.abilities.concussive_firepower
    p[T.P_CONC_FPR], p[T.P_CONC_RANGE] = conc.fpr_bonus.value, conc.range_bonus.value


def _vehicle_table(game: GameData) -> np.ndarray:
    """The vehicle model table (``VT_*``), one row per model (at least one row)."""
    vt = np.zeros((max(1, len(game.units.vehicles)), T.VT_FIELDS), dtype=np.int64)
    for v, model in enumerate(game.units.vehicles.values()):
        vt[v] = (model.movement.value, model.armour.value, int(model.thick_armour.value),
                 model.infantry.range.value, model.infantry.fpr.value, model.vehicle.range.value,
                 model.vehicle.fpr.value, int(model.light), int(model.has("fragile")), int(model.has("sturdy")),
                 int(model.has("concussive_firepower")), int(model.has("overrun")), model.transport.value)
    return vt


def _sight_tables(spec: ScenarioFile, grid: HexGrid, elev, blocking, hexi, feats) -> tuple[np.ndarray, np.ndarray]:
    """Line of sight between every two hexes, without and with the scenario's smoke."""
    lower = spec.rules.lower_hills_block                        # rulings T23
    los = _line_of_sight(grid, elev, blocking, lower)
    smoke_blocks = feats["smoke"].blocking.value == "yes"       # 001 Smoke: blocking terrain
    los_smoke = (_line_of_sight(grid, elev, blocking | hexi[:, T.HI_SMOKE], lower)
                 if smoke_blocks and hexi[:, T.HI_SMOKE].any() else los)
    return los, los_smoke


def _placement(unit, si: int, side: str, key: str, zone_ids: dict, grid: HexGrid, stand, terrain, feats,
               where: str, closed: tuple[str, ...] = ("all",)) -> int:
    """Where a squad or vehicle entry sets up: its zone's id, or ``-1 - hex`` for a fixed
    ``hex`` (rulings T44: on the map, terrain a unit can be in; a vehicle's terrain must
    let vehicles in). Exactly one of ``zone`` and ``hex``."""
    if (unit.zone is None) == (unit.hex is None):
        raise InputError(where, key, "give zone (a deployment zone) or hex (a fixed hex), one of them")
    if unit.zone is not None:
        if (si, unit.zone) not in zone_ids:
            raise InputError(where, f"{key}.zone", f"no zone {unit.zone!r} for {side}")
        return zone_ids[(si, unit.zone)]
    try:
        h = grid.index_of(unit.hex)
    except KeyError:
        raise InputError(where, f"{key}.hex", f"{unit.hex!r} is not on the {grid.cols} x {grid.rows} map") from None
    if not stand[h] or feats[terrain[h]].closed_to in closed:
        raise InputError(where, f"{key}.hex", f"no {'vehicle' if len(closed) > 1 else 'unit'} can be in "
                         f"{unit.hex} ({terrain[h]}; 001 Terrain)")
    return -1 - h


def _fixed_hexes(slots: list, zone_ids: dict, hexi, grid: HexGrid, sides: list[str], where: str) -> None:
    """Each fixed hex of a side becomes a one-hex zone of its own (zone bits after the
    file's zones, rulings T44), so the set-up places the unit there and nowhere else.
    Checked: stacking of the units there from the set-up (001 Setup: three units a hex, at
    most two vehicles) and no fixed hex in the other side's zones (it could set up there first)."""
    fixed: dict[tuple[int, int], int] = {}
    for row in slots:
        if row[T.SL_ZONE] >= 0:
            continue
        h, si = -1 - int(row[T.SL_ZONE]), int(row[T.SL_SIDE])
        if (si, h) not in fixed:
            z = len(zone_ids) + len(fixed)
            if z >= 60:
                raise InputError(where, f"sides.{sides[si]}", "at most 60 zones (each fixed hex is one)")
            fixed[(si, h)] = z
            hexi[h, T.HI_ZONE] |= 1 << z
        row[T.SL_ZONE] = fixed[(si, h)]
    for (si, h), z in fixed.items():
        key, name = f"sides.{sides[si]}", grid.names[h]
        start = [r for r in slots if r[T.SL_ZONE] == z and r[T.SL_ARRIVE] == 0]
        vehicles = sum(int(r[T.SL_VEHICLE]) for r in start)
        if len(start) > 3 or vehicles > 2:
            raise InputError(where, key, f"{len(start)} units ({vehicles} vehicles) set up in {name}: at most 3 "
                             "a hex, 2 of them vehicles (001 Setup: stacking)")
        if (1 - si, h) in fixed:
            raise InputError(where, key, f"both sides have a fixed hex {name}: the first to set up would take it")
        other = [zn for (sj, zn), zz in zone_ids.items() if sj != si and (int(hexi[h, T.HI_ZONE]) >> zz) & 1]
        if other:
            raise InputError(where, key, f"fixed hex {name} lies in {sides[1 - si]}'s zone {other[0]!r}, "
                             "which may set up there first")


def _markers(spec: ScenarioFile, grid: HexGrid, hexi, terrain, stand, game: GameData, where: str) -> None:
    """Fortifications and obstacles (001 Fortifications, obstacles & cover): at most three
    fortification markers a hex, of one kind, one minefield, one razor wire; none in a hex
    no squad can be in."""
    feats = game.terrain.features
    for i, m in enumerate(spec.markers):
        key = f"markers[{i}]"
        kind = m.kind.strip().lower().replace("-", "_")
        if kind not in MARKERS:
            raise InputError(where, f"{key}.kind", f"unknown marker {m.kind!r} ({', '.join(MARKERS)})")
        try:
            h = grid.index_of(m.hex)
        except KeyError:
            raise InputError(where, f"{key}.hex", f"{m.hex!r} is not on the map") from None
        if not stand[h]:
            raise InputError(where, f"{key}.hex", f"no unit can be in {m.hex} ({terrain[h]})")
        if kind in ("entrenchment", "pillbox"):
            cover = feats[kind].cover_value
            if hexi[h, T.HI_FORT] and hexi[h, T.HI_FORT_COVER] != cover:
                raise InputError(where, f"{key}.kind", f"{m.hex} mixes entrenchments and pillboxes")
            hexi[h, T.HI_FORT] += m.count
            hexi[h, T.HI_FORT_COVER] = cover
            hexi[h, T.HI_PILLBOX] = int(feats[kind].concussive_target)
            if hexi[h, T.HI_FORT] > FORT_MAX:
                raise InputError(where, f"{key}.count", f"more than {FORT_MAX} fortification markers in {m.hex}")
        else:
            col = {"minefield": T.HI_MINES, "razor_wire": T.HI_WIRE, "tank_trap": T.HI_HAS_TRAP}[kind]
            if hexi[h, col] or m.count != 1:
                raise InputError(where, f"{key}.count", f"at most one {kind} marker a hex ({m.hex})")
            hexi[h, col] = 1
            if kind == "tank_trap":
                hexi[h, T.HI_TRAP] = feats[kind].cover_value


def _smoke(spec: ScenarioFile, grid: HexGrid, hexi, terrain, stand, game: GameData, where: str) -> None:
    """Smoke markers the scenario places (rulings T36: 001 places smoke only through strategy
    cards): one a hex, none on a building (``no_smoke``) or where no unit can be."""
    for i, name in enumerate(spec.smoke):
        key = f"smoke[{i}]"
        try:
            h = grid.index_of(name)
        except KeyError:
            raise InputError(where, key, f"{name!r} is not on the map") from None
        if hexi[h, T.HI_SMOKE]:
            raise InputError(where, key, f"at most one smoke marker a hex ({name})")
        if hexi[h, T.HI_NO_SMOKE] or not stand[h]:
            raise InputError(where, key, f"no smoke marker may be placed in {name} ({terrain[h]}; 001 Smoke)")
        hexi[h, T.HI_SMOKE] = 1


def _specialisation(sq: SquadSpec, counts: list[int], names: tuple[str, ...], game: GameData, where: str,
                    key: str) -> int:
    """001 Specialized squads: one specialisation, no heavy infantry weapon figure."""
    if sq.specialisation is None:
        return T.SPEC_NONE
    name = sq.specialisation.strip().lower().replace("-", "_")
    if name not in T.SPEC_NAMES:
        raise InputError(where, f"{key}.specialisation", f"unknown specialisation {sq.specialisation!r} "
                         f"({', '.join(T.SPEC_NAMES)})")
    heavy = [n for n, c in zip(names, counts, strict=True) if c and game.units.figures[n].has("heavy_weapon")]
    if heavy:
        raise InputError(where, f"{key}.specialisation", f"a specialised squad may not hold a {heavy[0]} figure")
    return T.SPEC_NAMES.index(name)


def _figures(text: str, names: tuple[str, ...], where: str, key: str) -> list[int]:
    counts = [0] * len(names)
    for part in text.lower().split("+"):
        m = re.fullmatch(r"\s*(\d*)\s*([a-z_]+)\s*", part)
        if not m or m.group(2) not in names:
            raise InputError(where, key, f"cannot read figure {part!r} (write e.g. '3regular+officer'; "
                             f"figures: {', '.join(names)})")
        counts[names.index(m.group(2))] += int(m.group(1)) if m.group(1) else 1
    return counts
