"""The terrain-damage question (9.10.1, 9.10.2): what entering a terrain does to a
vehicle, exactly or by Monte Carlo, as a
:class:`~simulator.games.assault.questions.answers.TerrainDamageAnswer`. The rule (the
pools, one roll's effect, the kernel) is :mod:`simulator.games.assault.rules.vehicle_terrain`.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from simulator.engine.core.answers import Method
from simulator.games.assault.questions.answers import TerrainDamageAnswer
from simulator.games.assault.rules.aid import Aid, load_aid
from simulator.games.assault.rules.cards import find_unit, load_units
from simulator.games.assault.rules.damage import STEADY, state_count
from simulator.games.assault.rules.dice import DiceSet, as_dice, format_pool
from simulator.games.assault.rules.kernels import packed_faces
from simulator.games.assault.rules.target_states import state_frame, summarise_states
from simulator.games.assault.rules.vehicle_terrain import (
    exact_terrain_states,
    immobilised_count,
    immobilised_states,
    terrain_damage_chunk,
    terrain_pools,
)
from simulator.run import runner
from simulator.run.errors import InputError
from simulator.run.intervals import support_or_none, unseen_note


def terrain_damage(vehicle: str, terrain: str, *, hill: bool = False, damage: int = 0,
                   experience: str = "regular", crit_is_damage: bool = False, exact: bool = True,
                   trials: int | None = None, seed: int | None = None, workers: int | None = None,
                   dice: DiceSet | str | Path | None = None, aid: Aid | str | Path | None = None,
                   units_dir: str | Path | None = None, progress: str | None = None,
                   options: runner.RunOptions | None = None) -> TerrainDamageAnswer:
    """The vehicle's state after entering ``terrain`` (9.10.1, 9.10.2), as a
    :class:`~simulator.games.assault.questions.answers.TerrainDamageAnswer`.

    Exact by default; with ``trials`` (or ``exact=False``) by Monte Carlo, run as
    ``options`` says (:mod:`simulator.run.runner`); with ``options.precision`` the run picks
    its trials for the headline P(immobilised).

    ``crit_is_damage``: a critical hit also counts as a damage point (10.7.3); off by
    default, since 9.10.2 lists the crit's effect as immobilisation only.
    """
    dice = as_dice(dice)
    aid = aid if isinstance(aid, Aid) else load_aid(aid, dice)
    card = find_unit(load_units(units_dir, dice), vehicle, "VEHICLE")
    attack, defence, steps = terrain_pools(card, terrain, aid, hill=hill)
    if not 0 <= damage < card.strength:
        raise InputError("--damage", "", f"{card.id} has strength {card.strength}: damage must be 0..{card.strength - 1}")
    ignores = int(aid.experience(experience).ignores_supp)
    method = runner.choose_method(exact, trials, seed, options, 1_000_000)
    run = None
    n = None
    if method.monte_carlo:
        args = (packed_faces(attack, defence, dice, "all"), card.strength, damage, STEADY, 0, ignores,
                int(crit_is_damage))
        n_states = state_count(card.strength)
        task = partial(terrain_damage_chunk, args, n_states)
        headline = runner.Headline("P(immobilised)", partial(immobilised_count, immobilised_states(n_states)))
        run = runner.execute(task, method.trials, seed=method.seed, options=options, workers=workers,
                             progress=progress, headline=headline)
        n = run.trials
        dist = run.value / n
    exact_answer = partial(exact_terrain_states, attack, defence, dice, card.strength, damage, ignores, crit_is_damage)
    possible = support_or_none(exact_answer) if n else None    # Monte Carlo: every possible state listed
    frame = state_frame(dist if n else exact_answer(), card.strength, card.half_strength_threshold, n, possible)
    return TerrainDamageAnswer(
        how=Method(**method.header(n)),
        vehicle=card.id, terrain=terrain, hill=hill, attack_pool=format_pool(attack),
        defence_pool=format_pool(defence), damage_before=damage, experience=experience,
        crit_is_damage=crit_is_damage, vehicle_strength=card.strength,
        explain=[s.__dict__ for s in steps],
        dice=dice.name, dice_status=dice.status, aid=aid.name, aid_status=aid.status,
        summary=summarise_states(frame, damage, n), table=frame,
        run=run.describe() if run is not None else None, unseen=unseen_note(possible) if n else None)
