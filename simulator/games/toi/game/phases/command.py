"""The command phase and the status phase (001 Command phase; Status phase; Winning the
game), automatic except the op-fire placement, which :mod:`.setup` asks the players.

Command phase: control of objectives (a side with units alone in an objective hex takes
it; control stays until the other side takes it), command from friendly or neutral
command objectives, victory points as the scenario says (each objective's ``vp`` to the
side controlling it, every command phase: rulings T25), all command spent on the
initiative pool (strategy cards are not in the engine, so command has no other use:
rulings T25), initiative to the larger pool, a tie to the side without it.

Status phase: activation tokens removed, pinned squads recover, disrupted squads become
pinned (recover instead with an officer in the hex), units placed in op fire mode, the
round marker advances; after the last round the game is over: more VPs wins, a tie goes
to the side with the initiative (001 Winning the game). Squad transfers (4) and
reinforcements (5) follow the op-fire placement (:mod:`.setup`, :mod:`.transfer`).
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule, rule_inlined
from simulator.games.toi.game.events import EV_CONTROL, EV_INITIATIVE, EV_OVER, EV_POINTS, EV_ROUND, EV_SMOKE_GONE, log
from simulator.games.toi.game.state import (
    ABSENT,
    AUX_OBJ,
    AUX_OBJT,
    CARRIED,
    COND_DISRUPTED,
    COND_NORMAL,
    COND_PINNED,
    G_CMD0,
    G_DECIDER,
    G_INIT,
    G_OVER,
    G_PHASE,
    G_PLACER,
    G_POOL0,
    G_REASON,
    G_ROUND,
    G_SMOKE,
    G_SUB,
    G_VP0,
    G_WINNER,
    HX_OCC,
    HX_SMOKE,
    ONMAP,
    PH_COMMAND,
    PH_OVER,
    PH_STATUS,
    R_ELIMINATION,
    R_VICTORY_POINTS,
    SUB_SET_OPFIRE,
    TO_PLACE,
    TOK_FRESH,
    U_COND,
    U_HEX,
    U_RAPID,
    U_SIDE,
    U_ST,
    U_TOKEN,
)
from simulator.games.toi.game.tables import (
    OB_CMD,
    OB_HEX,
    OB_NATION,
    OB_VP,
    P_N_HEX,
    P_N_OBJ,
    P_N_UNITS,
    P_ROUNDS,
    SL_ARRIVE,
    SL_VEHICLE,
)
from simulator.games.toi.game.units import officer_in_hex


@rule
def game_over(s, winner, reason):
    s.g[G_OVER] = 1
    s.g[G_PHASE] = PH_OVER
    s.g[G_WINNER] = winner
    s.g[G_REASON] = reason
    s.g[G_DECIDER] = -1
    log(s, EV_OVER, -1, winner, reason, 0, 0, 0)


@rule
def check_elimination(s, t):
    """A side with no squad left on the map (vehicles do not count) loses at once (rulings T25)."""
    alive0 = False
    alive1 = False
    for k in range(t.p[P_N_UNITS]):
        if t.slots[k, SL_VEHICLE] == 1:
            continue                                  # rulings T25: squads only (issue 40, item 13)
        if (s.u[k, U_ST] == ONMAP or s.u[k, U_ST] == CARRIED or s.u[k, U_ST] == TO_PLACE   # arriving now
                or (s.u[k, U_ST] == ABSENT and t.slots[k, SL_ARRIVE] >= s.g[G_ROUND])):
            if s.u[k, U_SIDE] == 0:
                alive0 = True
            else:
                alive1 = True
    if not alive0 or not alive1:
        game_over(s, 1 if alive1 else (0 if alive0 else -1), R_ELIMINATION)
        return True
    return False


@rule_inlined
def control_after(s, t, o):
    """Who controls objective ``o`` once the command phase has determined control (001
    Command phase, 1): a side alone in its hex takes it, else its controller stays (-1
    nobody). The greedy player reads it too (who will hold it if nobody moves)."""
    h = t.obj[o, OB_HEX]
    a = s.hx[h, HX_OCC]
    b = s.hx[h, HX_OCC + 1]
    if a > 0 and b == 0:
        return 0
    if b > 0 and a == 0:
        return 1
    return s.aux[AUX_OBJ, o]


@rule
def record_control(s, t):
    """Who controls each objective once this round's command phase has determined it, as
    bit masks in ``aux[AUX_OBJT + side, round - 1]``: the batch's objective control by round."""
    r = s.g[G_ROUND]
    if r < 1 or r > s.aux.shape[1]:
        return
    m0 = 0
    m1 = 0
    for o in range(t.p[P_N_OBJ]):
        if s.aux[AUX_OBJ, o] == 0:
            m0 |= 1 << o
        elif s.aux[AUX_OBJ, o] == 1:
            m1 |= 1 << o
    s.aux[AUX_OBJT, r - 1] = m0
    s.aux[AUX_OBJT + 1, r - 1] = m1


@rule
def command_phase(s, t):
    s.g[G_PHASE] = PH_COMMAND
    for o in range(t.p[P_N_OBJ]):                 # 1. determine control over objectives
        side = control_after(s, t, o)
        if side != s.aux[AUX_OBJ, o]:
            s.aux[AUX_OBJ, o] = side
            log(s, EV_CONTROL, -1, o, side, 0, 0, 0)
    record_control(s, t)
    for o in range(t.p[P_N_OBJ]):                 # 2. receive command and victory points
        side = s.aux[AUX_OBJ, o]
        if side < 0:
            continue
        if t.obj[o, OB_NATION] < 0 or t.obj[o, OB_NATION] == side:
            s.g[G_CMD0 + side] += t.obj[o, OB_CMD]
        s.g[G_VP0 + side] += t.obj[o, OB_VP]
    for side in range(2):                         # 3. spend command: all on the initiative pool
        s.g[G_POOL0 + side] += s.g[G_CMD0 + side]
        s.g[G_CMD0 + side] = 0
    log(s, EV_POINTS, -1, s.g[G_VP0], s.g[G_VP0 + 1], s.g[G_POOL0], s.g[G_POOL0 + 1], 0)
    p0 = s.g[G_POOL0]                             # 4. determine initiative
    p1 = s.g[G_POOL0 + 1]
    if p0 > p1:
        s.g[G_INIT] = 0
    elif p1 > p0:
        s.g[G_INIT] = 1
    else:
        s.g[G_INIT] = 1 - s.g[G_INIT]             # a tie: to the side without the initiative
    log(s, EV_INITIATIVE, -1, s.g[G_INIT], 0, 0, 0, 0)


@rule
def remove_tokens(s, t):
    """001 Status phase, 2. Remove tokens; 2.4: expired markers, every smoke marker (001
    Smoke: removed the next status phase; rulings T36)."""
    if s.g[G_SMOKE] > 0:
        for h in range(t.p[P_N_HEX]):
            if s.hx[h, HX_SMOKE] == 1:
                s.hx[h, HX_SMOKE] = 0
                log(s, EV_SMOKE_GONE, -1, h, 0, 0, 0, 0)
        s.g[G_SMOKE] = 0
    for k in range(t.p[P_N_UNITS]):
        if s.u[k, U_ST] == CARRIED:
            s.u[k, U_TOKEN] = TOK_FRESH               # transported squads too
        if s.u[k, U_ST] != ONMAP:
            continue
        s.u[k, U_TOKEN] = TOK_FRESH
        for i in range(4):
            s.u[k, U_RAPID + i] = 0               # Rapid Op Fire targets: a new round
        c = s.u[k, U_COND]
        if c == COND_PINNED:
            s.u[k, U_COND] = COND_NORMAL
        elif c == COND_DISRUPTED:                 # pinned, or recovered with an officer (Fast Recovery)
            s.u[k, U_COND] = COND_NORMAL if officer_in_hex(s, t, s.u[k, U_HEX], s.u[k, U_SIDE]) else COND_PINNED


@rule
def leader_now(s):
    """001 Winning the game: the side that would win if the game ended now (more VPs; a
    tie to the side with the initiative)."""
    v0 = s.g[G_VP0]
    v1 = s.g[G_VP0 + 1]
    return 0 if v0 > v1 else (1 if v1 > v0 else s.g[G_INIT])


@rule
def end_of_game(s, t):
    """001 Winning the game: :func:`leader_now` wins."""
    game_over(s, leader_now(s), R_VICTORY_POINTS)


@rule
def command_and_status(s, t):
    """From the end of the action phase to the next decision: the command phase, the
    status phase up to the op-fire placement, or the end of the game."""
    command_phase(s, t)
    s.g[G_PHASE] = PH_STATUS
    remove_tokens(s, t)
    if s.g[G_ROUND] >= t.p[P_ROUNDS]:             # 6. the last round is over
        end_of_game(s, t)
        return
    for k in range(t.p[P_N_UNITS]):               # 5. this round's reinforcements, placed after the op fire
        if s.u[k, U_ST] == ABSENT and t.slots[k, SL_ARRIVE] == s.g[G_ROUND]:
            s.u[k, U_ST] = TO_PLACE
    s.g[G_SUB] = SUB_SET_OPFIRE                   # 3. place units in op fire mode, initiative first
    s.g[G_PLACER] = s.g[G_INIT]
    s.g[G_DECIDER] = s.g[G_INIT]


@rule
def next_round(s, t):
    """001 Status phase, 6. Advance the round marker."""
    s.g[G_ROUND] += 1
    log(s, EV_ROUND, -1, s.g[G_ROUND], 0, 0, 0, 0)


int64_constants(globals())
