"""The two editions on the same fight: different numbers, and the explanation names the
rules that make the difference."""

import pytest

from simulator.games.assault.questions.melee import compare_editions, melee
from simulator.games.assault.rules.melee.situation import MeleeSituation

RIFLES, TANK_HUNTERS = "soviet/rifles-41", "german/tank-hunters-41"


def test_same_matchup_different_numbers_and_the_rules_named():
    s = MeleeSituation(terrain="brush", defender_activated=True)
    frame = compare_editions(RIFLES, TANK_HUNTERS, s)
    r = frame.to_json()
    v1, v2 = r["editions"]["v1"], r["editions"]["v2"]
    assert set(frame.table["edition"]) == {"v1", "v2"}
    assert frame.table.groupby("edition")["p"].sum().to_dict() == pytest.approx({"v1": 1.0, "v2": 1.0})
    assert (v1["edition"], v2["edition"]) == ("v1", "v2")
    for key, diff in r["difference"].items():
        assert diff == pytest.approx(v2["summary"][key] - v1["summary"][key])
    assert abs(r["difference"]["p_attacker_holds"]) > 1e-3 or abs(r["difference"]["p_neither_holds"]) > 1e-3
    assert abs(r["difference"]["mean_rounds"]) > 0.01
    # the entering unit's blue die (revised 12.1.3.2) is the round-one pool difference
    assert r["pools_differ"] == ["attacker_defence_pool"]
    assert r["round_one"]["attacker_defence_pool"] == {"v1": "Y", "v2": "YB"}
    rules = {d["rule"]: d for d in r["differing_rules"]}
    assert {"rounds", "adrenaline rush", "half strength", "terrain of the entering unit",
            "already-activated defender", "withdrawal"} <= set(rules)
    assert rules["adrenaline rush"]["sections"] == "12.7.2 / revised 12.1.5"
    assert "outflanked" not in rules and "support units" not in rules   # not part of this fight
    # Round one alone: the blue die is the only round-one difference, and it saves the attacker damage;
    # the defender's loss is the same (its pools are the same in both editions).
    first = r["first_round"]
    assert first["v1"] == {k: v1["single_round"]["summary"][k] for k in first["v1"]}
    assert first["difference"]["attacker_mean_damage"] < -0.01
    assert first["difference"]["defender_mean_damage"] == pytest.approx(0.0, abs=1e-12)


def test_the_suppressed_defender_is_where_the_editions_part_most():
    s = MeleeSituation(defender_suppressed=True)
    r = compare_editions(RIFLES, "german/rifles-41", s).to_json()
    assert r["editions"]["v1"]["summary"]["p_attacker_holds"] == 1.0     # 12.0: falls back at once
    assert r["editions"]["v2"]["summary"]["p_attacker_holds"] < 0.9      # revised: it stays and defends
    assert "suppressed defender" in {d["rule"] for d in r["differing_rules"]}


def test_edition_only_options_apply_to_their_edition_and_are_noted():
    s = MeleeSituation(support_attacker="soviet/heavy-rifles-41", wire=True)
    r = compare_editions(RIFLES, "german/rifles-41", s).to_json()
    v1, v2 = r["editions"]["v1"], r["editions"]["v2"]
    assert v2["attacker_rerolls"]["attack"] == 1 and v1["attacker_rerolls"]["attack"] == 0
    assert v2["attacker_attack_pool"] == "RG" and v1["attacker_attack_pool"] == "RGG"
    assert any("--support-attacker ignored in v1" in n for n in v1["notes"])
    assert {"support units", "wire or walls crossed"} <= {d["rule"] for d in r["differing_rules"]}


def test_adrenaline_rush_alone_changes_later_rounds():
    # An attacker whose only threat is suppression: in v1 the rush ignores one suppression in every
    # exchange; in v2 only in round one, so later rounds can make the defender fall back.
    v1 = melee("soviet/rifles-41", "german/rifles-41", MeleeSituation(terrain="road"), edition="v1",
               withdraw_policy="never").to_json()
    v2 = melee("soviet/rifles-41", "german/rifles-41", MeleeSituation(terrain="road"), edition="v2",
               withdraw_policy="never").to_json()
    assert v2["summary"]["p_defender_fell_back"] > v1["summary"]["p_defender_fell_back"]
    assert v1["later_round_pools"]["adrenaline"] == {"attacker_ignores": 1, "defender_ignores": 1}
    assert v2["later_round_pools"]["adrenaline"] == {"attacker_ignores": 0, "defender_ignores": 0}
