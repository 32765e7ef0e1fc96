"""The shared batch entries' record hooks (issue 42, item 2): a game registers them once
(:func:`simulator.engine.players.chunks.register`); a game that forgot one is told which,
at registration, not by a compile error deep in the batch."""

from __future__ import annotations

import types

import pytest

from simulator.engine.players import chunks
from simulator.engine.players.interface import player_setup


def test_register_names_the_missing_hooks():
    api = types.SimpleNamespace(start_game=lambda s, t, log: None)
    with pytest.raises(TypeError, match="record_start, fill_record"):
        chunks.register(type("NoState", (), {}), api)


def test_both_games_register_their_hooks():
    from simulator.games.assault.game import records as assault_records
    from simulator.games.assault.game.state import GameState as AssaultState
    from simulator.games.toi.game import records as toi_records
    from simulator.games.toi.game.state import GameState as ToiState
    assert chunks._RECORDERS[AssaultState] is assault_records
    assert chunks._RECORDERS[ToiState] is toi_records


def test_chunk_entry_picks_by_the_players():
    assert chunks.chunk_entry(player_setup(("greedy", "random"))[0]) is chunks.play_chunk
    assert chunks.chunk_entry(player_setup(("random", "mcts:8"))[0]) is chunks.play_chunk_searching
    assert chunks.chunk_entry(player_setup(("lookahead", "greedy"))[0]) is chunks.play_chunk_searching
