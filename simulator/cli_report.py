"""``lanchester report DIR``: rebuild a report's ``index.html`` from its data."""

from __future__ import annotations

import click


@click.command("report")
@click.argument("directory", type=click.Path(file_okay=False))
def report(directory: str) -> None:
    """Rebuild DIRECTORY/index.html from DIRECTORY/summary.json and the CSV tables.

    Works on any folder written with --out DIR (and on `lanchester demo`'s folder,
    with every report in it). Edit a table's rows or summary.json, then rebuild.

    \b
    Example:
      lanchester report out/demo
    """
    from reports.bundle import rebuild

    path = rebuild(directory)
    click.echo(f"report rebuilt: {path / 'index.html'}")
