"""``lanchester toi``: JSON contract, formats, help with examples, errors, the seed's questions."""

import io
import json

import pandas as pd
import pytest
from click.testing import CliRunner

from simulator.games.toi.cli import toi
from simulator.run.errors import InputError


def run(*args):
    return CliRunner().invoke(toi, list(args))


def ok_json(*args):
    res = run(*args, "--format", "json")
    assert res.exit_code == 0, (res.output, res.exception)
    return json.loads(res.output)


def test_fire_strength_mode_json_contract():
    obj = ok_json("fire", "--attack-strength", "6", "--defence-strength", "2", "--range", "normal",
                  "--mode", "suppressive", "--target", "squad:4")
    for key in ("method", "attack_strength", "defence_strength", "range", "hits", "summary", "states", "target"):
        assert key in obj
    assert (obj["method"], obj["attack_strength"], obj["defence_strength"], obj["range"]) == ("exact", 6, 2, "normal")
    assert set(obj["hits"][0]) == {"hits", "p"} and sum(h["p"] for h in obj["hits"]) == pytest.approx(1)
    for key in ("mean_hits", "p_pinned", "p_disrupted", "p_routed", "p_destroyed"):
        assert key in obj["summary"]


def test_fire_unit_mode_and_monte_carlo_carry_se_and_are_worker_independent():
    args = ["fire", "--attacker", "sherman", "--supporter", "squad:3regular:anti-tank:dist=2", "--target", "panzer_iv",
            "--distance", "3", "--trials", "30000", "--seed", "2"]
    one = ok_json(*args, "--workers", "1")
    two = ok_json(*args, "--workers", "2")
    assert one["hits"] == two["hits"] and one["method"] == "monte-carlo" and one["seed"] == 2
    assert all("se" in h for h in one["hits"]) and "p_destroyed" in one["summary"]["se"]
    assert one["attack_strength"] == 8 + 3 and one["defence_strength"] == 4
    assert [c["role"] for c in one["contributions"]] == ["lead", "support"]


def test_fire_table_and_csv():
    res = run("fire", "--attacker", "squad:2elite+2regular", "--target", "squad:4regular:woods", "--distance", "3")
    assert res.exit_code == 0 and "P(exactly)" in res.output and "woods: +2 cover" in res.output
    frame = pd.read_csv(io.StringIO(run("fire", "--attack-strength", "3", "--range", "close", "--format", "csv").output))
    assert list(frame.columns) == ["hits", "p"] and frame["p"].tolist() == pytest.approx([1 / 8, 3 / 8, 3 / 8, 1 / 8])


def test_assault_json_contract_and_out_file(tmp_path):
    out = tmp_path / "a.json"
    res = run("assault", "--attacker", "squad:4regular", "--supporter", "squad:4regular", "--defender",
              "squad:3regular:entrenchment", "--defender", "sdkfz_251", "--format", "json", "--out", str(out))
    assert res.exit_code == 0, res.output
    obj = json.loads(out.read_text())
    for key in ("method", "attack_strength", "defence_strength", "defender_strength", "range", "hits", "summary",
                "defenders", "outcomes"):
        assert key in obj
    for key in ("p_success", "mean_attacker_losses", "mean_defender_losses"):
        assert 0 <= obj["summary"][key]
    assert obj["range"] == "close" and obj["defence_strength"] == 2
    mc = ok_json("assault", "--attacker", "squad:4regular", "--defender", "squad:3regular", "--trials", "20000",
                 "--seed", "1", "--workers", "1")
    assert "se" in mc["summary"] and all("se" in h for h in mc["hits"])


def test_assault_replay_of_the_002_example():
    res = run("assault", "--attacker", "squad:4regular", "--supporter", "squad:4regular", "--supporter",
              "squad:3regular:fatigued", "--defender", "squad:3regular:entrenchment", "--defender", "sdkfz_251",
              "--replay", "6,5,4,4,6,5,2,1/5,3/4,6,1,2,3,1,2")
    assert res.exit_code == 0, res.output
    assert "attacker 5 hits, defender 2 hits: success" in res.output
    assert "takes 4 hit(s): destroyed" in res.output and "takes 1 hit(s): 2 left, normal, retreats" in res.output


def test_minefield_and_units_commands():
    obj = ok_json("minefield", "--target", "squad:4regular")
    assert obj["summary"]["mean_hits"] == pytest.approx(2.0) and obj["kind"] == "minefield"
    res = run("units")
    assert res.exit_code == 0 and "Tiger I" in res.output and "reconstructed" in res.output
    assert "4*" in res.output  # the reconstructed regular range
    obj = ok_json("units")
    assert obj["units"]["vehicles"]["tiger"]["armour"]["value"] == 6


@pytest.mark.parametrize("command", ["fire", "assault", "minefield", "units"])
def test_help_has_an_example(command):
    res = run(command, "--help")
    assert res.exit_code == 0 and "Examples:" in res.output and f"lanchester toi {command}" in res.output


@pytest.mark.parametrize("args,where,needle", [
    (["fire", "--attack-strength", "3"], "--range", "needs --attack-strength and --range"),
    (["fire", "--attacker", "sherman", "--attack-strength", "3", "--target", "tiger"], "--attack-strength", "not both"),
    (["fire", "--attacker", "sherman"], "--target", "needs a target"),
    (["fire", "--attack-strength", "3", "--range", "close", "--supporter", "sherman"], "--attacker", "unit mode"),
    (["fire", "--attack-strength", "999", "--range", "close"], "--attack-strength", "0 to 400"),
    (["fire", "--attack-strength", "3", "--range", "close", "--mode", "suppressive", "--target", "tiger"],
     "--mode", "immune"),
    (["fire", "--attacker", "squad:4regular", "--target", "squad:4", "--terrain", "jungle"], "--terrain", "unknown"),
    (["assault", "--attacker", "squad:4regular", "--defender", "tiger"], "--defender", "heavy vehicle"),
    (["assault", "--attacker", "squad:4regular", "--defender", "squad:2regular", "--replay", "6/5"], "--replay", "three"),
    (["fire", "--attack-strength", "3", "--range", "close", "--units-file", "/no/such.toml"], "/no/such.toml", "not found"),
])
def test_bad_input_raises_input_error_naming_the_option(args, where, needle):
    res = run(*args)
    assert isinstance(res.exception, InputError), res.output
    assert res.exception.where == where and needle in res.exception.problem


def test_errors_are_one_line_exit_2_through_the_main_command():
    from simulator.cli import main
    res = CliRunner().invoke(main, ["toi", "fire", "--attacker", "squad:4regular:sneaky", "--target", "squad:4"])
    assert res.exit_code == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "unknown tag 'sneaky'" in lines[0] and "Traceback" not in res.stderr


def test_exact_and_trials_together_is_a_usage_error():
    res = run("fire", "--attack-strength", "3", "--range", "close", "--exact", "--trials", "10")
    assert res.exit_code == 2 and "cannot be used together" in res.output


def test_area_attack_on_every_unit_of_a_hex():
    obj = ok_json("fire", "--attacker", "squad:2mortar", "--target", "squad:4regular:woods", "--target",
                  "sdkfz_251:woods", "--distance", "6")
    squad, halftrack = obj["targets"]
    assert obj["area"] and (squad["attack_strength"], squad["defence_strength"]) == (8, 2)
    assert (halftrack["attack_strength"], halftrack["defence_strength"]) == (4, 1 + 2)   # FPR vs vehicles, AV + woods
    assert obj["hits"] == squad["hits"]
    res = run("fire", "--attacker", "squad:4regular", "--target", "squad:4", "--target", "squad:3", "--distance", "2")
    assert isinstance(res.exception, InputError) and "area attack" in res.exception.problem


def _examples(command):
    text = run(*([command] if command else []), "--help").output
    block = text.split("Examples:")[1].split("Options:")[0].replace("\\\n", " ")
    return [line.split()[2:] for line in block.splitlines() if line.strip().startswith("lanchester toi")]


@pytest.mark.parametrize("command", [None, "fire", "assault", "minefield", "units"])
def test_every_help_example_runs(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                                # an example may write a file (toi map)
    for args in _examples(command):
        if "--trials" in args:
            args[args.index("--trials") + 1] = "20000"
        if "--games" in args:                                  # the run, not its size, is what is tested
            args[args.index("--games") + 1] = "200"
        res = run(*args)
        assert res.exit_code == 0, (args, res.output, res.exception)
