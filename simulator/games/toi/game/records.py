"""Tide of Iron's batch records, as Assault's (:mod:`simulator.games.assault.game.records`):
the record hooks the shared batch entries (:mod:`simulator.engine.players.chunks`:
``play_chunk``, ``play_chunk_searching``, ``chunk_entry``) call for Tide of Iron's states
(importing this module registers them): how a game starts (:func:`start_game`), the side
with the initiative at the start (:func:`record_start`), and one integer record per game
(:func:`fill_record`): the shared columns
(:data:`simulator.engine.core.records.FIXED_COLUMNS`, read by
:class:`simulator.engine.core.batch.Tally`), then per unit
of the scenario whether it was lost, then each side's objectives after each round's
command phase (:func:`~simulator.engine.core.records.control_by_turn`). Their meaning here: ``turns`` the rounds played,
``first_player`` the side with the initiative at the start, ``decided_turn`` the round
the game ended in, ``strength`` figures (a vehicle: two per damage step, as
:func:`~simulator.games.toi.game.view.unit_value`), ``points_left`` victory points,
``activations`` actions, ``reactions_fired`` op fire attacks, ``close_combats``
assaults; no formations, no fallbacks (0)."""

from __future__ import annotations

import sys

import numba

from simulator.engine.core.compiling import int64_constants, rule_inlined
from simulator.engine.core.records import (
    C_ACTIVATIONS,
    C_CCS,
    C_DECIDED,
    C_DECISIONS,
    C_FIRST,
    C_GAME,
    C_LOST0,
    C_OBJ0,
    C_OBJMASK0,
    C_REACTIONS,
    C_REASON,
    C_SLEFT0,
    C_SLOST0,
    C_TURNS,
    C_VALUE0,
    C_WINNER,
    N_FIXED,
    control_by_turn,
)
from simulator.engine.players import chunks
from simulator.games.toi.game import playerapi  # noqa: F401  (registers Tide of Iron's game API for the players)
from simulator.games.toi.game.state import (
    AUX_OBJ,
    AUX_OBJT,
    CARRIED,
    DESTROYED,
    EMPTIED,
    G_ACTIONS,
    G_ASSAULTS,
    G_INIT,
    G_LOG_ON,
    G_OPFIRES,
    G_OVER,
    G_REASON,
    G_ROUND,
    G_VP0,
    G_WINNER,
    LOST,
    NO_WINNER,
    ONMAP,
    R_TRUNCATED,
    TO_PLACE,
    U_SIDE,
    U_ST,
    GameState,
)
from simulator.games.toi.game.tables import P_N_FIG, P_N_OBJ, P_N_UNITS, P_ROUNDS, SL_FIG, SL_VEHICLE
from simulator.games.toi.game.turn import new_game
from simulator.games.toi.game.view import unit_value


@numba.njit(cache=True, _nrt=False)
def start_value(t, k):
    """A unit's strength at the start: its figures, or a vehicle's six (three steps)."""
    if t.slots[k, SL_VEHICLE]:
        return 6
    n = 0
    for f in range(t.p[P_N_FIG]):
        n += t.slots[k, SL_FIG + f]
    return n


@numba.njit(cache=True, _nrt=False)
def fill_record(s, t, game, first, decisions, row):
    """One game's record (``FIXED_COLUMNS``, then 1 per unit lost). A game not over
    (stopped at the decision limit) has no winner, reason ``R_TRUNCATED``, decided 0."""
    for i in range(row.shape[0]):
        row[i] = 0
    row[C_GAME] = game
    row[C_WINNER] = s.g[G_WINNER]
    row[C_REASON] = s.g[G_REASON]
    row[C_TURNS] = s.g[G_ROUND]
    row[C_FIRST] = first
    row[C_DECIDED] = s.g[G_ROUND]
    if s.g[G_OVER] == 0:
        row[C_WINNER] = NO_WINNER
        row[C_REASON] = R_TRUNCATED
        row[C_DECIDED] = 0
    for o in range(t.p[P_N_OBJ]):
        c = s.aux[AUX_OBJ, o]
        if c >= 0:
            row[C_OBJ0 + c] += 1
            row[C_OBJMASK0 + c] |= 1 << o
    for k in range(t.p[P_N_UNITS]):
        st = s.u[k, U_ST]
        side = s.u[k, U_SIDE]
        v0 = start_value(t, k)
        if st == DESTROYED or st == LOST:
            row[C_LOST0 + side] += 1
            row[C_SLOST0 + side] += v0
            row[N_FIXED + k] = 1
        elif st == EMPTIED:                          # its figures went to other squads (001 Status phase, 4)
            row[C_SLOST0 + side] += v0
        elif st == ONMAP or st == CARRIED or st == TO_PLACE:
            v = unit_value(s, t, k)
            row[C_SLOST0 + side] += v0 - v
            row[C_SLEFT0 + side] += v
    for side in range(2):
        row[C_VALUE0 + side] = s.g[G_VP0 + side]
    row[C_ACTIVATIONS] = s.g[G_ACTIONS]
    row[C_REACTIONS] = s.g[G_OPFIRES]
    row[C_CCS] = s.g[G_ASSAULTS]
    row[C_DECISIONS] = decisions
    control_by_turn(s.aux, AUX_OBJT, row[C_OBJMASK0], row[C_OBJMASK0 + 1], t.p[P_ROUNDS], row)


@rule_inlined
def start_game(s, t, log):
    """A game of the batch starts in ``s`` (its streams seeded): the event log on with
    ``log`` 1, the set-up."""
    s.g[G_LOG_ON] = log
    new_game(s, t)
    s.g[G_LOG_ON] = log


@rule_inlined
def record_start(s):
    """The side with the initiative at the start (the record's ``first_player``)."""
    return s.g[G_INIT]


int64_constants(globals())
chunks.register(GameState, sys.modules[__name__])
