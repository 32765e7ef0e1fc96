"""Regenerate the golden games: ``python tests/games/assault/golden/regen.py`` (from the repository root).

It writes both games' golden files: Assault's here, Tide of Iron's in
``tests/games/toi/golden`` (:data:`TOI_HERE`, checked by its ``test_golden.py``).

For every shipped Assault scenario and player pairing in :data:`PAIRINGS`, games
:data:`GAMES` of the batch with seed :data:`SEED` are replayed and written as the
replay text (``NAME.PLAYERS.gameK.txt``, what ``lanchester assault replay`` prints) and
the replay JSON with the final position (``NAME.PLAYERS.gameK.json``, its ``--format
json``), as OpenSpiel's playthroughs do. ``batches.json`` holds a SHA-256 of the
per-game records of a fixed batch per scenario. ``tests/games/assault/golden/test_golden.py`` diffs
them: a change of the rules or the players that changes a game shows up there, and is
either a bug or regenerated here with the reason in the commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
SEED = 2026
GAMES = (0, 1)
PAIRINGS = (("greedy", "greedy"), ("random", "greedy"), ("lookahead", "greedy"))
BATCH_GAMES = 512
BATCH_PLAYERS = ("greedy", "greedy")
# the tree search's games, one scenario (files of their own: the others stay as they were)
MCTS_SCENARIO = "vehicle-training"
MCTS_PAIRINGS = (("mcts:16", "greedy"),)
# Tide of Iron's golden games (issue 40)
TOI_HERE = ROOT / "tests" / "games" / "toi" / "golden"
TOI_SCENARIOS = ("two-farms", "ridge-line")
TOI_PAIRINGS = (("random", "greedy"), ("greedy", "greedy"), ("lookahead", "greedy"))


def stem_of(name: str, players: tuple[str, str], k: int) -> str:
    """A golden file's name without its suffix (``mcts:16`` is written ``mcts16``)."""
    return f"{name}.{'-'.join(p.replace(':', '') for p in players)}.game{k}"


def scenarios() -> list[str]:
    from simulator.games.assault.game.scenario import shipped_scenarios
    return [p.name.removesuffix(".scenario.toml") for p in shipped_scenarios()]


@cache
def game_of(name: str):
    from simulator.games.assault.game.compile import compile_game
    return compile_game(name)


def golden_files() -> dict[str, tuple[str, tuple[str, str], int, str]]:
    """File name -> (scenario, players, game, format)."""
    out = {}
    runs = [(name, players) for name in scenarios() for players in PAIRINGS]
    runs += [(MCTS_SCENARIO, players) for players in MCTS_PAIRINGS]
    for name, players in runs:
        for k in GAMES:
            stem = stem_of(name, players, k)
            out[f"{stem}.txt"] = (name, players, k, "table")
            out[f"{stem}.json"] = (name, players, k, "json")
    return out


def toi_golden_files() -> dict[str, tuple[str, tuple[str, str], int, str]]:
    """Tide of Iron's golden files (in :data:`TOI_HERE`): file name -> (scenario, players, game, format)."""
    out = {}
    for name in TOI_SCENARIOS:
        for players in TOI_PAIRINGS:
            for k in GAMES:
                stem = stem_of(name, players, k)
                out[f"{stem}.txt"] = (name, players, k, "table")
                out[f"{stem}.json"] = (name, players, k, "json")
    return out


@cache
def toi_replay(name: str, players: tuple[str, str], k: int) -> tuple[str, str]:
    """The replay text and JSON of Tide of Iron's game ``k``, as ``lanchester toi replay`` prints them."""
    from simulator.games.toi.game.game import Game
    from simulator.games.toi.game.replay import replay_game, replay_json, replay_text
    from simulator.run.output import to_json
    rp = replay_game(Game(name), SEED, k, players)
    text = replay_text(rp)
    return (text if text.endswith("\n") else text + "\n"), to_json(replay_json(rp))


def toi_golden_text(file: str) -> str:
    name, players, k, fmt = toi_golden_files()[file]
    text, js = toi_replay(name, players, k)
    return js if fmt == "json" else text


@cache
def replay(name: str, players: tuple[str, str], k: int) -> tuple[str, str]:
    """The replay text and JSON of game ``k``, as ``lanchester assault replay`` prints them."""
    from simulator.games.assault.game.replay import events_frame, replay_game, replay_json, replay_text
    from simulator.run.output import to_json
    st = replay_game(game_of(name), SEED, k, players)
    frame = events_frame(st)
    text = replay_text(st, players)
    return (text if text.endswith("\n") else text + "\n"), to_json(replay_json(st, frame, SEED, k, players))


def golden_text(file: str) -> str:
    name, players, k, fmt = golden_files()[file]
    text, js = replay(name, players, k)
    return js if fmt == "json" else text


def batch_digest(name: str) -> str:
    """SHA-256 of the per-game records (``games.csv``) of ``BATCH_GAMES`` games with ``SEED``."""
    from simulator.engine.core.batch import run_games
    with tempfile.TemporaryDirectory() as tmp:
        run_games(game_of(name), games=BATCH_GAMES, seed=SEED, players=BATCH_PLAYERS, workers=2, out_dir=tmp)
        return hashlib.sha256((Path(tmp) / "games.csv").read_bytes()).hexdigest()


def main() -> None:
    for file in golden_files():
        (HERE / file).write_text(golden_text(file))
        print("wrote", file, file=sys.stderr)
    TOI_HERE.mkdir(exist_ok=True)
    for file in toi_golden_files():
        (TOI_HERE / file).write_text(toi_golden_text(file))
        print("wrote", TOI_HERE.name, file, file=sys.stderr)
    digests = {name: batch_digest(name) for name in scenarios()}
    (HERE / "batches.json").write_text(json.dumps(
        {"seed": SEED, "games": BATCH_GAMES, "players": list(BATCH_PLAYERS), "sha256": digests}, indent=2) + "\n")
    print("wrote batches.json", file=sys.stderr)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
