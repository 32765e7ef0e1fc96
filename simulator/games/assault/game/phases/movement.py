"""A unit's move in an activation (chapter 9), hex by hex: steps, turns, stops, loading (9.11.2)
and terrain damage on entering a hex (9.10.1). Which steps are legal is :mod:`simulator.games.assault.game.moves`."""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, push, rule, rule_inlined
from simulator.games.assault.game import closecombat as cc
from simulator.games.assault.game import overrun as ov
from simulator.games.assault.game import transport as tr
from simulator.games.assault.game.board import empty, occ, shift
from simulator.games.assault.game.events import (
    EV_BACKTRACK,
    EV_FACE,
    EV_LOAD,
    EV_MOVE,
    EV_STOP,
    EV_TERRAIN_DAMAGE,
    log_event,
    symbols_code,
)
from simulator.games.assault.game.fire import (
    eliminate,
    fallback_again,
    set_morale,
    transport_after_hit,
)
from simulator.games.assault.game.moves import (
    STEP_ENEMY,
    STEP_HARSH,
    STEP_NO,
    STEP_OVERRUN,
    any_step,
    can_turn,
    step_kind,
    turn_cost,
)
from simulator.games.assault.game.phases.reaction import any_reactor
from simulator.games.assault.game.state import (
    ACT_DELAYED,
    AUX_FBPATH,
    AUX_PATH,
    G_DECIDER,
    G_FACES,
    G_FB_PATHN,
    G_MODE,
    G_MP,
    G_PATHN,
    G_REACT_BACK,
    G_REACT_UNIT,
    G_STEPS,
    G_SUB,
    G_TURNED,
    G_UNIT,
    K_LOAD,
    K_STEP,
    K_STOP,
    K_TURN,
    MAX_PATH,
    MODE_FAST,
    MODE_MOVEFIRE,
    MODE_NORMAL,
    MODE_REVERSE,
    MODE_WITHDRAW,
    NIL,
    ONMAP,
    STEADY,
    SUB_ACT_END,
    SUB_AFTER_MOVE,
    SUB_MOVE,
    SUB_REACT,
    SUPPRESSED,
    U_ACT,
    U_DMG,
    U_FACE,
    U_HEX,
    U_IMMOB,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TYPE,
    VEHICLE,
    a_arg,
    a_kind,
    action,
)
from simulator.games.assault.game.tables import (
    HI_FREEFACE,
    HI_TDMG,
    P_TRANSPORT,
    PO_N,
    S6_NBR,
    UT_ELITE,
    UT_KIND,
    UT_MOVE,
    UT_STR,
    UT_TDEF,
)
from simulator.games.assault.rules.kernels import cancel_packed
from simulator.games.assault.rules.vehicle_terrain import terrain_damage_effect
from simulator.run.rng import sum_rolls


@rule
def allowance(s, t, u):
    return t.ut[s.u[u, U_TYPE], UT_MOVE]


@rule
def half_allowance(s, t, u):
    """9.3: half the movement allowance, rounded up."""
    return (allowance(s, t, u) + 1) // 2


@rule
def push_path(s, h):
    n = s.g[G_PATHN]
    if n >= MAX_PATH:
        raise ValueError("move path buffer full: a move of more than MAX_PATH hexes (simulator/games/assault/game/state.py)")
    s.aux[AUX_PATH, n] = h
    s.g[G_PATHN] = n + 1


@rule
def push_fbpath(s, h):
    n = s.g[G_FB_PATHN]
    if n >= MAX_PATH:
        raise ValueError("fallback path buffer full: a fallback of more than MAX_PATH hexes "
                         "(simulator/games/assault/game/state.py)")
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
def start_move(s, t, u, mode, mp, marker):
    s.u[u, U_ACT] = marker
    s.g[G_MODE] = mode
    s.g[G_MP] = mp
    s.g[G_TURNED] = 0
    s.g[G_FACES] = 1 << s.u[u, U_FACE]
    s.g[G_SUB] = SUB_MOVE


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
    log_event(s, EV_TERRAIN_DAMAGE, u, e, d, m, i, symbols_code(c, h, sp))
    if e == 1:
        s.u[u, U_DMG] = t.ut[ty, UT_STR]
        eliminate(s, t, u)
    else:
        s.u[u, U_DMG] = d
        s.u[u, U_IMMOB] = i
        set_morale(s, u, m)
    if t.p[P_TRANSPORT] == 1:                           # 10.10.2, 10.10.3 (reading S16)
        transport_after_hit(s, t, u, g, ONMAP, c, h, sp, e, d0, m0, i0)


int64_constants(globals())


@rule_inlined
def move_actions(s, t, out):
    """The mover's next step: stop (only where it may stand, 9.0), a hex across a side, a
    turn of one vertex (9.9, 9.10) or boarding a vehicle (9.11.2)."""
    u = s.g[G_UNIT]
    h = s.u[u, U_HEX]
    n = NIL
    if s.g[G_STEPS] > 0 or s.g[G_MODE] != MODE_WITHDRAW:
        if occ(s, h, s.u[u, U_SIDE]) == 1:
            n = push(out, n, action(K_STOP, u, 0))
    for d in range(6):
        k, c = step_kind(s, t, u, h, d, s.g[G_MODE], s.g[G_MP], s.g[G_STEPS])
        if k != STEP_NO:
            n = push(out, n, action(K_STEP, u, d))
    f = s.u[u, U_FACE]
    for nf in ((f + 1) % 6, (f + 5) % 6):
        if turn_cost(s, t, u, h, nf, s.g[G_MP]) >= 0:
            n = push(out, n, action(K_TURN, u, nf))
    c = loader_here(s, t, u)
    if c >= 0:
        n = push(out, n, action(K_LOAD, u, c))
    return n


@rule_inlined
def move_step(s, t):
    """A mover eliminated or given a morale marker stops (6.4; a suppressed unit still
    withdraws, 12.1.6.1); one with nothing left to do finishes its move. Returns True
    when the mover's player decides."""
    u = s.g[G_UNIT]
    if s.u[u, U_ST] != ONMAP or (s.u[u, U_MORALE] != STEADY
                                  and not (s.g[G_MODE] == MODE_WITHDRAW and s.u[u, U_MORALE] == SUPPRESSED)):
        s.g[G_SUB] = SUB_ACT_END
        return False
    if not any_step(s, t, u, s.u[u, U_HEX], s.g[G_MODE], s.g[G_MP], s.g[G_STEPS]) \
            and not can_turn(s, t, u, s.u[u, U_HEX], s.g[G_MP]) and loader_here(s, t, u) < 0:
        finish_move(s, t)
        return False
    s.g[G_DECIDER] = s.u[u, U_SIDE]
    return True


@rule_inlined
def apply_move(s, t, a):
    k = a_kind(a)
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
