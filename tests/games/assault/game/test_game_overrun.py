"""Overruns in the engine (9.10.3, readings C7, S18): a tracked armoured vehicle stepping
into a frontal hex held by enemy artillery takes the gun's last shot (the pools of
``fire_pools(..., FireSituation(overrun=True))``) and overruns the gun unless it is
stopped; the chance is that of the exact calculator ``fire()`` (``p_artillery_overrun``)."""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pytest

from simulator.engine.core.batch import run_games
from simulator.engine.players.interface import DEFAULT_PARAMS, PLAYER_NAMES, choose, make_work
from simulator.games.assault.game import events as ev
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.game import State as _State
from simulator.games.assault.game.replay import describe_events, replay_game
from simulator.games.assault.game.state import (
    ACT_FAST,
    CC_NONE,
    ELIMINATED,
    FALLBACK,
    G_MP,
    ONMAP,
    STEADY,
    SUPPRESSED,
    U_ACT,
    U_CC,
    U_HEX,
    U_IMMOB,
    U_MORALE,
    U_ST,
    decode,
)
from simulator.games.assault.game.tables import P_OVERRUN
from simulator.games.assault.game.turn import apply_action
from simulator.games.assault.questions.fire import fire
from simulator.games.assault.rules.pools import FireSituation
from tests.games.assault.game.test_game_setup import act, actions, hex_of, unit


def State(g, *args, **kw):
    """A new game past its support phase: the guns here could turn in it (6.3, 7.6;
    issue 16), these tests start in the action phase (both pass; no dice rolled)."""
    from simulator.games.assault.game.state import G_PHASE, PH_SUPPORT
    st = _State(g, *args, **kw)
    while int(st.s.g[G_PHASE]) == PH_SUPPORT and not st.is_terminal():
        act(st, "pass")
    return st

HEAD = """\
name = "overrun"
turns = 3
close_combat_edition = "v1"
first_setup = "german"
initiative = "german"
[optional_rules]
command_points = false
[map]
orientation = "flat"
rows = {rows}
[map.legend]
"." = "clear"
"f" = "forest"
"""

BODY = """
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "{tank}"
hex = "1,1"
facing = "E"
[sides.german.victory]
eliminate = 1
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "at-gun-45mm"
hex = "2,1"
facing = "W"
[sides.soviet.victory]
eliminate = 1
"""


def ogame(tmp_path, rows=(".......",) * 3, tank="pz-iif"):
    path = tmp_path / "overrun.scenario.toml"
    path.write_text(HEAD.format(rows=list(rows).__repr__().replace("'", '"')) + textwrap.dedent(
        BODY.format(tank=tank)))
    return compile_game(path)


def step_into(g, st, tank, to="2,1", frm="1,1") -> None:
    act(st, "move", tank)
    d = next(d for d in range(6) if int(g.tables.side6[hex_of(g, frm), d, 0]) == hex_of(g, to))
    act(st, "step", tank, d)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return ogame(tmp_path_factory.mktemp("overrun"))


def test_overrun_is_played_not_refused(game):
    assert int(game.tables.p[P_OVERRUN]) == 1


def test_overrun_matches_the_exact_last_shot(game):
    """P(gun overrun) over 2000 games against ``fire(..., overrun=True)`` (exact), four
    standard errors; the tank enters only when the gun is overrun."""
    g = game
    tank, gun = unit(g, "german", "pz-iif"), unit(g, "soviet", "at-gun-45mm")
    n = 2000
    overrun = 0
    for seed in range(n):
        st = State(g, seed=seed, log=False)
        step_into(g, st, tank)
        assert int(st.s.u[tank, U_ACT]) == ACT_FAST or int(st.s.u[tank, U_ST]) == ELIMINATED
        if int(st.s.u[gun, U_ST]) == ELIMINATED:
            overrun += 1
            assert int(st.s.u[tank, U_HEX]) == hex_of(g, "2,1")
            assert int(st.s.u[tank, U_MORALE]) == STEADY and int(st.s.u[tank, U_IMMOB]) == 0
        else:
            assert int(st.s.u[gun, U_ST]) == ONMAP and int(st.s.u[gun, U_CC]) == CC_NONE    # not a close combat
            stopped = (int(st.s.u[tank, U_ST]) == ELIMINATED or int(st.s.u[tank, U_IMMOB]) == 1
                       or int(st.s.u[tank, U_MORALE]) in (SUPPRESSED, FALLBACK))
            assert stopped
            if int(st.s.u[tank, U_ST]) == ONMAP and int(st.s.u[tank, U_MORALE]) != FALLBACK:
                assert int(st.s.u[tank, U_HEX]) == hex_of(g, "1,1")       # stays where it was
    exact = fire("soviet/at-gun-45mm", "german/pz-iif", FireSituation(range=0, overrun=True))
    p = exact.summary["p_artillery_overrun"]
    assert 0.05 < p < 0.95
    assert abs(overrun / n - p) <= 4 * math.sqrt(p * (1 - p) / n), (overrun / n, p)


def test_overrun_is_a_fast_action_without_the_extra_point(game):
    g = game
    tank, gun = unit(g, "german", "pz-iif"), unit(g, "soviet", "at-gun-45mm")
    st = State(g, seed=0)
    st.s.u[gun, U_MORALE] = SUPPRESSED                    # 9.10.3: no last shot when suppressed
    step_into(g, st, tank)
    assert int(st.s.u[gun, U_ST]) == ELIMINATED and int(st.s.u[tank, U_HEX]) == hex_of(g, "2,1")
    assert int(st.s.u[tank, U_ACT]) == ACT_FAST
    assert int(st.s.g[G_MP]) == 5 - 1                     # normal allowance, clear hex cost 1
    assert not any(int(e[0]) == ev.EV_ROLL for e in st.events())
    texts = [r["text"] for r in describe_events(st) if r["event"] == ev.EV_OVERRUN]
    assert texts == [f"  {g.unit_label(tank)} (german) overruns {g.unit_label(gun)} (soviet) in 2,1 (9.10.3)"]


def test_last_shot_is_logged_and_a_stopped_tank_is_named(game):
    g = game
    tank, gun = unit(g, "german", "pz-iif"), unit(g, "soviet", "at-gun-45mm")
    seen = set()
    for seed in range(60):
        st = State(g, seed=seed)
        step_into(g, st, tank)
        rolls = [e for e in st.events() if int(e[0]) == ev.EV_ROLL]
        assert len(rolls) == 1 and (int(rolls[0][2]), int(rolls[0][3])) == (gun, tank)   # the last shot
        texts = [r["text"] for r in describe_events(st) if r["event"] == ev.EV_OVERRUN]
        assert len(texts) == 1
        seen.add("stopped by the last shot" in texts[0])
    assert seen == {True, False}


def test_no_overrun_into_terrain_that_damages_vehicles(tmp_path):
    """9.10.3: not into terrain that may damage vehicles (forest, 9.10.1): there the
    tank's entry is a close combat (12.0, reading S18)."""
    g = ogame(tmp_path, rows=(".......", "..f....", "......."))
    tank = unit(g, "german", "pz-iif")
    st = State(g, seed=4)
    step_into(g, st, tank)
    kinds = {int(e[0]) for e in st.events()}
    assert ev.EV_OVERRUN not in kinds and ev.EV_CC in kinds


def test_a_vehicle_with_tank_riders_does_not_overrun(tmp_path):
    """9.10.3: not while transporting infantry (and 12.10: a loaded vehicle never enters
    an enemy hex), so the gun's hex is no legal step."""
    path = tmp_path / "riders.scenario.toml"
    path.write_text(HEAD.format(rows=list((".......",) * 3).__repr__().replace("'", '"')) + textwrap.dedent(
        BODY.format(tank="pz-iif")).replace('facing = "E"', 'facing = "E"\ncarrying = [{ unit = "rifles-41" }]', 1))
    g = compile_game(path)
    tank = unit(g, "german", "pz-iif")
    st = State(g, seed=1)
    act(st, "move", tank)
    steps = {int(g.tables.side6[hex_of(g, "1,1"), decode(a)[2], 0]) for a in actions(st, "step")}
    assert hex_of(g, "2,2") in steps and hex_of(g, "2,1") not in steps


def test_wheeled_vehicles_do_not_overrun(tmp_path):
    g = ogame(tmp_path, tank="truck")
    assert int(g.tables.p[P_OVERRUN]) == 0


def test_players_play_overruns(game):
    """Every player handles the new step: whole games end legally. Greedy overruns a
    suppressed gun (no last shot: a sure gain, S18) rather than fire at it."""
    for players in (("random", "random"), ("greedy", "greedy"), ("lookahead", "random")):
        n = 40 if players[0] == "lookahead" else 200
        res = run_games(game, games=n, seed=3, players=players, workers=1)
        assert res.tally.games == n
    g = game
    tank, gun = unit(g, "german", "pz-iif"), unit(g, "soviet", "at-gun-45mm")
    greedy = np.int64(PLAYER_NAMES.index("greedy"))
    for seed in range(10):
        w = make_work(g)                         # the players' memory is a game's
        st = State(g, seed=seed)
        st.s.u[gun, U_MORALE] = SUPPRESSED
        for _ in range(2):
            a = choose(st.s, g.tables, greedy, np.int64(0), w, DEFAULT_PARAMS)
            apply_action(st.s, g.tables, np.int64(a))
        assert int(st.s.u[gun, U_ST]) == ELIMINATED and int(st.s.u[tank, U_HEX]) == hex_of(g, "2,1")
    overruns = 0
    for k in range(30):                                    # random players: the step is legal and played
        st = replay_game(g, 3, k, ("random", "random"))
        overruns += any(int(e[0]) == ev.EV_OVERRUN for e in st.events())
    assert overruns > 0
