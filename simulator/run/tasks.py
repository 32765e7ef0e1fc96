"""What a worker process or a Dask worker runs, and how many there are by default: the
pieces of a run that both the runner and its Dask backend call (kept apart so that
neither imports the other)."""

from __future__ import annotations

import os
import time
from typing import Any, Callable

import numpy as np


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


def run_group(task: Callable[..., Any], pieces: list[tuple[int, np.random.SeedSequence]]) -> tuple[list, float]:
    """Worker side of a group: every chunk's result, in order, and the seconds it took."""
    t0 = time.perf_counter()
    out = [task(trials, seed_seq) for trials, seed_seq in pieces]
    return out, time.perf_counter() - t0
