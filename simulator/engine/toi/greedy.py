"""Tide of Iron's ``greedy`` player (numba): one ply over the rules' own entry points
(``legal_actions``, ``apply_action``) and :mod:`.view`. Each legal action is played on a
copy of the state with fresh dice, ``SAMPLES`` times, and the position it leads to is
scored by :func:`evaluate`; the best mean is taken (ties broken from its own stream).

It is the game's own knowledge behind the game API (:mod:`.playerapi`): the shared
players (:mod:`simulator.engine.players`: random, the look-ahead, the tree search) rank
their candidates by :func:`greedy_scores`, play their playouts with
:func:`greedy_choice` and value positions with :func:`evaluate`.

It draws from its own stream ``s.rng[1 + side]`` only, never the dice's.
"""

from __future__ import annotations

import numba
import numpy as np

from simulator.engine.core.compiling import int64_constants
from simulator.engine.core.statecopy import restore_state
from simulator.engine.players.base import legal_for
from simulator.engine.toi.state import (
    G_LOG_ON,
    G_SUB,
    K_PASS,
    K_TRANSFER,
    SUB_TRANSFER,
    a_arg,
    a_kind,
    a_unit,
    transfer_to,
)
from simulator.engine.toi.turn import apply_action
from simulator.engine.toi.view import (
    controller,
    is_over,
    n_objectives,
    n_units,
    objective_hex,
    objective_vp,
    unit_figures,
    unit_hex,
    unit_on_map,
    unit_side,
    unit_value,
    vp,
    winner,
)
from simulator.rng import below, next_u64

SAMPLES = 3                 # dice samples per action the greedy player averages


@numba.njit(cache=True, _nrt=False)
def evaluate(s, t, side):
    """A rough score for ``side``: the result if over, else VPs, objectives held, figures
    and nearness of its squads to the objectives it does not hold."""
    if is_over(s):
        w = winner(s)
        return 1e6 if w == side else (-1e6 if w >= 0 else 0.0)
    score = 20.0 * (vp(s, side) - vp(s, 1 - side))
    for o in range(n_objectives(t)):
        c = controller(s, o)
        if c == side:
            score += 6.0 * (1 + objective_vp(t, o))
        elif c == 1 - side:
            score -= 6.0 * (1 + objective_vp(t, o))
        h = objective_hex(t, o)
        if s.hx[h, side] > 0 and c != side:
            score += 4.0                    # about to take it at the command phase
        elif s.hx[h, 1 - side] > 0 and c == side:
            score -= 4.0
    for k in range(n_units(t)):
        if not unit_on_map(s, k):
            continue
        sign = 1.0 if unit_side(s, k) == side else -1.0
        score += sign * 3.0 * unit_value(s, t, k)
        if sign > 0:
            best = 99
            for o in range(n_objectives(t)):
                if controller(s, o) != side:
                    d = t.dist[unit_hex(s, k), objective_hex(t, o)]
                    if d < best:
                        best = d
            if best < 99:
                score -= 0.5 * best
    return score


@numba.njit(cache=True, _nrt=False)
def greedy_transfer(s, t, buf, n):
    """Squad transfers (001 Status phase, 4), greedy: merge a squad of one figure into the
    weakest squad that takes it, else done (``buf[0]``)."""
    best = buf[0]
    least = 99
    for i in range(n):
        a = buf[i]
        if a_kind(a) == K_TRANSFER and unit_figures(s, t, a_unit(a)) == 1:
            m = unit_figures(s, t, transfer_to(a_arg(a)))
            if m < least:
                least, best = m, a
    return best


@numba.njit(cache=True, _nrt=False)
def greedy_scores(s, t, side, w, buf, n):
    """The mean value to ``side`` (:func:`evaluate`) of each of the ``n`` actions in
    ``buf``, each played up to ``SAMPLES`` times on fresh dice from ``side``'s own stream,
    into ``w.scores`` (a pass a point less: act while it can); no planned hexes
    (``w.dests`` -1). An action whose first trial rolled no die (its dice stream did not
    move: a move nobody fires at, a pass) would give the same position every time: it is
    tried once. ``s`` is left as it was (the trials play on ``w.trial``)."""
    trial = w.trial
    for i in range(n):
        v = 0.0
        m = 0
        for _ in range(SAMPLES):                    # fresh dice from its own stream: it never reads the game's
            restore_state(trial, s)
            trial.g[G_LOG_ON] = 0                   # trials never log (their log is one row): a replay plays as the batch
            for j in range(4):
                trial.rng[0, j] = next_u64(s.rng[1 + side])
            trial.rng[0, 0] |= np.uint64(1)
            d0, d1, d2, d3 = trial.rng[0, 0], trial.rng[0, 1], trial.rng[0, 2], trial.rng[0, 3]
            apply_action(trial, t, buf[i])
            v += evaluate(trial, t, side)
            m += 1
            if trial.rng[0, 0] == d0 and trial.rng[0, 1] == d1 and trial.rng[0, 2] == d2 and trial.rng[0, 3] == d3:
                break                               # no die rolled: the other trials would end the same
        v /= m
        if a_kind(buf[i]) == K_PASS:
            v -= 1.0                                # keep the tempo: act while it can
        w.scores[i] = v
        w.dests[i] = -1


@numba.njit(cache=True, _nrt=False)
def greedy_choice(s, t, side, w, params, buf):
    """The action greedy takes for ``side`` among those it may choose
    (:func:`~simulator.engine.players.base.legal_for`): the best by
    :func:`greedy_scores`, a tie broken at random from its own stream; squad transfers by
    :func:`greedy_transfer`."""
    n = legal_for(s, t, side, params, buf)
    if n == 1:
        return buf[0]
    if s.g[G_SUB] == SUB_TRANSFER:
        return greedy_transfer(s, t, buf, n)
    greedy_scores(s, t, side, w, buf, n)
    best = buf[0]
    best_v = -1e18
    ties = 0
    for i in range(n):
        v = w.scores[i]
        if v > best_v + 1e-9:
            best_v, best, ties = v, buf[i], 1
        elif v > best_v - 1e-9:
            ties += 1
            if below(s.rng[1 + side], ties) == 0:
                best = buf[i]
    return best


int64_constants(globals())
