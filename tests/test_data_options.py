"""--dice, --aid and --units-dir on every command that loads Assault data (issue 21, item 3).

Precedence: the command line beats the scenario's ``[data]`` table, which beats the
shipped file; reports and check name the file actually used; a bad file is the
one-line error naming the file and the key, exit status 2.
"""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.run.datafile import SCENARIOS_DIR

SHIPPED_AID = SCENARIOS_DIR / "assault" / "aid.toml"

CANAL = """
[terrain.canal]
defence_infantry = "-"
defence_vehicle = "-"
movement = { foot = "prohibited", gun = "prohibited", wheeled = "prohibited", tracked = "prohibited" }
vehicle_damage = "-"
los = "clear"
height = 0
spot = 3
"""

SCENARIO = """name = "Canal"
turns = 2
unit_rules = ["infantry"]
[data]
aid = "my-aid.toml"
[map]
rows = ["..~..", "..~..", "..=.."]
[map.legend]
"." = "clear"
"~" = "canal"
"=" = "road"
[[objectives]]
hex = "3,1"
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
hex = "0,1"
[sides.german.victory]
hold = ["3,1"]
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "rifles-41"
hex = "4,1"
[sides.soviet.victory]
hold = ["3,1"]
[victory]
if_neither = "soviet"
"""


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture()
def canal(tmp_path, monkeypatch):
    """A scenario whose ``[data]`` names my-aid.toml (a copy of the shipped aid with a
    canal); other-aid.toml is another copy, named other-aid. Runs in ``tmp_path``."""
    text = SHIPPED_AID.read_text() + CANAL
    (tmp_path / "my-aid.toml").write_text(text)
    (tmp_path / "other-aid.toml").write_text(text.replace('name = "assault-default"', 'name = "other-aid"', 1))
    (tmp_path / "bad-dice.toml").write_text("dice = [\n")
    (tmp_path / "canal.scenario.toml").write_text(SCENARIO)
    monkeypatch.chdir(tmp_path)
    return tmp_path / "canal.scenario.toml"


def one_line_error(res, *needles):
    assert res.exit_code == 2, res.output
    lines = [x for x in res.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, res.stderr
    for n in needles:
        assert n in lines[0], lines[0]
    assert "Traceback" not in res.output


# --- every command that loads data takes the three options -----------------------------

DATA_COMMANDS = {   # command -> the data options it takes
    "fire": {"--dice", "--aid", "--units-dir"}, "resolve": {"--dice", "--aid", "--units-dir"},
    "melee": {"--dice", "--aid", "--units-dir"}, "smoke": {"--dice", "--aid", "--units-dir"},
    "terrain-damage": {"--dice", "--aid", "--units-dir"}, "matrix": {"--dice", "--aid", "--units-dir"},
    "check": {"--dice", "--aid", "--units-dir"}, "map": {"--dice", "--aid", "--units-dir"},
    "los": {"--dice", "--aid", "--units-dir"}, "scenario": {"--dice", "--aid", "--units-dir"},
    "replay": {"--dice", "--aid", "--units-dir"},
    "units": {"--dice", "--units-dir"},          # unit cards are checked against the dice only
    "odds": {"--dice"},                          # dice only
}


@pytest.mark.parametrize("name", sorted(DATA_COMMANDS))
def test_data_options_are_named_the_same_everywhere(name):
    import click

    from simulator.games.assault.cli import assault

    command = assault.get_command(click.Context(assault), name)
    opts = {o for p in command.params for o in p.opts}
    assert DATA_COMMANDS[name] <= opts
    meta = {p.opts[0]: (p.name, p.metavar) for p in command.params if p.opts[0] in DATA_COMMANDS[name]}
    expected = {"--dice": ("dice_file", "FILE"), "--aid": ("aid_file", "FILE"), "--units-dir": ("units_dir", "DIR")}
    assert meta == {k: expected[k] for k in meta}


# --- check: the precedence, the file named -----------------------------------------------

def test_check_uses_the_scenario_data_then_the_command_line(canal):
    res = run("assault", "check", canal)
    assert res.exit_code == 0, res.output
    assert ": data: aid " in res.output and "my-aid.toml (data.aid)" in res.output
    assert ": ok\n" in res.output                     # then the summary of what the file sets up
    res = run("assault", "check", canal, "--aid", "other-aid.toml", "--format", "json")
    obj = json.loads(res.stdout)
    assert obj["ok"] and obj["data"]["aid"]["from"] == "--aid"
    assert obj["data"]["aid"]["name"] == "other-aid" and obj["data"]["aid"]["file"].endswith("other-aid.toml")
    assert obj["data"]["dice"]["from"] == "shipped" and obj["data"]["units"]["from"] == "shipped"
    # the shipped aid on the command line beats [data]: it has no canal
    res = run("assault", "check", canal, "--aid", SHIPPED_AID)
    assert res.exit_code == 2 and "unknown terrain 'canal'" in res.output


def test_check_units_dir_and_dice(canal, tmp_path):
    shutil.copytree(SCENARIOS_DIR / "assault" / "units", tmp_path / "cards")
    res = run("assault", "check", canal, "--units-dir", "cards", "--dice", SCENARIOS_DIR / "assault" / "dice.toml",
              "--format", "json")
    obj = json.loads(res.stdout)
    assert obj["ok"] and obj["data"]["units"]["from"] == "--units-dir" and obj["data"]["dice"]["from"] == "--dice"
    assert obj["data"]["units"]["file"].endswith("cards")


def test_check_bad_files_name_the_option_and_the_file(canal):
    res = run("assault", "check", canal, "--aid", "nope.toml")
    assert res.exit_code == 2 and "--aid: nope.toml" in res.output
    res = run("assault", "check", canal, "--dice", "bad-dice.toml")
    assert res.exit_code == 2 and "--dice: bad-dice.toml" in res.output
    res = run("assault", "check", canal, "--units-dir", "no-such-folder")
    assert res.exit_code == 2 and "--units-dir: no-such-folder" in res.output


# --- los and map ---------------------------------------------------------------------

def test_los_names_the_aid_it_used(canal):
    obj = json.loads(run("assault", "los", canal, "0,0", "4,0", "--format", "json").stdout)
    assert obj["aid"] == "assault-default" and obj["aid_file"].endswith("my-aid.toml")
    res = run("assault", "los", canal, "0,0", "4,0", "--aid", "other-aid.toml")
    assert res.exit_code == 0 and "aid: other-aid, reconstructed (other-aid.toml)" in res.output
    one_line_error(run("assault", "los", canal, "0,0", "4,0", "--aid", SHIPPED_AID),
                   "canal.scenario.toml", "map.legend", "canal")
    one_line_error(run("assault", "los", canal, "0,0", "4,0", "--dice", "bad-dice.toml"),
                   "--dice", "bad-dice.toml")


def test_map_takes_the_data_options(canal, tmp_path):
    res = run("assault", "map", canal, "--aid", "other-aid.toml", "--out", tmp_path / "m.png")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "m.png").read_bytes()[:4] == b"\x89PNG"
    one_line_error(run("assault", "map", canal, "--aid", "nope.toml", "--out", tmp_path / "n.png"),
                   "--aid", "nope.toml")
    assert not (tmp_path / "n.png").exists()


# --- units ---------------------------------------------------------------------------

def test_units_bad_dice_is_one_line(canal):
    one_line_error(run("assault", "units", "--dice", "bad-dice.toml"), "bad-dice.toml")
    one_line_error(run("assault", "units", "--units-dir", "no-such-folder"), "no-such-folder")


# --- scenario and replay: the report names the file used ---------------------------------

def test_scenario_report_names_the_aid_file(canal, tmp_path):
    res = run("assault", "scenario", canal, "--games", 20, "--seed", 1, "--workers", 1, "--format", "json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)["data"]["data"]
    assert data["chosen_by"]["aid"] == "data.aid" and "my-aid.toml" in data["aid"]
    res = run("assault", "scenario", canal, "--games", 20, "--seed", 1, "--workers", 1,
              "--aid", "other-aid.toml", "--out", tmp_path / "rep")
    assert res.exit_code == 0, res.output
    assert "aid other-aid, reconstructed (" in res.stdout and "other-aid.toml)" in res.stdout
    summary = json.loads((tmp_path / "rep" / "summary.json").read_text())
    aid = [s for s in summary["provenance"]["sources"] if s["kind"] == "aid"][0]
    assert aid["name"].startswith("other-aid (") and aid["name"].endswith("other-aid.toml)")
    assert any(f.endswith("other-aid.toml") for f in summary["provenance"]["data_files"])
    one_line_error(run("assault", "scenario", canal, "--games", 20, "--dice", "bad-dice.toml"),
                   "--dice", "bad-dice.toml")


def test_replay_takes_the_data_options(canal):
    res = run("assault", "replay", canal, "--seed", 1, "--game", 0, "--aid", "other-aid.toml", "--format", "json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["game"] == 0
    one_line_error(run("assault", "replay", canal, "--seed", 1, "--game", 0, "--aid", SHIPPED_AID),
                   "map.legend", "canal")
