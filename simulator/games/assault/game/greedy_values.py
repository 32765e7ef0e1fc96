"""What the ``greedy`` player thinks things are worth (numba): a fire, a hex to stand
in, a close combat, an objective. Every value is in units of a unit's worth (its points
/ 40) and weighed by the player's own weights ``wt`` (``W_*``, :data:`DEFAULT_WEIGHTS`),
which the caller passes in (``Work.weights``).

The fire odds are exact (:func:`~simulator.games.assault.game.fire.expected_fire`: chance to
eliminate, expected damage, chance of a morale hit, times what the target is worth).
"""

from __future__ import annotations

import numpy as np

from simulator.engine.core.compiling import int64_constants, rule, rule_hot, rule_inlined
from simulator.engine.players.base import NEG, own_uniform
from simulator.games.assault.game.board import occ
from simulator.games.assault.game.fire import expected_fire, expected_fire_any
from simulator.games.assault.game.intocc import in_close_combat, into_cc_odds
from simulator.games.assault.game.overrun import overrun_gun, overrun_odds
from simulator.games.assault.game.pooltab import FS_FIRING
from simulator.games.assault.game.state import CARRIED, FALSE, ONMAP, PENDING
from simulator.games.assault.game.support import expected_indirect
from simulator.games.assault.game.tables import (
    OB_HEX,
    OB_VALUE,
    V_HOLD_COUNT,
    V_HOLD_MASK,
    V_POINTS,
    between,
    cc_loss,
    cover,
    dist,
    n_between,
    nbr,
    obj,
    vic,
)
from simulator.games.assault.game.view import (
    carrier_of,
    cc_ground,
    damage_of,
    game_turns,
    has_cc_marker,
    has_terrain_damage,
    hex_of,
    holder_of,
    is_done,
    is_on_map,
    is_over,
    morale_of,
    move_allowance,
    n_objectives,
    n_slots,
    objective_at,
    overrun_rule,
    overruns,
    points_of,
    side_of,
    status_of,
    turn_number,
    type_of,
    unit_strength,
    winner,
)

# greedy's weights (Work.weights): index -> meaning
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

@rule
def noise(s, side, wt):
    """The random tie-break, from ``side``'s own stream."""
    return wt[W_NOISE] * own_uniform(s, side)


@rule
def worth(t, ty):
    return points_of(t, ty) / 40.0


@rule
def odds_value(t, wt, ty, pe, ed, pm):
    """Odds against a unit of type ``ty`` (to eliminate, expected damage, of a morale
    hit) times its worth."""
    return worth(t, ty) * (wt[W_KILL] * pe + wt[W_DAMAGE] * ed + wt[W_MORALE] * pm)


@rule_hot
def fire_value(s, t, wt, f, v, fh, th, fs, fb):
    """What a fire is worth to the firer: the exact odds (10.5-10.7) times the target's worth."""
    pe, ed, pm = expected_fire(s, t, f, v, fh, th, fs, fb)
    return worth(t, type_of(s, v)) * (wt[W_KILL] * pe + wt[W_DAMAGE] * ed + wt[W_MORALE] * pm)


@rule
def target_value(s, t, wt, f, v, fh, th, fs, fb):
    """:func:`fire_value` for a chosen target, tank riders included (10.10.1), and into a
    close combat (10.11)."""
    if in_close_combat(s, v):
        return into_cc_value(s, t, wt, f, v, fh, fs)
    pe, ed, pm = expected_fire_any(s, t, f, v, fh, th, fs, fb)
    return odds_value(t, wt, type_of(s, v), pe, ed, pm)


@rule
def into_cc_value(s, t, wt, f, v, fh, fs):
    """A fire into a close combat (10.11, reading S20): the exact odds at the target times
    its worth, less the (approximate) harm to the friendly vehicle times its worth."""
    pe, ed, pm, fe, fd, fm, x = into_cc_odds(s, t, f, v, fh, fs)
    value = odds_value(t, wt, type_of(s, v), pe, ed, pm)
    if x >= 0:
        value -= odds_value(t, wt, type_of(s, x), fe, fd, fm)
    return value


@rule_inlined
def indirect_value(s, t, wt, u, v, spotter):
    """An indirect fire by ``u`` at ``v`` (chapter 7), exact odds, times ``v``'s worth."""
    pe, ed, pm = expected_indirect(s, t, u, v, spotter)
    return odds_value(t, wt, type_of(s, v), pe, ed, pm)


@rule
def turn_fraction(s, t):
    return min(1.0, turn_number(s) / max(1.0, game_turns(t) * 1.0))


@rule
def urgency(s, t, wt):
    """How much the objectives matter now (more as the turns run out)."""
    return 0.5 + wt[W_URGENCY] * turn_fraction(s, t)


@rule
def objective_relevant(t, k):
    """An objective either side's victory conditions name (3.1, 9.7)."""
    for side in range(2):
        if vic(t, side, V_HOLD_MASK) & (1 << k):
            return True
        if vic(t, side, V_HOLD_COUNT) > 0 or vic(t, side, V_POINTS) > 0:
            return True
    return False


@rule
def nearest_to_take(s, t, side, h):
    """Hexes from ``h`` to the nearest objective ``side`` has still to take (1 << 20: none)."""
    best = 1 << 20
    for j in range(n_objectives(t)):
        if holder_of(s, j) != side and objective_relevant(t, j):
            d = dist(t, h, obj(t, j, OB_HEX))
            if d < best:
                best = d
    return best


@rule
def objective_value(s, t, wt, side, h):
    """Being in ``h`` as far as objectives go: on one to take or to hold, and how far
    from the nearest one still to take."""
    urg = urgency(s, t, wt)
    val = 0.0
    k = objective_at(t, h)
    if k >= 0 and objective_relevant(t, k):
        value = obj(t, k, OB_VALUE)
        if holder_of(s, k) != side:
            val += wt[W_OBJ_TAKE] * value * urg
        else:
            val += wt[W_OBJ_HOLD] * value
    best = nearest_to_take(s, t, side, h)
    if best < (1 << 20):
        val -= wt[W_OBJ_NEAR] * best * urg
    return val


@rule_inlined
def position_value(s, t, wt, u, h):
    """What it is worth to ``u`` to stand in ``h``: objectives, cover, the enemy fire it
    would face there and the fire it could deal from there (exact odds).

    (The two fire sums are separate functions on purpose: with both in one loop LLVM
    makes that loop thirty times slower.)"""
    val = objective_value(s, t, wt, side_of(s, u), h) + wt[W_COVER] * cover(t, h)
    return val - wt[W_THREAT] * threat_at(s, t, wt, u, h) + wt[W_FIREPOWER] * best_fire_from(s, t, wt, u, h, FS_FIRING)


@rule
def quick_value(s, t, wt, u, g):
    """The cheap part of a position value (objectives and cover), to pick the hexes worth
    the full evaluation with the fire at and from them."""
    return objective_value(s, t, wt, side_of(s, u), g) + wt[W_COVER] * cover(t, g)


@rule
def cc_value(s, t, wt, u, g):
    """Entering enemy hex ``g``: the expected exchange of an initiated round (from the
    exact pools of the melee package), what is won if the holder falls, and the hex."""
    side = side_of(s, u)
    tu = type_of(s, u)
    if overrun_rule(t) and overruns(t, tu) and not has_terrain_damage(t, g):
        gun = overrun_gun(s.u, t.ut, g, side)
        if gun >= 0:
            return overrun_value(s, t, wt, u, gun, g)
    best = NEG
    for e in range(n_slots(s)):
        if not is_on_map(s, e) or hex_of(s, e) != g or side_of(s, e) == side:
            continue
        te = type_of(s, e)
        terr = cc_ground(t, g)                 # close combat's ground (fortifications too)
        if morale_of(s, e) != 0:               # 12.0: suppressed (v1) or fallen back: a free hex
            gain = worth(t, te)
            lost = 0.0
        else:
            lost = cc_loss(t, tu, te, terr, 0) / max(1, unit_strength(t, tu) - damage_of(s, u)) * worth(t, tu)
            gain = cc_loss(t, tu, te, terr, 1) / max(1, unit_strength(t, te) - damage_of(s, e)) * worth(t, te)
        v = wt[W_CC] * (gain - lost) + 0.5 * objective_value(s, t, wt, side, g)
        if v > best:
            best = v
    return best


@rule_inlined
def overrun_value(s, t, wt, u, gun, g):
    """Overrunning ``gun`` in ``g`` (9.10.3): the gun's worth if the last shot does not
    stop the vehicle, less the vehicle's expected loss, and the hex (exact odds of the
    last-shot pools, :func:`simulator.games.assault.game.overrun.overrun_odds`)."""
    tu = type_of(s, u)
    p_stop, lost_points = overrun_odds(s, t, u, gun)
    lost = lost_points / max(1, unit_strength(t, tu) - damage_of(s, u)) * worth(t, tu)
    gain = (1.0 - p_stop) * worth(t, type_of(s, gun))
    return wt[W_CC] * (gain - lost) + 0.5 * objective_value(s, t, wt, side_of(s, u), g)


@rule_hot
def is_enemy_in_play(s, e, side):
    """``e`` is an enemy of ``side`` on the map and not in a close combat: one that can
    fire and be fired at."""
    return is_on_map(s, e) and side_of(s, e) != side and not has_cc_marker(s, e)


@rule
def best_fire_from(s, t, wt, u, h, fs):
    """The most a fire by ``u`` from ``h`` with fire status ``fs`` could be worth to it
    (10.7, exact odds; zero when no enemy can be fired at)."""
    best = 0.0
    side = side_of(s, u)
    for e in range(n_slots(s)):
        if not is_enemy_in_play(s, e, side):
            continue
        v = fire_value(s, t, wt, u, e, h, hex_of(s, e), fs, FALSE)
        if v > best:
            best = v
    return best


@rule
def threat_at(s, t, wt, u, h):
    """What the enemy's fire at ``u`` standing in ``h`` is worth to them (exact odds)."""
    total = 0.0
    side = side_of(s, u)
    for e in range(n_slots(s)):
        if not is_enemy_in_play(s, e, side):
            continue
        eh = hex_of(s, e)
        if eh == h:
            continue
        total += fire_value(s, t, wt, e, u, eh, h, FS_FIRING, FALSE)
    return total


@rule_inlined
def dismount_value(s, t, wt, u, d):
    """9.11.3: getting out of the vehicle into the hex across side ``d``: the position
    there against riding on (objectives and cover of the vehicle's hex, no fire), less a
    fast action, less the ride still to come when the vehicle has not moved this turn."""
    c = carrier_of(s, u)
    h = hex_of(s, c)
    g = nbr(t, h, d)
    val = position_value(s, t, wt, u, g) - quick_value(s, t, wt, u, h) - wt[W_FAST]
    if not is_done(s, c):
        gain = move_allowance(t, type_of(s, c)) - move_allowance(t, type_of(s, u))
        val -= wt[W_OBJ_NEAR] * max(0, gain) * urgency(s, t, wt)
    return val


@rule
def screen_values(s, t, wt, side, out):
    """``out[h]``: the fire value the enemy could deal ``side``'s units along lines of
    sight through hex ``h`` (what smoke there would hinder, 10.3)."""
    out[:] = 0.0
    for e in range(n_slots(s)):
        if not is_enemy_in_play(s, e, side):
            continue
        eh = hex_of(s, e)
        for o in range(n_slots(s)):
            if not is_on_map(s, o) or side_of(s, o) != side:
                continue
            oh = hex_of(s, o)
            v = fire_value(s, t, wt, e, o, eh, oh, FS_FIRING, FALSE)
            if v <= 0.0:
                continue
            for k in range(n_between(t)):
                x = between(t, eh, oh, k)
                if x < 0:
                    break
                out[x] += v


@rule_inlined
def hex_is_free(s, g, side):
    """No unit of either side stands in ``g``."""
    return occ(s, g, side) == 0 and occ(s, g, 1 - side) == 0


@rule
def evaluate(s, t, wt, side):
    """A position's worth to ``side``: strength points left times worth, objectives held,
    and a win or a loss."""
    if is_over(s):
        w = winner(s)
        if w == side:
            return 100.0
        if w >= 0:
            return -100.0
    val = 0.0
    for u in range(n_slots(s)):
        st = status_of(s, u)
        if st == ONMAP or st == CARRIED or st == PENDING:
            ty = type_of(s, u)
            left = (unit_strength(t, ty) - damage_of(s, u)) / unit_strength(t, ty)
            v = worth(t, ty) * (0.4 + 0.6 * left)
            val += v if side_of(s, u) == side else -v
    for k in range(n_objectives(t)):
        if objective_relevant(t, k):
            o = holder_of(s, k)
            value = obj(t, k, OB_VALUE) * 1.5
            if o == side:
                val += value
            elif o >= 0:
                val -= value
    for u in range(n_slots(s)):              # where the units stand, as greedy sees it
        if is_on_map(s, u):
            v = objective_value(s, t, wt, side_of(s, u), hex_of(s, u))
            val += v if side_of(s, u) == side else -v
    return val


int64_constants(globals())
