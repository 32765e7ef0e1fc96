"""What a checkpoint folder holds is checked, never trusted (issue 23.1-23.3).

Run keys are the same in every process (whatever ``PYTHONHASHSEED``); a chunk file is
plain arrays read with ``allow_pickle=False`` (a planted pickle runs nothing); a chunk
that does not verify (truncated, counts altered, wrong shape, a flipped byte, a chunk
of another run) is computed again from its own stream with a one-line warning naming
the file, and the answer is exactly the uninterrupted one.
"""

import io
import json
import os
import pickle
import shutil
import subprocess
import sys
import zipfile

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.cli import main

# three chunks of 2**20 trials
ODDS = ["assault", "odds", "2RG", "YYB", "--trials", "3000000", "--format", "json", "--workers", "1"]


def _odds(ck, seed="5"):
    res = CliRunner().invoke(main, [*ODDS, "--seed", seed, "--checkpoint", str(ck)])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout), res.stderr


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished 3-chunk odds run with its checkpoint, and the uninterrupted answer."""
    ck = tmp_path_factory.mktemp("ck")
    answer, err = _odds(ck)
    assert ": 0 of 3 chunks loaded, 3 computed" in err
    (key_dir,) = ck.iterdir()
    return ck, key_dir, answer


def _resume_with(tmp_path, finished, damage):
    """Copy the finished checkpoint, damage chunk 1, rerun: the answer and stderr."""
    ck_src, key_src, answer = finished
    ck = tmp_path / "ck"
    shutil.copytree(ck_src, ck)
    chunk = ck / key_src.name / "chunk-000001.npz"
    damage(chunk)
    got, err = _odds(ck)
    assert got == answer
    assert ": 2 of 3 chunks loaded, 1 computed" in err
    warnings = [line for line in err.splitlines() if "computed again" in line]
    assert len(warnings) == 1 and f"checkpoint {chunk}: " in warnings[0], err
    assert warnings[0].endswith("; not used, chunk 1 computed again")
    assert "Traceback" not in err
    return warnings[0]


def _rewrite(chunk, change):
    """Rewrite a chunk's members (name -> array), keeping the others as they were."""
    with np.load(chunk, allow_pickle=False) as npz:
        members = {name: npz[name] for name in npz.files}
    change(members)
    buf = io.BytesIO()
    np.savez(buf, **members)
    chunk.write_bytes(buf.getvalue())


def test_truncated_chunk(tmp_path, finished):
    line = _resume_with(tmp_path, finished, lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]))
    assert "unreadable" in line


def test_counts_altered(tmp_path, finished):
    def alter(members):
        members["a0"] = members["a0"].copy()
        members["a0"][0, 0, 0] += 1000
    line = _resume_with(tmp_path, finished, lambda p: _rewrite(p, alter))
    assert "checksum" in line


def test_wrong_shape(tmp_path, finished):
    line = _resume_with(tmp_path, finished, lambda p: _rewrite(p, lambda m: m.update(a0=m["a0"].reshape(-1))))
    assert "shape does not match" in line


def test_a_plain_npy_in_place_of_the_chunk(tmp_path, finished):
    def plain(p):
        buf = io.BytesIO()
        np.save(buf, np.zeros((3, 3, 3), np.int64))
        p.write_bytes(buf.getvalue())
    _resume_with(tmp_path, finished, plain)


@pytest.mark.parametrize("where", [0.3, 0.6, 0.9])
def test_flipped_byte(tmp_path, finished, where):
    def flip(p):
        data = bytearray(p.read_bytes())
        data[int(len(data) * where)] ^= 0x10
        p.write_bytes(bytes(data))
    _resume_with(tmp_path, finished, flip)


def test_unreadable_file(tmp_path, finished):
    def unreadable(p):
        p.unlink()
        p.mkdir()     # a directory where the file was: cannot be read, even by root
    _resume_with(tmp_path, finished, unreadable)


def test_chunk_from_another_run(tmp_path, finished):
    """Chunk 1 of the same question with another seed, copied in: its header names its run."""
    other = tmp_path / "other"
    _odds(other, seed="6")
    (other_key,) = other.iterdir()
    line = _resume_with(tmp_path, finished,
                        lambda p: p.write_bytes((other_key / "chunk-000001.npz").read_bytes()))
    assert f"belongs to run '{other_key.name}'" in line


def test_chunk_of_another_index(tmp_path, finished):
    line = _resume_with(tmp_path, finished, lambda p: p.write_bytes((p.parent / "chunk-000002.npz").read_bytes()))
    assert "holds chunk 2, not 1" in line


class _Payload:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, "w"))


def test_a_planted_pickle_runs_nothing(tmp_path, finished):
    """A pickle in the checkpoint folder, under the chunk's name, as a member of a chunk
    file, or as an old-style ``.pkl``: never unpickled (the marker file never appears)."""
    marker = tmp_path / "pwned"
    payload = pickle.dumps(_Payload(str(marker)))
    key = finished[1].name
    ck = tmp_path / "ck"

    def plant(p):
        p.write_bytes(payload)                                   # the chunk itself is a pickle
        (p.parent / "chunk-000002.pkl").write_bytes(payload)      # the old format's name
        with zipfile.ZipFile(p.parent / "chunk-000000.npz", "a") as z:  # a pickled member
            z.writestr("evil.npy", payload)
    shutil.copytree(finished[0], ck)
    plant(ck / key / "chunk-000001.npz")
    got, err = _odds(ck)
    assert got == finished[2]
    assert not marker.exists()
    assert ": 1 of 3 chunks loaded, 2 computed" in err
    assert sum("computed again" in line for line in err.splitlines()) == 2, err
    with np.load(ck / key / "chunk-000001.npz", allow_pickle=False) as npz:   # rewritten, plain
        assert "header" in npz.files


RUN_KEY = """
import sys
from functools import partial
import numpy as np
from simulator.run.checkpoint import run_key
from simulator.engine.core.batch import PIECE_GAMES, chunk_task
from simulator.games.assault.game.compile import compile_game
from simulator.engine.players.interface import DEFAULT_PARAMS
game = compile_game("infantry-training")
task = partial(chunk_task, game, np.array([1, 1], np.int64), DEFAULT_PARAMS, PIECE_GAMES)
print(run_key(task, seed=3, plan={"trials": 5120, "chunk_trials": PIECE_GAMES}, label="scenario"))
"""


def test_a_scenario_run_key_is_the_same_whatever_the_hash_seed():
    """The compiled scenario holds a pydantic model (with a ``set`` of fields set) and
    dicts: its run key must not depend on ``PYTHONHASHSEED``."""
    keys = set()
    for hash_seed in ("1", "2", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run([sys.executable, "-c", RUN_KEY], capture_output=True, text=True, env=env,
                             timeout=300, check=True)
        keys.add(out.stdout.strip())
    assert len(keys) == 1 and len(keys.pop()) == 20


# ---------------------------------------------------------------- scenario batches

SCENARIO = ["assault", "scenario", "infantry-training", "--games", "2560", "--seed", "3", "--format", "json",
            "--workers", "1"]
PIECES = 10   # 2560 games in pieces of 256 (across the seeds' chunk of 2048 games: pieces 8 and 9 are in the next)


def _lanchester(args, hash_seed, **kw):
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    return subprocess.Popen([sys.executable, "-m", "simulator", *args], env=env, **kw)


def _finish(args, hash_seed):
    proc = _lanchester(args, hash_seed, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return _answer(out), err


def _here(args):
    """The command run in this process (its own hash seed, neither 1 nor 2 unless the
    environment fixes it so): the JSON answer without its timings, and stderr."""
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    return _answer(res.stdout), res.stderr


def _answer(out):
    answer = json.loads(out)
    for how in ("games_per_second", "seconds", "files", "run"):   # how it ran, not what it found
        answer.pop(how, None)
    for how in ("estimate_seconds", "batch_seconds", "text"):      # what matters most: its timing (issue 43.2)
        answer.get("what_matters", {}).pop(how, None)
    return answer


def test_a_killed_scenario_batch_resumes_under_another_hash_seed_and_damage_is_recomputed(tmp_path):
    """Killed (SIGKILL) under PYTHONHASHSEED=1, resumed under 2: the pieces on disk are
    loaded and the summary and per-game records equal an uninterrupted run's (in this
    process: a third process would only load the engine a third time). Then a piece's
    records altered, another truncated: both recomputed (under hash seed 4), same answer."""
    import signal
    import time
    ck = tmp_path / "ck"
    proc = _lanchester([*SCENARIO, "--checkpoint", str(ck)], "1", stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    try:
        while len(list(ck.glob("*/chunk-*.npz"))) < 3:
            assert proc.poll() is None, "the batch finished before it could be killed"
            assert time.monotonic() < deadline, "no piece was written"
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    done = len(list(ck.glob("*/chunk-*.npz")))
    assert 3 <= done < PIECES

    resumed, err = _finish([*SCENARIO, "--checkpoint", str(ck), "--out", str(tmp_path / "resumed")], "2")
    assert f": {done} of {PIECES} chunks loaded, {PIECES - done} computed" in err, err
    plain, _ = _here([*SCENARIO, "--out", str(tmp_path / "plain")])
    assert resumed == plain
    records = (tmp_path / "plain" / "games.csv").read_bytes()
    assert (tmp_path / "resumed" / "games.csv").read_bytes() == records
    assert len(records.splitlines()) == 1 + 2560       # a header and the games

    (key_dir,) = ck.iterdir()

    def alter(members):
        members["a0"] = members["a0"].copy()
        members["a0"][:, 1] = 0       # every game of piece 1 won by the first side
    _rewrite(key_dir / "chunk-000001.npz", alter)
    last = key_dir / f"chunk-{PIECES - 1:06d}.npz"
    last.write_bytes(last.read_bytes()[:100])
    again, err = _finish([*SCENARIO, "--checkpoint", str(ck), "--out", str(tmp_path / "again")], "4")
    assert again == plain
    assert (tmp_path / "again" / "games.csv").read_bytes() == records
    warned = [line for line in err.splitlines() if "computed again" in line]
    assert len(warned) == 2 and "chunk-000001.npz: array 'records': sha256" in warned[0], err
    assert f": {PIECES - 2} of {PIECES} chunks loaded, 2 computed" in err
