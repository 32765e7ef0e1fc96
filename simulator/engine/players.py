"""The computer players: ``random``, ``greedy`` and ``lookahead`` (numba).

A player sees the game state and picks one of :func:`~simulator.engine.assault.turn.legal_actions`;
the rules never decide for it. Each player draws its own random numbers from its
side's stream (``rng[1 + side]``), never from the dice.

- ``random``: uniform over the legal actions.
- ``greedy``: scores every legal action with the exact odds of the tabulated pools
  (:func:`~simulator.engine.assault.fire.expected_fire`: chance to eliminate, expected damage,
  chance of a morale hit, times what the target is worth) and the value of the hex a
  move ends in (objectives still to take or to hold, the terrain's cover, the fire the
  enemy could pour into it and the fire the unit could deal from it), and takes the
  best, with a small random tie-break. A move is planned to its end when chosen; the
  plan (the hex heading for) is the player's own memory in ``g[G_PLAN0 + side]``.
- ``lookahead``: flat Monte Carlo over greedy's best few actions: each is played out
  several times by greedy players to the end of the turn (plus a horizon), on dice
  drawn from the look-ahead player's own stream (the same dice for every candidate:
  common random numbers), and the action whose playouts end in the best position
  (strength, objectives, and where the units stand as greedy values it) is taken.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simulator.engine.assault import transport as tr
from simulator.engine.assault.closecombat import (
    Q_PASSENGER,
    Q_SUPPORT_A,
    Q_SUPPORT_D,
    Q_TARGET,
    Q_TRACKS,
    direction_table,
    tracks_option,
)
from simulator.engine.assault.fire import expected_fire, expected_fire_any, unit_hex
from simulator.engine.assault.intocc import in_close_combat, into_cc_odds
from simulator.engine.assault.moves import TURN, reach
from simulator.engine.assault.overrun import overrun_gun, overrun_odds
from simulator.engine.assault.pooltab import FS_FIRING, FS_MOVE, FS_TURRET
from simulator.engine.assault.state import (
    AUX_OBJ,
    CARRIED,
    CC_NONE,
    FALSE,
    G_CC_A,
    G_CC_D,
    G_CC_Q,
    G_CC_RXY,
    G_CC_RYX,
    G_CC_X,
    G_CC_XF,
    G_CC_Y,
    G_DECIDER,
    G_EMERG,
    G_FB_UNIT,
    G_LOG_ON,
    G_MODE,
    G_MP,
    G_OVER,
    G_PLAN0,
    G_REACT_UNIT,
    G_STEPS,
    G_SUB,
    G_TURN,
    G_UNIT,
    G_WINNER,
    HX_OCC,
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
    ONMAP,
    PENDING,
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
    U_CARRIER,
    U_CC,
    U_DMG,
    U_DONE,
    U_FACE,
    U_FORM,
    U_HEX,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TYPE,
    GameState,
    a_arg,
    a_kind,
    a_unit,
    action,
    restore_state,
)
from simulator.engine.assault.support import expected_indirect
from simulator.engine.assault.tables import (
    HI_CCT,
    HI_OBJ,
    HI_TDMG,
    OB_HEX,
    OB_VALUE,
    P_N_OBJ,
    P_NCCT,
    P_NT,
    P_O_CCLOSS,
    P_O_COVER,
    P_O_OBJ,
    P_O_VIC,
    P_OVERRUN,
    P_TRANSPORT,
    P_TURNS,
    S6_NBR,
    UT_HALF,
    UT_MOVE,
    UT_OVERRUN,
    UT_STR,
    UT_VALUE,
    V_HOLD_COUNT,
    V_HOLD_MASK,
    V_POINTS,
    between,
    cc_stat,
    dist,
    n_between,
)
from simulator.engine.assault.turn import MAX_ACTIONS, apply_action, legal_actions
from simulator.engine.core.compiling import entry, int64_constants, next_u64_into, rule, rule_hot, rule_inlined
from simulator.rng import below, uniform

RANDOM, GREEDY, LOOKAHEAD = 0, 1, 2
PLAYER_NAMES = ("random", "greedy", "lookahead")

# greedy's weights (the first entries of Tables.fconst): index -> meaning
(W_KILL, W_DAMAGE, W_MORALE, W_OBJ_TAKE, W_OBJ_HOLD, W_OBJ_NEAR, W_COVER, W_THREAT, W_FIREPOWER,
 W_PASS, W_DIG, W_CC, W_NOISE, W_REACT, W_FAST, W_URGENCY) = range(16)
DEFAULT_WEIGHTS = np.array([
    1.0,    # W_KILL: eliminating a unit (times its worth: points / 40)
    0.35,   # W_DAMAGE: per expected strength point taken
    0.25,   # W_MORALE: per expected suppression or fallback
    1.5,    # W_OBJ_TAKE: standing on an objective the side does not hold
    0.8,    # W_OBJ_HOLD: standing on an objective the side holds
    0.12,   # W_OBJ_NEAR: per hex from the nearest objective to take
    0.10,   # W_COVER: per mean defence symbol of the hex's terrain
    0.45,   # W_THREAT: per unit of value the enemy could take from the unit there
    0.30,   # W_FIREPOWER: per unit of value the unit could take from the enemy from there
    0.02,   # W_PASS: passing
    0.25,   # W_DIG: digging in (times the threat at the hex)
    1.0,    # W_CC: close combat (times the expected exchange of an initiated round)
    0.01,   # W_NOISE: random tie-break
    0.08,   # W_REACT: least value for which a unit fires in reaction
    0.05,   # W_FAST: cost of a fast action (a weaker defence now, no fast action next turn)
    1.0,    # W_URGENCY: how much more the objectives matter as the turns run out
])
NEG = -1.0e9


# ======================================================================================
# random
# ======================================================================================


class Work(NamedTuple):
    """Scratch arrays of a player (numba code under the game must not allocate)."""

    buf: np.ndarray      # int64[MAX_ACTIONS] legal actions
    pbuf: np.ndarray     # int64[MAX_ACTIONS] legal actions inside look-ahead playouts
    pos: np.ndarray      # float64[hexes] position values
    best: np.ndarray     # int64[hexes] reach: points left
    first: np.ndarray    # int64[hexes] reach: first step
    stack: np.ndarray    # int64[48 * hexes + 8] reach scratch
    val: np.ndarray      # float64[8]
    idx: np.ndarray      # int64[8]
    scores: np.ndarray   # float64[MAX_ACTIONS] greedy's score of each legal action
    dests: np.ndarray    # int64[MAX_ACTIONS] the hex a move action is planned to end in (-1 none)
    cands: np.ndarray    # int64[16] look-ahead candidates
    plans: np.ndarray    # int64[16] their planned end hexes
    stream: np.ndarray   # uint64[4] the playouts' stream (common to every candidate)
    cheap: np.ndarray    # float64[hexes] the quick part of a position value
    play: GameState      # a spare state for playouts


def make_work(game) -> Work:
    """Scratch for the players of one worker (one per thread)."""
    nh = game.cm.n
    return Work(np.zeros(MAX_ACTIONS, np.int64), np.zeros(MAX_ACTIONS, np.int64), np.zeros(nh),
                np.zeros(nh, np.int64), np.zeros(nh, np.int64), np.zeros(48 * nh + 8, np.int64),
                np.zeros(8), np.zeros(8, np.int64), np.zeros(MAX_ACTIONS), np.zeros(MAX_ACTIONS, np.int64),
                np.zeros(16, np.int64), np.zeros(16, np.int64), np.zeros(4, np.uint64), np.zeros(nh),
                game.new_state())


@rule
def random_choice(s, t, side, buf):
    n = min(legal_actions(s, t, buf), buf.shape[0])
    return buf[below(s.rng[1 + side], n)]


# ======================================================================================
# greedy: values
# ======================================================================================


@rule
def worth(t, ty):
    return t.ut[ty, UT_VALUE] / 40.0


@rule_hot
def fire_value(s, t, f, v, fh, th, fs, fb):
    """What a fire is worth to the firer: the exact odds (10.5-10.7) times the target's worth."""
    pe, ed, pm = expected_fire(s, t, f, v, fh, th, fs, fb)
    w = t.fconst
    return worth(t, s.u[v, U_TYPE]) * (w[W_KILL] * pe + w[W_DAMAGE] * ed + w[W_MORALE] * pm)


@rule
def target_value(s, t, f, v, fh, th, fs, fb):
    """:func:`fire_value` for a chosen target, tank riders included (10.10.1), and into a
    close combat (10.11)."""
    if in_close_combat(s, v):
        return into_cc_value(s, t, f, v, fh, fs)
    pe, ed, pm = expected_fire_any(s, t, f, v, fh, th, fs, fb)
    w = t.fconst
    return worth(t, s.u[v, U_TYPE]) * (w[W_KILL] * pe + w[W_DAMAGE] * ed + w[W_MORALE] * pm)


@rule
def into_cc_value(s, t, f, v, fh, fs):
    """A fire into a close combat (10.11, reading S20): the exact odds at the target times
    its worth, less the (approximate) harm to the friendly vehicle times its worth."""
    pe, ed, pm, fe, fd, fm, x = into_cc_odds(s, t, f, v, fh, fs)
    w = t.fconst
    value = worth(t, s.u[v, U_TYPE]) * (w[W_KILL] * pe + w[W_DAMAGE] * ed + w[W_MORALE] * pm)
    if x >= 0:
        value -= worth(t, s.u[x, U_TYPE]) * (w[W_KILL] * fe + w[W_DAMAGE] * fd + w[W_MORALE] * fm)
    return value


@rule
def turn_fraction(s, t):
    return min(1.0, s.g[G_TURN] / max(1.0, t.p[P_TURNS] * 1.0))


@rule
def objective_relevant(t, k):
    """An objective either side's victory conditions name (3.1, 9.7)."""
    for side in range(2):
        row = t.p[P_O_VIC] + side
        if t.meta[row, V_HOLD_MASK] & (1 << k):
            return True
        if t.meta[row, V_HOLD_COUNT] > 0 or t.meta[row, V_POINTS] > 0:
            return True
    return False


@rule
def objective_value(s, t, side, h):
    """Being in ``h`` as far as objectives go: on one to take or to hold, and how far
    from the nearest one still to take."""
    w = t.fconst
    urgency = 0.5 + w[W_URGENCY] * turn_fraction(s, t)
    val = 0.0
    k = t.hexi[h, HI_OBJ]
    if k >= 0 and objective_relevant(t, k):
        value = t.meta[t.p[P_O_OBJ] + k, OB_VALUE]
        if s.aux[AUX_OBJ, k] != side:
            val += w[W_OBJ_TAKE] * value * urgency
        else:
            val += w[W_OBJ_HOLD] * value
    best = 1 << 20
    for j in range(t.p[P_N_OBJ]):
        if s.aux[AUX_OBJ, j] != side and objective_relevant(t, j):
            d = dist(t, h, t.meta[t.p[P_O_OBJ] + j, OB_HEX])
            if d < best:
                best = d
    if best < (1 << 20):
        val -= w[W_OBJ_NEAR] * best * urgency
    return val


@rule
def position_value(s, t, u, h):
    """What it is worth to ``u`` to stand in ``h``: objectives, cover, the enemy fire it
    would face there and the fire it could deal from there (exact odds).

    (The two fire sums are separate functions on purpose: with both in one loop LLVM
    makes that loop thirty times slower.)"""
    w = t.fconst
    val = objective_value(s, t, s.u[u, U_SIDE], h) + w[W_COVER] * t.fconst[t.p[P_O_COVER] + h]
    return val - w[W_THREAT] * threat_at(s, t, u, h) + w[W_FIREPOWER] * best_fire_from(s, t, u, h, FS_FIRING)


@rule
def cc_value(s, t, u, g):
    """Entering enemy hex ``g``: the expected exchange of an initiated round (from the
    exact pools of the melee package), what is won if the holder falls, and the hex."""
    side = s.u[u, U_SIDE]
    tu = s.u[u, U_TYPE]
    if t.p[P_OVERRUN] == 1 and t.ut[tu, UT_OVERRUN] == 1 and t.hexi[g, HI_TDMG] < 0:
        gun = overrun_gun(s.u, t.ut, g, side)
        if gun >= 0:
            return overrun_value(s, t, u, gun, g)
    best = NEG
    for e in range(s.u.shape[0]):
        if s.u[e, U_ST] != ONMAP or s.u[e, U_HEX] != g or s.u[e, U_SIDE] == side:
            continue
        te = s.u[e, U_TYPE]
        terr = t.hexi[g, HI_CCT]               # close combat's ground (fortifications too)
        if s.u[e, U_MORALE] != 0:           # 12.0: suppressed (v1) or fallen back: a free hex
            gain = worth(t, te)
            lost = 0.0
        else:
            off = t.p[P_O_CCLOSS] + ((tu * t.p[P_NT] + te) * t.p[P_NCCT] + terr) * 2
            lost = t.fconst[off] / max(1, t.ut[tu, UT_STR] - s.u[u, U_DMG]) * worth(t, tu)
            gain = t.fconst[off + 1] / max(1, t.ut[te, UT_STR] - s.u[e, U_DMG]) * worth(t, te)
        v = t.fconst[W_CC] * (gain - lost) + 0.5 * objective_value(s, t, side, g)
        if v > best:
            best = v
    return best


@rule
def overrun_value(s, t, u, gun, g):
    """Overrunning ``gun`` in ``g`` (9.10.3): the gun's worth if the last shot does not
    stop the vehicle, less the vehicle's expected loss, and the hex (exact odds of the
    last-shot pools, :func:`simulator.engine.assault.overrun.overrun_odds`)."""
    tu = s.u[u, U_TYPE]
    p_stop, lost_points = overrun_odds(s, t, u, gun)
    lost = lost_points / max(1, t.ut[tu, UT_STR] - s.u[u, U_DMG]) * worth(t, tu)
    gain = (1.0 - p_stop) * worth(t, s.u[gun, U_TYPE])
    return t.fconst[W_CC] * (gain - lost) + 0.5 * objective_value(s, t, s.u[u, U_SIDE], g)


# ======================================================================================
# greedy: choices
# ======================================================================================


@rule
def noise(s, t, side):
    return t.fconst[W_NOISE] * uniform(s.rng[1 + side])


PREFILTER = 6     # hexes a move looks at closely: the best by objectives and cover


@rule
def quick_value(s, t, u, g):
    """The cheap part of a position value (objectives and cover), to pick the hexes worth
    the full evaluation with the fire at and from them."""
    return objective_value(s, t, s.u[u, U_SIDE], g) + t.fconst[W_COVER] * t.fconst[t.p[P_O_COVER] + g]


@rule
def prefilter(s, t, u, h, w):
    """Mark in ``w.cheap`` (as NaN) the hexes of ``w.best`` not among the PREFILTER best
    by :func:`quick_value`; the others keep their quick value."""
    side = s.u[u, U_SIDE]
    count = 0
    for g in range(w.best.shape[0]):
        if w.best[g] >= 0 and g != h and s.hx[g, HX_OCC + side] == 0 and s.hx[g, HX_OCC + 1 - side] == 0:
            w.cheap[g] = quick_value(s, t, u, g)
            count += 1
        else:
            w.cheap[g] = np.nan
    while count > PREFILTER:                   # drop the worst until PREFILTER are left
        worst = -1
        for g in range(w.cheap.shape[0]):
            if not np.isnan(w.cheap[g]) and (worst < 0 or w.cheap[g] < w.cheap[worst]):
                worst = g
        w.cheap[worst] = np.nan
        count -= 1


@rule
def best_destination(s, t, u, h, mode, mp, steps, w, fire_after):
    """The best hex to end a move in (value and hex), from ``reach``. ``pos`` caches
    position values (NaN: not computed); ``fire_after``: add the best fire from there
    (move and fire, 9.3)."""
    pos = w.pos
    best = w.best
    reach(s, t, u, h, mode, mp, steps, best, w.first, w.stack)
    prefilter(s, t, u, h, w)
    side = s.u[u, U_SIDE]
    top = NEG
    dest = -1
    for g in range(best.shape[0]):
        if best[g] < 0 or g == h:
            continue
        if s.hx[g, HX_OCC + 1 - side] > 0:
            if mode != MODE_NORMAL and mode != MODE_FAST:
                continue
            v = cc_value(s, t, u, g)
        else:
            if s.hx[g, HX_OCC + side] > 0 or np.isnan(w.cheap[g]):
                continue
            if np.isnan(pos[g]):
                pos[g] = position_value(s, t, u, g)
            v = pos[g]
            if fire_after != 0:
                v += best_fire_from(s, t, u, g, FS_MOVE)
        if v > top:
            top = v
            dest = g
    return top, dest


@rule
def best_half_moves(s, t, u, h, mp, w):
    """Move and fire and fire and move share their movement rules (half the allowance,
    no close combat, 9.3): one reach gives both their best end hexes. Returns
    ``(value with the fire after, hex, value without, hex)``."""
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
            pos[g] = position_value(s, t, u, g)
        v = pos[g]
        if v > top:
            top = v
            dest = g
        v += best_fire_from(s, t, u, g, FS_MOVE)
        if v > top_f:
            top_f = v
            dest_f = g
    return top_f, dest_f, top, dest


@rule
def best_fire_from(s, t, u, h, fs):
    """The most a fire by ``u`` from ``h`` with fire status ``fs`` could be worth to it
    (10.7, exact odds; zero when no enemy can be fired at)."""
    best = 0.0
    side = s.u[u, U_SIDE]
    for e in range(s.u.shape[0]):
        if s.u[e, U_ST] != ONMAP or s.u[e, U_SIDE] == side or s.u[e, U_CC] != CC_NONE:
            continue
        v = fire_value(s, t, u, e, h, s.u[e, U_HEX], fs, FALSE)
        if v > best:
            best = v
    return best


@rule
def threat_at(s, t, u, h):
    """What the enemy's fire at ``u`` standing in ``h`` is worth to them (exact odds)."""
    total = 0.0
    side = s.u[u, U_SIDE]
    for e in range(s.u.shape[0]):
        if s.u[e, U_ST] != ONMAP or s.u[e, U_SIDE] == side or s.u[e, U_CC] != CC_NONE:
            continue
        eh = s.u[e, U_HEX]
        if eh == h:
            continue
        total += fire_value(s, t, e, u, eh, h, FS_FIRING, FALSE)
    return total


@rule
def greedy_scores(s, t, side, w, buf, n):  # noqa: C901 - compiled rule, split in issue 17 item 3
    """Greedy's score of each of the ``n`` legal actions in ``buf`` (into ``w.scores``,
    with the planned end hex of moves in ``w.dests``); returns the best one's index.
    Each unit's reachable hexes and their values are worked out once and shared by its
    move actions."""
    wt = t.fconst
    top = NEG
    best_i = 0
    cur_unit = -1
    cur = 0.0
    # per unit: best (value, hex) for a normal move, a fast move, move and fire, a half move
    bv = w.val
    bd = w.idx
    for i in range(n):
        a = buf[i]
        k = a_kind(a)
        u = a_unit(a)
        dest = -1
        if k == K_PASS:
            score = wt[W_PASS]
        elif k == K_DISMOUNT:
            score = dismount_value(s, t, u, a_arg(a))
        else:
            if u != cur_unit:
                cur_unit = u
                w.pos[:] = np.nan
                bd[:] = -2
                cur = position_value(s, t, u, s.u[u, U_HEX])
            h = s.u[u, U_HEX]
            mp = t.ut[s.u[u, U_TYPE], UT_MOVE]
            slot_i = -1
            if k == K_MOVE:
                slot_i = 0
            elif k == K_FAST:
                slot_i = 1
            elif k == K_MOVEFIRE or k == K_FIREMOVE:
                slot_i = 2
            elif k == K_WITHDRAW:
                slot_i = 3
            elif k == K_REVERSE:
                slot_i = 5
            if slot_i >= 0 and bd[slot_i] == -2:
                if slot_i == 0:
                    bv[0], bd[0] = best_destination(s, t, u, h, MODE_NORMAL, mp, NIL, w, FALSE)
                elif slot_i == 1:
                    bv[1], bd[1] = best_destination(s, t, u, h, MODE_FAST, mp + 1, NIL, w, FALSE)
                elif slot_i == 2:
                    bv[2], bd[2], bv[4], bd[4] = best_half_moves(s, t, u, h, (mp + 1) // 2, w)
                elif slot_i == 3:
                    bv[3], bd[3] = best_destination(s, t, u, h, MODE_WITHDRAW, mp + 1, NIL, w, FALSE)
                else:
                    bv[5], bd[5] = best_destination(s, t, u, h, MODE_REVERSE, (mp + 1) // 2, NIL, w, FALSE)
            if k == K_FIRE or k == K_TURRET:
                v = a_arg(a)
                score = target_value(s, t, u, v, h, unit_hex(s, v), FS_TURRET if k == K_TURRET else FS_FIRING, FALSE)
            elif k == K_MOVE:
                score = bv[0] - cur
                dest = bd[0]
            elif k == K_FAST:
                score = bv[1] - cur - wt[W_FAST]
                dest = bd[1]
            elif k == K_MOVEFIRE:
                score = bv[2] - cur
                dest = bd[2]
            elif k == K_FIREMOVE:
                v = a_arg(a)
                if in_close_combat(s, v):                           # 10.11
                    score = into_cc_value(s, t, u, v, h, FS_MOVE) + max(0.0, bv[4] - cur)
                else:
                    score = fire_value(s, t, u, v, h, s.u[v, U_HEX], FS_MOVE, FALSE) + max(0.0, bv[4] - cur)
                dest = bd[4] if bv[4] > cur else -1
            elif k == K_DIG:
                score = wt[W_DIG] * threat_at(s, t, u, h)
            elif k == K_RENEW:
                score = 0.5 * cc_value(s, t, u, h)
            elif k == K_WITHDRAW:
                score = bv[3] - cur - 0.3
                dest = bd[3]
            elif k == K_REVERSE:
                score = bv[5] - cur
                dest = bd[5]
            else:
                score = 0.0
        score += noise(s, t, side)
        w.scores[i] = score
        w.dests[i] = dest
        if score > top:
            top = score
            best_i = i
    return best_i


@rule
def dismount_value(s, t, u, d):
    """9.11.3: getting out of the vehicle into the hex across side ``d``: the position
    there against riding on (objectives and cover of the vehicle's hex, no fire), less a
    fast action, less the ride still to come when the vehicle has not moved this turn."""
    c = s.u[u, U_CARRIER]
    h = s.u[c, U_HEX]
    g = t.side6[h, d, S6_NBR]
    w = t.fconst
    val = position_value(s, t, u, g) - quick_value(s, t, u, h) - w[W_FAST]
    if s.u[c, U_DONE] == 0:
        gain = t.ut[s.u[c, U_TYPE], UT_MOVE] - t.ut[s.u[u, U_TYPE], UT_MOVE]
        val -= w[W_OBJ_NEAR] * max(0, gain) * (0.5 + w[W_URGENCY] * turn_fraction(s, t))
    return val


@rule
def emergency_choice(s, t, side, buf, n):
    """10.10.3: the safest, most useful empty hex next to the vehicle."""
    top = NEG
    choice = buf[0]
    for i in range(n):
        a = buf[i]
        p = a_unit(a)
        g = t.side6[s.u[p, U_HEX], a_arg(a), S6_NBR]
        val = position_value(s, t, p, g) + noise(s, t, side)
        if val > top:
            top = val
            choice = a
    return choice


@rule
def load_choice(s, t, u, buf, n):
    """9.11.2: ride when the vehicle can still move this turn and the nearest objective
    to take is beyond one move on foot; else the load action is not taken (-1)."""
    for i in range(n):
        a = buf[i]
        if a_kind(a) != K_LOAD:
            continue
        c = a_arg(a)
        if s.u[c, U_DONE] == 1:
            return -1
        h = s.u[u, U_HEX]
        side = s.u[u, U_SIDE]
        best = 1 << 20
        for j in range(t.p[P_N_OBJ]):
            if s.aux[AUX_OBJ, j] != side and objective_relevant(t, j):
                best = min(best, dist(t, h, t.meta[t.p[P_O_OBJ] + j, OB_HEX]))
        if best < (1 << 20) and best > t.ut[s.u[u, U_TYPE], UT_MOVE] + 1:
            return a
    return -1


@rule
def greedy_select(s, t, side, w, buf):
    """6.4: pass, or the best activation by greedy's scores."""
    n = min(legal_actions(s, t, buf), buf.shape[0])
    i = greedy_scores(s, t, side, w, buf, n)
    s.g[G_PLAN0 + side] = w.dests[i] + 1
    return buf[i]


@rule
def greedy_step(s, t, side, w, buf, n, u, mode, mp, steps):
    """Follow the plan (re-planning when it cannot be followed): a step or a stop."""
    h = s.u[u, U_HEX]
    plan = s.g[G_PLAN0 + side] - 1
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
    cur = position_value(s, t, u, h)
    v, dest = best_destination(s, t, u, h, mode, mp, steps, w, np.int64(mode == MODE_MOVEFIRE))
    if mode == MODE_MOVEFIRE:
        cur += best_fire_from(s, t, u, h, FS_MOVE)
    if (dest < 0 or v <= cur) and can_stop:
        s.g[G_PLAN0 + side] = h + 1
        return find_kind(buf, n, K_STOP)
    if dest >= 0 and w.first[dest] >= 0:
        s.g[G_PLAN0 + side] = dest + 1
        a = first_action(u, w.first[dest])
        for i in range(n):
            if buf[i] == a:
                return a
    return buf[0]


@rule
def first_action(u, code):
    """The action of a ``reach`` first-action code: a step across a side, or a turn."""
    if code >= TURN:
        return action(K_TURN, u, code - TURN)
    return action(K_STEP, u, code)


@rule
def tracks_choice(s, t, buf, n):
    """12.9: attack the wheels/tracks when immobilising (about half a unit's worth)
    promises more than the attack on the vehicle (exact pool statistics)."""
    x = s.g[G_CC_X]
    y = s.g[G_CC_Y]
    role = s.g[G_CC_RXY]
    if not tracks_option(s, t, x, y):
        x = s.g[G_CC_Y]
        y = s.g[G_CC_X]
        role = s.g[G_CC_RYX]
    h = s.u[x, U_HEX]
    pv = direction_table(s, t, x, y, role, s.g[G_CC_XF], h, NIL)
    pt = direction_table(s, t, x, y, role, s.g[G_CC_XF], h, TRUE)
    vv = 0.0
    vt = 0.0
    if pv >= 0:
        vv = cc_stat(t, pv, NIL) + cc_stat(t, pv, np.int64(1)) + 0.25 * cc_stat(t, pv, np.int64(2))
    if pt >= 0:
        vt = 0.5 * cc_stat(t, pt, np.int64(3)) + 0.25 * cc_stat(t, pt, np.int64(2))
    return find_kind(buf, n, K_TRACKS if vt > vv else K_VEHICLE)


@rule
def find_kind(buf, n, k):
    for i in range(n):
        if a_kind(buf[i]) == k:
            return buf[i]
    return buf[0]


# ======================================================================================
# greedy in the support phase (6.3, chapter 7)
# ======================================================================================

SMOKE_SCREEN = 0.4   # what a smoke hex is worth per unit of enemy fire value along lines through it
SPOTTER_COST = 0.05  # a spotter gives up its own activation (7.2)


@rule
def screen_values(s, t, side, out):
    """``out[h]``: the fire value the enemy could deal ``side``'s units along lines of
    sight through hex ``h`` (what smoke there would hinder, 10.3)."""
    out[:] = 0.0
    for e in range(s.u.shape[0]):
        if s.u[e, U_ST] != ONMAP or s.u[e, U_SIDE] == side or s.u[e, U_CC] != CC_NONE:
            continue
        eh = s.u[e, U_HEX]
        for o in range(s.u.shape[0]):
            if s.u[o, U_ST] != ONMAP or s.u[o, U_SIDE] != side:
                continue
            oh = s.u[o, U_HEX]
            v = fire_value(s, t, e, o, eh, oh, FS_FIRING, FALSE)
            if v <= 0.0:
                continue
            for k in range(n_between(t)):
                x = between(t, eh, oh, k)
                if x < 0:
                    break
                out[x] += v


@rule
def facing_value(s, t, u, f):
    """What artillery ``u`` could fire at facing vertex ``f`` (10.6), as greedy values it."""
    old = s.u[u, U_FACE]
    s.u[u, U_FACE] = f
    v = best_fire_from(s, t, u, s.u[u, U_HEX], FS_FIRING)
    s.u[u, U_FACE] = old
    return v


@rule
def greedy_support(s, t, side, w, buf, n):
    """6.3: the indirect fire worth most by the exact odds (less a spotter's activation),
    smoke where it screens the most enemy fire, or an artillery unit turned to face more
    targets (7.6); passes when nothing beats passing."""
    wt = t.fconst
    screened = False
    top = NEG
    choice = buf[0]
    for i in range(n):
        a = buf[i]
        k = a_kind(a)
        u = a_unit(a)
        arg = a_arg(a)
        if k == K_INDIRECT:
            v = arg % 256
            spotter = arg // 256 - 1
            pe, ed, pm = expected_indirect(s, t, u, v, spotter)
            score = worth(t, s.u[v, U_TYPE]) * (wt[W_KILL] * pe + wt[W_DAMAGE] * ed + wt[W_MORALE] * pm)
            if spotter >= 0:
                score -= SPOTTER_COST
        elif k == K_SMOKE:
            if not screened:
                screen_values(s, t, side, w.pos)
                screened = True
            score = SMOKE_SCREEN * w.pos[arg % 65536] - (SPOTTER_COST if arg >= 65536 else 0.0)
        elif k == K_ART_FACE:
            score = facing_value(s, t, u, arg) - facing_value(s, t, u, s.u[u, U_FACE])
        else:
            score = wt[W_PASS]
        score += noise(s, t, side)
        if score > top:
            top = score
            choice = a
    return choice


@rule
def greedy_smoke_hex(s, t, side, w, buf, n):
    """7.5: the dice set aside cost nothing: smoke the adjacent hex that screens most."""
    screen_values(s, t, side, w.pos)
    top = NEG
    choice = buf[0]
    for i in range(n):
        a = buf[i]
        if a_kind(a) == K_SMOKE_HEX:
            score = w.pos[a_arg(a)] + noise(s, t, side)
            if score > top:
                top = score
                choice = a
    return choice


@rule
def greedy_choice(s, t, side, w, buf):  # noqa: C901 - compiled rule, split in issue 17 item 3
    sub = s.g[G_SUB]
    if s.g[G_EMERG] > 0 and tr.emergency_now(s):
        n = min(legal_actions(s, t, buf), buf.shape[0])
        return emergency_choice(s, t, side, buf, n)
    if sub == SUB_SELECT:
        return greedy_select(s, t, side, w, buf)
    n = min(legal_actions(s, t, buf), buf.shape[0])
    if n == 1:
        return buf[0]
    if sub == SUB_SUPPORT:
        return greedy_support(s, t, side, w, buf, n)
    if sub == SUB_SMOKE_NEXT:
        return greedy_smoke_hex(s, t, side, w, buf, n)
    if sub == SUB_MOVE:
        if t.p[P_TRANSPORT] == 1:
            a = load_choice(s, t, s.g[G_UNIT], buf, n)
            if a >= 0:
                return a
        return greedy_step(s, t, side, w, buf, n, s.g[G_UNIT], s.g[G_MODE], s.g[G_MP], s.g[G_STEPS])
    top = NEG
    choice = buf[0]
    if sub == SUB_REACT:                          # 8.2: fire if it is worth it
        mover = s.g[G_REACT_UNIT]
        fb = np.int64(mover == s.g[G_FB_UNIT])
        for i in range(n):
            a = buf[i]
            if a_kind(a) == K_REACT:
                r = a_unit(a)
                tgt = a_arg(a)                    # the mover or one of its tank riders (10.10.1)
                v = target_value(s, t, r, tgt, s.u[r, U_HEX], unit_hex(s, tgt), FS_FIRING, fb)
                if v > top:
                    top = v
                    choice = a
        if top < t.fconst[W_REACT]:
            return find_kind(buf, n, K_NOREACT)
        return choice
    if sub == SUB_AFTER_MOVE:
        u = s.g[G_UNIT]
        top = 0.0
        choice = find_kind(buf, n, K_NOFIRE)
        for i in range(n):
            a = buf[i]
            if a_kind(a) == K_TARGET:
                v = fire_value(s, t, u, a_arg(a), s.u[u, U_HEX], s.u[a_arg(a), U_HEX], FS_MOVE, FALSE)
                if v > top:
                    top = v
                    choice = a
        return choice
    if sub == SUB_FALLBACK:                       # 13.3: the safest hex further away
        v = s.g[G_FB_UNIT]
        for i in range(n):
            a = buf[i]
            g = t.side6[s.u[v, U_HEX], a_arg(a), S6_NBR]
            val = -threat_at(s, t, v, g) + t.fconst[W_COVER] * t.fconst[t.p[P_O_COVER] + g] + noise(s, t, side)
            if val > top:
                top = val
                choice = a
        return choice
    if sub == SUB_PLACE:                          # 5.8: the best of the hexes that look best
        for i in range(n):
            a = buf[i]
            w.scores[i] = quick_value(s, t, a_unit(a), a_arg(a) // 8) + noise(s, t, side)
        for _ in range(min(n, PREFILTER)):
            j = 0
            for i in range(n):
                if w.scores[i] > w.scores[j]:
                    j = i
            a = buf[j]
            w.scores[j] = NEG
            val = position_value(s, t, a_unit(a), a_arg(a) // 8)
            if val > top:
                top = val
                choice = a
        return choice
    if sub == SUB_CC_PICK:
        q = s.g[G_CC_Q]
        if q == Q_TARGET:                         # 12.2: the weakest enemy
            for i in range(n):
                e = a_arg(buf[i])
                val = -(t.ut[s.u[e, U_TYPE], UT_STR] - s.u[e, U_DMG]) * 1.0
                if val > top:
                    top = val
                    choice = buf[i]
            return choice
        if q == Q_SUPPORT_A or q == Q_SUPPORT_D:  # revised 12.1.1.1: a re-roll is always welcome
            return buf[n - 1]
        if q == Q_TRACKS:
            return tracks_choice(s, t, buf, n)
        if q == Q_PASSENGER:                      # 12.10 (reading S26): the strongest passenger goes in
            for i in range(n):
                if a_kind(buf[i]) == K_INTO_CC:
                    p = a_unit(buf[i])
                    val = (t.ut[s.u[p, U_TYPE], UT_STR] - s.u[p, U_DMG]) * 1.0
                    if val > top:
                        top = val
                        choice = buf[i]
            return choice
        for i in range(n):                        # 12.6: over-stacked, the better hex
            a = buf[i]
            val = position_value(s, t, a_unit(a), a_arg(a))
            if val > top:
                top = val
                choice = a
        return choice
    if sub == SUB_CC_WITHDRAW:                    # revised 12.1.6.1
        a_u = s.g[G_CC_A]
        d_u = s.g[G_CC_D]
        me = a_u if s.u[a_u, U_SIDE] == side else d_u
        foe = d_u if me == a_u else a_u
        mine = t.ut[s.u[me, U_TYPE], UT_STR] - s.u[me, U_DMG]
        theirs = t.ut[s.u[foe, U_TYPE], UT_STR] - s.u[foe, U_DMG]
        leave = mine < theirs and s.u[me, U_DMG] >= t.ut[s.u[me, U_TYPE], UT_HALF]
        return find_kind(buf, n, K_LEAVE if leave else K_STAY)
    if sub == SUB_FORMATION:                      # 5.6: the card with the most points
        for i in range(n):
            f = a_arg(buf[i])
            val = 0.0
            for u in range(s.u.shape[0]):
                if s.u[u, U_FORM] == f:
                    val += t.ut[s.u[u, U_TYPE], UT_VALUE]
            val += noise(s, t, side)
            if val > top:
                top = val
                choice = buf[i]
        return choice
    if sub == SUB_SETUP_ORDER:                    # 5.8: let the opponent show its hand first
        for i in range(n):
            if a_arg(buf[i]) != side:
                return buf[i]
    if sub == SUB_PLAN:                           # 6.2.2: where the most units wait
        for i in range(n):
            ty = a_arg(buf[i])
            val = 0.0
            for u in range(s.u.shape[0]):
                if s.u[u, U_SIDE] == side and s.u[u, U_TYPE] == ty and s.u[u, U_ST] == ONMAP:
                    val += 1.0
            val -= s.cp[side, ty, 0]
            val += noise(s, t, side)
            if val > top:
                top = val
                choice = buf[i]
        return choice
    return buf[below(s.rng[1 + side], n)]


# ======================================================================================
# look-ahead
# ======================================================================================


@rule
def evaluate(s, t, side):
    """A position's worth to ``side``: strength points left times worth, objectives held,
    and a win or a loss."""
    if s.g[G_OVER] == 1:
        w = s.g[G_WINNER]
        if w == side:
            return 100.0
        if w >= 0:
            return -100.0
    val = 0.0
    for u in range(s.u.shape[0]):
        st = s.u[u, U_ST]
        if st == ONMAP or st == CARRIED or st == PENDING:
            ty = s.u[u, U_TYPE]
            left = (t.ut[ty, UT_STR] - s.u[u, U_DMG]) / t.ut[ty, UT_STR]
            v = worth(t, ty) * (0.4 + 0.6 * left)
            val += v if s.u[u, U_SIDE] == side else -v
    for k in range(t.p[P_N_OBJ]):
        if objective_relevant(t, k):
            o = s.aux[AUX_OBJ, k]
            value = t.meta[t.p[P_O_OBJ] + k, OB_VALUE] * 1.5
            if o == side:
                val += value
            elif o >= 0:
                val -= value
    for u in range(s.u.shape[0]):              # where the units stand, as greedy sees it
        if s.u[u, U_ST] == ONMAP:
            v = objective_value(s, t, s.u[u, U_SIDE], s.u[u, U_HEX])
            val += v if s.u[u, U_SIDE] == side else -v
    return val


@rule
def reseed(play, src):
    """Fresh dice and players' streams for a playout, drawn from the look-ahead player's
    own stream ``src`` (so it never sees the game's future dice)."""
    next_u64_into(play.rng, src)


@rule_inlined
def lookahead_choice(s, t, side, w, params):
    """Flat Monte Carlo over greedy's best ``params[0]`` actions, ``params[1]`` playouts
    each to the end of the turn plus ``params[2]`` turns."""
    buf = w.buf
    if s.g[G_SUB] != SUB_SELECT or s.g[G_EMERG] > 0:
        return greedy_choice(s, t, side, w, buf)
    n = min(legal_actions(s, t, buf), buf.shape[0])
    if n == 1:
        return buf[0]
    greedy_scores(s, t, side, w, buf, n)
    k_max = min(params[0], n, w.cands.shape[0])
    cands = w.cands
    plans = w.plans
    m = 0
    while m < k_max:                               # greedy's best actions, best first
        j = -1
        for i in range(n):
            if w.scores[i] > NEG / 2 and (j < 0 or w.scores[i] > w.scores[j]):
                j = i
        if j < 0:
            break
        cands[m] = buf[j]
        plans[m] = w.dests[j]
        w.scores[j] = NEG
        m += 1
    horizon = s.g[G_TURN] + params[2]
    play = w.play
    best = NEG
    choice = 0
    below(s.rng[1 + side], 2)                      # move the player's own stream on
    for c in range(m):
        total = 0.0
        for k in range(4):                          # common random numbers: every candidate's
            w.stream[k] = s.rng[1 + side, k]        # r-th playout rolls the same dice
        for _ in range(params[1]):
            restore_state(play, s)
            play.g[G_LOG_ON] = 0
            reseed(play, w.stream)
            play.g[G_PLAN0 + side] = plans[c] + 1
            apply_action(play, t, cands[c])
            steps = 0
            while play.g[G_OVER] == 0 and play.g[G_TURN] <= horizon and steps < 4000:
                d = play.g[G_DECIDER]
                apply_action(play, t, greedy_choice(play, t, d, w, w.pbuf))
                steps += 1
            total += evaluate(play, t, side)
        mean = total / params[1]
        if mean > best + 1e-9:
            best = mean
            choice = c
    s.g[G_PLAN0 + side] = plans[choice] + 1
    return cands[choice]


@rule
def quick_score(s, t, a):
    """A cheap score to rank look-ahead candidates: fires by their value, moves and the
    rest by a small constant (they are tried only if there is room)."""
    k = a_kind(a)
    u = a_unit(a)
    if k == K_FIRE or k == K_TURRET or k == K_FIREMOVE:
        v = a_arg(a)
        fs = FS_MOVE if k == K_FIREMOVE else (FS_TURRET if k == K_TURRET else FS_FIRING)
        return target_value(s, t, u, v, s.u[u, U_HEX], unit_hex(s, v), fs, FALSE)
    if k == K_MOVE or k == K_FAST or k == K_MOVEFIRE or k == K_DISMOUNT:
        return 0.05
    if k == K_PASS:
        return 0.0
    return 0.01


# ======================================================================================
# dispatch and whole games
# ======================================================================================


@rule_inlined
def choice(s, t, kind, side, w, params):
    """The action of a player of ``kind`` (RANDOM, GREEDY, LOOKAHEAD) for ``side``.

    Inlined (at numba's level) into :func:`play`, with the look-ahead player: each
    separately compiled layer above the rules costs LLVM a pass over the whole engine
    linked beneath it (about 13 s of a cold compile each)."""
    if kind == GREEDY:
        return greedy_choice(s, t, side, w, w.buf)
    if kind == LOOKAHEAD:
        return lookahead_choice(s, t, side, w, params)
    return random_choice(s, t, side, w.buf)


@entry
def choose(s, t, kind, side, w, params):
    """:func:`choice`, for Python callers (one decision at a time)."""
    return choice(s, t, kind, side, w, params)


DEFAULT_PARAMS = np.array([4, 8, 0], dtype=np.int64)   # look-ahead: candidates, playouts, extra turns


@rule_inlined
def play(s, t, kinds, params, w, max_decisions):
    """Play from ``s`` to the end of the game with players ``kinds[side]`` (inlined into
    :func:`simulator.engine.core.batch.play_chunk`, see :func:`choice`)."""
    n = 0
    while s.g[G_OVER] == 0 and n < max_decisions:
        side = s.g[G_DECIDER]
        a = choice(s, t, kinds[side], side, w, params)
        apply_action(s, t, a)
        n += 1
    return n


int64_constants(globals())
