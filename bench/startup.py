"""Benchmark: how long each command takes on a fresh machine (cold) and after (warm).

Every command runs as its own process, the way a designer runs it. "Cold" runs with
an empty ``NUMBA_CACHE_DIR``, so numba compiles everything the command needs, as on a
fresh clone; "warm" runs the same command again with that cache filled. For each it
prints the wall time, the peak resident memory of the process, and the ratio cold /
warm (the baseline is the warm run of the same command, measured in the same run).

    python bench/startup.py              # every command
    python bench/startup.py --quick      # skip the scenario engine (minutes cold)
    python bench/startup.py --only help,odds

Numbers on a shared machine vary by 10-20%; compare runs made one after the other.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

COMMANDS = {
    "help": ["--help"],
    "assault-help": ["assault", "--help"],
    "odds-help": ["assault", "odds", "--help"],
    "odds": ["assault", "odds", "RY", "YG"],
    "odds-mc": ["assault", "odds", "RY", "YG", "--trials", "1000000", "--seed", "1"],
    "fire": ["assault", "fire", "german/rifles-41", "soviet/heavy-rifles-41", "--range", "3"],
    "melee": ["assault", "melee", "soviet/rifles-41", "german/rifles-41", "--edition", "v2"],
    "toi-fire": ["toi", "fire", "--attacker", "squad:4regular", "--target", "squad:4regular",
                 "--distance", "3"],
    "check": ["assault", "check", "crossroads"],
    "scenario": ["assault", "scenario", "infantry-training", "--games", "200", "--seed", "1"],
}
SLOW = {"scenario"}


PEAK = ("import resource, runpy, sys\n"
        "sys.argv = ['lanchester'] + sys.argv[1:]\n"
        "try:\n"
        "    runpy.run_module('simulator', run_name='__main__')\n"
        "finally:\n"
        "    print('PEAK_KIB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n")


def run(args: list[str], cache: str) -> tuple[float, float, int]:
    """Wall seconds, peak resident MiB and exit status of one ``lanchester`` process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", PEAK, *args], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    peak = [line.split()[1] for line in proc.stderr.splitlines() if line.startswith("PEAK_KIB ")]
    if proc.returncode != 0:
        print(f"  {' '.join(args)} failed: {proc.stderr.strip()[-300:]}", file=sys.stderr)
    return seconds, int(peak[-1]) / 1024 if peak else float("nan"), proc.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="leave out the scenario engine")
    ap.add_argument("--only", default="", help="comma-separated command names: " + ", ".join(COMMANDS))
    a = ap.parse_args()
    names = [n for n in (a.only.split(",") if a.only else COMMANDS) if not (a.quick and n in SLOW)]
    print(f"{'command':14s} {'cold s':>8s} {'warm s':>8s} {'cold/warm':>9s} {'peak MiB':>9s}")
    for name in names:
        with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
            cold, peak, rc1 = run(COMMANDS[name], cache)      # peak: the cold run's (compiling)
            warm, _, rc2 = run(COMMANDS[name], cache)
        flag = "" if rc1 == rc2 == 0 else "  (failed)"
        print(f"{name:14s} {cold:8.2f} {warm:8.2f} {cold / warm:9.1f} {peak:9.0f}{flag}", flush=True)


if __name__ == "__main__":
    main()
