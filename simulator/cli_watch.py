"""``lanchester assault scenario FILE --watch`` and ``lanchester toi scenario FILE --watch``:
play the scenario again each time it is saved. The loop is game-independent (moved here
from Assault's command line for Tide of Iron's, issue 43): a game gives it the run and
the data files a run read (:attr:`Watch.files`).

The loop polls the scenario file and the data files it used (modification time, size
and a SHA-256 of the content, so an editor that saves the same bytes, or touches a
file, does not start a run), re-checks and re-plays the batch with the same seed (the
games pair up with the last run's: common random numbers), rewrites the report
folder (built aside and renamed into place, :class:`reports.bundle.staging`) and prints
one line with the change of the verdict. A save that does not check prints the
one-line error and the loop keeps watching; Ctrl-C ends it with exit status 0.

No new dependency: polling a handful of files twice a second costs nothing next to a
batch of games, and it works the same on every file system (network folders and
editors that save by renaming included).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import click

from simulator.run.errors import InputError

if TYPE_CHECKING:
    from simulator.engine.core.answers import BalanceReport
    from simulator.engine.core.batch import RunResult

POLL_SECONDS = 0.5
REFRESH_SECONDS = 3        # the watch-mode page reloads itself this often


def fingerprint(paths) -> tuple:
    """``(path, mtime_ns, size, sha256)`` of each file (``None``s when it is missing or
    unreadable): what changes when a file is saved."""
    out: list[tuple[str, int | None, int | None, str | None]] = []
    for p in sorted({str(Path(p).resolve()) for p in paths}):
        try:
            st = Path(p).stat()
            digest = hashlib.sha256(Path(p).read_bytes()).hexdigest() if Path(p).is_file() else None
            out.append((p, st.st_mtime_ns, st.st_size, digest))
        except OSError:
            out.append((p, None, None, None))
    return tuple(out)


def content_changed(old: tuple | None, new: tuple) -> bool:
    """A save that changes some file's content (or its presence); a touch is no change."""
    if old is None:
        return True
    return [(p, h, m is None) for p, m, _, h in old] != [(p, h, m is None) for p, m, _, h in new]


def first_side_rate(report: BalanceReport) -> tuple[str, float, float]:
    """The first side, its win rate and the rate's standard error."""
    from simulator.run.stats import proportion_se

    side = report.sides[0]
    p = float(report.win_rate[side].p)
    return side, p, float(proportion_se(p, max(int(report.games), 1)))


def verdict_line(report: BalanceReport, previous: BalanceReport | None = None, paired=None) -> str:
    """``verdict: german 41.2% -> 38.0% (±1.1 SE; paired change -3.2% ±0.9 SE): not
    balanced: soviet is favoured; ...``: the first side's win rate, its change since the
    last run and the verdict (``paired``: the change and its SE from the same games)."""
    side, p, se = first_side_rate(report)
    if previous is None:
        rate = f"{side} {p:.1%} (±{se:.1%} SE)"
    else:
        _, p0, _ = first_side_rate(previous)
        change = f"; paired change {paired[0]:+.1%} ±{paired[1]:.1%} SE" if paired is not None else ""
        rate = f"{side} {p0:.1%} -> {p:.1%} (±{se:.1%} SE{change})"
    margin = report.verdict_margin
    label = f"verdict ({report.verdict}, margin ±{100 * margin:g} points)" if margin is not None else "verdict"
    return f"{label}: {rate}, {report.games:,} games: {report.verdict_text}"


def paired_se(base, other) -> tuple[float, float] | None:
    """Change of the first side's win rate between two runs of the same games (same seed
    and count) and its standard error (1 SE, the meaning of every ``±``): the standard
    deviation of the per-game differences over the square root of the games."""
    import math

    import numpy as np

    if base is None or other is None or len(base) != len(other) or len(base) < 2:
        return None
    d = (np.asarray(other) == 0).astype(float) - (np.asarray(base) == 0).astype(float)
    return float(d.mean()), float(d.std(ddof=1)) / math.sqrt(len(d))


@dataclass
class Watch:
    """The state of one ``--watch`` loop."""

    name: str
    play: Callable[[], tuple[dict, RunResult]]      # one run: (report's JSON, RunResult)
    files: Callable[[RunResult], set] = lambda result: set()   # the data files the run read, besides NAME
    max_runs: int | None = None
    echo: Callable[..., None] = click.echo
    poll: float = POLL_SECONDS
    runs: int = 0
    watched: set = field(default_factory=set)
    report: BalanceReport | None = None
    outcomes: object = None

    def run_once(self) -> None:
        self.runs += 1
        try:
            summary, result = self.play()
        except InputError as exc:
            self.echo(f"lanchester: error: {exc.one_line()}", err=True)
            return
        from simulator.engine.core.answers import BalanceReport

        report = BalanceReport.of(summary)
        outcomes = result.tally.outcome_array()
        paired = paired_se(self.outcomes, outcomes)
        self.echo(verdict_line(report, self.report, paired))
        self.report, self.outcomes = report, outcomes
        self.watched = set(self.files(result))

    def loop(self) -> int:
        """Run at once, then on every save, until ``max_runs`` or Ctrl-C; exit status 0."""
        try:
            seen = None
            while True:
                now = fingerprint(self.watched | {self.name})
                if content_changed(seen, now):
                    time.sleep(self.poll)                   # let the editor finish writing
                    before = fingerprint(self.watched | {self.name})
                    self.run_once()
                    # the files as this run read them (a save while it played starts the
                    # next run), and the data files it named for the first time
                    known = {entry[0]: entry for entry in before}
                    seen = tuple(known.get(entry[0], entry) for entry in fingerprint(self.watched | {self.name}))
                    if self.max_runs is not None and self.runs >= self.max_runs:
                        return 0
                    self.echo(f"watching {self.name} (Ctrl-C to stop)", err=True)
                time.sleep(self.poll)
        except KeyboardInterrupt:
            self.echo("stopped watching", err=True)
            return 0
