"""Click options shared by every command, named the same everywhere.

``--trials`` / ``--exact``, ``--seed``, ``--workers`` (:func:`monte_carlo`), ``--format``,
``--out``, ``--dice``, ``--aid``, ``--units-dir`` (:func:`data_files`), ``--units-file``,
``--terrain-file`` (:func:`toi_data_files`), the skill ladder and curve (:func:`skill`). Use them
as decorators: ``@cliopts.seed``.

``--out PATH`` has one meaning on every command: it writes there instead of printing.
A name with a file extension is one file (the ``--format`` text, or the picture for
``.png``); a name without one is a report folder (tables as CSV, charts as PNG,
``summary.json``, ``index.html``). A name that exists keeps what it is (a folder
``old.v1`` is a folder, a file ``notes`` a file) unless it ends in an extension
lanchester writes; ``-`` prints (:func:`simulator.run.output.out_kind`). Every ``--out``
comes from one of four factories, which differ only in what the command can write:

* :data:`out` - a file (``.json``, ``.csv``, ``.txt``, ``.tsv``, ``.md``) or a folder;
* :func:`out_with_chart` - the same, and ``NAME.png`` for the command's one chart;
* :func:`out_file` - one file only (``schema``, ``map``, ``los``, ``check``, ``scenarios``);
* :func:`out_folder` - report folders only (``scenario``, ``demo``).

A name the command cannot write (a folder name where it writes one file, a file name
where it writes folders, an extension it does not write) is refused before anything
runs: the one-line :class:`~simulator.run.errors.InputError` naming ``--out`` and the name,
exit status 2.
"""

from __future__ import annotations

import click

from simulator.run.vocabulary import (  # noqa: F401 - what a run can hold
    DEFAULT_CURVE_GAMES,
    DEFAULT_FAMILY,
    DEFAULT_LEVELS,
    DEFAULT_MARGIN_POINTS,
    DEFAULT_MAX_GAMES,
    FORMATS,
    MAX_GAMES,
    MAX_TRIALS,
    OUT_FILE_SUFFIXES,
    OUT_PICTURE_SUFFIXES,
)

exact = click.option("--exact", "exact", is_flag=True, default=False,
                     help="Compute exact probabilities (the default unless --trials is given).")

trials = click.option("--trials", type=click.IntRange(min=1, max=MAX_TRIALS), default=None, metavar="N",
                      help=f"Answer by Monte Carlo with N trials instead of exactly (at most {MAX_TRIALS}).")
seed = click.option("--seed", type=click.IntRange(min=0), default=None, metavar="S",
                    help="Seed for Monte Carlo (same seed, same numbers, whatever --workers). "
                         "Default: a fresh seed, reported in the output.")
workers = click.option("--workers", type=click.IntRange(min=1), default=None, metavar="W",
                       help="Worker threads/processes for Monte Carlo (default: all cores).")
fmt = click.option("--format", "fmt", type=click.Choice(FORMATS), default="table",
                   show_default=True, help="Output format.")

# --- --out: one meaning on every command -----------------------------------------------

FOLDER_FILES = "tables as CSV, charts as PNG, summary.json, index.html"   # what a report folder holds
_FOLDER = f"a report folder ({FOLDER_FILES})"


def _names(suffixes: tuple[str, ...]) -> str:
    return ", ".join(suffixes[:-1]) + " or " + suffixes[-1] if len(suffixes) > 1 else suffixes[0]


def out_problem(name, *, files: tuple[str, ...] = OUT_FILE_SUFFIXES, folder: bool = True) -> str | None:
    """What is wrong with ``--out NAME`` for a command that writes the file extensions
    ``files`` (none: it writes folders only) and, when ``folder``, a report folder; None
    when nothing is. What a name means: :func:`simulator.run.output.out_kind`."""
    from pathlib import Path

    from simulator.run.output import extension, out_kind

    kind = out_kind(name)
    if kind is None:
        return None
    path, ext = Path(name), extension(name).lower()
    if kind == "folder":
        return None if folder else f"this command writes one file, not a report folder: give a file name ending in {_names(files)}"
    if not files:
        what = f"ends in {ext}" if ext else "is a file"
        return f"{what}, but this command writes a report folder: give a folder name without an extension"
    if ext in files or path.exists():
        return None   # a file that exists is written whatever its name
    known = ext in OUT_FILE_SUFFIXES + OUT_PICTURE_SUFFIXES
    return (f"{'this command writes no' if known else 'unknown extension'} {ext}{' file' if known else ''}: give "
            + ("a folder name without an extension (a report) or " if folder else "")
            + f"a file name ending in {_names(files)}")


def _out(*, files: tuple[str, ...], folder: bool, metavar: str, help: str, default: str | None = None):
    def check(ctx, param, value):
        from simulator.run.errors import InputError

        problem = out_problem(value, files=files, folder=folder)
        if problem:
            raise InputError("--out", str(value), problem)
        return value
    return click.option("--out", "out", type=click.Path(), default=default, show_default=default is not None,
                        metavar=metavar, callback=check, help=help)


out = _out(files=OUT_FILE_SUFFIXES, folder=True, metavar="PATH",
           help=f"Write there instead of printing: a name ending in {_names(OUT_FILE_SUFFIXES)} is one file "
                f"(the --format text); a name without an extension is {_FOLDER}.")


def out_with_chart(chart: str, folder_holds: str):
    """``--out PATH`` for a command that also draws one ``chart``: ``NAME.png`` is that
    picture alone; otherwise as :data:`out` (``folder_holds``: what its folder holds)."""
    files = OUT_FILE_SUFFIXES + OUT_PICTURE_SUFFIXES
    return _out(files=files, folder=True, metavar="PATH",
                help=f"Write there instead of printing: NAME.png is {chart} alone, a name ending in "
                     f"{_names(OUT_FILE_SUFFIXES)} the --format text; a name without an extension is a report "
                     f"folder ({folder_holds}).")


def out_file(what: str = "the --format text", files: tuple[str, ...] = OUT_FILE_SUFFIXES, *,
             default: str | None = None):
    """``--out FILE`` for a command that writes no report folder: one file, ``what``, named
    with one of ``files``; a folder name is refused. ``default``: said in the help, for a
    command that always writes (the command picks the name when ``--out`` is not given)."""
    told = f" (default: {default})" if default else ""
    instead = "" if default else " instead of printing"
    return _out(files=files, folder=False, metavar="FILE",
                help=f"Write {what} there{instead}: one file, a name ending in {_names(files)}{told}. "
                     "This command writes no report folder.")


def out_folder(holds: str = FOLDER_FILES, *, default: str | None = None):
    """``--out DIR`` for a command that writes report folders only: a file name is
    refused. ``holds``: what its folder holds (default :data:`FOLDER_FILES`)."""
    return _out(files=(), folder=True, metavar="DIR", default=default,
                help=f"Write a report folder there ({holds}). This command writes no single file: a name "
                     "with an extension is refused.")


dice = click.option("--dice", "dice_file", type=click.Path(dir_okay=False), default=None,
                    metavar="FILE", help="Dice file to use instead of scenarios/assault/dice.toml.")
aid = click.option("--aid", "aid_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                   help="Player's aid file (terrain chart, fire modifiers, experience) instead of "
                        "scenarios/assault/aid.toml.")
units_dir = click.option("--units-dir", "units_dir", type=click.Path(file_okay=False), default=None,
                         metavar="DIR", help="Unit-card folder instead of scenarios/assault/units/.")

# Tide of Iron's two data files, on every ``lanchester toi`` command
toi_data_files_options = (
    click.option("--units-file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                 help="Roster to use instead of scenarios/toi/units.toml."),
    click.option("--terrain-file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                 help="Terrain to use instead of scenarios/toi/terrain.toml."),
)


def toi_data_files(f):
    """``--units-file FILE`` and ``--terrain-file FILE``: the command receives ``units_file``
    and ``terrain_file`` (``None``: the shipped file)."""
    for option in reversed(toi_data_files_options):
        f = option(f)
    return f


# the same three for commands that load a scenario: the command line beats the
# scenario's [data] table, which beats the shipped file
_SCENARIO_DATA_HELP = {
    "dice": "Dice file to use (overrides the scenario's [data] dice; default "
            "scenarios/assault/dice.toml). Example: --dice my-dice.toml",
    "aid": "Player's aid file to use (overrides the scenario's [data] aid; default "
           "scenarios/assault/aid.toml). Example: --aid my-aid.toml",
    "units": "Unit-card folder to use (overrides the scenario's [data] units; default "
             "scenarios/assault/units/). Example: --units-dir my-cards/",
}


def data_files(*, scenario: bool = False, with_aid: bool = True, with_units: bool = True):
    """``--dice FILE``, ``--aid FILE``, ``--units-dir DIR`` in one decorator, named the same
    on every command that loads Assault data. The command receives ``dice_file``,
    ``aid_file`` and ``units_dir`` (``None``: the scenario's ``[data]`` or the shipped
    file). ``scenario=True`` words the help for commands that load a scenario, where the
    command line beats the scenario's ``[data]`` table."""
    if scenario:
        stack = [click.option("--dice", "dice_file", type=click.Path(dir_okay=False), default=None,
                              metavar="FILE", help=_SCENARIO_DATA_HELP["dice"]),
                 click.option("--aid", "aid_file", type=click.Path(dir_okay=False), default=None,
                              metavar="FILE", help=_SCENARIO_DATA_HELP["aid"]),
                 click.option("--units-dir", "units_dir", type=click.Path(file_okay=False), default=None,
                              metavar="DIR", help=_SCENARIO_DATA_HELP["units"])]
    else:
        stack = [dice, aid, units_dir]
    keep = (True, with_aid, with_units)
    stack = [option for option, wanted in zip(stack, keep, strict=True) if wanted]

    def apply(command):
        for option in reversed(stack):
            command = option(command)
        return command
    return apply


def scenario_data(dice_file: str | None, aid_file: str | None, units_dir: str | None) -> dict[str, str]:
    """The data files given on the command line, as ``load_scenario(..., data=)`` takes
    them (keys ``dice``, ``aid``, ``units``; only those given)."""
    given = {"dice": dice_file, "aid": aid_file, "units": units_dir}
    return {k: v for k, v in given.items() if v is not None}


def monte_carlo_wanted(exact_flag: bool, trials_n: int | None) -> bool:
    """``--exact`` and ``--trials`` are alternatives; exact is the default."""
    if exact_flag and trials_n is not None:
        raise click.UsageError("--exact and --trials cannot be used together")
    return trials_n is not None


# ---------------------------------------------------------------- run options

# not part of a checkpoint's key: how the run is carried out, and the seed (the key holds the seed
# the run used, so a run without --seed resumes when given the seed it printed)
RUN_CONTROL_PARAMS = ("workers", "dask", "dask_timeout", "checkpoint", "precision", "fmt", "out", "seed", "quiet",
                      "no_checkpoint")


def _dask_address(ctx, param, value):
    if value is None:
        return None
    from simulator.run.dask_backend import check_address
    from simulator.run.errors import InputError
    try:
        return check_address(value)
    except InputError as exc:
        raise click.BadParameter(exc.problem, ctx=ctx, param=param) from None


dask = click.option("--dask", default=None, metavar="local|tcp://HOST:PORT", callback=_dask_address,
                    help="Run the chunks on Dask: 'local' starts a local cluster (one process per "
                         "worker), an address uses a running scheduler (docs/cluster.md). "
                         "Same seed, same numbers.")
dask_timeout = click.option("--dask-timeout", type=click.FloatRange(min=1), default=None, metavar="S",
                            help="With --dask: give up when the scheduler has had no worker for S seconds "
                                 "(default 600; 'no Dask workers for N s' is said meanwhile). The chunks "
                                 "finished by then stay in --checkpoint, to resume.")
checkpoint = click.option("--checkpoint", type=click.Path(file_okay=False), default=None, metavar="DIR",
                          help="Save finished chunks in DIR; rerunning the same command resumes "
                               "a killed run with the same numbers.")
quiet = click.option("--quiet", "-q", is_flag=True, default=False,
                     help="No progress on stderr (by default a run longer than a few seconds shows it: one "
                          "updating line on a terminal, a line a stage elsewhere).")
no_checkpoint = click.option("--no-checkpoint", is_flag=True, default=False,
                             help="Keep no checkpoint of a scenario batch (by default one is kept in the cache "
                                  "folder while it runs, so that a run stopped by Ctrl-C or a kill resumes when "
                                  "the same command is given again).")
no_restrict_all = click.option(
    "--no-restrict-all", "no_restrict_all", is_flag=True, default=False,
    help="With --out: no short restricted play in the report (what matters most). By default it plays every "
         "restriction of both sides on the batch's first 500 games when that fits in the time the batch took, "
         "else prints the command that gets it; --restrict-all SIDE forces it, on every game.")


def what_matters(out, no_restrict_all: bool, restrict_all) -> dict:
    """The scenario commands' ``what_matters`` keyword: ``"auto"`` with --out (the batch
    report's short restricted play), ``"off"`` with --no-restrict-all; nothing without --out."""
    if no_restrict_all and restrict_all:
        raise click.UsageError("give --restrict-all SIDE or --no-restrict-all, not both")
    return {} if out is None else {"what_matters": "off" if no_restrict_all else "auto"}


precision = click.option("--precision", type=click.FloatRange(0, 1, min_open=True, max_open=True),
                         default=None, metavar="X",
                         help="Monte Carlo until the 95% interval of the headline probability is at "
                              "most X wide (e.g. 0.002); --trials is then the most it may use.")


def _label(ctx: click.Context) -> str:
    """The command and its arguments (without run control): part of the checkpoint key."""
    import json
    asked = {k: v for k, v in ctx.params.items() if k not in RUN_CONTROL_PARAMS}
    return f"{ctx.command_path} {json.dumps(asked, sort_keys=True, default=str)}"


def skill(example: str):
    """``--ladder``, ``--ladder-games``, ``--skill-curve``, ``--levels`` and ``--family`` of
    a scenario command (``example``: its ``--skill-curve`` example); the command receives
    ``ladder``, ``ladder_games``, ``skill_curve``, ``levels`` and ``family`` and checks them
    with :func:`check_skill`."""
    options = (
        click.option("--ladder", is_flag=True, default=False,
                     help="Also play the skill ladder: each level against the one below it, from both seats "
                          "(random < greedy < lookahead; with --levels those; with --skill-curve the curve's "
                          "levels, so that every rung of the curve is checked)."),
        click.option("--ladder-games", type=click.IntRange(min=10, max=MAX_GAMES), default=200, show_default=True,
                     metavar="N"),
        click.option("--skill-curve", is_flag=True, default=False,
                     help="Play both sides at each level of a rising ladder of strengths (--levels) and report "
                          "each side's win rate per level and whether the curve has converged (the 95% interval "
                          "of the top two levels' paired difference lies within ± --margin); the verdict is made at the strongest "
                          f"level and names it. --games is games per level (default {DEFAULT_CURVE_GAMES}). "
                          f"Example: {example}"),
        click.option("--levels", default=None, metavar="L1,L2,...",
                     help="With --skill-curve or --ladder: the levels, weakest first, as --players names them "
                          f"[default: {','.join(DEFAULT_LEVELS)}]."),
        click.option("--family", default=DEFAULT_FAMILY, show_default=True, metavar="PLAYER|off",
                     help="With --skill-curve: a player of a second search family (uct:N: no greedy priors or "
                          "value) plays both sides on the curve's seeds beside the top level; when the two "
                          "differ beyond the margin the verdict says it depends on the player. off: not played."),
    )

    def decorate(f):
        for option in reversed(options):
            f = option(f)
        return f
    return decorate


def replay_choice(words: str):
    """``--game K``, ``--pick typical-win:SIDE|typical-loss:SIDE`` and ``--games N`` of a
    replay command (``words``: what the game counts, "turns" or "rounds"); the command
    receives ``game_index``, ``pick`` and ``pick_games``."""
    options = (
        click.option("--game", "game_index", type=click.IntRange(min=0), default=None, metavar="K",
                     help="Which game of the batch (0 is the first); or --pick."),
        click.option("--pick", default=None, metavar="typical-win:SIDE|typical-loss:SIDE",
                     help="Play --games games of the batch and replay the one most typical of SIDE's wins (or "
                          f"losses): nearest the mean {words} and units lost of those games."),
        click.option("--games", "pick_games", type=click.IntRange(min=1, max=2048), default=200, show_default=True,
                     metavar="N", help="With --pick: games of the batch to choose from."),
    )

    def decorate(f):
        for option in reversed(options):
            f = option(f)
        return f
    return decorate


def verdict_options(game: str, name: str):
    """``--margin``, ``--until-decided`` and ``--max-games`` of a scenario command (``game``
    and ``name``: its examples' ``lanchester GAME scenario NAME``); the command receives
    ``margin`` (points, or None: the scenario's ``[verdict] margin``, else
    :data:`DEFAULT_MARGIN_POINTS`), ``until_decided`` and ``max_games``."""
    options = (
        click.option("--margin", type=click.FloatRange(0, 50, min_open=True, max_open=True), default=None,
                     metavar="M",
                     help="The balance margin in points: balanced when the whole 95% interval of the first side's "
                          "share of decisive games lies within 50% ± M, unbalanced when wholly outside, "
                          "undecided (not enough games) when it straddles an edge (docs/statistics.md). Default: "
                          f"the scenario's [verdict] margin, else {DEFAULT_MARGIN_POINTS}. "
                          f"Example: lanchester {game} scenario {name} --margin 2"),
        click.option("--until-decided", is_flag=True, default=False,
                     help="Play rounds of games (the first --games, then doubling the total) until the verdict is "
                          "balanced or unbalanced, looking after every round with an anytime-valid confidence "
                          "sequence, or until --max-games (then undecided). One line per round on stderr; the same "
                          "seed gives the same rounds on any --workers. "
                          f"Example: lanchester {game} scenario {name} --until-decided --games 1000 --seed 7"),
        click.option("--max-games", type=click.IntRange(min=1, max=MAX_GAMES), default=DEFAULT_MAX_GAMES,
                     show_default=True, metavar="N",
                     help="With --until-decided: the most games it plays. With --tune: the most games the "
                          "confirmation of the best value on fresh seeds plays (at a 50% target it plays until "
                          "decided; stopped by the cap it says so, and about how many more games would decide it). "
                          f"Example: lanchester {game} scenario {name} --until-decided --max-games 20000"),
    )

    def decorate(f):
        for option in reversed(options):
            f = option(f)
        return f
    return decorate


def check_verdict_options(until_decided: bool, max_games: int, run_options, tune: str | None = None) -> None:
    """``--max-games`` needs ``--until-decided`` or ``--tune`` (it caps the tune's
    confirmation); ``--until-decided`` does not mix with ``--precision`` or
    ``--checkpoint``: a click usage error (exit 2) otherwise."""
    source = click.get_current_context().get_parameter_source
    if not (until_decided or tune) and source("max_games") != click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--max-games needs --until-decided or --tune")
    if until_decided and run_options.precision is not None:
        raise click.UsageError("--until-decided and --precision: give one (both stop the run when its answer is clear)")
    if until_decided and run_options.checkpoint:
        raise click.UsageError("--until-decided and --checkpoint cannot be used together (rounds are not checkpointed)")


def check_skill(skill_curve: bool, levels: str | None) -> None:
    """The skill curve chooses the players (not ``--players``), and ``--levels`` needs it:
    a click usage error (exit 2) otherwise."""
    source = click.get_current_context().get_parameter_source
    if skill_curve and source("players") != click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--players and --skill-curve: the curve chooses the players (--levels)")
    ladder = click.get_current_context().params.get("ladder", False)
    if levels is not None and not (skill_curve or ladder):
        raise click.UsageError("--levels needs --skill-curve or --ladder")
    if not skill_curve and source("family") != click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--family needs --skill-curve")


def monte_carlo(f):
    """``--workers``, ``--dask``, ``--checkpoint``, ``--no-checkpoint``, ``--precision`` and
    ``--quiet`` in one decorator.

    The command receives ``run_options``, a :class:`simulator.run.runner.RunOptions`, instead
    of these values; pass it on to the library call (see ``simulator/run/runner.py``).
    Use it in place of ``@cliopts.workers``. A batch stopped by Ctrl-C or SIGTERM prints
    the summary of the games finished, marked PARTIAL, and how to resume
    (:func:`report_interrupted`); the run's own checkpoint is removed when the command
    ends otherwise.
    """
    import functools

    @functools.wraps(f)
    def command(*args, workers, dask, dask_timeout, checkpoint, no_checkpoint, precision, quiet, **kwargs):
        from simulator.run import progress
        from simulator.run.runner import RunOptions, discard_auto_checkpoints  # numpy: when the command runs

        ctx = click.get_current_context()
        if checkpoint and "seed" in ctx.params and ctx.params["seed"] is None:
            raise click.UsageError("--checkpoint needs --seed (a run resumes only with the same seed)")
        if checkpoint and no_checkpoint:
            raise click.UsageError("--checkpoint and --no-checkpoint: give one")
        if dask_timeout is not None and not dask:
            raise click.UsageError("--dask-timeout needs --dask")
        options = RunOptions(workers=workers, dask=dask, checkpoint=checkpoint, precision=precision,
                             dask_timeout=dask_timeout, auto_checkpoint=not no_checkpoint,
                             label=_label(ctx), notes=True)
        keep = False
        try:
            with progress.quiet_if(quiet):
                return f(*args, run_options=options, **kwargs)
        except progress.Interrupted as stop:
            keep = True
            report_interrupted(ctx, stop)
            raise
        finally:
            if not keep:
                discard_auto_checkpoints()

    for option in (quiet, precision, no_checkpoint, checkpoint, dask_timeout, dask, workers):
        command = option(command)
    return command


def report_interrupted(ctx: click.Context, stop) -> None:
    """A batch stopped by Ctrl-C or SIGTERM (:class:`simulator.run.progress.Interrupted`):
    the summary of its finished games in the command's format (stdout), marked PARTIAL
    with games done of planned, then how to resume (stderr). The report folder of
    ``--out`` is not written (it appears only when complete)."""
    from simulator.engine.core.batch import summary

    run = stop.result
    planned = "as many as --precision needs" if stop.planned is None else f"{stop.planned:,}"
    part = {"games": int(run.games), "planned": stop.planned, "stage": stop.stage}
    if run.games:
        report = summary(run)
        report["sides"] = list(run.game.sides)
        report["partial"] = part
        if ctx.params.get("fmt") == "json":
            from simulator.run.output import to_json
            click.echo(to_json(report))
        else:
            from reports.scenario_text import report_table
            from simulator.engine.core.answers import BalanceReport
            click.echo(f"PARTIAL: {run.games:,} of {planned} games"
                       + (f" of {stop.stage}" if stop.stage else "") + " (interrupted)")
            click.echo(report_table(BalanceReport.of(report)), nl=False)
    else:
        click.echo(f"lanchester: interrupted before any game of {stop.stage or 'the run'} was finished", err=True)
    click.echo(f"lanchester: {resume_hint(ctx, run.seed, stop.checkpoint)}", err=True)


def resume_hint(ctx: click.Context, seed: int, checkpoint: str | None) -> str:
    """How to go on from an interrupted run: the same command (with ``--seed`` when the
    run chose its own), whose finished pieces load from ``checkpoint``."""
    import shlex
    argv = list(ctx.find_root().meta.get("lanchester.argv") or [ctx.command_path])
    if "seed" in ctx.params and ctx.params["seed"] is None:
        argv += ["--seed", str(seed)]
    command = " ".join(shlex.quote(a) for a in argv)
    if checkpoint is None:
        return f"no checkpoint was kept (--no-checkpoint, --until-decided or the cache off); to run again: {command}"
    return f"to resume (the finished games are kept in {checkpoint}): {command}"


def wants_monte_carlo(exact_flag: bool, trials_n: int | None, run_options) -> bool:
    """Like :func:`monte_carlo_wanted`; ``--precision`` also asks for Monte Carlo."""
    wanted = run_options is not None and run_options.precision is not None
    if exact_flag and (trials_n is not None or wanted):
        raise click.UsageError("--exact and --trials or --precision cannot be used together")
    return trials_n is not None or wanted


def run_arguments(exact_flag: bool, trials_n: int | None, seed_n: int | None, run_options, progress: str) -> dict:
    """``trials``, ``seed`` and ``options`` for a library call from ``--exact``/``--trials``,
    ``--seed`` and :func:`monte_carlo`'s ``run_options``: ``trials`` None for an exact
    answer; Monte Carlo without ``--seed`` gets a fresh seed (reported in the output, and
    one seed for every target of an area attack)."""
    from simulator.run.runner import fresh_seed

    mc = wants_monte_carlo(exact_flag, trials_n, run_options)
    if mc and seed_n is None:
        seed_n = fresh_seed()
    return {"trials": trials_n if mc else None, "seed": seed_n, "options": run_options.with_progress(progress)}
