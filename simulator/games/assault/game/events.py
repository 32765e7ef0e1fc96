"""The event log of a game: what a replay prints (activations, rolls, results).

The rules write events only when ``g[G_LOG_ON]`` is set, so batch play pays one
branch per event. An event is eight ints: ``code, turn, a, b, c, d, e, f``.
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule
from simulator.engine.core.eventlog import append_event
from simulator.engine.core.fields import declare
from simulator.games.assault.game.state import G_LOG_ON, G_LOGN, G_TURN

# Each event's payload, fields a..f of its row (unused fields are NIL). "symbols": a roll's
# uncancelled crit, hit, supp as c*100 + h*10 + s; "dice": one side's rolled crit, hit,
# supp as c*10000 + h*100 + s (:func:`symbols_code`, :func:`dice_code` and their
# decoders). Units are slots, hexes indexes of the compiled map.
EVENTS = """
    EV_TURN             a: the turn
    EV_INITIATIVE       a: the side that starts (6.1)
    EV_PHASE            a: the phase (PH_*)
    EV_ACTIVATE         a: side, b: unit, c: action kind (K_*), d: its argument (target unit or hex)
    EV_PASS             a: side (6.3, 8.1)
    EV_MOVE             a: unit, b: from hex, c: to hex, d: movement points left
    EV_SPOT             a: firer, b: target, c: the roll, d: the number needed (10.5)
    EV_ROLL             a: firer, b: target, c: attack pool, d: defence pool, e: attack dice, f: defence dice
    EV_CRIT             (unused)
    EV_RESULT           a: target, b: 1 eliminated, c: damage, d: morale, e: immobilised, f: critical-hit symbol
    EV_REACT            a: reacting unit, b: its target (8.2)
    EV_FALLBACK         a: unit, b: the hex it falls back from (13.3)
    EV_FALLBACK_BLOCKED a: unit, b: its hex (13.3: one damage point)
    EV_CC               a: attacker, b: defender, c: hex, d: 0 initiated, 1 reinforced, 2 renewed
    EV_CC_ROLL          a: x, b: y, c: x's symbols, d: y's symbols, e: x's pool, f: y's pool
    EV_CC_RESULT        a: unit, b: close-combat status (4 eliminated), c: damage, d: morale, e: immobilised
    EV_ELIM             a: unit removed from the game
    EV_OBJECTIVE        a: objective, b: the side that took it (9.7)
    EV_VICTORY          a: winner (-1 a draw), b: reason (R_*)
    EV_REINFORCE        a: unit arriving (6.7)
    EV_PLACE            a: unit, b: hex, c: facing (7 none)
    EV_DIG              (unused)
    EV_CC_END           a: hex, b: the side holding it (-1 nobody)
    EV_ENTER_SUPPRESSED a: unit entering, b: the enemy there, c: 4 eliminated, else fell back (12.0)
    EV_NOFIRE           a: firer, b: target: a vehicle not spotted (10.5)
    EV_CP               a: side, b: unit card (6.2.2)
    EV_STOP             a: unit, b: hex
    EV_FORMATION        a: side, b: formation card kept (5.6)
    EV_BACKTRACK        a: unit, b: hex it may not stop in, c: hex it goes back to (9.0)
    EV_CC_WITHDRAW      a: unit, b: hex it leaves
    EV_FACE             a: unit, b: new facing, c: movement points it cost
    EV_TERRAIN_DAMAGE   a: vehicle, b: 1 eliminated, c: damage, d: morale, e: immobilised, f: symbols (9.10.1)
    EV_TRACKS           a: x, b: y, c: 1 the infantry attacks the wheels/tracks (12.9)
    EV_DISMOUNT         (unused)
    EV_LOAD             a: unit, b: the vehicle it boards (9.11.2)
    EV_DISEMBARK        a: unit, b: from hex, c: to hex, d: 0 dismount, 1 emergency, 2 into a close combat
    EV_PASSENGER_HIT    a: passenger, b: carrier, c: 1 eliminated (10.10.2)
    EV_DISEMBARK_LOST   a: passenger, b: the carrier's hex (10.10.3)
    EV_CLASS_DRAW       a: side, b: the card drawn (a formation row of type FO_CLASS, 5.7)
    EV_OVERRUN          a: tank, b: gun, c: hex, d: 1 the gun is overrun, 0 the tank is stopped (9.10.3)
    EV_INDIRECT         a: firer, b: target, c: spotter (7.1, 7.2)
    EV_SMOKE            a: firer, b: hex, c: markers rolled, d: markers there (7.5)
    EV_ART_FACE         a: artillery unit, b: new facing (7.6)
    EV_SPOTTER          a: spotter, b: firer (7.2)
    EV_SUPPORT_SPARE    (unused)
    EV_INTO_CC          a: firer, b: target, c: the other unit in the close combat, d: hex, e: 2 a vehicle (10.11)
    EV_FRIENDLY_HIT     a: firer, b: friendly unit, c: success dice, d: defence pool, e, f: dice (10.11)
    EV_ICC_SPARE        (unused)
    EV_OVERSTACK        a: unit, b: the former close-combat hex, c: the hex it moves to, d: 1 delayed, 0 fast (12.6)
    EV_MUST_LEAVE       a: vehicle, b: the close-combat hex it leaves (12.9, revised 12.5: not a fallback)
    EV_FACE_ATTACKER    a: unit, b: new facing, c: the hex its attacker came from (12.7.3, 12.8.2, 12.10)
"""
declare(globals(), EVENTS)


@rule
def symbols_code(c, h, sp):
    """A roll's uncancelled crit, hit and supp in one event field."""
    return c * 100 + h * 10 + sp


def symbols_of(code: int) -> tuple[int, int, int]:
    """``(crit, hit, supp)`` of a :func:`symbols_code`."""
    return code // 100, code // 10 % 10, code % 10


@rule
def dice_code(c, h, sp):
    """One side's rolled crit, hit and supp (before cancellation) in one event field."""
    return c * 10000 + h * 100 + sp


def dice_of(code: int) -> tuple[int, int, int]:
    """``(crit, hit, supp)`` of a :func:`dice_code`."""
    return code // 10000, code // 100 % 100, code % 100


@rule
def log_event(s, code, a, b, c, d, e, f):
    """Append an event; pass all six fields (``NIL`` for unused ones): numba compiles
    a function once per argument signature."""
    if s.g[G_LOG_ON] == 0:
        return
    s.g[G_LOGN] = append_event(s.log, s.g[G_LOGN], code, s.g[G_TURN], a, b, c, d, e, f)



int64_constants(globals())
