"""The players' one interface: the dispatch by kind, whole games, a player's scratch
and parameters (numba).

A player is a function ``(s, t, side, w, params) -> action`` (or a subset of those
arguments) that returns one of :func:`~simulator.engine.players.base.legal_for`'s actions for the
decision pending in ``s`` (``side`` decides). It

- reads the game through the game API (:mod:`simulator.engine.core.gameapi`): the
  shared players here (random, the look-ahead, the tree search, and the loops that
  play whole games) know no game, and any game that registers the API gets them; a
  game's greedy player is the game's own (Assault's :mod:`simulator.games.assault.game.greedy`
  reads its state through :mod:`simulator.games.assault.game.view`, Tide of Iron's
  :mod:`simulator.games.toi.game.greedy` through its ``view``). A player leaves ``s`` as it
  found it (the game is the rules' to change: :func:`play` applies the action; Assault's
  greedy turns an artillery unit to weigh a facing and turns it back);
- draws random numbers only from its side's own stream ``s.rng[1 + side]``
  (:func:`~simulator.engine.players.base.own_below`, ``own_uniform``); ``s.rng[0]`` is
  the dice, which a player never draws from;
- keeps its memory and settings in its own parameters: ``w`` (the game's ``Work``, :func:`make_work`: scratch
  arrays, in Assault ``w.weights`` the greedy weights, ``w.plan[side]`` greedy's planned hex, a
  spare state for playouts, ``w.tree`` the tree search's tree) and ``params`` (int64,
  ``base.LA_*``: the look-ahead's settings, ``base.MC_*``: the tree search's,
  ``base.RS_*``: restricted play), never in ``s`` or ``t``;
- chooses among :func:`~simulator.engine.players.base.legal_for`'s actions, in its own
  decisions and in any it plays out for either side (restricted play: what a side's
  restriction forbids, that side never does).

A new player is one module beside the others plus one constant, one name in
:data:`PLAYER_NAMES` and one line in :func:`choice` (a quick player) or
:func:`search_choice` (a searching one, :data:`SEARCHING`: compiled only into the batch
entry that plays such players, so that a first greedy run does not wait for it). A
player's name may carry its strength, ``mcts:400`` (:func:`parse_player`,
:func:`player_setup`).
"""

from __future__ import annotations

import numpy as np

from simulator.engine.core.compiling import entry, int64_constants, rule_inlined
from simulator.engine.core.gameapi import apply_action, decider, greedy_choice, is_over
from simulator.engine.players.base import (
    LA_CANDIDATES,
    LA_EXTRA_TURNS,
    LA_PLAYOUTS,
    MC_C,
    MC_DEPTH,
    MC_EVERY,
    MC_GATE,
    MC_LEARNED,
    MC_LROLLOUT,
    MC_PLANS,
    MC_POOL,
    MC_ROLLOUT,
    MC_SCALE,
    MC_SIMS,
    MC_VICTORY,
    MC_WIDTH,
    N_PARAMS,
    UC_C,
    UC_HORIZON,
    UC_LROLLOUT,
)
from simulator.engine.players.lookahead import lookahead_choice
from simulator.engine.players.mcts import MAX_SIMS, mcts_choice
from simulator.engine.players.randomplay import random_choice
from simulator.engine.players.uct import MAX_SIMS as UCT_MAX_SIMS
from simulator.engine.players.uct import forget_tree, uct_choice
from simulator.run.vocabulary import DEFAULT_UCT_C, DEFAULT_UCT_HORIZON, DEFAULT_UCT_SIMS

RANDOM, GREEDY, LOOKAHEAD, MCTS, UCT = 0, 1, 2, 3, 4
PLAYER_NAMES = ("random", "greedy", "lookahead", "mcts", "uct")
SEARCHING = (LOOKAHEAD, MCTS, UCT)      # the players that search (a game each takes 0.1-1 s)
DEFAULT_MCTS_SIMS = 256                 # a plain ``mcts``'s simulations per decision (bench/scenario.py: its speed)
SIMS = {"mcts": (MAX_SIMS, DEFAULT_MCTS_SIMS), "uct": (UCT_MAX_SIMS, DEFAULT_UCT_SIMS)}   # the players that take :N

DEFAULT_PARAMS = np.zeros(N_PARAMS, dtype=np.int64)
DEFAULT_PARAMS[LA_CANDIDATES] = 4       # greedy's best actions the look-ahead plays out
DEFAULT_PARAMS[LA_PLAYOUTS] = 8         # playouts of each
DEFAULT_PARAMS[LA_EXTRA_TURNS] = 0      # turns played out past the current one
DEFAULT_PARAMS[MC_SIMS:MC_SIMS + 2] = DEFAULT_MCTS_SIMS
DEFAULT_PARAMS[MC_ROLLOUT] = -1         # the tree search's playouts: to the end of the turn (r >= 0: r decisions)
DEFAULT_PARAMS[MC_C] = 100              # its UCT exploration constant, hundredths
DEFAULT_PARAMS[MC_SCALE] = 3000         # its evaluation's scale, hundredths (a unit is worth a few points)
DEFAULT_PARAMS[MC_EVERY] = 0            # its tree: the activations (6.4), greedy the steps inside them
DEFAULT_PARAMS[MC_POOL] = 0             # its simulations' dice: fresh every time (n > 0: a pool of n, reused)
DEFAULT_PARAMS[MC_WIDTH] = 6            # candidates a node keeps (greedy's best 6; the look-ahead's 4)
DEFAULT_PARAMS[MC_DEPTH] = 1            # its tree: its own activation (the opponent greedy below; 2: its reply too)
DEFAULT_PARAMS[MC_PLANS] = 2            # and for each candidate move, greedy's next best 2 hexes to end it in
DEFAULT_PARAMS[MC_VICTORY] = 2000       # its evaluation: plus 20 points times how the game would end now, by the share played
DEFAULT_PARAMS[MC_GATE] = 100           # an other plan played when most visited and 1 standard error better than greedy's (0: when most visited)
DEFAULT_PARAMS[UC_C] = DEFAULT_UCT_C    # uct's exploration constant, hundredths (values are 0/1 outcomes)
DEFAULT_PARAMS[UC_HORIZON] = DEFAULT_UCT_HORIZON   # uct's playouts: turns past the current one (-1: to the end)
DEFAULT_PARAMS[MC_LROLLOUT] = -1        # a learned player's playouts: to the turn's end, as MC_ROLLOUT's (0, the value
                                        # alone, lost 7 points in Infantry Training's German seat: docs/strength.md)
DEFAULT_PARAMS[UC_LROLLOUT] = -1        # uct:N:learned's random playouts: to UC_HORIZON's cap, as uct:N's
LEARNED = "learned"                     # the suffix of a player scoring its leaves by the learned value (players.value)


def parse_player(text: str) -> tuple[int, int | None]:
    """``"greedy"`` -> (GREEDY, None); ``"mcts:400"`` -> (MCTS, 400): a player's kind and
    the strength its name gives (simulations per decision; only ``mcts`` and ``uct``
    take one; a plain ``uct`` is ``uct:DEFAULT_UCT_SIMS``). A searching player's name
    may end in ``:learned`` (``lookahead:learned``, ``mcts:400:learned``,
    ``uct:32:learned``; :func:`is_learned`). Raises ValueError with a one-line reason."""
    name, colon, arg = text.strip().partition(":")
    if name not in PLAYER_NAMES:
        raise ValueError(f"unknown player {name!r}")
    if not colon:
        return PLAYER_NAMES.index(name), (int(DEFAULT_UCT_SIMS) if name == "uct" else None)
    head, _, tail = arg.strip().rpartition(":") if arg.strip().endswith(LEARNED) else (arg, "", "")
    learned = bool(tail) or arg.strip() == LEARNED
    if learned and name not in ("lookahead", "mcts", "uct"):
        raise ValueError(f"player {name!r} has no leaf value to learn "
                         "(only lookahead:learned, mcts:N:learned and uct:N:learned)")
    if learned and not head.strip():
        return PLAYER_NAMES.index(name), (int(DEFAULT_UCT_SIMS) if name == "uct" else None)
    if name not in SIMS:
        raise ValueError(f"player {name!r} takes no strength (only mcts:N and uct:N do)")
    most = SIMS[name][0]
    arg = head if learned else arg
    if not arg.strip().isdigit() or not 1 <= int(arg) <= most:
        raise ValueError(f"{name}:N wants N simulations per decision, a whole number from 1 to {most:,} "
                         f"(got {arg!r})")
    return PLAYER_NAMES.index(name), int(arg)


def is_learned(text: str) -> bool:
    """Whether the player named ``text`` (valid for :func:`parse_player`) scores its leaves
    by the learned position value: ``lookahead:learned``, ``mcts:N:learned``, ``uct:N:learned``."""
    parts = [p.strip() for p in text.strip().split(":")]
    return len(parts) > 1 and parts[-1] == LEARNED


def player_setup(players, params: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The kinds (int64[2]) and parameters of two players named as :func:`parse_player`
    reads them (``("mcts:400", "greedy")``), on top of ``params`` (default
    :data:`DEFAULT_PARAMS`); a learned player's side gets ``params[MC_LEARNED + side]`` 1."""
    params = (DEFAULT_PARAMS if params is None else params).copy()
    kinds = np.zeros(2, dtype=np.int64)
    for side, text in enumerate(players):
        kinds[side], sims = parse_player(text)
        if sims is not None:
            params[MC_SIMS + side] = sims
        if is_learned(text):
            params[MC_LEARNED + side] = 1
    return kinds, params


def make_work(game, weights: np.ndarray | None = None):
    """Scratch for the players of one worker (one per thread) of ``game``: its game's
    ``Work`` (``game.player_work(weights)``; Assault's
    :func:`simulator.games.assault.game.playerapi.make_work`), with no memory (a game's
    start). Every ``Work`` has the fields the shared players use: ``buf``, ``pbuf``,
    ``scores``, ``dests``, ``cands``, ``plans``, ``stream``, ``play`` (a spare state),
    ``tree`` (:class:`~simulator.engine.players.mcts.Tree`), ``utree``
    (:class:`~simulator.engine.players.uct.UTree`), ``plan`` (int64[2]: the
    greedy player's memory per side, 0 none), ``value`` and ``feat`` (the learned value's
    weights, from ``game.learned_value`` when
    :func:`simulator.engine.players.learned.prepare` set it, and scratch)."""
    w = game.player_work(weights)
    fitted = getattr(game, "learned_value", None)
    if fitted is not None:
        w.value[:len(fitted.packed)] = fitted.packed
    return w


@rule_inlined
def forget(w):
    """Clear the players' memory: a new game starts."""
    w.plan[:] = 0
    forget_tree(w.utree)


@rule_inlined
def choice(s, t, kind, side, w, params):
    """The action of a quick player of ``kind`` (GREEDY, else RANDOM) for ``side``.

    Inlined (at numba's level) into :func:`play`: each separately compiled layer above
    the rules costs LLVM a pass over the whole engine linked beneath it (about 13 s of a
    cold compile each). The searching players are :func:`search_choice`'s, compiled only
    into the batch entry that plays them."""
    if kind == GREEDY:
        return greedy_choice(s, t, side, w, params, w.buf)
    if kind != RANDOM:
        raise ValueError("a searching player in a quick batch entry (see a game's chunk_entry)")
    return random_choice(s, t, side, params, w.buf)


@rule_inlined
def search_choice(s, t, kind, side, w, params):
    """The action of a player of any ``kind`` (RANDOM, GREEDY, LOOKAHEAD, MCTS, UCT) for
    ``side``: the searching players here (UCT too), the quick ones :func:`choice`'s. Inlined into
    :func:`play_searching` as :func:`choice` is into :func:`play`."""
    if kind == LOOKAHEAD:
        return lookahead_choice(s, t, side, w, params)
    if kind == MCTS:
        rollout = params[MC_LROLLOUT] if params[MC_LEARNED + side] != 0 else params[MC_ROLLOUT]
        return mcts_choice(s, t, side, w, w.tree, params, params[MC_SIMS + side], rollout)
    if kind == UCT:
        return uct_choice(s, t, side, w, w.utree, params, params[MC_SIMS + side])
    return choice(s, t, kind, side, w, params)


@entry
def choose(s, t, kind, side, w, params):
    """:func:`search_choice`, for Python callers (one decision at a time; ``w`` keeps the
    players' memory from one call to the next: one per game)."""
    return search_choice(s, t, kind, side, w, params)


@entry
def choose_quick(s, t, kind, side, w, params):
    """:func:`choice` (random, greedy), for Python callers: unlike :func:`choose` it
    compiles no searching player (a replay or a test of quick players does not wait for
    the look-ahead and the tree search to compile)."""
    return choice(s, t, kind, side, w, params)


def chooser(kinds):
    """The Python entry for one decision of players ``kinds``: :func:`choose_quick`
    unless one of them searches, then :func:`choose`. Both choose alike."""
    return choose if searches(kinds) else choose_quick


@rule_inlined
def play(s, t, kinds, params, w, max_decisions):
    """Play from ``s`` to the end of the game with the quick players ``kinds[side]``
    (random, greedy: :func:`choice`; inlined into
    :func:`simulator.engine.players.chunks.play_chunk`); returns the decisions taken.
    The players' memory is ``w``'s: :func:`forget` it at a game's start."""
    n = 0
    while not is_over(s) and n < max_decisions:
        side = decider(s)
        apply_action(s, t, choice(s, t, kinds[side], side, w, params))
        n += 1
    return n


@rule_inlined
def play_searching(s, t, kinds, params, w, max_decisions):
    """:func:`play` with players of every kind (:func:`search_choice`; inlined into
    :func:`simulator.engine.players.chunks.play_chunk_searching`)."""
    n = 0
    while not is_over(s) and n < max_decisions:
        side = decider(s)
        apply_action(s, t, search_choice(s, t, kinds[side], side, w, params))
        n += 1
    return n


def searches(kinds) -> bool:
    """Whether one of the players ``kinds`` is a searching one (:data:`SEARCHING`)."""
    return any(int(k) in SEARCHING for k in kinds)


def any_searching(names) -> bool:
    """Whether one of the players named in ``names`` (``"mcts:400"``) searches."""
    return searches(parse_player(n)[0] for n in names)


int64_constants(globals())
