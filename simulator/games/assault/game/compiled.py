"""A map compiled into plain numpy arrays for the engine's hot loops.

:func:`compile_map` turns a scenario's map (or a bare :class:`MapSpec`) and a player's
aid into a :class:`CompiledMap`: terrain, elevation, neighbours, all-pairs distance
and LOS (10.3, 10.4, rulings #12-#14), the hexes each LOS crosses (for smoke at run
time) and the movement cost of every hex side per movement type (9.4, 9.6.1).
Nothing in it is a Python object a kernel would need to touch.

Index conventions: hex ``h = row * cols + col``; direction ``d`` as in
:mod:`simulator.engine.core.hexgrid` (``neighbours[h, d]``, -1 off the map); movement types
in the order of :data:`MOVEMENT_TYPES` (foot, gun, wheeled, tracked); dice columns in
the dice set's order, strongest first (R, Y, G, B for the shipped dice).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np

from simulator.engine.core import hexgrid, los
from simulator.engine.core.hexgrid import HexGrid
from simulator.games.assault.game.scenario_format import Board, MapSpec, Scenario, parse_terrain
from simulator.games.assault.rules.aid import Aid, load_aid
from simulator.games.assault.rules.cards import MOVEMENT_TYPES
from simulator.run.errors import InputError

LOS_CODES = {"clear": los.CLEAR, "hinder": los.HINDERED, "blocked": los.BLOCKED}


@dataclass(frozen=True)
class LosResult:
    """What one LOS check says: the code, the hindering hexes and the range (10.1-10.4)."""

    firer: str
    target: str
    los: str  # clear | hindered | blocked
    hindrances: tuple[str, ...]  # hindering hexes (terrain) on the line, firer to target
    smoke: tuple[str, ...]  # hexes whose smoke markers counted
    blocking: tuple[str, ...]  # hexes that block the line
    crossed: tuple[str, ...]  # every hex strictly between that counts (rulings #12)
    range: int
    los_dice: str  # dice the hindrances add to the defence (10.9.2), e.g. "YG"

    def to_dict(self) -> dict:
        return {"from": self.firer, "to": self.target, "los": self.los,
                "hindrances": list(self.hindrances), "smoke": list(self.smoke),
                "blocking": list(self.blocking), "crossed": list(self.crossed),
                "range": self.range, "los_dice": self.los_dice}


@dataclass(frozen=True, eq=False)
class CompiledMap:
    """A map as arrays (see the module docstring for index conventions)."""

    name: str
    orientation: str
    cols: int
    rows: int
    n: int
    names: tuple[str, ...]
    q: np.ndarray  # int64[n] axial coordinates
    r: np.ndarray
    terrain: np.ndarray  # int8[n]: index into terrain_names
    terrain_names: tuple[str, ...]  # the aid terrains this map uses, in the aid order
    elevation: np.ndarray  # int8[n]: ground level of a unit in the hex (9.6.1, 9.6.2)
    obstacle: np.ndarray  # int8[n]: ground + terrain height, the hex as an obstacle (10.4)
    road: np.ndarray  # bool[n]
    hill: np.ndarray  # bool[n]
    hill_id: np.ndarray  # int32[n]: which hill (adjacent hill hexes are one hill, 9.6.1); -1
    los_class: np.ndarray  # int8[n]: 0 clear, 1 hinders, 2 blocks (terrain only)
    hex_los_dice: np.ndarray  # int8[n, dice]: LOS dice of a hindering hex (10.9.2)
    free_facing: np.ndarray  # bool[n]: vehicles turn freely here (road, 9.1, 9.10)
    vehicle_damage: np.ndarray  # int8[n, dice]: terrain dice against vehicles entering (9.10.1)
    neighbours: np.ndarray  # int32[n, 6]
    index: np.ndarray  # int64[.., ..]: axial (q - qmin, r - rmin) -> hex, -1 off the map (margin 2)
    qmin: int
    rmin: int
    move_cost: np.ndarray  # int16[4, n, 6]: cost to enter neighbours[h, d]; -1 prohibited
    climb: np.ndarray  # bool[n, 6]: entering neighbours[h, d] climbs a hill (9.6.1)
    movement_types: tuple[str, ...]
    dice_letters: str
    aid_label: str
    _index: dict = field(default_factory=dict, repr=False)

    # -- all-pairs tables (small maps: tests, the bench's reference; the engine reads
    # layout.near_tables, and one line is traced on demand by line()) -----------------

    @cached_property
    def distance(self) -> np.ndarray:  # int16[n, n]
        check_full_tables(self)
        return hexgrid._all_distances(self.q, self.r).astype(np.int16)

    @cached_property
    def _full(self) -> tuple:
        check_full_tables(self)
        kmax = 2 * max(1, self.diameter)
        los_t, hind, hdice, between, between_alt, longest = los.compute_los_tables(
            self.q, self.r, self.index, self.qmin, self.rmin, *self._los_args())
        if longest > kmax:
            raise AssertionError(f"a LOS crossed {longest} hexes, more than the {kmax} provided")
        k = max(1, longest)
        out = (los_t, hind, hdice, np.ascontiguousarray(between[:, :, :k]),
               np.ascontiguousarray(between_alt[:, :, :k]))
        for a in out:
            a.setflags(write=False)
        return out

    los = property(lambda self: self._full[0])             # int8[n, n]: 0 clear, 1 hindered, 2 blocked, no smoke
    hindrances = property(lambda self: self._full[1])      # int8[n, n]: hindering hexes on the line
    hindrance_dice = property(lambda self: self._full[2])  # int8[n, n, dice]
    between = property(lambda self: self._full[3])         # int32[n, n, K]: hexes strictly between, -1 padded
    between_alt = property(lambda self: self._full[4])     # int32[n, n, K]: other hex of a side pair, else -1

    @property
    def diameter(self) -> int:
        """The longest distance between two hexes of the map."""
        return int(max(np.ptp(self.q), np.ptp(self.r), np.ptp(-self.q - self.r)))

    def _los_args(self) -> tuple:
        return (self.elevation.astype(np.int64), self.obstacle.astype(np.int64),
                self.los_class.astype(np.int64), self.hill_id.astype(np.int64),
                self.hex_los_dice.astype(np.int64), 2 * max(1, self.diameter))

    def line(self, a: int, b: int) -> tuple:
        """One LOS traced on demand (no smoke): ``(code, hindrances, dice, between,
        between_alt)``, the same numbers as a row of the all-pairs tables."""
        *args, kmax = self._los_args()
        nd = len(self.dice_letters)
        between = np.full(kmax, -1, dtype=np.int32)
        between_alt = np.full(kmax, -1, dtype=np.int32)
        dice = np.zeros(nd, dtype=np.int64)
        if a == b:
            return 0, 0, dice, between[:1], between_alt[:1]
        size = (kmax + 2) * 7
        work, fkey = los.line_work(kmax + 1)
        code, nh, kk = los.trace_line(a, b, self.q, self.r, self.index, self.qmin, self.rmin, *args,
                                      np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64),
                                      np.zeros(self.index.shape, dtype=np.int64), 1, work, fkey, dice,
                                      between, between_alt)
        k = max(1, kk)
        return int(code), int(nh), dice, between[:k], between_alt[:k]

    def hex_distance(self, a: int, b: int) -> int:
        return int(hexgrid.axial_distance(self.q[a], self.r[a], self.q[b], self.r[b]))

    # -- names ---------------------------------------------------------------------------

    def index_of(self, name: str) -> int:
        """Index of hex ``"col,row"``; InputError when it is not a hex of this map."""
        h = self._index.get(name)
        if h is not None:
            return h
        try:
            c, r = hexgrid.parse_hex_name(name)
        except ValueError as exc:
            raise InputError("hex", "", str(exc)) from None
        h = self._index.get(hexgrid.hex_name(c, r))
        if h is None:
            raise InputError("hex", "", f"{name!r} is off the map (columns 0-{self.cols - 1}, "
                             f"rows 0-{self.rows - 1})")
        return h

    def movement_type_index(self, movement_type: str) -> int:
        return self.movement_types.index(movement_type)

    def terrain_of(self, h: int) -> str:
        return self.terrain_names[self.terrain[h]]

    def describe(self, h: int) -> str:
        return ("hill+" if self.hill[h] else "") + self.terrain_of(h)

    # -- geometry --------------------------------------------------------------------------

    def arc_of_fire(self, h: int, facing: int, g: int) -> bool:
        """Whether ``g`` is in the arc of fire of a unit in ``h`` facing vertex ``facing``
        (10.6); infantry's 360-degree arc is the caller's business."""
        return bool(hexgrid.arc_of_fire(self.q, self.r, h, facing, g))

    def area_of_impact(self, firer_h: int, target_h: int, facing: int) -> int:
        """FRONT/FLANK/REAR of a vehicle in ``target_h`` facing ``facing`` hit from
        ``firer_h`` (10.9.3); on a boundary the weaker (higher code)."""
        return int(hexgrid.area_of_impact(self.q, self.r, firer_h, target_h, facing))

    def areas_of_impact(self, firer_h: int, target_h: int, facing: int) -> tuple[int, ...]:
        """The one area, or both areas of a LOS along their boundary (10.9.3)."""
        a1, a2 = hexgrid.areas_of_impact(int(self.q[firer_h] - self.q[target_h]),
                                         int(self.r[firer_h] - self.r[target_h]), facing)
        return (a1,) if a2 < 0 else (a1, a2)

    # -- line of sight -------------------------------------------------------------------

    def line_of_sight(self, firer: int | str, target: int | str, smoke=None,
                      count_markers: bool = True) -> LosResult:
        """The LOS between two hexes (10.3, 10.4), with smoke markers if given
        (``smoke``: mapping hex -> markers, or an int array over hexes; rulings #14)."""
        a = self.index_of(firer) if isinstance(firer, str) else int(firer)
        b = self.index_of(target) if isinstance(target, str) else int(target)
        markers = self.smoke_array(smoke)
        code, between, between_alt = self.los_with_smoke(a, b, markers, count_markers)
        hind, smoky, blocking, crossed = [], [], [], []
        dice = np.zeros(len(self.dice_letters), dtype=np.int64)
        for k in range(between.shape[0]):
            x = int(between[k])
            if x < 0:
                break
            y = int(between_alt[k])
            x = self._worse_with_smoke(a, b, x, y, markers, count_markers)
            crossed.append(self.names[x])
            e = los.hex_effect(x, a, b, self.elevation, self.obstacle, self.los_class, self.hill_id)
            if e == los.BLOCKED:
                blocking.append(self.names[x])
            elif e == los.HINDERED:
                hind.append(self.names[x])
                dice += self.hex_los_dice[x]
            if markers[x] > 0:
                smoky.append(self.names[x])
        pool = "".join(letter * int(k) for letter, k in zip(self.dice_letters, dice, strict=True)) or "-"
        return LosResult(self.names[a], self.names[b], los.LOS_NAMES[code], tuple(hind),
                         tuple(smoky), tuple(blocking), tuple(crossed),
                         self.hex_distance(a, b), pool)

    def los_with_smoke(self, a: int, b: int, markers, count_markers: bool = True) -> tuple:
        """``(code, between, between_alt)`` of one line traced on demand, smoke markers
        counted (:func:`los.los_with_smoke`)."""
        _, _, _, between, between_alt = self.line(a, b)
        view = (self.n, self.n, between.shape[0])   # every (a, b) reads this one line, no n x n copy
        code, _ = los.los_with_smoke(a, b, markers, np.broadcast_to(between, view),
                                     np.broadcast_to(between_alt, view), self.elevation, self.obstacle,
                                     self.los_class, self.hill_id, count_markers)
        return int(code), between, between_alt

    def smoke_array(self, smoke) -> np.ndarray:
        out = np.zeros(self.n, dtype=np.int64)
        if smoke is None:
            return out
        if isinstance(smoke, dict):
            for k, v in smoke.items():
                out[self.index_of(k) if isinstance(k, str) else int(k)] = int(v)
            return out
        return np.asarray(smoke, dtype=np.int64)

    def _worse_with_smoke(self, a, b, x, y, markers, count_markers) -> int:
        if y < 0:
            return x
        def weight(h):
            e = los.hex_effect(h, a, b, self.elevation, self.obstacle, self.los_class, self.hill_id)
            s = int(markers[h]) if count_markers else min(int(markers[h]), 1)
            return (e == los.BLOCKED, (e == los.HINDERED) + s)
        return y if weight(y) > weight(x) else x

    def los_from(self, firer: int | str) -> np.ndarray:
        """LOS codes from one hex to every hex (no smoke)."""
        a = self.index_of(firer) if isinstance(firer, str) else int(firer)
        return np.array([self.line(a, b)[0] for b in range(self.n)], dtype=np.int8)


# --- compiling ------------------------------------------------------------------------

def compile_map(scenario_or_map: Scenario | MapSpec | Board, aid: Aid | None = None) -> CompiledMap:
    """Compile a scenario's map (or a :class:`MapSpec`) against a player's aid (default:
    the scenario's aid, else the shipped one) into arrays.

    No all-pairs table is built here: one line is traced on demand (:meth:`CompiledMap.line`),
    the engine's tables reach only as far as its units see (``layout.near_tables``), and
    the all-pairs tables (``los``, ``between``...) are computed when first read, on maps
    small enough (:func:`check_full_tables`)."""
    if isinstance(scenario_or_map, Scenario):
        aid = aid or scenario_or_map.aid
        board = scenario_or_map.board
        name = scenario_or_map.name
    elif isinstance(scenario_or_map, Board):
        board, name = scenario_or_map, "map"
        aid = aid or load_aid()
    else:
        aid = aid or load_aid()
        board = board_from_spec(scenario_or_map, aid)
        name = "map"
    return _compile(board, aid, name)


# The all-pairs tables take about (2 + dice + 8 K) bytes a pair (K about twice the
# diameter): beyond this many bytes they are refused with the map's size and the limit.
FULL_TABLES_BYTES = 2 << 30


def check_full_tables(cm) -> None:
    """InputError when the all-pairs LOS tables of ``cm`` would not fit (before allocating)."""
    per_pair = 4 + len(cm.dice_letters) + 8 * 2 * max(1, cm.diameter)
    need = cm.n * cm.n * per_pair
    if need > FULL_TABLES_BYTES:
        most = int((FULL_TABLES_BYTES / per_pair) ** 0.5)
        raise InputError("map", "rows", f"the {cm.cols} x {cm.rows} map ({cm.n:,} hexes) is too large for "
                         f"all-pairs line-of-sight tables ({need / 2**20:,.0f} MiB): at most about "
                         f"{most:,} hexes on a map this wide; trace single lines instead")


def board_from_spec(spec: MapSpec, aid: Aid, where: str = "map") -> Board:
    """A :class:`Board` from a map spec, raising the first problem as InputError."""
    legend = {}
    for char, value in spec.legend.items():
        if len(char) != 1:
            raise InputError(where, f"legend.{char}", "legend keys are single characters")
        try:
            legend[char] = parse_terrain(value, aid)
        except ValueError as exc:
            raise InputError(where, f"legend.{char}", str(exc)) from None
    width = len(spec.rows[0])
    if hexgrid.too_many_hexes(width, len(spec.rows)):
        raise InputError(where, "rows", hexgrid.too_many_hexes(width, len(spec.rows)))
    terrain, hill = [], []
    for i, row in enumerate(spec.rows):
        if len(row) != width or not row:
            raise InputError(where, f"rows[{i}]", f"has {len(row)} hexes but row 0 has {width}")
        for j, c in enumerate(row):
            if c not in legend:
                raise InputError(where, f"rows[{i}]", f"character {c!r} (column {j}) not in legend")
            t, h = legend[c]
            terrain.append(t)
            hill.append(h)
    return Board(HexGrid(width, len(spec.rows), spec.orientation), tuple(terrain), tuple(hill),
                 spec.source)


def _hill_components(hill: np.ndarray, neighbours: np.ndarray) -> np.ndarray:
    """Adjacent hill hexes are part of the same hill (9.6.1)."""
    out = np.full(len(hill), -1, dtype=np.int32)
    k = 0
    for h in range(len(hill)):
        if not hill[h] or out[h] >= 0:
            continue
        stack = [h]
        out[h] = k
        while stack:
            x = stack.pop()
            for y in neighbours[x]:
                if y >= 0 and hill[y] and out[y] < 0:
                    out[y] = k
                    stack.append(y)
        k += 1
    return out


def _dice_counts(pool: tuple[str, ...], letters: str) -> list[int]:
    return [pool.count(letter) for letter in letters]


def _compile(board: Board, aid: Aid, name: str) -> CompiledMap:
    g = board.grid
    n = g.n
    letters = aid.dice.letters
    # only the terrains this map uses, in the aid's order: the engine tabulates fire,
    # close combat and support per terrain, so an aid with many rows (a river, a
    # bridge, ...) costs a map nothing for the rows it does not draw
    used = set(board.terrain)
    terrains = tuple(t for t in aid.terrains if t.name in used)
    tnames = tuple(t.name for t in terrains)
    tix = np.array([tnames.index(t) for t in board.terrain], dtype=np.int8)
    hill = np.array(board.hill, dtype=np.bool_)
    ground = np.where(hill, aid.hill.ground, 0).astype(np.int8)
    height = np.array([terrains[i].height for i in tix], dtype=np.int8)
    obstacle = (ground + height).astype(np.int8)
    los_class = np.array([LOS_CODES[terrains[i].los] for i in tix], dtype=np.int8)
    hex_dice = np.array([_dice_counts(terrains[i].los_dice, letters) for i in tix],
                        dtype=np.int8).reshape(n, len(letters))
    vdamage = np.array([_dice_counts(terrains[i].vehicle_damage, letters) for i in tix],
                       dtype=np.int8).reshape(n, len(letters))
    road = np.array([tnames[i] == "road" for i in tix], dtype=np.bool_)
    free_facing = np.array([terrains[i].free_facing for i in tix], dtype=np.bool_)
    hill_id = _hill_components(hill, g.neighbours)

    # axial -> index lookup with a margin of 2 for the line tracer
    qmin, rmin = int(g.q.min()) - 2, int(g.r.min()) - 2
    index = np.full((int(g.q.max()) - qmin + 3, int(g.r.max()) - rmin + 3), -1, dtype=np.int64)
    index[g.q - qmin, g.r - rmin] = np.arange(n)
    move_cost, climb = _move_costs(g.neighbours, tix, hill, hill_id, ground, aid, terrains)
    arrays = dict(
        q=g.q, r=g.r, terrain=tix, elevation=ground, obstacle=obstacle, road=road, hill=hill,
        hill_id=hill_id, los_class=los_class, hex_los_dice=hex_dice, free_facing=free_facing,
        vehicle_damage=vdamage, neighbours=g.neighbours, index=index, move_cost=move_cost, climb=climb)
    for a in arrays.values():
        a.setflags(write=False)
    return CompiledMap(name=name, orientation=g.orientation, cols=g.cols, rows=g.rows, n=n,
                       names=g.names, terrain_names=tnames, movement_types=MOVEMENT_TYPES,
                       dice_letters=letters, aid_label=aid.label, qmin=qmin, rmin=rmin,
                       _index={nm: i for i, nm in enumerate(g.names)}, **arrays)


def _move_costs(neighbours, tix, hill, hill_id, ground, aid: Aid, terrains):
    """Cost to enter each neighbour per movement type (9.4), the hill's extra cost added
    when climbing onto a hill from outside it (9.6.1). ``tix`` indexes ``terrains``."""
    n = len(tix)
    cost = np.full((len(MOVEMENT_TYPES), n, 6), -1, dtype=np.int16)
    climb = np.zeros((n, 6), dtype=np.bool_)
    terrain_cost = np.array([[(-1 if t.movement_cost(mt) is None else t.movement_cost(mt))
                              for t in terrains] for mt in MOVEMENT_TYPES], dtype=np.int64)
    hill_cost = [aid.hill.movement_cost(mt) for mt in MOVEMENT_TYPES]
    for h in range(n):
        for d in range(6):
            x = neighbours[h, d]
            if x < 0:
                continue
            climbing = bool(hill[x]) and not (hill[h] and hill_id[h] == hill_id[x]
                                              and ground[h] == ground[x])
            climb[h, d] = climbing
            for m in range(len(MOVEMENT_TYPES)):
                c = terrain_cost[m, tix[x]]
                if c < 0:
                    continue
                if climbing:
                    if hill_cost[m] is None:
                        continue
                    c += hill_cost[m]
                cost[m, h, d] = c
    return cost, climb


@lru_cache(maxsize=16)
def compiled_scenario(path: str, mtime_ns: int) -> CompiledMap:
    """A scenario file's compiled map, cached by path and modification time."""
    from simulator.games.assault.game.scenario import load_scenario

    return compile_map(load_scenario(path))
