"""Exact distributions: binomial dice counts and their differences (no 6**n enumeration).

Every Tide of Iron roll is a count of successes on identical d6s, so a pool of ``n``
black dice succeeding from face ``f`` is Binomial(n, (7 - f) / 6), and the red dice
Binomial(m, 1/3) (001 Resolving an attack, step 4). Joint tables are outer products;
hits are read off them by :func:`hits_pmf`. These are the exact answers the Monte
Carlo kernels (``kernels.py``) are checked against.
"""

from __future__ import annotations

import math

import numpy as np

from simulator.games.toi.rules.attack import DEFENCE_SUCCESS_FROM, Attack, net_hits


def success_chance(from_face: int) -> float:
    """Chance one d6 shows ``from_face`` or more."""
    return (7 - from_face) / 6


def binomial_pmf(n: int, p: float) -> np.ndarray:
    """``P(k successes)`` for ``k = 0..n`` (closed form, exact up to float rounding)."""
    q = 1.0 - p
    return np.array([math.comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)])


def thick_armour(pmf: np.ndarray) -> np.ndarray:
    """Defence successes after turning one failed red die into a 6 (001 Tanks: Thick Armor)."""
    n = len(pmf) - 1
    if n == 0:
        return pmf.copy()
    out = np.zeros_like(pmf)
    out[1:] += pmf[:-1]      # one more success ...
    out[n] += pmf[n]         # ... unless every die already succeeded
    return out


def roll_joint(attack: Attack) -> np.ndarray:
    """``P[a, d]``: a black successes and d red successes (thick armour applied)."""
    black = binomial_pmf(attack.attack_strength, success_chance(attack.success_from))
    red = binomial_pmf(attack.defence_strength, success_chance(DEFENCE_SUCCESS_FROM))
    if attack.thick_armour:
        red = thick_armour(red)
    return np.outer(black, red)


def hits_pmf(joint: np.ndarray) -> np.ndarray:
    """Hits = black successes minus red successes, at least 0 (001 step 4), from a joint table."""
    n_att, n_def = joint.shape
    a = np.arange(n_att)[:, None]
    d = np.arange(n_def)[None, :]
    hits = net_hits(a, d)
    return np.bincount(hits.ravel(), weights=joint.ravel(), minlength=n_att)


def black_pmf(joint: np.ndarray) -> np.ndarray:
    """Black-die successes alone (an area attack's 3+ removes razor wire, 001 Razor wire)."""
    return joint.sum(axis=1)


def assault_joint(attack_strength: int, cover: int, defender_strength: int) -> np.ndarray:
    """``P[h_att, h_def]`` of an assault (002 steps 4-5): both sides' hits, independent."""
    black = binomial_pmf(attack_strength, success_chance(4))           # 002 step 4: 4-6
    red = binomial_pmf(cover, success_chance(DEFENCE_SUCCESS_FROM))     # 002 step 4: 5-6
    attacker_hits = hits_pmf(np.outer(black, red))
    defender_hits = binomial_pmf(defender_strength, success_chance(4))  # 002 step 5: 4-6
    return np.outer(attacker_hits, defender_hits)
