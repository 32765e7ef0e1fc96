"""Our exact calculator agrees with icepool (an independent exact dice engine) to 1e-12.

The questions and the icepool translation are those of ``bench/exact.py``, which also
times the two.
"""

import importlib.util
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.games.assault.rules.dice import load_dice

_spec = importlib.util.spec_from_file_location(
    "bench_exact", Path(__file__).resolve().parents[2] / "bench" / "exact.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)
DICE = load_dice()
TOLERANCE = 1e-12


@pytest.mark.parametrize("question", bench.QUESTIONS[:5] + bench.QUESTIONS[6:], ids=str)
def test_benchmark_questions_agree(question):
    attack, defence, doubles, extra = question
    ours = bench.ours(attack, defence, DICE, doubles, extra)
    theirs = bench.icepool_outcome(attack, defence, DICE, doubles, extra)
    assert abs(sum(theirs.values()) - 1) < TOLERANCE and abs(ours.sum() - 1) < TOLERANCE
    assert bench.largest_difference(ours, theirs) < TOLERANCE


POOL = st.lists(st.sampled_from("RYGB"), max_size=3).map(lambda xs: "".join(xs) or "-")


@settings(max_examples=25, deadline=None)
@given(POOL, POOL, st.sampled_from(["all", "strongest", "weakest"]), st.integers(0, 2))
def test_random_small_questions_agree(attack, defence, doubles, extra):
    ours = bench.ours(attack, defence, DICE, doubles, extra)
    theirs = bench.icepool_outcome(attack, defence, DICE, doubles, extra)
    assert bench.largest_difference(ours, theirs) < TOLERANCE


def test_the_comparison_would_notice_a_difference():
    ours = bench.ours("RY", "YG", DICE, "all", 0)
    theirs = bench.icepool_outcome("RY", "YG", DICE, "strongest", 0)
    assert bench.largest_difference(ours, theirs) > 1e-3
