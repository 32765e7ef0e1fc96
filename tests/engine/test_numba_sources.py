"""The engine's numba cache is dropped when a compiled source changes, and only then:
the pure-Python modules beside it (balance, replay, the game cache, ...) must not force
a four-minute recompile when they are edited."""

from pathlib import Path

import simulator.engine
from simulator.engine.core import compiling as state

ENGINE = Path(simulator.engine.__file__).resolve().parent


def test_compiled_sources_are_told_from_pure_python():
    compiled = {p.name for p in ENGINE.glob("**/*.py") if state._is_compiled(p)}
    for name in ("turn.py", "view.py", "hexgrid.py", "los.py", "state.py", "batch.py"):
        assert name in compiled, name
    players = {p.name for p in (ENGINE / "players").glob("*.py") if state._is_compiled(p)}
    assert players == {"base.py", "randomplay.py", "greedy_values.py", "greedy.py", "lookahead.py", "mcts.py",
                       "interface.py"}
    for name in ("balance.py", "replay.py", "gamecache.py", "compile.py", "warmup.py", "mapdraw.py"):
        assert name not in compiled, name


def test_a_change_anywhere_in_the_engine_drops_every_engine_cache(tmp_path):
    """Code of one module is compiled into its callers in other modules (the batch loop
    inlines the players' games, the players call the rules): a change of any compiled
    source under engine/ (subpackages too) drops every numba cache under engine/."""
    engine = tmp_path / "engine"
    sources = {"core/batch.py": "@rule\ndef f(): pass\n", "players/greedy.py": "@rule\ndef g(): pass\n"}
    for rel, text in sources.items():
        (engine / rel).parent.mkdir(parents=True, exist_ok=True)
        (engine / rel).write_text(text)
    caches = [engine / "__pycache__", engine / "core" / "__pycache__", engine / "players" / "__pycache__"]

    def fill():
        for c in caches:
            c.mkdir(exist_ok=True)
            (c / "f.nbi").write_text("")

    fill()
    state._refresh_numba_cache(tmp_path)             # new sources: all dropped
    assert not list(tmp_path.rglob("*.nbi"))
    fill()
    state._refresh_numba_cache(tmp_path)             # unchanged: all kept
    assert len(list(tmp_path.rglob("*.nbi"))) == 3
    (engine / "players" / "greedy.py").write_text(sources["players/greedy.py"] + "# changed\n")
    state._refresh_numba_cache(tmp_path)
    assert not list(tmp_path.rglob("*.nbi"))


def test_decorator_forms_are_recognised(tmp_path):
    forms = {"@rule\ndef f(): pass\n": True, "@rule_hot\ndef f(): pass\n": True,
             "@njit(cache=True)\ndef f(): pass\n": True, "@numba.njit\ndef f(): pass\n": True,
             "g = numba.njit(inline='always')(f)\n": True,
             "# the njit functions are elsewhere\nimport numba\n": False}
    for i, (text, expected) in enumerate(forms.items()):
        p = tmp_path / f"m{i}.py"
        p.write_text(text)
        assert state._is_compiled(p) is expected, text
