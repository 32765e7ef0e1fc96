"""The action phase (6.4, 8.1): activations and passes, what a unit may do when activated
(chapters 9, 10, 12) and the end of an activation."""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, push, rule, rule_inlined
from simulator.games.assault.game import closecombat as cc
from simulator.games.assault.game import intocc as icc
from simulator.games.assault.game import transport as tr
from simulator.games.assault.game.events import (
    EV_ACTIVATE,
    EV_PASS,
    log_event,
)
from simulator.games.assault.game.fire import (
    can_target,
    resolve_fire,
    rider_on,
)
from simulator.games.assault.game.moves import (
    any_step,
    turning_unit,
)
from simulator.games.assault.game.phases.command import has_cp, spend_cp
from simulator.games.assault.game.phases.movement import allowance, half_allowance, push_path, settle, start_move
from simulator.games.assault.game.phases.reaction import fire_status_at, react_or_end
from simulator.games.assault.game.pooltab import FS_FIRING, FS_MOVE, FS_TURRET
from simulator.games.assault.game.state import (
    ACT_DIGGING,
    ACT_FAST,
    ACT_FIREMOVE,
    ACT_FIRING,
    ACT_MOVEFIRE,
    ACT_NORMAL,
    ACT_TURRET,
    ARTILLERY,
    AUX_PATH,
    CC_ACTIVE,
    CC_INACTIVE,
    FALSE,
    G_ACTIVATIONS,
    G_ACTIVE,
    G_DECIDER,
    G_PASSES,
    G_PATHN,
    G_STEPS,
    G_SUB,
    G_UNIT,
    HX_DUG,
    INFANTRY,
    K_DIG,
    K_DISMOUNT,
    K_FAST,
    K_FIRE,
    K_FIREMOVE,
    K_MOVE,
    K_MOVEFIRE,
    K_NOFIRE,
    K_PASS,
    K_RENEW,
    K_REVERSE,
    K_TARGET,
    K_TURRET,
    K_WITHDRAW,
    MODE_FAST,
    MODE_FIREMOVE,
    MODE_MOVEFIRE,
    MODE_NORMAL,
    MODE_REVERSE,
    MODE_WITHDRAW,
    NIL,
    ONMAP,
    STEADY,
    SUB_ACT_END,
    SUB_AFTER_MOVE,
    SUB_ORG,
    SUB_SELECT,
    U_ACT,
    U_CC,
    U_DONE,
    U_HELD,
    U_HEX,
    U_IMMOB,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TIRED,
    U_TYPE,
    VEHICLE,
    a_arg,
    a_kind,
    a_unit,
    action,
)
from simulator.games.assault.game.tables import (
    P_TRANSPORT,
    UT_FAST_OK,
    UT_KIND,
)


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


@rule_inlined
def fire_actions(s, t, u, v, h, kind, mp, out, n):
    """The fire actions of ``u`` at the enemy unit ``v``: fire or turret fire (10.0, 10.6),
    fire and move (9.4), fire into a close combat (10.11, reading S20); tank riders
    are targets too (10.10.1)."""
    if s.u[v, U_ST] != ONMAP and rider_on(s, t, v) < 0:
        return n
    fs = fire_status_at(s, t, u, v, h)
    if fs == FS_FIRING:
        n = push(out, n, action(K_FIRE, u, v))
    elif fs == FS_TURRET:
        n = push(out, n, action(K_TURRET, u, v))
    if kind != ARTILLERY and mp > 0 and can_target(s, t, u, v, h, FS_MOVE):
        n = push(out, n, action(K_FIREMOVE, u, v))
    if kind == INFANTRY and icc.in_close_combat(s, v):
        if icc.may_fire_into(s, t, u, v, h, FS_FIRING):
            n = push(out, n, action(K_FIRE, u, v))
        if mp > 0 and icc.may_fire_into(s, t, u, v, h, FS_MOVE):
            n = push(out, n, action(K_FIREMOVE, u, v))
    return n


@rule_inlined
def unit_actions(s, t, u, out, n):
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
        if s.u[v, U_SIDE] != s.u[u, U_SIDE]:
            n = fire_actions(s, t, u, v, h, kind, mp, out, n)
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
def do_pass(s, t):
    """8.1: a pass; three in a row end the action phase."""
    log_event(s, EV_PASS, s.g[G_ACTIVE], NIL, NIL, NIL, NIL, NIL)
    s.g[G_PASSES] += 1
    if s.g[G_PASSES] >= 3:
        s.g[G_SUB] = SUB_ORG
    else:
        s.g[G_ACTIVE] = 1 - s.g[G_ACTIVE]


@rule
def end_activation(s, t):
    u = s.g[G_UNIT]
    if u >= 0:
        settle(s, t, u, AUX_PATH, s.g[G_PATHN])
    s.g[G_UNIT] = -1
    s.g[G_ACTIVE] = 1 - s.g[G_ACTIVE]
    s.g[G_SUB] = SUB_SELECT


int64_constants(globals())


@rule_inlined
def select_actions(s, t, out):
    """6.4, 8.1: pass, or activate a unit of the active side (or dismount, 9.11.3)."""
    n = push(out, NIL, action(K_PASS, 0, 0))
    side = s.g[G_ACTIVE]
    for u in range(s.u.shape[0]):
        if can_activate(s, t, u, side):
            n = unit_actions(s, t, u, out, n)
        elif t.p[P_TRANSPORT] == 1 and tr.can_dismount(s, t, u, side) and has_cp(s, t, u):
            n = tr.dismount_actions(s, t, u, out, n)          # 9.11.3
    return n


@rule_inlined
def select_step(s, t):
    """The active side decides when it has a unit to activate; otherwise it passes.
    Returns True when a decision is pending."""
    if has_activation(s, t, s.g[G_ACTIVE]):
        s.g[G_DECIDER] = s.g[G_ACTIVE]
        return True
    do_pass(s, t)
    return False


@rule_inlined
def after_move_actions(s, t, out):
    """9.3: a unit that moved and fires names its target, or does not fire."""
    u = s.g[G_UNIT]
    n = push(out, NIL, action(K_NOFIRE, u, 0))
    for v in range(s.u.shape[0]):
        if can_target(s, t, u, v, s.u[u, U_HEX], FS_MOVE):
            n = push(out, n, action(K_TARGET, u, v))
    return n


@rule_inlined
def after_move_step(s, t):
    """9.3: the mover fires after its move when it has a target; otherwise the activation
    ends. Returns True when a decision is pending."""
    u = s.g[G_UNIT]
    for v in range(s.u.shape[0]):
        if can_target(s, t, u, v, s.u[u, U_HEX], FS_MOVE):
            s.g[G_DECIDER] = s.u[u, U_SIDE]
            return True
    s.g[G_SUB] = SUB_ACT_END
    return False


@rule_inlined
def apply_after_move(s, t, a):
    u = s.g[G_UNIT]
    if a_kind(a) == K_TARGET:
        resolve_fire(s, t, u, a_arg(a), s.u[u, U_HEX], FS_MOVE, FALSE)
    s.g[G_SUB] = SUB_ACT_END


@rule_inlined
def action_step(s, t, sub):
    """The action phase's own automatic steps: a unit to activate or a pass, the fire
    after a move, the end of an activation. Returns True when a decision is pending."""
    if sub == SUB_SELECT:
        return select_step(s, t)
    if sub == SUB_AFTER_MOVE:
        return after_move_step(s, t)
    end_activation(s, t)
    return False
