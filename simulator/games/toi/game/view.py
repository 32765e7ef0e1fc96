"""Read-only accessors of a Tide of Iron game for players and reports (numba), as
Assault's :mod:`simulator.games.assault.game.view`: players read the state through these
names, so a change of layout touches this module and not every player."""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule_inlined
from simulator.games.toi.game.state import (
    AUX_OBJ,
    G_DECIDER,
    G_INIT,
    G_MOVED,
    G_MP,
    G_OVER,
    G_ROUND,
    G_SUB,
    G_UNIT,
    G_VP0,
    G_WINNER,
    HX_OCC,
    ONMAP,
    SUB_MOVE,
    SUB_OPFIRE,
    TOK_OPFIRE,
    U_COND,
    U_DMG,
    U_HEX,
    U_IN,
    U_SIDE,
    U_ST,
    U_TOKEN,
    U_VEHICLE,
)
from simulator.games.toi.game.tables import HI_COVER, OB_HEX, OB_VP, P_N_OBJ, P_N_UNITS, P_ROUNDS
from simulator.games.toi.game.units import figures, fresh


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


@rule_inlined
def initiative(s):
    """The side holding the initiative (001: it wins a tie in victory points)."""
    return s.g[G_INIT]


@rule_inlined
def active_unit(s):
    """The unit carrying out an action now, -1 none."""
    return s.g[G_UNIT]


@rule_inlined
def mp_left(s):
    """Movement points the active unit has left."""
    return s.g[G_MP]


@rule_inlined
def moving(s):
    """Whether the active unit is in the middle of its move (its MPs left count)."""
    return s.g[G_SUB] == SUB_MOVE or s.g[G_SUB] == SUB_OPFIRE


@rule_inlined
def has_stepped(s):
    """Whether the active unit has entered a hex in this activation."""
    return s.g[G_MOVED] == 1


@rule_inlined
def hex_units(s, h, side):
    """Units of ``side`` in hex ``h``."""
    return s.hx[h, HX_OCC + side]


@rule_inlined
def hex_cover(t, h):
    """Cover dice hex ``h`` gives a squad (terrain; not smoke or fortifications)."""
    return t.hexi[h, HI_COVER]


@rule_inlined
def unit_condition(s, k):
    """COND_NORMAL, COND_PINNED or COND_DISRUPTED (0, 1, 2)."""
    return s.u[k, U_COND]


@rule_inlined
def unit_in_fort(s, k):
    """1: the squad is in a fortification of its hex."""
    return s.u[k, U_IN]


@rule_inlined
def unit_opfire(s, k):
    """Whether the unit is in op fire mode."""
    return s.u[k, U_TOKEN] == TOK_OPFIRE


@rule_inlined
def unit_fresh(s, k):
    """Whether the unit may still be activated in this action phase."""
    return fresh(s, k)


int64_constants(globals())
