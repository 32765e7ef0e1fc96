"""``lanchester toi scenario``: whole Tide of Iron games and their balance, as
``lanchester assault scenario`` (same options, same JSON keys), played by the shared
runner (:func:`simulator.engine.core.balance.play_balance`) with the shared players
(:mod:`simulator.engine.players`: random, greedy, lookahead, mcts[:N]; Tide of Iron's
greedy is :mod:`simulator.games.toi.game.greedy`).

``--out DIR`` writes Assault's report bundle (:func:`simulator.games.toi.report.bundles.scenario_bundle`):
``games.parquet``, ``games.csv``, ``balance.json``, ``balance.txt``, ``index.html`` with
its CSV tables and PNG charts. ``--vary`` and ``--tune`` take the game's own keys
(:mod:`simulator.games.toi.game.variants`: ``rounds``, ``actions``, ``initiative``, ``vp.OBJECTIVE``), played
with common random numbers as Assault's what-ifs (:mod:`simulator.games.toi.game.balance`);
``--ladder`` and ``--skill-curve`` as Assault's.
"""

from __future__ import annotations

from pathlib import Path

import click

from simulator import cliopts

DEFAULT_GAMES = 10_000
VARY_KEYS = "rounds=N, actions=N (per player turn), initiative=SIDE, vp.OBJECTIVE=N (its hex or name)"


@click.command("scenario")
@click.argument("name")
@click.option("--games", type=click.IntRange(min=1, max=cliopts.MAX_GAMES), default=None, metavar="N",
              help="Games to play [default: 10000; with --skill-curve: games per level, default "
                   f"{cliopts.DEFAULT_CURVE_GAMES}; with --until-decided: the first round's, default 1000; "
                   "with --precision: "
                   "the most to play; "
                   f"at most {cliopts.MAX_GAMES}].")
@cliopts.seed
@click.option("--players", default="greedy,greedy", show_default=True, metavar="P1,P2",
              help="Players of the scenario's first and second side: random, greedy, lookahead, mcts or mcts:N "
                   "(N simulations per decision).")
@cliopts.monte_carlo
@cliopts.out_folder("the report bundle: index.html, CSV tables, PNG charts, games.parquet and games.csv "
                    "(one row per game), balance.json and balance.txt")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--vary", multiple=True, metavar="KEY=V1,V2,...",
              help=f"What-if variants, played on the same seeds (repeatable): {VARY_KEYS}.")
@click.option("--tune", default=None, metavar="KEY",
              help="Search rounds, actions or vp.OBJECTIVE for the first side's win rate closest to --target; the "
                   "best value is then played again on fresh seeds (not used while searching) and that "
                   "confirmation's verdict reported.")
@click.option("--target", type=click.FloatRange(0, 1), default=0.5, show_default=True)
@cliopts.skill("lanchester toi scenario two-farms --skill-curve --levels random,greedy,lookahead --out out/curve")
@cliopts.verdict_options("toi", "two-farms")
def scenario_command(name, games, seed, players, run_options, out, fmt, vary, tune, target, ladder, ladder_games,
                     skill_curve, levels, margin, until_decided, max_games):
    """Play Tide of Iron scenario NAME many times with computer players and report its
    balance.

    The verdict is balanced, unbalanced, undecided (not enough games: it says how
    many more would most likely decide it) or no verdict, at a margin of ±5 points
    (--margin, or the scenario's [verdict] margin; docs/statistics.md).
    --until-decided plays rounds until it is decided. With --precision X the batch
    stops once the confidence sequence of the first side's win rate is at most X
    wide (the verdict uses it too). --checkpoint DIR lets a killed batch resume; --dask runs
    it on a cluster. The numbers depend only on the seed.

    \b
    Examples:
      lanchester toi scenario two-farms --games 20000 --seed 7 --out report/
      lanchester toi scenario ridge-line --players random,greedy --format json
      lanchester toi scenario two-farms --vary rounds=4,6 --vary initiative=german
      lanchester toi scenario two-farms --tune rounds --target 0.5 --games 2000
      lanchester toi scenario two-farms --players mcts:32,greedy --games 200
      lanchester toi scenario two-farms --games 2000 --ladder --ladder-games 100
      lanchester toi scenario two-farms --skill-curve --levels random,greedy,lookahead --games 100
      lanchester toi scenario two-farms --margin 2 --games 20000
      lanchester toi scenario two-farms --until-decided --games 1000 --seed 7
    """
    from reports.scenario_text import report_table
    from simulator.run.output import emit, to_json
    from simulator.run.runner import fresh_seed

    cliopts.check_skill(skill_curve, levels)
    cliopts.check_verdict_options(until_decided, max_games, run_options)
    seed = fresh_seed() if seed is None else seed
    if games is None and run_options.precision is None:
        from simulator.engine.core.balance import DEFAULT_FIRST_ROUND
        from simulator.run.vocabulary import DEFAULT_CURVE_GAMES
        games = DEFAULT_CURVE_GAMES if skill_curve else DEFAULT_FIRST_ROUND if until_decided else DEFAULT_GAMES
    kwargs = dict(games=games, seed=seed, players=players, options=run_options, vary=tuple(vary), tune=tune,
                  target=target, ladder=ladder, ladder_games=ladder_games, skill_curve=skill_curve, levels=levels,
                  margin=margin, until_decided=until_decided, max_games=max_games)
    if out is None:
        from simulator.games.toi.game.balance import toi_balance
        report, _ = toi_balance(name, **kwargs)
    else:
        from reports.bundle import fill, staging
        from simulator.games.toi.report.bundles import scenario_bundle
        with staging(Path(out)) as tmp:
            report, bundle = scenario_bundle(name, tmp, **kwargs)
            fill(tmp, bundle)
        click.echo(f"report written to {Path(out) / 'index.html'}", err=True)
    emit(to_json(report) if fmt == "json" else report_table(report), None)
