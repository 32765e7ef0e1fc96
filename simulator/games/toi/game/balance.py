"""The balance report of a Tide of Iron scenario (``lanchester toi scenario``), with the
JSON keys of Assault's (:mod:`simulator.engine.core.balance`): the shared runner and
summary, and the what-ifs and tuning on the game's own keys
(:mod:`simulator.games.toi.game.variants`) through the shared paired comparison, and
restricted play (:mod:`simulator.games.toi.game.restrict`) through the shared driver."""

from __future__ import annotations

import dataclasses

ACTIVITY_GAMES = 200            # games of the main run played again for each side's activity
SEARCH_ACTIVITY_GAMES = 20      # with a searching player (each game takes seconds)


def add_side_activity(report: dict, game, seed: int, players: tuple[str, str], games: int, progress: bool) -> None:
    """``activity_by_side`` (:func:`simulator.games.toi.game.activity.side_activity`: the
    first games of the main run played again with the event log) and ``assaults_per_game``
    ``{side: mean}`` from it (issue 41: who assaults; the batch records count both sides
    together)."""
    from simulator.engine.players.interface import any_searching
    from simulator.games.toi.game.activity import side_activity
    from simulator.run.notice import waiting
    n = min(games, SEARCH_ACTIVITY_GAMES if any_searching(players) else ACTIVITY_GAMES)
    if n <= 0:
        return
    if progress:
        with waiting(f"replaying {n:,} games to count each side's activity"):
            act = side_activity(game, seed, players, n)
    else:
        act = side_activity(game, seed, players, n)
    report["activity_by_side"] = act
    report["assaults_per_game"] = {s: act[s]["assaults"] for s in game.sides}


def toi_balance(name: str, *, games: int | None, seed: int, players: str = "greedy,greedy", options=None,
                out_dir=None, progress: bool = True, vary: tuple[str, ...] = (), tune: str | None = None,
                target: float = 0.5, warm=None, ladder: bool = False, ladder_games: int = 200,
                skill_curve: bool = False, levels: str | None = None, margin: float | None = None,
                until_decided: bool = False, max_games: int | None = None, restrict: tuple[str, ...] = (),
                restrict_all: tuple[str, ...] = (), what_matters: str = "off", tune_range: str | None = None,
                grid: tuple[str, ...] = (), family: str | None = None):
    """The balance report of a Tide of Iron scenario (the JSON of ``assault scenario``)
    and its main run: ``(report, RunResult)``. ``vary``/``tune`` (``tune_range``: ``--range
    LO:HI``)/``grid`` (two axes, every pair one combined what-if): the game's own keys
    (:mod:`simulator.games.toi.game.variants`), checked before anything is played; every
    variant plays as many games as the main run, on its seeds. ``warm``: a background
    compile to wait for first (the demo's). ``ladder``: random < greedy < look-ahead from
    both seats (``ladder_games`` a match); ``skill_curve``: the main run is played by the
    strongest of ``levels`` on both sides, then every lower level with as many games, and
    the verdict is made at the strongest level, beside it ``family`` (the second search
    family's player, ``--family``; None or "off": none) (the shared players and
    :mod:`simulator.engine.core.balance`, as Assault's). ``margin``: the verdict's margin in
    points (default the scenario's ``[verdict] margin``, else 5); ``until_decided``: the
    main run plays rounds, the first of ``games``, until decided or ``max_games``;
    ``max_games`` also caps ``tune``'s confirmation on fresh seeds.
    ``restrict`` (``"german:assault"``, ``"american:unit=4regular"``) and ``restrict_all``
    (sides): the main run's players again, one restriction at a time, on its seeds
    (:func:`simulator.engine.core.balance.restricted_play`)."""
    from simulator.engine.core.balance import (
        RESTRICTED_METHOD,
        add_skill_curve,
        check_target,
        confirmation_run,
        family_player,
        ladder_levels,
        paired_grid,
        paired_variants,
        parse_grid,
        parse_levels,
        parse_range,
        play_balance,
        restricted_play,
        skill_ladder,
        tune_scan,
        variant_label,
        verdict_with_players,
        what_matters_most,
    )
    from simulator.engine.core.batch import margin_fraction, player_kinds, run_games
    from simulator.engine.players import interface
    from simulator.engine.players.interface import DEFAULT_PARAMS
    from simulator.games.toi.game import restrict as R
    from simulator.games.toi.game import variants as V
    from simulator.games.toi.game.game import Game
    from simulator.run.errors import InputError
    from simulator.run.vocabulary import DEFAULT_MAX_GAMES

    curve_levels = parse_levels(levels, players=interface) if skill_curve else []
    family = family_player(family, players=interface) if skill_curve else None
    if levels is not None and not (skill_curve or ladder):
        raise InputError("--levels", "", "give --skill-curve or --ladder too (--levels chooses their levels)")
    climb = ladder_levels(skill_curve, curve_levels, parse_levels(levels, players=interface) if levels else None)
    pl = (curve_levels[-1],) * 2 if skill_curve else player_kinds(players, players=interface)
    game = Game(name)
    variants = V.parse_vary(vary, game.scenario)          # bad what-ifs fail before anything is played
    axes = parse_grid(grid, lambda key, text, opt: V.parse_vary([f"{key}={text}"], game.scenario, opt)[0][1][0])
    if tune_range is not None and not tune:
        raise InputError("--range", tune_range, "give --tune KEY too (--range is the bracket it searches)")
    tune_vals = V.tune_values(tune, game.scenario, parse_range(tune_range)) if tune else []
    if tune:
        check_target(target)
    asked = [R.parse_restriction(r, game.scenario) for r in restrict]        # and bad restrictions
    asked += [a for side in restrict_all for a in R.every_restriction(game.scenario, side)]
    label = f"{game.name} at {pl[0]} (level {len(curve_levels)} of {len(curve_levels)})" if skill_curve else None
    fraction = margin_fraction(margin, game.scenario.spec.verdict.margin)
    report, result = play_balance(game, games=games, seed=seed, players=pl, out_dir=out_dir, progress=progress,
                                  options=options, warm=warm, label=label, margin=fraction,
                                  until_decided=until_decided, max_games=max_games or DEFAULT_MAX_GAMES)
    if not skill_curve:
        report["verdict"] = verdict_with_players(report["verdict"], report["players"])
    sides = list(game.sides)
    report["sides"] = sides
    report["unit_labels"] = {c: game.card_label(c) for c in game.card_names()}   # the losses' columns, named
    add_side_activity(report, game, seed, pl, result.tally.games, progress)
    sub = dataclasses.replace(options, precision=None) if options is not None else None

    def play(key, value, with_seed=seed, label=None):
        return run_games(Game(V.variant(game.scenario, key, value)), games=result.tally.games, seed=with_seed,
                         players=pl, options=sub, progress=(label or variant_label(key, value)) if progress else None)
    if variants:
        report["what_if"] = paired_variants(variants, result.tally.outcome_array(), report, sides, play)
    if axes:
        report["grid"] = paired_grid(axes, result.tally.outcome_array(), report, sides, play, margin=fraction)
    if tune:
        report["tune"] = tune_scan(tune, tune_vals, target, sides[0], lambda v: play(tune, v), seed=seed,
                                   margin=fraction, sides=sides, limits=V.tune_limits(tune, game.scenario),
                                   confirm=lambda v, fresh: confirmation_run(
                                       Game(V.variant(game.scenario, tune, v)), target=target,
                                       games=result.tally.games, seed=fresh, players=pl, workers=None,
                                       options=sub, margin=fraction, max_games=max_games or DEFAULT_MAX_GAMES,
                                       progress=f"{tune}={v} on fresh seeds" if progress else None))
    if ladder:
        report["skill_ladder"] = skill_ladder(game, games=ladder_games, seed=seed, workers=None, progress=progress,
                                              options=sub, levels=climb)
    if skill_curve:
        add_skill_curve(report, game, curve_levels, result, seed=seed, workers=None, progress=progress, options=sub,
                        margin=fraction, family=family)
    if asked:
        report["restricted"] = restricted_play(game, asked, [R.restricted_params(a, DEFAULT_PARAMS) for a in asked],
                                               result.tally.outcome_array(), games=result.tally.games, seed=seed,
                                               players=pl, workers=None, progress=progress, options=sub)
        report["restricted_method"] = RESTRICTED_METHOD
    elif what_matters == "auto" and result.tally.games:
        every = [a for side in game.sides for a in R.every_restriction(game.scenario, side)]
        what_matters_most(report, result, every, [R.restricted_params(a, DEFAULT_PARAMS) for a in every],
                          result.tally.outcome_array(), command=f"lanchester toi scenario {name}", seed=seed,
                          players=pl, workers=None, progress=progress, options=sub)
    return report, result
