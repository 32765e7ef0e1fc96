"""The engine's numba cache is dropped when a compiled source changes, and only then:
the pure-Python modules beside it (balance, replay, the game cache, ...) must not force
a four-minute recompile when they are edited."""

from pathlib import Path

from simulator.engine import state

ENGINE = Path(state.__file__).resolve().parent


def test_compiled_sources_are_told_from_pure_python():
    compiled = {p.name for p in ENGINE.glob("*.py") if state._is_compiled(p)}
    for name in ("turn.py", "view.py", "hexgrid.py", "los.py", "state.py", "batch.py"):
        assert name in compiled, name
    players = {p.name for p in (ENGINE / "players").glob("*.py") if state._is_compiled(p)}
    assert players == {"base.py", "randomplay.py", "greedy_values.py", "greedy.py", "lookahead.py", "interface.py"}
    for name in ("balance.py", "replay.py", "gamecache.py", "compile.py", "warmup.py", "mapdraw.py"):
        assert name not in compiled, name


def test_a_players_source_drops_both_caches(tmp_path, monkeypatch):
    """The players' modules are compiled into the engine (the batch loop inlines their
    games) and the rules into them: a change of one drops both numba caches."""
    import simulator.engine.players as players
    here = Path(players.__file__).resolve().parent
    copy = tmp_path / "engine" / "players"
    copy.mkdir(parents=True)
    for p in here.glob("*.py"):
        (copy / p.name).write_text(p.read_text())
    for cache in (copy / "__pycache__", copy.parent / "__pycache__"):
        cache.mkdir()
        (cache / "f.nbi").write_text("")
    monkeypatch.setattr(players, "__file__", str(copy / "__init__.py"))
    players._refresh_numba_cache()                    # a new source: both dropped
    assert not list(tmp_path.rglob("*.nbi"))
    for cache in (copy / "__pycache__", copy.parent / "__pycache__"):
        (cache / "f.nbi").write_text("")
    players._refresh_numba_cache()                    # unchanged: both kept
    assert len(list(tmp_path.rglob("*.nbi"))) == 2
    (copy / "greedy.py").write_text((copy / "greedy.py").read_text() + "\n# changed\n")
    players._refresh_numba_cache()
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
