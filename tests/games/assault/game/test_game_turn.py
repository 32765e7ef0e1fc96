"""Chapter 6 in the engine: initiative (6.1), alternating activations and three passes
(6.4, 8.1), the organisation phase (6.5), objectives (9.7), the victory check (6.6) and
command points (6.2.2, 10.7.3)."""

from __future__ import annotations

from simulator.games.assault.game.game import State
from simulator.games.assault.game.state import (
    ACT_NONE,
    ACT_NORMAL,
    AUX_OBJ,
    G_CP0,
    G_FIRST,
    G_REASON,
    G_SUB,
    G_WINNER,
    HX_DUG,
    R_ELIMINATION,
    R_OBJECTIVES,
    R_SUDDEN_DEATH,
    SUB_PLAN,
    SUB_SELECT,
    U_ACT,
    U_DONE,
    U_HELD,
    U_HEX,
    U_TIRED,
    decode,
)
from tests.games.assault.game.test_game_setup import (
    TWO_RIFLES,
    act,
    actions,
    both_pass,
    find,
    hex_of,
    step_to,
    tiny,
    unit,
)


def test_initiative_fixed_or_rolled_each_turn(tmp_path):
    g = tiny(tmp_path, TWO_RIFLES, initiative="soviet")
    st = State(g, seed=1)
    assert int(st.s.g[G_FIRST]) == 1 and st.current_player() == 1        # 6.1: the scenario names it
    g2 = tiny(tmp_path / "r", TWO_RIFLES, initiative="roll") if (tmp_path / "r").mkdir() is None else None
    firsts = []
    for seed in range(40):
        st = State(g2, seed=seed, log=False)
        firsts.append(int(st.s.g[G_FIRST]))
        both_pass(st)
        firsts.append(int(st.s.g[G_FIRST]))
    assert 8 < sum(firsts) < 72                                           # 6.1: a d6 each, both sides start


def test_activations_alternate_and_three_passes_end_the_phase(tmp_path):
    g = tiny(tmp_path, TWO_RIFLES)
    st = State(g, seed=1)
    rifles = unit(g, "german", "rifles-41")
    act(st, "dig in", rifles)                                             # 9.8.1
    assert st.current_player() == 1 and int(st.s.u[rifles, U_DONE]) == 1  # 6.4: the other side next
    act(st, "pass")
    assert st.current_player() == 1 and st.turn == 1   # the Germans have nothing left: they pass at once
    act(st, "pass")                                    # pass, pass, pass (8.1)
    assert st.turn == 2 and int(st.s.g[G_SUB]) == SUB_SELECT


def test_organisation_phase_markers(tmp_path):
    g = tiny(tmp_path, TWO_RIFLES, rows=(".......", "..F....", "......."))
    st = State(g, seed=1)
    rifles = unit(g, "german", "rifles-41")
    hr = unit(g, "soviet", "heavy-rifles-41")
    act(st, "dig in", rifles)
    act(st, "fast move", hr)
    step_to(st, hr, "4,1")
    act(st, "stop")             # nobody has anything left: passes end the turn at once (8.1)
    assert st.turn == 2
    assert int(st.s.hx[hex_of(g, "0,1"), HX_DUG]) == 1          # 9.8.1: dug in from the next turn
    assert int(st.s.u[hr, U_TIRED]) == 1                        # 13.1: attack die -1, 9.2: no fast action
    assert int(st.s.u[hr, U_ACT]) == ACT_NONE and int(st.s.u[hr, U_DONE]) == 0
    st.apply_action(find(st, "pass"))
    assert not [a for a in actions(st, "fast move") if decode(a)[1] == hr]
    assert [a for a in actions(st, "move") if decode(a)[1] == hr]


def test_harsh_terrain_holds_the_unit_next_turn(tmp_path):
    # heavy forest on a hill costs 3 > 2: harsh terrain (9.5, 9.6.1 example)
    body = TWO_RIFLES.replace('hex = "0,1"', 'hex = "1,1"')
    g = tiny(tmp_path, body, rows=(".......", "..H....", "......."), )
    st = State(g, seed=1)
    rifles = unit(g, "german", "rifles-41")
    act(st, "move", rifles)
    step_to(st, rifles, "2,1")
    assert int(st.s.u[rifles, U_HEX]) == hex_of(g, "2,1")
    both_pass(st)
    assert int(st.s.u[rifles, U_HELD]) == 1 and int(st.s.u[rifles, U_ACT]) == ACT_NORMAL   # 9.5
    assert not [a for a in st.legal_actions() if decode(a)[1] == rifles and decode(a)[0] != 0]


def test_objective_captured_at_end_of_turn_and_kept(tmp_path):
    body = TWO_RIFLES.replace('hex = "0,1"', 'hex = "5,0"')
    g = tiny(tmp_path, body, turns=4)
    st = State(g, seed=1)
    rifles = unit(g, "german", "rifles-41")
    act(st, "move", rifles)
    step_to(st, rifles, "6,1")
    if st.current_player() == 1 and actions(st, "no reaction"):
        act(st, "no reaction")
    act(st, "stop")
    assert int(st.s.aux[AUX_OBJ, 0]) == -1          # 9.7: only at the end of the turn
    both_pass(st)
    assert int(st.s.aux[AUX_OBJ, 0]) == 0
    act(st, "move", rifles)
    step_to(st, rifles, "5,1")
    if st.current_player() == 1 and actions(st, "no reaction"):
        act(st, "no reaction")
    act(st, "stop")
    both_pass(st)
    assert int(st.s.aux[AUX_OBJ, 0]) == 0           # 6.5: an empty objective stays


def test_victory_at_the_end_and_turn_limit(tmp_path):
    body = TWO_RIFLES.replace('hex = "0,1"', 'hex = "6,1"')     # the Germans start on their objective
    g = tiny(tmp_path, body, turns=2)
    st = State(g, seed=1)
    both_pass(st)
    assert not st.is_terminal()
    both_pass(st)
    assert st.is_terminal() and int(st.s.g[G_WINNER]) == 0 and int(st.s.g[G_REASON]) == R_OBJECTIVES
    assert st.returns() == [1.0, -1.0]
    g2 = tiny(tmp_path / "x", TWO_RIFLES, turns=1) if (tmp_path / "x").mkdir() is None else None
    st = State(g2, seed=1)
    both_pass(st)
    assert st.is_terminal() and int(st.s.g[G_WINNER]) == -1 and st.returns() == [0.0, 0.0]   # draw


def test_sudden_death_and_elimination(tmp_path):
    body = TWO_RIFLES.replace("[sides.soviet.victory]\neliminate = 1", "[sides.soviet.victory]\neliminate = 1\n") \
        + "\n[victory]\nsudden_death = true\n"
    body = body.replace('hex = "3,1"', 'hex = "1,1"')          # adjacent
    g = tiny(tmp_path, body, turns=9, initiative="soviet")
    wins = early = 0
    for seed in range(30):
        st = State(g, seed=seed, log=False)
        # the Soviets fire at the adjacent Germans until they are gone (or the turns run out)
        while not st.is_terminal():
            if st.current_player() == 1 and actions(st, "fire"):
                st.apply_action(actions(st, "fire")[0])
            else:
                st.apply_action(actions(st, "pass")[0] if actions(st, "pass") else st.legal_actions()[0])
        if int(st.s.g[G_WINNER]) == 1:
            wins += 1
            if st.turn < 9:                                    # 6.6: decided before the end
                early += 1
                assert int(st.s.g[G_REASON]) == R_SUDDEN_DEATH
            else:
                assert int(st.s.g[G_REASON]) == R_ELIMINATION
    assert wins > 20 and early > 15


CP_BODY = """
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
count = 2
hex = "0,1"
[[sides.german.units]]
unit = "hmg-34"
hex = "0,2"
[sides.german.victory]
eliminate = 1
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "heavy-rifles-41"
hex = "6,1"
[sides.soviet.victory]
eliminate = 1
"""


def test_command_points_must_be_assigned_and_spent(tmp_path):
    body = CP_BODY.replace('count = 2\nhex = "0,1"', 'hex = "0,1"') + \
        '\n[[sides.german.units]]\nunit = "rifles-41"\nhex = "0,0"\n'
    g = tiny(tmp_path, body, cp="true")
    st = State(g, seed=1)
    assert int(st.s.g[G_SUB]) == SUB_PLAN and st.current_player() == 0     # 6.2.2
    assert int(st.s.g[G_CP0]) == 4          # no formation cards: the minimum of four (10.7.3)
    rifles_type = g.slots[unit(g, "german", "rifles-41")].unit
    cp_actions = actions(st, "command point")
    assert len(cp_actions) == 2             # two unit cards
    rt = [a for a in cp_actions if g.types[decode(a)[2]].card.id == rifles_type][0]
    st.apply_action(rt)                      # one point on the rifles: one of the two may act
    # two rifles + one HMG take three points; the fourth has nowhere to go
    while st.current_player() == 0 and int(st.s.g[G_SUB]) == SUB_PLAN:
        hmg = [a for a in actions(st, "command point") if g.types[decode(a)[2]].card.id != rifles_type]
        st.apply_action(hmg[0] if hmg else actions(st, "command point")[0])
    while int(st.s.g[G_SUB]) == SUB_PLAN:
        st.apply_action(st.legal_actions()[0])
    assert int(st.s.g[G_SUB]) == SUB_SELECT
    assert int(st.s.cp[0].sum(axis=0)[0]) == 3
