"""The Monte Carlo kernel of a whole ranged-fire question (chapter 10, 7.3, 10.10, 10.11).

One trial: the spotting roll (10.5); the attack dice, rolled once, or rolled twice
with the dice without a damage symbol set aside in between (7.3); the defence roll;
cancellation (10.7.2); the critical-hit roll (10.7.5, 10.7.6); the target's new state
(:func:`~simulator.games.assault.rules.damage.after_fire`); what the passengers see
(:func:`~simulator.games.assault.rules.transport.transport_event`); and, when firing into a close
combat at an enemy vehicle, the success dice rolled again at the friendly vehicle
(10.11). It histograms ``counts[event, target_state, friendly_state]``.

The rules are the shared numba functions; this module only strings them together, as
:func:`simulator.games.assault.rules.fire.exact_outcomes` does for the exact answer.
"""

from __future__ import annotations

import numba
import numpy as np

from simulator.games.assault.rules.damage import after_fire, state_index
from simulator.games.assault.rules.kernels import cancel_packed, roll_crit
from simulator.games.assault.rules.transport import ABOARD, transport_event
from simulator.run.rng import below, seed_state, sum_rolls

# How the attack dice are rolled (same meaning as pools.ROLL_ONCE etc.)
ONCE, REROLL_DAMAGE, REROLL_SUCCESS = 0, 1, 2
# Unit fields in the int64[7] arrays the kernel takes
KIND, STRENGTH, IGNORES_SUPP, DELAYED, DAMAGE, MORALE, IMMOBILISED = range(7)


@numba.njit(inline="always")
def _resolve(total, extra_supp, crit_attack, crit_defence, unit, state):
    """Cancel one packed roll, make the critical-hit roll, apply damage (10.7.2-10.7.6)."""
    c, h, s = cancel_packed(total, extra_supp)
    symbol = roll_crit(c, h, unit[DAMAGE], unit[STRENGTH], crit_attack, crit_defence, state)
    e, d, m, i = after_fire(unit[KIND], unit[STRENGTH], unit[IGNORES_SUPP], unit[DELAYED], unit[DAMAGE],
                            unit[MORALE], unit[IMMOBILISED], c, h, s, symbol)
    return c, h, s, e, d, m, i


@numba.njit(cache=True, nogil=True)
def fire_outcome_counts(mode, spot_need, unspotted_fires, attack, keep, defence_spotted, defence_unspotted,
                        extra_supp, crit_attack, crit_defence, target, passenger_mode,
                        friendly_defence, friendly, f0, n_trials, state, counts):
    """Ranged fire ``n_trials`` times; histogram (passenger event, target state, friendly state).

    ``attack``: packed faces of the attack dice (``int64[n, 6]``); ``keep``: 1 where a
    face keeps its die (7.3 or 10.11, by ``mode``); ``defence_*``: packed defence
    faces. ``spot_need``: 0 spotted without a roll, 1-6 the d6 needed, 7 never
    (10.5); a failed roll uses ``defence_unspotted``, or leaves the target unfired
    when ``unspotted_fires`` is 0. ``target``/``friendly``: int64[7] unit fields;
    ``f0``: the friendly state index while it is not hit (0 when there is none).
    """
    n = attack.shape[0]
    kept = np.zeros(n, dtype=np.bool_)
    s0 = state_index(0, target[DAMAGE], target[MORALE], target[IMMOBILISED])
    for _ in range(n_trials):
        defence = defence_spotted
        if spot_need > 0 and below(state, 6) + 1 < spot_need:
            if unspotted_fires == 0:
                counts[ABOARD, s0, f0] += 1
                continue
            defence = defence_unspotted
        total = 0
        if mode == REROLL_DAMAGE:      # 7.3: the first roll only sorts the dice
            any_kept = False
            for j in range(n):
                kept[j] = keep[j, below(state, 6)] == 1
                any_kept = any_kept or kept[j]
            if not any_kept:           # 7.3: no dice left, the attack has no effect
                counts[ABOARD, s0, f0] += 1
                continue
            for j in range(n):
                if kept[j]:
                    total += attack[j, below(state, 6)]
        elif mode == REROLL_SUCCESS:   # 10.11: remember which dice showed a success
            for j in range(n):
                r = below(state, 6)
                total += attack[j, r]
                kept[j] = keep[j, r] == 1
        else:
            total = sum_rolls(attack, state)
        total += sum_rolls(defence, state)
        c, h, s, e, d, m, i = _resolve(total, extra_supp, crit_attack, crit_defence, target, state)
        event = transport_event(passenger_mode, c, h, s, e, d, m, i,
                                target[DAMAGE], target[MORALE], target[IMMOBILISED])
        fi = f0
        if mode == REROLL_SUCCESS:     # 10.11: the success dice again, at the friendly vehicle
            ftotal = 0
            for j in range(n):
                if kept[j]:
                    ftotal += attack[j, below(state, 6)]
            ftotal += sum_rolls(friendly_defence, state)
            _, _, _, fe, fd, fm, fim = _resolve(ftotal, 0, crit_attack, crit_defence, friendly, state)
            fi = state_index(fe, fd, fm, fim)
        counts[event, state_index(e, d, m, i), fi] += 1


def fire_outcome_chunk(args: tuple, shape: tuple[int, int, int], n_trials: int,
                       seed_seq: np.random.SeedSequence) -> np.ndarray:
    """Runner task for :func:`fire_outcome_counts`."""
    counts = np.zeros(shape, dtype=np.int64)
    fire_outcome_counts(*args, n_trials, seed_state(seed_seq), counts)
    return counts
