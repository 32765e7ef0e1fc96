"""Firing into a close combat in a game (10.11, readings C10 and S20).

The active player may order an infantry unit, in its own fire or fire-and-move action
(never reaction fire), to fire at

1. enemy infantry in a close combat with a friendly armoured vehicle: normal ranged fire,
   the target losing its weakest defence die;
2. an enemy vehicle in a close combat with a friendly vehicle: normal ranged fire; each
   attack die that showed a success symbol is then rolled again at the friendly vehicle,
   which defends as in ranged fire from the same firer (its area of impact, the same
   line: terrain, hill, hindrances, smoke, the fire-status die).

Line of sight, range, dice and spotting are those of any fire (``fire.fire_keys``). The
pools are ``fire_pools(..., FireSituation(into_close_combat=True, ...))``, tabulated by
:mod:`simulator.games.assault.game.pooltab` (``IntoCloseCombat``) and read through
``tables.icc_*``; which dice showed a success is ``set_aside.keep_table(...,
KEEP_SUCCESS)``, also tabulated. Each roll is resolved by ``fire.apply_symbols``
(10.7.3-10.7.6), and the close combat ends when one side has no unit left in it
(``closecombat.check_end``, 12.6). With several friendly vehicles in the close combat,
the one first in the scenario's unit order is the one hit (reading S20).
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule, rule_inlined
from simulator.games.assault.game import closecombat as cc
from simulator.games.assault.game.events import EV_FRIENDLY_HIT, EV_INTO_CC, log_event
from simulator.games.assault.game.fire import (
    apply_symbols,
    fire_keys,
    fire_odds,
    impact_area,
    resolve_fire,
    roll_at,
    roll_result,
    smoke_on_line,
    spotted_defence,
    symbols,
    target_status,
)
from simulator.games.assault.game.pooltab import FS_FIRING, FS_MOVE
from simulator.games.assault.game.state import (
    CC_NONE,
    FALSE,
    G_SMOKE_ANY,
    INFANTRY,
    NIL,
    ONMAP,
    TRUE,
    U_CC,
    U_DMG,
    U_HEX,
    U_SIDE,
    U_ST,
    U_TYPE,
    VEHICLE,
)
from simulator.games.assault.game.tables import (
    P_O_ICC,
    PO_N,
    UT_ARMOURED,
    UT_KIND,
    icc_friendly_key,
    icc_infantry_key,
    icc_keep,
)
from simulator.games.assault.game.tables import geo as geo_of
from simulator.games.assault.rules.kernels import cancel_packed
from simulator.run.rng import below, sum_rolls

# which case of 10.11 a fire is
CASE_NONE, CASE_INFANTRY, CASE_VEHICLE = 0, 1, 2
NO_POOL = -1


@rule
def in_close_combat(s, v):
    """``v`` stands on the map in a close combat (12.0)."""
    return s.u[v, U_ST] == ONMAP and s.u[v, U_CC] != CC_NONE


@rule
def friendly_in_cc(s, t, v, side, armoured):
    """The vehicle of ``side`` (armoured only if ``armoured``) in the close combat of
    ``v``'s hex, the first in unit order (reading S20); -1 if none."""
    h = s.u[v, U_HEX]
    for w in range(s.u.shape[0]):
        if s.u[w, U_SIDE] != side or s.u[w, U_HEX] != h or not in_close_combat(s, w):
            continue
        wt = s.u[w, U_TYPE]
        if t.ut[wt, UT_KIND] == VEHICLE and (armoured == FALSE or t.ut[wt, UT_ARMOURED] == 1):
            return w
    return -1


@rule
def into_cc_case(s, t, f, v):
    """Which case of 10.11 a fire of ``f`` at ``v`` would be, and the friendly vehicle in
    that close combat: ``(CASE_*, vehicle or -1)``. Only infantry fires (10.11); artillery
    is no target."""
    if t.p[P_O_ICC] < 0 or t.ut[s.u[f, U_TYPE], UT_KIND] != INFANTRY:
        return CASE_NONE, -1
    if not in_close_combat(s, v) or s.u[v, U_SIDE] == s.u[f, U_SIDE]:
        return CASE_NONE, -1
    side = s.u[f, U_SIDE]
    kind = t.ut[s.u[v, U_TYPE], UT_KIND]
    if kind == INFANTRY:
        w = friendly_in_cc(s, t, v, side, TRUE)
        if w >= 0:
            return CASE_INFANTRY, w
    elif kind == VEHICLE:
        w = friendly_in_cc(s, t, v, side, FALSE)
        if w >= 0:
            return CASE_VEHICLE, w
    return CASE_NONE, -1


@rule
def into_cc_keys(s, t, f, v, fh, fs):
    """Table entries of a fire into a close combat by ``f`` from ``fh`` at ``v`` with fire
    status ``fs``: ``(attack pool, defence pool, defence pool if the spot fails, d6 to
    spot, friendly vehicle, its defence pool)``; the attack pool is -1 when this is no
    10.11 fire (LOS, range, dice as ``fire_keys``), the friendly pool -1 in the first case."""
    case, w = into_cc_case(s, t, f, v)
    if case == CASE_NONE or (fs != FS_FIRING and fs != FS_MOVE):
        return -1, -1, -1, 0, -1, -1
    th = s.u[v, U_HEX]
    ak, dks, dkf, spot = fire_keys(s, t, f, v, fh, th, fs, FALSE)
    if ak < 0:
        return -1, -1, -1, 0, -1, -1
    geo = geo_of(t, fh, th)
    sm = smoke_on_line(s, t, fh, th) if s.g[G_SMOKE_ANY] == 1 else 0
    if case == CASE_INFANTRY:               # the weakest defence die lost
        st = target_status(s, t, v, th, FALSE)
        vt = s.u[v, U_TYPE]
        dks = icc_infantry_key(t, vt, geo, sm, fs, st, 0)
        dkf = icc_infantry_key(t, vt, geo, sm, fs, st, 1)
        if dks < 0:
            return -1, -1, -1, 0, -1, -1
        return ak, dks, dkf, spot, w, NO_POOL
    fdk = icc_friendly_key(t, s.u[w, U_TYPE], geo, sm, fs, impact_area(s, t, fh, th, w))
    if fdk < 0:
        return -1, -1, -1, 0, -1, -1
    return ak, dks, dkf, spot, w, fdk


@rule
def may_fire_into(s, t, f, v, fh, fs):
    """10.11: ``f`` (infantry of the active player) in ``fh`` may fire at ``v`` in a close
    combat with fire status ``fs`` (fire or fire and move)."""
    if t.p[P_O_ICC] < 0 or t.ut[s.u[f, U_TYPE], UT_KIND] != INFANTRY or not in_close_combat(s, v):
        return False
    ak, dks, dkf, spot, w, fdk = into_cc_keys(s, t, f, v, fh, fs)
    return ak >= 0


@rule
def ordered_fire(s, t, f, v, fh, fs):
    """The fire of a fire or fire-and-move action: into a close combat (10.11) when the
    target is in one, else ordinary ranged fire (``fire.resolve_fire``)."""
    if in_close_combat(s, v):
        return fire_into(s, t, f, v, fh, fs)
    return resolve_fire(s, t, f, v, fh, fs, FALSE)


@rule
def fire_into(s, t, f, v, fh, fs):
    """One fire into a close combat (10.11) with the game's dice. Returns -1 if nothing
    was fired (a vehicle not spotted, 10.5), else 1 if the target was eliminated."""
    ak, dks, dkf, spot, w, fdk = into_cc_keys(s, t, f, v, fh, fs)
    if ak < 0:
        return -1
    h = s.u[v, U_HEX]
    log_event(s, EV_INTO_CC, f, v, w, h, CASE_VEHICLE if fdk >= 0 else CASE_INFANTRY, NIL)
    dk = spotted_defence(s, f, v, dks, dkf, spot)
    if dk < 0:
        return -1
    if fdk < 0:
        e = roll_at(s, t, f, v, ak, dk)      # first case: the pool already lacks its weakest die
    else:
        e = roll_with_friendly(s, t, f, v, w, ak, dk, fdk)
    cc.check_end(s, t, h, cc.NO_UNIT)        # 12.6: over when one side has no unit left in it
    return e


@rule_inlined
def roll_with_friendly(s, t, f, v, w, ak, dk, fdk):
    """10.11, second case: the roll at enemy vehicle ``v``, noting which attack dice showed
    a success symbol; after its result, those dice rolled again at friendly vehicle ``w``
    (defence pool ``fdk``). The enemy recruit's extra suppression does not carry over
    (reading C10). Returns 1 if ``v`` was eliminated."""
    n = t.pooli[ak, PO_N]
    total = 0
    kept = 0
    for j in range(n):
        r = below(s.rng[0], 6)
        total += t.rows[ak, j, r]
        if (icc_keep(t, ak, j) >> r) & 1 == 1:
            kept |= 1 << j
    total += sum_rolls(t.rows[dk, :t.pooli[dk, PO_N]], s.rng[0])
    e = roll_result(s, t, f, v, ak, dk, total)
    if kept == 0 or s.u[w, U_ST] != ONMAP:
        return e
    ftotal = 0
    nk = 0
    for j in range(n):
        if (kept >> j) & 1 == 1:
            ftotal += t.rows[ak, j, below(s.rng[0], 6)]
            nk += 1
    ftotal += sum_rolls(t.rows[fdk, :t.pooli[fdk, PO_N]], s.rng[0])
    fc, fhit, fsp = cancel_packed(ftotal, 0)
    log_event(s, EV_FRIENDLY_HIT, f, w, nk, fdk, symbols(ftotal, 0), symbols(ftotal, 3))
    apply_symbols(s, t, w, fc, fhit, fsp)
    return e


@rule
def success_share(t, ak):
    """The expected share of the dice of attack pool ``ak`` that show a success symbol
    (10.11), from the keep masks."""
    n = t.pooli[ak, PO_N]
    if n == 0:
        return 0.0
    faces = 0
    for j in range(n):
        m = icc_keep(t, ak, j)
        for r in range(6):
            faces += (m >> r) & 1
    return faces / (6.0 * n)


@rule
def into_cc_odds(s, t, f, v, fh, fs):
    """For the players: ``(P eliminated, E points, P morale hit)`` at the target (exact,
    spotting mixed in), the same three at the friendly vehicle (second case; zeros in the
    first) and the friendly vehicle (-1 when no 10.11 fire). The friendly vehicle's odds
    are approximate: those of the whole attack pool against its defence, times the
    chance the fire takes place and the expected share of success dice."""
    ak, dks, dkf, spot, w, fdk = into_cc_keys(s, t, f, v, fh, fs)
    if ak < 0:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1
    pe, ed, pm = fire_odds(t, s.u[v, U_TYPE], s.u[v, U_DMG], ak, dks, dkf, spot)
    if fdk < 0:
        return pe, ed, pm, 0.0, 0.0, 0.0, w
    p_spot = 1.0 if spot <= 0 else max(0.0, (7.0 - spot) / 6.0)
    q = p_spot * success_share(t, ak)
    fe, fd, fm = fire_odds(t, s.u[w, U_TYPE], s.u[w, U_DMG], ak, fdk, NO_POOL, NIL)
    return pe, ed, pm, q * fe, q * fd, q * fm, w


int64_constants(globals())
