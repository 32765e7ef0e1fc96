"""The learned position value (issue 41 item 2; simulator.engine.players.learned): the
players' names, its data and fit reproducible whatever the workers, its cache keyed by
the scenario and the seed, its calibration on a shipped scenario's held-out games, and
``mcts:16:learned`` reproducible for a seed on one worker or two."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.engine.players import learned as L
from simulator.engine.players.base import MC_LEARNED, MC_SIMS
from simulator.engine.players.interface import LOOKAHEAD, MCTS, is_learned, parse_player, player_setup

SMALL = 120          # games of the small fits below (a few seconds of greedy games)


def _toi(name: str = "two-farms", vary=()):
    from simulator.games.toi.game import playerapi  # noqa: F401  (registers the API)
    from simulator.games.toi.game.game import Game
    if not vary:
        return Game(name)
    from simulator.games.toi.cli.replay import varied
    return Game(varied(name, vary))


def test_parse_player_reads_the_learned_names():
    assert parse_player("lookahead:learned") == (LOOKAHEAD, None)
    assert parse_player("mcts:64:learned") == (MCTS, 64)
    assert parse_player("mcts:learned") == (MCTS, None)
    assert parse_player("mcts:64") == (MCTS, 64)                 # the plain names as they were
    assert is_learned("mcts:64:learned") and is_learned("lookahead:learned")
    assert not is_learned("mcts:64") and not is_learned("lookahead") and not is_learned("greedy")
    kinds, params = player_setup(("mcts:16:learned", "mcts:16"))
    assert list(kinds) == [MCTS, MCTS] and params[MC_SIMS] == 16
    assert params[MC_LEARNED] == 1 and params[MC_LEARNED + 1] == 0


@pytest.mark.parametrize("text, why", [
    ("greedy:learned", "no leaf value to learn"),
    ("random:learned", "no leaf value to learn"),
    ("mcts:0:learned", "from 1 to"),
    ("mcts:x:learned", "whole number"),
    ("lookahead:8", "takes no strength"),
    ("mcts:64:learnt", "whole number"),
])
def test_parse_player_refuses_what_is_not_a_player(text, why):
    with pytest.raises(ValueError, match=why):
        parse_player(text)


def test_collect_is_the_same_on_one_worker_or_two():
    g = _toi()
    a = L.collect(g, games=2 * L.PIECE, seed=3, workers=1)
    b = L.collect(g, games=2 * L.PIECE, seed=3, workers=2)
    assert a.games == b.games == 2 * L.PIECE
    assert np.array_equal(a.x, b.x) and np.array_equal(a.y, b.y) and np.array_equal(a.game_of, b.game_of)
    # at most PER_GAME positions a game; every game recorded at least its first activation
    assert len(np.unique(a.game_of)) <= a.games and len(a.y) <= L.PER_GAME * a.games
    assert set(np.unique(a.y)) <= {0.0, 0.5, 1.0}


def test_the_cache_refits_on_a_scenario_or_seed_change(tmp_path, monkeypatch):
    monkeypatch.setenv("LANCHESTER_CACHE_DIR", str(tmp_path))
    g = _toi()
    first, hit = L.learn(g, games=SMALL, seed=5)
    assert not hit and list((tmp_path / "values").glob("*.json"))
    again, hit = L.learn(g, games=SMALL, seed=5)
    assert hit and np.array_equal(again.packed, first.packed)      # the JSON round trip keeps every weight
    assert again.names == first.names and again.data == first.data
    _, hit = L.learn(g, games=SMALL, seed=6)
    assert not hit                                                  # another seed: another fit
    _, hit = L.learn(_toi(vary=["rounds=6"]), games=SMALL, seed=5)
    assert not hit                                                  # another scenario: another fit
    assert len(list((tmp_path / "values").glob("*.json"))) == 3


def test_held_out_calibration_on_a_shipped_scenario(tmp_path, monkeypatch):
    """Two Farms, the default data size: on the held-out games every decile's observed
    share is within 0.1 of its predicted chance or inside its 95% interval widened by
    0.05 (positions of one game are not independent: the interval is too narrow), and
    the learned value scores better than the base rate."""
    monkeypatch.setenv("LANCHESTER_CACHE_DIR", str(tmp_path))
    value, _ = L.learn(_toi(), games=L.DEFAULT_GAMES, seed=11)
    assert len(value.calibration) == 10
    for r in value.calibration:
        near = abs(r["observed"] - r["predicted"]) <= 0.1
        inside = r["low"] - 0.05 <= r["predicted"] <= r["high"] + 0.05
        assert near or inside, r
    m = value.metrics
    assert m["learned"]["log_loss"] < m["base_rate"]["log_loss"]
    assert m["learned"]["brier"] < m["base_rate"]["brier"]


def test_mcts_learned_is_reproducible_and_independent_of_workers(tmp_path, monkeypatch):
    from simulator.engine.core.batch import run_games
    monkeypatch.setenv("LANCHESTER_CACHE_DIR", str(tmp_path))
    g = _toi()
    g.learned_value, _ = L.learn(g, games=SMALL, seed=5)     # (prepare keeps a value already there)
    texts = []
    for workers, folder in ((1, "a"), (2, "b"), (2, "c")):
        out = tmp_path / folder
        run_games(g, games=4, seed=13, players=("mcts:16:learned", "greedy"), workers=workers, out_dir=out)
        texts.append((out / "games.csv").read_text())
    assert texts[0] == texts[1] == texts[2]
    assert len(texts[0].strip().splitlines()) == 1 + 4         # a header and four games
