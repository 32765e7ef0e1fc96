"""``lanchester assault odds``: the odds of one dice roll against another (10.7.2).

Heavy modules are imported inside the functions, so ``--help`` answers at once.
"""

from __future__ import annotations

import click

from simulator import cliopts
from simulator.games.assault.report.text import odds_json, odds_table


@click.command("odds")
@click.argument("attack")
@click.argument("defence")
@cliopts.exact
@cliopts.trials
@cliopts.seed
@click.option("--doubles", type=click.Choice(["all", "strongest", "weakest"]), default="all",
              show_default=True, help="How the attacker's double successes count (rulings #2).")
@click.option("--extra-supp", type=click.IntRange(min=0), default=0, show_default=True, metavar="K",
              help="Add K suppression symbols to the attack (recruit target, 4.2.3).")
@cliopts.dice
@cliopts.monte_carlo
@cliopts.fmt
@cliopts.out
def odds_command(attack, defence, exact, trials, seed, doubles, extra_supp, dice_file, run_options, fmt, out):
    """Odds of ATTACK dice rolled against DEFENCE dice (10.7.2).

    Pools are strings of die letters (R Y G B, strongest first), with optional
    counts: RY, 2RG, "2R + G", or - for no dice.

    \b
    Examples:
      lanchester assault odds RY YG
      lanchester assault odds 2RG YYB --trials 1000000 --seed 7
      lanchester assault odds RY - --doubles strongest --format json
      lanchester assault odds RY YG --out out/ry-vs-yg
    """
    from reports.bundle import emit_report
    from simulator.games.assault.questions.odds import odds_outcomes

    def report():
        from simulator.games.assault.report.bundles import odds_report  # charts and provenance: only for --out DIR
        return odds_report([answer])

    monte_carlo = cliopts.wants_monte_carlo(exact, trials, run_options)
    answer = odds_outcomes(attack, defence, exact=not monte_carlo, trials=trials, seed=seed, doubles=doubles,
                 extra_supp=extra_supp, dice=dice_file, options=run_options.with_progress("odds"))
    emit_report(fmt, out, table=odds_table(answer), frame=answer.frame, obj=odds_json(answer), report=report)
