"""Rules of rulings T40-T43 on a tiny field (tests/games/toi/game/data/tiny-more.scenario.toml):
digging entrenchments (001 Engineer: Dig Entrenchment; T40), setting up squads in transport
vehicles (001 Setup; T41), supporters of area attacks (001 Area attacks; Combined fire;
T42), moving through hexes of concealed enemy squads (001 Concealed squads; T43)."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.games.toi.game import state as S
from simulator.games.toi.game import tables as T
from simulator.games.toi.game.game import State
from simulator.games.toi.game.invariants import problems
from tests.games.toi.game.util import arg_of, events, find, hex_of, kind_of, teleport, tiny_game, unit_of

MORE = Path(__file__).parent / "data" / "tiny-more.scenario.toml"
AENG, A1, AMORT, A3, AHT, ATRUCK, ATANK, BHID, B1, B2, BHT = range(11)
DEFAULT = {AENG: "1,1", A1: "1,0", AMORT: "0,2", A3: "1,2", AHT: "0,0", ATRUCK: "0,1", ATANK: "0,0",
           BHID: "5,0", B1: "5,2", B2: "4,2", BHT: "5,1"}


def deployed(where: dict[int, str] | None = None, inside: dict[int, int] | None = None, seed: int = 0) -> State:
    """The tiny game after its set-up: units where DEFAULT says, the squads of ``inside`` set up
    in the vehicle named, then moved by hand as ``where`` says; round 1, side a to act."""
    game = tiny_game(MORE)
    st = State(game, seed)
    inside = inside or {}
    while st.s.g[S.G_SUB] == S.SUB_PLACE:
        k = unit_of(st.legal_actions()[0])
        if k in inside:
            st.apply_action(find(st, S.K_PLACE_IN, k, inside[k]))
        else:
            st.apply_action(find(st, S.K_PLACE, k, 2 * hex_of(game, DEFAULT[k])))
    for k, name in (where or {}).items():
        old = int(st.s.u[k, S.U_HEX])
        teleport(st, k, hex_of(game, name))
        if st.s.u[k, S.U_VEHICLE]:
            side = int(st.s.u[k, S.U_SIDE])
            st.s.hx[old, S.HX_VEH + side] -= 1
            st.s.hx[hex_of(game, name), S.HX_VEH + side] += 1
    while st.s.g[S.G_SUB] == S.SUB_SET_OPFIRE:
        st.apply_action(find(st, S.K_OPFIRE_DONE))
    return st


def direction(st: State, a: str, b: str) -> int:
    t, game = st.game.tables, st.game
    return [d for d in range(6) if t.side6[hex_of(game, a), d, T.S6_NBR] == hex_of(game, b)][0]


def ok(st: State) -> None:
    bad = problems(st.s, st.game.tables)
    assert not bad, bad


# --- T41: setting up squads in vehicles (001 Setup; Transporting squads in vehicles) ------------

def test_vehicles_are_placed_first_and_squads_may_start_in_a_transport_with_room():
    game = tiny_game(MORE)
    st = State(game, 0)
    order = []
    while st.s.g[S.G_SUB] == S.SUB_PLACE and int(st.s.g[S.G_PLACER]) == 0:
        k = unit_of(st.legal_actions()[0])
        order.append(k)
        if k in (AENG, A1):                                  # both into the half-track: room for one
            into = [arg_of(a) for a in st.legal_actions() if kind_of(a) == S.K_PLACE_IN]
            if k == AENG:
                assert sorted(into) == [AHT, ATRUCK]         # the transports, not the tank
                st.apply_action(find(st, S.K_PLACE_IN, k, AHT))
                continue
            assert into == [ATRUCK]                          # Transport (1): the half-track is full
            st.apply_action(find(st, S.K_PLACE_IN, k, ATRUCK))
            continue
        st.apply_action(find(st, S.K_PLACE, k, 2 * hex_of(game, DEFAULT[k])))
    assert order[:3] == [AHT, ATRUCK, ATANK]                 # vehicles first (rulings T41)
    assert st.s.u[AENG, S.U_ST] == S.CARRIED and st.s.u[AENG, S.U_CARRIER] == AHT and st.s.u[AENG, S.U_HEX] == -1
    assert st.s.u[A1, S.U_ST] == S.CARRIED and st.s.u[A1, S.U_CARRIER] == ATRUCK
    assert st.s.hx[hex_of(game, "0,1"), S.HX_OCC] == 1       # the truck and its squad: one unit
    assert [e[3] for e in events(st, "set up in a vehicle")] == [AHT, ATRUCK]
    assert unit_of(st.legal_actions()[0]) == BHT             # b's turn: its vehicle first
    st.apply_action(find(st, S.K_PLACE, BHT, 2 * hex_of(game, "5,1")))
    into = [arg_of(a) for a in st.legal_actions() if kind_of(a) == S.K_PLACE_IN]
    assert into == [BHT]                                     # its own transport, never the enemy's
    ok(st)


def test_a_squad_set_up_in_a_vehicle_gets_out_in_the_action_phase():
    st = deployed(inside={A1: ATRUCK})
    ok(st)
    assert "prepare op fire" not in {S.KIND_NAMES[kind_of(a)] for a in st.legal_actions() if unit_of(a) == A1}
    st.apply_action(find(st, S.K_ADVANCE, A1))
    st.apply_action(find(st, S.K_DISEMBARK, A1, ATRUCK))
    assert st.s.u[A1, S.U_ST] == S.ONMAP and st.s.u[A1, S.U_HEX] == hex_of(st.game, "0,1")
    assert st.s.g[S.G_MP] == 4 - 2                           # 2 MPs to get out (001 Transporting squads)
    ok(st)


def test_no_set_up_in_a_transport_outside_the_squads_zone():
    game = tiny_game(MORE)
    st = State(game, 0)
    for k in (AHT, ATRUCK, ATANK):
        st.apply_action(find(st, S.K_PLACE, k, 2 * hex_of(game, DEFAULT[k])))
    old = int(st.s.u[ATRUCK, S.U_HEX])
    teleport(st, ATRUCK, hex_of(game, "3,1"))                # out of the west zone
    st.s.hx[old, S.HX_VEH] -= 1
    st.s.hx[hex_of(game, "3,1"), S.HX_VEH] += 1
    into = [arg_of(a) for a in st.legal_actions() if kind_of(a) == S.K_PLACE_IN]
    assert into == [AHT]


# --- T40: digging entrenchments (001 Engineer: Dig Entrenchment) -----------------------------------

def test_an_engineer_digs_an_entrenchment_enters_it_and_gets_its_cover():
    st = deployed(where={AENG: "3,1"})
    h = hex_of(st.game, "3,1")
    digs = {arg_of(a) for a in st.legal_actions() if kind_of(a) == S.K_DIG}
    assert digs == {0, 1} and all(unit_of(a) == AENG for a in st.legal_actions() if kind_of(a) == S.K_DIG)
    st.apply_action(find(st, S.K_DIG, AENG, 1))
    assert st.s.hx[h, S.HX_FORT] == 1 and st.s.u[AENG, S.U_IN] == 1
    assert st.s.u[AENG, S.U_TOKEN] == S.TOK_FATIGUED         # the action fatigues it
    assert events(st, "an entrenchment dug")[-1][3:6] == (h, 1, 1)
    ok(st)
    st.apply_action(find(st, S.K_FATIGUE, A1))
    st.apply_action(find(st, S.K_FIRE, B2, AENG))            # b fires at it: clear 0 + entrenchment 2
    assert events(st, "attack")[-1][6] == 2
    ok(st)


def test_digging_only_where_the_rules_allow_and_three_markers_at_most():
    st = deployed(where={AENG: "2,0"})                       # a building hex
    assert not [a for a in st.legal_actions() if kind_of(a) == S.K_DIG]
    st = deployed(where={AENG: "3,2"})                       # a pillbox hex (one kind a hex, rulings T40)
    assert not [a for a in st.legal_actions() if kind_of(a) == S.K_DIG]
    st = deployed(where={AENG: "3,1"})
    st.s.hx[hex_of(st.game, "3,1"), S.HX_FORT] = 3           # full (001 Engineer: 3 markers)
    assert not [a for a in st.legal_actions() if kind_of(a) == S.K_DIG]
    st.s.hx[hex_of(st.game, "3,1"), S.HX_FORT] = 2
    st.s.u[AENG, S.U_IN] = 1                                 # already in one: dig, not enter twice
    assert {arg_of(a) for a in st.legal_actions() if kind_of(a) == S.K_DIG} == {0}
    st.s.u[AENG, S.U_COND] = S.COND_PINNED                   # a pinned squad takes no special action
    assert not [a for a in st.legal_actions() if kind_of(a) == S.K_DIG]


def test_a_dug_entrenchment_stays_for_any_squad_of_either_side():
    st = deployed(where={AENG: "3,1", A1: "2,2"})
    h = hex_of(st.game, "3,1")
    st.apply_action(find(st, S.K_DIG, AENG, 0))              # dug, not entered
    assert st.s.u[AENG, S.U_IN] == 0 and st.s.hx[h, S.HX_FORT] == 1
    st.apply_action(find(st, S.K_ADVANCE, A1))
    st.apply_action(find(st, S.K_STEP, A1, direction(st, "2,2", "3,1")))
    st.apply_action(find(st, S.K_FORT_IN, A1))               # the new marker takes another squad
    assert st.s.u[A1, S.U_IN] == 1
    assert S.K_FORT_IN not in {kind_of(a) for a in st.legal_actions()}
    ok(st)


# --- T42: supporters of area attacks (001 Area attacks; Combined fire) -----------------------------

def test_an_area_attack_may_be_supported_by_every_eligible_unit_at_half_fpr():
    where = {B1: "5,2", B2: "5,2", A1: "1,2", A3: "1,2", AENG: "1,2", AMORT: "0,2"}
    st = deployed(where=where)
    game = st.game
    for k in (ATANK, AHT, ATRUCK):                           # the vehicles would support too
        st.s.u[k, S.U_TOKEN] = S.TOK_FATIGUED
    h = hex_of(game, "5,2")
    plain, sup = S.area_arg.py_func(h, S.MODE_NORMAL, 0), S.area_arg.py_func(h, S.MODE_NORMAL, 1)
    args = {arg_of(a) for a in st.legal_actions() if kind_of(a) == S.K_AREA and unit_of(a) == AMORT}
    assert {plain, sup} <= args
    st.apply_action(find(st, S.K_AREA, AMORT, sup))
    rolls = [e for e in events(st, "attack") if e[2] == AMORT]
    assert sorted(e[3] for e in rolls) == [B1, B2]
    # the mortar's 4, and half of 4, 4 and 3 regulars (rounded up): 2 + 2 + 2
    assert all(e[5] == 4 + 2 + 2 + 2 for e in rolls)
    for k in (AMORT, A1, A3, AENG):
        assert st.s.u[k, S.U_TOKEN] == S.TOK_FATIGUED
    ok(st)


def test_an_unsupported_area_attack_fatigues_nobody_else_and_support_needs_a_fresh_unit():
    where = {B1: "5,2", A1: "1,2", A3: "1,2", AENG: "1,1", AMORT: "0,2", ATANK: "0,0"}
    st = deployed(where=where)
    h = hex_of(st.game, "5,2")
    st.apply_action(find(st, S.K_AREA, AMORT, S.area_arg.py_func(h, S.MODE_SUPPRESSIVE, 0)))
    assert [e[5] for e in events(st, "attack") if e[2] == AMORT] == [4]
    assert all(st.s.u[k, S.U_TOKEN] == S.TOK_FRESH for k in (A1, A3, AENG))
    st2 = deployed(where=where)
    for k in (A1, A3, AENG, ATANK, AHT, ATRUCK):
        st2.s.u[k, S.U_TOKEN] = S.TOK_FATIGUED
    args = {arg_of(a) for a in st2.legal_actions() if kind_of(a) == S.K_AREA and unit_of(a) == AMORT}
    assert S.area_arg.py_func(h, S.MODE_NORMAL, 0) in args
    assert not [x for x in args if S.area_support.py_func(x)]


def test_pinned_units_do_not_support_an_area_attack_and_a_supporting_tank_adds_half_its_fpr():
    where = {B1: "5,2", A1: "1,2", A3: "1,2", AENG: "1,1", AMORT: "0,2", ATANK: "0,0"}
    st = deployed(where=where)
    h = hex_of(st.game, "5,2")
    for k in (A1, A3, AENG, AHT, ATANK):
        st.s.u[k, S.U_COND] = S.COND_PINNED if not st.s.u[k, S.U_VEHICLE] else S.COND_NORMAL
    for k in (AHT, ATRUCK):
        st.s.u[k, S.U_TOKEN] = S.TOK_FATIGUED
    args = {arg_of(a) for a in st.legal_actions() if kind_of(a) == S.K_AREA and unit_of(a) == AMORT}
    t = st.game.tables
    if t.los[hex_of(st.game, "0,0"), h]:                      # the Sherman alone may support
        st.apply_action(find(st, S.K_AREA, AMORT, S.area_arg.py_func(h, S.MODE_NORMAL, 1)))
        assert [e[5] for e in events(st, "attack") if e[2] == AMORT] == [4 + 3]    # 4 + half of 6
        assert st.s.u[ATANK, S.U_TOKEN] == S.TOK_FATIGUED
        assert all(st.s.u[k, S.U_TOKEN] == S.TOK_FRESH for k in (A1, A3, AENG))
    else:
        assert S.area_arg.py_func(h, S.MODE_NORMAL, 1) not in args


# --- T43: moving through hexes of concealed enemy squads (001 Concealed squads) ---------------------

def hide_in_woods(st: State) -> None:
    teleport(st, BHID, hex_of(st.game, "2,1"))
    st.s.u[BHID, S.U_HIDDEN] = 1


def test_a_squad_moves_through_a_hex_of_concealed_enemy_squads_but_does_not_stop_there():
    st = deployed(where={AENG: "0,1", A1: "1,1"})
    hide_in_woods(st)
    st.apply_action(find(st, S.K_ADVANCE, A1))
    st.apply_action(find(st, S.K_STEP, A1, direction(st, "1,1", "2,1")))     # woods: 2 MPs, no extra
    assert st.s.u[A1, S.U_HEX] == hex_of(st.game, "2,1") and st.s.g[S.G_MP] == 2
    ok(st)
    names = {S.KIND_NAMES[kind_of(a)] for a in st.legal_actions()}
    assert "stop" not in names and "enter the fortification" not in names and "step" in names
    st.apply_action(find(st, S.K_STEP, A1, direction(st, "2,1", "3,1")))
    assert st.s.u[A1, S.U_HEX] == hex_of(st.game, "3,1")
    assert st.s.u[BHID, S.U_HIDDEN] == 1 and st.s.u[BHID, S.U_COND] == S.COND_NORMAL   # unaffected
    ok(st)


def test_a_revealed_enemy_squad_closes_its_hex_again():
    st = deployed(where={AENG: "0,1", A1: "1,1"})
    hide_in_woods(st)
    st.s.u[BHID, S.U_HIDDEN] = 0
    st.apply_action(find(st, S.K_ADVANCE, A1))
    steps = {arg_of(a) for a in st.legal_actions() if kind_of(a) == S.K_STEP}
    assert direction(st, "1,1", "2,1") not in steps


def test_a_mover_forced_to_end_its_move_among_concealed_squads_goes_back_fatigued():
    st = deployed(where={AENG: "0,1", A1: "1,1"})
    hide_in_woods(st)
    st.apply_action(find(st, S.K_ADVANCE, A1))
    st.s.g[S.G_MP] = 2                                       # just enough to get into the woods
    st.apply_action(find(st, S.K_STEP, A1, direction(st, "1,1", "2,1")))
    assert st.s.g[S.G_MP] == 0
    st.apply_action(find(st, S.K_STOP, A1))                  # no step left: it must stop
    assert st.s.u[A1, S.U_HEX] == hex_of(st.game, "1,1")      # back to the last hex without enemy units
    assert st.s.u[A1, S.U_TOKEN] == S.TOK_FATIGUED
    assert events(st, "returned")[-1][3] == hex_of(st.game, "1,1")
    assert st.s.u[BHID, S.U_HIDDEN] == 1
    ok(st)


def test_a_tank_moves_through_concealed_squads_as_through_an_empty_hex_pinning_nobody():
    st = deployed(where={ATANK: "1,1", AENG: "0,1", AHT: "0,2", AMORT: "1,2"})
    hide_in_woods(st)
    st.apply_action(find(st, S.K_ADVANCE, ATANK))
    st.apply_action(find(st, S.K_STEP, ATANK, direction(st, "1,1", "2,1")))
    assert st.s.g[S.G_MP] == 6 - 3                           # woods for vehicles, no +1 for the squad
    st.apply_action(find(st, S.K_STEP, ATANK, direction(st, "2,1", "3,1")))
    assert st.s.u[BHID, S.U_COND] == S.COND_NORMAL and not events(st, "pinned by an overrun")
    ok(st)


@pytest.mark.parametrize("seed", range(3))
def test_op_fire_from_inside_the_hex_reveals_the_squad_and_the_mover_may_still_leave(seed):
    st = deployed(where={AENG: "0,1", A1: "1,1"}, seed=seed)
    hide_in_woods(st)
    st.s.u[BHID, S.U_TOKEN] = S.TOK_OPFIRE
    st.apply_action(find(st, S.K_ADVANCE, A1))
    st.apply_action(find(st, S.K_STEP, A1, direction(st, "1,1", "2,1")))
    assert st.s.g[S.G_SUB] == S.SUB_OPFIRE
    st.apply_action(find(st, S.K_OPFIRE, BHID, S.fire_arg.py_func(A1, S.MODE_NORMAL, 0)))
    assert st.s.u[BHID, S.U_HIDDEN] == 0
    assert events(st, "op fire attack")[-1][6] == 2           # at the mover in the woods, close range
    ok(st)
    kinds = {kind_of(a) for a in st.legal_actions()}
    if st.s.g[S.G_UNIT] == A1:                               # still moving: it may leave, not stop
        assert S.K_STEP in kinds and S.K_STOP not in kinds
    else:                                                    # stopped by the fire: back out of the hex
        assert st.s.u[A1, S.U_HEX] != hex_of(st.game, "2,1")


def test_random_games_dig_set_up_in_vehicles_support_area_attacks_and_stay_legal():
    """Random games on the field (every state checked by the invariants: at most 3 markers a
    hex, dug only where allowed, passengers only in friendly transports with room, the mover
    alone among concealed squads) use every one of the four rules."""
    import random

    from tests.games.toi.game.test_toi_games import random_game
    rng = random.Random(7)
    game = tiny_game(MORE)
    seen: set[str] = set()
    supported = False
    for seed in range(30):
        st = random_game(game, seed, rng, boldness=0.3 * (seed % 2))
        seen |= {e[0] for e in st.events()}
        supported |= any(e[0].startswith("attack") and e[4] >= 2 and e[5] > 4 for e in st.events())   # area, > the mortar's 4
    for name in ("an entrenchment dug", "set up in a vehicle"):
        assert any(x.startswith(name) for x in seen), name
    assert supported
