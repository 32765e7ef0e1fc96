"""The skill curve (issue 18, part 3): both sides at each level of a rising ladder,
each side's win rate with its interval, whether the curve has converged, and a
verdict that names the strength it was made at."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.engine.core.balance import (
    curve_converged,
    curve_row,
    verdict_at_strength,
    verdict_with_players,
)
from simulator.games.assault.game.balance import parse_levels
from simulator.games.assault.game.restrictions import RESTRICTIONS
from simulator.run.errors import InputError
from simulator.run.vocabulary import DEFAULT_CURVE_GAMES, DEFAULT_LEVELS

SIDES = ["german", "soviet"]


def row(level, german_wins, soviet_wins, games=400):
    return curve_row(level, np.array([german_wins, soviet_wins, games - german_wins - soviet_wins]), games, SIDES)


def test_converged_when_the_top_two_levels_agree_for_every_side():
    assert curve_converged([row("random", 10, 10), row("greedy", 100, 250), row("mcts:64", 110, 240)], SIDES)


def test_not_converged_when_a_side_moves_beyond_the_intervals():
    # the top level's German rate (40%) lies outside the level below's interval (25%: about 21-30%)
    assert not curve_converged([row("greedy", 100, 250), row("mcts:64", 160, 200)], SIDES)
    # the first side steady, the second one moving is not converged either
    assert not curve_converged([row("greedy", 100, 250), row("mcts:64", 100, 150)], SIDES)
    # only the two strongest levels count: a big move lower down does not matter
    assert curve_converged([row("random", 0, 0), row("greedy", 100, 250), row("mcts:64", 100, 250)], SIDES)


def test_one_level_is_no_curve():
    assert not curve_converged([row("greedy", 100, 250)], SIDES)


def test_the_verdict_names_its_strength_and_says_when_the_curve_moves():
    v = {"text": "balanced within the 95% interval: ...", "status": "balanced"}
    held = verdict_at_strength(v, "mcts:64", True)
    assert held["strength"] == "mcts:64" and "mcts:64 on both sides" in held["text"]
    assert "still moves" not in held["text"]
    moving = verdict_at_strength(v, "mcts:64", False)
    assert "a level where the curve still moves" in moving["text"] and moving["converged"] is False


def test_a_verdict_without_a_curve_names_its_players():
    v = {"text": "not balanced: soviet is favoured; ...", "status": "favoured"}
    same = verdict_with_players(v, {"german": "greedy", "soviet": "greedy"})
    assert same["text"].startswith("with greedy on both sides (") and same["text"].endswith(v["text"])
    assert same["strength"] == "greedy,greedy" and same["converged"] is None
    mixed = verdict_with_players(v, {"german": "mcts:400", "soviet": "greedy"})
    assert mixed["text"].startswith("with german mcts:400, soviet greedy (")


def test_levels_default_and_checks():
    assert parse_levels(None) == list(DEFAULT_LEVELS)
    assert parse_levels("random, greedy,mcts:8") == ["random", "greedy", "mcts:8"]
    for bad, message in (("greedy", "at least two levels"), ("greedy,strong", "unknown player 'strong'"),
                         ("greedy,mcts:0", "mcts:N wants"), ("greedy,greedy", "given twice")):
        with pytest.raises(InputError, match=message):
            parse_levels(bad)


@pytest.mark.parametrize("args,message", [
    (["--skill-curve", "--levels", "greedy"], "at least two levels"),
    (["--skill-curve", "--levels", "random,grdy"], "unknown player 'grdy'"),
    (["--levels", "random,greedy"], "--levels needs --skill-curve"),
    (["--skill-curve", "--players", "greedy,random"], "the curve chooses the players"),
])
def test_bad_curve_options_exit_2(skirmish_path, args, message):
    res = CliRunner().invoke(main, ["assault", "scenario", str(skirmish_path), "--games", "10", *args])
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output


def test_help_shows_the_defaults_and_the_restrictions():
    res = CliRunner().invoke(main, ["assault", "scenario", "--help"])
    text = " ".join(res.output.split())
    assert ",".join(DEFAULT_LEVELS) in text and f"default {DEFAULT_CURVE_GAMES}" in text
    assert "--skill-curve --out" in text
    squeezed = "".join(res.output.split())          # click may break a line after a hyphen
    for name in RESTRICTIONS:
        assert name in squeezed, name


def test_skill_curve_json_text_and_report_folder(skirmish_path, tmp_path):
    out = tmp_path / "curve"
    args = ["assault", "scenario", str(skirmish_path), "--skill-curve", "--levels", "random,greedy",
            "--games", "30", "--seed", "2", "--format", "json", "--out", str(out)]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    curve = data["skill_curve"]
    assert [r["level"] for r in curve] == ["random", "greedy"]
    for r in curve:
        assert r["games"] == 30 and set(r["win_rate"]) == set(SIDES)
        for s in SIDES:
            p, (lo, hi) = r["win_rate"][s]["p"], r["win_rate"][s]["ci95"]
            assert 0 <= lo <= p <= hi <= 1
    assert isinstance(data["converged"], bool)
    assert data["converged"] == curve_converged(curve, SIDES)
    # the main report is the strongest level's run
    assert data["players"] == {"german": "greedy", "soviet": "greedy"}
    assert data["win_rate"] == curve[-1]["win_rate"]
    assert data["verdict"]["strength"] == "greedy" and "greedy on both sides" in data["verdict"]["text"]
    assert (out / "skill-curve.png").is_file() and (out / "skill-curve.csv").is_file()
    assert "skill-curve.png" in (out / "index.html").read_text()
    from reports.scenario_text import report_table
    text = report_table(data)
    assert "skill curve" in text and "30 games a level" in text
    assert ("converged" in text) and "the verdict above is made at the strongest level, greedy" in text


def test_search_players_play_in_small_pieces_and_the_same_games(skirmish):
    """A search player's runs are cut into small pieces (both workers busy on the few
    hundred games of a level); a game is the same whatever the piece it is played in."""
    from simulator.engine.core.batch import PIECE_GAMES, SEARCH_PIECE_GAMES, chunk_task, games_per_piece
    from simulator.engine.players.interface import player_setup
    kinds, params = player_setup(("greedy", "random"))
    assert games_per_piece(skirmish, kinds) == PIECE_GAMES
    assert games_per_piece(skirmish, player_setup(("mcts:8", "greedy"))[0]) == SEARCH_PIECE_GAMES
    assert games_per_piece(skirmish, player_setup(("random", "lookahead"))[0]) == SEARCH_PIECE_GAMES
    def piece(i):
        return np.random.SeedSequence(5, spawn_key=(i,))       # the runner's i-th piece of seed 5
    small = chunk_task(skirmish, kinds, params, SEARCH_PIECE_GAMES, SEARCH_PIECE_GAMES, piece(1))
    big = chunk_task(skirmish, kinds, params, PIECE_GAMES, 2 * SEARCH_PIECE_GAMES, piece(0))
    assert np.array_equal(small, big[SEARCH_PIECE_GAMES:])       # games 16-31 either way
