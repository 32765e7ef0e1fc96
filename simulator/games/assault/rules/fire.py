"""The rule kernels of ranged fire (chapters 7 and 10; 9.10.3): the target of a shot
(:func:`target_of`), the exact distribution of its states and outcomes
(:func:`exact_outcomes`: the spotting roll and the critical-hit roll are part of it, not
sampled) and the Monte Carlo run of the same (:func:`simulate_run`). Both share
:func:`fire_pools` (the dice) and :func:`after_fire` (the damage rules).

They cover indirect fire (7.1-7.4, with the two-stage roll against vehicles of 7.3),
smoke on the LOS (10.3), the overrun last shot (9.10.3), passengers and tank riders
(10.10) and fire into a close combat at an enemy vehicle (10.11). The fire question
itself, which answers with a value, is :func:`simulator.games.assault.questions.fire.fire`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache, partial

import numpy as np

from simulator.games.assault.rules.aid import Aid
from simulator.games.assault.rules.cards import UnitCard
from simulator.games.assault.rules.damage import (
    ARTILLERY,
    CRIT_ATTACK_DIE,
    CRIT_DEFENCE_DIE,
    FALLBACK,
    INFANTRY,
    STEADY,
    SUPPRESSED,
    VEHICLE,
    after_fire,
    state_count,
    state_index,
    strongest_symbol,
)
from simulator.games.assault.rules.dice import DiceSet, Pool
from simulator.games.assault.rules.exact import pool_distribution, roll_outcome, uncancelled_distribution
from simulator.games.assault.rules.fire_kernel import ONCE, REROLL_DAMAGE, REROLL_SUCCESS, fire_outcome_chunk
from simulator.games.assault.rules.kernels import crit_roll_tables, fire_chunk, packed_faces
from simulator.games.assault.rules.pools import (
    REROLL_DAMAGE_DICE,
    REROLL_SUCCESS_DICE,
    ROLL_ONCE,
    FirePools,
    FireSituation,
)
from simulator.games.assault.rules.set_aside import (
    KEEP_DAMAGE,
    KEEP_SUCCESS,
    keep_table,
    kept_distribution,
    split_distribution,
)
from simulator.games.assault.rules.transport import (
    N_EVENTS,
    NO_PASSENGERS,
    transport_event,
)
from simulator.run import runner

_KERNEL_MODE = {REROLL_DAMAGE_DICE: REROLL_DAMAGE, REROLL_SUCCESS_DICE: REROLL_SUCCESS}
_KEEP_RULE = {REROLL_DAMAGE_DICE: KEEP_DAMAGE, REROLL_SUCCESS_DICE: KEEP_SUCCESS}


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

    @property
    def index(self) -> int:
        """Its state before the fire, as a histogram index."""
        return state_index(0, self.damage, self.morale, self.immobilised)

    def as_array(self) -> np.ndarray:
        return np.array([self.kind, self.strength, self.ignores_supp, self.delayed, self.damage,
                         self.morale, self.immobilised], dtype=np.int64)


def kind_of(card: UnitCard) -> int:
    """The unit kind the damage rules distinguish (10.7.5 vs 10.7.6; artillery 10.7.3)."""
    return VEHICLE if card.is_vehicle else ARTILLERY if card.is_artillery else INFANTRY


def target_of(card: UnitCard, s: FireSituation, aid: Aid) -> Target:
    kind = kind_of(card)
    status = set(s.target_status)
    morale = FALLBACK if "fallback" in status else SUPPRESSED if "suppressed" in status else STEADY
    return Target(kind, card.strength, int(aid.experience(s.target_experience).ignores_supp),
                  int("delayed" in status), s.target_damage, morale, int("immobilised" in status))


def friendly_of(card: UnitCard, s: FireSituation) -> Target:
    """The friendly vehicle of 10.11: steady, regular, with its given damage."""
    return Target(VEHICLE, card.strength, 0, 0, s.friendly_damage, STEADY, 0)


@cache
def _crit_symbol_probs(n: int, dice: DiceSet) -> tuple[tuple[int, float], ...]:
    """Distribution of the strongest symbol of n green against n blue (10.7.5)."""
    dist = roll_outcome((CRIT_ATTACK_DIE,) * n, (CRIT_DEFENCE_DIE,) * n, dice)
    probs: dict[int, float] = {}
    for (c, h, s), p in zip(zip(*np.nonzero(dist), strict=True), dist[np.nonzero(dist)], strict=True):
        sym = strongest_symbol(int(c), int(h), int(s))
        probs[sym] = probs.get(sym, 0.0) + float(p)
    return tuple(probs.items())


def resolved(unc: np.ndarray, t: Target, dice: DiceSet):
    """Each (uncancelled symbols, critical-hit roll) outcome and the state it leaves:
    yields ``(c, h, s, eliminated, damage, morale, immobilised, p)`` (10.7.3-10.7.6)."""
    for (c, h, s) in zip(*np.nonzero(unc), strict=True):
        c, h, s = int(c), int(h), int(s)
        p = float(unc[c, h, s])
        symbols = _crit_symbol_probs(c, dice) if c > 0 and t.damage + c + h < t.strength else ((0, 1.0),)
        for symbol, q in symbols:
            e, d, m, i = after_fire(t.kind, t.strength, t.ignores_supp, t.delayed, t.damage, t.morale,
                                    t.immobilised, c, h, s, symbol)
            yield c, h, s, e, d, m, i, p * q


def state_distribution(attack: Pool, defence: Pool, t: Target, dice: DiceSet, doubles: str = "all",
                       extra_supp: int = 0) -> np.ndarray:
    """Exact distribution of a unit's state after one roll of ``attack`` at it."""
    out = np.zeros(state_count(t.strength))
    unc = roll_outcome(attack, defence, dice, doubles=doubles, extra_supp=extra_supp)
    for *_, e, d, m, i, p in resolved(unc, t, dice):
        out[state_index(e, d, m, i)] += p
    return out


def attack_cases(pools: FirePools, dice: DiceSet):
    """The attack rolls to resolve: ``(kept dice, totals distribution or None, weight)``.

    Rolled once: one case. 7.3: one case per set of dice kept by the first roll,
    whose re-roll is the attack (``None``: nothing kept, no effect). 10.11: one case
    per set of success dice, with the joint distribution of the roll's totals.
    """
    if pools.reroll == REROLL_DAMAGE_DICE:
        for kept, q in kept_distribution(pools.attack, dice, KEEP_DAMAGE, pools.doubles).items():
            yield kept, (pool_distribution(kept, dice, pools.doubles, pools.extra_supp) if kept else None), q
    elif pools.reroll == REROLL_SUCCESS_DICE:
        for kept, dist in split_distribution(pools.attack, dice, KEEP_SUCCESS, pools.doubles,
                                             pools.extra_supp).items():
            yield kept, dist, 1.0
    else:
        yield (), pool_distribution(pools.attack, dice, pools.doubles, pools.extra_supp), 1.0


def exact_outcomes(pools: FirePools, t: Target, dice: DiceSet, passenger_mode: int = NO_PASSENGERS,
                   friendly: Target | None = None) -> np.ndarray:
    """Exact joint distribution ``[passenger event, target state, friendly state]``."""
    n_f = state_count(friendly.strength) if friendly else 1
    f0 = friendly.index if friendly else 0
    out = np.zeros((N_EVENTS, state_count(t.strength), n_f))
    branches = [(pools.p_spotted, pools.defence)]
    if pools.p_spotted < 1:
        branches.append((1 - pools.p_spotted, pools.defence_unspotted))
    for p_branch, defence in branches:
        if p_branch == 0:
            continue
        if defence is None:   # a vehicle (or its riders) not spotted cannot be fired at (10.5)
            out[0, t.index, f0] += p_branch
            continue
        ddist = pool_distribution(defence, dice)
        for kept, adist, weight in attack_cases(pools, dice):
            if adist is None:   # 7.3: no die kept, the attack has no effect
                out[0, t.index, f0] += p_branch * weight
                continue
            unc = uncancelled_distribution(adist, ddist)
            fdist = (state_distribution(kept, pools.friendly_defence, friendly, dice, pools.doubles)
                     if friendly else None)
            for c, h, s, e, d, m, i, p in resolved(unc, t, dice):
                event = transport_event(passenger_mode, c, h, s, e, d, m, i, t.damage, t.morale, t.immobilised)
                w = p_branch * weight * p
                if fdist is None:
                    out[event, state_index(e, d, m, i), f0] += w
                else:
                    out[event, state_index(e, d, m, i), :] += w * fdist
    return out


def exact_states(pools: FirePools, t: Target, dice: DiceSet) -> np.ndarray:
    """Exact distribution over target states (indexed by ``state_index``)."""
    return exact_outcomes(pools, t, dice).sum(axis=(0, 2))


def eliminated(counts: np.ndarray) -> float:
    """Trials that eliminated the target (state index 0): the fire headline, P(eliminated).

    ``counts`` are the runner's merged counts: over target states (the lean kernel) or
    ``[passenger event, target state, friendly state]``.
    """
    return float(counts[0] if counts.ndim == 1 else counts[:, 0, :].sum())


def simulate_run(pools: FirePools, t: Target, dice: DiceSet, *, trials: int | None, seed: int,
                 passenger_mode: int = NO_PASSENGERS, friendly: Target | None = None,
                 workers: int | None = None, progress: str | None = None,
                 chunk_trials: int = runner.DEFAULT_CHUNK_TRIALS,
                 options: runner.RunOptions | None = None) -> runner.RunResult:
    """Monte Carlo run of the question through :func:`simulator.run.runner.execute`;
    ``.value`` has the shape and indexing of :func:`exact_outcomes`, ``.trials`` the
    trials run (chosen by the run with ``options.precision``, headline P(eliminated)).

    A plain roll with no passengers and no friendly vehicle runs the lean kernel of
    :mod:`~simulator.games.assault.rules.kernels`; everything else runs :mod:`~simulator.games.assault.rules.fire_kernel`.
    """
    run = partial(runner.execute, trials=trials, seed=seed, options=options, workers=workers,
                  progress=progress, chunk_trials=chunk_trials,
                  headline=runner.Headline("P(eliminated)", eliminated))
    max_crits = sum(max(f[0] for f in dice.die(x).faces) for x in pools.attack)
    crit_g, crit_b = crit_roll_tables(max_crits, dice)
    spot_need = 0 if pools.spot_number is None else pools.spot_number
    if pools.reroll == ROLL_ONCE and passenger_mode == NO_PASSENGERS and friendly is None:
        spotted = packed_faces(pools.attack, pools.defence, dice, pools.doubles)
        unspotted = (packed_faces(pools.attack, pools.defence_unspotted, dice, pools.doubles)
                     if pools.defence_unspotted is not None else spotted)
        args = (spot_need, spotted, unspotted, int(pools.defence_unspotted is not None), pools.extra_supp,
                crit_g, crit_b, t.kind, t.strength, t.ignores_supp, t.delayed, t.damage, t.morale, t.immobilised)
        result = run(partial(fire_chunk, args, state_count(t.strength)))
        counts = result.value
        out = np.zeros((N_EVENTS, len(counts), 1), dtype=counts.dtype)
        out[0, :, 0] = counts
        return dataclasses.replace(result, value=out)
    attack = packed_faces(pools.attack, (), dice, pools.doubles)
    keep = keep_table(pools.attack, dice, _KEEP_RULE.get(pools.reroll, KEEP_DAMAGE), pools.doubles)
    spotted = packed_faces((), pools.defence, dice, pools.doubles)
    unspotted = (packed_faces((), pools.defence_unspotted, dice, pools.doubles)
                 if pools.defence_unspotted is not None else spotted)
    friendly_def = packed_faces((), pools.friendly_defence or (), dice, pools.doubles)
    f = friendly or Target(VEHICLE, 1, 0, 0, 0, STEADY, 0)
    args = (_KERNEL_MODE.get(pools.reroll, ONCE), spot_need, int(pools.defence_unspotted is not None),
            attack, keep, spotted, unspotted, pools.extra_supp, crit_g, crit_b, t.as_array(),
            passenger_mode, friendly_def, f.as_array(), friendly.index if friendly else 0)
    shape = (N_EVENTS, state_count(t.strength), state_count(friendly.strength) if friendly else 1)
    return run(partial(fire_outcome_chunk, args, shape))


def simulate_outcomes(pools: FirePools, t: Target, dice: DiceSet, *, trials: int, seed: int,
                      passenger_mode: int = NO_PASSENGERS, friendly: Target | None = None,
                      workers: int | None = None, progress: str | None = None,
                      chunk_trials: int = runner.DEFAULT_CHUNK_TRIALS) -> np.ndarray:
    """Monte Carlo counts, same shape and indexing as :func:`exact_outcomes` (:func:`simulate_run`)."""
    return simulate_run(pools, t, dice, trials=trials, seed=seed, passenger_mode=passenger_mode,
                        friendly=friendly, workers=workers, progress=progress, chunk_trials=chunk_trials).value


def simulate_states(pools: FirePools, t: Target, dice: DiceSet, *, trials: int, seed: int,
                    workers: int | None = None, progress: str | None = None,
                    chunk_trials: int = runner.DEFAULT_CHUNK_TRIALS) -> np.ndarray:
    """Monte Carlo counts over target states (same indexing as :func:`exact_states`)."""
    return simulate_outcomes(pools, t, dice, trials=trials, seed=seed, workers=workers, progress=progress,
                             chunk_trials=chunk_trials).sum(axis=(0, 2))


def default_facing(target: UnitCard, situation: FireSituation) -> str | None:
    """The facing a vehicle target is hit on when none is given: its front (10.9.3), as
    ``matrix`` assumes; None when one is given or none is needed (not a vehicle, indirect
    fire hits above, the last shot of an overrun the front)."""
    if target.is_vehicle and situation.target_facing is None and not situation.indirect and not situation.overrun:
        return "front"
    return None
