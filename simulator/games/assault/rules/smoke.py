"""Firing smoke (7.5, German text; the English keeps only the end and the example).

A unit with the smoke ability rolls its indirect-fire attack dice at a target hex. No
defence roll, no damage, no suppression. Each damage symbol (crit or hit) rolled is one
smoke marker in that hex, at most four per hex (more are ignored). The dice that
rolled no damage symbol are set aside and rolled for an adjacent hex, the same way;
the dice that again rolled none may be rolled for a third hex. Then the unit is marked
*firing* (7.5, 7.0). The English example (7.5): four dice; two of them give three
markers in hex 1 (one shows a double); the other two go to hex 2, one giving one
marker; the last goes to hex 3 and gives two.

The question ``smoke("soviet/mortar-82mm")``
(:mod:`simulator.games.assault.questions.smoke`) gives the exact (or Monte Carlo) joint
distribution of the markers in each hex, from the rule's functions here. In ranged fire each marker the LOS crosses is a hindrance
(10.3, rulings #14): ``FireSituation(smoke=N)`` adds its LOS die per marker
(:mod:`~simulator.games.assault.rules.pools`); with the hindering hexes, three or more block.
"""

from __future__ import annotations

import numba
import numpy as np

from simulator.games.assault.rules.aid import Aid
from simulator.games.assault.rules.cards import UnitCard
from simulator.games.assault.rules.dice import DiceSet, Pool, format_pool, single_symbol
from simulator.games.assault.rules.indirect import check_fired_from, indirect_dice
from simulator.games.assault.rules.pools import MAX_HINDRANCES, PoolBuilder, Step
from simulator.games.assault.rules.resolve import parse_roll
from simulator.games.assault.rules.set_aside import KEEP_DAMAGE, split_distribution
from simulator.games.assault.rules.support import Support
from simulator.run.errors import InputError
from simulator.run.intervals import (
    outcome_intervals,
    summary_intervals,
)
from simulator.run.rng import below, seed_state
from simulator.run.stats import proportion_se

HEX_NAMES = ("target hex", "second hex", "third hex")


def smoke_pool(firer: UnitCard, aid: Aid, support: Support, *, distance: int | None = None,
               firer_terrain: str | None = None, firer_damage: int = 0, firer_experience: str = "regular",
               attack_die_minus_one: bool = False) -> tuple[Pool, str, list[Step]]:
    """The smoke dice (7.5: the card's indirect-fire attack roll, with the firer's
    attack modifiers of 10.8), the doubles rule, and the steps that built them."""
    if not firer.smoke:
        raise InputError("FIRER", "", f"{firer.id} cannot fire smoke (7.5: the smoke ability on its card)")
    if distance is not None:
        indirect_dice(firer, distance)
    check_fired_from(firer, firer_terrain, support)
    if not 0 <= firer_damage < firer.strength:
        raise InputError("--firer-damage", "", f"{firer.id} has strength {firer.strength}: "
                         f"damage must be 0..{firer.strength - 1}")
    steps: list[Step] = []
    b = PoolBuilder("smoke", aid.dice, steps)
    b.add(firer.indirect_fire.dice, "7.5, 7.1", "card back: indirect-fire attack dice")
    b.add(aid.experience(firer_experience).attack, "10.8.3", f"{firer_experience} firer")
    if attack_die_minus_one:
        b.lose_weakest("13.1, 10.8.1", "attack die -1 (fast action last turn)")
    half = firer_damage >= firer.half_strength_threshold
    if half:
        b.note("10.8.1", "half-strength firer", "doubles count once (strongest)")
    b.note("7.5", f"each crit or hit is one smoke marker, at most {support.max_markers_per_hex} per hex; "
           "no defence roll, no damage", "")
    b.note("7.5", "dice without a damage symbol are set aside and rolled for the next hex "
           f"(up to {support.max_hexes} hexes); then the firer is marked firing", "")
    return b.pool, ("strongest" if half else "all"), steps


def _minus(pool: Pool, kept: Pool) -> Pool:
    rest = list(pool)
    for x in kept:
        rest.remove(x)
    return tuple(rest)


def hex_roll(pool: Pool, dice: DiceSet, doubles: str, cap: int) -> dict[tuple[int, Pool], float]:
    """One hex of 7.5: ``{(markers, dice set aside): p}``."""
    out: dict[tuple[int, Pool], float] = {}
    for kept, dist in split_distribution(pool, dice, KEEP_DAMAGE, doubles).items():
        damage = dist.sum(axis=2)                        # [crit, hit]
        aside = _minus(pool, kept)
        for c, h in zip(*np.nonzero(damage), strict=True):
            key = (min(cap, int(c + h)), aside)
            out[key] = out.get(key, 0.0) + float(damage[c, h])
    return out


def exact_smoke(pool: Pool, dice: DiceSet, doubles: str, hexes: int, cap: int) -> np.ndarray:
    """Exact joint distribution ``p[m1, m2, m3]`` of the markers per hex (7.5)."""
    out = np.zeros((cap + 1,) * 3)

    def walk(rest: Pool, k: int, markers: tuple[int, ...], p: float) -> None:
        if k == hexes or not rest:
            m = markers + (0,) * (3 - len(markers))
            out[m] += p
            return
        for (m, aside), q in hex_roll(rest, dice, doubles, cap).items():
            walk(aside, k + 1, markers + (m,), p * q)

    walk(pool, 0, (), 1.0)
    return out


def damage_table(pool: Pool, dice: DiceSet, doubles: str) -> np.ndarray:
    """``int64[n, 6]``: damage symbols (crit + hit) on each face of each die."""
    rows = [[sum(single_symbol(f, doubles)[:2]) for f in dice.die(x).faces] for x in pool]
    return np.array(rows, dtype=np.int64).reshape(len(pool), 6)


@numba.njit(cache=True, nogil=True)
def smoke_counts(damage, hexes, cap, n_trials, state, counts):
    """7.5 ``n_trials`` times; histogram ``counts[m1, m2, m3]``."""
    n = damage.shape[0]
    aside = np.zeros(n, dtype=np.bool_)
    markers = np.zeros(3, dtype=np.int64)
    for _ in range(n_trials):
        aside[:] = True
        markers[:] = 0
        left = n
        for k in range(hexes):
            if left == 0:
                break
            total = 0
            for j in range(n):
                if aside[j]:
                    d = damage[j, below(state, 6)]
                    if d > 0:
                        total += d
                        aside[j] = False
                        left -= 1
            markers[k] = min(cap, total)
        counts[markers[0], markers[1], markers[2]] += 1


def smoke_chunk(args: tuple, cap: int, n_trials: int, seed_seq: np.random.SeedSequence) -> np.ndarray:
    counts = np.zeros((cap + 1,) * 3, dtype=np.int64)
    smoke_counts(*args, n_trials, seed_state(seed_seq), counts)
    return counts


def target_hex_smoked(counts: np.ndarray) -> float:
    """Trials with at least one marker in the target hex: the headline, P(target hex smoked)."""
    return float(counts.sum() - counts[0].sum())


def place_smoke(pool: Pool, rolls: list[str], dice: DiceSet, *, doubles: str = "all", cap: int = 4,
                max_hexes: int = 3) -> list[int]:
    """Adjudicate given smoke rolls, one roll string per hex (``"R:crit+hit Y:hit G:- G:-"``).

    Each roll after the first must be exactly the dice set aside by the one before
    (7.5). Returns the markers placed in each hex.
    """
    if not 1 <= len(rolls) <= max_hexes:
        raise InputError("--roll", "", f"smoke goes into 1 to {max_hexes} hexes (7.5), got {len(rolls)} rolls")
    expected = tuple(sorted(pool, key=dice.rank))
    out = []
    for k, text in enumerate(rolls):
        roll = parse_roll(text, dice, "--roll")
        got = tuple(sorted((x for x, _ in roll), key=dice.rank))
        if got != expected:
            raise InputError("--roll", "", f"hex {k + 1} must roll {format_pool(expected)} "
                             f"(the dice {'set aside' if k else 'of the pool'}), not {format_pool(got)}")
        faces = [(x, single_symbol(f, doubles)) for x, f in roll]
        out.append(min(cap, sum(f[0] + f[1] for _, f in faces)))
        expected = tuple(sorted((x for x, f in faces if f[0] + f[1] == 0), key=dice.rank))
        if not expected:
            break
    return out


def per_hex(dist: np.ndarray, hexes: int, support: Support, trials: int | None,
            possible: np.ndarray | None = None) -> list[dict]:
    """Markers in each hex: P(k markers), mean, and what they do to a LOS through it (10.3).
    By Monte Carlo each count of markers has its 95% interval; one the exact support
    (``possible``) rules out has ``[0, 0]``."""
    out = []
    for k in range(hexes):
        others = tuple(a for a in range(3) if a != k)
        pmf = dist.sum(axis=others)
        m = np.arange(len(pmf))
        blocks = float(pmf[MAX_HINDRANCES + 1:].sum())     # 10.3: three markers block on their own
        row = {"hex": k + 1, "name": HEX_NAMES[k], "p_markers": [float(x) for x in pmf],
               "mean_markers": float((m * pmf).sum()), "p_any": float(pmf[1:].sum()),
               "p_los_hindered": float(pmf[1:MAX_HINDRANCES + 1].sum()), "p_los_blocked": blocks}
        if support.removed_per_turn:   # 6.5: markers removed in each organisation phase
            turns = -(-m // support.removed_per_turn)
            row["mean_turns"] = float((turns * pmf).sum())
        if trials is not None:
            row["se"] = {"p_any": float(proportion_se(row["p_any"], trials)),
                         "p_los_blocked": float(proportion_se(blocks, trials)),
                         "mean_markers": float(np.sqrt(((m - row["mean_markers"]) ** 2 * pmf).sum() / trials))}
            lo, hi = outcome_intervals(pmf, trials)
            if possible is not None:
                can = possible.any(axis=others) | (pmf > 0)
                lo, hi = np.where(can, lo, 0.0), np.where(can, hi, 0.0)
            row["ci95"] = {**summary_intervals(row, trials),
                           "p_markers": [list(x) for x in zip(lo, hi, strict=True)]}
        out.append(row)
    return out

