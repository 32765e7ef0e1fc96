"""The skill curve's unpaired difference (no per-game records) is Newcombe's hybrid
interval of :func:`simulator.run.intervals.newcombe_difference`, the one implementation
(issue 42, item 4: ``balance._unpaired_side`` re-implemented it)."""

import math

import pytest

from simulator.engine.core.balance import _unpaired_side, curve_convergence
from simulator.run.intervals import newcombe_difference

Z = 1.959963984540054     # the 97.5% normal quantile


def _wilson(x: int, n: int) -> tuple[float, float]:
    """Wilson's interval written out here, independently of simulator.run."""
    p = x / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _former(x1: int, n1: int, x2: int, n2: int) -> tuple[float, float, float]:
    """The formula balance._unpaired_side carried before it called newcombe_difference."""
    p1, p2 = x1 / n1, x2 / n2
    (l1, u1), (l2, u2) = _wilson(x1, n1), _wilson(x2, n2)
    d = p1 - p2
    return d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def test_sixty_against_fifty_of_a_hundred_by_hand():
    # Wilson(60, 100) = (0.50200, 0.69060), Wilson(50, 100) = (0.40383, 0.59617);
    # d = 0.1, lo = 0.1 - sqrt(0.09800^2 + 0.09617^2) = -0.03730,
    # hi = 0.1 + sqrt(0.09060^2 + 0.09617^2) = 0.23212
    out = _unpaired_side({"p": 0.6}, {"p": 0.5}, (100, 100), 0.05)
    assert out["p"] == pytest.approx(0.1, abs=1e-12)
    assert out["ci95"] == pytest.approx([-0.03730, 0.23212], abs=1e-5)
    assert out["status"] == "undecided"      # the interval straddles +-0.05


@pytest.mark.parametrize("x1,n1,x2,n2", [(0, 50, 50, 50), (50, 50, 0, 50), (0, 30, 0, 40), (17, 200, 33, 150),
                                          (299, 300, 1, 300), (123, 400, 250, 400)])
def test_same_numbers_as_the_former_formula(x1, n1, x2, n2):
    d, lo, hi = _former(x1, n1, x2, n2)
    out = _unpaired_side({"p": x1 / n1}, {"p": x2 / n2}, (n1, n2), 0.05)
    assert out["p"] == pytest.approx(d, abs=1e-12)
    assert out["ci95"] == pytest.approx([lo, hi], abs=1e-12)
    assert (out["p"], tuple(out["ci95"])) == newcombe_difference(x1, n1, x2, n2)


def test_curve_convergence_unpaired_reads_it():
    rows = [{"level": "a", "games": 100, "win_rate": {"first": {"p": 0.5}}},
            {"level": "b", "games": 100, "win_rate": {"first": {"p": 0.6}}}]
    diff = curve_convergence(rows, ["first"], 0.05)["difference"]["first"]
    assert diff["ci95"] == pytest.approx([-0.03730, 0.23212], abs=1e-5)     # as by hand above
