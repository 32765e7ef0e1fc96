"""Tables: the documented columns are the columns, and the derived numbers are right."""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from reports import tables
from simulator.games.assault.questions.matrix import MATRIX_COLUMNS
from simulator.run.stats import wilson_interval

DOC = (Path(__file__).resolve().parents[2] / "docs" / "report-columns.md").read_text()

# The contract, spelled out: changing a list here is changing the files designers rely on.
STABLE = {
    "LADDER_COLUMNS": ["series", "level", "outcome", "p_exactly", "p_at_least", "se_exactly", "se_at_least"],
    "ODDS_OUTCOME_COLUMNS": ["series", "crit", "hit", "supp", "p", "se", "lo", "hi"],
    "FIRE_STATE_COLUMNS": ["series", "state", "eliminated", "damage", "half_strength", "suppressed",
                           "fallback", "immobilised", "p", "se", "lo", "hi"],
    "CLOSE_COMBAT_COLUMNS": ["edition", "end_state", "p", "se", "lo", "hi"],
    "GAMES_INPUT_COLUMNS": ["game", "winner", "decided_turn"],
    "LOSSES_COLUMNS": ["side", "unit_type", "mean_lost", "se"],
    "VARIANT_INPUT_COLUMNS": ["variant", "side", "wins", "games"],
    "WIN_RATE_COLUMNS": ["side", "wins", "games", "p", "lo", "hi"],
    "CONVERGENCE_COLUMNS": ["side", "games", "wins", "p", "lo", "hi"],
    "DECISION_TURN_COLUMNS": ["decided_turn", "winner", "games", "share", "decided"],
    "OBJECTIVE_CONTROL_COLUMNS": ["turn", "objective", "side", "games", "of_games", "share", "lo", "hi"],
    "HEX_HEAT_COLUMNS": ["hex", "side", "kind", "count", "per_game"],
    "REASON_COLUMNS": ["reason", "games", "share", "winner"],
    "VARIANT_COLUMNS": ["variant", "side", "wins", "games", "p", "lo", "hi", "baseline"],
    "TOI_STATE_COLUMNS": ["series", "state", "p", "se", "lo", "hi"],
    "TOI_ASSAULT_OUTCOME_COLUMNS": ["attacker_hits", "defender_hits", "p", "se", "lo", "hi"],
    "TOI_REPLAY_COLUMNS": ["attacker_hits", "defender_hits", "success"],
    "TOI_UNITS_COLUMNS": ["id", "kind", "name", "inf_range", "inf_fpr", "veh_range", "veh_fpr", "movement",
                          "armour", "traits"],
    "WHAT_IF_CHANGE_COLUMNS": ["variant", "side", "p", "other_p", "draw_rate", "change", "change_lo", "change_hi",
                               "significant", "other_change", "other_change_lo", "other_change_hi", "draw_change",
                               "draw_change_lo", "draw_change_hi", "better", "worse", "p_value", "p_holm",
                               "family_size"],
    "RESTRICTED_COLUMNS": ["variant", "side", "p", "base_p", "change", "change_lo", "change_hi", "significant",
                           "better", "worse", "p_value", "p_holm", "family_size"],
    "SIDE_ACTIVITY_COLUMNS": ["side", "measure", "per_game"],
    "TURN_ACTIVITY_COLUMNS": ["turn", "side", "measure", "count"],
    "EDITION_DIFFERENCE_COLUMNS": ["part", "measure", "v1", "v2", "difference"],
    "DIFFERING_RULE_COLUMNS": ["rule", "sections", "v1", "v2"],
}
MATRIX = ["firer", "target", "range", "terrain", "target_facing", "can_fire", "reason", "attack_pool",
          "defence_pool", "p_spotted", "p_eliminated", "p_suppressed_fallback_or_eliminated", "p_fallback",
          "p_immobilised", "mean_damage", "fire"]


@pytest.mark.parametrize("name", sorted(STABLE))
def test_column_lists_are_stable_and_documented(name):
    columns = getattr(tables, name)
    assert columns == STABLE[name]
    assert f"`{name}`" in DOC, f"{name} is not named in docs/report-columns.md"
    for c in columns:
        assert f"`{c}`" in DOC, f"column {c} of {name} is not documented"
        assert c in tables.COLUMN_HELP, f"column {c} has no help text for the HTML page"


def test_matrix_columns_are_stable_and_documented():
    assert MATRIX_COLUMNS == MATRIX
    section = DOC[DOC.index("## Matchup matrix"):DOC.index("## Rosters")]
    documented = re.findall(r"^\| `([a-z_]+)` \|", section, re.M)
    assert documented == MATRIX


def test_units_columns_documented():
    from simulator.games.assault.rules.cards import UNITS_COLUMNS
    section = DOC[DOC.index("## Rosters"):DOC.index("## Close combat")]
    assert all(f"`{c}`" in section for c in UNITS_COLUMNS)


def test_ladder_at_least_and_standard_errors():
    pmf = [0.5, 0.3, 0.2]
    exact = tables.ladder(pmf, series="exact", labels=["0", "1", "eliminated (2)"])
    assert exact["p_at_least"].tolist() == pytest.approx([1.0, 0.5, 0.2])
    assert exact["se_exactly"].isna().all()
    mc = tables.ladder(pmf, series="Monte Carlo", trials=100)
    assert mc["se_at_least"].tolist() == pytest.approx([0.0, 0.05, 0.04])   # sqrt(p(1-p)/100)
    assert list(mc.columns) == tables.LADDER_COLUMNS


def test_win_rates_intervals_convergence_and_turns():
    games = pd.DataFrame({"game": range(10), "winner": ["a"] * 6 + ["b"] * 3 + ["draw"],
                          "decided_turn": [2, 2, 3, 3, 3, 4, 4, 5, 5, 6]})
    rates = tables.win_rate_table(games, sides=["b", "a", "c"])
    assert rates["side"].tolist() == ["b", "a", "c", "draw"]   # sides given keep their order; c never won
    assert rates["wins"].tolist() == [3, 6, 0, 1]
    a = rates.set_index("side").loc["a"]
    assert (a["lo"], a["hi"]) == pytest.approx(wilson_interval(6, 10))
    conv = tables.convergence_table(games.sample(frac=1, random_state=1))   # shuffled rows: sorted by game
    last = conv[conv["games"] == 10].set_index("side")
    assert last.loc["a", "p"] == pytest.approx(0.6) and last.loc["draw", "wins"] == 1
    first = conv[conv["games"] == 1].set_index("side")
    assert first.loc["a", "wins"] == 1 and first.loc["b", "wins"] == 0
    turns = tables.decision_turn_table(games)
    assert turns["share"].sum() == pytest.approx(1.0)
    assert turns[(turns["decided_turn"] == 3) & (turns["winner"] == "a")]["games"].item() == 3


def test_variant_table_baseline_is_named_or_first():
    v = pd.DataFrame({"variant": ["x", "baseline", "y"], "side": "a", "wins": [10, 20, 30], "games": 100})
    t = tables.variant_table(v)
    assert t["baseline"].tolist() == [False, True, False]
    assert t["p"].tolist() == pytest.approx([0.1, 0.2, 0.3])
    t2 = tables.variant_table(v.assign(variant=["p", "q", "r"]))
    assert t2["baseline"].tolist() == [True, False, False]
    with pytest.raises(Exception, match="no rows for side"):
        tables.variant_table(v, side="zz")


def test_tidy_adds_missing_optional_columns_and_keeps_order():
    out = tables.tidy(pd.DataFrame({"p": [0.5], "edition": ["1.0"], "end_state": ["x"], "extra": [1]}),
                      tables.CLOSE_COMBAT_COLUMNS)
    assert list(out.columns) == tables.CLOSE_COMBAT_COLUMNS and np.isnan(out["se"].iloc[0])
