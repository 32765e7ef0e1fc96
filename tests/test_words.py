"""Words that never mislead (issue 21, item 5): what ``±`` is, what a label counts, what
``trials`` may be, what ``--out`` may be called, where a tuning stopped."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.run.output import SE_LEGEND


def run(*args):
    return CliRunner().invoke(main, list(args))


# --- trials=0 -------------------------------------------------------------------------

@pytest.mark.parametrize("trials", [0, -5])
def test_odds_with_no_trials_is_a_clear_value_error(trials):
    from simulator.games.assault import odds
    with pytest.raises(ValueError, match=rf"trials must be at least 1 \(got {trials}\)"):
        odds("RY", "YG", trials=trials, seed=1)


def test_odds_with_trials_that_are_not_a_number_is_a_value_error():
    from simulator.games.assault import odds
    with pytest.raises(ValueError, match="trials must be a whole number"):
        odds("RY", "YG", trials=2.5, seed=1)


@pytest.mark.parametrize("question", [
    ("fire", "german/rifles-41", "soviet/rifles-41", "--range", "2"),
    ("odds", "RY", "YG"),
    ("melee", "soviet/rifles-41", "german/rifles-41"),
])
def test_trials_zero_on_the_command_line_is_one_line(question):
    res = run("assault", *question, "--trials", "0")
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and "--trials" in lines[0] and "0" in lines[0], res.output
    assert "Traceback" not in res.output


# --- --out with an unknown extension ------------------------------------------------------

def test_out_with_an_unknown_extension_is_one_line_and_writes_nothing(tmp_path):
    out = tmp_path / "report.xyz"
    res = run("assault", "odds", "RY", "YG", "--out", str(out))
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and "--out" in lines[0] and "unknown extension .xyz" in lines[0], res.output
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_out_with_a_known_extension_or_none_still_works(tmp_path):
    assert run("assault", "odds", "RY", "YG", "--format", "json", "--out", str(tmp_path / "a.json")).exit_code == 0
    assert (tmp_path / "a.json").read_text().startswith("{")
    assert run("assault", "odds", "RY", "YG", "--out", str(tmp_path / "folder")).exit_code == 0
    assert (tmp_path / "folder" / "index.html").is_file()
    # a folder that exists is a folder, whatever its name
    (tmp_path / "old.v1").mkdir()
    assert run("assault", "odds", "RY", "YG", "--out", str(tmp_path / "old.v1")).exit_code == 0
    assert (tmp_path / "old.v1" / "index.html").is_file()


def test_a_name_whose_suffix_is_no_extension_is_a_folder(tmp_path):
    out = tmp_path / "run-1.5"
    assert run("assault", "odds", "RY", "YG", "--out", str(out)).exit_code == 0
    assert (out / "index.html").is_file()


def test_scenario_out_must_be_a_folder_name(tmp_path):
    out = tmp_path / "report.html"
    res = run("assault", "scenario", "infantry-training", "--games", "10", "--out", str(out))
    assert res.exit_code == 2 and "--out" in res.output and "report folder" in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1 and not out.exists()



ONE_FILE = [("assault", "schema"), ("assault", "map", "infantry-training"),
            ("assault", "los", "infantry-training", "0,0", "1,1"), ("assault", "check", "infantry-training"),
            ("assault", "scenarios")]


@pytest.mark.parametrize("args", ONE_FILE, ids=lambda a: " ".join(a[:2]))
def test_one_file_commands_refuse_a_folder_name(args, tmp_path):
    out = tmp_path / "folder"
    res = run(*args, "--out", str(out))
    assert res.exit_code == 2 and "--out" in res.output and "not a report folder" in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1 and not out.exists()


def test_folder_commands_refuse_a_file_name(tmp_path):
    res = run("demo", "--out", str(tmp_path / "demo.json"))
    assert res.exit_code == 2 and "ends in .json" in res.output and "report folder" in res.output, res.output
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "notes").write_text("x")
    res = run("assault", "scenario", "infantry-training", "--games", "10", "--out", str(tmp_path / "notes"))
    assert res.exit_code == 2 and "is a file" in res.output and "report folder" in res.output, res.output


def test_a_command_refuses_an_extension_it_does_not_write(tmp_path):
    res = run("assault", "odds", "RY", "YG", "--out", str(tmp_path / "odds.png"))
    assert res.exit_code == 2 and "writes no .png file" in res.output, res.output
    res = run("assault", "map", "infantry-training", "--out", str(tmp_path / "map.json"))
    assert res.exit_code == 2 and "writes no .json file" in res.output and ".png" in res.output, res.output
    assert list(tmp_path.iterdir()) == []


def test_every_out_option_comes_from_cliopts_and_says_the_one_meaning():
    import click

    from simulator import cliopts
    from tests.test_quick_cli import PATHS, _command

    outs = [(p, o) for p in PATHS for o in getattr(_command(p), "params", []) if "--out" in o.opts]
    assert len(outs) >= 20
    for path, option in outs:
        assert option.callback is not None and option.callback.__module__ == cliopts.__name__, path
        text = " ".join(option.help.split())
        assert "report folder" in text and ("instead of printing" in text or "there" in text), (path, text)
        assert isinstance(option.type, click.Path), path


# --- ± is one standard error --------------------------------------------------------------

def test_monte_carlo_tables_say_what_the_plus_minus_is():
    res = run("assault", "odds", "RY", "YG", "--trials", "20000", "--seed", "1")
    assert res.exit_code == 0, res.output
    assert "±" in res.output and res.output.rstrip().endswith(SE_LEGEND)
    assert "1 SE" in SE_LEGEND and "standard error" in SE_LEGEND


def test_exact_tables_have_no_plus_minus_and_no_legend():
    res = run("assault", "odds", "RY", "YG")
    assert res.exit_code == 0 and "±" not in res.output and SE_LEGEND not in res.output


def test_the_page_says_what_the_plus_minus_is(tmp_path):
    out = tmp_path / "odds"
    assert run("assault", "odds", "RY", "YG", "--trials", "20000", "--seed", "1", "--out", str(out)).exit_code == 0
    page = (out / "index.html").read_text()
    assert "±" in page and "one standard error (1 SE)" in page


# --- labels say what they count -------------------------------------------------------------

def test_fire_labels_say_what_suppressed_or_worse_counts():
    res = run("assault", "fire", "german/rifles-41", "soviet/rifles-41", "--range", "2")
    assert res.exit_code == 0, res.output
    assert "P(suppressed, fallback or eliminated)" in res.output and "or worse" not in res.output
    # and the number is the sum of exactly those states
    from simulator.games.assault.questions.fire import fire
    from simulator.games.assault.rules.pools import FireSituation
    answer = fire("german/rifles-41", "soviet/rifles-41", FireSituation(range=2))
    df = answer.table
    counted = df[df["eliminated"] | df["suppressed"] | df["fallback"]]["p"].sum()
    assert answer.summary["p_suppressed_fallback_or_eliminated"] == pytest.approx(counted)


def test_odds_labels_say_a_symbol_is_left():
    res = run("assault", "odds", "RY", "YG")
    assert "P(supp symbol left)" in res.output and "P(suppression)" not in res.output


# --- --tune says when it stops at an end of its search ----------------------------------------

def rows(rates):
    return [{"value": v, "wins": 0, "win_rate": r, "ci95": [r, r]} for v, r in rates]


def test_tune_at_the_top_of_its_search_says_so():
    from simulator.engine.core.balance import tune_bound
    values = rows([(1, 0.10), (2, 0.20), (3, 0.30)])       # still rising towards 0.5 at the top
    out = tune_bound(values, values[-1], 0.5, "cp.german")
    assert out["at_bound"] == "highest"
    assert "cp.german=3" in out["bound_note"] and "1-3" in out["bound_note"] and "not reached" in out["bound_note"]


def test_tune_at_the_bottom_of_its_search_says_so():
    from simulator.engine.core.balance import tune_bound
    values = rows([(4, 0.70), (5, 0.80), (6, 0.90)])
    assert tune_bound(values, values[0], 0.5, "turns")["at_bound"] == "lowest"


def test_tune_inside_its_search_or_on_target_says_nothing():
    from simulator.engine.core.balance import tune_bound
    values = rows([(1, 0.30), (2, 0.49), (3, 0.70)])
    assert tune_bound(values, values[1], 0.5, "turns") == {"at_bound": None, "bound_note": None}
    hit = rows([(1, 0.50), (2, 0.60), (3, 0.70)])           # the end value hits the target
    assert tune_bound(hit, hit[0], 0.5, "turns")["at_bound"] is None


def test_the_terminal_report_prints_the_tuning_warning():
    from reports.scenario_text import report_table
    from simulator.engine.core.answers import BalanceReport
    from simulator.engine.core.balance import tune_bound
    values = rows([(1, 0.10), (2, 0.20), (3, 0.30)])
    report = fake_report(tune={"key": "cp.german", "target": 0.5, "side": "german", "values": values,
                               "best": values[-1], **tune_bound(values, values[-1], 0.5, "cp.german")})
    text = report_table(BalanceReport.of(report))
    assert "warning: the best value, cp.german=3, is the highest searched" in text


def fake_report(**extra) -> dict:
    win = {"p": 0.5, "ci95": [0.4, 0.6]}
    return {"data": {"name": "Test", "data": {"dice": "d", "aid": "a"}, "units_status": "u", "map_source": "m"},
            "scenario": "test", "edition": "v1", "games": 100, "seed": 1, "sides": ["german", "soviet"],
            "players": {"german": "greedy", "soviet": "greedy"}, "win_rate": {"german": win, "soviet": win},
            "draw_rate": 0.0, "verdict": {"text": "balanced", "test": "t"}, "first_player_win_rate": 0.5,
            "first_player_effect": {"german": {}, "soviet": {}}, "mean_turns": 5.0, "decided_early_rate": 0.1,
            "decided_last_turn_rate": 0.2, "closeness": {"objective_margin_at_most_1": 0.3,
                                                         "mean_relative_points_margin": 0.1},
            "mean_losses": {"german": {}, "soviet": {}}, "formations": [], **extra}


def test_first_player_lines_say_when_there_is_no_difference_to_estimate():
    # a side that always has the initiative in turn 1: its effect cannot be estimated, and
    # the report says so instead of a heading with nothing under it; the first player's
    # win rate carries its interval
    from reports.scenario_text import report_table
    from simulator.engine.core.answers import BalanceReport
    fp = {"german": {"games_first": 100, "games_second": 0, "difference": None},
          "soviet": {"games_first": 0, "games_second": 100, "difference": None}, "same_for_both": False}
    text = report_table(BalanceReport.of(fake_report(first_player_effect=fp, first_player_win_rate_ci95=[0.4, 0.6])))
    assert "german: first in 100 games, second in 0: no difference to estimate" in text
    assert "soviet: first in 0 games, second in 100: no difference to estimate" in text
    assert "wins 50.00% of games [40.00%, 60.00%]" in text


def test_the_terminal_report_says_a_tuning_step_and_marks_grid_cells_in_the_band():
    """Issue 43, item 5: a jump across the target between two values is said, and the grid's
    cells within 50% +- margin carry a #."""
    from reports.scenario_text import report_table
    from simulator.engine.core.answers import BalanceReport
    from simulator.engine.core.balance import tune_step
    values = rows([(1, 0.20), (2, 0.95)])
    step = tune_step(values, 0.5, "vp.bridge")
    cell = {"key1": "turns", "key2": "cp.german", "games": 100, "share_lo": 0.4, "share_hi": 0.6,
            "win_rate_change": 0.02, "change_lo": -0.01, "change_hi": 0.05}
    grid = {"keys": ["turns", "cp.german"], "side": "german", "margin": 0.05,
            "cells": [{**cell, "value1": 4, "value2": 2, "share": 0.52, "inside_margin": True},
                      {**cell, "value1": 4, "value2": 3, "share": 0.70, "inside_margin": False}]}
    report = fake_report(tune={"key": "vp.bridge", "target": 0.5, "side": "german", "values": values,
                               "best": values[0], "at_bound": None, "bound_note": None, "step": step}, grid=grid)
    text = report_table(BalanceReport.of(report))
    assert "step: the target 50% lies between vp.bridge=1 (20%) and vp.bridge=2 (95%)" in text
    assert "warning" not in text.split("tuning vp.bridge")[1]          # no value beyond the search suggested
    assert "turns=4, cp.german=2: 52.0% [40.0%, 60.0%], change +2.00 [-1.00, +5.00] #" in text
    assert "turns=4, cp.german=3: 70.0%" in text and "cp.german=3: 70.0% [40.0%, 60.0%], change +2.00 [-1.00, +5.00]\n" in text


def test_the_terminal_report_reads_the_typed_fields_of_the_balance_report():
    """Issue 42, item 4: the run, win rates, draws and verdict lines come from
    BalanceReport's fields and typed sections, never its JSON: a report whose
    fields say otherwise than its JSON prints the fields."""
    import dataclasses

    from reports.scenario_text import report_table
    from simulator.engine.core.answers import BalanceReport, Rate
    report = BalanceReport.of(fake_report(verdict={"status": "balanced", "text": "balanced within", "test": "t",
                                                   "margin": 0.05}))
    text = report_table(report)
    # fake_report: both sides 50% [40%, 60%], no draws, 100 games from seed 1
    assert "german wins  50.00%  [40.00%, 60.00%]" in text and "draws        0.00%" in text
    assert "verdict (balanced, margin ±5 points): balanced within" in text and "(test: t)" in text
    changed = dataclasses.replace(report, draw_rate=0.25, games=400, win_rate={**report.win_rate,
                                  "german": Rate(0.375, (0.3, 0.45))}, verdict_margin=0.03)
    text = report_table(changed)
    assert "400 games, seed 1" in text and "draws       25.00%" in text
    assert "german wins  37.50%  [30.00%, 45.00%]" in text
    assert "verdict (balanced, margin ±3 points)" in text
