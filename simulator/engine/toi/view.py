"""Read-only accessors of a Tide of Iron game for players and reports (numba), as
Assault's :mod:`simulator.engine.assault.view`: players read the state through these
names, so a change of layout touches this module and not every player."""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule_inlined
from simulator.engine.toi.state import (
    AUX_OBJ,
    G_DECIDER,
    G_OVER,
    G_ROUND,
    G_VP0,
    G_WINNER,
    ONMAP,
    U_DMG,
    U_HEX,
    U_SIDE,
    U_ST,
    U_VEHICLE,
)
from simulator.engine.toi.tables import OB_HEX, OB_VP, P_N_OBJ, P_N_UNITS, P_ROUNDS
from simulator.engine.toi.units import figures


@rule_inlined
def decider(s):
    return s.g[G_DECIDER]


@rule_inlined
def is_over(s):
    return s.g[G_OVER] == 1


@rule_inlined
def winner(s):
    return s.g[G_WINNER]


@rule_inlined
def round_now(s):
    return s.g[G_ROUND]


@rule_inlined
def rounds(t):
    return t.p[P_ROUNDS]


@rule_inlined
def vp(s, side):
    return s.g[G_VP0 + side]


@rule_inlined
def controller(s, o):
    return s.aux[AUX_OBJ, o]


@rule_inlined
def n_objectives(t):
    return t.p[P_N_OBJ]


@rule_inlined
def objective_hex(t, o):
    return t.obj[o, OB_HEX]


@rule_inlined
def objective_vp(t, o):
    return t.obj[o, OB_VP]


@rule_inlined
def n_units(t):
    return t.p[P_N_UNITS]


@rule_inlined
def unit_on_map(s, k):
    return s.u[k, U_ST] == ONMAP


@rule_inlined
def unit_side(s, k):
    return s.u[k, U_SIDE]


@rule_inlined
def unit_hex(s, k):
    return s.u[k, U_HEX]


@rule_inlined
def unit_figures(s, t, k):
    return figures(s, t, k)


@rule_inlined
def unit_value(s, t, k):
    """What a unit is worth to a rough evaluation: its figures, or a vehicle's damage steps
    left (two each)."""
    if s.u[k, U_VEHICLE] == 1:
        return 2 * (3 - s.u[k, U_DMG])
    return figures(s, t, k)


int64_constants(globals())
