"""What ``lanchester assault learn`` and ``lanchester toi learn`` share (issue 41 item 2,
:mod:`simulator.engine.players.learned`): their options, and fitting (or loading from the
cache) a scenario's learned position value, printing it and writing its calibration.
Each game's ``cli/learn.py`` declares the command with its own examples and says how to
load its scenario, how to show its engine loading and which data its report names."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Callable

import click

from simulator import cliopts


def learn_options(command: Callable) -> Callable:
    """The argument and options of a game's ``learn`` command:
    ``(name, games, seed, workers, out, as_json, refit)``."""
    for option in reversed((
        click.argument("name"),
        click.option("--games", type=click.IntRange(min=50), default=None, metavar="N",
                     help="Greedy games to fit on (default 2,000: the value the learned players use)."),
        click.option("--seed", type=click.IntRange(min=0), default=None, metavar="S",
                     help="Seed of the games and of the held-out split (default 41: the learned players' own)."),
        cliopts.workers,
        cliopts.out_folder("value-calibration.csv, value-calibration.png and learned-value.json"),
        click.option("--json", "as_json", is_flag=True, help="Print the fitted value as JSON instead of the table."),
        click.option("--refit", is_flag=True, help="Fit again even when the cache holds the value."),
    )):
        command = option(command)
    return command


def fit_and_show(game, engine_loading: AbstractContextManager, scenario_data: Callable, *,
                 games: int | None, seed: int | None, workers: int | None, out, as_json: bool,
                 refit: bool) -> None:
    """Fit (or load) ``game``'s learned value while ``engine_loading`` shows the engine's
    compile, print it (a table, or JSON with ``as_json``) and, with ``out``, write its
    calibration files, naming the data ``scenario_data(game)`` returns."""
    from simulator.engine.players import learned as L

    with engine_loading:
        value, hit = L.learn(game, games=games or L.DEFAULT_GAMES, seed=L.FIT_SEED if seed is None else seed,
                             workers=workers, progress="learn: games", refit=refit)
    if hit:
        click.echo("lanchester: learned value loaded from the cache", err=True)
    _emit(game, value, scenario_data, out, as_json)


def _emit(game, value, scenario_data: Callable, out, as_json: bool) -> None:
    from simulator.engine.players.learned import summary_lines
    from simulator.run.output import to_json

    click.echo(to_json(value.to_json()) if as_json else "\n".join(summary_lines(value)))
    if out:
        from reports.provenance import provenance
        from reports.value import write_value_files

        sources, files = scenario_data(game)
        prov = provenance(sources, files, method="monte-carlo", seed=value.settings["seed"],
                          trials=value.data["games"], unit="games")
        paths = write_value_files(out, calibration=value.calibration, value=value.to_json(), prov=prov,
                                  side=game.sides[0], scenario=game.name)
        click.echo(f"wrote {', '.join(str(p) for p in paths)}", err=True)
