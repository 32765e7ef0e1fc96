"""Limits declared and checked (issue 17, item 3): a game stopped at the decision limit is
recorded as truncated (neither a win nor a draw, ``truncated_rate`` in the summary, a
warning in the text and HTML report) and its replay stops there too."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from reports.scenario_text import report_table
from reports.tables import win_rate_table
from simulator.cli import main
from simulator.engine.core.answers import BalanceReport
from simulator.engine.core.balance import report_frames
from simulator.engine.core.batch import Tally, activity_warnings, run_games, summary, verdict
from simulator.games.assault.game.replay import events_frame, replay_game, replay_json, replay_text, truncated
from simulator.games.assault.game.state import NO_WINNER

PLAYERS = ("greedy", "random")


def records(game, tmp_path, name, **kwargs):
    r = run_games(game, games=300, seed=21, players=PLAYERS, workers=2, out_dir=tmp_path / name, **kwargs)
    return r, pd.read_parquet(tmp_path / name / "games.parquet")


def test_games_at_the_decision_limit_are_truncated_the_others_unchanged(skirmish, tmp_path):
    full, normal = records(skirmish, tmp_path, "full")
    assert (normal["reason_name"] != "truncated").all()
    limit = int(normal["decisions"].median())
    cut, short = records(skirmish, tmp_path, "cut", max_decisions=limit)
    done = normal["decisions"] <= limit                  # over within the limit: the same game
    assert 0 < done.sum() < len(normal)
    pd.testing.assert_frame_equal(short[done], normal[done])
    stopped = short[~done]
    assert (stopped["reason_name"] == "truncated").all() and (stopped["winner"] == NO_WINNER).all()
    assert (stopped["winner_side"] == "none").all() and (stopped["decisions"] == limit).all()
    assert (stopped["decided_turn"] == 0).all()

    tl = cut.tally
    n_cut = int((~done).sum())
    assert tl.truncated == n_cut and tl.games == 300
    assert tl.wins[0] == (short["winner"] == 0).sum() and tl.wins[2] == (short["winner"] == -1).sum()
    assert (tl.outcome_array() == 3).sum() == n_cut
    s = summary(cut)
    assert s["truncated_rate"] == pytest.approx(n_cut / 300) and s["truncated_games"] == n_cut
    assert s["decision_limit"] == limit
    total = sum(s["win_rate"][x]["p"] for x in ("german", "soviet")) + s["draw_rate"] + s["truncated_rate"]
    assert total == pytest.approx(1.0)                   # in every rate's denominator
    assert s["verdict"]["decisive_games"] == int(tl.wins[0] + tl.wins[1])   # left out of the verdict
    assert any(f"{n_cut:,} of 300 games" in w and "cut short" in w for w in s["warnings"])
    assert s["decided_early_rate"] <= summary(full)["decided_early_rate"]


def test_the_text_and_html_report_say_how_many_were_cut_short(skirmish):
    r = run_games(skirmish, games=40, seed=3, players=("greedy", "greedy"), workers=1, max_decisions=5)
    s = summary(r)
    assert r.tally.truncated == 40 and s["truncated_rate"] == 1.0 and s["draw_rate"] == 0.0
    assert s["verdict"]["status"] == "no verdict" and "40 cut short" in s["verdict"]["text"]
    s["sides"] = list(skirmish.sides)
    text = report_table(BalanceReport.of(s))
    assert "cut short" in text and "warning: 40 of 40 games (100.00%) were cut short" in text
    games = report_frames(s, r)["games"]                 # the page's tables and highlights
    assert set(games["winner"]) == {"truncated"}
    rates = win_rate_table(games, list(skirmish.sides))
    assert rates.set_index("side").loc["truncated", "wins"] == 40


def test_a_normal_run_reports_no_truncated_game(skirmish_path):
    res = CliRunner().invoke(main, ["assault", "scenario", str(skirmish_path), "--games", "100", "--seed", "4",
                                    "--workers", "2", "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output[res.output.index("{"):])
    assert data["truncated_rate"] == 0.0 and data["truncated_games"] == 0
    assert not any("cut short" in w for w in data["warnings"])


def test_a_replay_stops_at_the_same_limit_and_says_so(skirmish):
    st = replay_game(skirmish, 3, 0, ("greedy", "greedy"), max_decisions=5)
    assert truncated(st) and st.decision_limit == 5 and st.winner == NO_WINNER
    assert "=== game cut short: not over after 5 decisions" in replay_text(st, ("greedy", "greedy"))
    frame = events_frame(st)
    js = replay_json(st, frame, 3, 0, ("greedy", "greedy"))
    assert js["truncated"] is True and js["winner"] is None
    whole = replay_game(skirmish, 3, 0, ("greedy", "greedy"))
    assert not truncated(whole) and "truncated" not in replay_json(whole, events_frame(whole), 3, 0,
                                                                    ("greedy", "greedy"))


def test_verdict_and_warning_with_truncated_games():
    t = Tally(turns=6)
    t.wins = np.array([0, 0, 2], np.int64)
    t.truncated, t.games = 3, 5
    v = verdict(t, ["german", "soviet"])
    assert v["status"] == "no verdict" and "2 draws, 3 cut short" in v["text"]
    w = activity_warnings({"games": 5, "truncated_games": 3, "truncated_rate": 0.6, "decision_limit": 20000})
    assert w and w[0].startswith("3 of 5 games (60.00%) were cut short: not over after 20,000 decisions")
    assert activity_warnings({"games": 5, "truncated_games": 0, "truncated_rate": 0.0}) == []
