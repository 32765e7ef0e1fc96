"""``lanchester assault scenario`` and ``lanchester assault replay``: whole games.

Both are thin: they parse, call :func:`simulator.games.assault.game.balance.balance_report` or
:func:`simulator.games.assault.game.replay.replay_game`, and print or write the result.
"""

from __future__ import annotations

import click

from simulator import cliopts
from simulator.run.vocabulary import EDITIONS

edition_option = click.option("--edition", type=click.Choice(EDITIONS), default=None,
                              help="Close-combat edition (default: the scenario's).")
players_option = click.option("--players", default="greedy,greedy", show_default=True, metavar="P1,P2",
                              help="Players of the scenario's first and second side: random, greedy, lookahead, "
                                   "mcts (tree search; mcts:N for N simulations per decision), uct or uct:N (a "
                                   "second search family: random playouts, none of greedy's choices or scores); "
                                   "lookahead:learned, mcts:N:learned and uct:N:learned score positions by the "
                                   "scenario's learned value (assault learn).")


@click.command("scenario")
@click.argument("name")
@click.option("--games", type=click.IntRange(min=1, max=cliopts.MAX_GAMES), default=None, metavar="N",
              help="Games to play [default: 10000; with --skill-curve: games per level, default "
                   f"{cliopts.DEFAULT_CURVE_GAMES}; with --until-decided: the first round's, default 1000; "
                   "with --precision: "
                   "the most to play; "
                   f"at most {cliopts.MAX_GAMES}].")
@cliopts.seed
@players_option
@cliopts.monte_carlo
@cliopts.out_folder(cliopts.FOLDER_FILES + "; also games.parquet and games.csv, one row per game, and balance.json")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@edition_option
@click.option("--vary", multiple=True, metavar="KEY=V1,V2,...",
              help="What-if variants, same seeds: turns, edition, cp.SIDE, count.SIDE.UNIT, "
                   "experience.SIDE.UNIT, hold.SIDE (the objectives a side must hold, joined by +: "
                   "\"hold.german=crossroads+village house\"; a hex as C:R), initiative, sudden_death, "
                   "history=alternate (5.3). Repeatable. "
                   "Join changes with & for one variant of them all: "
                   "--vary \"count.german.rifles-41=4&experience.german.rifles-41=hardened\".")
@click.option("--grid", multiple=True, metavar="KEY=V1,V2,...",
              help="Give twice: every pair of the two keys' values as one what-if, same seeds; grid.csv "
                   "and a heatmap of the first side's share (the balance band outlined) with --out. "
                   "Example: --grid turns=4,5,6 --grid cp.german=3,4,5")
@click.option("--tune", default=None, metavar="KEY",
              help="Search a number (turns, cp.SIDE, count.SIDE.UNIT) for the first side's win rate "
                   "closest to --target; the best value is then played again on fresh seeds (not used while "
                   "searching) and that confirmation's verdict reported.")
@click.option("--range", "tune_range", default=None, metavar="LO:HI",
              help="With --tune: the values searched, LO to HI (default around the scenario's own: turns ±4, "
                   "1-12 command points, 1-5 units). A jump across the target between two values is said.")
@click.option("--target", type=click.FloatRange(0, 1), default=0.5, show_default=True)
@cliopts.skill("lanchester assault scenario infantry-training --skill-curve --out out/curve")
@cliopts.verdict_options("assault", "infantry-training")
@click.option("--restrict", multiple=True, metavar="SIDE:WHAT",
              help="Restricted play: play the side again denied one kind of choice, same seeds, and "
                   "report the change of its win rate with its paired 95% interval. WHAT is "
                   "unit=CARD (that card's units never activated) or close-combat, fast-move, dig-in, "
                   "indirect-fire, smoke, move, move-and-fire, fire-and-move, fire, turret-fire, "
                   "reaction-fire, reverse, overrun, withdraw, load, dismount, turn-artillery. "
                   "Repeatable. Example: --restrict german:close-combat --restrict soviet:unit=rifles-41")
@click.option("--restrict-all", multiple=True, metavar="SIDE",
              help="Restricted play for every unit card of SIDE and every kind of choice its cards can "
                   "make, one at a time. Repeatable.")
@cliopts.no_restrict_all
@cliopts.data_files(scenario=True)
@click.option("--watch", is_flag=True, default=False,
              help="Check and play the scenario again each time the file (or a data file it uses) is "
                   "saved, with the same seed; rewrite --out DIR (its page reloads itself) and print "
                   "one line with the change of the verdict. Ctrl-C stops. Example: "
                   "lanchester assault scenario my.scenario.toml --watch --games 2000 --out out/")
@click.option("--watch-max-runs", type=click.IntRange(min=1), default=None, metavar="N",
              help="With --watch: stop after N runs (a save that fails its check counts).")
def scenario_command(name, games, seed, players, run_options, out, fmt, edition, vary, grid, tune, tune_range, target,
                     ladder, ladder_games, skill_curve, levels, family, restrict, restrict_all, dice_file, aid_file,
                     units_dir, watch, watch_max_runs, margin, until_decided, max_games, no_restrict_all):
    """Play scenario NAME many times with computer players and report its balance.

    The verdict is balanced, unbalanced, undecided (not enough games: it says how
    many more would most likely decide it) or no verdict, at a margin of ±5 points
    (--margin, or the scenario's [verdict] margin; docs/statistics.md).
    --until-decided plays rounds until it is decided. With --precision X the batch
    stops once the confidence sequence of the first side's win rate is at most X
    wide (the verdict uses it too). --checkpoint DIR lets a killed batch resume; --dask runs
    it on a cluster (docs/cluster.md). The numbers depend only on the seed.

    \b
    Examples:
      lanchester assault scenario infantry-training --games 20000 --seed 7 --out report/
      lanchester assault scenario infantry-training --players random,greedy --format json
      lanchester assault scenario infantry-training --vary turns=5,7 --vary edition=v2
      lanchester assault scenario infantry-training --tune turns --target 0.5 --games 2000
      lanchester assault scenario infantry-training --tune turns --range 2:9 --games 2000
      lanchester assault scenario infantry-training --grid turns=3,4,5 --grid cp.german=2,3 --out out/grid
      lanchester assault scenario infantry-training --skill-curve --out out/curve
      lanchester assault scenario infantry-training --skill-curve --levels greedy,mcts:16 --games 100
      lanchester assault scenario infantry-training --restrict-all german --games 2000
      lanchester assault scenario infantry-training --precision 0.01 --seed 3 --checkpoint ckpt/
      lanchester assault scenario infantry-training --margin 2 --games 20000
      lanchester assault scenario infantry-training --until-decided --games 1000 --max-games 50000
      lanchester assault scenario my.scenario.toml --aid my-aid.toml --games 2000
      lanchester assault scenario my.scenario.toml --watch --games 2000 --out out/my
    """
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
    kwargs = dict(games=games, seed=seed, players=players, edition=edition, vary=tuple(vary), grid=tuple(grid),
                  tune=tune, tune_range=tune_range,
                  target=target, ladder=ladder, ladder_games=ladder_games, options=run_options,
                  data=cliopts.scenario_data(dice_file, aid_file, units_dir), skill_curve=skill_curve,
                  levels=levels, family=family, restrict=tuple(restrict), restrict_all=tuple(restrict_all),
                  margin=margin,
                  until_decided=until_decided, max_games=max_games)
    kwargs.update(cliopts.what_matters(out, no_restrict_all, restrict_all))
    if watch:
        raise click.exceptions.Exit(watch_scenario(name, out, watch_max_runs, **kwargs))
    if out is None:
        from simulator.games.assault.game.balance import balance_report
        report = balance_report(name, **kwargs)
    else:
        report = write_scenario_report(name, out, **kwargs)
    from reports.scenario_text import report_table
    from simulator.engine.core.answers import BalanceReport
    emit(to_json(report) if fmt == "json" else report_table(BalanceReport.of(report)), None)


DEFAULT_GAMES = 10_000


def write_scenario_report(name: str, out_dir, *, refresh: int | None = None, **kwargs) -> dict:
    """Play the batch with its records streamed into a staging folder, then add the
    charts, tables and page there and rename it to ``out_dir`` (complete or absent).
    ``refresh``: the page reloads itself every so many seconds (``--watch``)."""
    return play_into_report(name, out_dir, refresh=refresh, **kwargs)[0]


def play_into_report(name: str, out_dir, *, refresh: int | None = None, **kwargs):
    """:func:`write_scenario_report`, returning ``(report, RunResult)``."""
    from simulator.cli_report import play_into_report as play
    from simulator.games.assault.report.bundles import scenario_bundle

    return play(scenario_bundle, name, out_dir, refresh=refresh, **kwargs)


def watch_scenario(name: str, out_dir, max_runs: int | None, **kwargs) -> int:
    """The ``--watch`` loop (:mod:`simulator.cli_watch`); returns the exit status."""
    from simulator.cli_watch import REFRESH_SECONDS, Watch
    from simulator.games.assault.game.scenario import resolve_scenario

    path = str(resolve_scenario(name))      # a missing file is the one-line error, exit 2

    def play():
        if out_dir is None:
            from simulator.games.assault.game.balance import balance_run
            return balance_run(path, **kwargs)
        return play_into_report(path, out_dir, refresh=REFRESH_SECONDS, **kwargs)

    def files(result) -> set:
        s = result.game.scenario
        return {s.path, s.dice.path, s.aid.path} | {c.path for c in s.units.values() if c.path}

    return Watch(path, play, files=files, max_runs=max_runs).loop()


@click.command("replay")
@click.argument("name")
@click.option("--seed", type=click.IntRange(min=0), required=True, metavar="S", help="Seed of the batch.")
@cliopts.replay_choice("turns")
@players_option
@edition_option
@click.option("--png", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also draw the final position.")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True)
@cliopts.data_files(scenario=True)
@cliopts.out
def replay_command(name, seed, game_index, pick, pick_games, players, edition, png, fmt, dice_file, aid_file,
                   units_dir, out):
    """Play game K of a batch again and print it turn by turn (activations, rolls, results).

    Same seed, players and edition as the batch give exactly the same game. With
    --out DIR the report folder holds viewer.html too: the game step by step on the
    map (one page, no server needed).

    \b
    Examples:
      lanchester assault replay infantry-training --seed 7 --game 12
      lanchester assault replay infantry-training --seed 7 --game 12 --png game12.png
      lanchester assault replay infantry-training --seed 7 --game 12 --out game12/
      lanchester assault replay my.scenario.toml --aid my-aid.toml --seed 7 --game 12
      lanchester assault replay river-and-bridge --seed 1 --pick typical-win:german --out rb-win/
    """
    from reports.bundle import emit_report
    from simulator.engine.core.batch import player_kinds
    from simulator.engine.core.typical import batch_frame, parse_pick, pick_typical
    from simulator.engine.players import interface
    from simulator.engine.players.interface import any_searching
    from simulator.games.assault.game.compile import compile_game
    from simulator.games.assault.game.replay import (
        events_frame,
        final_position_png,
        replay_game,
        replay_json,
        replay_text,
    )
    from simulator.games.assault.game.warmup import compile_engine, engine_loading
    from simulator.run.output import atomic_write_bytes

    pl = player_kinds(players, players=interface)
    game = compile_game(name, edition=edition, data=cliopts.scenario_data(dice_file, aid_file, units_dir))
    if (game_index is None) == (pick is None):
        raise click.UsageError("give --game K or --pick typical-win:SIDE / typical-loss:SIDE (one of them)")
    chosen = parse_pick(pick, list(game.sides)) if pick else None
    with engine_loading():
        compile_engine(searching=any_searching(pl))     # a fresh machine: on both cores
        if chosen:
            game_index = pick_typical(batch_frame(game, seed, pick_games, pl), *chosen, list(game.sides))
            if game_index is None:
                raise click.ClickException(f"no game of the {pick_games} of seed {seed} is a {chosen[1]} "
                                           f"{chosen[0]}: try more --games or another seed")
            click.echo(f"--pick {pick}: game {game_index} of {pick_games}", err=True)
        st = replay_game(game, seed, game_index, pl)
    frame = events_frame(st)
    obj = replay_json(st, frame, seed, game_index, pl)
    if chosen:
        obj["picked"] = {"pick": pick, "games": pick_games}

    def report():
        from reports.provenance import provenance
        from simulator.games.assault.report.bundles import replay_report
        from simulator.games.assault.report.provenance import scenario_data
        sources, files = scenario_data(game)
        prov = provenance(sources, files, method=f"replay of game {game_index} of a batch", seed=seed)
        from simulator.games.assault.game.activity import turn_activity
        rep = replay_report(frame, final_png=lambda footer: final_position_png(st, footer=footer),
                            provenance=prov, result={k: v for k, v in obj.items() if k not in ("events", "final")},
                            turns=turn_activity(st))
        rep.notes.append("viewer.html in this folder steps through the game on the map, event by event, "
                         "with the whole event log.")
        footers.append("\n".join(prov.footer_lines()))
        return rep

    footers: list[str] = []
    path = emit_report(fmt, out, table=replay_text(st, pl), frame=frame, obj=obj, report=report)
    if path is not None:
        from reports.bundle import readable
        from simulator.games.assault.report.bundles import replay_viewer_html
        from simulator.run.output import atomic_write_text
        atomic_write_text(path / "viewer.html", replay_viewer_html(st, pl, footer=footers[0] if footers else ""),
                          option="--out")
        readable(path)
        click.echo(f"viewer written to {path / 'viewer.html'}", err=True)
    if png:
        atomic_write_bytes(png, final_position_png(st), option="--png")
        click.echo(f"wrote {png}", err=True)
