"""What every computer player shares: its own random stream and the players'
parameters layout (numba).

A player draws only from its side's stream ``s.rng[1 + side]`` (through
:func:`own_below` and :func:`own_uniform`); ``s.rng[0]`` is the dice, which a player
must never draw from (it would change the game's rolls).
"""

from __future__ import annotations

from simulator.engine.assault.state import a_kind
from simulator.engine.core.compiling import int64_constants, rule, rule_inlined
from simulator.rng import below, uniform

NEG = -1.0e9            # a score below any real one

# the players' integer parameters (``params``, int64): index -> meaning
LA_CANDIDATES, LA_PLAYOUTS, LA_EXTRA_TURNS = range(3)     # the look-ahead's
MC_SIMS = 3             # the tree search's simulations per decision: MC_SIMS + side
MC_ROLLOUT = 5          # and the greedy decisions played past a new node
N_PARAMS = 6


@rule
def own_below(s, side, n):
    """A uniform draw in ``0 .. n - 1`` from ``side``'s own stream."""
    return below(s.rng[1 + side], n)


@rule_inlined
def own_uniform(s, side):
    """A uniform draw in [0, 1) from ``side``'s own stream."""
    return uniform(s.rng[1 + side])


@rule_inlined
def copy_own_stream(s, side, out):
    """``out[:]``: the state of ``side``'s own stream (to seed playouts from it)."""
    for k in range(4):
        out[k] = s.rng[1 + side, k]


@rule
def find_kind(buf, n, k):
    """The first of the ``n`` actions in ``buf`` of kind ``k``, else the first one."""
    for i in range(n):
        if a_kind(buf[i]) == k:
            return buf[i]
    return buf[0]


int64_constants(globals())
