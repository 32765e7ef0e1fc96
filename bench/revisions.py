"""Benchmark: the scenario engine of two git revisions side by side (compile time and
games per second), measured in the same run on the same machine.

Each revision is exported (``git archive``) to a fresh folder, so its numba cache is
empty; then, through the command line both revisions share
(``python -m simulator assault scenario NAME --games N --format json``):

- **cold**: the first run, numba compiling the engine from nothing (wall and CPU
  seconds, the compile on both cores as a designer's first run does it);
- **warm**: the same run again, the cache loaded: games per second of its report
  (best of ``--repeat``).

Where ``perf`` is installed, every run is also counted in user-space instructions
(``perf stat -e instructions:u``): the cold compile's and the warm games' (a run of
``--games`` games less a run of one game, per game). Unlike seconds, instructions do
not move with what else the machine runs (on a shared or hyper-threaded 2-core machine
the same run's seconds vary by half), so they decide when the seconds disagree.

Prints every revision and the ratio to the old one of each figure. The default
compares ``main`` with the working tree's ``HEAD``; ``--new`` takes several revisions
(to find which change moved a figure):

    python bench/revisions.py [--old main] [--new HEAD [REV ...]] [--scenario infantry-training]
                              [--players greedy,greedy] [--games 4000] [--workers 1] [--repeat 3]

``--players`` measures other players (the search players compile their own entry, so
their cold run is longer): ``--scenario crossroads --players mcts:64,mcts:64 --games 8``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
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


PERF = shutil.which("perf")


def run(tree: Path, args: argparse.Namespace, games: int | None = None) -> tuple[float, float, dict, float | None]:
    """One scenario run from ``tree``: wall seconds, CPU seconds of the children, its
    JSON, and its user-space instructions (None without ``perf``)."""
    cmd = [sys.executable, "-m", "simulator", "assault", "scenario", args.scenario, "--games",
           str(args.games if games is None else games), "--seed", "1", "--workers", str(args.workers),
           "--players", args.players, "--format", "json"]
    counts = None
    if PERF:
        counts = tree / "perf.stat"
        cmd = [PERF, "stat", "-x,", "-e", "instructions:u", "-o", str(counts), "--"] + cmd
    env = dict(os.environ, PYTHONPATH=str(tree))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads(done.stdout), (instructions(counts) if counts else None)


def instructions(stat: Path) -> float | None:
    """The ``instructions:u`` count of a ``perf stat -x,`` output file (None if not counted)."""
    for line in stat.read_text().splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2].startswith("instructions") and fields[0].isdigit():
            return float(fields[0])
    return None


def measure(rev: str, work: Path, args: argparse.Namespace) -> dict:
    tree = work / rev.replace("/", "_")
    short = export(rev, tree)
    print(f"{rev} ({short}): cold run (numba compiles the engine) ...", flush=True)
    cold_wall, cold_cpu, first, cold_ins = run(tree, args)
    rates = []
    for _ in range(args.repeat):
        _, _, rep, warm_ins = run(tree, args)
        rates.append(rep["games_per_second"])
    per_game = None
    if warm_ins is not None and args.games > 1:
        one = run(tree, args, games=1)[3]
        per_game = (warm_ins - one) / (args.games - 1) if one is not None else None
    return {"rev": rev, "hash": short, "cold_wall": cold_wall, "cold_cpu": cold_cpu, "games_per_second": max(rates),
            "win_rate": first["win_rate"], "cold_ins": cold_ins, "game_ins": per_game}


def rate(games_per_second: float) -> str:
    """Games per second as printed: whole above 100, else two decimals (the search players)."""
    return f"{games_per_second:,.0f}" if games_per_second >= 100 else f"{games_per_second:.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", default="main")
    ap.add_argument("--new", nargs="+", default=["HEAD"])
    ap.add_argument("--scenario", default="infantry-training")
    ap.add_argument("--players", default="greedy,greedy")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="lanchester-revisions-") as tmp:
        old = measure(args.old, Path(tmp), args)
        news = [measure(rev, Path(tmp), args) for rev in args.new]
    print(f"\n{args.scenario}, {args.players}, {args.games:,} games a run, {args.workers} worker(s), seed 1")
    print(f"{'':26} {'cold wall s':>12} {'cold CPU s':>11} {'games/s':>9}   ratios to {args.old}: wall, CPU, games/s")
    for r in [old] + news:
        print(f"{r['rev'] + ' (' + r['hash'] + ')':26} {r['cold_wall']:12.1f} {r['cold_cpu']:11.1f} "
              f"{rate(r['games_per_second']):>9}   {r['cold_wall'] / old['cold_wall']:.2f}, "
              f"{r['cold_cpu'] / old['cold_cpu']:.2f}, {r['games_per_second'] / old['games_per_second']:.2f}"
              + ("" if r["win_rate"] == old["win_rate"] else "   (different games: win rates differ)"))
    if old["cold_ins"] is None or old["game_ins"] is None:
        print("(no instruction counts: perf is not installed)")
        return
    print(f"\n{'':26} {'cold G instr':>12} {'M instr/game':>13}   ratios to {args.old}: cold, per game")
    for r in [old] + news:
        print(f"{r['rev'] + ' (' + r['hash'] + ')':26} {r['cold_ins'] / 1e9:12.0f} {r['game_ins'] / 1e6:13.2f}   "
              f"{r['cold_ins'] / old['cold_ins']:.3f}, {r['game_ins'] / old['game_ins']:.3f}")


if __name__ == "__main__":
    main()
