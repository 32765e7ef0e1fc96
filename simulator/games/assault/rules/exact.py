"""Exact outcome distributions of battle-dice rolls.

A roll's result is the count of each symbol (crit, hit, supp). The distribution of
a pool's totals is built die by die: each die's six faces shift the running
distribution, so the work grows with the number of dice times the number of
reachable totals, never with 6**n. Attack and defence totals are then combined
through the cancellation rule of :mod:`simulator.games.assault.rules.compare`.

Distributions are ``float64[crit+1, hit+1, supp+1]`` arrays indexed by counts.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from simulator.games.assault.rules.compare import uncancelled
from simulator.games.assault.rules.dice import DiceSet, Pool, single_symbol
from simulator.run.errors import InputError


@cache
def _die_faces(faces: tuple[tuple[int, int, int], ...], doubles: str) -> tuple[tuple[tuple[int, int, int], float], ...]:
    """A die's distinct faces (after the doubles rule) with their probabilities."""
    counts: dict[tuple[int, int, int], int] = {}
    for face in faces:
        f = single_symbol(face, doubles)
        counts[f] = counts.get(f, 0) + 1
    return tuple((f, n / len(faces)) for f, n in counts.items())


def add_die(dist: np.ndarray, face_probs) -> np.ndarray:
    """The distribution of totals after rolling one more die."""
    top = np.max([f for f, _ in face_probs], axis=0)
    out = np.zeros(tuple(n + t for n, t in zip(dist.shape, top, strict=True)))
    c, h, s = dist.shape
    for (fc, fh, fs), p in face_probs:
        out[fc:fc + c, fh:fh + h, fs:fs + s] += p * dist
    return out


def pool_shape(pool: Pool, dice: DiceSet, doubles: str = "all", extra_supp: int = 0) -> tuple[int, int, int]:
    """The shape of :func:`pool_distribution`, without computing it."""
    shape = [1, 1, 1 + extra_supp]
    for letter in pool:
        top = np.max([f for f, _ in _die_faces(dice.die(letter).faces, doubles)], axis=0)
        shape = [n + int(t) for n, t in zip(shape, top, strict=True)]
    return (shape[0], shape[1], shape[2])


def pool_distribution(pool: Pool, dice: DiceSet, doubles: str = "all", extra_supp: int = 0) -> np.ndarray:
    """Distribution of the symbol totals a pool rolls.

    ``doubles`` applies the single-success rule to double faces (10.8.1,
    rulings.md #2). ``extra_supp`` adds fixed ``supp`` symbols to the roll
    (a recruit target, 4.2.3, rulings.md #4).
    """
    dist = np.zeros((1, 1, 1 + extra_supp))
    dist[0, 0, extra_supp] = 1.0
    for letter in pool:
        dist = add_die(dist, _die_faces(dice.die(letter).faces, doubles))
    return dist


def _support(dist: np.ndarray):
    idx = np.nonzero(dist)
    return idx[0], idx[1], idx[2], dist[idx]


MAX_EXACT_PAIRS = 200_000_000   # attack totals x defence totals compared exactly (about 20 s)
BLOCK_PAIRS = 1 << 21           # compared at a time: the temporaries stay near 200 MiB


def uncancelled_distribution(attack: np.ndarray, defence: np.ndarray) -> np.ndarray:
    """Distribution of the attack symbols left after the defence cancels (10.7.2).

    Every attack total meets every defence total; they are compared a block of attack
    totals at a time, so memory does not grow with the product. More than
    :data:`MAX_EXACT_PAIRS` pairs is refused (``InputError``): Monte Carlo answers that.
    """
    ac, ah, asup, ap = _support(attack)
    dc, dh, ds, dp = _support(defence)
    pairs = len(ap) * len(dp)
    if pairs > MAX_EXACT_PAIRS:
        raise InputError("ATTACK and DEFENCE", "", f"exact odds would compare {len(ap):,} attack totals "
                         f"with {len(dp):,} defence totals ({pairs:,} pairs); at most {MAX_EXACT_PAIRS:,} "
                         "pairs (use --trials N for Monte Carlo)")
    shape = attack.shape
    out = np.zeros(int(np.prod(shape)))
    step = max(1, BLOCK_PAIRS // max(1, len(dp)))
    for i in range(0, len(ap), step):
        a = slice(i, i + step)
        c, h, s = uncancelled(ac[a, None], ah[a, None], asup[a, None], dc[None, :], dh[None, :], ds[None, :])
        flat = np.ravel_multi_index((c.ravel(), h.ravel(), s.ravel()), shape)
        out += np.bincount(flat, weights=(ap[a, None] * dp[None, :]).ravel(), minlength=out.size)
    return out.reshape(shape)


def roll_outcome(attack: Pool, defence: Pool, dice: DiceSet, *, doubles: str = "all",
                 extra_supp: int = 0) -> np.ndarray:
    """Exact distribution of uncancelled (crit, hit, supp) for an attack on a defence.

    ``doubles`` is the attacker's rule; every defence symbol counts (10.8.1).
    """
    atk = pool_distribution(attack, dice, doubles, extra_supp)
    dfn = pool_distribution(defence, dice, "all")
    return uncancelled_distribution(atk, dfn)
