"""``lanchester toi minefield``: the odds for a unit entering a minefield."""

from __future__ import annotations

import click

from simulator import cliopts


@click.command("minefield")
@click.option("--target", required=True, metavar="UNIT", help="Unit entering the minefield, e.g. squad:4regular.")
@cliopts.exact
@cliopts.trials
@cliopts.seed
@cliopts.monte_carlo
@cliopts.toi_data_files
@cliopts.fmt
@cliopts.out
def minefield_command(target, exact, trials, seed, run_options, units_file, terrain_file, fmt, out):
    """Odds for a unit entering a minefield (001 Minefields): 4 dice, 4-6, no defence.

    Engineers do not roll.

    \b
    Examples:
      lanchester toi minefield --target squad:4regular
      lanchester toi minefield --target m3a1_halftrack --format json
    """
    from reports.bundle import emit_report
    from simulator.games.toi.questions.odds import minefield
    from simulator.games.toi.report import bundles as toi_reports
    from simulator.games.toi.report.text import fire_json, fire_table
    from simulator.games.toi.rules.data import load_game

    game = load_game(units_file, terrain_file)
    answer = minefield(target, game=game, **cliopts.run_arguments(exact, trials, seed, run_options, "minefield"))
    emit_report(fmt, out, table=fire_table(answer), frame=answer.frame(), obj=fire_json(answer),
                report=lambda: toi_reports.fire_report([answer], units_file=units_file,
                                                       terrain_file=terrain_file))
