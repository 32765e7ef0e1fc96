"""Click options shared by every command, named the same everywhere.

``--trials`` / ``--exact``, ``--seed``, ``--workers``, ``--format``, ``--out``,
``--dice``, ``--aid``, ``--units-dir`` (:func:`data_files`). Commands that write report bundles use ``report_out`` (``--out DIR``)
instead of ``out`` (``--out FILE``). Use them as decorators: ``@cliopts.seed``.
"""

from __future__ import annotations

import click

from simulator.vocabulary import FORMATS, MAX_GAMES, MAX_TRIALS, OUT_FILE_SUFFIXES  # noqa: F401 - what a run can hold

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
out = click.option("--out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                   help="Write the output to FILE (atomically) instead of printing it.")
# --out for commands that write a report bundle (reports.bundle.emit_report): a folder
# DIR gets CSV, PNG charts, summary.json and index.html; a name ending in .json, .csv,
# .txt, .tsv or .md (or an existing file) still gets the --format text, as with `out`.
def extension(name: str) -> str:
    """The file extension of an ``--out`` name (``.xyz``), or '' when it has none; a
    suffix that is not letters and digits (``run-1.5``, ``2024.01``) is no extension."""
    import re
    from pathlib import PurePath

    suffix = PurePath(name).suffix
    return suffix if re.fullmatch(r"\.[A-Za-z][A-Za-z0-9]{0,7}", suffix) else ""


def out_problem(name: str, *, folder_only: bool = False, extra: tuple[str, ...] = ()) -> str | None:
    """What is wrong with an ``--out`` name, or None. A report is a folder (a name without
    an extension, or an existing folder); a file must end in one of
    :data:`OUT_FILE_SUFFIXES` (or exist already). ``report.xyz`` would otherwise become a
    folder named like a file: refused in one line instead."""
    from pathlib import Path

    if name is None or str(name) == "-":
        return None
    path, ext = Path(name), extension(str(name))
    if not ext or path.is_dir() or (path.is_file() and not folder_only):
        return None
    if folder_only:
        return (f"{name!r} ends in {ext}, but this command writes a report folder: "
                "give a folder name without an extension")
    if ext.lower() in OUT_FILE_SUFFIXES + extra:
        return None
    return (f"unknown extension {ext} in {name!r}: give a folder name without an extension (a report) "
            f"or a file ending in {', '.join(OUT_FILE_SUFFIXES + extra)}")


def _check_out(folder_only: bool, extra: tuple[str, ...] = ()):
    def check(ctx, param, value):
        problem = out_problem(value, folder_only=folder_only, extra=extra)
        if problem:
            raise click.BadParameter(problem, ctx=ctx, param=param)
        return value
    return check


check_report_out = _check_out(False)
check_out_folder = _check_out(True)
check_report_out_png = _check_out(False, (".png",))   # commands that can also write one chart

report_out = click.option("--out", type=click.Path(), default=None, metavar="DIR", callback=check_report_out,
                          help="Write a report folder DIR (tables as CSV, PNG charts, summary.json, "
                               "index.html) instead of printing. A name ending in .json/.csv/.txt "
                               "writes just the --format output to that file.")
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

RUN_CONTROL_PARAMS = ("workers", "dask", "checkpoint", "precision", "fmt", "out", "out_dir")


def _dask_address(ctx, param, value):
    if value is None:
        return None
    from simulator.dask_backend import check_address
    from simulator.errors import InputError
    try:
        return check_address(value)
    except InputError as exc:
        raise click.BadParameter(exc.problem, ctx=ctx, param=param) from None


dask = click.option("--dask", default=None, metavar="local|tcp://HOST:PORT", callback=_dask_address,
                    help="Run the chunks on Dask: 'local' starts a local cluster (one process per "
                         "worker), an address uses a running scheduler (docs/cluster.md). "
                         "Same seed, same numbers.")
checkpoint = click.option("--checkpoint", type=click.Path(file_okay=False), default=None, metavar="DIR",
                          help="Save finished chunks in DIR; rerunning the same command resumes "
                               "a killed run with the same numbers.")
precision = click.option("--precision", type=click.FloatRange(0, 1, min_open=True, max_open=True),
                         default=None, metavar="X",
                         help="Monte Carlo until the 95% interval of the headline probability is at "
                              "most X wide (e.g. 0.002); --trials is then the most it may use.")


def _label(ctx: click.Context) -> str:
    """The command and its arguments (without run control): part of the checkpoint key."""
    import json
    asked = {k: v for k, v in ctx.params.items() if k not in RUN_CONTROL_PARAMS}
    return f"{ctx.command_path} {json.dumps(asked, sort_keys=True, default=str)}"


def monte_carlo(f):
    """``--workers``, ``--dask``, ``--checkpoint``, ``--precision`` in one decorator.

    The command receives ``run_options``, a :class:`simulator.runner.RunOptions`, instead
    of the four values; pass it on to the library call (see ``simulator/runner.py``).
    Use it in place of ``@cliopts.workers``.
    """
    import functools

    @functools.wraps(f)
    def command(*args, workers, dask, checkpoint, precision, **kwargs):
        from simulator.runner import RunOptions  # numpy: when the command runs, not for --help

        ctx = click.get_current_context()
        if checkpoint and "seed" in ctx.params and ctx.params["seed"] is None:
            raise click.UsageError("--checkpoint needs --seed (a run resumes only with the same seed)")
        options = RunOptions(workers=workers, dask=dask, checkpoint=checkpoint, precision=precision,
                             label=_label(ctx), notes=True)
        return f(*args, run_options=options, **kwargs)

    for option in (precision, checkpoint, dask, workers):
        command = option(command)
    return command


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
    from simulator.runner import fresh_seed

    mc = wants_monte_carlo(exact_flag, trials_n, run_options)
    if mc and seed_n is None:
        seed_n = fresh_seed()
    return {"trials": trials_n if mc else None, "seed": seed_n, "options": run_options.with_progress(progress)}
