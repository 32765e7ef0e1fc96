"""``bench/scenario.py``'s table of players: which names it measures, and a quick run of
it on Tide of Iron's Two Farms (random and greedy, a few games)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from simulator.engine.players import interface

BENCH = Path(__file__).resolve().parents[2] / "bench" / "scenario.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_scenario", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_default_levels_then_every_new_name_of_players(bench):
    names = bench.player_names("greedy,mcts:32, mcts:64", interface)
    # the default curve's four levels and its second family, mcts:64 and mcts:256, then
    # mcts:32 (greedy and mcts:64 are among them already)
    assert names == ["random", "greedy", "lookahead", "mcts:64:learned", "uct:32", "mcts:64", "mcts:256",
                     "mcts:32"]


def test_a_name_the_players_refuse_stops_the_bench_with_its_reason(bench):
    with pytest.raises(SystemExit, match="--players mcts:0: mcts:N wants N simulations"):
        bench.player_names("mcts:0", interface)


def test_each_player_gets_games_and_decisions_per_second_and_greedy_is_the_baseline(bench, capsys):
    # Its time on a cold test worker (156.5 s in CI) is Tide of Iron's quick batch entry
    # compiling (numba's play_chunk, 138.6 of 144.1 s measured from an empty cache); warm, the
    # 12 games take 1.2 s. Whichever test plays Tide of Iron first on a worker pays that compile.
    from simulator.games.toi.game.game import Game
    rows = bench.per_player(Game("two-farms"), ["random", "greedy"], 6, 1, 1, interface)
    assert list(rows) == ["random", "greedy"]
    for n, gps, dps in rows.values():
        assert n == 6 and gps > 0 and dps > gps       # a game has more than one decision
    out = capsys.readouterr().out
    assert "two-farms: every player against itself" in out
    # greedy's row is its own baseline: both ratios print as 1.0000 x
    assert out.count("(  1.0000 x)") == 2
