"""A real ``lanchester`` process killed mid-run resumes from its checkpoint with the same numbers."""

import json
import os
import signal
import subprocess
import sys
import time

from click.testing import CliRunner

from simulator.cli import main

# 80 dice a resolution: about a tenth of a second per chunk of 2**20 trials, 12 chunks.
ARGS = ["assault", "odds", "20R 20Y", "20G 20B", "--trials", "12000000", "--seed", "9", "--format", "json"]
CHUNKS = 12


def lanchester(*args):
    return [sys.executable, "-m", "simulator", *args]


def test_sigkilled_run_resumes_and_ends_with_the_same_numbers(tmp_path):
    ck = tmp_path / "ck"
    proc = subprocess.Popen(lanchester(*ARGS, "--workers", "1", "--checkpoint", str(ck)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    try:
        while len(list(ck.glob("*/chunk-*.npz"))) < 3:
            assert proc.poll() is None, "the run finished before it could be killed"
            assert time.monotonic() < deadline, "no chunk was written"
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    done = len(list(ck.glob("*/chunk-*.npz")))
    assert 3 <= done < CHUNKS

    # the rerun (on another number of workers) loads what was finished and computes the rest
    rerun = subprocess.run(lanchester(*ARGS, "--workers", "2", "--checkpoint", str(ck)),
                           capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert f": {done} of {CHUNKS} chunks loaded, {CHUNKS - done} computed" in rerun.stderr
    uninterrupted = CliRunner().invoke(main, ARGS)
    assert uninterrupted.exit_code == 0
    assert json.loads(rerun.stdout) == json.loads(uninterrupted.stdout)
    assert json.loads(rerun.stdout)["trials"] == 12_000_000
