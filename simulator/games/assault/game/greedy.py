"""The ``greedy`` player (numba): scores every legal action and takes the best, with a
small random tie-break from its own stream.

A fire scores the exact odds of the tabulated pools times what the target is worth; a
move scores the value of the hex it ends in (:mod:`~simulator.games.assault.game.greedy_values`:
objectives still to take or to hold, the terrain's cover, the fire the enemy could pour
into it and the fire the unit could deal from it) against the hex it leaves. A move is
planned to its end when chosen; the plan (the hex heading for, + 1, 0 none) is the
player's own memory ``w.plan[side]``, followed step by step (:func:`greedy_step`).

Entry: :func:`greedy_choice` (every decision), :func:`greedy_scores` (the scores of an
activation's choices, which the look-ahead player ranks its candidates by).
"""

from __future__ import annotations

import numpy as np

from simulator.engine.core.compiling import int64_constants, rule, rule_inlined
from simulator.engine.players.base import NEG, TIE_FIRST, among, best_index, find_kind, legal_for, own_below
from simulator.games.assault.game import transport as tr
from simulator.games.assault.game.board import occ
from simulator.games.assault.game.closecombat import (
    Q_PASSENGER,
    Q_SUPPORT_A,
    Q_SUPPORT_D,
    Q_TARGET,
    Q_TRACKS,
    direction_table,
    tracks_option,
)
from simulator.games.assault.game.fire import unit_hex
from simulator.games.assault.game.greedy_values import (
    W_COVER,
    W_DIG,
    W_FAST,
    W_PASS,
    W_REACT,
    best_fire_from,
    cc_value,
    dismount_value,
    fire_value,
    hex_is_free,
    indirect_value,
    into_cc_value,
    nearest_to_take,
    noise,
    position_value,
    quick_value,
    screen_values,
    target_value,
    threat_at,
)
from simulator.games.assault.game.intocc import in_close_combat
from simulator.games.assault.game.moves import TURN, reach
from simulator.games.assault.game.phases.movement import allowance
from simulator.games.assault.game.pooltab import FS_FIRING, FS_MOVE, FS_TURRET
from simulator.games.assault.game.state import (
    FALSE,
    INDIRECT_SCALE,
    K_ART_FACE,
    K_DIG,
    K_DISMOUNT,
    K_FAST,
    K_FIRE,
    K_FIREMOVE,
    K_INDIRECT,
    K_INTO_CC,
    K_LEAVE,
    K_LOAD,
    K_MOVE,
    K_MOVEFIRE,
    K_NOFIRE,
    K_NOREACT,
    K_PASS,
    K_REACT,
    K_RENEW,
    K_REVERSE,
    K_SMOKE,
    K_SMOKE_HEX,
    K_STAY,
    K_STEP,
    K_STOP,
    K_TARGET,
    K_TRACKS,
    K_TURN,
    K_TURRET,
    K_VEHICLE,
    K_WITHDRAW,
    MODE_FAST,
    MODE_MOVEFIRE,
    MODE_NORMAL,
    MODE_REVERSE,
    MODE_WITHDRAW,
    NIL,
    SMOKE_SCALE,
    SUB_AFTER_MOVE,
    SUB_CC_PICK,
    SUB_CC_WITHDRAW,
    SUB_FALLBACK,
    SUB_FORMATION,
    SUB_MOVE,
    SUB_PLACE,
    SUB_PLAN,
    SUB_REACT,
    SUB_SELECT,
    SUB_SETUP_ORDER,
    SUB_SMOKE_NEXT,
    SUB_SUPPORT,
    TRUE,
    U_FACE,
    a_arg,
    a_kind,
    a_unit,
    action,
    place_hex,
    spotted_spotter,
    spotted_target,
)
from simulator.games.assault.game.tables import cc_stat, cover, nbr
from simulator.games.assault.game.view import (
    cc_attacker,
    cc_defender,
    cc_pair,
    cc_question,
    cp_assigned,
    damage_of,
    emergency_waiting,
    facing_of,
    fallback_unit,
    formation_of,
    half_strength,
    hex_of,
    is_done,
    is_on_map,
    move_allowance,
    move_mode,
    move_points,
    move_steps,
    moving_unit,
    n_slots,
    pending,
    points_of,
    reaction_target,
    side_of,
    strength_left,
    transport_rule,
    type_of,
)

PREFILTER = 6        # hexes a move looks at closely: the best by objectives and cover
SMOKE_SCREEN = 0.4   # what a smoke hex is worth per unit of enemy fire value along lines through it
SPOTTER_COST = 0.05  # a spotter gives up its own activation (7.2)

# a unit's best moves, worked out once per unit and shared by its move actions: the best
# (value, hex) in w.val / w.idx for each kind of move (-2: not worked out yet)
SLOT_MOVE, SLOT_FAST, SLOT_HALF_FIRE, SLOT_WITHDRAW, SLOT_HALF, SLOT_REVERSE = range(6)
NOT_YET = -2


@rule_inlined
def first_best(s, w, n, floor):
    """The index of the best of ``w.scores[:n]`` above ``floor``, the first of equal
    scores (-1 when none is above it): greedy's one argmax (it draws nothing)."""
    return best_index(w.scores, n, floor, TIE_FIRST, w.stream)


@rule_inlined
def best_or(s, w, buf, n, floor, default):
    """The action of ``buf`` scoring best in ``w.scores[:n]`` above ``floor`` (the first of
    equal scores), else ``default``."""
    i = first_best(s, w, n, floor)
    return buf[i] if i >= 0 else default


# ======================================================================================
# where to move
# ======================================================================================


@rule
def prefilter(s, t, u, h, w):
    """Mark in ``w.cheap`` (as NaN) the hexes of ``w.best`` not among the PREFILTER best
    by :func:`quick_value`; the others keep their quick value."""
    side = side_of(s, u)
    count = 0
    for g in range(w.best.shape[0]):
        if w.best[g] >= 0 and g != h and hex_is_free(s, g, side):
            w.cheap[g] = quick_value(s, t, w.weights, u, g)
            count += 1
        else:
            w.cheap[g] = np.nan
    if count <= PREFILTER:
        return
    # keep the PREFILTER best by (quick value, hex): on equal values the later hex stays
    # (the first lowest goes first); find the last one kept, then drop all below it
    last_v = np.inf
    last_g = w.cheap.shape[0]
    for _ in range(PREFILTER):
        top_v = -np.inf
        top_g = -1
        for g in range(w.cheap.shape[0]):
            c = w.cheap[g]
            if np.isnan(c) or not below(c, g, last_v, last_g):
                continue
            if top_g < 0 or below(top_v, top_g, c, g):
                top_v = c
                top_g = g
        last_v = top_v
        last_g = top_g
    for g in range(w.cheap.shape[0]):
        if not np.isnan(w.cheap[g]) and below(w.cheap[g], g, last_v, last_g):
            w.cheap[g] = np.nan


@rule_inlined
def below(v, g, v2, g2):
    """(value, hex) ``(v, g)`` ranks below ``(v2, g2)``: a lower value, or the same and an
    earlier hex."""
    return v < v2 or (v == v2 and g < g2)


@rule
def best_destination(s, t, u, h, mode, mp, steps, w, fire_after):
    """The best hex to end a move in (value and hex), from ``reach``. ``pos`` caches
    position values (NaN: not computed); ``fire_after``: add the best fire from there
    (move and fire, 9.3)."""
    best = w.best
    reach(s, t, u, h, mode, mp, steps, best, w.first, w.stack)
    prefilter(s, t, u, h, w)
    side = side_of(s, u)
    top = NEG
    dest = -1
    for g in range(best.shape[0]):
        v = destination_value(s, t, u, h, g, side, mode, w, fire_after)
        if v > top:
            top = v
            dest = g
    return top, dest


@rule_inlined
def destination_value(s, t, u, h, g, side, mode, w, fire_after):
    """Greedy's value of ending ``u``'s move (from ``h``) in ``g``, NEG when it cannot or
    will not end there: after ``reach`` and ``prefilter`` (``w.pos`` caches position
    values)."""
    if w.best[g] < 0 or g == h:
        return NEG
    if occ(s, g, 1 - side) > 0:
        if mode != MODE_NORMAL and mode != MODE_FAST:
            return NEG
        return cc_value(s, t, w.weights, u, g)
    if occ(s, g, side) > 0 or np.isnan(w.cheap[g]):
        return NEG
    if np.isnan(w.pos[g]):
        w.pos[g] = position_value(s, t, w.weights, u, g)
    v = w.pos[g]
    if fire_after != 0:
        v += best_fire_from(s, t, w.weights, u, g, FS_MOVE)
    return v


@rule
def other_destinations(s, t, w, a, plan, out, k_max):
    """Up to ``k_max`` hexes other than ``plan`` where move action ``a`` (a move or a fast
    move, 6.4) could take its unit, best first by greedy's value (into ``out``); returns
    how many. The tree search weighs them as other plans of the same action, which
    greedy then follows step by step (:func:`greedy_step`). Other actions: none."""
    k = a_kind(a)
    if k != K_MOVE and k != K_FAST:
        return 0
    u = a_unit(a)
    h = hex_of(s, u)
    mode, mp = slot_movement(move_slot(k), allowance(s, t, u))
    w.pos[:] = np.nan
    reach(s, t, u, h, mode, mp, NIL, w.best, w.first, w.stack)
    prefilter(s, t, u, h, w)
    side = side_of(s, u)
    m = 0
    while m < k_max:
        top = NEG
        dest = -1
        for g in range(w.best.shape[0]):
            if g == plan or among(g, out, m):
                continue
            v = destination_value(s, t, u, h, g, side, mode, w, FALSE)
            if v > top:
                top = v
                dest = g
        if dest < 0:
            break
        out[m] = dest
        m += 1
    return m


@rule_inlined
def best_half_moves(s, t, u, h, mp, w):
    """Move and fire and fire and move share their movement rules (half the allowance,
    no close combat, 9.3): one reach gives both their best end hexes. Returns
    ``(value with the fire after, hex, value without, hex)``."""
    wt = w.weights
    pos = w.pos
    best = w.best
    reach(s, t, u, h, MODE_MOVEFIRE, mp, NIL, best, w.first, w.stack)
    prefilter(s, t, u, h, w)
    top_f = NEG
    top = NEG
    dest_f = -1
    dest = -1
    for g in range(best.shape[0]):
        if best[g] < 0 or g == h or np.isnan(w.cheap[g]):
            continue
        if np.isnan(pos[g]):
            pos[g] = position_value(s, t, wt, u, g)
        v = pos[g]
        if v > top:
            top = v
            dest = g
        v += best_fire_from(s, t, wt, u, g, FS_MOVE)
        if v > top_f:
            top_f = v
            dest_f = g
    return top_f, dest_f, top, dest


# ======================================================================================
# an activation's choices (6.4): the score of each
# ======================================================================================


@rule_inlined
def move_slot(k):
    """The slot of w.val / w.idx an action of kind ``k`` plans its move in (-1 none)."""
    if k == K_MOVE:
        return SLOT_MOVE
    if k == K_FAST:
        return SLOT_FAST
    if k == K_MOVEFIRE or k == K_FIREMOVE:
        return SLOT_HALF_FIRE
    if k == K_WITHDRAW:
        return SLOT_WITHDRAW
    if k == K_REVERSE:
        return SLOT_REVERSE
    return -1


@rule_inlined
def slot_movement(slot, mp):
    """The movement mode and allowance of a move planned in ``slot`` by a unit of
    allowance ``mp``: a move its allowance, a fast move and a withdrawal one more, move
    and fire (fire and move) and reversing half of it, rounded up (6.4, 9.3)."""
    if slot == SLOT_MOVE:
        return MODE_NORMAL, mp
    if slot == SLOT_FAST:
        return MODE_FAST, mp + 1
    if slot == SLOT_WITHDRAW:
        return MODE_WITHDRAW, mp + 1
    if slot == SLOT_REVERSE:
        return MODE_REVERSE, (mp + 1) // 2
    return MODE_MOVEFIRE, (mp + 1) // 2


@rule_inlined
def plan_moves(s, t, u, h, slot, w):
    """Work out ``u``'s best move of ``slot`` (SLOT_HALF_FIRE fills SLOT_HALF too)."""
    bv = w.val
    bd = w.idx
    mode, mp = slot_movement(slot, allowance(s, t, u))
    if slot == SLOT_HALF_FIRE:
        bv[SLOT_HALF_FIRE], bd[SLOT_HALF_FIRE], bv[SLOT_HALF], bd[SLOT_HALF] = best_half_moves(s, t, u, h, mp, w)
    else:
        bv[slot], bd[slot] = best_destination(s, t, u, h, mode, mp, NIL, w, FALSE)


@rule_inlined
def move_score(k, w, cur):
    """(score, planned hex) of a move of kind ``k`` (not fire and move) from ``u``'s
    slots, against ``cur``, the value of staying."""
    bv = w.val
    bd = w.idx
    if k == K_MOVE:
        return bv[SLOT_MOVE] - cur, bd[SLOT_MOVE]
    if k == K_FAST:
        return bv[SLOT_FAST] - cur - w.weights[W_FAST], bd[SLOT_FAST]
    if k == K_MOVEFIRE:
        return bv[SLOT_HALF_FIRE] - cur, bd[SLOT_HALF_FIRE]
    if k == K_WITHDRAW:
        return bv[SLOT_WITHDRAW] - cur - 0.3, bd[SLOT_WITHDRAW]
    return bv[SLOT_REVERSE] - cur, bd[SLOT_REVERSE]


@rule_inlined
def fire_score(s, t, w, a, h, cur):
    """(score, planned hex) of a fire, a turret fire or a fire and move (then with the
    best half move after it, if it beats staying)."""
    wt = w.weights
    k = a_kind(a)
    u = a_unit(a)
    v = a_arg(a)
    if k != K_FIREMOVE:
        fs = FS_TURRET if k == K_TURRET else FS_FIRING
        return target_value(s, t, wt, u, v, h, unit_hex(s, v), fs, FALSE), np.int64(-1)
    half = w.val[SLOT_HALF]
    if in_close_combat(s, v):                                       # 10.11
        score = into_cc_value(s, t, wt, u, v, h, FS_MOVE) + max(0.0, half - cur)
    else:
        score = fire_value(s, t, wt, u, v, h, hex_of(s, v), FS_MOVE, FALSE) + max(0.0, half - cur)
    return score, w.idx[SLOT_HALF] if half > cur else np.int64(-1)


@rule_inlined
def action_score(s, t, w, a, cur):
    """(score, planned hex or -1) of action ``a``; ``cur``: the value of its unit staying."""
    wt = w.weights
    k = a_kind(a)
    u = a_unit(a)
    if k == K_PASS:
        return wt[W_PASS], np.int64(-1)
    if k == K_DISMOUNT:
        return dismount_value(s, t, wt, u, a_arg(a)), np.int64(-1)
    h = hex_of(s, u)
    slot = move_slot(k)
    if slot >= 0 and w.idx[slot] == NOT_YET:
        plan_moves(s, t, u, h, slot, w)
    if k == K_FIRE or k == K_TURRET or k == K_FIREMOVE:
        return fire_score(s, t, w, a, h, cur)
    if slot >= 0:
        return move_score(k, w, cur)
    if k == K_DIG:
        return wt[W_DIG] * threat_at(s, t, wt, u, h), np.int64(-1)
    if k == K_RENEW:
        return 0.5 * cc_value(s, t, wt, u, h), np.int64(-1)
    return 0.0, np.int64(-1)


@rule_inlined
def start_unit(s, t, w, u):
    """Forget the previous unit's moves; the value of ``u`` staying where it is."""
    w.pos[:] = np.nan
    w.idx[:] = NOT_YET
    return position_value(s, t, w.weights, u, hex_of(s, u))


@rule
def greedy_scores(s, t, side, w, buf, n):
    """Greedy's score of each of the ``n`` legal actions in ``buf`` (into ``w.scores``,
    with the planned end hex of moves in ``w.dests``); returns the best one's index.
    Each unit's reachable hexes and their values are worked out once and shared by its
    move actions."""
    cur_unit = -1
    cur = 0.0
    for i in range(n):
        a = buf[i]
        k = a_kind(a)
        u = a_unit(a)
        if k != K_PASS and k != K_DISMOUNT and u != cur_unit:
            cur_unit = u
            cur = start_unit(s, t, w, u)
        score, dest = action_score(s, t, w, a, cur)
        w.scores[i] = score + noise(s, side, w.weights)
        w.dests[i] = dest
    return max(first_best(s, w, n, NEG), 0)


@rule_inlined
def greedy_select(s, t, side, w, params, buf):
    """6.4: pass, or the best activation by greedy's scores."""
    n = legal_for(s, t, side, params, buf)
    i = greedy_scores(s, t, side, w, buf, n)
    w.plan[side] = w.dests[i] + 1
    return buf[i]


# ======================================================================================
# a move in progress
# ======================================================================================


@rule
def first_action(u, code):
    """The action of a ``reach`` first-action code: a step across a side, or a turn."""
    if code >= TURN:
        return action(K_TURN, u, code - TURN)
    return action(K_STEP, u, code)


@rule_inlined
def greedy_step(s, t, side, w, buf, n, u, mode, mp, steps):
    """Follow the plan (re-planning when it cannot be followed): a step or a stop."""
    h = hex_of(s, u)
    plan = w.plan[side] - 1
    can_stop = False
    for i in range(n):
        if a_kind(buf[i]) == K_STOP:
            can_stop = True
    if plan >= 0 and plan != h:
        reach(s, t, u, h, mode, mp, steps, w.best, w.first, w.stack)
        if w.best[plan] >= 0 and w.first[plan] >= 0:
            a = first_action(u, w.first[plan])
            for i in range(n):
                if buf[i] == a:
                    return a
    if plan == h and can_stop:
        return find_kind(buf, n, K_STOP)
    w.pos[:] = np.nan
    cur = position_value(s, t, w.weights, u, h)
    v, dest = best_destination(s, t, u, h, mode, mp, steps, w, np.int64(mode == MODE_MOVEFIRE))
    if mode == MODE_MOVEFIRE:
        cur += best_fire_from(s, t, w.weights, u, h, FS_MOVE)
    if (dest < 0 or v <= cur) and can_stop:
        w.plan[side] = h + 1
        return find_kind(buf, n, K_STOP)
    if dest >= 0 and w.first[dest] >= 0:
        w.plan[side] = dest + 1
        a = first_action(u, w.first[dest])
        for i in range(n):
            if buf[i] == a:
                return a
    return buf[0]


@rule_inlined
def load_choice(s, t, u, buf, n):
    """9.11.2: ride when the vehicle can still move this turn and the nearest objective
    to take is beyond one move on foot; else the load action is not taken (-1)."""
    for i in range(n):
        a = buf[i]
        if a_kind(a) != K_LOAD:
            continue
        c = a_arg(a)
        if is_done(s, c):
            return -1
        best = nearest_to_take(s, t, side_of(s, u), hex_of(s, u))
        if best < (1 << 20) and best > move_allowance(t, type_of(s, u)) + 1:
            return a
    return -1


@rule_inlined
def move_choice(s, t, side, w, buf, n):
    """A step of the moving unit (or, with the transport rules, getting on a vehicle)."""
    u = moving_unit(s)
    if transport_rule(t):
        a = load_choice(s, t, u, buf, n)
        if a >= 0:
            return a
    return greedy_step(s, t, side, w, buf, n, u, move_mode(s), move_points(s), move_steps(s))


@rule_inlined
def emergency_choice(s, t, side, w, buf, n):
    """10.10.3: the safest, most useful empty hex next to the vehicle."""
    wt = w.weights
    for i in range(n):
        a = buf[i]
        p = a_unit(a)
        g = nbr(t, hex_of(s, p), a_arg(a))
        w.scores[i] = position_value(s, t, wt, p, g) + noise(s, side, wt)
    return best_or(s, w, buf, n, NEG, buf[0])


# ======================================================================================
# fire decisions of the action phase
# ======================================================================================


@rule_inlined
def react_choice(s, t, side, w, buf, n):
    """8.2: fire at the mover (or a tank rider, 10.10.1) if it is worth it."""
    wt = w.weights
    fb = np.int64(reaction_target(s) == fallback_unit(s))
    for i in range(n):
        a = buf[i]
        w.scores[i] = NEG
        if a_kind(a) == K_REACT:
            r = a_unit(a)
            tgt = a_arg(a)
            w.scores[i] = target_value(s, t, wt, r, tgt, hex_of(s, r), unit_hex(s, tgt), FS_FIRING, fb)
    i = first_best(s, w, n, NEG)
    top = w.scores[i] if i >= 0 else NEG
    if top < wt[W_REACT]:
        return find_kind(buf, n, K_NOREACT)
    return buf[i] if i >= 0 else buf[0]


@rule_inlined
def after_move_choice(s, t, side, w, buf, n):
    """9.3: the best fire after a move and fire, or none."""
    u = moving_unit(s)
    for i in range(n):
        a = buf[i]
        w.scores[i] = NEG
        if a_kind(a) == K_TARGET:
            w.scores[i] = fire_value(s, t, w.weights, u, a_arg(a), hex_of(s, u), hex_of(s, a_arg(a)), FS_MOVE, FALSE)
    return best_or(s, w, buf, n, 0.0, find_kind(buf, n, K_NOFIRE))


@rule_inlined
def fallback_choice(s, t, side, w, buf, n):
    """13.3: the safest hex further away."""
    wt = w.weights
    v = fallback_unit(s)
    for i in range(n):
        g = nbr(t, hex_of(s, v), a_arg(buf[i]))
        w.scores[i] = -threat_at(s, t, wt, v, g) + wt[W_COVER] * cover(t, g) + noise(s, side, wt)
    return best_or(s, w, buf, n, NEG, buf[0])


# ======================================================================================
# the support phase (6.3, chapter 7)
# ======================================================================================


@rule
def facing_value(s, t, wt, u, f):
    """What artillery ``u`` could fire at facing vertex ``f`` (10.6), as greedy values it
    (the unit is turned for the evaluation and turned back)."""
    old = facing_of(s, u)
    s.u[u, U_FACE] = f
    v = best_fire_from(s, t, wt, u, hex_of(s, u), FS_FIRING)
    s.u[u, U_FACE] = old
    return v


@rule_inlined
def support_score(s, t, side, w, a, screened):
    """The score of a support-phase action (without the tie-break); ``screened``:
    ``w.pos`` already holds :func:`screen_values`."""
    wt = w.weights
    k = a_kind(a)
    u = a_unit(a)
    arg = a_arg(a)
    if k == K_INDIRECT:
        spotter = spotted_spotter(arg, INDIRECT_SCALE)
        score = indirect_value(s, t, wt, u, spotted_target(arg, INDIRECT_SCALE), spotter)
        if spotter >= 0:
            score -= SPOTTER_COST
        return score
    if k == K_SMOKE:
        if not screened:
            screen_values(s, t, wt, side, w.pos)
        spotted = spotted_spotter(arg, SMOKE_SCALE) >= 0
        return SMOKE_SCREEN * w.pos[spotted_target(arg, SMOKE_SCALE)] - (SPOTTER_COST if spotted else 0.0)
    if k == K_ART_FACE:
        return facing_value(s, t, wt, u, arg) - facing_value(s, t, wt, u, facing_of(s, u))
    return wt[W_PASS]


@rule_inlined
def greedy_support(s, t, side, w, buf, n):
    """6.3: the indirect fire worth most by the exact odds (less a spotter's activation),
    smoke where it screens the most enemy fire, or an artillery unit turned to face more
    targets (7.6); passes when nothing beats passing."""
    screened = False
    for i in range(n):
        a = buf[i]
        score = support_score(s, t, side, w, a, screened)
        if a_kind(a) == K_SMOKE:
            screened = True
        w.scores[i] = score + noise(s, side, w.weights)
    return best_or(s, w, buf, n, NEG, buf[0])


@rule_inlined
def greedy_smoke_hex(s, t, side, w, buf, n):
    """7.5: the dice set aside cost nothing: smoke the adjacent hex that screens most."""
    screen_values(s, t, w.weights, side, w.pos)
    for i in range(n):
        a = buf[i]
        w.scores[i] = NEG
        if a_kind(a) == K_SMOKE_HEX:
            w.scores[i] = w.pos[a_arg(a)] + noise(s, side, w.weights)
    return best_or(s, w, buf, n, NEG, buf[0])


# ======================================================================================
# close combat (chapter 12)
# ======================================================================================


@rule_inlined
def tracks_choice(s, t, buf, n):
    """12.9: attack the wheels/tracks when immobilising (about half a unit's worth)
    promises more than the attack on the vehicle (exact pool statistics)."""
    x, y, role_xy, role_yx, x_face = cc_pair(s)
    role = role_xy
    if not tracks_option(s, t, x, y):
        x, y = y, x
        role = role_yx
    h = hex_of(s, x)
    pv = direction_table(s, t, x, y, role, x_face, h, NIL)
    pt = direction_table(s, t, x, y, role, x_face, h, TRUE)
    vv = 0.0
    vt = 0.0
    if pv >= 0:
        vv = cc_stat(t, pv, NIL) + cc_stat(t, pv, np.int64(1)) + 0.25 * cc_stat(t, pv, np.int64(2))
    if pt >= 0:
        vt = 0.5 * cc_stat(t, pt, np.int64(3)) + 0.25 * cc_stat(t, pt, np.int64(2))
    return find_kind(buf, n, K_TRACKS if vt > vv else K_VEHICLE)


@rule_inlined
def weakest_target(s, t, w, buf, n):
    """12.2: the enemy with the fewest strength points left."""
    for i in range(n):
        w.scores[i] = -strength_left(s, t, a_arg(buf[i])) * 1.0
    return best_or(s, w, buf, n, NEG, buf[0])


@rule_inlined
def strongest_passenger(s, t, w, buf, n):
    """12.10 (reading S26): the strongest passenger goes in."""
    for i in range(n):
        w.scores[i] = NEG
        if a_kind(buf[i]) == K_INTO_CC:
            w.scores[i] = strength_left(s, t, a_unit(buf[i])) * 1.0
    return best_or(s, w, buf, n, NEG, buf[0])


@rule_inlined
def cc_pick_choice(s, t, side, w, buf, n):
    q = cc_question(s)
    if q == Q_TARGET:
        return weakest_target(s, t, w, buf, n)
    if q == Q_SUPPORT_A or q == Q_SUPPORT_D:  # revised 12.1.1.1: a re-roll is always welcome
        return buf[n - 1]
    if q == Q_TRACKS:
        return tracks_choice(s, t, buf, n)
    if q == Q_PASSENGER:
        return strongest_passenger(s, t, w, buf, n)
    for i in range(n):                        # 12.6: over-stacked, the better hex
        a = buf[i]
        w.scores[i] = position_value(s, t, w.weights, a_unit(a), a_arg(a))
    return best_or(s, w, buf, n, NEG, buf[0])


@rule_inlined
def withdraw_choice(s, t, side, buf, n):
    """Revised 12.1.6.1: leave when weaker and at half strength or worse."""
    a_u = cc_attacker(s)
    d_u = cc_defender(s)
    me = a_u if side_of(s, a_u) == side else d_u
    foe = d_u if me == a_u else a_u
    mine = strength_left(s, t, me)
    theirs = strength_left(s, t, foe)
    leave = mine < theirs and damage_of(s, me) >= half_strength(t, type_of(s, me))
    return find_kind(buf, n, K_LEAVE if leave else K_STAY)


# ======================================================================================
# set-up and planning (chapter 5, 6.2)
# ======================================================================================


@rule_inlined
def place_choice(s, t, side, w, buf, n):
    """5.8: the best of the hexes that look best."""
    wt = w.weights
    for i in range(n):
        a = buf[i]
        w.scores[i] = quick_value(s, t, wt, a_unit(a), place_hex(a_arg(a))) + noise(s, side, wt)
    m = min(n, PREFILTER)
    for c in range(m):                        # the PREFILTER best by the quick value, best first
        j = max(first_best(s, w, n, -np.inf), 0)
        w.dests[c] = j
        w.scores[j] = NEG
    for c in range(m):                        # then the best of them by the full value
        a = buf[w.dests[c]]
        w.scores[c] = position_value(s, t, wt, a_unit(a), place_hex(a_arg(a)))
    c = first_best(s, w, m, NEG)
    return buf[w.dests[c]] if c >= 0 else buf[0]


@rule_inlined
def formation_choice(s, t, side, w, buf, n):
    """5.6: the card with the most points."""
    for i in range(n):
        f = a_arg(buf[i])
        val = 0.0
        for u in range(n_slots(s)):
            if formation_of(s, u) == f:
                val += points_of(t, type_of(s, u))
        w.scores[i] = val + noise(s, side, w.weights)
    return best_or(s, w, buf, n, NEG, buf[0])


@rule_inlined
def plan_choice(s, t, side, w, buf, n):
    """6.2.2: a command point to the unit card whose most units wait."""
    for i in range(n):
        ty = a_arg(buf[i])
        val = 0.0
        for u in range(n_slots(s)):
            if side_of(s, u) == side and type_of(s, u) == ty and is_on_map(s, u):
                val += 1.0
        val -= cp_assigned(s, side, ty)
        w.scores[i] = val + noise(s, side, w.weights)
    return best_or(s, w, buf, n, NEG, buf[0])


@rule_inlined
def setup_choice(s, t, side, w, buf, n, sub):
    if sub == SUB_PLACE:
        return place_choice(s, t, side, w, buf, n)
    if sub == SUB_FORMATION:
        return formation_choice(s, t, side, w, buf, n)
    if sub == SUB_PLAN:
        return plan_choice(s, t, side, w, buf, n)
    if sub == SUB_SETUP_ORDER:                # 5.8: let the opponent show its hand first
        for i in range(n):
            if a_arg(buf[i]) != side:
                return buf[i]
    return buf[own_below(s, side, n)]


# ======================================================================================
# every decision
# ======================================================================================


@rule_inlined
def activation_choice(s, t, side, w, buf, n, sub):
    """The decisions of the support and action phases but an activation's choice."""
    if sub == SUB_SUPPORT:
        return greedy_support(s, t, side, w, buf, n)
    if sub == SUB_SMOKE_NEXT:
        return greedy_smoke_hex(s, t, side, w, buf, n)
    if sub == SUB_MOVE:
        return move_choice(s, t, side, w, buf, n)
    if sub == SUB_REACT:
        return react_choice(s, t, side, w, buf, n)
    if sub == SUB_AFTER_MOVE:
        return after_move_choice(s, t, side, w, buf, n)
    if sub == SUB_FALLBACK:
        return fallback_choice(s, t, side, w, buf, n)
    return buf[own_below(s, side, n)]


@rule
def greedy_choice(s, t, side, w, params, buf):
    """Greedy's action for ``side`` (see the module docstring) among those it may choose
    (:func:`~simulator.engine.players.base.legal_for`: ``params`` may restrict them);
    ``buf``: scratch for them."""
    sub = pending(s)
    if emergency_waiting(s) and tr.emergency_now(s):
        return emergency_choice(s, t, side, w, buf, legal_for(s, t, side, params, buf))
    if sub == SUB_SELECT:
        return greedy_select(s, t, side, w, params, buf)
    n = legal_for(s, t, side, params, buf)
    if n == 1:
        return buf[0]
    if sub == SUB_CC_PICK:
        return cc_pick_choice(s, t, side, w, buf, n)
    if sub == SUB_CC_WITHDRAW:
        return withdraw_choice(s, t, side, buf, n)
    if sub == SUB_PLACE or sub == SUB_FORMATION or sub == SUB_SETUP_ORDER or sub == SUB_PLAN:
        return setup_choice(s, t, side, w, buf, n, sub)
    return activation_choice(s, t, side, w, buf, n, sub)


int64_constants(globals())
