"""A learned value's files in a report folder (reports/value.py): the calibration CSV and
chart and the value's JSON, written only when the players used a learned value, and the
report's JSON naming it."""

from __future__ import annotations

import json
import types

import numpy as np
import pandas as pd

from reports.provenance import provenance
from reports.value import FILES, add_learned_value
from simulator.engine.players.learned import Learned


def _learned() -> Learned:
    rows = [{"decile": k + 1, "positions": 10, "predicted": 0.1 * k + 0.05, "observed": 0.1 * k,
             "low": max(0.0, 0.1 * k - 0.05), "high": 0.1 * k + 0.05} for k in range(10)]
    return Learned(("a_own", "a_enemy"), np.array([0.1, 1.0, -1.0]), np.array([0.1, 2.0, -2.0]),
                   np.zeros(2), np.full(2, 2.0), 1e-4,
                   {"games": 50, "seed": 41, "players": ["greedy", "greedy"]},
                   {"games": 50, "positions": 400, "train_games": 40, "test_games": 10, "test_positions": 100},
                   {"learned": {"brier": 0.1, "log_loss": 0.3}}, rows, {"fit": 0.1}, "k" * 64)


def test_a_report_of_learned_players_gets_the_value_and_its_calibration(tmp_path):
    game = types.SimpleNamespace(sides=("german", "soviet"), name="infantry-training", learned_value=_learned())
    report = {}
    add_learned_value(report, game, tmp_path, provenance([], [], method="monte-carlo", seed=41, trials=50,
                                                         unit="games"))
    assert report["learned_value"]["features"] == ["a_own", "a_enemy"]
    assert report["learned_value"]["games"] == 50 and report["learned_value"]["fit_seed"] == 41
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(FILES)
    table = pd.read_csv(tmp_path / "value-calibration.csv")
    assert list(table["decile"]) == list(range(1, 11)) and abs(table["observed"].iloc[3] - 0.3) < 1e-9
    assert (tmp_path / "value-calibration.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    saved = json.loads((tmp_path / "learned-value.json").read_text())
    assert saved["packed"] == [0.1, 1.0, -1.0] and saved["format"] == 1
    assert Learned.from_json(saved).names == ("a_own", "a_enemy")     # the JSON reads back, no pickle


def test_a_report_of_other_players_gets_none(tmp_path):
    report = {}
    add_learned_value(report, types.SimpleNamespace(sides=("a", "b"), name="x"), tmp_path,
                      provenance([], [], method="monte-carlo"))
    assert report == {} and not list(tmp_path.iterdir())
