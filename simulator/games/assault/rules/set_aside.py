"""Dice set aside by what they show, and rolled again (7.3, 7.5, 10.11).

Three rules look at each die of a roll and sort it by its face:

- 7.3, indirect fire on vehicles: dice showing a blank or only suppression are set
  aside; the dice with a damage symbol are rolled again as the real attack.
- 7.5, smoke: dice without a damage symbol are set aside and rolled for the next hex.
- 10.11, firing at an enemy vehicle in close combat with a friendly vehicle: the dice
  that showed a success symbol are rolled again against the friendly vehicle.

:func:`split_distribution` gives, exactly, the joint distribution of a roll's symbol
totals and the dice it keeps; :func:`keep_table` compiles the same sorting rule into
a table the Monte Carlo kernels read (``1`` where a face keeps its die).
"""

from __future__ import annotations

import numpy as np

from simulator.games.assault.rules.dice import DiceSet, Face, Pool, single_symbol

# Which dice a rule keeps, by the face they show (after the firer's doubles rule).
KEEP_DAMAGE = "damage"          # a crit or a hit on the face (7.3; 7.5 "damage symbol")
KEEP_SUCCESS = "success"        # any symbol on the face (10.11 "success symbol", 10.7)
KEEP_RULES = (KEEP_DAMAGE, KEEP_SUCCESS)


def keeps(face: Face, rule: str) -> bool:
    """Whether a die showing ``face`` is kept under ``rule``."""
    if rule == KEEP_DAMAGE:
        return face[0] + face[1] > 0
    if rule == KEEP_SUCCESS:
        return sum(face) > 0
    raise ValueError(f"unknown keep rule {rule!r} ({', '.join(KEEP_RULES)})")


def keep_table(pool: Pool, dice: DiceSet, rule: str, doubles: str = "all") -> np.ndarray:
    """``int64[n_dice, 6]``: 1 where the die's face keeps it under ``rule``."""
    rows = [[int(keeps(single_symbol(f, doubles), rule)) for f in dice.die(x).faces] for x in pool]
    return np.array(rows, dtype=np.int64).reshape(len(pool), 6)


def _face_probs(letter: str, dice: DiceSet, doubles: str) -> dict[Face, float]:
    faces = dice.die(letter).faces
    out: dict[Face, float] = {}
    for f in faces:
        g = single_symbol(f, doubles)
        out[g] = out.get(g, 0.0) + 1.0 / len(faces)
    return out


def _shift(dist: np.ndarray, face: Face) -> np.ndarray:
    """``dist`` moved by one face's symbols, in the same shape (totals never overflow)."""
    fc, fh, fs = face
    c, h, s = dist.shape
    out = np.zeros_like(dist)
    out[fc:, fh:, fs:] = dist[:c - fc, :h - fh, :s - fs]
    return out


def split_distribution(pool: Pool, dice: DiceSet, rule: str, doubles: str = "all",
                       extra_supp: int = 0) -> dict[Pool, np.ndarray]:
    """The joint distribution of a roll's totals and the dice it keeps.

    Returns ``{kept_pool: dist}`` where ``dist[c, h, s]`` is the probability that the
    roll totals ``(c, h, s)`` symbols (``extra_supp`` added, 4.2.3) *and* keeps exactly
    ``kept_pool`` (a sub-pool of ``pool``, strongest first). The arrays share one
    shape and sum to 1 over all keys.
    """
    most = np.zeros(3, dtype=int)
    for x in pool:
        most += np.max([single_symbol(f, doubles) for f in dice.die(x).faces], axis=0)
    start = np.zeros((most[0] + 1, most[1] + 1, most[2] + 1 + extra_supp))
    start[0, 0, extra_supp] = 1.0
    cur: dict[Pool, np.ndarray] = {(): start}
    for letter in pool:   # pools are strongest first, so kept pools stay in that order
        nxt: dict[Pool, np.ndarray] = {}
        for kept, dist in cur.items():
            for face, p in _face_probs(letter, dice, doubles).items():
                key = (*kept, letter) if keeps(face, rule) else kept
                moved = p * _shift(dist, face)
                nxt[key] = nxt[key] + moved if key in nxt else moved
        cur = nxt
    return cur


def kept_distribution(pool: Pool, dice: DiceSet, rule: str, doubles: str = "all") -> dict[Pool, float]:
    """Probability of each kept sub-pool (the totals summed out)."""
    return {k: float(d.sum()) for k, d in split_distribution(pool, dice, rule, doubles).items()}
