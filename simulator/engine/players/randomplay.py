"""The ``random`` player: uniform over the legal actions (numba)."""

from __future__ import annotations

from simulator.engine.assault.turn import legal_actions
from simulator.engine.core.compiling import int64_constants, rule
from simulator.engine.players.base import own_below


@rule
def random_choice(s, t, side, buf):
    n = legal_actions(s, t, buf)
    return buf[own_below(s, side, n)]


int64_constants(globals())
