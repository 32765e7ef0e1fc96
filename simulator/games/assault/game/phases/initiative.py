"""The start of a turn: the initiative roll-off (6.1), then planning or the next phase; the d6 roll-offs
of set-up (5.8) use the same roll."""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule
from simulator.games.assault.game.events import (
    EV_INITIATIVE,
    EV_PHASE,
    EV_TURN,
    log_event,
)
from simulator.games.assault.game.phases.support import start_support_or_action
from simulator.games.assault.game.state import (
    G_ACTIVE,
    G_FIRST,
    G_FIRST1,
    G_PASSES,
    G_PHASE,
    G_STAGE,
    G_SUB,
    G_TURN,
    NIL,
    PH_PLANNING,
    SUB_PLAN,
)
from simulator.games.assault.game.tables import (
    P_CP_RULE,
    P_INITIATIVE,
)
from simulator.run.rng import below


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


int64_constants(globals())
