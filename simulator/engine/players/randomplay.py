"""The ``random`` player: uniform over the actions it may choose (numba)."""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule_inlined
from simulator.engine.players.base import legal_for, own_below


@rule_inlined
def random_choice(s, t, side, params, buf):
    n = legal_for(s, t, side, params, buf)
    return buf[own_below(s, side, n)]


int64_constants(globals())
