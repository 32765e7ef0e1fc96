"""Layers that point one way (issue 17, item 4): CLI -> reports -> library, never back.

The import graph of ``simulator/`` and ``reports/`` is read from the source (``ast``),
with the imports inside functions as well as those at module level:

* no module that is not a command line imports one (``reports/`` and the library
  never reach for ``simulator/cli.py``, ``simulator/*/cli_*.py``, ``simulator/cliopts.py``);
* the engine's core imports no game (``simulator/engine/core`` is what every game shares);
* the imports run when a module loads (module level, not inside functions, not under
  ``if TYPE_CHECKING:``) form no cycle.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("simulator", "reports")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def is_cli(module: str) -> bool:
    """A command-line module: ``cli.py``, ``cli_*.py`` (the click commands),
    ``cliopts.py`` (their shared click options) and ``__main__.py`` (``python -m``)."""
    last = module.rsplit(".", 1)[-1]
    return last in ("cli", "cliopts", "__main__") or last.startswith("cli_")


def known(name: str) -> str | None:
    """The module of ours that ``name`` (a module, or a name inside one) loads, or None."""
    while name and name not in modules():
        name = name.rpartition(".")[0]
    return name or None


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


@cache
def imports(module: str) -> tuple[tuple[str, bool], ...]:
    """``(imported module, at load time)`` for every import of ours in ``module``."""
    path = modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, bool]] = []

    def names(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        base = node.module or ""
        if node.level:
            parts = package.split(".")
            base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
        return [base] + [f"{base}.{a.name}" for a in node.names]   # `from pkg import module`

    def walk(node: ast.AST, at_load: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.extend((m, at_load) for m in map(known, names(child)) if m and m != module)
            else:
                deferred = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) \
                    or _type_checking(child)
                walk(child, at_load and not deferred)

    walk(ast.parse(path.read_text(encoding="utf-8"), str(path)), True)
    return tuple(dict.fromkeys(found))


def load_graph() -> dict[str, set[str]]:
    return {m: {t for t, at_load in imports(m) if at_load} for m in modules()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), or with a
    module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:   # the graph is a few hundred modules: recursion is fine
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_scan_sees_the_modules_and_their_imports():
    mods = modules()
    assert {"simulator.cli", "simulator.cliopts", "simulator.assault.cli_fire", "reports.assault",
            "reports.text", "simulator.demo"} <= set(mods)
    assert is_cli("simulator.assault.cli_odds") and is_cli("simulator.cliopts") and is_cli("reports.cli")
    assert not is_cli("simulator.demo") and not is_cli("reports.text") and not is_cli("simulator.assault.fire")
    fire_cli = dict(imports("simulator.assault.cli_fire"))
    assert fire_cli["reports.text"] is True                        # module level
    assert fire_cli["simulator.assault.fire"] is False             # inside the command
    assert ("reports.bundle", False) in imports("simulator.demo")  # TYPE_CHECKING and function level


def test_cliopts_is_used_by_command_lines_only():
    """``simulator/cliopts.py`` holds click options: only the command lines use it."""
    users = sorted(m for m in modules() if any(t == "simulator.cliopts" for t, _ in imports(m)))
    assert users and all(is_cli(m) for m in users), users


def test_nothing_below_the_command_line_imports_it():
    wrong = sorted(f"{m} imports {t}" + ("" if at_load else " (inside a function)")
                   for m in modules() if not is_cli(m)
                   for t, at_load in imports(m) if is_cli(t))
    assert not wrong, "CLI -> reports -> library, never back:\n" + "\n".join(wrong)


# Modules under simulator/ that sit above the reports: ``lanchester demo``'s job is to
# write report bundles (its click command is simulator/cli_demo.py).
ABOVE_THE_REPORTS = {"simulator.demo"}


def test_the_library_does_not_import_the_reports():
    """``simulator`` (outside its command lines and the demo) computes; ``reports`` presents."""
    wrong = sorted(f"{m} imports {t}" for m in modules()
                   if m.startswith("simulator") and not is_cli(m) and m not in ABOVE_THE_REPORTS
                   for t, _ in imports(m) if t.startswith("reports"))
    assert not wrong, "\n".join(wrong)


GAMES = ("simulator.engine.assault", "simulator.engine.toi", "simulator.engine.players", "simulator.assault",
         "simulator.toi")


def test_the_engine_core_imports_no_game():
    """What every game shares (``simulator/engine/core``) knows no game: a game module
    builds on the core, never the other way round (Assault's warm-up, map compile, game
    cache, map pictures and balance report are Assault's, beside its rules)."""
    wrong = sorted(f"{m} imports {t}" for m in modules() if m.startswith("simulator.engine.core")
                   for t, _ in imports(m) if t.startswith(GAMES))
    assert not wrong, "\n".join(wrong)


def test_the_shared_players_import_no_game():
    """The players every game shares (``simulator/engine/players``) are written against the
    game API (``simulator/engine/core/gameapi.py``): they import no game; each game's
    ``playerapi`` module registers its side of the API (issue 19)."""
    games = tuple(g for g in GAMES if g != "simulator.engine.players")
    wrong = sorted(f"{m} imports {t}" for m in modules() if m.startswith("simulator.engine.players")
                   for t, _ in imports(m) if t.startswith(games))
    assert not wrong, "\n".join(wrong)
    assert any(m.startswith("simulator.engine.players") for m in modules())


def test_no_import_cycles_at_load_time():
    found = cycles(load_graph())
    assert not found, "modules that import one another when they load:\n" + "\n".join(
        " <-> ".join(c) for c in found)


def test_the_cycle_finder_finds_cycles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"a"}}) == [["a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
