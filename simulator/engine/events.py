"""The event log of a game: what a replay prints (activations, rolls, results).

The rules write events only when ``g[G_LOG_ON]`` is set, so batch play pays one
branch per event. An event is eight ints: ``code, turn, a, b, c, d, e, f``.
"""

from __future__ import annotations

from simulator.engine.state import EV_FIELDS, G_LOG_ON, G_LOGN, G_TURN, int64_constants, rule

(EV_TURN, EV_INITIATIVE, EV_PHASE, EV_ACTIVATE, EV_PASS, EV_MOVE, EV_SPOT, EV_ROLL, EV_CRIT,
 EV_RESULT, EV_REACT, EV_FALLBACK, EV_FALLBACK_BLOCKED, EV_CC, EV_CC_ROLL, EV_CC_RESULT, EV_ELIM,
 EV_OBJECTIVE, EV_VICTORY, EV_REINFORCE, EV_PLACE, EV_DIG, EV_CC_END, EV_ENTER_SUPPRESSED,
 EV_NOFIRE, EV_CP, EV_STOP, EV_FORMATION, EV_BACKTRACK, EV_CC_WITHDRAW, EV_FACE, EV_TERRAIN_DAMAGE,
 EV_TRACKS, EV_DISMOUNT, EV_LOAD, EV_DISEMBARK, EV_PASSENGER_HIT, EV_DISEMBARK_LOST) = range(38)
EV_CLASS_DRAW = 38      # a: side, b: the card drawn (a formation row of type FO_CLASS, 5.7)
EV_OVERRUN = 39         # a: tank, b: gun, c: hex, d: 1 the gun is overrun, 0 the tank is stopped (9.10.3)
# chapter 7 (support phase): 40-44; 10.11 (fire into a close combat): 45-47
EV_INDIRECT, EV_SMOKE, EV_ART_FACE, EV_SPOTTER, EV_SUPPORT_SPARE = 40, 41, 42, 43, 44
EV_INTO_CC, EV_FRIENDLY_HIT, EV_ICC_SPARE = 45, 46, 47


@rule
def log_event(s, code, a, b, c, d, e, f):
    """Append an event; pass all six fields (``NIL`` for unused ones): numba compiles
    a function once per argument signature."""
    if s.g[G_LOG_ON] == 0:
        return
    n = s.g[G_LOGN]
    if n >= s.log.shape[0]:
        raise ValueError("event log full: more events than the state's log holds (log_cap of Game.new_state)")
    row = s.log[n]
    row[0] = code
    row[1] = s.g[G_TURN]
    row[2] = a
    row[3] = b
    row[4] = c
    row[5] = d
    row[6] = e
    row[7] = f
    s.g[G_LOGN] = n + 1


assert EV_FIELDS == 8


int64_constants(globals())
