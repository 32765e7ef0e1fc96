# Repository-root conftest: makes the checkout importable when pytest runs from it.

import atexit
import fcntl
import os
import shutil
import tempfile
from pathlib import Path

# Compiled scenarios are cached on disk (simulator.games.assault.game.gamecache): the suite keeps
# its own cache for the run, shared by the tests and the processes they start, and
# never reads or fills the user's.
if "LANCHESTER_CACHE_DIR" not in os.environ:
    os.environ["LANCHESTER_CACHE_DIR"] = tempfile.mkdtemp(prefix="lanchester-test-cache-")
    atexit.register(shutil.rmtree, os.environ["LANCHESTER_CACHE_DIR"], True)


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def engine_compiled():
    """The scenario engine compiled on both cores before the first test that plays a
    game, the searching players' batch entry too (many tests play them:
    :func:`simulator.games.assault.game.warmup.compile_engine`): None when numba's cache held it
    already, else the parts' functions the engine called with other argument types."""
    from simulator.games.assault.game import warmup
    # Under pytest-xdist every worker asks for it: the first compiles (on both cores), the
    # others wait for it and then find the engine in numba's cache. A worker that would
    # wait does what later tests will want meanwhile (:func:`_while_the_engine_compiles`):
    # the engine's compile leaves a core idle for part of its two or three minutes.
    lock = Path(os.environ["LANCHESTER_CACHE_DIR"]) / "engine-compile.lock"
    with open(lock, "w") as held:
        if not _try_lock(held):
            _while_the_engine_compiles(held)
            fcntl.flock(held, fcntl.LOCK_EX)
        return warmup.compile_engine(searching=True)


def _try_lock(held) -> bool:
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _while_the_engine_compiles(engine_lock) -> None:
    """What later tests want compiled, done by one waiting worker while another compiles
    the engine (each only if that compile still holds ``engine_lock``): Tide of Iron's
    quick and searching batch entries (numba) and Crossroads in both close-combat
    editions (the largest scenario compile, into the suite's scenario cache)."""
    from simulator.games.assault.game.compile import compile_game
    from simulator.games.toi.game import warmup as toi_warmup
    jobs = (toi_warmup.compile_entry,
            lambda: toi_warmup.compile_entry(("lookahead", "greedy")),
            lambda: compile_game("crossroads"),
            lambda: compile_game("crossroads", edition="v1"))
    with open(Path(os.environ["LANCHESTER_CACHE_DIR"]) / "while-the-engine-compiles.lock", "w") as held:
        if not _try_lock(held):
            return                       # another waiting worker does them
        for job in jobs:
            if _try_lock(engine_lock):   # the engine is compiled: the jobs' tests compile what is left
                fcntl.flock(engine_lock, fcntl.LOCK_UN)
                return
            job()
