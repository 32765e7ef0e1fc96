"""Benchmark: the scenario engine of two git revisions side by side (compile time and
games per second), measured in the same run on the same machine.

Each revision is exported (``git archive``) to a fresh folder, so its numba cache is
empty; then, through the command line both revisions share
(``python -m simulator assault scenario NAME --games N --format json``):

- **cold**: the first run, numba compiling the engine from nothing (wall and CPU
  seconds, the compile on both cores as a designer's first run does it);
- **warm**: the same run again, the cache loaded: games per second of its report
  (best of ``--repeat``).

Prints every revision and the ratio to the old one of each figure. The default
compares ``main`` with the working tree's ``HEAD``; ``--new`` takes several revisions
(to find which change moved a figure):

    python bench/revisions.py [--old main] [--new HEAD [REV ...]] [--scenario infantry-training]
                              [--games 4000] [--workers 1] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def export(rev: str, into: Path) -> str:
    """Write revision ``rev`` of this repository into ``into``; return its short hash."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()


def run(tree: Path, args: argparse.Namespace) -> tuple[float, float, dict]:
    """One scenario run from ``tree``: wall seconds, CPU seconds of the children, its JSON."""
    cmd = [sys.executable, "-m", "simulator", "assault", "scenario", args.scenario, "--games", str(args.games),
           "--seed", "1", "--workers", str(args.workers), "--format", "json"]
    env = dict(os.environ, PYTHONPATH=str(tree))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads(done.stdout)


def measure(rev: str, work: Path, args: argparse.Namespace) -> dict:
    tree = work / rev.replace("/", "_")
    short = export(rev, tree)
    print(f"{rev} ({short}): cold run (numba compiles the engine) ...", flush=True)
    cold_wall, cold_cpu, first = run(tree, args)
    rates = []
    for _ in range(args.repeat):
        _, _, rep = run(tree, args)
        rates.append(rep["games_per_second"])
    return {"rev": rev, "hash": short, "cold_wall": cold_wall, "cold_cpu": cold_cpu, "games_per_second": max(rates),
            "win_rate": first["win_rate"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", default="main")
    ap.add_argument("--new", nargs="+", default=["HEAD"])
    ap.add_argument("--scenario", default="infantry-training")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="lanchester-revisions-") as tmp:
        old = measure(args.old, Path(tmp), args)
        news = [measure(rev, Path(tmp), args) for rev in args.new]
    print(f"\n{args.scenario}, {args.games:,} games a run, {args.workers} worker(s), seed 1")
    print(f"{'':26} {'cold wall s':>12} {'cold CPU s':>11} {'games/s':>9}   ratios to {args.old}: wall, CPU, games/s")
    for r in [old] + news:
        print(f"{r['rev'] + ' (' + r['hash'] + ')':26} {r['cold_wall']:12.1f} {r['cold_cpu']:11.1f} "
              f"{r['games_per_second']:9,.0f}   {r['cold_wall'] / old['cold_wall']:.2f}, "
              f"{r['cold_cpu'] / old['cold_cpu']:.2f}, {r['games_per_second'] / old['games_per_second']:.2f}"
              + ("" if r["win_rate"] == old["win_rate"] else "   (different games: win rates differ)"))


if __name__ == "__main__":
    main()
