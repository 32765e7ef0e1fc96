"""The learned position value (numba): the probability that side 0 wins, from the game's
``features`` (:mod:`simulator.engine.core.gameapi`) by a logistic regression fitted on the
scenario's own games (:mod:`simulator.engine.players.learned`; issue 41 item 2, expert
iteration after Anthony, Tian and Barber 2017 with the linear value of Silver et al.'s
TD-search). The searching players use it as their leaf value when
``params[MC_LEARNED + side]`` is set (``mcts:N:learned``, ``lookahead:learned``,
``uct:N:learned``).

The weights reach compiled code in the players' ``Work``: ``w.value[0]`` the intercept,
``w.value[1 + i]`` the weight of feature ``i`` on the features' own scale (the fit's
standardisation folded in), ``w.feat`` the scratch the features are written to.

Feature names both games share (:data:`SHARED_FEATURES`): ``*_own`` / ``*_enemy`` pairs
swap between the sides, ``*_lead`` features change sign, the rest (``turn_share``) stay;
:func:`swap_of` reads that from the names, so a game's extra features follow the same
convention.
"""

from __future__ import annotations

import math

import numpy as np

from simulator.engine.core.compiling import rule_inlined
from simulator.engine.core.gameapi import features, is_over, winner

SHARED_FEATURES = (
    "infantry_own", "infantry_enemy",          # strength left by kind, each unit by its worth
    "support_own", "support_enemy",
    "vehicles_own", "vehicles_enemy",
    "objectives_own", "objectives_enemy",      # objectives held (by their value)
    "threatened_own", "threatened_enemy",      # of those, the ones an enemy unit can reach this turn
    "distance_own", "distance_enemy",          # mean hexes of a side's units to the nearest objective it needs
    "markers_own", "markers_enemy",            # units suppressed, pinned, disrupted, fallen back
    "turn_share",                              # the share of the game's turns begun
    "to_move_lead",                            # +1 the side decides next, -1 the enemy
    "outlook_lead",                            # the game's outlook (gameapi.outlook): +share a win now, -share a loss
)


def swap_of(names) -> tuple[np.ndarray, np.ndarray]:
    """``(perm, sign)`` with ``features(side 1) == sign * features(side 0)[perm]``: an
    ``x_own`` takes ``x_enemy``'s place and the other way round, an ``x_lead`` or
    ``x_margin`` changes sign, the rest stay."""
    names = list(names)
    perm = np.arange(len(names))
    sign = np.ones(len(names))
    for i, n in enumerate(names):
        if n.endswith("_own"):
            perm[i] = names.index(n[:-4] + "_enemy")
        elif n.endswith("_enemy"):
            perm[i] = names.index(n[:-6] + "_own")
        elif n.endswith("_lead") or n.endswith("_margin"):
            sign[i] = -1.0
    return perm, sign


@rule_inlined
def squash(z):
    """The logistic function, safe for any ``z``."""
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


@rule_inlined
def learned_value(s, t, w):
    """The probability that side 0 wins from ``s`` by the weights in ``w.value`` (a game
    over: 1, 0, or one half for a draw)."""
    if is_over(s):
        wn = winner(s)
        if wn == 0:
            return 1.0
        if wn == 1:
            return 0.0
        return 0.5
    n = features(s, t, 0, w.feat)
    z = w.value[0]
    for i in range(n):
        z += w.value[1 + i] * w.feat[i]
    return squash(z)
