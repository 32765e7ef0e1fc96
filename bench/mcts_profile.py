"""Benchmark: where a tree-search simulation's time goes (issue 41 item 6), on real positions.

The compiled code does not show in cProfile, so the pieces are timed in compiled loops
of their own, on the activations of a few greedy games of a Tide of Iron scenario
(default Ridge Line; every ``--every``-th activation):

* the search itself, ``mcts:N:learned`` for the side to decide (the players' ``choose``
  entry, one decision): its time over N, the cost of a simulation, is the baseline,
  measured in the same run, that every share below is a part of;
* what a simulation does past the search's root (:func:`simulate`: the position copied
  with fresh dice, greedy to the end of the round, the learned value), counted: greedy
  decisions, their legal actions, greedy's trials (each a copy of the position, the
  action applied on it with fresh dice, the result evaluated; up to three an action);
* each piece on its own, many times at each position: the state's copy
  (``restore_state``), a legal action applied on a fresh copy (less the copy), greedy's
  ``evaluate``, the game's ``legal_actions``, the learned value and its features.

A piece's share of a simulation is its calls a simulation times its cost over the
search's cost a simulation. The harness is compiled afresh in each run (no disk cache:
a cache would keep the engine of the tree it was compiled against).

    python bench/mcts_profile.py [--scenario ridge-line] [--sims 64] [--games 1] [--every 4]
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from simulator.engine.core.gameapi import (
    apply_action,
    decider,
    features,
    greedy_choice,
    is_over,
    legal_actions,
    turn_number,
)
from simulator.engine.core.statecopy import restore_state
from simulator.engine.players.interface import chooser, make_work
from simulator.engine.players.learned import attach
from simulator.engine.players.mcts import begin
from simulator.engine.players.value import learned_value
from simulator.games.toi.game import state as S
from simulator.games.toi.game.greedy import SAMPLES
from simulator.games.toi.game.greedy import evaluate as greedy_evaluate
from simulator.run.rng import next_u64


@numba.njit
def trials(s, t, side, w, n):
    """The trials greedy plays to score the ``n`` actions in ``w.pbuf`` at ``s`` (up to
    ``SAMPLES`` an action, one when its first rolled no die), on a copy of ``side``'s
    stream (``s`` as it was)."""
    src = s.rng[1 + side].copy()
    count = 0
    for i in range(n):
        for _ in range(SAMPLES):
            restore_state(w.trial, s)
            for j in range(4):
                w.trial.rng[0, j] = next_u64(src)
            d0 = w.trial.rng[0, 0]
            apply_action(w.trial, t, w.pbuf[i])
            count += 1
            if w.trial.rng[0, 0] == d0:
                break
    return count


@numba.njit
def simulate(s, t, w, params, sims, counts):
    """``sims`` simulations from ``s`` as the search plays them past its root: the copy
    with fresh dice, greedy to the end of the round, the learned value; ``counts`` +=
    greedy decisions, legal actions, trials."""
    horizon = turn_number(s)
    v = 0.0
    for _ in range(sims):
        begin(w.play, s, w.stream)
        play = w.play
        while not is_over(play) and turn_number(play) <= horizon:
            side = decider(play)
            n = legal_actions(play, t, w.pbuf)
            counts[0] += 1
            counts[1] += n
            if n > 1:
                counts[2] += trials(play, t, side, w, n)
            apply_action(play, t, greedy_choice(play, t, side, w, params, w.pbuf))
        v += learned_value(play, t, w)
    return v


@numba.njit
def piece(op, s, t, w, reps):
    """Piece ``op`` done ``reps`` times at ``s`` (:data:`PIECES`); returns the legal
    actions of ``s`` for the per-action pieces (else 1)."""
    n = legal_actions(s, t, w.pbuf)
    x = 0.0
    for _ in range(reps):
        if op == 0:
            for _i in range(n):
                restore_state(w.trial, s)
        elif op == 1:
            for i in range(n):
                restore_state(w.trial, s)
                apply_action(w.trial, t, w.pbuf[i])
        elif op == 2:
            x += greedy_evaluate(s, t, decider(s))
        elif op == 3:
            x += legal_actions(s, t, w.buf)
        elif op == 4:
            x += learned_value(s, t, w)
        elif op == 5:
            x += features(s, t, 0, w.feat)
    return n if op in (0, 1) else 1


PIECES = ("state copy (restore_state)", "apply an action", "evaluate (greedy's)", "legal actions",
          "learned value", "its features")


def positions(game, games: int, every: int):
    """Copies of the states at every ``every``-th activation of ``games`` greedy games
    (the batch's streams of seed 7)."""
    from simulator.engine.core.seeding import seed_run_game
    from simulator.games.toi.game.turn import apply_action as apply_now
    from simulator.games.toi.game.turn import new_game
    kinds, params = game.players.player_setup(("greedy", "greedy"))
    choose = chooser(kinds)
    t = game.tables
    out = []
    for gi in range(games):
        s = game.new_state()
        seed_run_game(7, gi, s.rng)
        new_game(s, t)
        w = make_work(game)
        k = 0
        while not s.g[S.G_OVER]:
            side = int(s.g[S.G_DECIDER])
            if s.g[S.G_SUB] == S.SUB_SELECT:
                if k % every == 0:
                    out.append(type(s)(*(a.copy() for a in s)))
                k += 1
            apply_now(s, t, choose(s, t, kinds[side], side, w, params))
    return out


def search_from(choose, p, t, kind, side, w, params):
    """One decision of the searching player at a copy of position ``p``."""
    return choose(type(p)(*(a.copy() for a in p)), t, kind, side, w, params)


def fastest(repeat: int, f, *args) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f(*args)
        best = min(best, time.perf_counter() - t0)
    return best, out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenario", default="ridge-line")
    ap.add_argument("--sims", type=int, default=64)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--reps", type=int, default=2000, help="calls of each piece a position")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each measurement (the fastest counts)")
    args = ap.parse_args(argv)
    from simulator.games.toi.game.game import Game
    game = Game(args.scenario)
    attach(game)
    t = game.tables
    name = f"mcts:{args.sims}:learned"
    kinds, params = game.players.player_setup((name, name))
    choose = chooser(kinds)
    w = make_work(game)
    pos = positions(game, args.games, args.every)
    t0 = time.perf_counter()
    counts = np.zeros(3, np.int64)
    c = type(pos[0])(*(a.copy() for a in pos[0]))
    choose(c, t, kinds[0], int(c.g[S.G_DECIDER]), w, params)     # warm-up: compile or load
    simulate(pos[0], t, w, params, 1, counts)
    for op in range(len(PIECES)):
        piece(op, pos[0], t, w, 1)
    print(f"(compiling the harness: {time.perf_counter() - t0:.0f} s)")
    counts[:] = 0
    search = 0.0
    played = 0.0
    cost = np.zeros(len(PIECES))
    calls = np.zeros(len(PIECES))
    for p in pos:
        side = int(p.g[S.G_DECIDER])
        search += fastest(args.repeat, search_from, choose, p, t, kinds[side], side, w, params)[0]
        simulate(p, t, w, params, args.sims, counts)
        played += fastest(args.repeat, simulate, p, t, w, params, args.sims, np.zeros(3, np.int64))[0]
        for op in range(len(PIECES)):
            sec, n = fastest(args.repeat, piece, op, p, t, w, args.reps)
            cost[op] += sec
            calls[op] += args.reps * n
    per_call = cost / calls
    per_call[1] -= per_call[0]                       # the apply alone: less its copy
    sims = args.sims * len(pos)
    per_sim = search / sims
    dec, legal, tri = (x / sims for x in counts)
    in_sim = (tri, tri, tri, dec, 1.0, 1.0)          # calls a simulation
    print(f"{game.name}: {len(pos)} positions (every {args.every}th activation of {args.games} greedy game(s)), {name}")
    print(f"  the search: {per_sim * 1e3:.4f} ms a simulation (the baseline, 1.000)")
    print(f"  a simulation past the root (copy, greedy to the round's end, learned value): "
          f"{played / sims * 1e3:.4f} ms ({played / search:.3f}): {dec:.1f} greedy decisions, {legal:.1f} legal "
          f"actions, {tri:.1f} greedy trials")
    print("  each piece on its own at the positions (its share: calls a simulation times its cost, over the search's"
          " cost a simulation;\n  an action's cost is its mean over the legal actions, where greedy's trials play"
          " the ones that roll dice up to 3 times):")
    print(f"  {'piece':32s} {'us a call':>10s} {'calls a sim':>12s} {'share of a sim':>15s}")
    for op, label in enumerate(PIECES):
        us = per_call[op] * 1e6
        print(f"  {label:32s} {us:10.3f} {in_sim[op]:12.1f} {in_sim[op] * per_call[op] / per_sim:15.3f}")


if __name__ == "__main__":
    main()
