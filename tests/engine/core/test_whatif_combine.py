"""What-ifs that combine and tuning that brackets (issue 43, item 5): the game-neutral
parts of :mod:`simulator.engine.core.balance`, with a fake ``play`` where games are
needed (outcome arrays written by hand, so every expected number is counted here)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from simulator.engine.core.balance import (
    Combined,
    paired_grid,
    paired_variants,
    parse_grid,
    parse_range,
    parse_vary_items,
    range_values,
    tune_bound,
    tune_scan,
    tune_step,
    variant_label,
)
from simulator.run.errors import InputError

SIDES = ["german", "soviet"]


def number(key, text, option):
    """A stand-in for a game's parse_value: whole numbers, 'hardened' for experience keys."""
    if key.startswith("experience"):
        if text not in ("green", "hardened"):
            raise InputError(option, key, f"unknown experience {text!r}")
        return text
    try:
        return int(text)
    except ValueError:
        raise InputError(option, key, f"{text!r} is not a whole number") from None


def test_an_ampersand_makes_one_variant_of_both_changes():
    out = parse_vary_items(["turns=5,7", "count.german.r=4&experience.german.r=hardened"], number)
    assert out[0] == ("turns", [5, 7])
    key, (value,) = out[1]
    assert key == "count.german.r&experience.german.r"
    assert isinstance(value, Combined) and value.changes == (("count.german.r", 4), ("experience.german.r",
                                                                                      "hardened"))
    assert variant_label(key, value) == "count.german.r=4&experience.german.r=hardened"
    assert variant_label("turns", 5) == "turns=5"
    assert pickle.loads(pickle.dumps(value)).changes == value.changes      # a worker process gets it whole


@pytest.mark.parametrize("item,names", [
    ("count.german.r=4&experience.german.r=veteran", ["experience.german.r", "'veteran'"]),   # the bad value's key
    ("count.german.r=4&oops", ["'oops'", "KEY=VALUE"]),                                       # the bad part
    ("count.german.r=4,5&turns=3", ["count.german.r=4,5", "--grid"]),                         # one value a change
    ("turns=4&turns=5", ["turns", "changed twice"]),
])
def test_a_bad_part_of_a_combined_what_if_is_named(item, names):
    with pytest.raises(InputError) as e:
        parse_vary_items([item], number)
    for n in names:
        assert n in str(e.value)


class Run:
    """What ``play`` returns, as far as the what-ifs read it."""

    def __init__(self, outcomes):
        self.tally = type("T", (), {"outcome_array": lambda _self: np.asarray(outcomes)})()


def test_a_combined_variant_is_paired_against_the_baseline_and_labelled_with_both_changes():
    base = np.array([0, 1, 1, 0, 2, 1, 1, 0])                    # german wins games 0, 3, 7
    after = np.array([0, 0, 1, 0, 2, 0, 1, 0])                   # and games 1 and 5 too
    seen = []

    def play(key, value):
        seen.append((key, value.changes))
        return Run(after)
    report = {"win_rate": {"german": {"p": 3 / 8}, "soviet": {"p": 4 / 8}}}
    variants = parse_vary_items(["turns=5&cp.german=3"], number)
    wi = paired_variants(variants, base, report, SIDES, play)
    (row,) = wi["variants"]
    assert seen == [("turns&cp.german", (("turns", 5), ("cp.german", 3)))]   # one run, both changes
    assert row["label"] == "turns=5&cp.german=3"
    # german won 5 of 8 after, 3 before: +2 games of 8 = +0.25, both gained, none lost
    assert row["change"] == pytest.approx(0.25) and row["games_changed"] == {"better": 2, "worse": 0}
    # every side's interval is filled (issue 43 item 6): soviet won 2 of 8 after
    assert row["ci95_by_side"]["soviet"][0] < 2 / 8 < row["ci95_by_side"]["soviet"][1]


def test_the_grid_plays_every_pair_and_reports_the_share_of_decisive_games():
    axes = parse_grid(["turns=4,5", "cp.german=2,3,4"], number)
    assert axes == [("turns", [4, 5]), ("cp.german", [2, 3, 4])]
    base = np.array([0, 1, 1, 1, 2, 1, 0, 1, 1, 1])              # german 2, soviet 7, 1 draw

    def play(key, value):
        t, cp = (v for _, v in value.changes)
        wins = t + cp - 4                                        # german wins the first (t + cp - 4) games
        return Run([0] * wins + [1] * (9 - wins) + [2])
    report = {"win_rate": {"german": {"p": 0.2}, "soviet": {"p": 0.7}},
              "verdict": {"share_first_side": 2 / 9}}
    grid = paired_grid(axes, base, report, SIDES, play, margin=0.1)
    cells = {(c["value1"], c["value2"]): c for c in grid["cells"]}
    assert len(cells) == 6 and grid["keys"] == ["turns", "cp.german"]
    c = cells[(5, 4)]                                            # 5 + 4 - 4 = 5 german wins of 9 decisive
    assert c["share"] == pytest.approx(5 / 9) and c["games"] == 10 and c["share_lo"] < 5 / 9 < c["share_hi"]
    assert c["inside_margin"]                                    # |5/9 - 1/2| = 0.056 <= 0.10
    # german won games 0 and 6 in the baseline, games 0-4 in the cell: games 1-4 gained, game 6 lost
    assert c["win_rate_change"] == pytest.approx((4 - 1) / 10)
    assert not cells[(4, 2)]["inside_margin"]                    # 2 of 9 = 22%: outside 40-60%
    assert grid["baseline_share"] == pytest.approx(2 / 9)


@pytest.mark.parametrize("items,message", [
    (["turns=4,5"], "give two"),
    (["turns=4,5", "turns=6"], "two different keys"),
    (["turns=4&cp.german=3", "cp.german=2"], "one key an axis"),
])
def test_a_bad_grid_says_what_is_wrong(items, message):
    with pytest.raises(InputError, match=message):
        parse_grid(items, number)


def test_a_range_is_read_and_held_to_the_keys_limits():
    assert parse_range(None) is None and parse_range("2:6") == (2, 6)
    assert range_values("count.german.r", (2, 6), (1, 9)) == [2, 3, 4, 5, 6]
    for text in ("3", "a:b", "5:2"):
        with pytest.raises(InputError):
            parse_range(text)
    with pytest.raises(InputError, match="at least 1"):
        range_values("count.german.r", (0, 3), (1, 9))          # never below the key's minimum
    with pytest.raises(InputError, match="at most 9"):
        range_values("count.german.r", (2, 12), (1, 9))


def rows(rates):
    return [{"value": v, "wins": 0, "win_rate": r, "ci95": [r, r]} for v, r in rates]


def test_a_step_across_the_target_is_bracketed_not_extrapolated():
    values = rows([(1, 0.20), (2, 0.95), (3, 0.97)])            # vp.bridge of issue 43: 20% at 1, 95% at 2
    step = tune_step(values, 0.5, "vp.bridge", margin=0.05)
    assert step["between"] == [1, 2] and step["win_rates"] == [0.20, 0.95]
    assert "between vp.bridge=1 (20%) and vp.bridge=2 (95%)" in step["note"] and "no value" in step["note"]
    # and the bound note no longer suggests a value below the search (|0.2-0.5| < |0.95-0.5|)
    assert tune_bound(values, values[0], 0.5, "vp.bridge")["at_bound"] is None


def test_no_step_when_a_value_comes_within_the_margin():
    values = rows([(1, 0.20), (2, 0.48), (3, 0.90)])
    assert tune_step(values, 0.5, "turns", margin=0.05) is None   # 48% is within 5 points of 50%


def test_the_scan_reports_the_step_and_no_bound():
    rates = {1: 0.2, 2: 0.95, 3: 0.97}

    def play(v):
        wins = round(100 * rates[v])
        return type("R", (), {"tally": type("T", (), {"wins": [wins, 100 - wins, 0], "games": 100})()})()
    out = tune_scan("vp.bridge", [1, 2, 3], 0.5, "german", play, limits=(1, 5))
    assert out["best"]["value"] == 1 and out["step"]["between"] == [1, 2]
    assert out["at_bound"] is None and out["bound_note"] is None


def test_at_the_keys_least_value_the_note_suggests_nothing_below_it():
    values = rows([(1, 0.70), (2, 0.80), (3, 0.90)])            # still falling towards 50% at 1, the least
    out = tune_bound(values, values[0], 0.5, "count.german.r", limits=(1, 9))
    assert out["at_bound"] == "lowest" and "least value count.german.r takes" in out["bound_note"]
    assert "beyond" not in out["bound_note"]
    inner = rows([(2, 0.70), (3, 0.80), (4, 0.90)])             # 2 is not the least: beyond, within 1-9
    assert "a value beyond the search may come closer (--range; count.german.r takes 1-9)" in \
        tune_bound(inner, inner[0], 0.5, "count.german.r", limits=(1, 9))["bound_note"]


def test_the_api_frame_gives_every_side_of_a_variant_its_interval():
    """Issue 43, item 6: the variant rows of the balance frame had NaN for the second side."""
    from simulator.engine.core.answers import BalanceReport

    base = np.array([0, 1, 1, 0, 2, 1, 1, 0])
    after = np.array([0, 0, 1, 0, 2, 0, 1, 0])                  # german 5, soviet 2, 1 draw of 8
    report = {"scenario": "toy", "games": 8, "seed": 1, "players": {"german": "greedy", "soviet": "greedy"},
              "win_rate": {"german": {"p": 3 / 8, "ci95": [0.1, 0.7]}, "soviet": {"p": 4 / 8, "ci95": [0.2, 0.8]}},
              "draw_rate": 1 / 8, "verdict": {"status": "undecided", "text": "t"}, "sides": SIDES}
    report["what_if"] = paired_variants(parse_vary_items(["turns=5&cp.german=3"], number), base, report, SIDES,
                                        lambda key, value: Run(after))
    df = BalanceReport.of(report).frame()
    soviet = df[(df["variant"] == "turns=5&cp.german=3") & (df["side"] == "soviet")].iloc[0]
    from simulator.run.stats import wilson_interval
    assert (soviet["ci95_low"], soviet["ci95_high"]) == pytest.approx(wilson_interval(2, 8))   # 2 of 8
    assert not df[["ci95_low", "ci95_high"]].isna().any().any()
