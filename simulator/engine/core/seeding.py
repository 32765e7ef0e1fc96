"""Seeding every game on the engine: game ``k`` of a run with seed ``S`` is game
``k % GAMES_PER_CHUNK`` of seed chunk ``k // GAMES_PER_CHUNK``; the chunk's stream key
(:func:`chunk_key`) and the game's place in it (:func:`seed_game`) fill its three
xoshiro states (the dice, then each player's stream). So how a run is cut into pieces,
and how many workers play them, never changes a game. Shared by every game."""

from __future__ import annotations

import numba
import numpy as np

GAMES_PER_CHUNK = 2048


@numba.njit(cache=True, _nrt=False)
def _splitmix(x):
    x = x + numba.uint64(0x9E3779B97F4A7C15)
    z = x
    z = (z ^ (z >> numba.uint64(30))) * numba.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> numba.uint64(27))) * numba.uint64(0x94D049BB133111EB)
    return z ^ (z >> numba.uint64(31))


@numba.njit(cache=True, _nrt=False)
def seed_game(key, index, rng):
    """Fill ``rng[3, 4]`` for game ``index`` of a chunk whose stream key is ``key[4]``."""
    for j in range(3):
        for k in range(4):
            x = key[k] ^ numba.uint64((index * 3 + j) * 4 + k + 1) * numba.uint64(0x9E3779B97F4A7C15)
            rng[j, k] = _splitmix(_splitmix(x))
        if rng[j, 0] == 0 and rng[j, 1] == 0 and rng[j, 2] == 0 and rng[j, 3] == 0:
            rng[j, 0] = numba.uint64(1)


def chunk_key(seed: int, chunk: int) -> np.ndarray:
    """The stream key of a chunk: ``SeedSequence(seed).spawn(n)[chunk]`` (runner.plan_chunks)."""
    return np.random.SeedSequence(seed, spawn_key=(chunk,)).generate_state(4, dtype=np.uint64)


def seed_run_game(seed: int, game_index: int, rng: np.ndarray) -> None:
    """Fill ``rng`` for game ``game_index`` of the run with ``seed``: the same streams
    as when a batch plays it (a replay, a game played step by step)."""
    chunk, offset = divmod(int(game_index), GAMES_PER_CHUNK)
    seed_game(chunk_key(seed, chunk), np.int64(offset), rng)
