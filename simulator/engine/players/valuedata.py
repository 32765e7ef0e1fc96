"""The games a learned position value is fitted on (numba): the scenario's games played
as the batch plays them (:mod:`simulator.engine.players.chunks`' seeding and start),
with a share of random activations, the game's ``features`` recorded along the way;
and the features for Python callers. The Python side is
:mod:`simulator.engine.players.learned`."""

from __future__ import annotations

import numba

from simulator.engine.core.compiling import entry, int64_constants, rule_inlined
from simulator.engine.core.gameapi import (
    apply_action,
    decider,
    evaluate,
    features,
    is_activation,
    is_over,
    outlook,
    winner,
)
from simulator.engine.players.base import own_uniform
from simulator.engine.players.chunks import begin
from simulator.engine.players.interface import choice, search_choice
from simulator.engine.players.randomplay import random_choice


@entry
def features_of(s, t, side, out):
    """The game's ``features`` of ``s`` for ``side`` into ``out`` (Python callers)."""
    return features(s, t, side, out)


@rule_inlined
def record(s, t, w, feats, base, i, n):
    """Position ``n`` of game ``i``: its features for side 0 and the hand-written value."""
    features(s, t, 0, feats[i, n])
    base[i, n, 0] = evaluate(s, t, w, 0)
    base[i, n, 1] = outlook(s, t, 0)


@rule_inlined
def finish(s, i, n, counts, winners):
    counts[i] = n
    winners[i] = winner(s) if is_over(s) else -2


@numba.njit(cache=True, nogil=True, _nrt=False)
def collect_chunk(t, key, first_game, n_games, kinds, params, s, w, every, explore, feats, base, counts, winners,
                  max_decisions):
    """Games ``first_game ...`` of a chunk (seeded as the batch seeds them) by the quick
    players ``kinds`` with random activations at rate ``explore``, their positions at
    every ``every``-th activation into ``feats[i]``/``base[i]``, how many into
    ``counts[i]`` and the winner into ``winners[i]`` (-2: cut short)."""
    for i in range(n_games):
        begin(s, t, w, key, first_game + i, 0)
        n = 0
        acts = 0
        steps = 0
        while not is_over(s) and steps < max_decisions:
            side = decider(s)
            a = -1
            if is_activation(s):
                if acts % every == 0 and n < feats.shape[1]:
                    record(s, t, w, feats, base, i, n)
                    n += 1
                acts += 1
                if explore > 0.0 and own_uniform(s, side) < explore:
                    a = random_choice(s, t, side, params, w.buf)
            if a < 0:
                a = choice(s, t, kinds[side], side, w, params)
            apply_action(s, t, a)
            steps += 1
        finish(s, i, n, counts, winners)


@numba.njit(cache=True, nogil=True, _nrt=False)
def collect_chunk_searching(t, key, first_game, n_games, kinds, params, s, w, every, explore, feats, base, counts,
                            winners, max_decisions):
    """:func:`collect_chunk` with players of every kind (expert iteration's later
    rounds: the learned player's own games)."""
    for i in range(n_games):
        begin(s, t, w, key, first_game + i, 0)
        n = 0
        acts = 0
        steps = 0
        while not is_over(s) and steps < max_decisions:
            side = decider(s)
            a = -1
            if is_activation(s):
                if acts % every == 0 and n < feats.shape[1]:
                    record(s, t, w, feats, base, i, n)
                    n += 1
                acts += 1
                if explore > 0.0 and own_uniform(s, side) < explore:
                    a = random_choice(s, t, side, params, w.buf)
            if a < 0:
                a = search_choice(s, t, kinds[side], side, w, params)
            apply_action(s, t, a)
            steps += 1
        finish(s, i, n, counts, winners)


int64_constants(globals())
