"""Assault's batch records: how a game of the batch starts (:func:`start_game`) and its
one fixed-width integer record per game (:func:`fill_record`, columns ``FIXED_COLUMNS``,
units lost per unit card, then each side's objectives at the end of each
turn), the record hooks the shared batch entries
(:mod:`simulator.engine.players.chunks`: ``play_chunk``, ``play_chunk_searching``,
``chunk_entry``) call for Assault's states. Importing this module registers them."""

from __future__ import annotations

import sys

import numba

from simulator.engine.core.compiling import int64_constants, rule_inlined
from simulator.engine.core.records import (
    C_ACTIVATIONS,
    C_CCS,
    C_DECIDED,
    C_DECISIONS,
    C_FALLBACKS,
    C_FIRST,
    C_FORM0,
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
from simulator.games.assault.game import playerapi  # noqa: F401  (registers Assault's game API for the players)
from simulator.games.assault.game.state import (
    AUX_FST,
    AUX_OBJ,
    AUX_OBJT,
    CARRIED,
    ELIMINATED,
    G_ACTIVATIONS,
    G_CCS,
    G_DECIDED_TURN,
    G_FALLBACKS,
    G_FIRST1,
    G_LOG_ON,
    G_OVER,
    G_REACTIONS,
    G_REASON,
    G_TURN,
    G_WINNER,
    NO_WINNER,
    ONMAP,
    PENDING,
    R_TRUNCATED,
    U_DMG,
    U_SIDE,
    U_ST,
    U_TYPE,
    GameState,
)
from simulator.games.assault.game.tables import P_N_FORMS, P_N_OBJ, P_O_FORM, P_TURNS, UT_CARD, UT_STR, UT_VALUE
from simulator.games.assault.game.turn import set_up


@numba.njit(cache=True, _nrt=False)
def fill_record(s, t, game, start, decisions, row):
    """One game's record (see ``FIXED_COLUMNS``), then units lost per unit card (``start``
    unused: the first player is read at the end). A game not over (stopped at the decision
    limit) has no winner (``NO_WINNER``), reason ``R_TRUNCATED`` and decided turn 0."""
    for i in range(row.shape[0]):
        row[i] = 0
    row[C_GAME] = game
    row[C_WINNER] = s.g[G_WINNER]
    row[C_REASON] = s.g[G_REASON]
    row[C_TURNS] = s.g[G_TURN]
    row[C_FIRST] = s.g[G_FIRST1]
    row[C_DECIDED] = s.g[G_DECIDED_TURN]
    if s.g[G_OVER] == 0:
        row[C_WINNER] = NO_WINNER
        row[C_REASON] = R_TRUNCATED
        row[C_DECIDED] = 0
    for k in range(t.p[P_N_OBJ]):
        o = s.aux[AUX_OBJ, k]
        if o >= 0:
            row[C_OBJ0 + o] += 1
            row[C_OBJMASK0 + o] |= 1 << k
    for u in range(s.u.shape[0]):
        st = s.u[u, U_ST]
        side = s.u[u, U_SIDE]
        ty = s.u[u, U_TYPE]
        strength = t.ut[ty, UT_STR]
        if st == ELIMINATED:
            row[C_LOST0 + side] += 1
            row[C_SLOST0 + side] += strength
            row[N_FIXED + t.ut[ty, UT_CARD]] += 1
        elif st == ONMAP or st == CARRIED or st == PENDING:
            left = strength - s.u[u, U_DMG]
            row[C_SLOST0 + side] += s.u[u, U_DMG]
            row[C_SLEFT0 + side] += left
            row[C_VALUE0 + side] += (t.ut[ty, UT_VALUE] * left) // strength
    for f in range(t.p[P_N_FORMS]):
        if s.aux[AUX_FST, f] == 2 and f < 62:
            side = t.meta[t.p[P_O_FORM] + f, 0]
            row[C_FORM0 + side] |= 1 << f
    row[C_ACTIVATIONS] = s.g[G_ACTIVATIONS]
    row[C_REACTIONS] = s.g[G_REACTIONS]
    row[C_FALLBACKS] = s.g[G_FALLBACKS]
    row[C_CCS] = s.g[G_CCS]
    row[C_DECISIONS] = decisions
    control_by_turn(s.aux, AUX_OBJT, row[C_OBJMASK0], row[C_OBJMASK0 + 1], t.p[P_TURNS], row)



@rule_inlined
def start_game(s, t, log):
    """A game of the batch starts in ``s`` (its streams seeded): the event log on with
    ``log`` 1, set up to its first decision."""
    s.g[G_LOG_ON] = log
    set_up(s, t)
    s.g[G_LOG_ON] = log


@rule_inlined
def record_start(s):
    """Nothing of the start goes into Assault's record but what the end shows."""
    return 0


int64_constants(globals())
chunks.register(GameState, sys.modules[__name__])
