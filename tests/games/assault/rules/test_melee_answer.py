"""The close-combat answers as values (issue 42, item 4): ``melee`` returns a frozen
:class:`MeleeAnswer`, ``compare_editions`` an :class:`EditionsAnswer`; the JSON and the
CSV of ``lanchester assault melee`` are renderings of them."""

import dataclasses
import io
import json

import pandas as pd
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.games.assault.questions.answers import EditionsAnswer, MeleeAnswer
from simulator.games.assault.questions.melee import compare_editions, melee
from simulator.games.assault.rules.melee.situation import MeleeSituation

SOV, GER = "soviet/rifles-41", "german/rifles-41"

# The JSON's keys in the order the command printed them before the answer was a value
# (lanchester assault melee ... --edition v1 --format json, captured before the change):
# the question, the round-one pools spread at the top level, the sequence, the numbers,
# the data, then the optional blocks (a v1 answer has single_round).
V1_KEYS = ["edition", "edition_name", "method", "trials", "seed", "attacker", "defender", "units", "support",
           "attacker_attack_pool", "attacker_defence_pool", "defender_attack_pool", "defender_defence_pool",
           "attacker_doubles", "defender_doubles", "attacker_rerolls", "defender_rerolls", "adrenaline", "tracks",
           "later_round_pools", "mode", "max_rounds", "withdraw_policy", "summary", "states", "explain", "notes",
           "dice", "dice_status", "aid", "aid_status", "units_status", "single_round"]


def test_a_fallback_defender_is_eliminated_on_entry_json_and_csv():
    # 12.0: a defender in fallback is eliminated when entered: the attacker holds the hex
    # with certainty, no round is fought (mean rounds 0), the defender loses its whole
    # strength (german/rifles-41's card: strength = 4) and the attacker nothing
    answer = melee(SOV, GER, MeleeSituation(defender_fallback=True), edition="v1")
    assert isinstance(answer, MeleeAnswer)
    with pytest.raises(dataclasses.FrozenInstanceError):
        answer.edition = "v2"      # type: ignore[misc]
    j = answer.to_json()
    assert list(j) == V1_KEYS
    assert (j["method"], j["trials"], j["seed"]) == ("exact", None, None)
    s = j["summary"]
    assert (s["p_attacker_holds"], s["p_defender_holds"], s["p_unresolved"]) == (1.0, 0.0, 0.0)
    assert (s["mean_rounds"], s["attacker_mean_damage"], s["defender_mean_damage"]) == (0.0, 0.0, 4.0)
    assert [(st["outcome"], st["p"]) for st in j["states"]] == [("attacker holds", 1.0)]
    assert "run" not in j      # how a run was made is not part of the answer's JSON
    csv = pd.read_csv(io.StringIO(answer.frame().to_csv(index=False)))
    assert len(csv) == 1 and csv["p"].iloc[0] == 1.0 and bool(csv["defender_eliminated"].iloc[0])
    assert int(csv["defender_damage"].iloc[0]) == 4
    assert answer.frame().attrs == {}      # nothing rides in DataFrame.attrs


def test_the_command_prints_the_answers_json_and_csv():
    args = ["assault", "melee", SOV, GER, "--defender-fallback", "--edition", "v1"]
    out = CliRunner().invoke(main, [*args, "--format", "json"])
    assert out.exit_code == 0, out.output
    printed = json.loads(out.output)
    assert list(printed) == V1_KEYS and printed["summary"]["p_attacker_holds"] == 1.0
    csv = CliRunner().invoke(main, [*args, "--format", "csv"])
    assert csv.exit_code == 0
    rows = pd.read_csv(io.StringIO(csv.output))
    assert len(rows) == 1 and rows["outcome"].iloc[0] == "attacker holds" and rows["p"].iloc[0] == 1.0


def test_compare_editions_answer_differences_are_v2_minus_v1():
    both = compare_editions(SOV, GER, MeleeSituation(terrain="brush"))
    assert isinstance(both, EditionsAnswer)
    v1, v2 = both.editions["v1"], both.editions["v2"]
    for key, diff in both.difference.items():
        assert diff == pytest.approx(v2.summary[key] - v1.summary[key], abs=1e-15)
    j = both.to_json()
    assert list(j) == ["edition", "attacker", "defender", "editions", "difference", "first_round", "round_one",
                       "pools_differ", "differing_rules"]
    assert j["edition"] == ["v1", "v2"] and (j["attacker"], j["defender"]) == (SOV, GER)
    assert j["editions"]["v1"] == v1.to_json()
    # round_one pairs each pool across the editions; pools_differ lists those not equal
    for k, pair in j["round_one"].items():
        assert pair == {"v1": v1.round_one[k], "v2": v2.round_one[k]}
        assert (k in j["pools_differ"]) == (pair["v1"] != pair["v2"])
    # the table holds both editions' end states, each summing to 1
    sums = both.frame().groupby("edition")["p"].sum().to_dict()
    assert sums == pytest.approx({"v1": 1.0, "v2": 1.0})
