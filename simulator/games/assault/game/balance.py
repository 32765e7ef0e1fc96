"""Assault's balance report: :func:`balance_report` / :func:`balance_run` play a scenario and
summarise it through the game-neutral :mod:`simulator.engine.core.balance`, with
optionally:

- ``vary``: variants (``turns=5,7``, ``edition=v2``, ``cp.german=6``,
  ``count.german.rifles-41=3``, ``experience.soviet.mmg-maxim=veteran``,
  ``initiative=german``, ``sudden_death=1``, ``history=alternate``) played with common random numbers (the
  same seed, so game ``k`` of every variant starts from the same streams): the change
  of each side's win rate and the draw rate, with 95% intervals from the paired games,
  the exact test of the changed games Holm-corrected over the variants, and the runs
  closest to even (the baseline among them);
- ``tune``: a numeric key searched over its values for the first side's win rate
  closest to a target;
- ``ladder``: random < greedy < look-ahead from both seats;
- ``skill_curve``: both sides at each level of a rising ladder of strengths
  (``levels``), each side's win rate per level and whether the curve has converged;
  the report's verdict is then made at the strongest level and names it;
- ``restrict`` / ``restrict_all``: restricted play (Jaffe et al., AIIDE 2012), a side
  denied one kind of choice, played with common random numbers: the change of that
  side's win rate with its paired interval, the exact test of the changed games,
  Holm-corrected over the restrictions.
"""

from __future__ import annotations

import dataclasses
from functools import partial

import numpy as np

from simulator.engine.core import balance as core_balance
from simulator.engine.core.answers import BalanceReport
from simulator.engine.core.balance import (
    RESTRICTED_METHOD,
    add_skill_curve,
    check_target,
    confirmation_run,
    paired_grid,
    paired_variants,
    parse_grid,
    parse_range,
    parse_vary_items,
    play_balance,
    range_values,
    restricted_play,
    tune_scan,
    variant_changes,
    variant_label,
    verdict_with_players,
)
from simulator.engine.core.batch import DEFAULT_MARGIN, RunResult, margin_fraction, player_kinds, run_games
from simulator.engine.players import interface
from simulator.engine.players.interface import DEFAULT_PARAMS, any_searching
from simulator.games.assault.game.activity import SAMPLE_GAMES, side_activity
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.restrictions import every_restriction, parse_restriction, restricted_params
from simulator.games.assault.game.scenario import load_scenario
from simulator.games.assault.game.scenario_format import MAX_COUNT, MAX_NUMBER, MAX_TURNS
from simulator.games.assault.game.warmup import ENGINE_COMPILE_ESTIMATE, compile_engine
from simulator.run.errors import InputError
from simulator.run.notice import waiting
from simulator.run.runner import RunOptions
from simulator.run.suggest import did_you_mean
from simulator.run.vocabulary import DEFAULT_MAX_GAMES, EDITIONS, EXPERIENCE_LEVELS

TUNE_KEYS = ("turns", "cp", "count")


def parse_vary(items: list[str] | tuple[str, ...], scenario, option: str = "--vary") -> list[tuple[str, list]]:
    """``["turns=5,7", "cp.german=4,6", "count.german.rifles-41=4&experience.german.rifles-41=hardened"]``
    -> ``[(key, [value, ...]), ...]`` (checked; an ``&`` item is one combined variant:
    :func:`simulator.engine.core.balance.parse_vary_items`)."""
    return parse_vary_items(items, lambda key, value, opt: parse_value(key, value, scenario, opt), option)


_WORD_CHOICES = {   # --vary keys that take one of a few words: the words, the error ({value!r})
    "edition": (EDITIONS, "unknown edition {value!r} (v1 or v2)"),
    "history": (("historical", "alternate"), "{value!r}: historical or alternate (5.3)"),
    "cp_minimum": (("always", "losses"), "{value!r}: always or losses (10.7.3, reading S9)"),
    "second_fallback": (("marker", "ever"), "{value!r}: marker or ever (13.3, reading S22)"),
}


def parse_value(key: str, value: str, scenario, option: str = "--vary"):
    root = key.split(".")[0]
    if root in ("turns", "cp", "count"):
        return _parse_number(key, root, value, scenario, option)
    if root in _WORD_CHOICES:
        words, message = _WORD_CHOICES[root]
        if value not in words:
            raise InputError(option, key, message.format(value=value))
        return value
    if root == "experience":
        if value not in EXPERIENCE_LEVELS:
            raise InputError(option, key, f"unknown experience {value!r}")
        override_for(key, value, scenario, option)
        return value
    if root == "hold":
        override_for(key, value, scenario, option)
        return value
    if root == "initiative":
        if value != "roll" and value not in scenario.sides:
            raise InputError(option, key, f"{value!r} is not a side (or roll)")
        return value
    if root == "sudden_death":
        if value not in ("0", "1", "true", "false"):
            raise InputError(option, key, "give 0 or 1")
        return value in ("1", "true")
    raise InputError(option, key, "unknown key (turns, edition, cp.SIDE, count.SIDE.UNIT, "
                     "experience.SIDE.UNIT, hold.SIDE, initiative, sudden_death, history, cp_minimum, "
                     "second_fallback)")


def _parse_number(key: str, root: str, value: str, scenario, option: str = "--vary") -> int:
    """turns, cp.SIDE, count.SIDE.UNIT: a whole number in range (checked against the scenario)."""
    try:
        v = int(value)
    except ValueError:
        raise InputError(option, key, f"{value!r} is not a whole number") from None
    if v < (1 if root != "cp" else 0):
        raise InputError(option, key, f"{v} is too small")
    most = {"turns": MAX_TURNS, "count": MAX_COUNT, "cp": MAX_NUMBER}[root]
    if v > most:
        raise InputError(option, key, f"{v} is too large (at most {most})")
    override_for(key, v, scenario, option)
    return v


def override_for(key: str, value, scenario, option: str = "--vary") -> dict:
    """The compile override for one ``--vary``/``--tune`` key and value."""
    parts = key.split(".")
    root = parts[0]
    if root in ("turns", "edition", "initiative", "sudden_death", "history", "cp_minimum", "second_fallback"):
        return {root: value}
    if root == "cp":
        if len(parts) != 2 or parts[1] not in scenario.sides:
            raise InputError(option, key, f"write cp.SIDE (sides: {', '.join(scenario.sides)})")
        return {"cp": {parts[1]: value}}
    if root in ("count", "experience"):
        if len(parts) != 3 or parts[1] not in scenario.sides:
            raise InputError(option, key, f"write {root}.SIDE.UNIT, e.g. {root}.{next(iter(scenario.sides))}.rifles-41")
        side, unit = parts[1], parts[2]
        uid = unit if "/" in unit else f"{side}/{unit}"
        if uid not in scenario.units:
            names = [u.split("/", 1)[1] for u in scenario.units if u.startswith(f"{side}/")]
            raise InputError(option, key, f"unknown unit {unit!r} of {side}" + did_you_mean(unit, names))
        return {(root, side, uid): value}
    if root == "hold":
        if len(parts) != 2 or parts[1] not in scenario.sides:
            raise InputError(option, key, f"write hold.SIDE (sides: {', '.join(scenario.sides)})")
        return {("hold", parts[1]): held_objectives(key, value, scenario, option)}
    raise InputError(option, key, "unknown key")


def held_objectives(key: str, value: str, scenario, option: str = "--vary") -> tuple[str, ...]:
    """``hold.SIDE=A+B``: the hexes of the objectives a side must hold (3.1), each named by
    its ``name`` or its hex written ``C:R`` (a comma separates a what-if's values), in the
    scenario's order of objectives; an unknown or repeated one raises InputError."""
    objectives = scenario.objective_list
    known = {o.hex.replace(",", ":"): o.hex for o in objectives} | {o.name: o.hex for o in objectives if o.name}
    hexes = []
    for part in (x.strip() for x in value.split("+")):
        if part not in known:
            names = ", ".join(o.name or o.hex.replace(",", ":") for o in objectives)
            raise InputError(option, key, f"{part!r} is not an objective of the scenario (its objectives: {names}; "
                                          "a hex as C:R)" + did_you_mean(part, list(known)))
        if known[part] in hexes:
            raise InputError(option, key, f"objective {part!r} named twice")
        hexes.append(known[part])
    return tuple(o.hex for o in objectives if o.hex in hexes)


def merge_overrides(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        if k == "cp" and "cp" in out:
            out["cp"] = {**out["cp"], **v}
        else:
            out[k] = v
    return out


def _edition_of(over: dict, edition: str | None):
    return over.get("edition", edition)


def balance_report(name: str, **kwargs) -> dict:
    """Play the scenario and report its balance (see the module docstring); the
    arguments are those of :func:`balance_run`."""
    return balance_run(name, **kwargs)[0]


def balance_run(name: str, *, games: int | None, seed: int, players: str | None = None,
                workers: int | None = None, out_dir: str | None = None, edition: str | None = None,
                vary: tuple[str, ...] = (), tune: str | None = None, target: float = 0.5,
                ladder: bool = False, ladder_games: int = 200, progress: bool = True,
                overrides: dict | None = None, options: RunOptions | None = None,
                data: dict | None = None, activity_games: int = SAMPLE_GAMES,
                skill_curve: bool = False, levels: str | None = None,
                restrict: tuple[str, ...] = (), restrict_all: tuple[str, ...] = (),
                margin: float | None = None, until_decided: bool = False, family: str | None = None,
                max_games: int = DEFAULT_MAX_GAMES, what_matters: str = "off", tune_range: str | None = None,
                grid: tuple[str, ...] = ()) -> tuple[dict, RunResult]:
    """Play the scenario and report its balance: ``(JSON summary, the main run)``.

    ``what_matters``: ``"auto"`` (the batch report's default) adds a short restricted
    play of every restriction of both sides (:func:`what_matters_most`) when it fits in
    the time the batch took, else says how to get it; ``"off"``: neither. A run given
    ``restrict`` or ``restrict_all`` has its own restricted play and no short one.

    ``margin``: the balance verdict's margin in points (``--margin``; default the
    scenario's ``[verdict] margin``, else 5). ``until_decided``: the main run plays
    rounds, the first of ``games``, until its verdict is decided or ``max_games`` are
    played (:func:`simulator.engine.core.batch.run_until_decided`).

    ``skill_curve``: the main run is played by the strongest of ``levels`` (default
    :data:`DEFAULT_LEVELS`) on both sides, then every lower level with as many games
    (``games`` is per level); ``players`` is not used; ``family``: the second search
    family's player beside the top level (``--family``; None or "off": none). ``restrict``
    (``"german:close-combat"``, ``"soviet:unit=rifles-41"``) and ``restrict_all``
    (sides) play the main run's players again, one restriction at a time, on the
    same seeds.

    ``grid``: two ``KEY=V1,V2,...`` axes, every pair of values played as one combined
    what-if (:func:`simulator.engine.core.balance.paired_grid`, ``report["grid"]``).
    ``tune_range``: ``--range LO:HI``, the values ``tune`` searches (default around the
    scenario's own: :func:`tune_values`).

    ``options`` (workers, Dask, checkpoint, precision) apply to the main run; with a
    precision, ``games`` caps it and the what-ifs and tuning then play as many games
    as the main run needed (paired games need equal numbers). ``data``: data files given
    on the command line (``{"aid": "my-aid.toml"}``), beating the scenario's ``[data]``.
    ``activity_games``: how many of the first games are replayed to count each side's
    activity (:func:`simulator.games.assault.game.activity.side_activity`; 0: none).
    """
    curve_levels = parse_levels(levels) if skill_curve else []
    family = core_balance.family_player(family, players=interface) if skill_curve else None
    if levels is not None and not (skill_curve or ladder):
        raise InputError("--levels", "", "give --skill-curve or --ladder too (--levels chooses their levels)")
    climb = core_balance.ladder_levels(skill_curve, curve_levels, parse_levels(levels) if levels else None)
    p1, p2 = (curve_levels[-1],) * 2 if skill_curve else player_kinds(players, players=interface)
    base_over = dict(overrides or {})
    scenario = load_scenario(name, data)
    variants, axes, span = what_if_inputs(scenario, vary, grid, tune, tune_range)
    asked = [parse_restriction(r, scenario) for r in restrict]     # and bad restrictions
    for side in restrict_all:
        every_restriction(scenario, side)
    if skill_curve and activity_games:
        activity_games = min(activity_games, CURVE_ACTIVITY_GAMES)
    with waiting(f"tabulating {scenario.name}'s pools, map and units"):
        game = compile_game(name, edition=edition, overrides=base_over, scenario=scenario, data=data)
    asked += [a for side in restrict_all for a in every_restriction(scenario, side, game.card_names())]
    for a in asked:                                      # a card the scenario does not field fails here
        restricted_params(a, game.card_names(), DEFAULT_PARAMS)
    label = f"{game.name} at {p1} (level {len(curve_levels)} of {len(curve_levels)})" if skill_curve else None
    fraction = margin_fraction(margin, scenario.verdict.margin)
    report, result = play_balance(game, games=games, seed=seed, players=(p1, p2), workers=workers,
                                  out_dir=out_dir, progress=progress, options=options,
                                  warm=partial(compile_engine, searching=any_searching(
                                      (p1, p2, *curve_levels, *([family] if family else [])))),
                                  label=label, estimate=ENGINE_COMPILE_ESTIMATE, margin=fraction,
                                  until_decided=until_decided, max_games=max_games)
    if not skill_curve:
        report["verdict"] = verdict_with_players(report["verdict"], report["players"])
    games = result.tally.games
    if activity_games and games:
        with waiting(f"replaying {min(games, activity_games):,} games to count each side's activity"):
            report["activity_by_side"] = side_activity(game, seed, (p1, p2), min(games, activity_games))
    sub = dataclasses.replace(options, precision=None) if options is not None else None
    base = result.tally.outcome_array()
    sides = list(game.sides)
    if vary or axes:
        play = variant_player(name, game.scenario, games=games, seed=seed, players=(p1, p2), workers=workers,
                              edition=edition, base_over=base_over, progress=progress, options=sub, data=data)
        if vary:
            report["what_if"] = paired_variants(variants, base, report, sides, play)
        if axes:
            report["grid"] = paired_grid(axes, base, report, sides, play, margin=fraction)
    if tune:
        report["tune"] = tune_search(name, game.scenario, tune, target, games=games, seed=seed,
                                     players=(p1, p2), workers=workers, edition=edition, base_over=base_over,
                                     progress=progress, options=sub, data=data, margin=fraction, span=span,
                                     max_games=max_games)
    if ladder:
        report["skill_ladder"] = skill_ladder(name, games=ladder_games, seed=seed, workers=workers,
                                              edition=edition, overrides=base_over, progress=progress,
                                              options=sub, data=data, levels=climb)
    if skill_curve:
        add_skill_curve(report, game, curve_levels, result, seed=seed, workers=workers, progress=progress,
                        options=sub, margin=fraction, family=family)
    if asked:
        params = [restricted_params(a, game.card_names(), DEFAULT_PARAMS) for a in asked]
        report["restricted"] = restricted_play(game, asked, params, base, games=games, seed=seed,
                                               players=(p1, p2), workers=workers, progress=progress, options=sub)
        report["restricted_method"] = RESTRICTED_METHOD
    elif what_matters == "auto" and games:
        what_matters_most(report, result, name, base, seed=seed, players=(p1, p2), workers=workers,
                          progress=progress, options=sub)
    report["sides"] = sides
    return report, result


def what_matters_most(report: dict, result: RunResult, name: str, base: np.ndarray, *, seed: int,
                      players: tuple[str, str], workers: int | None, progress: bool = True,
                      options: RunOptions | None = None) -> None:
    """Assault's "what matters most" (:func:`simulator.engine.core.balance.what_matters_most`):
    every restriction of both sides, with the players' parameters that forbid it."""
    game = result.game
    every = [a for side in game.sides for a in every_restriction(game.scenario, side, game.card_names())]
    params = [restricted_params(a, game.card_names(), DEFAULT_PARAMS) for a in every]
    core_balance.what_matters_most(report, result, every, params, base, command=f"lanchester assault scenario {name}",
                                   seed=seed, players=players, workers=workers, progress=progress, options=options)


def what_if_inputs(scenario, vary, grid, tune, tune_range):
    """``--vary``, ``--grid``, ``--tune`` and ``--range`` checked before anything is
    compiled: ``(variants, grid axes, tune range)``."""
    variants = parse_vary(vary, scenario)
    axes = parse_grid(grid, lambda key, value, opt: parse_value(key, value, scenario, opt))
    span = parse_range(tune_range)
    if tune_range is not None and not tune:
        raise InputError("--range", tune_range, "give --tune KEY too (--range is the bracket it searches)")
    if tune:
        tune_values(tune, scenario, span)
    return variants, axes, span


def variant_player(name, scenario, *, games, seed, players, workers, edition, base_over, progress,
                   options: RunOptions | None = None, data: dict | None = None):
    """``play(key, value)`` of Assault's what-ifs (``--vary``, ``--grid``): the variant
    (one change, or a combined one's every change) compiled from the overrides and
    played on the main run's seeds."""
    def play(key, v):
        over = base_over
        for k, value in variant_changes(key, v):
            over = merge_overrides(over, override_for(k, value, scenario))
        game = compile_game(name, edition=_edition_of(over, edition), overrides=over, data=data)
        return run_games(game, games=games, seed=seed, players=players, workers=workers, options=options,
                         progress=variant_label(key, v) if progress else None)
    return play


def what_if(name, scenario, variants, base, report, *, games, seed, players, workers, edition, base_over,
            progress, options: RunOptions | None = None, data: dict | None = None) -> dict:
    """Assault's --vary: :func:`paired_variants` with each variant compiled from the overrides."""
    play = variant_player(name, scenario, games=games, seed=seed, players=players, workers=workers, edition=edition,
                          base_over=base_over, progress=progress, options=options, data=data)
    return paired_variants(variants, base, report, list(scenario.sides), play)


def tune_limits(key: str) -> tuple[int, int]:
    """The least and greatest value of a tunable key (those ``--vary`` accepts)."""
    root = key.split(".")[0]
    if root not in TUNE_KEYS:
        raise InputError("--tune", key, f"tune a number: {', '.join(TUNE_KEYS)} (cp.SIDE, count.SIDE.UNIT)")
    return (0 if root == "cp" else 1), {"turns": MAX_TURNS, "count": MAX_COUNT, "cp": MAX_NUMBER}[root]


def tune_values(key: str, scenario, span: tuple[int, int] | None = None) -> list[int]:
    """The values ``--tune KEY`` scans: ``span`` (``--range LO:HI``) when given, inside the
    key's limits; else around the scenario's turns, 1-12 command points, 1-5 units."""
    limits = tune_limits(key)
    if key.split(".")[0] != "turns":
        override_for(key, limits[0], scenario, "--tune")   # cp.SIDE, count.SIDE.UNIT name a side and unit
    if span is not None:
        return range_values(key, span, limits)
    root = key.split(".")[0]
    if root == "turns":
        t = scenario.turns or 6
        return list(range(max(1, t - 4), t + 5))
    if root == "cp":
        return list(range(1, 13))
    return [1, 2, 3, 4, 5]


def tune_search(name, scenario, key, target, *, games, seed, players, workers, edition, base_over, progress,
                options: RunOptions | None = None, data: dict | None = None,
                margin: float = DEFAULT_MARGIN, span: tuple[int, int] | None = None,
                max_games: int = DEFAULT_MAX_GAMES) -> dict:
    """Assault's --tune: :func:`tune_scan` over :func:`tune_values` (``span``: ``--range``),
    each value compiled from the overrides, and the best value confirmed on fresh seeds
    (at most ``max_games`` games: ``--max-games``)."""
    check_target(target)
    values = tune_values(key, scenario, span)

    def compiled(v):
        over = merge_overrides(base_over, override_for(key, v, scenario))
        return compile_game(name, edition=_edition_of(over, edition), overrides=over, data=data)

    def play(v):
        return run_games(compiled(v), games=games, seed=seed, players=players, workers=workers, options=options,
                         progress=f"{key}={v}" if progress else None)

    def confirm(v, fresh):
        return confirmation_run(compiled(v), target=target, games=games, seed=fresh, players=players,
                                workers=workers, options=options, margin=margin, max_games=max_games,
                                progress=f"{key}={v} on fresh seeds" if progress else None)
    return tune_scan(key, values, target, next(iter(scenario.sides)), play, seed=seed, margin=margin,
                     sides=list(scenario.sides), confirm=confirm, limits=tune_limits(key))


def skill_ladder(name: str, *, games: int, seed: int, workers: int | None, edition: str | None,
                 overrides: dict | None = None, progress: bool = True, options: RunOptions | None = None,
                 data: dict | None = None, levels=core_balance.LADDER_LEVELS) -> dict:
    """:func:`simulator.engine.core.balance.skill_ladder` over ``levels`` on scenario
    ``name`` compiled with ``edition``, ``overrides`` and ``data``."""
    game = compile_game(name, edition=edition, overrides=overrides or {}, data=data)
    return core_balance.skill_ladder(game, games=games, seed=seed, workers=workers, progress=progress, options=options,
                                     levels=levels)


CURVE_ACTIVITY_GAMES = 20       # games replayed to count each side's activity at the top level (search is slow)


def parse_levels(text: str | None) -> list[str]:
    """:func:`simulator.engine.core.balance.parse_levels` with the shared players."""
    return core_balance.parse_levels(text, players=interface)


def scenario_balance(name: str, *, games: int = 10_000, seed: int = 0, players: str = "greedy,greedy",
                     workers: int | None = None, out_dir: str | None = None, edition: str | None = None,
                     vary: tuple[str, ...] = (), tune: str | None = None, target: float = 0.5,
                     ladder: bool = False, skill_curve: bool = False, levels: str | None = None,
                     restrict: tuple[str, ...] = (), restrict_all: tuple[str, ...] = (),
                     margin: float | None = None) -> BalanceReport:
    """``lanchester assault scenario`` as a Python function: the balance report as a value
    (its ``frame()``: one row per side and variant; its ``to_json()``: the whole report,
    with ``skill_curve``, ``restricted`` when asked)."""
    return BalanceReport.of(balance_report(name, games=games, seed=seed, players=players, workers=workers,
                                        out_dir=out_dir, edition=edition, vary=vary, tune=tune,
                                        target=target, ladder=ladder, progress=False, skill_curve=skill_curve,
                                        levels=levels, restrict=restrict, restrict_all=restrict_all,
                                        margin=margin))
