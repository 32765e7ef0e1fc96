"""Batch check of the game invariants (issue 16) over many whole games.

Plays games ``0 .. N-1`` of a seed the way ``lanchester assault scenario`` does (same
streams: a violation is replayed with ``lanchester assault replay NAME --seed S --game
K``), checks :mod:`simulator.games.assault.game.invariants` after every action and prints the
violations found per check, with the first game of each.

    python bench/invariants.py [--scenario vehicle-training] [--games 10000] [--seed 3]
                               [--players greedy,greedy] [--edition v1]
"""

from __future__ import annotations

import argparse
import time

from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.invariants import CHECKS, check_games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="vehicle-training")
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--players", default="greedy,greedy")
    ap.add_argument("--edition", default=None)
    a = ap.parse_args()
    game = compile_game(a.scenario, edition=a.edition)
    players = tuple(a.players.split(","))
    t0 = time.perf_counter()
    v = check_games(game, a.games, a.seed, players)
    dt = time.perf_counter() - t0
    print(f"{a.scenario} ({game.edition}), {players[0]} v {players[1]}, seed {a.seed}: {v.games} games, "
          f"{v.actions} actions checked in {dt:.0f} s")
    for c in CHECKS:
        ex = v.examples.get(c)
        print(f"  {c}: {v.found.get(c, 0)}" + (f" (first: game {ex[0]}, turn {ex[1]}, {ex[2]})" if ex else ""))
    print(f"violations: {v.total}")


if __name__ == "__main__":
    main()
