"""Where and why in a Tide of Iron batch (issue 43, item 2): each side's objectives after
each round's command phase and the per-hex counters (units destroyed, attacks received,
assaults made) hold against the records and the event logs; the end reasons are split
by the side that won (Ridge Line: its eliminations are American wins)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reports.balance import reason_frame
from simulator.engine.core.batch import play_alone, run_games
from simulator.games.toi.game import events as E
from simulator.games.toi.game import state as S
from simulator.games.toi.game.game import Game

GAMES = 300
PLAYERS = ("greedy", "greedy")


@pytest.fixture(scope="module")
def ridge(tmp_path_factory):
    game = Game("ridge-line")
    out = tmp_path_factory.mktemp("ridge")
    res = run_games(game, games=GAMES, seed=1, players=PLAYERS, workers=2, out_dir=out)
    return game, res, pd.read_parquet(out / "games.parquet")


def test_destroyed_units_and_assaults_by_hex_add_up(ridge):
    game, res, records = ridge
    heat = res.tally.heat
    assert heat.shape == (3, 2, len(game.hex_names()))
    for side in (0, 1):   # a unit destroyed on the map or in a vehicle is in a hex; one lost for want of a hex is not
        assert 0 < heat[0, side].sum() <= records[f"units_lost_{side}"].sum()
    assert heat[2].sum() == records["close_combats"].sum()      # one per assault, for the side that made it


def test_attacks_received_match_each_games_event_log(ridge):
    game, _, _ = ridge
    kinds, params = game.players.player_setup(PLAYERS, None)
    for k in range(6):   # one game played alone: its counters are its own; the log names each attack's target
        s = play_alone(game, 1, k, kinds, params, log_cap=1 << 14)
        log = s.log[: int(s.g[S.G_LOGN])]
        fire = log[(log[:, 0] == E.EV_FIRE) | (log[:, 0] == E.EV_OPFIRE)]
        target_side = s.u[fire[:, 3], S.U_SIDE]
        heat = game.heat(s)
        for side in (0, 1):
            assert heat[1, side].sum() == int((target_side == side).sum())
        destroyed = log[log[:, 0] == E.EV_DESTROYED]
        assert heat[0].sum() == len(destroyed)


def test_the_last_rounds_control_is_the_final_control(ridge):
    game, res, records = ridge
    rounds = game.turns
    for side in (0, 1):
        assert (records[f"objectives_mask_{side}_turn_{rounds}"] == records[f"objectives_mask_{side}"]).all()
    assert (res.tally.control[rounds - 1].sum(axis=1) == res.tally.objectives).all()
    held = res.tally.control.sum(axis=(1, 2))
    assert held[-1] > 0 and np.all(held <= GAMES * len(game.objective_names()))


def test_ridge_lines_eliminations_go_to_the_side_that_won(ridge):
    game, _, records = ridge
    reasons = reason_frame(records)
    elim = reasons[reasons["reason"] == "elimination"].set_index("winner")["games"]
    expected = records[records["reason_name"] == "elimination"]["winner_side"].value_counts()
    assert expected.sum() > 0                             # Ridge Line: some games end by elimination
    assert elim.to_dict() == expected.to_dict()            # each segment is the games that side won that way
    assert reasons["games"].sum() == GAMES
    assert reasons["share"].sum() == pytest.approx(1.0)
