"""A learned position value's files in a report folder (issue 41 item 2): its held-out
calibration by decile as ``value-calibration.csv`` and ``value-calibration.png``, and
what was fitted as ``learned-value.json`` (features, data size, fit seed, held-out
scores). Written by ``lanchester assault|toi learn`` and by a scenario report whose
players used the learned value; the value itself is
:mod:`simulator.engine.players.learned`'s (passed in as plain data)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from reports.charts import value_calibration_chart
from reports.provenance import Provenance
from simulator.run.output import atomic_write_bytes, atomic_write_text, to_csv, to_json

COLUMNS = ["decile", "positions", "predicted", "observed", "low", "high"]
FILES = ("value-calibration.csv", "value-calibration.png", "learned-value.json")


def calibration_frame(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=COLUMNS)


def write_value_files(folder: str | Path, *, calibration: list[dict], value: dict, prov: Provenance,
                      side: str, scenario: str) -> list[Path]:
    """The three files of :data:`FILES` into ``folder`` (made if missing); their paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f for f in FILES]
    atomic_write_text(paths[0], to_csv(calibration_frame(calibration)), option=None)
    chart = value_calibration_chart(calibration, prov=prov, side=side,
                                    question=f"{scenario}: is the learned chance that {side} wins calibrated "
                                             "on games it was not fitted on?")
    atomic_write_bytes(paths[1], chart.png, option=None)
    atomic_write_text(paths[2], to_json(value), option=None)
    return paths


def add_learned_value(report: dict, game, folder: str | Path, prov: Provenance) -> None:
    """When ``game``'s players used the learned value (``game.learned_value``), the
    report's JSON names it (``learned_value``: features, data size, fit seed, held-out
    scores) and its calibration files go into the report ``folder``."""
    value = getattr(game, "learned_value", None)
    if value is None:
        return
    report["learned_value"] = value.describe()
    write_value_files(folder, calibration=value.calibration, value=value.to_json(), prov=prov,
                      side=game.sides[0], scenario=game.name)
