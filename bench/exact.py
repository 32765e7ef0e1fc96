"""Benchmark: our exact calculator against icepool on the same odds questions.

Each question (an attack pool against a defence pool, a doubles rule, extra
suppression) is answered twice from scratch:

* ``simulator.games.assault.rules.exact.roll_outcome`` (numpy: pool distributions built die by
  die, then every attack total against every defence total through the one
  cancellation rule of ``simulator.games.assault.rules.compare``), and
* icepool (an independent exact dice engine: dice with vector outcomes, summed, then
  ``icepool.map`` of the same cancellation rule over attack and defence totals),

and the answers are compared (largest difference, must be below 1e-12) and timed.
``tests/robustness/test_exact_vs_icepool.py`` runs the same comparison.

    python bench/exact.py [--repeat 5] [--smoke]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from simulator.games.assault.rules import exact
from simulator.games.assault.rules.compare import uncancelled
from simulator.games.assault.rules.dice import DiceSet, load_dice, parse_pool, single_symbol

# (attack, defence, doubles, extra_supp)
QUESTIONS = [
    ("RY", "YG", "all", 0),
    ("2RG", "YYB", "all", 0),
    ("RRYYG", "GB", "strongest", 0),
    ("3R2Y", "2YGB", "weakest", 1),
    ("RRRYYYGG", "YYGGBB", "all", 0),
    ("4R4Y", "3R3Y", "all", 0),
    ("RY", "-", "all", 0),
    ("-", "RY", "all", 2),
]
SMOKE_QUESTIONS = QUESTIONS[:4] + QUESTIONS[6:]


def ours(attack: str, defence: str, dice: DiceSet, doubles: str, extra_supp: int) -> np.ndarray:
    """Our answer from scratch (the per-die face cache emptied first)."""
    exact._die_faces.cache_clear()
    return exact.roll_outcome(parse_pool(attack, dice), parse_pool(defence, dice), dice,
                              doubles=doubles, extra_supp=extra_supp)


def icepool_outcome(attack: str, defence: str, dice: DiceSet, doubles: str, extra_supp: int) -> dict:
    """icepool's answer: ``{(crit, hit, supp): probability}`` as exact fractions turned to floats."""
    import icepool

    def die(letter: str, mode: str):
        return icepool.Die([icepool.Vector(single_symbol(f, mode)) for f in dice.die(letter).faces])

    def total(pool, mode: str, extra: int):
        out = icepool.Die([icepool.Vector((0, 0, extra))])
        for letter in pool:
            out = out + die(letter, mode)
        return out

    atk = total(parse_pool(attack, dice), doubles, extra_supp)
    dfn = total(parse_pool(defence, dice), "all", 0)

    def cancel(a, d):
        return icepool.Vector(tuple(int(x) for x in uncancelled(a[0], a[1], a[2], d[0], d[1], d[2])))

    result = icepool.map(cancel, atk, dfn)
    den = result.denominator()
    return {tuple(int(x) for x in outcome): q / den for outcome, q in result.items()}


def largest_difference(ours_dist: np.ndarray, theirs: dict) -> float:
    """Largest absolute difference over every outcome either side gives."""
    worst = 0.0
    for outcome, p in theirs.items():
        mine = ours_dist[outcome] if all(o < n for o, n in zip(outcome, ours_dist.shape)) else 0.0
        worst = max(worst, abs(mine - p))
    for outcome in zip(*np.nonzero(ours_dist)):
        if tuple(int(x) for x in outcome) not in theirs:
            worst = max(worst, float(ours_dist[outcome]))
    return worst


def timed(fn, repeat: int) -> float:
    """Median wall time of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--smoke", action="store_true", help="small questions only, for CI")
    args = ap.parse_args()
    dice = load_dice()
    questions = SMOKE_QUESTIONS if args.smoke else QUESTIONS
    total_ours = total_ice = 0.0
    print(f"{'question':34s} {'ours':>10s} {'icepool':>10s} {'speed-up':>9s}  max |diff|")
    for q in questions:
        diff = largest_difference(ours(*q[:2], dice, *q[2:]), icepool_outcome(*q[:2], dice, *q[2:]))
        t_ours = timed(lambda: ours(q[0], q[1], dice, q[2], q[3]), args.repeat)
        t_ice = timed(lambda: icepool_outcome(q[0], q[1], dice, q[2], q[3]), args.repeat)
        total_ours += t_ours
        total_ice += t_ice
        label = f"{q[0]} vs {q[1]} ({q[2]}{', +' + str(q[3]) + ' supp' if q[3] else ''})"
        print(f"{label:34s} {t_ours * 1e3:8.2f}ms {t_ice * 1e3:8.2f}ms {t_ice / t_ours:8.1f}x  {diff:.1e}"
              + ("" if diff < 1e-12 else "  DISAGREE"))
    print(f"{'all questions':34s} {total_ours * 1e3:8.2f}ms {total_ice * 1e3:8.2f}ms "
          f"{total_ice / total_ours:8.1f}x   (target: ours at least as fast, >= 1.0x)")


if __name__ == "__main__":
    main()
