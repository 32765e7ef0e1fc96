"""The ranged-fire question: what happens when this unit fires at that one here?

``fire("german/rifles-41", "soviet/heavy-rifles-41", FireSituation(range=3))``
returns a tidy DataFrame of the target's states afterwards (one row per state with
its probability; ``se`` by Monte Carlo), with the pools, the explanation and the
summary in ``df.attrs``. Exact and Monte Carlo share :func:`fire_pools` (the dice)
and :func:`after_fire` (the damage rules); the spotting roll and the critical-hit
roll are part of the exact computation, not sampled.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path

import numpy as np
import pandas as pd

from simulator import runner
from simulator.assault.aid import Aid, load_aid
from simulator.assault.cards import UnitCard, load_units
from simulator.assault.damage import (
    ARTILLERY, CRIT_ATTACK_DIE, CRIT_DEFENCE_DIE, FALLBACK, INFANTRY, STEADY, SUPPRESSED, VEHICLE,
    after_fire, state_count, state_index, strongest_symbol, unpack_state,
)
from simulator.assault.dice import DiceSet, as_dice, format_pool
from simulator.assault.exact import roll_outcome
from simulator.assault.kernels import crit_roll_tables, fire_chunk, packed_faces
from simulator.assault.pools import FirePools, FireSituation, fire_pools
from simulator.errors import InputError
from simulator.stats import proportion_se

STATE_COLUMNS = ["eliminated", "damage", "half_strength", "suppressed", "fallback", "immobilised"]


@dataclass(frozen=True)
class Target:
    """The target's rules constants and its state before the fire, as ints."""

    kind: int
    strength: int
    ignores_supp: int
    delayed: int
    damage: int
    morale: int
    immobilised: int


def kind_of(card: UnitCard) -> int:
    """The unit kind the damage rules distinguish (10.7.5 vs 10.7.6; artillery 10.7.3)."""
    return VEHICLE if card.is_vehicle else ARTILLERY if card.is_artillery else INFANTRY


def target_of(card: UnitCard, s: FireSituation, aid: Aid) -> Target:
    kind = kind_of(card)
    status = set(s.target_status)
    morale = FALLBACK if "fallback" in status else SUPPRESSED if "suppressed" in status else STEADY
    return Target(kind, card.strength, int(aid.experience(s.target_experience).ignores_supp),
                  int("delayed" in status), s.target_damage, morale, int("immobilised" in status))


@cache
def _crit_symbol_probs(n: int, dice: DiceSet) -> tuple[tuple[int, float], ...]:
    """Distribution of the strongest symbol of n green against n blue (10.7.5)."""
    dist = roll_outcome((CRIT_ATTACK_DIE,) * n, (CRIT_DEFENCE_DIE,) * n, dice)
    probs: dict[int, float] = {}
    for (c, h, s), p in zip(zip(*np.nonzero(dist)), dist[np.nonzero(dist)]):
        sym = strongest_symbol(int(c), int(h), int(s))
        probs[sym] = probs.get(sym, 0.0) + float(p)
    return tuple(probs.items())


def exact_states(pools: FirePools, t: Target, dice: DiceSet) -> np.ndarray:
    """Exact distribution over target states (indexed by ``state_index``)."""
    out = np.zeros(state_count(t.strength))
    branches = [(pools.p_spotted, pools.defence)]
    if pools.p_spotted < 1:
        branches.append((1 - pools.p_spotted, pools.defence_unspotted))
    for p_branch, defence in branches:
        if p_branch == 0:
            continue
        if defence is None:   # a vehicle not spotted cannot be fired at (10.5)
            out[state_index(0, t.damage, t.morale, t.immobilised)] += p_branch
            continue
        dist = roll_outcome(pools.attack, defence, dice, doubles=pools.doubles, extra_supp=pools.extra_supp)
        for (c, h, s) in zip(*np.nonzero(dist)):
            c, h, s = int(c), int(h), int(s)
            p = p_branch * float(dist[c, h, s])
            symbols = _crit_symbol_probs(c, dice) if c > 0 and t.damage + c + h < t.strength else ((0, 1.0),)
            for symbol, q in symbols:
                e, d, m, i = after_fire(t.kind, t.strength, t.ignores_supp, t.delayed, t.damage, t.morale,
                                        t.immobilised, c, h, s, symbol)
                out[state_index(e, d, m, i)] += p * q
    return out


def simulate_states(pools: FirePools, t: Target, dice: DiceSet, *, trials: int, seed: int,
                    workers: int | None = None, progress: str | None = None,
                    chunk_trials: int = runner.DEFAULT_CHUNK_TRIALS) -> np.ndarray:
    """Monte Carlo counts over target states (same indexing as :func:`exact_states`)."""
    spotted = packed_faces(pools.attack, pools.defence, dice, pools.doubles)
    unspotted = (packed_faces(pools.attack, pools.defence_unspotted, dice, pools.doubles)
                 if pools.defence_unspotted is not None else spotted)
    spot_need = 0 if pools.spot_number is None else pools.spot_number
    max_crits = sum(max(f[0] for f in dice.die(x).faces) for x in pools.attack)
    crit_g, crit_b = crit_roll_tables(max_crits, dice)
    args = (spot_need, spotted, unspotted, int(pools.defence_unspotted is not None), pools.extra_supp,
            crit_g, crit_b, t.kind, t.strength, t.ignores_supp, t.delayed, t.damage, t.morale, t.immobilised)
    task = partial(fire_chunk, args, state_count(t.strength))
    return runner.run(task, trials, seed=seed, workers=workers, progress=progress, chunk_trials=chunk_trials)


def state_frame(dist: np.ndarray, strength: int, half_at: int, trials: int | None) -> pd.DataFrame:
    rows = [{**unpack_state(i, strength, half_at), "p": float(dist[i])} for i in np.nonzero(dist)[0]]
    frame = pd.DataFrame(rows, columns=STATE_COLUMNS + ["p"])
    if trials is not None:
        frame["se"] = proportion_se(frame["p"].to_numpy(), trials)
    return frame.sort_values(["eliminated", "damage", "fallback", "suppressed", "immobilised"],
                             ascending=[False, False, False, False, False], ignore_index=True)


def summarise_states(frame: pd.DataFrame, damage_before: int, trials: int | None) -> dict:
    p = frame["p"].to_numpy()
    elim = frame["eliminated"].to_numpy(bool)
    worse = elim | frame["suppressed"].to_numpy(bool) | frame["fallback"].to_numpy(bool)
    dmg = frame["damage"].to_numpy() - damage_before
    summary = {"p_eliminated": float(p[elim].sum()), "p_suppressed_or_worse": float(p[worse].sum()),
               "p_fallback": float(p[frame["fallback"].to_numpy(bool)].sum()),
               "p_immobilised": float(p[frame["immobilised"].to_numpy(bool)].sum()),
               "mean_damage": float((dmg * p).sum())}
    if trials is not None:
        mean = summary["mean_damage"]
        summary["se"] = {k: float(proportion_se(v, trials)) for k, v in summary.items() if k.startswith("p_")}
        summary["se"]["mean_damage"] = float(np.sqrt(((dmg - mean) ** 2 * p).sum() / trials))
    return summary


def unit(units: dict[str, UnitCard], unit_id: str, where: str) -> UnitCard:
    try:
        return units[unit_id]
    except KeyError:
        raise InputError(where, "", f"unknown unit {unit_id!r} (see 'lanchester assault units')") from None


def fire(firer: str, target: str, situation: FireSituation, *, exact: bool = True,
         trials: int | None = None, seed: int | None = None, workers: int | None = None,
         dice: DiceSet | str | Path | None = None, aid: Aid | str | Path | None = None,
         units_dir: str | Path | None = None, progress: str | None = None) -> pd.DataFrame:
    """Distribution of the target's state after ``firer`` fires at it (chapter 10)."""
    dice = as_dice(dice)
    aid = aid if isinstance(aid, Aid) else load_aid(aid, dice)
    units = load_units(units_dir, dice)
    f, g = unit(units, firer, "FIRER"), unit(units, target, "TARGET")
    pools = fire_pools(f, g, situation, aid)
    t = target_of(g, situation, aid)
    monte_carlo = trials is not None or not exact
    if monte_carlo:
        trials = trials or 1_000_000
        seed = runner.fresh_seed() if seed is None else seed
        dist = simulate_states(pools, t, dice, trials=trials, seed=seed, workers=workers, progress=progress) / trials
    else:
        dist = exact_states(pools, t, dice)
    frame = state_frame(dist, g.strength, g.half_strength_threshold, trials if monte_carlo else None)
    frame.attrs.update({
        "method": "monte-carlo" if monte_carlo else "exact",
        "trials": trials if monte_carlo else None, "seed": seed if monte_carlo else None,
        "firer": f.id, "target": g.id, "range": situation.range,
        "attack_pool": format_pool(pools.attack), "defence_pool": format_pool(pools.defence),
        "defence_pool_unspotted": None if pools.defence_unspotted is None else format_pool(pools.defence_unspotted),
        "doubles": pools.doubles, "extra_supp": pools.extra_supp,
        "target_strength": g.strength, "target_damage_before": situation.target_damage,
        "p_spotted": pools.p_spotted, "spot_number": pools.spot_number,
        "explain": [s.__dict__ for s in pools.steps],
        "dice": dice.name, "dice_status": dice.status, "aid": aid.name, "aid_status": aid.status,
        "summary": summarise_states(frame, situation.target_damage, trials if monte_carlo else None),
    })
    return frame
