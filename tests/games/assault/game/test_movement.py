"""Movement (chapter 9) as the game plays it (``engine/moves.py``, ``engine/transport.py``):
the rule-book examples (9.4, 9.6.1), the compiled map's costs and hills, harsh and
prohibited terrain, fast moves along a hill, loading (9.11, 9.11.1 through
``assault.transport``) and dismounting (9.11.3).

Elsewhere: stacking (9.0) in ``test_game_move.py::test_friends_may_be_crossed_not_ended_on``;
no fast move up a hill (9.6.1), move and fire (9.3) in ``test_game_move.py``; enemy
hexes (a close combat, 12.0) in ``test_game_move.py::test_entering_an_enemy_hex_only_by_normal_or_fast_action``;
vehicles' frontal hexes, turning one vertex at a time, free turns on a road, reversing
with half the allowance (9.10) in ``test_game_vehicle.py``; loading over capacity or
onto a vehicle in fast action (9.11.1, 9.11.2) in ``test_game_transport.py``.
"""

from __future__ import annotations

import textwrap

import pytest

from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.compiled import compile_map
from simulator.games.assault.game.game import State
from simulator.games.assault.game.scenario_format import MapSpec
from simulator.games.assault.game.state import ACT_DELAYED, ACT_FAST, G_MP, G_SUB, SUB_MOVE, U_ACT, U_HEX, decode
from simulator.games.assault.rules.aid import load_aid
from simulator.games.assault.rules.cards import load_units
from simulator.games.assault.rules.transport import (
    RIDE_NOT_INFANTRY,
    RIDE_OK,
    RIDE_VEHICLE,
    Passenger,
    check_load,
    ride_refusal,
)
from simulator.run.errors import InputError
from tests.games.assault.game.test_game_move import decline, game, steps
from tests.games.assault.game.test_game_setup import act, actions, hex_of, step_to, unit

AID = load_aid()
UNITS = load_units()
LEGEND = {".": "clear", "r": "road", "b": "brush", "f": "forest", "F": "heavy_forest",
          "w": "wooden_building", "h": "hill", "H": "hill+forest", "X": "hill+heavy_forest"}


def cmap(rows, orientation="pointy"):
    return compile_map(MapSpec(orientation=orientation, rows=list(rows), legend=LEGEND), AID)


HEAD = """\
name = "movement"
turns = 3
close_combat_edition = "v1"
unit_rules = ["infantry", "artillery", "vehicle"]
first_setup = "german"
initiative = "german"
[optional_rules]
command_points = false
[map]
rows = {rows}
[map.legend]
"." = "clear"
"f" = "forest"
"w" = "wooden_building"
"X" = "hill+heavy_forest"
"""


def mgame(tmp_path, german: str, rows=(".......",) * 3):
    """A game with the German units ``german`` and one Soviet rifle unit far away."""
    path = tmp_path / "movement.scenario.toml"
    path.write_text(HEAD.format(rows=list(rows).__repr__().replace("'", '"')) + textwrap.dedent(f"""
        [sides.german]
        faction = "blue"
        {textwrap.dedent(german)}
        [sides.german.victory]
        eliminate = 9
        [sides.soviet]
        faction = "red"
        [[sides.soviet.units]]
        unit = "rifles-41"
        hex = "6,2"
        [sides.soviet.victory]
        eliminate = 9
        """))
    return compile_game(path)


def to_action_phase(st: State) -> State:
    """Pass the support phase (7.6: artillery may face anew) until units may move."""
    for _ in range(10):
        if actions(st, "move"):
            return st
        act(st, "pass")
    raise AssertionError("no move in the action phase")


def test_9_4_example_two_clear_hexes_normal_three_fast(tmp_path):
    g = game(tmp_path, g1="0,0", g2="0,2", s1="6,2")
    r = unit(g, "german", "rifles-41")
    for kind, hexes in (("move", ("1,0", "2,0")), ("fast move", ("1,0", "2,0", "3,0"))):
        st = State(g, seed=1)
        act(st, kind, r)                     # 9.1: the card's 2; 9.2: one more
        for i, h in enumerate(hexes):
            assert int(st.s.g[G_SUB]) == SUB_MOVE
            step_to(st, r, h)                # clear: 1 point a hex (9.4)
            decline(st)
            if i < len(hexes) - 1:
                assert int(st.s.g[G_MP]) == len(hexes) - 1 - i
        assert int(st.s.u[r, U_HEX]) == hex_of(g, hexes[-1]) and int(st.s.g[G_SUB]) != SUB_MOVE


def test_move_costs_come_from_the_aid_and_add_the_hill():
    cm = cmap([".fFhH"])
    h = cm.index_of("0,0")
    east = 2  # pointy: side 2 is E
    assert cm.move_cost[cm.movement_type_index("foot"), h, east] == 2          # forest
    f = cm.index_of("1,0")
    assert cm.move_cost[cm.movement_type_index("wheeled"), f, east] == 4       # heavy forest
    F = cm.index_of("2,0")
    assert cm.move_cost[cm.movement_type_index("foot"), F, east] == 1 + 1      # clear hill +1 (9.6.1)
    assert cm.move_cost[cm.movement_type_index("gun"), F, east] == 1 + 2       # +2 for guns
    hh = cm.index_of("3,0")
    assert cm.move_cost[cm.movement_type_index("foot"), hh, east] == 2         # same hill: no extra
    assert cm.climb[F, east] and not cm.climb[hh, east]


def test_9_6_1_example_heavy_forest_on_a_hill_is_harsh_for_infantry(tmp_path):
    # 2 for heavy forest + 1 for the hill = 3 > the base allowance 2 (9.5, 9.6.1)
    rows = ("..H....", ".......", ".......")   # H: hill + heavy forest
    g = game(tmp_path, g1="1,0", g2="0,2", s1="6,2", rows=rows)
    r = unit(g, "german", "rifles-41")
    st = State(g, seed=1)
    act(st, "move", r)
    assert "2,0" in steps(st)                # the first and only hex of a normal move
    step_to(st, r, "2,0")
    decline(st)
    assert int(st.s.u[r, U_HEX]) == hex_of(g, "2,0") and int(st.s.u[r, U_ACT]) == ACT_DELAYED
    assert int(st.s.g[G_SUB]) != SUB_MOVE    # ... and the move ends there (9.5)
    st = State(g, seed=1)
    act(st, "fast move", r)
    assert "2,0" not in steps(st)            # not by a fast move's extra point (9.5)
    g = game(tmp_path, g1="0,0", g2="0,2", s1="6,2", rows=rows)
    r = unit(g, "german", "rifles-41")
    st = State(g, seed=1)
    act(st, "move", r)
    step_to(st, r, "1,0")
    decline(st)
    assert "2,0" not in steps(st)            # not after another hex (9.5)


def test_harsh_terrain_for_guns_and_prohibited_terrain(tmp_path):
    german = """
    [[sides.german.units]]
    unit = "at-gun-37mm"
    hex = "0,0"
    facing = "E"
    [[sides.german.units]]
    unit = "truck"
    hex = "2,1"
    facing = "E"
    """
    g = mgame(tmp_path, german, rows=(".f.....", "...w...", "......."))
    gun, truck = unit(g, "german", "at-gun-37mm"), unit(g, "german", "truck")
    st = to_action_phase(State(g, seed=1))
    act(st, "move", gun)                     # movement 1; forest costs guns 3: harsh (9.5)
    assert "1,0" in steps(st)
    step_to(st, gun, "1,0")
    decline(st)
    assert int(st.s.u[gun, U_ACT]) == ACT_DELAYED
    st = to_action_phase(State(g, seed=1))
    act(st, "move", truck)
    for _ in range(3):                       # whatever it turns to, never into the building
        assert "3,1" not in steps(st)
        if not actions(st, "turn"):
            break
        act(st, "turn")


def test_a_fast_move_goes_along_a_hill_and_down(tmp_path):
    rows = ("hh.....", ".......", ".......")
    g = game(tmp_path, g1="0,0", g2="0,2", s1="6,2", rows=rows)
    r = unit(g, "german", "rifles-41")
    st = State(g, seed=1)
    act(st, "fast move", r)                  # 9.6.1: no fast action climbs a hill ...
    step_to(st, r, "1,0")                    # ... but moves along the same hill (1 point)
    decline(st)
    assert int(st.s.g[G_MP]) == 2
    step_to(st, r, "2,0")                    # and down (1 point)
    decline(st)
    assert int(st.s.g[G_MP]) == 1


def test_loading_rules():
    truck, pz = UNITS["german/truck"], UNITS["german/pz-iif"]
    rifles, hmg, gun = UNITS["german/rifles-41"], UNITS["german/hmg-34"], UNITS["german/at-gun-37mm"]
    check_load(truck, [Passenger(rifles)])                                     # 4 <= 8
    with pytest.raises(InputError, match="this load is 11"):                 # 4 + 4 + 3 > 8 (9.11)
        check_load(truck, [Passenger(rifles), Passenger(rifles), Passenger(hmg)])
    check_load(truck, [Passenger(rifles), Passenger(rifles, damage=2), Passenger(gun)])   # 4 + 2 + 2 (9.11)
    with pytest.raises(InputError, match="9.11.1"):
        check_load(pz, [Passenger(gun)])                                      # tank riders: infantry
    check_load(pz, [Passenger(rifles)])                                       # 4 tank riders (9.11.1)
    assert ride_refusal(True, False, True) == RIDE_OK
    assert ride_refusal(True, False, False) == RIDE_NOT_INFANTRY
    assert ride_refusal(False, False, False) == RIDE_OK                       # artillery in a truck
    assert ride_refusal(False, True, False) == RIDE_VEHICLE


def dismount_targets(st, g, p) -> dict[str, int]:
    """``{hex: marker}`` of passenger ``p``'s legal dismounts (applied on copies)."""
    out = {}
    for a in actions(st, "dismount"):
        if decode(a)[1] != p:
            continue
        c = st.clone()
        c.apply_action(a)
        out[g.cm.names[int(c.s.u[p, U_HEX])]] = int(c.s.u[p, U_ACT])
    return out


def test_dismounting(tmp_path):
    german = """
    [[sides.german.units]]
    unit = "truck"
    hex = "1,1"
    facing = "E"
    carrying = [{ unit = "rifles-41" }, { unit = "at-gun-37mm" }]
    [[sides.german.units]]
    unit = "hmg-34"
    hex = "0,1"
    """
    g = mgame(tmp_path, german, rows=(".......", ".......", "..X...."))
    st = to_action_phase(State(g, seed=1))
    rifles, gun = unit(g, "german", "rifles-41"), unit(g, "german", "at-gun-37mm")
    got = dismount_targets(st, g, rifles)
    # flat-topped map: 1,1's neighbours are 1,0, 1,2, 0,1, 0,2, 2,1, 2,2
    assert set(got) == {"1,0", "1,2", "0,2", "2,1", "2,2"}          # not onto the HMG (9.11.3)
    assert got.pop("2,2") == ACT_DELAYED                             # harsh terrain (9.5)
    assert set(got.values()) == {ACT_FAST}                           # infantry: fast (9.11.3)
    assert set(dismount_targets(st, g, gun).values()) == {ACT_DELAYED}   # slow artillery: delayed
