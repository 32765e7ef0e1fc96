"""Tide of Iron's Monte Carlo tables list every possible outcome (issue 39, item 7), and
the states table of a report carries its 95% interval (item 2)."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.games.toi.questions.odds import assault, fire, parse_target
from simulator.games.toi.report.bundles import fire_report
from simulator.games.toi.rules import exact
from simulator.games.toi.rules.assault import build_assault
from simulator.games.toi.rules.attack import from_strengths
from simulator.games.toi.rules.data import load_game
from simulator.games.toi.rules.units import parse_unit
from simulator.run.intervals import UNSEEN_LISTED
from simulator.run.stats import wilson_interval

GAME = load_game()


def bound(n: int) -> float:
    """Exact 95% upper bound of 0 seen in n: 1 - 0.025^(1/n)."""
    return 1.0 - 0.025 ** (1.0 / n)


def test_assault_lists_every_possible_pair_of_hits():
    setup = build_assault(GAME, parse_unit("squad:4regular", GAME), [], [parse_unit("squad:3regular", GAME)])
    mc = assault(setup, game=GAME, trials=30, seed=8, workers=1)
    joint = exact.assault_joint(setup.attack_strength, setup.cover, setup.defender_strength)
    possible = set(zip(*(x.tolist() for x in np.nonzero(joint)), strict=True))
    assert set(zip(mc["attacker_hits"].tolist(), mc["defender_hits"].tolist(), strict=True)) == possible
    unseen = mc.table[mc["p"] == 0]
    assert len(unseen) > 0 and np.allclose(unseen["hi"], bound(30)) and (unseen["lo"] == 0).all()
    assert mc["p"].sum() == pytest.approx(1.0) and mc.unseen == UNSEEN_LISTED


def test_fire_with_thick_armour_rules_out_the_top_count():
    # thick armour turns a failed red die into a success: with 2 red dice at least one
    # cancels, so 5 black successes give at most 4 hits; the row for 5 hits is listed (the
    # ladder lists 0..attack strength) with [0, 0], not an upper bound
    attack = from_strengths(5, 2, "normal", thick_armour=True, target=parse_target("tiger", GAME))
    mc = fire(attack, game=GAME, trials=50, seed=2, workers=1)
    assert mc["hits"].tolist() == [0, 1, 2, 3, 4, 5]
    top = mc.table.iloc[-1]
    assert top["p"] == 0 and (top["lo"], top["hi"]) == (0.0, 0.0)
    possible_unseen = mc.table[(mc["p"] == 0) & (mc["hits"] < 5)]
    assert np.allclose(possible_unseen["hi"], bound(50))


def test_states_csv_has_the_intervals_of_the_json():
    attack = from_strengths(6, 2, "normal", mode="suppressive", target=parse_target("squad:4", GAME))
    mc = fire(attack, game=GAME, trials=400, seed=5, workers=1)
    states = next(t.frame for t in fire_report([mc]).tables if t.name == "states")
    s = mc.summary
    assert list(states.columns) == ["series", "state", "p", "se", "lo", "hi"]
    for row, st in zip(states.to_dict("records"), mc.states, strict=True):
        assert [row["lo"], row["hi"]] == s["ci95"][st["key"]]
        k = round(row["p"] * 400)
        if 10 < k < 390:            # Wilson's away from the exact ends
            assert (row["lo"], row["hi"]) == pytest.approx(wilson_interval(k, 400))
    exact_states = next(t.frame for t in fire_report([fire(attack, game=GAME)]).tables if t.name == "states")
    assert exact_states["lo"].isna().all() and exact_states["hi"].isna().all()
