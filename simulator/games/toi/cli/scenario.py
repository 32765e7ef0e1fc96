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
``--ladder`` and ``--skill-curve`` as Assault's; ``--restrict``/``--restrict-all`` are
restricted play (:mod:`simulator.games.toi.game.restrict`, the shared driver and
statistics); ``--watch`` is the shared loop (:mod:`simulator.cli_watch`).
"""

from __future__ import annotations

import click

from simulator import cliopts

DEFAULT_GAMES = 10_000
VARY_KEYS = ("rounds=N, actions=N (per player turn), initiative=SIDE, vp.OBJECTIVE=N (its hex or name), "
             "count.SIDE.UNIT=N (0 drops the entry), experience.SIDE.UNIT=regular|elite; UNIT is a squad's "
             "figures, a vehicle's model or squads[K]/vehicles[K]")


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
                   "(N simulations per decision), uct or uct:N (a second search family: random playouts, none of "
                   "greedy's choices or scores); lookahead:learned, mcts:N:learned and uct:N:learned score positions "
                   "by the scenario's learned value (toi learn).")
@cliopts.monte_carlo
@cliopts.out_folder("the report bundle: index.html, CSV tables, PNG charts, games.parquet and games.csv "
                    "(one row per game), balance.json and balance.txt")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--vary", multiple=True, metavar="KEY=V1,V2,...",
              help=f"What-if variants, played on the same seeds (repeatable): {VARY_KEYS}. Join changes with "
                   "& for one variant of them all: --vary \"rounds=5&initiative=german\".")
@click.option("--grid", multiple=True, metavar="KEY=V1,V2,...",
              help="Give twice: every pair of the two keys' values as one what-if, same seeds (grid.csv and a "
                   "heatmap with --out). Example: --grid rounds=4,5,6 --grid actions=2,3")
@click.option("--tune", default=None, metavar="KEY",
              help="Search rounds, actions, vp.OBJECTIVE or count.SIDE.UNIT for the first side's win rate closest to --target; the "
                   "best value is then played again on fresh seeds (not used while searching) and that "
                   "confirmation's verdict reported.")
@click.option("--range", "tune_range", default=None, metavar="LO:HI",
              help="With --tune: the values searched, LO to HI within the key's bounds (default around the "
                   "scenario's own). A jump across the target between two values is said.")
@click.option("--target", type=click.FloatRange(0, 1), default=0.5, show_default=True)
@cliopts.skill("lanchester toi scenario two-farms --skill-curve --levels random,greedy,lookahead --out out/curve")
@cliopts.verdict_options("toi", "two-farms")
@click.option("--restrict", multiple=True, metavar="SIDE:WHAT",
              help="Restricted play: play the side again denied one kind of choice, same seeds, and report the "
                   "change of its win rate with its paired 95% interval. WHAT is unit=UNIT (that squad or vehicle "
                   "entry never activated) or assault, concentrated-fire, fire-and-movement, advance, op-fire, "
                   "area-attack, dig, heal, cut-wire, transport, fortification, transfer. Repeatable. Example: "
                   "--restrict german:assault --restrict american:unit=2regular+2mg")
@click.option("--restrict-all", multiple=True, metavar="SIDE",
              help="Restricted play for every squad and vehicle entry of SIDE and every kind of choice it can "
                   "make in the scenario, one at a time. Repeatable. Example: --restrict-all german")
@cliopts.no_restrict_all
@click.option("--watch", is_flag=True, default=False,
              help="Check and play the scenario again each time the file is saved, with the same seed; rewrite "
                   "--out DIR (its page reloads itself) and print one line with the change of the verdict. "
                   "Ctrl-C stops. Example: lanchester toi scenario my.scenario.toml --watch --games 500 --out out/")
@click.option("--watch-max-runs", type=click.IntRange(min=1), default=None, metavar="N",
              help="With --watch: stop after N runs (a save that fails its check counts).")
def scenario_command(name, games, seed, players, run_options, out, fmt, vary, grid, tune, tune_range, target,
                     ladder, ladder_games, skill_curve, levels, family, margin, until_decided, max_games, restrict,
                     restrict_all, no_restrict_all, watch, watch_max_runs):
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
      lanchester toi scenario two-farms --tune "vp.east farm" --range 1:4 --games 2000
      lanchester toi scenario two-farms --players mcts:32,greedy --games 200
      lanchester toi scenario two-farms --games 2000 --ladder --ladder-games 100
      lanchester toi scenario two-farms --skill-curve --levels random,greedy,lookahead --games 100
      lanchester toi scenario two-farms --margin 2 --games 20000
      lanchester toi scenario two-farms --until-decided --games 1000 --seed 7
      lanchester toi scenario two-farms --vary count.american.4regular=2,3 --vary experience.german.2elite+mg=regular
      lanchester toi scenario two-farms --restrict german:op-fire --restrict-all american --games 1000
      lanchester toi scenario my.scenario.toml --watch --games 500 --out out/my
    """
    from reports.scenario_text import report_table
    from simulator.engine.core.answers import BalanceReport
    from simulator.run.output import emit, to_json
    from simulator.run.runner import fresh_seed

    if watch_max_runs is not None and not watch:
        raise click.UsageError("--watch-max-runs needs --watch")
    cliopts.check_skill(skill_curve, levels)
    cliopts.check_verdict_options(until_decided, max_games, run_options, tune)
    seed = fresh_seed() if seed is None else seed
    if games is None and run_options.precision is None:
        from simulator.engine.core.balance import DEFAULT_FIRST_ROUND
        from simulator.run.vocabulary import DEFAULT_CURVE_GAMES
        games = DEFAULT_CURVE_GAMES if skill_curve else DEFAULT_FIRST_ROUND if until_decided else DEFAULT_GAMES
    kwargs = dict(games=games, seed=seed, players=players, options=run_options, vary=tuple(vary), grid=tuple(grid),
                  tune=tune, tune_range=tune_range,
                  target=target, ladder=ladder, ladder_games=ladder_games, skill_curve=skill_curve, levels=levels,
                  family=family,
                  margin=margin, until_decided=until_decided, max_games=max_games, restrict=tuple(restrict),
                  restrict_all=tuple(restrict_all))
    kwargs.update(cliopts.what_matters(out, no_restrict_all, restrict_all))
    if watch:
        raise click.exceptions.Exit(watch_scenario(name, out, watch_max_runs, **kwargs))
    if out is None:
        from simulator.games.toi.game.balance import toi_balance
        report, _ = toi_balance(name, **kwargs)
    else:
        report, _ = play_into_report(name, out, **kwargs)
    emit(to_json(report) if fmt == "json" else report_table(BalanceReport.of(report)), None)


def play_into_report(name: str, out_dir, *, refresh: int | None = None, **kwargs):
    """Play the batch into a staging folder, complete the report there and rename it to
    ``out_dir``: ``(report, RunResult)``. ``refresh``: the page reloads itself every so
    many seconds (``--watch``)."""
    from simulator.cli_report import play_into_report as play
    from simulator.games.toi.report.bundles import scenario_bundle

    return play(scenario_bundle, name, out_dir, refresh=refresh, **kwargs)


def watch_scenario(name: str, out_dir, max_runs: int | None, **kwargs) -> int:
    """The ``--watch`` loop (:mod:`simulator.cli_watch`) on a Tide of Iron scenario: the
    file is watched (the roster and terrain files are read once a process); returns the
    exit status."""
    from simulator.cli_watch import REFRESH_SECONDS, Watch
    from simulator.games.toi.game.scenario import scenario_path

    path = str(scenario_path(name))          # a missing file is the one-line error, exit 2

    def play():
        if out_dir is None:
            from simulator.games.toi.game.balance import toi_balance
            return toi_balance(path, **kwargs)
        return play_into_report(path, out_dir, refresh=REFRESH_SECONDS, **kwargs)

    return Watch(path, play, files=lambda result: {result.game.scenario.path}, max_runs=max_runs).loop()
