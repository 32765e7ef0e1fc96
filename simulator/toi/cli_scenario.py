"""``lanchester toi scenario``: whole Tide of Iron games and their balance, as
``lanchester assault scenario`` (same options, same JSON keys), played by the shared
runner (:func:`simulator.engine.core.balance.play_balance`) with the provisional players
(:mod:`simulator.engine.toi.provisional_players`) for now.

Not yet for Tide of Iron: ``--vary``, ``--tune``, ``--ladder`` (they need the game's own
variant keys) and the HTML report bundle: ``--out DIR`` writes ``games.parquet``,
``games.csv``, ``balance.json`` and ``balance.txt``.
"""

from __future__ import annotations

from pathlib import Path

import click

from simulator import cliopts

DEFAULT_GAMES = 10_000
NOT_YET = "not yet for Tide of Iron (issue 19: the game's own variant keys)"


@click.command("scenario")
@click.argument("name")
@click.option("--games", type=click.IntRange(min=1, max=cliopts.MAX_GAMES), default=None, metavar="N",
              help="Games to play [default: 10000; with --precision: the most to play; "
                   f"at most {cliopts.MAX_GAMES}].")
@cliopts.seed
@click.option("--players", default="greedy,greedy", show_default=True, metavar="P1,P2",
              help="Players of the scenario's first and second side: random, greedy (provisional players).")
@cliopts.monte_carlo
@cliopts.out_folder("games.parquet and games.csv, one row per game, balance.json and balance.txt")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--vary", multiple=True, metavar="KEY=V1,V2,...", help=f"What-if variants: {NOT_YET}.")
@click.option("--tune", default=None, metavar="KEY", help=f"Search a number for a target win rate: {NOT_YET}.")
@click.option("--target", type=click.FloatRange(0, 1), default=0.5, show_default=True)
@click.option("--ladder", is_flag=True, default=False, help=f"The skill ladder: {NOT_YET}.")
def scenario_command(name, games, seed, players, run_options, out, fmt, vary, tune, target, ladder):
    """Play Tide of Iron scenario NAME many times with computer players and report its
    balance.

    With --precision X the batch stops once the first side's win rate has a 95%
    interval at most X wide. --checkpoint DIR lets a killed batch resume; --dask runs
    it on a cluster. The numbers depend only on the seed.

    \b
    Examples:
      lanchester toi scenario two-farms --games 20000 --seed 7 --out report/
      lanchester toi scenario ridge-line --players random,greedy --format json
    """
    from simulator.output import emit, to_json
    from simulator.runner import fresh_seed

    for given, option in ((vary, "--vary"), (tune, "--tune"), (ladder, "--ladder")):
        if given:
            raise click.UsageError(f"{option} is {NOT_YET}")
    seed = fresh_seed() if seed is None else seed
    if games is None and run_options.precision is None:
        games = DEFAULT_GAMES
    report = toi_balance(name, games=games, seed=seed, players=players, options=run_options, out_dir=out)
    from reports.scenario_text import report_table
    text = report_table(report)
    if out is not None:
        from simulator.output import atomic_write_bytes
        atomic_write_bytes(Path(out) / "balance.json", to_json(report).encode(), option="--out")
        atomic_write_bytes(Path(out) / "balance.txt", text.encode(), option="--out")
        click.echo(f"report written to {Path(out)}", err=True)
    emit(to_json(report) if fmt == "json" else text, None)


def toi_balance(name: str, *, games: int | None, seed: int, players: str = "greedy,greedy", options=None,
                out_dir=None, progress: bool = True) -> dict:
    """The balance report of a Tide of Iron scenario (the JSON of ``assault scenario``)."""
    from simulator.engine.core.balance import play_balance
    from simulator.engine.core.batch import player_kinds
    from simulator.engine.toi import provisional_players
    from simulator.engine.toi.game import Game

    pl = player_kinds(players, players=provisional_players)
    game = Game(name)
    report, _ = play_balance(game, games=games, seed=seed, players=pl, out_dir=out_dir, progress=progress,
                             options=options)
    report["sides"] = list(game.sides)
    return report
