"""Tide of Iron's players (PROVISIONAL until the shared players take the game, issue 19): a uniform
random player and a one-ply greedy player over the game API (``legal_actions``,
``apply_action``) and :mod:`.view`. The shared players of ``simulator.engine.players``
are Assault-shaped today; these go once they are generalised (issue 19).

Each player draws from its own stream ``s.rng[1 + side]``, never the dice's.
"""

from __future__ import annotations

import numba
import numpy as np

from simulator.engine.core.statecopy import copy_state, restore_state
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
from simulator.engine.toi.turn import MAX_ACTIONS, apply_action, legal_actions
from simulator.engine.toi.view import (
    controller,
    decider,
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

RANDOM, GREEDY = 0, 1
SAMPLES = 3                 # dice samples per action the greedy player averages
PLAYER_NAMES = ("random", "greedy")


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


@numba.njit(cache=True)
def choose(s, t, kind, buf, moves, scratch):
    """The action player ``kind`` takes now."""
    side = decider(s)
    n = legal_actions(s, t, buf)
    if kind == RANDOM or n == 1:
        return buf[below(s.rng[1 + side], n)]
    if s.g[G_SUB] == SUB_TRANSFER:
        return greedy_transfer(s, t, buf, n)
    best = buf[0]
    best_v = -1e18
    ties = 0
    keep = scratch[0]
    trial = scratch[1]
    restore_state(keep, s)
    keep.g[G_LOG_ON] = 0                            # trials never log (their log is one row): a replay plays as the batch
    for i in range(n):
        moves[i] = buf[i]
    for i in range(n):
        v = 0.0
        for _ in range(SAMPLES):                    # fresh dice from its own stream: it never reads the game's
            restore_state(trial, keep)
            for j in range(4):
                trial.rng[0, j] = next_u64(s.rng[1 + side])
            trial.rng[0, 0] |= np.uint64(1)
            apply_action(trial, t, moves[i])
            v += evaluate(trial, t, side)
        v /= SAMPLES
        if a_kind(moves[i]) == K_PASS:
            v -= 1.0                                # keep the tempo: act while it can
        if v > best_v + 1e-9:
            best_v, best, ties = v, moves[i], 1
        elif v > best_v - 1e-9:
            ties += 1
            if below(s.rng[1 + side], ties) == 0:
                best = moves[i]
    return best


def work(s) -> tuple:
    """Scratch for :func:`play`: two action buffers and two states shaped like ``s``."""
    return np.empty(MAX_ACTIONS, dtype=np.int64), np.empty(MAX_ACTIONS, dtype=np.int64), (copy_state(s), copy_state(s))


@numba.njit(cache=True)
def play(s, t, kind0, kind1, max_decisions, buf, moves, scratch):
    """Play the game in ``s`` to its end (or ``max_decisions``); return the decisions taken."""
    d = 0
    while not is_over(s) and d < max_decisions:
        kind = kind0 if decider(s) == 0 else kind1
        a = choose(s, t, kind, buf, moves, scratch)
        apply_action(s, t, a)
        d += 1
    return d


# --- the shared batch runner's player API (as simulator.engine.players.interface) -------

def parse_player(text: str) -> tuple[int, None]:
    """``"greedy"`` -> (GREEDY, None); raises ValueError with a one-line reason."""
    name = text.strip()
    if name not in PLAYER_NAMES:
        raise ValueError(f"unknown player {name!r}")
    return PLAYER_NAMES.index(name), None


def player_setup(players, params: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The kinds (int64[2]) of two players; no parameters (an empty array)."""
    kinds = np.array([parse_player(p)[0] for p in players], dtype=np.int64)
    return kinds, np.zeros(0, np.int64) if params is None else params


def make_work(game) -> tuple:
    """Scratch for one worker: :func:`work` on a fresh state of ``game``."""
    return work(game.new_state())
