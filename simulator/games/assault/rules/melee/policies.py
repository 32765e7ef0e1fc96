"""The players' choices in close combat, as named, replaceable policies.

- **Withdrawal** (revised 12.1.6.1; first edition 12.6, rulings #10): whether a unit
  leaves the close combat. Policies are named; reports say which was used.
- **Re-rolls** (revised 12.1.1.1, 12.1.2; rulings #11): which die a re-roll is spent on.
- **Target** (12.2, 12.3): which enemy unit a reinforcing or renewing unit attacks.
- **Wheels or tracks** (12.9; revised 12.5): whether infantry attacks a vehicle or its
  wheels/tracks.

The decision functions are numba-compiled and take ints, so the exact calculator, the
Monte Carlo kernels and the scenario engine decide the same way.
"""

from __future__ import annotations

import numba
import numpy as np

from simulator.run.errors import InputError

# --- withdrawal (rulings #10) ---------------------------------------------------------
from simulator.run.vocabulary import AT_HALF, DEFAULT_WITHDRAW_POLICY, HALF_STRENGTH, WEAKER, WITHDRAW_POLICIES  # noqa: E402 - one definition


def withdraw_policy_code(name: str, where: str = "--withdraw-policy") -> int:
    try:
        return WITHDRAW_POLICIES[name][0]
    except KeyError:
        raise InputError(where, "", f"unknown withdrawal policy {name!r} "
                         f"({', '.join(WITHDRAW_POLICIES)})") from None


def parse_withdraw_policies(text: str | None) -> tuple[str, str]:
    """``"NAME"`` (both sides) or ``"ATTACKER,DEFENDER"`` -> two policy names."""
    if text is None:
        return DEFAULT_WITHDRAW_POLICY, DEFAULT_WITHDRAW_POLICY
    parts = [p.strip() for p in text.split(",")]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2:
        raise InputError("--withdraw-policy", "", f"give NAME or ATTACKER,DEFENDER (got {text!r})")
    for p in parts:
        withdraw_policy_code(p)
    return parts[0], parts[1]


@numba.njit(cache=True)
def wants_withdraw(policy, own_remaining, own_half, enemy_any_full, enemy_max_remaining):
    """Whether a unit withdraws (rulings #10).

    ``own_remaining``: strength points left; ``own_half``: 1 at half strength;
    ``enemy_any_full``: 1 if an enemy unit in the hex is not at half strength;
    ``enemy_max_remaining``: the most strength points an enemy unit in the hex has left.
    """
    if policy == HALF_STRENGTH:
        return own_half == 1 and enemy_any_full == 1
    if policy == AT_HALF:
        return own_half == 1
    if policy == WEAKER:
        return own_remaining < enemy_max_remaining
    return False


# --- re-rolls (rulings #11) -----------------------------------------------------------
# A face is worth 4 per crit, 2 per hit and 1 per suppression (12.5: a crit in close
# combat takes a unit to half strength; a suppression is the weakest result, and the
# adrenaline rush ignores one). A re-roll goes to the die whose re-roll gains most in
# expected worth; attack re-rolls may take any die, defence re-rolls only a blank one
# (rulings #11). Ties go to the stronger die (the one earlier in the pool).
FACE_WORTH = (4.0, 2.0, 1.0)
NEVER_REROLL = -1.0


def face_worth(face) -> float:
    return sum(w * n for w, n in zip(FACE_WORTH, face, strict=True))


def reroll_gains(faces, *, defence: bool) -> np.ndarray:
    """``float64[6]``: what re-rolling this die gains in expected worth when it shows
    each face (``faces`` as counted, i.e. after the doubles rule). Faces that may not
    or should not be re-rolled get ``NEVER_REROLL``."""
    mean = sum(face_worth(f) for f in faces) / len(faces)
    out = np.full(len(faces), NEVER_REROLL)
    for i, f in enumerate(faces):
        if defence and sum(f) > 0:
            continue
        gain = mean - face_worth(f)
        if gain > 0:
            out[i] = gain
    return out


# --- target of a reinforcing or renewing unit (12.2, 12.3) ----------------------------
@numba.njit(cache=True)
def weakest_enemy(candidates_remaining):
    """Index of the enemy unit to attack: the one with the fewest strength points left
    (ties: the first). ``candidates_remaining[i] < 0`` marks a unit not in the hex.
    Returns -1 when there is none."""
    best, best_left = -1, 1 << 30
    for i in range(candidates_remaining.shape[0]):
        left = candidates_remaining[i]
        if left >= 0 and left < best_left:
            best, best_left = i, left
    return best


# --- wheels or tracks (12.9, revised 12.5) --------------------------------------------
TRACKS_NEVER, TRACKS_WHILE_MOBILE = 0, 1


@numba.njit(cache=True)
def attacks_tracks(tracks_policy, attacker_is_infantry, target_is_vehicle, target_immobilised):
    """Infantry attacks the wheels/tracks while the vehicle can still move, then the
    vehicle itself (the revised 12.5 lets the choice change every round)."""
    return (tracks_policy == TRACKS_WHILE_MOBILE and attacker_is_infantry == 1
            and target_is_vehicle == 1 and target_immobilised == 0)
