"""The Tide of Iron round, action by action and phase by phase, on the tiny scenario
(001 Setup; Action phase; Movement; Combat; Command phase; Status phase; 002)."""

from __future__ import annotations

import random

import pytest

from simulator.games.toi.game import state as S
from simulator.games.toi.game import tables as T
from simulator.games.toi.game.game import State
from simulator.games.toi.rules.assault import AssaultSetup, defender_choice
from simulator.games.toi.rules.jit import assault_squad_losses
from simulator.games.toi.rules.units import Squad
from tests.games.toi.game.util import (
    A0,
    A1,
    A3,
    AMG,
    B0,
    B1,
    BOFF,
    BREIN,
    MARKED,
    arg_of,
    deployed,
    events,
    figures,
    find,
    hex_of,
    kind_of,
    kinds,
    teleport,
    tiny_game,
    unit_of,
)


def unit_kinds(st: State, k: int) -> set[str]:
    return {S.KIND_NAMES[kind_of(a)] for a in st.legal_actions() if unit_of(a) == k and kind_of(a) != S.K_PASS}


# --- set-up (001 Setup) -------------------------------------------------------------------

def test_setup_in_initiative_order_in_the_zones_then_op_fire_then_round_one():
    game = tiny_game()
    st = State(game, 0)
    assert st.current_player() == 0 and st.s.g[S.G_PHASE] == S.PH_SETUP      # a has the initiative
    west = {hex_of(game, f"{c},{r}") for c in (0, 1) for r in range(3)}
    assert {arg_of(a) // 2 for a in st.legal_actions()} == west
    for k in (A0, A1, AMG):                                                   # three fill a hex
        st.apply_action(find(st, S.K_PLACE, k, 2 * hex_of(game, "0,0")))
    assert hex_of(game, "0,0") not in {arg_of(a) // 2 for a in st.legal_actions()}    # stacking: three units
    st.apply_action(find(st, S.K_PLACE, A3, 2 * hex_of(game, "0,1")))
    assert st.current_player() == 1                                           # then b places
    for k in (B0, B1, BOFF):
        st.apply_action(find(st, S.K_PLACE, k, 2 * hex_of(game, "5,1")))
    assert st.s.g[S.G_SUB] == S.SUB_SET_OPFIRE and st.current_player() == 0   # op fire in initiative order
    st.apply_action(find(st, S.K_SET_OPFIRE, A3))
    st.apply_action(find(st, S.K_OPFIRE_DONE))
    assert st.current_player() == 1
    st.apply_action(find(st, S.K_OPFIRE_DONE))
    assert st.s.g[S.G_ROUND] == 1 and st.s.g[S.G_PHASE] == S.PH_ACTION and st.current_player() == 0
    assert st.s.u[A3, S.U_TOKEN] == S.TOK_OPFIRE
    assert A3 not in {unit_of(a) for a in st.legal_actions() if kind_of(a) != S.K_PASS}


# --- the action phase (001 Action phase) ----------------------------------------------------

def test_a_fresh_squad_has_every_action_a_heavy_weapon_squad_neither_fire_and_movement_nor_assault():
    st = deployed(where={B0: "5,1", B1: "5,1", BOFF: "5,1", A1: "0,0", AMG: "0,0"})   # nobody in reach
    assert unit_kinds(st, A1) == {"advance", "fire and movement", "assault action", "prepare op fire", "fatigue unit"}
    assert unit_kinds(st, AMG) == {"advance", "prepare op fire", "fatigue unit"}
    assert "end action phase" in kinds(st)


def test_pinned_squads_only_fatigue_unless_an_officer_rallies_them_to_fire():
    game = tiny_game()
    st = deployed(where={A0: "1,2", A1: "0,0", B0: "4,2"})
    st.s.u[A1, S.U_COND] = S.COND_PINNED
    assert unit_kinds(st, A1) == {"fatigue unit"}                              # 001 Squad conditions
    st.s.u[A0, S.U_COND] = S.COND_PINNED                                       # with its officer: Rally
    assert unit_kinds(st, A0) == {"fatigue unit", "concentrated fire"}
    st.apply_action(find(st, S.K_FIRE, A0, B0 | (S.MODE_NORMAL << 8)))
    fire = events(st, "attack")[-1]
    assert fire[5] == 2                                                        # FPR 4 halved (001 Officer: Rally)
    assert game.tables.los[hex_of(game, "1,2"), hex_of(game, "4,2")] == 1


def test_fatigued_units_are_not_activated_and_sides_alternate_their_actions():
    st = deployed()
    st.apply_action(find(st, S.K_FATIGUE, A0))
    assert st.s.u[A0, S.U_TOKEN] == S.TOK_FATIGUED and A0 not in {unit_of(a) for a in st.legal_actions()
                                                                     if kind_of(a) != S.K_PASS}
    assert st.current_player() == 0                                            # two actions a turn
    st.apply_action(find(st, S.K_FATIGUE, A1))
    assert st.current_player() == 1
    st.apply_action(find(st, S.K_FATIGUE, B0))
    st.apply_action(find(st, S.K_FATIGUE, B1))
    assert st.current_player() == 0
    st.apply_action(find(st, S.K_PASS))                                        # a declares its actions over
    assert st.current_player() == 1                                            # b acts until it has none
    st.apply_action(find(st, S.K_FATIGUE, BOFF))
    assert st.s.g[S.G_PHASE] == S.PH_STATUS and st.s.g[S.G_SUB] == S.SUB_SET_OPFIRE


def test_prepare_op_fire_keeps_the_unit_out_of_the_action_phase():
    st = deployed()
    st.apply_action(find(st, S.K_PREP_OPFIRE, A1))
    assert st.s.u[A1, S.U_TOKEN] == S.TOK_OPFIRE
    st.apply_action(find(st, S.K_FATIGUE, A0))
    st.apply_action(find(st, S.K_FATIGUE, B0))
    st.apply_action(find(st, S.K_FATIGUE, B1))
    assert A1 not in {unit_of(a) for a in st.legal_actions()}


# --- movement (001 Movement; Terrain) ------------------------------------------------------

def test_advance_pays_terrain_costs_and_never_enters_an_enemy_hex():
    game = tiny_game()
    t = game.tables
    st = deployed(where={B0: "3,1"})
    st.apply_action(find(st, S.K_ADVANCE, A0))
    assert st.s.g[S.G_MP] == 5                                                 # MV 4, +1 officer
    woods = hex_of(game, "2,1")
    d = [d for d in range(6) if t.side6[hex_of(game, "1,1"), d, T.S6_NBR] == woods][0]
    st.apply_action(find(st, S.K_STEP, A0, d))
    assert st.s.g[S.G_MP] == 3 and st.s.u[A0, S.U_HEX] == woods                # woods: 2 MPs
    enemy = hex_of(game, "3,1")
    offered = {int(t.side6[woods, arg_of(a), T.S6_NBR]) for a in st.legal_actions() if kind_of(a) == S.K_STEP}
    assert enemy not in offered and offered
    st.apply_action(find(st, S.K_STOP))
    assert st.s.u[A0, S.U_TOKEN] == S.TOK_FATIGUED and st.current_player() == 0


def test_a_squad_passes_through_a_full_hex_but_does_not_stop_in_it():
    game = tiny_game()
    t = game.tables
    st = deployed(where={A0: "1,1", A1: "1,1", AMG: "1,1", A3: "0,1"})
    st.apply_action(find(st, S.K_ADVANCE, A3))
    full = hex_of(game, "1,1")
    d = [d for d in range(6) if t.side6[hex_of(game, "0,1"), d, T.S6_NBR] == full][0]
    st.apply_action(find(st, S.K_STEP, A3, d))
    assert st.s.u[A3, S.U_HEX] == full
    assert S.K_STOP not in {kind_of(a) for a in st.legal_actions()}             # 001 Setup: stacking
    st.apply_action(find(st, S.K_STEP, A3))
    assert S.K_STOP in {kind_of(a) for a in st.legal_actions()}


def test_fire_and_movement_moves_one_less_fires_at_half_and_never_at_long_range():
    game = tiny_game()
    st = deployed(where={A1: "0,1", B0: "5,2", B1: "4,2", BOFF: "5,0"})
    t = game.tables
    assert t.dist[hex_of(game, "0,1"), hex_of(game, "5,2")] == 5 and t.los[hex_of(game, "0,1"), hex_of(game, "5,2")]
    assert find(st, S.K_FIRE, A1, B0)                                          # concentrated: long range is fine
    st.apply_action(find(st, S.K_FIREMOVE, A1))
    assert st.s.g[S.G_MP] == 3                                                 # 001 Fire & movement: 1 fewer MP
    shots = {S.fire_target.py_func(arg_of(a)) for a in st.legal_actions() if kind_of(a) == S.K_SHOOT}
    assert B0 not in shots                                                     # no long-range attack
    st.apply_action(find(st, S.K_STOP))
    teleport(st, B1, hex_of(game, "2,2"))
    st2 = deployed(where={A1: "1,2", B0: "4,2"})
    st2.apply_action(find(st2, S.K_FIREMOVE, A1))
    st2.apply_action(find(st2, S.K_SHOOT, A1, B0))                             # fire first, then move
    assert events(st2, "attack")[-1][5] == 2                                   # FPR 4 halved
    assert S.K_SHOOT not in {kind_of(a) for a in st2.legal_actions()}
    st2.apply_action(find(st2, S.K_STOP))
    assert st2.s.u[A1, S.U_TOKEN] == S.TOK_FATIGUED


# --- fire (001 Resolving an attack; Combined fire) -----------------------------------------

def test_concentrated_fire_with_combined_fire_adds_half_and_fatigues_the_supporters():
    st = deployed(where={A0: "1,2", A1: "1,2", AMG: "0,0", B0: "4,2"})
    st.apply_action(find(st, S.K_FIRE, A0, B0 | (1 << 9)))
    ev = events(st, "attack")[-1]
    assert ev[5] == 4 + 2                                                      # 4 + half of 4 (A3 out of LOS)
    assert st.s.u[A1, S.U_TOKEN] == S.TOK_FATIGUED and st.s.u[A0, S.U_TOKEN] == S.TOK_FATIGUED
    assert figures(st, B0) == 4 - ev[7]                                        # 001 Normal attack results


def test_suppressive_fire_pins_disrupts_or_routes_by_the_result_table():
    seen = set()
    for seed in range(40):
        st = deployed(seed, where={A0: "1,2", A1: "1,2", AMG: "1,2", B0: "4,2"})
        st.apply_action(find(st, S.K_FIRE, A0, B0 | (1 << 8) | (1 << 9)))
        hits = events(st, "attack")[-1][7]
        expect = {0: S.COND_NORMAL, 1: S.COND_PINNED, 2: S.COND_PINNED, 3: S.COND_DISRUPTED}
        if hits >= 4:
            assert st.s.u[B0, S.U_ST] == S.DESTROYED                           # routed
        else:
            assert st.s.u[B0, S.U_COND] == expect[hits] and figures(st, B0) == 4
        seen.add(min(hits, 4))
    assert {0, 1, 3} <= seen or len(seen) >= 3


# --- op fire (001 Opportunity fire; Moving and op fire) -------------------------------------

def test_op_fire_is_offered_after_each_hex_entered_at_most_once_per_hex():
    game = tiny_game()
    t = game.tables
    st = deployed(where={A1: "1,2", B0: "4,2"}, opfire=(B0,))
    st.apply_action(find(st, S.K_ADVANCE, A1))
    d = [d for d in range(6) if t.side6[hex_of(game, "1,2"), d, T.S6_NBR] == hex_of(game, "2,2")][0]
    st.apply_action(find(st, S.K_STEP, A1, d))
    assert st.s.g[S.G_SUB] == S.SUB_OPFIRE and st.current_player() == 1
    assert {kind_of(a) for a in st.legal_actions()} == {S.K_OPFIRE, S.K_NO_OPFIRE}
    st.apply_action(find(st, S.K_NO_OPFIRE))
    assert st.current_player() == 0 and st.s.g[S.G_SUB] == S.SUB_MOVE
    assert st.s.u[A1, S.U_OPHEX] == hex_of(game, "2,2")


def test_op_fire_that_pins_the_mover_stops_and_fatigues_it():
    game = tiny_game()
    t = game.tables
    stopped = 0
    for seed in range(60):
        st = deployed(seed, where={A1: "1,2", B0: "4,2", B1: "4,2"}, opfire=(B0, B1))
        st.apply_action(find(st, S.K_ADVANCE, A1))
        d = [d for d in range(6) if t.side6[hex_of(game, "1,2"), d, T.S6_NBR] == hex_of(game, "2,2")][0]
        st.apply_action(find(st, S.K_STEP, A1, d))
        st.apply_action(find(st, S.K_OPFIRE, B0, A1 | (1 << 8) | (1 << 9)))  # suppressive, supported
        assert st.s.u[B0, S.U_TOKEN] == S.TOK_FATIGUED and st.s.u[B1, S.U_TOKEN] == S.TOK_FATIGUED
        if events(st, "op fire")[-1][7] > 0:
            assert st.s.u[A1, S.U_ST] == S.DESTROYED or st.s.u[A1, S.U_TOKEN] == S.TOK_FATIGUED
            assert st.s.g[S.G_UNIT] != A1 and st.s.g[S.G_SUB] != S.SUB_MOVE
            stopped += 1
        else:
            assert st.s.g[S.G_SUB] == S.SUB_MOVE                               # no hits: it may go on
    assert stopped > 0


# --- assault (001 Assault; 002) ------------------------------------------------------------

def test_assault_after_a_move_with_one_less_mp_and_its_consequences():
    game = tiny_game()
    outcomes = set()
    for seed in range(40):
        st = deployed(seed, where={A1: "3,2", A0: "3,1", B0: "4,2", B1: "5,0", BOFF: "5,0"})
        st.apply_action(find(st, S.K_ASSAULT, A1))
        assert st.s.g[S.G_MP] == 3                                             # 1 fewer MP
        st.apply_action(find(st, S.K_STOP))
        assert st.s.g[S.G_SUB] == S.SUB_ASSAULT
        target = hex_of(game, "4,2")
        st.apply_action(find(st, S.K_ATTACK_HEX, A1, target * 2 + 1))          # A0 (adjacent) supports
        ev = events(st, "assault")[-1]
        assert ev[4] == 4 + 2 and ev[5] == 0 and ev[6] == 4                    # strengths, cover (clear)
        a_hits, d_hits = divmod(ev[7], 100)
        if a_hits > d_hits:                                                    # 002 steps 8-9
            assert st.s.u[B0, S.U_HEX] != target
            if st.s.g[S.G_SUB] == S.SUB_ADVANCE:
                st.apply_action(find(st, S.K_ENTER))
                assert st.s.u[A1, S.U_HEX] == target                          # 002 step 10
            outcomes.add("won")
        else:
            assert st.s.u[B0, S.U_ST] != S.ONMAP or st.s.u[B0, S.U_HEX] == target
            outcomes.add("lost")
        assert st.s.u[A0, S.U_TOKEN] == S.TOK_FATIGUED                         # 002 step 11
        assert st.s.u[A1, S.U_ST] != S.ONMAP or st.s.u[A1, S.U_TOKEN] == S.TOK_FATIGUED
    assert outcomes == {"won", "lost"}


def test_the_engine_defender_loses_as_few_figures_as_the_calculators_choice():
    import numpy as np
    rng = random.Random(7)
    conds = ("normal", "pinned", "disrupted")
    for _ in range(300):
        n = rng.randint(1, 3)
        sq = [Squad(size=rng.randint(1, 4), condition=rng.choice(conds)) for _ in range(n)]
        hits, room, success = rng.randint(0, 12), rng.randint(0, 3), rng.random() < 0.7
        setup = AssaultSetup(attackers=(), defenders=tuple(sq), fragile=(False,) * n, attack_strength=0,
                             defender_strength=0, cover=0, parts=(), cover_notes=(), retreat_space=room)
        out = defender_choice(setup, hits, success)
        lost_calc = sum(u.size - o.figures_left for u, o in zip(sq, out, strict=True))
        h = np.zeros(3, dtype=np.int64)
        keep = np.zeros(3, dtype=np.int64)
        lost = assault_squad_losses(np.array([u.size for u in sq] + [0] * (3 - n), dtype=np.int64),
                                    np.array([conds.index(u.condition) for u in sq] + [0] * (3 - n), dtype=np.int64),
                                    n, hits, success, room, h, keep)
        assert lost == lost_calc, (sq, hits, room, success)


# --- command and status phases (001 Command phase; Status phase; Winning the game) ----------

def end_action_phase(st: State) -> None:
    while st.s.g[S.G_SUB] == S.SUB_SELECT and not st.is_terminal():
        st.apply_action(find(st, S.K_PASS))


def test_command_phase_control_victory_points_and_initiative():
    game = tiny_game()
    st = deployed(where={A3: "3,1"})
    end_action_phase(st)
    assert st.s.aux[S.AUX_OBJ, 0] == 0                                         # a captures the objective
    assert st.s.g[S.G_VP0] == 1 and st.s.g[S.G_POOL0] == 1                     # 1 VP, 1 command on the pool
    assert st.s.g[S.G_INIT] == 0                                               # larger pool keeps it
    st2 = deployed()
    end_action_phase(st2)
    assert st2.s.aux[S.AUX_OBJ, 0] == -1 and st2.s.g[S.G_INIT] == 1            # a tie: to the side without it
    assert game.tables.obj[0, T.OB_VP] == 1


def test_status_phase_removes_tokens_and_recovers_conditions():
    st = deployed(where={A1: "0,0", B0: "5,2", BOFF: "4,2"})
    st.s.u[A1, S.U_COND] = S.COND_PINNED
    st.s.u[B0, S.U_COND] = S.COND_DISRUPTED
    st.s.u[BOFF, S.U_COND] = S.COND_DISRUPTED                                  # holds an officer
    st.apply_action(find(st, S.K_FATIGUE, A0))
    end_action_phase(st)
    assert st.s.g[S.G_PHASE] == S.PH_STATUS and st.s.g[S.G_SUB] == S.SUB_SET_OPFIRE
    assert (st.s.u[:, S.U_TOKEN] == S.TOK_FRESH).all()
    assert st.s.u[A1, S.U_COND] == S.COND_NORMAL
    assert st.s.u[B0, S.U_COND] == S.COND_PINNED
    assert st.s.u[BOFF, S.U_COND] == S.COND_NORMAL                             # Fast Recovery
    assert S.K_SET_OPFIRE in {kind_of(a) for a in st.legal_actions()}
    st.apply_action(find(st, S.K_OPFIRE_DONE))
    assert B0 not in {unit_of(a) for a in st.legal_actions() if kind_of(a) == S.K_SET_OPFIRE}  # pinned: never
    st.apply_action(find(st, S.K_OPFIRE_DONE))
    assert st.s.g[S.G_SUB] == S.SUB_PLACE and st.current_player() == 1        # 5. reinforcements
    st.apply_action(find(st, S.K_PLACE, BREIN, 2 * hex_of(st.game, "5,1")))
    assert st.s.g[S.G_ROUND] == 2 and st.s.g[S.G_PHASE] == S.PH_ACTION
    assert st.s.u[BREIN, S.U_ST] == S.ONMAP and st.s.u[BREIN, S.U_TOKEN] == S.TOK_FRESH


def test_a_reinforcement_with_no_room_is_lost():
    st = deployed(where={A3: "5,1"})                                           # an enemy in the zone
    end_action_phase(st)
    st.apply_action(find(st, S.K_OPFIRE_DONE))
    st.apply_action(find(st, S.K_OPFIRE_DONE))
    assert st.s.u[BREIN, S.U_ST] == S.LOST and st.s.g[S.G_ROUND] == 2


@pytest.mark.parametrize("holder,winner", [(None, "initiative"), ("a", 0)])
def test_the_game_ends_after_the_last_round_on_victory_points_ties_to_the_initiative(holder, winner):
    st = deployed(where={A3: "3,1"} if holder == "a" else None)
    for _ in range(2):
        end_action_phase(st)
        while st.s.g[S.G_SUB] == S.SUB_SET_OPFIRE and not st.is_terminal():
            st.apply_action(find(st, S.K_OPFIRE_DONE))
        while st.s.g[S.G_SUB] == S.SUB_PLACE and not st.is_terminal():          # the reinforcement
            st.apply_action(st.legal_actions()[0])
    assert st.is_terminal() and st.s.g[S.G_REASON] == S.R_VICTORY_POINTS
    expect = int(st.s.g[S.G_INIT]) if winner == "initiative" else winner
    assert st.winner == expect


def test_a_side_with_no_squads_left_loses():
    ended = 0
    for seed in range(20):
        st = deployed(seed, where={A0: "1,2", A1: "1,2", B0: "4,2"})
        for k in (B1, BOFF):                                                   # b is down to one figure
            st.s.hx[int(st.s.u[k, S.U_HEX]), S.HX_OCC + 1] -= 1
            st.s.u[k, S.U_HEX] = -1
            st.s.u[k, S.U_ST] = S.DESTROYED
        st.s.u[BREIN, S.U_ST] = S.LOST
        st.s.u[B0, S.U_FIG:S.U_FIG + 8] = 0
        st.s.u[B0, S.U_FIG] = 1
        st.apply_action(find(st, S.K_FIRE, A0, B0 | (1 << 9)))
        if events(st, "attack")[-1][7] > 0:
            assert st.is_terminal() and st.winner == 0 and st.s.g[S.G_REASON] == S.R_ELIMINATION
            ended += 1
        else:
            assert not st.is_terminal()
    assert ended > 0


# --- fortifications and obstacles (001 Fortifications, obstacles & cover) ------------------

def step_to(st: State, k: int, name: str) -> None:
    t, game = st.game.tables, st.game
    h = int(st.s.u[k, S.U_HEX])
    d = [d for d in range(6) if t.side6[h, d, T.S6_NBR] == hex_of(game, name)][0]
    st.apply_action(find(st, S.K_STEP, k, d))


def test_squads_set_up_in_fortifications_and_get_their_cover():
    game = tiny_game(MARKED)
    st = State(game, 0)
    while st.current_player() == 0 and st.s.g[S.G_SUB] == S.SUB_PLACE:
        st.apply_action(st.legal_actions()[0])
    fort = hex_of(game, "4,1")
    assert find(st, S.K_PLACE, B0, 2 * fort + 1) and find(st, S.K_PLACE, B0, 2 * fort)
    st.apply_action(find(st, S.K_PLACE, B0, 2 * fort + 1))
    st.apply_action(find(st, S.K_PLACE, B1, 2 * fort + 1))
    assert all(arg_of(a) != 2 * fort + 1 for a in st.legal_actions())          # two markers, two squads
    st2 = deployed(where={A0: "1,2", A1: "1,2", B0: "4,2"}, path=MARKED)
    st2.s.u[B0, S.U_IN] = 1                                                    # as if it were in one
    teleport(st2, B0, fort)
    st2.s.u[B0, S.U_IN] = 1
    teleport(st2, A0, hex_of(game, "2,1"))
    st2.apply_action(find(st2, S.K_FIRE, A0, B0))
    assert events(st2, "attack")[-1][6] == 0 + 2                               # clear + entrenchment


def test_entering_and_leaving_a_fortification_costs_one_mp_each():
    game = tiny_game(MARKED)
    st = deployed(where={A1: "3,1", B0: "5,0", B1: "5,0", BOFF: "5,2"}, path=MARKED)
    st.apply_action(find(st, S.K_ADVANCE, A1))
    step_to(st, A1, "4,1")
    assert st.s.g[S.G_MP] == 3
    st.apply_action(find(st, S.K_FORT_IN, A1))
    assert st.s.u[A1, S.U_IN] == 1 and st.s.g[S.G_MP] == 2
    assert S.K_STEP not in {kind_of(a) for a in st.legal_actions()}              # leave it first
    st.apply_action(find(st, S.K_FORT_OUT, A1))
    assert st.s.u[A1, S.U_IN] == 0 and st.s.g[S.G_MP] == 1
    assert game.tables.hexi[hex_of(game, "4,1"), T.HI_FORT] == 2


def test_a_minefield_stops_fatigues_and_rolls_and_forbids_the_assault():
    hit = 0
    for seed in range(20):
        st = deployed(seed, where={A1: "1,2", B0: "3,2", B1: "5,0", BOFF: "5,0"}, path=MARKED)
        st.apply_action(find(st, S.K_ASSAULT, A1))
        step_to(st, A1, "2,2")
        roll = events(st, "minefield")[-1]                                     # 4 dice, hits on 4-6
        assert 0 <= roll[4] <= 4
        hit += roll[4] > 0
        assert figures(st, A1) == max(4 - roll[4], 0)
        assert st.s.u[A1, S.U_ST] != S.ONMAP or st.s.u[A1, S.U_TOKEN] == S.TOK_FATIGUED
        assert st.s.g[S.G_SUB] != S.SUB_ASSAULT and st.s.g[S.G_UNIT] == -1     # no assault (002 first list)
    assert 0 < hit < 20


def test_razor_wire_ends_the_move_and_halves_a_squad_in_it():
    st = deployed(where={A1: "1,0", B0: "5,2", B1: "5,2", BOFF: "5,1"}, path=MARKED)
    st.apply_action(find(st, S.K_ADVANCE, A1))
    step_to(st, A1, "2,0")
    assert st.s.g[S.G_MP] == 0 and {kind_of(a) for a in st.legal_actions()} == {S.K_STOP}
    st.apply_action(find(st, S.K_STOP))
    st2 = deployed(where={A1: "2,0", B0: "4,0"}, path=MARKED)
    assert st2.game.tables.los[hex_of(st2.game, "2,0"), hex_of(st2.game, "4,0")]
    st2.apply_action(find(st2, S.K_FIRE, A1, B0))
    assert events(st2, "attack")[-1][5] == 2                                   # 4 halved in the wire


def test_rapid_op_fire_keeps_the_mg_squad_in_op_fire_mode_once_per_target():
    game = tiny_game()
    t = game.tables
    st = deployed(where={AMG: "1,2", B0: "4,2", B1: "5,0", BOFF: "5,0"}, opfire=(AMG,))
    st.apply_action(find(st, S.K_FATIGUE, A0))
    st.apply_action(find(st, S.K_FATIGUE, A1))
    st.apply_action(find(st, S.K_ADVANCE, B0))
    d = [d for d in range(6) if t.side6[hex_of(game, "4,2"), d, T.S6_NBR] == hex_of(game, "3,2")][0]
    st.apply_action(find(st, S.K_STEP, B0, d))
    assert st.current_player() == 0
    st.apply_action(find(st, S.K_OPFIRE, AMG, B0 | S.FIRE_RAPID))
    assert events(st, "op fire")[-1][5] == 3                                  # the MG crew's FPR alone
    assert st.s.u[AMG, S.U_TOKEN] == S.TOK_OPFIRE                              # not fatigued
    if st.s.g[S.G_SUB] == S.SUB_MOVE and st.s.u[B0, S.U_ST] == S.ONMAP:
        d = [d for d in range(6) if t.side6[hex_of(game, "3,2"), d, T.S6_NBR] == hex_of(game, "2,2")][0]
        st.apply_action(find(st, S.K_STEP, B0, d))
        if st.s.g[S.G_SUB] == S.SUB_OPFIRE:
            opts = [a for a in st.legal_actions() if kind_of(a) == S.K_OPFIRE and unit_of(a) == AMG]
            assert opts and not any((arg_of(a)) & S.FIRE_RAPID for a in opts)        # a different target only


# --- specialised squads (001 Specialized squads) -------------------------------------------

def test_flamethrower_adds_two_and_cuts_five_cover_when_adjacent():
    from tests.games.toi.game.util import BFLAME
    game = tiny_game(MARKED)
    st = deployed(where={A0: "2,1", BFLAME: "3,1"}, path=MARKED)              # a in woods (cover 2)
    st.apply_action(find(st, S.K_FATIGUE, A1))
    st.apply_action(find(st, S.K_FATIGUE, AMG))
    st.apply_action(find(st, S.K_FIRE, BFLAME, A0))
    ev = events(st, "attack")[-1]
    assert ev[5] == 3 + 2 and ev[6] == 0                                       # +2 FPR; cover 2 - 5 -> 0
    assert game.tables.hexi[hex_of(game, "2,1"), T.HI_COVER] == 2


def test_an_engineer_crosses_wire_and_mines_without_a_roll_and_a_medic_bandages():
    from tests.games.toi.game.util import BENG, BMED
    st = deployed(where={BENG: "3,0", A1: "0,0", A0: "0,2", AMG: "0,2"}, path=MARKED)
    st.apply_action(find(st, S.K_FATIGUE, A0))
    st.apply_action(find(st, S.K_FATIGUE, A1))
    st.apply_action(find(st, S.K_ADVANCE, BENG))
    t, game = st.game.tables, st.game
    d = [d for d in range(6) if t.side6[hex_of(game, "3,0"), d, T.S6_NBR] == hex_of(game, "2,0")][0]
    st.apply_action(find(st, S.K_STEP, BENG, d))
    assert st.s.g[S.G_MP] == 3                                                 # the wire does not stop it
    st2 = deployed(where={BENG: "3,2", A1: "0,0", A0: "0,0", AMG: "0,1"}, path=MARKED)
    st2.apply_action(find(st2, S.K_FATIGUE, A0))
    st2.apply_action(find(st2, S.K_FATIGUE, A1))
    st2.apply_action(find(st2, S.K_ADVANCE, BENG))
    d = [d for d in range(6) if t.side6[hex_of(game, "3,2"), d, T.S6_NBR] == hex_of(game, "2,2")][0]
    st2.apply_action(find(st2, S.K_STEP, BENG, d))
    assert events(st2, "minefield")[-1][4] == 0                                 # no roll, but it stops
    assert st2.s.u[BENG, S.U_TOKEN] == S.TOK_FATIGUED
    st3 = deployed(where={A0: "1,2", BMED: "4,2", B0: "4,2"}, path=MARKED)
    st3.apply_action(find(st3, S.K_FIRE, A0, B0))
    assert events(st3, "attack")[-1][6] == 1                                   # clear + Bandage


def test_a_mortar_squad_makes_area_attacks_only_and_every_unit_in_the_hex_rolls():
    from tests.games.toi.game.util import BMORT
    game = tiny_game(MARKED)
    st = deployed(where={A0: "1,1", A1: "1,1", B0: "5,0", AMG: "4,1", BMORT: "5,1"}, path=MARKED)
    st.apply_action(find(st, S.K_FATIGUE, A3))
    st.apply_action(find(st, S.K_FATIGUE, A0))
    assert not [a for a in st.legal_actions() if kind_of(a) == S.K_FIRE and unit_of(a) == BMORT]
    hexes = {(arg_of(a)) >> 1 for a in st.legal_actions() if kind_of(a) == S.K_AREA and unit_of(a) == BMORT}
    assert hex_of(game, "1,1") in hexes                                        # ballistic fire if need be
    assert game.tables.dist[hex_of(game, "4,1"), hex_of(game, "5,1")] == 1
    assert hex_of(game, "4,1") not in hexes                                    # minimum distance 2
    st.apply_action(find(st, S.K_AREA, BMORT, 2 * hex_of(game, "1,1") + 1))
    rolls = [e for e in events(st, "attack") if e[2] == BMORT]
    assert sorted(e[3] for e in rolls) == [A0, A1] and all(e[4] == 3 and e[5] == 4 for e in rolls)
    assert st.s.u[BMORT, S.U_TOKEN] == S.TOK_FATIGUED
