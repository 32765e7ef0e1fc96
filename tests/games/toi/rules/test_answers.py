"""Tide of Iron's answers as values (issue 42, item 4): frozen, their JSON and their table
(no attrs bag) renderings of the fields."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simulator.engine.core.answers import Method
from simulator.games.toi.questions.odds import fire_from_strengths


def test_fire_answer_renders_its_fields():
    # 5 black dice at close range (hit on 4-6: 1/2 each) against no defence: binomial(5, 1/2)
    f = fire_from_strengths(5, 0, "close", mode="suppressive", target="squad:4")
    assert f.how == Method("exact") and (f.attack_strength, f.defence_strength, f.range) == (5, 0, "close")
    assert (f.mode, f.kind, f.unaffected, f.wire_roll) == ("suppressive", "ranged", (), None)
    df = f.frame()
    assert df.attrs == {} and df["hits"].tolist() == [0, 1, 2, 3, 4, 5]
    assert df["p"].to_numpy() == pytest.approx(np.array([1, 5, 10, 10, 5, 1]) / 32)   # C(5, k) / 2^5
    js = f.to_json()
    assert js["method"] == "exact" and js["unaffected"] == [] and js["wire_roll"] is None
    assert [h["hits"] for h in js["hits"]] == [0, 1, 2, 3, 4, 5]
    # each state of the target in the JSON is its summary key: normal on 0 hits = 1/32
    states = {s["state"]: s["p"] for s in js["states"]}
    assert states == {st["state"]: f.summary[st["key"]] for st in f.states}
    assert f.summary["p_normal"] == pytest.approx(1 / 32)
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.target = "tank"  # type: ignore[misc]


def test_a_monte_carlo_fire_answer_keeps_its_note_in_the_field_not_in_attrs():
    # issue 42, item 4: the note on outcomes never seen is the answer's ``unseen`` field;
    # the table carries no attrs by Monte Carlo either
    f = fire_from_strengths(5, 0, "close", target="squad:4", trials=2000, seed=3, workers=1)
    assert f.how == Method("monte-carlo", 2000, 3)
    assert f.frame().attrs == {} and f.unseen and "never seen" in f.unseen
    assert f.frame()["hits"].tolist() == [0, 1, 2, 3, 4, 5]     # every count 0..5 listed, seen or not
