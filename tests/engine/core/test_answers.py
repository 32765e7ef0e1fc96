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


def test_the_sections_after_the_verdict_are_frozen_values_of_the_json():
    """The renderers (reports/) read each section as a typed value; each is built from the
    JSON's section, and absent when the run did not ask for it."""
    report = _report()
    assert BalanceReport.of(report).skill_curve == () and BalanceReport.of(report).convergence is None
    report["what_if"]["variants"][0].update(
        {"change": -0.2, "change_ci95": [-0.3, -0.1], "games_changed": {"better": 2, "worse": 22},
         "p_value": 1e-5, "p_holm": 1e-5, "family_size": 1, "significant": True,
         "changes": {"red": {"change": -0.2, "ci95": [-0.3, -0.1]}, "blue": {"change": 0.2, "ci95": [0.1, 0.3]},
                     "draw": {"change": 0.0, "ci95": [-0.05, 0.05]}}})
    report["what_if"].update({"family_size": 1, "method": "paired", "closest_to_even": None})
    report["skill_curve"] = [{"level": lv, "games": 100, "draw_rate": 0.1,
                              "win_rate": {"red": {"p": p, "ci95": [p - 0.1, p + 0.1]},
                                           "blue": {"p": 0.9 - p, "ci95": [0.8 - p, 1.0 - p]}}}
                             for lv, p in (("random", 0.5), ("greedy", 0.6))]
    report["convergence"] = {"status": "undecided", "margin": 0.05, "test": "t", "method": "m",
                             "levels": ["random", "greedy"], "games_needed": 300,
                             "difference": {"red": {"p": 0.1, "ci95": [-0.03, 0.23], "status": "undecided"}}}
    report["restricted"] = [{"side": "red", "restriction": "close-combat", "win_rate": 0.5, "base_win_rate": 0.6,
                             "change": -0.1, "ci95": [-0.2, 0.0], "games_changed": {"better": 1, "worse": 11},
                             "p_value": 0.006, "p_holm": 0.006, "family_size": 1, "significant": True}]
    b = BalanceReport.of(report)
    v = b.what_if[0]
    # the first side's change and each side's and the draws' as given; the test's 2 + 22 games changed
    assert v.change is not None and (v.change.change, v.change.ci95) == (-0.2, (-0.3, -0.1))
    assert v.changes["blue"].ci95 == (0.1, 0.3) and v.test is not None and (v.test.better, v.test.worse) == (2, 22)
    assert b.what_if_family is not None and b.what_if_family.closest_to_even is None
    # two levels, weakest first; greedy's red rate 0.6 with [0.5, 0.7]
    assert [r.level for r in b.skill_curve] == ["random", "greedy"]
    assert b.skill_curve[1].win_rate["red"].p == 0.6 and b.skill_curve[1].win_rate["red"].ci95 == (0.5, 0.7)
    c = b.convergence
    assert c is not None and (c.status, c.games_needed, c.levels) == ("undecided", 300, ("random", "greedy"))
    assert c.difference["red"].ci95 == (-0.03, 0.23) and "blue" not in c.difference
    assert b.restricted is not None and b.restricted[0].test.p_holm == 0.006 and b.restricted[0].change == -0.1
    assert b.skill_ladder is None and b.family_check is None and b.grid is None and b.tune is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.status = "converged"  # type: ignore[misc]
    assert b.to_json() is report            # the dict stays the JSON rendering, unchanged
