"""Damage, critical hits and morale (10.7.3-10.7.6, 13.3, rulings.md #5-#7)."""

import pytest

from simulator.games.assault.rules.damage import (
    ARTILLERY,
    CRIT_ROLL_CRIT,
    CRIT_ROLL_HIT,
    CRIT_ROLL_NONE,
    CRIT_ROLL_SUPP,
    FALLBACK,
    INFANTRY,
    STEADY,
    SUPPRESSED,
    VEHICLE,
    after_fire,
)


def hit(kind=INFANTRY, strength=4, damage=0, morale=STEADY, immobilised=0, crit=0, h=0, supp=0,
        symbol=CRIT_ROLL_NONE, elite=0, delayed=0):
    return after_fire(kind, strength, elite, delayed, damage, morale, immobilised, crit, h, supp, symbol)


def test_damage_points_and_elimination_at_equal_strength():
    assert hit(h=2) == (0, 2, STEADY, 0)
    assert hit(damage=2, h=2)[0] == 1            # rulings #5: damage == strength eliminates
    assert hit(crit=1, h=2, damage=1, symbol=CRIT_ROLL_CRIT)[0] == 1   # a crit is a damage point


def test_any_number_of_supp_is_one_suppression_and_a_second_roll_falls_back():
    assert hit(supp=3) == (0, 0, SUPPRESSED, 0)
    assert hit(supp=1, morale=SUPPRESSED) == (0, 0, FALLBACK, 0)
    assert hit(supp=1, morale=FALLBACK)[0] == 1   # a second fallback eliminates (13.3)


def test_artillery_and_immobilised_vehicles_die_on_fallback():
    assert hit(kind=ARTILLERY, supp=1, morale=SUPPRESSED)[0] == 1
    assert hit(kind=VEHICLE, supp=1, morale=SUPPRESSED, immobilised=1)[0] == 1
    assert hit(kind=VEHICLE, supp=1, morale=SUPPRESSED) == (0, 0, FALLBACK, 0)


def test_elite_ignores_supp_and_delayed_falls_back():
    assert hit(supp=2, elite=1) == (0, 0, STEADY, 0)
    assert hit(supp=1, delayed=1) == (0, 0, FALLBACK, 0)   # 13.2 delayed action


@pytest.mark.parametrize("symbol,before,expected", [
    (CRIT_ROLL_CRIT, STEADY, (0, 1, FALLBACK, 0)),       # 10.7.5 crit: fallback
    (CRIT_ROLL_CRIT, FALLBACK, (1, 1, FALLBACK, 0)),     # already in fallback: eliminated
    (CRIT_ROLL_HIT, STEADY, (0, 1, SUPPRESSED, 0)),      # hit: suppressed
    (CRIT_ROLL_HIT, SUPPRESSED, (0, 1, FALLBACK, 0)),    # suppressed before: fallback
    (CRIT_ROLL_SUPP, STEADY, (0, 1, SUPPRESSED, 0)),     # supp: as a hit
    (CRIT_ROLL_NONE, STEADY, (0, 1, STEADY, 0)),
])
def test_critical_hits_against_infantry(symbol, before, expected):
    assert hit(crit=1, morale=before, symbol=symbol) == expected


def test_suppressed_by_the_main_roll_counts_before_the_critical_hit():
    # rulings #6: the main roll's supp applies first, so a crit-roll hit means fallback
    assert hit(crit=1, supp=1, symbol=CRIT_ROLL_HIT) == (0, 1, FALLBACK, 0)


def test_critical_hit_fallback_eliminates_artillery():
    assert hit(kind=ARTILLERY, crit=1, symbol=CRIT_ROLL_CRIT)[0] == 1
    assert hit(kind=ARTILLERY, crit=1, symbol=CRIT_ROLL_HIT) == (0, 1, SUPPRESSED, 0)


@pytest.mark.parametrize("symbol,immobilised,morale,expected", [
    (CRIT_ROLL_CRIT, 0, STEADY, (0, 1, STEADY, 1)),      # 10.7.6 crit: immobilised
    (CRIT_ROLL_CRIT, 1, STEADY, (1, 1, STEADY, 1)),      # twice: eliminated
    (CRIT_ROLL_HIT, 0, STEADY, (0, 1, FALLBACK, 0)),     # hit: fallback
    (CRIT_ROLL_HIT, 1, STEADY, (1, 1, STEADY, 1)),       # immobilised vehicle in fallback: gone
    (CRIT_ROLL_SUPP, 0, STEADY, (0, 1, SUPPRESSED, 0)),  # supp: suppressed
    (CRIT_ROLL_SUPP, 0, SUPPRESSED, (0, 1, FALLBACK, 0)),
])
def test_critical_hits_against_vehicles(symbol, immobilised, morale, expected):
    assert hit(kind=VEHICLE, strength=3, crit=1, morale=morale, immobilised=immobilised,
               symbol=symbol) == expected
