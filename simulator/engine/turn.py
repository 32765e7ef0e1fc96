"""The sequence of play (chapter 6) as a state machine over the game's arrays.

Three functions are the rules of a whole game, and the only ones players and the
Python wrapper call:

- :func:`advance` runs every automatic step (dice, markers, phases) until a player
  must decide or the game is over; ``g[G_DECIDER]`` then names who decides;
- :func:`legal_actions` lists what that player may do;
- :func:`apply_action` does it, then calls :func:`advance`.

A turn: initiative (6.1), planning with command points when the optional rule is on
(6.2.2), the action phase of alternating activations and passes, three consecutive
passes ending it (6.4, 8.1), the organisation phase (6.5), the victory check (6.6)
and reinforcements (6.7). Before turn 1: formation cards (5.6, 5.7) and set-up (5.8).
Movement is hex by hex with reaction fire after each hex (8.2); fallbacks (13.3) are
queued and played before the interrupted activation goes on. Vehicles turn one vertex
at a time, step into their frontal hexes or reverse into their rear ones, and roll
terrain damage on entering (9.9, 9.10; :mod:`simulator.engine.moves`). Close combat is in
:mod:`simulator.engine.closecombat`. The support phase (6.3, chapter 7), between
planning and action, is played by scenarios with support units: its alternation is
here, indirect fire and smoke in :mod:`simulator.engine.support`. Transport (9.11, 10.10, 12.10) is in :mod:`simulator.engine.transport`,
overruns of artillery (9.10.3) in :mod:`simulator.engine.overrun`.
"""

from __future__ import annotations

import numpy as np

from simulator.assault.kernels import cancel_packed
from simulator.assault.vehicle_terrain import terrain_damage_effect
from simulator.engine import closecombat as cc
from simulator.engine import intocc as icc
from simulator.engine import overrun as ov
from simulator.engine import support as sp
from simulator.engine import transport as tr
from simulator.engine.board import empty, nearest_enemy, occ, put, shift
from simulator.engine.events import (
    EV_ACTIVATE,
    EV_ART_FACE,
    EV_BACKTRACK,
    EV_CLASS_DRAW,
    EV_CP,
    EV_FACE,
    EV_FALLBACK,
    EV_FALLBACK_BLOCKED,
    EV_FORMATION,
    EV_INITIATIVE,
    EV_LOAD,
    EV_MOVE,
    EV_OBJECTIVE,
    EV_PASS,
    EV_PHASE,
    EV_PLACE,
    EV_REACT,
    EV_REINFORCE,
    EV_SPOTTER,
    EV_STOP,
    EV_TERRAIN_DAMAGE,
    EV_TURN,
    EV_VICTORY,
    log_event,
)
from simulator.engine.fire import (
    apply_symbols,
    can_target,
    eliminate,
    fallback_again,
    resolve_fire,
    rider_on,
    set_morale,
    transport_after_hit,
)
from simulator.engine.moves import (
    MODE_FALLBACK,
    STEP_ENEMY,
    STEP_HARSH,
    STEP_NO,
    STEP_OVERRUN,
    any_step,
    can_turn,
    step_kind,
    turn_cost,
    turning_unit,
)
from simulator.engine.pooltab import FS_FIRING, FS_MOVE, FS_TURRET
from simulator.engine.state import (
    ABSENT,
    ACT_DELAYED,
    ACT_DIGGING,
    ACT_FAST,
    ACT_FIREMOVE,
    ACT_FIRING,
    ACT_MOVEFIRE,
    ACT_NONE,
    ACT_NORMAL,
    ACT_TURRET,
    ARTILLERY,
    AUX_FBPATH,
    AUX_FST,
    AUX_OBJ,
    AUX_PATH,
    AUX_QUEUE,
    CARRIED,
    CC_ACTIVE,
    CC_INACTIVE,
    CC_NONE,
    ELIMINATED,
    FALLBACK,
    FALSE,
    G_ACTIVATIONS,
    G_ACTIVE,
    G_CC_PEND,
    G_CP0,
    G_CPLOST0,
    G_DECIDED_TURN,
    G_DECIDER,
    G_EMERG,
    G_FACES,
    G_FALLBACKS,
    G_FB_MP,
    G_FB_ORIGIN,
    G_FB_PATHN,
    G_FB_STEPS,
    G_FB_UNIT,
    G_FIRST,
    G_FIRST1,
    G_LOG_ON,
    G_MODE,
    G_MP,
    G_ODD_OBJ,
    G_OVER,
    G_PASSES,
    G_PATHN,
    G_PHASE,
    G_PLACE_SIDE,
    G_PROV,
    G_QN,
    G_REACT_BACK,
    G_REACT_UNIT,
    G_REACTIONS,
    G_REASON,
    G_SETUP_FIRST,
    G_SMK_H0,
    G_SMK_H1,
    G_SMK_K,
    G_SMK_MASK,
    G_SMK_SEER,
    G_SMK_UNIT,
    G_STAGE,
    G_STEPS,
    G_SUB,
    G_SUPPORT_PASSED,
    G_TARGET,
    G_TURN,
    G_TURNED,
    G_UNIT,
    G_WINNER,
    HX_DUG,
    HX_OCC,
    HX_SMOKE,
    INFANTRY,
    K_ART_FACE,
    K_CP,
    K_DIG,
    K_DISEMBARK,
    K_DISMOUNT,
    K_FAST,
    K_FIRE,
    K_FIREMOVE,
    K_FORM,
    K_INDIRECT,
    K_LOAD,
    K_MOVE,
    K_MOVEFIRE,
    K_NOFIRE,
    K_NOREACT,
    K_PASS,
    K_PLACE,
    K_REACT,
    K_RENEW,
    K_REVERSE,
    K_SETUP_FIRST,
    K_SMOKE,
    K_SMOKE_DONE,
    K_SMOKE_HEX,
    K_STEP,
    K_STOP,
    K_TARGET,
    K_TURN,
    K_TURRET,
    K_WITHDRAW,
    MAX_PATH,
    MODE_FAST,
    MODE_FIREMOVE,
    MODE_MOVEFIRE,
    MODE_NORMAL,
    MODE_REVERSE,
    MODE_WITHDRAW,
    NIL,
    ONMAP,
    PENDING,
    PH_ACTION,
    PH_ORGANISATION,
    PH_OVER,
    PH_PLANNING,
    PH_SETUP,
    PH_SUPPORT,
    R_DRAW,
    R_ELIMINATION,
    R_OBJECTIVES,
    R_SUDDEN_DEATH,
    R_TURN_LIMIT,
    STEADY,
    SUB_ACT_END,
    SUB_AFTER_MOVE,
    SUB_CC_PICK,
    SUB_CC_WITHDRAW,
    SUB_END,
    SUB_FALLBACK,
    SUB_FORMATION,
    SUB_MOVE,
    SUB_ORG,
    SUB_PLACE,
    SUB_PLAN,
    SUB_REACT,
    SUB_SELECT,
    SUB_SETUP_ORDER,
    SUB_SMOKE_NEXT,
    SUB_SUPPORT,
    SUB_TURN_START,
    SUPPRESSED,
    TO_PLACE,
    U_ACT,
    U_ARRIVE,
    U_CARRIER,
    U_CC,
    U_DMG,
    U_DONE,
    U_FACE,
    U_FACED,
    U_FORM,
    U_HELD,
    U_HEX,
    U_IMMOB,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TIRED,
    U_TYPE,
    U_ZONE,
    VEHICLE,
    a_arg,
    a_kind,
    a_unit,
    action,
    entry,
    int64_constants,
    push,
    rule,
)
from simulator.engine.tables import (
    D_COUNT,
    D_METHOD,
    FO_CLASS,
    FO_CP,
    FO_DRAW,
    FO_SIDE,
    FO_TYPE,
    FO_ZONE,
    HI_FREEFACE,
    HI_STAND,
    HI_TDMG,
    METHOD_DOUBLE,
    METHOD_DRAW,
    OB_HEX,
    OB_START,
    OB_VALUE,
    P_BASE_CP0,
    P_CP_ALWAYS,
    P_CP_RULE,
    P_IF_NEITHER,
    P_INITIATIVE,
    P_MIN_CP,
    P_N_FORMS,
    P_N_OBJ,
    P_N_UNITS,
    P_NEED_SUPPORT,
    P_SETUP_FIRST,
    P_SMOKE_DECAY,
    P_SUDDEN,
    P_TRANSPORT,
    P_TURNS,
    PO_N,
    S6_COST,
    S6_NBR,
    SL_ARRIVE,
    SL_CARRIER,
    SL_ENTRY,
    SL_FACE,
    SL_FORM,
    SL_GROUP,
    SL_HEX,
    SL_ROLL,
    SL_SIDE,
    SL_TYPE,
    SL_ZONE,
    UT_ELITE,
    UT_FAST_OK,
    UT_KIND,
    UT_MOVE,
    UT_MTYPE,
    UT_STR,
    UT_TDEF,
    UT_TURRET,
    V_ANY,
    V_ELIM,
    V_HOLD_COUNT,
    V_HOLD_MASK,
    V_POINTS,
    V_SUDDEN,
    draw,
    form,
    obj,
    slot,
    vic,
    zone_hex,
    zone_hi,
    zone_lo,
)
from simulator.engine.tables import (
    S6_NBR as _NBR,
)
from simulator.rng import below, sum_rolls

MAX_ACTIONS = 4096
NO_FACING = 7

# ======================================================================================
# small helpers
# ======================================================================================


@rule
def side_of(s, u):
    return s.u[u, U_SIDE]


@rule
def allowance(s, t, u):
    return t.ut[s.u[u, U_TYPE], UT_MOVE]


@rule
def half_allowance(s, t, u):
    """9.3: half the movement allowance, rounded up."""
    return (allowance(s, t, u) + 1) // 2


@rule
def roll_d6(s):
    return below(s.rng[0], 6) + 1


@rule
def roll_off(s):
    """Each player rolls a d6, ties rolled again (6.1, 5.8). Returns the winning side."""
    while True:
        a = roll_d6(s)
        b = roll_d6(s)
        if a != b:
            return 0 if a > b else 1


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
def push_path(s, h):
    n = s.g[G_PATHN]
    if n >= MAX_PATH:
        raise ValueError("move path buffer full: a move of more than MAX_PATH hexes (simulator/engine/state.py)")
    s.aux[AUX_PATH, n] = h
    s.g[G_PATHN] = n + 1


@rule
def push_fbpath(s, h):
    n = s.g[G_FB_PATHN]
    if n >= MAX_PATH:
        raise ValueError("fallback path buffer full: a fallback of more than MAX_PATH hexes "
                         "(simulator/engine/state.py)")
    s.aux[AUX_FBPATH, n] = h
    s.g[G_FB_PATHN] = n + 1


@rule
def settle(s, t, u, row, n):
    """A move that ended in a hex held by a friend (movement stopped by reaction fire)
    goes back along its path to the last hex where the unit may stand (9.0; reading)."""
    if s.u[u, U_ST] != ONMAP:
        return
    side = s.u[u, U_SIDE]
    h = s.u[u, U_HEX]
    if occ(s, h, side) <= 1 or occ(s, h, 1 - side) > 0:
        return
    for i in range(n - 1, -1, -1):
        g = s.aux[row, i]
        if empty(s, g):
            shift(s, u, g)
            log_event(s, EV_BACKTRACK, u, h, g, NIL, NIL, NIL)
            return


# ======================================================================================
# who may do what
# ======================================================================================


@rule
def can_activate(s, t, u, side):
    """A unit may be activated in the action phase (6.4, 6.2.2, 13.2, 13.3)."""
    if s.u[u, U_ST] != ONMAP or s.u[u, U_SIDE] != side:
        return False
    if s.u[u, U_DONE] == 1 or s.u[u, U_HELD] == 1 or s.u[u, U_MORALE] != STEADY:
        return False
    if s.u[u, U_CC] == CC_ACTIVE:
        return False
    return has_cp(s, t, u)


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
def unit_actions(s, t, u, out, n):  # noqa: C901 - compiled rule, split in issue 17 item 3
    """The actions that activate ``u`` in the action phase (6.4, 9.1-9.3, 9.8.1, 10.0)."""
    ty = s.u[u, U_TYPE]
    h = s.u[u, U_HEX]
    kind = t.ut[ty, UT_KIND]
    if s.u[u, U_CC] == CC_INACTIVE:                      # 12.3 renew, 12.6 withdraw (first edition)
        n = cc.renew_actions(s, t, u, out, n)
        if any_step(s, t, u, h, MODE_WITHDRAW, allowance(s, t, u) + 1, NIL):
            n = push(out, n, action(K_WITHDRAW, u, 0))
        return n
    mp = allowance(s, t, u)
    if mp > 0 and (any_step(s, t, u, h, MODE_NORMAL, mp, NIL) or may_turn(s, t, u)):
        n = push(out, n, action(K_MOVE, u, 0))
    if kind == VEHICLE and mp > 0 and any_step(s, t, u, h, MODE_REVERSE, half_allowance(s, t, u), NIL):
        n = push(out, n, action(K_REVERSE, u, 0))                  # 9.10: reversing, half the allowance
    if mp > 0 and t.ut[ty, UT_FAST_OK] == 1 and (s.u[u, U_TIRED] == 0 or kind == VEHICLE) \
            and any_step(s, t, u, h, MODE_FAST, mp + 1, NIL):   # 9.2: infantry, artillery not twice running
        n = push(out, n, action(K_FAST, u, 0))
    half = half_allowance(s, t, u)
    if kind != ARTILLERY and mp > 0 and any_step(s, t, u, h, MODE_MOVEFIRE, half, NIL):   # 9.3
        n = push(out, n, action(K_MOVEFIRE, u, 0))
    for v in range(s.u.shape[0]):
        if s.u[v, U_SIDE] == s.u[u, U_SIDE]:
            continue
        if s.u[v, U_ST] != ONMAP and rider_on(s, t, v) < 0:      # 10.10.1: tank riders are targets
            continue
        fs = fire_status_at(s, t, u, v, h)
        if fs == FS_FIRING:
            n = push(out, n, action(K_FIRE, u, v))
        elif fs == FS_TURRET:
            n = push(out, n, action(K_TURRET, u, v))
        if kind != ARTILLERY and mp > 0 and can_target(s, t, u, v, h, FS_MOVE):
            n = push(out, n, action(K_FIREMOVE, u, v))
        if kind == INFANTRY and icc.in_close_combat(s, v):          # 10.11 (reading S20)
            if icc.may_fire_into(s, t, u, v, h, FS_FIRING):
                n = push(out, n, action(K_FIRE, u, v))
            if mp > 0 and icc.may_fire_into(s, t, u, v, h, FS_MOVE):
                n = push(out, n, action(K_FIREMOVE, u, v))
    if kind == INFANTRY and s.hx[h, HX_DUG] == 0:               # 9.8.1
        n = push(out, n, action(K_DIG, u, 0))
    return n


@rule
def can_act(s, t, u):
    """Whether an activatable unit has at least one action (the cheap checks first)."""
    h = s.u[u, U_HEX]
    ty = s.u[u, U_TYPE]
    if s.u[u, U_CC] == CC_INACTIVE:
        if cc.can_renew(s, t, u):
            return True
        return any_step(s, t, u, h, MODE_WITHDRAW, allowance(s, t, u) + 1, NIL)
    if t.ut[ty, UT_KIND] == INFANTRY and s.hx[h, HX_DUG] == 0:
        return True
    mp = allowance(s, t, u)
    if mp > 0 and (any_step(s, t, u, h, MODE_NORMAL, mp, NIL) or may_turn(s, t, u)):
        return True
    for v in range(s.u.shape[0]):
        if s.u[v, U_ST] == ONMAP and s.u[v, U_SIDE] != s.u[u, U_SIDE] and fire_status_at(s, t, u, v, h) >= 0:
            return True
        if icc.may_fire_into(s, t, u, v, h, FS_FIRING):                # 10.11 (reading S20)
            return True
    if mp > 0 and t.ut[ty, UT_FAST_OK] == 1 and (s.u[u, U_TIRED] == 0 or t.ut[ty, UT_KIND] == VEHICLE):
        return any_step(s, t, u, h, MODE_FAST, mp + 1, NIL)
    return False


@rule
def may_turn(s, t, u):
    """A vehicle or artillery that may turn at the start of a move (9.9, 9.10)."""
    return turning_unit(s, t, u) and not (t.ut[s.u[u, U_TYPE], UT_KIND] == VEHICLE and s.u[u, U_IMMOB] == 1)


@rule
def has_activation(s, t, side):
    for u in range(s.u.shape[0]):
        if can_activate(s, t, u, side) and can_act(s, t, u):
            return True
    if t.p[P_TRANSPORT] == 1:
        for u in range(s.u.shape[0]):
            if tr.can_dismount(s, t, u, side) and has_cp(s, t, u):
                return True
    return False


# ======================================================================================
# legal actions
# ======================================================================================


@rule
def place_actions(s, t, u, out, n):
    """5.8: a free hex of the unit's zone whose terrain it may enter; artillery and
    vehicles also choose the vertex they face."""
    ty = s.u[u, U_TYPE]
    mt = t.ut[ty, UT_MTYPE]
    facings = t.ut[ty, UT_KIND] != INFANTRY
    z = s.u[u, U_ZONE]
    for i in range(zone_lo(t, z), zone_hi(t, z)):
        h = zone_hex(t, i)
        if not empty(s, h) or t.hexi[h, HI_STAND + mt] == 0:
            continue
        if facings:
            for f in range(6):
                n = push(out, n, action(K_PLACE, u, h * 8 + f))
        else:
            n = push(out, n, action(K_PLACE, u, h * 8 + NO_FACING))
    return n


@rule
def any_place(s, t, u):
    """Whether the unit has a hex to be placed in (5.8)."""
    mt = t.ut[s.u[u, U_TYPE], UT_MTYPE]
    z = s.u[u, U_ZONE]
    for i in range(zone_lo(t, z), zone_hi(t, z)):
        h = zone_hex(t, i)
        if empty(s, h) and t.hexi[h, HI_STAND + mt] == 1:
            return True
    return False


@rule
def next_to_place(s, side):
    for u in range(s.u.shape[0]):
        if s.u[u, U_ST] == TO_PLACE and s.u[u, U_SIDE] == side:
            return u
    return -1


@entry
def legal_actions(s, t, out):  # noqa: C901 - compiled rule, split in issue 17 item 3
    """Fill ``out`` with the actions the deciding player may take; return how many."""
    g = s.g
    sub = g[G_SUB]
    n = 0
    if g[G_OVER] == 1:
        return 0
    if g[G_EMERG] > 0 and tr.emergency_now(s):                # 10.10.3
        return tr.emergency_actions(s, t, out)
    if sub == SUB_SELECT:
        n = push(out, n, action(K_PASS, 0, 0))
        side = g[G_ACTIVE]
        for u in range(s.u.shape[0]):
            if can_activate(s, t, u, side):
                n = unit_actions(s, t, u, out, n)
            elif t.p[P_TRANSPORT] == 1 and tr.can_dismount(s, t, u, side) and has_cp(s, t, u):
                n = tr.dismount_actions(s, t, u, out, n)          # 9.11.3
        return n
    if sub == SUB_MOVE:
        u = g[G_UNIT]
        h = s.u[u, U_HEX]
        if g[G_STEPS] > 0 or g[G_MODE] != MODE_WITHDRAW:
            if occ(s, h, s.u[u, U_SIDE]) == 1:            # may stop only where it may stand (9.0)
                n = push(out, n, action(K_STOP, u, 0))
        for d in range(6):
            k, c = step_kind(s, t, u, h, d, g[G_MODE], g[G_MP], g[G_STEPS])
            if k != STEP_NO:
                n = push(out, n, action(K_STEP, u, d))
        f = s.u[u, U_FACE]
        for nf in ((f + 1) % 6, (f + 5) % 6):                   # 9.9, 9.10: turning
            if turn_cost(s, t, u, h, nf, g[G_MP]) >= 0:
                n = push(out, n, action(K_TURN, u, nf))
        c = loader_here(s, t, u)
        if c >= 0:
            n = push(out, n, action(K_LOAD, u, c))              # 9.11.2
        return n
    if sub == SUB_FALLBACK:
        v = g[G_FB_UNIT]
        h = s.u[v, U_HEX]
        for d in range(6):
            k, c = step_kind(s, t, v, h, d, MODE_FALLBACK, g[G_FB_MP], g[G_FB_STEPS])
            if k != STEP_NO:
                n = push(out, n, action(K_STEP, v, d))
        return n
    if sub == SUB_REACT:
        mover = g[G_REACT_UNIT]
        n = push(out, n, action(K_NOREACT, 0, 0))
        for r in range(s.u.shape[0]):
            if can_react(s, t, r, mover):
                n = push(out, n, action(K_REACT, r, mover))
                if t.p[P_TRANSPORT] == 1:
                    n = rider_reactions(s, t, r, mover, out, n)
        return n
    if sub == SUB_AFTER_MOVE:
        u = g[G_UNIT]
        n = push(out, n, action(K_NOFIRE, u, 0))
        for v in range(s.u.shape[0]):
            if can_target(s, t, u, v, s.u[u, U_HEX], FS_MOVE):
                n = push(out, n, action(K_TARGET, u, v))
        return n
    if sub == SUB_CC_PICK or sub == SUB_CC_WITHDRAW:
        return cc.cc_actions(s, t, out)
    if sub == SUB_PLACE:
        u = next_to_place(s, g[G_PLACE_SIDE])
        return place_actions(s, t, u, out, NIL)
    if sub == SUB_SUPPORT:
        n = push(out, n, action(K_PASS, 0, 0))
        return support_actions(s, t, g[G_ACTIVE], out, n)
    if sub == SUB_SMOKE_NEXT:
        n = push(out, n, action(K_SMOKE_DONE, g[G_SMK_UNIT], 0))
        return smoke_hex_actions(s, t, out, n)
    if sub == SUB_PLAN:
        side = g[G_DECIDER]
        for ty in range(t.ut.shape[0]):
            if s.cp[side, ty, 0] < units_of_type(s, side, ty):
                n = push(out, n, action(K_CP, 0, ty))
        return n
    if sub == SUB_FORMATION:
        side = g[G_DECIDER]
        for f in range(t.p[P_N_FORMS]):
            if form(t, f, FO_SIDE) == side and s.aux[AUX_FST, f] == 1 and form(t, f, FO_TYPE) == g[G_TARGET]:
                n = push(out, n, action(K_FORM, 0, f))
        return n
    if sub == SUB_SETUP_ORDER:
        n = push(out, 0, action(K_SETUP_FIRST, 0, 0))
        return push(out, n, action(K_SETUP_FIRST, 0, 1))
    return 0


@rule
def loader_here(s, t, u):
    """9.11.2: a vehicle in the mover's hex that may take it aboard now, or -1 (only
    after a step of a normal or fast move, by infantry or artillery)."""
    if t.p[P_TRANSPORT] == 0 or s.g[G_STEPS] == 0 or (s.g[G_MODE] != MODE_NORMAL and s.g[G_MODE] != MODE_FAST):
        return -1
    if t.ut[s.u[u, U_TYPE], UT_KIND] == VEHICLE:
        return -1
    return tr.loader_in(s.u, t.ut, u, s.u[u, U_HEX])


@rule
def rider_reactions(s, t, r, mover, out, n):
    """10.10.1: a unit reacting to a moving vehicle may fire at its tank riders instead."""
    for p in range(s.u.shape[0]):
        if s.u[p, U_ST] == CARRIED and s.u[p, U_CARRIER] == mover and rider_on(s, t, p) >= 0 \
                and fire_status_at(s, t, r, p, s.u[r, U_HEX]) >= 0:
            n = push(out, n, action(K_REACT, r, p))
    return n


@rule
def units_of_type(s, side, ty):
    n = 0
    for u in range(s.u.shape[0]):
        if s.u[u, U_SIDE] == side and s.u[u, U_TYPE] == ty and (s.u[u, U_ST] == ONMAP or s.u[u, U_ST] == CARRIED):
            n += 1
    return n


# ======================================================================================
# applying an action
# ======================================================================================


@rule
def begin_activation(s, t, u, kind, arg):
    s.g[G_PASSES] = 0
    s.g[G_UNIT] = u
    s.u[u, U_DONE] = 1
    spend_cp(s, t, u)
    s.g[G_ACTIVATIONS] += 1
    s.g[G_PATHN] = 0
    push_path(s, s.u[u, U_HEX])
    s.g[G_STEPS] = 0
    log_event(s, EV_ACTIVATE, s.u[u, U_SIDE], u, kind, arg, NIL, NIL)


@rule
def start_move(s, t, u, mode, mp, marker):
    s.u[u, U_ACT] = marker
    s.g[G_MODE] = mode
    s.g[G_MP] = mp
    s.g[G_TURNED] = 0
    s.g[G_FACES] = 1 << s.u[u, U_FACE]
    s.g[G_SUB] = SUB_MOVE


@rule
def apply_select(s, t, a):
    k = a_kind(a)
    u = a_unit(a)
    arg = a_arg(a)
    if k == K_PASS:
        do_pass(s, t)
        return
    if k == K_DISMOUNT:                                  # 9.11.3: an activation of its own
        g = tr.dismount(s, t, u, arg)
        begin_activation(s, t, u, k, g)
        react_or_end(s, t, u, SUB_ACT_END)
        return
    begin_activation(s, t, u, k, arg)
    h = s.u[u, U_HEX]
    if k == K_MOVE:
        start_move(s, t, u, MODE_NORMAL, allowance(s, t, u), ACT_NORMAL)
    elif k == K_FAST:
        start_move(s, t, u, MODE_FAST, allowance(s, t, u) + 1, ACT_FAST)
    elif k == K_MOVEFIRE:
        start_move(s, t, u, MODE_MOVEFIRE, half_allowance(s, t, u), ACT_MOVEFIRE)
    elif k == K_FIREMOVE:
        s.u[u, U_ACT] = ACT_FIREMOVE
        icc.ordered_fire(s, t, u, arg, h, FS_MOVE)               # 10.11 when into a close combat
        start_move(s, t, u, MODE_FIREMOVE, half_allowance(s, t, u), ACT_FIREMOVE)
    elif k == K_FIRE:
        s.u[u, U_ACT] = ACT_FIRING
        icc.ordered_fire(s, t, u, arg, h, FS_FIRING)             # 10.11 when into a close combat
        s.g[G_SUB] = SUB_ACT_END
    elif k == K_TURRET:
        s.u[u, U_ACT] = ACT_TURRET
        resolve_fire(s, t, u, arg, h, FS_TURRET, FALSE)
        s.g[G_SUB] = SUB_ACT_END
    elif k == K_DIG:
        s.u[u, U_ACT] = ACT_DIGGING
        s.g[G_SUB] = SUB_ACT_END
    elif k == K_RENEW:
        cc.renew(s, t, u, arg)
    elif k == K_WITHDRAW:
        cc.leave(s, t, u)                                # 12.6: leaves as a fast action
        start_move(s, t, u, MODE_WITHDRAW, allowance(s, t, u) + 1, ACT_FAST)
    elif k == K_REVERSE:
        start_move(s, t, u, MODE_REVERSE, half_allowance(s, t, u), ACT_NORMAL)


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
def do_pass(s, t):
    """8.1: a pass; three in a row end the action phase."""
    log_event(s, EV_PASS, s.g[G_ACTIVE], NIL, NIL, NIL, NIL, NIL)
    s.g[G_PASSES] += 1
    if s.g[G_PASSES] >= 3:
        s.g[G_SUB] = SUB_ORG
    else:
        s.g[G_ACTIVE] = 1 - s.g[G_ACTIVE]


@rule
def finish_move(s, t):
    """The mover stops: move and fire now fires (9.3); otherwise the activation ends."""
    u = s.g[G_UNIT]
    log_event(s, EV_STOP, u, s.u[u, U_HEX], NIL, NIL, NIL, NIL)
    if s.g[G_MODE] == MODE_MOVEFIRE and s.u[u, U_ST] == ONMAP and s.u[u, U_MORALE] == STEADY:
        s.g[G_SUB] = SUB_AFTER_MOVE
    else:
        s.g[G_SUB] = SUB_ACT_END


@rule
def apply_step(s, t, a):
    """One hex of a move (9.0-9.5); reaction fire may follow (8.2)."""
    u = s.g[G_UNIT]
    d = a_arg(a)
    h = s.u[u, U_HEX]
    mode = s.g[G_MODE]
    k, c = step_kind(s, t, u, h, d, mode, s.g[G_MP], s.g[G_STEPS])
    g = t.side6[h, d, S6_NBR]
    if k == STEP_ENEMY:
        s.g[G_MP] -= c
        log_event(s, EV_MOVE, u, h, g, s.g[G_MP], NIL, NIL)
        cc.enter(s, t, u, g)                             # 12.0: close combat, no reaction fire
        return
    if k == STEP_OVERRUN:                                # 9.10.3: the gun's last shot first
        s.g[G_MP] -= c
        c = 0
        if not ov.overrun(s, t, u, g):
            return                                       # stopped: it stays where it was
        mode = MODE_FAST                                 # a fast action from now on
    shift(s, u, g)
    push_path(s, g)
    s.g[G_STEPS] += 1
    s.g[G_TURNED] = 0
    s.g[G_FACES] = 1 << s.u[u, U_FACE]
    if k == STEP_HARSH:                                  # 9.5
        s.g[G_MP] = 0
        s.u[u, U_ACT] = ACT_DELAYED
    else:
        s.g[G_MP] -= c
    log_event(s, EV_MOVE, u, h, g, s.g[G_MP], NIL, NIL)
    terrain_damage(s, t, u, g)                           # 9.10.1
    # 8.2: normal and fast actions (a reverse move is a normal action, 9.10; leaving a close
    # combat, 12.6) draw reaction fire
    if (mode == MODE_NORMAL or mode == MODE_FAST or mode == MODE_WITHDRAW or mode == MODE_REVERSE) \
            and any_reactor(s, t, u):
        s.g[G_REACT_UNIT] = u
        s.g[G_REACT_BACK] = SUB_MOVE
        s.g[G_SUB] = SUB_REACT


@rule
def apply_turn(s, t, a):
    """9.9, 9.10: the mover turns one vertex."""
    u = s.g[G_UNIT]
    nf = a_arg(a)
    h = s.u[u, U_HEX]
    cost = turn_cost(s, t, u, h, nf, s.g[G_MP])
    s.g[G_MP] -= cost
    if t.hexi[h, HI_FREEFACE] == 0:
        s.g[G_TURNED] = 1
    s.g[G_FACES] |= 1 << nf
    s.u[u, U_FACE] = nf
    log_event(s, EV_FACE, u, nf, cost, NIL, NIL, NIL)


@rule
def terrain_damage(s, t, u, g):
    """9.10.1, 9.10.2: a vehicle entering terrain with vehicle-damage dice is attacked by
    them; it defends with its strongest card die (``vehicle_terrain.terrain_pools``);
    the result is ``terrain_damage_effect`` (a crit immobilises, reading: it is not
    also a damage point)."""
    pool = t.hexi[g, HI_TDMG]
    ty = s.u[u, U_TYPE]
    if pool < 0 or t.ut[ty, UT_KIND] != VEHICLE:
        return
    dpool = t.ut[ty, UT_TDEF]
    total = sum_rolls(t.rows[pool, :t.pooli[pool, PO_N]], s.rng[0])
    if dpool >= 0:
        total += sum_rolls(t.rows[dpool, :t.pooli[dpool, PO_N]], s.rng[0])
    c, h, sp = cancel_packed(total, NIL)
    d0 = s.u[u, U_DMG]
    m0 = s.u[u, U_MORALE]
    i0 = s.u[u, U_IMMOB]
    e, d, m, i = terrain_damage_effect(t.ut[ty, UT_STR], d0, m0, i0, t.ut[ty, UT_ELITE], c, h, sp, NIL)
    if e == 0 and fallback_again(s, t, u, m0, m):        # 13.3 "ever" (option, reading S22)
        e = 1
    log_event(s, EV_TERRAIN_DAMAGE, u, e, d, m, i, c * 100 + h * 10 + sp)
    if e == 1:
        s.u[u, U_DMG] = t.ut[ty, UT_STR]
        eliminate(s, t, u)
    else:
        s.u[u, U_DMG] = d
        s.u[u, U_IMMOB] = i
        set_morale(s, u, m)
    if t.p[P_TRANSPORT] == 1:                           # 10.10.2, 10.10.3 (reading S16)
        transport_after_hit(s, t, u, g, ONMAP, c, h, sp, e, d0, m0, i0)


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


@entry
def apply_action(s, t, a):  # noqa: C901 - compiled rule, split in issue 17 item 3
    """Do action ``a`` for the deciding player, then run the game on to the next decision."""
    sub = s.g[G_SUB]
    k = a_kind(a)
    if k == K_DISEMBARK:                                 # 10.10.3: placed, may draw reaction fire
        p = a_unit(a)
        tr.emergency_place(s, t, p, a_arg(a))
        if sub == SUB_MOVE or sub == SUB_ACT_END or sub == SUB_FALLBACK:
            react_or_end(s, t, p, sub)
    elif sub == SUB_SELECT:
        apply_select(s, t, a)
    elif sub == SUB_MOVE:
        if k == K_STOP:
            finish_move(s, t)
        elif k == K_LOAD:                                # 9.11.2: loaded, the activation ends
            u = s.g[G_UNIT]
            tr.board(s, t, u, a_arg(a))
            log_event(s, EV_LOAD, u, a_arg(a), NIL, NIL, NIL, NIL)
            s.g[G_SUB] = SUB_ACT_END
        elif k == K_TURN:
            apply_turn(s, t, a)
        else:
            apply_step(s, t, a)
    elif sub == SUB_FALLBACK:
        apply_fallback_step(s, t, a)
    elif sub == SUB_REACT:
        apply_react(s, t, a)
    elif sub == SUB_AFTER_MOVE:
        u = s.g[G_UNIT]
        if k == K_TARGET:
            resolve_fire(s, t, u, a_arg(a), s.u[u, U_HEX], FS_MOVE, FALSE)
        s.g[G_SUB] = SUB_ACT_END
    elif sub == SUB_CC_PICK or sub == SUB_CC_WITHDRAW:
        cc.apply_cc(s, t, a)
    elif sub == SUB_PLACE:
        apply_place(s, t, a)
    elif sub == SUB_SUPPORT:
        apply_support(s, t, a)
    elif sub == SUB_SMOKE_NEXT:
        apply_smoke_hex(s, t, a)
    elif sub == SUB_PLAN:
        ty = a_arg(a)
        side = s.g[G_DECIDER]
        s.cp[side, ty, 0] += 1
        log_event(s, EV_CP, side, ty, NIL, NIL, NIL, NIL)
    elif sub == SUB_FORMATION:
        f = a_arg(a)
        if form(t, f, FO_TYPE) == FO_CLASS:
            choose_class_card(s, t, f)
        else:
            keep_formation(s, t, f)
    elif sub == SUB_SETUP_ORDER:
        s.g[G_SETUP_FIRST] = a_arg(a)
        s.g[G_PLACE_SIDE] = a_arg(a)
        s.g[G_SUB] = SUB_PLACE
    advance(s, t)


# ======================================================================================
# the support phase (6.3, chapter 7)
# ======================================================================================


@rule
def start_support_or_action(s, t):
    """After planning: the support phase when some unit has indirect fire (6.3), the
    starting player first; otherwise straight to the action phase (6.4)."""
    if t.p[P_NEED_SUPPORT] == 1:
        s.g[G_PHASE] = PH_SUPPORT
        s.g[G_SUB] = SUB_SUPPORT
        s.g[G_SUPPORT_PASSED] = 0
        for u in range(s.u.shape[0]):
            s.u[u, U_FACED] = 0
    else:
        s.g[G_PHASE] = PH_ACTION
        s.g[G_SUB] = SUB_SELECT
    s.g[G_ACTIVE] = s.g[G_FIRST]
    s.g[G_PASSES] = 0
    log_event(s, EV_PHASE, s.g[G_PHASE], NIL, NIL, NIL, NIL, NIL)


@rule
def may_support(s, t, u, side):
    """A unit that may be activated in the support phase, as a firer or a spotter (6.3,
    7.2): as in the action phase, and not in a close combat."""
    return can_activate(s, t, u, side) and s.u[u, U_CC] == CC_NONE


@rule
def may_face(s, t, u, side):
    """7.6, 6.3: an artillery unit of ``side`` may change its facing without being
    activated, once a support phase (reading S21); not in a close combat or a fallback."""
    if s.u[u, U_ST] != ONMAP or s.u[u, U_SIDE] != side or s.u[u, U_FACED] == 1:
        return False
    if t.ut[s.u[u, U_TYPE], UT_KIND] != ARTILLERY or s.u[u, U_CC] != CC_NONE:
        return False
    return s.u[u, U_MORALE] != FALLBACK


@rule
def spotted_actions(s, t, side, f, kind, target, h, scale, out, n):
    """Push ``kind`` for target ``target`` in hex ``h``: seen by the firer, or else once for
    each friendly unit that may spot for it (7.2; arg ``target + scale * (spotter + 1)``)."""
    if sp.sees(s, t, s.u[f, U_HEX], h):
        return push(out, n, action(kind, f, target))
    for w in range(s.u.shape[0]):
        if sp.may_spot(s, t, w, f) and may_support(s, t, w, side) and sp.sees(s, t, s.u[w, U_HEX], h):
            n = push(out, n, action(kind, f, target + scale * (w + 1)))
    return n


@rule
def support_actions(s, t, side, out, n):
    """6.3: turn an artillery unit (7.6), fire indirectly (7.1, 7.2), fire smoke (7.5)."""
    for u in range(s.u.shape[0]):
        if may_face(s, t, u, side):
            for f in range(6):
                if f != s.u[u, U_FACE]:
                    n = push(out, n, action(K_ART_FACE, u, f))
        if not may_support(s, t, u, side) or not sp.fires_indirect_from(s, t, u):
            continue
        for v in range(s.u.shape[0]):
            if sp.indirect_target(s, t, u, v):
                n = spotted_actions(s, t, side, u, K_INDIRECT, v, s.u[v, U_HEX], np.int64(256), out, n)
        if sp.fires_smoke(s, t, u):
            for h in range(t.hexi.shape[0]):
                if sp.in_band(s, t, u, h):
                    n = spotted_actions(s, t, side, u, K_SMOKE, h, h, np.int64(65536), out, n)
    return n


@rule
def support_step(s, t):
    """6.3: the players take turns until both have passed; a player with nothing to do
    passes. Returns True when a decision is pending."""
    while s.g[G_SUPPORT_PASSED] != 3:
        side = s.g[G_ACTIVE]
        if s.g[G_SUPPORT_PASSED] & (1 << side) == 0:
            if support_actions(s, t, side, s.aux[AUX_PATH, :0], NIL) > 0:
                s.g[G_DECIDER] = side
                return True
            s.g[G_SUPPORT_PASSED] |= 1 << side
            log_event(s, EV_PASS, side, NIL, NIL, NIL, NIL, NIL)
        s.g[G_ACTIVE] = 1 - side
    s.g[G_PHASE] = PH_ACTION                       # 6.4: the starting player acts first
    s.g[G_SUB] = SUB_SELECT
    s.g[G_ACTIVE] = s.g[G_FIRST]
    s.g[G_PASSES] = 0
    log_event(s, EV_PHASE, PH_ACTION, NIL, NIL, NIL, NIL, NIL)
    return False


@rule
def activate_support(s, t, u, kind, arg, spotter):
    """7.0, 7.2: the firer is activated and marked firing; a spotter is activated with a
    normal action marker (each with a command point when that rule is on)."""
    s.u[u, U_DONE] = 1
    s.u[u, U_ACT] = ACT_FIRING
    spend_cp(s, t, u)
    s.g[G_ACTIVATIONS] += 1
    log_event(s, EV_ACTIVATE, s.u[u, U_SIDE], u, kind, arg, NIL, NIL)
    if spotter >= 0:
        s.u[spotter, U_DONE] = 1
        s.u[spotter, U_ACT] = ACT_NORMAL
        spend_cp(s, t, spotter)
        log_event(s, EV_SPOTTER, spotter, u, NIL, NIL, NIL, NIL)


@rule
def apply_support(s, t, a):
    k = a_kind(a)
    u = a_unit(a)
    arg = a_arg(a)
    side = s.g[G_ACTIVE]
    if k == K_PASS:                                    # 6.3: no more support actions this turn
        s.g[G_SUPPORT_PASSED] |= 1 << side
        log_event(s, EV_PASS, side, NIL, NIL, NIL, NIL, NIL)
    elif k == K_ART_FACE:                              # 7.6: not an activation
        s.u[u, U_FACE] = arg
        s.u[u, U_FACED] = 1
        log_event(s, EV_ART_FACE, u, arg, NIL, NIL, NIL, NIL)
    elif k == K_INDIRECT:
        v = arg % 256
        w = arg // 256 - 1
        activate_support(s, t, u, k, v, w)
        sp.resolve_indirect(s, t, u, v, w)
    elif k == K_SMOKE:
        h = arg % 65536
        w = arg // 65536 - 1
        activate_support(s, t, u, k, h, w)
        s.g[G_SMK_UNIT] = u
        s.g[G_SMK_K] = 1
        s.g[G_SMK_H0] = h
        s.g[G_SMK_H1] = -1
        s.g[G_SMK_SEER] = sp.seer_hex(s, t, u, w)
        s.g[G_SMK_MASK] = sp.roll_smoke(s, t, u, h, sp.all_dice(s, t, u))
        if s.g[G_SMK_MASK] != 0 and smoke_hex_actions(s, t, s.aux[AUX_PATH, :0], NIL) > 0:
            s.g[G_SUB] = SUB_SMOKE_NEXT
            return
    s.g[G_ACTIVE] = 1 - side


@rule
def smoke_hex_actions(s, t, out, n):
    """7.5: a hex adjacent to the target hex, not smoked yet by this action, seen by the
    firer or its spotter (reading S21)."""
    h0 = s.g[G_SMK_H0]
    for d in range(6):
        g = t.side6[h0, d, _NBR]
        if g >= 0 and g != s.g[G_SMK_H1] and sp.sees(s, t, s.g[G_SMK_SEER], g) \
                and sp.in_band(s, t, s.g[G_SMK_UNIT], g):          # 10.0, 7.5: in range too
            n = push(out, n, action(K_SMOKE_HEX, s.g[G_SMK_UNIT], g))
    return n


@rule
def apply_smoke_hex(s, t, a):
    u = s.g[G_SMK_UNIT]
    if a_kind(a) == K_SMOKE_HEX:
        g = a_arg(a)
        s.g[G_SMK_MASK] = sp.roll_smoke(s, t, u, g, s.g[G_SMK_MASK])
        s.g[G_SMK_K] += 1
        if s.g[G_SMK_H1] < 0:
            s.g[G_SMK_H1] = g
        if s.g[G_SMK_MASK] != 0 and s.g[G_SMK_K] < sp.SMOKE_HEXES \
                and smoke_hex_actions(s, t, s.aux[AUX_PATH, :0], NIL) > 0:
            return
    s.g[G_SUB] = SUB_SUPPORT
    s.g[G_ACTIVE] = 1 - s.u[u, U_SIDE]


# ======================================================================================
# automatic steps
# ======================================================================================


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
    if s.u[v, U_CC] != CC_NONE:
        cc.leave(s, t, v)
    s.g[G_FALLBACKS] += 1
    s.g[G_FB_UNIT] = v
    s.g[G_FB_MP] = allowance(s, t, v) + 1
    s.g[G_FB_STEPS] = 0
    s.g[G_FB_PATHN] = 0
    push_fbpath(s, s.u[v, U_HEX])
    s.g[G_FB_ORIGIN] = s.g[G_SUB]
    s.g[G_SUB] = SUB_FALLBACK
    log_event(s, EV_FALLBACK, v, s.u[v, U_HEX], NIL, NIL, NIL, NIL)


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
def end_activation(s, t):
    u = s.g[G_UNIT]
    if u >= 0:
        settle(s, t, u, AUX_PATH, s.g[G_PATHN])
    s.g[G_UNIT] = -1
    s.g[G_ACTIVE] = 1 - s.g[G_ACTIVE]
    s.g[G_SUB] = SUB_SELECT


@rule
def turn_start(s, t):
    """6.1 initiative, then planning (6.2.2) or straight to the action phase (6.4)."""
    s.g[G_TURN] += 1
    log_event(s, EV_TURN, s.g[G_TURN], NIL, NIL, NIL, NIL, NIL)
    if t.p[P_INITIATIVE] >= 0:
        first = t.p[P_INITIATIVE]
    else:
        first = roll_off(s)
    s.g[G_FIRST] = first
    if s.g[G_TURN] == 1:
        s.g[G_FIRST1] = first
    log_event(s, EV_INITIATIVE, first, NIL, NIL, NIL, NIL, NIL)
    s.g[G_PASSES] = 0
    s.g[G_ACTIVE] = first
    if t.p[P_CP_RULE] == 1:
        s.g[G_PHASE] = PH_PLANNING
        s.cp[:, :, :] = 0
        s.g[G_STAGE] = 0
        s.g[G_SUB] = SUB_PLAN
        log_event(s, EV_PHASE, s.g[G_PHASE], NIL, NIL, NIL, NIL, NIL)
    else:
        start_support_or_action(s, t)


@rule
def plan_step(s, t):
    """6.2.2: the starting player, then the other, assign all their command points.
    Returns True when a decision is pending."""
    while s.g[G_STAGE] < 2:
        side = s.g[G_FIRST] if s.g[G_STAGE] == 0 else 1 - s.g[G_FIRST]
        assigned = 0
        room = 0
        for ty in range(t.ut.shape[0]):
            assigned += s.cp[side, ty, 0]
            room += max(0, units_of_type(s, side, ty) - s.cp[side, ty, 0])
        if assigned < cp_available(s, t, side) and room > 0:
            s.g[G_DECIDER] = side
            return True
        s.g[G_STAGE] += 1
    start_support_or_action(s, t)
    return False


@rule
def capture_objectives(s, t):
    """9.7, 6.5: an objective goes to the side with a unit in it at the end of the turn,
    not in fallback nor in close combat; an empty objective keeps its side."""
    for k in range(t.p[P_N_OBJ]):
        h = obj(t, k, OB_HEX)
        holder = -1
        for side in range(2):
            if occ(s, h, 1 - side) > 0:
                continue
            for u in range(s.u.shape[0]):
                if s.u[u, U_ST] == ONMAP and s.u[u, U_HEX] == h and s.u[u, U_SIDE] == side \
                        and s.u[u, U_MORALE] != FALLBACK and s.u[u, U_CC] == CC_NONE:
                    holder = side
        if holder >= 0 and s.aux[AUX_OBJ, k] != holder:
            s.aux[AUX_OBJ, k] = holder
            log_event(s, EV_OBJECTIVE, k, holder, NIL, NIL, NIL, NIL)


@rule
def odd_objectives(s, t):
    """The invariant behind 9.7 and 6.5, counted for the checks (issue 16): objectives
    that only one side's units stand on, one of them not falling back, yet not that side's."""
    n = 0
    for k in range(t.p[P_N_OBJ]):
        h = obj(t, k, OB_HEX)
        sides = 0
        steady = False
        for u in range(s.u.shape[0]):
            if s.u[u, U_ST] == ONMAP and s.u[u, U_HEX] == h:
                sides |= 1 << s.u[u, U_SIDE]
                if s.u[u, U_MORALE] != FALLBACK:
                    steady = True
        if (sides == 1 or sides == 2) and steady and s.aux[AUX_OBJ, k] != sides - 1:
            n += 1
    return n


@rule
def eliminated_count(s, side):
    n = 0
    for u in range(s.u.shape[0]):
        if s.u[u, U_SIDE] == side and s.u[u, U_ST] == ELIMINATED:
            n += 1
    return n


@rule
def meets_victory(s, t, side):
    """3.1: a side wins by meeting all its conditions (objectives held, units eliminated)."""
    if vic(t, side, V_ANY) == 0:
        return False
    held = 0
    points = 0
    mask = 0
    for k in range(t.p[P_N_OBJ]):
        if s.aux[AUX_OBJ, k] == side:
            held += 1
            points += obj(t, k, OB_VALUE)
            mask |= 1 << k
    if (mask & vic(t, side, V_HOLD_MASK)) != vic(t, side, V_HOLD_MASK):
        return False
    if held < vic(t, side, V_HOLD_COUNT) or points < vic(t, side, V_POINTS):
        return False
    return eliminated_count(s, 1 - side) >= vic(t, side, V_ELIM)


@rule
def outcome_now(s, t):
    """The result if the game ended now: ``(winner, reason)``, winner -1 for a draw."""
    w0 = meets_victory(s, t, np.int64(0))
    w1 = meets_victory(s, t, np.int64(1))
    if w0 != w1:
        w = 0 if w0 else 1
        by_objectives = vic(t, w, V_HOLD_MASK) or vic(t, w, V_HOLD_COUNT) or vic(t, w, V_POINTS)
        return w, R_OBJECTIVES if by_objectives else R_ELIMINATION
    if w0 and w1:
        return -1, R_DRAW
    if t.p[P_IF_NEITHER] >= 0:
        return t.p[P_IF_NEITHER], R_TURN_LIMIT
    return -1, R_DRAW


@rule
def end_game(s, winner, reason):
    s.g[G_WINNER] = winner
    s.g[G_REASON] = reason
    s.g[G_OVER] = 1
    s.g[G_PHASE] = PH_OVER
    s.g[G_SUB] = SUB_END
    s.g[G_DECIDER] = -1
    log_event(s, EV_VICTORY, winner, reason, NIL, NIL, NIL, NIL)


@rule
def organisation(s, t):
    """6.5 organisation, 6.6 victory check, 6.7 reinforcements."""
    s.g[G_PHASE] = PH_ORGANISATION
    log_event(s, EV_PHASE, PH_ORGANISATION, NIL, NIL, NIL, NIL, NIL)
    capture_objectives(s, t)
    s.g[G_ODD_OBJ] += odd_objectives(s, t)
    for u in range(s.u.shape[0]):
        st = s.u[u, U_ST]
        if st != ONMAP and st != CARRIED:
            continue
        act = s.u[u, U_ACT]
        steady = s.u[u, U_MORALE] == STEADY
        s.u[u, U_TIRED] = 1 if (act == ACT_FAST and steady) else 0          # 13.1 attack die -1, 9.2
        s.u[u, U_HELD] = 1 if (act == ACT_DELAYED and steady) else 0        # 9.5: flipped to normal
        if act == ACT_DIGGING and steady and st == ONMAP:                    # 9.8.1: dug in next turn
            s.hx[s.u[u, U_HEX], HX_DUG] = 1
        s.u[u, U_ACT] = ACT_NORMAL if s.u[u, U_HELD] == 1 else ACT_NONE
        s.u[u, U_MORALE] = STEADY                                           # reading: morale markers go
        s.u[u, U_DONE] = s.u[u, U_HELD]
        if s.u[u, U_CC] == CC_ACTIVE:                                        # 12.3, 13.1
            s.u[u, U_CC] = CC_INACTIVE
    for h in range(s.hx.shape[0]):                                           # 6.5
        s.hx[h, HX_SMOKE] = max(0, s.hx[h, HX_SMOKE] - t.p[P_SMOKE_DECAY])
    turn = s.g[G_TURN]
    winner, reason = outcome_now(s, t)
    if turn == 1 or winner != s.g[G_PROV]:
        s.g[G_DECIDED_TURN] = turn
    s.g[G_PROV] = winner
    if turn >= t.p[P_TURNS]:                                                 # 6.6: the last turn
        end_game(s, winner, reason)
        return
    if t.p[P_SUDDEN] == 1:                                                   # 6.6: victory before the end
        w0 = meets_victory(s, t, np.int64(0)) and vic(t, np.int64(0), V_SUDDEN) == 1
        w1 = meets_victory(s, t, np.int64(1)) and vic(t, np.int64(1), V_SUDDEN) == 1
        if w0 != w1:
            end_game(s, 0 if w0 else 1, R_SUDDEN_DEATH)
            return
    reinforce(s, t)


@rule
def reinforce(s, t):
    """6.7, 5.7: units due at the end of this turn come on through their entry hexes; a
    reinforcement with a roll arrives only on a d6 of at least that number (reading)."""
    turn = s.g[G_TURN]
    any_placed = False
    for u in range(s.u.shape[0]):
        if s.u[u, U_ST] != PENDING or s.u[u, U_ARRIVE] != turn:
            continue
        need = slot(t, u, SL_ROLL)
        if need > 0:
            group = slot(t, u, SL_GROUP)
            ok = roll_d6(s) >= need
            for v in range(s.u.shape[0]):          # one roll for the whole group
                if s.u[v, U_ST] == PENDING and s.u[v, U_ARRIVE] == turn and slot(t, v, SL_GROUP) == group:
                    if not ok:
                        s.u[v, U_ST] = ABSENT
                    elif slot(t, v, SL_CARRIER) < 0:    # passengers wait for their vehicle (9.11)
                        s.u[v, U_ST] = TO_PLACE
                        s.u[v, U_ZONE] = slot(t, v, SL_ENTRY)
        elif slot(t, u, SL_CARRIER) < 0:
            s.u[u, U_ST] = TO_PLACE
            s.u[u, U_ZONE] = slot(t, u, SL_ENTRY)
    for f in range(t.p[P_N_FORMS]):               # 6.7: their formation cards' command points
        if s.aux[AUX_FST, f] == 4 and arrives_now(s, f, turn):
            s.g[G_CP0 + form(t, f, FO_SIDE)] += form(t, f, FO_CP)
            s.aux[AUX_FST, f] = 2
    for u in range(s.u.shape[0]):
        if s.u[u, U_ST] == TO_PLACE:
            any_placed = True
            log_event(s, EV_REINFORCE, u, NIL, NIL, NIL, NIL, NIL)
    if any_placed:
        s.g[G_STAGE] = 1
        s.g[G_PLACE_SIDE] = 0 if next_to_place(s, np.int64(0)) >= 0 else 1
        s.g[G_SUB] = SUB_PLACE
    else:
        s.g[G_SUB] = SUB_TURN_START


@rule
def arrives_now(s, f, turn):
    for u in range(s.u.shape[0]):
        if s.u[u, U_FORM] == f and s.u[u, U_ARRIVE] == turn:
            return True
    return False


@rule
def apply_place(s, t, a):
    """5.8: place a unit in a hex of its set-up (or entry) zone, facing a vertex."""
    u = a_unit(a)
    arg = a_arg(a)
    h = arg // 8
    f = arg % 8
    put(s, u, h)
    if f != NO_FACING:
        s.u[u, U_FACE] = f
    log_event(s, EV_PLACE, u, h, f, NIL, NIL, NIL)
    if t.p[P_TRANSPORT] == 1:                      # 9.11: a reinforcement's passengers come aboard
        for p in range(s.u.shape[0]):
            if s.u[p, U_ST] == PENDING and slot(t, p, SL_CARRIER) == u:
                s.u[p, U_ST] = CARRIED
                s.u[p, U_CARRIER] = u
    side = s.u[u, U_SIDE]
    other = 1 - side
    if next_to_place(s, other) >= 0:               # 5.8: the players alternate
        s.g[G_PLACE_SIDE] = other
    elif next_to_place(s, side) >= 0:
        s.g[G_PLACE_SIDE] = side
    else:
        s.g[G_SUB] = SUB_TURN_START


@rule
def place_step(s, t):
    """A placement decision is pending unless the unit has nowhere to go: a reinforcement
    with its entry hexes all taken waits for the next turn (reading)."""
    side = s.g[G_PLACE_SIDE]
    u = next_to_place(s, side)
    if u < 0:
        other = 1 - side
        if next_to_place(s, other) >= 0:
            s.g[G_PLACE_SIDE] = other
            return False
        s.g[G_SUB] = SUB_TURN_START
        return False
    if not any_place(s, t, u):
        if s.g[G_STAGE] == 1:
            s.u[u, U_ST] = PENDING
            s.u[u, U_ARRIVE] = s.g[G_TURN] + 1
        else:
            s.u[u, U_ST] = ABSENT                   # nowhere to set up: the unit stays out
            for p in range(s.u.shape[0]):           # and so do its passengers (9.11)
                if s.u[p, U_ST] == CARRIED and s.u[p, U_CARRIER] == u:
                    s.u[p, U_ST] = ABSENT
        return False
    s.g[G_DECIDER] = side
    return True


@rule
def keep_formation(s, t, f):
    """5.6: a side keeps formation card ``f`` from those it may choose among."""
    s.aux[AUX_FST, f] = 2
    side = form(t, f, FO_SIDE)
    log_event(s, EV_FORMATION, side, f, NIL, NIL, NIL, NIL)
    s.g[G_CP0 + side] += form(t, f, FO_CP)
    for u in range(s.u.shape[0]):
        if s.u[u, U_FORM] == f and s.u[u, U_ARRIVE] == 0 and s.u[u, U_ST] == ABSENT:
            s.u[u, U_ST] = TO_PLACE
            s.u[u, U_ZONE] = form(t, f, FO_ZONE)
    s.g[G_STEPS] -= 1                               # cards still to keep of this kind


@rule
def draw_cards(s, t, side, kind, k, mark):
    """Draw ``k`` cards at random from the side's deck of this kind; mark them."""
    for _ in range(k):
        n = 0
        for f in range(t.p[P_N_FORMS]):
            if form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind and s.aux[AUX_FST, f] == 0:
                n += 1
        if n == 0:
            return
        pick = below(s.rng[0], n)
        for f in range(t.p[P_N_FORMS]):
            if form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind and s.aux[AUX_FST, f] == 0:
                if pick == 0:
                    s.aux[AUX_FST, f] = mark
                    break
                pick -= 1


@rule
def formation_step(s, t):
    """5.6: the formation draws, one side and card type at a time. ``G_STAGE`` walks
    (side, kind); returns True when a side must choose a card."""
    while s.g[G_STAGE] < 6:
        side = s.g[G_STAGE] // 3
        kind = s.g[G_STAGE] % 3
        count = draw(t, side, kind, D_COUNT)
        method = draw(t, side, kind, D_METHOD)
        if s.g[G_STEPS] == -1:                      # first visit of this (side, kind)
            s.g[G_STEPS] = count
            if count > 0:
                if method == METHOD_DRAW:
                    draw_cards(s, t, side, kind, count, np.int64(1))
                    for f in range(t.p[P_N_FORMS]):
                        if s.aux[AUX_FST, f] == 1 and form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind:
                            keep_formation(s, t, f)
                elif method == METHOD_DOUBLE:
                    draw_cards(s, t, side, kind, 2 * count, np.int64(1))
                else:                                # METHOD_CHOOSE: every card may be chosen
                    for f in range(t.p[P_N_FORMS]):
                        if form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind and s.aux[AUX_FST, f] == 0:
                            s.aux[AUX_FST, f] = 1
        offered = 0
        for f in range(t.p[P_N_FORMS]):
            if s.aux[AUX_FST, f] == 1 and form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind:
                offered += 1
        if s.g[G_STEPS] > 0 and offered > 0:
            s.g[G_TARGET] = kind
            s.g[G_DECIDER] = side
            return True
        for f in range(t.p[P_N_FORMS]):              # the rest: set aside (drawn) or left in the deck
            if s.aux[AUX_FST, f] == 1 and form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind:
                s.aux[AUX_FST, f] = 3 if method == METHOD_DOUBLE else 0
        s.g[G_STAGE] += 1
        s.g[G_STEPS] = -1
    return False


@rule
def draw_reinforcement_cards(s, t):
    """5.7: each reinforcing formation is the top card of the shuffled deck of its type,
    drawn from the cards not in play."""
    n_groups = 0
    for u in range(t.p[P_N_UNITS]):
        if slot(t, u, SL_FORM) >= 0 and slot(t, u, SL_ARRIVE) > 0:
            n_groups = max(n_groups, slot(t, u, SL_GROUP) + 1)
    for grp in range(n_groups):
        side = -1
        kind = -1
        for u in range(t.p[P_N_UNITS]):
            if slot(t, u, SL_GROUP) == grp and slot(t, u, SL_FORM) >= 0 and slot(t, u, SL_ARRIVE) > 0 \
                    and form(t, slot(t, u, SL_FORM), FO_TYPE) != FO_CLASS:     # (class draws: the owner chooses, class_step)
                side = slot(t, u, SL_SIDE)
                kind = form(t, slot(t, u, SL_FORM), FO_TYPE)
                break
        if side < 0:
            continue
        n = 0
        for f in range(t.p[P_N_FORMS]):
            if form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind and s.aux[AUX_FST, f] == 0 \
                    and group_has(t, grp, f):
                n += 1
        if n == 0:
            continue
        pick = below(s.rng[0], n)
        chosen = -1
        for f in range(t.p[P_N_FORMS]):
            if form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind and s.aux[AUX_FST, f] == 0 \
                    and group_has(t, grp, f):
                if pick == 0:
                    chosen = f
                    break
                pick -= 1
        s.aux[AUX_FST, chosen] = 4
        for u in range(t.p[P_N_UNITS]):
            if slot(t, u, SL_GROUP) == grp and slot(t, u, SL_FORM) == chosen and slot(t, u, SL_ARRIVE) > 0:
                s.u[u, U_ST] = PENDING


@rule
def class_draws(t):
    """How many reinforcements of a unit class several cards match (5.7)."""
    n = 0
    for f in range(t.p[P_N_FORMS]):
        if form(t, f, FO_TYPE) == FO_CLASS:
            n = max(n, form(t, f, FO_DRAW) + 1)
    return n


@rule
def class_step(s, t):
    """5.7 (reading S17): when several cards match the class a reinforcement names, its
    owner chooses one; ``G_STAGE`` 6, 7, ... walks the draws. Returns True when a side
    must choose."""
    while s.g[G_STAGE] < 6 + class_draws(t):
        k = s.g[G_STAGE] - 6
        side = -1
        for f in range(t.p[P_N_FORMS]):
            if form(t, f, FO_TYPE) == FO_CLASS and form(t, f, FO_DRAW) == k:
                side = form(t, f, FO_SIDE)
                if s.g[G_STEPS] == -1:
                    s.aux[AUX_FST, f] = 1                # offered
        if s.g[G_STEPS] == -1:
            s.g[G_STEPS] = 1
        if s.g[G_STEPS] > 0:
            s.g[G_TARGET] = FO_CLASS
            s.g[G_DECIDER] = side
            return True
        for f in range(t.p[P_N_FORMS]):              # the cards not chosen never arrive
            if form(t, f, FO_TYPE) == FO_CLASS and s.aux[AUX_FST, f] == 1:
                s.aux[AUX_FST, f] = 0
        s.g[G_STAGE] += 1
        s.g[G_STEPS] = -1
    return False


@rule
def choose_class_card(s, t, f):
    """The owner's choice among the matching cards: its units arrive as the reinforcement
    (like a reinforcing formation card, 6.7), the others never do."""
    s.aux[AUX_FST, f] = 4
    log_event(s, EV_CLASS_DRAW, form(t, f, FO_SIDE), f, NIL, NIL, NIL, NIL)
    for u in range(t.p[P_N_UNITS]):
        if slot(t, u, SL_FORM) == f:
            s.u[u, U_ST] = PENDING
    s.g[G_STEPS] -= 1


@rule
def group_has(t, grp, f):
    for u in range(t.p[P_N_UNITS]):
        if slot(t, u, SL_GROUP) == grp and slot(t, u, SL_FORM) == f and slot(t, u, SL_ARRIVE) > 0:
            return True
    return False


@rule
def setup_done(s, t):
    """After the formation draws: reinforcement cards, then who sets up first (5.8)."""
    draw_reinforcement_cards(s, t)
    s.g[G_STAGE] = 0
    for k in range(t.p[P_N_OBJ]):                    # 5.5: objectives in a set-up area
        s.aux[AUX_OBJ, k] = obj(t, k, OB_START)
    if t.p[P_SETUP_FIRST] >= 0:
        s.g[G_SETUP_FIRST] = t.p[P_SETUP_FIRST]
        s.g[G_PLACE_SIDE] = t.p[P_SETUP_FIRST]
        s.g[G_SUB] = SUB_PLACE
    else:
        s.g[G_TARGET] = roll_off(s)                 # the winner decides who sets up first
        s.g[G_SUB] = SUB_SETUP_ORDER


@entry
def new_game(s, t):
    """Put the slots of the scenario in the state and start the set-up (chapter 5)."""
    n = t.p[P_N_UNITS]
    for u in range(n):
        sl = t.meta[u]
        s.u[u, :] = 0
        s.u[u, U_SIDE] = sl[SL_SIDE]
        s.u[u, U_TYPE] = sl[SL_TYPE]
        s.u[u, U_FACE] = max(0, sl[SL_FACE])
        s.u[u, U_ARRIVE] = sl[SL_ARRIVE]
        s.u[u, U_FORM] = sl[SL_FORM]
        s.u[u, U_ZONE] = sl[SL_ZONE]
        s.u[u, U_CARRIER] = -1
        s.u[u, U_HEX] = -1
        if sl[SL_ARRIVE] > 0:
            s.u[u, U_ST] = PENDING if sl[SL_FORM] < 0 else ABSENT
        elif sl[SL_FORM] >= 0:
            s.u[u, U_ST] = ABSENT                   # until its formation card is drawn (5.6)
        elif sl[SL_CARRIER] >= 0:
            s.u[u, U_ST] = CARRIED
            s.u[u, U_CARRIER] = sl[SL_CARRIER]
        elif sl[SL_HEX] >= 0:
            s.u[u, U_HEX] = sl[SL_HEX]
            s.u[u, U_ST] = ONMAP
        else:
            s.u[u, U_ST] = TO_PLACE
    log_on = s.g[G_LOG_ON]
    s.g[:] = 0
    s.g[G_LOG_ON] = log_on
    s.g[G_UNIT] = -1
    s.g[G_FB_UNIT] = -1
    s.g[G_REACT_UNIT] = -1
    s.g[G_TARGET] = -1
    s.g[G_PHASE] = PH_SETUP
    s.g[G_STAGE] = 0
    s.g[G_STEPS] = -1
    s.g[G_SUB] = SUB_FORMATION
    s.g[G_CP0] = t.p[P_BASE_CP0]
    s.g[G_CP0 + 1] = t.p[P_BASE_CP0 + 1]
    s.aux[AUX_OBJ, :] = -1
    s.aux[AUX_FST, :] = 0
    s.hx[:, :] = 0
    s.cp[:, :, :] = 0
    for u in range(n):
        if s.u[u, U_ST] == ONMAP:
            s.hx[s.u[u, U_HEX], HX_OCC + s.u[u, U_SIDE]] += 1
    advance(s, t)


@entry
def advance(s, t):  # noqa: C901 - compiled rule, split in issue 17 item 3
    """Run the automatic steps until a player must decide or the game is over."""
    while True:
        g = s.g
        if g[G_OVER] == 1:
            g[G_DECIDER] = -1
            return
        if g[G_EMERG] > 0 and tr.emergency_now(s):     # 10.10.3: before anything else
            if tr.emergency_step(s, t):
                return
            continue
        if g[G_QN] > 0 and g[G_FB_UNIT] < 0 and g[G_SUB] != SUB_REACT:   # (after a pending reaction)
            start_fallback(s, t)
            continue
        sub = g[G_SUB]
        if g[G_CC_PEND] > 0 and g[G_FB_UNIT] < 0 and sub != SUB_CC_PICK and sub != SUB_CC_WITHDRAW \
                and sub != SUB_REACT:
            cc.start_overstack(s, t)
            continue
        if sub == SUB_SELECT:
            if has_activation(s, t, g[G_ACTIVE]):
                g[G_DECIDER] = g[G_ACTIVE]
                return
            do_pass(s, t)
        elif sub == SUB_MOVE:
            u = g[G_UNIT]
            if s.u[u, U_ST] != ONMAP or (s.u[u, U_MORALE] != STEADY
                                          and not (g[G_MODE] == MODE_WITHDRAW and s.u[u, U_MORALE] == SUPPRESSED)):
                g[G_SUB] = SUB_ACT_END                   # (a suppressed unit still withdraws, 12.1.6.1)
            elif not any_step(s, t, u, s.u[u, U_HEX], g[G_MODE], g[G_MP], g[G_STEPS]) \
                    and not can_turn(s, t, u, s.u[u, U_HEX], g[G_MP]) and loader_here(s, t, u) < 0:
                finish_move(s, t)
            else:
                g[G_DECIDER] = s.u[u, U_SIDE]
                return
        elif sub == SUB_FALLBACK:
            v = g[G_FB_UNIT]
            if s.u[v, U_ST] != ONMAP or not any_step(s, t, v, s.u[v, U_HEX], MODE_FALLBACK, g[G_FB_MP],
                                                      g[G_FB_STEPS]):
                end_fallback(s, t)
            else:
                g[G_DECIDER] = s.u[v, U_SIDE]
                return
        elif sub == SUB_REACT:
            g[G_DECIDER] = 1 - s.u[g[G_REACT_UNIT], U_SIDE]
            return
        elif sub == SUB_AFTER_MOVE:
            u = g[G_UNIT]
            found = False
            for v in range(s.u.shape[0]):
                if can_target(s, t, u, v, s.u[u, U_HEX], FS_MOVE):
                    found = True
                    break
            if found:
                g[G_DECIDER] = s.u[u, U_SIDE]
                return
            g[G_SUB] = SUB_ACT_END
        elif sub == SUB_ACT_END:
            end_activation(s, t)
        elif sub == SUB_CC_PICK or sub == SUB_CC_WITHDRAW:
            if cc.cc_pending(s, t):
                return
        elif sub == SUB_ORG:
            organisation(s, t)
        elif sub == SUB_TURN_START:
            turn_start(s, t)
        elif sub == SUB_PLAN:
            if plan_step(s, t):
                return
        elif sub == SUB_SUPPORT:
            if support_step(s, t):
                return
        elif sub == SUB_SMOKE_NEXT:
            g[G_DECIDER] = s.u[g[G_SMK_UNIT], U_SIDE]
            return
        elif sub == SUB_PLACE:
            if place_step(s, t):
                return
        elif sub == SUB_FORMATION:
            if formation_step(s, t) or class_step(s, t):
                return
            setup_done(s, t)
        elif sub == SUB_SETUP_ORDER:
            g[G_DECIDER] = g[G_TARGET]
            return
        else:
            g[G_DECIDER] = -1
            return


int64_constants(globals())
