"""Click options shared by every command, named the same everywhere.

``--trials`` / ``--exact``, ``--seed``, ``--workers``, ``--format``, ``--out``,
``--dice``. Use them as decorators: ``@cliopts.seed``.
"""

from __future__ import annotations

import click

from simulator.output import FORMATS

exact = click.option("--exact", "exact", is_flag=True, default=False,
                     help="Compute exact probabilities (the default unless --trials is given).")
trials = click.option("--trials", type=click.IntRange(min=1), default=None, metavar="N",
                      help="Answer by Monte Carlo with N trials instead of exactly.")
seed = click.option("--seed", type=click.IntRange(min=0), default=None, metavar="S",
                    help="Seed for Monte Carlo (same seed, same numbers, whatever --workers). "
                         "Default: a fresh seed, reported in the output.")
workers = click.option("--workers", type=click.IntRange(min=1), default=None, metavar="W",
                       help="Worker threads/processes for Monte Carlo (default: all cores).")
fmt = click.option("--format", "fmt", type=click.Choice(FORMATS), default="table",
                   show_default=True, help="Output format.")
out = click.option("--out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                   help="Write the output to FILE (atomically) instead of printing it.")
dice = click.option("--dice", "dice_file", type=click.Path(dir_okay=False), default=None,
                    metavar="FILE", help="Dice file to use instead of scenarios/assault/dice.toml.")


def monte_carlo_wanted(exact_flag: bool, trials_n: int | None) -> bool:
    """``--exact`` and ``--trials`` are alternatives; exact is the default."""
    if exact_flag and trials_n is not None:
        raise click.UsageError("--exact and --trials cannot be used together")
    return trials_n is not None
