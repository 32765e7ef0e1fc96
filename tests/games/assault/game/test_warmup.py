"""The background compile the demo starts on a fresh machine."""

import subprocess
import sys

from simulator.engine.core.batch import run_games
from simulator.games.assault.game import warmup
from simulator.games.assault.game.compile import compile_game


def test_nothing_starts_once_the_engine_is_compiled():
    run_games(compile_game("infantry-training"), games=1, seed=0, workers=1)
    assert warmup.engine_is_compiled()
    assert warmup.start() is None
    warmup.finish(None)                       # nothing to wait for


def test_the_warmup_processes_exit_cleanly_on_a_compiled_engine(engine_compiled):
    """The whole warm-up (nothing left to do), with the searching players' entry too, and
    one part (loading its functions from numba's cache) end with status 0; an unknown
    part is refused."""
    assert warmup.engine_is_compiled(searching=True)          # the suite's warm-up compiled both entries
    for args in ([], ["--searching"], ["--part", "players"], ["--part", "search"]):
        proc = subprocess.run([sys.executable, "-m", "simulator.games.assault.game.warmup", *args], capture_output=True,
                              text=True, timeout=900)
        assert proc.returncode == 0, (args, proc.stderr[-2000:])
    bad = subprocess.run([sys.executable, "-m", "simulator.games.assault.game.warmup", "--part", "tanks"], capture_output=True,
                         text=True, timeout=900)
    assert bad.returncode != 0 and "unknown part 'tanks'" in bad.stderr


def test_each_part_compiles_the_version_the_engine_calls(engine_compiled):
    """The parts compile each function for the argument types the engine calls it with,
    and for nothing else: numba's cache holds one version of each, whichever process
    compiled it (a second version would be a part's compile that the engine never used)."""
    game = warmup.warmup_game()
    for part in warmup.PARTS:
        for dispatcher, signature in warmup.part_units(part, game):
            cached = {key[0] for key in dispatcher._cache._cache_file._load_index()}
            assert cached == {tuple(signature)}, (part, dispatcher.py_func.__name__, cached)
    assert engine_compiled in (None, [])      # compiled in this session: the top used every part


def test_the_warmup_compiles_choose_for_the_types_its_callers_give(engine_compiled):
    """The decision-by-decision entry ``choose`` is compiled by the warm-up, for exactly
    the argument types a test or a replay calls it with (else each test worker would
    compile it again, the better part of a minute)."""
    import numpy as np
    from numba import typeof

    from simulator.engine.players.interface import DEFAULT_PARAMS, GREEDY, choose, make_work
    from simulator.games.assault.game.game import State
    game = warmup.warmup_game()
    st = State(game, seed=1, log=True)
    args = (st.s, game.tables, np.int64(GREEDY), np.int64(st.current_player()), make_work(game), DEFAULT_PARAMS)
    assert tuple(typeof(a) for a in args) == warmup.choose_signature(game)
    # the shared players' entry is compiled for every game's state: Assault's versions are the warm-up's
    # (another game's, Tide of Iron's, may sit beside them in the same index once its tests have run)
    assault = {key[0] for key in choose._cache._cache_file._load_index() if key[0][0] == typeof(st.s)}
    assert assault == {warmup.choose_signature(game)}
    assert choose(*args) in st.legal_actions()
