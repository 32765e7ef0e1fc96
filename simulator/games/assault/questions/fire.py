"""The ranged-fire question: what happens when this unit fires at that one here?

``fire("german/rifles-41", "soviet/heavy-rifles-41", FireSituation(range=3))`` returns a
:class:`~simulator.games.assault.questions.answers.FireAnswer`: the target's states
afterwards (its ``table``, one row per state with its probability; ``se`` by Monte
Carlo), the pools, the explanation and the summary. Exact and Monte Carlo share the
rule kernels of :mod:`simulator.games.assault.rules.fire` (:func:`fire_pools`, the dice,
and ``after_fire``, the damage rules); the spotting roll and the critical-hit roll are
part of the exact computation, not sampled.

The same question covers indirect fire (7.1-7.4, with the two-stage roll against
vehicles of 7.3), smoke on the LOS (10.3), the overrun last shot (9.10.3), passengers
and tank riders (10.10: ``passengers``, ``p_emergency_disembark``) and fire into a close
combat at an enemy vehicle (10.11: ``friendly_vehicle``).
"""

from __future__ import annotations

import dataclasses
from functools import partial
from pathlib import Path

import numpy as np

from simulator.engine.core.answers import Method
from simulator.games.assault.questions.answers import FireAnswer
from simulator.games.assault.rules.aid import Aid, load_aid
from simulator.games.assault.rules.cards import UnitCard, find_unit, load_units
from simulator.games.assault.rules.damage import unpack_state
from simulator.games.assault.rules.dice import DiceSet, as_dice, format_pool
from simulator.games.assault.rules.fire import (
    default_facing,
    exact_outcomes,
    friendly_of,
    simulate_run,
    target_of,
)
from simulator.games.assault.rules.pools import FirePools, FireSituation, fire_pools
from simulator.games.assault.rules.support import Support, as_support
from simulator.games.assault.rules.target_states import state_frame, summarise_states
from simulator.games.assault.rules.transport import (
    CARRIED,
    DISEMBARK,
    NO_PASSENGERS,
    RIDERS_TARGETED,
    Passenger,
    check_load,
    check_riders,
    p_any_disembark,
    passenger_outcomes,
)
from simulator.games.assault.rules.vehicle_terrain import overrun_succeeds
from simulator.run import runner
from simulator.run.intervals import support_or_none, unseen_note
from simulator.run.stats import proportion_se


def _se(p: float, trials: int | None) -> float | None:
    return None if trials is None else float(proportion_se(p, trials))


def _rider_outcomes(joint: np.ndarray, card: UnitCard, trials: int | None) -> dict:
    """10.10.1, 10.10.3: the riders targeted disembark after any uncancelled symbol; a
    suppressed rider stays marked suppressed instead of fast action."""
    markers = {"fast action": 0.0, "suppressed": 0.0, "fallback": 0.0}
    for i in np.nonzero(joint[DISEMBARK].sum(axis=1))[0]:
        if i == 0:          # eliminated riders do not disembark
            continue
        st = unpack_state(int(i), card.strength, card.half_strength_threshold)
        key = "fallback" if st["fallback"] else "suppressed" if st["suppressed"] else "fast action"
        markers[key] += float(joint[DISEMBARK, i].sum())
    p = sum(markers.values())
    return {"p_emergency_disembark": p, "p_emergency_disembark_se": _se(p, trials),
            "disembark_markers": markers}


def _transport_fields(joint: np.ndarray, mode: int, target: UnitCard, passengers: list[Passenger],
                     trials: int | None) -> dict:
    if mode == RIDERS_TARGETED:
        return {"passengers": [], **_rider_outcomes(joint, target, trials)}
    p_event = [float(x) for x in joint.sum(axis=(1, 2))]
    p = p_any_disembark(p_event, passengers) if mode == CARRIED else None
    return {"passengers": passenger_outcomes(p_event, passengers) if mode == CARRIED else [],
            "p_emergency_disembark": p, "p_emergency_disembark_se": None if p is None else _se(p, trials),
            "disembark_markers": None}


def _friendly_vehicle(dist: np.ndarray, card: UnitCard, pools: FirePools, s: FireSituation,
                    trials: int | None, possible: np.ndarray | None = None) -> dict:
    frame = state_frame(dist, card.strength, card.half_strength_threshold, trials, possible)
    return {"unit": card.id, "facing": s.friendly_facing, "defence_pool": format_pool(pools.friendly_defence),
            "damage_before": s.friendly_damage, "states": frame.to_dict("records"),
            "summary": summarise_states(frame, s.friendly_damage, trials)}


def fire(firer: str, target: str, situation: FireSituation, *, exact: bool = True,
         trials: int | None = None, seed: int | None = None, workers: int | None = None,
         dice: DiceSet | str | Path | None = None, aid: Aid | str | Path | None = None,
         units_dir: str | Path | None = None, support: Support | str | Path | None = None,
         progress: str | None = None, options: runner.RunOptions | None = None) -> FireAnswer:
    """Distribution of the target's state after ``firer`` fires at it (chapters 7, 10; 9.10.3).
    A vehicle target with no ``target_facing`` is hit on its front (:func:`default_facing`;
    ``target_facing_assumed`` says so).

    Exact by default; with ``trials`` (or ``exact=False``) by Monte Carlo. ``options``
    says how to run it (workers, Dask, checkpoint, precision: :mod:`simulator.run.runner`);
    with ``options.precision`` the run picks its trials until the 95% interval of
    P(eliminated) is that narrow (``trials`` is then a cap).
    """
    dice = as_dice(dice)
    aid = aid if isinstance(aid, Aid) else load_aid(aid, dice)
    support = as_support(support, aid)
    units = load_units(units_dir, dice)
    f, g = find_unit(units, firer, "FIRER"), find_unit(units, target, "TARGET")
    facing_assumed = default_facing(g, situation)
    if facing_assumed:
        situation = dataclasses.replace(situation, target_facing=facing_assumed)
    pools = fire_pools(f, g, situation, aid, units=units, support=support)
    t = target_of(g, situation, aid)
    passengers = [Passenger(find_unit(units, pid, "--passengers"), dmg) for pid, dmg in situation.passengers]
    if passengers:
        check_load(g, passengers)
    if situation.riding_on:
        check_riders(Passenger(g, situation.target_damage), find_unit(units, situation.riding_on, "--riding-on"))
    mode = RIDERS_TARGETED if situation.riding_on else CARRIED if passengers else NO_PASSENGERS
    friendly_card = find_unit(units, situation.friendly_vehicle, "--friendly-vehicle") if pools.friendly_defence is not None else None
    friendly = friendly_of(friendly_card, situation) if friendly_card else None
    method = runner.choose_method(exact, trials, seed, options, 1_000_000)
    run = None
    n = None
    possible = None          # by Monte Carlo, the exact joint's support: every possible state is listed
    if method.monte_carlo:
        run = simulate_run(pools, t, dice, trials=method.trials, seed=method.seed, passenger_mode=mode,
                           friendly=friendly, workers=workers, progress=progress, options=options)
        n = run.trials
        joint = run.value / n
        possible = support_or_none(partial(exact_outcomes, pools, t, dice, mode, friendly))
    else:
        joint = exact_outcomes(pools, t, dice, mode, friendly)
    frame = state_frame(joint.sum(axis=(0, 2)), g.strength, g.half_strength_threshold, n,
                        None if possible is None else possible.any(axis=(0, 2)))
    summary = summarise_states(frame, situation.target_damage, n)
    if situation.overrun:   # 9.10.3: the gun is overrun unless the tank is stopped
        ok = np.array([overrun_succeeds(r) for r in frame.to_dict("records")], dtype=bool)
        summary["p_artillery_overrun"] = float(frame["p"].to_numpy()[ok].sum())
        if n:
            summary["se"]["p_artillery_overrun"] = _se(summary["p_artillery_overrun"], n)
    friendly_answer = (_friendly_vehicle(joint.sum(axis=(0, 1)), friendly_card, pools, situation, n,
                                       None if possible is None else possible.any(axis=(0, 1)))
                       if friendly_card else None)
    return FireAnswer(
        how=Method(**method.header(n)),
        firer=f.id, target=g.id, range=situation.range, target_facing=situation.target_facing,
        target_facing_assumed=facing_assumed,
        indirect=situation.indirect, overrun=situation.overrun, smoke_markers=situation.smoke,
        spotter=situation.spotter, riding_on=situation.riding_on, reroll=pools.reroll,
        attack_pool=format_pool(pools.attack), defence_pool=format_pool(pools.defence),
        defence_pool_unspotted=None if pools.defence_unspotted is None else format_pool(pools.defence_unspotted),
        doubles=pools.doubles, extra_supp=pools.extra_supp,
        target_strength=g.strength, target_damage_before=situation.target_damage,
        p_spotted=pools.p_spotted, spot_number=pools.spot_number,
        explain=[s.__dict__ for s in pools.steps],
        dice=dice.name, dice_status=dice.status, aid=aid.name, aid_status=aid.status,
        support=support.name, support_status=support.status,
        summary=summary, table=frame,
        run=run.describe() if run is not None else None,
        **_transport_fields(joint, mode, g, passengers, n),
        friendly_vehicle=friendly_answer,
        unseen=unseen_note(possible) if n else None)
