"""``lanchester toi learn``: the scenario's learned position value (issue 41 item 2,
:mod:`simulator.engine.players.learned`): fitted on its own games, or loaded from the cache,
with its calibration on held-out games."""

from __future__ import annotations

import click

from simulator import cliopts


@click.command("learn")
@click.argument("name")
@click.option("--games", type=click.IntRange(min=50), default=None, metavar="N",
              help="Greedy games to fit on (default 2,000: the value the learned players use).")
@click.option("--seed", type=click.IntRange(min=0), default=None, metavar="S",
              help="Seed of the games and of the held-out split (default 41: the learned players' own).")
@cliopts.workers
@cliopts.out_folder("value-calibration.csv, value-calibration.png and learned-value.json")
@click.option("--json", "as_json", is_flag=True, help="Print the fitted value as JSON instead of the table.")
@click.option("--refit", is_flag=True, help="Fit again even when the cache holds the value.")
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
    from simulator.engine.players import learned as L
    from simulator.games.toi.game.game import Game
    from simulator.games.toi.game.warmup import COMPILE_ESTIMATE

    game = Game(name)
    with loading(COMPILE_ESTIMATE):
        value, hit = L.learn(game, games=games or L.DEFAULT_GAMES, seed=L.FIT_SEED if seed is None else seed,
                             workers=workers, progress="learn: games", refit=refit)
    if hit:
        click.echo("lanchester: learned value loaded from the cache", err=True)
    _emit(game, value, out, as_json)


def _emit(game, value, out, as_json) -> None:
    from simulator.run.output import to_json
    click.echo(to_json(value.to_json()) if as_json else "\n".join(summary(value)))
    if out:
        from reports.provenance import provenance
        from reports.value import write_value_files
        from simulator.games.toi.report.provenance import toi_scenario_data as scenario_data
        sources, files = scenario_data(game)
        prov = provenance(sources, files, method="monte-carlo", seed=value.settings["seed"],
                          trials=value.data["games"], unit="games")
        paths = write_value_files(out, calibration=value.calibration, value=value.to_json(), prov=prov,
                                  side=game.sides[0], scenario=game.name)
        click.echo(f"wrote {', '.join(str(p) for p in paths)}", err=True)


def summary(value) -> list[str]:
    from simulator.engine.players.learned import summary_lines
    return summary_lines(value)
