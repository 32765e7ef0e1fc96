"""The one runner every simulating command uses: chunks, seeds, workers, progress.

A run of ``trials`` is cut into chunks of a fixed size that depends only on the
run's arguments, never on the number of workers. Chunk ``i`` draws from its own
stream, ``SeedSequence(seed).spawn(n)[i]``. Chunks may finish in any order on any
worker; their results are handed back and merged in chunk order. So the same seed
gives the same numbers on one core, on many, or on a cluster.

A *task* is a picklable callable ``task(trials, seed_seq) -> result`` (a
module-level function or a :func:`functools.partial` of one). Numba kernels
compiled with ``nogil=True`` run on threads (``backend="thread"``, no start-up
cost); Python-heavy tasks such as whole scenario games use processes.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

DEFAULT_CHUNK_TRIALS = 1 << 20
Task = Callable[[int, np.random.SeedSequence], Any]


@dataclass(frozen=True)
class Chunk:
    """One piece of a run: its position, its size and its random stream."""

    index: int
    trials: int
    seed_seq: np.random.SeedSequence


def fresh_seed() -> int:
    """A new random seed (reported by commands so the run can be repeated)."""
    return int(np.random.SeedSequence().entropy % (2**63))


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


def plan_chunks(trials: int, seed: int, chunk_trials: int = DEFAULT_CHUNK_TRIALS) -> list[Chunk]:
    """Cut ``trials`` into chunks with their own seed streams (independent of workers)."""
    if trials < 1:
        raise ValueError("trials must be at least 1")
    if chunk_trials < 1:
        raise ValueError("chunk_trials must be at least 1")
    n = -(-trials // chunk_trials)
    seeds = np.random.SeedSequence(seed).spawn(n)
    sizes = [chunk_trials] * (n - 1) + [trials - chunk_trials * (n - 1)]
    return [Chunk(i, sizes[i], seeds[i]) for i in range(n)]


def _progress_bar(total: int, label: str | None):
    if not label:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return None
    # disable=None: shown on a terminal, silent in pipes, tests and CI logs.
    return tqdm(total=total, desc=label, unit="trial", unit_scale=True, file=sys.stderr,
                disable=None, leave=False)


def _executor(backend: str, workers: int) -> Executor:
    if backend == "thread":
        return ThreadPoolExecutor(max_workers=workers)
    if backend == "process":
        return ProcessPoolExecutor(max_workers=workers)
    raise ValueError(f"unknown backend {backend!r} (thread or process)")


def iter_results(task: Task, chunks: list[Chunk], *, workers: int | None = None,
                 backend: str = "thread", progress: str | None = None) -> Iterator[tuple[Chunk, Any]]:
    """Run ``task`` on every chunk and yield ``(chunk, result)`` in chunk order."""
    workers = min(workers or default_workers(), len(chunks))
    bar = _progress_bar(sum(c.trials for c in chunks), progress)
    try:
        if workers <= 1:
            for chunk in chunks:
                result = task(chunk.trials, chunk.seed_seq)
                if bar is not None:
                    bar.update(chunk.trials)
                yield chunk, result
            return
        with _executor(backend, workers) as pool:
            # Keep at most 2 chunks per worker in flight: bounded memory on long runs.
            pending: dict[int, Any] = {}
            next_submit = 0
            window = 2 * workers
            for chunk in chunks:
                while next_submit < len(chunks) and next_submit < chunk.index + window:
                    c = chunks[next_submit]
                    pending[c.index] = pool.submit(task, c.trials, c.seed_seq)
                    next_submit += 1
                result = pending.pop(chunk.index).result()
                if bar is not None:
                    bar.update(chunk.trials)
                yield chunk, result
    finally:
        if bar is not None:
            bar.close()


def run(task: Task, trials: int, *, seed: int, workers: int | None = None,
        chunk_trials: int = DEFAULT_CHUNK_TRIALS, backend: str = "thread",
        progress: str | None = None,
        merge: Callable[[Any, Any], Any] = np.add) -> Any:
    """Run ``trials`` of ``task`` in chunks and merge the results in chunk order.

    The default merge adds count arrays, which is what kernels return.
    """
    total = None
    for _chunk, result in iter_results(task, plan_chunks(trials, seed, chunk_trials),
                                       workers=workers, backend=backend, progress=progress):
        total = result if total is None else merge(total, result)
    return total
