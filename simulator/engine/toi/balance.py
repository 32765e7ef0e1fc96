"""The balance report of a Tide of Iron scenario (``lanchester toi scenario``), with the
JSON keys of Assault's (:mod:`simulator.engine.core.balance`): the shared runner and
summary, and the what-ifs and tuning on the game's own keys
(:mod:`simulator.engine.toi.variants`) through the shared paired comparison."""

from __future__ import annotations

import dataclasses


def toi_balance(name: str, *, games: int | None, seed: int, players: str = "greedy,greedy", options=None,
                out_dir=None, progress: bool = True, vary: tuple[str, ...] = (), tune: str | None = None,
                target: float = 0.5, warm=None):
    """The balance report of a Tide of Iron scenario (the JSON of ``assault scenario``)
    and its main run: ``(report, RunResult)``. ``vary``/``tune``: the game's own keys
    (:mod:`simulator.engine.toi.variants`), checked before anything is played; every
    variant plays as many games as the main run, on its seeds. ``warm``: a background
    compile to wait for first (the demo's)."""
    from simulator.engine.core.balance import check_target, paired_variants, play_balance, tune_scan
    from simulator.engine.core.batch import player_kinds, run_games
    from simulator.engine.toi import greedy
    from simulator.engine.toi import variants as V
    from simulator.engine.toi.game import Game

    pl = player_kinds(players, players=greedy)
    game = Game(name)
    variants = V.parse_vary(vary, game.scenario)          # bad what-ifs fail before anything is played
    tune_vals = V.tune_values(tune, game.scenario) if tune else []
    if tune:
        check_target(target)
    report, result = play_balance(game, games=games, seed=seed, players=pl, out_dir=out_dir, progress=progress,
                                  options=options, warm=warm)
    sides = list(game.sides)
    report["sides"] = sides
    report["unit_labels"] = {c: game.card_label(c) for c in game.card_names()}   # the losses' columns, named
    sub = dataclasses.replace(options, precision=None) if options is not None else None

    def play(key, value):
        return run_games(Game(V.variant(game.scenario, key, value)), games=result.tally.games, seed=seed,
                         players=pl, options=sub, progress=f"{key}={value}" if progress else None)
    if variants:
        report["what_if"] = paired_variants(variants, result.tally.outcome_array(), report, sides, play)
    if tune:
        report["tune"] = tune_scan(tune, tune_vals, target, sides[0], lambda v: play(tune, v))
    return report, result
