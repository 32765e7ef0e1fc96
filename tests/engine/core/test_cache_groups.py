"""The numba caches a source change drops are complete (issue 42, item 3): checked against
the import graph.

numba's disk cache notices a change in a function's own file only; what a compiled
function calls from other files, and the module constants it reads (field numbers, table
layouts), are compiled into it. :data:`simulator.engine.core.compiling.CACHE_GROUPS` names
the sources of each game's compiled code, and a change to any of them drops the group's
caches. An experiment once ran on stale compiled code because a file was missing from
that list. Here the list is held against the code: every module that a compiled module of
a game imports (following the compiled modules it reaches, through the rules, the engine
core and the shared players) must be one of the group's sources or the core's, unless it
is on the short list of Python-only modules below, whose names a compiled module uses
from Python only (errors, the runner, text).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.engine.core import compiling
from tests.test_layers import imports, modules

SIMULATOR = Path(compiling.__file__).resolve().parents[2]

# Modules that compiled modules import for their Python side only: nothing of theirs is
# compiled into a game's code (no numba function, no constant read by one).
PYTHON_ONLY = {
    "simulator.run.errors",        # InputError, raised by the Python loaders beside the rules
    "simulator.run.runner",        # the calculators' Monte Carlo runs
    "simulator.run.checkpoint",    # saved runs
    "simulator.run.stats",         # intervals of the calculators' answers
    "simulator.run.intervals",     # the Monte Carlo tables' intervals and unseen outcomes (issue 39)
    "simulator.run.vocabulary",    # words shared with the command line
    "simulator.run.datafile",      # reading data files (the scenario loaders beside the compiled LOS table)
    "simulator.engine.core.hexspec",   # hex names in scenario files
    "simulator.games.toi.rules.data",  # Tide of Iron's roster and terrain files, read in Python
}


def _sources(group: str) -> set[Path]:
    globs, files, _ = compiling.CACHE_GROUPS[group]
    found = {p.resolve() for pat in globs for p in SIMULATOR.glob(pat) if compiling._is_compiled(p)}
    return found | {p.resolve() for f in files for p in SIMULATOR.glob(f)}


def _compiled(module: str) -> bool:
    return compiling._is_compiled(modules()[module])


def _reached(group: str) -> set[str]:
    """Every module of ours that the group's compiled code may draw on: the closure of
    the imports of its compiled modules, followed through compiled modules."""
    todo = [m for m in modules() if m.startswith(f"simulator.games.{group}.game") and _compiled(m)]
    seen: set[str] = set()
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        if _compiled(m):
            todo += [t for t, _ in imports(m) if t.startswith("simulator")]
    return seen


@pytest.mark.parametrize("group", ["assault", "toi"])
def test_every_source_of_a_games_compiled_code_drops_its_caches(group):
    have = _sources(group) | _sources(compiling.SHARED_GROUP)
    mods = modules()
    missing = sorted(m for m in _reached(group)
                     if mods[m].resolve() not in have and m not in PYTHON_ONLY and mods[m].name != "__init__.py")
    assert not missing, (f"compiled into {group}'s code but not in CACHE_GROUPS[{group!r}] "
                         f"(simulator/engine/core/compiling.py): {missing}")


def test_the_check_sees_a_missing_source(monkeypatch):
    """Take one file out of Tide of Iron's list: the check names it."""
    globs, files, caches = compiling.CACHE_GROUPS["toi"]
    dropped = "games/toi/game/tables.py"
    assert dropped in files
    monkeypatch.setitem(compiling.CACHE_GROUPS, "toi", (globs, tuple(f for f in files if f != dropped), caches))
    with pytest.raises(AssertionError, match="simulator.games.toi.game.tables"):
        test_every_source_of_a_games_compiled_code_drops_its_caches("toi")


def test_python_only_modules_hold_no_compiled_code():
    for m in PYTHON_ONLY:
        assert not _compiled(m), m
