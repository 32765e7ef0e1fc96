"""Benchmark: compiling the shipped scenarios (their maps, pool tables and close-combat
tables; ``compile_game``, pure Python over the numba-compiled map code), two git
revisions side by side, measured in the same run on the same machine.

Each revision is exported to a fresh folder (:func:`revisions.export`) and runs, in a
child process with an empty scenario cache: a warm-up compile of Infantry Training
(numba compiles the map code there, once), then each scenario of ``--scenarios``
(Crossroads in both close-combat editions), timing each in CPU seconds. Where ``perf``
is installed, the child is counted in user-space instructions, and again without the
scenarios: the difference is the scenarios' instructions (steadier than seconds on a
shared machine).

    python bench/compile.py [--old main] [--new HEAD] [--scenarios crossroads:v2,crossroads:v1,river-and-bridge]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from revisions import PERF, export, instructions

CHILD = """
import json, os, sys, tempfile, time
os.environ["LANCHESTER_CACHE_DIR"] = tempfile.mkdtemp()
from simulator.games.assault.game.compile import compile_game
compile_game("infantry-training")
cpu = {}
for spec in filter(None, sys.argv[1].split(",")):
    name, _, edition = spec.partition(":")
    t = time.process_time()
    compile_game(name, edition=edition or None)
    cpu[spec] = time.process_time() - t
print(json.dumps(cpu))
"""


def child(tree: Path, scenarios: str) -> tuple[dict, float | None]:
    """The CPU seconds of each scenario's compile in ``tree``, and the child's instructions."""
    cmd = [sys.executable, "-c", CHILD, scenarios]
    counts = None
    if PERF:
        counts = tree / "perf.stat"
        cmd = [PERF, "stat", "-x,", "-e", "instructions:u", "-o", str(counts), "--"] + cmd
    done = subprocess.run(cmd, cwd=tree, env=dict(os.environ, PYTHONPATH=str(tree)), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: compiling {scenarios} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1]), (instructions(counts) if counts else None)


def measure(rev: str, work: Path, scenarios: str) -> dict:
    tree = work / rev.replace("/", "_")
    short = export(rev, tree)
    print(f"{rev} ({short}): compiling {scenarios} ...", flush=True)
    child(tree, "")                                   # numba's cache of the map code, filled once
    cpu, ins = child(tree, scenarios)
    base = child(tree, "")[1]
    return {"rev": rev, "hash": short, "cpu": cpu, "ins": None if ins is None or base is None else ins - base}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", default="main")
    ap.add_argument("--new", default="HEAD")
    ap.add_argument("--scenarios", default="crossroads:v2,crossroads:v1,river-and-bridge,vehicle-training",
                    help="NAME or NAME:EDITION, comma-separated")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="lanchester-compile-") as tmp:
        old, new = (measure(rev, Path(tmp), args.scenarios) for rev in (args.old, args.new))
    print(f"\n{'CPU s':22} {old['rev'] + ' (' + old['hash'] + ')':>20} {new['rev'] + ' (' + new['hash'] + ')':>20} "
          f"{'ratio':>7}")
    for spec in old["cpu"]:
        print(f"{spec:22} {old['cpu'][spec]:20.1f} {new['cpu'][spec]:20.1f} {new['cpu'][spec] / old['cpu'][spec]:7.2f}")
    a, b = sum(old["cpu"].values()), sum(new["cpu"].values())
    print(f"{'all':22} {a:20.1f} {b:20.1f} {b / a:7.2f}")
    if old["ins"] is None or new["ins"] is None:
        print("(no instruction counts: perf is not installed)")
        return
    print(f"{'all, G instructions':22} {old['ins'] / 1e9:20.1f} {new['ins'] / 1e9:20.1f} {new['ins'] / old['ins']:7.3f}")


if __name__ == "__main__":
    main()
