"""Tide of Iron's greedy fights as the rules allow (issue 41, item 1;
simulator/games/toi/game/greedy.py): it scores an assault by its exact odds and the
position after it, sees an assault at the end of a move, and does not walk back into a
hex it left in the same activation.

The game counts come from the event log of the batch's own games
(:mod:`simulator.games.toi.game.activity`), greedy against greedy, seed 2027, the first
100 games of each shipped scenario. Before issue 41 greedy assaulted 0.0005-0.0015 times
a game and walked back in 124 of 180 Two Farms games and 164 of 180 Ridge Line games.
Greedy against random from each seat is held by ``test_toi_strength.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulator.games.toi.game import state as S
from simulator.games.toi.game.activity import MEASURES, game_counts
from simulator.games.toi.game.game import Game
from simulator.games.toi.game.greedy import assault_value, evaluate
from simulator.games.toi.game.playerapi import make_work
from simulator.games.toi.game.turn import apply_action, apply_assault_hits
from simulator.games.toi.rules import exact
from tests.games.toi.game.util import A0, A1, B0, B1, BOFF, deployed, find, hex_of, kind_of

SEED = 2027
GAMES = 100
REVERSALS, ASSAULTS = MEASURES.index("reversals"), MEASURES.index("assaults")


def counts(scenario: str) -> np.ndarray:
    """``[game, side, measure]`` of the first ``GAMES`` games, greedy against greedy."""
    game = Game(scenario)
    return np.array([game_counts(game, SEED, k, ("greedy", "greedy")) for k in range(GAMES)])


@pytest.fixture(scope="module", params=["two-farms", "ridge-line"])
def scenario_counts(request):
    return request.param, counts(request.param)


def test_greedy_rarely_walks_back(scenario_counts):
    # measured (seed 2027, 100 games): Two Farms no reversal; Ridge Line 3 in 2 games. The bound:
    # at most 10 of 100 games with a reversal and 0.1 a game, against 69% and 91% of the games
    # before; room for chance and small changes of the rules, far below the old rates. A step
    # back is still allowed when the score beats BACKTRACK (3 points: a figure).
    name, c = scenario_counts
    rev = c[:, :, REVERSALS].sum(axis=1)
    assert (rev > 0).sum() <= 10, (name, int((rev > 0).sum()))
    assert rev.mean() <= 0.1, (name, rev.mean())


def test_greedy_assaults(scenario_counts):
    # measured (seed 2027, 100 games), American and German assaults a game: Two Farms 0.80 and
    # 0.01 (the Germans defend), Ridge Line 1.07 and 0.59. The bound, 0.3 a game for the
    # attacker (American) and 0.5 for both sides together, is over 300 times what greedy did
    # before (at most 0.0015 a game) and well below what it does now.
    name, c = scenario_counts
    per_side = c[:, :, ASSAULTS].mean(axis=0)
    assert per_side[0] >= 0.3, (name, per_side)
    assert per_side.sum() >= 0.5, (name, per_side)


def test_the_assault_score_is_the_exact_expectation_over_the_calculators_odds():
    # The tiny scenario's assault of test_toi_rules: A1 (4 regulars) from 3,2 on B0 (4 regulars) in
    # clear 4,2, supported by A0 (3 regulars and an officer, FPR 4 halved: 2) from 3,1.
    st = deployed(0, where={A1: "3,2", A0: "3,1", B0: "4,2", B1: "5,0", BOFF: "5,0"})
    game, t = st.game, st.game.tables
    st.apply_action(find(st, S.K_ASSAULT, A1))
    st.apply_action(find(st, S.K_STOP))
    a = find(st, S.K_ATTACK_HEX, A1, hex_of(game, "4,2") * 2 + 1)
    w = make_work(game)
    got = assault_value(st.s, t, np.int64(0), w, np.int64(a))

    def after(ah: int, dh: int, follow: int | None = None):
        s = type(st.s)(*(x.copy() for x in st.s))
        s.g[S.G_LOG_ON] = 0
        dice = apply_assault_hits(s, t, np.int64(a), np.int64(ah), np.int64(dh))
        if follow is not None and s.g[S.G_SUB] == S.SUB_ADVANCE:
            apply_action(s, t, np.int64(follow | A1 << 8))             # the shared encoding: kind | unit << 8
        return s, dice

    s0, dice = after(0, 0)
    assert tuple(int(x) for x in dice) == (4 + 2, 0, 4)          # attack 4 + 2 supporting, no cover, defence 4
    joint = exact.assault_joint(6, 0, 4)                          # the calculator's distribution
    # P(success) = P(X > Y), X ~ Bin(6, 1/2), Y ~ Bin(4, 1/2): X + (4 - Y) ~ Bin(10, 1/2), so
    # P(Bin(10, 1/2) >= 5) = (252 + 210 + 120 + 45 + 10 + 1) / 1024 = 638 / 1024
    success = sum(joint[x, y] for x in range(7) for y in range(5) if x > y)
    assert success == pytest.approx(638 / 1024, abs=1e-12)
    expected = 0.0                                               # every one of the 7 x 5 outcomes, no merging
    for x in range(7):
        for y in range(5):
            stay, _ = after(x, y, S.K_STAY)
            value = evaluate(stay, t, np.int64(0))
            if x > y:                                            # may advance (002 step 10): the better of the two
                enter, _ = after(x, y, S.K_ENTER)
                value = max(value, evaluate(enter, t, np.int64(0)))
            expected += joint[x, y] * value
    assert got == pytest.approx(expected, rel=1e-9, abs=1e-9)
    declined = evaluate(st.s, t, np.int64(0))
    assert got != pytest.approx(declined)                        # the assault is worth something else than nothing


def test_greedy_assaults_on_good_odds_from_the_select():
    # The same position one step earlier: A1 fresh at 3,2 next to B0. Greedy (side a) scores the
    # Assault action with the assault it can make after the move (the look-through), and takes it
    # over the other actions of A1 when that assault's exact value beats them.
    from simulator.games.toi.game.greedy import greedy_scores
    st = deployed(0, where={A1: "3,2", A0: "3,1", B0: "4,2", B1: "5,0", BOFF: "5,0"})
    t = st.game.tables
    w = make_work(st.game)
    legal = np.array(st.legal_actions(), np.int64)
    greedy_scores(st.s, t, np.int64(0), w, legal, np.int64(len(legal)))
    scores = {int(a): float(w.scores[i]) for i, a in enumerate(legal)}
    a = find(st, S.K_ASSAULT, A1)
    st2 = deployed(0, where={A1: "3,2", A0: "3,1", B0: "4,2", B1: "5,0", BOFF: "5,0"})
    st2.apply_action(a)
    st2.apply_action(find(st2, S.K_STOP))
    best = max(assault_value(st2.s, t, np.int64(0), make_work(st2.game), np.int64(b))
               for b in st2.legal_actions() if kind_of(b) == S.K_ATTACK_HEX)
    assert scores[a] >= best - 1e-9                              # at least the best assault from where it stands


def stop_positions(scenario: str, games: int, players) -> tuple[int, int, int, int]:
    """Over ``games`` games of ``players``: at every decision where the mover of an Assault
    action may stop (``K_STOP`` legal), whether stopping there leads to an assault choice
    (the engine's own ``apply_action`` on a copy) against greedy's prefilter
    (:func:`~simulator.games.toi.game.greedy.enemy_adjacent`). Returns (positions seen,
    positions with an enemy adjacent, positions whose stop led to the assault choice,
    those of them the prefilter said could not: must be 0)."""
    from simulator.engine.core.statecopy import copy_state
    from simulator.engine.players.interface import choose_quick, player_setup
    from simulator.games.toi.game.game import State
    from simulator.games.toi.game.greedy import enemy_adjacent
    from simulator.games.toi.game.turn import legal_actions

    game = Game(scenario)
    t = game.tables
    kinds, params = player_setup(players)
    w = make_work(game)
    buf = np.zeros(4096, np.int64)
    seen = near = led = missed = 0
    for g in range(games):
        st = State(game, SEED, g, log=False)
        while not st.is_terminal():
            s = st.s
            side = st.current_player()
            if s.g[S.G_SUB] == S.SUB_MOVE and s.g[S.G_ACTION] == S.K_ASSAULT and s.g[S.G_DECIDER] == side:
                k = int(s.g[S.G_UNIT])
                n = legal_actions(s, t, buf)
                stops = [int(a) for a in buf[:n] if kind_of(int(a)) == S.K_STOP]
                if stops:
                    seen += 1
                    adjacent = enemy_adjacent(s, t, int(s.u[k, S.U_HEX]), side)
                    near += bool(adjacent)
                    probe = copy_state(s)
                    apply_action(probe, t, stops[0])
                    assault = probe.g[S.G_SUB] == S.SUB_ASSAULT and probe.g[S.G_DECIDER] == side
                    led += int(assault)
                    missed += int(assault and not adjacent)
            apply_action(s, t, choose_quick(s, t, kinds[side], side, w, params))
    return seen, near, led, missed


@pytest.mark.parametrize("scenario", ["two-farms", "ridge-line"])
def test_greedys_prefilter_never_skips_a_stop_that_leads_to_an_assault(scenario):
    # greedy looks for an assault at the end of a move only where an enemy unit stands next to
    # the mover's hex (enemy_adjacent): the copies it skips elsewhere could never reach the
    # assault choice (002 first list). Held against the engine on every position of 20 games
    # of greedy (seed 2027) where the mover of an Assault action may stop. Measured: Two Farms
    # 57 such positions, 41 with an enemy adjacent; Ridge Line 148 and 106. The test asks for
    # positions of both kinds and some stops that did lead to an assault, so that it holds
    # something (random players, measured, never stood next to an enemy in such a move).
    seen, near, led, missed = stop_positions(scenario, 20, ("greedy", "greedy"))
    assert missed == 0, (scenario, seen, near, led)
    assert seen > near > 0 and led > 0, (scenario, seen, near, led)
