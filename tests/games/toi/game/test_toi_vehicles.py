"""Vehicles in a Tide of Iron game (001 Combat; Normal attack results; Tanks; Trucks;
Half-tracks; Setup: stacking; Assault; 002 first list, steps 3 and 7)."""

from __future__ import annotations

from pathlib import Path

from simulator.games.toi.game import state as S
from simulator.games.toi.game import tables as T
from simulator.games.toi.game.game import State
from tests.games.toi.game.util import arg_of, events, find, hex_of, kind_of, teleport, tiny_game, unit_of

VEHICLES = Path(__file__).parent / "data" / "tiny-vehicles.scenario.toml"
SQ, SHERMAN, SHERMAN2, HALFTRACK, BSQ, SDKFZ, PZ4 = range(7)


def deployed(seed: int = 0, where: dict[int, str] | None = None) -> State:
    game = tiny_game(VEHICLES)
    st = State(game, seed)
    default = {SQ: "1,1", SHERMAN: "1,0", SHERMAN2: "1,2", HALFTRACK: "0,1", BSQ: "4,1", SDKFZ: "4,0", PZ4: "4,2"}
    while st.s.g[S.G_SUB] == S.SUB_PLACE:
        k = unit_of(st.legal_actions()[0])
        st.apply_action(find(st, S.K_PLACE, k, 2 * hex_of(game, default[k])))
    while st.s.g[S.G_SUB] == S.SUB_SET_OPFIRE:
        st.apply_action(find(st, S.K_OPFIRE_DONE))
    for k, name in (where or {}).items():
        teleport(st, k, hex_of(game, name))
        if st.s.u[k, S.U_VEHICLE]:
            st.s.hx[int(hex_of(game, default[k])), S.HX_VEH + int(st.s.u[k, S.U_SIDE])] -= 1
            st.s.hx[hex_of(game, name), S.HX_VEH + int(st.s.u[k, S.U_SIDE])] += 1
    return st


def kinds_of(st: State, k: int) -> set[str]:
    return {S.KIND_NAMES[kind_of(a)] for a in st.legal_actions() if unit_of(a) == k and kind_of(a) != S.K_PASS}


def test_two_vehicles_a_hex_at_most():
    game = tiny_game(VEHICLES)
    st = State(game, 0)
    h = hex_of(game, "0,0")
    st.apply_action(find(st, S.K_PLACE, SHERMAN, 2 * h))                        # vehicles first (rulings T41)
    st.apply_action(find(st, S.K_PLACE, SHERMAN2, 2 * h))
    assert 2 * h not in {arg_of(a) for a in st.legal_actions()}                  # the half-track may not
    st.apply_action(find(st, S.K_PLACE, HALFTRACK, 2 * hex_of(game, "1,1")))
    assert 2 * h in {arg_of(a) for a in st.legal_actions() if unit_of(a) == SQ}  # a squad may: three units
    assert st.s.hx[h, S.HX_VEH] == 2


def test_a_vehicle_advances_with_vehicle_costs_and_never_assaults():
    game = tiny_game(VEHICLES)
    t = game.tables
    st = deployed(where={BSQ: "5,1", SDKFZ: "5,1", PZ4: "5,0"})
    assert "assault action" not in kinds_of(st, SHERMAN)
    assert {"advance", "fire and movement", "prepare op fire", "fatigue unit"} <= kinds_of(st, SHERMAN)
    st.apply_action(find(st, S.K_ADVANCE, SHERMAN))
    assert st.s.g[S.G_MP] == 6                                                 # Sherman MV 6
    woods = hex_of(game, "2,1")
    d = [d for d in range(6) if t.side6[hex_of(game, "1,0"), d, T.S6_NBR] == woods][0]
    st.apply_action(find(st, S.K_STEP, SHERMAN, d))
    assert st.s.g[S.G_MP] == 3                                                 # woods: 3 for vehicles
    assert S.K_FORT_IN not in {kind_of(a) for a in st.legal_actions()}
    st2 = deployed(where={BSQ: "5,1", SDKFZ: "5,1", PZ4: "5,0"})
    st2.apply_action(find(st2, S.K_FIREMOVE, SHERMAN))
    assert st2.s.g[S.G_MP] == 4                                                # 2 fewer MPs for a vehicle


def test_fire_at_a_vehicle_is_normal_against_armour_and_damages_it():
    seen = set()
    for seed in range(30):
        st = deployed(seed, where={SHERMAN: "1,2", SDKFZ: "4,2", PZ4: "5,0", BSQ: "5,0"})
        fires = [a for a in st.legal_actions() if kind_of(a) == S.K_FIRE and unit_of(a) == SHERMAN
                 and S.fire_target.py_func(arg_of(a)) == SDKFZ]
        assert fires and all(not (a >> 24) & 1 for a in fires)                 # never suppressive
        st.apply_action(find(st, S.K_FIRE, SHERMAN, SDKFZ))
        ev = events(st, "attack")[-1]
        assert ev[5] == 8 and ev[6] == 1                                       # Sherman vs vehicles 8; AV 1, clear
        hits = ev[7]
        expect = {0: 0, 1: 1, 2: 1, 3: 2}
        if hits >= 4:
            assert st.s.u[SDKFZ, S.U_ST] == S.DESTROYED
        else:
            assert st.s.u[SDKFZ, S.U_DMG] == expect[hits]
        seen.add(min(hits, 4))
    assert len(seen) >= 3


def test_no_assault_on_a_heavy_vehicle_and_light_vehicles_take_hits_first():
    game = tiny_game(VEHICLES)
    st = deployed(where={SQ: "3,1", PZ4: "4,1", BSQ: "4,2", SDKFZ: "4,2"})
    st.apply_action(find(st, S.K_ASSAULT, SQ))
    st.apply_action(find(st, S.K_STOP))
    targets = {arg_of(a) // 2 for a in st.legal_actions() if kind_of(a) == S.K_ATTACK_HEX}
    assert hex_of(game, "4,1") not in targets and hex_of(game, "4,2") in targets
    for seed in range(30):
        st = deployed(seed, where={SQ: "3,1", PZ4: "5,0", BSQ: "4,2", SDKFZ: "4,2"})
        st.apply_action(find(st, S.K_ASSAULT, SQ))
        st.apply_action(find(st, S.K_STOP))
        st.apply_action(find(st, S.K_ATTACK_HEX, SQ, 2 * hex_of(game, "4,2")))
        ev = events(st, "assault")[-1]
        assert ev[6] == 4 + 4                                                  # squad 4 + half-track 4 (002 step 3)
        a_hits = ev[7] // 100
        if 0 < a_hits < 4:                                                     # the half-track takes them all
            assert st.s.u[SDKFZ, S.U_DMG] > 0 or st.s.u[SDKFZ, S.U_ST] == S.DESTROYED
            bsq = int(st.s.u[BSQ, S.U_FIG:S.U_FIG + 8].sum())
            assert bsq == 4 or st.s.u[BSQ, S.U_ST] != S.ONMAP


def test_squads_ride_in_transport_vehicles_and_die_with_them():
    game = tiny_game(VEHICLES)
    t = game.tables
    st = deployed(where={SQ: "0,1", BSQ: "5,1", SDKFZ: "5,1", PZ4: "5,0"})
    st.apply_action(find(st, S.K_ADVANCE, SQ))
    st.apply_action(find(st, S.K_EMBARK, SQ, HALFTRACK))                      # 2 MPs, action over
    assert st.s.u[SQ, S.U_ST] == S.CARRIED and st.s.u[SQ, S.U_TOKEN] == S.TOK_FATIGUED
    assert st.s.hx[hex_of(game, "0,1"), S.HX_OCC] == 1                        # one unit for stacking
    assert SQ not in {S.fire_target.py_func(arg_of(a)) for a in st.legal_actions() if kind_of(a) == S.K_FIRE}
    st.apply_action(find(st, S.K_ADVANCE, HALFTRACK))                         # the half-track drives off
    d = [d for d in range(6) if t.side6[hex_of(game, "0,1"), d, T.S6_NBR] == hex_of(game, "1,1")][0]
    st.apply_action(find(st, S.K_STEP, HALFTRACK, d))
    st.apply_action(find(st, S.K_STOP))
    while st.s.g[S.G_ROUND] == 1:                                             # to round 2
        acts = st.legal_actions()
        pick = [a for a in acts if kind_of(a) in (S.K_PASS, S.K_OPFIRE_DONE)] or acts
        st.apply_action(pick[0])
    while st.current_player() != 0:
        st.apply_action(find(st, S.K_FATIGUE))
    assert st.s.u[SQ, S.U_TOKEN] == S.TOK_FRESH                               # tokens removed inside too
    st.apply_action(find(st, S.K_ADVANCE, SQ))
    assert {kind_of(a) for a in st.legal_actions()} == {S.K_STOP, S.K_DISEMBARK}
    st.apply_action(find(st, S.K_DISEMBARK, SQ))
    assert st.s.u[SQ, S.U_ST] == S.ONMAP and st.s.u[SQ, S.U_HEX] == hex_of(game, "1,1") and st.s.g[S.G_MP] == 2
    st2 = deployed(where={SQ: "0,1"})
    st2.apply_action(find(st2, S.K_ADVANCE, SQ))
    st2.apply_action(find(st2, S.K_EMBARK, SQ, HALFTRACK))
    st2.s.u[HALFTRACK, S.U_DMG] = S.DMG_HEAVY                                  # one more hit destroys it
    for seed in range(40):
        trial = st2.clone()
        trial.s.rng[0, 0] ^= seed + 1
        while trial.current_player() != 1:
            trial.apply_action(find(trial, S.K_PASS))
        teleport(trial, BSQ, hex_of(game, "1,1"))
        trial.apply_action(find(trial, S.K_FIRE, BSQ, HALFTRACK))
        if trial.s.u[HALFTRACK, S.U_ST] == S.DESTROYED:
            assert trial.s.u[SQ, S.U_ST] == S.DESTROYED                      # all squads in it too
            break
    else:
        raise AssertionError("the half-track was never destroyed")


def test_a_tank_trap_is_entered_only_from_the_start_hex_and_ends_the_move():
    game = tiny_game(VEHICLES)
    t = game.tables

    def step(st, k, a, b):
        d = [d for d in range(6) if t.side6[hex_of(game, a), d, T.S6_NBR] == hex_of(game, b)][0]
        return find(st, S.K_STEP, k, d)
    st = deployed(where={BSQ: "5,1", SDKFZ: "5,1", PZ4: "5,2"})
    st.apply_action(find(st, S.K_ADVANCE, SHERMAN))                            # at 1,0, next to the trap
    st.apply_action(step(st, SHERMAN, "1,0", "2,0"))
    assert st.s.g[S.G_MP] == 0
    st2 = deployed(where={SHERMAN: "0,0", BSQ: "5,1", SDKFZ: "5,1", PZ4: "5,2"})
    st2.apply_action(find(st2, S.K_ADVANCE, SHERMAN))
    st2.apply_action(step(st2, SHERMAN, "0,0", "1,0"))
    trap = hex_of(game, "2,0")
    assert all(t.side6[hex_of(game, "1,0"), arg_of(a), T.S6_NBR] != trap
               for a in st2.legal_actions() if kind_of(a) == S.K_STEP)
    assert t.hexi[trap, T.HI_TRAP] == 1                                        # +1 cover for squads


def test_a_tank_overruns_a_hex_pinning_its_squads_or_falls_back_when_stopped_in_it():
    game = tiny_game(VEHICLES)
    t = game.tables

    def step(st, k, a, b):
        d = [d for d in range(6) if t.side6[hex_of(game, a), d, T.S6_NBR] == hex_of(game, b)][0]
        return find(st, S.K_STEP, k, d)
    where = {SHERMAN: "3,1", BSQ: "4,1", SDKFZ: "5,0", PZ4: "5,0"}
    st = deployed(where=where)
    st.apply_action(find(st, S.K_ADVANCE, SHERMAN))
    st.apply_action(step(st, SHERMAN, "3,1", "4,1"))
    assert st.s.g[S.G_MP] == 6 - 1 - 1                                         # clear + 1 a unit
    assert S.K_STOP not in {kind_of(a) for a in st.legal_actions()}              # it may not stay
    st.apply_action(step(st, SHERMAN, "4,1", "5,1"))
    assert st.s.u[BSQ, S.U_COND] == S.COND_PINNED                              # pinned when it leaves
    st2 = deployed(where=where)
    st2.apply_action(find(st2, S.K_ADVANCE, SHERMAN))
    st2.apply_action(step(st2, SHERMAN, "3,1", "4,1"))
    st2.s.g[S.G_MP] = 0                                                        # as if it had no MP left
    st2.apply_action(find(st2, S.K_STOP))
    assert st2.s.u[SHERMAN, S.U_HEX] == hex_of(game, "3,1")                    # back to the last free hex
    assert st2.s.u[SHERMAN, S.U_TOKEN] == S.TOK_FATIGUED
    assert st2.s.u[BSQ, S.U_COND] == S.COND_NORMAL                             # and nobody is pinned
