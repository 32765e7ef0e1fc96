"""A Tide of Iron batch stopped by Ctrl-C hands back the games it finished (issue 43 item 3),
like Assault's (tests/games/assault/game/test_interrupt.py plays the whole command)."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.engine.core import batch
from simulator.engine.core.batch import PIECE_GAMES, run_games
from simulator.games.toi.game.game import Game
from simulator.run.progress import Interrupted

PLAYERS = ("random", "random")


def test_ctrl_c_in_the_third_piece_leaves_the_first_two(monkeypatch, tmp_path):
    game = Game("two-farms")
    whole = run_games(game, games=4 * PIECE_GAMES, seed=5, players=PLAYERS, workers=1)
    add = batch.Tally.add
    pieces = []

    def add_then_stop(self, records, heat=None):
        if len(pieces) == 2:                 # Ctrl-C while the third piece is merged
            raise KeyboardInterrupt
        pieces.append(len(records))
        add(self, records, heat)

    monkeypatch.setattr(batch.Tally, "add", add_then_stop)
    with pytest.raises(Interrupted) as stop:
        run_games(game, games=4 * PIECE_GAMES, seed=5, players=PLAYERS, workers=1, out_dir=tmp_path / "out",
                  progress="two-farms")
    part = stop.value
    # two whole pieces of PIECE_GAMES games, of the 4 * PIECE_GAMES planned
    assert part.result.games == 2 * PIECE_GAMES and part.planned == 4 * PIECE_GAMES and part.stage == "two-farms"
    # they are the first games of the seed: the uninterrupted run's first 2 * PIECE_GAMES outcomes
    assert np.array_equal(part.result.tally.outcome_array(), whole.tally.outcome_array()[:2 * PIECE_GAMES])
    # no record file of a run that did not finish
    assert not any((tmp_path / "out").iterdir())
    assert part.checkpoint is None            # a library call keeps no checkpoint of its own
