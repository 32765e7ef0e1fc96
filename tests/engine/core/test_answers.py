"""Answers as values (issue 42, item 4): a balance report is frozen, its DataFrame carries
no attrs bag, and its JSON is the rendering the command prints."""

from __future__ import annotations

import dataclasses

import pytest

from simulator.engine.core.answers import BalanceReport


def _report() -> dict:
    # a hand-made summary of 100 games between sides "red" and "blue": red wins 60, blue 30,
    # 10 draws; one what-if, turns=5, where red wins 40 and blue 50
    return {"scenario": "toy", "games": 100, "seed": 3, "players": {"red": "greedy", "blue": "random"},
            "win_rate": {"red": {"p": 0.6, "ci95": [0.5, 0.7]}, "blue": {"p": 0.3, "ci95": [0.22, 0.4]}},
            "draw_rate": 0.1, "verdict": {"status": "unbalanced", "text": "red is favoured"},
            "what_if": {"variants": [{"key": "turns", "value": 5, "win_rate": {"red": 0.4, "blue": 0.5},
                                      "ci95": [0.31, 0.5], "draw_rate": 0.1}]},
            "sides": ["red", "blue"]}


def test_balance_report_reads_the_summary_and_renders_its_table_without_attrs():
    report = _report()
    b = BalanceReport.of(report)
    assert (b.scenario, b.games, b.seed, b.sides) == ("toy", 100, 3, ("red", "blue"))
    assert b.win_rate["red"].p == 0.6 and b.win_rate["blue"].ci95 == (0.22, 0.4)
    assert (b.verdict, b.verdict_text) == ("unbalanced", "red is favoured")
    assert b.to_json() is report                       # the JSON is the report as the command prints it
    df = b.frame()
    assert df.attrs == {}
    # 2 sides x (baseline + 1 variant) = 4 rows; the variant's interval is the first side's only
    assert df["variant"].tolist() == ["baseline", "baseline", "turns=5", "turns=5"]
    assert df["win_rate"].tolist() == [0.6, 0.3, 0.4, 0.5]
    assert df["ci95_low"].tolist()[:3] == [0.5, 0.22, 0.31] and df["ci95_high"].isna().tolist()[3]
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.games = 5  # type: ignore[misc]
