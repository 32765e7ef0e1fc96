"""Assigning damage (10.7.3), critical-hit effects (10.7.5, 10.7.6) and morale (13.3).

One function, :func:`after_fire`, turns a unit's state and the uncancelled symbols of
one ranged-fire roll (plus the strongest symbol of its critical-hit roll) into the
unit's new state. The rule functions are numba-compiled and take only ints, so the
exact calculator calls them from Python, the Monte Carlo kernels call them inline,
and the scenario engine will call them too.

State: ``damage`` points taken, ``morale`` (steady / suppressed / fallback, 13.3),
``immobilised`` (vehicles, 13.1), ``eliminated``.
"""

from __future__ import annotations

import numba

# Unit kinds (4.2)
INFANTRY, ARTILLERY, VEHICLE = 0, 1, 2
# Morale status markers (13.3)
STEADY, SUPPRESSED, FALLBACK = 0, 1, 2
MORALE_NAMES = ("steady", "suppressed", "fallback")
# Strongest uncancelled symbol of the critical-hit roll (10.7.5, 10.7.6)
CRIT_ROLL_NONE, CRIT_ROLL_SUPP, CRIT_ROLL_HIT, CRIT_ROLL_CRIT = 0, 1, 2, 3
# The critical-hit roll: a green die for the attacker and a blue die for the
# defender per uncancelled crit (10.7.5, 10.7.6)
CRIT_ATTACK_DIE, CRIT_DEFENCE_DIE = "G", "B"


@numba.njit(cache=True)
def strongest_symbol(crit, hit, supp):
    """The strongest uncancelled symbol of a critical-hit roll (10.7.5)."""
    if crit > 0:
        return CRIT_ROLL_CRIT
    if hit > 0:
        return CRIT_ROLL_HIT
    if supp > 0:
        return CRIT_ROLL_SUPP
    return CRIT_ROLL_NONE


@numba.njit(cache=True)
def crit_roll_due(crit, hit, damage, strength):
    """Whether ``crit`` uncancelled crits call for a critical-hit roll (10.7.5, 10.7.6):
    yes, unless the crits and hits (damage points, 10.7.3) have eliminated the unit
    with ``damage`` points already taken (rulings.md #6)."""
    return crit > 0 and damage + crit + hit < strength


@numba.njit(cache=True)
def fall_back(kind, morale, immobilised):
    """A fallback (13.3). Returns ``(eliminated, morale)``.

    Artillery and immobilised vehicles are eliminated (10.7.3); a unit already in
    fallback is eliminated by a second one (13.3).
    """
    if kind == ARTILLERY or immobilised == 1 or morale == FALLBACK:
        return 1, morale
    return 0, FALLBACK


@numba.njit(cache=True)
def suppress(kind, morale, immobilised, delayed):
    """A suppression (10.7.3, 13.3, rulings.md #7). Returns ``(eliminated, morale)``.

    A steady unit is suppressed, or falls back if it is marked delayed action
    (13.2); a suppressed unit falls back; a unit in fallback falls back again.
    """
    if morale == STEADY and delayed == 0:
        return 0, SUPPRESSED
    return fall_back(kind, morale, immobilised)


@numba.njit(cache=True)
def critical_effect(kind, morale, immobilised, delayed, symbol):
    """Effect of the critical-hit roll's strongest symbol (10.7.5, 10.7.6, rulings.md #6).

    Returns ``(eliminated, morale, immobilised)``. ``morale`` is the state after the
    main roll ("before resolving the critical hit").
    """
    if symbol == CRIT_ROLL_NONE:
        return 0, morale, immobilised
    if kind == VEHICLE:
        if symbol == CRIT_ROLL_CRIT:          # 10.7.6: immobilised; twice eliminates
            if immobilised == 1:
                return 1, morale, immobilised
            return 0, morale, 1
        if symbol == CRIT_ROLL_HIT:           # 10.7.6: fallback
            gone, m = fall_back(kind, morale, immobilised)
            return gone, m, immobilised
    elif symbol == CRIT_ROLL_CRIT:            # 10.7.5: infantry/artillery fall back
        gone, m = fall_back(kind, morale, immobilised)
        return gone, m, immobilised
    # hit (infantry/artillery) or supp (any): suppressed, or fallback if already (10.7.5/6)
    gone, m = suppress(kind, morale, immobilised, delayed)
    return gone, m, immobilised


@numba.njit(cache=True)
def after_fire(kind, strength, ignores_supp, delayed, damage, morale, immobilised,
               crit, hit, supp, crit_symbol):
    """A unit's state after one ranged-fire roll (10.7.3-10.7.6, rulings.md #5-#7).

    ``crit, hit, supp`` are the uncancelled symbols; ``crit_symbol`` the strongest
    symbol of the critical-hit roll (ignored when ``crit == 0``). Damage and
    suppression are applied first, then the critical effect (10.7.3); if the
    damage eliminated the unit there is no critical-hit roll (rulings.md #6).
    ``ignores_supp``: elite units ignore suppression symbols (4.2.3).
    Returns ``(eliminated, damage, morale, immobilised)``.
    """
    damage = damage + crit + hit              # a crit is also a damage point (10.7.3)
    if damage >= strength:                    # rulings.md #5: equal to strength eliminates
        return 1, strength, morale, immobilised
    if supp > 0 and ignores_supp == 0:        # any number of supp is one suppression (13.3)
        gone, morale = suppress(kind, morale, immobilised, delayed)
        if gone == 1:
            return 1, damage, morale, immobilised
    if crit > 0:
        gone, morale, immobilised = critical_effect(kind, morale, immobilised, delayed, crit_symbol)
        if gone == 1:
            return 1, damage, morale, immobilised
    return 0, damage, morale, immobilised


@numba.njit(cache=True)
def state_index(eliminated, damage, morale, immobilised):
    """Pack a state into one histogram index (0 = eliminated)."""
    if eliminated == 1:
        return 0
    return 1 + (damage * 3 + morale) * 2 + immobilised


def state_count(strength: int) -> int:
    return 1 + strength * 6


def unpack_state(index: int, strength: int, half_at: int) -> dict:
    """The state a histogram index stands for, in the JSON shape of ``fire``.

    ``half_at``: damage at which the counter flips to half strength (4.3).
    """
    if index == 0:
        return {"eliminated": True, "damage": strength, "half_strength": True,
                "suppressed": False, "fallback": False, "immobilised": False}
    rest, immobilised = divmod(index - 1, 2)
    damage, morale = divmod(rest, 3)
    return {"eliminated": False, "damage": damage, "half_strength": damage >= half_at,
            "suppressed": morale == SUPPRESSED, "fallback": morale == FALLBACK,
            "immobilised": bool(immobilised)}
