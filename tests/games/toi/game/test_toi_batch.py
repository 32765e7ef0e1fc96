"""Tide of Iron games through the shared batch runner (issue 19): ``run_games`` takes
the game object, plays Tide of Iron's compiled entry, and the records are the same for
a seed whatever the number of workers; each record is the game a ``State`` plays."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.engine.core.batch import PIECE_GAMES, chunk_task, run_games, summary
from simulator.engine.core.records import FIXED_COLUMNS
from simulator.engine.core.seeding import GAMES_PER_CHUNK
from simulator.games.toi.game import state as S
from simulator.games.toi.game.game import Game, State

N = PIECE_GAMES + 60           # two pieces: two workers each play one


def _records(game, tmp_path, name, **kw):
    res = run_games(game, games=N, seed=7, players=("random", "random"), out_dir=tmp_path / name, **kw)
    return res, pd.read_parquet(tmp_path / name / "games.parquet")


def test_the_same_records_on_one_and_two_workers(tmp_path):
    game = Game("two-farms")
    one, a = _records(game, tmp_path, "one", workers=1)
    two, b = _records(game, tmp_path, "two", workers=2)
    assert len(a) == N and list(a.columns[:3]) == ["game", "winner", "winner_side"]
    pd.testing.assert_frame_equal(a, b)
    assert (a["game"].to_numpy() == np.arange(N)).all()
    assert one.tally.games == two.tally.games == N
    assert (one.tally.outcome_array() == two.tally.outcome_array()).all()
    again = run_games(game, games=N, seed=7, players=("random", "random"), workers=2)
    assert (again.tally.outcome_array() == one.tally.outcome_array()).all()
    assert (again.tally.stats == one.tally.stats).all() and (again.tally.losses == one.tally.losses).all()
    other = run_games(game, games=N, seed=8, players=("random", "random"), workers=1)
    assert (other.tally.stats != one.tally.stats).any()     # random players: the defender wins them all


def test_a_record_is_the_game_a_state_plays():
    """The batch entry seeds, sets up and plays game k exactly as ``State(game, seed, k)``."""
    game = Game("two-farms")
    kinds, params = game.players.player_setup(("greedy", "random"))
    ss = np.random.SeedSequence(3, spawn_key=(0,))
    rec = chunk_task(game, kinds, params, PIECE_GAMES, 4, ss)
    col = {c: i for i, c in enumerate(game.record_columns())}
    for k in range(4):
        st = State(game, 3, k, log=False)
        d = st.play(("greedy", "random"), max_decisions=20000)
        assert rec[k, col["game"]] == k
        assert rec[k, col["winner"]] == st.winner
        assert rec[k, col["decisions"]] == d
        assert rec[k, col["points_left_0"]] == st.s.g[S.G_VP0]
        assert rec[k, col["points_left_1"]] == st.s.g[S.G_VP0 + 1]
        assert rec[k, col["activations"]] == st.s.g[S.G_ACTIONS]
        assert rec[k, col["turns"]] == st.s.g[S.G_ROUND]


def test_the_summary_has_assaults_keys():
    game = Game("ridge-line")
    res = run_games(game, games=40, seed=1, players=("greedy", "greedy"), workers=1)
    out = summary(res)
    assert set(out["win_rate"]) == set(game.sides)
    for key in ("verdict", "first_player_effect", "closeness", "mean_losses", "activity", "data",
                "draw_rate", "truncated_rate", "mean_turns", "chunk_games"):
        assert key in out, key
    assert out["chunk_games"] == GAMES_PER_CHUNK and out["games"] == 40
    assert sum(v["p"] for v in out["win_rate"].values()) + out["draw_rate"] + out["truncated_rate"] == \
        __import__("pytest").approx(1.0)
    assert game.record_columns()[:len(FIXED_COLUMNS)] == list(FIXED_COLUMNS)

