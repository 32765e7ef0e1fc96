"""Compiling the scenario engine ahead, on both cores.

On a fresh machine numba compiles the engine on its first game: minutes of one core,
because a compile is one thread. :func:`compile_engine` cuts it in two: the players'
part (the greedy player's scoring, the moves it weighs, the step and close-combat
rules under it) compiles in a child process while this process compiles the rules'
part (setting up a game and the automatic steps between decisions, then the rest of
applying an action); each fills numba's disk cache, so when this process then compiles
the batch loop (:func:`simulator.engine.assault.records.play_chunk`) on top, it loads both parts
instead of compiling them. What the two parts share (a few small rules) is compiled
by both, on different cores.

:func:`start` begins all that in the background (the demo answers quicker questions
meanwhile); :func:`finish` waits for it. When the engine is already compiled nothing
is started.

    python -m simulator.engine.core.warmup                # compile the engine now, both parts
    python -m simulator.engine.core.warmup --part rules   # one part only, in this process
"""

from __future__ import annotations

import subprocess
import sys

ENGINE_COMPILE_ESTIMATE = "compiled on the first run only, on both cores: about 2 min"
WARMUP_SCENARIO = "infantry-training"   # every scenario compiles to arrays of the same types
PARTS = ("rules", "players")


def engine_is_compiled() -> bool:
    """Whether numba's cache holds the engine's entry point for this machine."""
    from simulator.engine.assault.records import play_chunk
    try:
        return bool(play_chunk._cache._cache_file._load_index())
    except Exception:                      # numba's internals moved: assume cold (costs a process)
        return False


def part_units(part: str, game) -> list[tuple[object, tuple]]:
    """The functions a part compiles, in order, each with the argument types the engine
    calls it with (numba compiles one version per argument types)."""
    from numba import typeof, types

    from simulator.engine.assault import turn
    from simulator.engine.assault.phases import movement, support
    from simulator.engine.players import greedy
    from simulator.engine.players.interface import DEFAULT_PARAMS, make_work

    w = make_work(game)
    s, t = typeof(game.new_state()), typeof(game.tables)
    a = types.int64
    if part == "rules":                 # the automatic steps, then applying an action
        return [(turn.new_game, (s, t)), (turn.apply_action, (s, t, a))]
    if part == "players":               # what "rules" needs last first, then the greedy player
        return [(movement.apply_step, (s, t, a)), (support.apply_support, (s, t, a)),
                (greedy.greedy_choice, (s, t, a, typeof(w), typeof(DEFAULT_PARAMS), typeof(w.buf)))]
    raise ValueError(f"unknown part {part!r} ({', '.join(PARTS)})")


def warmup_game():
    """The scenario the engine is compiled on (its map's line-of-sight code compiles here)."""
    from simulator.engine.assault.compile import compile_game
    return compile_game(WARMUP_SCENARIO)


def compile_part(part: str, game=None) -> None:
    """Compile one part of the engine into numba's cache."""
    game = warmup_game() if game is None else game
    for dispatcher, signature in part_units(part, game):
        dispatcher.compile(signature)


def compile_top(game=None) -> None:
    """Compile (or load) the batch loop by playing one game: what the parts did not
    compile is compiled here."""
    from simulator.engine.core.batch import run_games
    game = warmup_game() if game is None else game
    run_games(game, games=1, seed=0, players=("greedy", "greedy"), workers=1)


def compile_engine() -> list[str] | None:
    """Compile the whole engine, the players' part in a child process beside this one
    (started once the map's code is compiled, so that it is compiled once). A failed
    child is harmless: what it did not compile is compiled here.

    Returns None when the engine was compiled already; otherwise the parts' functions
    that the engine did not call with exactly the argument types :func:`part_units`
    gives them (none, unless the engine's calls changed: then a part compiled a version
    nobody uses and the split saves nothing)."""
    if engine_is_compiled():
        return None
    game = warmup_game()
    child = subprocess.Popen([sys.executable, "-m", "simulator.engine.core.warmup", "--part", "players"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        compile_part("rules", game)
        child.wait()
    finally:
        if child.poll() is None:
            child.kill()
    compile_top(game)
    return [f"{d.py_func.__module__}.{d.py_func.__name__}" for part in PARTS
            for d, signature in part_units(part, game) if set(d.overloads) != {tuple(signature)}]


def start() -> subprocess.Popen | None:
    """The background compile, or None when there is nothing to compile."""
    if engine_is_compiled():
        return None
    return subprocess.Popen([sys.executable, "-m", "simulator.engine.core.warmup"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def finish(proc: subprocess.Popen | None) -> None:
    """Wait for the background compile (saying so when it takes long). A failed one is
    harmless: the first game then compiles what is missing itself."""
    if proc is None:
        return
    from simulator.notice import waiting
    with waiting("compiling the scenario engine", ENGINE_COMPILE_ESTIMATE):
        proc.wait()


def engine_loading():
    """The notice over a wait that may compile the engine (seconds when it is cached)."""
    from simulator.notice import waiting
    return waiting("loading the scenario engine", ENGINE_COMPILE_ESTIMATE)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--part"] and len(argv) == 2:
        compile_part(argv[1])
    elif not argv:
        compile_engine()
    else:
        sys.exit(f"usage: python -m simulator.engine.core.warmup [--part {'|'.join(PARTS)}]")


if __name__ == "__main__":
    main()
