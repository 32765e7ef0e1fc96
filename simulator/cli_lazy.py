"""Click groups whose commands are imported only when they run.

A command module imports numpy, numba, pandas or matplotlib; importing all of them to
answer ``--help`` took over a second. A :class:`LazyGroup` knows each command by the
module that defines it and a one-line summary, lists them from that, and imports a
command's module only when the command is run or asked for its own ``--help``.
"""

from __future__ import annotations

import importlib

import click


class LazyGroup(click.Group):
    """A group with commands given as ``{name: ("module:attribute", "summary")}``."""

    def __init__(self, *args, lazy: dict[str, tuple[str, str]] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.commands or name not in self.lazy:
            return super().get_command(ctx, name)
        module, attribute = self.lazy[name][0].split(":")
        command = getattr(importlib.import_module(module), attribute)
        self.add_command(command, name)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from the summaries, without importing the commands."""
        rows = []
        for name in self.list_commands(ctx):
            if name in self.commands:
                cmd = self.commands[name]
                if cmd.hidden:
                    continue
                rows.append((name, cmd.get_short_help_str(formatter.width)))
            else:
                rows.append((name, self.lazy[name][1]))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
