"""Status phase rules beyond tokens and reinforcements: squad transfers (001 Status phase, 4;
rulings T35)."""

from __future__ import annotations

from simulator.games.toi.game import state as S
from simulator.games.toi.game.game import State
from simulator.games.toi.game.invariants import problems
from tests.games.toi.game.util import (
    A0,
    A1,
    A3,
    AMG,
    B0,
    B1,
    BOFF,
    MARKED,
    arg_of,
    deployed,
    events,
    figures,
    find,
    hex_of,
    kind_of,
    unit_of,
)


def to_status(st: State) -> None:
    """From the action phase to the squad transfers: every side passes, no op fire."""
    while st.s.g[S.G_SUB] == S.SUB_SELECT:
        st.apply_action(find(st, S.K_PASS))
    while st.s.g[S.G_SUB] == S.SUB_SET_OPFIRE:
        st.apply_action(find(st, S.K_OPFIRE_DONE))


def transfers(st: State) -> set[tuple[int, int, int]]:
    return {(unit_of(a), S.transfer_to.py_func(arg_of(a)), S.transfer_fig.py_func(arg_of(a)))
            for a in st.legal_actions() if kind_of(a) == S.K_TRANSFER}


def test_squad_transfers_move_figures_within_the_base_and_only_between_plain_fresh_squads():
    st = deployed(where={A1: "0,0", AMG: "0,0", A3: "0,0", A0: "1,1", B0: "5,0", B1: "5,2", BOFF: "4,1"})
    reg = st.game.scenario.figure_names.index("regular")
    mg = st.game.scenario.figure_names.index("mg")
    st.s.u[A1, S.U_COND] = S.COND_DISRUPTED                 # pinned in the status phase: no transfer
    to_status(st)
    assert st.s.g[S.G_INIT] == 1                             # the tie of the command phase (rulings T25)
    assert st.s.g[S.G_SUB] == S.SUB_TRANSFER and st.current_player() == 0        # b has none: not asked
    assert kind_of(st.legal_actions()[0]) == S.K_TRANSFER_DONE
    # AMG (2 regular + mg) and A3 (3 regular): a base holds four (rulings T17); A1 is pinned, A0 alone
    assert transfers(st) == {(AMG, A3, reg), (AMG, A3, mg), (A3, AMG, reg)}
    st.apply_action(find(st, S.K_TRANSFER, A3, S.transfer_arg.py_func(AMG, reg)))
    assert figures(st, AMG) == 4 and figures(st, A3) == 2
    assert events(st, "squad transfer")[-1][3:6] == (AMG, reg, 2)
    # AMG is full; it received regulars, so it gives none back (rulings T35); its MG may go
    assert transfers(st) == {(AMG, A3, mg)}
    st.apply_action(find(st, S.K_TRANSFER, AMG, S.transfer_arg.py_func(A3, mg)))
    assert transfers(st) == {(A3, AMG, reg)}
    assert not problems(st.s, st.game.tables)
    st.apply_action(find(st, S.K_TRANSFER_DONE))
    assert st.s.g[S.G_SUB] == S.SUB_PLACE and st.current_player() == 1        # 5. the reinforcement


def test_an_emptied_squad_base_is_removed_and_specialised_or_dug_in_squads_take_no_part():
    from tests.games.toi.game.util import BENG, BFLAME
    st = deployed(where={A3: "0,0", AMG: "0,0", A0: "1,1", A1: "0,0", B0: "4,0", B1: "4,0"}, path=MARKED)
    reg = st.game.scenario.figure_names.index("regular")
    st.s.u[A3, S.U_FIG + reg] = 1                          # a squad of one figure
    st.s.u[B1, S.U_FIG + reg] = 2
    st.s.u[A1, S.U_IN] = 1                                  # as if in an entrenchment
    to_status(st)
    assert st.s.g[S.G_INIT] == 1 and st.current_player() == 1                 # b, with the initiative, first
    # b: B0 (4) gives to B1 (2); the engineer and the flamethrower in 5,0 never take part
    assert {(k, j) for k, j, _ in transfers(st)} == {(B0, B1)}
    assert all(BENG not in (k, j) and BFLAME not in (k, j) for k, j, _ in transfers(st))
    st.apply_action(find(st, S.K_TRANSFER, B0, S.transfer_arg.py_func(B1, reg)))
    st.apply_action(find(st, S.K_TRANSFER, B0, S.transfer_arg.py_func(B1, reg)))
    assert figures(st, B0) == 2 and figures(st, B1) == 4
    assert st.s.g[S.G_SUB] == S.SUB_TRANSFER and st.current_player() == 0    # B1 full, B0 gave: a's turn
    assert {(k, j) for k, j, _ in transfers(st)} == {(A3, AMG), (AMG, A3)}  # A1, dug in, takes no part
    h = hex_of(st.game, "0,0")
    st.apply_action(find(st, S.K_TRANSFER, A3, S.transfer_arg.py_func(AMG, reg)))
    assert st.s.u[A3, S.U_ST] == S.EMPTIED and st.s.u[A3, S.U_HEX] == -1 and figures(st, A3) == 0
    assert st.s.hx[h, S.HX_OCC] == 2 and figures(st, AMG) == 4              # AMG and A1 left
    assert st.s.g[S.G_SUB] != S.SUB_TRANSFER                 # nothing left: transfers over
    st.s.u[A1, S.U_IN] = 0
    assert not problems(st.s, st.game.tables)


def test_random_and_greedy_games_with_transfers_keep_the_figure_limits():
    from simulator.games.toi.game.game import Game
    from tests.games.toi.game.util import MARKED as path
    game = Game(str(path))
    seen = 0
    for seed in range(8):
        st = State(game, seed, log=False)                    # the greedy player's look-ahead logs nothing
        st.play(("random", "greedy") if seed % 2 else ("greedy", "random"))
        assert st.is_terminal() and not problems(st.s, game.tables)
        seen += int((st.s.u[:, S.U_XFER] != 0).any())       # the marks of the last status phase
    assert seen > 0
