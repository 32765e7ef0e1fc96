"""The fire answer as a value (issue 42, item 4): frozen, its JSON and its table (no attrs
bag) renderings of its fields, its numbers those of the exact rule kernel."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simulator.engine.core.answers import Method
from simulator.games.assault.questions.fire import fire
from simulator.games.assault.report.text import fire_json
from simulator.games.assault.rules.aid import load_aid
from simulator.games.assault.rules.cards import load_units
from simulator.games.assault.rules.damage import unpack_state
from simulator.games.assault.rules.dice import load_dice
from simulator.games.assault.rules.fire import state_distribution, target_of
from simulator.games.assault.rules.pools import FireSituation

RIFLES, HEAVY = "german/rifles-41", "soviet/heavy-rifles-41"
STATE_KEYS = ("eliminated", "damage", "half_strength", "suppressed", "fallback", "immobilised")


def test_fire_answer_is_a_value_whose_json_is_the_exact_kernel_mixed_over_the_spotting_roll():
    situation = FireSituation(range=3, terrain="forest")
    a = fire(RIFLES, HEAVY, situation)
    assert a.how == Method("exact") and (a.method, a.trials, a.seed) == ("exact", None, None)
    # forest: the spotting roll needs 4+ (test_failed_spotting_die_by_fire_status): faces 4, 5, 6 of 6
    assert a.spot_number == 4 and a.p_spotted == pytest.approx(3 / 6)
    # 11.0's pools RY vs YG, forest adds a Y (10.9.1); a failed spot adds the G of a firing unit (10.5)
    assert (a.attack_pool, a.defence_pool, a.defence_pool_unspotted) == ("RY", "YYG", "YYGG")
    dice, card = load_dice(), load_units()[HEAVY]
    t = target_of(card, situation, load_aid())
    # spotted half the time, unspotted the other half: the mixture of the two one-roll distributions
    want = (3 / 6 * state_distribution(tuple("RY"), tuple("YYG"), t, dice)
            + 3 / 6 * state_distribution(tuple("RY"), tuple("YYGG"), t, dice))
    js = fire_json(a)
    assert (js["method"], js["firer"], js["target"], js["range"]) == ("exact", RIFLES, HEAVY, 3)
    got = {tuple(s[k] for k in STATE_KEYS): s["p"] for s in js["states"]}
    assert len(got) == np.count_nonzero(want)          # an exact table lists its non-zero states
    for i in np.nonzero(want)[0]:
        st = unpack_state(int(i), card.strength, card.half_strength_threshold)
        assert got[tuple(st[k] for k in STATE_KEYS)] == pytest.approx(want[i], abs=1e-12)
    # the summary is of the same states: mean damage is the sum of p x damage
    mean = sum(p * k[1] for k, p in got.items())
    assert js["summary"]["mean_damage"] == pytest.approx(mean, abs=1e-12) == a.summary["mean_damage"]
    assert "se" not in js["summary"] and "unseen" not in js
    df = a.frame()
    assert df.attrs == {} and a["p"].sum() == pytest.approx(1.0) and "se" not in a
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.firer = RIFLES  # type: ignore[misc]


def test_fire_answer_by_monte_carlo_says_how_and_its_states_sum_to_one():
    a = fire(RIFLES, HEAVY, FireSituation(range=3), trials=20_000, seed=5, workers=1)
    assert a.how == Method("monte-carlo", 20_000, 5) and a.how.label == "Monte Carlo"
    js = fire_json(a)
    assert (js["method"], js["trials"], js["seed"]) == ("monte-carlo", 20_000, 5)
    assert sum(s["p"] for s in js["states"]) == pytest.approx(1.0)
    assert "se" in a and all("se" in s for s in js["states"]) and "se" in js["summary"]
    # within 4 standard errors of the exact answer's P(eliminated)
    exact = fire(RIFLES, HEAVY, FireSituation(range=3)).summary["p_eliminated"]
    assert abs(a.summary["p_eliminated"] - exact) <= 4 * a.summary["se"]["p_eliminated"] + 1e-12
