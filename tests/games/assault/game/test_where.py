"""Where and why in a batch (issue 43, item 2): the batch records each side's objectives
at the end of each turn and counts, hex by hex, units lost, shots received and close
combats started; the records and the counts hold against what the batch already
reports, over many games. Games won by default are told apart from decided games."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simulator.engine.core.batch import run_games
from simulator.engine.core.records import control_columns
from simulator.games.assault.game.activity import side_activity
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.state import R_TRUNCATED, R_TURN_LIMIT

GAMES = 300          # two pieces of 256: the counters of both are added
PLAYERS = ("greedy", "greedy")


@pytest.fixture(scope="module")
def river(tmp_path_factory):
    game = compile_game("river-and-bridge")
    out = tmp_path_factory.mktemp("river")
    res = run_games(game, games=GAMES, seed=1, players=PLAYERS, workers=2, out_dir=out)
    return game, res, pd.read_parquet(out / "games.parquet")


def test_units_lost_by_hex_add_up_to_the_units_lost(river):
    game, res, records = river
    heat = res.tally.heat
    assert heat.shape == (3, 2, game.cm.n)
    for side in (0, 1):   # every unit eliminated on the map is counted in the hex it stood in
        assert heat[0, side].sum() == records[f"units_lost_{side}"].sum() > 0
    # close combats: the one each starts is counted once, for the side that started it
    assert heat[2].sum() == records["close_combats"].sum()


def test_shots_received_are_the_other_sides_shots(river):
    game, _, _ = river
    n = 40    # the first 40 games again: the counters of that run against the event logs of the same games
    res = run_games(game, games=n, seed=1, players=PLAYERS, workers=1)
    activity = side_activity(game, 1, PLAYERS, n)
    sides = list(game.sides)
    for side in (0, 1):   # each attack roll (EV_ROLL) at a unit of one side is a shot of the other
        shots = activity[sides[1 - side]]["shots"] * n
        assert res.tally.heat[1, side].sum() == pytest.approx(shots) and shots > 0


def test_the_last_turns_control_is_the_final_control(river):
    game, res, records = river
    turns = game.turns
    cols = control_columns(turns)
    assert list(records.columns[-2 * turns:]) == cols
    for side in (0, 1):   # at the end of the last turn (or carried on from an earlier end), the final holders
        assert (records[f"objectives_mask_{side}_turn_{turns}"] == records[f"objectives_mask_{side}"]).all()
    # the tally's shares: the last turn's holds add up to the objectives held at the end
    assert (res.tally.control[turns - 1].sum(axis=1) == res.tally.objectives).all()
    # and each (turn, side, objective) count is the records' bit count
    for k in range(1, turns + 1):
        for side in (0, 1):
            masks = records[f"objectives_mask_{side}_turn_{k}"].to_numpy()
            for j in range(len(game.objective_names())):
                assert res.tally.control[k - 1, side, j] == int(((masks >> j) & 1).sum())
    # nobody holds an objective the other holds in the same turn
    for k in range(1, turns + 1):
        assert (records[f"objectives_mask_0_turn_{k}"] & records[f"objectives_mask_1_turn_{k}"] == 0).all()


def test_a_game_decided_by_objectives_is_won_by_the_holder_at_the_end(river):
    game, _, records = river
    turns = game.turns
    by_obj = records[records["reason_name"] == "objectives"]
    for _, r in by_obj.iterrows():   # the winner holds at least as many objectives as the loser at the end
        w = int(r["winner"])
        held = [bin(int(r[f"objectives_mask_{s}_turn_{turns}"])).count("1") for s in (0, 1)]
        assert held[w] >= 1 and held[w] >= held[1 - w]


def _decision_table(game, res):
    from reports.tables import decision_turn_table
    from simulator.engine.core.balance import report_frames
    return decision_turn_table(report_frames({"sides": list(game.sides)}, res)["games"])


def test_river_and_bridge_defender_wins_are_by_objectives(river):
    """The shipped River and Bridge: the Soviet wins hold both houses (their own
    condition, reason objectives), not if_neither's; they stay in the turns' rows."""
    from reports.tables import BY_DEFAULT
    game, res, records = river
    default = (records["reason"] == R_TURN_LIMIT).to_numpy()
    assert (res.tally.by_default_array() == default).all()
    table = _decision_table(game, res)
    assert table.loc[table["decided"] == BY_DEFAULT, "games"].sum() == default.sum()
    assert table["games"].sum() == GAMES


@pytest.fixture(scope="module")
def by_default(tmp_path_factory):
    """River and Bridge with no Soviet victory condition: the Soviets win only by
    if_neither (the Germans take no house), at the end of the last turn."""
    from simulator.games.assault.game.scenario import resolve_scenario
    text = resolve_scenario("river-and-bridge").read_text()
    cut = text.index("[sides.soviet.victory]")
    text = text[:cut] + text[text.index("[victory]"):]
    path = tmp_path_factory.mktemp("default") / "river-default.scenario.toml"
    path.write_text(text)
    game = compile_game(str(path))
    out = path.parent / "out"
    res = run_games(game, games=GAMES, seed=1, players=PLAYERS, workers=2, out_dir=out)
    return game, res, pd.read_parquet(out / "games.parquet")


def test_games_won_by_default_are_their_own_category(by_default):
    from reports.tables import BY_DEFAULT
    game, res, records = by_default
    default = records["reason"] == R_TURN_LIMIT
    assert default.sum() > 0                                     # if_neither wins happen here
    assert (res.tally.by_default_array() == default.to_numpy()).all()
    table = _decision_table(game, res)
    rows = table[table["decided"] == BY_DEFAULT]
    assert rows["games"].sum() == default.sum()
    assert rows["decided_turn"].isna().all()
    # the winners of the default games are the scenario's if_neither side
    side = list(game.sides).index(game.scenario.victory.if_neither)
    assert (records.loc[default, "winner"] == side).all() and set(rows["winner"]) == {game.sides[side]}
    # none of them counts as decided in a turn: the turns' rows hold the other games only
    decided = table[table["decided"] != BY_DEFAULT]
    assert decided["games"].sum() == GAMES - default.sum()
    assert decided.groupby("decided_turn")["games"].sum().to_dict() == \
        records[~default].groupby("decided_turn").size().to_dict()
    assert table["share"].sum() == pytest.approx(1.0)
    assert not (records["reason"] == R_TRUNCATED).any()


def test_the_counters_do_not_change_the_games(river):
    """The heat counters live in the state beside the rules' columns: the same games
    with one worker or two, and the counts of a run are those of its pieces added."""
    game, res, records = river
    one = run_games(game, games=GAMES, seed=1, players=PLAYERS, workers=1)
    assert (one.tally.heat == res.tally.heat).all()
    assert (one.tally.outcome_array() == res.tally.outcome_array()).all()
    assert np.array_equal(one.tally.control, res.tally.control)
    first = run_games(game, games=256, seed=1, players=PLAYERS, workers=1)
    lost = records.iloc[:256][[f"units_lost_{s}" for s in (0, 1)]].sum().to_numpy()
    assert (first.tally.heat[0].sum(axis=1) == lost).all()

