"""Command points (4.9.2, 6.2.2, 10.7.3): what a side may spend this turn, and on which unit cards."""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule
from simulator.games.assault.game.state import CARRIED, G_CP0, G_CPLOST0, ONMAP, U_SIDE, U_ST, U_TYPE
from simulator.games.assault.game.tables import (
    P_CP_ALWAYS,
    P_CP_RULE,
    P_MIN_CP,
)


@rule
def cp_available(s, t, side):
    """Command points of a side this turn (4.9.2, 6.2.2): its formation cards' points,
    less one per unit lost, never below the minimum (10.7.3; ``P_CP_ALWAYS``: four even
    when the cards give fewer, reading S9)."""
    base = s.g[G_CP0 + side]
    floor = t.p[P_MIN_CP] if t.p[P_CP_ALWAYS] == 1 else min(base, t.p[P_MIN_CP])
    return max(floor, base - s.g[G_CPLOST0 + side])


@rule
def has_cp(s, t, u):
    if t.p[P_CP_RULE] == 0:
        return True
    side = s.u[u, U_SIDE]
    ty = s.u[u, U_TYPE]
    return s.cp[side, ty, 0] > s.cp[side, ty, 1]


@rule
def spend_cp(s, t, u):
    if t.p[P_CP_RULE] == 1:
        s.cp[s.u[u, U_SIDE], s.u[u, U_TYPE], 1] += 1


@rule
def units_of_type(s, side, ty):
    n = 0
    for u in range(s.u.shape[0]):
        if s.u[u, U_SIDE] == side and s.u[u, U_TYPE] == ty and (s.u[u, U_ST] == ONMAP or s.u[u, U_ST] == CARRIED):
            n += 1
    return n


int64_constants(globals())
