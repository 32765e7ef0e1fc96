"""A quick command line (issue 21, item 2): ``--help`` of every command loads none of
numpy, numba, pandas, matplotlib or pydantic, and the lazily listed commands are the
commands that load."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest

from simulator.cli import main

HEAVY = ("numpy", "numba", "pandas", "matplotlib", "pydantic", "scipy")


def command_paths(group: click.Group = main, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    ctx = click.Context(group)
    out = [prefix]
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if isinstance(cmd, click.Group):
            out += command_paths(cmd, prefix + (name,))
        else:
            out.append(prefix + (name,))
    return out


PATHS = command_paths()

PROBE = """
import runpy, sys
sys.argv = ["lanchester", *sys.argv[1:], "--help"]
try:
    runpy.run_module("simulator", run_name="__main__")
except SystemExit as exc:
    code = exc.code
print(",".join(m for m in %r if m in sys.modules), file=sys.stderr)
sys.exit(code)
""" % (HEAVY,)


def test_every_command_is_listed():
    names = {" ".join(p) for p in PATHS}
    assert {"assault odds", "assault scenario", "assault schema", "toi fire", "toi minefield", "toi assault",
            "toi units", "demo", "report"} <= names
    assert len(PATHS) >= 25


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "lanchester")
def test_help_loads_no_heavy_module(path):
    proc = subprocess.run([sys.executable, "-c", PROBE, *path], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "Usage:" in proc.stdout
    assert proc.stderr.strip().splitlines()[-1:] in ([], [""]), f"--help imported {proc.stderr.strip()}"


def test_lazy_names_match_the_commands_they_load():
    for group_path in [p for p in PATHS if isinstance(_command(p), click.Group)]:
        group = _command(group_path)
        for name, (target, summary) in getattr(group, "lazy", {}).items():
            assert group.get_command(click.Context(group), name).name == name, target
            assert summary and len(summary) < 80


def _command(path):
    cmd = main
    for name in path:
        cmd = cmd.get_command(click.Context(cmd), name)
    return cmd


def test_the_package_exports_the_odds_function_whatever_was_imported_first():
    code = ("import simulator.games.assault.questions.odds\n"
            "from simulator.games.assault.questions.odds import simulate_outcome\n"
            "from simulator.games.assault import odds\n"
            "assert callable(odds) and odds.__name__ == 'odds', odds\n"
            "print(odds('RY', 'YG')['p'].sum())\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert abs(float(proc.stdout) - 1.0) < 1e-12      # the outcome table of the function, its p summing to 1


ANSWER_PROBE = """
import runpy, sys
sys.argv = ["lanchester", *sys.argv[1:]]
try:
    runpy.run_module("simulator", run_name="__main__")
except SystemExit as exc:
    code = exc.code
print(",".join(m for m in ("numba", "pandas", "matplotlib") if m in sys.modules), file=sys.stderr)
sys.exit(code)
"""


def test_an_exact_odds_answer_loads_neither_numba_nor_pandas():
    """``assault odds RY YG`` (issue 21: within a second warm) answers from numpy alone;
    the Monte Carlo path and a CSV table still load what they need."""
    proc = subprocess.run([sys.executable, "-c", ANSWER_PROBE, "assault", "odds", "RY", "YG"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "mean damage 0.7994" in proc.stdout
    assert (proc.stderr.strip().splitlines() or [""])[-1] == "", proc.stderr
    proc = subprocess.run([sys.executable, "-c", ANSWER_PROBE, "assault", "odds", "RY", "YG", "--format", "csv"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("crit,hit,supp,p\n")
    assert (proc.stderr.strip().splitlines() or [""])[-1] == "pandas", proc.stderr
