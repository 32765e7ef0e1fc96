"""Charts: each is a real picture (size, drawn pixels, the series' colours), titled with
its question, with labelled axes and the provenance footer."""

import numpy as np
import pandas as pd
import pytest
from report_helpers import check_chart_png, colour_share, pixels, sample_provenance

from reports import charts
from reports.tables import ladder
from simulator.run.errors import InputError

PROV = sample_provenance()


def check_chart(chart, size=None, colours=()):
    """Size, pixels, title, axis labels, footer; each colour in ``colours`` is drawn."""
    if size is not None:
        assert (chart.width, chart.height) == (int(size[0] * charts.DPI), int(size[1] * charts.DPI))
    img = check_chart_png(chart.png, chart.width, chart.height)
    assert chart.title.endswith("?") or "accumulate" in chart.title
    assert chart.axis_labels and all(x or y for x, y in chart.axis_labels)
    assert any(x for x, _ in chart.axis_labels) and any(y for _, y in chart.axis_labels)
    for needle in ("dice: assault-default, reconstructed", "#abc123def456", "5,000 trials, seed 7",
                   "lanchester 9.9.9", "$ lanchester test --out x"):
        assert needle in chart.footer
    for c in colours:
        assert colour_share(img, c) > 0.001, f"colour {c} not drawn"
    return img


def games_frame(n=400, seed=3):
    rng = np.random.default_rng(seed)
    winner = rng.choice(["german", "soviet", "draw"], size=n, p=[0.55, 0.40, 0.05])
    return pd.DataFrame({"game": np.arange(1, n + 1), "winner": winner,
                         "decided_turn": rng.integers(3, 9, size=n)})


def test_outcome_chart_bars_and_at_least_curve_for_two_series():
    pmf = np.array([0.5, 0.3, 0.15, 0.05])
    steps = pd.concat([ladder(pmf, series="exact"), ladder(pmf + [0.01, -0.01, 0, 0], series="Monte Carlo",
                                                           trials=10_000)], ignore_index=True)
    chart = charts.outcome_chart(steps, name="damage", question="How much damage?", xlabel="damage",
                                 prov=PROV)
    check_chart(chart, size=(9.0, 5.6), colours=(charts.COLOURS[0], charts.COLOURS[1]))
    assert chart.axis_labels[0] == ("damage", "probability")
    assert "at least 1: 50.0%" in chart.alt and "at least 3: 5.0%" in chart.alt


def test_state_chart_and_empty_pixels_differ():
    states = pd.DataFrame({"series": "exact", "state": ["0 damage", "1 damage", "eliminated"],
                           "p": [0.6, 0.3, 0.1], "se": np.nan})
    chart = charts.state_chart(states, name="states", question="In what state?", prov=PROV)
    img = check_chart(chart, colours=(charts.COLOURS[0],))
    # the longest bar (60%) is longer than the shortest (10%): more blue on its row
    blue = (np.abs(img - np.array([0x1f, 0x77, 0xb4]) / 255).max(axis=2) < 0.06)
    rows = blue.sum(axis=1)
    assert rows.max() > 3 * rows[rows > 0].min()


def test_close_combat_chart_shows_both_editions_side_by_side():
    frame = pd.DataFrame({
        "edition": ["1.0"] * 3 + ["revised"] * 3,
        "end_state": ["attacker wins", "defender holds", "both eliminated"] * 2,
        "p": [0.5, 0.4, 0.1, 0.35, 0.6, 0.05], "se": [0.01] * 6})
    chart = charts.close_combat_chart(frame, question="How does the close combat end, by edition?", prov=PROV)
    img = check_chart(chart, colours=(charts.COLOURS[0], charts.COLOURS[1]))
    # both editions drawn with about the same total bar area as their probabilities
    a, b = colour_share(img, charts.COLOURS[0]), colour_share(img, charts.COLOURS[1])
    assert 0.5 < a / b < 2.0


def test_close_combat_chart_names_a_missing_column():
    from simulator.games.assault.report.bundles import close_combat_report
    with pytest.raises(InputError, match="end_state"):
        close_combat_report(pd.DataFrame({"edition": ["1.0"], "p": [1.0]}), question="?", provenance=PROV)


def test_scenario_charts_from_a_small_games_table():
    games = games_frame()
    for fn in (charts.win_rate_chart, charts.convergence_chart, charts.decision_turn_chart):
        check_chart(fn(games, question="Who wins the scenario?", prov=PROV), colours=(charts.COLOURS[0],))


def test_losses_and_what_if_charts():
    losses = pd.DataFrame({"side": ["german", "german", "soviet", "soviet"],
                           "unit_type": ["infantry", "vehicle", "infantry", "vehicle"],
                           "mean_lost": [3.2, 1.1, 4.5, 0.7], "se": [0.1, 0.05, 0.12, 0.04]})
    check_chart(charts.losses_chart(losses, question="What does each side lose?", prov=PROV),
                colours=(charts.COLOURS[0], charts.COLOURS[1]))
    variants = pd.DataFrame({"variant": ["baseline", "more tanks", "no forest"], "side": "german",
                             "wins": [550, 640, 480], "games": [1000, 1000, 1000]})
    chart = charts.what_if_chart(variants, question="Which variants help?", prov=PROV)
    check_chart(chart, colours=(charts.COLOURS[0],))
    assert "more tanks: 64.0%" in chart.alt


def test_matrix_heatmap_marks_cells_that_cannot_fire():
    rows = []
    for f in ("a/x", "a/y"):
        for t in ("b/u", "b/v", "b/w"):
            for r in (1, 2):
                cannot = f == "a/y" and r == 2
                rows.append({"firer": f, "target": t, "range": r, "terrain": "clear",
                             "p_eliminated": np.nan if cannot else 0.1 * r + 0.05 * len(t)})
    chart = charts.matrix_heatmap(pd.DataFrame(rows), metric="p_eliminated", terrain="clear",
                                  question="How likely is each firer to eliminate each target?", prov=PROV,
                                  name="matrix-clear")
    check_chart(chart, colours=(charts.CANNOT_FIRE,))
    assert chart.axis_labels[0] == ("target", "firer")


def test_unit_range_and_firepower_charts():
    from simulator.games.assault.questions.units import unit_cards
    cards = unit_cards().cards
    check_chart(charts.unit_range_chart(cards, question="How many attack dice at each range?", prov=PROV),
                colours=(charts.CANNOT_FIRE,))
    roster = pd.DataFrame({"id": ["regular", "mg"], "inf_fpr": ["1", "3*"], "veh_fpr": ["1", "2"]})
    chart = charts.firepower_chart(roster, question="How much firepower?", prov=PROV)
    check_chart(chart, colours=(charts.COLOURS[0], charts.COLOURS[1]))
    assert "mg: 3/2" in chart.alt


def test_chart_png_is_deterministic():
    steps = ladder([0.25, 0.5, 0.25], series="exact")
    one = charts.outcome_chart(steps, name="d", question="Q?", xlabel="x", prov=PROV)
    two = charts.outcome_chart(steps, name="d", question="Q?", xlabel="x", prov=PROV)
    assert np.array_equal(pixels(one.png), pixels(two.png))


def test_grid_heatmap_outlines_the_cells_inside_the_band():
    """--grid (issue 43): the share of each cell, annotated; cells within 50% +- margin outlined."""
    cells = pd.DataFrame({"key1": "turns", "value1": [4, 4, 5, 5], "key2": "cp.german", "value2": [2, 3, 2, 3],
                          "games": 100, "share": [0.30, 0.48, 0.53, 0.80], "share_lo": [0.2, 0.38, 0.43, 0.7],
                          "share_hi": [0.4, 0.58, 0.63, 0.88], "win_rate_change": 0.0, "change_lo": -0.01,
                          "change_hi": 0.01})
    chart = charts.grid_heatmap(cells, question="german's share of decisive games: which make it even?",
                                prov=PROV, side="german", margin=0.05)
    check_chart(chart)
    # 48% and 53% lie within 45-55%; 30% and 80% do not
    assert "2 x 2 values; 2 cell(s) within the balance band" in chart.alt
    assert chart.axis_labels[0] == ("cp.german", "turns")
