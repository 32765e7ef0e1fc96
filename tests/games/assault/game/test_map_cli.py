"""The commands: los, map, scenarios, check (and their library calls)."""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from matplotlib.image import imread

from simulator.cli import main
from simulator.games.assault.cli.map import check_answer, los_answer, map_answer, scenarios_answer

MINIMAL = """name = "mini"
[map]
orientation = "flat"
rows = ["..f..", ".fFh.", "....."]
[map.legend]
"." = "clear"
"f" = "forest"
"F" = "heavy_forest"
"h" = "hill"
"""


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture()
def mini(tmp_path):
    p = tmp_path / "mini.scenario.toml"
    p.write_text(MINIMAL)
    return p


def test_los_json_contract(mini):
    res = run("assault", "los", mini, "0,1", "4,1", "--format", "json")
    assert res.exit_code == 0, res.output
    obj = json.loads(res.output)
    assert obj["los"] == "blocked" and obj["range"] == 4
    assert obj["hindrances"] == ["1,1"] and obj["blocking"] == ["2,1", "3,1"]
    res = run("assault", "los", mini, "0,0", "4,0", "--format", "json")
    obj = json.loads(res.output)
    assert (obj["los"], obj["hindrances"], obj["los_dice"]) == ("hindered", ["2,0"], "Y")
    assert json.loads(run("assault", "los", mini, "0,0", "1,0", "--format", "json").output)["los"] == "clear"


def test_los_table_and_smoke(mini):
    res = run("assault", "los", mini, "0,0", "4,0")
    assert res.exit_code == 0 and "los: hindered" in res.output and "2,0" in res.output
    res = run("assault", "los", mini, "0,0", "4,0", "--smoke", "1,0:2", "--format", "json")
    assert json.loads(res.output)["los"] == "blocked"   # forest + 2 smoke markers (10.3)


def test_los_answer_is_the_library_call():
    answer = los_answer("infantry-training", "0,4", "8,4")
    frame = answer.frame()
    assert frame.loc[0, "los"] == answer.los and answer.los in ("clear", "hindered", "blocked")
    # 0,4 to 8,4: eight columns along one row of the flat map
    assert answer.range == 8 and answer.aid_status == "reconstructed" and frame.attrs == {}
    js = answer.to_json()
    assert (js["from"], js["to"], js["range"]) == ("0,4", "8,4", 8) and list(js)[:3] == ["scenario", "file", "from"]


@pytest.mark.parametrize("args,fragment", [
    (["0,9", "4,0"], "FROM: '0,9' is off the map"),
    (["0,0", "x"], "TO: not a hex name"),
    (["0,0", "4,0", "--smoke", "1,0:9"], "1 to 4 smoke markers"),
])
def test_los_errors_are_one_line(mini, args, fragment):
    res = run("assault", "los", mini, *args)
    assert res.exit_code == 2
    assert fragment in res.output and res.output.count("\n") == 1 and "Traceback" not in res.output


def test_map_png_is_written_atomically_and_not_blank(tmp_path):
    out = tmp_path / "pics" / "cross.png"
    res = run("assault", "map", "crossroads", "--los-from", "10,7", "--out", out)
    assert res.exit_code == 0, res.output
    assert out.stat().st_size > 20_000
    assert list(out.parent.iterdir()) == [out]   # no temporary file left behind
    img = imread(out)
    assert img.shape[0] > 500 and img.shape[1] > 500
    rgb = img[..., :3]
    background = (rgb > 0.98).all(axis=-1)
    assert (~background).mean() > 0.3          # most of the picture is map, not background
    # the three LOS shades and terrain give many distinct colours
    assert len(np.unique((rgb * 255).astype(np.uint8).reshape(-1, 3), axis=0)) > 50


def test_map_default_name_and_minimal_form(mini, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run("assault", "map", mini)
    assert res.exit_code == 0, res.output
    assert (tmp_path / "mini-map.png").stat().st_size > 5_000


def test_map_answer_shades_by_los(mini):
    answer = map_answer(mini, los_from="0,1")
    frame = answer.frame()
    by_hex = dict(zip(frame["hex"], frame["los"], strict=True))
    assert by_hex["1,1"] == "clear" and by_hex["4,1"] == "blocked" and by_hex["0,0"] == "clear"
    assert answer.png[:8] == b"\x89PNG\r\n\x1a\n" and frame.attrs == {}
    assert len(frame) == 15 and frame.loc[frame["hex"] == "3,1", "elevation"].item() == 1


def test_scenarios_lists_the_shipped_ones():
    res = run("assault", "scenarios", "--format", "json")
    assert res.exit_code == 0, res.output
    rows = {r["id"]: r for r in json.loads(res.output)["scenarios"]}
    assert {"infantry-training", "vehicle-training", "crossroads"} <= set(rows)
    it = rows["infantry-training"]
    assert it["turns"] == 6 and it["edition"] == "v1" and it["map"] == "12x9 flat"
    assert it["sides"] == "german (blue), soviet (red)"
    assert it["file"] == "scenarios/assault/infantry-training.scenario.toml"
    assert list(scenarios_answer().frame().columns) == ["id", "name", "turns", "sides", "map", "edition", "file"]


def test_check_ok_and_errors(tmp_path, mini):
    res = run("assault", "check", "infantry-training")
    assert res.exit_code == 0
    # issue 43: ok, then what the file sets up, as toi check summarises (infantry-training.scenario.toml:
    # a 12 x 9 map, 6 turns, objectives 6,3 and 6,5; three units a side; german must hold both,
    # soviet one of them; a draw when neither wins)
    lines = res.output.splitlines()
    assert lines[0].endswith(": ok")
    assert lines[1] == "Infantry Training: 12 x 9 map, 6 turns, objectives: 6,3 (wooden house), 6,5 (stone house)"
    assert lines[2] == "  german (blue): 3 units at the start; wins by: hold 6,3 and 6,5 (at the end)"
    assert lines[3] == "  soviet (red): 3 units at the start; wins by: hold 1 objective (at the end)"
    assert lines[4] == "  if neither side wins: draw"
    obj = json.loads(run("assault", "check", "infantry-training", "--format", "json").output)
    assert obj["summary"]["turns"] == 6 and obj["summary"]["sides"]["german"]["at_start"] == 3
    bad = tmp_path / "bad.scenario.toml"
    bad.write_text(MINIMAL.replace('"....."', '"...."').replace('"h" = "hill"', '"h" = "hil"')
                   + '[[objectives]]\nhex = "9,9"\n')
    res = run("assault", "check", bad)
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert any("map.rows[2]" in line and "has 4 hexes" in line for line in lines)
    assert any("map.legend.h" in line and "unknown terrain 'hil'" in line for line in lines)
    assert any("objectives[0].hex" in line and "off the map" in line for line in lines)
    assert lines[-1].endswith("3 errors, 0 warnings")
    res = run("assault", "check", bad, "--format", "json")
    obj = json.loads(res.output)
    assert res.exit_code == 2 and obj["errors"] == 3 and not obj["ok"]
    assert {p["key"] for p in obj["problems"]} == {"map.rows[2]", "map.legend.h", "objectives[0].hex"}
    checked = check_answer(bad)
    assert (checked.errors, checked.ok, len(checked.frame())) == (3, False, 3)   # the three problems above


def test_check_unknown_unit_id(tmp_path):
    p = tmp_path / "u.scenario.toml"
    p.write_text(MINIMAL + '''turns = 3
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "tiger"
hex = "0,0"
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "rifles-41"
hex = "4,2"
'''.replace("turns = 3\n", ""))
    text = p.read_text().replace('name = "mini"', 'name = "mini"\nturns = 3')
    p.write_text(text)
    res = run("assault", "check", p)
    assert res.exit_code == 2
    assert "sides.german.units[0].unit: unknown unit 'tiger'" in res.output


def test_help_shows_examples():
    for cmd in ("los", "map", "scenarios", "check"):
        res = run("assault", cmd, "--help")
        assert res.exit_code == 0 and "Examples:" in res.output
