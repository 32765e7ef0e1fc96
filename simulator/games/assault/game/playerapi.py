"""Assault's side of the game API the shared players are written against
(:mod:`simulator.engine.core.gameapi`): its rules' entry points, what its greedy player
knows (:mod:`.greedy`, :mod:`.greedy_values`), and its players' scratch (:class:`Work`).
Importing this module registers them for Assault's ``GameState``."""

from __future__ import annotations

import sys
from typing import NamedTuple

import numpy as np

from simulator.engine.core import gameapi
from simulator.engine.core.compiling import int64_constants, rule, rule_inlined
from simulator.engine.players.base import MAX_FEATURES
from simulator.engine.players.mcts import Tree, make_tree
from simulator.engine.players.uct import UTree
from simulator.engine.players.uct import make_tree as make_utree
from simulator.games.assault.game.features import FEATURE_NAMES, features, outlook
from simulator.games.assault.game.greedy import greedy_choice, greedy_scores
from simulator.games.assault.game.greedy import other_destinations as other_plans
from simulator.games.assault.game.greedy_values import DEFAULT_WEIGHTS
from simulator.games.assault.game.greedy_values import evaluate as weighed_value
from simulator.games.assault.game.restrict import forbidden
from simulator.games.assault.game.state import G_LOG_ON, SUB_SELECT, GameState
from simulator.games.assault.game.turn import MAX_ACTIONS, apply_action, legal_actions
from simulator.games.assault.game.view import decider, emergency_waiting, is_over, pending, turn_number, winner

__all__ = ["legal_actions", "apply_action", "decider", "is_over", "winner", "turn_number", "forbidden",
           "greedy_choice", "greedy_scores", "other_plans", "log_off", "is_activation", "evaluate", "outlook", "features",
           "FEATURE_NAMES", "Work", "make_work"]


@rule_inlined
def log_off(s):
    s.g[G_LOG_ON] = 0


@rule_inlined
def is_activation(s):
    """6.4: the pending decision is which unit acts next (not an emergency's)."""
    return pending(s) == SUB_SELECT and not emergency_waiting(s)


@rule
def evaluate(s, t, w, side):
    """A position's worth to ``side``: :func:`simulator.games.assault.game.greedy_values.evaluate`
    with greedy's weights ``w.weights``."""
    return weighed_value(s, t, w.weights, side)


class Work(NamedTuple):
    """A player's scratch arrays, memory and weights (numba code under the game must not
    allocate). One per worker thread, shared by both sides' players."""

    buf: np.ndarray      # int64[MAX_ACTIONS] legal actions
    pbuf: np.ndarray     # int64[MAX_ACTIONS] legal actions inside look-ahead playouts
    pos: np.ndarray      # float64[hexes] position values
    best: np.ndarray     # int64[hexes] reach: points left
    first: np.ndarray    # int64[hexes] reach: first step
    stack: np.ndarray    # int64[72 * hexes] reach scratch (moves.reach)
    val: np.ndarray      # float64[8] greedy: a unit's best moves, values
    idx: np.ndarray      # int64[8] and their hexes
    scores: np.ndarray   # float64[MAX_ACTIONS] greedy's score of each legal action
    dests: np.ndarray    # int64[MAX_ACTIONS] the hex a move action is planned to end in (-1 none)
    cands: np.ndarray    # int64[16] look-ahead candidates
    plans: np.ndarray    # int64[16] their planned end hexes
    stream: np.ndarray   # uint64[4] the playouts' stream (common to every candidate)
    cheap: np.ndarray    # float64[hexes] the quick part of a position value
    play: GameState      # a spare state for playouts
    tree: Tree           # the tree search's nodes
    utree: UTree         # the uct player's nodes
    weights: np.ndarray  # float64[16] greedy's weights (greedy_values.W_*)
    plan: np.ndarray     # int64[2] greedy's memory per side: the hex its moving unit heads for, + 1 (0 none)
    value: np.ndarray    # float64[1 + MAX_FEATURES] the learned value's weights (players.value; zeros: none)
    feat: np.ndarray     # float64[MAX_FEATURES] its features' scratch


def make_work(game, weights: np.ndarray | None = None) -> Work:
    """Scratch for the players of one worker (one per thread), with greedy's ``weights``
    (default :data:`DEFAULT_WEIGHTS`) and no memory (a game's start)."""
    nh = game.cm.n
    w = DEFAULT_WEIGHTS if weights is None else weights
    return Work(np.zeros(MAX_ACTIONS, np.int64), np.zeros(MAX_ACTIONS, np.int64), np.zeros(nh),
                np.zeros(nh, np.int64), np.zeros(nh, np.int64), np.zeros(72 * nh, np.int64),
                np.zeros(8), np.zeros(8, np.int64), np.zeros(MAX_ACTIONS), np.zeros(MAX_ACTIONS, np.int64),
                np.zeros(16, np.int64), np.zeros(16, np.int64), np.zeros(4, np.uint64), np.zeros(nh),
                game.new_state(), make_tree(), make_utree(), np.array(w, dtype=np.float64), np.zeros(2, np.int64),
                np.zeros(1 + MAX_FEATURES), np.zeros(MAX_FEATURES))


int64_constants(globals())
gameapi.register(GameState, sys.modules[__name__])
