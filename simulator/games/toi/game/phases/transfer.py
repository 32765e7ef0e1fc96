"""Squad transfers (001 Status phase, 4): figures move one at a time between friendly
squads in the same hex, each side in order of initiative, until it says it is done.

Neither squad may be specialised, pinned, disrupted, transported or in an entrenchment or
pillbox (001 Status phase, 4); the receiving squad stays within the squad base's figures
(``P_SQUAD_MAX``, rulings T17); an emptied base is removed (``EMPTIED``). Within one status
phase a squad that gave figures of a type does not receive that type, and one that received
it does not give it (rulings T35): every arrangement of the hex's figures can still be
reached, and the transfers end. The flow (who decides, what comes next) is
:mod:`.setup`'s, with the other status phase placements.
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, push, rule
from simulator.games.toi.game.events import EV_TRANSFER, log
from simulator.games.toi.game.state import (
    COND_NORMAL,
    EMPTIED,
    K_TRANSFER,
    K_TRANSFER_DONE,
    ONMAP,
    U_COND,
    U_FIG,
    U_HEX,
    U_IN,
    U_SIDE,
    U_SPEC,
    U_ST,
    U_XFER,
    a_arg,
    a_unit,
    action,
    gave_bit,
    got_bit,
    transfer_arg,
    transfer_fig,
    transfer_to,
)
from simulator.games.toi.game.tables import P_N_FIG, P_N_UNITS, P_SQUAD_MAX, SPEC_NONE
from simulator.games.toi.game.units import figures, is_vehicle, put


@rule
def may_transfer(s, k):
    """Squad ``k`` may give or receive figures: on the map (not transported), a plain
    squad (no specialisation), neither pinned nor disrupted, not in a fortification (001
    Status phase, 4; Specialized squads)."""
    return (s.u[k, U_ST] == ONMAP and not is_vehicle(s, k) and s.u[k, U_SPEC] == SPEC_NONE
            and s.u[k, U_COND] == COND_NORMAL and s.u[k, U_IN] == 0)


@rule
def can_transfer(s, t, k, j, f):
    """One figure of type ``f`` may go from squad ``k`` to squad ``j``."""
    if k == j or not may_transfer(s, k) or not may_transfer(s, j):
        return False
    if s.u[k, U_SIDE] != s.u[j, U_SIDE] or s.u[k, U_HEX] != s.u[j, U_HEX]:
        return False
    if s.u[k, U_FIG + f] == 0 or figures(s, t, j) >= t.p[P_SQUAD_MAX]:
        return False
    return (s.u[k, U_XFER] & got_bit(f)) == 0 and (s.u[j, U_XFER] & gave_bit(f)) == 0   # rulings T35


@rule
def transfer_actions(s, t, side, out, n):
    """Push the transfers ``side`` may make now onto ``out`` (from ``n``); return the count."""
    for k in range(t.p[P_N_UNITS]):
        if s.u[k, U_SIDE] != side or not may_transfer(s, k):
            continue
        for j in range(t.p[P_N_UNITS]):
            for f in range(t.p[P_N_FIG]):
                if can_transfer(s, t, k, j, f):
                    n = push(out, n, action(K_TRANSFER, k, transfer_arg(j, f)))
    return n


@rule
def any_transfer(s, t, side):
    """``side`` has a transfer to make."""
    for k in range(t.p[P_N_UNITS]):
        if s.u[k, U_SIDE] != side or not may_transfer(s, k):
            continue
        for j in range(t.p[P_N_UNITS]):
            for f in range(t.p[P_N_FIG]):
                if can_transfer(s, t, k, j, f):
                    return True
    return False


@rule
def transfer_choices(s, t, side, out):
    """The decision: "done", then every legal transfer."""
    return transfer_actions(s, t, side, out, push(out, 0, action(K_TRANSFER_DONE, 0, 0)))


@rule
def do_transfer(s, t, a):
    """Move the figure; remove the giving squad's base if it is empty (001 Status phase, 4)."""
    k = a_unit(a)
    j = transfer_to(a_arg(a))
    f = transfer_fig(a_arg(a))
    s.u[k, U_FIG + f] -= 1
    s.u[j, U_FIG + f] += 1
    s.u[k, U_XFER] |= gave_bit(f)
    s.u[j, U_XFER] |= got_bit(f)
    left = figures(s, t, k)
    log(s, EV_TRANSFER, k, j, f, left, 0, 0)
    if left == 0:
        put(s, k, -1)
        s.u[k, U_ST] = EMPTIED


int64_constants(globals())
