"""Benchmark: battle-dice resolutions per second, numba kernel vs numpy baseline.

Runs the same Monte Carlo question (default ``RY`` against ``YG``) with

* the numba kernel (``simulator.assault.kernels``) on 1 worker and on all cores, and
* a plain vectorised numpy implementation (``numpy.random.Generator.integers`` for the
  faces, the same packed face table and the same cancellation function),

in one run, and prints resolutions per second and their ratios.

    python bench/odds.py [--attack RY] [--defence YG] [--trials 50000000] [--smoke]
"""

from __future__ import annotations

import argparse
import os
import time
from functools import partial

import numpy as np

from simulator import runner
from simulator.assault.compare import uncancelled
from simulator.assault.dice import load_dice, parse_pool
from simulator.assault.exact import pool_distribution
from simulator.assault.kernels import FIELD_BITS, FIELD_MAX, packed_faces, uncancelled_chunk


def numpy_baseline(faces: np.ndarray, shape, trials: int, seed: int, chunk: int = 1 << 20) -> np.ndarray:
    """The same question with vectorised numpy, chunk by chunk."""
    rng = np.random.default_rng(seed)
    counts = np.zeros(int(np.prod(shape)), dtype=np.int64)
    rows = np.arange(faces.shape[0])
    done = 0
    while done < trials:
        n = min(chunk, trials - done)
        rolls = rng.integers(0, 6, size=(n, faces.shape[0]))
        total = faces[rows, rolls].sum(axis=1)
        f = [(total >> (k * FIELD_BITS)) & FIELD_MAX for k in range(6)]
        c, h, s = uncancelled(*f)
        counts += np.bincount(np.ravel_multi_index((c, h, s), shape), minlength=counts.size)
        done += n
    return counts.reshape(shape)


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--attack", default="RY")
    ap.add_argument("--defence", default="YG")
    ap.add_argument("--trials", type=int, default=50_000_000)
    ap.add_argument("--baseline-trials", type=int, default=5_000_000)
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, for CI")
    args = ap.parse_args()
    if args.smoke:
        args.trials, args.baseline_trials = 2_000_000, 500_000

    dice = load_dice()
    atk, dfn = parse_pool(args.attack, dice), parse_pool(args.defence, dice)
    faces = packed_faces(atk, dfn, dice, "all")
    shape = pool_distribution(atk, dice).shape
    task = partial(uncancelled_chunk, faces, 0, shape)
    runner.run(task, 1000, seed=0, workers=1)  # compile (or load the cache) outside the timing

    _, t_np = timed(lambda: numpy_baseline(faces, shape, args.baseline_trials, seed=1))
    _, t_one = timed(lambda: runner.run(task, args.trials, seed=1, workers=1))
    cores = os.cpu_count() or 1
    _, t_all = timed(lambda: runner.run(task, args.trials, seed=1, workers=cores))

    rate_np = args.baseline_trials / t_np
    rate_one = args.trials / t_one
    rate_all = args.trials / t_all
    print(f"question: {args.attack} vs {args.defence} ({len(atk) + len(dfn)} dice a resolution)")
    print(f"numpy baseline, 1 core : {rate_np / 1e6:9.1f} M resolutions/s  ({args.baseline_trials:,} trials)")
    print(f"numba kernel,   1 core : {rate_one / 1e6:9.1f} M resolutions/s  ({args.trials:,} trials)"
          f"  = {rate_one * (len(atk) + len(dfn)) / 1e9:.2f} G dice/s")
    print(f"numba kernel, {cores} cores : {rate_all / 1e6:9.1f} M resolutions/s")
    print(f"ratio numba/numpy (1 core)      : {rate_one / rate_np:6.1f}x   (target >= 10x, issue 9: >= 15x)")
    print(f"scaling 1 -> {cores} workers efficiency : {rate_all / rate_one / cores:6.1%}  (target >= 85%)")


if __name__ == "__main__":
    main()
