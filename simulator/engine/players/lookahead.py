"""The ``lookahead`` player (numba): flat Monte Carlo over greedy's best few actions.

Each candidate is played out several times by greedy players to the end of the turn
(plus a horizon), on dice drawn from the look-ahead player's own stream (the same dice
for every candidate: common random numbers), and the action whose playouts end in the
best position (strength, objectives, and where the units stand as greedy values it) is
taken. Its settings are ``params[LA_*]`` (:mod:`simulator.engine.players.base`); a
side's restriction (``params[RS_*]``) holds in the playouts too.
"""

from __future__ import annotations

from simulator.engine.assault.state import CARRIED, G_LOG_ON, ONMAP, PENDING, SUB_SELECT
from simulator.engine.assault.tables import OB_VALUE, obj
from simulator.engine.assault.turn import apply_action
from simulator.engine.assault.view import (
    damage_of,
    decider,
    emergency_waiting,
    hex_of,
    holder_of,
    is_on_map,
    is_over,
    n_objectives,
    n_slots,
    pending,
    side_of,
    status_of,
    turn_number,
    type_of,
    unit_strength,
    winner,
)
from simulator.engine.core.compiling import int64_constants, next_u64_into, rule, rule_inlined
from simulator.engine.core.statecopy import restore_state
from simulator.engine.players.base import (
    LA_CANDIDATES,
    LA_EXTRA_TURNS,
    LA_PLAYOUTS,
    NEG,
    copy_own_stream,
    legal_for,
    own_below,
)
from simulator.engine.players.greedy import greedy_choice, greedy_scores
from simulator.engine.players.greedy_values import objective_relevant, objective_value, worth

MAX_PLAYOUT_DECISIONS = 4000     # a playout stops after this many decisions


@rule
def evaluate(s, t, wt, side):
    """A position's worth to ``side``: strength points left times worth, objectives held,
    and a win or a loss."""
    if is_over(s):
        w = winner(s)
        if w == side:
            return 100.0
        if w >= 0:
            return -100.0
    val = 0.0
    for u in range(n_slots(s)):
        st = status_of(s, u)
        if st == ONMAP or st == CARRIED or st == PENDING:
            ty = type_of(s, u)
            left = (unit_strength(t, ty) - damage_of(s, u)) / unit_strength(t, ty)
            v = worth(t, ty) * (0.4 + 0.6 * left)
            val += v if side_of(s, u) == side else -v
    for k in range(n_objectives(t)):
        if objective_relevant(t, k):
            o = holder_of(s, k)
            value = obj(t, k, OB_VALUE) * 1.5
            if o == side:
                val += value
            elif o >= 0:
                val -= value
    for u in range(n_slots(s)):              # where the units stand, as greedy sees it
        if is_on_map(s, u):
            v = objective_value(s, t, wt, side_of(s, u), hex_of(s, u))
            val += v if side_of(s, u) == side else -v
    return val


@rule
def reseed(play, src):
    """Fresh dice and players' streams for a playout, drawn from the look-ahead player's
    own stream ``src`` (so it never sees the game's future dice)."""
    next_u64_into(play.rng, src)


@rule_inlined
def best_candidates(w, n, k_max):
    """Greedy's best actions by ``w.scores``, best first, into ``w.cands`` (their planned
    hexes into ``w.plans``); returns how many (at most ``k_max``)."""
    m = 0
    while m < k_max:
        j = -1
        for i in range(n):
            if w.scores[i] > NEG / 2 and (j < 0 or w.scores[i] > w.scores[j]):
                j = i
        if j < 0:
            break
        w.cands[m] = w.buf[j]
        w.plans[m] = w.dests[j]
        w.scores[j] = NEG
        m += 1
    return m


@rule_inlined
def lookahead_choice(s, t, side, w, params):
    """Flat Monte Carlo over greedy's best ``params[LA_CANDIDATES]`` actions,
    ``params[LA_PLAYOUTS]`` playouts each to the end of the turn plus
    ``params[LA_EXTRA_TURNS]`` turns. Other decisions than an activation's are greedy's."""
    buf = w.buf
    if pending(s) != SUB_SELECT or emergency_waiting(s):
        return greedy_choice(s, t, side, w, params, buf)
    n = legal_for(s, t, side, params, buf)
    if n == 1:
        return buf[0]
    greedy_scores(s, t, side, w, buf, n)
    m = best_candidates(w, n, min(params[LA_CANDIDATES], n, w.cands.shape[0]))
    horizon = turn_number(s) + params[LA_EXTRA_TURNS]
    play = w.play
    theirs = w.plan[1 - side]                      # the opponent's memory, as at the start of each playout
    best = NEG
    choice = 0
    own_below(s, side, 2)                          # move the player's own stream on
    for c in range(m):
        total = 0.0
        copy_own_stream(s, side, w.stream)          # common random numbers: every candidate's
                                                    # r-th playout rolls the same dice
        for _ in range(params[LA_PLAYOUTS]):
            restore_state(play, s)
            play.g[G_LOG_ON] = 0
            reseed(play, w.stream)
            w.plan[side] = w.plans[c] + 1
            w.plan[1 - side] = theirs
            apply_action(play, t, w.cands[c])
            steps = 0
            while not is_over(play) and turn_number(play) <= horizon and steps < MAX_PLAYOUT_DECISIONS:
                d = decider(play)
                apply_action(play, t, greedy_choice(play, t, d, w, params, w.pbuf))
                steps += 1
            total += evaluate(play, t, w.weights, side)
        mean = total / params[LA_PLAYOUTS]
        if mean > best + 1e-9:
            best = mean
            choice = c
    w.plan[1 - side] = theirs
    w.plan[side] = w.plans[choice] + 1
    return w.cands[choice]


int64_constants(globals())
