"""Reaction fire (8.2): who may react to a unit that moves or appears, and the shot."""

from __future__ import annotations

import numpy as np

from simulator.engine.core.compiling import int64_constants, push, rule, rule_inlined
from simulator.games.assault.game.events import (
    EV_REACT,
    log_event,
)
from simulator.games.assault.game.fire import (
    can_target,
    resolve_fire,
    rider_on,
)
from simulator.games.assault.game.phases.command import has_cp, spend_cp
from simulator.games.assault.game.pooltab import FS_FIRING, FS_TURRET
from simulator.games.assault.game.state import (
    ACT_FIRING,
    ACT_TURRET,
    CARRIED,
    CC_NONE,
    G_DECIDER,
    G_FB_UNIT,
    G_REACT_BACK,
    G_REACT_UNIT,
    G_REACTIONS,
    G_SUB,
    G_UNIT,
    K_NOREACT,
    K_REACT,
    NIL,
    ONMAP,
    STEADY,
    SUB_ACT_END,
    SUB_MOVE,
    SUB_REACT,
    U_ACT,
    U_CARRIER,
    U_CC,
    U_DONE,
    U_HELD,
    U_HEX,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TYPE,
    a_arg,
    a_kind,
    a_unit,
    action,
)
from simulator.games.assault.game.tables import (
    P_TRANSPORT,
    UT_TURRET,
)


@rule
def fire_status_at(s, t, f, v, fh):
    """How ``f`` in ``fh`` would fire at ``v`` without moving: firing, turret fire outside
    its arc (10.6), or -1 if it cannot."""
    if can_target(s, t, f, v, fh, FS_FIRING):
        return FS_FIRING
    if t.ut[s.u[f, U_TYPE], UT_TURRET] == 1 and can_target(s, t, f, v, fh, FS_TURRET):
        return FS_TURRET
    return -1


@rule
def can_react(s, t, r, mover):
    """8.2: one un-activated unit of the mover's opponent that can target it, with a
    command point for its card when that rule is on."""
    if s.u[r, U_ST] != ONMAP or s.u[r, U_SIDE] == s.u[mover, U_SIDE]:
        return False
    if s.u[r, U_DONE] == 1 or s.u[r, U_HELD] == 1 or s.u[r, U_MORALE] != STEADY:
        return False
    if s.u[r, U_CC] != CC_NONE or not has_cp(s, t, r):
        return False
    return fire_status_at(s, t, r, mover, s.u[r, U_HEX]) >= 0


@rule
def any_reactor(s, t, mover):
    for r in range(s.u.shape[0]):
        if can_react(s, t, r, mover):
            return True
    return False


@rule
def rider_reactions(s, t, r, mover, out, n):
    """10.10.1: a unit reacting to a moving vehicle may fire at its tank riders instead."""
    for p in range(s.u.shape[0]):
        if s.u[p, U_ST] == CARRIED and s.u[p, U_CARRIER] == mover and rider_on(s, t, p) >= 0 \
                and fire_status_at(s, t, r, p, s.u[r, U_HEX]) >= 0:
            n = push(out, n, action(K_REACT, r, p))
    return n


@rule
def react_or_end(s, t, u, back):
    """8.2: a unit that just appeared in a hex (dismount, emergency disembark) may draw
    reaction fire; then play goes to ``back``."""
    if any_reactor(s, t, u):
        s.g[G_REACT_UNIT] = u
        s.g[G_REACT_BACK] = back
        s.g[G_SUB] = SUB_REACT
    else:
        s.g[G_SUB] = back


@rule
def apply_react(s, t, a):
    k = a_kind(a)
    back = s.g[G_REACT_BACK]
    mover = s.g[G_REACT_UNIT]
    if k == K_REACT:
        r = a_unit(a)
        v = a_arg(a)                                     # the mover, or one of its tank riders (10.10.1)
        fs = fire_status_at(s, t, r, v, s.u[r, U_HEX])
        s.u[r, U_DONE] = 1
        s.u[r, U_ACT] = ACT_TURRET if fs == FS_TURRET else ACT_FIRING
        spend_cp(s, t, r)
        s.g[G_REACTIONS] += 1
        log_event(s, EV_REACT, r, v, NIL, NIL, NIL, NIL)
        resolve_fire(s, t, r, v, s.u[r, U_HEX], fs, np.int64(v == s.g[G_FB_UNIT]))
    if back == SUB_MOVE and mover == s.g[G_UNIT] and (s.u[mover, U_ST] != ONMAP or s.u[mover, U_MORALE] != STEADY):
        s.g[G_SUB] = SUB_ACT_END                         # 6.4: a morale marker ends the activation
    else:
        s.g[G_SUB] = back


int64_constants(globals())


@rule_inlined
def react_actions(s, t, out):
    """8.2: no reaction, or a unit that may react fires at the mover (or at one of its
    tank riders, 10.10.1)."""
    mover = s.g[G_REACT_UNIT]
    n = push(out, NIL, action(K_NOREACT, 0, 0))
    for r in range(s.u.shape[0]):
        if can_react(s, t, r, mover):
            n = push(out, n, action(K_REACT, r, mover))
            if t.p[P_TRANSPORT] == 1:
                n = rider_reactions(s, t, r, mover, out, n)
    return n


@rule_inlined
def react_step(s):
    """The mover's opponent decides whether to react (8.2)."""
    s.g[G_DECIDER] = 1 - s.u[s.g[G_REACT_UNIT], U_SIDE]
    return True
