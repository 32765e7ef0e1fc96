"""Tide of Iron's position features (numba): the game API's ``features`` hook
(:mod:`simulator.engine.core.gameapi`), what the learned position value is fitted on
(:mod:`simulator.engine.players.value`), and the ``outlook`` the shared players and the
features both read.

The shared features (:data:`~simulator.engine.players.value.SHARED_FEATURES`) in Tide of
Iron's words: infantry (the figures of squads that are not heavy weapons), support (the
figures of heavy weapon types: 001 MG / Mortar crew) and vehicles (two a damage step
left, as greedy's ``unit_value``) on the map; objectives controlled, by their VPs a
round (001 Command phase), and threatened (an enemy unit within its movement of the
hex); the mean hexes of a side's units to the nearest objective it will not control at
the next command phase (greedy's ``objective_distances``; 0 none); pinned or disrupted
units (001 Squad conditions); the share of the rounds begun; who decides next; the
outlook. Two of its own: ``initiative_lead`` (+1 the side holds the initiative, which
wins a tie in VPs: 001 Winning the game) and ``vp_margin`` (its VPs less the enemy's).
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule
from simulator.engine.players.value import SHARED_FEATURES
from simulator.games.toi.game.greedy import objective_distances
from simulator.games.toi.game.phases.command import leader_now
from simulator.games.toi.game.state import ONMAP, U_FIG, U_ST
from simulator.games.toi.game.tables import FT_HEAVY, P_N_FIG
from simulator.games.toi.game.units import is_vehicle, movement
from simulator.games.toi.game.view import (
    controller,
    decider,
    initiative,
    is_over,
    n_objectives,
    n_units,
    objective_hex,
    objective_vp,
    round_now,
    rounds,
    unit_condition,
    unit_hex,
    unit_side,
    unit_value,
    vp,
    winner,
)

FEATURE_NAMES = SHARED_FEATURES + ("initiative_lead", "vp_margin")
N_FEATURES = len(FEATURE_NAMES)
(F_INF, F_INF_E, F_SUP, F_SUP_E, F_VEH, F_VEH_E, F_OBJ, F_OBJ_E, F_THR, F_THR_E, F_DIST, F_DIST_E,
 F_MARK, F_MARK_E, F_TURN, F_MOVE, F_OUTLOOK, F_INIT, F_VP) = range(19)
assert N_FEATURES == 19


@rule
def turn_share(s, t):
    """The share of the game's rounds begun."""
    return min(1.0, round_now(s) / max(1.0, rounds(t) * 1.0))


@rule
def outlook(s, t, side):
    """How the game would end for ``side`` now (001 Winning the game,
    :func:`~simulator.games.toi.game.phases.command.leader_now`; a game over: its winner,
    elimination too): +1 a win, -1 a loss, times the share of the game's rounds begun."""
    share = turn_share(s, t)
    w = winner(s) if is_over(s) else leader_now(s)
    if w < 0:
        return 0.0
    return share if w == side else -share


@rule
def objective_threatened(s, t, o, holder):
    """Whether a unit of the side not controlling objective ``o`` stands on the map within
    its movement of the objective's hex."""
    h = objective_hex(t, o)
    for k in range(n_units(t)):
        if s.u[k, U_ST] == ONMAP and unit_side(s, k) != holder and t.dist[unit_hex(s, k), h] <= movement(s, t, k):
            return True
    return False


@rule
def add_strength(s, t, k, enemy, out):
    """Unit ``k``'s strength into its kind's feature (``enemy`` 0: the own side's)."""
    if is_vehicle(s, k):
        out[F_VEH + enemy] += unit_value(s, t, k)
        return
    for f in range(t.p[P_N_FIG]):
        if t.ft[f, FT_HEAVY] == 1:
            out[F_SUP + enemy] += s.u[k, U_FIG + f]
        else:
            out[F_INF + enemy] += s.u[k, U_FIG + f]


@rule
def features(s, t, side, out):
    """The position from ``side``'s point of view into ``out[:N_FEATURES]`` (the
    module's doc); returns N_FEATURES."""
    for i in range(N_FEATURES):
        out[i] = 0.0
    on0 = 0
    on1 = 0
    for k in range(n_units(t)):
        if s.u[k, U_ST] != ONMAP:
            continue
        us = unit_side(s, k)
        enemy = 0 if us == side else 1
        add_strength(s, t, k, enemy, out)
        if unit_condition(s, k) != 0:
            out[F_MARK + enemy] += 1.0
        best, _near = objective_distances(s, t, us, unit_hex(s, k))
        if best < 99:
            out[F_DIST + enemy] += best
        if enemy == 0:
            on0 += 1
        else:
            on1 += 1
    if on0 > 0:
        out[F_DIST] /= on0
    if on1 > 0:
        out[F_DIST_E] /= on1
    for o in range(n_objectives(t)):
        c = controller(s, o)
        if c < 0:
            continue
        enemy = 0 if c == side else 1
        out[F_OBJ + enemy] += objective_vp(t, o)
        if objective_threatened(s, t, o, c):
            out[F_THR + enemy] += objective_vp(t, o)
    out[F_TURN] = turn_share(s, t)
    if not is_over(s):
        out[F_MOVE] = 1.0 if decider(s) == side else -1.0
    out[F_OUTLOOK] = outlook(s, t, side)
    out[F_INIT] = 1.0 if initiative(s) == side else -1.0
    out[F_VP] = float(vp(s, side) - vp(s, 1 - side))
    return N_FEATURES


int64_constants(globals())
