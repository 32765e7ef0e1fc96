"""The bad-input corpus: every malformed file or argument gives exit 2 and one line naming
the file (or argument), the key and the problem; never a traceback.

``corpus/dice/*.toml`` and ``corpus/units/*.toml`` are malformed files (each names
what the error must say in ``# expect:`` lines); ``corpus/aid/cases.toml`` and
``corpus/scenarios/cases.toml`` describe malformed player's aids and scenarios as one
change each to a shipped file (so they follow the files' shape as it grows);
``corpus/cli.toml`` lists bad command lines. Most cases run in-process through click's ``CliRunner``
(the same ``main`` as the installed command); a few run as real subprocesses.
"""

import copy
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.games.assault.rules.aid import DEFAULT_AID_FILE
from simulator.run.datafile import SCENARIOS_DIR

from .tomlw import dumps

CORPUS = Path(__file__).parent / "corpus"
DATA_DIR = SCENARIOS_DIR / "assault"
DICE_FILES = sorted((CORPUS / "dice").glob("*.toml"))
UNIT_FILES = sorted((CORPUS / "units").glob("*.toml"))
AID_CASES = tomllib.loads((CORPUS / "aid" / "cases.toml").read_text())["case"]
SCENARIO_CASES = tomllib.loads((CORPUS / "scenarios" / "cases.toml").read_text())["case"]
SCENARIO = DATA_DIR / "infantry-training.scenario.toml"
CLI_CASES = tomllib.loads((CORPUS / "cli.toml").read_text())["case"]
FIRE = ["assault", "fire", "german/rifles-41", "soviet/rifles-41", "--range", "2"]


def expectations(path: Path) -> list[str]:
    lines = path.read_bytes().decode("utf-8", errors="replace").splitlines()
    found = [line[len("# expect: "):] for line in lines if line.startswith("# expect: ")]
    assert found, f"{path.name} says nothing about its error"
    return found


def one_line_error(args: list[str]) -> str:
    """Run ``lanchester ARGS`` in-process; check the contract; return the error line."""
    res = CliRunner().invoke(main, args)
    assert isinstance(res.exception, SystemExit), f"uncaught {res.exception!r}"
    assert res.exit_code == 2, (res.exit_code, res.output)
    assert res.stdout == ""
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    return lines[0]


def test_the_corpus_is_big_enough():
    kinds = (DICE_FILES, UNIT_FILES, AID_CASES, SCENARIO_CASES, CLI_CASES)
    assert sum(map(len, kinds)) >= 40 and min(map(len, kinds)) >= 10


@pytest.mark.parametrize("path", DICE_FILES, ids=lambda p: p.stem)
def test_bad_dice_file(path):
    line = one_line_error(["assault", "odds", "RY", "YG", "--dice", str(path)])
    assert str(path) in line
    for needle in expectations(path):
        assert needle in line, line


@pytest.mark.parametrize("path", UNIT_FILES, ids=lambda p: p.stem)
def test_bad_unit_file(path, tmp_path):
    copy_ = tmp_path / path.name
    copy_.write_bytes(path.read_bytes())
    line = one_line_error(["assault", "units", "--units-dir", str(tmp_path)])
    assert str(copy_) in line
    for needle in expectations(path):
        assert needle in line, line


def _keys(dotted: str) -> list:
    """``"sides.german.units[1].unit"`` -> ``["sides", "german", "units", 1, "unit"]``."""
    keys: list = []
    for part in dotted.split("."):
        name, *indices = part.replace("]", "").split("[")
        keys += [name] + [int(i) for i in indices]
    return keys


def _apply(data: dict, case: dict) -> dict:
    """A shipped file's data with a case's one change."""
    data = copy.deepcopy(data)

    def parent(dotted: str):
        *path, last = _keys(dotted)
        node = data
        for part in path:
            node = node[part]
        return node, last

    for dotted, value in case.get("set", {}).items():
        node, last = parent(dotted)
        node[last] = value
    for dotted in case.get("delete", []):
        node, last = parent(dotted)
        del node[last]
    if "grid" in case:                     # a generated map: cols x rows hexes of one letter
        g = case["grid"]
        data["map"]["rows"] = [g["fill"] * g["cols"]] * g["rows"]
    if "rename" in case:
        old, new = case["rename"]
        node, last = parent(old)
        value = node.pop(last)
        node, last = parent(new)
        node[last] = value
    return data


@pytest.mark.parametrize("case", AID_CASES, ids=lambda c: c["name"])
def test_bad_aid_file(case, tmp_path):
    shipped = tomllib.loads(DEFAULT_AID_FILE.read_text())
    path = tmp_path / f"{case['name']}.toml"
    path.write_text(dumps(_apply(shipped, case)) + case.get("append", ""))
    line = one_line_error([*FIRE, "--aid", str(path)])
    assert str(path) in line
    for needle in case["expect"]:
        assert needle in line, line


def test_the_shipped_aid_written_back_is_accepted(tmp_path):
    """The aid cases start from a valid file: the writer round-trips the shipped aid."""
    path = tmp_path / "aid.toml"
    path.write_text(dumps(tomllib.loads(DEFAULT_AID_FILE.read_text())))
    res = CliRunner().invoke(main, [*FIRE, "--aid", str(path)])
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("case", SCENARIO_CASES, ids=lambda c: c["name"])
def test_bad_scenario_file(case, tmp_path):
    """A command using the scenario stops at the first problem, in one line; ``check``
    lists every problem (one per line, each with file and key) and exits 2."""
    path = tmp_path / f"{case['name']}.scenario.toml"
    path.write_text(dumps(_apply(tomllib.loads(SCENARIO.read_text()), case)) + case.get("append", ""))
    line = one_line_error(["assault", "los", str(path), "0,0", "1,1"])
    assert str(path) in line
    for needle in case["expect"]:
        assert needle in line, line
    check = CliRunner().invoke(main, ["assault", "check", str(path)])
    assert isinstance(check.exception, SystemExit) and check.exit_code == 2
    assert "Traceback" not in check.output
    findings = [x for x in check.output.splitlines() if str(path) in x and all(n in x for n in case["expect"])]
    assert findings, check.output


@pytest.mark.parametrize("case", CLI_CASES, ids=lambda c: " ".join(c["args"])[:60])
def test_bad_command_line(case, tmp_path):
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    empty = tmp_path / "empty"
    empty.mkdir()
    args = [a.replace("{file}", str(a_file)).replace("{dir}", str(empty)) for a in case["args"]]
    line = one_line_error(args)
    for needle in case["expect"]:
        assert needle in line, line


@pytest.mark.parametrize("kind", ["dice", "units", "aid"])
def test_through_a_real_process(kind, tmp_path):
    """The installed entry point behaves the same as the in-process runs."""
    if kind == "dice":
        path = CORPUS / "dice" / "unknown-symbol.toml"
        args = ["assault", "odds", "RY", "YG", "--dice", str(path)]
        needle = "dice.red[2]: unknown symbol 'kill'"
    elif kind == "units":
        path = tmp_path / "negative-strength.toml"
        path.write_bytes((CORPUS / "units" / path.name).read_bytes())
        args = ["assault", "units", "--units-dir", str(tmp_path)]
        needle = "units.rifles.strength: must be positive"
    else:
        path = tmp_path / "aid.toml"
        path.write_text(dumps(tomllib.loads(DEFAULT_AID_FILE.read_text())) + "[terrain.clear\n")
        args = [*FIRE, "--aid", str(path)]
        needle = "TOML syntax error"
    proc = subprocess.run([sys.executable, "-m", "simulator", *args], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert str(path) in lines[0] and needle in lines[0]
