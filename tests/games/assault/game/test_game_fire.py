"""Ranged fire in the engine (chapter 10) is the ranged-fire module's rules: a fire in a
game gives the same distribution of results as the exact calculator ``fire()`` for the
same situation (the pools come from ``fire_pools``, the damage from ``after_fire``)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from simulator.games.assault.game.events import EV_NOFIRE, EV_RESULT
from simulator.games.assault.game.game import State
from simulator.games.assault.game.state import FALLBACK, SUPPRESSED
from simulator.games.assault.questions.fire import fire
from simulator.games.assault.rules.pools import FireSituation
from tests.games.assault.game.test_game_setup import act, actions, tiny, unit

BODY = """
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
hex = "0,1"
[sides.german.victory]
eliminate = 1
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "heavy-rifles-41"
hex = "3,1"
[sides.soviet.victory]
eliminate = 1
"""


def engine_outcomes(g, n: int) -> Counter:
    r = unit(g, "german", "rifles-41")
    hr = unit(g, "soviet", "heavy-rifles-41")
    out = Counter()
    for seed in range(n):
        st = State(g, seed=seed, log=True)
        act(st, "fire", r, hr)
        # the fire's result as the engine applied it (the turn may have ended since: 6.5)
        res = [e for e in st.events() if e[0] == EV_RESULT and e[2] == hr]
        nofire = [e for e in st.events() if e[0] == EV_NOFIRE]
        assert len(res) == 1 and not nofire
        _, _, _, elim, dmg, morale, _, _ = (int(x) for x in res[0])
        if elim:
            out[("eliminated",)] += 1
        else:
            out[(dmg, morale == SUPPRESSED, morale == FALLBACK)] += 1
    return out


def exact_outcomes(situation: FireSituation) -> dict:
    frame = fire("german/rifles-41", "soviet/heavy-rifles-41", situation)
    out: dict = {}
    for r in frame.table.to_dict("records"):
        key = ("eliminated",) if r["eliminated"] else (int(r["damage"]), bool(r["suppressed"]), bool(r["fallback"]))
        out[key] = out.get(key, 0.0) + r["p"]
    return out


def assert_matches(counts: Counter, exact: dict, n: int) -> None:
    for key in set(counts) | set(exact):
        p = exact.get(key, 0.0)
        q = counts.get(key, 0) / n
        se = max(np.sqrt(p * (1 - p) / n), 1 / n)
        assert abs(q - p) <= 4 * se, (key, q, p)


def test_fire_in_the_open_matches_the_exact_calculator(tmp_path):
    g = tiny(tmp_path, BODY)
    n = 3000
    counts = engine_outcomes(g, n)
    exact = exact_outcomes(FireSituation(range=3))          # 11.0: RY against YG in the open
    assert_matches(counts, exact, n)
    assert len(counts) >= 4                                  # a real spread of results


def test_fire_into_forest_through_brush_matches_the_exact_calculator(tmp_path):
    # target in forest (GY, spotting 4+), LOS through one brush hex (+G, 10.9.2)
    g = tiny(tmp_path, BODY, rows=(".......", "..bf...", "......."))
    n = 3000
    counts = engine_outcomes(g, n)
    exact = exact_outcomes(FireSituation(range=3, terrain="forest", hindrances=("brush",)))
    assert_matches(counts, exact, n)


def test_no_fire_through_blocking_terrain(tmp_path):
    g = tiny(tmp_path, BODY, rows=(".......", ".F.....", "......."))
    st = State(g, seed=1)
    assert not actions(st, "fire")                           # 10.2: blocked LOS
    assert not actions(st, "fire and move")


def test_out_of_range_no_fire(tmp_path):
    body = BODY.replace('hex = "3,1"', 'hex = "9,1"')
    g = tiny(tmp_path, body, rows=("..........",) * 3)
    st = State(g, seed=1)
    assert not actions(st, "fire")                           # 10.1: rifles reach 6 hexes
