"""Saying what a long wait is doing: ``with waiting("compiling the engine"): ...``.

A wait that ends within :data:`QUIET_SECONDS` says nothing. A longer one prints, on
standard error, what it is doing (with an estimate when one is given) and a running
count of the seconds; at the end, how long it took. On a terminal the count updates
in place; elsewhere (pipes, CI logs, tests) nothing is printed unless the environment
sets ``LANCHESTER_PROGRESS=1``, so machine-read output is never interleaved with it;
with ``--quiet`` (:func:`simulator.run.progress.set_quiet`) never.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager
from typing import Iterator, TextIO

QUIET_SECONDS = 2.0


def _wanted(stream: TextIO) -> bool:
    from simulator.run.progress import is_quiet
    if is_quiet():
        return False
    if os.environ.get("LANCHESTER_PROGRESS") == "1":
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@contextmanager
def waiting(what: str, estimate: str = "", *, stream: TextIO | None = None,
            quiet: float = QUIET_SECONDS, every: float = 1.0) -> Iterator[None]:
    """Run the body; if it takes over ``quiet`` seconds, say ``what`` (and ``estimate``)
    and count the seconds until it ends."""
    stream = stream if stream is not None else sys.stderr
    if not _wanted(stream):
        yield
        return
    done = threading.Event()
    start = time.perf_counter()
    live = getattr(stream, "isatty", lambda: False)()
    said = []

    def tell() -> None:
        if done.wait(quiet):
            return
        said.append(True)
        label = f"{what}{f' ({estimate})' if estimate else ''}"
        if not live:
            print(f"lanchester: {label}...", file=stream, flush=True)
            return
        while True:
            print(f"\rlanchester: {label}... {time.perf_counter() - start:.0f} s", end="",
                  file=stream, flush=True)
            if done.wait(every):
                return

    thread = threading.Thread(target=tell, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        if said:
            print(f"{chr(13) + chr(27) + '[K' if live else ''}lanchester: {what}: done in "
                  f"{time.perf_counter() - start:.0f} s", file=stream, flush=True)
