"""``lanchester assault units``: list the unit cards (4.2) in use.

The answer is :func:`simulator.games.assault.questions.units.unit_cards` (one row per unit); the text
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
    from simulator.games.assault.questions.units import unit_cards
    from simulator.games.assault.report.bundles import units_report
    from simulator.games.assault.report.text import units_json, units_table

    answer = unit_cards(side, units_dir, dice_file)
    emit_report(fmt, out, table=units_table(answer), frame=answer.frame(), obj=units_json(answer),
                report=lambda: units_report(answer, dice=dice_file))
