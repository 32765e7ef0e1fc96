"""Transport in the engine (9.11, 10.10, 12.10): units carried from the set-up, loading
and dismounting as actions, tank riders fired at apart from their vehicle, emergency
disembark when the carrier is hit; the chances are those of the ranged-fire module
(``transport.transport_event`` through the exact calculator ``fire()``)."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

from simulator.engine.players.interface import DEFAULT_PARAMS, PLAYER_NAMES, choose, make_work
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.game import State
from simulator.games.assault.game.state import (
    ACT_FAST,
    ACT_NONE,
    CARRIED,
    G_EMERG,
    ONMAP,
    U_ACT,
    U_CARRIER,
    U_DONE,
    U_HEX,
    U_ST,
    decode,
)
from simulator.games.assault.game.tables import P_N_ATK, UT_RIDEDEF
from simulator.games.assault.game.turn import apply_action
from simulator.games.assault.questions.fire import fire
from simulator.games.assault.rules.pools import FireSituation
from tests.games.assault.game.test_game_setup import act, actions, find, hex_of, unit

HEAD = """\
name = "transport"
turns = 3
close_combat_edition = "v1"
unit_rules = ["infantry", "vehicle"]
first_setup = "german"
initiative = "{initiative}"
[optional_rules]
command_points = false
[map]
orientation = "flat"
rows = [".......", ".......", "......."]
[map.legend]
"." = "clear"
"""


def tgame(tmp_path, german: str, soviet: str, initiative="german", german_victory="eliminate = 9",
          extra=""):
    path = tmp_path / "transport.scenario.toml"
    path.write_text(HEAD.format(initiative=initiative) + textwrap.dedent(f"""
        [sides.german]
        faction = "blue"
        {textwrap.dedent(german)}
        [sides.german.victory]
        {german_victory}
        [sides.soviet]
        faction = "red"
        {textwrap.dedent(soviet)}
        [sides.soviet.victory]
        eliminate = 9
        """) + extra)
    return compile_game(path)


TRUCK = """
[[sides.german.units]]
unit = "truck"
hex = "3,1"
facing = "E"
carrying = [{ unit = "rifles-41" }]
"""
FAR_RIFLES = """
[[sides.soviet.units]]
unit = "rifles-41"
hex = "6,2"
"""


def neighbours(g, h: str) -> set[str]:
    return {g.cm.names[int(x)] for x in g.tables.side6[hex_of(g, h), :, 0] if x >= 0}


def test_carried_at_set_up_and_dismount_as_an_activation(tmp_path):
    g = tgame(tmp_path, TRUCK, FAR_RIFLES)
    st = State(g, seed=1)
    truck, rifles = unit(g, "german", "truck"), unit(g, "german", "rifles-41")
    assert st.s.u[rifles, U_ST] == CARRIED and st.s.u[rifles, U_CARRIER] == truck
    assert st.s.hx[hex_of(g, "3,1"), 2] == 1                 # 9.11: passengers do not count for stacking
    got = {g.cm.names[int(g.tables.side6[hex_of(g, "3,1"), decode(a)[2], 0])]
           for a in actions(st, "dismount") if decode(a)[1] == rifles}
    assert got == neighbours(g, "3,1")                        # every empty adjacent hex (9.11.3)
    a = actions(st, "dismount")[0]
    st.apply_action(a)
    assert st.s.u[rifles, U_ST] == ONMAP and st.s.u[rifles, U_ACT] == ACT_FAST and st.s.u[rifles, U_DONE] == 1
    assert st.s.u[truck, U_DONE] == 0                         # the vehicle may still be activated
    assert g.cm.names[int(st.s.u[rifles, U_HEX])] in neighbours(g, "3,1")


def test_loading_ends_the_activation_and_the_passenger_rides_along(tmp_path):
    german = """
    [[sides.german.units]]
    unit = "truck"
    hex = "3,1"
    facing = "E"
    [[sides.german.units]]
    unit = "rifles-41"
    hex = "2,1"
    """
    g = tgame(tmp_path, german, FAR_RIFLES)
    st = State(g, seed=2)
    truck, rifles = unit(g, "german", "truck"), unit(g, "german", "rifles-41")
    act(st, "move", rifles)
    d = [int(x) for x in g.tables.side6[hex_of(g, "2,1"), :, 0]].index(hex_of(g, "3,1"))
    act(st, "step", rifles, d)
    while actions(st, "no reaction"):
        act(st, "no reaction")
    assert not actions(st, "stop")                             # 9.0: not on a friend
    act(st, "load", rifles, truck)
    assert st.s.u[rifles, U_ST] == CARRIED and st.s.u[rifles, U_ACT] == ACT_NONE
    assert st.s.hx[hex_of(g, "3,1"), 2] == 1
    # the soviet passes; the truck moves two hexes and its passenger is in its new hex
    act(st, "pass")
    act(st, "move", truck)
    for to in ("4,1", "5,1"):
        h = int(st.s.u[truck, U_HEX])
        d = [int(x) for x in g.tables.side6[h, :, 0]].index(hex_of(g, to))
        if not actions(st, "step"):
            break
        act(st, "step", truck, d)
        while actions(st, "no reaction"):
            act(st, "no reaction")
    act(st, "stop")
    assert st.s.u[rifles, U_ST] == CARRIED
    assert not actions(st, "dismount")                         # loaded this turn: its activation is over


def test_no_loading_over_capacity_or_onto_a_vehicle_in_fast_action(tmp_path):
    german = """
    [[sides.german.units]]
    unit = "pz-iif"
    hex = "3,1"
    facing = "E"
    carrying = [{ unit = "rifles-41" }]
    [[sides.german.units]]
    unit = "rifles-41"
    hex = "2,1"
    """
    g = tgame(tmp_path, german, FAR_RIFLES)
    st = State(g, seed=3)
    second = unit(g, "german", "rifles-41", 1) if g.slots[unit(g, "german", "rifles-41")].carrier >= 0 \
        else unit(g, "german", "rifles-41")
    act(st, "move", second)
    d = [int(x) for x in g.tables.side6[hex_of(g, "2,1"), :, 0]].index(hex_of(g, "3,1"))
    steps = [decode(a)[2] for a in actions(st, "step")]
    if d in steps:                                             # crossing is allowed, loading is not
        act(st, "step", second, d)
        while actions(st, "no reaction"):
            act(st, "no reaction")
    assert not actions(st, "load")                              # 9.11.1: four tank riders already


def test_rider_defence_is_the_card_dice_only(tmp_path):
    german = """
    [[sides.german.units]]
    unit = "pz-iif"
    hex = "3,1"
    facing = "E"
    carrying = [{ unit = "rifles-41" }]
    """
    g = tgame(tmp_path, german, FAR_RIFLES)
    ty = [i for i, t in enumerate(g.types) if t.card.id == "german/rifles-41"][0]
    pool = g.defence_pools[int(g.tables.ut[ty, UT_RIDEDEF]) - int(g.tables.p[P_N_ATK])]
    from simulator.games.assault.rules.pools import fire_pools
    units = g.scenario.units
    want = fire_pools(units["soviet/rifles-41"], units["german/rifles-41"],
                      FireSituation(range=2, riding_on="german/pz-iif"), g.scenario.aid, units=units).defence
    assert tuple(pool) == tuple(want)
    assert tuple(pool) == tuple(units["german/rifles-41"].defence_dice(None))


def _disembark_rate(g, firer: int, target: int, n: int, initiative_side_acts=True) -> float:
    hit = 0
    for seed in range(n):
        st = State(g, seed=seed, log=False)
        act(st, "fire", firer, target)
        if st.s.g[G_EMERG] > 0 or any(decode(a)[0] == 30 for a in st.legal_actions()):
            hit += 1
        elif any(st.s.u[p, U_ST] == ONMAP and st.s.u[p, U_CARRIER] < 0 and g.slots[p].carrier >= 0
                 and st.s.u[p, U_ACT] == ACT_FAST for p in range(g.n_units)):
            hit += 1
    return hit / n


def test_fire_at_a_loaded_truck_sends_the_passengers_out_as_the_exact_odds_say(tmp_path):
    soviet = """
    [[sides.soviet.units]]
    unit = "rifles-41"
    hex = "4,1"
    """
    g = tgame(tmp_path, TRUCK, soviet, initiative="soviet")
    n = 3000
    q = _disembark_rate(g, unit(g, "soviet", "rifles-41"), unit(g, "german", "truck"), n)
    exact = fire("soviet/rifles-41", "german/truck",
                 FireSituation(range=1, target_facing="front", passengers=(("german/rifles-41", 0),)))
    p = exact.p_emergency_disembark
    se = np.sqrt(p * (1 - p) / n)
    assert 0.05 < p < 0.95
    assert abs(q - p) <= 4 * se, (q, p)


def test_fire_at_tank_riders_makes_them_disembark_as_the_exact_odds_say(tmp_path):
    german = """
    [[sides.german.units]]
    unit = "pz-iif"
    hex = "3,1"
    facing = "E"
    carrying = [{ unit = "rifles-41" }]
    """
    soviet = """
    [[sides.soviet.units]]
    unit = "rifles-41"
    hex = "4,1"
    """
    g = tgame(tmp_path, german, soviet, initiative="soviet")
    riders = unit(g, "german", "rifles-41")
    st = State(g, seed=0)
    assert find(st, "fire", unit(g, "soviet", "rifles-41"), riders)      # 10.10.1: a target of its own
    n = 3000
    q = _disembark_rate(g, unit(g, "soviet", "rifles-41"), riders, n)
    exact = fire("soviet/rifles-41", "german/rifles-41", FireSituation(range=1, riding_on="german/pz-iif"))
    p = exact.p_emergency_disembark
    se = np.sqrt(p * (1 - p) / n)
    assert 0.05 < p < 0.95
    assert abs(q - p) <= 4 * se, (q, p)


def test_emergency_disembark_is_placed_by_its_player_next_to_the_vehicle(tmp_path):
    soviet = """
    [[sides.soviet.units]]
    unit = "rifles-41"
    hex = "4,1"
    """
    g = tgame(tmp_path, TRUCK, soviet, initiative="soviet")
    rifles = unit(g, "german", "rifles-41")
    for seed in range(200):
        st = State(g, seed=seed)
        act(st, "fire", unit(g, "soviet", "rifles-41"), unit(g, "german", "truck"))
        if st.s.g[G_EMERG] > 0:
            break
    else:
        pytest.fail("no emergency disembark in 200 fires")
    assert st.current_player() == 0                                   # the German places it
    opts = actions(st, "emergency disembark")
    free = neighbours(g, "3,1") - {"4,1"}                             # empty hexes only (10.10.3)
    got = {g.cm.names[int(g.tables.side6[hex_of(g, "3,1"), decode(a)[2], 0])] for a in opts}
    assert got == free
    st.apply_action(opts[0])
    assert st.s.u[rifles, U_ST] == ONMAP and st.s.g[G_EMERG] == 0
    names = [st.action_to_string(a) for a in st.legal_actions()]
    assert names                                                    # play goes on (perhaps a reaction, 8.2)


def test_a_loaded_vehicle_never_initiates_a_close_combat(tmp_path):
    german = """
    [[sides.german.units]]
    unit = "pz-iif"
    hex = "3,1"
    facing = "E"
    carrying = [{ unit = "rifles-41" }]
    """
    soviet = """
    [[sides.soviet.units]]
    unit = "rifles-41"
    hex = "4,1"
    """
    g = tgame(tmp_path, german, soviet)
    st = State(g, seed=5)
    tank = unit(g, "german", "pz-iif")
    act(st, "move", tank)
    targets = {int(g.tables.side6[hex_of(g, "3,1"), decode(a)[2], 0]) for a in actions(st, "step")}
    assert hex_of(g, "4,1") not in targets                             # 12.10


@pytest.mark.parametrize("players", [("random", "random"), ("greedy", "greedy"), ("lookahead", "greedy")])
def test_games_with_transport_end_legally(tmp_path, players):
    german = """
    [[sides.german.units]]
    unit = "truck"
    hex = "0,1"
    facing = "E"
    carrying = [{ unit = "rifles-41" }]
    [[sides.german.units]]
    unit = "pz-iif"
    hex = "0,0"
    facing = "E"
    carrying = [{ unit = "rifles-41" }]
    """
    soviet = """
    [[sides.soviet.units]]
    unit = "rifles-41"
    hex = "5,1"
    [[sides.soviet.units]]
    unit = "rifles-41"
    hex = "6,0"
    """
    g = tgame(tmp_path, german, soviet, german_victory='hold = ["6,2"]',
              extra='[[objectives]]\nhex = "6,2"\n')
    kinds = [PLAYER_NAMES.index(p) for p in players]
    seen = set()
    for k in range(6 if "lookahead" in players else 25):
        w = make_work(g)                         # the players' memory is a game's
        st = State(g, seed=11, game_index=k)
        n = 0
        while not st.is_terminal() and n < 5000:
            side = st.current_player()
            a = choose(st.s, g.tables, np.int64(kinds[side]), np.int64(side), w, DEFAULT_PARAMS)
            assert a in st.legal_actions()
            seen.add(decode(a)[0])
            apply_action(st.s, g.tables, np.int64(a))
            n += 1
        assert st.is_terminal()
        for u in range(g.n_units):
            if st.s.u[u, U_ST] == CARRIED:                             # still aboard a vehicle in play
                c = int(st.s.u[u, U_CARRIER])
                assert c >= 0 and st.s.u[c, U_ST] == ONMAP
            assert st.s.g[G_EMERG] == 0
        occupied = np.zeros(g.cm.n, int)
        for u in range(g.n_units):
            if st.s.u[u, U_ST] == ONMAP:
                occupied[int(st.s.u[u, U_HEX])] += 1
        assert (occupied == st.s.hx[:, 2] + st.s.hx[:, 3]).all()
    from simulator.games.assault.game.state import KIND_NAMES
    if "lookahead" not in players:                                     # the players do get out (9.11.3)
        assert KIND_NAMES.index("dismount") in seen


def test_replay_names_the_transport_events(tmp_path):
    from simulator.games.assault.game.replay import describe_events, replay_game
    german = """
    [[sides.german.units]]
    unit = "truck"
    hex = "0,1"
    facing = "E"
    carrying = [{ unit = "rifles-41" }]
    [[sides.german.units]]
    unit = "pz-iif"
    hex = "0,0"
    facing = "E"
    carrying = [{ unit = "rifles-41" }]
    """
    g = tgame(tmp_path, german, FAR_RIFLES.replace("6,2", "5,1"), german_victory='hold = ["6,2"]',
              extra='[[objectives]]\nhex = "6,2"\n')
    texts = [r["text"] for k in range(2) for r in describe_events(replay_game(g, 1, k))]
    assert any("emergency disembark" in x and "(10.10.3)" in x for x in texts)
    assert any("dismounts" in x and "(9.11.3)" in x for x in texts)
