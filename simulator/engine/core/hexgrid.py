"""Hex geometry of a scenario map (4.8): names, coordinates, neighbours, distance,
facing by hex vertex, arcs of fire (10.6) and areas of impact (10.9.3).

Hexes are named ``"col,row"`` from ``"0,0"`` (row 0 at the top). Two layouts:

- ``flat``: flat-topped hexes in columns; odd columns are shifted down by half a hex;
- ``pointy``: pointy-topped hexes in rows; odd rows are shifted right by half a hex.

Internally every hex has axial coordinates ``(q, r)`` (cube ``s = -q - r``); the six
side directions are the same axial vectors for both layouts, in clockwise order on the
picture (y grows downwards):

====  ===========  ======  ========
 d    axial (q,r)   flat    pointy
====  ===========  ======  ========
 0    (0, -1)       N       NW
 1    (+1, -1)      NE      NE
 2    (+1, 0)       SE      E
 3    (0, +1)       S       SE
 4    (-1, +1)      SW      SW
 5    (-1, 0)       NW      W
====  ===========  ======  ========

``neighbours[h, d]`` is the hex across side ``d``. A *facing* is a hex vertex (4.8,
5.8, 9.10): vertex ``v`` lies between sides ``v`` and ``v + 1``, so a unit facing
vertex ``v`` has its two frontal hexes across sides ``v`` and ``v + 1`` (9.10, 10.6)
and its two rear hexes across sides ``v + 3`` and ``v + 4``. Vertex names are
``FLAT_VERTICES`` / ``POINTY_VERTICES``.

The ``njit`` functions take plain integers and arrays so the scenario engine can call
them from its own kernels.
"""

from __future__ import annotations

import functools
import math
import re

import numpy as np
from numba import njit

from simulator.run.errors import InputError

ORIENTATIONS = ("flat", "pointy")

# Axial side directions, clockwise on the picture (see the module docstring).
DIRECTIONS = np.array([(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)], dtype=np.int64)

FLAT_SIDES = ("N", "NE", "SE", "S", "SW", "NW")
POINTY_SIDES = ("NW", "NE", "E", "SE", "SW", "W")
# Vertex v lies between side v and side v+1.
FLAT_VERTICES = ("NE", "E", "SE", "SW", "W", "NW")
POINTY_VERTICES = ("N", "NE", "SE", "S", "SW", "NW")

# Areas of impact (10.9.3) returned by area_of_impact; "above" is not a matter of geometry.
FRONT, FLANK, REAR = 0, 1, 2
AREAS = ("front", "flank", "rear")
# The area of the side s + facing... : sides f, f+1 front; f+2, f+5 flank; f+3, f+4 rear.
_SIDE_AREA = np.array([FRONT, FRONT, FLANK, REAR, REAR, FLANK], dtype=np.int64)

_NAME = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s*")


# --- names and layouts ----------------------------------------------------------------

def hex_name(col: int, row: int) -> str:
    """``"col,row"``, the name of a hex everywhere in the project."""
    return f"{col},{row}"


def parse_hex_name(text: str) -> tuple[int, int]:
    """``"3,4"`` -> ``(3, 4)``; raises ValueError for anything else."""
    m = _NAME.fullmatch(str(text))
    if not m:
        raise ValueError(f"not a hex name {text!r} (write \"col,row\", e.g. \"3,4\")")
    return int(m.group(1)), int(m.group(2))


def offset_to_axial(col: int, row: int, orientation: str) -> tuple[int, int]:
    """Offset ``(col, row)`` to axial ``(q, r)``: odd-q for flat, odd-r for pointy."""
    if orientation == "flat":
        return col, row - (col - (col & 1)) // 2
    return col - (row - (row & 1)) // 2, row


def axial_to_offset(q: int, r: int, orientation: str) -> tuple[int, int]:
    """Inverse of :func:`offset_to_axial`."""
    if orientation == "flat":
        return q, r + (q - (q & 1)) // 2
    return q + (r - (r & 1)) // 2, r


def centre(col: int, row: int, orientation: str, size: float = 1.0) -> tuple[float, float]:
    """Picture coordinates of a hex centre (x right, y down); ``size`` = centre-to-corner."""
    if orientation == "flat":
        x = 1.5 * size * col
        y = math.sqrt(3) * size * (row + 0.5 * (col & 1))
    else:
        x = math.sqrt(3) * size * (col + 0.5 * (row & 1))
        y = 1.5 * size * row
    return x, y


def corners(col: int, row: int, orientation: str, size: float = 1.0) -> list[tuple[float, float]]:
    """The six corners of a hex in picture coordinates."""
    cx, cy = centre(col, row, orientation, size)
    start = 0.0 if orientation == "flat" else 30.0
    return [(cx + size * math.cos(math.radians(start + 60 * i)),
             cy + size * math.sin(math.radians(start + 60 * i))) for i in range(6)]


def vertex_names(orientation: str) -> tuple[str, ...]:
    return FLAT_VERTICES if orientation == "flat" else POINTY_VERTICES


def side_names(orientation: str) -> tuple[str, ...]:
    return FLAT_SIDES if orientation == "flat" else POINTY_SIDES


def parse_facing(value: int | str, orientation: str, where: str = "facing", key: str = "") -> int:
    """A facing (a hex vertex, 4.8) given as its compass name (``"NE"``) or index 0..5."""
    names = vertex_names(orientation)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 6:
        return value
    if isinstance(value, str) and value.strip().upper() in names:
        return names.index(value.strip().upper())
    raise InputError(where, key, f"unknown facing {value!r}: a {orientation}-topped hex faces "
                     f"one of its vertices {', '.join(names)} (or 0-5)")


# Hexes are numbered in int16 in the engine's line-of-sight tables (compile.near_tables).
MAX_HEXES = 32_767


def too_many_hexes(cols: int, rows: int) -> str:
    """The one-line problem of a map beyond :data:`MAX_HEXES`, else ``""``."""
    n = cols * rows
    if n <= MAX_HEXES:
        return ""
    return (f"the map is {cols:,} x {rows:,} = {n:,} hexes: at most {MAX_HEXES:,} hexes "
            f"(e.g. 181 x 181)")


# --- the grid -------------------------------------------------------------------------

class HexGrid:
    """A rectangular map of ``cols`` x ``rows`` hexes, index ``h = row * cols + col``."""

    def __init__(self, cols: int, rows: int, orientation: str):
        if orientation not in ORIENTATIONS:
            raise ValueError(f"orientation must be flat or pointy (got {orientation!r})")
        self.cols, self.rows, self.orientation = cols, rows, orientation
        n = cols * rows
        self.n = n
        self.col = np.tile(np.arange(cols, dtype=np.int64), rows)
        self.row = np.repeat(np.arange(rows, dtype=np.int64), cols)
        qr = [offset_to_axial(int(c), int(r), orientation) for c, r in zip(self.col, self.row, strict=True)]
        self.q = np.array([a for a, _ in qr], dtype=np.int64)
        self.r = np.array([b for _, b in qr], dtype=np.int64)
        self.names = tuple(hex_name(int(c), int(r)) for c, r in zip(self.col, self.row, strict=True))
        self._index = {name: h for h, name in enumerate(self.names)}
        self.neighbours = _neighbours(self.q, self.r, cols, rows, orientation == "flat")

    @functools.cached_property
    def distance(self) -> np.ndarray:
        """All-pairs distance, int16[n, n] (small maps, tests; the engine computes
        distance from the axial coordinates, :func:`axial_distance`)."""
        return _all_distances(self.q, self.r).astype(np.int16)

    @property
    def diameter(self) -> int:
        """The longest distance between two hexes of the map (the widest of the three
        axial spans), without an all-pairs table."""
        s = -self.q - self.r
        return int(max(np.ptp(self.q), np.ptp(self.r), np.ptp(s)))

    def index_of(self, name: str) -> int:
        """Index of the hex called ``name`` (``"3,4"``); KeyError if not on the map."""
        if name in self._index:
            return self._index[name]
        try:
            c, r = parse_hex_name(name)  # tolerate spaces: "3, 4"
        except ValueError:
            raise KeyError(name) from None
        if hex_name(c, r) in self._index:
            return self._index[hex_name(c, r)]
        raise KeyError(name)

    def on_map(self, col: int, row: int) -> bool:
        return 0 <= col < self.cols and 0 <= row < self.rows

    def axial_index(self, q: int, r: int) -> int:
        """Index of the hex at axial ``(q, r)``, or -1 when off the map."""
        c, rw = axial_to_offset(q, r, self.orientation)
        return rw * self.cols + c if self.on_map(c, rw) else -1


def _neighbours(q, r, cols, rows, flat) -> np.ndarray:
    n = len(q)
    out = np.full((n, 6), -1, dtype=np.int32)
    orientation = "flat" if flat else "pointy"
    for h in range(n):
        for d in range(6):
            c, rw = axial_to_offset(int(q[h] + DIRECTIONS[d, 0]), int(r[h] + DIRECTIONS[d, 1]),
                                    orientation)
            if 0 <= c < cols and 0 <= rw < rows:
                out[h, d] = rw * cols + c
    return out


# --- numba helpers over axial coordinates ----------------------------------------------

@njit(cache=True)
def axial_distance(q1: int, r1: int, q2: int, r2: int) -> int:
    """Hex distance (10.1: hexes counted without the firer's own)."""
    dq = q1 - q2
    dr = r1 - r2
    ds = -dq - dr
    return max(abs(dq), abs(dr), abs(ds))


@njit(cache=True)
def _all_distances(q, r):
    n = q.shape[0]
    out = np.empty((n, n), dtype=np.int64)
    for a in range(n):
        for b in range(n):
            out[a, b] = axial_distance(q[a], r[a], q[b], r[b])
    return out


@njit(cache=True)
def _cross(ax: int, ay: int, bx: int, by: int) -> int:
    return ax * by - ay * bx


@njit(cache=True)
def vertex_vector(v: int) -> tuple:
    """Axial vector pointing at vertex ``v`` (sum of the two sides it joins)."""
    a = v % 6
    b = (v + 1) % 6
    return (DIRECTIONS[a, 0] + DIRECTIONS[b, 0], DIRECTIONS[a, 1] + DIRECTIONS[b, 1])


@njit(cache=True)
def in_arc(dq: int, dr: int, facing: int) -> bool:
    """Whether the axial offset ``(dq, dr)`` lies in the 120-degree arc of fire of a unit
    facing vertex ``facing`` (10.6): between the lines through the two vertices either side
    of the facing vertex, boundary hexes included. The unit's own hex counts as inside."""
    if dq == 0 and dr == 0:
        return True
    lx, ly = vertex_vector(facing + 5)
    rx, ry = vertex_vector(facing + 1)
    span = _cross(lx, ly, rx, ry)
    c1 = _cross(lx, ly, dq, dr)
    c2 = _cross(dq, dr, rx, ry)
    if span > 0:
        return c1 >= 0 and c2 >= 0
    return c1 <= 0 and c2 <= 0


@njit(cache=True)
def entry_sides(dq: int, dr: int) -> tuple:
    """The side(s) of a target hex through which a LOS from a firer at axial offset
    ``(dq, dr)`` (firer minus target) enters it (10.9.3): ``(side, -1)``, or two sides
    when the line runs exactly through the vertex between them."""
    best = -(1 << 30)
    s1 = -1
    s2 = -1
    for d in range(6):
        # dot product of the cube vectors (dq, dr, -dq-dr) and (ex, ey, -ex-ey)
        ex = DIRECTIONS[d, 0]
        ey = DIRECTIONS[d, 1]
        dot = 2 * dq * ex + 2 * dr * ey + dq * ey + dr * ex
        if dot > best:
            best = dot
            s1 = d
            s2 = -1
        elif dot == best:
            s2 = d
    if s1 == 0 and s2 == 5:
        s1, s2 = 5, 0
    return (s1, s2)


@njit(cache=True)
def side_area(side: int, facing: int) -> int:
    """Area of impact (FRONT, FLANK, REAR) of a hex side for a vehicle facing ``facing``."""
    return _SIDE_AREA[(side - facing) % 6]


@njit(cache=True)
def areas_of_impact(dq: int, dr: int, facing: int) -> tuple:
    """The area(s) of impact of a LOS from a firer at axial offset ``(dq, dr)`` (firer
    minus target) on a vehicle facing ``facing`` (10.9.3): ``(area, -1)`` or the two areas
    of a line along their boundary, which the caller settles by the weaker card dice."""
    s1, s2 = entry_sides(dq, dr)
    a1 = side_area(s1, facing)
    if s2 < 0:
        return (a1, -1)
    a2 = side_area(s2, facing)
    if a2 == a1:
        return (a1, -1)
    return (min(a1, a2), max(a1, a2))


@njit(cache=True)
def area_of_impact(q, r, firer: int, target: int, facing: int) -> int:
    """Area of impact on the target (10.9.3) over the map's axial arrays ``q``, ``r``.
    On a boundary the higher code (flank over front, rear over flank) is returned,
    which is the weaker armour whenever front >= flank >= rear; use
    :func:`areas_of_impact` to compare the card's dice instead."""
    a1, a2 = areas_of_impact(q[firer] - q[target], r[firer] - r[target], facing)
    return a1 if a2 < 0 else a2


@njit(cache=True)
def arc_of_fire(q, r, h: int, facing: int, g: int) -> bool:
    """Whether hex ``g`` is in the arc of fire of a unit in ``h`` facing ``facing`` (10.6)."""
    return in_arc(q[g] - q[h], r[g] - r[h], facing)


@njit(cache=True)
def frontal_sides(facing: int) -> tuple:
    """The two sides leading to the frontal hexes (9.10, 10.6)."""
    return (facing % 6, (facing + 1) % 6)


@njit(cache=True)
def rear_sides(facing: int) -> tuple:
    """The two sides leading to the rear hexes (9.10: reversing)."""
    return ((facing + 3) % 6, (facing + 4) % 6)


@njit(cache=True)
def facing_change(f1: int, f2: int) -> int:
    """Vertices turned to go from facing ``f1`` to ``f2`` the short way round (9.10)."""
    d = (f2 - f1) % 6
    return min(d, 6 - d)
