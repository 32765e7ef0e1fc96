"""The ``mcts`` player (numba): open-loop Monte Carlo tree search (UCT).

Each decision runs ``sims`` simulations from the position. A simulation copies the
position into the players' spare state, gives the copy fresh dice drawn from the
player's own stream (open loop: the tree's nodes are sequences of actions, not
positions, and each simulation samples the chance events anew, so the player never
sees the game's future rolls), walks down the tree choosing by UCT, adds one node,
plays on with greedy players and scores the position it reaches
(the game's ``evaluate`` plus ``params[MC_VICTORY]`` hundredths times the game's
``outlook``, how the game would end now weighed by the share of it played, squashed
to [0, 1]; a game over scores 1, 0 or one half for a draw). The action taken is the root's most
visited one; with ``params[MC_GATE]`` an other plan of a move (below) only when its
mean value beats that of greedy's own most visited candidate by that many standard
errors (hundredths), else greedy's (:func:`root_choice`).

What the tree searches (``params[MC_EVERY]``): by default only the decisions that
matter, the activations (the game's ``is_activation``; Assault's 6.4: which unit acts,
and how, as greedy's scores rank them,
with greedy's plan for a move, and for a move ``params[MC_PLANS]`` other plans: the
game's ``other_plans``, in Assault greedy's next best hexes to end it in, which greedy
then walks to), to a depth of ``params[MC_DEPTH]`` searched decisions
(below it the opponent is greedy, as the look-ahead assumes); the steps inside an activation (where to go on the
way, whom to fire at) are greedy's, in the tree as in the playouts, and so are the
player's own (the look-ahead's split). With ``MC_EVERY`` 1 every decision is a node.
The playout (``params[MC_ROLLOUT]``): ``r >= 0`` greedy decisions past the new node,
or with ``r < 0`` to the end of the turn the search started in (plus ``-r - 1``
turns), as the look-ahead plays out. The simulations' dice may come from a pool of
``params[MC_POOL]`` streams drawn in turn (common random numbers: the candidates are
compared on the same rolls, as the look-ahead compares its own), all drawn from the
player's own stream.

The tree lives in preallocated arrays (:class:`Tree`): a node per row, with the side
that decided there, its visits, its candidate actions best first (greedy's order:
an activation's choices by greedy's scores, then the other plans of its moves; any
other decision greedy's choice first then the rest in the legal order) and the planned
hex of each (the same move may be a candidate more than once, to other hexes), the node each
candidate leads to (0: none yet)
and, per node, the sum of the values of the simulations through it from the point of
view of the side that chose the action leading to it. A node opens its candidates one
by one as its visits grow (progressive widening: ``1 + sqrt(visits)`` of them), so
greedy's best action is tried first; among those open, UCT on the mean values rescaled
to the range the search has seen so far (the values of positions a few decisions on
differ little, and the exploration term must not drown them). In a simulation whose dice led elsewhere (another
side to decide, a candidate no longer legal) the walk down stops there and plays out.

The search reads the game through its API (:mod:`simulator.engine.core.gameapi`:
``legal_actions``, ``apply_action``, who decides, over, winner, a copy of the state,
and what the game's own players know: its greedy choice and scores, its position
value and outlook, which decisions are activations); any game that registers the API gets it
unchanged. How it uses them is in the section "the game" below: how a simulation
starts, which decisions are searched, the order of the candidates, and the playout
and its value.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from simulator.engine.core.compiling import int64_constants, rule, rule_inlined
from simulator.engine.core.gameapi import (
    apply_action,
    decider,
    evaluate,
    greedy_choice,
    greedy_scores,
    is_activation,
    is_over,
    log_off,
    other_plans,
    outlook,
    turn_number,
    winner,
)
from simulator.engine.core.statecopy import restore_state
from simulator.engine.players.base import (
    MC_C,
    MC_DEPTH,
    MC_EVERY,
    MC_GATE,
    MC_LEARNED,
    MC_PLANS,
    MC_POOL,
    MC_SCALE,
    MC_VICTORY,
    MC_WIDTH,
    among,
    copy_own_stream,
    legal_for,
    own_below,
)
from simulator.engine.players.lookahead import MAX_PLAYOUT_DECISIONS, best_candidates, reseed
from simulator.engine.players.value import learned_value

MAX_SIMS = 10_000          # the most simulations a decision may be given
MAX_CHILDREN = 16          # candidates a node keeps (greedy's best)
MAX_DEPTH = 128            # nodes on a walk down the tree
# (the exploration constant, values rescaled to [0, 1], and the evaluation's scale,
# evaluate() -> [0, 1]: 1 / (1 + exp(-value / scale)), are params[MC_C], params[MC_SCALE])

# a node's row of Tree.node
ND_SIDE, ND_VISITS, ND_NCAND, ND_OWN, ND_CAND = 0, 1, 2, 3, 4    # ND_NCAND -1: candidates not ranked yet
# (ND_OWN: how many of the candidates are greedy's own, the rest other plans of its moves)
ND_CHILD = ND_CAND + MAX_CHILDREN
ND_PLAN = ND_CHILD + MAX_CHILDREN                     # greedy's planned end hex of each candidate (-1 none)
ND_FIELDS = ND_PLAN + MAX_CHILDREN


class Tree(NamedTuple):
    """The search tree's preallocated arrays (one per worker, in the players' Work)."""

    node: np.ndarray     # int64[MAX_SIMS + 1, ND_FIELDS] one row per node, the root row 0
    value: np.ndarray    # float64[MAX_SIMS + 1] value sum, for the side that chose the action into the node
    value2: np.ndarray   # float64[MAX_SIMS + 1] and the sum of the values' squares
    path: np.ndarray     # int64[MAX_DEPTH] the nodes of the current walk down
    bounds: np.ndarray   # float64[2] the lowest and highest simulation value (side 0's) of the search
    stream0: np.ndarray  # uint64[4] the simulations' stream at the search's start (the dice pool's)


def make_tree() -> Tree:
    return Tree(np.zeros((MAX_SIMS + 1, ND_FIELDS), np.int64), np.zeros(MAX_SIMS + 1), np.zeros(MAX_SIMS + 1),
                np.zeros(MAX_DEPTH, np.int64), np.zeros(2), np.zeros(4, np.uint64))


# ======================================================================================
# the game: how the search uses the game API
# ======================================================================================


@rule_inlined
def begin(play, s, stream):
    """A simulation's start: ``play`` a copy of ``s`` without the event log, with fresh
    dice and players' streams drawn from ``stream`` (the searching player's own)."""
    restore_state(play, s)
    log_off(play)
    reseed(play, stream)


@rule_inlined
def is_searched(play, every):
    """Whether the search weighs the pending decision itself (a node of the tree) or
    leaves it to greedy: every decision with ``every``, else the activations."""
    return every != 0 or is_activation(play)


@rule_inlined
def rank(play, t, side, w, params, buf, n, tree, nd, width):
    """Node ``nd``'s candidates (at most ``width``) among the ``n`` legal actions ``buf``
    of ``play``, best first by greedy: an activation's by greedy's scores (with their
    planned hexes), any other decision greedy's choice then the rest in the legal order."""
    row = tree.node[nd]
    m = 0
    if is_activation(play):
        greedy_scores(play, t, side, w, buf, n)
        m = best_candidates(w, n, min(n, width, w.cands.shape[0]))
        for j in range(m):
            row[ND_CAND + j] = w.cands[j]
            row[ND_PLAN + j] = w.plans[j]
        row[ND_OWN] = m
        m = add_other_plans(play, t, w, params[MC_PLANS], row, m)
    if m == 0:
        g = greedy_choice(play, t, side, w, params, w.pbuf)
        row[ND_CAND] = g
        row[ND_PLAN] = -1
        m = 1
        for i in range(n):
            if m >= width:
                break
            if buf[i] != g:
                row[ND_CAND + m] = buf[i]
                row[ND_PLAN + m] = -1
                m += 1
        row[ND_OWN] = m
    for j in range(m):
        row[ND_CHILD + j] = 0
    row[ND_SIDE] = side
    row[ND_NCAND] = m


@rule_inlined
def add_other_plans(play, t, w, per_move, row, m):
    """Append to the ``m`` candidates of ``row`` greedy's other plans (up to ``per_move``
    each, the game's ``other_plans``) for those with a plan, while the row has room;
    returns the candidates now."""
    if per_move <= 0:
        return m
    total = m
    for j in range(m):
        if row[ND_PLAN + j] < 0:
            continue
        k = other_plans(play, t, w, row[ND_CAND + j], row[ND_PLAN + j], w.pbuf, min(per_move, MAX_CHILDREN - total))
        for i in range(k):
            row[ND_CAND + total] = row[ND_CAND + j]
            row[ND_PLAN + total] = w.pbuf[i]
            total += 1
    return total


@rule_inlined
def playout_value(play, t, w, params, rollout, horizon, scale, learned):
    """Play on with greedy players, ``rollout`` decisions more or with ``rollout < 0`` to
    the end of turn ``horizon`` (sooner when the game ends), and score the position
    for side 0 in [0, 1]: the game's ``evaluate`` plus ``params[MC_VICTORY]``/100 times
    its ``outlook`` (how the game would end now, by the share played), squashed; with
    ``learned`` the learned value instead (:func:`~simulator.engine.players.value.learned_value`:
    the fitted probability that side 0 wins)."""
    steps = 0
    while not is_over(play) and steps < MAX_PLAYOUT_DECISIONS:
        if rollout >= 0 and steps >= rollout:
            break
        if rollout < 0 and turn_number(play) > horizon:
            break
        d = decider(play)
        apply_action(play, t, greedy_choice(play, t, d, w, params, w.pbuf))
        steps += 1
    if learned != 0:
        return learned_value(play, t, w)
    if is_over(play):
        wn = winner(play)
        if wn == 0:
            return 1.0
        if wn == 1:
            return 0.0
        return 0.5
    value = evaluate(play, t, w, 0)
    if params[MC_VICTORY] != 0:
        value += params[MC_VICTORY] / 100.0 * outlook(play, t, 0)
    return 1.0 / (1.0 + math.exp(-value / scale))


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
    tree.value2[nd] = 0.0


@rule
def select(tree, nd, buf, n, uct_c):
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
        if not among(row[ND_CAND + j], buf, n):
            continue
        c = row[ND_CHILD + j]
        if c == 0 or tree.node[c, ND_VISITS] == 0:
            if k < allowed:
                return j
            continue
        k += 1
        v = tree.node[c, ND_VISITS]
        score = (tree.value[c] / v - lo) / span + uct_c * math.sqrt(log_n / v)
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
            v = v0 if chooser == 0 else 1.0 - v0
            tree.value[nd] += v
            tree.value2[nd] += v * v


@rule
def most_visited(tree, last):
    """The root's candidate among its first ``last`` with the most visits (the better
    mean on a tie): its index (-1 when none was visited)."""
    row = tree.node[0]
    best = -1
    bv = 0
    bm = -1.0
    for j in range(min(last, row[ND_NCAND])):
        c = row[ND_CHILD + j]
        if c == 0:
            continue
        v = tree.node[c, ND_VISITS]
        m = tree.value[c] / max(v, 1)
        if v > bv or (v == bv and m > bm):
            bv = v
            bm = m
            best = j
    return best


@rule
def beats(tree, a, b, z):
    """Whether node ``a``'s mean value is above node ``b``'s by more than ``z`` standard
    errors of the difference (Welch's; two visits each at least)."""
    na = tree.node[a, ND_VISITS]
    nb = tree.node[b, ND_VISITS]
    if na < 2 or nb < 2:
        return False
    ma = tree.value[a] / na
    mb = tree.value[b] / nb
    va = max(tree.value2[a] / na - ma * ma, 0.0) * na / (na - 1)
    vb = max(tree.value2[b] / nb - mb * mb, 0.0) * nb / (nb - 1)
    return ma - mb > z * math.sqrt(va / na + vb / nb + 1e-18)


@rule
def root_choice(tree, gate):
    """The root's candidate played (its index): the most visited; with ``gate > 0`` an
    other plan of a move (not greedy's own candidate) only when its mean value beats
    the most visited of greedy's own by more than ``gate`` standard errors, else that
    one (so a plan other than greedy's is played on evidence, not on the noise of the
    fresh dice among many candidates)."""
    row = tree.node[0]
    j = most_visited(tree, row[ND_NCAND])
    own = row[ND_OWN]
    if gate <= 0.0 or j < own:
        return max(j, 0)
    g = most_visited(tree, own)
    if g < 0 or beats(tree, row[ND_CHILD + j], row[ND_CHILD + g], gate):
        return j
    return g


# ======================================================================================
# the search
# ======================================================================================


@rule_inlined
def descend(play, t, w, params, tree, used, every, width, uct_c, max_depth):
    """Walk down from the root in ``play`` (following the tree's choices on this
    simulation's dice, greedy's in the decisions the tree leaves to it) and add one
    node; returns (the depth reached, nodes used)."""
    nd = 0
    depth = 0
    tree.path[0] = 0
    buf = w.buf
    steps = 0
    while depth + 1 < MAX_DEPTH and not is_over(play) and steps < MAX_PLAYOUT_DECISIONS:
        side = decider(play)
        steps += 1
        if not is_searched(play, every):
            apply_action(play, t, greedy_choice(play, t, side, w, params, w.pbuf))
            continue
        if max_depth > 0 and depth >= max_depth:
            break                                # the tree grows no deeper: the playout takes over
        row = tree.node[nd]
        if row[ND_NCAND] >= 0 and side != row[ND_SIDE]:
            break                                # these dice gave the decision to the other side
        n = legal_for(play, t, side, params, buf)
        if row[ND_NCAND] < 0:
            rank(play, t, side, w, params, buf, n, tree, nd, width)
        j = select(tree, nd, buf, n, uct_c)
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
        w.plan[side] = row[ND_PLAN + j] + 1      # greedy's plan for the activation (0: none)
        depth += 1
        tree.path[depth] = child
        if tree.node[child, ND_VISITS] == 0:
            break
        nd = child
    return depth, used


@rule_inlined
def mcts_choice(s, t, side, w, tree, params, sims, rollout):
    """The most visited of ``side``'s actions after ``sims`` simulations (at most
    ``MAX_SIMS``), each played out past the new node as ``rollout`` says (see the
    module docstring; ``params[MC_*]`` the rest of the settings). Every decision of the
    search, either side's, is among those its side may choose
    (:func:`~simulator.engine.players.base.legal_for`: ``params`` may restrict them)."""
    every = params[MC_EVERY]
    if not is_searched(s, every):
        return greedy_choice(s, t, side, w, params, w.buf)
    n = legal_for(s, t, side, params, w.buf)
    if n <= 1:
        return w.buf[0]
    width = MAX_CHILDREN if params[MC_WIDTH] <= 0 else min(params[MC_WIDTH], MAX_CHILDREN)
    uct_c = params[MC_C] / 100.0
    scale = max(params[MC_SCALE], 1) / 100.0
    pool = params[MC_POOL]
    learned = params[MC_LEARNED + side]
    horizon = turn_number(s) + (-rollout - 1 if rollout < 0 else 0)
    plan0 = w.plan[0]
    plan1 = w.plan[1]
    own_below(s, side, 2)                        # move the player's own stream on
    copy_own_stream(s, side, w.stream)
    for k in range(tree.stream0.shape[0]):
        tree.stream0[k] = w.stream[k]
    play = w.play
    new_node(tree, 0)
    tree.bounds[0] = 1.0
    tree.bounds[1] = 0.0
    used = 1
    for i in range(min(sims, MAX_SIMS)):
        if pool > 0 and i % pool == 0:
            for k in range(tree.stream0.shape[0]):     # the pool's next round: the same dice again
                w.stream[k] = tree.stream0[k]
        begin(play, s, w.stream)
        w.plan[0] = plan0
        w.plan[1] = plan1
        depth, used = descend(play, t, w, params, tree, used, every, width, uct_c, params[MC_DEPTH])
        backup(tree, depth, playout_value(play, t, w, params, rollout, horizon, scale, learned))
    w.plan[0] = plan0
    w.plan[1] = plan1
    if tree.node[0, ND_NCAND] <= 0:              # no simulation (sims 0): greedy's choice
        return greedy_choice(s, t, side, w, params, w.buf)
    j = root_choice(tree, params[MC_GATE] / 100.0)
    if every == 0:
        w.plan[side] = tree.node[0, ND_PLAN + j] + 1     # greedy's plan for the unit it activates
    return tree.node[0, ND_CAND + j]


int64_constants(globals())
