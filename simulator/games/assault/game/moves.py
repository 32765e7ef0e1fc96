"""Moving hex by hex (chapter 9, 13.3): which step or turn a unit may take next.

Movement is played one hex at a time, because every hex entered may draw reaction
fire (8.2). A step costs what the compiled map says (9.4, hills 9.6.1, roads);
a hex whose cost exceeds the unit's base allowance is harsh terrain, entered only as
the first and only step of a normal move, ending with a delayed action (9.5,
rulings M7); no fast action climbs a hill (9.6.1). Friendly hexes may be crossed but
not ended in (9.0), so a step into one is allowed only if a free hex can be reached
from it with the points left. Entering an enemy hex is a close combat (12.0), by normal
or fast action only (6.4). A fallback step must take the unit further from the
nearest enemy unit (13.3), and so must a step of a unit leaving a close combat (12.6,
revised 12.1.6.1: it moves away; reading S29).

Vehicles (9.10) face a vertex: they step only into their two frontal hexes, or their
two rear hexes in a reverse move, and turn one vertex at a time: the first vertex in a
hex is free, each further one costs a point, and on a road every turn is free (9.1,
rulings M6). A vehicle may not turn back to a facing it already had in the same hex
(that would only waste the game's time). Artillery turns freely (9.9); immobilised
vehicles do not move at all (13.1).
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule, rule_inlined
from simulator.games.assault.game.board import nearest_enemy_in
from simulator.games.assault.game.overrun import overrun_gun
from simulator.games.assault.game.state import (
    ARTILLERY,
    G_FACES,
    G_TURNED,
    HX_OCC,
    MODE_FAST,
    MODE_NORMAL,
    MODE_REVERSE,
    MODE_WITHDRAW,
    U_FACE,
    U_IMMOB,
    U_SIDE,
    U_TYPE,
    VEHICLE,
)
from simulator.games.assault.game.tables import (
    HI_FREEFACE,
    P_CC_STACK,
    P_FAST_UPHILL,
    P_OVERRUN,
    P_TRANSPORT,
    S6_CLIMB,
    S6_COST,
    S6_NBR,
    S6_TDMG,
    UT_CAP,
    UT_CC_INIT,
    UT_KIND,
    UT_MOVE,
    UT_MTYPE,
    UT_OVERRUN,
)
from simulator.games.assault.game.transport import carries, loader_in

# what a step does
STEP_NO, STEP_FREE, STEP_THROUGH, STEP_ENEMY, STEP_HARSH, STEP_OVERRUN = 0, 1, 2, 3, 4, 5
MODE_FALLBACK = 9   # a fallback movement (13.3), fast for allowance and reaction fire
TURN = 6            # first-action codes of reach: 0-5 step across that side, TURN + f turn to f


@rule
def is_fast(mode):
    return mode == MODE_FAST or mode == MODE_WITHDRAW or mode == MODE_FALLBACK


# The step rules work on the few arrays they read (units, hexes' occupancy, unit types,
# hex sides, parameters, distances), not on the whole state and tables: the planner
# (reach) calls them thousands of times per decision, and numba passes every array of
# a tuple argument on each call.

@rule
def _side_ok(ut, ty, face, d, mode):
    """9.10: a vehicle steps into its frontal hexes, or its rear hexes when reversing;
    in a fallback it goes where it must (reading); other units go any way."""
    if ut[ty, UT_KIND] != VEHICLE or mode == MODE_FALLBACK:
        return True
    if mode == MODE_REVERSE:
        return d == (face + 3) % 6 or d == (face + 4) % 6
    return d == face or d == (face + 1) % 6


@rule
def side_allowed(s, t, u, face, d, mode):
    return _side_ok(t.ut, s.u[u, U_TYPE], face, d, mode)


@rule
def _cost(ut, side6, p, ty, h, d, mode, mp, steps):
    """Cost of the step from ``h`` across side ``d``, or -1 if terrain, the hill rule or
    the allowance forbid it; the second value is 1 when it is a harsh-terrain step."""
    g = side6[h, d, S6_NBR]
    if g < 0:
        return -1, 0
    cost = side6[h, d, S6_COST + ut[ty, UT_MTYPE]]
    if cost < 0:
        return -1, 0
    if is_fast(mode) and p[P_FAST_UPHILL] == 0 and side6[h, d, S6_CLIMB] == 1:
        return -1, 0                    # 9.6.1: no fast action up a hill
    if cost > ut[ty, UT_MOVE]:          # 9.5: harsh terrain, only as the single step of a
        if steps == 0 and (mode == MODE_NORMAL or mode == MODE_FALLBACK):   # normal move (rulings M7)
            return cost, 1
        return -1, 0
    if cost > mp:
        return -1, 0
    return cost, 0


@rule
def _way_out(units, hx, ut, side6, p, pair, ty, g, face, mode, mp_left, side, from_h):
    """From friendly-held ``g`` with ``mp_left`` points, is there a free hex to end in?"""
    if mp_left <= 0:
        return False
    away = mode == MODE_FALLBACK or mode == MODE_WITHDRAW
    here = nearest_enemy_in(units, pair, g, side) if away else 0
    for d in range(6):
        g2 = side6[g, d, S6_NBR]
        if g2 < 0 or g2 == from_h or hx[g2, HX_OCC] + hx[g2, HX_OCC + 1] > 0:
            continue
        if not _side_ok(ut, ty, face, d, mode) and ut[ty, UT_KIND] == 0:
            continue                        # (units that turn may turn there first)
        cost, harsh = _cost(ut, side6, p, ty, g, d, mode, mp_left, 1)
        if cost < 0 or harsh == 1:
            continue
        if away and nearest_enemy_in(units, pair, g2, side) <= here:
            continue
        return True
    return False


@rule_inlined
def step_core(units, hx, ut, side6, p, pair, u, h, face, d, mode, mp, steps):  # noqa: C901 - every step's checks in one pass: the inner loop of every move
    """What a step from ``h`` across side ``d`` would be for ``u`` facing ``face``:
    ``STEP_NO`` (illegal), ``STEP_FREE`` (an empty hex), ``STEP_THROUGH`` (crossing
    friends), ``STEP_ENEMY`` (close combat), ``STEP_HARSH`` (harsh terrain, 9.5) or
    ``STEP_OVERRUN`` (a vehicle overrunning artillery, 9.10.3).
    Second value: the cost."""
    ty = units[u, U_TYPE]
    if ut[ty, UT_KIND] == VEHICLE and units[u, U_IMMOB] == 1:
        return STEP_NO, 0                # 13.1: an immobilised vehicle does not move
    if not _side_ok(ut, ty, face, d, mode):
        return STEP_NO, 0
    cost, harsh = _cost(ut, side6, p, ty, h, d, mode, mp, steps)
    if cost < 0:
        return STEP_NO, 0
    g = side6[h, d, S6_NBR]
    side = units[u, U_SIDE]
    enemies = hx[g, HX_OCC + 1 - side]
    friends = hx[g, HX_OCC + side]
    if mode == MODE_FALLBACK or mode == MODE_WITHDRAW:   # 13.3; 12.6 "moves away" (reading S29)
        if enemies > 0 or nearest_enemy_in(units, pair, g, side) <= nearest_enemy_in(units, pair, h, side):
            return STEP_NO, 0
    if enemies > 0:
        # 6.4, 12.0: close combat only by a normal or fast action, by units that may initiate
        if mode != MODE_NORMAL and mode != MODE_FAST:
            return STEP_NO, 0
        # 9.10.3: a tracked armoured vehicle without passengers overruns lone artillery in a
        # frontal hex (_side_ok), not into harsh terrain nor terrain damaging vehicles (S18)
        if p[P_OVERRUN] == 1 and ut[ty, UT_OVERRUN] == 1 and harsh == 0 and side6[h, d, S6_TDMG] == 0 \
                and overrun_gun(units, ut, g, side) >= 0 and not carries(units, u):
            return STEP_OVERRUN, cost
        if ut[ty, UT_CC_INIT] == 0:
            return STEP_NO, 0
        if ut[ty, UT_CAP] > 0 and carries(units, u):  # 12.10: a transporting vehicle never initiates
            return STEP_NO, 0
        if friends >= p[P_CC_STACK]:             # 9.0 item 3: stacking in a close combat
            return STEP_NO, 0
        return STEP_ENEMY, cost
    if friends > 0:
        if harsh == 1 or not _way_out(units, hx, ut, side6, p, pair, ty, g, face, mode, mp - cost, side, h):
            if p[P_TRANSPORT] == 1 and harsh == 0 and (mode == MODE_NORMAL or mode == MODE_FAST) \
                    and ut[ty, UT_KIND] != VEHICLE and loader_in(units, ut, u, g) >= 0:
                return STEP_THROUGH, cost           # 9.11.2: into a vehicle that takes it aboard
            return STEP_NO, 0
        return STEP_THROUGH, cost
    if harsh == 1:
        return STEP_HARSH, cost
    return STEP_FREE, cost


@rule
def step_kind_facing(s, t, u, h, face, d, mode, mp, steps):
    """:func:`step_core` on the game's arrays."""
    return step_core(s.u, s.hx, t.ut, t.side6, t.p, t.hexi, u, h, face, d, mode, mp, steps)


@rule
def step_kind(s, t, u, h, d, mode, mp, steps):
    """:func:`step_core` for the unit's own facing."""
    return step_core(s.u, s.hx, t.ut, t.side6, t.p, t.hexi, u, h, s.u[u, U_FACE], d, mode, mp, steps)


@rule
def any_step(s, t, u, h, mode, mp, steps):
    for d in range(6):
        k, c = step_kind(s, t, u, h, d, mode, mp, steps)
        if k != STEP_NO:
            return True
    return False


@rule
def turning_unit(s, t, u):
    """Vehicles and artillery face a vertex (9.9, 9.10); infantry turn at will (9.8)."""
    return t.ut[s.u[u, U_TYPE], UT_KIND] != 0


@rule
def turn_cost(s, t, u, h, new_face, mp):
    """Cost of turning to ``new_face`` (one vertex) in ``h`` now, or -1 if not allowed:
    9.10: the first vertex in a hex is free, then one point each; free on a road (9.1);
    artillery turns freely (9.9); no turning back to a facing held in this hex."""
    if not turning_unit(s, t, u):
        return -1
    ty = s.u[u, U_TYPE]
    if t.ut[ty, UT_KIND] == VEHICLE and s.u[u, U_IMMOB] == 1:
        return -1
    f = s.u[u, U_FACE]
    if new_face != (f + 1) % 6 and new_face != (f + 5) % 6:
        return -1
    if (s.g[G_FACES] >> new_face) & 1:
        return -1
    if t.ut[ty, UT_KIND] == ARTILLERY or t.hexi[h, HI_FREEFACE] == 1 or s.g[G_TURNED] == 0:
        return 0
    return 1 if mp >= 1 else -1


@rule
def can_turn(s, t, u, h, mp):
    f = s.u[u, U_FACE]
    return turn_cost(s, t, u, h, (f + 1) % 6, mp) >= 0 or turn_cost(s, t, u, h, (f + 5) % 6, mp) >= 0


@rule_inlined
def join_sweep(queue, q, k, x):
    """Put ``x`` into the part ``queue[q:k]`` of a sweep still to come, in its ascending
    place (a scan over every state meets ``x`` later in the same sweep); returns ``k + 1``."""
    i = k
    while i > q and queue[i - 1] > x:
        queue[i] = queue[i - 1]
        i -= 1
    queue[i] = x
    return k + 1


@rule_inlined
def level_queue(value, done, touched, n_touched, level, queue):
    """The states of a label-setting search still to expand at ``level`` (``value ==
    level``, not ``done``), ascending into ``queue`` (the order a scan over every state
    would meet them in); returns how many. ``touched``: the ``n_touched`` states that
    have a value at all."""
    k = 0
    for i in range(n_touched):
        x = touched[i]
        if value[x] == level and done[x] == 0:
            k = join_sweep(queue, 0, k, x)
    return k


@rule
def reach(s, t, u, h0, mode, mp, steps0, best, first, stack):
    """Hexes ``u`` can end a move in from ``h0`` with ``mp`` points (players' planning).

    ``best[h]``: most points left on arrival (-1 unreachable); ``first[h]``: the first
    action on a best route (a side to step across, or ``TURN + facing`` for a vehicle's
    turn); ``stack``: scratch of at least ``3 * hexes`` (``72 * hexes`` for vehicles).
    Close-combat entries are reachable ends; crossing friends is allowed (9.0). Returns
    the number of hexes.

    Label-setting from the most points left down: at each level the hexes reached with
    that many points are expanded once each, in the order of a scan over the map (hex
    index ascending; a hex reached at the same level during the scan is expanded in that
    scan only if the scan has not passed it yet). Only the hexes reached are looked at,
    never the whole map: the order, and so ``first`` on equal routes, is the scan's.
    """
    if turning_unit(s, t, u) and t.ut[s.u[u, U_TYPE], UT_KIND] == VEHICLE:
        return reach_vehicle(s, t, u, h0, mode, mp, steps0, best, first, stack)
    n = best.shape[0]
    if stack.shape[0] < 3 * n:
        raise ValueError("reach scratch too small: Work.stack holds fewer than 3 entries per hex")
    done = stack[:n]
    touched = stack[n:2 * n]                 # the hexes reached, in the order reached
    queue = stack[2 * n:3 * n]
    for i in range(n):
        best[i] = -1
        first[i] = -1
        done[i] = 0
    best[h0] = mp
    touched[0] = h0
    count = 1
    side = s.u[u, U_SIDE]
    units, hx, ut, side6, pp, pair = s.u, s.hx, t.ut, t.side6, t.p, t.hexi
    face0 = s.u[u, U_FACE]
    for level in range(mp, 0, -1):
        k = level_queue(best, done, touched, count, level, queue)
        q = 0
        while q < k:
            h = queue[q]
            q += 1
            done[h] = 1
            if h != h0 and hx[h, HX_OCC + 1 - side] > 0:
                continue                  # a close combat ends the move
            steps = steps0 if h == h0 else steps0 + 1
            for d in range(6):
                kind, c = step_core(units, hx, ut, side6, pp, pair, u, h, face0, d, mode, level, steps)
                if kind == STEP_NO:
                    continue
                g = t.side6[h, d, S6_NBR]
                rest = 0 if kind == STEP_HARSH else level - c
                if rest > best[g]:
                    if best[g] < 0:
                        touched[count] = g
                        count += 1
                    best[g] = rest
                    first[g] = d if h == h0 else first[h]
                    if rest == level and g > h:
                        k = join_sweep(queue, q, k, g)
    return count


@rule_inlined
def improve(value, code, touched, n_touched, queue, q, k, later, m, level, st, ns, rest, cd):
    """:func:`reach_vehicle`: give state ``ns`` ``rest`` points left and the first action
    ``cd`` of its route if that is more than it has; a state reached for the first time
    joins ``touched``, one at the level being swept joins this sweep (past ``st``, the
    state expanded now) or the next. Returns the lists' lengths (touched, this sweep,
    the next)."""
    if rest <= value[ns]:
        return n_touched, k, m
    if value[ns] < 0:
        touched[n_touched] = ns
        n_touched += 1
    value[ns] = rest
    code[ns] = cd
    if rest == level:
        if ns > st:
            k = join_sweep(queue, q, k, ns)
        else:
            later[m] = ns
            m += 1
    return n_touched, k, m


@rule_inlined
def reach_vehicle(s, t, u, h0, mode, mp, steps0, best, first, stack):  # noqa: C901 - one search loop over a vehicle's positions
    """:func:`reach` over a vehicle's states (hex, facing, turned here), label-setting:
    states are expanded once, from the most points left down, each level in sweeps in
    state order until none is left (turns may cost nothing, so a level may grow while it
    is swept). ``stack`` holds per state the points left, the first action of its route
    (+1), whether it was expanded, and the search's lists (states reached, this sweep,
    the next)."""
    n = best.shape[0]
    for i in range(n):
        best[i] = -1
        first[i] = -1
    states = n * 12
    if stack.shape[0] < 6 * states:
        raise ValueError("reach scratch too small: Work.stack holds fewer than 72 entries per hex (vehicles)")
    value = stack[:states]
    code = stack[states:2 * states]
    done = stack[2 * states:3 * states]
    touched = stack[3 * states:4 * states]
    queue = stack[4 * states:5 * states]
    later = stack[5 * states:6 * states]
    for i in range(states):
        value[i] = -1
        code[i] = 0
        done[i] = 0
    f0 = s.u[u, U_FACE]
    side = s.u[u, U_SIDE]
    held = s.g[G_FACES]
    units, hx, ut, side6, pp, pair = s.u, s.hx, t.ut, t.side6, t.p, t.hexi
    s0 = (h0 * 6 + f0) * 2 + (1 if s.g[G_TURNED] == 1 else 0)
    value[s0] = mp
    touched[0] = s0
    n_touched = 1
    best[h0] = mp
    count = 1
    for level in range(mp, -1, -1):
        k = level_queue(value, done, touched, n_touched, level, queue)
        while k > 0:                              # a sweep
            m = 0                                 # states for the next sweep
            q = 0
            while q < k:
                st = queue[q]
                q += 1
                done[st] = 1
                code0 = code[st]
                tflag = st % 2
                f = (st // 2) % 6
                h = st // 12
                steps = steps0 if h == h0 else steps0 + 1
                if h != h0 and hx[h, HX_OCC + 1 - side] > 0:
                    continue
                free = t.hexi[h, HI_FREEFACE] == 1
                for turn in (1, 5):                  # one vertex either way (9.10)
                    nf = (f + turn) % 6
                    if h == h0 and (held >> nf) & 1 == 1:
                        continue                     # not back to a facing held in this hex
                    rest = level - (0 if (free or tflag == 0) else 1)
                    if rest < 0:
                        continue
                    ns = (h * 6 + nf) * 2 + (tflag if free else 1)
                    cd = (TURN + nf + 1) if code0 == 0 else code0
                    n_touched, k, m = improve(value, code, touched, n_touched, queue, q, k, later, m, level, st,
                                              ns, rest, cd)
                if level == 0:
                    continue
                d0 = (f + 3) % 6 if mode == MODE_REVERSE else f
                sides = 2
                if mode == MODE_FALLBACK:
                    d0 = 0
                    sides = 6
                for dd in range(sides):          # 9.10: the two frontal (rear) sides only
                    d = (d0 + dd) % 6
                    kind, c = step_core(units, hx, ut, side6, pp, pair, u, h, f, d, mode, level, steps)
                    if kind == STEP_NO:
                        continue
                    g = t.side6[h, d, S6_NBR]
                    rest = 0 if kind == STEP_HARSH else level - c
                    cd = (d + 1) if code0 == 0 else code0
                    if rest > best[g]:
                        if best[g] < 0:
                            count += 1
                        best[g] = rest
                        first[g] = cd - 1
                    ns = (g * 6 + f) * 2
                    if kind != STEP_HARSH and kind != STEP_ENEMY and kind != STEP_OVERRUN:
                        n_touched, k, m = improve(value, code, touched, n_touched, queue, q, k, later, m, level, st,
                                                  ns, rest, cd)
            k = 0
            for i in range(m):
                k = join_sweep(queue, 0, k, later[i])
    return count


int64_constants(globals())
