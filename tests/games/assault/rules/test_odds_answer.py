"""The odds answer as a value (issue 42, item 4): frozen, its JSON and its table (no attrs
bag) renderings of its fields."""

from __future__ import annotations

import dataclasses

import pytest

from simulator.engine.core.answers import Method
from simulator.games.assault.questions.odds import odds_outcomes


def test_odds_answer_is_a_value_with_its_json_and_table():
    a = odds_outcomes("B", "-")
    # the blue die against no dice (test_odds_exact): faces blank x4, hit x1, supp x1
    assert a.how == Method("exact") and a.how.label == "exact"
    assert (a.attack, a.defence, a.doubles, a.extra_supp) == ("B", "-", "all", 0)
    assert a.summary.mean_damage == pytest.approx(1 / 6)       # one hit face in six
    assert a.summary.p_any == pytest.approx(2 / 6)             # the hit face or the supp face
    assert a.summary.p_damage_at_least == pytest.approx((1.0, 1 / 6))
    js = a.to_json()
    assert (js["method"], js["trials"], js["seed"]) == ("exact", None, None)
    assert [(o["crit"], o["hit"], o["supp"]) for o in js["outcomes"]] == [(0, 0, 0), (0, 0, 1), (0, 1, 0)]
    assert js["summary"] == a.summary.to_json() and "se" not in js["summary"]
    df = a.frame()
    assert df.attrs == {} and df["p"].tolist() == pytest.approx([4 / 6, 1 / 6, 1 / 6])
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.attack = "R"  # type: ignore[misc]
