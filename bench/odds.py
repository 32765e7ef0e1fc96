"""Benchmark: battle-dice resolutions per second, numba kernel vs numpy baseline.

Runs the same Monte Carlo question (default ``RY`` against ``YG``) with

* the numba kernel (``simulator.games.assault.rules.kernels``) on 1 worker and on all cores: it
  rolls four dice per 32-bit draw from tables of group sums
  (``simulator.run.rng.group_tables``), two trials per 64-bit draw, and cancels and counts
  trials in blocks of 256;
* a plain vectorised numpy implementation, the baseline of the target (``>= 15x``):
  ``numpy.random.Generator.integers`` for each die's face, the same packed face table
  and the same cancellation function;
* for information, numpy with the kernel's grouped draws (one ``integers`` index per
  group of four dice into the same group tables), which shows how much of the gain is
  the grouping, which numpy can use too, and how much is compiling,

in one run, and prints resolutions per second and their ratios. All three sample the
same distribution (``tests/games/assault/rules/test_grouped_dice.py``).

    python bench/odds.py [--attack RY] [--defence YG] [--trials 50000000] [--repeat 3] [--smoke]
"""

from __future__ import annotations

import argparse
import os
import time
from functools import partial

import numpy as np

from simulator.games.assault.rules.compare import uncancelled
from simulator.games.assault.rules.dice import load_dice, parse_pool
from simulator.games.assault.rules.exact import pool_distribution
from simulator.games.assault.rules.kernels import FIELD_BITS, FIELD_MAX, packed_faces, uncancelled_chunk
from simulator.run import runner
from simulator.run.rng import group_tables


def count_outcomes(total: np.ndarray, shape) -> np.ndarray:
    """Cancel packed roll totals (10.7.2) and count the outcomes, flat."""
    f = [(total >> (k * FIELD_BITS)) & FIELD_MAX for k in range(6)]
    c, h, s = uncancelled(*f)
    return np.bincount(np.ravel_multi_index((c, h, s), shape), minlength=int(np.prod(shape)))


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
        counts += count_outcomes(total, shape)
        done += n
    return counts.reshape(shape)


def numpy_grouped(faces: np.ndarray, shape, trials: int, seed: int, chunk: int = 1 << 20) -> np.ndarray:
    """Numpy with the kernel's grouped draws: one index per group of dice into the
    group tables (``integers`` is unbiased for any bound)."""
    rng = np.random.default_rng(seed)
    tables, sizes, _ = group_tables(faces)
    counts = np.zeros(int(np.prod(shape)), dtype=np.int64)
    done = 0
    while done < trials:
        n = min(chunk, trials - done)
        total = np.zeros(n, dtype=np.int64)
        for table, size in zip(tables, sizes):
            total += table[rng.integers(0, int(size), size=n)]
        counts += count_outcomes(total, shape)
        done += n
    return counts.reshape(shape)


def best_times(fn, repeat: int) -> tuple[float, float]:
    """Shortest wall time and shortest CPU time of ``repeat`` calls. On a shared machine
    the CPU time of a one-thread computation is the fairer figure: time slices lost to
    other programs do not count."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall = min(wall, time.perf_counter() - w0)
        cpu = min(cpu, time.process_time() - c0)
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--attack", default="RY")
    ap.add_argument("--defence", default="YG")
    ap.add_argument("--trials", type=int, default=50_000_000)
    ap.add_argument("--baseline-trials", type=int, default=5_000_000)
    ap.add_argument("--repeat", type=int, default=3, help="measurements of each, best kept")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, for CI")
    args = ap.parse_args()
    if args.smoke:
        args.trials, args.baseline_trials, args.repeat = 2_000_000, 500_000, 1

    dice = load_dice()
    atk, dfn = parse_pool(args.attack, dice), parse_pool(args.defence, dice)
    faces = packed_faces(atk, dfn, dice, "all")
    shape = pool_distribution(atk, dice).shape
    task = partial(uncancelled_chunk, faces, 0, shape)
    runner.run(task, 1000, seed=0, workers=1)  # compile (or load the cache) outside the timing

    cores = os.cpu_count() or 1
    load = os.getloadavg()[0]
    # Interleaved, best of --repeat each: a busy moment hits them all alike.
    runs = {"numpy": lambda: numpy_baseline(faces, shape, args.baseline_trials, seed=1),
            "grouped": lambda: numpy_grouped(faces, shape, args.baseline_trials, seed=1),
            "one": lambda: runner.run(task, args.trials, seed=1, workers=1),
            "all": lambda: runner.run(task, args.trials, seed=1, workers=cores)}
    best = {name: (float("inf"),) * 2 for name in runs}
    for _ in range(args.repeat):
        for name, fn in runs.items():
            best[name] = tuple(map(min, best[name], best_times(fn, 1)))

    n = {"numpy": args.baseline_trials, "grouped": args.baseline_trials, "one": args.trials, "all": args.trials}
    wall = {k: n[k] / best[k][0] for k in best}
    cpu = {k: n[k] / best[k][1] for k in best}
    dice_n = len(atk) + len(dfn)
    print(f"question: {args.attack} vs {args.defence} ({dice_n} dice a resolution); load average "
          f"{load:.2f} at start, {os.getloadavg()[0]:.2f} at end (other programs slow every wall-clock rate)")
    print("                          wall clock            CPU time")
    print(f"numpy baseline, 1 core : {wall['numpy'] / 1e6:9.1f} M/s         {cpu['numpy'] / 1e6:9.1f} M/s"
          f"   ({args.baseline_trials:,} trials)")
    print(f"numpy grouped,  1 core : {wall['grouped'] / 1e6:9.1f} M/s         {cpu['grouped'] / 1e6:9.1f} M/s"
          f"   (information: numpy with the kernel's grouped draws)")
    print(f"numba kernel,   1 core : {wall['one'] / 1e6:9.1f} M/s         {cpu['one'] / 1e6:9.1f} M/s"
          f"   ({args.trials:,} trials; {cpu['one'] * dice_n / 1e9:.2f} G dice per CPU second)")
    print(f"numba kernel, {cores} cores : {wall['all'] / 1e6:9.1f} M/s")
    print(f"ratio numba/numpy (1 core)       : {wall['one'] / wall['numpy']:6.1f}x wall, "
          f"{cpu['one'] / cpu['numpy']:6.1f}x CPU   (target >= 15x)")
    print(f"ratio numba/numpy grouped        : {wall['one'] / wall['grouped']:6.1f}x wall, "
          f"{cpu['one'] / cpu['grouped']:6.1f}x CPU   (information)")
    print(f"scaling 1 -> {cores} workers efficiency : {wall['all'] / wall['one'] / cores:6.1%}  "
          f"(a short run; bench/scaling.py measures scaling properly)")

if __name__ == "__main__":
    main()
