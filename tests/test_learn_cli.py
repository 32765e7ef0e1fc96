"""``lanchester assault learn`` and ``lanchester toi learn`` (issue 41 item 2): one shared
implementation (:mod:`simulator.cli_learn`) behind both games' commands: the fit printed
as a table or JSON, its calibration files written with ``--out``, and the cache used the
second time."""

from __future__ import annotations

import json

from click.testing import CliRunner

from simulator.cli import main

GAMES = 120          # a small fit: a few seconds of greedy games


def test_toi_learn_fits_writes_its_calibration_and_then_loads_the_cache(tmp_path):
    out = tmp_path / "value"
    first = CliRunner().invoke(main, ["toi", "learn", "two-farms", "--games", str(GAMES), "--seed", "3",
                                      "--workers", "1", "--refit", "--out", str(out)])
    assert first.exit_code == 0, first.output
    # the table: 120 games, of which a fifth (24, split by game) held out; ten deciles at most
    assert f"{GAMES:,} games (greedy, greedy)" in first.stdout and "seed 3" in first.stdout
    assert "held out: 24 games" in first.stdout
    assert "learned value" in first.stdout and "base rate" in first.stdout
    assert "loaded from the cache" not in first.output
    written = sorted(p.name for p in out.iterdir())
    assert {"value-calibration.csv", "value-calibration.png", "learned-value.json"} <= set(written)
    saved = json.loads((out / "learned-value.json").read_text())
    assert saved["data"]["games"] == GAMES and saved["data"]["test_games"] == 24
    deciles = (out / "value-calibration.csv").read_text().splitlines()
    assert deciles[0] == "decile,positions,predicted,observed,low,high" and 2 <= len(deciles) <= 11

    again = CliRunner().invoke(main, ["toi", "learn", "two-farms", "--games", str(GAMES), "--seed", "3", "--json"])
    assert again.exit_code == 0, again.output
    assert "lanchester: learned value loaded from the cache" in again.stderr
    value = json.loads(again.stdout)
    assert value["data"]["games"] == GAMES and value["settings"]["seed"] == 3
    assert value["settings"]["players"] == ["greedy", "greedy"]
    assert value["beta"] == saved["beta"] and value["key"] == saved["key"]     # the same fit, from the cache


def test_assault_learn_prints_the_fitted_value_as_json():
    res = CliRunner().invoke(main, ["assault", "learn", "infantry-training", "--games", str(GAMES), "--seed", "3",
                                    "--workers", "1", "--json"])
    assert res.exit_code == 0, res.output
    value = json.loads(res.stdout)
    assert value["data"]["games"] == GAMES and value["settings"]["seed"] == 3
    # the features the Assault game names, one coefficient each (and the intercept)
    assert len(value["beta"]) == len(value["features"]) + 1
    assert value["metrics"]["learned"]["log_loss"] < value["metrics"]["base_rate"]["log_loss"] + 0.05


def test_learn_refuses_an_unknown_scenario_in_one_line():
    res = CliRunner().invoke(main, ["toi", "learn", "no-such-scenario"])
    assert res.exit_code == 2
    assert "no-such-scenario" in res.output and "Traceback" not in res.output
