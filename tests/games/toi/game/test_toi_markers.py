"""Markers that come and go in a game: smoke placed by the scenario (001 Smoke; rulings
T36) and razor wire removed by engineers, tanks and area attacks (001 Razor wire; T37)."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.games.toi.game import state as S
from simulator.games.toi.game import tables as T
from simulator.games.toi.game.invariants import problems
from simulator.games.toi.game.scenario import load_scenario
from tests.games.toi.game.util import (
    A0,
    A1,
    A3,
    AMG,
    B0,
    B1,
    BOFF,
    MARKED,
    TINY,
    arg_of,
    deployed,
    events,
    figures,
    find,
    hex_of,
    kind_of,
    unit_of,
)

SMOKE = Path(__file__).parent / "data" / "tiny-smoke.scenario.toml"      # tiny, smoke at 3,0


def step_to(st, k: int, name: str) -> None:
    t, game = st.game.tables, st.game
    h = int(st.s.u[k, S.U_HEX])
    d = [d for d in range(6) if t.side6[h, d, T.S6_NBR] == hex_of(game, name)][0]
    st.apply_action(find(st, S.K_STEP, k, d))


def fire_targets(st, k: int) -> set[int]:
    return {S.fire_target.py_func(arg_of(a)) for a in st.legal_actions() if kind_of(a) == S.K_FIRE and unit_of(a) == k}


# --- smoke (001 Smoke; rulings T36) ----------------------------------------------------------

def test_smoke_blocks_the_line_of_sight_until_the_status_phase_removes_it():
    st = deployed(path=SMOKE)
    game, t = st.game, st.game.tables
    sm = hex_of(game, "3,0")
    assert t.hexi[sm, T.HI_SMOKE] == 1 and st.s.hx[sm, S.HX_SMOKE] == 1 and st.s.g[S.G_SMOKE] == 1
    west = [hex_of(game, f"{c},{r}") for c in (0, 1) for r in range(3)]
    east = [hex_of(game, f"{c},{r}") for c in (4, 5) for r in range(3)]
    pairs = [(a, b) for a in west for b in east if t.los[a, b] and not t.los_smoke[a, b]]
    assert pairs                                              # blocking terrain (001 Smoke)
    a, b = pairs[0]
    st = deployed(path=SMOKE, where={A1: game.scenario.hex_name(a), B0: game.scenario.hex_name(b)})
    assert B0 not in fire_targets(st, A1)
    st.apply_action(find(st, S.K_PASS))
    while st.s.g[S.G_SUB] == S.SUB_SELECT:
        st.apply_action(find(st, S.K_PASS))
    assert st.s.g[S.G_SMOKE] == 0 and st.s.hx[sm, S.HX_SMOKE] == 0      # 001 Status phase, 2: removed
    assert events(st, "smoke removed")[-1][3] == sm
    assert not problems(st.s, t)
    while st.s.g[S.G_SUB] != S.SUB_SELECT:
        st.apply_action(st.legal_actions()[0])
    for k in (BOFF, B1):                                      # b, with the initiative now, acts first
        if st.s.g[S.G_ACTIVE] == 1:
            st.apply_action(find(st, S.K_FATIGUE, k))
    assert st.current_player() == 0
    assert B0 in fire_targets(st, A1)                        # the line is open again


def test_smoke_gives_two_cover_and_halves_the_units_in_it():
    st = deployed(path=SMOKE, where={A0: "2,0", B1: "3,0", A1: "0,0", AMG: "0,2"})
    st.apply_action(find(st, S.K_FIRE, A0, B1))
    ev = events(st, "attack")[-1]
    assert ev[5] == 4 and ev[6] == 0 + 2                      # clear 0 + smoke 2
    st.apply_action(find(st, S.K_FATIGUE, A3))
    assert st.s.u[B1, S.U_ST] == S.ONMAP
    st.apply_action(find(st, S.K_FIRE, B1, A0))
    assert events(st, "attack")[-1][5] == (figures(st, B1) + 1) // 2      # half FPR, rounded up


def test_assaulting_a_smoke_hex_halves_the_attacker_allows_no_support_and_covers_the_defender():
    st = deployed(path=SMOKE, where={A1: "2,1", A0: "2,0", B1: "3,0"})
    game = st.game
    st.apply_action(find(st, S.K_ASSAULT, A1))
    st.apply_action(find(st, S.K_STOP))
    target = hex_of(game, "3,0")
    options = {arg_of(a) for a in st.legal_actions() if kind_of(a) == S.K_ATTACK_HEX}
    assert target * 2 in options and target * 2 + 1 not in options        # A0 may not support (T10)
    st.apply_action(find(st, S.K_ATTACK_HEX, A1, target * 2))
    ev = events(st, "assault")[-1]
    assert ev[4] == 2 and ev[5] == 0 + 2 and ev[6] == 2      # 4 halved; smoke's +2 cover; 4 halved


def test_smoke_on_a_building_or_twice_in_a_hex_is_refused(tmp_path):
    from simulator.run.errors import InputError
    text = TINY.read_text()
    for smoke, why in (('["3,0", "3,0"]', "at most one"), ('["3,1"]', "no smoke")):
        bad = text.replace('initiative = "a"\n', f'initiative = "a"\nsmoke = {smoke}\n', 1)
        if why == "no smoke":
            bad = bad.replace('"w" = "woods"', '"w" = "woods"\n"b" = "building"').replace('"......",\n  "..w...",',
                                                                                       '"......",\n  "..wb..",')
        p = tmp_path / "bad.scenario.toml"
        p.write_text(bad)
        with pytest.raises(InputError, match=why):
            load_scenario(str(p))


# --- razor wire (001 Razor wire; rulings T37) --------------------------------------------------

def test_an_engineer_removes_razor_wire_for_two_mp_and_then_it_no_longer_stops_anyone():
    from tests.games.toi.game.util import BENG
    st = deployed(where={BENG: "3,0", A1: "0,0", A0: "0,2", AMG: "0,2"}, path=MARKED)
    game = st.game
    wire = hex_of(game, "2,0")
    st.apply_action(find(st, S.K_FATIGUE, A0))
    st.apply_action(find(st, S.K_FATIGUE, A1))
    st.apply_action(find(st, S.K_ADVANCE, BENG))
    assert S.K_CUT_WIRE not in {kind_of(a) for a in st.legal_actions()}   # no wire in 3,0
    step_to(st, BENG, "2,0")
    assert st.s.g[S.G_MP] == 3
    st.apply_action(find(st, S.K_CUT_WIRE, BENG))
    assert st.s.g[S.G_MP] == 1 and st.s.hx[wire, S.HX_WIRE] == 0
    assert events(st, "razor wire removed")[-1][3] == wire
    assert st.s.g[S.G_SUB] == S.SUB_MOVE                     # the move goes on
    assert not problems(st.s, st.game.tables)
    st2 = deployed(where={B0: "3,0", A1: "0,0", A0: "0,2", AMG: "0,2"}, path=MARKED)
    st2.apply_action(find(st2, S.K_FATIGUE, A0))
    st2.apply_action(find(st2, S.K_FATIGUE, A1))
    st2.apply_action(find(st2, S.K_ADVANCE, B0))
    step_to(st2, B0, "2,0")
    assert st2.s.g[S.G_MP] == 0                               # a plain squad stops in the wire
    assert S.K_CUT_WIRE not in {kind_of(a) for a in st2.legal_actions()}
    st2.s.hx[wire, S.HX_WIRE] = 0                             # as if an engineer had removed it
    st3 = deployed(where={B0: "3,0", A1: "0,0", A0: "0,2", AMG: "0,2"}, path=MARKED)
    st3.s.hx[wire, S.HX_WIRE] = 0
    st3.apply_action(find(st3, S.K_FATIGUE, A0))
    st3.apply_action(find(st3, S.K_FATIGUE, A1))
    st3.apply_action(find(st3, S.K_ADVANCE, B0))
    step_to(st3, B0, "2,0")
    assert st3.s.g[S.G_MP] == 3                               # no wire, no stop
    assert B0 in {unit_of(a) for a in st3.legal_actions() if kind_of(a) == S.K_STEP}


def test_a_mortar_area_attack_sometimes_removes_the_wire():
    from tests.games.toi.game.util import BMORT
    removed = 0
    for seed in range(30):
        st = deployed(seed, where={A1: "2,0", BMORT: "5,0", B0: "5,1", B1: "5,2", BOFF: "4,2"}, path=MARKED)
        wire = hex_of(st.game, "2,0")
        st.apply_action(find(st, S.K_FATIGUE, A0))
        st.apply_action(find(st, S.K_FATIGUE, A3))
        st.apply_action(find(st, S.K_AREA, BMORT, wire * 2 + S.MODE_NORMAL))
        gone = st.s.hx[wire, S.HX_WIRE] == 0
        assert gone == bool(events(st, "razor wire removed"))
        removed += gone
        assert not problems(st.s, st.game.tables)
    assert 0 < removed < 30


# --- the medic's Heal (001 Medic; rulings T38) -----------------------------------------------

def test_a_medic_heals_a_wounded_squad_of_its_hex_on_four_to_six_as_an_action():
    from tests.games.toi.game.util import BMED
    reg = None
    healed = 0
    for seed in range(30):
        st = deployed(seed, where={BMED: "4,2", B0: "4,2", A1: "0,0", A0: "0,2", AMG: "0,2"}, path=MARKED)
        reg = st.game.scenario.figure_names.index("regular")
        st.apply_action(find(st, S.K_FATIGUE, A0))
        st.apply_action(find(st, S.K_FATIGUE, A1))
        assert S.K_HEAL not in {kind_of(a) for a in st.legal_actions()}        # nobody wounded
        st.s.u[B0, S.U_FIG + reg] = 2                         # as if it had lost two figures to hits
        st.s.u[B0, S.U_WOUNDS] = 2
        assert {arg_of(a) for a in st.legal_actions() if kind_of(a) == S.K_HEAL} == {B0}
        st.apply_action(find(st, S.K_HEAL, BMED, B0))
        die, ok = events(st, "medic")[-1][4:6]
        assert ok == (die >= 4) and figures(st, B0) == 2 + ok and st.s.u[B0, S.U_WOUNDS] == 2 - ok
        assert st.s.u[BMED, S.U_TOKEN] == S.TOK_FATIGUED
        healed += ok
        assert not problems(st.s, st.game.tables)
    assert 0 < healed < 30
    st = deployed(where={BMED: "4,2", B0: "4,2"}, path=MARKED)
    st.s.u[B0, S.U_WOUNDS] = 1
    st.s.u[B0, S.U_FIG + reg] = 3
    st.s.u[BMED, S.U_COND] = S.COND_PINNED                    # no special ability when pinned
    st.apply_action(find(st, S.K_FATIGUE, A0))
    st.apply_action(find(st, S.K_FATIGUE, A1))
    assert S.K_HEAL not in {kind_of(a) for a in st.legal_actions()}


def test_figures_lost_to_hits_are_wounds():
    seen = 0
    for seed in range(10):
        st = deployed(seed, where={A0: "2,1", B0: "3,1"})
        st.apply_action(find(st, S.K_FIRE, A0, B0))
        lost = sum(e[3] for e in events(st, "figures lost") if e[2] == B0)
        assert st.s.u[B0, S.U_WOUNDS] == lost
        seen += lost > 0
    assert seen


def test_a_tank_removes_razor_wire_a_light_vehicle_does_not():
    from tests.games.toi.game.test_toi_vehicles import HALFTRACK, SHERMAN
    from tests.games.toi.game.test_toi_vehicles import deployed as deployed_vehicles
    st = deployed_vehicles()
    h = int(st.s.u[SHERMAN, S.U_HEX])
    st.s.hx[h, S.HX_WIRE] = 1                                 # as if the scenario had wire there
    st.s.hx[int(st.s.u[HALFTRACK, S.U_HEX]), S.HX_WIRE] = 1
    st.apply_action(find(st, S.K_ADVANCE, HALFTRACK))
    assert S.K_CUT_WIRE not in {kind_of(a) for a in st.legal_actions()}   # a light vehicle
    st.apply_action(find(st, S.K_STOP))
    st.apply_action(find(st, S.K_ADVANCE, SHERMAN))
    mp = int(st.s.g[S.G_MP])
    st.apply_action(find(st, S.K_CUT_WIRE, SHERMAN))
    assert st.s.g[S.G_MP] == mp - 2 and st.s.hx[h, S.HX_WIRE] == 0     # 001 Razor wire: a tank, 2 MP
