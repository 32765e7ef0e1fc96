# Repository-root conftest: makes the checkout importable when pytest runs from it.

import atexit
import fcntl
import os
import shutil
import tempfile
from pathlib import Path

# Compiled scenarios are cached on disk (simulator.engine.assault.gamecache): the suite keeps
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
    :func:`simulator.engine.assault.warmup.compile_engine`): None when numba's cache held it
    already, else the parts' functions the engine called with other argument types."""
    from simulator.engine.assault import warmup
    # Under pytest-xdist every worker asks for it: the first compiles (on both cores), the
    # others wait for it and then find the engine in numba's cache.
    lock = Path(os.environ["LANCHESTER_CACHE_DIR"]) / "engine-compile.lock"
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        return warmup.compile_engine(searching=True)
