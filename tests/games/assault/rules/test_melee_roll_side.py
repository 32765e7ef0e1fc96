"""``roll_side`` (revised 12.1.1.1 re-rolls, rulings #11) allocates nothing, so the scenario
engine's rules (compiled without reference counting) can call it on a cold numba cache:
a fresh install's first ``assault scenario`` used to fail to compile. Its choice of
re-rolled dice is checked against a plain-Python statement of the rule."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

from simulator.games.assault.rules.melee.kernels import roll_side
from simulator.run.rng import below, seed_state, sum_rolls

ROOT = Path(__file__).resolve().parents[4]


def test_compiles_inside_a_function_without_reference_counting(tmp_path):
    code = textwrap.dedent("""
        import numba, numpy as np
        from simulator.games.assault.rules.melee.kernels import roll_side
        from simulator.run.rng import seed_state

        @numba.njit(_nrt=False)
        def caller(faces, gain, state):
            return roll_side(faces, gain, 0, 0, 3, 2, state)

        faces = np.arange(18, dtype=np.int64).reshape(1, 3, 6)
        gain = np.linspace(0.0, 1.0, 18).reshape(1, 3, 6)
        print(caller(faces, gain, seed_state(np.random.SeedSequence(1))))
    """)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    assert int(res.stdout.strip()) >= 0


def reference(faces, gain, t, start, n, rerolls, state) -> int:
    """Rulings #11 in plain Python: the ``rerolls`` dice whose re-roll gains most (more
    than nothing), best first, ties to the earlier die, each die once. Without re-rolls
    the pool is rolled as any pool (``sum_rolls``)."""
    if rerolls == 0:
        return int(sum_rolls(faces[t, start:start + n], state))
    rolled = [int(below(state, 6)) for _ in range(n)]
    total = sum(int(faces[t, start + i, f]) for i, f in enumerate(rolled))
    order = sorted((i for i in range(n) if gain[t, start + i, rolled[i]] > 0),
                   key=lambda i: (-gain[t, start + i, rolled[i]], i))
    for i in order[:rerolls]:
        total += int(faces[t, start + i, int(below(state, 6))]) - int(faces[t, start + i, rolled[i]])
    return total


def test_the_dice_re_rolled_follow_the_rule():
    rng = np.random.default_rng(5)
    for case in range(300):
        n = int(rng.integers(1, 7))
        faces = rng.integers(0, 50, size=(2, 8, 6)).astype(np.int64)
        gain = np.round(rng.normal(0.0, 1.0, size=(2, 8, 6)), 1)      # ties and losses too
        rerolls = int(rng.integers(0, 4))
        got = roll_side(faces, gain, 1, 1, n, rerolls, seed_state(np.random.SeedSequence(case)))
        assert got == reference(faces, gain, 1, 1, n, rerolls, seed_state(np.random.SeedSequence(case))), case
