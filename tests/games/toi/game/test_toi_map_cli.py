"""``lanchester toi check | map | los`` (issue 19): a scenario file's problems, its map as
a PNG, line of sight with its reasons (001 Line of sight; rulings T23)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from click.testing import CliRunner

from simulator.cli import main
from simulator.games.toi.game.board import Board, los_answer
from simulator.games.toi.game.scenario import SCENARIO_DIR, load_scenario

from .util import TINY


def run(*args):
    return CliRunner().invoke(main, ["toi", *args])


def broken(tmp_path: Path, old: str, new: str) -> Path:
    text = (SCENARIO_DIR / "two-farms.scenario.toml").read_text()
    assert old in text
    path = tmp_path / "broken.scenario.toml"
    path.write_text(text.replace(old, new, 1))
    return path


# --- check ------------------------------------------------------------------------------

def test_check_passes_a_shipped_scenario():
    res = run("check", "two-farms")
    assert res.exit_code == 0, res.output
    assert res.output.count("\n") == 1 and ": ok: Two Farms: 12 x 10 map, 5 rounds" in res.output
    obj = json.loads(run("check", "ridge-line", "--format", "json").output)
    assert obj["ok"] and obj["errors"] == 0 and obj["problems"] == [] and "2 vehicles" in obj["summary"]


def test_check_names_the_file_and_the_key_of_each_problem(tmp_path):
    path = broken(tmp_path, "rounds = 5 ", "rounds = 0 ")
    res = run("check", str(path))
    assert res.exit_code == 2
    assert res.output.strip() == f"error: {path}: rounds: Input should be greater than or equal to 1 (got 0)"
    assert "Traceback" not in res.output
    # every problem of the file's shape, one line each
    path = broken(tmp_path, 'initiative = "american"', 'initiative = "american"\nturns = 4\nrounds = 0')
    path.write_text(path.read_text().replace("rounds = 5 ", "", 1))
    lines = run("check", str(path)).output.strip().splitlines()
    assert len(lines) == 2 and any(": turns: unknown key" in x for x in lines) and any(": rounds: " in x for x in lines)
    # the loader's checks: the key of the first problem
    path = broken(tmp_path, 'hex = "9,4"', 'hex = "19,4"')
    res = run("check", str(path))
    assert res.exit_code == 2 and res.output.strip() == f"error: {path}: objectives[1].hex: '19,4' is not on the map"
    res = run("check", "no-such-scenario")
    assert res.exit_code == 2 and "no Tide of Iron scenario 'no-such-scenario'" in res.output


def test_check_warns_of_zone_hexes_off_the_map(tmp_path):
    path = broken(tmp_path, 'zones.south = ["0-5,8-9"]', 'zones.south = ["0-5,8-10"]')
    res = run("check", str(path))
    assert res.exit_code == 0
    assert re.search(r"warning: .*: sides\.american\.zones\.south: 6 hexes off the 12 x 10 map, ignored", res.output)
    assert res.output.strip().splitlines()[-1].endswith("2 objectives, 0 markers")


# --- map --------------------------------------------------------------------------------

def _png_size(path: Path) -> tuple[int, int]:
    from PIL import Image
    with Image.open(io.BytesIO(path.read_bytes())) as im:
        im.verify()
    with Image.open(path) as im:
        return im.size


def test_map_writes_a_png(tmp_path):
    out = tmp_path / "farms.png"
    res = run("map", "two-farms", "--out", str(out))
    assert res.exit_code == 0, res.output
    w, h = _png_size(out)
    assert w > 500 and h > 400 and out.stat().st_size > 20_000
    out2 = tmp_path / "ridge-los.png"
    assert run("map", "ridge-line", "--los-from", "1,4", "--out", str(out2)).exit_code == 0
    assert _png_size(out2)[0] > 500 and out2.read_bytes() != out.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["farms.png", "ridge-los.png"]


def test_map_writes_nothing_on_an_error(tmp_path):
    out = tmp_path / "map.png"
    res = run("map", "two-farms", "--los-from", "40,2", "--out", str(out))
    assert res.exit_code == 2 and "--los-from: '40,2' is not on the map" in res.output
    res = run("map", str(broken(tmp_path, 'hex = "9,4"', 'hex = "19,4"')), "--out", str(out))
    assert res.exit_code == 2 and "objectives[1].hex" in res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.scenario.toml"]      # no picture, no temporary


# --- los --------------------------------------------------------------------------------

def test_los_on_the_tiny_map():
    """Woods at 2,1 block a line through it; a line along the side of 2,1 and 2,2 is
    blocked only when both hexes block (001 Line of sight; rulings T23)."""
    s = load_scenario(str(TINY))
    blocked = los_answer(s, "0,1", "4,1")
    assert not blocked["sees"] and blocked["blocking"] == ["2,1"] and blocked["reasons"][0]["hexes"] == ["2,1"]
    assert los_answer(s, "0,0", "5,0")["sees"]
    side = los_answer(s, "1,1", "3,1")
    assert side["sees"] and side["blocking"] == [] and {"2,1", "2,2"} <= set(side["crossed"])
    assert los_answer(s, "2,0", "2,1")["sees"]                 # adjacent units always see each other
    res = run("los", str(TINY), "0,1", "4,1")
    assert res.exit_code == 0 and "los: blocked" in res.output and "blocked by 2,1: blocking terrain" in res.output
    obj = json.loads(run("los", str(TINY), "0,0", "5,0", "--format", "json").output)
    assert obj["los"] == "clear" and obj["range"] == 5 and obj["crossed"] == ["1,0", "2,0", "3,0", "4,0"]
    res = run("los", str(TINY), "0,0", "9,9")
    assert res.exit_code == 2 and "TO: '9,9' is not on the map" in res.output


def test_los_reasons_agree_with_the_game_table():
    """The reasons come from the same function as the table the rules read."""
    for name in ("two-farms", "ridge-line"):
        s = load_scenario(name)
        b = Board(s)
        for a in range(0, s.grid.n, 7):
            for c in range(s.grid.n):
                ans = los_answer(s, s.grid.names[a], s.grid.names[c])
                assert ans["sees"] == b.sees(a, c) and bool(ans["reasons"]) == (not ans["sees"])
    hill = los_answer(load_scenario("two-farms"), "0,6", "5,1")
    assert not hill["sees"] and hill["reasons"] == [{"reason": "a level 1 hill", "hexes": ["1,5"]}]
