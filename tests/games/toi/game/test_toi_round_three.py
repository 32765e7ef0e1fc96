"""Tide of Iron rules found wrong in whole games (issue 40, items 8-14), each on a tiny
scenario: the retreat fatigues (002 step 9), a carried heavy-weapon squad neither assaults
nor takes Fire & Movement (001 Assault; Fire & movement), cliffs both ways and a lower crest
(001 Terrain: Hill; Line of sight; rulings T23), a hex-side line (001 LOS), elimination
counts squads only (rulings T25), Rapid Op Fire is the MG crews' (001 MG crew; rulings T30)."""

from __future__ import annotations

from pathlib import Path

from simulator.games.toi.game import state as S
from simulator.games.toi.game import tables as T
from simulator.games.toi.game.scenario import compile_scenario, line_tracer, load_scenario, sight
from tests.games.toi.game.test_toi_vehicles import BSQ, HALFTRACK, PZ4, SDKFZ, SQ
from tests.games.toi.game.test_toi_vehicles import deployed as with_vehicles
from tests.games.toi.game.util import (
    A0,
    A1,
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

SIGHT = Path(__file__).parent / "data" / "tiny-sight.scenario.toml"


def unit_kinds(st, k: int) -> set[str]:
    return {S.KIND_NAMES[kind_of(a)] for a in st.legal_actions() if unit_of(a) == k and kind_of(a) != S.K_PASS}


# --- item 8: 002 step 9, every unit forced to retreat is fatigued ------------------------

def test_defenders_forced_to_retreat_are_fatigued_from_fresh_and_from_op_fire_mode():
    retreats = 0
    for seed in range(60):
        # A1 assaults 4,2 from 3,2 (no step taken, so no op fire), A0 at 3,1 supports;
        # B0 (op fire mode) and B1 (fresh) defend 4,2.
        st = deployed(seed, where={A1: "3,2", A0: "3,1", B0: "4,2", B1: "4,2", BOFF: "5,0"}, opfire=(B0,))
        assert st.s.u[B0, S.U_TOKEN] == S.TOK_OPFIRE and st.s.u[B1, S.U_TOKEN] == S.TOK_FRESH
        target = hex_of(st.game, "4,2")
        st.apply_action(find(st, S.K_ASSAULT, A1))
        st.apply_action(find(st, S.K_STOP))
        st.apply_action(find(st, S.K_ATTACK_HEX, A1, target * 2 + 1))
        for k in (B0, B1):
            if st.s.u[k, S.U_ST] == S.ONMAP and st.s.u[k, S.U_HEX] != target:   # it retreated
                assert [e for e in events(st, "retreat") if e[2] == k]
                assert st.s.u[k, S.U_TOKEN] == S.TOK_FATIGUED                  # 002 step 9
                retreats += 1
            elif st.s.u[k, S.U_ST] == S.ONMAP:                                 # held: tokens unchanged
                assert st.s.u[k, S.U_TOKEN] == (S.TOK_OPFIRE if k == B0 else S.TOK_FRESH)
    assert retreats > 0


# --- item 9: a carried squad with a heavy weapon -----------------------------------------

def test_a_carried_squad_with_an_mg_crew_may_neither_assault_nor_fire_and_move():
    st = with_vehicles(where={SQ: "0,1"})
    st.apply_action(find(st, S.K_ADVANCE, SQ))
    st.apply_action(find(st, S.K_EMBARK, SQ, HALFTRACK))                      # carried, fatigued
    assert st.s.u[SQ, S.U_ST] == S.CARRIED
    st.s.u[SQ, S.U_TOKEN] = S.TOK_FRESH                                       # as in the next round
    assert unit_kinds(st, SQ) == {"fatigue unit", "advance", "fire and movement", "assault action"}
    mg = st.game.scenario.figure_names.index("mg")
    st.s.u[SQ, S.U_FIG + mg] = 1                                              # 4 regulars + 1 MG crew
    assert unit_kinds(st, SQ) == {"fatigue unit", "advance"}                   # 001 Assault; Fire & movement


# --- item 10: cliffs are impassable both ways --------------------------------------------

def side_cost(t, grid, a: str, b: str) -> tuple[int, int]:
    x, y = grid.index_of(a), grid.index_of(b)
    d = [d for d in range(6) if t.side6[x, d, T.S6_NBR] == y][0]
    return int(t.side6[x, d, T.S6_COST]), int(t.side6[x, d, T.S6_VCOST])


def test_a_cliff_side_is_impassable_down_as_well_as_up():
    sc = load_scenario(str(SIGHT))
    t, grid = sc.tables, sc.grid
    assert side_cost(t, grid, "3,0", "4,0") == (-1, -1)                       # level 0 -> 2: up the cliff
    assert side_cost(t, grid, "4,0", "3,0") == (-1, -1)                       # level 2 -> 0: down it (001 Hill)
    assert side_cost(t, grid, "4,1", "4,0") == (2, 2)                         # one level up: a hill's 2 MP
    assert side_cost(t, grid, "4,0", "4,1") == (1, 1)                         # one level down: 1 (001 Hill)


# --- item 11: a lower crest makes blind hexes (rulings T23, revised) ---------------------

def test_a_level_one_crest_hides_the_hex_behind_it_from_level_two():
    sc = load_scenario(str(SIGHT))
    t, grid = sc.tables, sc.grid
    top, crest, behind, beyond = (grid.index_of(h) for h in ("4,0", "4,1", "4,2", "4,3"))
    assert sc.spec.rules.lower_hills_block                                    # the default
    # 4,1 (level 1, at or below the higher unit's 2) is BT; difference 2: 1 blind hex behind it
    assert t.los[top, behind] == 0 and t.los[behind, top] == 0
    sees, why, _ = sight(sc, top, behind)
    assert sees == 0 and why[0][1] == (crest,)
    assert t.los[top, beyond] == 1                                            # 2 behind the crest: seen
    old = sc.spec.model_copy(update={"rules": sc.spec.rules.model_copy(update={"lower_hills_block": False})})
    before = compile_scenario(old, sc.path, sc.game)                          # the earlier reading
    assert before.tables.los[top, behind] == 1 and before.tables.los[top, beyond] == 1


# --- item 12: a hex-side line with BT on either side at different points -----------------

def test_a_hex_side_line_with_woods_on_each_side_at_different_points_is_clear():
    sc = load_scenario(str(SIGHT))
    grid = sc.grid
    a, b = grid.index_of("0,0"), grid.index_of("3,4")
    prim, alt = line_tracer(grid)(a, b)
    names = [(grid.names[int(p)], grid.names[int(q)] if q >= 0 else None) for p, q in zip(prim, alt, strict=True)]
    assert names[0] == ("1,0", "0,1") and names[2] == ("2,2", "1,2")         # along two hex sides
    woods = {"1,0", "1,2"}                                                    # one on each side of it
    assert names[0][0] in woods and names[2][1] in woods
    assert names[0][1] not in woods and names[2][0] not in woods
    assert sc.tables.los[a, b] == 1                                           # never both at one point (T23)


# --- item 13: a side with no squad left loses, vehicles or not ---------------------------

def test_a_side_with_vehicles_but_no_squad_loses_at_once():
    st = with_vehicles()
    h = int(st.s.u[BSQ, S.U_HEX])
    st.s.hx[h, S.HX_OCC + 1] -= 1
    st.s.u[BSQ, S.U_HEX] = -1
    st.s.u[BSQ, S.U_ST] = S.DESTROYED                                          # b: a half-track and a tank left
    assert st.s.u[SDKFZ, S.U_ST] == S.ONMAP and st.s.u[PZ4, S.U_ST] == S.ONMAP
    st.apply_action(find(st, S.K_FATIGUE, SQ))                                 # any decision ends the check
    assert st.is_terminal() and st.winner == 0 and st.s.g[S.G_REASON] == S.R_ELIMINATION


# --- item 14: a tank has no Rapid Op Fire ------------------------------------------------

def test_a_tank_in_op_fire_fires_once_with_everything_and_is_fatigued():
    st = with_vehicles(where={SQ: "2,2", BSQ: "5,1", SDKFZ: "5,1", PZ4: "4,2"})
    st.s.u[PZ4, S.U_TOKEN] = S.TOK_OPFIRE                                     # set up in op fire mode
    t, grid = st.game.tables, st.game.scenario.grid
    st.apply_action(find(st, S.K_ADVANCE, SQ))
    d = [d for d in range(6) if t.side6[grid.index_of("2,2"), d, T.S6_NBR] == grid.index_of("3,2")][0]
    st.apply_action(find(st, S.K_STEP, SQ, d))                               # next to the tank
    assert st.s.g[S.G_SUB] == S.SUB_OPFIRE
    tank = [a for a in st.legal_actions() if kind_of(a) == S.K_OPFIRE and unit_of(a) == PZ4]
    assert tank and not any(arg_of(a) & S.FIRE_RAPID for a in tank)          # no MG crews: no Rapid Op Fire
    st.apply_action(tank[0])
    ev = events(st, "op fire")[-1]
    assert ev[5] == 6                                                         # Panzer IV FPR vs infantry 6, full
    assert st.s.u[PZ4, S.U_TOKEN] == S.TOK_FATIGUED                           # 001: op fire fatigues


# --- a line of sight is the same both ways (rulings T23, revised in session 23) ----------

def _side_pair(grid):
    """Two hexes two apart whose line runs along one hex side: (a, b, x, y) with x, y the
    side's two hexes."""
    trace = line_tracer(grid)
    for a in range(grid.n):
        for b in range(grid.n):
            if grid.distance[a, b] == 2:
                prim, alt = (v.copy() for v in trace(a, b))
                if len(prim) == 1 and alt[0] >= 0:
                    return a, b, int(prim[0]), int(alt[0])
    raise AssertionError("no hex-side line on the grid")


def test_a_hex_side_crosses_the_higher_units_own_level_only_when_both_hexes_are_at_it():
    import numpy as np

    from simulator.engine.core.hexgrid import HexGrid
    from simulator.games.toi.game import scenario as SC
    grid = HexGrid(6, 6, "flat")
    a, b, x, y = _side_pair(grid)
    blocking = np.zeros(grid.n, dtype=np.int64)
    trace = line_tracer(grid)

    def code(elev, frm, to):
        prim, alt = (v.copy() for v in trace(frm, to))
        return SC._sight_code(frm, to, prim, alt, elev, blocking, grid.q, grid.r)[0]
    for own in (x, y):                  # b at level 2 above a at 0; one hex of the side at b's level
        elev = np.zeros(grid.n, dtype=np.int64)
        elev[b] = elev[own] = 2
        # not "across" an own-level hex: the other side of the line is open (as BT along a side)
        assert code(elev, a, b) == SC.SEES and code(elev, b, a) == SC.SEES
    elev[x] = elev[y] = 2               # both hexes of the side at b's level: no line either way
    assert code(elev, a, b) == SC.OWN_LEVEL and code(elev, b, a) == SC.OWN_LEVEL


def test_the_line_of_sight_table_is_symmetric_on_random_maps():
    """Before the revision 64 of the 3,969 ordered pairs of a random 9x7 map saw one way
    only (the hex adjacent to the higher unit was read from whichever side of a hex-side
    line the tracer walked first); now none, over 20 maps, both orientations and both
    readings of lower hills (a map of 63 hexes, elevations 0-2, a quarter blocking)."""
    import numpy as np

    from simulator.engine.core.hexgrid import HexGrid
    from simulator.games.toi.game import scenario as SC
    opened = 0
    for seed in range(10):
        for orientation in ("flat", "pointy"):
            rng = np.random.default_rng(seed)
            grid = HexGrid(9, 7, orientation)
            elev = rng.integers(0, 3, grid.n).astype(np.int64)
            blocking = (rng.random(grid.n) < 0.25).astype(np.int64)
            for lower in (True, False):
                table = SC._line_of_sight(grid, elev, blocking, lower)
                assert (table == table.T).all(), (seed, orientation, lower)
                opened += int(table.sum())
    assert 0 < opened < 40 * 63 * 63            # some lines open, some closed: the check can fail
