"""The ``lanchester`` command: a click group with the sub-groups ``assault`` and ``toi``.

The CLI is thin: commands parse, call the library, print. Errors are one line on
stderr with exit status 2 and never a traceback (bad data files, bad pool strings,
bad arguments alike).
"""

from __future__ import annotations

import signal
import sys

import click

from simulator.cli_lazy import LazyGroup
from simulator.run.errors import InputError, os_input_error


class LanchesterGroup(LazyGroup):
    """Root group that reports every input problem in one line, exit status 2."""

    def make_context(self, info_name, args, parent=None, **extra):
        """Record the arguments as typed: reports print the reproducing command line."""
        typed = list(args)
        ctx = super().make_context(info_name, args, parent=parent, **extra)
        ctx.meta["lanchester.argv"] = ["lanchester", *typed]   # reports.provenance.COMMAND_KEY
        return ctx

    # click types main() as overloads on standalone_mode; this one always sets it False
    def main(self, args=None, prog_name=None, **kwargs):  # type: ignore[override]  # noqa: D401 - click API
        kwargs["standalone_mode"] = False
        if hasattr(signal, "SIGXFSZ"):
            # past the file-size limit (ulimit -f) a write fails with EFBIG, reported
            # below, instead of the signal killing the process (python's default too)
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        from simulator.run.progress import exit_status, on_terminate
        # a kill (SIGTERM) stops a run as Ctrl-C does: the partial summary, how to resume, exit 143
        try:
            terminate = signal.signal(signal.SIGTERM, on_terminate)
        except ValueError:       # not the main thread (a test's): signals stay as they are
            terminate = None
        try:
            result = super().main(args=args, prog_name=prog_name or "lanchester", **kwargs)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.Abort as exc:
            stopped = isinstance(exc.__cause__, KeyboardInterrupt)
            click.echo(f"lanchester: {'interrupted' if stopped else 'aborted'}", err=True)
            sys.exit(exit_status() if stopped else 130)
        except click.ClickException as exc:
            ctx = getattr(exc, "ctx", None)          # a UsageError knows its command
            where = ctx.command_path if ctx else "lanchester"
            hint = " (see --help)" if isinstance(exc, click.UsageError) else ""
            click.echo(f"{where}: error: {one_line(exc.format_message())}{hint}", err=True)
            sys.exit(exc.exit_code)
        except InputError as exc:
            click.echo(f"lanchester: error: {exc.one_line()}", err=True)
            sys.exit(2)
        except OSError as exc:
            # the file system said no somewhere no writer or reader turned it into an
            # InputError first: the same one line (errors.os_input_error), exit 2
            click.echo(f"lanchester: error: {os_input_error(exc).one_line()}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("lanchester: interrupted", err=True)
            sys.exit(exit_status())
        finally:
            if terminate is not None:
                signal.signal(signal.SIGTERM, terminate)
        if isinstance(result, int) and result:
            sys.exit(result)
        sys.exit(0)


def one_line(text: str) -> str:
    return " ".join(text.split())


COMMANDS = {
    "assault": ("simulator.games.assault.cli:assault",
                "Assault Red Horizon '41: dice odds, ranged fire, close combat, scenarios."),
    "toi": ("simulator.games.toi.cli:toi", "Tide of Iron: odds of ranged fire, assaults and minefields."),
    "demo": ("simulator.cli_demo:demo", "Run the bundled examples and write a report folder."),
    "report": ("simulator.cli_report:report", "Rebuild DIRECTORY/index.html from its summary.json and tables."),
}


@click.group(cls=LanchesterGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="lanchester")
def main() -> None:
    """lanchester: exact and Monte Carlo balance analysis for tactical wargames.

    \b
    Examples:
      lanchester assault odds RY YG
      lanchester assault odds 2RG YYB --trials 1000000 --seed 7
      lanchester demo --out out/demo
      lanchester report out/demo        # rebuild a report page from its data
    """
