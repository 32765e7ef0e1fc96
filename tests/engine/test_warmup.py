"""The background compile the demo starts on a fresh machine."""

import subprocess
import sys

from simulator.engine import warmup
from simulator.engine.batch import run_games
from simulator.engine.compile import compile_game


def test_nothing_starts_once_the_engine_is_compiled():
    run_games(compile_game("infantry-training"), games=1, seed=0, workers=1)
    assert warmup.engine_is_compiled()
    assert warmup.start() is None
    warmup.finish(None)                       # nothing to wait for


def test_the_warmup_process_plays_a_game_and_exits():
    proc = subprocess.run([sys.executable, "-m", "simulator.engine.warmup"], capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
