"""Overrunning artillery in a game (9.10.3).

An armoured vehicle with track movement and no passengers that steps, in a normal or
fast move, into one of its frontal hexes holding enemy artillery (and nothing else, not
a close-combat hex) overruns it, unless the hex has terrain that may damage vehicles
(9.10.1) or is harsh terrain for it (9.5): there it is a close combat as before
(:func:`simulator.games.assault.game.moves.step_core` decides, reading S18). The vehicle takes a
fast-action marker without the extra movement point. The gun takes its free last shot
unless it is suppressed, in fallback, or marked fast or delayed; the pools of that
shot are ``fire_pools(..., FireSituation(overrun=True))`` (the one assembly,
tabulated by :mod:`simulator.games.assault.game.pooltab`), the roll is the ranged-fire roll
(10.7.2) and the result ``apply_symbols`` (10.7.3-10.7.6). The gun is overrun (removed
from the game) unless the vehicle ends suppressed, in fallback, immobilised or
destroyed (rulings C7); a stopped vehicle stays in the hex it came from.
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule, rule_inlined
from simulator.games.assault.game.events import EV_OVERRUN, EV_ROLL, dice_code, log_event
from simulator.games.assault.game.fire import apply_symbols, eliminate, fire_odds
from simulator.games.assault.game.state import (
    ACT_DELAYED,
    ACT_FAST,
    ARTILLERY,
    CC_NONE,
    G_MODE,
    MODE_FAST,
    NIL,
    ONMAP,
    STEADY,
    U_ACT,
    U_CC,
    U_DMG,
    U_HEX,
    U_IMMOB,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TYPE,
)
from simulator.games.assault.game.tables import PO_EXTRA, PO_N, UT_KIND, last_shot_key
from simulator.games.assault.rules.kernels import cancel_packed, field
from simulator.games.assault.rules.vehicle_terrain import last_shot_stops
from simulator.run.rng import sum_rolls

NO_POOL = -1
STOPPED, OVERRUN = 0, 1


@rule
def overrun_gun(units, ut, g, side):
    """The enemy artillery unit a vehicle of ``side`` would overrun in hex ``g``: the
    enemies there must all be artillery, none in a close combat (9.10.3, reading S18).
    -1 if none."""
    gun = -1
    for e in range(units.shape[0]):
        if units[e, U_ST] != ONMAP or units[e, U_HEX] != g or units[e, U_SIDE] == side:
            continue
        if ut[units[e, U_TYPE], UT_KIND] != ARTILLERY or units[e, U_CC] != CC_NONE:
            return -1
        gun = e
    return gun


@rule
def may_last_shot(s, gun):
    """9.10.3: no last shot by a gun suppressed, in fallback, or marked fast or delayed
    (``pools.NO_LAST_SHOT``); having been activated does not stop it."""
    act = s.u[gun, U_ACT]
    return s.u[gun, U_MORALE] == STEADY and act != ACT_FAST and act != ACT_DELAYED


@rule_inlined
def last_shot(s, t, gun, tank):
    """The gun's last shot at the tank (9.10.3) with the game's dice. Returns True if it
    stopped the tank (suppressed, in fallback, immobilised or destroyed)."""
    ak = last_shot_key(t, s.u[gun, U_TYPE], s.u[tank, U_TYPE], 0)
    if ak < 0:                                   # no vs-vehicle dice at range 0: no last shot
        return False
    dk = last_shot_key(t, s.u[gun, U_TYPE], s.u[tank, U_TYPE], 1)
    total = sum_rolls(t.rows[ak, :t.pooli[ak, PO_N]], s.rng[0]) + sum_rolls(t.rows[dk, :t.pooli[dk, PO_N]], s.rng[0])
    c, h, sp = cancel_packed(total, t.pooli[ak, PO_EXTRA])
    atk = dice_code(field(total, 0), field(total, 1), field(total, 2))
    dfn = dice_code(field(total, 3), field(total, 4), field(total, 5))
    log_event(s, EV_ROLL, gun, tank, ak, dk, atk, dfn)
    apply_symbols(s, t, tank, c, h, sp)
    return last_shot_stops(s.u[tank, U_ST] != ONMAP, s.u[tank, U_MORALE] != STEADY, s.u[tank, U_IMMOB] == 1)


@rule
def overrun(s, t, u, g):
    """Vehicle ``u`` overruns the artillery in ``g`` (9.10.3). Returns True when the gun
    is overrun and the vehicle may enter ``g``; False when the last shot stopped it."""
    gun = overrun_gun(s.u, t.ut, g, s.u[u, U_SIDE])
    s.u[u, U_ACT] = ACT_FAST                     # a fast action, without the extra point
    s.g[G_MODE] = MODE_FAST
    stopped = False
    if may_last_shot(s, gun):
        stopped = last_shot(s, t, gun, u)        # free: no activation, no command point
    log_event(s, EV_OVERRUN, u, gun, g, STOPPED if stopped else OVERRUN, NIL, NIL)
    if stopped:
        return False
    eliminate(s, t, gun)                         # overrun: removed from the game
    return True


@rule
def overrun_odds(s, t, u, gun):
    """For the players: ``(P the last shot stops u, E strength points u loses)``, from
    the exact odds of the last-shot pools."""
    if not may_last_shot(s, gun):
        return 0.0, 0.0
    ak = last_shot_key(t, s.u[gun, U_TYPE], s.u[u, U_TYPE], 0)
    if ak < 0:
        return 0.0, 0.0
    dk = last_shot_key(t, s.u[gun, U_TYPE], s.u[u, U_TYPE], 1)
    pe, ed, pm = fire_odds(t, s.u[u, U_TYPE], s.u[u, U_DMG], ak, dk, NO_POOL, NIL)
    return min(1.0, pe + pm), ed


int64_constants(globals())
