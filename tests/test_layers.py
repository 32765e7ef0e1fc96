"""The folders point one way (issue 42, item 1; ``docs/design.md``, the layout).

The import graph of ``simulator/`` and ``reports/`` is read from the source (``ast``),
with the imports inside functions as well as those at module level, and every module is
placed in a layer by its folder:

* ``run``: ``simulator/run`` (runner, checkpoints, statistics, output ...): imports only itself;
* ``core``: ``simulator/engine/core`` (and the ``engine`` package): the run utilities;
* ``players``: ``simulator/engine/players``: the core and the run utilities;
* a game's ``rules``: the run utilities and the engine core only;
* its ``questions``: its rules (the calculators' answers);
* its ``game``: its rules, the engine (core and players), the run utilities;
* its ``report``: the shared ``reports/``, its game, rules and questions;
* ``reports`` (shared rendering): the run utilities only;
* command lines (a game's ``cli/``, ``simulator/cli*.py``, ``simulator/__main__.py``,
  ``simulator/demo.py``): anything but another game's modules.

No game imports another, only command lines import click (``reports.provenance`` reads the
running command's click context, and says so), and the imports run when a module loads
form no cycle.
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


ROOT_CLI = {"simulator.cli", "simulator.cliopts", "simulator.cli_lazy", "simulator.cli_demo",
            "simulator.cli_report", "simulator.cli_watch", "simulator.cli_learn", "simulator.__main__", "simulator.demo"}
GAME_PARTS = ("rules", "questions", "game", "report", "cli")
# what each layer may import (besides itself)
ALLOWED = {"run": set(), "core": {"run"}, "players": {"run", "core"},
           "rules": {"run", "core"}, "questions": {"run", "core", "rules"},
           "game": {"run", "core", "players", "rules"},
           "report": {"run", "core", "reports", "rules", "questions", "game", "package"},
           "reports": {"run"}, "package": {"run", "core", "rules", "questions", "game"}}
CLICK_READERS = {"reports.provenance"}   # reads the running command line from click's context


def layer(module: str) -> tuple[str, str | None]:
    """``(layer, game)`` of one of our modules, by its folder."""
    if module in ROOT_CLI:
        return "cli", None
    parts = module.split(".")
    if parts[:2] == ["simulator", "games"] and len(parts) > 2:
        part = parts[3] if len(parts) > 3 else "package"
        return (part if part in GAME_PARTS else "package"), parts[2]
    if parts[:2] == ["simulator", "run"]:
        return "run", None
    if parts[:3] == ["simulator", "engine", "players"]:
        return "players", None
    if parts[:2] == ["simulator", "engine"]:
        return "core", None
    if parts[0] == "reports":
        return "reports", None
    return "root", None


def is_cli(module: str) -> bool:
    return layer(module)[0] == "cli"


def test_every_module_has_a_layer():
    stray = sorted(m for m in modules() if layer(m)[0] == "root" and m not in ("simulator", "simulator.games"))
    assert not stray, f"modules outside the layout's folders: {stray}"


def test_the_scan_sees_the_modules_and_their_imports():
    mods = modules()
    assert {"simulator.cli", "simulator.cliopts", "simulator.games.assault.cli.fire", "simulator.games.assault.report.bundles",
            "simulator.games.assault.report.text", "simulator.demo", "reports.balance"} <= set(mods)
    assert layer("simulator.games.assault.cli.odds") == ("cli", "assault") and is_cli("simulator.cliopts")
    assert layer("simulator.games.toi.game.turn") == ("game", "toi")
    assert layer("simulator.engine.core.batch") == ("core", None) and layer("reports.text" if "reports.text" in mods
                                                                            else "reports.tables") == ("reports", None)
    assert not is_cli("simulator.games.assault.rules.fire") and not is_cli("reports.bundle")
    fire_cli = dict(imports("simulator.games.assault.cli.fire"))
    assert fire_cli["simulator.games.assault.report.text"] is True      # module level
    assert fire_cli["simulator.games.assault.rules.fire"] is False      # inside the command
    assert ("reports.bundle", False) in imports("simulator.demo")      # TYPE_CHECKING and function level


def _arrow_allowed(source: str, target: str) -> bool:
    (ls, gs), (lt, gt) = layer(source), layer(target)
    if gs and gt and gs != gt:
        return False                                   # no game imports another
    if ls in ("cli", "root"):
        return True
    if ls == lt and (gs == gt):
        return True
    return lt in ALLOWED[ls]


def test_every_import_follows_the_folders():
    wrong = sorted(f"{m} ({'/'.join(filter(None, layer(m)[::-1]))}) imports {t} "
                   f"({'/'.join(filter(None, layer(t)[::-1]))})" + ("" if at_load else ", inside a function")
                   for m in modules() for t, at_load in imports(m) if not _arrow_allowed(m, t))
    assert not wrong, "imports against the layout (docs/design.md):\n" + "\n".join(wrong)


def test_the_layer_rules_catch_a_wrong_arrow():
    assert not _arrow_allowed("simulator.games.toi.report.bundles", "simulator.games.assault.report.bundles")
    assert not _arrow_allowed("simulator.games.assault.rules.fire", "simulator.games.assault.game.turn")
    assert not _arrow_allowed("simulator.engine.core.batch", "simulator.games.assault.game.turn")
    assert not _arrow_allowed("simulator.engine.players.mcts", "simulator.games.toi.game.view")
    assert not _arrow_allowed("reports.bundle", "simulator.games.assault.rules.dice")
    assert not _arrow_allowed("simulator.run.runner", "simulator.engine.core.batch")
    assert _arrow_allowed("simulator.games.assault.game.turn", "simulator.engine.players.interface")
    assert _arrow_allowed("simulator.games.assault.cli.fire", "reports.bundle")


def test_only_command_lines_import_click():
    import re
    users = sorted(m for m, p in modules().items()
                   if re.search(r"^\s*(import click|from click)", p.read_text(encoding="utf-8"), re.M))
    assert users and all(is_cli(m) or m in CLICK_READERS for m in users), users


def test_no_import_cycles_at_load_time():
    found = cycles(load_graph())
    assert not found, "modules that import one another when they load:\n" + "\n".join(
        " <-> ".join(c) for c in found)


def test_no_import_cycles_at_all():
    """Counting the imports inside functions too: no two modules lean on each other."""
    graph = {m: {t for t, _ in imports(m)} for m in modules()}
    found = cycles(graph)
    assert not found, "modules that import one another:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_cycle_finder_finds_cycles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"a"}}) == [["a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
