"""Assault's compiled batch entries: :func:`play_chunk` plays a chunk of games with
Assault's rules and quick players (:func:`play_chunk_searching` with the searching ones
too; :func:`chunk_entry` picks) and writes one fixed-width integer record per game
(:func:`fill_record`, columns ``FIXED_COLUMNS``, units lost per unit card, then each side's
objectives at the end of each turn). The
shared runner (:mod:`simulator.engine.core.batch`) calls it; each game brings its own."""

from __future__ import annotations

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
from simulator.engine.core.seeding import seed_game
from simulator.engine.players.interface import forget, play, play_searching, searches
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
)
from simulator.games.assault.game.tables import P_N_FORMS, P_N_OBJ, P_O_FORM, P_TURNS, UT_CARD, UT_STR, UT_VALUE
from simulator.games.assault.game.turn import set_up


@numba.njit(cache=True, _nrt=False)
def fill_record(s, t, game, decisions, row):
    """One game's record (see ``FIXED_COLUMNS``), then units lost per unit card. A game
    not over (stopped at the decision limit) has no winner (``NO_WINNER``), reason
    ``R_TRUNCATED`` and decided turn 0."""
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
def begin(s, t, w, key, game, log):
    """Game ``game`` of the chunk with stream key ``key`` begins in ``s``: its streams
    seeded, the event log on with ``log`` 1, set up to its first decision, the players'
    memory cleared."""
    seed_game(key, game, s.rng)
    s.g[G_LOG_ON] = log
    set_up(s, t)
    s.g[G_LOG_ON] = log
    forget(w)


@numba.njit(cache=True, nogil=True, _nrt=False)
def play_chunk(t, key, first_game, n_games, kinds, params, s, w, out, log, max_decisions):
    """Play games ``first_game .. first_game + n_games - 1`` of a chunk (their place in the
    chunk seeds their streams) with the quick players ``kinds`` (random, greedy), each for
    at most ``max_decisions`` decisions, and write their records into ``out``; with
    ``log`` 1 the state's event log records them (a replay:
    :func:`simulator.engine.core.batch.play_alone`)."""
    for i in range(n_games):
        begin(s, t, w, key, first_game + i, log)
        fill_record(s, t, first_game + i, play(s, t, kinds, params, w, max_decisions), out[i])


@numba.njit(cache=True, nogil=True, _nrt=False)
def play_chunk_searching(t, key, first_game, n_games, kinds, params, s, w, out, log, max_decisions):
    """:func:`play_chunk` with players of every kind, the searching ones too (look-ahead,
    tree search): compiled the first time such players play, not before."""
    for i in range(n_games):
        begin(s, t, w, key, first_game + i, log)
        fill_record(s, t, first_game + i, play_searching(s, t, kinds, params, w, max_decisions), out[i])


def chunk_entry(kinds):
    """The batch entry for players ``kinds``: :func:`play_chunk_searching` when one of them
    searches, else :func:`play_chunk`. Both play the same games for the same players."""
    return play_chunk_searching if searches(kinds) else play_chunk


int64_constants(globals())
