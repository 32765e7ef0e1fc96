"""Benchmark: compile time and peak memory of a scenario against the size of its map.

Issue 20 (class 5): the line-of-sight and distance tables used to be all-pairs, so they
grew as the square of the number of hexes (a 40 x 30 map took about 6 s and 600 MB, a
200 x 200 map died with MemoryError). The engine now keeps, for every hex, the lines to
the hexes within its sight radius only (``compile.near_tables``: as far as any unit
fires or spots, the whole map on small maps) and computes distance from the axial
coordinates.

Each size is the Infantry Training scenario (six units) with its map in the top-left
corner of a larger map of random clear, brush and forest hexes. For each size, in a
fresh child process (peak RSS = the child's ru_maxrss):

- ``new``: ``compile_game`` of that scenario, the engine's whole compile;
- ``old``: the all-pairs representation on the same map, where it fits: the full LOS
  tables (``los.compute_los_tables``, the reference the tests compare against), the
  distance table and the engine's old pair table (int64[n, n, 3]) - a lower bound of
  the old compile, which also classified every pair in a Python loop.

Both children load the numba cache first (a warm-up compile of a small map) and the
times exclude it. Over-limit sizes show the one-line error instead.

    python bench/maps.py [--sizes 12x9,20x15,40x30,60x60,100x100,140x140,200x200] [--old-max 1200]
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCENARIO = REPO / "scenarios" / "assault" / "infantry-training.scenario.toml"

# The child's peak RSS (ru_maxrss of the children, KiB on Linux), measured by a fresh parent.
PEAK_RSS = ("import resource, subprocess, sys\n"
            "r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)\n"
            "sys.stdout.write(r.stdout)\n"
            "sys.stdout.write(r.stderr.strip().splitlines()[-1] + '\\n' if r.returncode else '')\n"
            "print('RSS', r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")

WARM = ("from simulator.games.assault.game.compile import compile_game\n"
        "from simulator.games.assault.game.compiled import compile_map\n"
        "from simulator.games.assault.game.scenario import load_scenario\n"
        "import time, sys\n"
        "compile_game('infantry-training')\n"
        "compile_map(load_scenario('infantry-training'))._full\n")

NEW = WARM + ("t0 = time.perf_counter()\n"
              "g = compile_game(sys.argv[1])\n"
              "print('TIME', time.perf_counter() - t0, 'RADIUS', (g.tables.near.shape[1] - 1) // 2)\n")

OLD = WARM + ("import numpy as np\n"
              "cm = compile_map(load_scenario(sys.argv[1]))\n"
              "t0 = time.perf_counter()\n"
              "full = cm._full\n"
              "pair = np.zeros((cm.n, cm.n, 3), dtype=np.int64)\n"
              "pair[:, :, 0] = cm.distance\n"
              "pair[:, :, 1] = full[0]\n"
              "print('TIME', time.perf_counter() - t0, 'RADIUS', cm.diameter)\n")


def write_scenario(cols: int, rows: int, path: Path) -> None:
    """Infantry Training with its map in the corner of a ``cols`` x ``rows`` map."""
    src = SCENARIO.read_text()
    m = re.search(r"rows = \[\n(.*?)\n\]", src, re.S)
    orig = re.findall(r'"([^"]*)"', m.group(1))
    rng = random.Random(cols * 1000 + rows)
    new = [(orig[i] if i < len(orig) else "")[:cols] for i in range(rows)]
    new = [r + "".join(rng.choice("......bf") for _ in range(cols - len(r))) for r in new]
    path.write_text(src[:m.start()] + "rows = [\n" + "\n".join(f'  "{r}",' for r in new) + "\n]" + src[m.end():])


def run(code: str, path: Path) -> tuple[str, float | None, int | None, float]:
    out = subprocess.run([sys.executable, "-c", PEAK_RSS, sys.executable, "-c", code, str(path)],
                         capture_output=True, text=True, cwd=REPO).stdout
    lines = out.strip().splitlines()
    _, code_, kib = lines[-1].split()
    if code_ != "0":
        return lines[-2] if len(lines) > 1 else f"exit {code_}", None, None, int(kib) / 1024
    t = [x for x in lines if x.startswith("TIME")][-1].split()
    return "", float(t[1]), int(t[3]), int(kib) / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="12x9,20x15,40x30,60x60,100x100,140x140,200x200")
    ap.add_argument("--old-max", type=int, default=1200, help="measure the old tables up to this many hexes")
    args = ap.parse_args()
    print(f"{'map':>9} {'hexes':>7} {'radius':>6} {'new s':>7} {'new MiB':>8} | {'old s':>7} {'old MiB':>8} "
          f"{'old radius':>10} | {'MiB old/new':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes.split(","):
            cols, rows = (int(x) for x in size.split("x"))
            path = Path(tmp) / f"map-{cols}x{rows}.scenario.toml"
            write_scenario(cols, rows, path)
            err, t_new, radius, mib_new = run(NEW, path)
            if err:
                print(f"{size:>9} {cols * rows:>7,}  {err.strip()}")
                continue
            line = f"{size:>9} {cols * rows:>7,} {radius:>6} {t_new:>7.2f} {mib_new:>8,.0f} | "
            if cols * rows <= args.old_max:
                err, t_old, diam, mib_old = run(OLD, path)
                line += (f"{t_old:>7.2f} {mib_old:>8,.0f} {diam:>10} | {mib_old / mib_new:>11.2f}" if not err
                         else err.strip())
            else:
                line += f"{'-':>7} {'-':>8} {'-':>10} | (all pairs: {(cols * rows) ** 2:,} lines, not run)"
            print(line, flush=True)


if __name__ == "__main__":
    main()
