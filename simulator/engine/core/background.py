"""Waiting on a background compile, for any game: the notice a designer sees while the
engine loads or compiles (:mod:`simulator.run.notice`). Each game's warm-up
(``simulator/games/<game>/game/warmup.py``) starts its own compile and waits with these."""

from __future__ import annotations

import subprocess

FIRST_RUN_ESTIMATE = "compiled on the first run only"


def finish(proc: subprocess.Popen | None, *, what: str, estimate: str) -> None:
    """Wait for a background compile (saying so when it takes long; ``what`` and
    ``estimate``: the notice's words). A failed one is harmless: the first game then
    compiles what is missing itself."""
    if proc is None:
        return
    from simulator.run.notice import waiting
    with waiting(what, estimate):
        proc.wait()


def loading(estimate: str = FIRST_RUN_ESTIMATE):
    """The notice over a wait that may compile a game's engine (seconds when it is cached)."""
    from simulator.run.notice import waiting
    return waiting("loading the scenario engine", estimate)
