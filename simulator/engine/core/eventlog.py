"""The event log every game on the engine keeps for its replays: an int64 array of rows
``(code, time, f1, ..., f6)`` (``time`` the game's turn or round; what the six fields
mean is the event's, listed in ``simulator/games/<game>/game/events.py``). A game's state
counts the rows written and says whether logging is on; this appends one row."""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule_inlined

EV_FIELDS = 8       # a row: code, time and six fields


@rule_inlined
def append_event(log, n, code, time, f1, f2, f3, f4, f5, f6):
    """Write row ``n`` of ``log``; returns the new count. A full log raises: an event is
    never dropped."""
    if n >= log.shape[0]:
        raise ValueError("event log full: more events than the state's log holds (log_cap of Game.new_state)")
    row = log[n]
    row[0] = code
    row[1] = time
    row[2] = f1
    row[3] = f2
    row[4] = f3
    row[5] = f4
    row[6] = f5
    row[7] = f6
    return n + 1


int64_constants(globals())
