"""``lanchester toi learn``: the scenario's learned position value (issue 41 item 2,
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
      lanchester toi learn two-farms
      lanchester toi learn ridge-line --games 4000 --seed 7 --out ridge-value/
    """
    from simulator.engine.core.background import loading
    from simulator.games.toi.game.game import Game
    from simulator.games.toi.game.warmup import COMPILE_ESTIMATE
    from simulator.games.toi.report.provenance import toi_scenario_data

    cli_learn.fit_and_show(Game(name), loading(COMPILE_ESTIMATE), toi_scenario_data, games=games, seed=seed,
                           workers=workers, out=out, as_json=as_json, refit=refit)
