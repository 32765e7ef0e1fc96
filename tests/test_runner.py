"""The shared runner: chunk plans, seeding and ordered merging."""

import numpy as np
import pytest

from simulator import runner


def draw_task(n, seed_seq):
    """A tiny task whose result depends on every chunk's stream."""
    return np.random.default_rng(seed_seq).integers(0, 1000, size=4) * 0 + np.array(
        [n, np.random.default_rng(seed_seq).integers(0, 2**31), 1, 0])


def test_chunk_plan_depends_only_on_trials_and_size():
    plan = runner.plan_chunks(10, seed=3, chunk_trials=4)
    assert [c.trials for c in plan] == [4, 4, 2]
    assert [c.index for c in plan] == [0, 1, 2]
    with pytest.raises(ValueError):
        runner.plan_chunks(0, seed=3)


@pytest.mark.parametrize("backend", ["thread", "process"])
def test_results_identical_for_any_number_of_workers(backend):
    one = runner.run(draw_task, 100, seed=7, workers=1, chunk_trials=7, backend=backend)
    many = runner.run(draw_task, 100, seed=7, workers=3, chunk_trials=7, backend=backend)
    assert one[0] == 100 and one[2] == 15
    assert np.array_equal(one, many)


def test_results_come_back_in_chunk_order():
    order = [c.index for c, _ in runner.iter_results(draw_task, runner.plan_chunks(50, 1, 3), workers=2)]
    assert order == list(range(17))


def test_different_seeds_differ():
    a = runner.run(draw_task, 10, seed=1, chunk_trials=5)
    b = runner.run(draw_task, 10, seed=2, chunk_trials=5)
    assert a[1] != b[1]
