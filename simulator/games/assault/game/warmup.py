"""Compiling Assault's scenario engine ahead, on both cores.

On a fresh machine numba compiles the engine on its first game: minutes of one core,
because a compile is one thread. :func:`compile_engine` cuts it in two: the players'
part (the greedy player's scoring, the moves it weighs, the step and close-combat
rules under it) compiles in a child process while this process compiles the rules'
part (setting up a game and the automatic steps between decisions, then the rest of
applying an action); each fills numba's disk cache, so when this process then compiles
the batch loop (:func:`simulator.engine.players.chunks.play_chunk`) on top, it loads both parts
instead of compiling them. What the two parts share (a few small rules) is compiled
by both, on different cores. The searching players (look-ahead, tree search) have a
batch entry of their own (:func:`simulator.engine.players.chunks.play_chunk_searching`),
compiled only when asked (``searching``): a first run with greedy players does not
wait for it.

:func:`start` begins all that in the background (the demo answers quicker questions
meanwhile); :func:`finish` waits for it. When the engine is already compiled nothing
is started.

    python -m simulator.games.assault.game.warmup                # compile the engine now, both parts
    python -m simulator.games.assault.game.warmup --searching    # and the searching players' entry
    python -m simulator.games.assault.game.warmup --part rules   # one part only, in this process
"""

from __future__ import annotations

import subprocess
import sys

from simulator.engine.core import background

ENGINE_COMPILE_ESTIMATE = "compiled on the first run only, on both cores: about 2 min"
WARMUP_SCENARIO = "infantry-training"   # every scenario compiles to arrays of the same types
PARTS = ("rules", "players")
SEARCH_PART = "search"                   # the searching players' batch entry (look-ahead, tree search)
SEARCH_PLAYERS = ("lookahead", "greedy")


def engine_is_compiled(searching: bool = False) -> bool:
    """Whether numba's cache holds the engine's batch entry for this machine (with
    ``searching``, the searching players' entry too)."""
    from simulator.engine.players.chunks import is_cached, play_chunk, play_chunk_searching
    from simulator.games.assault.game.state import GameState
    entries = (play_chunk, play_chunk_searching) if searching else (play_chunk,)
    return all(is_cached(e, GameState) for e in entries)


def part_units(part: str, game) -> list[tuple[object, tuple]]:
    """The functions a part compiles, in order, each with the argument types the engine
    calls it with (numba compiles one version per argument types)."""
    from numba import typeof, types

    from simulator.engine.players.interface import DEFAULT_PARAMS, make_work
    from simulator.games.assault.game import greedy, turn
    from simulator.games.assault.game.phases import movement

    w = make_work(game)
    s, t = typeof(game.new_state()), typeof(game.tables)
    a = types.int64
    if part == "rules":                 # the automatic steps, then applying an action
        return [(turn.advance, (s, t)), (turn.apply_action, (s, t, a))]
    if part == "players":               # the step "rules" needs last, first; then the greedy player
        return [(movement.apply_step, (s, t, a)),
                (greedy.greedy_choice, (s, t, a, typeof(w), typeof(DEFAULT_PARAMS), typeof(w.buf)))]
    raise ValueError(f"unknown part {part!r} ({', '.join(PARTS)})")


def warmup_game():
    """The scenario the engine is compiled on (its map's line-of-sight code compiles here)."""
    from simulator.games.assault.game.compile import compile_game
    return compile_game(WARMUP_SCENARIO)


def compile_part(part: str, game=None) -> None:
    """Compile one part of the engine into numba's cache (:data:`SEARCH_PART`: the
    searching players' batch entry, by playing one game with them)."""
    game = warmup_game() if game is None else game
    if part == SEARCH_PART:
        compile_top(game, SEARCH_PLAYERS)
        return
    for dispatcher, signature in part_units(part, game):
        dispatcher.compile(signature)


def compile_top(game=None, players: tuple[str, str] = ("greedy", "greedy")) -> None:
    """Compile (or load) the batch entry of ``players`` by playing one game: what the
    parts did not compile is compiled here."""
    from simulator.engine.core.batch import run_games
    game = warmup_game() if game is None else game
    run_games(game, games=1, seed=0, players=players, workers=1)


def compile_choose(game=None) -> None:
    """Compile (or load) the players' one-decision Python entry,
    :func:`simulator.engine.players.interface.choose`, with the argument types its
    callers give it (a replay or a test playing decision by decision): its compile
    takes the better part of a minute, which each test worker would otherwise spend."""
    from simulator.engine.players.interface import choose
    choose.compile(choose_signature(warmup_game() if game is None else game))


def choose_signature(game) -> tuple:
    """The argument types of ``choose(s, t, kind, side, w, params)`` as its callers give
    them: a state's arrays, the tables, two ``np.int64``, the players' ``Work`` and
    parameters."""
    from numba import typeof, types

    from simulator.engine.players.interface import DEFAULT_PARAMS, make_work
    return (typeof(game.new_state()), typeof(game.tables), types.int64, types.int64, typeof(make_work(game)),
            typeof(DEFAULT_PARAMS))


def _part_process(part: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "simulator.games.assault.game.warmup", "--part", part],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _finish(child: subprocess.Popen | None) -> None:
    if child is None:
        return
    try:
        child.wait()
    finally:
        if child.poll() is None:
            child.kill()


def compile_engine(searching: bool = False) -> list[str] | None:
    """Compile the whole engine, the players' part in a child process beside this one
    (started once the map's code is compiled, so that it is compiled once); with
    ``searching`` the searching players' batch entry too, in a second child beside this
    process's quick entry (both on the greedy player the first child left in the
    cache), and here, while that child still compiles, the one-decision entry
    :func:`compile_choose`. A failed child is harmless: what it did not compile is compiled here.

    Returns None when the engine was compiled already; otherwise the parts' functions
    that the engine did not call with exactly the argument types :func:`part_units`
    gives them (none, unless the engine's calls changed: then a part compiled a version
    nobody uses and the split saves nothing)."""
    if engine_is_compiled(searching):
        return None
    game = warmup_game()
    if engine_is_compiled():                 # the quick entry is there: the searching one only
        compile_part(SEARCH_PART, game)
        return []
    child = _part_process("players")
    try:
        compile_part("rules", game)
    finally:
        _finish(child)
    search = _part_process(SEARCH_PART) if searching else None
    try:
        compile_top(game)
        if searching:                        # while the searching entry compiles beside it
            compile_choose(game)
    finally:
        _finish(search)
    return [f"{d.py_func.__module__}.{d.py_func.__name__}" for part in PARTS
            for d, signature in part_units(part, game) if set(d.overloads) != {tuple(signature)}]


def start(searching: bool = False) -> subprocess.Popen | None:
    """The background compile (:func:`compile_engine`), or None when there is nothing to
    compile."""
    if engine_is_compiled(searching):
        return None
    return subprocess.Popen([sys.executable, "-m", "simulator.games.assault.game.warmup"] + (["--searching"] if searching else []),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def finish(proc: subprocess.Popen | None) -> None:
    """Wait for the background compile (:func:`simulator.engine.core.background.finish`)."""
    background.finish(proc, what="compiling the scenario engine", estimate=ENGINE_COMPILE_ESTIMATE)


def engine_loading():
    """The notice over a wait that may compile the engine (seconds when it is cached)."""
    return background.loading(ENGINE_COMPILE_ESTIMATE)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--part"] and len(argv) == 2:
        compile_part(argv[1])
    elif argv in ([], ["--searching"]):
        compile_engine(searching=bool(argv))
    else:
        sys.exit(f"usage: python -m simulator.games.assault.game.warmup [--searching | --part {'|'.join(PARTS + (SEARCH_PART,))}]")


if __name__ == "__main__":
    main()
