"""The worked examples of close combat as deterministic replays: 12.11 of the first
edition and 12.6 of the revised chapter, their pools and the rolls they describe."""

import shutil

import numpy as np
import pytest

from simulator.games.assault.questions.melee import melee
from simulator.games.assault.rules.aid import load_aid
from simulator.games.assault.rules.cards import DEFAULT_UNITS_DIR, load_units
from simulator.games.assault.rules.melee.damage import IN_HEX, WITHDREW
from simulator.games.assault.rules.melee.fight import F_STATUS, check_withdrawals, field, set_unit
from simulator.games.assault.rules.melee.replay import resolve_round
from simulator.games.assault.rules.melee.situation import (
    A1,
    D1,
    V1_INITIATE,
    V1_RENEW,
    V2_FIRST,
    V2_LATER,
    MeleeSituation,
    build_cast,
    round_pools,
)
from simulator.games.assault.rules.melee.tables import compile_melee
from simulator.run.errors import InputError

AID = load_aid()
UNITS = load_units()
RIFLES_41, TANK_HUNTERS = "soviet/rifles-41", "german/tank-hunters-41"
EXAMPLE_V1 = MeleeSituation(terrain="brush", defender_activated=True, attacker_fast=True)

# Revised 12.6 uses US Rifles 43 and a German Heavy MG 42, which the shipped roster
# does not have: a small unit file with the values the example states.
REVISED_UNITS = """
side = "us"
status = "test"
source = "revised 12.6"

[units.rifles-43]
name = "Rifles 43"
type = "infantry"
class = "standard infantry"
strength = 4
movement = 2
movement_type = "foot"
ranges = [{ min = 1, max = 2, vs_vehicle = "B", vs_infantry = "RYG" }]
close_combat = { vs_vehicle = "G", vs_infantry = "RYG" }
defence = "Y"
points = 35
source = "revised 12.6 steps 5 and 6"
"""
HMG_42 = """
side = "german"
status = "test"
source = "revised 12.6"

[units.hmg-42]
name = "Heavy MG 42"
type = "infantry"
class = "heavy machine gun"
strength = 3
movement = 2
movement_type = "foot"
ranges = [{ min = 1, max = 4, vs_vehicle = "B", vs_infantry = "RYY" }]
close_combat = { vs_vehicle = "-", vs_infantry = "YYG" }
defence = "Y"
abilities = { slow = true }
points = 45
source = "revised 12.6 steps 5 and 6, 12.4 situation 2"
"""


@pytest.fixture(scope="module")
def revised_units(tmp_path_factory):
    d = tmp_path_factory.mktemp("units")
    for f in DEFAULT_UNITS_DIR.glob("*.toml"):
        shutil.copy(f, d / f.name)
    (d / "us.toml").write_text(REVISED_UNITS)
    (d / "german-revised.toml").write_text(HMG_42)
    return d


# 12.6: the bunker hex gives no primary-terrain die (road); the HMG fired at the Rifles
# (activated); both sides have an adjacent Rifles 43 as support unit.
EXAMPLE_V2 = MeleeSituation(terrain="road", fortification="bunker", defender_activated=True,
                            support_attacker="us/rifles-43", support_defender="german/rifles-41")


def cast_v1():
    return build_cast("v1", UNITS[RIFLES_41], UNITS[TANK_HUNTERS], EXAMPLE_V1, AID, UNITS)


def cast_v2(units_dir):
    units = load_units(units_dir)
    return build_cast("v2", units["us/rifles-43"], units["german/hmg-42"], EXAMPLE_V2, AID, units)


def test_12_11_pools_of_the_initiated_close_combat():
    a_on_d, d_on_a = round_pools(cast_v1(), V1_INITIATE)
    assert "".join(a_on_d.attack) == "RGG"          # step 5: one red and two green
    assert "".join(d_on_a.defence) == "Y"           # step 4: card yellow, no terrain (12.7.1)
    assert "".join(d_on_a.attack) == "YY"           # step 5: two yellow
    assert "".join(a_on_d.defence) == "YG"          # step 4: card yellow + brush
    assert (a_on_d.doubles, d_on_a.doubles) == ("all", "strongest")   # 12.8.1, full strength
    assert a_on_d.adrenaline == d_on_a.adrenaline == 1                # 12.7.2
    sections = {s.section for s in d_on_a.steps + a_on_d.steps}
    assert {"12.7.1", "12.8.1", "12.7.2"} <= sections


def test_12_11_replayed_from_the_roll_it_describes():
    # Step 6: the Rifles' attack is all cancelled; two damage points get through to them.
    r = resolve_round(cast_v1(), V1_INITIATE, attacker_attack="R:crit G:hit G:supp",
                      defender_defence="Y:crit+hit G:supp", defender_attack="Y:hit Y:hit",
                      attacker_defence="Y:-")
    assert r["attacker_on_defender"]["uncancelled"] == {"crit": 0, "hit": 0, "supp": 0}
    assert r["defender_on_attacker"]["uncancelled"] == {"crit": 0, "hit": 2, "supp": 0}
    # Step 7: two damage points flip the four-strength Rifles to half strength.
    assert r["attacker"] == {"status": "in hex", "damage": 2, "half_strength": True, "immobilised": False,
                             "fallback": False}
    # Step 8: neither eliminated nor suppressed: both stay in the close-combat hex.
    assert r["defender"]["status"] == "in hex" and r["defender"]["damage"] == 0


def test_12_11_the_already_activated_penalty_counts_a_double_once():
    # 12.8.1: the Tank Hunters' crit+hit counts as its strongest symbol only.
    r = resolve_round(cast_v1(), V1_INITIATE, attacker_attack="R:- G:- G:-", defender_defence="Y:- G:-",
                      defender_attack="Y:crit+hit Y:-", attacker_defence="Y:-")
    assert r["defender_on_attacker"]["attack_symbols"] == {"crit": 1, "hit": 0, "supp": 0}
    assert r["attacker"]["damage"] == 2              # 12.5: the crit takes it to half strength


def test_12_11_renewed_next_turn_both_get_the_strongest_terrain_die():
    a_on_d, d_on_a = round_pools(cast_v1(), V1_RENEW)
    assert "".join(d_on_a.defence) == "YG" and "".join(a_on_d.defence) == "YG"
    assert d_on_a.doubles == "all"                  # 12.8.1 applies to the initiation only


def test_12_11_the_single_round_contains_the_example_outcome():
    frame = melee(RIFLES_41, TANK_HUNTERS, EXAMPLE_V1, edition="v1")
    states = frame.to_json()["single_round"]["states"]
    example = [s for s in states if s["outcome"] == "unresolved" and s["attacker"]["damage"] == 2
               and s["defender"]["damage"] == 0]
    assert len(example) == 1 and 0 < example[0]["p"] < 1
    assert sum(s["p"] for s in states) == pytest.approx(1.0)


def test_12_6_pools_with_bunker_support_and_activated_defender(revised_units):
    a_on_d, d_on_a = round_pools(cast_v2(revised_units), V2_FIRST)
    assert "".join(d_on_a.defence) == "YB"          # step 5: yellow and blue (12.1.3.2)
    assert "".join(a_on_d.defence) == "RRYY"        # step 5: "two red and two yellow" (bunker front 2RY)
    assert "".join(a_on_d.attack) == "RYG"          # step 6: one red, one yellow, one green
    assert "".join(d_on_a.attack) == "YYG"          # step 6: two yellow and one green
    assert d_on_a.doubles == "strongest"            # already activated (12.1.2.2)
    # Step 4: each supported side re-rolls one attack and one defence die in round one.
    assert (a_on_d.attack_rerolls, a_on_d.defence_rerolls) == (1, 1)
    assert (d_on_a.attack_rerolls, d_on_a.defence_rerolls) == (1, 1)


def test_12_6_later_rounds_give_both_the_bunkers_strongest_die(revised_units):
    a_on_d, d_on_a = round_pools(cast_v2(revised_units), V2_LATER)
    assert "".join(d_on_a.defence) == "RY" and "".join(a_on_d.defence) == "RY"   # step 5: red
    assert a_on_d.attack_rerolls == d_on_a.defence_rerolls == 0
    assert a_on_d.adrenaline == 0                   # revised 12.1.5: initial round only


def test_12_6_replayed_and_the_us_rifles_withdraw(revised_units):
    cast = cast_v2(revised_units)
    # Step 7: the US attack is all cancelled; one damage point and one critical hit get through
    # (the activated HMG's crit+hit counts as its crit only, 12.1.2.2).
    r = resolve_round(cast, V2_FIRST, attacker_attack="R:hit Y:hit G:supp",
                      defender_defence="R:hit R:hit Y:supp Y:-", defender_attack="Y:crit+hit Y:hit G:-",
                      attacker_defence="Y:- B:-")
    assert r["attacker_on_defender"]["uncancelled"] == {"crit": 0, "hit": 0, "supp": 0}
    assert r["defender_on_attacker"]["uncancelled"] == {"crit": 1, "hit": 1, "supp": 0}
    # Step 8: the damage point, then the crit's "two further damage points": 3 damage, flipped to
    # half strength with one damage marker (rulings CC2).
    assert r["attacker"]["damage"] == 3 and r["attacker"]["half_strength"]
    assert r["defender"]["damage"] == 0
    # Step 9: the default withdrawal policy withdraws the half-strength Rifles (rulings #10).
    cm = compile_melee(cast, max_rounds=50, policies=("half-strength", "half-strength"))
    S = cm.state.copy()
    set_unit(S, A1, IN_HEX, 2, 0, 0)
    assert check_withdrawals(S, cm.units, cm.params)
    assert field(S, A1, F_STATUS) == WITHDREW and field(S, D1, F_STATUS) == IN_HEX
    # Under "never" nobody leaves.
    cm = compile_melee(cast, max_rounds=50, policies=("never", "never"))
    S = cm.state.copy()
    set_unit(S, A1, IN_HEX, 2, 0, 0)
    assert not check_withdrawals(S, cm.units, cm.params)


def test_replay_rejects_a_roll_that_does_not_match_the_pool():
    with pytest.raises(InputError, match="the pool is RGG"):
        resolve_round(cast_v1(), V1_INITIATE, attacker_attack="R:- G:-", defender_defence="Y:- G:-",
                      defender_attack="Y:- Y:-", attacker_defence="Y:-")


def test_12_6_as_a_question(revised_units):
    frame = melee("us/rifles-43", "german/hmg-42", EXAMPLE_V2, edition="v2", units_dir=revised_units)
    a = frame.to_json()
    assert (a["attacker_attack_pool"], a["attacker_defence_pool"]) == ("RYG", "YB")
    assert (a["defender_attack_pool"], a["defender_defence_pool"]) == ("YYG", "RRYY")
    assert a["fortification"]["name"] == "bunker"
    assert np.isclose(sum(s["p"] for s in a["states"]), 1.0)
    # Against two red dice in a bunker the assault rarely takes the hex.
    assert a["summary"]["p_defender_holds"] > a["summary"]["p_attacker_holds"]
