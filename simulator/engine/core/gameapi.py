"""The game API the shared players are written against (numba): what a player may ask of
any game on the engine, as OpenSpiel's ``State`` (``legal_actions``, ``apply_action``,
``current_player``, ``is_terminal``, ``returns``), plus what the game's own players know
(its greedy policy, its position value) that the searching players build on.

Each function here is a stub that compiled code calls with a game's state ``s`` first;
numba picks the game's own implementation by the type of ``s`` (its ``GameState``
class, registered with :func:`register` by the game's ``playerapi`` module) and calls
it (an ordinary call: numba 0.68.1 drops an inlined helper's writes into a NamedTuple's
arrays behind an overload inlined with ``inline="always"``, which is what changed the
look-ahead's golden games when these were inlined: docs/compiler.md; the price is about
11% more instructions in the engine's cold compile, ``bench/revisions.py``, and
``tests/engine/core/test_numba_inlining.py`` keeps them ordinary calls while numba has the fault).
A game registers, in its own words behind these names:

the rules
    ``legal_actions(s, t, buf) -> n``, ``apply_action(s, t, a)``, ``decider(s)`` (the side
    to decide), ``is_over(s)``, ``winner(s)`` (-1: none), ``turn_number(s)`` (Assault's
    turn, Tide of Iron's round), ``log_off(s)`` (a playout's copy keeps no event log),
    ``forbidden(s, t, a, kinds, cards)`` (restricted play: whether restriction
    ``(kinds, cards)`` forbids the legal action ``a``);
the game's own players
    ``is_activation(s)`` (the decision pending is one a search weighs: which unit acts,
    and how), ``greedy_choice(s, t, side, w, params, buf)`` (its greedy player's
    action), ``greedy_scores(s, t, side, w, buf, n)`` (greedy's score of each of the
    ``n`` actions in ``buf`` into ``w.scores``, the hex it plans a move to end in into
    ``w.dests``, -1 none), ``other_plans(s, t, w, a, plan, out, k_max)`` (up to ``k_max``
    other hexes than ``plan`` where greedy could take action ``a``'s unit, best first,
    into ``out``; how many: the tree search weighs them as other plans of the action,
    0 when the game has none), ``evaluate(s, t, w, side)`` (a position's worth to
    ``side``, a few points a unit), ``outlook(s, t, side)`` (how the game would end for
    ``side`` if it ended now, by the game's own victory rule: +1 a win, -1 a loss, 0
    neither, times the share of the game played so far, 0 to 1), ``features(s, t, side, out)
    -> n`` (a fixed-length description of the position from ``side``'s point of view into
    ``out[:n]``, named by the game's ``FEATURE_NAMES``: what the learned position value,
    :mod:`simulator.engine.players.value`, is fitted on; symmetric: ``side`` 1's are
    side 0's with the sides swapped, :func:`simulator.engine.players.value.swap_of`).

``w`` is the game's players' scratch (its ``Work``: at least ``buf``, ``pbuf``,
``scores``, ``dests``, ``cands``, ``plans``, ``stream``, ``play``, ``tree``, ``plan``,
see :mod:`simulator.engine.players.interface`).
"""

from __future__ import annotations

from numba.core.errors import TypingError
from numba.extending import overload

_GAMES: dict[type, object] = {}      # a game's GameState class -> its playerapi module

HOOKS = ("legal_actions", "apply_action", "decider", "is_over", "winner", "turn_number", "log_off", "forbidden",
         "is_activation", "greedy_choice", "greedy_scores", "other_plans", "evaluate", "outlook", "features")


def register(state_class: type, api) -> None:
    """Make ``api`` (a module or namespace with every name of :data:`HOOKS`) the game
    API of states of ``state_class``."""
    missing = [h for h in HOOKS if not hasattr(api, h)]
    if missing:
        raise TypeError(f"{getattr(api, '__name__', api)} lacks the game API's {', '.join(missing)}")
    _GAMES[state_class] = api


def api_of(state_class: type):
    """The game API registered for states of ``state_class`` (its playerapi module)."""
    if state_class not in _GAMES:
        raise KeyError(f"no game registered its API for {state_class.__name__}")
    return _GAMES[state_class]


def _of(s, name):
    """The registered implementation of hook ``name`` for the state type ``s``."""
    api = _GAMES.get(getattr(s, "instance_class", None))
    if api is None:
        raise TypingError(f"no game registered its API for a state of type {s} (simulator.engine.core.gameapi)")
    return getattr(api, name)


def _python_call(name):
    raise NotImplementedError(f"gameapi.{name} is called from compiled code only")


# --- the stubs (one each: numba types an overload by its Python signature) ------------

def legal_actions(s, t, buf):
    _python_call("legal_actions")


def apply_action(s, t, a):
    _python_call("apply_action")


def decider(s):
    _python_call("decider")


def is_over(s):
    _python_call("is_over")


def winner(s):
    _python_call("winner")


def turn_number(s):
    _python_call("turn_number")


def log_off(s):
    _python_call("log_off")


def forbidden(s, t, a, kinds, cards):
    _python_call("forbidden")


def is_activation(s):
    _python_call("is_activation")


def greedy_choice(s, t, side, w, params, buf):
    _python_call("greedy_choice")


def greedy_scores(s, t, side, w, buf, n):
    _python_call("greedy_scores")


def other_plans(s, t, w, a, plan, out, k_max):
    _python_call("other_plans")


def evaluate(s, t, w, side):
    _python_call("evaluate")


def outlook(s, t, side):
    _python_call("outlook")


def features(s, t, side, out):
    _python_call("features")


@overload(legal_actions)
def _legal_actions(s, t, buf):
    f = _of(s, "legal_actions")
    return lambda s, t, buf: f(s, t, buf)


@overload(apply_action)
def _apply_action(s, t, a):
    f = _of(s, "apply_action")
    return lambda s, t, a: f(s, t, a)


@overload(decider)
def _decider(s):
    f = _of(s, "decider")
    return lambda s: f(s)


@overload(is_over)
def _is_over(s):
    f = _of(s, "is_over")
    return lambda s: f(s)


@overload(winner)
def _winner(s):
    f = _of(s, "winner")
    return lambda s: f(s)


@overload(turn_number)
def _turn_number(s):
    f = _of(s, "turn_number")
    return lambda s: f(s)


@overload(log_off)
def _log_off(s):
    f = _of(s, "log_off")
    return lambda s: f(s)


@overload(forbidden)
def _forbidden(s, t, a, kinds, cards):
    f = _of(s, "forbidden")
    return lambda s, t, a, kinds, cards: f(s, t, a, kinds, cards)


@overload(is_activation)
def _is_activation(s):
    f = _of(s, "is_activation")
    return lambda s: f(s)


@overload(greedy_choice)
def _greedy_choice(s, t, side, w, params, buf):
    f = _of(s, "greedy_choice")
    return lambda s, t, side, w, params, buf: f(s, t, side, w, params, buf)


@overload(greedy_scores)
def _greedy_scores(s, t, side, w, buf, n):
    f = _of(s, "greedy_scores")
    return lambda s, t, side, w, buf, n: f(s, t, side, w, buf, n)


@overload(other_plans)
def _other_plans(s, t, w, a, plan, out, k_max):
    f = _of(s, "other_plans")
    return lambda s, t, w, a, plan, out, k_max: f(s, t, w, a, plan, out, k_max)


@overload(evaluate)
def _evaluate(s, t, w, side):
    f = _of(s, "evaluate")
    return lambda s, t, w, side: f(s, t, w, side)


@overload(outlook)
def _outlook(s, t, side):
    f = _of(s, "outlook")
    return lambda s, t, side: f(s, t, side)


@overload(features)
def _features(s, t, side, out):
    f = _of(s, "features")
    return lambda s, t, side, out: f(s, t, side, out)
