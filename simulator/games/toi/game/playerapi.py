"""Tide of Iron's side of the game API the shared players are written against
(:mod:`simulator.engine.core.gameapi`): its rules' entry points, what its greedy player
knows (:mod:`.greedy`), restricted play in its words, and its players' scratch
(:class:`Work`). Importing this module registers them for Tide of Iron's ``GameState``;
the shared players (:mod:`simulator.engine.players`: random, greedy through this API,
the look-ahead, the tree search) then play the game unchanged."""

from __future__ import annotations

import sys
from typing import NamedTuple

import numpy as np

from simulator.engine.core import gameapi
from simulator.engine.core.actions import a_kind, a_unit
from simulator.engine.core.compiling import int64_constants, rule, rule_inlined
from simulator.engine.core.statecopy import copy_state
from simulator.engine.players.base import MAX_FEATURES
from simulator.engine.players.mcts import Tree, make_tree
from simulator.engine.players.uct import UTree
from simulator.engine.players.uct import make_tree as make_utree
from simulator.games.toi.game.features import FEATURE_NAMES, features, outlook
from simulator.games.toi.game.greedy import MASS, greedy_choice, greedy_scores
from simulator.games.toi.game.greedy import evaluate as value_to
from simulator.games.toi.game.state import (
    G_LOG_ON,
    G_SUB,
    K_PASS,
    SUB_SELECT,
    GameState,
)
from simulator.games.toi.game.turn import MAX_ACTIONS, apply_action, legal_actions
from simulator.games.toi.game.view import decider, is_over, round_now, winner
from simulator.games.toi.rules.attack import MAX_DICE

__all__ = ["legal_actions", "apply_action", "decider", "is_over", "winner", "turn_number", "forbidden",
           "greedy_choice", "greedy_scores", "other_plans", "log_off", "is_activation", "evaluate", "outlook", "features",
           "FEATURE_NAMES", "Work", "make_work"]

@rule_inlined
def turn_number(s):
    """The round (what the shared players call a turn)."""
    return round_now(s)


@rule_inlined
def log_off(s):
    s.g[G_LOG_ON] = 0


@rule_inlined
def other_plans(s, t, w, a, plan, out, k_max):
    """Greedy's other plans for an action: Tide of Iron's greedy plans none (an action
    is the tree search's candidate once)."""
    return 0


@rule_inlined
def is_activation(s):
    """The decision pending is which action a unit takes (001 Action phase); the steps
    inside it (where a move goes, whom op fire hits, transfers) are greedy's."""
    return s.g[G_SUB] == SUB_SELECT


@rule_inlined
def forbidden(s, t, a, kinds, cards):
    """Restricted play: ``kinds`` a bit per action kind never taken; ``cards`` a bit per
    unit (the game's record columns ``SIDE/unit-K``: unit ``K``) never activated: none of
    the actions the action phase offers it (001 Action phase; every choice of
    :func:`is_activation` but the pass is one unit's action)."""
    k = a_kind(a)
    if (kinds >> k) & 1:
        return True
    return (cards != 0 and is_activation(s) and k != K_PASS and a_unit(a) < 63
            and (cards >> a_unit(a)) & 1 != 0)


@rule
def evaluate(s, t, w, side):
    """A position's worth to ``side``: :func:`simulator.games.toi.game.greedy.evaluate`."""
    return value_to(s, t, side)


class Work(NamedTuple):
    """The players' scratch for one worker (numba code under the game must not allocate):
    the fields every shared player uses (:func:`simulator.engine.players.interface.make_work`)
    and greedy's trial state."""

    buf: np.ndarray      # int64[MAX_ACTIONS] legal actions
    pbuf: np.ndarray     # int64[MAX_ACTIONS] legal actions inside playouts
    scores: np.ndarray   # float64[MAX_ACTIONS] greedy's score of each legal action
    dests: np.ndarray    # int64[MAX_ACTIONS] planned end hexes (none in Tide of Iron: -1)
    cands: np.ndarray    # int64[16] look-ahead candidates
    plans: np.ndarray    # int64[16] their planned end hexes
    stream: np.ndarray   # uint64[4] the playouts' stream
    play: GameState      # a spare state for playouts
    tree: Tree           # the tree search's nodes
    utree: UTree         # the uct player's nodes
    plan: np.ndarray     # int64[2] the players' memory per side (unused by Tide of Iron's greedy)
    trial: GameState     # greedy: an action tried on a copy of the position
    # greedy's exact assault odds (issue 41; :func:`simulator.games.toi.game.greedy.assault_value`)
    step: GameState      # the select's look one step into an assault move
    probe: GameState     # a move stopped: the assault choice it leads to
    after: GameState     # one outcome of an assault played on a copy
    abuf: np.ndarray     # int64[16] the assault choices of a probe
    dice: np.ndarray     # float64[4, MAX_DICE + 1] scratch and both sides' hit distributions
    mass: np.ndarray     # float64[MASS] the chance of each outcome that differs
    value: np.ndarray    # float64[1 + MAX_FEATURES] the learned value's weights (players.value; zeros: none)
    feat: np.ndarray     # float64[MAX_FEATURES] its features' scratch


def make_work(game, weights=None) -> Work:
    """Scratch for the players of one worker of ``game`` (``weights``: none here)."""
    s = game.new_state()
    return Work(np.zeros(MAX_ACTIONS, np.int64), np.zeros(MAX_ACTIONS, np.int64), np.zeros(MAX_ACTIONS),
                np.full(MAX_ACTIONS, -1, np.int64), np.zeros(16, np.int64), np.zeros(16, np.int64),
                np.zeros(4, np.uint64), copy_state(s), make_tree(), make_utree(), np.zeros(2, np.int64), copy_state(s),
                copy_state(s), copy_state(s), copy_state(s), np.zeros(16, np.int64), np.zeros((4, MAX_DICE + 1)),
                np.zeros(MASS), np.zeros(1 + MAX_FEATURES), np.zeros(MAX_FEATURES))


int64_constants(globals())
gameapi.register(GameState, sys.modules[__name__])
