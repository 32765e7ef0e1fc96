"""Where a report's numbers come from: data, method, version and the command line.

Every chart footer, every ``summary.json`` and every ``index.html`` carries one
:class:`Provenance`: the data sets used with their status ("dice: assault-default,
reconstructed"), a short hash of the data files (:func:`simulator.run.datafile.file_digest`),
exact or Monte Carlo (seed, trials), the lanchester version, and the command line that
reproduces the report.

The command line is the one the ``lanchester`` group recorded in the click context
(:data:`COMMAND_KEY`, set by ``simulator/cli.py``), else ``sys.argv``.
"""

from __future__ import annotations

import shlex
import sys
import textwrap
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable

import click

from simulator.run.datafile import REPO_ROOT, file_digest

COMMAND_KEY = "lanchester.argv"   # click ctx.meta key: the argument list as typed


@dataclass(frozen=True)
class Source:
    """One data set: ``dice: assault-default, reconstructed``."""

    kind: str
    name: str
    status: str

    @property
    def label(self) -> str:
        return f"{self.kind}: {self.name}, {self.status}"


@dataclass(frozen=True)
class Provenance:
    """Everything needed to trust and to reproduce one report."""

    sources: tuple[Source, ...]
    data_digest: str
    data_files: tuple[str, ...]
    method: str                      # "exact", "monte-carlo", or "exact + monte-carlo"
    seed: int | None = None
    trials: int | None = None
    version: str = field(default_factory=lambda: lanchester_version())
    command: str = field(default_factory=lambda: command_line())
    unit: str = "trials"             # what ``trials`` counts: "trials" (rolls, combats) or "games"

    @property
    def data_label(self) -> str:
        """``dice: assault-default, reconstructed; aid: ...``"""
        return "; ".join(s.label for s in self.sources) or "no data files"

    @property
    def method_label(self) -> str:
        if self.trials is None:
            return self.method
        return f"{self.method}, {self.trials:,} {self.unit}, seed {self.seed}"

    def footer_lines(self, width: int = 150) -> list[str]:
        """The chart footer: data and status, hash, method, version, command."""
        lines = textwrap.wrap(f"{self.data_label}  |  data files #{self.data_digest}", width,
                              subsequent_indent="  ", break_on_hyphens=False)
        lines += textwrap.wrap(f"{self.method_label}  |  lanchester {self.version}", width,
                               subsequent_indent="  ", break_on_hyphens=False)
        lines += textwrap.wrap("$ " + self.command, width, subsequent_indent="    ",
                               break_on_hyphens=False) or ["$"]
        return lines

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["sources"] = [asdict(s) for s in self.sources]
        d["data_files"] = list(self.data_files)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Provenance":
        return cls(sources=tuple(Source(**s) for s in d["sources"]), data_digest=d["data_digest"],
                   data_files=tuple(d["data_files"]), method=d["method"], seed=d.get("seed"),
                   trials=d.get("trials"), version=d["version"], command=d["command"],
                   unit=d.get("unit", "trials"))


def lanchester_version() -> str:
    try:
        return metadata.version("lanchester")
    except metadata.PackageNotFoundError:   # running from a source tree, not installed
        return "unknown"


def command_line() -> str:
    """The command line that reproduces this run, as a shell would take it."""
    ctx = click.get_current_context(silent=True)
    if ctx is not None and COMMAND_KEY in ctx.meta:
        return shlex.join(ctx.meta[COMMAND_KEY])
    argv = list(sys.argv)
    if argv and Path(argv[0]).name in ("lanchester", "__main__.py"):
        argv[0] = "lanchester"
    return shlex.join(argv)


def shown_path(path: str | Path) -> str:
    """A data file as reports show it: relative to the project when inside it."""
    p = Path(path).resolve()
    try:
        return str(p.relative_to(REPO_ROOT))
    except ValueError:
        return str(p)


def provenance(sources: Iterable[Source], files: Iterable[str | Path], *, method: str,
               seed: int | None = None, trials: int | None = None,
               command: str | None = None, unit: str = "trials") -> Provenance:
    """Build a :class:`Provenance`; the digest covers ``files`` in the order given.
    ``unit`` names what ``trials`` counts: ``"games"`` for whole scenarios."""
    files = [Path(f) for f in files if f]
    return Provenance(sources=tuple(sources), data_digest=file_digest(*files) if files else "-",
                      data_files=tuple(shown_path(f) for f in files), method=method, seed=seed,
                      trials=trials, unit=unit, **({"command": command} if command is not None else {}))


def method_of(attrs_list: Iterable[dict[str, Any]]) -> tuple[str, int | None, int | None]:
    """Method, seed and trials of one or more results (each a dict with ``method``,
    ``seed``, ``trials``: an answer's ``how.to_json()`` or its JSON)."""
    attrs_list = list(attrs_list)
    methods = sorted({a.get("method", "exact") for a in attrs_list})
    mc = [a for a in attrs_list if a.get("method") == "monte-carlo"]
    seed = mc[0].get("seed") if mc else None
    trials = mc[0].get("trials") if mc else None
    return " + ".join(methods), seed, trials
