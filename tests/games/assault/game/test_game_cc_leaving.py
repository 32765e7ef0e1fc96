"""Leaving a close combat, and what the replay shows of it (issue 40, items 2, 3, 4, 7):
a withdrawal moves away from the enemy (reading S29); the move out of an over-stacked
hex (12.6), the tracks result's forced leave (12.9, reading S11) and the turn to face
the attacker (12.7.3, 12.8.2, reading S23) each have a replay line, in the text and the
JSON replay alike (both are :func:`describe_events`)."""

from __future__ import annotations

from simulator.games.assault.game.events import EV_FACE_ATTACKER, EV_FALLBACK, EV_MUST_LEAVE, EV_OVERSTACK
from simulator.games.assault.game.game import State
from simulator.games.assault.game.replay import describe_events
from simulator.games.assault.game.state import (
    CC_ACTIVE,
    ELIMINATED,
    FALLBACK,
    G_SUB,
    ONMAP,
    SUB_CC_WITHDRAW,
    SUPPRESSED,
    U_CC,
    U_DONE,
    U_FACE,
    U_HEX,
    U_IMMOB,
    U_MORALE,
    U_ST,
    decode,
)
from tests.games.assault.game.test_game_cc import cc_events
from tests.games.assault.game.test_game_cc_exhaustion import BODY, _skip_support
from tests.games.assault.game.test_game_setup import act, actions, hex_of, step_to, tiny, unit
from tests.games.assault.game.test_game_vehicle import _enter, targets, vgame


def _texts(st: State, code: int) -> list[str]:
    return [r["text"] for r in describe_events(st) if r["event"] == code]


def test_a_withdrawal_moves_away_from_the_enemy(tmp_path):
    """Reading S29 (12.6 "moves away", revised 12.1.6.1): the German squad withdraws from
    3,1 (the Soviet squad stays there; the other Soviet squad is far off in 6,0) back to
    2,1, one hex from 3,1. From 2,1 it may go on only to a hex two or more from 3,1: of
    2,1's neighbours 2,0 3,0 3,1 2,2 1,1 1,0, the hexes 3,0 and 2,2 touch 3,1 (3,1's
    neighbours are 3,0 4,1 4,2 3,2 2,2 2,1) and 3,1 holds the enemy, so 2,0, 1,1 and 1,0
    are left; the fast move's 3 points (2 + 1, 9.2) less 1 for clear 2,1 pay for any."""
    g = tiny(tmp_path, BODY, edition="v2")
    r = unit(g, "german", "rifles-41")
    hr = unit(g, "soviet", "heavy-rifles-41")
    for seed in range(200):
        st = State(g, seed=seed)
        act(st, "move", r)
        step_to(st, r, "3,1")
        _skip_support(st)
        if int(st.s.g[G_SUB]) != SUB_CC_WITHDRAW or not actions(st, "leave close combat"):
            continue
        act(st, "leave close combat")
        assert "2,1" in targets(st, "step")           # the first step: any hex out (nearest enemy 0 -> 1)
        step_to(st, r, "2,1")
        while actions(st, "no reaction"):
            act(st, "no reaction")
        assert int(st.s.u[hr, U_HEX]) == hex_of(g, "3,1")
        assert targets(st, "step") == {"2,0", "1,1", "1,0"}
        return
    raise AssertionError("no withdrawal could be offered in 200 games")


TWO_GERMANS = """
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
hex = "2,1"
[[sides.german.units]]
unit = "rifles-41"
hex = "2,2"
[sides.german.victory]
eliminate = 2
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "mmg-maxim"
hex = "3,1"
[[sides.soviet.units]]
unit = "rifles-41"
hex = "6,0"
[sides.soviet.victory]
eliminate = 2
"""


def test_the_move_out_of_an_overstacked_hex_is_logged(tmp_path):
    """12.6 (first edition): a German squad initiates against the Soviet MMG in 3,1, the
    second reinforces from 2,2 (12.2); when the MMG is gone two German squads stand in
    3,1 and their player moves one out to an empty neighbour, with no reaction fire.
    The replay says so, and both squads are marked as having acted (reading S30)."""
    g = tiny(tmp_path, TWO_GERMANS, turns=5)
    r1 = unit(g, "german", "rifles-41", 0)
    r2 = unit(g, "german", "rifles-41", 1)
    mmg = unit(g, "soviet", "mmg-maxim")
    for seed in range(400):
        st = State(g, seed=seed, log=True)
        act(st, "move", r1)
        step_to(st, r1, "3,1")
        if not (int(st.s.u[r1, U_CC]) == CC_ACTIVE and int(st.s.u[mmg, U_CC]) == CC_ACTIVE):
            continue
        if not actions(st, "pass"):
            continue
        act(st, "pass")                                # the Soviet player passes (6.4)
        if st.current_player() != 0 or not [a for a in actions(st, "move") if decode(a)[1] == r2]:
            continue
        act(st, "move", r2)
        step_to(st, r2, "3,1")                         # reinforces (12.2)
        if not (int(st.s.u[mmg, U_ST]) == ELIMINATED and int(st.s.u[r1, U_ST]) == ONMAP
                and int(st.s.u[r2, U_ST]) == ONMAP and int(st.s.u[r1, U_MORALE]) != FALLBACK
                and int(st.s.u[r2, U_MORALE]) != FALLBACK):
            continue
        act(st, "attack in close combat")              # the K_CCPICK of the 12.6 question: a unit, a hex
        ev = cc_events(st, EV_OVERSTACK)
        assert len(ev) == 1
        moved = ev[0][2]
        assert ev[0][3] == hex_of(g, "3,1") and ev[0][4] == int(st.s.u[moved, U_HEX]) != hex_of(g, "3,1")
        assert ev[0][5] == 0                           # clear terrain: a fast action, not delayed (9.5)
        line = _texts(st, EV_OVERSTACK)[0]
        assert line.startswith(f"  {g.unit_label(moved)} (german) moves out of the over-stacked hex 3,1 -> "
                               f"{st.hex_name(int(st.s.u[moved, U_HEX]))}")
        assert line.endswith("fast action (12.6)")
        assert int(st.s.u[r1, U_DONE]) == 1 and int(st.s.u[r2, U_DONE]) == 1
        return
    raise AssertionError("no over-stacked close-combat hex in 400 games")


def test_the_tracks_result_is_a_forced_leave_not_a_fallback(tmp_path):
    """12.9 (reading S11): a lone suppression on the wheels/tracks makes the Panzer II
    leave the hex; the replay says it must leave, and no line says it falls back."""
    g = vgame(tmp_path, tank="3,1", rifles="2,1", initiative="soviet")
    r = unit(g, "soviet", "rifles-41")
    tank = unit(g, "german", "pz-iif")
    for seed in range(400):
        st = State(g, seed=seed, log=True)
        _enter(g, st, r, "2,1", "3,1")
        act(st, "attack the wheels or tracks")
        if int(st.s.u[tank, U_MORALE]) != SUPPRESSED or int(st.s.u[tank, U_IMMOB]) == 1:
            continue
        while int(st.s.u[tank, U_HEX]) == hex_of(g, "3,1") and actions(st, "step"):
            act(st, "step", tank)                      # its owner moves it out (a fallback's path)
        assert int(st.s.u[tank, U_HEX]) != hex_of(g, "3,1")
        assert [e[2:4] for e in cc_events(st, EV_MUST_LEAVE)] == [(tank, hex_of(g, "3,1"))]
        assert not cc_events(st, EV_FALLBACK)
        assert _texts(st, EV_MUST_LEAVE) == [
            "  Pz IIF (german) must leave 3,1: suppressed by the attack on its wheels/tracks (12.9, "
            "revised 12.5); not a fallback, it takes a fallback's path away from the enemy (reading S11)"]
        assert not [row for row in describe_events(st) if "falls back" in row["text"]]
        return
    raise AssertionError("no lone suppression on the tracks in 400 games")


def test_the_turn_to_face_the_attacker_is_logged(tmp_path):
    """12.7.3, 12.8.2 (reading S23): the Panzer II in 3,1 faces E; the Soviet squad
    enters from 2,1, its rear. After the exchange the tank, still in the hex, steady and
    mobile, turns so that the side towards 2,1 is frontal, and the replay says so."""
    g = vgame(tmp_path, tank="3,1", rifles="2,1", initiative="soviet")
    r = unit(g, "soviet", "rifles-41")
    tank = unit(g, "german", "pz-iif")
    for seed in range(100):
        st = State(g, seed=seed, log=True)
        face0 = int(st.s.u[tank, U_FACE])
        _enter(g, st, r, "2,1", "3,1")
        act(st, "attack the vehicle")
        if not (int(st.s.u[tank, U_ST]) == ONMAP and int(st.s.u[tank, U_HEX]) == hex_of(g, "3,1")
                and int(st.s.u[tank, U_MORALE]) != FALLBACK and int(st.s.u[tank, U_IMMOB]) == 0):
            continue
        ev = cc_events(st, EV_FACE_ATTACKER)
        assert len(ev) == 1 and ev[0][2] == tank and ev[0][4] == hex_of(g, "2,1")
        face = int(st.s.u[tank, U_FACE])
        assert ev[0][3] == face != face0
        # the side crossed (3,1 towards 2,1) is one of the two frontal sides d, d + 1 (9.10)
        side_to_2_1 = [int(x) for x in g.tables.side6[hex_of(g, "3,1"), :, 0]].index(hex_of(g, "2,1"))
        assert side_to_2_1 in (face, (face + 1) % 6)
        (line,) = _texts(st, EV_FACE_ATTACKER)
        assert line.startswith("  Pz IIF (german) turns to face its attacker, who came from 2,1: now facing ")
        assert line.endswith("(12.7.3, 12.8.2)")
        return
    raise AssertionError("the tank never stayed mobile in its hex in 100 games")
