"""Choosing a typical game of a batch for a replay (``replay --pick typical-win:SIDE``):
play the batch's first games again as the batch plays them, then take, among the games
of one outcome, the one nearest their mean on turns and units lost. Any game with the
shared records (:mod:`simulator.engine.core.records`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

PICK_COLUMNS = ("turns", "units_lost_0", "units_lost_1")


def parse_pick(text: str, sides: list[str]) -> tuple[str, str]:
    """``typical-win:SIDE`` or ``typical-loss:SIDE`` -> ``("win"|"loss", SIDE)``."""
    from simulator.run.errors import InputError
    kind, _, side = text.partition(":")
    if kind not in ("typical-win", "typical-loss") or side not in sides:
        raise InputError("--pick", text, "typical-win:SIDE or typical-loss:SIDE with SIDE one of "
                         + ", ".join(sides))
    return kind.removeprefix("typical-"), side


def batch_frame(game, seed: int, games: int, players: tuple[str, str]) -> pd.DataFrame:
    """The records of games ``0 .. games - 1`` of the run with ``seed`` (the batch's own
    pieces and streams: :func:`simulator.engine.core.batch.chunk_task`), one row a game."""
    from simulator.engine.core.batch import chunk_task, frame_of, games_per_piece
    from simulator.run.runner import chunk_seed

    kinds, params = game.players.player_setup(players)
    piece = games_per_piece(game, kinds)
    parts = [chunk_task(game, kinds, params, piece, min(piece, games - i * piece), chunk_seed(seed, i))
             for i in range(-(-games // piece))]
    return frame_of(game, np.concatenate(parts))


def pick_typical(frame: pd.DataFrame, outcome: str, side: str, sides: list[str]) -> int | None:
    """The game of ``frame`` (:func:`batch_frame`) most typical of ``side``'s wins
    (``outcome`` ``win``) or losses (the other side won): among those games, the one
    nearest their mean turns and units lost by each side, each measured in its standard
    deviation among them (0: not counted); the lowest game number on a tie. None when
    no game has that outcome."""
    other = next(s for s in sides if s != side)
    chosen = frame[frame["winner_side"] == (side if outcome == "win" else other)]
    if chosen.empty:
        return None
    x = chosen[list(PICK_COLUMNS)].to_numpy(dtype=float)
    sd = x.std(axis=0)
    z = np.where(sd > 0, (x - x.mean(axis=0)) / np.where(sd > 0, sd, 1.0), 0.0)
    dist = (z ** 2).sum(axis=1)
    best = np.flatnonzero(dist == dist.min())
    return int(chosen["game"].to_numpy()[best].min())
