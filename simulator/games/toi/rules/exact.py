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

from simulator.games.toi.rules.assault import ASSAULT_SUCCESS_FROM
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


def binomial_into(n, p, out):
    """``out[k]`` = P(``k`` successes of ``n`` dice), ``k = 0..n``, built one die at a time
    (exact up to float rounding; no factorials, so numba compiles it for the engine's greedy:
    :mod:`simulator.games.toi.rules.jit`)."""
    out[0] = 1.0
    for i in range(1, n + 1):
        out[i] = out[i - 1] * p
        for k in range(i - 1, 0, -1):
            out[k] = out[k] * (1.0 - p) + out[k - 1] * p
        out[0] = out[0] * (1.0 - p)


def assault_hits_into(attack_strength, cover, defender_strength, black, red, attacker_hits, defender_hits):
    """The two independent hit distributions of an assault (002 steps 4-5):
    ``attacker_hits[h]``, ``h = 0..attack_strength``, after the cover dice, and
    ``defender_hits[h]``, ``h = 0..defender_strength``; ``black`` and ``red`` are scratch
    (at least ``attack_strength + 1`` and ``cover + 1`` long). The calculator
    (:func:`assault_joint`) and the engine's greedy (compiled) read these same numbers."""
    binomial_into(attack_strength, success_chance(ASSAULT_SUCCESS_FROM), black)     # 002 step 4: 4-6
    binomial_into(cover, success_chance(DEFENCE_SUCCESS_FROM), red)                 # 002 step 4: 5-6
    for h in range(attack_strength + 1):
        attacker_hits[h] = 0.0
    for a in range(attack_strength + 1):
        for d in range(cover + 1):
            attacker_hits[net_hits(a, d)] += black[a] * red[d]
    binomial_into(defender_strength, success_chance(ASSAULT_SUCCESS_FROM), defender_hits)  # 002 step 5: 4-6


def assault_joint(attack_strength: int, cover: int, defender_strength: int) -> np.ndarray:
    """``P[h_att, h_def]`` of an assault (002 steps 4-5): both sides' hits, independent
    (:func:`assault_hits_into`)."""
    att, dfn = np.zeros(attack_strength + 1), np.zeros(defender_strength + 1)
    assault_hits_into(attack_strength, cover, defender_strength, np.zeros(attack_strength + 1),
                      np.zeros(cover + 1), att, dfn)
    return np.outer(att, dfn)
