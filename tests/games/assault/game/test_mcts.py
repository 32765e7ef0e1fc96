"""The tree-search player ``mcts``: it finds the move that wins a tiny position, it is
deterministic for a seed, it never sees the game's next dice, it beats random from both
seats of a shipped scenario, it beats the look-ahead and a smaller budget from both
seats of the Skirmish, it weighs other plans of a move, and ``mcts:N`` sets its
strength on the command line."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest

from simulator.engine.core import gameapi
from simulator.engine.core.actions import decode
from simulator.engine.core.batch import player_kinds, run_games
from simulator.engine.players import interface
from simulator.engine.players.base import MC_GATE, MC_PLANS, MC_POOL, MC_SIMS, MC_WIDTH
from simulator.engine.players.interface import (
    DEFAULT_PARAMS,
    GREEDY,
    MCTS,
    RANDOM,
    choose,
    make_work,
    parse_player,
    player_setup,
)
from simulator.engine.players.mcts import ND_CHILD, ND_NCAND, ND_OWN, ND_VISITS, make_tree, root_choice
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.game import State
from simulator.games.assault.game.state import G_EMERG, G_SUB, G_TURN, K_FAST, K_MOVE, SUB_MOVE, SUB_SELECT, U_HEX
from simulator.run.errors import InputError
from tests.games.assault.game.test_game_setup import tiny

# one German squad two hexes from the objective it must hold at the end of the only
# turn; the Soviet squad is too far to contest it
TAKE_THE_HOUSE = """
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
hex = "1,1"
[sides.german.victory]
hold = ["3,1"]
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "rifles-41"
hex = "10,1"
[sides.soviet.victory]
hold = ["3,1"]
[[objectives]]
hex = "3,1"
"""


def params_with(sims: int, base=DEFAULT_PARAMS) -> np.ndarray:
    p = base.copy()
    p[MC_SIMS:MC_SIMS + 2] = sims
    return p


def play(game, seed, kinds, params):
    """Play a game with ``choose`` (one decision at a time); returns the winner."""
    t = game.tables
    w = make_work(game)
    st = State(game, seed=seed, log=False)
    while not st.is_terminal():
        side = st.current_player()
        st.apply_action(int(choose(st.s, t, np.int64(kinds[side]), np.int64(side), w, params)))
    return st.winner


def test_mcts_takes_the_objective_that_wins(tmp_path):
    g = tiny(tmp_path, TAKE_THE_HOUSE, rows=("...........",) * 3, turns=1)
    params = params_with(50)
    mcts = [play(g, seed, (MCTS, RANDOM), params) for seed in range(4)]
    rand = [play(g, seed, (RANDOM, RANDOM), params) for seed in range(20)]
    # measured: mcts wins 4 of 4, a random German 0 of 20 (a draw when nobody holds it)
    assert mcts == [0] * 4
    assert rand.count(0) <= 5


def decision_points(game, seed, n, every=3):
    """States of a greedy game at every ``every``-th decision with a choice (copies)."""
    t = game.tables
    w = make_work(game)
    st = State(game, seed=seed, log=False)
    out = []
    k = 0
    while not st.is_terminal() and len(out) < n:
        side = st.current_player()
        if len(st.legal_actions()) > 1:
            if k % every == 0:
                out.append(st.clone())
            k += 1
        st.apply_action(int(choose(st.s, t, np.int64(GREEDY), np.int64(side), w, DEFAULT_PARAMS)))
    return out


@pytest.fixture(scope="module")
def training():
    return compile_game("infantry-training")


def test_mcts_is_deterministic_and_never_reads_the_dice(training):
    """On a dozen positions of a game: the same position gives the same choice; the
    state is left as it was but for the player's own stream (the dice ``rng[0]``
    untouched); a position that differs only in the dice's state (the game's future
    rolls) gives the same choice too. A player whose simulations rolled the game's own
    dice would see the rolls to come, and its choices would follow them."""
    t = training.tables
    params = params_with(40)
    rng = np.random.default_rng(5)
    changed = 0
    searched = 0
    for st in decision_points(training, 1, 12):
        side = st.current_player()
        a = st.clone()
        b = st.clone()
        b.s.rng[0] = rng.integers(1, 2**63, size=4, dtype=np.uint64)
        before = a.clone()
        ca = int(choose(a.s, t, np.int64(MCTS), np.int64(side), make_work(training), params))
        again = before.clone()
        assert int(choose(again.s, t, np.int64(MCTS), np.int64(side), make_work(training), params)) == ca
        cb = int(choose(b.s, t, np.int64(MCTS), np.int64(side), make_work(training), params))
        assert cb == ca
        assert np.array_equal(a.s.rng[0], before.s.rng[0])
        changed += not np.array_equal(a.s.rng[1 + side], before.s.rng[1 + side])
        for name in ("u", "g", "hx", "aux", "cp"):
            assert np.array_equal(getattr(a.s, name), getattr(before.s, name)), name
        assert np.array_equal(a.s.rng[2 - side], before.s.rng[2 - side])
        searched += before.s.g[G_SUB] == SUB_SELECT and before.s.g[G_EMERG] == 0
    # it searches the activations (6.4), drawing from its own stream every time; the
    # steps inside an activation are greedy's (which may draw too, for its tie-break)
    assert searched >= 3 and changed >= searched


def test_mcts_weighs_other_plans_of_a_move_and_greedy_carries_them_out():
    """With greedy's best activation only (width 1) and three other plans of a move (the
    game's ``other_plans``: greedy's next best hexes to end a move or a fast move in),
    the search sometimes takes greedy's move to another hex than greedy's own plan; the
    unit then goes to that hex, greedy taking the steps (6.4; the tree's plan is
    greedy's memory). Without other plans it always takes greedy's plan. (Vehicle
    Training: its units move with moves and fast moves; Infantry Training's mostly move
    and fire.)"""
    game = compile_game("vehicle-training")
    t = game.tables
    params = params_with(48)
    params[MC_WIDTH] = 1
    params[MC_POOL] = 0
    for plans, gate in ((0, 0), (3, 0), (3, 10**6)):
        params[MC_PLANS] = plans
        params[MC_GATE] = gate
        other = arrived = 0
        for seed in (1, 2):
            for st in decision_points(game, seed, 40, every=1):
                side = st.current_player()
                if not (st.s.g[G_SUB] == SUB_SELECT and st.s.g[G_EMERG] == 0):
                    continue
                g = st.clone()
                wg = make_work(game)
                ga = int(choose(g.s, t, np.int64(GREEDY), np.int64(side), wg, params))
                w = make_work(game)
                a = int(choose(st.s, t, np.int64(MCTS), np.int64(side), w, params))
                if a != ga or decode(a)[0] not in (K_MOVE, K_FAST) or w.plan[side] == wg.plan[side]:
                    continue
                other += 1
                plan, u = int(w.plan[side]) - 1, decode(a)[1]
                st.apply_action(a)
                while st.s.g[G_SUB] == SUB_MOVE and not st.is_terminal():
                    st.apply_action(int(choose(st.s, t, np.int64(GREEDY), np.int64(st.current_player()), w, params)))
                arrived += int(st.s.u[u, U_HEX]) == plan
        if plans == 0 or gate > 0:
            assert other == 0, gate          # none, or none shown better than greedy's plan
        else:
            # measured: another plan taken 3 times, the unit in that hex after each (reaction
            # fire may stop a move short)
            assert other >= 2 and arrived >= other - 1, (other, arrived)


@numba.njit
def chosen_at_root(tree, gate):
    return root_choice(tree, gate)          # a compiled rule has no Python wrapper


def test_an_other_plan_is_played_on_evidence_only_with_a_gate():
    """``MC_GATE``: the root's most visited candidate is played, unless it is an other
    plan of a move (not one of greedy's own candidates) whose mean value does not beat
    the most visited of greedy's own by the gate's standard errors (Welch's); then that
    one. Hand-built root: candidates 0 and 1 greedy's own, 2 an other plan."""
    def root(other_mean):
        tree = make_tree()
        row = tree.node[0]
        row[ND_NCAND], row[ND_OWN] = 3, 2
        rng = np.random.default_rng(5)
        for j, (visits, mean) in enumerate(((10, 0.5), (5, 0.45), (20, other_mean))):
            c = j + 1
            row[ND_CHILD + j] = c
            values = mean + 0.1 * rng.standard_normal(visits)
            tree.node[c, ND_VISITS] = visits
            tree.value[c], tree.value2[c] = values.sum(), (values ** 2).sum()
        return tree
    close, far = root(0.52), root(0.70)         # 2 beats 0 by about a half and about 5 standard errors
    assert chosen_at_root(close, 0.0) == 2 and chosen_at_root(far, 0.0) == 2     # no gate: the most visited
    assert chosen_at_root(close, 2.0) == 0          # not shown better: greedy's own most visited
    assert chosen_at_root(far, 2.0) == 2
    assert chosen_at_root(far, 50.0) == 0


@numba.njit
def outlook_of(s, t, side):
    return gameapi.outlook(s, t, side)      # a compiled hook has no Python wrapper


@pytest.mark.parametrize("name", ["infantry-training", "river-and-bridge", "vehicle-training", "crossroads"])
def test_the_outlook_is_the_games_own_victory_check(name):
    """``outlook`` (the tree search's ``MC_VICTORY`` term) says how the game would end now
    by the game's own victory check (6.6, 3.1): at the end of every game (greedy against
    greedy, three seeds, whatever decided it: the last turn, sudden death or the
    ``if_neither`` rule) its sign is the winner's, +1 German, -1 Soviet, 0 a draw, and its
    size the share of the turns played, both sides seeing it the other way round."""
    game = compile_game(name)
    t = game.tables
    w = make_work(game)
    ends = set()
    for seed in range(3):
        st = State(game, seed=seed, log=False)
        while not st.is_terminal():
            side = st.current_player()
            st.apply_action(int(choose(st.s, t, np.int64(GREEDY), np.int64(side), w, DEFAULT_PARAMS)))
        share = min(1.0, st.s.g[G_TURN] / game.turns)
        german, soviet = outlook_of(st.s, t, 0), outlook_of(st.s, t, 1)
        expected = {0: share, 1: -share, -1: 0.0}[st.winner]
        assert german == pytest.approx(expected) and soviet == pytest.approx(-expected), (seed, st.winner)
        ends.add(st.winner)
    assert ends


def test_mcts_games_are_reproducible_for_a_seed(training):
    a = run_games(training, games=6, seed=11, players=("mcts:30", "greedy"), workers=2).tally.outcome_array()
    b = run_games(training, games=6, seed=11, players=("mcts:30", "greedy"), workers=1).tally.outcome_array()
    assert np.array_equal(a, b)


def outcomes(game, players, n=24, seed=4):
    return run_games(game, games=n, seed=seed, players=players, workers=2).tally.outcome_array()


def test_mcts_beats_random(training, skirmish):
    """Infantry Training's German seat (a random German never takes both houses, so the
    Soviet seat wins against random whoever plays it), and both seats of the symmetric
    Skirmish (``test_players``), 24 games each, seed 4."""
    rr = outcomes(training, ("random", "random"))
    mr = outcomes(training, ("mcts:60", "random"))
    # measured: random Germans win 0 of 24, mcts Germans 23 of 24 (96%, 95% interval
    # 80-99%; 17 of 24 before MC_VICTORY; greedy Germans 21 of 24)
    assert (rr == 0).mean() == 0.0 and (mr == 0).mean() >= 0.5
    rr = outcomes(skirmish, ("random", "random"))
    mr = outcomes(skirmish, ("mcts:60", "random"))
    rm = outcomes(skirmish, ("random", "mcts:60"))
    # measured: random v random no win for either side in 24; mcts wins 24 of 24 from
    # each seat (95% interval 86-100%)
    assert (rr == 0).mean() <= 0.1 and (rr == 1).mean() <= 0.1
    assert (mr == 0).mean() >= 0.8 and (rm == 1).mean() >= 0.8


def paired_gain(base, other, side):
    """``side``'s win-rate change from ``base`` to ``other`` (same seeds: paired game by
    game) and its standard error."""
    d = (other == side).astype(float) - (base == side).astype(float)
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(len(d)))


def test_strength_ordering_in_the_skirmish(skirmish):
    """Issue 18's ordering on a fixed seed, paired game by game (common random numbers),
    from both seats of the symmetric Skirmish (``test_players``): mcts at its default
    budget beats ``lookahead``, and beats ``mcts:16`` (a larger budget beats a smaller
    one), each seat by more than 3 points and both seats pooled outside the 95%
    interval. (The shipped scenarios, with more games: ``docs/strength.md``.)"""
    n = 192
    for weak in ("lookahead", "mcts:16"):
        ww = outcomes(skirmish, (weak, weak), n, seed=7)
        d0, se0 = paired_gain(ww, outcomes(skirmish, ("mcts", weak), n, seed=7), 0)
        d1, se1 = paired_gain(ww, outcomes(skirmish, (weak, "mcts"), n, seed=7), 1)
        # measured (MC_VICTORY 2000): lookahead +0.115 and +0.099 (pooled +0.107, 95%
        # interval +-0.062); mcts:16 +0.089 and +0.109 (pooled +0.099 +-0.060)
        assert d0 > 0.03 and d1 > 0.03, (weak, d0, d1)
        assert (d0 + d1) / 2 - 1.96 * math.sqrt(se0 ** 2 + se1 ** 2) / 2 > 0, (weak, d0, se0, d1, se1)


def test_the_strength_is_read_from_the_players_names():
    assert parse_player("mcts") == (MCTS, None)
    assert parse_player("mcts:400") == (MCTS, 400)
    assert parse_player("greedy") == (GREEDY, None)
    kinds, params = player_setup(("mcts:400", "mcts"))
    assert list(kinds) == [MCTS, MCTS]
    assert params[MC_SIMS] == 400 and params[MC_SIMS + 1] == DEFAULT_PARAMS[MC_SIMS]
    assert player_kinds("mcts:400,greedy", players=interface) == ("mcts:400", "greedy")
    for bad, why in (("mcts:0,greedy", "mcts:N wants N"), ("mcts:many,greedy", "mcts:N wants N"),
                     ("greedy:3,greedy", "takes no strength"), ("mtcs,greedy", "did you mean 'mcts'")):
        with pytest.raises(InputError, match=why):
            player_kinds(bad, players=interface)
