"""A target's end states as a table (eliminated, damage, fallback, suppressed,
immobilised, with their probabilities) and the headline figures read from it: what
ranged fire (chapter 10) and a vehicle entering terrain (9.10) both answer with."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.games.assault.rules.damage import unpack_state
from simulator.run.intervals import add_interval_columns, listed_outcomes, summary_intervals
from simulator.run.stats import proportion_se

STATE_COLUMNS = ["eliminated", "damage", "half_strength", "suppressed", "fallback", "immobilised"]


def state_frame(dist: np.ndarray, strength: int, half_at: int, trials: int | None,
                possible: np.ndarray | None = None) -> pd.DataFrame:
    """One row per state of the target: the non-zero ones, and by Monte Carlo every
    ``possible`` one besides (the exact support: :func:`~simulator.run.intervals.listed_outcomes`)."""
    rows = [{**unpack_state(i, strength, half_at), "p": float(dist[i])} for i in listed_outcomes(dist, possible)[0]]
    frame = pd.DataFrame(rows, columns=STATE_COLUMNS + ["p"])
    if trials is not None:
        frame["se"] = proportion_se(frame["p"].to_numpy(), trials)
        add_interval_columns(frame, trials)
    return frame.sort_values(["eliminated", "damage", "fallback", "suppressed", "immobilised"],
                             ascending=[False, False, False, False, False], ignore_index=True)


def summarise_states(frame: pd.DataFrame, damage_before: int, trials: int | None) -> dict:
    p = frame["p"].to_numpy()
    elim = frame["eliminated"].to_numpy(bool)
    worse = elim | frame["suppressed"].to_numpy(bool) | frame["fallback"].to_numpy(bool)
    dmg = frame["damage"].to_numpy() - damage_before
    summary = {"p_eliminated": float(p[elim].sum()), "p_suppressed_fallback_or_eliminated": float(p[worse].sum()),
               "p_fallback": float(p[frame["fallback"].to_numpy(bool)].sum()),
               "p_immobilised": float(p[frame["immobilised"].to_numpy(bool)].sum()),
               "mean_damage": float((dmg * p).sum())}
    if trials is not None:
        mean = summary["mean_damage"]
        summary["se"] = {k: float(proportion_se(v, trials)) for k, v in summary.items() if k.startswith("p_")}
        summary["se"]["mean_damage"] = float(np.sqrt(((dmg - mean) ** 2 * p).sum() / trials))
        summary["ci95"] = summary_intervals(summary, trials)
    return summary
