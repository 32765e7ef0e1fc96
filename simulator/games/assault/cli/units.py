"""``lanchester assault units``: list the unit cards (4.2) in use.

The table is :func:`simulator.games.assault.rules.cards.units_frame` (one row per unit); the text
and JSON are :func:`simulator.games.assault.report.text.units_table` and :func:`simulator.games.assault.report.text.units_json`.
"""

from __future__ import annotations

import click

from simulator import cliopts


@click.command("units")
@click.option("--side", default=None, metavar="SIDE",
              help="Only the units of one side: german or soviet.")
@cliopts.data_files(with_aid=False)
@cliopts.fmt
@cliopts.out
def units(side: str | None, dice_file: str | None, units_dir: str | None, fmt: str,
          out: str | None) -> None:
    """List the unit cards: type, strength, movement, range bands, defence, abilities.

    Values are the project's illustrative cards unless the source column names the
    rule-book section that states them.

    \b
    Examples:
      lanchester assault units
      lanchester assault units --side soviet --format csv --out soviet.csv
      lanchester assault units --units-dir my-cards/ --format json
      lanchester assault units --out out/units
    """
    from reports.bundle import emit_report
    from simulator.games.assault.report.bundles import units_report
    from simulator.games.assault.report.text import units_json, units_table
    from simulator.games.assault.rules.cards import units_frame

    frame = units_frame(side, units_dir, dice_file)
    emit_report(fmt, out, table=units_table(frame), frame=frame, obj=units_json(frame),
                report=lambda: units_report(frame, dice=dice_file))
