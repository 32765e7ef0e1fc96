"""The odds question: what does this attack pool do against that defence pool?

:func:`odds_outcomes` answers it as a value, an
:class:`~simulator.games.assault.questions.answers.OddsAnswer`: the question, the
outcome columns (uncancelled ``crit``, ``hit``, ``supp`` with their probability ``p``,
and ``se`` by Monte Carlo) and the summary a designer reads
(:class:`~simulator.games.assault.questions.answers.DamageSummary`). ``odds("RY",
"YG")`` is its outcome table as a tidy DataFrame, for notebooks. The CLI builds the
DataFrame only when it writes a table, so a text answer starts without pandas.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from simulator.engine.core.answers import Method
from simulator.games.assault.questions.answers import DamageSummary, OddsAnswer
from simulator.games.assault.rules.dice import DOUBLES_MODES, DiceSet, as_dice, format_pool, parse_pool
from simulator.games.assault.rules.exact import pool_shape, roll_outcome
from simulator.run.errors import InputError
from simulator.run.intervals import (
    add_interval_columns,
    listed_outcomes,
    proportion_interval,
    quantile_interval,
    summary_intervals,
    support_or_none,
    unseen_note,
)
from simulator.run.stats import at_least, mean_se, proportion_se, quantile

if TYPE_CHECKING:
    import pandas as pd

    from simulator.run import runner

# The Monte Carlo path (numba kernels, the shared runner) is imported where it runs, so an
# exact answer starts without numba (``assault odds RY YG`` within a second).

MAX_EXTRA_SUPP = 100   # fixed suppression symbols added to a roll (a recruit target adds one)
QUANTILES = ((0.05, "unlucky"), (0.20, ""), (0.50, "median"), (0.80, ""), (0.95, "lucky"))


def outcome_columns(dist: np.ndarray, trials: int | None = None,
                    possible: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """The outcomes of a ``[crit, hit, supp]`` distribution as columns, sorted by crit,
    then hit, then supp (``np.nonzero`` walks the array in that order): the non-zero ones,
    and by Monte Carlo every ``possible`` one besides (:func:`~simulator.run.intervals.listed_outcomes`)."""
    c, h, s = listed_outcomes(dist, possible)
    cols = {"crit": c, "hit": h, "supp": s, "p": dist[c, h, s]}
    if trials is not None:
        cols["se"] = proportion_se(cols["p"], trials)
        add_interval_columns(cols, trials)
    return cols


def outcome_frame(dist: np.ndarray, trials: int | None = None) -> pd.DataFrame:
    """Tidy table of a ``[crit, hit, supp]`` distribution (non-zero rows only)."""
    import pandas as pd
    return pd.DataFrame(outcome_columns(dist, trials))


def damage_pmf(frame) -> np.ndarray:
    """Distribution of damage points (crit + hit, 10.7.3) from an outcome table
    (an :class:`OddsAnswer`, its columns or its DataFrame)."""
    dmg = np.asarray(frame["crit"]) + np.asarray(frame["hit"])
    return np.bincount(dmg, weights=np.asarray(frame["p"]), minlength=1)


def summarise(frame, trials: int | None = None, every_outcome_listed: bool = False) -> dict[str, Any]:
    """The summary block as JSON: chance of any effect, means, damage 'at least' and
    quantiles (of an outcome table: :class:`OddsAnswer`, its columns or its DataFrame).
    ``every_outcome_listed``: the table lists every possible outcome (a Monte Carlo table
    whose support is known), so its damage ladder ends at the most damage possible; else
    one row more than the most seen."""
    p = np.asarray(frame["p"])
    crit, hit, supp = (np.asarray(frame[k]) for k in ("crit", "hit", "supp"))
    dmg = crit + hit
    pmf = damage_pmf(frame)
    summary: dict[str, Any] = {
        "p_any": float(p[(crit + hit + supp) > 0].sum()),
        "mean_crit": float((crit * p).sum()),
        "mean_hit": float((hit * p).sum()),
        "mean_damage": float((dmg * p).sum()),
        "p_supp": float(p[supp > 0].sum()),
        "p_damage_at_least": [float(x) for x in at_least(pmf)],
        "damage_quantiles": {f"{int(q * 100)}%": quantile(pmf, q) for q, _ in QUANTILES},
    }
    if trials is not None:
        summary["se"] = {
            "p_any": float(proportion_se(summary["p_any"], trials)),
            "mean_crit": mean_se(crit, p, trials),
            "mean_hit": mean_se(hit, p, trials),
            "mean_damage": mean_se(dmg, p, trials),
            "p_supp": float(proportion_se(summary["p_supp"], trials)),
            "p_damage_at_least": [float(x) for x in proportion_se(at_least(pmf), trials)],
        }
        # 95% intervals: Wilson, exact at small counts; when the possible outcomes are not
        # known, the damage beyond the largest sampled is one more row, 0 with its exact bound
        tail = [0.0] if not every_outcome_listed and (len(pmf) == 0 or pmf[-1] > 0) else []
        summary["ci95"] = {
            **summary_intervals(summary, trials),
            "p_damage_at_least": [[1.0, 1.0]] + [list(proportion_interval(int(round(x * trials)), trials))
                                                 for x in [*at_least(pmf), *tail][1:]],      # at least 0: certain
            "damage_quantiles": {f"{int(q * 100)}%": list(quantile_interval(pmf, trials, q)) for q, _ in QUANTILES},
        }
    return summary


def check_question(doubles: str, extra_supp: int) -> None:
    if doubles not in DOUBLES_MODES:
        raise InputError("--doubles", "", f"unknown mode {doubles!r} (one of {', '.join(DOUBLES_MODES)})")
    if extra_supp < 0:
        raise InputError("--extra-supp", "", f"must be 0 or more (got {extra_supp})")
    if extra_supp > MAX_EXTRA_SUPP:
        raise InputError("--extra-supp", "", f"at most {MAX_EXTRA_SUPP} (got {extra_supp})")


def any_effect(counts: np.ndarray) -> int:
    """Trials with at least one uncancelled symbol: the odds headline, P(any effect)."""
    return int(counts.sum() - counts[0, 0, 0])


def simulate_run(attack, defence, dice: DiceSet, *, doubles: str, extra_supp: int,
                 trials: int | None, seed: int, workers: int | None = None, progress: str | None = None,
                 chunk_trials: int | None = None,
                 options: runner.RunOptions | None = None) -> runner.RunResult:
    """Monte Carlo run of the question; ``.value`` is the counts of uncancelled
    ``[crit, hit, supp]`` (same shape as exact), ``.trials`` the trials run."""
    from simulator.games.assault.rules.kernels import packed_faces, uncancelled_chunk
    from simulator.run import runner

    chunk_trials = runner.DEFAULT_CHUNK_TRIALS if chunk_trials is None else chunk_trials
    shape = pool_shape(attack, dice, doubles, extra_supp)
    task = partial(uncancelled_chunk, packed_faces(attack, defence, dice, doubles), extra_supp, shape)
    return runner.execute(task, trials, seed=seed, options=options, workers=workers, progress=progress,
                          chunk_trials=chunk_trials, headline=runner.Headline("P(any effect)", any_effect))


def simulate_outcome(attack, defence, dice: DiceSet, *, doubles: str, extra_supp: int,
                     trials: int, seed: int, workers: int | None = None,
                     progress: str | None = None,
                     chunk_trials: int | None = None) -> np.ndarray:
    """Monte Carlo counts of uncancelled ``[crit, hit, supp]`` (same shape as exact)."""
    return simulate_run(attack, defence, dice, doubles=doubles, extra_supp=extra_supp, trials=trials,
                        seed=seed, workers=workers, progress=progress, chunk_trials=chunk_trials).value


def odds(attack: str, defence: str, *, exact: bool = True, trials: int | None = None,
         seed: int | None = None, doubles: str = "all", extra_supp: int = 0,
         dice: DiceSet | str | Path | None = None, workers: int | None = None,
         progress: str | None = None, options: runner.RunOptions | None = None) -> pd.DataFrame:
    """Outcome distribution of ``attack`` rolled against ``defence`` (10.7.2), as a tidy
    DataFrame: :func:`odds_outcomes` (same arguments) as a table. The question and the
    summary are on the answer: ``odds_outcomes("RY", "YG").summary.mean_damage``.
    """
    return odds_outcomes(attack, defence, exact=exact, trials=trials, seed=seed, doubles=doubles,
                         extra_supp=extra_supp, dice=dice, workers=workers, progress=progress,
                         options=options).frame()


def odds_outcomes(attack: str, defence: str, *, exact: bool = True, trials: int | None = None,
                  seed: int | None = None, doubles: str = "all", extra_supp: int = 0,
                  dice: DiceSet | str | Path | None = None, workers: int | None = None,
                  progress: str | None = None, options: runner.RunOptions | None = None) -> OddsAnswer:
    """Outcome distribution of ``attack`` rolled against ``defence`` (10.7.2).

    Exact by default; with ``trials`` (or ``exact=False``) by Monte Carlo.
    ``options`` says how to run it (workers, Dask, checkpoint, precision: see
    :mod:`simulator.run.runner`); with ``options.precision`` the run picks its trials.
    ``doubles`` is how the attacker's double successes count (rulings.md #2);
    ``extra_supp`` adds suppression symbols to the attack (recruit target, 4.2.3).
    """
    dice = as_dice(dice)
    check_question(doubles, extra_supp)
    atk = parse_pool(attack, dice, "ATTACK")
    dfn = parse_pool(defence, dice, "DEFENCE")
    from simulator.run import runner
    method = runner.choose_method(exact, trials, seed, options, 1_000_000)
    run = None
    possible = None     # Monte Carlo: the exact support, every possible outcome listed
    unseen = None
    n = None
    if method.monte_carlo:
        run = simulate_run(atk, dfn, dice, doubles=doubles, extra_supp=extra_supp, trials=method.trials,
                           seed=method.seed, workers=workers, progress=progress, options=options)
        n = run.trials
        possible = support_or_none(partial(roll_outcome, atk, dfn, dice, doubles=doubles, extra_supp=extra_supp))
        columns = outcome_columns(run.value / n, n, possible)
        unseen = unseen_note(possible)
    else:
        columns = outcome_columns(roll_outcome(atk, dfn, dice, doubles=doubles, extra_supp=extra_supp))
    return OddsAnswer(attack=format_pool(atk), defence=format_pool(dfn), doubles=doubles, extra_supp=extra_supp,
                      dice=dice.name, dice_status=dice.status, dice_file=dice.path, dice_digest=dice.digest,
                      how=Method(**method.header(n)), columns=columns,
                      summary=damage_summary(summarise(columns, n, possible is not None)), unseen=unseen,
                      run=run.describe() if run is not None else None)


def damage_summary(block: dict[str, Any]) -> DamageSummary:
    """The :class:`DamageSummary` of a summary block (:func:`summarise`)."""
    return DamageSummary(p_any=block["p_any"], mean_crit=block["mean_crit"], mean_hit=block["mean_hit"],
                         mean_damage=block["mean_damage"], p_supp=block["p_supp"],
                         p_damage_at_least=tuple(block["p_damage_at_least"]),
                         damage_quantiles=block["damage_quantiles"], se=block.get("se"), ci95=block.get("ci95"))
