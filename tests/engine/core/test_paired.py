"""The paired comparisons of what-ifs and restricted play (simulator/engine/core/balance.py:
rate_change, paired_comparison, holm_family, closest_to_even) on outcome arrays built by
hand, checked against scipy and hand-computed values; coverage by simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binomtest

from simulator.engine.core.balance import (
    closest_to_even,
    holm_family,
    paired_comparison,
    rate_change,
    result_rank,
)

SIDES = ["german", "soviet"]
# outcomes: 0 german won, 1 soviet won, 2 draw, 3 cut short


def outcomes(*pairs: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(before, after, games) triples -> the two outcome arrays."""
    base, other = [], []
    for b, o, k in pairs:
        base += [b] * k
        other += [o] * k
    return np.array(base), np.array(other)


def test_a_restriction_that_changed_no_game_gets_the_exact_bound():
    base = np.array([0, 1, 2, 0] * 10)
    r = rate_change(base == 0, base == 0)
    # 0 discordant of 40: +-(1 - 0.025^(1/40)) = +-0.088105, never +0.00 [+0.00, +0.00]
    assert r["change"] == 0.0 and r["gained"] == r["lost"] == 0
    assert r["ci95"][1] == pytest.approx(-math.expm1(math.log(0.025) / 40)) == pytest.approx(0.088097, abs=1e-6)
    assert r["ci95"][0] == -r["ci95"][1]


def test_four_games_all_one_way_are_not_significant():
    # the case: 4 games changed, all to german wins, of 100: exact p = 2 / 2^4 = 0.125
    base, other = outcomes((1, 0, 4), (0, 0, 40), (1, 1, 56))
    c = paired_comparison(base, other, 0, SIDES)
    assert c["games_changed"] == {"better": 4, "worse": 0}
    assert c["p_value"] == pytest.approx(0.125) == pytest.approx(binomtest(4, 4).pvalue)
    assert c["change"] == pytest.approx(0.04)
    holm_family([c])
    assert c["p_holm"] == pytest.approx(0.125) and not c["significant"] and c["family_size"] == 1


def test_losses_turned_into_draws_show_in_the_other_side_and_the_test():
    # 30 soviet wins become draws: german's win rate does not move, soviet's falls 30 of 200
    base, other = outcomes((1, 2, 30), (0, 0, 90), (1, 1, 80))
    c = paired_comparison(base, other, 0, SIDES)
    assert c["change"] == 0.0
    assert c["changes"]["soviet"]["change"] == pytest.approx(-0.15)
    assert c["changes"]["draw"]["change"] == pytest.approx(0.15)
    assert c["changes"]["soviet"]["ci95"][1] < 0 < c["changes"]["draw"]["ci95"][0]
    # german's result improved in 30 games, worsened in none: p = 2 / 2^30
    assert c["games_changed"] == {"better": 30, "worse": 0}
    assert c["p_value"] == pytest.approx(2.0 ** -29)


def test_the_sign_test_against_scipy_either_side_of_005():
    # b better, c worse: two-sided exact binomial test; 11 v 3 gives 0.0574 (not), 12 v 3
    # gives 0.0352 (significant alone)
    for b, c, expected in ((11, 3, 0.05737), (12, 3, 0.03516)):
        base, other = outcomes((1, 0, b), (0, 1, c), (0, 0, 100))
        r = paired_comparison(base, other, 0, SIDES)
        assert r["p_value"] == pytest.approx(binomtest(b, b + c).pvalue) == pytest.approx(expected, abs=5e-5)


def test_holm_over_a_family_of_22():
    # one restriction at p = 0.01 among 21 at p = 1: alone it would get a star; Holm
    # multiplies the smallest by 22: 0.22 (no star). 0.001 * 22 = 0.022 keeps it.
    rows = [{"p_value": 0.01}] + [{"p_value": 1.0} for _ in range(21)]
    holm_family(rows)
    assert rows[0]["p_holm"] == pytest.approx(0.22) and not rows[0]["significant"]
    assert all(r["family_size"] == 22 for r in rows)
    rows = [{"p_value": 0.001}] + [{"p_value": 0.5} for _ in range(21)]
    holm_family(rows)
    assert rows[0]["p_holm"] == pytest.approx(0.022) and rows[0]["significant"]
    # step-down: 0.001, 0.02, 0.04 -> 0.003, 0.04, 0.04 (max(2 * 0.02, 0.003), max(0.04, 0.04))
    rows = [{"p_value": p} for p in (0.04, 0.001, 0.02)]
    holm_family(rows)
    assert [r["p_holm"] for r in rows] == pytest.approx([0.04, 0.003, 0.04])
    assert all(r["significant"] for r in rows)


def test_result_rank():
    assert result_rank(np.array([0, 1, 2, 3]), 0).tolist() == [2, 0, 1, 1]
    assert result_rank(np.array([0, 1, 2, 3]), 1).tolist() == [0, 2, 1, 1]


def test_paired_change_interval_coverage_by_simulation():
    # true paired change 0.10 - 0.05 = +0.05 (a game gains a win with chance 0.10, loses
    # one with 0.05), 300 games, 2,000 runs: the count covered is Binomial(2000, ~0.95),
    # sd 0.49 points, so [0.93, 0.97] is +-4 sd; a 1-SE interval (68%) or a doubled one
    # (99.99%) falls outside
    rng = np.random.default_rng(5)
    n, sims, covered = 300, 2000, 0
    for _ in range(sims):
        u = rng.random(n)
        before = np.zeros(n, dtype=bool)
        before[: n // 2] = True
        after = before.copy()
        after[(~before) & (u < 0.2)] = True          # half the games: 0.2 of them gain -> 0.10 of all
        after[before & (u < 0.1)] = False            # the other half: 0.1 lose -> 0.05 of all
        lo, hi = rate_change(before, after)["ci95"]
        covered += lo <= 0.05 <= hi
    assert 0.93 <= covered / sims <= 0.97


def _runs(shares: dict[str, tuple[float, float]], n: int, seed: int) -> dict[str, np.ndarray]:
    """Runs on common dice: game i's uniform u_i decides every run (first side wins
    below its first share, second side above 1 - its second share, else a draw)."""
    u = np.random.default_rng(seed).random(n)
    return {k: np.where(u < a, 0, np.where(u > 1 - b, 1, 2)) for k, (a, b) in shares.items()}


def test_closest_to_even_names_the_runs_it_cannot_tell_apart():
    # 1,000 games: baseline 65/35 (|e| = 0.3), turns=5 50/50, turns=6 51/49 (one point off
    # even): turns=5 and turns=6 differ in |e| by about 0.02, far inside the paired noise
    # (the sum's per-game sd is near 2: se 0.06), the baseline by 0.3 (5 se)
    runs = _runs({"baseline": (0.65, 0.35), "turns=5": (0.5, 0.5), "turns=6": (0.51, 0.49)}, 1000, 3)
    even = closest_to_even(runs, SIDES)
    assert set(even["even_set"]) == {"turns=5", "turns=6"}
    assert even["best"] in ("turns=5", "turns=6") and "baseline" not in even["even_set"]
    told = {r["run"]: r["told_apart"] for r in even["comparisons"]}
    assert told["baseline"] and not told[({"turns=5", "turns=6"} - {even["best"]}).pop()]


def test_closest_to_even_with_one_clear_winner_and_the_baseline_in_the_set():
    # the baseline itself is the even one: it is named, and a variant 20 points off is told apart
    runs = _runs({"baseline": (0.5, 0.5), "cp.german=6": (0.7, 0.3)}, 1000, 4)
    even = closest_to_even(runs, SIDES)
    assert even["best"] == "baseline" and even["even_set"] == ["baseline"] and even["runner_up"] == "cp.german=6"
    assert even["comparisons"][0]["difference"] == pytest.approx(abs(np.mean(runs["cp.german=6"] == 0)
                                                                     - np.mean(runs["cp.german=6"] == 1))
                                                                 - abs(np.mean(runs["baseline"] == 0)
                                                                       - np.mean(runs["baseline"] == 1)))


# --- the first-player effect ------------------------------------------------------------

def _tally(first_counts) -> object:
    from simulator.engine.core.batch import Tally
    tl = Tally(turns=5)
    tl.first_counts = np.array(first_counts, dtype=np.int64)
    return tl


def scipy_newcombe(x1: int, n1: int, x2: int, n2: int) -> tuple[float, float]:
    """Newcombe's method 10 recomputed from scipy's Wilson intervals."""
    w1 = binomtest(x1, n1).proportion_ci(method="wilson")
    w2 = binomtest(x2, n2).proportion_ci(method="wilson")
    p1, p2 = x1 / n1, x2 / n2
    return (p1 - p2 - math.hypot(p1 - w1.low, w2.high - p2), p1 - p2 + math.hypot(w1.high - p1, p2 - w2.low))


def test_first_player_effect_sign_and_interval():
    from simulator.engine.core.batch import first_player_effect
    # german first in 100 games, wins 60; soviet first in 100, german wins 30 of them:
    # german +0.60 - 0.30 = +0.30; soviet 0.70 - 0.40 = +0.30 (no draws: one number)
    fp = first_player_effect(_tally([[60, 40, 0, 0], [30, 70, 0, 0]]), SIDES)
    g, s = fp["german"], fp["soviet"]
    assert g["difference"] == pytest.approx(0.3) and s["difference"] == pytest.approx(0.3)
    assert g["ci95"] == pytest.approx(list(scipy_newcombe(60, 100, 30, 100)), abs=1e-9)
    assert g["ci95"][0] > 0                      # moving first helps: a flipped sign fails here
    assert fp["same_for_both"] and "first turn" in fp["covers"]
    # the initiative hurts german: the sign follows
    fp = first_player_effect(_tally([[30, 70, 0, 0], [60, 40, 0, 0]]), SIDES)
    assert fp["german"]["difference"] == pytest.approx(-0.3) and fp["german"]["ci95"][1] < 0


def test_first_player_effect_keeps_a_width_at_100_percent():
    from simulator.engine.core.batch import first_player_effect
    # german always wins when first (20 of 20), never when second (0 of 20): the normal
    # interval is [1, 1]; Newcombe's lower end is 1 - sqrt(2) * 0.16113 = 0.77213 (0.16113 =
    # z^2 / (20 + z^2), the Wilson bound of 0 of 20)
    fp = first_player_effect(_tally([[20, 0, 0, 0], [0, 20, 0, 0]]), SIDES)
    g = fp["german"]
    assert g["difference"] == pytest.approx(1.0) and g["ci95"][1] == 1.0
    assert g["ci95"][0] == pytest.approx(0.77213, abs=1e-5)


def test_first_player_effect_with_draws_gives_two_numbers():
    from simulator.engine.core.batch import first_player_effect
    # draws: german 50/100 first, 30/100 second: +0.20; soviet 50/100 first, 30/100 second: +0.20
    # happens to match, but with 20 draws each the two are separate estimates
    fp = first_player_effect(_tally([[50, 30, 20, 0], [30, 50, 20, 0]]), SIDES)
    assert not fp["same_for_both"]
    assert fp["german"]["difference"] == pytest.approx(0.2) and fp["soviet"]["difference"] == pytest.approx(0.2)


def test_the_mean_standard_error_from_sums():
    from scipy.stats import sem

    from simulator.engine.core.batch import mean_se_of
    # 1, 2, 3, 4: mean 2.5, sample variance 5/3, SE sqrt(5/3 / 4) = 0.645497 (scipy's sem)
    assert mean_se_of(10, 30, 4) == pytest.approx(0.645497, abs=1e-6) == pytest.approx(sem([1, 2, 3, 4]))
    x = np.random.default_rng(2).poisson(1.7, 500)
    assert mean_se_of(int(x.sum()), int((x * x).sum()), 500) == pytest.approx(sem(x))
    assert mean_se_of(3, 9, 1) == 0.0


def test_the_ladder_says_better_falsely_at_most_2_5_percent_of_the_time():
    from simulator.engine.core.balance import seat_difference
    # a stronger player that is not stronger: both runs win the seat with chance 0.45 on
    # common dice (the same uniform decides 90% of games, the rest are independent), 300
    # games. "better" is a one-sided 2.5% error: over 2,000 runs the false count is
    # Binomial(2000, 0.025), sd 0.35 points, so at most 0.025 + 4 sd = 3.9%. The old rule
    # (the strong run's Wilson lower bound above the weak run's point estimate) gave about 9%.
    rng = np.random.default_rng(17)
    n, sims, false = 300, 2000, 0
    for _ in range(sims):
        u = rng.random(n)
        v = np.where(rng.random(n) < 0.9, u, rng.random(n))
        strong, weak = np.where(v < 0.45, 0, 1), np.where(u < 0.45, 0, 1)
        false += seat_difference(strong, weak, 0)["ci95"][0] > 0
    assert false / sims <= 0.025 + 4 * math.sqrt(0.025 * 0.975 / sims)
    # and a real gain of 10 points (0.55 v 0.45 on the same dice) is seen nearly always
    u = np.random.default_rng(18).random(1000)
    d = seat_difference(np.where(u < 0.55, 0, 1), np.where(u < 0.45, 0, 1), 0)
    assert d["p"] == pytest.approx(np.mean((u >= 0.45) & (u < 0.55))) and d["ci95"][0] > 0


def test_closest_to_even_uses_the_paired_score_interval_for_a_few_changed_games():
    from simulator.engine.core.balance import _signed_difference
    from simulator.run.verdicts import discordant_interval
    # 5 of 60 games differ, each by +2 (a loss turned into a win): the difference of
    # evenness is 10/60 = 0.1667, its interval Tango's for 5 v 0 of 60, doubled, not the
    # normal interval (which would claim more with 5 games)
    a = np.array([1] * 5 + [0] * 55)
    b = np.array([-1] * 5 + [0] * 55)
    d, (lo, hi) = _signed_difference(a, b, 0.025)
    tlo, thi = discordant_interval(5, 0, 60, alpha=0.025)
    assert d == pytest.approx(10 / 60) and (lo, hi) == pytest.approx((2 * tlo, 2 * thi))
    # no game differs: the exact bound of 0 in 60 at 97.5%, 1 - 0.0125^(1/60) = 0.0704306, times 2
    d, (lo, hi) = _signed_difference(b, b, 0.025)
    assert d == 0.0 and hi == pytest.approx(2 * 0.0704306, abs=1e-6) and lo == -hi
