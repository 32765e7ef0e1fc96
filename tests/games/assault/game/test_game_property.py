"""No game ends in an illegal state: invariants checked after every action of random
and greedy games (hypothesis draws the scenario, the players and the seed). Crossroads
brings the support phase (chapter 7), transport, overruns and every kind of force."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st_

from simulator.engine.players.interface import DEFAULT_PARAMS, choose, make_work
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.game import State
from simulator.games.assault.game.state import (
    AUX_OBJ,
    CC_NONE,
    ELIMINATED,
    FALLBACK,
    G_SUB,
    G_TURN,
    HX_OCC,
    HX_SMOKE,
    ONMAP,
    SUB_CC_PICK,
    SUB_FALLBACK,
    SUB_MOVE,
    SUB_REACT,
    U_CC,
    U_DMG,
    U_FACE,
    U_HEX,
    U_IMMOB,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TYPE,
    VEHICLE,
)
from simulator.games.assault.game.tables import P_CC_STACK, P_TURNS, UT_KIND, UT_STR
from tests.games.assault.game.test_players import SKIRMISH

_GAMES: dict = {}


def game(name: str, tmp_path_factory=None):
    if name not in _GAMES:
        if name == "skirmish":
            path = tmp_path_factory.mktemp("prop") / "skirmish.scenario.toml"
            path.write_text(SKIRMISH)
            _GAMES[name] = compile_game(path)
        elif name == "infantry-training-v2":
            _GAMES[name] = compile_game("infantry-training", edition="v2")
        else:
            _GAMES[name] = compile_game(name)
    return _GAMES[name]


def check_invariants(st: State) -> None:
    g, s = st.game, st.s
    t = g.tables
    occ = np.zeros((g.cm.n, 2), dtype=int)
    for u in range(g.n_units):
        status = int(s.u[u, U_ST])
        strength = int(t.ut[int(s.u[u, U_TYPE]), UT_STR])
        if status == ONMAP:
            h = int(s.u[u, U_HEX])
            assert 0 <= h < g.cm.n
            occ[h, int(s.u[u, U_SIDE])] += 1
            assert 0 <= int(s.u[u, U_DMG]) < strength            # rulings #5: damage < strength
            assert int(s.u[u, U_MORALE]) in (0, 1, 2)
            kind = int(t.ut[int(s.u[u, U_TYPE]), UT_KIND])
            if kind == VEHICLE:                                    # 9.10: a vehicle faces a vertex
                assert 0 <= int(s.u[u, U_FACE]) < 6 and int(s.u[u, U_IMMOB]) in (0, 1)
            else:
                assert int(s.u[u, U_IMMOB]) == 0                   # 13.1: only vehicles are immobilised
        elif status == ELIMINATED:
            assert int(s.u[u, U_HEX]) == -1                       # off the map
            assert int(s.u[u, U_CC]) == CC_NONE
    assert np.array_equal(occ, s.hx[:, HX_OCC:HX_OCC + 2])       # the occupancy table is right
    fighting = np.zeros(g.cm.n, dtype=bool)
    for u in range(g.n_units):
        if int(s.u[u, U_ST]) == ONMAP and int(s.u[u, U_CC]) != CC_NONE:
            fighting[int(s.u[u, U_HEX])] = True
    limit = int(t.p[P_CC_STACK])
    sub = int(s.g[G_SUB])
    # a move may cross friends (9.0), a fallback or a cleared close combat may be under way
    transient = sub in (SUB_MOVE, SUB_REACT, SUB_FALLBACK, SUB_CC_PICK) and not st.is_terminal()
    for h in range(g.cm.n):
        if fighting[h]:
            assert occ[h].max() <= limit                          # 9.0 item 3
            continue
        if transient:
            continue
        assert occ[h].max() <= 1, (h, occ[h])                     # 9.0: one unit a hex
        if occ[h, 0] and occ[h, 1]:                                # only a unit about to fall back
            assert any(int(s.u[u, U_MORALE]) == FALLBACK for u in range(g.n_units)
                       if int(s.u[u, U_ST]) == ONMAP and int(s.u[u, U_HEX]) == h)
    for k in range(len(g.scenario.objective_list)):
        assert int(s.aux[AUX_OBJ, k]) in (-1, 0, 1)
    assert 0 <= int(s.g[G_TURN]) <= int(t.p[P_TURNS])
    assert 0 <= int(s.hx[:, HX_SMOKE].min()) and int(s.hx[:, HX_SMOKE].max()) <= 4    # 7.5: four a hex


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=st_.sampled_from(["skirmish", "infantry-training", "infantry-training-v2", "vehicle-training",
                                   "crossroads"]),
       players=st_.sampled_from([(0, 0), (1, 0), (0, 1), (1, 1)]),
       seed=st_.integers(0, 2**31))
# found by this test: a suppressed unit chose to withdraw from a revised close combat
# (12.1.6.1) and then stayed in the hex with its enemy
@example(scenario="infantry-training-v2", players=(1, 0), seed=20357)
@example(scenario="crossroads", players=(0, 1), seed=1)     # the support phase is always played
@example(scenario="crossroads", players=(1, 0), seed=2)
# found by this test (session 23): a truck suppressed by reaction fire on the StuG's hex
# stayed there when its rifles' emergency disembark took the hex it came from (rulings S4)
@example(scenario="crossroads", players=(1, 0), seed=511801)
def test_no_game_ends_in_an_illegal_state(tmp_path_factory, scenario, players, seed):
    g = game(scenario, tmp_path_factory)
    st = State(g, seed=seed, log=False)
    w = make_work(g)
    steps = 0
    while not st.is_terminal():
        side = st.current_player()
        a = int(choose(st.s, g.tables, np.int64(players[side]), np.int64(side), w, DEFAULT_PARAMS))
        assert a in st.legal_actions()
        st.apply_action(a)
        check_invariants(st)
        steps += 1
        assert steps < 5000
    assert st.is_terminal() and st.current_player() == -4
