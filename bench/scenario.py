"""Benchmark: whole games of a scenario per second, per core, on 1 and 2 workers.

Plays the default scenario (Infantry Training) with the default players (greedy
against greedy) through :func:`simulator.engine.core.batch.run_games`, the same path as
``lanchester assault scenario``: numba games in pieces of 256 on threads through the
shared runner, records tallied piece by piece. The first run is a warm-up (numba compiles or loads its cache).
Prints games per second with 1 worker and with 2, games per second per core, the ratio,
and how long a million games would take. The target of issue 7 is one million games in
ten minutes on this 2-core machine: 1,667 games/s, about 850 per core.

    python bench/scenario.py [--scenario infantry-training] [--players greedy,greedy]
                             [--games 20000] [--seed 1] [--smoke] [--million]
    python bench/scenario.py --players mcts,greedy --games 20     # the tree search: a few games
    python bench/scenario.py --game toi                           # Tide of Iron's Two Farms

``--game toi`` measures Tide of Iron (default scenario ``two-farms``; issue 19's target:
500 games a second per core with the default players, greedy against greedy).

Then every player, both sides the same player, on 1 worker: the default skill curve's
levels and its second family (random, greedy, lookahead, mcts:64:learned, uct:32: the
``DEFAULT_LEVELS`` and ``DEFAULT_FAMILY`` of ``simulator/run/vocabulary.py``), the tree
search with the hand-written value (mcts:64, mcts:256), and every other name ``--players``
gives (``mcts:256:learned``, ``uct:400``: any name the players' ``parse_player`` takes),
games per second per core and decisions per second per core, each against greedy's
(the baseline, measured in the same run: the machine is shared and its speed moves, a
ratio within one run does not). ``--search-games`` sets the searching players' games
(they are slow), ``--player-games`` the quick ones'; ``--players-only`` skips the batch
measurement; ``--game both`` measures each game's default scenario in turn:

    python bench/scenario.py --game both --players-only
    python bench/scenario.py --game toi --scenario ridge-line --players-only --search-games 8

``--million`` then plays the target itself: one million games through the command
line (``lanchester assault scenario ... --games 1000000 --out DIR``: records streamed
to Parquet and CSV, the report folder written) in a child process, and prints the
wall time against the ten-minute target and the peak resident memory (issue 9: under
1 GiB).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time

from simulator.engine.core.batch import player_kinds, run_games
from simulator.engine.players import interface
from simulator.run.vocabulary import DEFAULT_FAMILY, DEFAULT_LEVELS

TARGET_GAMES, TARGET_SECONDS = 1_000_000, 600


def measure(game, games: int, seed: int, players, workers: int) -> float:
    r = run_games(game, games=games, seed=seed, players=players, workers=workers)
    return r.tally.games / r.seconds


# the default skill curve's levels and second family (the learned value's player among them),
# then the tree search with the hand-written value
EVERY_PLAYER = (*DEFAULT_LEVELS, DEFAULT_FAMILY, "mcts:64", "mcts:256")
BASELINE = "greedy"


def player_names(extra: str | None, players) -> list[str]:
    """The players to measure: :data:`EVERY_PLAYER`, then every name of ``extra`` (comma
    separated, as ``--players`` gives them: ``mcts:256:learned``, ``uct:400``) not among
    them, each checked by the players' own ``parse_player`` (a bad name stops the bench
    with its one-line reason)."""
    names = list(EVERY_PLAYER)
    for n in (extra or "").split(","):
        n = n.strip()
        if not n or n in names:
            continue
        try:
            players.parse_player(n)
        except ValueError as e:
            raise SystemExit(f"--players {n}: {e}") from None
        names.append(n)
    return names


def per_player(game, names: list[str], games: int, search_games: int, seed: int, players) -> dict:
    """Each player against itself on 1 worker: games/s per core and decisions/s, with
    the ratio to greedy's measured in this run; the rows, by name."""
    rows = {}
    for name in names:
        n = search_games if players.any_searching([name]) else games
        run_games(game, games=min(n, 2), seed=seed + 1, players=(name, name), workers=1)   # warm-up: compile or load
        r = run_games(game, games=n, seed=seed, players=(name, name), workers=1)
        rows[name] = (n, r.tally.games / r.seconds, int(r.tally.stats[4]) / r.seconds)
    _, base_g, base_d = rows[BASELINE]
    print(f"{game.name}: every player against itself, 1 worker (ratios to {BASELINE} in this run):")
    for name, (n, gps, dps) in rows.items():
        print(f"  {name:18s} {n:6,} games: {gps:10,.3f} games/s per core ({gps / base_g:8.4f} x), "
              f"{dps:10,.0f} decisions/s per core ({dps / base_d:8.4f} x)")
    return rows


# The child's peak RSS (ru_maxrss of the children, KiB on Linux), measured by a fresh parent.
PEAK_RSS = ("import resource, subprocess, sys\n"
            "r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, text=True)\n"
            "sys.stdout.write(r.stdout)\n"
            "print('RSS', r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")


def million(scenario: str, players: str, seed: int) -> None:
    """One million games through the CLI, report folder included: wall time and peak RSS."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-c", PEAK_RSS, sys.executable, "-m", "simulator", "assault", "scenario",
               scenario, "--games", str(TARGET_GAMES), "--seed", str(seed), "--players", players,
               "--workers", "2", "--format", "json", "--out", f"{tmp}/report"]
        t0 = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        wall = time.perf_counter() - t0
        text, _, rss = out.rpartition("RSS ")
        code, kib = rss.split()
        if code != "0":
            raise SystemExit(f"the run failed (exit {code})")
        report = json.loads(text)
        size = sum(p.stat().st_size for p in __import__("pathlib").Path(tmp, "report").iterdir())
    print(f"1,000,000 games through the CLI with --out: {wall / 60:.1f} min wall "
          f"(target {TARGET_SECONDS / 60:.0f} min; {report['games_per_second']:,.0f} games/s while playing), "
          f"peak RSS {int(kib) / 1024:,.0f} MiB (target < 1,024 MiB), report folder {size / 2**20:,.0f} MiB")
    print(f"  {report['sides'][0]} {report['win_rate'][report['sides'][0]]['p']:.2%} "
          f"[{report['win_rate'][report['sides'][0]]['ci95'][0]:.2%}, "
          f"{report['win_rate'][report['sides'][0]]['ci95'][1]:.2%}]")


def load_game(kind: str, scenario: str):
    """The scenario compiled for the engine: Assault's or Tide of Iron's game."""
    if kind == "toi":
        from simulator.games.toi.game.game import Game
        return Game(scenario)
    from simulator.games.assault.game.compile import compile_game
    return compile_game(scenario)


def batch(kind: str, scenario: str, game, pair: str, games: int, seed: int) -> None:
    """Games per second of the pair ``pair`` on 1 worker and on 2 (the runner's scaling)."""
    players = player_kinds(pair, players=interface)
    t0 = time.perf_counter()
    measure(game, min(2_048, games), seed, players, 1)        # warm-up: compile or load the cache
    warm = time.perf_counter() - t0
    one = measure(game, games, seed, players, 1)
    two = measure(game, 2 * games, seed, players, 2)
    print(f"{kind} scenario {scenario}, players {players[0]} v {players[1]}, {games:,} / {2 * games:,} games")
    print(f"warm-up (compile or load the numba cache): {warm:.1f} s")
    print(f"1 worker : {one:10,.0f} games/s  ({one:,.0f} per core)")
    print(f"2 workers: {two:10,.0f} games/s  ({two / 2:,.0f} per core)")
    print(f"ratio 2 workers / 1 worker: {two / one:.2f}")
    need = TARGET_GAMES / TARGET_SECONDS
    print(f"1,000,000 games on 2 workers: {TARGET_GAMES / two / 60:.1f} min "
          f"(target {TARGET_SECONDS / 60:.0f} min = {need:,.0f} games/s, {need / 2:,.0f} per core)")


DEFAULT_SCENARIO = {"assault": "infantry-training", "toi": "two-farms"}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", choices=("assault", "toi", "both"), default="assault",
                    help="both: each game's default scenario in turn")
    ap.add_argument("--scenario", default=None, help="default: infantry-training (assault), two-farms (toi)")
    ap.add_argument("--players", default="greedy,greedy",
                    help="the pair of the batch measurement; every name in it is also measured against itself "
                         "beside the default players (e.g. greedy,mcts:256:learned)")
    ap.add_argument("--games", type=int, default=20_000, help="games per batch measurement")
    ap.add_argument("--player-games", type=int, default=200, help="games of each quick player (random, greedy)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--search-games", type=int, default=16,
                    help="games of each searching player (lookahead, mcts:N, ...): they are slow")
    ap.add_argument("--players-only", action="store_true", help="skip the batch measurement (1 and 2 workers)")
    ap.add_argument("--smoke", action="store_true", help="a quick run (CI)")
    ap.add_argument("--million", action="store_true", help="then play the million-game target through the CLI")
    args = ap.parse_args(argv)
    games = 2_500 if args.smoke else args.games
    names = player_names(args.players, interface)
    kinds = ("assault", "toi") if args.game == "both" else (args.game,)
    for kind in kinds:
        scenario = args.scenario if args.scenario and args.game != "both" else DEFAULT_SCENARIO[kind]
        game = load_game(kind, scenario)
        if not args.players_only:
            batch(kind, scenario, game, args.players, games, args.seed)
        per_player(game, names, 20 if args.smoke else args.player_games, 2 if args.smoke else args.search_games,
                   args.seed, interface)
        if args.million and kind == "assault":
            million(scenario, args.players, args.seed)


if __name__ == "__main__":
    main()
