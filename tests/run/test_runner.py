"""The shared runner: chunk plans, seeding, ordered merging, precision, checkpoints, Dask."""

from functools import partial

import numpy as np
import pandas as pd
import pytest

from simulator.games.assault.questions.odds import any_effect, simulate_run
from simulator.games.assault.rules.dice import load_dice, parse_pool
from simulator.games.assault.rules.exact import roll_outcome
from simulator.run import runner
from simulator.run.checkpoint import ChunkStore, digest_of, run_key
from simulator.run.precision import PrecisionPlan, interval_width, trials_always_enough

DICE = load_dice()


def draw_task(n, seed_seq):
    """A tiny task whose result depends on every chunk's stream."""
    return np.random.default_rng(seed_seq).integers(0, 1000, size=4) * 0 + np.array(
        [n, np.random.default_rng(seed_seq).integers(0, 2**31), 1, 0])


def odds_run(attack, defence, trials, seed, **kw):
    return simulate_run(parse_pool(attack, DICE), parse_pool(defence, DICE), DICE, doubles="all",
                        extra_supp=0, trials=trials, seed=seed, **kw)


def test_short_chunks_travel_in_groups_with_the_same_numbers(monkeypatch):
    """Process (and Dask) tasks carry several short chunks once their duration is known
    (runner._Grouped): fewer round trips, the same numbers as threads."""
    sent = []
    submit = runner._Pool.submit_group
    monkeypatch.setattr(runner._Pool, "submit_group",
                        lambda self, task, pieces: sent.append(len(pieces)) or submit(self, task, pieces))
    kw = dict(chunk_trials=2_000)
    threads = odds_run("RY", "YG", 600_000, 8, options=runner.RunOptions(workers=2), **kw)
    procs = odds_run("RY", "YG", 600_000, 8, options=runner.RunOptions(workers=2, backend="process"), **kw)
    assert np.array_equal(threads.value, procs.value) and procs.chunks == 300
    assert sum(sent) == 300 and max(sent) > 1 and len(sent) < 300, sent


def test_chunk_plan_depends_only_on_trials_and_size():
    plan = runner.plan_chunks(10, seed=3, chunk_trials=4)
    assert [c.trials for c in plan] == [4, 4, 2]
    assert [c.index for c in plan] == [0, 1, 2]
    with pytest.raises(ValueError):
        runner.plan_chunks(0, seed=3)


def test_chunk_streams_are_spawned_children_whatever_the_plan_length():
    spawned = np.random.SeedSequence(11).spawn(40)
    for i in (0, 7, 39):
        assert np.array_equal(runner.chunk_seed(11, i).generate_state(4), spawned[i].generate_state(4))
    assert np.array_equal(runner.plan_chunks(5, 11, 1)[3].seed_seq.generate_state(4), spawned[3].generate_state(4))


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


def test_options_and_explicit_keywords():
    opts = runner.RunOptions(workers=2, progress="x")
    r = runner.execute(draw_task, 30, seed=4, options=opts, chunk_trials=4, workers=1)
    assert (r.trials, r.chunks, r.loaded) == (30, 8, 0)
    assert np.array_equal(r.value, runner.run(draw_task, 30, seed=4, chunk_trials=4, workers=3))
    with pytest.raises(ValueError):
        runner.execute(draw_task, 10, seed=1, options=runner.RunOptions(backend="gpu"), workers=2)


# ---------------------------------------------------------------- precision

def test_precision_plan_sizes():
    plan = PrecisionPlan.for_width(0.002)
    assert plan.cap == trials_always_enough(0.002) == 960_365
    assert plan.chunk_trials == 3752  # cap / 256, rounded up
    assert interval_width(plan.cap / 2, plan.cap) <= 0.002  # the cap always suffices (p = 1/2 worst)
    assert PrecisionPlan.for_width(0.1) == PrecisionPlan(0.1, 385, 256)  # the smallest chunk size
    assert PrecisionPlan.for_width(0.002, cap=5000).cap == 5000
    with pytest.raises(ValueError):
        PrecisionPlan.for_width(0)


def test_precision_stops_early_same_point_for_any_workers():
    """A rare event needs far fewer trials than the p = 1/2 worst case; the stopping point
    and the numbers depend on the seed and X only."""
    one = odds_run("B", "RRR", None, 3, options=runner.RunOptions(precision=0.002, workers=1))
    two = odds_run("B", "RRR", None, 3, options=runner.RunOptions(precision=0.002, workers=2))
    assert one.trials == two.trials and np.array_equal(one.value, two.value)
    assert one.trials < PrecisionPlan.for_width(0.002).cap / 10
    assert one.trials % PrecisionPlan.for_width(0.002).chunk_trials == 0
    assert one.width <= 0.002 and one.reached and one.headline == "P(any effect)"
    # it did not stop at the pilot batch (4 chunks), whose interval was still too wide:
    # the same chunks run without precision
    pilot = odds_run("B", "RRR", 4 * 3752, 3, chunk_trials=3752)
    assert one.trials > pilot.trials and interval_width(any_effect(pilot.value), pilot.trials) > 0.002
    # the estimate agrees with the exact answer within 4 standard errors
    exact = 1 - roll_outcome(("B",), ("R", "R", "R"), DICE)[0, 0, 0]
    p = any_effect(one.value) / one.trials
    assert abs(p - exact) < 4 * np.sqrt(exact * (1 - exact) / one.trials)


def test_precision_with_a_trial_cap_stops_at_the_cap():
    r = odds_run("RY", "YG", 20_000, 5, options=runner.RunOptions(precision=0.001))
    assert r.trials == 20_000 and r.reached is False and r.width > 0.001


def test_precision_needs_a_headline():
    with pytest.raises(ValueError):
        runner.execute(draw_task, None, seed=1, options=runner.RunOptions(precision=0.1))


# ---------------------------------------------------------------- checkpoints

CRASH = {"at": None}


def crashing_odds_chunk(faces, shape, n, seed_seq):
    """The odds kernel, but raising at one chunk index while ``CRASH['at']`` is set."""
    if CRASH["at"] is not None and seed_seq.spawn_key[-1] == CRASH["at"]:
        raise RuntimeError("simulated crash")
    from simulator.games.assault.rules.kernels import uncancelled_chunk
    return uncancelled_chunk(faces, 0, shape, n, seed_seq)


def _odds_task(attack="RY", defence="YG"):
    from simulator.games.assault.rules.kernels import packed_faces
    atk, dfn = parse_pool(attack, DICE), parse_pool(defence, DICE)
    shape = roll_outcome(atk, dfn, DICE).shape
    return partial(crashing_odds_chunk, packed_faces(atk, dfn, DICE, "all"), shape)


@pytest.mark.parametrize("workers", [1, 2])
def test_checkpoint_resume_after_a_crash_gives_the_same_numbers(tmp_path, workers):
    task = _odds_task()
    opts = runner.RunOptions(checkpoint=str(tmp_path), workers=workers, label="test")
    reference = runner.run(task, 50_000, seed=8, chunk_trials=3000)
    CRASH["at"] = 9
    try:
        with pytest.raises(RuntimeError):
            runner.execute(task, 50_000, seed=8, chunk_trials=3000, options=opts)
    finally:
        CRASH["at"] = None
    (key_dir,) = tmp_path.iterdir()
    saved = sorted(p.name for p in key_dir.glob("chunk-*"))
    assert "chunk-000000.npz" in saved and "chunk-000009.npz" not in saved
    resumed = runner.execute(task, 50_000, seed=8, chunk_trials=3000, options=opts)
    assert resumed.loaded == len(saved) >= 5 and resumed.chunks == 17
    assert np.array_equal(resumed.value, reference)
    again = runner.execute(task, 50_000, seed=8, chunk_trials=3000, options=opts)
    assert again.loaded == 17 and np.array_equal(again.value, reference)


def test_a_damaged_or_half_written_chunk_is_computed_again(tmp_path):
    task = _odds_task()
    opts = runner.RunOptions(checkpoint=str(tmp_path), workers=1)
    first = runner.execute(task, 10_000, seed=2, chunk_trials=2500, options=opts)
    (key_dir,) = tmp_path.iterdir()
    (key_dir / "chunk-000001.npz").write_bytes(b"not a numpy file")
    (key_dir / ".chunk-000002.npz.abc.tmp").write_bytes(b"left by a kill")
    (key_dir / "chunk-000003.npz").unlink()
    second = runner.execute(task, 10_000, seed=2, chunk_trials=2500, options=opts)
    assert second.loaded == 2 and np.array_equal(first.value, second.value)


def test_run_key_changes_with_what_the_numbers_depend_on():
    task = _odds_task()
    base = run_key(task, seed=1, plan={"trials": 10}, label="a")
    assert base == run_key(_odds_task(), seed=1, plan={"trials": 10}, label="a")
    assert base != run_key(task, seed=2, plan={"trials": 10}, label="a")
    assert base != run_key(task, seed=1, plan={"trials": 11}, label="a")
    assert base != run_key(task, seed=1, plan={"trials": 10}, label="b")
    assert base != run_key(_odds_task("RR", "YG"), seed=1, plan={"trials": 10}, label="a")
    assert digest_of({"b": frozenset({"x", "y"}), "a": (1, 2.0)}) == digest_of({"a": (1, 2.0), "b": frozenset({"y", "x"})})


def test_checkpoint_store_keeps_arrays_and_registered_results_only(tmp_path):
    """Arrays and close-combat counts (a registered codec) round-trip as plain arrays;
    anything else is refused rather than pickled."""
    from collections import Counter

    from simulator.games.assault.rules.melee.kernels import ChunkResult
    store = ChunkStore(tmp_path, "k", {"label": "t"})
    melee = ChunkResult(Counter({5: 3, 2: 1}), Counter({7: 4}), Counter(), Counter({1: 4}))
    store.save(0, melee, 4)
    store.save(2, np.arange(4))
    with pytest.raises(TypeError, match="no checkpoint codec"):
        store.save(3, {"games": 3, "wins": (1, 2)})
    assert store.finished() == {0, 2}
    back = store.load(0, 4)
    assert (back.final, back.first, back.rounds, back.first_rounds) == (melee.final, melee.first, Counter(),
                                                                         melee.first_rounds)
    assert list(back.final) == [2, 5]
    assert np.array_equal(store.load(2), np.arange(4)) and store.load(1) is None


# ---------------------------------------------------------------- Dask

@pytest.fixture(scope="module")
def dask_scheduler():
    """One LocalCluster on loopback (2 worker processes) for the whole module."""
    from simulator.run.dask_backend import local_cluster
    cluster = local_cluster(2)
    yield cluster.scheduler_address
    cluster.close()


def test_dask_gives_the_same_numbers_as_the_local_runner(dask_scheduler, tmp_path):
    local = odds_run("2RG", "YYB", 400_000, 21, chunk_trials=25_000, options=runner.RunOptions(workers=2))
    dask = odds_run("2RG", "YYB", 400_000, 21, chunk_trials=25_000, options=runner.RunOptions(dask=dask_scheduler))
    assert dask.dask == dask_scheduler and dask.chunks == 16
    assert np.array_equal(local.value, dask.value)
    # precision and checkpoints work the same through Dask
    p_local = odds_run("B", "RRR", None, 3, options=runner.RunOptions(precision=0.003, workers=1))
    p_dask = odds_run("B", "RRR", None, 3, options=runner.RunOptions(precision=0.003, dask=dask_scheduler,
                                                                       checkpoint=str(tmp_path)))
    assert p_local.trials == p_dask.trials and np.array_equal(p_local.value, p_dask.value)
    assert len(list(tmp_path.glob("*/chunk-*.npz"))) == p_dask.chunks


def test_dask_through_the_cli(dask_scheduler):
    from click.testing import CliRunner

    from simulator.cli import main
    args = ["assault", "odds", "RY", "YG", "--trials", "300000", "--seed", "5", "--format", "json"]
    local = CliRunner().invoke(main, args + ["--workers", "1"])
    dask = CliRunner().invoke(main, args + ["--dask", dask_scheduler])
    assert local.exit_code == 0 and dask.exit_code == 0, dask.output
    assert local.stdout == dask.stdout and '"trials": 300000' in dask.stdout
    assert f"ran on the Dask scheduler at {dask_scheduler}" in dask.stderr


def test_scenario_games_on_dask_are_the_local_games(dask_scheduler, tmp_path):
    """A scenario batch (issue 7) played by the Dask workers: the same records, game by game."""
    from simulator.engine.core.batch import run_games
    from simulator.games.assault.game.compile import compile_game
    from tests.games.assault.game.test_players import SKIRMISH
    path = tmp_path / "skirmish.scenario.toml"
    path.write_text(SKIRMISH)
    game = compile_game(path)
    local = run_games(game, games=700, seed=12, players=("greedy", "greedy"), workers=2, out_dir=tmp_path / "a")
    dask = run_games(game, games=700, seed=12, players=("greedy", "greedy"),
                     options=runner.RunOptions(dask=dask_scheduler), out_dir=tmp_path / "b")
    assert dask.run["dask"] == dask_scheduler
    a, b = (pd.read_parquet(tmp_path / d / "games.parquet") for d in ("a", "b"))
    pd.testing.assert_frame_equal(a, b)
    assert np.array_equal(local.tally.outcome_array(), dask.tally.outcome_array())


def test_dask_local_starts_and_stops_its_own_cluster():
    r = odds_run("RY", "YG", 60_000, 4, chunk_trials=20_000, options=runner.RunOptions(dask="local", workers=1))
    assert r.dask.startswith("tcp://127.0.0.1:")
    assert np.array_equal(r.value, odds_run("RY", "YG", 60_000, 4, chunk_trials=20_000).value)


# ---------------------------------------------------------------- the CLI wiring

def cli_json(*args):
    import json

    from click.testing import CliRunner

    from simulator.cli import main
    res = CliRunner().invoke(main, list(args) + ["--format", "json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout), res.stderr


def test_odds_precision_through_the_cli():
    one, note = cli_json("assault", "odds", "B", "RRR", "--precision", "0.002", "--seed", "3", "--workers", "1")
    two, _ = cli_json("assault", "odds", "B", "RRR", "--precision", "0.002", "--seed", "3", "--workers", "2")
    assert one == two and one["method"] == "monte-carlo"
    assert one["trials"] < PrecisionPlan.for_width(0.002).cap / 10
    assert interval_width(one["summary"]["p_any"] * one["trials"], one["trials"]) <= 0.002
    assert f"precision 0.002 reached after {one['trials']:,} trials" in note


@pytest.mark.parametrize("question,headline", [
    (["toi", "fire", "--attack-strength", "6", "--defence-strength", "2", "--range", "normal",
      "--target", "squad:4"], "p_hit"),
    (["toi", "assault", "--attacker", "squad:4regular", "--defender", "squad:3regular:entrenchment"],
     "p_success"),
    (["toi", "minefield", "--target", "squad:4regular"], "p_hit"),
])
def test_toi_precision_through_the_cli(question, headline):
    one, note = cli_json(*question, "--precision", "0.01", "--seed", "2", "--workers", "1")
    two, _ = cli_json(*question, "--precision", "0.01", "--seed", "2", "--workers", "2")
    assert one == two and one["method"] == "monte-carlo" and "precision 0.01 reached" in note
    p = one["summary"][headline]
    assert interval_width(p * one["trials"], one["trials"]) <= 0.01
    exact, _ = cli_json(*question)
    assert abs(p - exact["summary"][headline]) < 4 * np.sqrt(p * (1 - p) / one["trials"])


def test_checkpoint_through_the_toi_cli(tmp_path):
    args = ["toi", "fire", "--attack-strength", "8", "--defence-strength", "3", "--range", "long",
            "--trials", "3000000", "--seed", "4", "--checkpoint", str(tmp_path)]
    first, note1 = cli_json(*args)
    second, note2 = cli_json(*args, "--workers", "1")
    assert first == second
    assert "0 of 3 chunks loaded" in note1 and "3 of 3 chunks loaded" in note2
