"""Writing scenarios: the published JSON Schema and the starter (issue 21, item 3)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.games.assault.cli.author import schema_text
from simulator.games.assault.game.scenario import check_scenario, shipped_scenarios

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_FILE = ROOT / "docs" / "scenario.schema.json"


def validator():
    return jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text()))


def test_published_schema_is_the_generated_one():
    """docs/scenario.schema.json is regenerated with `lanchester assault schema --out`."""
    assert SCHEMA_FILE.read_text() == schema_text()


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.name)
def test_shipped_scenarios_validate_against_the_schema(path):
    errors = list(validator().iter_errors(tomllib.loads(path.read_text())))
    assert errors == []


def test_the_schema_catches_a_typo_and_a_wrong_type():
    data = tomllib.loads(shipped_scenarios()[0].read_text())
    data["map"]["orientaton"] = "flat"
    data["turns"] = "six"
    messages = sorted(e.message for e in validator().iter_errors(data))
    assert any("orientaton" in m for m in messages)
    assert any("'six' is not valid" in m for m in messages)


def test_schema_command_prints_it():
    res = CliRunner().invoke(main, ["assault", "schema"])
    assert res.exit_code == 0
    assert json.loads(res.output)["title"] == "Assault scenario file (lanchester)"


def test_new_writes_a_starter_that_passes_check_and_the_schema(tmp_path):
    target = tmp_path / "river-crossing"
    res = CliRunner().invoke(main, ["assault", "new", str(target)])
    assert res.exit_code == 0, res.output
    path = tmp_path / "river-crossing.scenario.toml"
    result = check_scenario(path)
    assert result.ok, [str(p) for p in result.problems]
    assert result.scenario.name == "River Crossing"
    assert list(validator().iter_errors(tomllib.loads(path.read_text()))) == []
    first = path.read_text().splitlines()[0]
    assert first.startswith("#:schema ")
    # issue 43: relative to the new file's folder (not an absolute path of this machine), and it leads
    # to the published schema
    written = Path(first.split(" ", 1)[1])
    assert not written.is_absolute() and (path.parent / written).resolve() == SCHEMA_FILE.resolve()
    again = CliRunner().invoke(main, ["assault", "new", str(target)])
    assert again.exit_code == 2 and "file exists" in again.output


def test_new_refuses_a_bad_name(tmp_path):
    res = CliRunner().invoke(main, ["assault", "new", str(tmp_path / "bad name!")])
    assert res.exit_code == 2 and "use letters, digits" in res.output
