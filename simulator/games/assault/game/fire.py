"""Ranged fire in a game (chapter 10): who may fire at whom, and one fire resolved.

The pools come from the tables :mod:`simulator.games.assault.game.pooltab` built with
``fire_pools``; the roll is ``sum_rolls`` over packed faces and ``cancel_packed``
(10.7.2); the result is ``after_fire`` (10.7.3-10.7.6). This module only finds the
right table entries for the situation on the map and writes the result back into the
game state.
"""

from __future__ import annotations

from simulator.engine.core.compiling import rule, rule_hot
from simulator.engine.core.hexgrid import areas_of_impact, in_arc
from simulator.games.assault.game.board import lift
from simulator.games.assault.game.events import (
    EV_ELIM,
    EV_NOFIRE,
    EV_PASSENGER_HIT,
    EV_RESULT,
    EV_ROLL,
    EV_SPOT,
    log_event,
)
from simulator.games.assault.game.pooltab import AC_DIGGING, AC_FAST, AC_PLAIN, AC_SPOTTED, FS_FIRING
from simulator.games.assault.game.state import (
    ACT_DELAYED,
    ACT_DIGGING,
    ACT_FAST,
    ACT_FIRING,
    ACT_MOVEFIRE,
    ACT_TURRET,
    AUX_QUEUE,
    CARRIED,
    CC_NONE,
    ELIMINATED,
    FALLBACK,
    FALSE,
    G_CPLOST0,
    G_EMERG,
    G_QN,
    G_SMOKE_ANY,
    HX_DUG,
    HX_LOST,
    HX_SHOT,
    HX_SMOKE,
    INFANTRY,
    MAX_QUEUE,
    NIL,
    ONMAP,
    STEADY,
    SUPPRESSED,
    U_ACT,
    U_CARRIER,
    U_CC,
    U_DMG,
    U_DONE,
    U_EMERG,
    U_FACE,
    U_FELL,
    U_HEX,
    U_IMMOB,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TIRED,
    U_TYPE,
    VEHICLE,
)
from simulator.games.assault.game.tables import (
    GE_BARE,
    GE_NHIND,
    HI_Q,
    HI_R,
    P_CP_RULE,
    P_CRIT_B,
    P_CRIT_G,
    P_CRIT_MAX,
    P_FALLBACK_EVER,
    P_MAXR,
    P_N_ATK,
    P_NAREA,
    P_NOUT,
    P_NSMOKE,
    P_TRANSPORT,
    PO_EXTRA,
    PO_N,
    UT_CAP,
    UT_ELITE,
    UT_HALF,
    UT_KIND,
    UT_RIDEDEF,
    UT_RIDERS,
    UT_STR,
    UT_TURRET,
    atk_key,
    band_of,
    between,
    def_key,
    dist,
    n_between,
    spot_need,
)
from simulator.games.assault.game.tables import (
    geo as geo_of,
)
from simulator.games.assault.rules.damage import after_fire
from simulator.games.assault.rules.kernels import cancel_packed, field, roll_crit
from simulator.games.assault.rules.transport import CARRIED as PM_CARRIED
from simulator.games.assault.rules.transport import DISEMBARK, FLIPPED, RIDERS_TARGETED, transport_event
from simulator.run.rng import below, sum_rolls

MAX_HINDRANCES = 2   # 10.3, rulings #14: hindering hexes and smoke markers, three block


@rule_hot
def action_class(s, u, fallback_move):
    """How the target's markers change the defence and spotting (10.5.1, 10.9.6, 13.2).

    ``fallback_move``: the unit is moving in a fallback, which counts as a fast
    action for reaction fire (13.3)."""
    if fallback_move != 0:
        return AC_FAST
    act = s.u[u, U_ACT]
    spotted = act == ACT_FIRING or act == ACT_TURRET or act == ACT_MOVEFIRE or act == ACT_DELAYED \
        or act == ACT_FAST
    morale = s.u[u, U_MORALE]
    if morale != STEADY:          # 13.3: the morale marker replaced the action marker
        return AC_SPOTTED if (spotted or morale == FALLBACK) else AC_PLAIN
    if act == ACT_FAST:
        return AC_FAST
    if act == ACT_DIGGING:
        return AC_DIGGING
    if spotted:
        return AC_SPOTTED
    return AC_PLAIN


@rule_hot
def target_status(s, t, u, h, fallback_move):
    """Index into the tables' status dimension: action class, suppressed, dug in."""
    ac = action_class(s, u, fallback_move)
    supp = 1 if (s.u[u, U_MORALE] == SUPPRESSED and fallback_move == 0) else 0
    dug = 1 if (s.hx[h, HX_DUG] == 1 and t.ut[s.u[u, U_TYPE], UT_KIND] == INFANTRY and fallback_move == 0) else 0
    return ac * 4 + supp * 2 + dug


@rule_hot
def smoke_on_line(s, t, a, b):
    """Smoke markers on the hexes strictly between ``a`` and ``b`` (10.3, rulings #12, #14)."""
    n = 0
    for k in range(n_between(t)):
        h = between(t, a, b, k)
        if h < 0:
            break
        n += s.hx[h, HX_SMOKE]
    return n


@rule_hot
def line_open(s, t, a, b):
    """Direct fire possible along this line: not blocked by terrain, nor by three or more
    hindrances counting smoke markers (10.3)."""
    if a == b:
        return False
    g = geo_of(t, a, b)
    if g < 0:
        return False
    if s.g[G_SMOKE_ANY] == 0:
        return True
    return t.geoi[g, GE_NHIND] + smoke_on_line(s, t, a, b) <= MAX_HINDRANCES


@rule_hot
def in_arc_of(t, h, facing, g):
    """10.6: hex ``g`` in the arc of fire of a unit in ``h`` facing vertex ``facing``."""
    return in_arc(t.hexi[g, HI_Q] - t.hexi[h, HI_Q], t.hexi[g, HI_R] - t.hexi[h, HI_R], facing)


@rule_hot
def outside_arc(s, t, f, fh, th):
    """Infantry fire all round; artillery and vehicles through their front (10.6)."""
    if t.ut[s.u[f, U_TYPE], UT_KIND] == INFANTRY:
        return False
    return not in_arc_of(t, fh, s.u[f, U_FACE], th)


@rule_hot
def fire_keys(s, t, f, v, fh, th, fs, fallback_move):
    """Table entries of a fire by ``f`` from ``fh`` at ``v`` in ``th`` with fire status ``fs``.

    Returns ``(attack pool, defence pool, defence pool if the spot fails, d6 to spot)``;
    the attack pool is -1 when the fire is impossible (LOS, range, no dice).
    """
    if not line_open(s, t, fh, th):
        return -1, -1, -1, 0
    d = dist(t, fh, th)
    if d > t.p[P_MAXR]:
        return -1, -1, -1, 0
    ft = s.u[f, U_TYPE]
    vt = s.u[v, U_TYPE]
    band = band_of(t, ft, d)
    if band < 0:
        return -1, -1, -1, 0
    half = 1 if s.u[f, U_DMG] >= t.ut[ft, UT_HALF] else 0
    minus = 1 if s.u[f, U_TIRED] == 1 else 0
    ak = atk_key(t, ft, vt, band, half, minus)
    if ak < 0:
        return -1, -1, -1, 0
    geo = geo_of(t, fh, th)
    sm = smoke_on_line(s, t, fh, th) if s.g[G_SMOKE_ANY] == 1 else 0
    if sm >= t.p[P_NSMOKE]:
        return -1, -1, -1, 0
    if fallback_move != 0:
        geo = t.geoi[geo, GE_BARE]
    st = target_status(s, t, v, th, fallback_move)
    area = 0
    if t.ut[vt, UT_KIND] == VEHICLE and t.p[P_NAREA] > 1:
        area = impact_area(s, t, fh, th, v)
    out = 0
    if t.p[P_NOUT] > 1 and outside_arc(s, t, f, fh, th):
        out = 1
    dks = def_key(t, vt, geo, sm, fs, st, area, 0)
    dkf = def_key(t, vt, geo, sm, fs, st, area, 1)
    if dks < 0:
        return -1, -1, -1, 0
    spot = spot_need(t, vt, geo, st, 1 if d == 1 else 0, out)
    return ak, dks, dkf, spot


@rule_hot
def impact_area(s, t, fh, th, v):
    """10.9.3: the area of impact of fire from ``fh`` on vehicle ``v`` in ``th``; on the
    boundary, the weaker area."""
    a1, a2 = areas_of_impact(t.hexi[fh, HI_Q] - t.hexi[th, HI_Q], t.hexi[fh, HI_R] - t.hexi[th, HI_R],
                             s.u[v, U_FACE])
    return a1 if a2 < 0 else a2


@rule
def target_keys(s, t, f, v, fh, th, fs, fallback_move):
    """:func:`fire_keys` for any target, tank riders included (10.10.1). (Kept apart from
    :func:`fire_keys`, which the players call in their inner loops on units standing.)"""
    ak, dks, dkf, spot = fire_keys(s, t, f, v, fh, th, fs, fallback_move)
    if ak >= 0 and s.u[v, U_ST] == CARRIED and s.u[v, U_EMERG] == 0 and th == unit_hex(s, v):
        return rider_keys(s, t, f, v, fh, th, ak, geo_of(t, fh, th), dist(t, fh, th))
    return ak, dks, dkf, spot


@rule
def rider_keys(s, t, f, v, fh, th, ak, geo, d):
    """10.10.1: fire at tank riders: the attack on their own row, their card dice only in
    defence (``UT_RIDEDEF``), spotted as their vehicle is; unspotted, no fire (10.5)."""
    dk = t.ut[s.u[v, U_TYPE], UT_RIDEDEF]
    if dk < 0:
        return -1, -1, -1, 0
    c = s.u[v, U_CARRIER]
    out = 0
    if t.p[P_NOUT] > 1 and outside_arc(s, t, f, fh, th):
        out = 1
    spot = spot_need(t, s.u[c, U_TYPE], geo, target_status(s, t, c, th, FALSE), 1 if d == 1 else 0, out)
    return ak, dk, -1, spot


@rule
def rider_on(s, t, v):
    """The vehicle ``v`` rides on as a tank rider that may be fired at (10.10.1), or -1."""
    if s.u[v, U_ST] != CARRIED or t.p[P_TRANSPORT] == 0:
        return -1
    c = s.u[v, U_CARRIER]
    if c < 0 or s.u[c, U_ST] != ONMAP or t.ut[s.u[c, U_TYPE], UT_RIDERS] == 0 or s.u[c, U_CC] != CC_NONE:
        return -1
    return c


@rule
def unit_hex(s, v):
    """Where ``v`` is: its hex, or its vehicle's when it is carried (9.11)."""
    if s.u[v, U_ST] == CARRIED and s.u[v, U_CARRIER] >= 0:
        return s.u[s.u[v, U_CARRIER], U_HEX]
    return s.u[v, U_HEX]


@rule
def mark_emergency(s, p, h):
    """Passenger ``p`` must make an emergency disembark from hex ``h`` (10.10.3, 12.10):
    it leaves its vehicle now and is placed by its player before play goes on."""
    s.u[p, U_CARRIER] = -1
    s.u[p, U_HEX] = h
    s.u[p, U_EMERG] = 1
    s.g[G_EMERG] += 1


@rule
def passengers_hit(s, t, v, h, event):
    """The passengers of vehicle ``v`` (in hex ``h``) after ``transport_event`` said
    ``event`` (10.10.2: flipped to half strength or eliminated; 10.10.3: the survivors
    make an emergency disembark)."""
    if event != DISEMBARK and event != FLIPPED:
        return
    for p in range(s.u.shape[0]):
        if s.u[p, U_ST] != CARRIED or s.u[p, U_CARRIER] != v:
            continue
        pt = s.u[p, U_TYPE]
        if event == FLIPPED:
            half = s.u[p, U_DMG] >= t.ut[pt, UT_HALF]
            log_event(s, EV_PASSENGER_HIT, p, v, 1 if half else 0, NIL, NIL, NIL)
            if half:
                s.u[p, U_DMG] = t.ut[pt, UT_STR]
                s.u[p, U_CARRIER] = -1
                eliminate(s, t, p)
                continue
            s.u[p, U_DMG] = t.ut[pt, UT_HALF]
        mark_emergency(s, p, h)


@rule
def transport_after_hit(s, t, v, h, st0, c, hh, sp, e, d0, m0, i0):
    """10.10: what a roll at ``v`` (which stood in ``h`` with status ``st0``) does to
    passengers, by ``transport.transport_event``: ``v`` a tank rider, or a vehicle that
    may carry some."""
    if st0 == CARRIED:
        if e == 0 and transport_event(RIDERS_TARGETED, c, hh, sp, e, s.u[v, U_DMG], s.u[v, U_MORALE],
                                      s.u[v, U_IMMOB], d0, m0, i0) == DISEMBARK:
            mark_emergency(s, v, h)
        return
    if t.ut[s.u[v, U_TYPE], UT_CAP] == 0:
        return
    if e == 1:
        ev_ = transport_event(PM_CARRIED, c, hh, sp, e, d0, m0, i0, d0, m0, i0)
    else:
        ev_ = transport_event(PM_CARRIED, c, hh, sp, e, s.u[v, U_DMG], s.u[v, U_MORALE], s.u[v, U_IMMOB],
                              d0, m0, i0)
    passengers_hit(s, t, v, h, ev_)


@rule
def queue_fallback(s, u):
    """Put a unit in the queue of fallback movements (13.3)."""
    n = s.g[G_QN]
    for i in range(n):
        if s.aux[AUX_QUEUE, i] == u:
            return
    if n >= MAX_QUEUE:
        raise ValueError("fallback queue full: more than MAX_QUEUE units waiting to fall back "
                         "(simulator/games/assault/game/state.py)")
    s.aux[AUX_QUEUE, n] = u
    s.g[G_QN] = n + 1


@rule
def eliminate(s, t, u):
    """Remove a unit from the game (10.7.3); with command points, its side loses one."""
    h = unit_hex(s, u)
    if h >= 0:                    # the batch's heat map: where units are lost (not a rule)
        s.hx[h, HX_LOST + s.u[u, U_SIDE]] += 1
    lift(s, u)
    s.u[u, U_ST] = ELIMINATED
    s.u[u, U_HEX] = -1
    s.u[u, U_DONE] = 1
    s.u[u, U_CC] = CC_NONE
    if t.p[P_CP_RULE] == 1:       # 10.7.3: a command point is lost (minimum four)
        side = s.u[u, U_SIDE]
        s.g[G_CPLOST0 + side] += 1
        ty = s.u[u, U_TYPE]
        if s.cp[side, ty, 0] > s.cp[side, ty, 1]:
            s.cp[side, ty, 0] -= 1
    log_event(s, EV_ELIM, u, NIL, NIL, NIL, NIL, NIL)


@rule
def set_morale(s, u, morale):
    """A new morale marker ends the unit's activation for the turn (6.4, 13.3); a fallback
    sends it on its fallback movement."""
    old = s.u[u, U_MORALE]
    s.u[u, U_MORALE] = morale
    if morale != old:
        s.u[u, U_DONE] = 1
        if morale == FALLBACK:
            s.u[u, U_FELL] = 1                 # 13.3 "ever" (reading S22): remembered for the game
            queue_fallback(s, u)


@rule
def fallback_again(s, t, u, old, new):
    """13.3: "all units are eliminated if they ever receive a second fallback". With the
    scenario option ``second_fallback = "ever"`` (``P_FALLBACK_EVER``) a unit that fell back
    earlier in the game, its marker since removed (6.5, reading S1), is eliminated by a new
    fallback; a fallback on a unit still marked fallback eliminates it under both readings
    (the damage functions say so, rulings #7)."""
    return (t.p[P_FALLBACK_EVER] == 1 and new == FALLBACK and old != FALLBACK and s.u[u, U_FELL] == 1)


@rule
def apply_symbols(s, t, v, c, h, sp):
    """The target's state after the uncancelled symbols of a ranged roll (10.7.3-10.7.6),
    with the critical-hit roll. Returns 1 if the target was eliminated."""
    vt = s.u[v, U_TYPE]
    strength = t.ut[vt, UT_STR]
    dmg = s.u[v, U_DMG]
    morale = s.u[v, U_MORALE]
    symbol = roll_crit(c, h, dmg, strength, t.rows[t.p[P_CRIT_G], :t.p[P_CRIT_MAX]],
                       t.rows[t.p[P_CRIT_B], :t.p[P_CRIT_MAX]], s.rng[0])
    delayed = 1 if (s.u[v, U_ACT] == ACT_DELAYED and morale == STEADY) else 0
    immob0 = s.u[v, U_IMMOB]
    e, d, m, i = after_fire(t.ut[vt, UT_KIND], strength, t.ut[vt, UT_ELITE], delayed, dmg, morale,
                            immob0, c, h, sp, symbol)
    if e == 0 and fallback_again(s, t, v, morale, m):     # 13.3 "ever" (option, reading S22)
        e = 1
    log_event(s, EV_RESULT, v, e, d, m, i, symbol)
    st0 = s.u[v, U_ST]
    h0 = unit_hex(s, v)
    if e == 1:
        s.u[v, U_DMG] = strength
        eliminate(s, t, v)
    else:
        s.u[v, U_DMG] = d
        s.u[v, U_IMMOB] = i
        set_morale(s, v, m)
    if t.p[P_TRANSPORT] == 1:
        transport_after_hit(s, t, v, h0, st0, c, h, sp, e, dmg, morale, immob0)
    return e


@rule
def resolve_fire(s, t, f, v, fh, fs, fallback_move):
    """One ranged fire of ``f`` (from ``fh``) at ``v`` (10.5-10.7). The dice come from the
    game's dice stream. Returns -1 if nothing was fired (a vehicle not spotted), else
    1 if the target was eliminated, 0 otherwise."""
    th = unit_hex(s, v)
    ak, dks, dkf, spot = target_keys(s, t, f, v, fh, th, fs, fallback_move)
    if ak < 0:
        return -1
    dk = spotted_defence(s, f, v, dks, dkf, spot)
    if dk < 0:
        return -1
    return roll_at(s, t, f, v, ak, dk)


@rule
def spotted_defence(s, f, v, dks, dkf, spot):
    """The spotting roll (10.5, 10.9.5): the defence pool to roll, or -1 when a vehicle
    not spotted cannot be fired at (10.5)."""
    dk = dks
    if spot > 0:
        roll = below(s.rng[0], 6) + 1
        log_event(s, EV_SPOT, f, v, roll, spot, NIL, NIL)
        if roll < spot:                         # 10.9.5; a vehicle cannot be fired at (10.5)
            dk = dkf
            if dk < 0:
                log_event(s, EV_NOFIRE, f, v, NIL, NIL, NIL, NIL)
                return -1
    return dk


@rule
def roll_at(s, t, f, v, ak, dk):
    """Attack pool ``ak`` rolled against defence pool ``dk`` at ``v`` (10.7.2) and the
    result (10.7.3-10.7.6). Returns 1 if ``v`` was eliminated."""
    total = sum_rolls(t.rows[ak, :t.pooli[ak, PO_N]], s.rng[0]) + sum_rolls(t.rows[dk, :t.pooli[dk, PO_N]], s.rng[0])
    return roll_result(s, t, f, v, ak, dk, total)


@rule
def roll_result(s, t, f, v, ak, dk, total):
    """A packed roll of attack pool ``ak`` against defence pool ``dk`` at ``v``:
    cancelled (10.7.2), logged, and its result applied (10.7.3-10.7.6)."""
    c, h, sp = cancel_packed(total, t.pooli[ak, PO_EXTRA])
    log_event(s, EV_ROLL, f, v, ak, dk, symbols(total, 0), symbols(total, 3))
    th = unit_hex(s, v)
    if th >= 0:                   # the batch's heat map: where units are shot at (one per EV_ROLL)
        s.hx[th, HX_SHOT + s.u[v, U_SIDE]] += 1
    return apply_symbols(s, t, v, c, h, sp)


@rule
def symbols(total, k):
    """Crit, hit and supp of one side of a packed roll (``k`` 0 attack, 3 defence), as
    ``c * 10000 + h * 100 + s`` (the event log's form)."""
    return field(total, k) * 10000 + field(total, k + 1) * 100 + field(total, k + 2)


@rule
def can_target(s, t, f, v, fh, fs):
    """Whether ``f`` standing in ``fh`` may fire at ``v`` with fire status ``fs`` (10.0-10.2):
    an enemy on the map, not in a close-combat hex (fire into a close combat, 10.11, is
    only the active player's infantry in a fire or fire-and-move action:
    :mod:`simulator.games.assault.game.intocc`, reading S20), within range
    with dice, LOS open, in the arc of fire unless turret fire."""
    if s.u[v, U_SIDE] == s.u[f, U_SIDE]:
        return False
    if s.u[v, U_ST] != ONMAP:
        c = rider_on(s, t, v)                  # 10.10.1: tank riders may be fired at
        if c < 0:
            return False
        th = s.u[c, U_HEX]
    else:
        if s.u[v, U_CC] != CC_NONE:            # 10.11: see intocc.may_fire_into
            return False
        th = s.u[v, U_HEX]
    # 10.6: outside the arc only a turret fires (also at the end of a move and fire)
    if outside_arc(s, t, f, fh, th) and not (t.ut[s.u[f, U_TYPE], UT_TURRET] == 1 and fs != FS_FIRING):
        return False
    if s.u[v, U_ST] != ONMAP:
        ak, dks, dkf, spot = target_keys(s, t, f, v, fh, th, fs, FALSE)
    else:
        ak, dks, dkf, spot = fire_keys(s, t, f, v, fh, th, fs, FALSE)
    return ak >= 0


@rule_hot
def expected_fire(s, t, f, v, fh, th, fs, fallback_move):
    """Exact odds of a fire, for the players: ``(P eliminated, E strength points taken,
    P morale hit)`` with the spotting roll mixed in (10.5). Zeros when the fire is
    impossible."""
    ak, dks, dkf, spot = fire_keys(s, t, f, v, fh, th, fs, fallback_move)
    return fire_odds(t, s.u[v, U_TYPE], s.u[v, U_DMG], ak, dks, dkf, spot)


@rule
def expected_fire_any(s, t, f, v, fh, th, fs, fallback_move):
    """:func:`expected_fire` at any target, tank riders included (10.10.1)."""
    ak, dks, dkf, spot = target_keys(s, t, f, v, fh, th, fs, fallback_move)
    return fire_odds(t, s.u[v, U_TYPE], s.u[v, U_DMG], ak, dks, dkf, spot)


@rule_hot
def fire_odds(t, vt, dmg, ak, dks, dkf, spot):
    """The odds of :func:`expected_fire` from the table entries."""
    if ak < 0:
        return 0.0, 0.0, 0.0
    p_spot = 1.0
    if spot > 0:
        p_spot = max(0.0, (7.0 - spot) / 6.0)
    left = min(t.ut[vt, UT_STR] - dmg, t.odds.shape[3] - 1)
    n_atk = t.p[P_N_ATK]
    pe = p_spot * t.odds[ak, dks - n_atk, 0, left]
    ed = p_spot * t.odds[ak, dks - n_atk, 1, left]
    pm = p_spot * t.odds[ak, dks - n_atk, 2, left]
    if p_spot < 1.0 and dkf >= 0:
        q = 1.0 - p_spot
        pe += q * t.odds[ak, dkf - n_atk, 0, left]
        ed += q * t.odds[ak, dkf - n_atk, 1, left]
        pm += q * t.odds[ak, dkf - n_atk, 2, left]
    return pe, ed, pm
