"""Tide of Iron's ``greedy`` player (numba): one ply over the rules' own entry points
(``legal_actions``, ``apply_action``) and :mod:`.view`. Each legal action is played on a
copy of the state with fresh dice, ``SAMPLES`` times, and the position it leads to is
scored by :func:`evaluate`; the best mean is taken (ties broken from its own stream).

It is the game's own knowledge behind the game API (:mod:`.playerapi`): the shared
players (:mod:`simulator.engine.players`: random, the look-ahead, the tree search) rank
their candidates by :func:`greedy_scores`, play their playouts with
:func:`greedy_choice` and value positions with :func:`evaluate`.

Assaults (issue 41): an assault is scored by its exact odds, as Assault's greedy scores
fire: the calculator's hit distributions of both sides
(:func:`simulator.games.toi.rules.exact.assault_hits_into`), each outcome that differs
played once by the engine's own consequences (``turn.apply_assault_hits``) and valued by
:func:`evaluate`, weighted by its chance (:func:`assault_value`). One ply sees the result:
a move in an Assault action is worth at least the best assault it could make by stopping
where the step ends, and choosing the Assault action at least the best assault after its
first step (:func:`assault_outlook`); op fire the step may draw is looked through as
declined (the step's own value never sees op fire either).

Walking back (issue 41): a step into a hex the mover left earlier in this activation
costs ``BACKTRACK`` (3 points, a figure), a penalty rather than a ban, so a step back is
taken when the score says so (an objective retaken, a unit saved), and the mover's credit
for objectives within reach leaves out those it left in this move (it could have stayed:
that credit paid greedy to wander off an objective and walk back).

It draws from its own stream ``s.rng[1 + side]`` only, never the dice's.
"""

from __future__ import annotations

import numba
import numpy as np

from simulator.engine.core.compiling import int64_constants
from simulator.engine.core.statecopy import restore_state
from simulator.engine.players.base import TIE_FIRST, TIE_RANDOM, best_index, legal_for
from simulator.games.toi.game.assault import assault_actions, assault_capacity, assault_dice
from simulator.games.toi.game.phases.command import control_after
from simulator.games.toi.game.phases.movement import may_stop, step_ok
from simulator.games.toi.game.state import (
    AUX_PATH,
    G_ACTION,
    G_DECIDER,
    G_LOG_ON,
    G_PATHN,
    G_SUB,
    G_UNIT,
    K_ASSAULT,
    K_ATTACK_HEX,
    K_ENTER,
    K_NO_OPFIRE,
    K_PASS,
    K_STAY,
    K_STEP,
    K_STOP,
    K_TRANSFER,
    SUB_ADVANCE,
    SUB_ASSAULT,
    SUB_MOVE,
    SUB_OPFIRE,
    SUB_TRANSFER,
    U_HEX,
    U_SIDE,
    a_arg,
    a_kind,
    a_unit,
    action,
    transfer_to,
)
from simulator.games.toi.game.tables import S6_NBR
from simulator.games.toi.game.turn import apply_action, apply_assault_hits
from simulator.games.toi.game.units import enemy_in
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
from simulator.games.toi.rules.jit import assault_hits_into_jit
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
BACKTRACK = 3.0             # a step back into a hex the mover left in this activation (the docstring)
MASS = 2 * 64 * 64          # outcomes of an assault that differ: (hits on defenders, on attackers, success)
NO_VALUE = -1e18            # no assault to look through to


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
    end), if one is near enough; 0 if none. Not one it left in this move: it could have
    stayed (the credit would pay it to wander off and walk back, issue 41)."""
    gain = 0.0
    for o in range(n_objectives(t)):
        oh = objective_hex(t, o)
        c = controller(s, o)
        if c == side or hex_units(s, oh, 1 - side) > 0 or t.dist[h, oh] > mp or left_this_move(s, oh):
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
    a stop a little more than a step that gains nothing, a step back into a hex the mover
    left in this activation less ``BACKTRACK``); an action that leads to an assault, or
    could end in one, is worth at least the best assault by its exact odds
    (:func:`assault_outlook`); no planned hexes
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
            v += max(evaluate(trial, t, side), assault_outlook(s, t, side, w, buf[i]) if may_assault(trial, side)
                     else NO_VALUE)
            m += 1
            if trial.rng[0, 0] == d0 and trial.rng[0, 1] == d1 and trial.rng[0, 2] == d2 and trial.rng[0, 3] == d3:
                break                               # no die rolled: the other trials would end the same
        v /= m
        if a_kind(buf[i]) == K_PASS:
            v -= PASS_PENALTY + W_FRESH * fresh_left  # its units stay fresh, yet can no longer act
        elif a_kind(buf[i]) == K_STOP:
            v += STOP_BONUS                         # a step that gains nothing: stop instead
        elif a_kind(buf[i]) == K_STEP and steps_back(s, t, buf[i]):
            v -= BACKTRACK                          # back where it came from (the docstring)
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


# --- assaults by their exact odds, and no walking back (issue 41) ------------------------

@numba.njit(cache=True, _nrt=False)
def left_this_move(s, h):
    """Whether the mover left hex ``h`` earlier in this activation (its path, the start
    first: ``aux[AUX_PATH]``; the last entry is the hex it stands in)."""
    for i in range(s.g[G_PATHN] - 1):
        if s.aux[AUX_PATH, i] == h:
            return True
    return False


@numba.njit(cache=True, _nrt=False)
def steps_back(s, t, a):
    """Whether step ``a`` enters a hex the mover left earlier in this activation."""
    return left_this_move(s, t.side6[s.u[s.g[G_UNIT], U_HEX], a_arg(a), S6_NBR])


@numba.njit(cache=True, _nrt=False)
def outcome_value(s, t, side, w, a, a_hits, d_hits):
    """The value to ``side`` of assault ``a`` at ``s`` ending with these hits
    (``turn.apply_assault_hits``: the engine's own consequences), the better of advancing
    into the vacated hex or staying when it may (002 step 10)."""
    after = w.after
    restore_state(after, s)
    after.g[G_LOG_ON] = 0
    apply_assault_hits(after, t, a, a_hits, d_hits)
    if after.g[G_SUB] != SUB_ADVANCE or after.g[G_DECIDER] != side:
        return evaluate(after, t, side)
    k = after.g[G_UNIT]
    apply_action(after, t, action(K_STAY, k, 0))
    stay = evaluate(after, t, side)
    restore_state(after, s)
    after.g[G_LOG_ON] = 0
    apply_assault_hits(after, t, a, a_hits, d_hits)
    apply_action(after, t, action(K_ENTER, k, 0))
    return max(stay, evaluate(after, t, side))


@numba.njit(cache=True, _nrt=False)
def assault_value(s, t, side, w, a):
    """The expected value to ``side`` (:func:`evaluate`) of assault ``a`` (``K_ATTACK_HEX``)
    at ``s`` (``SUB_ASSAULT``), over the exact distribution of both sides' hits
    (:func:`simulator.games.toi.rules.exact.assault_hits_into`, the calculator's): each
    outcome that differs (hits beyond what the defenders or the attackers can take change
    nothing; success is strictly more attacker hits, 002 steps 8-9) is played once by the
    engine's rules (:func:`outcome_value`) and weighted by its chance."""
    after = w.after
    restore_state(after, s)
    strength, nd, cover, dstrength = assault_dice(after, t, a)
    cap_def, cap_att = assault_capacity(after, t, nd)
    dice = w.dice
    assault_hits_into_jit(strength, cover, dstrength, dice[0], dice[1], dice[2], dice[3])
    ca = min(cap_def, strength, 63)
    cd = min(cap_att, dstrength, 63)
    mass = w.mass
    for i in range(2 * (ca + 1) * (cd + 1)):
        mass[i] = 0.0
    for x in range(strength + 1):
        for y in range(dstrength + 1):
            p = dice[2, x] * dice[3, y]
            if p > 0.0:
                mass[(min(x, ca) * (cd + 1) + min(y, cd)) * 2 + (1 if x > y else 0)] += p
    v = 0.0
    for x in range(ca + 1):
        for y in range(cd + 1):
            for ok in range(2):
                p = mass[(x * (cd + 1) + y) * 2 + ok]
                if p <= 0.0:
                    continue
                hx, hy = x, y                       # hits of this outcome: beyond a cap when success asks it
                if ok == 1 and x <= y:
                    hx = y + 1                      # x is the defenders' cap: more hits, the same losses
                elif ok == 0 and x > y:
                    hy = x                          # y is the attackers' cap
                v += p * outcome_value(s, t, side, w, a, hx, hy)
    return v


@numba.njit(cache=True, _nrt=False)
def best_assault(s, t, side, w):
    """At an assault choice of ``side`` (``SUB_ASSAULT``): the best of declining
    (:func:`evaluate`) and each assault by :func:`assault_value`."""
    best = evaluate(s, t, side)
    n = assault_actions(s, t, w.abuf)
    for i in range(n):
        if a_kind(w.abuf[i]) == K_ATTACK_HEX:
            best = max(best, assault_value(s, t, side, w, w.abuf[i]))
    return best


@numba.njit(cache=True, _nrt=False, inline="always")
def enemy_adjacent(s, t, h, side):
    """Whether a unit of ``side``'s enemy stands next to hex ``h`` (False for no hex, -1):
    an assault from ``h`` needs one (002 first list: the target hex is adjacent; the
    engine's ``start_assault_choice`` asks more of it). Greedy skips the copies that
    look for an assault where there can be none; what it chooses does not change."""
    if h < 0:
        return False
    for j in range(n_units(t)):
        if unit_on_map(s, j) and unit_side(s, j) != side:
            hj = unit_hex(s, j)
            for d in range(6):
                if t.side6[h, d, S6_NBR] == hj:
                    return True
    return False


@numba.njit(cache=True, _nrt=False)
def stop_and_assault(s, t, side, w):
    """For ``side``'s squad moving in an Assault action (``SUB_MOVE``, or op fire on it
    pending: looked through as declined): the best assault if it stopped now
    (:func:`best_assault` after the engine's ``K_STOP``); ``NO_VALUE`` when it may not
    stop here or no assault follows."""
    k = s.g[G_UNIT]
    if k < 0 or not enemy_adjacent(s, t, s.u[k, U_HEX], side):
        return NO_VALUE                             # no hex to assault from here: nothing to play on a copy
    probe = w.probe
    restore_state(probe, s)
    probe.g[G_LOG_ON] = 0
    if probe.g[G_SUB] == SUB_OPFIRE:
        apply_action(probe, t, action(K_NO_OPFIRE, 0, 0))
    k = probe.g[G_UNIT]
    if (probe.g[G_SUB] != SUB_MOVE or probe.g[G_DECIDER] != side or k < 0 or not may_stop(probe, t, k)
            or enemy_in(probe, probe.u[k, U_HEX], side)):
        return NO_VALUE
    apply_action(probe, t, action(K_STOP, k, 0))
    if probe.g[G_SUB] != SUB_ASSAULT or probe.g[G_DECIDER] != side:
        return NO_VALUE
    return best_assault(probe, t, side, w)


@numba.njit(cache=True, _nrt=False, inline="always")
def may_assault(trial, side):
    """Whether :func:`assault_outlook` can find anything after an action that led to
    ``trial``: an assault choice of ``side``, or a move of ``side``'s squad in an Assault
    action (its first tests, inlined into :func:`greedy_scores`: most actions fail them,
    and the call would pass the states' every field)."""
    if is_over(trial):
        return False
    if trial.g[G_SUB] == SUB_ASSAULT and trial.g[G_DECIDER] == side:
        return True
    return trial.g[G_ACTION] == K_ASSAULT and trial.g[G_UNIT] >= 0 and trial.u[trial.g[G_UNIT], U_SIDE] == side


@numba.njit(cache=True, _nrt=False)
def assault_outlook(s, t, side, w, a):
    """What an assault may add to action ``a`` of ``side``, just played from ``s`` on
    ``w.trial`` (``NO_VALUE``: nothing): at an assault choice, the best assault
    (:func:`best_assault`); in the move of an Assault action (op fire on it looked through
    as declined), the best assault if it stopped there (:func:`stop_and_assault`); and
    for the Assault action chosen (``K_ASSAULT``), also after each first step of its move,
    so that one ply sees the move and the assault as one option."""
    trial = w.trial
    if is_over(trial):
        return NO_VALUE
    if trial.g[G_SUB] == SUB_ASSAULT and trial.g[G_DECIDER] == side:
        return best_assault(trial, t, side, w)
    if trial.g[G_ACTION] != K_ASSAULT or trial.g[G_UNIT] < 0 or trial.u[trial.g[G_UNIT], U_SIDE] != side:
        return NO_VALUE
    best = stop_and_assault(trial, t, side, w)
    if a_kind(a) != K_ASSAULT or trial.g[G_SUB] != SUB_MOVE:
        return best
    k = trial.g[G_UNIT]
    h = trial.u[k, U_HEX]
    near = enemy_adjacent(trial, t, h, side)
    for d in range(6):
        if not near and not enemy_adjacent(trial, t, t.side6[h, d, S6_NBR], side):
            continue                                # no enemy next to either hex: that step leads to no assault
        if not step_ok(trial, t, k, d):
            continue
        step = w.step
        restore_state(step, trial)
        step.g[G_LOG_ON] = 0
        apply_action(step, t, action(K_STEP, k, d))
        best = max(best, stop_and_assault(step, t, side, w))
    return best


int64_constants(globals())
