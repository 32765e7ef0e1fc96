"""Read-only accessors of a game for the players and the reports (numba).

The computer players (:mod:`simulator.engine.players`) read the state ``s`` and the
scenario's tables ``t`` through these names rather than through raw columns
(``s.u[u, U_SIDE]``, ``s.g[G_TURN]``, ``t.ut[ty, UT_STR]``), so a change of the state's
layout touches this module and not every player. Each is a small function inlined
(``rule_inlined``) into its caller, so reading through it costs nothing; none writes.

The rules' own accessors are not repeated here; the players import them from the
rules' modules: ``allowance`` (:mod:`simulator.games.assault.game.phases.movement`), ``occ``
(:mod:`simulator.games.assault.game.board`), ``cover``, ``nbr``, ``obj``, ``vic``, ``cc_loss``,
``cc_stat`` (:mod:`simulator.games.assault.game.tables`), ``unit_hex`` (:mod:`simulator.games.assault.game.fire`).
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule_inlined
from simulator.games.assault.game.state import (
    AUX_OBJ,
    CC_NONE,
    G_CC_A,
    G_CC_D,
    G_CC_Q,
    G_CC_RXY,
    G_CC_RYX,
    G_CC_X,
    G_CC_XF,
    G_CC_Y,
    G_DECIDER,
    G_EMERG,
    G_FB_UNIT,
    G_MODE,
    G_MP,
    G_OVER,
    G_REACT_UNIT,
    G_STEPS,
    G_SUB,
    G_TURN,
    G_UNIT,
    G_WINNER,
    ONMAP,
    U_CARRIER,
    U_CC,
    U_DMG,
    U_DONE,
    U_FACE,
    U_FORM,
    U_HEX,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TYPE,
)
from simulator.games.assault.game.tables import (
    HI_CCT,
    HI_OBJ,
    HI_TDMG,
    P_N_OBJ,
    P_OVERRUN,
    P_TRANSPORT,
    P_TURNS,
    UT_HALF,
    UT_MOVE,
    UT_OVERRUN,
    UT_STR,
    UT_VALUE,
)

# --- units ----------------------------------------------------------------------------


@rule_inlined
def n_slots(s):
    """Unit slots of the game (``u`` runs over ``range(n_slots(s))``)."""
    return s.u.shape[0]


@rule_inlined
def side_of(s, u):
    return s.u[u, U_SIDE]


@rule_inlined
def type_of(s, u):
    return s.u[u, U_TYPE]


@rule_inlined
def status_of(s, u):
    """ABSENT, PENDING, ONMAP, CARRIED, ELIMINATED or TO_PLACE."""
    return s.u[u, U_ST]


@rule_inlined
def is_on_map(s, u):
    return s.u[u, U_ST] == ONMAP


@rule_inlined
def hex_of(s, u):
    """The hex ``u`` stands in (its own field: a carried unit's is its vehicle's, see
    :func:`simulator.games.assault.game.fire.unit_hex`)."""
    return s.u[u, U_HEX]


@rule_inlined
def damage_of(s, u):
    return s.u[u, U_DMG]


@rule_inlined
def morale_of(s, u):
    """0 steady, else suppressed or fallen back (13.3)."""
    return s.u[u, U_MORALE]


@rule_inlined
def has_cc_marker(s, u):
    """``u`` carries a close-combat marker (12.1), active or not."""
    return s.u[u, U_CC] != CC_NONE


@rule_inlined
def facing_of(s, u):
    return s.u[u, U_FACE]


@rule_inlined
def carrier_of(s, u):
    return s.u[u, U_CARRIER]


@rule_inlined
def is_done(s, u):
    """``u`` has acted this turn (13.2)."""
    return s.u[u, U_DONE] == 1


@rule_inlined
def formation_of(s, u):
    return s.u[u, U_FORM]


@rule_inlined
def strength_left(s, t, u):
    """Strength points ``u`` has left."""
    return t.ut[s.u[u, U_TYPE], UT_STR] - s.u[u, U_DMG]


# --- unit types -----------------------------------------------------------------------


@rule_inlined
def unit_strength(t, ty):
    """Full strength points of unit type ``ty``."""
    return t.ut[ty, UT_STR]


@rule_inlined
def half_strength(t, ty):
    """The damage at which type ``ty`` is at half strength."""
    return t.ut[ty, UT_HALF]


@rule_inlined
def points_of(t, ty):
    """Type ``ty``'s point value (its cost in the scenario's points)."""
    return t.ut[ty, UT_VALUE]


@rule_inlined
def move_allowance(t, ty):
    return t.ut[ty, UT_MOVE]


@rule_inlined
def overruns(t, ty):
    """Type ``ty`` may overrun (9.10.3)."""
    return t.ut[ty, UT_OVERRUN] == 1


# --- the game in progress -------------------------------------------------------------


@rule_inlined
def turn_number(s):
    return s.g[G_TURN]


@rule_inlined
def decider(s):
    """The side whose decision is pending."""
    return s.g[G_DECIDER]


@rule_inlined
def pending(s):
    """The pending decision (a ``SUB_*`` sub-state)."""
    return s.g[G_SUB]


@rule_inlined
def is_over(s):
    return s.g[G_OVER] == 1


@rule_inlined
def winner(s):
    """The winning side, -1 a draw (when :func:`is_over`)."""
    return s.g[G_WINNER]


@rule_inlined
def emergency_waiting(s):
    """Passengers wait for an emergency disembark (10.10.3, 12.10)."""
    return s.g[G_EMERG] > 0


@rule_inlined
def moving_unit(s):
    """The unit of the activation in progress."""
    return s.g[G_UNIT]


@rule_inlined
def move_mode(s):
    return s.g[G_MODE]


@rule_inlined
def move_points(s):
    """Movement points the moving unit has left."""
    return s.g[G_MP]


@rule_inlined
def move_steps(s):
    return s.g[G_STEPS]


@rule_inlined
def reaction_target(s):
    """The unit whose move may draw reaction fire (8.2)."""
    return s.g[G_REACT_UNIT]


@rule_inlined
def fallback_unit(s):
    """The unit falling back (13.3), -1 none."""
    return s.g[G_FB_UNIT]


@rule_inlined
def cc_attacker(s):
    return s.g[G_CC_A]


@rule_inlined
def cc_defender(s):
    return s.g[G_CC_D]


@rule_inlined
def cc_question(s):
    """What a close combat asks its player (``closecombat.Q_*``)."""
    return s.g[G_CC_Q]


@rule_inlined
def cc_pair(s):
    """The close combat's two units x, y, the roles x against y and y against x, and
    x's facing: ``(x, y, role_xy, role_yx, x_face)``."""
    return s.g[G_CC_X], s.g[G_CC_Y], s.g[G_CC_RXY], s.g[G_CC_RYX], s.g[G_CC_XF]


@rule_inlined
def holder_of(s, k):
    """The side holding objective ``k``, -1 nobody (9.7)."""
    return s.aux[AUX_OBJ, k]


@rule_inlined
def cp_assigned(s, side, ty):
    """Command points ``side`` assigned to unit card ``ty`` (6.2.2)."""
    return s.cp[side, ty, 0]


# --- the scenario ---------------------------------------------------------------------


@rule_inlined
def n_objectives(t):
    return t.p[P_N_OBJ]


@rule_inlined
def objective_at(t, h):
    """The objective in hex ``h``, -1 none."""
    return t.hexi[h, HI_OBJ]


@rule_inlined
def cc_ground(t, h):
    """Close combat's ground in ``h`` (terrain and fortification, revised 12.1.3)."""
    return t.hexi[h, HI_CCT]


@rule_inlined
def has_terrain_damage(t, h):
    """Entering ``h`` may damage a vehicle (9.10.1)."""
    return t.hexi[h, HI_TDMG] >= 0


@rule_inlined
def game_turns(t):
    """The scenario's last turn."""
    return t.p[P_TURNS]


@rule_inlined
def overrun_rule(t):
    """The optional overrun rule is on (9.10.3)."""
    return t.p[P_OVERRUN] == 1


@rule_inlined
def transport_rule(t):
    """The transport rules are on (9.11)."""
    return t.p[P_TRANSPORT] == 1


int64_constants(globals())
