"""Exact odds (10.7.2) against hand-computed cases and brute force over every face."""

import itertools
import time
from fractions import Fraction

import numpy as np
import pytest

from simulator.games.assault import odds
from simulator.games.assault.questions.odds import odds_outcomes
from simulator.games.assault.rules.compare import uncancelled
from simulator.games.assault.rules.dice import load_dice, parse_pool, single_symbol
from simulator.games.assault.rules.exact import roll_outcome

DICE = load_dice()


def as_dict(frame):
    return {(r.crit, r.hit, r.supp): r.p for r in frame.itertuples()}


def assert_matches(frame, expected_36ths, denom=36):
    got = as_dict(frame)
    assert set(got) == set(expected_36ths)
    for outcome, n in expected_36ths.items():
        assert got[outcome] == pytest.approx(n / denom, abs=1e-15)


def test_blue_against_nothing():
    assert_matches(odds("B", "-"), {(0, 0, 0): 4, (0, 1, 0): 1, (0, 0, 1): 1}, denom=6)


def test_red_against_blue_by_hand():
    # Worked by hand over the 36 face pairs (see 10.7.2: crit > hit > supp).
    # R crit+hit vs B hit -> crit (1); vs supp/blank -> crit+hit (5)
    # R crit -> crit (6); R hit (x2) vs B hit -> nothing (2), else hit (10)
    # R supp vs B hit or supp -> nothing (2), else supp (4); R blank -> nothing (6)
    assert_matches(odds("R", "B"), {(0, 0, 0): 10, (0, 0, 1): 4, (0, 1, 0): 10,
                                    (1, 0, 0): 7, (1, 1, 0): 5})


def test_doubles_strongest_and_weakest():
    # rulings.md #2: a double counts as its strongest / weakest symbol only
    assert_matches(odds("R", "-", doubles="strongest"),
                   {(1, 0, 0): 2, (0, 1, 0): 2, (0, 0, 1): 1, (0, 0, 0): 1}, denom=6)
    assert_matches(odds("R", "-", doubles="weakest"),
                   {(1, 0, 0): 1, (0, 1, 0): 3, (0, 0, 1): 1, (0, 0, 0): 1}, denom=6)


def test_doubles_rule_applies_to_the_attack_only():
    # 10.8.1: every symbol of the defence roll counts
    assert as_dict(odds("B", "R", doubles="strongest")) == as_dict(odds("B", "R"))


def test_recruit_extra_supp_can_be_cancelled():
    # rulings.md #4: B (+1 supp) against B, by hand over 36 face pairs
    assert_matches(odds("B", "B", extra_supp=1),
                   {(0, 0, 1): 19, (0, 1, 0): 1, (0, 1, 1): 4, (0, 0, 2): 4, (0, 0, 0): 8})


def brute_force(attack, defence, doubles="all", extra_supp=0):
    """Independent check: enumerate every face of every die."""
    atk = parse_pool(attack, DICE)
    dfn = parse_pool(defence, DICE)
    faces = [[single_symbol(f, doubles) for f in DICE.die(x).faces] for x in atk]
    faces += [list(DICE.die(x).faces) for x in dfn]
    out = {}
    n = len(atk)
    for roll in itertools.product(*faces):
        a = np.sum(roll[:n], axis=0) if n else np.zeros(3, int)
        d = np.sum(roll[n:], axis=0) if len(roll) > n else np.zeros(3, int)
        key = tuple(int(x) for x in uncancelled(a[0], a[1], a[2] + extra_supp, d[0], d[1], d[2]))
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 6 ** len(roll))
    return out


@pytest.mark.parametrize("attack,defence,doubles,extra", [
    ("RY", "YG", "all", 0), ("RRG", "YB", "all", 0), ("RY", "YG", "strongest", 0),
    ("YGB", "GG", "weakest", 1), ("-", "RY", "all", 0), ("RYGB", "-", "all", 2),
])
def test_exact_equals_brute_force(attack, defence, doubles, extra):
    got = as_dict(odds(attack, defence, doubles=doubles, extra_supp=extra))
    want = brute_force(attack, defence, doubles, extra)
    assert set(got) == set(want)
    for k in want:
        assert got[k] == pytest.approx(float(want[k]), abs=1e-14)


def test_summary_of_the_chapter_11_pools():
    # 11.0: Rifles '41 fire RY at Heavy Rifles '41 defending YG in clear terrain
    s = odds_outcomes("RY", "YG").summary
    frame = odds("RY", "YG")
    assert frame["p"].sum() == pytest.approx(1.0, abs=1e-14)
    assert s.p_damage_at_least[0] == pytest.approx(1.0)
    assert s.p_damage_at_least[1] == pytest.approx(1 - frame[(frame.crit + frame.hit) == 0].p.sum())
    assert s.mean_damage == pytest.approx(s.mean_crit + s.mean_hit)
    assert s.damage_quantiles["5%"] == 0 and s.damage_quantiles["95%"] == 3


def test_twelve_dice_a_side_is_instant():
    """Twelve dice a side, exact, in well under a second of this process's CPU (not wall
    time: the suite runs on both cores beside other work, which stretches wall time)."""
    t0 = time.process_time()
    dist = roll_outcome(parse_pool("12R", DICE), parse_pool("12R", DICE), DICE)
    mixed = odds("4R4Y4G", "3R3Y3G3B")
    elapsed = time.process_time() - t0
    assert dist.sum() == pytest.approx(1.0, abs=1e-12)
    assert mixed["p"].sum() == pytest.approx(1.0, abs=1e-12)
    assert elapsed < 0.5
