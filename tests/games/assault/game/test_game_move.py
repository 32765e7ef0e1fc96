"""Chapter 9, 8.2 and 13.3 in the engine: moving hex by hex, costs and allowances,
friends and enemies on the way, reaction fire on each hex entered, fallback movement."""

from __future__ import annotations

from simulator.games.assault.game.game import State
from simulator.games.assault.game.state import (
    ACT_FIREMOVE,
    ACT_MOVEFIRE,
    FALLBACK,
    G_FB_UNIT,
    G_MP,
    G_REACT_UNIT,
    G_SUB,
    SUB_AFTER_MOVE,
    SUB_FALLBACK,
    SUB_MOVE,
    SUB_REACT,
    U_ACT,
    U_DMG,
    U_DONE,
    U_HEX,
    U_MORALE,
    decode,
)
from tests.games.assault.game.test_game_setup import act, actions, hex_of, step_to, tiny, unit

BODY = """
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
hex = "{g1}"
[[sides.german.units]]
unit = "hmg-34"
hex = "{g2}"
[sides.german.victory]
eliminate = 2
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "heavy-rifles-41"
hex = "{s1}"
[sides.soviet.victory]
eliminate = 2
"""


def game(tmp_path, g1="0,1", g2="0,2", s1="6,1", rows=(".......",) * 3, **kw):
    return tiny(tmp_path, BODY.format(g1=g1, g2=g2, s1=s1), rows=rows, **kw)


def decline(st: State) -> None:
    while int(st.s.g[G_SUB]) == SUB_REACT:
        act(st, "no reaction")


def steps(st: State) -> set[str]:
    g = st.game
    out = set()
    for a in actions(st, "step"):
        _, u, d = decode(a)
        out.add(g.cm.names[int(g.tables.side6[int(st.s.u[u, U_HEX]), d, 0])])
    return out


def test_costs_and_allowance(tmp_path):
    g = game(tmp_path, rows=(".......", ".f.....", "......."), s1="6,0")
    st = State(g, seed=1)
    r = unit(g, "german", "rifles-41")
    act(st, "move", r)                       # 9.1: allowance 2
    step_to(st, r, "1,1")                    # forest costs 2 (9.4)
    assert int(st.s.g[G_MP]) == 0 and int(st.s.g[G_SUB]) != SUB_MOVE   # the move ends by itself
    st = State(g, seed=1)
    act(st, "fast move", r)                  # 9.2: allowance + 1
    step_to(st, r, "1,1")
    decline(st)
    assert int(st.s.g[G_MP]) == 1 and int(st.s.g[G_SUB]) == SUB_MOVE


def test_friends_may_be_crossed_not_ended_on(tmp_path):
    g = game(tmp_path, g1="0,1", g2="1,1", s1="6,0")
    st = State(g, seed=1)
    r = unit(g, "german", "rifles-41")
    act(st, "move", r)
    step_to(st, r, "1,1")                    # 9.0: passing through a friend
    decline(st)
    assert not actions(st, "stop")           # ... but not stopping there
    assert steps(st)                         # it has to go on
    st2 = State(g, seed=1)
    act(st2, "move", unit(g, "german", "hmg-34"))
    assert "0,1" not in steps(st2) or actions(st2, "step")   # a friend hex needs a way out
    # from 1,1 with 1 MP left there is a free hex: the step is legal, and it ends there
    step_to(st, r, "2,1")
    decline(st)
    assert int(st.s.u[r, U_HEX]) == hex_of(g, "2,1") and int(st.s.g[G_SUB]) != SUB_MOVE


def test_no_fast_action_up_a_hill(tmp_path):
    g = game(tmp_path, rows=(".......", ".h.....", "......."), s1="6,0")
    st = State(g, seed=1)
    r = unit(g, "german", "rifles-41")
    act(st, "fast move", r)
    assert "1,1" not in steps(st)            # 9.6.1: no fast action up a hill
    st = State(g, seed=1)
    act(st, "move", r)
    assert "1,1" in steps(st)                # clear 1 + hill 1 = 2: a normal move may climb


def test_move_and_fire_half_allowance_then_fire(tmp_path):
    g = game(tmp_path, s1="4,1")
    st = State(g, seed=1)
    r = unit(g, "german", "rifles-41")
    act(st, "move and fire", r)              # 9.3: half of 2, rounded up = 1
    assert int(st.s.g[G_MP]) == 1 and int(st.s.u[r, U_ACT]) == ACT_MOVEFIRE
    step_to(st, r, "1,1")
    assert int(st.s.g[G_SUB]) == SUB_AFTER_MOVE      # 8.2 lists no reaction fire to move and fire
    target = unit(g, "soviet", "heavy-rifles-41")
    act(st, "fire at", r, target)
    assert int(st.s.u[r, U_DONE]) == 1 and not [a for a in st.legal_actions() if decode(a)[1] == r
                                                 and decode(a)[0] != 0]


def test_fire_and_move(tmp_path):
    g = game(tmp_path, s1="4,1")
    st = State(g, seed=1)
    r = unit(g, "german", "rifles-41")
    target = unit(g, "soviet", "heavy-rifles-41")
    act(st, "fire and move", r, target)
    assert int(st.s.u[r, U_ACT]) == ACT_FIREMOVE
    if int(st.s.g[G_SUB]) == SUB_MOVE:
        assert int(st.s.g[G_MP]) == 1


def test_reaction_fire_on_each_hex_entered(tmp_path):
    g = game(tmp_path, s1="5,1")
    st = State(g, seed=3)
    r = unit(g, "german", "rifles-41")
    hr = unit(g, "soviet", "heavy-rifles-41")
    act(st, "move", r)
    step_to(st, r, "1,1")
    assert int(st.s.g[G_SUB]) == SUB_REACT and st.current_player() == 1   # 8.2
    assert int(st.s.g[G_REACT_UNIT]) == r
    act(st, "no reaction")
    assert int(st.s.g[G_SUB]) == SUB_MOVE
    step_to(st, r, "2,1")
    assert int(st.s.g[G_SUB]) == SUB_REACT                                 # again on the next hex
    act(st, "reaction fire", hr, r)
    assert int(st.s.u[hr, U_DONE]) == 1                                    # 8.2: activated
    # a unit that reacted cannot react again
    if int(st.s.g[G_SUB]) == SUB_MOVE:
        step_to(st, r, "3,1") if "3,1" in steps(st) else None
        assert int(st.s.g[G_SUB]) != SUB_REACT


def test_entering_an_enemy_hex_only_by_normal_or_fast_action(tmp_path):
    g = game(tmp_path, s1="1,1")
    st = State(g, seed=1)
    r = unit(g, "german", "rifles-41")
    act(st, "move and fire", r)
    assert "1,1" not in steps(st)            # 6.4: close combat by a normal or fast action only
    st = State(g, seed=1)
    act(st, "move", r)
    assert "1,1" in steps(st)


def test_fallback_moves_away_and_blocked_costs_a_damage_point(tmp_path):
    # the Soviet unit is suppressed then falls back: force it through repeated fire
    g = game(tmp_path, g1="2,1", g2="0,0", s1="3,1", initiative="german")
    seen = 0
    for seed in range(60):
        st = State(g, seed=seed, log=False)
        r = unit(g, "german", "rifles-41")
        hr = unit(g, "soviet", "heavy-rifles-41")
        act(st, "fire", r, hr)
        if int(st.s.g[G_SUB]) != SUB_FALLBACK:
            continue
        seen += 1
        assert int(st.s.g[G_FB_UNIT]) == hr and int(st.s.u[hr, U_MORALE]) == FALLBACK
        assert st.current_player() == 1                     # its owner moves it (13.3)
        start = int(st.s.u[hr, U_HEX])
        here = g.cm.hex_distance(start, int(st.s.u[r, U_HEX]))
        for a in actions(st, "step"):                       # every step takes it further away
            to = int(g.tables.side6[start, decode(a)[2], 0])
            assert g.cm.hex_distance(to, int(st.s.u[r, U_HEX])) > here
    assert seen > 3


def test_fallback_blocked_at_the_map_edge(tmp_path):
    # 2 x 3 map: from 1,1 every free hex is next to a German unit (0,1 and 0,2)
    rows = ("..", "..", "..")
    g = game(tmp_path, g1="0,1", g2="0,2", s1="1,1", rows=rows)
    r = unit(g, "german", "rifles-41")
    hmg = unit(g, "german", "hmg-34")
    hr = unit(g, "soviet", "heavy-rifles-41")
    blocked = 0
    for seed in range(150):
        st = State(g, seed=seed, log=False)
        act(st, "fire", r, hr)                         # first suppression ...
        if int(st.s.u[hr, U_MORALE]) != 1 or st.current_player() != 0 or not actions(st, "fire"):
            continue
        dmg0 = int(st.s.u[hr, U_DMG])
        act(st, "fire", hmg, hr)                       # ... then a second roll with supp: fallback
        if int(st.s.u[hr, U_MORALE]) == FALLBACK:
            assert int(st.s.g[G_SUB]) != SUB_FALLBACK               # nowhere further from the enemy
            assert int(st.s.u[hr, U_HEX]) in (hex_of(g, "1,1"), -1)
            assert int(st.s.u[hr, U_DMG]) > dmg0                  # 13.3: a damage point (or more)
            blocked += 1
    assert blocked >= 3
