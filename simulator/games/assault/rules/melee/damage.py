"""Assigning damage in close combat (12.5; revised 12.1.4) and the attack on wheels or
tracks (12.9; revised 12.5), as numba-compiled functions of ints.

A unit's close-combat state is four ints: ``status`` (where the unit is, see the
``IN_HEX`` ... constants), ``damage`` points taken, ``morale`` (the marker of 13.3:
steady / suppressed / fallback, as in :mod:`simulator.games.assault.rules.damage`) and
``immobilised`` (vehicles, 13.1). The same functions serve the exact calculator, the
Monte Carlo kernels and the scenario engine.

Readings (docs/rulings.md, "Close combat readings"): damage >= strength eliminates
(rulings #5); damage points and suppression first, then each critical hit adds the
damage points of the counter's flip (the revised 12.6 example), never more than leaves
the flipped unit one strength point, or eliminates a unit already at half strength
(rulings #8, CC2); a
suppression in a close-combat hex is a fallback (12.5), and a fallback eliminates
artillery, immobilised vehicles and units already in fallback (13.1, 13.3).
"""

from __future__ import annotations

import numba

from simulator.games.assault.rules.damage import FALLBACK, STEADY, SUPPRESSED, fall_back

# Where a unit is (close-combat status)
ABSENT = 0        # not in this close combat (an unused slot, or a reinforcement not yet arrived)
IN_HEX = 1        # fighting in the close-combat hex
FELL_BACK = 2     # suppressed in the hex and fell back out of it (12.5)
WITHDREW = 3      # left the hex: withdrawal (12.6, revised 12.1.6.1) or the tracks result (12.9)
ELIMINATED = 4
STAYED_OUT = 5    # a reinforcement that did not enter because the close combat had ended
STATUS_NAMES = ("absent", "in hex", "fell back", "withdrew", "eliminated", "stayed out")


@numba.njit(cache=True)
def eliminated(strength):
    """The one state of an eliminated unit: all its strength lost, no markers."""
    return ELIMINATED, strength, STEADY, 0


@numba.njit(cache=True)
def after_close_combat(kind, strength, half_at, ignores_supp, damage, morale, immobilised,
                       crit, hit, supp):
    """A unit's state after the uncancelled symbols of one close-combat attack on it.

    ``crit, hit, supp`` are the symbols left after cancellation (10.7.2) and after the
    adrenaline rush (12.7.2, revised 12.1.5). Order (12.5, revised 12.1.4): damage
    points, then suppression, then critical hits (each one the flip's damage points, ``half_at``,
    leaving at least one strength point, or elimination at half strength). Returns
    ``(status, damage, morale, immobilised)``; the status is ``IN_HEX``, ``FELL_BACK``
    or ``ELIMINATED``.
    """
    damage = damage + hit
    if damage >= strength:                       # rulings #5: damage >= strength eliminates
        return eliminated(strength)
    status = IN_HEX
    if supp > 0 and ignores_supp == 0:           # 12.5: suppressed in a CC hex -> fallback
        gone, morale = fall_back(kind, morale, immobilised)
        if gone == 1:                            # artillery, immobilised vehicle (13.1), second fallback
            return eliminated(strength)
        status = FELL_BACK
    for _ in range(crit):                        # 12.5, revised 12.1.4 (rulings CC2): a unit already at
        if damage >= half_at:                    # half strength is eliminated; otherwise the crit is the
            return eliminated(strength)          # flip's damage points on top of those taken (revised
        damage = min(damage + half_at, strength - 1)   # 12.6 step 8: 1 + 1 crit on 4 strength is 3), but
    return status, damage, morale, immobilised  # it only flips the unit: one point stays (CC2, revised)


@numba.njit(cache=True)
def after_tracks_attack(strength, ignores_supp, damage, morale, immobilised, crit, hit, supp):
    """A vehicle's state after infantry attacked its wheels or tracks (12.9, revised 12.5).

    The symbols are those left after the green die is compared with the vehicle's blue
    die (10.7.2). A crit and a hit together (the double success) immobilise and add a
    damage point; a crit or a hit immobilises; a suppression alone suppresses the
    vehicle and it must leave the hex (an immobilised vehicle cannot and is abandoned,
    13.1). Returns ``(status, damage, morale, immobilised)``.
    """
    if crit > 0 and hit > 0:
        damage = damage + 1
        if damage >= strength:
            return eliminated(strength)
        return IN_HEX, damage, morale, 1
    if crit > 0 or hit > 0:
        return IN_HEX, damage, morale, 1
    if supp > 0 and ignores_supp == 0:
        if immobilised == 1:
            return eliminated(strength)
        return WITHDREW, damage, SUPPRESSED, immobilised
    return IN_HEX, damage, morale, immobilised


@numba.njit(cache=True)
def enter_hex_of(kind, morale, immobilised, edition):
    """What entering the hex of a suppressed or fallen-back enemy does to it (12.0;
    revised 12.0 keeps only the fallback case). Returns ``(status, morale)``:
    ``IN_HEX`` when a close combat follows.
    """
    if morale == FALLBACK:                       # both editions: eliminated
        return ELIMINATED, morale
    if morale == SUPPRESSED and edition == 1:    # first edition: immediate fallback
        gone, m = fall_back(kind, morale, immobilised)
        if gone == 1:
            return ELIMINATED, m
        return FELL_BACK, m
    return IN_HEX, morale
