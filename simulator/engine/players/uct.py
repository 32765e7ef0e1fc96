"""The ``uct`` player (numba): open-loop UCT with uniformly random playouts, a second
family of search that shares nothing with greedy (issue 41, item 3).

Every other searching player (the look-ahead, ``mcts``) ranks its candidates by
greedy's scores, plays its playouts with greedy and values a position by the game's
hand-written ``evaluate``: they share greedy's blind spots. This one uses only the
rules' side of the game API (:mod:`simulator.engine.core.gameapi`: ``legal_actions``
through :func:`~simulator.engine.players.base.legal_for`, ``apply_action``,
``decider``, ``is_over``, ``winner``, ``turn_number``, ``outlook`` (the victory check),
``is_activation`` (which decisions start an activation); never ``greedy_choice``,
``greedy_scores``, ``other_plans`` or ``evaluate``):

- a decision with more than one choice runs ``sims`` simulations from the position;
  a simulation copies it into the players' spare state with fresh dice drawn from the
  player's own stream (open loop: a node is a sequence of actions, not a position, and
  the chance events are sampled anew each time, so the player never sees the game's
  own future rolls in ``s.rng[0]``);
- every decision, either side's and every step inside an activation, is a node of
  the tree (the tree follows whatever the game asks next). A node's children are the
  legal actions tried so far; it opens one more, drawn uniformly among the legal ones
  not yet tried (from the simulations' stream), while it has fewer than
  ``1 + sqrt(visits)`` (progressive widening: the games offer dozens of moves at a
  decision); among those open and legal in this simulation, UCT1 on the mean values
  (``mean + c * sqrt(ln N / n)``, ``c = params[UC_C] / 100``). A walk stops at the
  new node, or where these dice gave the decision to the other side;
- the steps of an activation (where a move goes, whom a shot aims at) continue the
  search that chose the activation: the tree is kept, the node its choice led to
  becomes the root, and it gets simulations until it has ``sims`` visits (a quarter
  of ``sims`` at least); a new activation, the other side's search, or a position the
  tree never met (another side to decide) starts a new tree (:func:`follows`);
- past the new node, uniformly random legal actions for both sides
  (:func:`~simulator.engine.players.randomplay.random_choice`, the random player's
  own code) to the end of the game, or with ``params[UC_HORIZON] >= 0`` to the end of
  the turn that many turns after the search's (the playout cap: random playouts to the
  end cost too much, see docs/strength.md);
- a simulation's value for side 0: 1 a win, 0 a loss, one half a draw (the game's
  ``winner``); at the cap, the game's own victory rule as if it ended there (the sign
  of ``outlook``: who would win now, one half when no one would), so the value stays a
  rules outcome, never a hand-weighed score;
- ``uct:N:learned`` (``params[MC_LEARNED + side]`` set) values the position at the cap
  by the value learned from the scenario's games instead (the fitted probability that
  side 0 wins, :func:`~simulator.engine.players.value.learned_value`; not greedy's
  ``evaluate``, and no greedy priors: its tree and playouts are as above), and with
  ``params[UC_LROLLOUT] >= 0`` its playout stops after that many random decisions
  past the new node (0: the node reached is valued at once);
- the action taken is the root's most visited legal child (its better mean on a tie).

A side's restriction (``params[RS_*]``) holds in the tree and the playouts (every
choice comes from ``legal_for``). The tree lives in preallocated arrays
(:class:`UTree`, the ``utree`` field of each game's players' ``Work``), shared by both
sides' players of a worker (its ``meta`` says whose it is).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from simulator.engine.core.compiling import int64_constants, next_u64_into, rule, rule_inlined
from simulator.engine.core.gameapi import (
    apply_action,
    decider,
    is_activation,
    is_over,
    log_off,
    outlook,
    turn_number,
    winner,
)
from simulator.engine.core.statecopy import restore_state
from simulator.engine.players.base import (
    MC_LEARNED,
    UC_C,
    UC_HORIZON,
    UC_LROLLOUT,
    among,
    copy_own_stream,
    legal_for,
    own_below,
)
from simulator.engine.players.randomplay import random_choice
from simulator.engine.players.value import learned_value
from simulator.run.rng import below

MAX_SIMS = 10_000          # the most simulations a decision may be given
MAX_NODES = 4 * MAX_SIMS   # the tree's rows (kept through an activation's steps)
MAX_DEPTH = 256            # nodes on a walk down the tree
MAX_PLAYOUT_DECISIONS = 4000     # a playout stops after this many decisions
# UTree.meta: who owns the tree, where its last choice led, rows used
M_OWNER, M_CURSOR, M_USED = 0, 1, 2


class UTree(NamedTuple):
    """The UCT player's tree (one per worker, in the players' Work): node 0 the root;
    a node's children a linked list (``first``, then ``sibling``; 0 ends it)."""

    act: np.ndarray      # int64[MAX_NODES] the action leading into the node
    first: np.ndarray    # int64[MAX_NODES] its first child (0 none)
    sibling: np.ndarray  # int64[MAX_NODES] its parent's next child (0 none)
    side: np.ndarray     # int64[MAX_NODES] the side deciding at the node (-1 not seen yet)
    visits: np.ndarray   # int64[MAX_NODES] simulations through the node
    value: np.ndarray    # float64[MAX_NODES] their values' sum, for the side that chose into it
    path: np.ndarray     # int64[MAX_DEPTH] the nodes of the current walk down
    meta: np.ndarray     # int64[4] M_OWNER the side whose search built it (-1 none), M_CURSOR the node
    #                      its last choice led to, M_USED the rows used


def make_tree() -> UTree:
    n = MAX_NODES
    meta = np.zeros(4, np.int64)
    meta[M_OWNER] = -1
    return UTree(np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                 np.zeros(n, np.int64), np.zeros(n), np.zeros(MAX_DEPTH, np.int64), meta)


@rule
def forget_tree(tree):
    """No tree to follow (a new game, or another player's search)."""
    tree.meta[M_OWNER] = -1
    tree.meta[M_CURSOR] = 0


@rule
def new_node(tree, nd, a):
    tree.act[nd] = a
    tree.first[nd] = 0
    tree.sibling[nd] = 0
    tree.side[nd] = -1
    tree.visits[nd] = 0
    tree.value[nd] = 0.0


@rule
def is_child(tree, nd, a):
    """Whether action ``a`` is one of node ``nd``'s children."""
    c = tree.first[nd]
    while c != 0:
        if tree.act[c] == a:
            return True
        c = tree.sibling[c]
    return False


@rule
def select(tree, nd, buf, n, uct_c, stream):
    """Node ``nd``'s choice among the ``n`` legal actions ``buf``: ``(child, -1)`` an
    open child by UCT1, or ``(0, a)`` a new action ``a`` to open (uniformly among the
    legal ones not yet children, drawn from ``stream``) while progressive widening
    allows one more."""
    allowed = 1 + int(math.sqrt(tree.visits[nd]))
    log_n = math.log(tree.visits[nd] + 1.0)
    k = 0
    best = 0
    top = -1.0
    c = tree.first[nd]
    while c != 0:
        if among(tree.act[c], buf, n):
            k += 1
            v = max(tree.visits[c], 1)
            score = tree.value[c] / v + uct_c * math.sqrt(log_n / v)
            if score > top:
                top = score
                best = c
        c = tree.sibling[c]
    if best == 0 or (k < allowed and k < n):
        r = below(stream, n - k)
        for i in range(n):
            if is_child(tree, nd, buf[i]):
                continue
            if r == 0:
                return 0, buf[i]
            r -= 1
    return best, -1


@rule
def backup(tree, depth, v0):
    """Count a simulation through ``tree.path[:depth + 1]`` with value ``v0`` for side 0."""
    for i in range(depth + 1):
        nd = tree.path[i]
        tree.visits[nd] += 1
        if i > 0:
            v = v0 if tree.side[tree.path[i - 1]] == 0 else 1.0 - v0
            tree.value[nd] += v


@rule_inlined
def descend(play, t, w, params, tree, root, used, uct_c):
    """Walk down from node ``root`` in ``play`` by UCT (every decision a node) and add
    one node; returns (the depth reached, nodes used)."""
    nd = root
    depth = 0
    tree.path[0] = root
    buf = w.buf
    while depth + 1 < MAX_DEPTH and not is_over(play):
        side = decider(play)
        if tree.side[nd] >= 0 and side != tree.side[nd]:
            break                                # these dice gave the decision to the other side
        tree.side[nd] = side
        n = legal_for(play, t, side, params, buf)
        child, a = select(tree, nd, buf, n, uct_c, w.stream)
        if child == 0:
            if used >= tree.act.shape[0]:
                break                            # the tree is full: play out from here
            child = used
            used += 1
            new_node(tree, child, a)
            tree.sibling[child] = tree.first[nd]
            tree.first[nd] = child
        apply_action(play, t, tree.act[child])
        depth += 1
        tree.path[depth] = child
        if tree.visits[child] == 0:
            break
        nd = child
    return depth, used


@rule_inlined
def random_playout(play, t, w, params, horizon, rollout, learned):
    """Random players to the end of the game (or of turn ``horizon`` when it is >= 0;
    and at most ``rollout`` decisions when it is >= 0), then the value for side 0: 1 a
    win, 0 a loss, one half a draw or no one ahead (at the cap, the game's victory rule
    as if it ended now: ``outlook``'s sign); with ``learned`` the learned value there
    (the fitted chance that side 0 wins; the game's result when it is over)."""
    steps = 0
    while not is_over(play) and steps < MAX_PLAYOUT_DECISIONS:
        if rollout >= 0 and steps >= rollout:
            break
        if horizon >= 0 and turn_number(play) > horizon:
            break
        d = decider(play)
        apply_action(play, t, random_choice(play, t, d, params, w.pbuf))
        steps += 1
    if learned != 0:
        return learned_value(play, t, w)
    if is_over(play):
        wn = winner(play)
        return 1.0 if wn == 0 else 0.0 if wn == 1 else 0.5
    o = outlook(play, t, 0)
    return 1.0 if o > 0 else 0.0 if o < 0 else 0.5


@rule
def most_visited(tree, root, buf, n):
    """Node ``root``'s most visited child legal now (its better mean on a tie); 0 none."""
    best = 0
    bv = 0
    bm = -1.0
    c = tree.first[root]
    while c != 0:
        v = tree.visits[c]
        if v > 0 and among(tree.act[c], buf, n):
            m = tree.value[c] / v
            if v > bv or (v == bv and m > bm):
                bv = v
                bm = m
                best = c
        c = tree.sibling[c]
    return best


@rule_inlined
def follows(s, side, tree, sims):
    """Whether ``side``'s decision in ``s`` continues the search its last choice came
    from (a step inside the activation it chose: not an activation, the tree its own,
    its cursor a node where that side decided, room for ``sims`` more rows)."""
    cur = tree.meta[M_CURSOR]
    return (tree.meta[M_OWNER] == side and cur > 0 and tree.side[cur] == side and tree.visits[cur] > 0
            and not is_activation(s) and tree.meta[M_USED] + sims <= tree.act.shape[0])


@rule_inlined
def uct_choice(s, t, side, w, tree, params, sims):
    """``side``'s most visited action after ``sims`` simulations (at most ``MAX_SIMS``;
    see the module docstring, ``params[UC_*]`` its settings). Draws only from ``side``'s
    own stream; leaves ``s`` as found (the simulations play on ``w.play``)."""
    sims = min(sims, MAX_SIMS)
    n = legal_for(s, t, side, params, w.buf)
    if follows(s, side, tree, sims):
        root = tree.meta[M_CURSOR]               # a step of the activation: the subtree its search grew
        used = tree.meta[M_USED]
        more = max(sims - tree.visits[root], (sims + 3) // 4)
    else:
        root = 0
        used = 1
        more = sims
        new_node(tree, 0, -1)
    if n <= 1:
        c = most_visited(tree, root, w.buf, n) if root > 0 else 0
        tree.meta[M_OWNER] = side if c > 0 else -1
        tree.meta[M_CURSOR] = c
        return w.buf[0]
    uct_c = params[UC_C] / 100.0
    hz = params[UC_HORIZON]
    horizon = turn_number(s) + hz if hz >= 0 else -1
    learned = params[MC_LEARNED + side]
    rollout = params[UC_LROLLOUT] if learned != 0 else -1
    own_below(s, side, 2)                        # move the player's own stream on
    copy_own_stream(s, side, w.stream)
    play = w.play
    for _ in range(more):
        restore_state(play, s)
        log_off(play)
        next_u64_into(play.rng, w.stream)        # fresh dice and players' streams, from its own
        depth, used = descend(play, t, w, params, tree, root, used, uct_c)
        backup(tree, depth, random_playout(play, t, w, params, horizon, rollout, learned))
    n = legal_for(s, t, side, params, w.buf)
    c = most_visited(tree, root, w.buf, n)
    tree.meta[M_OWNER] = side
    tree.meta[M_CURSOR] = c
    tree.meta[M_USED] = used
    return tree.act[c] if c != 0 else w.buf[0]


int64_constants(globals())
