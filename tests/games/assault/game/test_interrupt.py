"""Ctrl-C during a scenario batch (issue 43 item 3): the partial summary of the games
finished, exit 130, and the same command resumes from the run's own checkpoint to the
numbers of an uninterrupted run; --quiet silences the progress lines."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from simulator.cli import main
from simulator.engine.core.batch import PIECE_GAMES, run_games, summary
from simulator.run import progress
from simulator.run.output import to_json

GAMES = 48 * PIECE_GAMES        # long enough to be stopped after a few pieces, short enough to finish the rest
TIMING = ("seconds", "games_per_second")


def args_for(path: Path) -> list[str]:
    # one worker: its pieces finish in order, so the games finished when Ctrl-C comes are the
    # run's first n (with two, a later piece may finish before an earlier one, and the
    # partial summary counts the pieces finished, not a prefix: a CI run met it)
    return ["assault", "scenario", str(path), "--players", "greedy,random", "--games", str(GAMES), "--seed", "11",
            "--workers", "1", "--format", "json"]


def own_chunks(path: Path) -> list[Path]:
    """The chunk files of the runs' own checkpoints of a command on ``path``."""
    root = Path(os.environ["LANCHESTER_CACHE_DIR"]) / "checkpoints"
    return [c for run in root.glob("*/run.json") if str(path) in run.read_text()
            for c in run.parent.glob("chunk-*.npz")]


def without_timing(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in TIMING}


def as_at_a_terminal() -> None:
    """In the child before it runs: Ctrl-C as a terminal delivers it, whatever the test
    process inherited (a worker process may have SIGINT ignored or blocked; a child
    inherits both, and Python then never turns SIGINT into KeyboardInterrupt)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.default_int_handler)


def test_ctrl_c_prints_the_partial_summary_and_the_same_command_resumes(skirmish, skirmish_path):
    args = args_for(skirmish_path)
    before = set(own_chunks(skirmish_path))     # other tests' runs on the same file: not this run's
    proc = subprocess.Popen([sys.executable, "-m", "simulator", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=as_at_a_terminal)
    deadline = time.monotonic() + 60
    try:
        while len(set(own_chunks(skirmish_path)) - before) < 3:
            assert proc.poll() is None, "the batch finished before it could be interrupted: " + proc.stderr.read()
            assert time.monotonic() < deadline, "no piece of the batch was saved"
            time.sleep(0.01)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    partial = json.loads(out)
    n = partial["games"]
    # whole pieces, at least the 3 saved, fewer than planned
    assert partial["partial"]["games"] == n and partial["partial"]["planned"] == GAMES
    assert n % PIECE_GAMES == 0 and 3 * PIECE_GAMES <= n < GAMES
    # the partial summary is the summary of the first n games of the seed
    first_n = json.loads(to_json(summary(run_games(skirmish, games=n, seed=11, players=("greedy", "random"),
                                                   workers=2))))
    assert partial["win_rate"] == first_n["win_rate"] and partial["mean_losses"] == first_n["mean_losses"]
    assert f"interrupted after {n:,} of {GAMES:,} games" in err
    assert "to resume" in err and f"--games {GAMES} --seed 11" in err
    kept = len(set(own_chunks(skirmish_path)) - before)
    assert kept >= n // PIECE_GAMES

    rerun = subprocess.run([sys.executable, "-m", "simulator", *args], capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert "resumed: " in rerun.stderr and f"{kept} of {GAMES // PIECE_GAMES} pieces loaded" in rerun.stderr
    assert set(own_chunks(skirmish_path)) - before == set()   # an uninterrupted end removes the run's own checkpoint
    whole = CliRunner().invoke(main, [*args, "--no-checkpoint"])
    assert whole.exit_code == 0, whole.output
    assert without_timing(json.loads(rerun.stdout)) == without_timing(json.loads(whole.stdout))


def test_a_stage_line_when_not_a_terminal_and_none_with_quiet(skirmish_path, monkeypatch):
    monkeypatch.setattr(progress, "FIRST_SECONDS", 0.0)     # every stage counts as long
    args = ["assault", "scenario", str(skirmish_path), "--players", "greedy,random", "--games", "512", "--seed", "3",
            "--workers", "2", "--format", "json"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    stages = [x for x in res.stderr.splitlines() if " games in " in x]
    assert len(stages) == 1 and stages[0].startswith("lanchester: skirmish") and ": 512 games in " in stages[0]
    quiet = CliRunner().invoke(main, [*args, "--quiet"])
    assert quiet.exit_code == 0 and quiet.stderr == ""
    assert json.loads(quiet.stdout)["win_rate"] == json.loads(res.stdout)["win_rate"]


def test_a_slow_run_reads_its_rate_with_two_digits(skirmish):
    """An mcts run of 0.4 games a second printed "0 games/s" (its rate rounded to units)."""
    from reports.scenario_text import report_table
    from simulator.engine.core.answers import BalanceReport
    report = summary(run_games(skirmish, games=4, seed=1, players=("greedy", "random"), workers=1))
    report |= {"sides": list(skirmish.sides), "games_per_second": 0.4}
    assert "\n0.4 games/s with 1 worker(s)\n" in report_table(BalanceReport.of(report))


def test_checkpoint_and_no_checkpoint_exclude_each_other(skirmish_path, tmp_path):
    res = CliRunner().invoke(main, ["assault", "scenario", str(skirmish_path), "--seed", "1", "--checkpoint",
                                    str(tmp_path), "--no-checkpoint"])
    assert res.exit_code == 2 and "--checkpoint and --no-checkpoint: give one" in res.stderr
