"""The smoke question (7.5): how many markers ``firer`` lands in each hex, with what
probability, exactly or by Monte Carlo, as a
:class:`~simulator.games.assault.questions.answers.SmokeAnswer`. The rule (the smoke
dice, one hex's roll, the set-aside dice rolled again) is
:mod:`simulator.games.assault.rules.smoke`.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from simulator.engine.core.answers import Method
from simulator.games.assault.questions.answers import SmokeAnswer
from simulator.games.assault.rules.aid import Aid, load_aid
from simulator.games.assault.rules.cards import find_unit, load_units
from simulator.games.assault.rules.dice import DiceSet, as_dice, format_pool
from simulator.games.assault.rules.smoke import (
    damage_table,
    exact_smoke,
    per_hex,
    smoke_chunk,
    smoke_pool,
    target_hex_smoked,
)
from simulator.games.assault.rules.support import Support, as_support
from simulator.run import runner
from simulator.run.errors import InputError
from simulator.run.intervals import add_interval_columns, listed_outcomes, support_or_none, unseen_note
from simulator.run.stats import proportion_se


def smoke(firer: str, *, hexes: int | None = None, distance: int | None = None,
          firer_terrain: str | None = None, firer_damage: int = 0, firer_experience: str = "regular",
          attack_die_minus_one: bool = False, exact: bool = True, trials: int | None = None,
          seed: int | None = None, workers: int | None = None, dice: DiceSet | str | Path | None = None,
          aid: Aid | str | Path | None = None, units_dir: str | Path | None = None,
          support: Support | str | Path | None = None, progress: str | None = None,
          options: runner.RunOptions | None = None) -> SmokeAnswer:
    """How many smoke markers land in each hex, with what probability (7.5).

    A :class:`~simulator.games.assault.questions.answers.SmokeAnswer`: its table has one
    row per joint outcome (``hex1``, ``hex2``, ``hex3`` markers, ``p``; ``se`` by Monte
    Carlo); per-hex summaries in ``per_hex``. ``hexes`` (default: all
    the rule allows, 3) is how many hexes the player is willing to smoke. ``options``
    says how a Monte Carlo run is carried out (:mod:`simulator.run.runner`); with
    ``options.precision`` its headline is P(at least one marker in the target hex).
    """
    dice = as_dice(dice)
    aid = aid if isinstance(aid, Aid) else load_aid(aid, dice)
    support = as_support(support, aid)
    units = load_units(units_dir, dice)
    card = find_unit(units, firer, "FIRER")
    hexes = support.max_hexes if hexes is None else hexes
    if not 1 <= hexes <= min(3, support.max_hexes):
        raise InputError("--hexes", "", f"smoke goes into 1 to {min(3, support.max_hexes)} hexes (7.5), not {hexes}")
    pool, doubles, steps = smoke_pool(card, aid, support, distance=distance, firer_terrain=firer_terrain,
                                      firer_damage=firer_damage, firer_experience=firer_experience,
                                      attack_die_minus_one=attack_die_minus_one)
    cap = support.max_markers_per_hex
    method = runner.choose_method(exact, trials, seed, options, 1_000_000)
    run = None
    n = None
    if method.monte_carlo:
        task = partial(smoke_chunk, (damage_table(pool, dice, doubles), hexes, cap), cap)
        run = runner.execute(task, method.trials, seed=method.seed, options=options, workers=workers,
                             progress=progress, headline=runner.Headline("P(target hex smoked)", target_hex_smoked))
        n = run.trials
        dist = run.value / n
        possible = support_or_none(partial(exact_smoke, pool, dice, doubles, hexes, cap))
    else:
        dist = exact_smoke(pool, dice, doubles, hexes, cap)
        possible = None
    idx = np.stack(listed_outcomes(dist, possible), axis=1)     # Monte Carlo: every possible outcome
    frame = pd.DataFrame({"hex1": idx[:, 0], "hex2": idx[:, 1], "hex3": idx[:, 2],
                          "p": dist[tuple(idx.T)]})
    if n:
        frame["se"] = proportion_se(frame["p"].to_numpy(), n)
        add_interval_columns(frame, n)
    frame = frame.sort_values(["hex1", "hex2", "hex3"], ignore_index=True)
    total = frame["hex1"] + frame["hex2"] + frame["hex3"]
    return SmokeAnswer(
        how=Method(**method.header(n)),
        firer=card.id, smoke_pool=format_pool(pool), doubles=doubles, hexes=hexes,
        max_markers_per_hex=cap, range=distance,
        per_hex=per_hex(dist, hexes, support, n, possible),
        summary={"mean_total_markers": float((total * frame["p"]).sum()),
                 "p_no_smoke": float(frame["p"][total == 0].sum()),
                 "p_every_hex_smoked": float(frame["p"][(frame[["hex1", "hex2", "hex3"]].iloc[:, :hexes] > 0)
                                                       .all(axis=1)].sum())},
        explain=[s.__dict__ for s in steps],
        dice=dice.name, dice_status=dice.status, aid=aid.name, aid_status=aid.status,
        support=support.name, support_status=support.status, table=frame,
        run=run.describe() if run is not None else None, unseen=unseen_note(possible) if n else None)
