"""The event log of a Tide of Iron game (replays): one row of ``EV_FIELDS`` ints per event,
``(code, round, unit, a, b, c, d, e)``, written only when ``g[G_LOG_ON]``."""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule_inlined
from simulator.engine.core.eventlog import append_event
from simulator.engine.core.fields import declare, labels
from simulator.games.toi.game.state import G_LOG_ON, G_LOGN, G_ROUND

_EVENTS = """
    EV_PLACE        placed (a: hex)
    EV_ACTIVATE     activated (a: action kind)
    EV_MOVE         moved (a: from, b: to, c: MPs left)
    EV_FIRE         attack (a: target, b: mode, c: strength, d: cover dice, e: hits)
    EV_OPFIRE       op fire attack (a: target, b: mode, c: strength, d: cover dice, e: hits)
    EV_FIGURES      figures lost (a: how many, b: left)
    EV_CONDITION    condition (a: new condition)
    EV_DESTROYED    destroyed
    EV_ASSAULT      assault (a: hex, b: attack strength, c: cover dice, d: defender strength, e: hits a*100+d)
    EV_RETREAT      retreated (a: from, b: to)
    EV_ADVANCE      advanced after an assault (a: into)
    EV_CONTROL      objective control (a: objective, b: side)
    EV_POINTS       command phase (a: VP side 0, b: VP side 1, c: pool side 0, d: pool side 1)
    EV_INITIATIVE   initiative (a: side)
    EV_ROUND        round begins (a: round)
    EV_PASS         action phase ended by a side (a: side)
    EV_OPFIRE_SET   placed in op fire mode
    EV_BACK         returned to the last hex with room (a: hex; 001 Setup: stacking)
    EV_OVER         game over (a: winner, b: reason)
    EV_FORT         in or out of a fortification (a: 1 in, 0 out)
    EV_MINES        minefield entry roll (a: hex, b: hits)
    EV_DAMAGE       vehicle damage (a: 1 light, 2 heavy)
    EV_TRANSPORT    into (b 1) or out of (b 0) a vehicle (a: the vehicle)
    EV_OVERRUN      pinned by an overrun (a: the squad, b: the hex)
    EV_SMOKE_GONE   smoke removed in the status phase (a: hex; 001 Status phase, 2)
    EV_WIRE_GONE    razor wire removed (a: hex)
    EV_REVEALED     a concealed squad revealed (a: why, REVEAL_*)
    EV_HEAL         medic's Heal (a: the squad healed, b: the die, c: 1 a figure placed)
    EV_TRANSFER     squad transfer: one figure given (a: to squad, b: figure type, c: figures left, 0: base removed)
    EV_DUG          an entrenchment dug (a: hex, b: 1 the squad entered it, c: markers now in the hex; rulings T40)
    EV_PLACE_IN     set up in a vehicle (a: the vehicle; 001 Setup; rulings T41)
"""
declare(globals(), _EVENTS)
EVENT_NAMES = labels(_EVENTS)

_REVEAL = """
    REVEAL_FIRED        it fired or supported an attack
    REVEAL_OBJECTIVE    it moved into an objective hex
    REVEAL_SEEN         in an enemy unit's line of sight outside cover-providing terrain
    REVEAL_ADJACENT     next to an enemy unit at the end of the status phase
    REVEAL_ASSAULTED    it defended in an assault
"""
declare(globals(), _REVEAL)                 # EV_REVEALED's a (001 Concealed squads; rulings T39)
REVEAL_NAMES = labels(_REVEAL)


@rule_inlined
def log(s, code, unit, a, b, c, d, e):
    if s.g[G_LOG_ON] == 0:
        return
    s.g[G_LOGN] = append_event(s.log, s.g[G_LOGN], code, s.g[G_ROUND], unit, a, b, c, d, e)


int64_constants(globals())
