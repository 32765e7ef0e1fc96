"""``lanchester report DIR``: rebuild a report's ``index.html`` from its data."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

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


def play_into_report(scenario_bundle: Callable, name: str, out_dir, *, refresh: int | None = None, **kwargs):
    """Play a scenario's batch into a staging folder with the game's ``scenario_bundle``,
    complete the report there and rename it to ``out_dir``: ``(report, RunResult)``.
    ``refresh``: the page reloads itself every so many seconds (``--watch``). Both games'
    scenario commands write their report with it."""
    from reports.bundle import fill, staging

    with staging(Path(out_dir)) as tmp:
        report, bundle, result = scenario_bundle(name, tmp, with_result=True, **kwargs)
        fill(tmp, bundle)
        if refresh:
            from reports.html import add_refresh
            page = tmp / "index.html"
            page.write_text(add_refresh(page.read_text(), refresh))
    click.echo(f"report written to {Path(out_dir) / 'index.html'}", err=True)
    return report, result
