"""The referee over many whole games (issue 40): every violation of the rules a game's
event log shows, by check, with the replay command of the first of each.

Plays games ``first .. first + N - 1`` of a seed the way ``lanchester GAME scenario`` does
(same streams), and reads each game's log with the game's referee
(:mod:`simulator.games.assault.game.referee`, :mod:`simulator.games.toi.game.referee`).

    python bench/referee.py --game assault --scenario vehicle-training --players greedy,greedy --games 200 --seed 3
    python bench/referee.py --game toi --scenario ridge-line --players random,random --games 500 --seed 1
"""

from __future__ import annotations

import argparse
import importlib


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=("assault", "toi"), default="assault")
    ap.add_argument("--scenario", required=True)
    ap.add_argument("--players", default="greedy,greedy")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--first", type=int, default=0, help="the first game's index in the run")
    a = ap.parse_args()
    ref = importlib.import_module(f"simulator.games.{a.game}.game.referee")
    players = tuple(a.players.split(","))
    run = ref.referee_run(a.scenario, players, a.games, a.seed, a.first)
    from simulator.engine.core.referee import report_lines
    print("\n".join(report_lines(run, lambda v: ref.replay_command(run, v), ref.CHECKS)))


if __name__ == "__main__":
    main()
