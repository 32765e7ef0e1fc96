"""The engine's numba caches are dropped when a compiled source changes, and only then:
the pure-Python modules beside it (balance, replay, the game cache, the batch runner,
...) must not force a four-minute recompile when they are edited; and a change to one
game drops that game's caches only (issue 19)."""

from pathlib import Path

import simulator.engine
from simulator.engine.core import compiling

ENGINE = Path(simulator.engine.__file__).resolve().parent


def test_compiled_sources_are_told_from_pure_python():
    compiled = {p.name for p in ENGINE.parent.glob("**/*.py") if compiling._is_compiled(p)}
    for name in ("turn.py", "view.py", "hexgrid.py", "los.py", "state.py", "records.py", "seeding.py",
                 "statecopy.py", "gameapi.py"):        # gameapi: numba overloads only
        assert name in compiled, name
    players = {p.name for p in (ENGINE / "players").glob("*.py") if compiling._is_compiled(p)}
    assert players == {"base.py", "randomplay.py", "lookahead.py", "mcts.py", "interface.py", "chunks.py", "uct.py",
                       "value.py", "valuedata.py"}
    for name in ("balance.py", "replay.py", "gamecache.py", "compile.py", "warmup.py", "mapdraw.py", "batch.py",
                 "hexspec.py"):
        assert name not in compiled, name


SOURCES = {"engine/core/los.py": "@rule\ndef f(): pass\n",
           "engine/core/batch.py": "# the Python side only\n",
           "games/assault/game/turn.py": "@rule\ndef g(): pass\n",
           "games/assault/game/greedy.py": "@rule\ndef h(): pass\n",
           "engine/players/mcts.py": "@rule\ndef m(): pass\n",
           "games/toi/game/turn.py": "@rule\ndef k(): pass\n",
           "games/toi/rules/jit.py": "x = numba.njit(cache=True)(y)\n",
           "games/toi/rules/attack.py": "def band_index(d): return d\n",       # compiled into toi by jit.py
           "run/rng.py": "@numba.njit\ndef below(): pass\n"}
CACHES = {"core": ("engine/__pycache__", "engine/core/__pycache__"),
          "assault": ("games/assault/game/__pycache__", "games/assault/game/phases/__pycache__"),
          "toi": ("games/toi/game/__pycache__", "games/toi/game/phases/__pycache__"),
          "players": ("engine/players/__pycache__",)}     # the shared players: compiled into every game's code


def _tree(root):
    for rel, text in SOURCES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def _fill(root):
    for dirs in CACHES.values():
        for d in dirs:
            (root / d).mkdir(parents=True, exist_ok=True)
            (root / d / "f.nbi").write_text("")
            (root / d / "f.1.nbc").write_text("")
    (root / "games" / "toi" / "rules" / "__pycache__").mkdir(parents=True, exist_ok=True)
    (root / "games" / "toi" / "rules" / "__pycache__" / "jit.f.nbi").write_text("")      # simulator/games/toi/rules/jit.py's own: toi's
    (root / "games" / "toi" / "rules" / "__pycache__" / "kernels.f.nbi").write_text("")   # the calculator's: never toi's engine


def _left(root, group):
    dirs = CACHES[group] + (("games/toi/rules/__pycache__",) if group == "toi" else ())
    return sorted(p.relative_to(root).as_posix() for d in dirs for p in (root / d).glob("*.nb[ic]"))


def _change(root, rel):
    (root / rel).write_text(SOURCES[rel] + "# changed\n")


def test_new_sources_drop_all_and_unchanged_keep_all(tmp_path):
    _tree(tmp_path)
    _fill(tmp_path)
    assert compiling._refresh_numba_cache(tmp_path) == ["core", "assault", "toi", "assault-rules", "toi-rules"]
    assert not list(tmp_path.rglob("*.nb[ic]"))
    _fill(tmp_path)
    assert compiling._refresh_numba_cache(tmp_path) == []
    assert len(list(tmp_path.rglob("*.nb[ic]"))) == 2 * 7 + 2
    assert sorted(p.name for p in (tmp_path / "engine" / "__pycache__").glob("*.sha256")) == [
        "numba-sources-assault-rules.sha256", "numba-sources-assault.sha256", "numba-sources-core.sha256",
        "numba-sources-toi-rules.sha256", "numba-sources-toi.sha256"]


def test_a_toi_change_keeps_assaults_caches(tmp_path):
    """Tide of Iron's engine or the simulator/games/toi rules it compiles from: only toi's
    caches go (with the calculator's when a rules file changed); Assault's .nbi/.nbc files
    and the core's survive."""
    _tree(tmp_path)
    compiling._refresh_numba_cache(tmp_path)
    for rel in ("games/toi/game/turn.py", "games/toi/rules/jit.py", "games/toi/rules/attack.py"):
        _fill(tmp_path)
        assert compiling._refresh_numba_cache(tmp_path) == [], rel
        _change(tmp_path, rel)
        rules = rel.startswith("games/toi/rules/")
        assert compiling._refresh_numba_cache(tmp_path) == ["toi"] + (["toi-rules"] if rules else []), rel
        assert _left(tmp_path, "toi") == ([] if rules else ["games/toi/rules/__pycache__/kernels.f.nbi"]), rel
        assert _left(tmp_path, "players") == [], rel
        assert len(_left(tmp_path, "assault")) == 4 and len(_left(tmp_path, "core")) == 4, rel


def test_an_assault_change_keeps_tois_caches(tmp_path):
    _tree(tmp_path)
    compiling._refresh_numba_cache(tmp_path)
    for rel in ("games/assault/game/turn.py", "games/assault/game/greedy.py"):
        _fill(tmp_path)
        _change(tmp_path, rel)
        assert compiling._refresh_numba_cache(tmp_path) == ["assault"], rel
        assert _left(tmp_path, "assault") == [] and _left(tmp_path, "players") == [], rel
        assert len(_left(tmp_path, "toi")) == 6 and len(_left(tmp_path, "core")) == 4, rel


def test_a_shared_players_change_drops_every_games_caches(tmp_path):
    """The shared players are compiled into each game's batch entry: both games' caches
    go, the core's stay."""
    _tree(tmp_path)
    compiling._refresh_numba_cache(tmp_path)
    _fill(tmp_path)
    _change(tmp_path, "engine/players/mcts.py")
    assert compiling._refresh_numba_cache(tmp_path) == ["assault", "toi"]
    assert _left(tmp_path, "assault") == [] and _left(tmp_path, "players") == []
    assert _left(tmp_path, "toi") == ["games/toi/rules/__pycache__/kernels.f.nbi"]
    assert len(_left(tmp_path, "core")) == 4


def test_a_core_change_drops_every_cache(tmp_path):
    _tree(tmp_path)
    compiling._refresh_numba_cache(tmp_path)
    for rel in ("engine/core/los.py", "run/rng.py"):
        _fill(tmp_path)
        _change(tmp_path, rel)
        assert compiling._refresh_numba_cache(tmp_path) == ["core", "assault", "toi", "assault-rules", "toi-rules"], rel
        assert not list(tmp_path.rglob("*.nb[ic]")), rel


def test_pure_python_changes_drop_nothing(tmp_path):
    _tree(tmp_path)
    compiling._refresh_numba_cache(tmp_path)
    _fill(tmp_path)
    _change(tmp_path, "engine/core/batch.py")
    assert compiling._refresh_numba_cache(tmp_path) == []


def test_decorator_forms_are_recognised(tmp_path):
    forms = {"@rule\ndef f(): pass\n": True, "@rule_hot\ndef f(): pass\n": True,
             "@njit(cache=True)\ndef f(): pass\n": True, "@numba.njit\ndef f(): pass\n": True,
             "g = numba.njit(inline='always')(f)\n": True,
             "# the njit functions are elsewhere\nimport numba\n": False}
    for i, (text, expected) in enumerate(forms.items()):
        p = tmp_path / f"m{i}.py"
        p.write_text(text)
        assert compiling._is_compiled(p) is expected, text
