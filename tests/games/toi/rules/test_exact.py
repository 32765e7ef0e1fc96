"""Exact distributions against closed-form hand arithmetic (fractions, binomials)."""

from fractions import Fraction as F
from math import comb

import numpy as np
import pytest

from simulator.games.toi.rules import exact
from simulator.games.toi.rules.attack import from_strengths


def binom(n, k, p):
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def hits_by_hand(n_att, p_att, n_def, p_def=F(1, 3), thick=False):
    """P(hits = k) by summing over every (a, d) pair with exact fractions."""
    out = [F(0)] * (n_att + 1)
    for a in range(n_att + 1):
        for d in range(n_def + 1):
            dd = min(d + 1, n_def) if thick and n_def else d
            out[max(a - dd, 0)] += binom(n_att, a, p_att) * binom(n_def, d, p_def)
    return out


def test_three_dice_close_range_no_defence_is_binomial_half():
    pmf = exact.hits_pmf(exact.roll_joint(from_strengths(3, 0, "close")))
    assert pmf == pytest.approx([1 / 8, 3 / 8, 3 / 8, 1 / 8])


@pytest.mark.parametrize("band,p", [("close", F(1, 2)), ("normal", F(1, 3)), ("long", F(1, 6))])
@pytest.mark.parametrize("n_att,n_def", [(1, 1), (2, 1), (5, 3), (8, 2)])
def test_hits_match_hand_sums(band, p, n_att, n_def):
    pmf = exact.hits_pmf(exact.roll_joint(from_strengths(n_att, n_def, band)))
    assert pmf == pytest.approx([float(x) for x in hits_by_hand(n_att, p, n_def)], abs=1e-14)


def test_two_against_one_at_normal_range_by_hand():
    # P(0) = P(a=0) + P(a=1)P(d>=1) + P(a=2)P(d>=... ) etc.; P(2) = P(a=2)P(d=0) = 1/9 * 2/3
    pmf = exact.hits_pmf(exact.roll_joint(from_strengths(2, 1, "normal")))
    assert pmf[2] == pytest.approx(1 / 9 * 2 / 3)
    assert pmf[1] == pytest.approx(4 / 9 * 2 / 3 + 1 / 9 * 1 / 3)
    assert pmf.sum() == pytest.approx(1.0)


def test_area_attack_succeeds_on_5_6_and_6_at_long_range():
    normal = exact.black_pmf(exact.roll_joint(from_strengths(4, 0, "normal", area=True)))
    close = exact.black_pmf(exact.roll_joint(from_strengths(4, 0, "close", area=True)))
    long_ = exact.black_pmf(exact.roll_joint(from_strengths(4, 0, "long", area=True)))
    assert normal == pytest.approx([float(binom(4, k, F(1, 3))) for k in range(5)])
    assert close == pytest.approx(normal)  # 5-6 also when adjacent (strategy-card area attacks)
    assert long_ == pytest.approx([float(binom(4, k, F(1, 6))) for k in range(5)])


def test_thick_armour_turns_one_failed_red_die_into_a_six():
    pmf = exact.thick_armour(exact.binomial_pmf(2, 1 / 3))
    # two red dice: 0 successes -> 1, 1 -> 2, 2 stays 2
    assert pmf == pytest.approx([0, 4 / 9, 4 / 9 + 1 / 9])
    got = exact.hits_pmf(exact.roll_joint(from_strengths(6, 3, "normal", thick_armour=True)))
    assert got == pytest.approx([float(x) for x in hits_by_hand(6, F(1, 3), 3, thick=True)], abs=1e-14)
    assert exact.thick_armour(np.array([1.0])) == pytest.approx([1.0])  # no red dice, nothing to turn


def test_assault_joint_is_the_product_of_both_sides():
    joint = exact.assault_joint(3, 1, 2)
    att = hits_by_hand(3, F(1, 2), 1)
    dfn = [binom(2, k, F(1, 2)) for k in range(3)]
    assert joint == pytest.approx(np.outer([float(x) for x in att], [float(x) for x in dfn]))
    assert joint.sum() == pytest.approx(1.0)


def test_large_pools_stay_normalised():
    pmf = exact.hits_pmf(exact.roll_joint(from_strengths(400, 400, "long")))
    assert pmf.sum() == pytest.approx(1.0)
    assert np.all(pmf >= 0)
