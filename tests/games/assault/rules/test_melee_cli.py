"""``lanchester assault melee``: the JSON contract, the other formats, --compare-editions
and one-line errors with exit status 2."""

import io
import json

import pandas as pd
import pytest
from click.testing import CliRunner

from simulator.cli import main

BASE = ["assault", "melee", "soviet/rifles-41", "german/tank-hunters-41", "--terrain", "brush",
        "--defender-activated"]


def run(*args):
    return CliRunner().invoke(main, list(args))


def ok(*args):
    res = run(*args)
    assert res.exit_code == 0, res.output
    return res.output


@pytest.mark.parametrize("edition", ["v1", "v2"])
def test_json_contract(edition):
    obj = json.loads(ok(*BASE, "--edition", edition, "--format", "json"))
    for key in ("edition", "attacker", "defender", "attacker_attack_pool", "attacker_defence_pool",
                "defender_attack_pool", "defender_defence_pool", "summary", "states", "method",
                "withdraw_policy", "max_rounds", "explain", "dice", "dice_status", "aid", "aid_status"):
        assert key in obj, key
    assert obj["edition"] == edition and obj["attacker"] == "soviet/rifles-41"
    for key in ("p_attacker_holds", "p_defender_holds", "p_both_eliminated", "p_unresolved", "mean_rounds"):
        assert key in obj["summary"], key
    s = obj["summary"]
    assert s["p_attacker_holds"] + s["p_defender_holds"] + s["p_neither_holds"] + s["p_unresolved"] == pytest.approx(1)
    assert sum(st["p"] for st in obj["states"]) == pytest.approx(1.0)
    st = obj["states"][0]
    assert set(st) >= {"outcome", "attacker", "defender", "p"}
    assert set(st["attacker"]) >= {"eliminated", "damage", "half_strength", "fallback", "withdrew", "status"}
    assert ("single_round" in obj) == (edition == "v1")
    if edition == "v1":
        assert obj["single_round"]["summary"]["mean_rounds"] == pytest.approx(1.0)
        assert obj["mode"] == "renew-until-resolved" and obj["max_rounds"] == 10


def test_monte_carlo_json_is_reproducible():
    args = (*BASE, "--edition", "v2", "--trials", "20000", "--seed", "4", "--format", "json")
    a = json.loads(ok(*args, "--workers", "1"))
    b = json.loads(ok(*args, "--workers", "2"))
    assert a["method"] == "monte-carlo" and a["trials"] == 20000 and a["seed"] == 4
    assert a["summary"] == b["summary"] and "se" in a["summary"] and "se" in a["states"][0]


def test_table_explain_csv_and_out(tmp_path):
    table = ok(*BASE, "--explain")
    assert "How the pools were built" in table and "12.8.1" in table and "Single round" in table
    assert "reconstructed" in table
    frame = pd.read_csv(io.StringIO(ok(*BASE, "--format", "csv")))
    assert {"outcome", "attacker_damage", "defender_status", "p"} <= set(frame.columns)
    out = tmp_path / "melee.json"
    ok(*BASE, "--edition", "v2", "--format", "json", "--out", str(out))
    assert json.loads(out.read_text())["edition"] == "v2"


def test_compare_editions_explains_the_difference():
    text = ok(*BASE, "--compare-editions")
    assert "Why the numbers differ" in text and "adrenaline rush (12.7.2 / revised 12.1.5)" in text
    assert "v2 - v1" in text
    obj = json.loads(ok(*BASE, "--compare-editions", "--format", "json"))
    assert obj["edition"] == ["v1", "v2"]
    assert set(obj["editions"]) == {"v1", "v2"} and "first_round" in obj and "difference" in obj
    assert obj["editions"]["v2"]["attacker_defence_pool"] == "YB"
    assert {d["rule"] for d in obj["differing_rules"]} >= {"rounds", "adrenaline rush"}
    frame = pd.read_csv(io.StringIO(ok(*BASE, "--compare-editions", "--format", "csv")))
    assert set(frame["edition"]) == {"v1", "v2"}


def test_options_reach_the_rules():
    obj = json.loads(ok("assault", "melee", "soviet/rifles-41", "german/hmg-34", "--edition", "v2",
                        "--fortification", "bunker", "--terrain", "road", "--support-attacker",
                        "soviet/heavy-rifles-41", "--wire", "--attacker-fast", "--withdraw-policy", "never,at-half",
                        "--max-rounds", "5", "--format", "json"))
    assert obj["defender_defence_pool"] == "RRYY" and obj["attacker_attack_pool"] == "RG"
    assert obj["attacker_defence_pool"] == "Y"            # Y + B, the fast action loses the B
    assert obj["attacker_rerolls"] == {"attack": 1, "defence": 1}
    assert obj["withdraw_policy"] == {"attacker": "never", "defender": "at-half"} and obj["max_rounds"] == 5
    assert obj["fortification"]["name"] == "bunker"


@pytest.mark.parametrize("args,needle", [
    (["german/mortar-81mm", "soviet/rifles-41"], "artillery cannot initiate"),
    (["soviet/rifles-41", "german/nobody"], "unknown unit"),
    (["soviet/rifles-41", "german/rifles-41", "--outflanked"], "cannot be outflanked"),
    (["soviet/rifles-41", "german/rifles-41", "--support-attacker", "soviet/rifles-41"], "edition v2"),
    (["soviet/rifles-41", "german/rifles-41", "--edition", "v2", "--reinforce-attacker", "soviet/rifles-41"],
     "edition v1"),
    (["soviet/rifles-41", "german/rifles-41", "--withdraw-policy", "flee"], "unknown withdrawal policy"),
    (["soviet/rifles-41", "german/rifles-41", "--max-rounds", "0"], "--max-rounds"),
    (["soviet/rifles-41", "german/rifles-41", "--edition", "v2", "--fortification", "moat"], "unknown fortification"),
    (["soviet/rifles-41", "german/rifles-41", "--terrain", "lava"], "unknown terrain"),
    (["soviet/rifles-41", "german/rifles-41", "--edition", "v3"], "--edition"),
    (["soviet/rifles-41", "german/rifles-41", "--defender-damage", "4"], "damage must be"),
    (["soviet/rifles-41", "german/rifles-41", "--exact", "--trials", "10"], "cannot be used together"),
    (["soviet/rifles-41", "soviet/heavy-rifles-41"], "attacker's side"),
])
def test_bad_input_is_one_line_exit_2(args, needle):
    res = run("assault", "melee", *args)
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in res.output


def test_a_reinforced_first_turn_is_labelled_honestly_and_explain_shows_the_reinforcement():
    """Issue 43, item 6: with --reinforce-attacker the first-turn block counted the
    reinforcement's exchange as a round (a mean above 1) under "Single round"; --explain
    left the reinforcing unit's pools out."""
    from simulator.games.assault.cli.melee import first_turn_title
    from simulator.games.assault.questions.melee import reinforcement_steps
    from simulator.games.assault.rules.aid import load_aid
    from simulator.games.assault.rules.cards import load_units
    from simulator.games.assault.rules.melee.situation import MeleeSituation, build_cast

    units = load_units()
    s = MeleeSituation(reinforce_attacker="soviet/heavy-rifles-41")
    cast = build_cast("v1", units["soviet/rifles-41"], units["german/rifles-41"], s, load_aid(), units)
    steps = reinforcement_steps(cast)
    rounds = {st["round"] for st in steps}
    assert rounds == {"soviet/heavy-rifles-41 reinforces (12.2)", "soviet/heavy-rifles-41, renewed rounds"}
    sides = {st["side"] for st in steps}
    assert "attacker's reinforcement attack" in sides and "defender attack" in sides
    # the reinforcement attacks with its own card: soviet.toml gives heavy-rifles-41 close_combat
    # vs_infantry = "RYG" (the attacker's rifles-41: "RGG"); it entered the hex, so no terrain die
    # defends it (12.7.1): its defence is its card's "Y" alone
    entering = [st for st in steps if st["round"].endswith("(12.2)")]
    attack = [st["pool"] for st in entering if st["side"] == "attacker's reinforcement attack"]
    defence = [st["pool"] for st in entering if st["side"] == "attacker's reinforcement defence"]
    assert attack[-1] == "RYG" and defence[-1] == "Y"
    assert reinforcement_steps(build_cast("v1", units["soviet/rifles-41"], units["german/rifles-41"],
                                          MeleeSituation(), load_aid(), units)) == []
    assert first_turn_title({"attacker": "a", "defender": "d"}) == "Single round (the first turn only)"
    title = first_turn_title({"attacker": "a", "attacker_reinforcement": "soviet/heavy-rifles-41"})
    assert "Single round" not in title and "soviet/heavy-rifles-41 reinforcing" in title and "12.2" in title
