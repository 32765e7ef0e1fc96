"""An oracle of its own for cancellation (10.7.2, rulings #1; issue 40): a cancellation
written here symbol by symbol, never imported from the program, held against the
program's ``uncancelled`` and its exact odds; hand-worked cases with defence crits; and
bounds from below as well as from above. A defence crit that no longer cancelled a hit
(R against R mean damage 15/36 turning into 17/36) fails every test of this file."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from simulator.games.assault import odds
from simulator.games.assault.questions.odds import odds_outcomes
from simulator.games.assault.rules.compare import uncancelled
from simulator.games.assault.rules.dice import load_dice

CRIT, HIT, SUPP = 3, 2, 1          # ranks: crit > hit > supp (10.7.2)


def cancel_by_hand(attack: tuple[int, int, int], defence: tuple[int, int, int]) -> tuple[int, int, int]:
    """10.7.2 as the rule book's players do it: each defence symbol, strongest first,
    removes the strongest attack symbol it may cancel (one of its own rank or weaker)."""
    left = [CRIT] * attack[0] + [HIT] * attack[1] + [SUPP] * attack[2]
    for d in [CRIT] * defence[0] + [HIT] * defence[1] + [SUPP] * defence[2]:
        can = [a for a in left if a <= d]
        if can:
            left.remove(max(can))
    return left.count(CRIT), left.count(HIT), left.count(SUPP)


# (attack crit, hit, supp), (defence crit, hit, supp) -> uncancelled, worked by hand
HAND = [
    # the defence crit finds no crit, so it cancels the strongest left: a hit (2 -> 1 hit)
    ((0, 2, 1), (1, 0, 0), (0, 1, 1)),
    # crit 1 cancels the crit, crit 2 the hit; the supp stays
    ((1, 1, 1), (2, 0, 0), (0, 0, 1)),
    # crit 1 the hit, crits 2 and 3 the two supps: nothing left
    ((0, 1, 2), (3, 0, 0), (0, 0, 0)),
    # hits cannot cancel a crit; the second defence hit and the supp find nothing their rank or weaker
    ((1, 0, 0), (0, 2, 1), (1, 0, 0)),
    # the defence crit takes the crit, the defence hit the hit: one crit left of two
    ((2, 1, 0), (1, 1, 0), (1, 0, 0)),
    # a defence supp cancels only a supp: the hit stays, the second supp too
    ((0, 1, 2), (0, 0, 1), (0, 1, 1)),
    # the defence crit, with no crit to cancel, takes the hit rather than the supp
    ((0, 1, 1), (1, 0, 0), (0, 0, 1)),
    # a defence hit with no hit left takes a supp
    ((0, 0, 2), (0, 1, 0), (0, 0, 1)),
]


@pytest.mark.parametrize("attack,defence,left", HAND)
def test_hand_worked_cases_with_defence_crits(attack, defence, left):
    assert cancel_by_hand(attack, defence) == left
    assert tuple(int(v) for v in uncancelled(*attack, *defence)) == left


def test_the_program_cancels_as_the_oracle_on_every_small_roll():
    # every roll of up to 4 symbols of each kind a side: 5**6 = 15,625 pairs
    for ac, ah, asu, dc, dh, ds in itertools.product(range(5), repeat=6):
        want = cancel_by_hand((ac, ah, asu), (dc, dh, ds))
        assert tuple(int(v) for v in uncancelled(ac, ah, asu, dc, dh, ds)) == want, (ac, ah, asu, dc, dh, ds)


def test_bounds_from_below_on_what_the_defence_cancels():
    """What a defence cancels is bounded from below too: each defence crit cancels a crit
    or a hit while one is left; a defence crit left over or a defence hit cancels a hit
    or a supp while one is left. And from above: never more than it rolled, of each rank
    or stronger."""
    for ac, ah, asu, dc, dh, ds in itertools.product(range(5), repeat=6):
        c, h, s = (int(v) for v in uncancelled(ac, ah, asu, dc, dh, ds))
        cancelled_crit, cancelled_hit, cancelled_supp = ac - c, ah - h, asu - s
        assert cancelled_crit == min(ac, dc)                                   # crits only by crits
        assert cancelled_crit + cancelled_hit >= min(dc, ac + ah)              # the lower bound the bug breaks
        # the defence crits left over after the crits, and the defence hits, each cancel a hit or a supp
        assert cancelled_hit + cancelled_supp >= min(max(0, dc - ac) + dh, ah + asu)
        # from above: nothing cancelled without a defence symbol at least as strong
        assert cancelled_crit + cancelled_hit <= dc + dh
        assert cancelled_crit + cancelled_hit + cancelled_supp <= dc + dh + ds


def test_red_against_red_by_the_oracle():
    """R against R over its 36 face pairs with the oracle's cancellation. The red die is
    crit+hit, crit, hit, hit, supp, blank; damage is uncancelled crits plus hits (10.7.3):
    attack crit+hit: 0 against crit+hit, 1 against crit, 1 + 1 against the hits, 2 + 2
    against supp and blank: 7; attack crit: 0, 0, 1 + 1, 1, 1: 4; each attack hit: 0
    against crit+hit, 0 against crit (the defence crit cancels the hit), 0 + 0, 1, 1: 2,
    twice: 4; supp and blank: 0. Mean damage 7 + 4 + 4 = 15 of 36 (a defence crit that
    did not cancel hits would add 1 for each attack hit against the crit: 17/36)."""
    red = load_dice().die("R").faces
    assert sorted(red) == sorted([(1, 1, 0), (1, 0, 0), (0, 1, 0), (0, 1, 0), (0, 0, 1), (0, 0, 0)])
    dist: dict[tuple[int, int, int], Fraction] = {}
    for a, d in itertools.product(red, red):
        k = cancel_by_hand(a, d)
        dist[k] = dist.get(k, Fraction(0)) + Fraction(1, 36)
    mean = sum((c + h) * p for (c, h, _s), p in dist.items())
    assert mean == Fraction(15, 36)
    frame = odds("R", "R")
    got = {(int(r.crit), int(r.hit), int(r.supp)): r.p for r in frame.itertuples()}
    assert set(got) == set(dist)
    for k, p in dist.items():
        assert got[k] == pytest.approx(float(p), abs=1e-15)
    assert odds_outcomes("R", "R").summary.mean_damage == pytest.approx(15 / 36, abs=1e-15)
