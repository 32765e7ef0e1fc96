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
    curve_convergence,
    curve_row,
    verdict_at_strength,
    verdict_with_players,
)
from simulator.games.assault.game.balance import parse_levels
from simulator.games.assault.game.restrictions import RESTRICTIONS
from simulator.run.errors import InputError
from simulator.run.vocabulary import DEFAULT_CURVE_GAMES, DEFAULT_LEVELS
from tests.games.assault.game.test_players import SKIRMISH

SIDES = ["german", "soviet"]
Z = 1.959963984540054


def row(level, german_wins, soviet_wins, games=400):
    return curve_row(level, np.array([german_wins, soviet_wins, games - german_wins - soviet_wins]), games, SIDES)


def paired(n: int, b: int, c: int, base: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Outcomes (0 german won, 1 soviet, 2 draw) of a top and a lower level over the same
    n games: german won b games at the top level that soviet won below, soviet c games
    at the top that german won below; the rest end ``base`` at both levels."""
    top = np.full(n, base, np.int8)
    below = np.full(n, base, np.int8)
    top[:b], below[:b] = 0, 1
    top[b:b + c], below[b:b + c] = 1, 0
    return top, below


def curve_of(top: np.ndarray, below: np.ndarray, margin: float = 0.05) -> dict:
    rows = [curve_row(lv, np.bincount(o, minlength=3)[:3], len(o), SIDES) for lv, o in (("greedy", below),
                                                                                         ("mcts:64", top))]
    return curve_convergence(rows, SIDES, margin, top, below)


def test_converged_when_the_paired_interval_lies_inside_the_margin():
    top, below = paired(400, 0, 0)
    conv = curve_of(top, below)
    # no game changed: the exact bound 1 - 0.025^(1/400) = 0.009180 < 0.05, both sides
    bound = 1 - 0.025 ** (1 / 400)
    assert conv["status"] == "converged" and conv["games_needed"] is None and conv["margin"] == 0.05
    for s in SIDES:
        assert conv["difference"][s]["p"] == 0.0
        assert conv["difference"][s]["ci95"] == pytest.approx([-bound, bound], rel=1e-9)
    assert conv["method"].startswith("paired") and conv["levels"] == ["greedy", "mcts:64"]


def test_moving_when_a_side_moves_beyond_the_margin():
    # german wins 120 more of 400 games at the top: +30 points, its interval far above +5
    top, below = paired(400, 120, 0)
    conv = curve_of(top, below)
    assert conv["status"] == "moving" and conv["difference"]["german"]["p"] == pytest.approx(0.30)
    assert conv["difference"]["soviet"]["p"] == pytest.approx(-0.30)


def test_undecided_with_the_paired_games_needed():
    # 100 games, 5 changed each way: d = 0, sd of the per-game differences sqrt(10/99) = 0.3178,
    # half-width 1.96 * 0.3178 / 10 = 0.0623 > 0.05: undecided. Decided (half-width 0.05) at
    # N = ceil((1.96 * 0.3178 / 0.05)^2) = ceil(155.2) = 156 games: 56 more
    top, below = paired(100, 5, 5)
    conv = curve_of(top, below)
    half = Z * np.sqrt(10 / 99) / 10
    assert conv["difference"]["german"]["ci95"] == pytest.approx([-half, half], rel=1e-9)
    assert conv["status"] == "undecided" and conv["games_needed"] == 56
    # no game changed in 20: the exact bound 1 - 0.025^(1/20) = 0.1686; it falls to 0.05 at
    # N = ceil(ln 0.025 / ln 0.95) = ceil(71.9) = 72 games: 52 more
    conv = curve_of(*paired(20, 0, 0))
    assert conv["status"] == "undecided" and conv["games_needed"] == 52


@pytest.mark.parametrize("n", [20, 55])
def test_twenty_games_a_level_never_converge(n):
    """Every way the top two levels can differ over n paired games, for the first side
    (b games it gained, c it lost): none is "converged" at ±5 points. At 20 the narrowest
    interval with a changed game is ±1.96/20 = ±9.8 points, with none ±16.9 points; 55 is
    the most games a level at which no curve can converge (56 below)."""
    for b in range(n + 1):
        for c in range(n + 1 - b):
            conv = curve_of(*paired(n, b, c))
            assert conv["status"] != "converged", (b, c)
            assert conv["difference"]["german"]["p"] == pytest.approx((b - c) / n)


def test_fifty_six_games_a_level_can_converge():
    # one game gained and one lost in 56: d = 0, sd sqrt(2/55), half-width
    # 1.96 * sqrt(2/55) / sqrt(56) = 0.04997 <= 0.05
    conv = curve_of(*paired(56, 1, 1))
    assert conv["status"] == "converged"
    assert conv["difference"]["german"]["ci95"][1] == pytest.approx(Z * np.sqrt(2 / 55) / np.sqrt(56), rel=1e-9)


def test_only_the_two_strongest_levels_count_and_one_level_is_no_curve():
    rows = [row("random", 0, 0), row("greedy", 100, 250), row("mcts:64", 100, 250)]
    top, below = paired(400, 0, 0)
    assert curve_convergence(rows, SIDES, 0.05, top, below)["status"] == "converged"
    assert curve_convergence([row("greedy", 100, 250)], SIDES)["status"] == "undecided"
    assert not curve_converged([row("greedy", 100, 250)], SIDES)


def test_without_per_game_records_the_unpaired_interval_keeps_its_width_at_zero():
    # german wins 0 of 20 at both levels: each Wilson interval [0, 0.1611]; Newcombe's
    # interval of the difference is then [-0.1611, +0.1611], not the normal one's [0, 0]
    rows = [row("greedy", 0, 20, games=20), row("mcts:64", 0, 20, games=20)]
    conv = curve_convergence(rows, SIDES)
    hi = 0.16112515805281935        # scipy: binomtest(0, 20).proportion_ci(method="wilson").high
    assert conv["difference"]["german"]["ci95"] == pytest.approx([-hi, hi], rel=1e-9)
    assert conv["status"] == "undecided" and conv["method"].startswith("unpaired")
    assert not curve_converged(rows, SIDES)


def test_the_verdict_names_its_strength_and_says_when_the_curve_has_not_converged():
    v = {"text": "balanced within ±5 points: ...", "status": "balanced"}
    held = verdict_at_strength(v, "mcts:64", curve_of(*paired(400, 0, 0)))
    assert held["strength"] == "mcts:64" and "mcts:64 on both sides" in held["text"]
    assert held["converged"] is True and "skill curve" not in held["text"]
    moving = verdict_at_strength(v, "mcts:64", curve_of(*paired(400, 120, 0)))
    assert "the skill curve still moves" in moving["text"] and moving["converged"] is False
    undecided = verdict_at_strength(v, "mcts:64", curve_of(*paired(100, 5, 5)))
    assert "about 56 more games a level would most likely decide it" in undecided["text"]
    assert undecided["convergence"] == "undecided" and undecided["converged"] is False


def test_a_verdict_without_a_curve_names_its_players():
    v = {"text": "unbalanced: soviet favoured — ...", "status": "unbalanced"}
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
    (["--family", "uct:4"], "--family needs --skill-curve"),
    (["--skill-curve", "--levels", "random,greedy", "--family", "uct:0"], "uct:N wants N simulations"),
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
            "--family", "uct:2", "--games", "30", "--seed", "2", "--format", "json", "--out", str(out)]
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
    conv = data["convergence"]
    # 30 games a level can never converge at ±5 points (see test_twenty_games_a_level_never_converge)
    assert conv["status"] in ("moving", "undecided") and data["converged"] is False and conv["margin"] == 0.05
    for s in SIDES:     # the paired mean of the per-game differences is the difference of the win rates
        d = conv["difference"][s]
        assert d["p"] == pytest.approx(curve[-1]["win_rate"][s]["p"] - curve[-2]["win_rate"][s]["p"])
        assert d["ci95"][0] <= d["p"] <= d["ci95"][1]
    # the main report is the strongest level's run
    assert data["players"] == {"german": "greedy", "soviet": "greedy"}
    assert data["win_rate"] == curve[-1]["win_rate"]
    assert data["verdict"]["strength"] == "greedy" and "greedy on both sides" in data["verdict"]["text"]
    assert (out / "skill-curve.png").is_file() and (out / "skill-curve.csv").is_file()
    assert "skill-curve.png" in (out / "index.html").read_text()
    from reports.scenario_text import report_table
    from simulator.engine.core.answers import BalanceReport
    text = report_table(BalanceReport.of(data))
    assert "skill curve" in text and "30 games a level" in text
    assert "NOT converged" in text and "the verdict above is made at the strongest level, greedy" in text
    assert "skill-convergence.csv" in (out / "index.html").read_text()
    # the second family beside the top level (--family): the same 30 seeds, paired with greedy's games
    fam = data["family_check"]
    assert fam["player"] == "uct:2" and fam["top_level"] == "greedy" and fam["games"] == 30
    assert fam["status"] in ("depends", "agrees", "undecided", "weaker") and data["verdict"]["family"] == fam["status"]
    assert data["verdict"]["text"].endswith(fam["text"]) and fam["win_rate"]["top"] == curve[-1]["win_rate"]
    for s in SIDES:
        d = fam["difference"][s]
        assert d["p"] == pytest.approx(curve[-1]["win_rate"][s]["p"] - fam["win_rate"]["family"][s]["p"])
    assert "  second family    uct:2: german" in text
    rows = (out / "skill-curve.csv").read_text().splitlines()
    assert sum(r.startswith("uct:2 (second family),") for r in rows) == 2      # one row a side


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


def test_a_moving_curve_says_why_from_the_ladders_top_rung(skirmish_path, tmp_path):
    """Issue 41 item 4 end to end: random -> greedy on Skirmish moves far beyond ±5 points
    (greedy v greedy against random v random, 30 games each); with --ladder the report says
    why from the rung greedy over random, whose numbers it quotes."""
    args = ["assault", "scenario", str(skirmish_path), "--skill-curve", "--levels", "random,greedy", "--ladder",
            "--ladder-games", "30", "--games", "30", "--seed", "2", "--family", "off", "--format", "json",
            "--out", str(tmp_path / "why")]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    conv, rung = data["convergence"], data["skill_ladder"]["rungs"][-1]
    assert conv["status"] == "moving" and (rung["weaker"], rung["stronger"]) == ("random", "greedy")
    why = conv["why"]
    assert why["source"] == "ladder" and why["levels"] == ["random", "greedy"] and why["ladder_games"] == 30
    for row in rung["seats"]:          # each seat's gain is the ladder's paired difference in that seat
        gain = why["seats"][row["strong_side"]]
        assert gain["p"] == row["difference"]["p"] and gain["ci95"] == row["difference"]["ci95"]
        lo, hi = row["difference"]["ci95"]
        assert gain["shown"] == ("at the ceiling" if row["at_ceiling"] else "gains" if lo > 0
                                 else "loses" if hi < 0 else "not shown")
    # the first seat's gain minus the second's, paired game by game: the mean of the per-game
    # differences is the difference of the two seats' mean gains
    net = rung["gain_difference"]
    assert why["gain_difference"] == net and net["side"] == "german"
    assert net["p"] == pytest.approx(rung["seats"][0]["difference"]["p"] - rung["seats"][1]["difference"]["p"])
    assert net["ci95"][0] <= net["p"] <= net["ci95"][1]
    # towards: the side whose win rate rose beyond the margin at the top, more than the other's
    # (measured, seed 2: german +60.0 points, soviet +30.0: the draws fell)
    d = {s: conv["difference"][s] for s in SIDES}
    assert d["german"]["status"] == "moving" and d["german"]["p"] > max(0.0, d["soviet"]["p"])
    assert why["towards"] == "german"
    assert data["verdict"]["text"].endswith(" — why: " + why["text"])
    from reports.scenario_text import report_table
    from simulator.engine.core.answers import BalanceReport
    assert f"  why: {why['text']}" in report_table(BalanceReport.of(data))
    import html
    page = (tmp_path / "why" / "index.html").read_text()
    # the page: the verdict's highlight, its note, and the skill curve's highlight
    assert page.count(html.escape(why["text"])) == 3 and "may change with stronger players; why: from random" in page


# Skirmish where the Germans must also hold a hex in the Soviet set-up zone at the end
OUT_OF_REACH = SKIRMISH.replace('[[objectives]]\nhex = "4,2"\n', '[[objectives]]\nhex = "4,2"\n[[objectives]]\nhex = "8,4"\n') \
    .replace('[sides.german.victory]\nhold = ["4,2"]', '[sides.german.victory]\nhold = ["4,2", "8,4"]')


def test_a_side_out_of_reach_at_every_level_is_named_with_where_it_falls_short(tmp_path):
    """Issue 41 (Crossroads: the scenario or the players?): a side that wins fewer than 5%
    at every level is listed in ``out_of_reach`` with the top two levels' paired step for it
    and, from the top level's control tally, the objectives it held at a turn's end at
    best, which are the objective-control table's own numbers."""
    assert OUT_OF_REACH.count("8,4") == 2
    path = tmp_path / "reach.scenario.toml"
    path.write_text(OUT_OF_REACH)
    out = tmp_path / "reach"
    args = ["assault", "scenario", str(path), "--skill-curve", "--levels", "random,greedy", "--games", "40",
            "--seed", "3", "--family", "off", "--format", "json", "--out", str(out)]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    german = [r["win_rate"]["german"]["p"] for r in data["skill_curve"]]
    assert max(german) < 0.05 and data["skill_curve"][-1]["win_rate"]["soviet"]["p"] >= 0.05
    (reach,) = data["out_of_reach"]
    d = data["convergence"]["difference"]["german"]
    assert reach["side"] == "german" and reach["step"] == {"p": d["p"], "ci95": d["ci95"]}
    assert reach["reading"] == ("scenario" if d["ci95"][1] <= 0.05 else "players" if d["ci95"][0] > 0
                                else "undecided")
    import pandas as pd
    control = pd.read_csv(out / "objective-control.csv")
    german_rows = control[control["side"] == "german"]
    for h in reach["holds"]:         # the best turn's share is the table's largest for that objective
        rows = german_rows[german_rows["objective"] == h["objective"]]
        assert h["share"] == pytest.approx(rows["share"].max())
        assert h["turn"] == int(rows.loc[rows["share"].idxmax(), "turn"])
    assert len(reach["holds"]) == 2 and reach["holds"][0]["share"] <= reach["holds"][1]["share"]
    assert "german&#x27;s wins out of reach" in (out / "index.html").read_text() or \
        "german's wins out of reach" in (out / "index.html").read_text()
