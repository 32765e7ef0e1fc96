"""Concealed squads set by the scenario (001 Concealed squads; rulings T39)."""

from __future__ import annotations

from pathlib import Path

from simulator.games.toi.game import state as S
from simulator.games.toi.game import tables as T
from simulator.games.toi.game.events import REVEAL_ADJACENT, REVEAL_FIRED, REVEAL_OBJECTIVE, REVEAL_SEEN
from simulator.games.toi.game.invariants import problems
from tests.games.toi.game.util import (
    A0,
    A1,
    A3,
    AMG,
    B0,
    B1,
    BOFF,
    arg_of,
    deployed,
    events,
    find,
    hex_of,
    kind_of,
    unit_of,
)

HIDDEN = Path(__file__).parent / "data" / "tiny-concealed.scenario.toml"   # woods 2,1-4,1; B0 concealed


def fire_targets(st, k: int) -> set[int]:
    return {S.fire_target.py_func(arg_of(a)) for a in st.legal_actions() if kind_of(a) == S.K_FIRE and unit_of(a) == k}


def revealed(st, k: int) -> list[int]:
    return [e[3] for e in events(st, "a concealed squad revealed") if e[2] == k]


def test_a_concealed_squad_is_never_fired_upon_nor_assaulted_until_it_fires():
    st = deployed(path=HIDDEN, where={A1: "3,1", A0: "3,0"})       # B0 in the woods at 4,1
    assert st.s.u[B0, S.U_HIDDEN] == 1 and st.s.u[B1, S.U_HIDDEN] == 0
    assert B0 not in fire_targets(st, A1) and B0 not in fire_targets(st, A0)
    assert B1 in fire_targets(st, A0)                               # the visible squad next door
    st.apply_action(find(st, S.K_ASSAULT, A1))
    st.apply_action(find(st, S.K_STOP))
    target = hex_of(st.game, "4,1")
    if st.s.g[S.G_SUB] == S.SUB_ASSAULT:
        assert target not in {arg_of(a) >> 1 for a in st.legal_actions() if kind_of(a) == S.K_ATTACK_HEX}
        st.apply_action(find(st, S.K_NO_ASSAULT))
    st.apply_action(find(st, S.K_FATIGUE, A3))
    assert st.current_player() == 1 and st.s.u[B0, S.U_HIDDEN] == 1
    st.apply_action(find(st, S.K_FIRE, B0, A1))
    assert st.s.u[B0, S.U_HIDDEN] == 0 and revealed(st, B0) == [REVEAL_FIRED]
    assert not problems(st.s, st.game.tables)


def test_a_concealed_squad_in_sight_in_the_open_is_revealed_at_once():
    st = deployed(path=HIDDEN, where={B0: "4,0", A1: "3,0"})        # clear, next to A1
    assert st.s.u[B0, S.U_HIDDEN] == 0 and revealed(st, B0) == [REVEAL_SEEN]
    assert B0 in fire_targets(st, A1)


def test_a_concealed_squad_moving_into_an_objective_hex_is_revealed():
    st = deployed(path=HIDDEN, where={A1: "0,0", A0: "0,2", AMG: "0,2"})
    st.apply_action(find(st, S.K_FATIGUE, A0))
    st.apply_action(find(st, S.K_FATIGUE, A1))
    st.apply_action(find(st, S.K_ADVANCE, B0))
    t, game = st.game.tables, st.game
    d = [d for d in range(6) if t.side6[hex_of(game, "4,1"), d, T.S6_NBR] == hex_of(game, "3,1")][0]
    st.apply_action(find(st, S.K_STEP, B0, d))                      # woods: cover, but the objective
    assert st.s.u[B0, S.U_HIDDEN] == 0 and revealed(st, B0) == [REVEAL_OBJECTIVE]


def test_a_concealed_squad_next_to_an_enemy_at_the_end_of_the_status_phase_is_revealed():
    st = deployed(path=HIDDEN, where={A1: "3,1", B1: "5,2", BOFF: "5,2"})
    while st.s.g[S.G_SUB] == S.SUB_SELECT:
        st.apply_action(find(st, S.K_PASS))
    assert st.s.u[B0, S.U_HIDDEN] == 1                               # in cover: not revealed by sight
    while st.s.g[S.G_ROUND] == 1 and not st.is_terminal():
        st.apply_action(find(st, S.K_OPFIRE_DONE) if st.s.g[S.G_SUB] == S.SUB_SET_OPFIRE
                        else st.legal_actions()[0])
    assert st.s.u[B0, S.U_HIDDEN] == 0 and revealed(st, B0) == [REVEAL_ADJACENT]
    assert not problems(st.s, st.game.tables)
