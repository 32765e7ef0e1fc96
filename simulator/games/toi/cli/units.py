"""``lanchester toi units``: the roster, the readings kept as data, the terrain features."""

from __future__ import annotations

import click

from simulator import cliopts


@click.command("units")
@cliopts.toi_data_files
@cliopts.fmt
@cliopts.out
def units_command(units_file, terrain_file, fmt, out):
    """The roster: range and FPR vs infantry / vs vehicles, movement, armour, traits.

    Values marked * were reconstructed from a garbled stat block (see the source
    notes in scenarios/toi/units.toml).

    \b
    Examples:
      lanchester toi units
      lanchester toi units --format csv
    """
    from reports.bundle import emit_report
    from simulator.games.toi.questions.odds import readings_frame, roster_frame
    from simulator.games.toi.report import bundles as toi_reports
    from simulator.games.toi.report.text import units_json, units_table
    from simulator.games.toi.rules.data import load_game

    game = load_game(units_file, terrain_file)
    frame = roster_frame(game)
    readings = readings_frame(game)
    emit_report(fmt, out, table=units_table(game, frame, readings), frame=frame, obj=units_json(game, readings),
                report=lambda: toi_reports.units_report(frame, units_file=units_file, terrain_file=terrain_file))
