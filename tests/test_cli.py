"""The command line: the odds JSON contract, formats, and one-line errors."""

import io
import json
import subprocess
import sys

import pandas as pd
import pytest
from click.testing import CliRunner

from simulator.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_odds_json_contract_exact():
    res = run("assault", "odds", "RY", "YG", "--format", "json")
    assert res.exit_code == 0, res.output
    obj = json.loads(res.output)
    for key in ("method", "trials", "seed", "dice", "dice_status", "attack", "defence",
                "outcomes", "summary"):
        assert key in obj
    assert obj["method"] == "exact" and obj["trials"] is None
    assert obj["dice"] == "assault-default" and obj["dice_status"] == "reconstructed"
    assert obj["attack"] == "RY" and obj["defence"] == "YG"
    assert set(obj["outcomes"][0]) == {"crit", "hit", "supp", "p"}
    assert sum(o["p"] for o in obj["outcomes"]) == pytest.approx(1.0)
    for key in ("p_any", "mean_crit", "mean_hit", "mean_damage", "p_supp", "p_damage_at_least"):
        assert key in obj["summary"]
    assert obj["summary"]["p_damage_at_least"][0] == pytest.approx(1.0)


def test_odds_json_contract_monte_carlo_and_normalised_pools():
    res = run("assault", "odds", "G + 2R", "-", "--trials", "20000", "--seed", "5",
              "--format", "json", "--workers", "1")
    obj = json.loads(res.output)
    assert obj["method"] == "monte-carlo" and obj["trials"] == 20000 and obj["seed"] == 5
    assert obj["attack"] == "RRG" and obj["defence"] == "-"
    assert all("se" in o for o in obj["outcomes"])
    again = json.loads(run("assault", "odds", "G + 2R", "-", "--trials", "20000", "--seed", "5",
                           "--format", "json", "--workers", "2").output)
    assert again["outcomes"] == obj["outcomes"]


def test_odds_csv_and_table_and_out_file(tmp_path):
    res = run("assault", "odds", "RY", "YG", "--format", "csv")
    frame = pd.read_csv(io.StringIO(res.output))
    assert list(frame.columns) == ["crit", "hit", "supp", "p"]
    table = run("assault", "odds", "RY", "YG").output
    assert "P(at least)" in table and "95% (lucky)" in table and "reconstructed" in table
    out = tmp_path / "odds.json"
    res = run("assault", "odds", "RY", "YG", "--format", "json", "--out", str(out))
    assert res.exit_code == 0
    assert json.loads(out.read_text())["attack"] == "RY"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_dice_file_option_swaps_the_dice(tmp_path):
    path = tmp_path / "d.toml"
    path.write_text('name = "all-hits"\nstatus = "test"\n[dice]\n'
                    'red = ["hit","hit","hit","hit","hit","hit"]\n')
    obj = json.loads(run("assault", "odds", "RR", "-", "--dice", str(path), "--format", "json").output)
    assert obj["dice"] == "all-hits"
    assert obj["outcomes"] == [{"crit": 0, "hit": 2, "supp": 0, "p": 1.0}]


@pytest.mark.parametrize("args,needle", [
    (["assault", "odds", "RX", "YG"], "ATTACK: unknown die 'X'"),
    (["assault", "odds", "RY", "YQ"], "DEFENCE: unknown die 'Q'"),
    (["assault", "odds", "RY"], "Missing argument 'DEFENCE'"),
    (["assault", "odds", "RY", "YG", "--trials", "0"], "--trials"),
    (["assault", "odds", "RY", "YG", "--exact", "--trials", "10"], "cannot be used together"),
    (["assault", "odds", "RY", "YG", "--doubles", "most"], "--doubles"),
    (["assault", "odds", "RY", "YG", "--dice", "/no/such/dice.toml"], "/no/such/dice.toml: file not found"),
    (["assault", "oods", "RY", "YG"], "No such command"),
])
def test_bad_input_is_one_line_exit_2_no_traceback(args, needle):
    proc = subprocess.run([sys.executable, "-m", "simulator", *args], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert needle in lines[0]
    assert "Traceback" not in proc.stderr


def test_help_shows_an_example():
    res = run("assault", "odds", "--help")
    assert res.exit_code == 0 and "Examples:" in res.output and "lanchester assault odds RY YG" in res.output
