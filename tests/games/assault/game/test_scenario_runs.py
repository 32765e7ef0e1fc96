"""Scenario batches on the shared runner (issue 9): ``--precision`` stops early,
``--checkpoint`` resumes with the same numbers, and the CLI passes both through."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.engine.core.batch import PIECE_GAMES, run_games
from simulator.games.assault.game.compile import compile_game
from simulator.run import runner
from simulator.run.precision import interval_width, sequence_always_enough

PLAYERS = ("greedy", "random")


def test_precision_stops_once_the_interval_is_narrow_enough(skirmish):
    r = run_games(skirmish, games=None, seed=17, players=PLAYERS,
                  options=runner.RunOptions(workers=2, precision=0.02))
    n, wins = r.tally.games, int(r.tally.wins[0])
    # a scenario batch judges the width by the confidence sequence (it looks after every batch)
    assert interval_width(wins, n, sequential=True) <= 0.02 and r.run["reached"]
    assert r.run["width"] == interval_width(wins, n, sequential=True)
    # whole pieces, and fewer games than the worst share would need
    assert n % PIECE_GAMES == 0 and n < sequence_always_enough(0.02)
    # the games played are the first n games of the seed: a fixed run of n games agrees
    fixed = run_games(skirmish, games=n, seed=17, players=PLAYERS, workers=1)
    assert np.array_equal(fixed.tally.outcome_array(), r.tally.outcome_array())
    # and the stopping point does not depend on the workers
    one = run_games(skirmish, games=None, seed=17, players=PLAYERS, options=runner.RunOptions(workers=1,
                                                                                            precision=0.02))
    assert one.tally.games == n


def test_precision_respects_the_games_cap(skirmish):
    r = run_games(skirmish, games=300, seed=2, players=PLAYERS, options=runner.RunOptions(precision=0.001))
    assert r.tally.games == 300 and r.run["reached"] is False


def test_checkpoint_resumes_with_the_same_numbers(skirmish, tmp_path):
    opts = runner.RunOptions(workers=2, checkpoint=str(tmp_path), label="test")
    first = run_games(skirmish, games=5 * PIECE_GAMES, seed=9, players=PLAYERS, options=opts)
    chunks = sorted(tmp_path.glob("*/chunk-*"))
    assert len(chunks) == 5 and first.run["loaded"] == 0
    for c in chunks[1::2]:           # as if the run had been killed before these were written
        c.unlink()
    again = run_games(skirmish, games=5 * PIECE_GAMES, seed=9, players=PLAYERS, options=opts)
    assert again.run["loaded"] == 3
    assert np.array_equal(first.tally.outcome_array(), again.tally.outcome_array())
    assert np.array_equal(first.tally.losses, again.tally.losses)


def test_the_command_takes_precision_and_checkpoint(skirmish_path, tmp_path):
    args = ["assault", "scenario", str(skirmish_path), "--players", "greedy,random", "--seed", "5",
            "--precision", "0.08", "--checkpoint", str(tmp_path / "ck"), "--vary", "turns=3", "--format", "json"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    n = data["games"]
    assert data["run"]["reached"] and data["run"]["width"] <= 0.08
    assert data["what_if"]["variants"][0]["value"] == 3
    assert "precision 0.08 reached" in res.stderr
    again = CliRunner().invoke(main, args)
    assert json.loads(again.stdout)["win_rate"] == data["win_rate"] and json.loads(again.stdout)["games"] == n
    chunks = -(-n // PIECE_GAMES)
    assert again.stderr.count(f"{chunks} of {chunks} chunks loaded, 0 computed") == 2   # the run and its what-if


def test_checkpoint_needs_a_seed(skirmish_path, tmp_path):
    res = CliRunner().invoke(main, ["assault", "scenario", str(skirmish_path), "--checkpoint", str(tmp_path)])
    assert res.exit_code == 2 and "--checkpoint needs --seed" in res.output


def test_alternate_history_is_a_variant_like_any_other():
    """--vary history=alternate plays 5.3's sides-swapped version with the same seeds."""
    from simulator.games.assault.game.balance import balance_report
    from simulator.games.assault.game.scenario import alternate_history, load_scenario
    rep = balance_report("infantry-training", games=300, seed=4, players="greedy,greedy", workers=2,
                         vary=("history=historical,alternate",), progress=False)
    same, alt = rep["what_if"]["variants"]
    assert same["change"] == 0.0
    # the Germans now hold the village with the Soviets' zones and equivalent units
    direct = run_games(compile_game("infantry-training", scenario=alternate_history(load_scenario("infantry-training"))),
                       games=300, seed=4, players=("greedy", "greedy"), workers=1)
    assert alt["win_rate"]["german"] == pytest.approx(direct.tally.wins[0] / 300)
    assert alt["significant"] and alt["change"] > 0.3


def test_unknown_history_value_is_one_line(skirmish_path):
    res = CliRunner().invoke(main, ["assault", "scenario", str(skirmish_path), "--vary", "history=swapped"])
    assert res.exit_code == 2 and "historical or alternate" in res.output and "Traceback" not in res.output


def test_skill_ladder_from_both_seats(skirmish_path):
    """--ladder: random < greedy < lookahead, each stronger player against the weaker from
    both seats, judged against the weaker player's own rate in that seat."""
    from reports.scenario_text import report_table
    from simulator.engine.core.answers import BalanceReport
    from simulator.games.assault.game.balance import balance_report
    rep = balance_report(str(skirmish_path), games=200, seed=6, players="greedy,greedy", workers=2,
                         ladder=True, ladder_games=120, progress=False)
    sl = rep["skill_ladder"]
    assert [(r["weaker"], r["stronger"]) for r in sl["rungs"]] == [("random", "greedy"), ("greedy", "lookahead")]
    for rung in sl["rungs"]:
        assert [s["strong_side"] for s in rung["seats"]] == ["german", "soviet"]
        for seat in rung["seats"]:
            side = seat["strong_side"]
            assert seat["players"][side] == rung["stronger"]
            # better: the paired difference (stronger minus weaker in that seat, same seeds)
            # has its interval above 0, not the stronger player's lower bound above a point
            d = seat["difference"]
            assert d["ci95"][0] <= d["p"] <= d["ci95"][1]
            assert d["p"] == pytest.approx(seat["strong_win_rate"] - rung["weaker_same_seat_win_rate"][side])
            assert seat["better"] == (d["ci95"][0] > 0 or seat["at_ceiling"])
    random_rung = sl["rungs"][0]
    assert all(seat["better"] for seat in random_rung["seats"])      # greedy crushes random either way
    assert sl["skill_matters"] == all(r["stronger_wins_more_from_both_seats"] for r in sl["rungs"])
    assert "skill ladder (120 games a match)" in report_table(BalanceReport.of(rep))


def test_ladder_climbs_the_levels_given_and_names_the_lowest_failing_rung(skirmish_path):
    """--ladder --levels L1,L2,...: one rung per adjacent pair (issue 41 item 4); with
    --skill-curve the curve's levels; ``first_failing`` names the lowest rung not shown
    from both seats (None when every rung is)."""
    from simulator.engine.core.balance import LADDER_LEVELS, ladder_levels
    from simulator.games.assault.game.balance import balance_report
    assert ladder_levels(False, [], None) == list(LADDER_LEVELS)
    assert ladder_levels(False, [], ["random", "mcts:8"]) == ["random", "mcts:8"]
    assert ladder_levels(True, ["greedy", "mcts:8"], ["x"]) == ["greedy", "mcts:8"]
    rep = balance_report(str(skirmish_path), games=60, seed=6, players="greedy,greedy", workers=1,
                         ladder=True, ladder_games=60, levels="random,greedy", progress=False)
    sl = rep["skill_ladder"]
    assert sl["levels"] == ["random", "greedy"]
    assert [(r["weaker"], r["stronger"]) for r in sl["rungs"]] == [("random", "greedy")]
    failing = [r for r in sl["rungs"] if not r["stronger_wins_more_from_both_seats"]]
    assert sl["first_failing"] == (None if not failing else f"{failing[0]['stronger']} over {failing[0]['weaker']}")
    assert sl["skill_matters"] == (sl["first_failing"] is None)


def test_levels_without_a_curve_or_a_ladder_is_a_usage_error(skirmish_path):
    res = CliRunner().invoke(main, ["assault", "scenario", str(skirmish_path), "--levels", "random,greedy"])
    assert res.exit_code == 2 and "--levels needs --skill-curve or --ladder" in res.output
