"""Close combat in the engine (chapter 12, both editions) is the melee package's rules:
an initiated round in a game gives the same results as its exact calculator; the
first edition's close combat goes on from turn to turn (renew, withdraw, 12.3, 12.6);
the revised edition's rounds repeat until someone leaves (12.1.6)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from simulator.games.assault.game.events import EV_CC, EV_CC_RESULT, EV_ENTER_SUPPRESSED
from simulator.games.assault.game.game import State
from simulator.games.assault.game.state import (
    CC_ACTIVE,
    CC_INACTIVE,
    CC_NONE,
    G_SUB,
    SUB_CC_WITHDRAW,
    SUB_FALLBACK,
    SUPPRESSED,
    U_CC,
    U_HEX,
    U_MORALE,
    decode,
)
from simulator.games.assault.questions.melee import melee
from simulator.games.assault.rules.melee.damage import ELIMINATED, FELL_BACK, WITHDREW
from simulator.games.assault.rules.melee.situation import MeleeSituation
from tests.games.assault.game.test_game_setup import act, actions, both_pass, hex_of, step_to, tiny, unit

BODY = """
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
hex = "2,1"
[[sides.german.units]]
unit = "hmg-34"
hex = "2,2"
[sides.german.victory]
eliminate = 2
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "heavy-rifles-41"
hex = "3,1"
[sides.soviet.victory]
eliminate = 2
"""


def cc_events(st: State, code: int) -> list[tuple]:
    return [tuple(int(x) for x in e) for e in st.events() if e[0] == code]


def test_initiated_round_matches_the_melee_calculator(tmp_path):
    g = tiny(tmp_path, BODY)
    r = unit(g, "german", "rifles-41")
    hr = unit(g, "soviet", "heavy-rifles-41")
    n = 2500
    counts = Counter()
    for seed in range(n):
        st = State(g, seed=seed)
        act(st, "move", r)
        step_to(st, r, "3,1")                                   # 12.1: entering initiates
        ev = cc_events(st, EV_CC_RESULT)
        assert len(ev) == 2 and len(cc_events(st, EV_CC)) == 1
        res = {e[2]: e for e in ev}

        def key(u, res=res):
            e = res[u]
            return ("eliminated",) if e[3] == 4 else (e[4], e[3] == 2)
        counts[(key(r), key(hr))] += 1
    frame = melee("german/rifles-41", "soviet/heavy-rifles-41", MeleeSituation(terrain="clear"),
                  edition="v1", max_rounds=1)
    exact: dict = {}
    for row in frame.table.to_dict("records"):
        a = ("eliminated",) if row["attacker_eliminated"] else (int(row["attacker_damage"]), bool(row["attacker_fallback"]))
        d = ("eliminated",) if row["defender_eliminated"] else (int(row["defender_damage"]), bool(row["defender_fallback"]))
        exact[(a, d)] = exact.get((a, d), 0.0) + row["p"]
    for k in set(counts) | set(exact):
        p = exact.get(k, 0.0)
        q = counts.get(k, 0) / n
        assert abs(q - p) <= 4 * max(np.sqrt(p * (1 - p) / n), 1 / n), (k, q, p)


def _unit_end(res) -> tuple:
    """A unit's end of a close combat from its last result event: eliminated, or its
    damage and whether it fell back or withdrew (melee.damage statuses)."""
    if res[3] == ELIMINATED:
        return ("eliminated",)
    return (res[4], res[3] == FELL_BACK, res[3] == WITHDREW)


def test_revised_whole_fight_matches_the_melee_calculator(tmp_path):
    """One implementation of chapter 12: a whole revised-edition fight in a game (rounds
    until elimination, fallback or the round cap, nobody choosing to withdraw) ends as
    the melee calculator's exact chain says, within 4 standard errors."""
    g = tiny(tmp_path, BODY, edition="v2")
    r = unit(g, "german", "rifles-41")
    hr = unit(g, "soviet", "heavy-rifles-41")
    n = 1500
    counts = Counter()
    for seed in range(n):
        st = State(g, seed=seed)
        act(st, "move", r)
        step_to(st, r, "3,1")
        while actions(st, "stay in close combat"):           # no support, never withdraw
            act(st, "stay in close combat")
        last = {}
        for e in cc_events(st, EV_CC_RESULT):
            last[e[2]] = e
        counts[(_unit_end(last[r]), _unit_end(last[hr]))] += 1
    frame = melee("german/rifles-41", "soviet/heavy-rifles-41", MeleeSituation(terrain="clear"),
                  edition="v2", withdraw_policy="never")
    exact: dict = {}
    for row in frame.table.to_dict("records"):
        ends = []
        for side in ("attacker", "defender"):
            ends.append(("eliminated",) if row[f"{side}_eliminated"] else
                        (int(row[f"{side}_damage"]), bool(row[f"{side}_fallback"]), bool(row[f"{side}_withdrew"])))
        exact[tuple(ends)] = exact.get(tuple(ends), 0.0) + row["p"]
    assert sum(counts.values()) == n
    for k in set(counts) | set(exact):
        p = exact.get(k, 0.0)
        q = counts.get(k, 0) / n
        assert abs(q - p) <= 4 * max(np.sqrt(p * (1 - p) / n), 1 / n), (k, q, p)


def test_first_edition_close_combat_lasts_and_can_be_renewed_or_left(tmp_path):
    g = tiny(tmp_path, BODY, turns=5)
    r = unit(g, "german", "rifles-41")
    hr = unit(g, "soviet", "heavy-rifles-41")
    for seed in range(60):
        st = State(g, seed=seed)
        act(st, "move", r)
        step_to(st, r, "3,1")
        if not (int(st.s.u[r, U_CC]) == CC_ACTIVE and int(st.s.u[hr, U_CC]) == CC_ACTIVE):
            continue                                            # someone fell back or died
        assert not [a for a in actions(st, "fire") if decode(a)[2] == hr]   # 10.0: not into the CC
        both_pass(st)
        assert int(st.s.u[r, U_CC]) == CC_INACTIVE == int(st.s.u[hr, U_CC])  # 12.3, 6.5
        renew = actions(st, "renew close combat")
        leave = actions(st, "withdraw from close combat")
        assert renew and leave                                  # 12.3 and 12.6
        act(st, "withdraw from close combat", r)
        assert int(st.s.u[r, U_CC]) == CC_NONE
        assert int(st.s.u[hr, U_CC]) == CC_NONE                 # 12.6: the close combat is over
        return
    raise AssertionError("no close combat lasted a turn in 60 games")


def test_entering_a_suppressed_enemy_makes_it_fall_back(tmp_path):
    g = tiny(tmp_path, BODY)
    r = unit(g, "german", "rifles-41")
    hr = unit(g, "soviet", "heavy-rifles-41")
    hmg = unit(g, "german", "hmg-34")
    for seed in range(200):
        st = State(g, seed=seed)
        act(st, "fire", hmg, hr)
        if int(st.s.u[hr, U_MORALE]) != SUPPRESSED or st.current_player() != 0:
            continue
        act(st, "move", r)
        step_to(st, r, "3,1")
        assert cc_events(st, EV_ENTER_SUPPRESSED) and not cc_events(st, EV_CC)   # 12.0: no close combat
        assert int(st.s.u[r, U_HEX]) == hex_of(g, "3,1")
        assert int(st.s.g[G_SUB]) == SUB_FALLBACK and st.current_player() == 1   # 13.3: its owner moves it
        act(st, "step")
        assert int(st.s.u[hr, U_HEX]) != hex_of(g, "3,1")
        return
    raise AssertionError("the HMG never suppressed the Soviets in 200 games")


def test_revised_edition_rounds_until_someone_leaves(tmp_path):
    g = tiny(tmp_path, BODY, edition="v2")
    r = unit(g, "german", "rifles-41")
    hr = unit(g, "soviet", "heavy-rifles-41")
    asked = 0
    for seed in range(40):
        st = State(g, seed=seed)
        act(st, "move", r)
        step_to(st, r, "3,1")
        while actions(st, "command point") or int(st.s.g[G_SUB]) not in (SUB_CC_WITHDRAW,) and \
                actions(st, "stay in close combat") and not actions(st, "leave close combat"):
            act(st, "stay in close combat")                  # no support unit (revised 12.1.1.1)
        stays = 0
        while int(st.s.g[G_SUB]) == SUB_CC_WITHDRAW:
            asked += 1
            act(st, "stay in close combat")                  # 12.1.6.1: attacker, then defender
            stays += 1
        assert stays % 2 == 0 and stays < 120
        rounds = stays // 2
        # the fight is over: nobody is left in a close combat (revised 12.1.6)
        assert int(st.s.u[r, U_CC]) == CC_NONE and int(st.s.u[hr, U_CC]) == CC_NONE
        assert len(cc_events(st, EV_CC_RESULT)) == 2 * (rounds + 1)
    assert asked > 0


def test_a_suppressed_unit_withdraws_out_of_the_hex():
    """Revised 12.1.6.1: a unit that chooses to withdraw moves out with a fast action,
    even when suppressed; it is offered only when it can move out. (Infantry Training in
    the revised edition, seed 20357, greedy against random: the Soviet squad, suppressed
    in the close combat in 5,1, withdraws.)"""
    import numpy as np

    from simulator.engine.players.interface import DEFAULT_PARAMS, choose, make_work
    from simulator.games.assault.game.compile import compile_game
    from simulator.games.assault.game.game import State
    from simulator.games.assault.game.replay import describe_events
    from simulator.games.assault.game.state import ACT_FAST, G_SUB, SUB_MOVE, SUPPRESSED, U_ACT, U_HEX, U_MORALE
    g = compile_game("infantry-training", edition="v2")
    st = State(g, seed=20357, log=True)
    w = make_work(g)
    def play_one():
        side = st.current_player()
        st.apply_action(int(choose(st.s, g.tables, np.int64((1, 0)[side]), np.int64(side), w, DEFAULT_PARAMS)))

    def left():
        return [r["text"] for r in describe_events(st) if "leaves the close combat" in r["text"]]

    while not left():                    # up to the withdrawal...
        play_one()
    while int(st.s.g[G_SUB]) == SUB_MOVE:  # ...and its move
        play_one()
    assert left() == ["  Heavy Rifles '41 #2 (soviet) leaves the close combat in 5,1"]
    u = next(u for u in range(g.n_units) if g.unit_label(u) == "Heavy Rifles '41 #2")
    assert int(st.s.u[u, U_MORALE]) == SUPPRESSED and int(st.s.u[u, U_ACT]) == ACT_FAST
    assert st.hex_name(int(st.s.u[u, U_HEX])) != "5,1"      # it moved out
