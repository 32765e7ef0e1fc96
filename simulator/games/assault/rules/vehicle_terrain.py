"""Damage to vehicles from terrain (9.10.1, 9.10.2) and overrunning artillery (9.10.3).

When a vehicle enters a hex whose terrain has vehicle-damage dice (the aid's
``vehicle_damage`` column), the opponent rolls those dice and the vehicle defends with
the strongest defence die on its card, whatever its action (9.10.1). Uncancelled
results (9.10.2): a critical hit immobilises it (further crits are ignored), every
damage point counts, and a suppression suppresses it (only the first counts).

The question ``terrain_damage("german/pz-iif", "forest")``
(:mod:`simulator.games.assault.questions.terrain_damage`) answers exactly or by Monte
Carlo with the same state table as :func:`~simulator.games.assault.rules.fire.fire`,
from the rule's functions here. The overrun's last shot
is a fire situation (``FireSituation(overrun=True)``, built in
:mod:`~simulator.games.assault.rules.pools`); :func:`overrun_succeeds` reads its outcome.
"""

from __future__ import annotations

import numba
import numpy as np

from simulator.games.assault.rules.aid import Aid
from simulator.games.assault.rules.cards import UnitCard
from simulator.games.assault.rules.damage import STEADY, VEHICLE, state_count, state_index, suppress
from simulator.games.assault.rules.dice import DiceSet, Pool, format_pool, normalise
from simulator.games.assault.rules.exact import roll_outcome
from simulator.games.assault.rules.kernels import cancel_packed
from simulator.games.assault.rules.pools import Step
from simulator.run.errors import InputError
from simulator.run.rng import seed_state, sum_rolls


@numba.njit(cache=True)
def terrain_damage_effect(strength, damage, morale, immobilised, ignores_supp, crit, hit, supp,
                          crit_is_damage):
    """A vehicle's state after a terrain-damage roll (9.10.2).

    Damage points first (a crit adds one too only with ``crit_is_damage``, the 10.7.3
    reading), then one suppression, then immobilisation for any uncancelled crit.
    Returns ``(eliminated, damage, morale, immobilised)``.
    """
    damage = damage + hit + (crit if crit_is_damage == 1 else 0)
    if damage >= strength:                       # rulings #5
        return 1, strength, morale, immobilised
    if supp > 0 and ignores_supp == 0:           # only the first suppression counts
        gone, morale = suppress(VEHICLE, morale, immobilised, 0)
        if gone == 1:
            return 1, damage, morale, immobilised
    if crit > 0:                                 # immobilised; further crits ignored
        immobilised = 1
    return 0, damage, morale, immobilised


@numba.njit(cache=True, nogil=True)
def terrain_damage_counts(faces, strength, damage, morale, immobilised, ignores_supp, crit_is_damage,
                          n_trials, state, counts):
    """Terrain-damage rolls ``n_trials`` times; histogram the vehicle's state."""
    for _ in range(n_trials):
        c, h, s = cancel_packed(sum_rolls(faces, state), 0)
        e, d, m, i = terrain_damage_effect(strength, damage, morale, immobilised, ignores_supp,
                                           c, h, s, crit_is_damage)
        counts[state_index(e, d, m, i)] += 1


def terrain_damage_chunk(args: tuple, n_states: int, n_trials: int, seed_seq: np.random.SeedSequence) -> np.ndarray:
    counts = np.zeros(n_states, dtype=np.int64)
    terrain_damage_counts(*args, n_trials, seed_state(seed_seq), counts)
    return counts


def immobilised_states(n_states: int) -> np.ndarray:
    """Which state indices (:func:`~simulator.games.assault.rules.damage.state_index`) are immobilised."""
    index = np.arange(n_states)
    return (index > 0) & ((index - 1) % 2 == 1)


def immobilised_count(mask: np.ndarray, counts: np.ndarray) -> float:
    """Trials that left the vehicle immobilised: the headline, P(immobilised)."""
    return float(counts[mask].sum())


def terrain_pools(vehicle: UnitCard, terrain: str, aid: Aid, *, hill: bool = False) -> tuple[Pool, Pool, list[Step]]:
    """The terrain's vehicle-damage dice against the vehicle's strongest card die (9.10.1)."""
    if not vehicle.is_vehicle:
        raise InputError("VEHICLE", "", f"{vehicle.id} is not a vehicle: terrain damages vehicles only (9.10.1)")
    t = aid.terrain(terrain, "--terrain")
    if aid.movement_cost(terrain, vehicle.movement_type, climbing=hill) is None:
        raise InputError("--terrain", "", f"{vehicle.id} ({vehicle.movement_type}) may not enter {terrain} (9.4)")
    steps: list[Step] = []
    attack = t.vehicle_damage
    steps.append(Step("attack", "9.10.1", f"terrain chart, vehicle damage: {terrain}", "+" + format_pool(attack),
                      format_pool(attack)))
    if hill and aid.hill.vehicle_damage:
        attack = normalise((*attack, *aid.hill.vehicle_damage), aid.dice)
        steps.append(Step("attack", "9.10.1, 9.6.1", "hill row, vehicle damage",
                          "+" + format_pool(aid.hill.vehicle_damage), format_pool(attack)))
    best = vehicle.strongest_defence_die(aid.dice)
    defence = (best,) if best else ()
    steps.append(Step("defence", "9.10.1", "strongest defence die on the card (any action)",
                      "+" + format_pool(defence), format_pool(defence)))
    return attack, defence, steps


def exact_terrain_states(attack: Pool, defence: Pool, dice: DiceSet, strength: int, damage: int,
                         ignores_supp: int, crit_is_damage: bool, morale: int = STEADY) -> np.ndarray:
    """Exact distribution over the vehicle's states (``state_index``)."""
    out = np.zeros(state_count(strength))
    dist = roll_outcome(attack, defence, dice)
    for (c, h, s) in zip(*np.nonzero(dist), strict=True):
        e, d, m, i = terrain_damage_effect(strength, damage, morale, 0, ignores_supp, int(c), int(h), int(s),
                                           int(crit_is_damage))
        out[state_index(e, d, m, i)] += float(dist[c, h, s])
    return out


@numba.njit(cache=True)
def last_shot_stops(eliminated, shaken, immobilised):
    """9.10.3 (rulings C7): the gun's last shot stops the tank when it left it destroyed,
    immobilised, or suppressed or worse (``shaken``: suppressed or in fallback). The one
    reading of the rule, for ``fire --overrun`` and the scenario engine alike."""
    return eliminated or shaken or immobilised


def overrun_succeeds(state: dict) -> bool:
    """9.10.3: the gun is overrun unless its last shot stopped the tank (:func:`last_shot_stops`)."""
    return not last_shot_stops(bool(state["eliminated"]), bool(state["suppressed"] or state["fallback"]),
                               bool(state["immobilised"]))
