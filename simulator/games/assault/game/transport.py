"""Transport in a game (9.11, 10.10.3, 12.10): loading, dismounting, emergency disembark.

A carried unit has status ``CARRIED`` and ``U_CARRIER`` its vehicle; it stands in no hex
(9.11: it does not count for stacking) and goes wherever its vehicle goes. It loads in
its own activation by moving into the hex of a friendly vehicle that may take it
(9.11.2: capacity, tank riders infantry only, no delayed, fast, suppressed, fallback,
immobilised or close-combat marker on the vehicle); it dismounts by an activation of
its own into an empty adjacent hex (9.11.3: fast action, delayed for slow artillery
or harsh terrain). What fire does to passengers is :func:`simulator.games.assault.game.fire.transport_after_hit`
(``transport.transport_event``); the passengers it sends out wait with ``U_EMERG``
set until their player places them (10.10.3), and are eliminated when no empty hex
is next to their vehicle.
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, push, rule
from simulator.games.assault.game.board import empty, lift, put
from simulator.games.assault.game.events import EV_DISEMBARK, EV_DISEMBARK_LOST, log_event
from simulator.games.assault.game.fire import eliminate
from simulator.games.assault.game.state import (
    ACT_DELAYED,
    ACT_FAST,
    ACT_NONE,
    ARTILLERY,
    CARRIED,
    CC_NONE,
    G_DECIDER,
    G_EMERG,
    G_SUB,
    HX_OCC,
    INFANTRY,
    K_DISEMBARK,
    K_DISMOUNT,
    NIL,
    ONMAP,
    STEADY,
    SUB_REACT,
    U_ACT,
    U_CARRIER,
    U_CC,
    U_DMG,
    U_DONE,
    U_EMERG,
    U_HEX,
    U_IMMOB,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TYPE,
    VEHICLE,
    action,
)
from simulator.games.assault.game.tables import (
    P_EDITION,
    S6_COST,
    S6_NBR,
    UT_CAP,
    UT_HALF,
    UT_KIND,
    UT_LOAD_FULL,
    UT_LOAD_HALF,
    UT_MOVE,
    UT_MTYPE,
    UT_RIDERS,
    UT_SLOW,
)
from simulator.games.assault.rules.transport import RIDE_OK, ride_refusal, within_capacity


@rule
def load_of(units, ut, p):
    """Transport points ``p`` takes: its full or half nominal strength, damage ignored (9.11)."""
    ty = units[p, U_TYPE]
    return ut[ty, UT_LOAD_HALF] if units[p, U_DMG] >= ut[ty, UT_HALF] else ut[ty, UT_LOAD_FULL]


@rule
def may_load(units, ut, c, p):
    """9.11, 9.11.1, 9.11.2: vehicle ``c`` may take ``p`` aboard now: who may ride and
    the capacity are ``assault.transport``'s rules; the markers that stop loading are
    the game's (9.11.2)."""
    ct = units[c, U_TYPE]
    pt = units[p, U_TYPE]
    if units[c, U_ST] != ONMAP or units[c, U_SIDE] != units[p, U_SIDE] or ut[ct, UT_CAP] == 0:
        return False
    if ride_refusal(ut[ct, UT_RIDERS] == 1, ut[pt, UT_KIND] == VEHICLE, ut[pt, UT_KIND] == INFANTRY) != RIDE_OK:
        return False
    act = units[c, U_ACT]
    if act == ACT_DELAYED or act == ACT_FAST or units[c, U_MORALE] != STEADY or units[c, U_IMMOB] == 1 \
            or units[c, U_CC] != CC_NONE:
        return False
    load = load_of(units, ut, p)
    for q in range(units.shape[0]):
        if units[q, U_ST] == CARRIED and units[q, U_CARRIER] == c:
            load += load_of(units, ut, q)
    return within_capacity(load, ut[ct, UT_CAP])


@rule
def loader_in(units, ut, p, h):
    """A vehicle in hex ``h`` that may take ``p`` aboard (9.11.2), or -1."""
    for c in range(units.shape[0]):
        if units[c, U_ST] == ONMAP and units[c, U_HEX] == h and c != p and may_load(units, ut, c, p):
            return c
    return -1


@rule
def carries(units, c):
    """Whether vehicle ``c`` has passengers (12.10: then it never initiates a close combat)."""
    for q in range(units.shape[0]):
        if units[q, U_ST] == CARRIED and units[q, U_CARRIER] == c:
            return True
    return False


@rule
def exit_cost(s, t, p, h, d):
    """Cost for ``p`` of leaving hex ``h`` across side ``d`` into an empty hex it may
    enter (9.11.3, 10.10.3: one unit per hex, no enemy), or -1."""
    g = t.side6[h, d, S6_NBR]
    if g < 0 or not empty(s, g):
        return -1
    return t.side6[h, d, S6_COST + t.ut[s.u[p, U_TYPE], UT_MTYPE]]


@rule
def exit_marker(s, t, p, cost):
    """9.11.3, 10.10.3: fast action; delayed for slow artillery or into harsh terrain (9.5)."""
    ty = s.u[p, U_TYPE]
    if (t.ut[ty, UT_KIND] == ARTILLERY and t.ut[ty, UT_SLOW] == 1) or cost > t.ut[ty, UT_MOVE]:
        return ACT_DELAYED
    return ACT_FAST


@rule
def dismount_actions(s, t, p, out, n):
    """9.11.3: the hexes next to its vehicle ``p`` may dismount into."""
    c = s.u[p, U_CARRIER]
    if c < 0 or s.u[c, U_ST] != ONMAP:
        return n
    h = s.u[c, U_HEX]
    for d in range(6):
        if exit_cost(s, t, p, h, d) >= 0:
            n = push(out, n, action(K_DISMOUNT, p, d))
    return n


@rule
def can_dismount(s, t, p, side):
    """A carried unit of ``side`` not yet activated that has somewhere to go (9.11.3)."""
    if s.u[p, U_ST] != CARRIED or s.u[p, U_SIDE] != side or s.u[p, U_DONE] == 1 \
            or s.u[p, U_MORALE] != STEADY or s.u[p, U_EMERG] == 1:
        return False
    c = s.u[p, U_CARRIER]
    if c < 0 or s.u[c, U_ST] != ONMAP:
        return False
    h = s.u[c, U_HEX]
    for d in range(6):
        if exit_cost(s, t, p, h, d) >= 0:
            return True
    return False


@rule
def dismount(s, t, p, d):
    """9.11.3: ``p`` leaves its vehicle into the hex across side ``d``; returns that hex."""
    h = s.u[s.u[p, U_CARRIER], U_HEX]
    cost = exit_cost(s, t, p, h, d)
    g = t.side6[h, d, S6_NBR]
    s.u[p, U_CARRIER] = -1
    put(s, p, g)
    s.u[p, U_ACT] = exit_marker(s, t, p, cost)
    log_event(s, EV_DISEMBARK, p, h, g, NIL, NIL, NIL)
    return g


@rule
def board(s, t, p, c):
    """9.11.2: ``p`` (standing in its vehicle's hex) is loaded: off the map, its move
    marker removed, its activation over."""
    lift(s, p)
    s.u[p, U_ST] = CARRIED
    s.u[p, U_CARRIER] = c
    s.u[p, U_HEX] = -1
    s.u[p, U_ACT] = ACT_NONE


# --- emergency disembark (10.10.3, 12.10) -----------------------------------------------


@rule
def emergency_now(s):
    """A passenger waits for its emergency disembark (not while a reaction to the last
    one is being decided)."""
    return s.g[G_EMERG] > 0 and s.g[G_SUB] != SUB_REACT


@rule
def next_emergency(s):
    for p in range(s.u.shape[0]):
        if s.u[p, U_EMERG] == 1:
            return p
    return -1


@rule
def emergency_step(s, t):
    """The next emergency disembark: True when its player must place it; a passenger
    with no empty hex next to its vehicle is eliminated (10.10.3)."""
    while s.g[G_EMERG] > 0:
        p = next_emergency(s)
        if p < 0:
            s.g[G_EMERG] = 0
            return False
        h = s.u[p, U_HEX]
        for d in range(6):
            if exit_cost(s, t, p, h, d) >= 0:
                s.g[G_DECIDER] = s.u[p, U_SIDE]
                return True
        s.u[p, U_EMERG] = 0
        s.g[G_EMERG] -= 1
        log_event(s, EV_DISEMBARK_LOST, p, h, NIL, NIL, NIL, NIL)
        s.u[p, U_HEX] = -1
        eliminate(s, t, p)
    return False


@rule
def emergency_actions(s, t, out):
    p = next_emergency(s)
    n = 0
    if p < 0:
        return 0
    h = s.u[p, U_HEX]
    for d in range(6):
        if exit_cost(s, t, p, h, d) >= 0:
            n = push(out, n, action(K_DISEMBARK, p, d))
    return n


@rule
def emergency_place(s, t, p, d):
    """10.10.3: place ``p`` in the chosen empty adjacent hex: fast action, delayed for slow
    artillery or harsh terrain; suppressed tank riders stay suppressed (no move marker)."""
    h = s.u[p, U_HEX]
    cost = exit_cost(s, t, p, h, d)
    g = t.side6[h, d, S6_NBR]
    s.u[p, U_EMERG] = 0
    s.g[G_EMERG] -= 1
    put(s, p, g)
    if s.u[p, U_MORALE] == STEADY:
        s.u[p, U_ACT] = exit_marker(s, t, p, cost)
        if t.p[P_EDITION] == 2 and t.ut[s.u[p, U_TYPE], UT_SLOW] == 1 and s.hx[h, HX_OCC + 1 - s.u[p, U_SIDE]] > 0:
            s.u[p, U_ACT] = ACT_DELAYED            # revised 12.4 (situation 2): any slow unit, in a close combat
    else:
        s.u[p, U_ACT] = ACT_NONE
    s.u[p, U_DONE] = 1                                     # reading S15: its turn is over
    log_event(s, EV_DISEMBARK, p, h, g, 1, NIL, NIL)
    return g


int64_constants(globals())
