"""The ``mcts`` player (numba): open-loop Monte Carlo tree search (UCT).

Each decision runs ``sims`` simulations from the position. A simulation copies the
position into the players' spare state, gives the copy fresh dice drawn from the
player's own stream (open loop: the tree's nodes are sequences of actions, not
positions, and each simulation samples the chance events anew, so the player never
sees the game's future rolls), walks down the tree choosing by UCT, adds one node,
plays a few decisions more with greedy players and scores the position it reaches
(:func:`~simulator.engine.players.lookahead.evaluate`, squashed to [0, 1]; a game
over scores 1, 0 or one half for a draw). The action taken is the root's most
visited one.

The tree lives in preallocated arrays (:class:`Tree`): a node per row, with the side
that decided there, its visits, its candidate actions best first (greedy's order:
an activation's choices by greedy's scores, any other decision greedy's choice first
then the rest in the legal order), the node each candidate leads to (0: none yet)
and, per node, the sum of the values of the simulations through it from the point of
view of the side that chose the action leading to it. A node opens its candidates one
by one as its visits grow (progressive widening: ``1 + sqrt(visits)`` of them), so
greedy's best action is tried first; among those open, UCT on the mean values rescaled
to the range the search has seen so far (the values of positions a few decisions on
differ little, and the exploration term must not drown them). In a simulation whose dice led elsewhere (another
side to decide, a candidate no longer legal) the walk down stops there and plays out.

The search reads the game through its API (``legal_actions``, ``apply_action``,
who decides, over, winner, a copy of the state); what it knows of Assault beyond that
is in the three functions of the section "the game" below: how a simulation starts,
the order of the candidates, and the playout and its value.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from simulator.engine.assault.state import G_LOG_ON, SUB_SELECT
from simulator.engine.assault.turn import apply_action
from simulator.engine.assault.view import decider, emergency_waiting, is_over, pending, winner
from simulator.engine.core.compiling import int64_constants, rule, rule_inlined
from simulator.engine.core.statecopy import restore_state
from simulator.engine.players.base import copy_own_stream, legal_for, own_below
from simulator.engine.players.greedy import greedy_choice, greedy_scores
from simulator.engine.players.lookahead import best_candidates, evaluate, reseed

MAX_SIMS = 10_000          # the most simulations a decision may be given
MAX_CHILDREN = 16          # candidates a node keeps (greedy's best)
MAX_DEPTH = 128            # nodes on a walk down the tree
UCT_C = 0.5                # exploration constant (values rescaled to [0, 1])
EVAL_SCALE = 3.0           # evaluate() -> [0, 1]: 1 / (1 + exp(-value / EVAL_SCALE))

# a node's row of Tree.node
ND_SIDE, ND_VISITS, ND_NCAND, ND_CAND = 0, 1, 2, 3      # ND_NCAND -1: candidates not ranked yet
ND_CHILD = ND_CAND + MAX_CHILDREN
ND_FIELDS = ND_CHILD + MAX_CHILDREN


class Tree(NamedTuple):
    """The search tree's preallocated arrays (one per worker, in the players' Work)."""

    node: np.ndarray     # int64[MAX_SIMS + 1, ND_FIELDS] one row per node, the root row 0
    value: np.ndarray    # float64[MAX_SIMS + 1] value sum, for the side that chose the action into the node
    path: np.ndarray     # int64[MAX_DEPTH] the nodes of the current walk down
    bounds: np.ndarray   # float64[2] the lowest and highest simulation value (side 0's) of the search


def make_tree() -> Tree:
    return Tree(np.zeros((MAX_SIMS + 1, ND_FIELDS), np.int64), np.zeros(MAX_SIMS + 1), np.zeros(MAX_DEPTH, np.int64),
                np.zeros(2))


# ======================================================================================
# the game: what the search knows beyond the game API
# ======================================================================================


@rule_inlined
def begin(play, s, stream):
    """A simulation's start: ``play`` a copy of ``s`` without the event log, with fresh
    dice and players' streams drawn from ``stream`` (the searching player's own)."""
    restore_state(play, s)
    play.g[G_LOG_ON] = 0
    reseed(play, stream)


@rule_inlined
def rank(play, t, side, w, params, buf, n, tree, nd):
    """Node ``nd``'s candidates among the ``n`` legal actions ``buf`` of ``play``, best
    first by greedy: an activation's by greedy's scores, any other decision greedy's
    choice then the rest in the legal order."""
    row = tree.node[nd]
    m = 0
    if pending(play) == SUB_SELECT and not emergency_waiting(play):
        greedy_scores(play, t, side, w, buf, n)
        m = best_candidates(w, n, min(n, MAX_CHILDREN, w.cands.shape[0]))
        for j in range(m):
            row[ND_CAND + j] = w.cands[j]
    if m == 0:
        g = greedy_choice(play, t, side, w, params, w.pbuf)
        row[ND_CAND] = g
        m = 1
        for i in range(n):
            if m >= MAX_CHILDREN:
                break
            if buf[i] != g:
                row[ND_CAND + m] = buf[i]
                m += 1
    for j in range(m):
        row[ND_CHILD + j] = 0
    row[ND_SIDE] = side
    row[ND_NCAND] = m


@rule_inlined
def playout_value(play, t, w, params, rollout):
    """Play ``rollout`` decisions more with greedy players (fewer when the game ends) and
    score the position for side 0 in [0, 1]."""
    steps = 0
    while not is_over(play) and steps < rollout:
        d = decider(play)
        apply_action(play, t, greedy_choice(play, t, d, w, params, w.pbuf))
        steps += 1
    if is_over(play):
        wn = winner(play)
        if wn == 0:
            return 1.0
        if wn == 1:
            return 0.0
        return 0.5
    return 1.0 / (1.0 + math.exp(-evaluate(play, t, w.weights, 0) / EVAL_SCALE))


# ======================================================================================
# the tree
# ======================================================================================


@rule
def new_node(tree, nd):
    row = tree.node[nd]
    row[ND_SIDE] = -1
    row[ND_VISITS] = 0
    row[ND_NCAND] = -1
    tree.value[nd] = 0.0


@rule
def is_legal(a, buf, n):
    for i in range(n):
        if buf[i] == a:
            return True
    return False


@rule
def select(tree, nd, buf, n):
    """The candidate of node ``nd`` to follow (its index), among those legal in ``buf``:
    the first one not tried yet while progressive widening allows one more, else the
    best by UCT; -1 when none is legal."""
    row = tree.node[nd]
    visits = row[ND_VISITS]
    allowed = 1 + int(math.sqrt(visits))
    log_n = math.log(visits + 1.0)
    lo = tree.bounds[0] if row[ND_SIDE] == 0 else 1.0 - tree.bounds[1]      # the chooser's lowest value
    span = max(tree.bounds[1] - tree.bounds[0], 1e-9)
    best = -1
    top = -1.0
    k = 0
    for j in range(row[ND_NCAND]):
        if not is_legal(row[ND_CAND + j], buf, n):
            continue
        c = row[ND_CHILD + j]
        if c == 0 or tree.node[c, ND_VISITS] == 0:
            if k < allowed:
                return j
            continue
        k += 1
        v = tree.node[c, ND_VISITS]
        score = (tree.value[c] / v - lo) / span + UCT_C * math.sqrt(log_n / v)
        if score > top:
            top = score
            best = j
    return best


@rule
def backup(tree, depth, v0):
    """Count a simulation through ``tree.path[:depth + 1]`` with value ``v0`` for side 0."""
    tree.bounds[0] = min(tree.bounds[0], v0)
    tree.bounds[1] = max(tree.bounds[1], v0)
    for i in range(depth + 1):
        nd = tree.path[i]
        tree.node[nd, ND_VISITS] += 1
        if i > 0:
            chooser = tree.node[tree.path[i - 1], ND_SIDE]
            tree.value[nd] += v0 if chooser == 0 else 1.0 - v0


@rule
def most_visited(tree):
    """The root's candidate with the most visits (the better mean on a tie)."""
    row = tree.node[0]
    best = 0
    bv = -1
    bm = -1.0
    for j in range(row[ND_NCAND]):
        c = row[ND_CHILD + j]
        if c == 0:
            continue
        v = tree.node[c, ND_VISITS]
        m = tree.value[c] / max(v, 1)
        if v > bv or (v == bv and m > bm):
            bv = v
            bm = m
            best = j
    return row[ND_CAND + best]


# ======================================================================================
# the search
# ======================================================================================


@rule_inlined
def descend(play, t, w, params, tree, used):
    """Walk down from the root in ``play`` (following the tree's choices on this
    simulation's dice) and add one node; returns (the depth reached, nodes used)."""
    nd = 0
    depth = 0
    tree.path[0] = 0
    buf = w.buf
    while depth + 1 < MAX_DEPTH and not is_over(play):
        side = decider(play)
        row = tree.node[nd]
        if row[ND_NCAND] >= 0 and side != row[ND_SIDE]:
            break                                # these dice gave the decision to the other side
        n = legal_for(play, t, side, params, buf)
        if row[ND_NCAND] < 0:
            rank(play, t, side, w, params, buf, n, tree, nd)
        j = select(tree, nd, buf, n)
        if j < 0:
            break
        child = row[ND_CHILD + j]
        if child == 0:
            if used >= tree.value.shape[0]:
                break
            child = used
            used += 1
            new_node(tree, child)
            row[ND_CHILD + j] = child
        apply_action(play, t, row[ND_CAND + j])
        w.plan[side] = 0                         # greedy's memory of this side no longer holds
        depth += 1
        tree.path[depth] = child
        if tree.node[child, ND_VISITS] == 0:
            break
        nd = child
    return depth, used


@rule_inlined
def mcts_choice(s, t, side, w, tree, params, sims, rollout):
    """The most visited of ``side``'s actions after ``sims`` simulations (at most
    ``MAX_SIMS``), each played out ``rollout`` decisions past the new node. Every
    decision of the search, either side's, is among those its side may choose
    (:func:`~simulator.engine.players.base.legal_for`: ``params`` may restrict them)."""
    n = legal_for(s, t, side, params, w.buf)
    if n <= 1:
        return w.buf[0]
    plan0 = w.plan[0]
    plan1 = w.plan[1]
    own_below(s, side, 2)                        # move the player's own stream on
    copy_own_stream(s, side, w.stream)
    play = w.play
    new_node(tree, 0)
    tree.bounds[0] = 1.0
    tree.bounds[1] = 0.0
    used = 1
    for _ in range(min(sims, MAX_SIMS)):
        begin(play, s, w.stream)
        w.plan[0] = plan0
        w.plan[1] = plan1
        depth, used = descend(play, t, w, params, tree, used)
        backup(tree, depth, playout_value(play, t, w, params, rollout))
    w.plan[0] = plan0
    w.plan[1] = plan1
    if tree.node[0, ND_NCAND] <= 0:              # no simulation (sims 0): greedy's choice
        return greedy_choice(s, t, side, w, params, w.buf)
    return most_visited(tree)


int64_constants(globals())
