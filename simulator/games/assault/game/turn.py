"""The sequence of play (chapter 6): the three functions of the game API.

- :func:`advance` runs every automatic step (dice, markers, phases) until a player
  must decide or the game is over; ``g[G_DECIDER]`` then names who decides;
- :func:`legal_actions` lists what that player may do;
- :func:`apply_action` does it, then calls :func:`advance`;
- :func:`new_game` puts a scenario's units in a state and starts the set-up.

They dispatch by the pending decision (``g[G_SUB]``) to the phase modules of
:mod:`simulator.games.assault.game.phases`, which hold the rules: set-up (chapter 5), initiative
(6.1), planning (6.2.2), support (6.3, chapter 7), the action phase with movement,
reaction fire and fallbacks (6.4, chapters 8, 9, 13), organisation, victory and
reinforcements (6.5-6.7). Close combat is :mod:`simulator.games.assault.game.closecombat`, transport
:mod:`simulator.games.assault.game.transport` (emergency disembarks come before anything else,
10.10.3), overruns :mod:`simulator.games.assault.game.overrun`.
"""

from __future__ import annotations

from simulator.engine.core.compiling import entry, int64_constants, rule_inlined
from simulator.games.assault.game import closecombat as cc
from simulator.games.assault.game import transport as tr
from simulator.games.assault.game.phases.action import (
    action_step,
    after_move_actions,
    apply_after_move,
    apply_select,
    select_actions,
)
from simulator.games.assault.game.phases.fallback import (
    apply_fallback_step,
    fallback_actions,
    fallback_step,
    start_fallback,
)
from simulator.games.assault.game.phases.initiative import turn_start
from simulator.games.assault.game.phases.movement import (
    apply_move,
    move_actions,
    move_step,
    settle,
)
from simulator.games.assault.game.phases.organisation import (
    organisation,
)
from simulator.games.assault.game.phases.planning import apply_plan, plan_actions, plan_step
from simulator.games.assault.game.phases.reaction import (
    apply_react,
    react_actions,
    react_or_end,
    react_step,
)
from simulator.games.assault.game.phases.setup import (
    apply_formation,
    apply_place,
    apply_setup_order,
    formation_actions,
    formation_phase_step,
    place_step,
    placement_actions,
    setup_order_actions,
    setup_order_step,
)
from simulator.games.assault.game.phases.support import (
    apply_smoke_hex,
    apply_support,
    next_smoke_actions,
    next_smoke_step,
    support_phase_actions,
    support_step,
)
from simulator.games.assault.game.state import (
    ABSENT,
    AUX_FST,
    AUX_OBJ,
    AUX_OBJT,
    AUX_PATH,
    CARRIED,
    G_CC_PEND,
    G_CP0,
    G_DECIDER,
    G_EMERG,
    G_FB_UNIT,
    G_LOG_ON,
    G_OVER,
    G_PATHN,
    G_PHASE,
    G_QN,
    G_REACT_UNIT,
    G_STAGE,
    G_STEPS,
    G_SUB,
    G_TARGET,
    G_UNIT,
    HX_LOST,
    HX_OCC,
    K_DISEMBARK,
    ONMAP,
    PENDING,
    PH_SETUP,
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
    TO_PLACE,
    U_ARRIVE,
    U_CARRIER,
    U_FACE,
    U_FORM,
    U_HEX,
    U_SIDE,
    U_ST,
    U_TYPE,
    U_ZONE,
    a_arg,
    a_kind,
    a_unit,
)
from simulator.games.assault.game.tables import (
    P_BASE_CP0,
    P_N_UNITS,
    SL_ARRIVE,
    SL_CARRIER,
    SL_FACE,
    SL_FORM,
    SL_HEX,
    SL_SIDE,
    SL_TYPE,
    SL_ZONE,
)

MAX_ACTIONS = 4096


@entry
def legal_actions(s, t, out):
    """Fill ``out`` with the actions the deciding player may take; return how many."""
    sub = s.g[G_SUB]
    if s.g[G_OVER] == 1:
        return 0
    if s.g[G_EMERG] > 0 and tr.emergency_now(s):                # 10.10.3
        return tr.emergency_actions(s, t, out)
    if sub == SUB_SELECT:
        return select_actions(s, t, out)
    if sub == SUB_MOVE:
        return move_actions(s, t, out)
    if sub == SUB_FALLBACK:
        return fallback_actions(s, t, out)
    if sub == SUB_REACT:
        return react_actions(s, t, out)
    if sub == SUB_AFTER_MOVE:
        return after_move_actions(s, t, out)
    if sub == SUB_CC_PICK or sub == SUB_CC_WITHDRAW:
        return cc.cc_actions(s, t, out)
    if sub == SUB_PLACE:
        return placement_actions(s, t, out)
    if sub == SUB_SUPPORT:
        return support_phase_actions(s, t, out)
    if sub == SUB_SMOKE_NEXT:
        return next_smoke_actions(s, t, out)
    if sub == SUB_PLAN:
        return plan_actions(s, t, out)
    if sub == SUB_FORMATION:
        return formation_actions(s, t, out)
    if sub == SUB_SETUP_ORDER:
        return setup_order_actions(s, t, out)
    return 0


@entry
def apply_action(s, t, a):
    """Do action ``a`` for the deciding player, then run the game on to the next decision."""
    sub = s.g[G_SUB]
    if a_kind(a) == K_DISEMBARK:                         # 10.10.3: placed, may draw reaction fire
        p = a_unit(a)
        tr.emergency_place(s, t, p, a_arg(a))
        if sub == SUB_MOVE or sub == SUB_ACT_END or sub == SUB_FALLBACK:
            react_or_end(s, t, p, sub)
    elif sub == SUB_SELECT:
        apply_select(s, t, a)
    elif sub == SUB_MOVE:
        apply_move(s, t, a)
    elif sub == SUB_FALLBACK:
        apply_fallback_step(s, t, a)
    elif sub == SUB_REACT:
        apply_react(s, t, a)
    elif sub == SUB_AFTER_MOVE:
        apply_after_move(s, t, a)
    elif sub == SUB_CC_PICK or sub == SUB_CC_WITHDRAW:
        cc.apply_cc(s, t, a)
    elif sub == SUB_PLACE:
        apply_place(s, t, a)
    elif sub == SUB_SUPPORT:
        apply_support(s, t, a)
    elif sub == SUB_SMOKE_NEXT:
        apply_smoke_hex(s, t, a)
    elif sub == SUB_PLAN:
        apply_plan(s, t, a)
    elif sub == SUB_FORMATION:
        apply_formation(s, t, a)
    elif sub == SUB_SETUP_ORDER:
        apply_setup_order(s, t, a)
    advance(s, t)


@entry
def new_game(s, t):
    """Put the slots of the scenario in the state and start the set-up (chapter 5): for
    Python callers (:func:`set_up`)."""
    set_up(s, t)


@rule_inlined
def set_up(s, t):
    """:func:`new_game`, inlined (at numba's level) into the batch entries: a compiled
    layer of its own would cost LLVM a pass over the automatic steps linked beneath it."""
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
    s.aux[AUX_OBJT, :] = -1                      # no turn ended yet (objective control by turn)
    s.aux[AUX_OBJT + 1, :] = -1
    s.hx[:, :HX_LOST] = 0                         # the heat columns add up over a batch's games
    s.cp[:, :, :] = 0
    for u in range(n):
        if s.u[u, U_ST] == ONMAP:
            s.hx[s.u[u, U_HEX], HX_OCC + s.u[u, U_SIDE]] += 1
    advance(s, t)


@entry
def advance(s, t):
    """Run the automatic steps until a player must decide or the game is over."""
    while not automatic_step(s, t):
        pass


@rule_inlined
def automatic_step(s, t):
    """One automatic step; True when a player must decide (``g[G_DECIDER]``) or the game
    is over. Emergency disembarks come first (10.10.3), then queued fallbacks (13.3,
    after a pending reaction), then clearing an over-stacked close-combat hex (12.6)."""
    g = s.g
    if g[G_OVER] == 1:
        g[G_DECIDER] = -1
        return True
    if g[G_EMERG] > 0 and tr.emergency_now(s):
        if g[G_SUB] == SUB_ACT_END and g[G_UNIT] >= 0:    # rulings S4: a mover stopped on a friend's hex goes
            settle(s, t, g[G_UNIT], AUX_PATH, g[G_PATHN])   # back before its passengers get out (10.10.3)
        return tr.emergency_step(s, t)
    if g[G_QN] > 0 and g[G_FB_UNIT] < 0 and g[G_SUB] != SUB_REACT:
        start_fallback(s, t)
        return False
    sub = g[G_SUB]
    if g[G_CC_PEND] > 0 and g[G_FB_UNIT] < 0 and sub != SUB_CC_PICK and sub != SUB_CC_WITHDRAW \
            and sub != SUB_REACT:
        cc.start_overstack(s, t)
        return False
    return phase_step(s, t, sub)


@rule_inlined
def phase_step(s, t, sub):
    """The pending step of the phase in play; True when a player must decide."""
    if sub == SUB_SELECT or sub == SUB_AFTER_MOVE or sub == SUB_ACT_END:
        return action_step(s, t, sub)
    if sub == SUB_MOVE:
        return move_step(s, t)
    if sub == SUB_FALLBACK:
        return fallback_step(s, t)
    if sub == SUB_REACT:
        return react_step(s)
    if sub == SUB_CC_PICK or sub == SUB_CC_WITHDRAW:
        return cc.cc_pending(s, t)
    if sub == SUB_ORG:
        organisation(s, t)
        return False
    if sub == SUB_TURN_START:
        turn_start(s, t)
        return False
    if sub == SUB_PLAN:
        return plan_step(s, t)
    if sub == SUB_SUPPORT:
        return support_step(s, t)
    if sub == SUB_SMOKE_NEXT:
        return next_smoke_step(s)
    if sub == SUB_PLACE:
        return place_step(s, t)
    if sub == SUB_FORMATION:
        return formation_phase_step(s, t)
    if sub == SUB_SETUP_ORDER:
        return setup_order_step(s)
    s.g[G_DECIDER] = -1
    return True


int64_constants(globals())
