"""The organisation phase (6.5), the victory check (6.6) and reinforcements (6.7)."""

from __future__ import annotations

import numpy as np

from simulator.engine.core.compiling import int64_constants, rule
from simulator.games.assault.game.board import occ
from simulator.games.assault.game.events import (
    EV_OBJECTIVE,
    EV_PHASE,
    EV_REINFORCE,
    EV_VICTORY,
    log_event,
)
from simulator.games.assault.game.phases.initiative import roll_d6
from simulator.games.assault.game.phases.setup import next_to_place
from simulator.games.assault.game.state import (
    ABSENT,
    ACT_DELAYED,
    ACT_DIGGING,
    ACT_FAST,
    ACT_NONE,
    ACT_NORMAL,
    AUX_FST,
    AUX_OBJ,
    AUX_OBJT,
    CARRIED,
    CC_ACTIVE,
    CC_INACTIVE,
    CC_NONE,
    ELIMINATED,
    FALLBACK,
    G_CP0,
    G_DECIDED_TURN,
    G_DECIDER,
    G_ODD_OBJ,
    G_OVER,
    G_PHASE,
    G_PLACE_SIDE,
    G_PROV,
    G_REASON,
    G_STAGE,
    G_SUB,
    G_TURN,
    G_WINNER,
    HX_DUG,
    HX_SMOKE,
    NIL,
    ONMAP,
    PENDING,
    PH_ORGANISATION,
    PH_OVER,
    R_DRAW,
    R_ELIMINATION,
    R_OBJECTIVES,
    R_SUDDEN_DEATH,
    R_TURN_LIMIT,
    STEADY,
    SUB_END,
    SUB_PLACE,
    SUB_TURN_START,
    TO_PLACE,
    U_ACT,
    U_ARRIVE,
    U_CC,
    U_DONE,
    U_FORM,
    U_HELD,
    U_HEX,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TIRED,
    U_ZONE,
)
from simulator.games.assault.game.tables import (
    FO_CP,
    FO_SIDE,
    OB_HEX,
    OB_VALUE,
    P_IF_NEITHER,
    P_N_FORMS,
    P_N_OBJ,
    P_SMOKE_DECAY,
    P_SUDDEN,
    P_TURNS,
    SL_CARRIER,
    SL_ENTRY,
    SL_GROUP,
    SL_ROLL,
    V_ANY,
    V_ELIM,
    V_HOLD_COUNT,
    V_HOLD_MASK,
    V_POINTS,
    V_SUDDEN,
    form,
    obj,
    slot,
    vic,
)


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
    """The invariant behind 9.7 and 6.5, counted for the invariant checks: objectives
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
    record_control(s, t, turn)
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
def record_control(s, t, turn):
    """The objectives each side holds at the end of ``turn`` (9.7, after 6.5's capture), as
    bit masks in ``aux[AUX_OBJT + side, turn - 1]``: the batch's objective control by turn."""
    if turn < 1 or turn > s.aux.shape[1]:
        return
    m0 = 0
    m1 = 0
    for k in range(t.p[P_N_OBJ]):
        if s.aux[AUX_OBJ, k] == 0:
            m0 |= 1 << k
        elif s.aux[AUX_OBJ, k] == 1:
            m1 |= 1 << k
    s.aux[AUX_OBJT, turn - 1] = m0
    s.aux[AUX_OBJT + 1, turn - 1] = m1


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


int64_constants(globals())
