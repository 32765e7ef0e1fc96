"""Where units stand: putting units on hexes, taking them off, who is where (9.0).

Every change of a unit's hex goes through :func:`put` and :func:`lift`, which keep
``hx[hex, HX_OCC + side]`` (units standing in a hex; transported units do not count,
9.11) in step with ``u[unit, U_HEX]``.
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule
from simulator.games.assault.game.state import CARRIED, HX_OCC, ONMAP, U_CARRIER, U_HEX, U_SIDE, U_ST
from simulator.games.assault.game.tables import hex_dist


@rule
def occ(s, h, side):
    return s.hx[h, HX_OCC + side]


@rule
def empty(s, h):
    return s.hx[h, HX_OCC] + s.hx[h, HX_OCC + 1] == 0


@rule
def put(s, u, h):
    """Stand unit ``u`` in hex ``h``."""
    s.u[u, U_HEX] = h
    s.u[u, U_ST] = ONMAP
    s.hx[h, HX_OCC + s.u[u, U_SIDE]] += 1


@rule
def lift(s, u):
    """Take unit ``u`` off its hex (it keeps ``U_HEX`` until the caller changes it)."""
    h = s.u[u, U_HEX]
    if h >= 0 and s.u[u, U_ST] == ONMAP:
        s.hx[h, HX_OCC + s.u[u, U_SIDE]] -= 1


@rule
def shift(s, u, h):
    """Move a standing unit to hex ``h``."""
    lift(s, u)
    put(s, u, h)


@rule
def nearest_enemy_in(units, hexi, h, side):
    """Distance from ``h`` to the nearest enemy unit on the map (a large number if none),
    on the unit array and the hexes' axial coordinates alone."""
    best = 1 << 20
    for v in range(units.shape[0]):
        if units[v, U_ST] == ONMAP and units[v, U_SIDE] != side:
            d = hex_dist(hexi, h, units[v, U_HEX])
            if d < best:
                best = d
    return best


@rule
def nearest_enemy(s, t, h, side):
    """Distance from ``h`` to the nearest enemy unit on the map (a large number if none)."""
    return nearest_enemy_in(s.u, t.hexi, h, side)


@rule
def passengers_of(s, vehicle, out):
    """Fill ``out`` with the units carried by ``vehicle``; return the count."""
    n = 0
    for v in range(s.u.shape[0]):
        if s.u[v, U_ST] == CARRIED and s.u[v, U_CARRIER] == vehicle:
            if n < out.shape[0]:
                out[n] = v
            n += 1
    return n


int64_constants(globals())
