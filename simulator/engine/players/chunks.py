"""Every game's compiled batch entries (numba): :func:`play_chunk` plays a chunk of games
with the quick players (:func:`play_chunk_searching` with the searching ones too;
:func:`chunk_entry` picks) and writes one integer record per game. The shared runner
(:mod:`simulator.engine.core.batch`) calls them with a game's tables and state.

What differs per game (how a game starts, what its record holds) are the game's record
hooks (:func:`register`, below), registered by its ``records`` module
(Assault's :mod:`simulator.games.assault.game.records`, Tide of Iron's
:mod:`simulator.games.toi.game.records`): import it before a first call. One compiled
version per game (numba compiles per state type); the disk caches sit with the shared
players', which every game's group drops (``compiling.CACHE_GROUPS``).

Here and not in the engine core because the loop plays the players
(:func:`~simulator.engine.players.interface.play`), which the core may not import; the
shared columns of the record stay the core's (:mod:`simulator.engine.core.records`)."""

from __future__ import annotations

import numba

from simulator.engine.core.compiling import int64_constants, rule_inlined
from simulator.engine.core.seeding import seed_game
from simulator.engine.players.interface import forget, play, play_searching, searches

# --- each game's record hooks (numba), picked by the type of its state ---------------
# The entries below call these with a game's state ``s`` first; numba picks the game's
# own by the type of ``s``, as the game API does (:mod:`simulator.engine.core.gameapi`).
# A game registers, in its records module:
#   ``start_game(s, t, log)``: a game's start, its streams already seeded: the event log
#       on with ``log`` 1, the set-up played to the first decision;
#   ``record_start(s)``: what the record keeps of the start (Tide of Iron: the side with
#       the initiative), read before the players play; 0 when nothing;
#   ``fill_record(s, t, game, start, decisions, row)``: the finished game's record.
# The overloads are not inlined at numba's level (as the game API's are not): with
# ``inline="always"`` the look-ahead's and the tree search's golden games changed in both
# games (issue 42, item 3: the compiler dependence), though the code did the same.

_RECORDERS: dict[type, object] = {}
RECORD_HOOKS = ("start_game", "record_start", "fill_record")


def register(state_class: type, api) -> None:
    """Make ``api`` (a module with every name of :data:`RECORD_HOOKS`) the record hooks of
    states of ``state_class``."""
    missing = [h for h in RECORD_HOOKS if not hasattr(api, h)]
    if missing:
        raise TypeError(f"{getattr(api, '__name__', api)} lacks the record hooks' {', '.join(missing)}")
    _RECORDERS[state_class] = api


def _of(s, name):
    from numba.core.errors import TypingError
    api = _RECORDERS.get(getattr(s, "instance_class", None))
    if api is None:
        raise TypingError(f"no game registered its record hooks for a state of type {s} "
                          "(simulator.engine.players.chunks)")
    return getattr(api, name)


def start_game(s, t, log):
    raise NotImplementedError("chunks.start_game is called from compiled code only")


def record_start(s):
    raise NotImplementedError("chunks.record_start is called from compiled code only")


def fill_record(s, t, game, start, decisions, row):
    raise NotImplementedError("chunks.fill_record is called from compiled code only")


def _overloads():
    from numba.extending import overload

    @overload(start_game)
    def _start_game(s, t, log):
        f = _of(s, "start_game")
        return lambda s, t, log: f(s, t, log)

    @overload(record_start)
    def _record_start(s):
        f = _of(s, "record_start")
        return lambda s: f(s)

    @overload(fill_record)
    def _fill_record(s, t, game, start, decisions, row):
        f = _of(s, "fill_record")
        return lambda s, t, game, start, decisions, row: f(s, t, game, start, decisions, row)


_overloads()


@rule_inlined
def begin(s, t, w, key, game, log):
    """Game ``game`` of the chunk with stream key ``key`` begins in ``s``: its streams
    seeded, the game's start (the event log on with ``log`` 1, set up to its first
    decision), the players' memory cleared."""
    seed_game(key, game, s.rng)
    start_game(s, t, log)
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
        start = record_start(s)
        fill_record(s, t, first_game + i, start, play(s, t, kinds, params, w, max_decisions), out[i])


@numba.njit(cache=True, nogil=True, _nrt=False)
def play_chunk_searching(t, key, first_game, n_games, kinds, params, s, w, out, log, max_decisions):
    """:func:`play_chunk` with players of every kind, the searching ones too (look-ahead,
    tree search): compiled the first time such players play, not before."""
    for i in range(n_games):
        begin(s, t, w, key, first_game + i, log)
        start = record_start(s)
        fill_record(s, t, first_game + i, start, play_searching(s, t, kinds, params, w, max_decisions), out[i])


def chunk_entry(kinds):
    """The batch entry for players ``kinds``: :func:`play_chunk_searching` when one of them
    searches, else :func:`play_chunk`. Both play the same games for the same players."""
    return play_chunk_searching if searches(kinds) else play_chunk


def is_cached(entry, state_class) -> bool:
    """Whether numba's disk cache holds ``entry`` (:func:`play_chunk` or
    :func:`play_chunk_searching`) compiled for states of ``state_class`` on this machine
    (the entries hold one version per game)."""
    try:
        index = entry._cache._cache_file._load_index()
        return any(getattr(a, "instance_class", None) is state_class for key in index for a in key[0])
    except Exception:                      # numba's internals moved: assume cold (costs a process)
        return False


int64_constants(globals())
