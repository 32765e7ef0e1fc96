"""The engine's numba cache is dropped when a compiled source changes, and only then:
the pure-Python modules beside it (balance, replay, the game cache, ...) must not force
a four-minute recompile when they are edited."""

from pathlib import Path

import simulator.engine
from simulator.engine.core import compiling as state

ENGINE = Path(simulator.engine.__file__).resolve().parent


def test_compiled_sources_are_told_from_pure_python():
    compiled = {p.name for p in ENGINE.glob("**/*.py") if state._is_compiled(p)}
    for name in ("turn.py", "players.py", "hexgrid.py", "los.py", "state.py", "batch.py"):
        assert name in compiled, name
    for name in ("balance.py", "replay.py", "gamecache.py", "compile.py", "warmup.py", "mapdraw.py"):
        assert name not in compiled, name


def test_decorator_forms_are_recognised(tmp_path):
    forms = {"@rule\ndef f(): pass\n": True, "@rule_hot\ndef f(): pass\n": True,
             "@njit(cache=True)\ndef f(): pass\n": True, "@numba.njit\ndef f(): pass\n": True,
             "g = numba.njit(inline='always')(f)\n": True,
             "# the njit functions are elsewhere\nimport numba\n": False}
    for i, (text, expected) in enumerate(forms.items()):
        p = tmp_path / f"m{i}.py"
        p.write_text(text)
        assert state._is_compiled(p) is expected, text
