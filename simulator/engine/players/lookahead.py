"""The ``lookahead`` player (numba): flat Monte Carlo over greedy's best few actions.

Each candidate is played out several times by greedy players to the end of the turn
(plus a horizon), on dice drawn from the look-ahead player's own stream (the same dice
for every candidate: common random numbers), and the action whose playouts end in the
best position (the game's ``evaluate``: in Assault strength, objectives, and where
the units stand as greedy values it) is taken. Written against the game API
(:mod:`simulator.engine.core.gameapi`): the game's greedy player plays the playouts. Its settings are ``params[LA_*]`` (:mod:`simulator.engine.players.base`); a
side's restriction (``params[RS_*]``) holds in the playouts too.
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, next_u64_into, rule, rule_inlined
from simulator.engine.core.gameapi import (
    apply_action,
    decider,
    evaluate,
    greedy_choice,
    greedy_scores,
    is_activation,
    is_over,
    log_off,
    turn_number,
)
from simulator.engine.core.statecopy import restore_state
from simulator.engine.players.base import (
    LA_CANDIDATES,
    LA_EXTRA_TURNS,
    LA_PLAYOUTS,
    MC_LEARNED,
    NEG,
    TIE_FIRST,
    best_index,
    copy_own_stream,
    legal_for,
    own_below,
)
from simulator.engine.players.value import learned_value

MAX_PLAYOUT_DECISIONS = 4000     # a playout stops after this many decisions


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
        j = best_index(w.scores, n, NEG / 2, TIE_FIRST, w.stream)
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
    if not is_activation(s):
        return greedy_choice(s, t, side, w, params, buf)
    n = legal_for(s, t, side, params, buf)
    if n == 1:
        return buf[0]
    greedy_scores(s, t, side, w, buf, n)
    m = best_candidates(w, n, min(params[LA_CANDIDATES], n, w.cands.shape[0]))
    horizon = turn_number(s) + params[LA_EXTRA_TURNS]
    play = w.play
    theirs = w.plan[1 - side]                      # the opponent's memory, as at the start of each playout
    learned = params[MC_LEARNED + side]
    best = NEG
    choice = 0
    own_below(s, side, 2)                          # move the player's own stream on
    for c in range(m):
        total = 0.0
        copy_own_stream(s, side, w.stream)          # common random numbers: every candidate's
                                                    # r-th playout rolls the same dice
        for _ in range(params[LA_PLAYOUTS]):
            restore_state(play, s)
            log_off(play)
            reseed(play, w.stream)
            w.plan[side] = w.plans[c] + 1
            w.plan[1 - side] = theirs
            apply_action(play, t, w.cands[c])
            steps = 0
            while not is_over(play) and turn_number(play) <= horizon and steps < MAX_PLAYOUT_DECISIONS:
                d = decider(play)
                apply_action(play, t, greedy_choice(play, t, d, w, params, w.pbuf))
                steps += 1
            if learned != 0:                      # the learned chance that side 0 wins, for ``side``
                v0 = learned_value(play, t, w)
                total += v0 if side == 0 else 1.0 - v0
            else:
                total += evaluate(play, t, w, side)
        mean = total / params[LA_PLAYOUTS]
        if mean > best + 1e-9:
            best = mean
            choice = c
    w.plan[1 - side] = theirs
    w.plan[side] = w.plans[choice] + 1
    return w.cands[choice]


int64_constants(globals())
