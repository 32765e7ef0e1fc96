"""The planning phase (6.2.2): both players assign their command points to unit cards."""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, push, rule, rule_inlined
from simulator.games.assault.game.events import EV_CP, log_event
from simulator.games.assault.game.phases.command import cp_available, units_of_type
from simulator.games.assault.game.phases.support import start_support_or_action
from simulator.games.assault.game.state import G_DECIDER, G_FIRST, G_STAGE, K_CP, NIL, a_arg, action


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


int64_constants(globals())


@rule_inlined
def plan_actions(s, t, out):
    """6.2.2: one more command point on a unit card with units left to command."""
    side = s.g[G_DECIDER]
    n = NIL
    for ty in range(t.ut.shape[0]):
        if s.cp[side, ty, 0] < units_of_type(s, side, ty):
            n = push(out, n, action(K_CP, 0, ty))
    return n


@rule_inlined
def apply_plan(s, t, a):
    ty = a_arg(a)
    side = s.g[G_DECIDER]
    s.cp[side, ty, 0] += 1
    log_event(s, EV_CP, side, ty, NIL, NIL, NIL, NIL)
