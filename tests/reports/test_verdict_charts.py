"""The margin band of the balance verdict on the scenario charts (issue 39, item 6): the
win-rate chart adds the first side's share of the decisive games with the verdict's
interval and shades 50% ± margin; the running win-rate and skill-curve charts shade the
same band (its green pixels are there only when a margin is given)."""

from __future__ import annotations

import pandas as pd

from reports import charts
from tests.reports.report_helpers import colour_share, pixels, sample_provenance

BAND = "#2ca02c"     # charts.margin_band's colour, drawn at alpha 0.10 on white


def games_frame() -> pd.DataFrame:
    winners = ["german"] * 53 + ["soviet"] * 47        # german 53 of 100 decisive games
    return pd.DataFrame({"game": range(100), "winner": winners, "decided_turn": [3] * 100})


def band_share(png: bytes) -> float:
    # 10% of the band's green over white: (0.9 * 255 + 0.1 * 0x2c, ..., ...) = #eaf5ea
    return colour_share(pixels(png), "#eaf5ea", tol=0.02)


def test_the_win_rate_chart_shows_the_share_of_decisive_games_and_the_margin():
    verdict = {"status": "undecided", "margin": 0.05, "share_first_side": 0.53, "ci95": [0.433, 0.625]}
    with_band = charts.win_rate_chart(games_frame(), question="q", prov=sample_provenance(), sides=["german", "soviet"],
                                      verdict=verdict)
    plain = charts.win_rate_chart(games_frame(), question="q", prov=sample_provenance(), sides=["german", "soviet"])
    assert "german: share of decisive games: 53.0%" in with_band.alt
    assert "verdict undecided at margin ±5 points" in with_band.alt and "margin" not in plain.alt
    assert band_share(with_band.png) > 0.01 and band_share(plain.png) < 0.001


def test_the_running_and_skill_curve_charts_shade_the_margin():
    run = charts.convergence_chart(games_frame(), question="q", prov=sample_provenance(), sides=["german", "soviet"],
                                   margin=0.02)
    assert "balance margin 50% ± 2 points" in run.alt and band_share(run.png) > 0.005
    curve = pd.DataFrame({"level": ["greedy", "greedy", "mcts:64", "mcts:64"], "side": ["german", "soviet"] * 2,
                          "p": [0.5, 0.5, 0.52, 0.48], "lo": [0.45, 0.45, 0.47, 0.43], "hi": [0.55, 0.55, 0.57, 0.53],
                          "games": [200] * 4})
    banded = charts.skill_curve_chart(curve, question="q", prov=sample_provenance(), margin=0.05)
    bare = charts.skill_curve_chart(curve, question="q", prov=sample_provenance())
    assert band_share(banded.png) > 0.01 and band_share(bare.png) < 0.001
