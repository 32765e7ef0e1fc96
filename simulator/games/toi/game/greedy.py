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
from simulator.engine.players.base import TIE_FIRST, TIE_RANDOM, best_index, legal_for
from simulator.games.toi.game.phases.command import control_after
from simulator.games.toi.game.state import (
    G_LOG_ON,
    G_SUB,
    K_PASS,
    K_STOP,
    K_TRANSFER,
    SUB_TRANSFER,
    a_arg,
    a_kind,
    a_unit,
    transfer_to,
)
from simulator.games.toi.game.turn import apply_action
from simulator.games.toi.game.view import (
    active_unit,
    controller,
    has_stepped,
    hex_cover,
    hex_units,
    initiative,
    is_over,
    moving,
    mp_left,
    n_objectives,
    n_units,
    objective_hex,
    objective_vp,
    round_now,
    rounds,
    unit_condition,
    unit_figures,
    unit_fresh,
    unit_hex,
    unit_in_fort,
    unit_on_map,
    unit_opfire,
    unit_side,
    unit_value,
    vp,
    winner,
)
from simulator.run.rng import next_u64

SAMPLES = 3                 # dice samples per action the greedy player averages
# evaluate's weights, in the score's units (a figure is W_UNIT)
W_VP = 12.0                 # a victory point of the projected final margin
TIE = 0.5                   # the initiative breaks a tie in VPs: half a point
HOLD = 2.0                  # an objective controlled (command, initiative) beyond its VPs
GUARD = 1.0                 # each of the first two units standing on a held objective
W_UNIT = 3.0                # a figure, or half a vehicle's damage step
W_COND = 1.0                # per condition step: pinned 1, disrupted 2
W_COVER = 0.3               # per cover die of the unit's hex
W_FORT = 0.8                # in a fortification
W_OPFIRE = 0.7              # in op fire mode: it may fire in the enemy's turn
W_FRESH = 1.0               # a unit free to act: an action still to take (more than op fire)
REACH = 0.5                 # a mover's share of an enemy-free objective within its MPs
W_DIST = 0.5                # per hex from the nearest objective the side does not hold
MP_CREDIT = 0.8             # per MP of a move begun (no step yet): progress it promises
W_NEAR = 0.1                # per hex from the nearest objective at all (up to 6)
STOP_BONUS = 0.05           # stop rather than wander when no step gains
PASS_PENALTY = 1.0          # ending the action phase with units left


@numba.njit(cache=True, _nrt=False)
def evaluate(s, t, side):
    """A rough score for ``side`` (001 Winning the game: more VPs at the end, a tie to the
    initiative): the VP margin projected to the last round, objectives counted for the side
    that will control them at the next command phase (a side alone in the hex takes it);
    then the units (figures, vehicle steps, less when pinned or disrupted, more in op fire
    mode or in cover), units standing on held objectives, and the distance of the side's
    units to the objectives it does not hold (a moving unit's MPs left count as progress)."""
    if is_over(s):
        w = winner(s)
        return 1e6 if w == side else (-1e6 if w >= 0 else 0.0)
    left = max(rounds(t) - round_now(s) + 1, 1)     # command phases still to come, this round's too
    margin = float(vp(s, side) - vp(s, 1 - side))
    margin += TIE if initiative(s) == side else -TIE
    score = 0.0
    for o in range(n_objectives(t)):
        p = control_after(s, t, o)
        if p >= 0:
            sign = 1.0 if p == side else -1.0
            margin += sign * objective_vp(t, o) * left
            score += sign * (HOLD + GUARD * min(hex_units(s, objective_hex(t, o), p), 2))
    score += W_VP * margin
    mover = active_unit(s) if moving(s) else -1
    for k in range(n_units(t)):
        if not unit_on_map(s, k):
            continue
        h = unit_hex(s, k)
        v = W_UNIT * unit_value(s, t, k) - W_COND * unit_condition(s, k)
        v += W_COVER * hex_cover(t, h) + W_FORT * unit_in_fort(s, k)
        if unit_opfire(s, k):
            v += W_OPFIRE
        elif unit_fresh(s, k):
            v += W_FRESH                            # free to act: an action still to take
        if unit_side(s, k) != side:
            score -= v
            continue
        score += v
        best, near = objective_distances(s, t, side, h)
        if best < 99:
            dd = float(best)
            if k == mover:
                if not has_stepped(s):
                    dd -= MP_CREDIT * mp_left(s)    # a move begun: the progress its MPs promise
                score += REACH * reachable_gain(s, t, side, h, mp_left(s), left)
            score -= W_DIST * dd
        if near < 99:
            score -= W_NEAR * min(near, 6)
    return score


@numba.njit(cache=True, _nrt=False)
def reachable_gain(s, t, side, h, mp, left):
    """The most a mover in hex ``h`` with ``mp`` MPs left gains by stepping into an
    objective free of enemies that ``side`` does not control (a swing of its VPs to the
    end), if one is near enough; 0 if none."""
    gain = 0.0
    for o in range(n_objectives(t)):
        oh = objective_hex(t, o)
        c = controller(s, o)
        if c == side or hex_units(s, oh, 1 - side) > 0 or t.dist[h, oh] > mp:
            continue
        g = W_VP * objective_vp(t, o) * left * (2.0 if c >= 0 else 1.0) + HOLD
        gain = max(gain, g)
    return gain


@numba.njit(cache=True, _nrt=False)
def objective_distances(s, t, side, h):
    """Hexes from ``h`` to the nearest objective ``side`` will not control at the next
    command phase, and to the nearest objective at all (99: none)."""
    best = 99
    near = 99
    for o in range(n_objectives(t)):
        d = t.dist[h, objective_hex(t, o)]
        near = min(near, d)
        if d < best and control_after(s, t, o) != side:
            best = d
    return best, near


@numba.njit(cache=True, _nrt=False)
def greedy_transfer(s, t, w, buf, n):
    """Squad transfers (001 Status phase, 4), greedy: merge a squad of one figure into the
    weakest squad that takes it (the first of the weakest), else done (``buf[0]``)."""
    for i in range(n):
        a = buf[i]
        w.scores[i] = -1e18
        if a_kind(a) == K_TRANSFER and unit_figures(s, t, a_unit(a)) == 1:
            w.scores[i] = -float(unit_figures(s, t, transfer_to(a_arg(a))))
    i = best_index(w.scores, n, -99.0, TIE_FIRST, w.stream)   # fewest figures, fewer than 99
    return buf[i] if i >= 0 else buf[0]


@numba.njit(cache=True, _nrt=False)
def greedy_scores(s, t, side, w, buf, n):
    """The mean value to ``side`` (:func:`evaluate`) of each of the ``n`` actions in
    ``buf``, each played up to ``SAMPLES`` times on fresh dice from ``side``'s own stream,
    into ``w.scores`` (a pass less ``PASS_PENALTY`` and each unit it leaves free to act,
    a stop a little more than a step that gains nothing); no planned hexes
    (``w.dests`` -1). An action whose first trial rolled no die (its dice stream did not
    move: a move nobody fires at, a pass) would give the same position every time: it is
    tried once. ``s`` is left as it was (the trials play on ``w.trial``)."""
    trial = w.trial
    fresh_left = 0
    for k in range(n_units(t)):
        if unit_side(s, k) == side and unit_fresh(s, k):
            fresh_left += 1
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
            v -= PASS_PENALTY + W_FRESH * fresh_left  # its units stay fresh, yet can no longer act
        elif a_kind(buf[i]) == K_STOP:
            v += STOP_BONUS                         # a step that gains nothing: stop instead
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
        return greedy_transfer(s, t, w, buf, n)
    greedy_scores(s, t, side, w, buf, n)
    i = best_index(w.scores, n, -1e18, TIE_RANDOM, s.rng[1 + side])
    return buf[i] if i >= 0 else buf[0]


int64_constants(globals())
