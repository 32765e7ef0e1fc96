"""The players: they only choose legal actions; greedy beats random from both seats by
a wide margin; the look-ahead player beats greedy from both seats.

The strength tests play a small symmetric scenario written here (two rifle squads a
side, one house in the middle to hold at the end), where every decision matters, and
the German seat of Infantry Training. Outcomes of two matches with the same seed are
paired game by game (common random numbers), so the difference of win rates has a
tight interval."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulator.engine.core.batch import run_games
from simulator.engine.players.interface import DEFAULT_PARAMS, GREEDY, LOOKAHEAD, RANDOM, choose, make_work
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.game import State

SKIRMISH = """\
name = "Skirmish"
turns = 4
close_combat_edition = "v1"
unit_rules = ["infantry"]
first_setup = "german"
initiative = "roll"
[map]
rows = ["..f...b..", ".....f...", "b...w...f", "...f.....", "..b...f.."]
[map.legend]
"." = "clear"
"f" = "forest"
"b" = "brush"
"w" = "wooden_building"
[[objectives]]
hex = "4,2"
[sides.german]
faction = "blue"
zones.west = ["0-1,0-4"]
[[sides.german.units]]
unit = "rifles-41"
count = 2
zone = "west"
[sides.german.victory]
hold = ["4,2"]
[sides.soviet]
faction = "red"
zones.east = ["7-8,0-4"]
[[sides.soviet.units]]
unit = "rifles-41"
count = 2
zone = "east"
[sides.soviet.victory]
hold = ["4,2"]
"""


@pytest.fixture(scope="module")
def skirmish(tmp_path_factory):
    path = tmp_path_factory.mktemp("skirmish") / "skirmish.scenario.toml"
    path.write_text(SKIRMISH)
    return compile_game(path)


def outcomes(game, players, n, seed=3):
    return run_games(game, games=n, seed=seed, players=players, workers=2).tally.outcome_array()


def paired(a: np.ndarray, b: np.ndarray, side: int) -> tuple[float, float]:
    """Difference in ``side``'s win rate (b minus a) and its standard error, game by game."""
    d = (b == side).astype(float) - (a == side).astype(float)
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(len(d)))


@pytest.mark.parametrize("kind", [RANDOM, GREEDY, LOOKAHEAD])
def test_players_choose_only_legal_actions(skirmish, kind):
    t = skirmish.tables
    for seed in range(2 if kind == LOOKAHEAD else 6):
        w = make_work(skirmish)                  # the players' memory is a game's
        st = State(skirmish, seed=seed, log=False)
        while not st.is_terminal():
            side = st.current_player()
            legal = st.legal_actions()
            a = int(choose(st.s, t, np.int64(kind), np.int64(side), w, DEFAULT_PARAMS))
            assert a in legal
            st.apply_action(a)


def test_greedy_beats_random_from_both_seats(skirmish):
    n = 1000
    rr = outcomes(skirmish, ("random", "random"), n)
    gr = outcomes(skirmish, ("greedy", "random"), n)
    rg = outcomes(skirmish, ("random", "greedy"), n)
    # measured: greedy wins 99.7% (German seat) and 99.8% (Soviet seat) against random;
    # random against random wins 1.1% and 0.6% (98% draws)
    assert (gr == 0).mean() > 0.9 and (rr == 0).mean() < 0.1
    assert (rg == 1).mean() > 0.9 and (rr == 1).mean() < 0.1


def test_greedy_beats_random_in_infantry_training():
    g = compile_game("infantry-training")
    n = 400
    rr = outcomes(g, ("random", "random"), n)
    gr = outcomes(g, ("greedy", "random"), n)
    # measured: the German attacker never takes both houses when it plays at random (0%);
    # greedy Germans win about 90% against random Soviets
    assert (rr == 0).mean() == 0.0 and (gr == 0).mean() > 0.75


def test_greedy_beats_random_in_vehicle_training():
    g = compile_game("vehicle-training")
    n = 300
    rr = outcomes(g, ("random", "random"), n)
    gr = outcomes(g, ("greedy", "random"), n)
    # measured: random German tanks take the hill road in 0.1% of the games (2,000),
    # greedy ones in 95.5% against random Soviets (400); the Soviet seat is at the
    # ceiling (the defender wins 99.9% at random against random, 100% when greedy)
    assert (rr == 0).mean() < 0.05 and (gr == 0).mean() > 0.85


def test_lookahead_beats_greedy_from_both_seats(skirmish):
    n = 600
    gg = outcomes(skirmish, ("greedy", "greedy"), n)
    lg = outcomes(skirmish, ("lookahead", "greedy"), n)
    gl = outcomes(skirmish, ("greedy", "lookahead"), n)
    d0, se0 = paired(gg, lg, 0)        # German seat: look-ahead minus greedy
    d1, se1 = paired(gg, gl, 1)        # Soviet seat
    # measured: about +12 points from each seat (German 55% -> 67%, Soviet 40% -> 50%)
    assert d0 > 0.04 and d1 > 0.04
    pooled = (d0 + d1) / 2
    se = math.sqrt(se0 ** 2 + se1 ** 2) / 2
    assert pooled - 4 * se > 0          # four standard errors above no gain
