"""``lanchester assault learn``: the scenario's learned position value (issue 41 item 2,
:mod:`simulator.engine.players.learned`): fitted on its own games, or loaded from the cache,
with its calibration on held-out games. The options and the work are
:mod:`simulator.cli_learn`'s, shared with the other game."""

from __future__ import annotations

import click

from simulator import cli_learn


@click.command("learn")
@cli_learn.learn_options
def learn_command(name, games, seed, workers, out, as_json, refit):
    """Fit (or load from the cache) the learned position value of scenario NAME: the chance
    that the first side wins, from features of a position (strength by kind, objectives
    held and threatened, distances, the share of the game played, markers), fitted on
    greedy games of the scenario; print its calibration on held-out games by decile
    against the hand-written value and the base rate. `--players mcts:256:learned` and
    `lookahead:learned` play with it.

    \b
    Examples:
      lanchester assault learn infantry-training
      lanchester assault learn crossroads --games 4000 --seed 7 --out crossroads-value/
    """
    from simulator.games.assault.game.compile import compile_game
    from simulator.games.assault.game.warmup import engine_loading
    from simulator.games.assault.report.provenance import scenario_data

    cli_learn.fit_and_show(compile_game(name), engine_loading(), scenario_data, games=games, seed=seed,
                           workers=workers, out=out, as_json=as_json, refit=refit)
