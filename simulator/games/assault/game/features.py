"""Assault's position features (numba): the game API's ``features`` hook
(:mod:`simulator.engine.core.gameapi`), what the learned position value is fitted on
(:mod:`simulator.engine.players.value`), and the ``outlook`` the shared players and the
features both read.

The features are the shared ones (:data:`~simulator.engine.players.value.SHARED_FEATURES`)
in Assault's words: infantry, support (guns: the ARTILLERY kind) and vehicles by their
worth (points / 40) times the share of their strength left (as greedy's ``evaluate``
counts them); the objectives either side's victory conditions name (3.1, 9.7) held, by
their value, and threatened (an enemy unit on the map within its move allowance of the
hex); the mean hexes of a side's units on the map to the nearest such objective it does
not hold (0 when it holds them all); units suppressed or fallen back (13.3); the share
of the turns begun; who decides next; the outlook. One pass over the units and one over
the objectives: it runs at every leaf of a search.
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule
from simulator.engine.players.value import SHARED_FEATURES
from simulator.games.assault.game.greedy_values import nearest_to_take, objective_relevant, turn_fraction, worth
from simulator.games.assault.game.phases.organisation import outcome_now
from simulator.games.assault.game.state import CARRIED, ONMAP, PENDING, STEADY
from simulator.games.assault.game.tables import OB_HEX, OB_VALUE, UT_KIND, dist, obj
from simulator.games.assault.game.view import (
    decider,
    hex_of,
    holder_of,
    is_on_map,
    is_over,
    morale_of,
    move_allowance,
    n_objectives,
    n_slots,
    side_of,
    status_of,
    strength_left,
    type_of,
    unit_strength,
    winner,
)

FEATURE_NAMES = SHARED_FEATURES
N_FEATURES = len(FEATURE_NAMES)
(F_INF, F_INF_E, F_SUP, F_SUP_E, F_VEH, F_VEH_E, F_OBJ, F_OBJ_E, F_THR, F_THR_E, F_DIST, F_DIST_E,
 F_MARK, F_MARK_E, F_TURN, F_MOVE, F_OUTLOOK) = range(17)
assert N_FEATURES == 17


@rule
def outlook(s, t, side):
    """How the game would end for ``side`` now (6.6, 3.1: the victory check of the
    organisation phase, :func:`~simulator.games.assault.game.phases.organisation.outcome_now`,
    on the objectives as held now; a game over: its winner): +1 a win, -1 a loss, 0 a
    draw, times the share of the game's turns begun."""
    w = winner(s) if is_over(s) else outcome_now(s, t)[0]
    if w < 0:
        return 0.0
    return turn_fraction(s, t) * (1.0 if w == side else -1.0)


@rule
def objective_threatened(s, t, k, holder):
    """Whether a unit of the side not holding objective ``k`` stands on the map within its
    move allowance of the objective's hex."""
    h = obj(t, k, OB_HEX)
    for u in range(n_slots(s)):
        if is_on_map(s, u) and side_of(s, u) != holder and dist(t, hex_of(s, u), h) <= move_allowance(t, type_of(s, u)):
            return True
    return False


@rule
def features(s, t, side, out):
    """The position from ``side``'s point of view into ``out[:N_FEATURES]`` (the
    module's doc); returns N_FEATURES."""
    for i in range(N_FEATURES):
        out[i] = 0.0
    on0 = 0
    on1 = 0
    for u in range(n_slots(s)):
        st = status_of(s, u)
        if st != ONMAP and st != CARRIED and st != PENDING:
            continue
        ty = type_of(s, u)
        enemy = 0 if side_of(s, u) == side else 1
        kind = t.ut[ty, UT_KIND]                     # INFANTRY, ARTILLERY, VEHICLE: 0, 1, 2
        out[2 * kind + enemy] += worth(t, ty) * strength_left(s, t, u) / unit_strength(t, ty)
        if morale_of(s, u) != STEADY:
            out[F_MARK + enemy] += 1.0
        if is_on_map(s, u):
            d = nearest_to_take(s, t, side_of(s, u), hex_of(s, u))
            if d < (1 << 20):
                out[F_DIST + enemy] += d
            if enemy == 0:
                on0 += 1
            else:
                on1 += 1
    if on0 > 0:
        out[F_DIST] /= on0
    if on1 > 0:
        out[F_DIST_E] /= on1
    for k in range(n_objectives(t)):
        o = holder_of(s, k)
        if o < 0 or not objective_relevant(t, k):
            continue
        enemy = 0 if o == side else 1
        out[F_OBJ + enemy] += obj(t, k, OB_VALUE)
        if objective_threatened(s, t, k, o):
            out[F_THR + enemy] += obj(t, k, OB_VALUE)
    out[F_TURN] = turn_fraction(s, t)
    if not is_over(s):
        out[F_MOVE] = 1.0 if decider(s) == side else -1.0
    out[F_OUTLOOK] = outlook(s, t, side)
    return N_FEATURES


int64_constants(globals())
