"""Tidy tables with stable columns: what a report's CSV files hold.

Every list ``*_COLUMNS`` below is a contract, documented in ``docs/report-columns.md``
and asserted by ``tests/reports``: a column is added at the end, never renamed or
reordered. Probabilities are plain fractions (0.25, not 25%); ``se`` columns are
standard errors and are empty for exact answers.

The ``*_INPUT_COLUMNS`` lists are what the close-combat and scenario commands hand
to :mod:`reports.charts`; the functions here derive the tables the charts draw.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from simulator.run.errors import InputError
from simulator.run.stats import at_least, proportion_se, wilson_interval

# --- odds and fire ------------------------------------------------------------------
LADDER_COLUMNS = ["series", "level", "outcome", "p_exactly", "p_at_least", "se_exactly", "se_at_least"]
ODDS_OUTCOME_COLUMNS = ["series", "crit", "hit", "supp", "p", "se", "lo", "hi"]
FIRE_STATE_COLUMNS = ["series", "state", "eliminated", "damage", "half_strength", "suppressed",
                      "fallback", "immobilised", "p", "se", "lo", "hi"]
SMOKE_PLACEMENT_COLUMNS = ["hex1", "hex2", "hex3", "p", "se", "lo", "hi"]    # assault smoke: markers per hex (7.5)
RESOLVE_SYMBOL_COLUMNS = ["roll", "crit", "hit", "supp"]         # assault resolve: one given roll

# --- close combat ---------------------------------------------------------------------
CLOSE_COMBAT_COLUMNS = ["edition", "end_state", "p", "se", "lo", "hi"]   # input and table (se, lo, hi optional)

# --- scenarios ------------------------------------------------------------------------
GAMES_INPUT_COLUMNS = ["game", "winner", "decided_turn"]            # one row per game
LOSSES_COLUMNS = ["side", "unit_type", "mean_lost", "se"]           # input and table (se optional)
VARIANT_INPUT_COLUMNS = ["variant", "side", "wins", "games"]
WIN_RATE_COLUMNS = ["side", "wins", "games", "p", "lo", "hi"]
CONVERGENCE_COLUMNS = ["side", "games", "wins", "p", "lo", "hi"]
DECISION_TURN_COLUMNS = ["decided_turn", "winner", "games", "share", "decided"]
BY_DEFAULT = "won by default at the end"    # decision-turns: the scenario's if_neither side, not a decision
OBJECTIVE_CONTROL_COLUMNS = ["turn", "objective", "side", "games", "of_games", "share", "lo", "hi"]
HEX_HEAT_COLUMNS = ["hex", "side", "kind", "count", "per_game"]
REASON_COLUMNS = ["reason", "games", "share", "winner"]     # how the games end, by winner (one row each)
VARIANT_COLUMNS = ["variant", "side", "wins", "games", "p", "lo", "hi", "baseline"]
GRID_COLUMNS = ["key1", "value1", "key2", "value2", "games", "share", "share_lo", "share_hi",
                "win_rate_change", "change_lo", "change_hi"]   # grid.csv: one --grid cell a row
WHAT_IF_CHANGE_COLUMNS = ["variant", "side", "p", "other_p", "draw_rate", "change", "change_lo", "change_hi",
                          "significant", "other_change", "other_change_lo", "other_change_hi", "draw_change",
                          "draw_change_lo", "draw_change_hi", "better", "worse", "p_value", "p_holm", "family_size"]
SIDE_ACTIVITY_COLUMNS = ["side", "measure", "per_game"]            # scenario: activity per game, by side
SKILL_CURVE_COLUMNS = ["level", "side", "p", "lo", "hi", "games"]   # scenario --skill-curve
RESTRICTED_COLUMNS = ["variant", "side", "p", "base_p", "change", "change_lo", "change_hi", "significant",
                      "better", "worse", "p_value", "p_holm", "family_size"]     # scenario --restrict
TURN_ACTIVITY_COLUMNS = ["turn", "side", "measure", "count"]       # replay: one game, turn by turn
EDITION_DIFFERENCE_COLUMNS = ["part", "measure", "v1", "v2", "difference"]   # melee --compare-editions
SKILL_CONVERGENCE_COLUMNS = ["side", "levels", "difference", "lo", "hi", "status", "margin"]   # --skill-curve
DIFFERING_RULE_COLUMNS = ["rule", "sections", "v1", "v2"]
DRAW = "draw"
TRUNCATED = "truncated"     # a game cut short at the decision limit: no winner, not a draw

# --- Tide of Iron -----------------------------------------------------------------------
TOI_STATE_COLUMNS = ["series", "state", "p", "se", "lo", "hi"]
TOI_ASSAULT_OUTCOME_COLUMNS = ["attacker_hits", "defender_hits", "p", "se", "lo", "hi"]
TOI_REPLAY_COLUMNS = ["attacker_hits", "defender_hits", "success"]
TOI_UNITS_COLUMNS = ["id", "kind", "name", "inf_range", "inf_fpr", "veh_range", "veh_fpr",
                     "movement", "armour", "traits"]


def require(frame: pd.DataFrame, columns: Iterable[str], where: str,
            optional: Iterable[str] = ("se",)) -> None:
    """Raise InputError when ``frame`` lacks a required column."""
    missing = [c for c in columns if c not in frame.columns and c not in set(optional)]
    if missing:
        raise InputError(where, "", f"missing column(s) {', '.join(missing)} "
                         f"(expected {', '.join(columns)}; see docs/report-columns.md)")


def tidy(frame: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """``frame`` with exactly ``columns``, in order; absent ones (``se``) are empty."""
    out = frame.copy()
    for c in columns:
        if c not in out.columns:
            out[c] = np.nan
    return out[list(columns)].reset_index(drop=True)


def series_label(attrs: dict) -> str:
    """``exact`` or ``Monte Carlo``: how a result was computed (``attrs``: a dict with
    its ``method``, as an answer's JSON or ``Method.to_json()`` has it)."""
    return "Monte Carlo" if attrs.get("method") == "monte-carlo" else "exact"


def ladder(pmf: Sequence[float], *, series: str, labels: Sequence[str] | None = None,
           trials: int | None = None) -> pd.DataFrame:
    """The "at least" table of a distribution over levels 0..n (damage, hits)."""
    dist = np.asarray(pmf, dtype=float)
    levels = np.arange(len(dist))
    up = at_least(dist)
    return pd.DataFrame({
        "series": series, "level": levels,
        "outcome": list(labels) if labels is not None else [str(k) for k in levels],
        "p_exactly": dist, "p_at_least": up,
        "se_exactly": proportion_se(dist, trials) if trials else np.nan,
        "se_at_least": proportion_se(up, trials) if trials else np.nan,
    }, columns=LADDER_COLUMNS)


# --- derived scenario tables ----------------------------------------------------------

def outcomes_of(games: pd.DataFrame, sides: Sequence[str] | None = None) -> list[str]:
    """The sides (in the order given, else of first win), ``draw`` if any game was drawn and
    ``truncated`` if any was cut short."""
    require(games, GAMES_INPUT_COLUMNS, "games table", optional=())
    seen = list(dict.fromkeys(games["winner"].astype(str)))
    ends = (DRAW, TRUNCATED)
    names = list(sides) if sides else [w for w in seen if w not in ends]
    names += [w for w in seen if w not in names and w not in ends]
    return names + [e for e in ends if e in seen]


def win_rate_table(games: pd.DataFrame, sides: Sequence[str] | None = None) -> pd.DataFrame:
    """Each side's wins (and draws) over all games, with the 95% Wilson interval."""
    n = len(games)
    rows = []
    for side in outcomes_of(games, sides):
        wins = int((games["winner"].astype(str) == side).sum())
        lo, hi = wilson_interval(wins, n)
        rows.append({"side": side, "wins": wins, "games": n, "p": wins / n if n else np.nan,
                     "lo": lo, "hi": hi})
    return pd.DataFrame(rows, columns=WIN_RATE_COLUMNS)


def convergence_table(games: pd.DataFrame, sides: Sequence[str] | None = None,
                      points: int = 200) -> pd.DataFrame:
    """Running win rate and 95% interval after 1, 2, ... n games (log-spaced checkpoints)."""
    ordered = games.sort_values("game", kind="stable")["winner"].astype(str).to_numpy()
    n = len(ordered)
    checkpoints = np.unique(np.geomspace(1, max(n, 1), num=min(points, max(n, 1))).round().astype(int))
    rows = []
    for side in outcomes_of(games, sides):
        cum = np.cumsum(ordered == side)
        for k in checkpoints:
            wins = int(cum[k - 1])
            lo, hi = wilson_interval(wins, int(k))
            rows.append({"side": side, "games": int(k), "wins": wins, "p": wins / k, "lo": lo, "hi": hi})
    return pd.DataFrame(rows, columns=CONVERGENCE_COLUMNS)


def decision_turn_table(games: pd.DataFrame, turn: str = "turn") -> pd.DataFrame:
    """Games decided in each turn, by winner, with their share of all games. A game won
    by default (the games table's optional ``by_default``: neither side met its
    conditions, the scenario names a winner for that) was decided in no turn: its rows
    have no ``decided_turn`` and ``decided`` :data:`BY_DEFAULT`, after the turns';
    ``decided`` is ``turn N`` otherwise (``turn``: the game's word)."""
    require(games, GAMES_INPUT_COLUMNS, "games table", optional=())
    n = len(games)
    default = games["by_default"].to_numpy(bool) if "by_default" in games else np.zeros(n, bool)
    played = games[~default].assign(winner=games["winner"].astype(str))
    counts = played.groupby(["decided_turn", "winner"], sort=True).size().rename("games").reset_index()
    counts["decided_turn"] = counts["decided_turn"].astype("Int64")
    counts["decided"] = [f"{turn} {int(t)}" for t in counts["decided_turn"]]
    if default.any():
        ends = games[default].assign(winner=games["winner"].astype(str)).groupby("winner", sort=True).size()
        counts = pd.concat([counts, pd.DataFrame({"decided_turn": pd.array([pd.NA] * len(ends), dtype="Int64"),
                                                  "winner": ends.index.astype(str), "games": ends.to_numpy(int),
                                                  "decided": BY_DEFAULT})], ignore_index=True)
    counts["share"] = counts["games"] / n
    return counts[DECISION_TURN_COLUMNS]


def objective_control_table(control: pd.DataFrame) -> pd.DataFrame:
    """``turn, objective, side, games, of_games`` (games in which the side held the
    objective at that turn's end, of all games) -> with its ``share`` and 95% Wilson
    interval (``OBJECTIVE_CONTROL_COLUMNS``)."""
    out = control.copy()
    n = out["of_games"].to_numpy(int)
    out["share"] = np.where(n > 0, out["games"] / np.maximum(n, 1), np.nan)
    bounds = [wilson_interval(int(k), int(m)) for k, m in zip(out["games"], n, strict=True)]
    out["lo"] = [b[0] for b in bounds]
    out["hi"] = [b[1] for b in bounds]
    return out[OBJECTIVE_CONTROL_COLUMNS]


def hex_heat_table(heat: pd.DataFrame) -> pd.DataFrame:
    """``hex, side, kind, count, of_games`` -> with the rate per game (``HEX_HEAT_COLUMNS``)."""
    out = heat.copy()
    n = out["of_games"].to_numpy(int)
    out["per_game"] = np.where(n > 0, out["count"] / np.maximum(n, 1), np.nan)
    return out[HEX_HEAT_COLUMNS]


def variant_table(variants: pd.DataFrame, side: str | None = None) -> pd.DataFrame:
    """One side's win rate under each variant, Wilson interval, and which row is the baseline
    (the variant named ``baseline``, else the first)."""
    require(variants, VARIANT_INPUT_COLUMNS, "variants table", optional=())
    side = side or str(variants["side"].iloc[0])
    part = variants[variants["side"].astype(str) == side]
    if part.empty:
        raise InputError("variants table", "side", f"no rows for side {side!r}")
    names = part["variant"].astype(str).tolist()
    base = "baseline" if "baseline" in names else names[0]
    rows = []
    for r in part.to_dict("records"):
        wins, n = int(r["wins"]), int(r["games"])
        lo, hi = wilson_interval(wins, n)
        rows.append({"variant": str(r["variant"]), "side": side, "wins": wins, "games": n,
                     "p": wins / n if n else np.nan, "lo": lo, "hi": hi,
                     "baseline": str(r["variant"]) == base})
    return pd.DataFrame(rows, columns=VARIANT_COLUMNS)


# What each column means, shown under each table of index.html (docs/report-columns.md
# says the same, with the tables each column belongs to).
COLUMN_HELP = {
    "series": "which answer the row belongs to: exact, Monte Carlo, or the part of the question "
              "(attacker's hits, defender's hits; a target)",
    "level": "the number of damage points (or hits): 0, 1, 2, ...",
    "outcome": "the level as a label; for fire the top level is 'eliminated'",
    "p_exactly": "probability of exactly this level",
    "p_at_least": "probability of this level or more",
    "se_exactly": "standard error of p_exactly (Monte Carlo only)",
    "se_at_least": "standard error of p_at_least (Monte Carlo only)",
    "crit": "uncancelled critical-hit symbols (10.7.2)",
    "hit": "uncancelled hit symbols (10.7.2)",
    "supp": "uncancelled suppression symbols (10.7.2)",
    "p": "probability (or win rate)",
    "se": "standard error (Monte Carlo only)",
    "state": "the target's state afterwards, in words",
    "eliminated": "the target is eliminated",
    "damage": "the target's damage points afterwards (its strength when eliminated)",
    "half_strength": "the counter shows its half-strength side (4.3)",
    "suppressed": "the target carries a suppression marker (10.7.4)",
    "fallback": "the target carries a fallback marker",
    "immobilised": "the vehicle is immobilised (10.7.5)",
    "hex1": "smoke markers in the target hex (7.5, at most 4)",
    "hex2": "smoke markers in the second hex (7.5)",
    "hex3": "smoke markers in the third hex (7.5)",
    "roll": "which roll: attack, defence, uncancelled (10.7.2) or the critical-hit roll (10.7.5)",
    "edition": "which close-combat rules: the 1.0 chapter 12 or the revised chapter 12",
    "end_state": "how the close combat ended",
    "game": "the game's number in the order the games were played",
    "winner": "the side that won the game, or 'draw'",
    "decided_turn": "the turn in which the game was decided",
    "side": "a side of the scenario (or 'draw')",
    "wins": "games won",
    "games": "games played (for convergence: games played so far)",
    "lo": "lower end of the 95% interval of p (Wilson's; for a Monte Carlo probability exact at 10 or fewer)",
    "hi": "upper end of the 95% interval of p (for an outcome never seen: the largest chance it could have)",
    "share": "share of all games",
    "decided": "the row's category: 'turn N' (the turn in which the game was decided), or 'won by default at the "
               "end' (neither side met its conditions: the scenario's if_neither side won at the end)",
    "objective": "the scenario's objective (its name, else its hex)",
    "of_games": "all the games of the batch (the share's denominator)",
    "hex": "the hex, col,row",
    "unit_type": "the kind of unit lost",
    "mean_lost": "strength points of this unit type lost per game, on average",
    "variant": "the what-if variant of the scenario",
    "baseline": "the row every variant is compared with",
    "firer": "the unit that fires",
    "target": "the unit fired at",
    "range": "range in hexes (10.1)",
    "terrain": "terrain of the target's hex (10.9.1)",
    "target_facing": "area of impact on a vehicle target (10.9.3); empty for other targets",
    "can_fire": "whether the firer has attack dice against this target at this range",
    "reason": "matrix: why the firer cannot fire (out of range, no dice against this kind of target); reasons: "
              "how the game ended",
    "attack_pool": "the attack dice rolled",
    "defence_pool": "the defence dice rolled when the target is spotted",
    "p_spotted": "probability that the target is spotted (10.5)",
    "p_eliminated": "probability that the target is eliminated",
    "p_suppressed_fallback_or_eliminated": "probability that the target ends suppressed, fallen back or eliminated",
    "p_fallback": "probability that the target ends with a fallback marker",
    "p_immobilised": "probability that the vehicle ends immobilised",
    "mean_damage": "damage points dealt by this fire, on average",
    "attacker_hits": "hits scored by the assaulting side",
    "defender_hits": "hits scored by the defending side",
    "success": "whether the assault succeeded",
    "id": "the unit's id in the data files",
    "kind": "rosters: figure, or the vehicle's weight and nation; hex-heat: what happened there (units lost, "
            "shots received, the side's attacks into the hex)",
    "name": "the unit's name",
    "inf_range": "range vs infantry, in hexes (* reconstructed)",
    "inf_fpr": "firepower vs infantry (* reconstructed)",
    "veh_range": "range vs vehicles, in hexes (* reconstructed)",
    "veh_fpr": "firepower vs vehicles (* reconstructed)",
    "movement": "movement points (Tide of Iron: * marks a reconstructed value)",
    "armour": "armour value (* marks a reconstructed value)",
    "traits": "special abilities",
    "other_p": "the other side's win rate under the variant",
    "base_p": "the side's win rate without the restriction (the main run)",
    "draw_rate": "share of games drawn",
    "change": "change of the side's win rate against the baseline (paired games, same seeds)",
    "change_lo": "lower end of the 95% interval of the change (paired games, Tango's score interval)",
    "change_hi": "upper end of the 95% interval of the change (paired games, Tango's score interval)",
    "other_change": "change of the other side's win rate against the baseline (paired games)",
    "other_change_lo": "lower end of the 95% interval of the other side's change",
    "other_change_hi": "upper end of the 95% interval of the other side's change",
    "draw_change": "change of the draw rate against the baseline (paired games)",
    "draw_change_lo": "lower end of the 95% interval of the draw rate's change",
    "draw_change_hi": "upper end of the 95% interval of the draw rate's change",
    "better": "games whose result for the side improved (loss to draw or win, draw to win)",
    "worse": "games whose result for the side got worse",
    "p_value": "exact two-sided sign test (McNemar) of the games that changed",
    "p_holm": "the p-value Holm-adjusted over the family (every variant, or every restriction, of the run)",
    "family_size": "how many variants or restrictions were tested together",
    "significant": "whether the Holm-adjusted p-value is at most 0.05",
    "measure": "what was counted, per side (the game's measures, named in the table's note)",
    "per_game": "count per game, on average",
    "turn": "the turn of the game",
    "count": "how many in that turn",
    "part": "the whole fight, or its first round alone",
    "v1": "under the first edition (rule book 1.0, chapter 12)",
    "v2": "under the revised chapter 12",
    "difference": "v2 minus v1",
    "rule": "a rule that differs between the editions and applies to this fight",
    "sections": "the rule sections of each edition",
}
