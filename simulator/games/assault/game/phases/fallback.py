"""Fallback (13.3): a queued unit's fast-action move away from the enemy, and its end."""

from __future__ import annotations

import numpy as np

from simulator.engine.core.compiling import int64_constants, push, rule, rule_inlined
from simulator.games.assault.game import closecombat as cc
from simulator.games.assault.game.board import nearest_enemy, occ, shift
from simulator.games.assault.game.events import (
    EV_FALLBACK,
    EV_FALLBACK_BLOCKED,
    EV_MOVE,
    EV_MUST_LEAVE,
    log_event,
)
from simulator.games.assault.game.fire import (
    apply_symbols,
    eliminate,
)
from simulator.games.assault.game.moves import (
    MODE_FALLBACK,
    STEP_HARSH,
    STEP_NO,
    any_step,
    step_kind,
)
from simulator.games.assault.game.phases.movement import allowance, push_fbpath, settle, terrain_damage
from simulator.games.assault.game.phases.reaction import any_reactor
from simulator.games.assault.game.state import (
    AUX_FBPATH,
    AUX_QUEUE,
    CC_NONE,
    FALLBACK,
    G_DECIDER,
    G_FALLBACKS,
    G_FB_MP,
    G_FB_ORIGIN,
    G_FB_PATHN,
    G_FB_STEPS,
    G_FB_UNIT,
    G_PHASE,
    G_QN,
    G_REACT_BACK,
    G_REACT_UNIT,
    G_SUB,
    K_STEP,
    NIL,
    ONMAP,
    PH_SUPPORT,
    SUB_FALLBACK,
    SUB_REACT,
    SUPPRESSED,
    U_CC,
    U_FACE,
    U_HEX,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TYPE,
    VEHICLE,
    a_arg,
    action,
)
from simulator.games.assault.game.tables import (
    S6_COST,
    S6_NBR,
    UT_KIND,
    UT_MTYPE,
)


@rule
def start_fallback(s, t):
    """13.3: the next queued unit falls back, a fast-action move away from the enemy."""
    n = s.g[G_QN]
    v = s.aux[AUX_QUEUE, 0]
    for i in range(1, n):
        s.aux[AUX_QUEUE, i - 1] = s.aux[AUX_QUEUE, i]
    s.g[G_QN] = n - 1
    if s.u[v, U_ST] != ONMAP or (s.u[v, U_MORALE] != FALLBACK        # (or must leave, 12.9)
                                 and not (s.u[v, U_MORALE] == SUPPRESSED and s.u[v, U_CC] != CC_NONE)):
        return
    must_leave = s.u[v, U_MORALE] == SUPPRESSED      # the tracks result (12.9, revised 12.5): not a
    if s.u[v, U_CC] != CC_NONE:                       # fallback, it leaves by a fallback's path (S11)
        cc.leave(s, t, v)
    s.g[G_FALLBACKS] += 1
    s.g[G_FB_UNIT] = v
    s.g[G_FB_MP] = allowance(s, t, v) + 1
    s.g[G_FB_STEPS] = 0
    s.g[G_FB_PATHN] = 0
    push_fbpath(s, s.u[v, U_HEX])
    s.g[G_FB_ORIGIN] = s.g[G_SUB]
    s.g[G_SUB] = SUB_FALLBACK
    log_event(s, EV_MUST_LEAVE if must_leave else EV_FALLBACK, v, s.u[v, U_HEX], NIL, NIL, NIL, NIL)


@rule
def retreat_possible(s, t, v):
    """Is there any hex further from the enemy the unit could enter, whatever the cost? (13.3)"""
    h = s.u[v, U_HEX]
    side = s.u[v, U_SIDE]
    mt = t.ut[s.u[v, U_TYPE], UT_MTYPE]
    here = nearest_enemy(s, t, h, side)
    for d in range(6):
        g = t.side6[h, d, S6_NBR]
        if g < 0 or occ(s, g, 1 - side) > 0 or t.side6[h, d, S6_COST + mt] < 0:
            continue
        if nearest_enemy(s, t, g, side) > here:
            return True
    return False


@rule
def end_fallback(s, t):
    """The fallback is over; blocked with movement left, the unit takes a damage point (13.3)."""
    v = s.g[G_FB_UNIT]
    if s.u[v, U_ST] == ONMAP:
        if s.g[G_FB_MP] > 0 and not retreat_possible(s, t, v):
            log_event(s, EV_FALLBACK_BLOCKED, v, s.u[v, U_HEX], NIL, NIL, NIL, NIL)
            apply_symbols(s, t, v, NIL, np.int64(1), NIL)
        if s.u[v, U_ST] == ONMAP and occ(s, s.u[v, U_HEX], 1 - s.u[v, U_SIDE]) > 0:
            eliminate(s, t, v)              # reading: cannot get out of a hex an enemy entered (12.0)
        else:
            settle(s, t, v, AUX_FBPATH, s.g[G_FB_PATHN])
    s.g[G_FB_UNIT] = -1
    s.g[G_SUB] = s.g[G_FB_ORIGIN]


@rule
def apply_fallback_step(s, t, a):
    v = s.g[G_FB_UNIT]
    d = a_arg(a)
    h = s.u[v, U_HEX]
    k, c = step_kind(s, t, v, h, d, MODE_FALLBACK, s.g[G_FB_MP], s.g[G_FB_STEPS])
    g = t.side6[h, d, S6_NBR]
    shift(s, v, g)
    if t.ut[s.u[v, U_TYPE], UT_KIND] == VEHICLE:
        s.u[v, U_FACE] = d                              # reading: it faces the way it falls back
    push_fbpath(s, g)
    s.g[G_FB_STEPS] += 1
    s.g[G_FB_MP] = 0 if k == STEP_HARSH else s.g[G_FB_MP] - c
    log_event(s, EV_MOVE, v, h, g, s.g[G_FB_MP], NIL, NIL)
    terrain_damage(s, t, v, g)                           # 9.10.1: any hex a vehicle enters
    if s.u[v, U_ST] != ONMAP:
        return
    # 8.2: fallback draws reaction fire from either player; not in the support phase (7.0)
    if s.g[G_PHASE] != PH_SUPPORT and any_reactor(s, t, v):
        s.g[G_REACT_UNIT] = v
        s.g[G_REACT_BACK] = SUB_FALLBACK
        s.g[G_SUB] = SUB_REACT


int64_constants(globals())


@rule_inlined
def fallback_actions(s, t, out):
    """13.3: the falling-back unit's next hex."""
    v = s.g[G_FB_UNIT]
    h = s.u[v, U_HEX]
    n = NIL
    for d in range(6):
        k, c = step_kind(s, t, v, h, d, MODE_FALLBACK, s.g[G_FB_MP], s.g[G_FB_STEPS])
        if k != STEP_NO:
            n = push(out, n, action(K_STEP, v, d))
    return n


@rule_inlined
def fallback_step(s, t):
    """The fallback ends when the unit is gone or cannot step further; otherwise its
    player chooses the next hex. Returns True when a decision is pending."""
    v = s.g[G_FB_UNIT]
    if s.u[v, U_ST] != ONMAP or not any_step(s, t, v, s.u[v, U_HEX], MODE_FALLBACK, s.g[G_FB_MP],
                                              s.g[G_FB_STEPS]):
        end_fallback(s, t)
        return False
    s.g[G_DECIDER] = s.u[v, U_SIDE]
    return True
