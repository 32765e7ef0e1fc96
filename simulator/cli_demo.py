"""``lanchester demo``: the command line of :mod:`simulator.demo` (the bundled examples,
written as a report folder)."""

from __future__ import annotations

from pathlib import Path

import click

from simulator import cliopts
from simulator.demo import DEMO_GAMES, DEMO_SCENARIO, DEMO_TOI_GAMES


@click.command("demo")
@cliopts.out_folder("index.html and summary.json linking one report folder per example", default="out/demo")
@click.option("--seed", type=click.IntRange(min=0), default=2026, show_default=True)
@click.option("--trials", type=click.IntRange(min=1, max=cliopts.MAX_TRIALS), default=2_000_000, show_default=True,
              help="Monte Carlo trials of the odds and fire questions.")
@click.option("--games", type=click.IntRange(min=1, max=cliopts.MAX_GAMES), default=DEMO_GAMES, show_default=True,
              help="Games of the scenario balance report (of the Tide of Iron one: at most "
                   f"{DEMO_TOI_GAMES:,}).")
@cliopts.quiet
def demo(out: str, seed: int, trials: int, games: int, quiet: bool) -> None:
    """Run the bundled examples and write a report folder (open its index.html).

    \b
    Example:
      lanchester demo --out out/demo
    """
    from simulator.run.progress import quiet_if

    with quiet_if(quiet):
        _demo(Path(out), seed, trials, games)


def _demo(out: Path, seed: int, trials: int, games: int) -> None:
    from reports.bundle import write_collection
    from simulator.demo import clear_old_layout, demo_reports

    clear_old_layout(out)
    write_collection(out, title="lanchester demo: scenario balance, dice odds, ranged fire and the matchup matrix",
                     intro=(f"The balance of the default scenario ({games:,} games, seed {seed}) and of a Tide "
                            f"of Iron scenario of the project's own design ({min(games, DEMO_TOI_GAMES):,} "
                            "games), then exact "
                            f"answers and Monte Carlo checks ({trials:,} trials) on the bundled data: the "
                            "dice are reconstructed and the unit cards illustrative. Each report names its "
                            "data, their status, and the command that reproduces it."),
                     reports=demo_reports(seed, trials, games), lead=f"scenario-{DEMO_SCENARIO}")
    click.echo(f"report written to {(out / 'index.html').resolve()}")
