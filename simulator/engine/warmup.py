"""Compiling the scenario engine ahead, in a process of its own.

On a fresh machine numba compiles the engine on its first game (minutes, one core).
:func:`start` begins that compile in the background, filling the same disk cache, while
the caller answers quicker questions on the other core; :func:`finish` waits for it.
When the engine is already compiled nothing is started.

    python -m simulator.engine.warmup      # compile the engine now (what start() runs)
"""

from __future__ import annotations

import subprocess
import sys

WARMUP_SCENARIO = "infantry-training"   # every scenario compiles to arrays of the same types


def engine_is_compiled() -> bool:
    """Whether numba's cache holds the engine's entry point for this machine."""
    from simulator.engine.batch import play_chunk
    try:
        return bool(play_chunk._cache._cache_file._load_index())
    except Exception:                      # numba's internals moved: assume cold (costs a process)
        return False


def start() -> subprocess.Popen | None:
    """The background compile, or None when there is nothing to compile."""
    if engine_is_compiled():
        return None
    return subprocess.Popen([sys.executable, "-m", "simulator.engine.warmup"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def finish(proc: subprocess.Popen | None) -> None:
    """Wait for the background compile (saying so when it takes long). A failed one is
    harmless: the first game then compiles what is missing itself."""
    if proc is None:
        return
    from simulator.engine.balance import ENGINE_COMPILE_ESTIMATE
    from simulator.notice import waiting
    with waiting("compiling the scenario engine", ENGINE_COMPILE_ESTIMATE):
        proc.wait()


def main() -> None:
    from simulator.engine.batch import run_games
    from simulator.engine.compile import compile_game
    run_games(compile_game(WARMUP_SCENARIO), games=1, seed=0, players=("greedy", "greedy"), workers=1)


if __name__ == "__main__":
    main()
