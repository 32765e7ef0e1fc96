"""The sequence of play (001 Turn sequence): the game API, as Assault's
:mod:`simulator.games.assault.game.turn`.

- :func:`legal_actions` lists what the deciding player (``g[G_DECIDER]``) may do;
- :func:`apply_action` does it and runs every automatic step (dice, the command and
  status phases) up to the next decision or the end of the game;
- :func:`new_game` puts a scenario's squads in a state and starts the set-up.

They dispatch by the pending decision (``g[G_SUB]``) to the phase modules of
:mod:`simulator.games.toi.game.phases` (set-up, action, movement and op fire, command and
status) and to :mod:`simulator.games.toi.game.assault`.
"""

from __future__ import annotations

from simulator.engine.core.compiling import entry, int64_constants, rule
from simulator.games.toi.game.assault import (
    advance_actions,
    apply_advance,
    apply_assault,
    assault_actions,
    assault_dice,
    assault_result,
)
from simulator.games.toi.game.phases.action import apply_select, end_activation, select_actions
from simulator.games.toi.game.phases.command import check_elimination
from simulator.games.toi.game.phases.movement import (
    after_move_actions,
    apply_after_move,
    apply_move,
    apply_opfire,
    move_actions,
    opfire_actions,
)
from simulator.games.toi.game.phases.setup import (
    apply_opfire_placement,
    apply_place,
    apply_transfer,
    placement_actions,
    start_setup,
)
from simulator.games.toi.game.phases.setup import (
    opfire_actions as set_opfire_actions,
)
from simulator.games.toi.game.phases.transfer import transfer_choices
from simulator.games.toi.game.state import (
    ABSENT,
    AUX_OBJ,
    AUX_OBJT,
    G_ACTIVE,
    G_ADV_HEX,
    G_DECIDER,
    G_DECISIONS,
    G_INIT,
    G_OPF_SIDE,
    G_OVER,
    G_PLACER,
    G_ROUND,
    G_ROUND_LIMIT,
    G_SMOKE,
    G_SUB,
    G_UNIT,
    G_WINNER,
    HX_FORT,
    HX_SMOKE,
    HX_WIRE,
    SUB_ADVANCE,
    SUB_AFTER_MOVE,
    SUB_ASSAULT,
    SUB_MOVE,
    SUB_OPFIRE,
    SUB_PLACE,
    SUB_SELECT,
    SUB_SET_OPFIRE,
    SUB_TRANSFER,
    TO_PLACE,
    TOK_FRESH,
    U_CARRIER,
    U_COND,
    U_DMG,
    U_FIG,
    U_HEX,
    U_HIDDEN,
    U_MODEL,
    U_OPHEX,
    U_SIDE,
    U_SPEC,
    U_ST,
    U_TOKEN,
    U_VEHICLE,
    U_WOUNDS,
    U_XFER,
    U_ZONE,
)
from simulator.games.toi.game.tables import (
    HI_FORT,
    HI_SMOKE,
    HI_WIRE,
    P_INIT,
    P_N_FIG,
    P_N_HEX,
    P_N_UNITS,
    P_ROUNDS,
    SL_ARRIVE,
    SL_FIG,
    SL_HIDDEN,
    SL_MODEL,
    SL_SIDE,
    SL_SPEC,
    SL_VEHICLE,
    SL_ZONE,
)
from simulator.games.toi.game.units import reveal_scan

MAX_ACTIONS = 2048


@rule
def set_decider(s):
    """Who decides at the pending step (``G_DECIDER``; -1 when the game is over)."""
    if s.g[G_OVER] == 1:
        s.g[G_DECIDER] = -1
        return
    sub = s.g[G_SUB]
    if sub == SUB_PLACE or sub == SUB_SET_OPFIRE or sub == SUB_TRANSFER:
        s.g[G_DECIDER] = s.g[G_PLACER]
    elif sub == SUB_OPFIRE:
        s.g[G_DECIDER] = s.g[G_OPF_SIDE]
    else:
        s.g[G_DECIDER] = s.g[G_ACTIVE]


@entry
def legal_actions(s, t, out):
    """Fill ``out`` with the actions the deciding player may take; return how many."""
    if s.g[G_OVER] == 1:
        return 0
    sub = s.g[G_SUB]
    if sub == SUB_SELECT:
        return select_actions(s, t, out)
    if sub == SUB_MOVE:
        return move_actions(s, t, out)
    if sub == SUB_OPFIRE:
        return opfire_actions(s, t, out)
    if sub == SUB_AFTER_MOVE:
        return after_move_actions(s, t, out)
    if sub == SUB_ASSAULT:
        return assault_actions(s, t, out)
    if sub == SUB_ADVANCE:
        return advance_actions(s, t, out)
    if sub == SUB_PLACE:
        return placement_actions(s, t, out)
    if sub == SUB_SET_OPFIRE:
        return set_opfire_actions(s, t, out)
    if sub == SUB_TRANSFER:
        return transfer_choices(s, t, s.g[G_PLACER], out)
    return 0


@entry
def apply_action(s, t, a):
    """Do action ``a`` for the deciding player, then run the game on to the next decision."""
    sub = s.g[G_SUB]
    s.g[G_DECISIONS] += 1
    if sub == SUB_SELECT:
        apply_select(s, t, a)
    elif sub == SUB_MOVE:
        apply_move(s, t, a)
    elif sub == SUB_OPFIRE:
        apply_opfire(s, t, a)
    elif sub == SUB_AFTER_MOVE:
        apply_after_move(s, t, a)
    elif sub == SUB_ASSAULT:
        if apply_assault(s, t, a):
            end_activation(s, t)
    elif sub == SUB_ADVANCE:
        apply_advance(s, t, a)
        end_activation(s, t)
    elif sub == SUB_PLACE:
        apply_place(s, t, a)
    elif sub == SUB_SET_OPFIRE:
        apply_opfire_placement(s, t, a)
    elif sub == SUB_TRANSFER:
        apply_transfer(s, t, a)
    after_decision(s, t)


@rule
def after_decision(s, t):
    """What follows every decision: concealment, elimination, who decides next."""
    if s.g[G_OVER] == 0:
        reveal_scan(s, t, False)                      # 001 Concealed squads: "at any time" (rulings T39)
    if s.g[G_OVER] == 0 and s.g[G_ROUND] > 0:
        if check_elimination(s, t):
            return
    set_decider(s)


@entry
def apply_assault_hits(s, t, a, a_hits, d_hits):
    """:func:`apply_action` of the assault ``a`` (``K_ATTACK_HEX``, at ``SUB_ASSAULT``) with
    the hits of both sides given instead of rolled: the position one outcome of the exact
    odds leads to (greedy's assault value, :mod:`.greedy`). Returns the assault's
    ``(attack strength, cover dice, defender strength)``."""
    s.g[G_DECISIONS] += 1
    strength, nd, cover, dstrength = assault_dice(s, t, a)
    if assault_result(s, t, a, nd, strength, cover, dstrength, a_hits, d_hits):
        end_activation(s, t)
    after_decision(s, t)
    return strength, cover, dstrength


@entry
def new_game(s, t):
    """Reset ``s`` to the start of the scenario ``t``: every squad to place, the initiative
    as the scenario says. As Assault's ``new_game(s, t)``: ``s.rng`` is seeded before (the
    dice, then each player's stream; :func:`simulator.engine.core.seeding.seed_game`)."""
    s.u[:, :] = 0
    s.g[:] = 0
    s.hx[:, :] = 0                                    # (s.heat adds up over a batch's games)
    s.aux[:, :] = 0
    s.aux[AUX_OBJ, :] = -1                            # nobody controls any objective
    s.aux[AUX_OBJT, :] = -1                           # no round's control recorded yet
    s.aux[AUX_OBJT + 1, :] = -1
    for k in range(t.p[P_N_UNITS]):
        s.u[k, U_SIDE] = t.slots[k, SL_SIDE]
        s.u[k, U_ZONE] = t.slots[k, SL_ZONE]
        s.u[k, U_ST] = TO_PLACE if t.slots[k, SL_ARRIVE] == 0 else ABSENT
        s.u[k, U_HEX] = -1
        s.u[k, U_OPHEX] = -1
        s.u[k, U_TOKEN] = TOK_FRESH
        s.u[k, U_COND] = 0
        s.u[k, U_VEHICLE] = t.slots[k, SL_VEHICLE]
        s.u[k, U_CARRIER] = -1
        s.u[k, U_SPEC] = t.slots[k, SL_SPEC]
        s.u[k, U_MODEL] = t.slots[k, SL_MODEL]
        s.u[k, U_DMG] = 0
        s.u[k, U_XFER] = 0
        s.u[k, U_WOUNDS] = 0
        s.u[k, U_HIDDEN] = t.slots[k, SL_HIDDEN]
        for f in range(t.p[P_N_FIG]):
            s.u[k, U_FIG + f] = t.slots[k, SL_FIG + f]
    s.g[G_INIT] = t.p[P_INIT]
    s.g[G_UNIT] = -1
    s.g[G_ADV_HEX] = -1
    s.g[G_WINNER] = -2
    s.g[G_ROUND_LIMIT] = t.p[P_ROUNDS]
    for h in range(t.p[P_N_HEX]):                     # the scenario's markers that can change (rulings T36, T37)
        s.hx[h, HX_WIRE] = t.hexi[h, HI_WIRE]
        s.hx[h, HX_FORT] = t.hexi[h, HI_FORT]         # and those dug later (rulings T40)
        s.hx[h, HX_SMOKE] = t.hexi[h, HI_SMOKE]
        s.g[G_SMOKE] += t.hexi[h, HI_SMOKE]
    start_setup(s, t)
    set_decider(s)


int64_constants(globals())
