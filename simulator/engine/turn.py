"""The sequence of play (chapter 6): the three functions of the game API.

- :func:`advance` runs every automatic step (dice, markers, phases) until a player
  must decide or the game is over; ``g[G_DECIDER]`` then names who decides;
- :func:`legal_actions` lists what that player may do;
- :func:`apply_action` does it, then calls :func:`advance`;
- :func:`new_game` puts a scenario's units in a state and starts the set-up.

They dispatch by the pending decision (``g[G_SUB]``) to the phase modules of
:mod:`simulator.engine.phases`, which hold the rules: set-up (chapter 5), initiative
(6.1), planning (6.2.2), support (6.3, chapter 7), the action phase with movement,
reaction fire and fallbacks (6.4, chapters 8, 9, 13), organisation, victory and
reinforcements (6.5-6.7). Close combat is :mod:`simulator.engine.closecombat`, transport
:mod:`simulator.engine.transport` (emergency disembarks come before anything else,
10.10.3), overruns :mod:`simulator.engine.overrun`.
"""

from __future__ import annotations

from simulator.engine import closecombat as cc
from simulator.engine import transport as tr
from simulator.engine.board import occ
from simulator.engine.events import (
    EV_CP,
    EV_LOAD,
    log_event,
)
from simulator.engine.fire import (
    can_target,
    resolve_fire,
)
from simulator.engine.moves import (
    MODE_FALLBACK,
    STEP_NO,
    any_step,
    can_turn,
    step_kind,
    turn_cost,
)
from simulator.engine.phases.action import (
    apply_select,
    can_activate,
    do_pass,
    end_activation,
    has_activation,
    unit_actions,
)
from simulator.engine.phases.command import has_cp, units_of_type
from simulator.engine.phases.fallback import apply_fallback_step, end_fallback, start_fallback
from simulator.engine.phases.initiative import turn_start
from simulator.engine.phases.movement import (
    apply_step,
    apply_turn,
    finish_move,
    loader_here,
)
from simulator.engine.phases.organisation import (
    organisation,
)
from simulator.engine.phases.planning import plan_step
from simulator.engine.phases.reaction import (
    apply_react,
    can_react,
    react_or_end,
    rider_reactions,
)
from simulator.engine.phases.setup import (
    apply_place,
    choose_class_card,
    class_step,
    formation_step,
    keep_formation,
    next_to_place,
    place_actions,
    place_step,
    setup_done,
)
from simulator.engine.phases.support import (
    apply_smoke_hex,
    apply_support,
    smoke_hex_actions,
    support_actions,
    support_step,
)
from simulator.engine.pooltab import FS_MOVE
from simulator.engine.state import (
    ABSENT,
    AUX_FST,
    AUX_OBJ,
    CARRIED,
    FALSE,
    G_ACTIVE,
    G_CC_PEND,
    G_CP0,
    G_DECIDER,
    G_EMERG,
    G_FB_MP,
    G_FB_STEPS,
    G_FB_UNIT,
    G_LOG_ON,
    G_MODE,
    G_MP,
    G_OVER,
    G_PHASE,
    G_PLACE_SIDE,
    G_QN,
    G_REACT_UNIT,
    G_SETUP_FIRST,
    G_SMK_UNIT,
    G_STAGE,
    G_STEPS,
    G_SUB,
    G_TARGET,
    G_UNIT,
    HX_OCC,
    K_CP,
    K_DISEMBARK,
    K_FORM,
    K_LOAD,
    K_NOFIRE,
    K_NOREACT,
    K_PASS,
    K_REACT,
    K_SETUP_FIRST,
    K_SMOKE_DONE,
    K_STEP,
    K_STOP,
    K_TARGET,
    K_TURN,
    MODE_WITHDRAW,
    NIL,
    ONMAP,
    PENDING,
    PH_SETUP,
    STEADY,
    SUB_ACT_END,
    SUB_AFTER_MOVE,
    SUB_CC_PICK,
    SUB_CC_WITHDRAW,
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
    U_ARRIVE,
    U_CARRIER,
    U_FACE,
    U_FORM,
    U_HEX,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TYPE,
    U_ZONE,
    a_arg,
    a_kind,
    a_unit,
    action,
    entry,
    int64_constants,
    push,
)
from simulator.engine.tables import (
    FO_CLASS,
    FO_SIDE,
    FO_TYPE,
    P_BASE_CP0,
    P_N_FORMS,
    P_N_UNITS,
    P_TRANSPORT,
    SL_ARRIVE,
    SL_CARRIER,
    SL_FACE,
    SL_FORM,
    SL_HEX,
    SL_SIDE,
    SL_TYPE,
    SL_ZONE,
    form,
)

MAX_ACTIONS = 4096


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
