"""What every computer player shares: its own random stream, the players' parameters
layout and the legal actions it may choose from (numba).

A player draws only from its side's stream ``s.rng[1 + side]`` (through
:func:`own_below` and :func:`own_uniform`); ``s.rng[0]`` is the dice, which a player
must never draw from (it would change the game's rolls).

Players are written against the game API (:mod:`simulator.engine.core.gameapi`), not
a game's internals: every game that registers it gets them.

Every player, and every playout inside a player, gets its choices from
:func:`legal_for`: the game's legal actions less what restricted play forbids the
deciding side (``params[RS_*]``; none by default).
"""

from __future__ import annotations

from simulator.engine.core.actions import a_kind
from simulator.engine.core.compiling import int64_constants, rule, rule_inlined
from simulator.engine.core.gameapi import forbidden, legal_actions
from simulator.run.rng import below, uniform

NEG = -1.0e9            # a score below any real one

# how best_index breaks a tie between equal scores
TIE_FIRST = 0           # the first of them (a later one must score strictly more)
TIE_RANDOM = 1          # scores within TIE_EPS tie; uniformly among them, from the stream given
TIE_EPS = 1e-9

# the players' integer parameters (``params``, int64): index -> meaning
LA_CANDIDATES, LA_PLAYOUTS, LA_EXTRA_TURNS = range(3)     # the look-ahead's
MC_SIMS = 3             # the tree search's simulations per decision: MC_SIMS + side
MC_ROLLOUT = 5          # and its playouts: r >= 0 greedy decisions past a new node, r < 0 to the end of the turn
RS_KINDS = 6            # restricted play: RS_KINDS + side, the action kinds that side never takes
RS_CARDS = 8            # and RS_CARDS + side, the unit cards it never activates (restrict.forbidden)
MC_C = 10               # the tree search's UCT exploration constant, in hundredths
MC_SCALE = 11           # its evaluation's scale (value -> [0, 1]), in hundredths
MC_EVERY = 12           # 1: every decision is a node of its tree; 0: only the activations (6.4), greedy the rest
MC_POOL = 13            # dice of its simulations: a pool of this many, reused in turn (0: fresh every time)
MC_WIDTH = 14           # the most candidates a node of its tree keeps (0: mcts.MAX_CHILDREN)
MC_DEPTH = 15           # the deepest its tree grows, in searched decisions (0: no limit; 1: the root's only)
MC_PLANS = 16           # other plans its tree weighs for each of its candidate moves (the game's other_plans)
MC_GATE = 17            # an other plan is played only when its mean beats greedy's plans' by this many standard errors, hundredths (0: no gate)
MC_VICTORY = 18         # its evaluation: plus this many hundredths of a point times the game's outlook (gameapi.outlook)
UC_C = 19               # the uct player's UCT1 exploration constant, hundredths (its simulations: MC_SIMS + side)
UC_HORIZON = 20         # its random playouts: to the end of the turn this many turns on (-1: to the game's end)
MC_LEARNED = 21         # MC_LEARNED + side: 1, that side's searches score a leaf by the learned value (players.value)
MC_LROLLOUT = 23        # a learned player's playouts: r >= 0 greedy decisions past the new node, r < 0 as MC_ROLLOUT's
UC_LROLLOUT = 24        # uct:N:learned's random playouts: r >= 0 at most r decisions past the new node, r < 0 to UC_HORIZON's cap
N_PARAMS = 25

MAX_FEATURES = 24       # the most features a game's ``features`` hook writes (Work.feat; Work.value holds 1 + this)


@rule
def own_below(s, side, n):
    """A uniform draw in ``0 .. n - 1`` from ``side``'s own stream."""
    return below(s.rng[1 + side], n)


@rule_inlined
def own_uniform(s, side):
    """A uniform draw in [0, 1) from ``side``'s own stream."""
    return uniform(s.rng[1 + side])


@rule_inlined
def copy_own_stream(s, side, out):
    """``out[:]``: the state of ``side``'s own stream (to seed playouts from it)."""
    for k in range(4):
        out[k] = s.rng[1 + side, k]


@rule_inlined
def legal_for(s, t, side, params, buf):
    """Fill ``buf`` with the actions ``side``'s player may choose from and return how
    many: the game's legal actions less those ``side``'s restriction forbids (the
    game's ``forbidden``; :mod:`simulator.engine.core.gameapi`),
    in the legal order. When the restriction would forbid every legal action (a pass
    is always left, but a decision such as a fallback step or a forced close-combat
    choice may have no other), all the legal actions stay allowed: a restriction
    forbids a choice, never the game to go on. Without a restriction: exactly the
    legal actions, at the cost of two reads."""
    n = legal_actions(s, t, buf)
    kinds = params[RS_KINDS + side]
    cards = params[RS_CARDS + side]
    if kinds == 0 and cards == 0:
        return n
    m = 0
    for i in range(n):
        a = buf[i]
        if not forbidden(s, t, a, kinds, cards):
            buf[m] = a
            m += 1
    if m == 0:
        return legal_actions(s, t, buf)
    return m


@rule
def best_index(scores, n, floor, tie, rng):
    """The index of the best of ``scores[:n]`` above ``floor`` (-1 when none is): every
    player's argmax over its candidates. ``tie``: TIE_FIRST, the first of equal scores
    (strictly greater replaces; ``rng`` unused); TIE_RANDOM, scores within TIE_EPS of the
    best so far tie and one of them is kept uniformly (reservoir sampling, one draw from
    ``rng`` per tie). A NaN score is never taken."""
    best = -1
    top = floor
    ties = 0
    for i in range(n):
        v = scores[i]
        if tie == TIE_RANDOM:
            if v > top + TIE_EPS:
                top, best, ties = v, i, 1
            elif v > top - TIE_EPS:
                ties += 1
                if below(rng, ties) == 0:
                    best = i
        elif v > top:
            top = v
            best = i
    return best


@rule
def among(a, buf, n):
    """Whether ``a`` is one of the ``n`` actions (or hexes) in ``buf``."""
    for i in range(n):
        if buf[i] == a:
            return True
    return False


@rule
def find_kind(buf, n, k):
    """The first of the ``n`` actions in ``buf`` of kind ``k``, else the first one."""
    for i in range(n):
        if a_kind(buf[i]) == k:
            return buf[i]
    return buf[0]


int64_constants(globals())
