"""Issue 16's checks: the invariants of :mod:`simulator.games.assault.game.invariants` hold after
every action of whole games of every shipped scenario, both editions, random and greedy
players (a fixed batch); the replay's JSON carries the final position."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.game import State
from simulator.games.assault.game.invariants import CHECKS, check_games, lone_cc_unit, marked_but_free, twice_in_a_turn
from simulator.games.assault.game.state import ACT_FAST, CC_ACTIVE, CC_NONE, ONMAP, U_ACT, U_CC, U_DONE, U_ST

# (scenario, games per edition and pairing): a fixed batch, about 40 s warm
BATCH = {"vehicle-training": 150, "infantry-training": 60, "crossroads": 12}


@pytest.mark.parametrize("name", sorted(BATCH))
@pytest.mark.parametrize("edition", ["v1", "v2"])
def test_invariants_hold_in_whole_games(name, edition):
    game = compile_game(name, edition=edition)
    n = BATCH[name]
    found = None
    for players in (("greedy", "greedy"), ("random", "random"), ("greedy", "random")):
        found = check_games(game, n, seed=3, players=players, out=found)
    assert found.games == 3 * n and found.actions > 10 * found.games
    assert found.total == 0, (found.found, found.examples)


def test_the_checks_see_a_lone_close_combat_and_a_double_activation(skirmish):
    """The checks can fail: a unit marked in close combat with no enemy in its hex, a
    unit activated twice in a turn, and a unit with an action marker still free to act,
    are found."""
    st = State(skirmish, seed=1)
    while st.current_player() >= 0 and not any(int(st.s.u[u, U_ST]) == ONMAP for u in range(skirmish.n_units)):
        st.apply_action(st.legal_actions()[0])                  # (set-up)
    u = next(u for u in range(skirmish.n_units) if int(st.s.u[u, U_ST]) == ONMAP)
    assert lone_cc_unit(st.s) == -1
    st.s.u[u, U_CC] = CC_ACTIVE
    assert lone_cc_unit(st.s) == u
    import numpy as np

    from simulator.games.assault.game.events import EV_ACTIVATE, EV_REACT
    ev = np.array([[EV_ACTIVATE, 2, 0, 5, 0, 0, 0, 0], [EV_REACT, 2, 5, 1, 0, 0, 0, 0],
                   [EV_ACTIVATE, 3, 0, 5, 0, 0, 0, 0]])
    assert twice_in_a_turn(ev) == [(2, 5)]
    # a unit with a fast-action marker (the exhaustion of close combat, 12.6) that may still act
    st.s.u[u, U_CC] = CC_NONE
    assert marked_but_free(st.s) == -1
    st.s.u[u, U_ACT] = ACT_FAST
    st.s.u[u, U_DONE] = 0
    assert marked_but_free(st.s) == u
    st.s.u[u, U_DONE] = 1
    assert marked_but_free(st.s) == -1
    assert len(CHECKS) == 5


def test_fault_1_game_is_fixed_and_the_replay_json_has_the_final_position():
    """vehicle-training seed 3 game 1 (issue 16): the T-26 dies in a close combat the
    Germans reinforced; the winners are no longer left "in close combat"."""
    res = CliRunner().invoke(main, ["assault", "replay", "vehicle-training", "--seed", "3", "--game", "1",
                                    "--format", "json"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.output)
    final = obj["final"]
    game = compile_game("vehicle-training")
    assert len(final) == game.n_units
    assert {"side", "unit", "hex", "strength", "status", "in_close_combat"} <= set(final[0])
    for u in final:
        assert (u["hex"] is None) == (u["status"] != "on map")
        if u["status"] == "eliminated":
            assert u["strength"] == 0
    sides_in_cc = {}
    for u in final:
        if u["in_close_combat"]:
            sides_in_cc.setdefault(u["hex"], set()).add(u["side"])
    assert all(len(s) == 2 for s in sides_in_cc.values())
    if all(u["status"] != "on map" for u in final if u["side"] == "soviet"):
        assert obj["winner"] == "german"
