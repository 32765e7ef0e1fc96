"""Progress of long runs on standard error, and what an interrupted batch hands back.

Every simulating run that names a stage (``RunOptions.progress``: the scenario's name,
``turns=5``, ``restricted german:fire (2 of 9)``, a skill-curve level...) shows it here:

* on a terminal, one line updated in place: the stage, a bar, games (or trials) done of
  the total, the rate and the estimated time left; the line is erased when the stage ends;
* when standard error is not a terminal (a pipe, a log, CI), a stage of games (a
  scenario batch, a what-if, a level of a skill curve...) that lasts more than
  :data:`FIRST_SECONDS` ends with one line (its count, time and rate), and a long stage
  says how far it got at most once every :data:`EVERY_SECONDS`; the dice and fire
  questions' trials (seconds at most, their JSON read by scripts) say nothing there;
* with ``--quiet`` (:func:`set_quiet`) nothing.

Standard output is never written to, so ``--format json`` stays clean.

A batch stopped by Ctrl-C (SIGINT) or a kill (SIGTERM) raises :class:`Interrupted`, a
``KeyboardInterrupt`` that carries the games finished so far (a contiguous first part
of the run, so their summary is that of a shorter run with the same seed).
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

FIRST_SECONDS = 2.0      # not a terminal: a stage shorter than this says nothing
EVERY_SECONDS = 10.0     # not a terminal: at most one line this often within a stage
REDRAW_SECONDS = 0.2     # a terminal: the line is redrawn at most this often
BAR_WIDTH = 24

_quiet = [False]


def set_quiet(quiet: bool) -> None:
    """``--quiet``: no progress at all (and no waiting notices) for the rest of the process."""
    _quiet[0] = bool(quiet)


def is_quiet() -> bool:
    return _quiet[0]


@contextmanager
def quiet_if(quiet: bool) -> Iterator[None]:
    """:func:`set_quiet` for the body of a command, as it was afterwards."""
    was = _quiet[0]
    _quiet[0] = bool(quiet)
    try:
        yield
    finally:
        _quiet[0] = was


def plural(unit: str) -> str:
    return unit if unit.endswith("s") else f"{unit}s"


def rate_text(done: float, seconds: float, unit: str = "game") -> str:
    """``"833 games/s"``, ``"0.42 games/s"``: two significant digits below 10 a second, so
    a slow run (tree search) never reads 0; ``"- games/s"`` before any time has passed."""
    if seconds <= 0:
        return f"- {plural(unit)}/s"
    rate = done / seconds
    shown = f"{rate:,.0f}" if rate >= 10 else f"{rate:.2g}"
    return f"{shown} {plural(unit)}/s"


def duration_text(seconds: float) -> str:
    """``"42 s"``, ``"3 min 05 s"``, ``"2 h 07 min"``."""
    s = max(0, int(round(seconds)))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def eta_text(done: int, total: int | None, seconds: float) -> str:
    """The time left at the rate so far (``"?"`` before the first games are done)."""
    if total is None:
        return ""
    if done <= 0 or seconds <= 0:
        return "ETA ?"
    return f"ETA {duration_text((total - done) * seconds / done)}"


def bar_line(label: str, done: int, total: int | None, seconds: float, unit: str = "game") -> str:
    """The terminal's line: ``label |#####-----| 512/10,000 games  85 games/s  ETA 1 min 51 s``
    (no bar nor ETA when the total is not known in advance: ``--precision``)."""
    rate = rate_text(done, seconds, unit)
    if total is None:
        return f"{label}  {done:,} {plural(unit)}  {rate}"
    filled = min(BAR_WIDTH, BAR_WIDTH * done // max(total, 1))
    bar = "#" * filled + "-" * (BAR_WIDTH - filled)
    return f"{label} |{bar}| {done:,}/{total:,} {plural(unit)}  {rate}  {eta_text(done, total, seconds)}"


def say(text: str, stream: TextIO | None = None) -> None:
    """One line ``lanchester: text`` on standard error, unless ``--quiet``."""
    if not is_quiet():
        print(f"lanchester: {text}", file=stream if stream is not None else sys.stderr, flush=True)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class Stage:
    """The progress of one stage of ``total`` units (``None``: not known in advance).
    ``live``: a terminal (default: whether ``stream`` is one); ``clock``: seconds."""

    def __init__(self, label: str, total: int | None, unit: str = "game", *, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic, live: bool | None = None, lines: bool = True):
        self.label, self.total, self.unit = label, total, unit
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.live = _is_terminal(self.stream) if live is None else live
        self.lines = lines               # not a terminal: lines at all
        self.start = clock()
        self.done = 0
        self.drawn = self.start          # last redraw (terminal) or line (not a terminal)
        self.shown = False               # a terminal line is on screen / a line was printed

    def elapsed(self) -> float:
        return self.clock() - self.start

    def update(self, n: int) -> None:
        self.done += int(n)
        now = self.clock()
        if self.live:
            if now - self.drawn >= REDRAW_SECONDS:
                self._write("\r" + bar_line(self.label, self.done, self.total, now - self.start, self.unit)
                            + "\x1b[K")
                self.drawn, self.shown = now, True
        elif self.lines and now - self.drawn >= EVERY_SECONDS and now - self.start >= FIRST_SECONDS and \
                (self.total is None or self.done < self.total):     # the last piece: close() says it
            left = eta_text(self.done, self.total, now - self.start)
            of = f" of {self.total:,}" if self.total is not None else ""
            self._write(f"lanchester: {self.label}: {self.done:,}{of} {plural(self.unit)}, "
                        f"{rate_text(self.done, now - self.start, self.unit)}{', ' + left if left else ''}\n")
            self.drawn, self.shown = now, True

    def close(self, interrupted: bool = False, failed: bool = False) -> None:
        """End the stage: erase the terminal's line; elsewhere one line for a stage that
        took over :data:`FIRST_SECONDS` (or said anything before); one line when it was
        ``interrupted`` (Ctrl-C, SIGTERM); none when it ``failed`` (its error says why)."""
        seconds = self.elapsed()
        if self.live and self.shown:
            self._write("\r\x1b[K")
        if failed:
            return
        if interrupted:
            of = f" of {self.total:,}" if self.total is not None else ""
            self._write(f"lanchester: {self.label}: interrupted after {self.done:,}{of} {plural(self.unit)}\n")
        elif not self.live and self.lines and (self.shown or seconds >= FIRST_SECONDS):
            self._write(f"lanchester: {self.label}: {self.done:,} {plural(self.unit)} in {duration_text(seconds)} "
                        f"({rate_text(self.done, seconds, self.unit)})\n")

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()


def stage(label: str | None, total: int | None, unit: str = "game") -> Stage | None:
    """A :class:`Stage` on standard error, or ``None`` when unnamed or ``--quiet``; lines
    when not a terminal for games only (see the module's doc)."""
    if not label or is_quiet():
        return None
    return Stage(label, total, unit, lines=unit == "game")


class Interrupted(KeyboardInterrupt):
    """A batch stopped by Ctrl-C or SIGTERM. ``result``: the games finished (a batch
    ``RunResult`` of the first ``result.games`` games); ``planned``: the games asked for
    (``None``: as many as ``--precision`` needed); ``stage``: the progress label;
    ``checkpoint``: where the finished pieces are kept (``None``: nowhere)."""

    def __init__(self, result: Any, planned: int | None, stage: str | None, checkpoint: str | None):
        super().__init__(f"interrupted after {getattr(result, 'games', 0)} games")
        self.result, self.planned, self.stage, self.checkpoint = result, planned, stage, checkpoint


_signalled = [0]
_running = [0]      # runs under way (:func:`run_started`): SIGTERM stops them as Ctrl-C does


def run_started() -> None:
    """A run begins that a SIGTERM stops cleanly (the runner's loop); :func:`run_ended` after it."""
    _running[0] += 1


def run_ended() -> None:
    _running[0] -= 1


def on_terminate(signum, _frame) -> None:
    """SIGTERM: during a run, stop it as Ctrl-C does (``KeyboardInterrupt``; :func:`exit_status`
    tells them apart); at any other time (a compile, a report being drawn) die as without
    the handler."""
    if not _running[0]:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    _signalled[0] = signum
    raise KeyboardInterrupt


def exit_status() -> int:
    """The exit status of an interrupted command: 128 + the signal (130 for Ctrl-C)."""
    return 128 + (_signalled[0] or 2)
