"""Benchmark: how much stronger one player is than another, from both seats, paired.

Issue 18's measure of strength. Plays a scenario with ``--against`` on both sides (the
baseline), then with ``--player`` in each seat against ``--against``, on the same seeds
(game k of each run starts from the same dice: common random numbers, so the change is
paired game by game), and prints for each seat the change of that side's win rate and of
its score (a win 1, a draw one half) with their 95% intervals. ``--baseline`` compares
against another player in the same seat instead of ``--against`` (a larger budget
against a smaller one: ``--player mcts --baseline mcts:64``).

    python bench/strength.py --scenario infantry-training --games 1000 --seed 11
    python bench/strength.py --scenario river-and-bridge --games 1000 --player mcts --against mcts:64
    python bench/strength.py --scenario river-and-bridge --games 1000 --player mcts --baseline mcts:64
    python bench/strength.py --scenario infantry-training --games 1000 --seed 11-18 --seat soviet --save runs/
    python bench/strength.py --game toi --scenario two-farms --games 400 --player mcts
    python bench/strength.py --scenario crossroads --games 192 --seed 33-44 --seat german --set MC_PLANS=0

(The second: the larger budget against the smaller, head to head, compared with the
smaller on both sides; the third: both against ``lookahead``. ``--seat`` measures one
seat. ``--seed`` takes several seeds, ``11-18`` or ``11,12``: ``--games`` games on each,
pooled game by game. ``--save DIR`` keeps every run's outcomes, one file per seed and
pair of players, and reads a run from there instead of playing it again: a later run
with more seeds plays only the new ones. Each file names the code revision that played
it (``@<commit>``, with ``-dirty-<hash of the uncommitted changes>`` when the code differs
from the commit): only runs of the current revision are read back and pooled; runs of
the same question made by another revision (or saved before files named one) are never
pooled with this revision's: the script says so and plays those seeds again.
``--set NAME=VALUE``
(again for more) measures a player setting before it becomes the default: a parameter
of :mod:`simulator.engine.players.base`, ``MC_*`` the tree search's, ``LA_*`` the
look-ahead's, for every player of that kind in the call; a saved run's file names the
settings that reached its players.)

Every strength figure of ``docs/strength.md`` is one of these runs. A change
whose interval holds zero is not shown by the run: play more games. A claim is made by a
design written before the games (which seeds, how many, the rule that decides), on
seeds not used while choosing what to measure.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import math
import os
import subprocess
import time

import numpy as np

from simulator.engine.core.balance import Z95, paired_change
from simulator.engine.core.batch import run_games


def score(outcomes: np.ndarray, side: int) -> np.ndarray:
    """A game's score for ``side``: 1 a win, 0 a loss, one half anything else (a draw)."""
    decided = (outcomes == 0) | (outcomes == 1)
    return np.where(outcomes == side, 1.0, np.where(decided, 0.0, 0.5))


def score_change(new: np.ndarray, old: np.ndarray, side: int) -> tuple[float, float]:
    """The change of ``side``'s score game by game and its 95% half-interval (the win
    rate's is :func:`simulator.engine.core.balance.paired_change`)."""
    d = score(new, side) - score(old, side)
    return float(d.mean()), Z95 * float(d.std(ddof=1)) / math.sqrt(len(d))


def seeds_of(text: str) -> list[int]:
    """``"11"`` -> [11]; ``"11-14"`` -> [11, 12, 13, 14]; ``"11,13"`` -> [11, 13]."""
    seeds = []
    for part in text.split(","):
        first, _, last = part.strip().partition("-")
        seeds += list(range(int(first), int(last or first) + 1))
    return seeds


PLAYER_OF_PREFIX = {"MC_": "mcts", "LA_": "lookahead"}     # --set: the prefixes of player settings, and whom they reach
SETTING_PREFIXES = tuple(PLAYER_OF_PREFIX)


def settings_of(items: list[str]) -> dict[str, int]:
    """``["MC_ROLLOUT=-2"]`` -> {"MC_ROLLOUT": -2}: player parameters by their names in
    :mod:`simulator.engine.players.base`. Raises ValueError with a one-line reason."""
    from simulator.engine.players import base
    settings = {}
    for item in items:
        name, eq, value = item.partition("=")
        name = name.strip().upper()
        if not eq or not name.startswith(SETTING_PREFIXES) or not hasattr(base, name):
            raise ValueError(f"{item!r}: want NAME=VALUE, NAME a player parameter of simulator/engine/players/base.py "
                             f"({', '.join(p + '*' for p in SETTING_PREFIXES)})")
        try:
            settings[name] = int(value)
        except ValueError:
            raise ValueError(f"{item!r}: the value must be a whole number") from None
    return settings


def settings_reaching(players: tuple[str, str], settings: dict[str, int]) -> str:
    """The settings that reach one of ``players`` (a tree search's ``MC_*``, a
    look-ahead's ``LA_*``), as a file-name part: "" when none does."""
    kinds = {p.partition(":")[0] for p in players}
    return "".join(f"_{k}={v}" for k, v in sorted(settings.items()) if PLAYER_OF_PREFIX[k[:3]] in kinds)


def params_with(settings: dict[str, int]) -> np.ndarray:
    """The players' default parameters with ``settings`` on top."""
    from simulator.engine.players import base
    from simulator.engine.players.interface import DEFAULT_PARAMS
    params = DEFAULT_PARAMS.copy()
    for name, value in settings.items():
        params[getattr(base, name)] = value
    return params


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODE_PATHS = ("simulator", "bench", "scenarios", "pyproject.toml")   # what decides the games


def code_revision(repo: str = REPO) -> str:
    """The revision of the code that plays: the commit's short hash, with
    ``-dirty-<8 hex>`` (a hash of the uncommitted changes to :data:`CODE_PATHS`) when the
    working tree differs from it; ``unknown`` outside a git checkout."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, check=True).stdout
    try:
        head = git("rev-parse", "--short=12", "HEAD").strip()
        diff = git("diff", "HEAD", "--", *CODE_PATHS)
        untracked = git("ls-files", "--others", "--exclude-standard", "--", *CODE_PATHS)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    if not diff and not untracked:
        return head
    digest = hashlib.sha256((diff + untracked).encode()).hexdigest()[:8]
    return f"{head}-dirty-{digest}"


def run_file(folder: str, name: str, seed: int, games: int, players: tuple[str, str], reaching: str,
             revision: str) -> str:
    """The saved run's path: ``FOLDER/SCENARIO_SEED_GAMES_P1_P2[_SETTINGS]@REVISION.npy``."""
    stem = f"{name}_{seed}_{games}_{players[0]}_{players[1]}{reaching}".replace(":", "-")
    return os.path.join(folder, f"{stem}@{revision}.npy")


def other_revisions(path: str) -> list[str]:
    """Saved runs of the same question as ``path`` made by another revision (or saved
    before file names carried one), by file name."""
    folder, base = os.path.split(path)
    stem = base.rpartition("@")[0]
    found = glob.glob(os.path.join(glob.escape(folder), glob.escape(stem) + "@*.npy"))
    legacy = os.path.join(folder, stem + ".npy")
    found += [legacy] if os.path.exists(legacy) else []
    return sorted(os.path.basename(f) for f in found if os.path.abspath(f) != os.path.abspath(path))


def outcomes(game, players: tuple[str, str], games: int, seeds: list[int],
             save: tuple[str, str] | None = None, settings: dict[str, int] | None = None) -> tuple[np.ndarray, float]:
    """Each game's outcome (0 or 1 the winning side, else a draw), ``games`` games on each
    of ``seeds`` one after the other, and the seconds taken; with ``save`` (a folder and the
    scenario's name) each seed's run is kept in :func:`run_file` (with ``_NAME=VALUE`` for
    each of ``settings`` that reaches the players, and the code revision that played it),
    and read from there when this revision saved it already. A run of another revision
    is never pooled: a line says so and the seed is played again."""
    settings = settings or {}
    params = params_with(settings) if settings else None
    reaching = settings_reaching(players, settings)
    revision = code_revision() if save else None
    t0 = time.perf_counter()
    runs = []
    for seed in seeds:
        path = None
        if save:
            folder, name = save
            path = run_file(folder, name, seed, games, players, reaching, revision)
            if os.path.exists(path):
                runs.append(np.load(path))
                continue
            others = other_revisions(path)
            if others:
                print(f"  not pooled: {', '.join(others)} in {folder} played seed {seed} with other code than "
                      f"this revision ({revision}); playing it again")
        runs.append(run_games(game, games=games, seed=seed, players=players, workers=2,
                              params=params).tally.outcome_array())
        if path:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            np.save(path, runs[-1])
    return np.concatenate(runs), time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", choices=("assault", "toi"), default="assault")
    ap.add_argument("--scenario", default=None, help="default: infantry-training (assault), two-farms (toi)")
    ap.add_argument("--player", default="mcts", help="the player measured (default mcts, at its default budget)")
    ap.add_argument("--against", default="lookahead", help="its opponent, and the baseline on both sides")
    ap.add_argument("--baseline", default=None, help="compare with this player in the same seat (default: --against)")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", default="11", help="a seed, or several: 11-18, 11,12 (--games games each, pooled)")
    ap.add_argument("--seat", default=None, help="measure this side's seat only (default: both)")
    ap.add_argument("--save", default=None, metavar="DIR",
                    help="keep each run's outcomes in DIR (one .npy per seed and players), and read them from there")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a player parameter (simulator/engine/players/base.py, MC_* or LA_*), e.g. MC_ROLLOUT=-2")
    args = ap.parse_args()
    try:
        settings = settings_of(args.set)
    except ValueError as e:
        ap.error(f"--set: {e}")
    try:
        seeds = seeds_of(args.seed)
    except ValueError:
        ap.error(f"--seed: {args.seed!r} is not a seed, a range (11-18) or a list (11,12)")
    from scenario import load_game  # bench/scenario.py, beside this script
    args.scenario = args.scenario or ("two-farms" if args.game == "toi" else "infantry-training")
    game = load_game(args.game, args.scenario)
    save = (args.save, args.scenario) if args.save else None
    sides = list(game.sides)
    if args.seat is not None and args.seat not in sides:
        ap.error(f"--seat: {args.seat!r} is not a side of {args.scenario} ({', '.join(sides)})")
    print(f"{args.game} {args.scenario}: {args.player} against {args.against}, compared with "
          f"{args.baseline or args.against} in the same seat; {args.games * len(seeds):,} games, "
          f"seed{'s' if len(seeds) > 1 else ''} {args.seed}, paired; code {code_revision()}"
          + "".join(f"; {k}={v}" for k, v in settings.items()))
    if args.baseline is None:
        mirror, secs = outcomes(game, (args.against, args.against), args.games, seeds, save, settings)
        print(f"  baseline {args.against} v {args.against} ({secs:.0f} s): "
              + ", ".join(f"{s} wins {np.mean(mirror == i):.1%}" for i, s in enumerate(sides))
              + f", other {np.mean((mirror != 0) & (mirror != 1)):.1%}")
    for seat in ((0, 1) if args.seat is None else (sides.index(args.seat),)):
        pair = [args.against, args.against]
        pair[seat] = args.player
        new, secs = outcomes(game, tuple(pair), args.games, seeds, save, settings)
        if args.baseline is None:
            old = mirror
        else:
            pair[seat] = args.baseline
            old, _ = outcomes(game, tuple(pair), args.games, seeds, save, settings)
        dw, lo, hi = paired_change(old, new, seat)
        ds, hs = score_change(new, old, seat)
        print(f"  {sides[seat]:8s} seat: wins {np.mean(new == seat):.1%} (was {np.mean(old == seat):.1%}), "
              f"change {dw:+.3f} 95% [{lo:+.3f}, {hi:+.3f}]{' (shown)' if lo > 0 else ''}; "
              f"{sides[1 - seat]} wins {np.mean(new == 1 - seat):.1%} (was {np.mean(old == 1 - seat):.1%}); "
              f"score change {ds:+.3f} 95% [{ds - hs:+.3f}, {ds + hs:+.3f}]{' (shown)' if ds - hs > 0 else ''} "
              f"({secs:.0f} s)")


if __name__ == "__main__":
    main()
