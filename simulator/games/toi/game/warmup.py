"""Compiling Tide of Iron's batch entry ahead, in the background, as
:mod:`simulator.games.assault.game.warmup` does for Assault's engine: :func:`start` begins it in
a child process (``lanchester demo`` answers other questions meanwhile), which fills
numba's disk cache by playing one game; :func:`finish` waits for it. When the entry is
in the cache already nothing is started.

    python -m simulator.games.toi.game.warmup     # compile it now (one core: about 1-2 min)
"""

from __future__ import annotations

import subprocess
import sys

COMPILE_ESTIMATE = "compiled on the first run only: about 1-2 min"
WARMUP_SCENARIO = "two-farms"        # every scenario compiles to arrays of the same types


def is_compiled() -> bool:
    """Whether numba's cache holds Tide of Iron's batch entry for this machine."""
    from simulator.engine.players.chunks import is_cached, play_chunk
    from simulator.games.toi.game.state import GameState
    return is_cached(play_chunk, GameState)


def compile_entry(players: tuple[str, str] = ("greedy", "greedy")) -> None:
    """Compile (or load) the batch entry of ``players`` by playing one game with them (the
    searching players' entry with ``("lookahead", "greedy")``)."""
    from simulator.engine.core.batch import run_games
    from simulator.games.toi.game.game import Game
    run_games(Game(WARMUP_SCENARIO), games=1, seed=0, players=players, workers=1)


def start() -> subprocess.Popen | None:
    """The background compile, or None when there is nothing to compile."""
    if is_compiled():
        return None
    return subprocess.Popen([sys.executable, "-m", "simulator.games.toi.game.warmup"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def finish(proc: subprocess.Popen | None) -> None:
    """Wait for the background compile (:func:`simulator.engine.core.background.finish`)."""
    from simulator.engine.core.background import finish as wait_for
    wait_for(proc, what="compiling the Tide of Iron engine", estimate=COMPILE_ESTIMATE)


if __name__ == "__main__":
    compile_entry()
