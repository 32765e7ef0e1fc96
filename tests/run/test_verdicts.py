"""The balance verdict's statistics (simulator/run/verdicts.py), checked against
independent computations: scipy's intervals and tests, closed forms worked by hand, the
mixture martingale recomputed with scipy.special.betaln, and simulations with fixed
seeds. No expectation here is computed with the function under test."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq
from scipy.special import betaln
from scipy.stats import binomtest, norm

from simulator.run import verdicts as V

Z = norm.ppf(0.975)
LOG20 = math.log(20.0)
SIDES = ("german", "american")


# --------------------------------------------------------------------------------------
# independent references
# --------------------------------------------------------------------------------------

def scipy_wilson(k: int, n: int) -> tuple[float, float]:
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return float(ci.low), float(ci.high)


def log_martingale(s: float, n: float, p: float, a: float = 50.0, b: float = 50.0) -> float:
    """log M_n(p) of the beta-binomial mixture, from scipy."""
    ll = (s * math.log(p) if s else 0.0) + ((n - s) * math.log1p(-p) if n - s else 0.0)
    return float(betaln(a + s, b + n - s) - betaln(a, b)) - ll


def scipy_sequence(k: int, n: int, a: float = 50.0, b: float = 50.0) -> tuple[float, float]:
    """The confidence sequence's ends by scipy's brentq on the martingale."""
    p_hat = k / n

    def f(p):
        return log_martingale(k, n, p, a, b) - LOG20

    last = np.nextafter(1.0, 0.0)
    # the lower end may lie far below 1e-9 (1 of 1,000: 1e-58): search it on log p
    lo = 0.0 if k == 0 else math.exp(brentq(lambda u: f(math.exp(u)), math.log(1e-300), math.log(p_hat),
                                            xtol=1e-13, rtol=1e-15))
    if k == n:
        hi = 1.0
    elif f(last) < 0:      # the root lies closer to 1 than any float
        hi = last
    else:
        hi = brentq(f, p_hat, last, xtol=1e-15, rtol=1e-15)
    return lo, hi


def hand_wilson(k: float, n: float) -> tuple[float, float]:
    """Wilson's interval written out from its textbook form (k may be fractional)."""
    p = k / n
    centre = (k + Z * Z / 2) / (n + Z * Z)
    half = Z * math.sqrt(n) / (n + Z * Z) * math.sqrt(p * (1 - p) + Z * Z / (4 * n))
    return centre - half, centre + half


def decided(lo: float, hi: float, margin: float) -> bool:
    inside = lo >= 0.5 - margin and hi <= 0.5 + margin
    outside = hi < 0.5 - margin or lo > 0.5 + margin
    return inside or outside


def tango_z(b: int, c: int, n: int, d: float) -> float:
    """Tango (1998), Stat. Med. 17:891, eq. for the restricted MLE of p21 and the score."""
    A = 2 * n
    B = -b - c + (2 * n - b + c) * d
    C = -c * d * (1 - d)
    p21 = (math.sqrt(B * B - 4 * A * C) - B) / (2 * A)
    return (b - c - n * d) / math.sqrt(n * (2 * p21 + d * (1 - d)))


# --------------------------------------------------------------------------------------
# Wilson
# --------------------------------------------------------------------------------------

def test_wilson_hand_computed_values():
    # 5 of 10: centre 1/2, half-width z sqrt(1/40 + z^2/400) / (1 + z^2/10)
    lo, hi = V.wilson(5, 10)
    half = 1.959963984540054 * math.sqrt(0.025 + 3.841458820694124 / 400) / (1 + 0.3841458820694124)
    assert lo == pytest.approx(0.5 - half, abs=1e-15) and hi == pytest.approx(0.5 + half, abs=1e-15)
    assert (round(lo, 7), round(hi, 7)) == (0.2365931, 0.7634069)
    # 0 of n: [0, z^2 / (n + z^2)] exactly; n of n: [n / (n + z^2), 1]
    z2 = 1.959963984540054 ** 2
    assert V.wilson(0, 10) == (0.0, pytest.approx(z2 / (10 + z2), abs=1e-15))
    assert V.wilson(10, 10) == (pytest.approx(10 / (10 + z2), abs=1e-15), 1.0)
    assert V.wilson(0, 10)[0] == 0.0 and V.wilson(10, 10)[1] == 1.0   # exactly, not 1.7e-18


@pytest.mark.parametrize("k,n", [(0, 1), (1, 1), (0, 7), (7, 7), (1, 7), (3, 10), (14, 30), (0, 1000),
                                 (1000, 1000), (1, 1000), (999, 1000), (523, 1000), (10540, 20000)])
def test_wilson_matches_scipy(k, n):
    lo, hi = V.wilson(k, n)
    slo, shi = scipy_wilson(k, n)
    assert lo == pytest.approx(slo, abs=1e-12) and hi == pytest.approx(shi, abs=1e-12)
    assert lo <= k / n <= hi
    assert (lo == 0.0) == (k == 0) and (hi == 1.0) == (k == n)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 100_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_always_contains_the_estimate(kn):
    k, n = kn
    lo, hi = V.wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    assert (lo == 0.0) == (k == 0)
    assert (hi == 1.0) == (k == n)


def test_wilson_without_trials_and_out_of_range():
    assert V.wilson(0, 0) == (0.0, 1.0)
    assert V.wilson(0, -3) == (0.0, 1.0)
    with pytest.raises(ValueError):
        V.wilson(11, 10)


# --------------------------------------------------------------------------------------
# confidence sequence
# --------------------------------------------------------------------------------------

GRID = [(0, 1), (1, 1), (0, 10), (3, 10), (10, 10), (14, 30), (0, 200), (97, 200), (160, 200),
        (523, 1000), (1, 1000), (999, 1000), (10540, 20000), (0, 20000), (1, 1_000_000), (500_321, 1_000_000)]


@pytest.mark.parametrize("k,n", GRID)
def test_sequence_ends_are_where_the_martingale_reaches_one_over_alpha(k, n):
    lo, hi = V.confidence_sequence(k, n)
    assert lo <= k / n <= hi
    for end, at_edge in ((lo, 0.0), (hi, 1.0)):
        if end == at_edge:     # an end at 0 or 1: the martingale stays below 1/alpha there
            assert (k == 0) if at_edge == 0.0 else (k == n)
            assert log_martingale(k, n, 0.5 if k == n / 2 else k / n) < LOG20
            continue
        if 1.0 - end < 1e-12:
            # the root lies closer to 1 than any float (1 of 1,000 under the Beta(50, 50)
            # prior: 1 - 1e-58): the end is the last float below 1, still inside the set
            assert end == np.nextafter(1.0, 0.0) and log_martingale(k, n, end) < LOG20
            continue
        assert log_martingale(k, n, end) == pytest.approx(LOG20, abs=1e-6)
    slo, shi = scipy_sequence(k, n)
    assert lo == pytest.approx(slo, abs=1e-9) and hi == pytest.approx(shi, abs=1e-9)


@pytest.mark.parametrize("prior", [(1.0, 1.0), (0.5, 0.5), (3.0, 7.0)])
def test_sequence_with_another_prior(prior):
    for k, n in [(3, 10), (523, 1000), (0, 50), (50, 50)]:
        lo, hi = V.confidence_sequence(k, n, prior=prior)
        slo, shi = scipy_sequence(k, n, *prior)
        assert lo == pytest.approx(slo, abs=1e-9) and hi == pytest.approx(shi, abs=1e-9)


@pytest.mark.parametrize("k,n", GRID)
def test_sequence_is_wider_than_wilson(k, n):
    lo, hi = V.confidence_sequence(k, n)
    wlo, whi = scipy_wilson(k, n)
    assert lo <= wlo and hi >= whi
    if 0 < k < n:
        assert hi - lo > whi - wlo


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 1_000_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_sequence_always_contains_the_estimate(kn):
    k, n = kn
    lo, hi = V.confidence_sequence(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    assert (lo == 0.0) == (k == 0) and (hi == 1.0) == (k == n)


def test_sequence_edge_cases():
    assert V.confidence_sequence(0, 0) == (0.0, 1.0)
    assert V.confidence_sequence(0, 10)[0] == 0.0
    assert V.confidence_sequence(10, 10)[1] == 1.0
    with pytest.raises(ValueError):
        V.confidence_sequence(3, 10, alpha=0.0)
    with pytest.raises(ValueError):
        V.confidence_sequence(3, 10, prior=(0.0, 1.0))
    with pytest.raises(ValueError):
        V.confidence_sequence(11, 10)
    assert V.DEFAULT_PRIOR == (50.0, 50.0)


# --------------------------------------------------------------------------------------
# the anytime promise, by simulation
# --------------------------------------------------------------------------------------

RUNS = 2000
SCHEDULE = [200, 400, 800, 1600, 3200, 6400, 12800, 20000]   # until_decided's rounds: 200 .. 20,000
# Monte Carlo slack: with 2,000 runs a true rate of 5% has a standard error of
# sqrt(0.05 * 0.95 / 2000) = 0.0049; allow three of them.
SLACK = 3 * math.sqrt(0.05 * 0.95 / RUNS)


def test_round_schedule_is_first_round_then_doubling_capped():
    assert V.round_totals(200, 20000) == SCHEDULE
    assert V.round_totals(200, 1000) == [200, 400, 800, 1000]
    assert V.round_totals(500, 300) == [300]
    assert V.round_totals(1, 1) == [1]
    with pytest.raises(ValueError):
        V.round_totals(0, 100)


def _cumulative_paths(rng, p, runs, totals):
    sizes = np.diff([0, *totals])
    return np.cumsum(rng.binomial(sizes, p, size=(runs, len(sizes))), axis=1)


def _ever_excluded(paths, totals, p, interval):
    cache: dict[tuple[int, int], tuple[float, float]] = {}
    excluded = 0
    for path in paths:
        for s, n in zip(path.tolist(), totals, strict=True):
            if (s, n) not in cache:
                cache[s, n] = interval(s, n)
            lo, hi = cache[s, n]
            if not lo <= p <= hi:
                excluded += 1
                break
    return excluded / len(paths)


@pytest.mark.parametrize("p", [0.5, 0.53])
def test_the_sequence_rarely_ever_excludes_the_truth_looking_after_every_round(p):
    rng = np.random.default_rng(39_000 + int(1000 * p))
    paths = _cumulative_paths(rng, p, RUNS, SCHEDULE)
    rate = _ever_excluded(paths, SCHEDULE, p, V.confidence_sequence)
    wilson_rate = _ever_excluded(paths, SCHEDULE, p, V.wilson)
    print(f"p={p}: sequence ever excluded the truth in {rate:.2%} of {RUNS} runs; fixed Wilson {wilson_rate:.2%}")
    assert rate <= 0.05 + SLACK
    assert wilson_rate > rate       # peeking at a fixed-n interval errs more


@pytest.mark.parametrize("p", [0.5, 0.53])
def test_ville_with_a_look_every_hundred_games(p):
    # 200 looks: the fixed interval's error piles up, the mixture martingale's does not
    # (the martingale is recomputed here with scipy; the endpoint test above ties it to
    # the function's interval)
    rng = np.random.default_rng(7_000 + int(1000 * p))
    totals = np.arange(100, 20001, 100)
    paths = _cumulative_paths(rng, p, RUNS, totals.tolist())
    n = totals[None, :].astype(float)
    s = paths.astype(float)
    log_m = betaln(50 + s, 50 + n - s) - betaln(50, 50) - s * math.log(p) - (n - s) * math.log1p(-p)
    rate = float((log_m >= LOG20).any(axis=1).mean())
    centre = (s + Z * Z / 2) / (n + Z * Z)
    half = Z * np.sqrt(n) / (n + Z * Z) * np.sqrt(s / n * (1 - s / n) + Z * Z / (4 * n))
    wilson_rate = float(((centre - half > p) | (centre + half < p)).any(axis=1).mean())
    print(f"p={p}, 200 looks: sequence {rate:.2%}, fixed Wilson {wilson_rate:.2%}")
    assert rate <= 0.05 + SLACK
    assert wilson_rate > 0.15


def _player(rng, p, draw_rate, totals):
    """A play_round reading one simulated run: first wins, second wins, draws."""
    sizes = np.diff([0, *totals])
    probs = [(1 - draw_rate) * p, (1 - draw_rate) * (1 - p), draw_rate]
    counts = np.cumsum(np.array([rng.multinomial(m, probs) for m in sizes]), axis=0)
    calls = []

    def play_round(k, games):
        calls.append((k, games))
        w1, w2, d = (int(x) for x in counts[k])
        return w1, w2, d, w1 + w2 + d

    return play_round, calls


@pytest.mark.parametrize("p,expected,at_least", [(0.5, "balanced", 0.95), (0.62, "unbalanced", 0.99)])
def test_until_decided_reaches_the_right_verdict(p, expected, at_least):
    rng = np.random.default_rng(62_000 + int(1000 * p))
    runs, hits, stops = 1000, 0, []
    for _ in range(runs):
        play_round, calls = _player(rng, p, 0.1, SCHEDULE)
        verdict, rounds = V.until_decided(play_round, margin=0.05, first_round=200, max_games=20000, sides=SIDES)
        hits += verdict.status == expected
        stops.append(rounds[-1]["games"])
        assert [g for _, g in calls] == np.diff([0, *SCHEDULE]).tolist()[: len(calls)]
        assert [r["games"] for r in rounds] == SCHEDULE[: len(rounds)]
        assert all(r["status"] == "undecided" for r in rounds[:-1])
        assert verdict.interval == "sequence"
        if verdict.status == "unbalanced":
            assert verdict.favoured == ("german" if p > 0.5 else "american")
    print(f"p={p}: {expected} in {hits / runs:.1%} of {runs} runs, median stop {int(np.median(stops))} games")
    assert hits / runs >= at_least


def test_until_decided_gives_up_undecided_at_max_games():
    def play_round(k, games):
        total = V.round_totals(100, 1000)[k]
        return total * 47 // 100, total - total * 47 // 100, 0, total   # 47%: near the edge
    verdict, rounds = V.until_decided(play_round, margin=0.05, first_round=100, max_games=1000, sides=SIDES)
    assert verdict.status == "undecided" and verdict.games_needed and verdict.games_needed > 0
    assert [r["games"] for r in rounds] == [100, 200, 400, 800, 1000]


def test_until_decided_checks_the_reported_total():
    with pytest.raises(ValueError, match="expected 200"):
        V.until_decided(lambda k, g: (100, 99, 0, 199), margin=0.05, first_round=200, max_games=1000, sides=SIDES)


def test_until_decided_stops_at_no_verdict():
    verdict, rounds = V.until_decided(lambda k, g: (0, 0, 200, 200), margin=0.05, first_round=200,
                                      max_games=1000, sides=SIDES)
    assert verdict.status == "no verdict" and len(rounds) == 1


# --------------------------------------------------------------------------------------
# balance_verdict
# --------------------------------------------------------------------------------------

def _verdict(k, n, margin=0.05, **kw):
    return V.balance_verdict(k, n - k, 0, n, SIDES, margin=margin, **kw)


def _last(pred, lo, hi):
    """The largest k in [lo, hi) with pred(k), for pred true up to some k and false after."""
    assert pred(lo) and not pred(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if pred(mid) else (lo, mid)
    return lo


def _crossings(n, edge, ends):
    """(below, above): the largest k whose interval's hi is below ``edge`` and the smallest
    k whose lo is above it, the interval ends computed by ``ends(k, n)`` (scipy), checked
    to sit clear of the edge (no rounding tie)."""
    below = _last(lambda k: ends(k, n)[1] < edge, 0, n)
    above = _last(lambda k: not ends(k, n)[0] > edge, 0, n) + 1
    for k in (below, below + 1):
        assert abs(ends(k, n)[1] - edge) > 1e-9
    for k in (above, above - 1):
        assert abs(ends(k, n)[0] - edge) > 1e-9
    return below, above


def _wilson_crossings(n, edge):
    return _crossings(n, edge, scipy_wilson)


@pytest.mark.parametrize("n,margin", [(1000, 0.05), (5000, 0.05), (3000, 0.02), (20000, 0.02)])
def test_verdict_either_side_of_every_boundary(n, margin):
    low, high = 0.5 - margin, 0.5 + margin
    below_low, above_low = _wilson_crossings(n, low)      # hi < low at below_low; lo > low at above_low
    below_high, above_high = _wilson_crossings(n, high)
    # unbalanced towards the second side: hi < 0.5 - margin, just
    assert _verdict(below_low, n, margin).status == "unbalanced"
    assert _verdict(below_low, n, margin).favoured == "american"
    assert _verdict(below_low + 1, n, margin).status == "undecided"
    # balanced: lo >= 0.5 - margin, just (and hi well inside)
    assert _verdict(above_low, n, margin).status == "balanced"
    assert _verdict(above_low - 1, n, margin).status == "undecided"
    # balanced: hi <= 0.5 + margin, just
    assert _verdict(below_high, n, margin).status == "balanced"
    assert _verdict(below_high + 1, n, margin).status == "undecided"
    # unbalanced towards the first side: lo > 0.5 + margin, just
    assert _verdict(above_high, n, margin).status == "unbalanced"
    assert _verdict(above_high, n, margin).favoured == "german"
    assert _verdict(above_high - 1, n, margin).status == "undecided"
    # the edge at 50%: detectable once the interval excludes it
    below_half, above_half = _wilson_crossings(n, 0.5)
    assert _verdict(above_half, n, margin).edge_detectable and _verdict(above_half, n, margin).favoured == "german"
    assert not _verdict(above_half - 1, n, margin).edge_detectable
    assert _verdict(above_half - 1, n, margin).favoured is None
    assert _verdict(below_half, n, margin).favoured == "american"
    assert not _verdict(below_half + 1, n, margin).edge_detectable


def _sequence_crossings(n, edge):
    return _crossings(n, edge, scipy_sequence)


@pytest.mark.parametrize("n", [2000, 6000])
def test_sequential_verdict_either_side_of_the_boundaries(n):
    below_low, above_low = _sequence_crossings(n, 0.45)
    below_high, above_high = _sequence_crossings(n, 0.55)
    for k, status in [(below_low, "unbalanced"), (below_low + 1, "undecided"), (above_low, "balanced"),
                      (above_low - 1, "undecided"), (below_high, "balanced"), (below_high + 1, "undecided"),
                      (above_high, "unbalanced"), (above_high - 1, "undecided")]:
        v = _verdict(k, n, sequential=True)
        assert v.status == status, (k, n, v.ci95)
        assert v.interval == "sequence"


def test_two_farms_shape():
    # 10,540 wins of 20,000 decisive games: 52.7%, interval about [52.0%, 53.4%]
    v = V.balance_verdict(10540, 9460, 0, 20000, SIDES, margin=0.05)
    assert v.status == "balanced" and v.edge_detectable and v.favoured == "german"
    assert v.ci95 == pytest.approx(scipy_wilson(10540, 20000), abs=1e-12)
    assert v.share_first_side == pytest.approx(0.527)
    assert v.games_needed is None
    assert "±5 points" in v.text and "52.7%" in v.text and v.text.startswith("balanced")
    tight = V.balance_verdict(10540, 9460, 0, 20000, SIDES, margin=0.02)
    assert tight.status == "unbalanced" and tight.favoured == "german"
    assert tight.text.startswith("unbalanced: german favoured") and "±2 points" in tight.text
    # with draws on top the verdict is about the decisive games alone
    drawn = V.balance_verdict(10540, 9460, 5000, 25000, SIDES, margin=0.05)
    assert drawn.status == "balanced" and drawn.draw_rate == pytest.approx(0.2)
    assert drawn.ci95 == v.ci95


def test_few_games_are_undecided_with_games_needed():
    v = V.balance_verdict(14, 16, 0, 30, SIDES)
    assert v.status == "undecided"
    assert isinstance(v.games_needed, int) and v.games_needed > 30
    assert v.text.startswith("undecided: not enough games")
    assert "more decisive games would most likely decide it" in v.text
    assert v.favoured is None and not v.edge_detectable


def test_no_verdict_and_draws_dominate():
    none = V.balance_verdict(0, 0, 12, 12, SIDES)
    assert none.status == "no verdict" and none.share_first_side is None and none.ci95 is None
    assert none.draw_rate == 1.0 and "decisive" in none.text
    empty = V.balance_verdict(0, 0, 0, 0, SIDES)
    assert empty.status == "no verdict" and empty.draw_rate is None
    # 501 draws of 1,000 games: above the default 50%
    assert V.balance_verdict(250, 249, 501, 1000, SIDES).status == "no verdict"
    assert "draws dominate" in V.balance_verdict(250, 249, 501, 1000, SIDES).text
    # exactly half: not above it
    assert V.balance_verdict(250, 250, 500, 1000, SIDES).status != "no verdict"
    assert V.balance_verdict(4000, 4000, 3000, 11000, SIDES, draws_dominate=0.25).status == "no verdict"
    assert V.balance_verdict(4000, 4000, 3000, 11000, SIDES, draws_dominate=0.3).status == "balanced"


@pytest.mark.parametrize("margin", [0.0, 0.5, -0.05, 0.6, float("nan")])
def test_margin_is_validated(margin):
    with pytest.raises(ValueError, match="margin"):
        V.balance_verdict(10, 10, 0, 20, SIDES, margin=margin)
    with pytest.raises(ValueError, match="margin"):
        V.games_needed(0.5, 10, margin)


def test_counts_are_validated():
    with pytest.raises(ValueError, match="exceeds games"):
        V.balance_verdict(10, 10, 5, 20, SIDES)
    with pytest.raises(ValueError, match="negative"):
        V.balance_verdict(-1, 10, 0, 20, SIDES)
    with pytest.raises(TypeError, match="whole number"):
        V.balance_verdict(10.5, 10, 0, 21, SIDES)
    with pytest.raises(ValueError, match="two sides"):
        V.balance_verdict(10, 10, 0, 20, ("german",))
    assert V.balance_verdict(np.int64(10), np.int32(10), 0, 20, SIDES).decisive_games == 20


def test_verdict_dict_is_json_ready():
    d = V.balance_verdict(14, 16, 3, 33, SIDES).to_dict()
    assert list(d) == ["status", "margin", "games_needed", "edge_detectable", "ci95", "share_first_side",
                       "favoured", "decisive_games", "draw_rate", "interval", "text"]
    assert isinstance(d["ci95"], list) and d["interval"] == "wilson"
    assert json.loads(json.dumps(d)) == d
    with pytest.raises(ValueError):
        V.Verdict("maybe")
    with pytest.raises(dataclasses.FrozenInstanceError):
        V.Verdict("balanced").status = "unbalanced"


# --------------------------------------------------------------------------------------
# games_needed
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("share,n,margin", [(14 / 30, 30, 0.05), (0.5, 0, 0.05), (0.52, 500, 0.05),
                                            (0.57, 100, 0.05), (0.43, 1000, 0.05), (0.535, 2000, 0.02),
                                            (0.9, 3, 0.05)])
def test_games_needed_decides_and_one_fewer_does_not(share, n, margin):
    more = V.games_needed(share, n, margin)
    total = n + more
    assert decided(*hand_wilson(share * total, total), margin)
    if total - 1 >= max(n, 1):
        assert not decided(*hand_wilson(share * (total - 1), total - 1), margin)


@pytest.mark.parametrize("share,n,margin", [(14 / 30, 30, 0.05), (0.5, 0, 0.05), (0.52, 500, 0.05),
                                            (0.57, 100, 0.05), (0.62, 200, 0.05), (0.535, 2000, 0.02)])
def test_games_needed_with_the_sequence(share, n, margin):
    more = V.games_needed(share, n, margin, sequential=True)
    total = n + more

    def decided_by_sequence(N):
        s, low, high = share * N, 0.5 - margin, 0.5 + margin
        m_low, m_high = log_martingale(s, N, low), log_martingale(s, N, high)
        if low < share < high:
            return m_low >= LOG20 and m_high >= LOG20
        return (m_low if share < low else m_high) > LOG20

    assert decided_by_sequence(total)
    assert not decided_by_sequence(total - 1)
    assert more >= V.games_needed(share, n, margin)      # the price of looking every round
    lo, hi = V.confidence_sequence(share * total, total)
    assert decided(lo, hi, margin)


def test_games_needed_closed_forms():
    # an even share from scratch: the smallest N with Wilson's half-width <= 5 points
    wilson_n = next(N for N in range(1, 1000) if hand_wilson(N / 2, N)[1] <= 0.55)
    assert V.games_needed(0.5, 0, 0.05) == wilson_n == 381
    assert V.games_needed(0.5, 100, 0.05) == 281
    assert V.games_needed(0.5, 381, 0.05) == 0
    assert V.games_needed(0.5, 5000, 0.05) == 0
    # on the edge: never
    assert V.games_needed(0.45, 100, 0.05) is None
    assert V.games_needed(0.55, 100, 0.05, sequential=True) is None
    # a hair from it: beyond ten million
    assert V.games_needed(0.4501, 100, 0.05) is None


def test_games_needed_after_playing_them_at_the_share():
    # 14 of 30 decisive games; play the advised number more at 14/30 and ask again
    more = V.balance_verdict(14, 16, 0, 30, SIDES).games_needed
    total = 30 + more
    wins = math.ceil(14 / 30 * total)     # at least the share: rounding down may fall short by a game
    assert V.balance_verdict(wins, total - wins, 0, total, SIDES).status == "balanced"
    half_way = 30 + more // 2
    wins = round(14 / 30 * half_way)
    assert V.balance_verdict(wins, half_way - wins, 0, half_way, SIDES).status == "undecided"


# --------------------------------------------------------------------------------------
# McNemar and Holm
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("b,c", [(4, 0), (0, 4), (1, 0), (3, 4), (5, 5), (10, 2), (30, 12), (0, 25), (120, 87),
                                 (3000, 3200), (50000, 50700), (7, 1)])
def test_mcnemar_exact_matches_scipy(b, c):
    assert V.mcnemar_exact(b, c) == pytest.approx(binomtest(min(b, c), b + c, 0.5).pvalue, rel=1e-9, abs=1e-300)


def test_mcnemar_hand_values():
    assert V.mcnemar_exact(4, 0) == 0.125            # 2 * (1/2)^4
    assert V.mcnemar_exact(0, 0) == 1.0
    assert V.mcnemar_exact(6, 6) == 1.0
    assert V.mcnemar_exact(1, 0) == 1.0
    assert V.mcnemar_exact(5, 1) == pytest.approx(2 * 7 / 64)   # 2 * (1 + 6) / 2^6


def test_holm_hand_worked():
    p = [0.01, 0.04, 0.03, 0.005]
    # sorted: 0.005 <= 0.05/4 reject; 0.01 <= 0.05/3 reject; 0.03 > 0.05/2 stop
    assert V.holm(p, 0.05) == [True, False, False, True]
    # adjusted: 4*0.005=0.02, 3*0.01=0.03, 2*0.03=0.06, max(1*0.04, 0.06)=0.06
    assert V.holm_adjusted(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert V.holm([0.01, 0.02, 0.03], 0.05) == [True, True, True]     # 0.01<=1/60, 0.02<=0.025, 0.03<=0.05
    assert V.holm([0.02, 0.02], 0.05) == [True, True]
    assert V.holm([0.03, 0.02], 0.05) == [True, True]                 # 0.02 <= 0.025, then 0.03 <= 0.05
    assert V.holm([0.03, 0.026], 0.05) == [False, False]              # 0.026 > 0.025: nothing
    assert V.holm([]) == [] and V.holm_adjusted([]) == []
    with pytest.raises(ValueError):
        V.holm([0.1, 1.5])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), max_size=12), st.sampled_from([0.01, 0.05, 0.1]))
def test_holm_rejects_a_subset_of_unadjusted_rejections(pvalues, alpha):
    rejected = V.holm(pvalues, alpha)
    adjusted = V.holm_adjusted(pvalues)
    assert all(p <= alpha for p, r in zip(pvalues, rejected, strict=True) if r)
    assert rejected == [q <= alpha for q in adjusted]
    assert all(q >= p for p, q in zip(pvalues, adjusted, strict=True))
    # Bonferroni's rejections are a subset of Holm's
    m = len(pvalues)
    assert all(r for p, r in zip(pvalues, rejected, strict=True) if p <= alpha / max(m, 1))


# --------------------------------------------------------------------------------------
# paired differences and convergence
# --------------------------------------------------------------------------------------

def test_paired_difference_hand_computed():
    d, (lo, hi) = V.paired_difference([1, 1, 0, 1, 0], [1, 0, 0, 0, 0])
    # differences 0,1,0,1,0: mean 0.4, sample sd sqrt(0.3)
    half = 1.959963984540054 * math.sqrt(0.3) / math.sqrt(5)
    assert d == pytest.approx(0.4)
    assert (lo, hi) == (pytest.approx(0.4 - half), pytest.approx(0.4 + half))


def test_paired_difference_never_zero_width():
    zeros = np.zeros(20, dtype=int)
    d, (lo, hi) = V.paired_difference(zeros, zeros)
    exact = binomtest(0, 20).proportion_ci(confidence_level=0.95, method="exact").high   # Clopper-Pearson 0 of 20
    assert d == 0.0 and hi == pytest.approx(exact, abs=1e-12) and lo == pytest.approx(-exact, abs=1e-12)
    ones = np.ones(20, dtype=int)
    d, (lo, hi) = V.paired_difference(ones, ones)
    assert d == 0.0 and hi - lo > 0.3
    d, (lo, hi) = V.paired_difference(ones, zeros)
    assert d == 1.0 and hi == 1.0 and lo < 1.0
    d, (lo, hi) = V.paired_difference([1], [0])
    assert d == 1.0 and lo < 0.5
    assert V.paired_difference([], []) == (0.0, (-1.0, 1.0))
    with pytest.raises(ValueError):
        V.paired_difference([1, 0], [1])
    with pytest.raises(ValueError):
        V.paired_difference([1, 2], [1, 0])


def _pairs(rng, cells, runs, n):
    """a, b: runs x n arrays of 0/1, cells = P(both win), P(a only), P(b only), P(neither)."""
    cat = rng.choice(4, size=(runs, n), p=cells)
    return ((cat == 0) | (cat == 1)).astype(int), ((cat == 0) | (cat == 2)).astype(int)


def test_paired_difference_covers_by_simulation():
    rng = np.random.default_rng(4000)
    cells = [0.40, 0.15, 0.10, 0.35]      # true difference 0.05, common dice make the pairs agree 75%
    a, b = _pairs(rng, cells, 1000, 400)
    covered = 0
    for x, y in zip(a, b, strict=True):
        _, (lo, hi) = V.paired_difference(x, y)
        covered += lo <= 0.05 <= hi
    print(f"paired difference, n=400: coverage {covered / 1000:.1%}")
    assert 0.93 <= covered / 1000 <= 0.97


@pytest.mark.parametrize("cells", [[0.28, 0.28, 0.22, 0.22],     # independent: 0.56 vs 0.50
                                   [0.50, 0.06, 0.00, 0.44],     # common dice: they differ only one way
                                   [0.45, 0.08, 0.02, 0.45]])
def test_twenty_games_a_level_never_converge(cells):
    # the "a skill curve at 20 games a level never says converged": a true
    # 6-point difference, margin 5 points
    rng = np.random.default_rng(20)
    a, b = _pairs(rng, cells, 500, 20)
    statuses = [V.convergence(*V.paired_difference(x, y), 0.05) for x, y in zip(a, b, strict=True)]
    assert "converged" not in statuses


def test_convergence_at_its_boundaries():
    assert V.convergence(0.0, (-0.05, 0.05), 0.05) == "converged"
    assert V.convergence(0.0, (-0.0500001, 0.03), 0.05) == "undecided"
    assert V.convergence(0.0, (-0.03, 0.0500001), 0.05) == "undecided"
    assert V.convergence(0.07, (0.05, 0.1), 0.05) == "undecided"
    assert V.convergence(0.07, (0.0500001, 0.1), 0.05) == "moving"
    assert V.convergence(-0.07, (-0.2, -0.05), 0.05) == "undecided"
    assert V.convergence(-0.07, (-0.2, -0.0500001), 0.05) == "moving"
    with pytest.raises(ValueError):
        V.convergence(0.0, (0.1, -0.1), 0.05)
    with pytest.raises(ValueError):
        V.convergence(0.05, (-0.01, 0.01), 0.0)
    with pytest.raises(ValueError):
        V.convergence(0.3, (-0.01, 0.01), 0.05)     # arguments swapped?


def test_convergence_at_many_games():
    rng = np.random.default_rng(8)
    a, b = _pairs(rng, [0.45, 0.05, 0.05, 0.45], 1, 20000)   # no difference, 10% discordant
    assert V.convergence(*V.paired_difference(a[0], b[0]), 0.05) == "converged"
    a, b = _pairs(rng, [0.40, 0.15, 0.05, 0.40], 1, 2000)    # a 10-point difference
    assert V.convergence(*V.paired_difference(a[0], b[0]), 0.05) == "moving"


def test_games_needed_difference_closed_form():
    # (1.96 * 0.5 / 0.05)^2 = 384.1 -> 385 games in all
    assert V.games_needed_difference(0.0, 0.5, 100, 0.05) == 285
    half = lambda N: Z * 0.5 / math.sqrt(N)     # noqa: E731
    assert half(385) <= 0.05 < half(384)
    assert V.games_needed_difference(0.0, 0.5, 1000, 0.05) == 0
    assert V.games_needed_difference(0.05, 0.5, 100, 0.05) is None
    assert V.games_needed_difference(0.02, 0.0, 100, 0.05) is None


# --------------------------------------------------------------------------------------
# Tango's score interval for the discordant pairs
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("b,c,n", [(1, 7, 21), (6, 16, 161), (5, 1, 44), (1, 0, 20), (0, 3, 30), (40, 20, 160),
                                   (300, 250, 4000), (20, 0, 20), (0, 20, 20), (10, 10, 50)])
def test_discordant_interval_is_tangos(b, c, n):
    lo, hi = V.discordant_interval(b, c, n)
    est = (b - c) / n
    assert lo <= est <= hi and hi - lo > 0
    for end, target, edge in ((lo, Z, -1.0), (hi, -Z, 1.0)):
        if end == edge:
            assert est == edge
            continue
        assert tango_z(b, c, n, end) == pytest.approx(target, abs=1e-6)
        root = brentq(lambda d, t=target: tango_z(b, c, n, d) - t, -1 + 1e-12, 1 - 1e-12, xtol=1e-14)
        assert end == pytest.approx(root, abs=1e-9)


def test_discordant_interval_without_discordant_games_is_exact():
    for n in (1, 5, 20, 400):
        exact = binomtest(0, n).proportion_ci(confidence_level=0.95, method="exact").high
        assert V.discordant_interval(0, 0, n) == (pytest.approx(-exact, abs=1e-12), pytest.approx(exact, abs=1e-12))
    with pytest.raises(ValueError):
        V.discordant_interval(5, 6, 10)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 3000).flatmap(
    lambda n: st.integers(0, n).flatmap(lambda b: st.tuples(st.just(b), st.integers(0, n - b), st.just(n)))))
def test_discordant_interval_excludes_zero_as_mcnemars_score_test_rejects(bcn):
    b, c, n = bcn
    lo, hi = V.discordant_interval(b, c, n)
    assert lo <= (b - c) / n <= hi
    if b + c == 0:
        return
    statistic = abs(b - c) / math.sqrt(b + c)    # at delta = 0 Tango's score is McNemar's
    if abs(statistic - Z) > 1e-6:
        assert (lo > 0 or hi < 0) == (statistic > Z)


def test_discordant_interval_covers_by_simulation():
    rng = np.random.default_rng(1998)
    n, runs, pb, pc = 50, 2000, 0.05, 0.02      # few discordant games: where Wald intervals fail
    counts = rng.multinomial(n, [pb, pc, 1 - pb - pc], size=runs)
    covered = sum(lo <= pb - pc <= hi for lo, hi in (V.discordant_interval(int(x), int(y), n)
                                                     for x, y, _ in counts))
    print(f"Tango, n=50: coverage {covered / runs:.1%}")
    assert covered / runs >= 0.93
