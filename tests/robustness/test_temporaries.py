"""Temporaries of killed runs: ``kill -9`` during a report write leaves the final
folder absent or complete, never partial; the next run writing the same output removes
the temporaries the killed one left (only those: named after that output, made by a
process that is gone) and says so in one line on stderr."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from simulator.cli import main

REPO = Path(__file__).resolve().parents[2]
SCENARIO_RUN = ["assault", "scenario", "infantry-training", "--games", "3000", "--seed", "5", "--workers", "1",
                "--out", "rep"]


def dead_pid() -> int:
    """The pid of a process that has ended."""
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


def complete(folder: Path) -> bool:
    summary = json.loads((folder / "summary.json").read_text())
    names = [t["file"] for t in summary["tables"]] + [c["file"] for c in summary["charts"]]
    return (folder / "index.html").is_file() and all((folder / n).is_file() for n in names)


def test_kill_9_during_a_report_write_then_the_same_command_again(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-m", "simulator", *SCENARIO_RUN]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 600
    staging = []
    while not staging and proc.poll() is None and time.monotonic() < deadline:
        staging = [p for p in tmp_path.iterdir() if p.name.startswith("rep.tmp-")]
        time.sleep(0.005)
    assert staging, "the run ended before its staging folder was seen"
    time.sleep(0.5)                      # inside the batch (compiling or playing into the folder)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    left = sorted(p.name for p in tmp_path.iterdir())
    assert "rep" not in left             # absent (it is never there half-written)
    assert left == [staging[0].name]     # only the staging folder, empty or partial

    again = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert again.returncode == 0, again.stderr[-2000:]
    said = [line for line in again.stderr.splitlines() if "stale temporar" in line]
    assert len(said) == 1 and staging[0].name in said[0] and "killed run" in said[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]
    assert complete(tmp_path / "rep")


def test_the_next_run_removes_its_own_stale_temporaries_and_only_those(tmp_path, monkeypatch):
    dead, alive = dead_pid(), os.getppid()
    own = [f"rep.tmp-{dead}-0123abcd", f"rep.old-{dead}-89abcdef"]
    own_files = [f".rep.{dead}-k2j_x9aq.tmp"]
    others = [f"rep.tmp-{alive}-0123abcd",        # a live run writing the same output
              f"report.tmp-{dead}-0123abcd",      # another output
              f"rep.tmp-{dead}-xyz",              # not our naming
              "rep.tmp-0123abcd"]                 # not our naming (no pid)
    other_files = [f".rep2.{dead}-k2j_x9aq.tmp", f".rep.{dead}-k2j_x9aq.tmpx"]
    for name in own + others:
        (tmp_path / name).mkdir()
        (tmp_path / name / "odds.csv").write_text("half")
    for name in own_files + other_files:
        (tmp_path / name).write_text("half")
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["assault", "odds", "RY", "YG", "--out", "rep"])
    assert res.exit_code == 0, res.output
    said = [line for line in res.stderr.splitlines() if "stale temporar" in line]
    assert said == [f"lanchester: removed 3 stale temporaries of {(tmp_path / 'rep').resolve()} left by a killed "
                    f"run: {', '.join(sorted(own + own_files))}"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["rep", *others, *other_files])
    assert complete(tmp_path / "rep")

    # a file output cleans its own file temporaries the same way
    (tmp_path / f".odds.json.{dead}-abcdefgh.tmp").write_text("half")
    res = CliRunner().invoke(main, ["assault", "odds", "RY", "YG", "--format", "json", "--out", "odds.json"])
    assert res.exit_code == 0, res.output
    assert "removed 1 stale temporary of odds.json" in res.stderr
    assert not (tmp_path / f".odds.json.{dead}-abcdefgh.tmp").exists()
    assert json.loads((tmp_path / "odds.json").read_text())


def test_a_run_that_is_not_killed_leaves_no_temporary_and_says_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for _ in range(2):    # the second run replaces the first report
        res = CliRunner().invoke(main, ["assault", "odds", "RY", "YG", "--out", "rep"])
        assert res.exit_code == 0 and "stale" not in res.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["rep"]
