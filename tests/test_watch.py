"""``lanchester assault scenario FILE --watch`` (issue 21, item 4): re-check and re-play on
every save, the report rewritten, one verdict line per run, a bad save reported and
survived, Ctrl-C a clean exit."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from simulator import cli_watch as watch

ROOT = Path(__file__).resolve().parent.parent

SCENARIO = """name = "Watch me"
turns = {turns}
unit_rules = ["infantry"]
[map]
rows = ["..~...", "..=...", "..~..."]
[map.legend]
"." = "clear"
"~" = "river"
"=" = "bridge"
[[objectives]]
hex = "4,1"
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
hex = "0,1"
[sides.german.victory]
hold = ["4,1"]
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "rifles-41"
hex = "5,1"
[sides.soviet.victory]
hold = ["4,1"]
[victory]
if_neither = "soviet"
"""

START_SECONDS = 600   # the first run loads the engine (a cold numba cache compiles it)
RUN_SECONDS = 300


def _as_in_a_terminal() -> None:
    """The watch process gets Ctrl-C as a terminal delivers it: SIGINT neither ignored nor
    blocked. A child inherits both from the process that starts it, and a Python started
    with SIGINT ignored or blocked never raises KeyboardInterrupt; in two full-suite CI
    runs the watch then slept through Ctrl-C (its stack: the watch loop's sleep), while
    the same test alone passed."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class Watcher:
    """The watch command in its own process, its output lines queued as they come."""

    def __init__(self, tmp_path: Path, *args: str):
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONFAULTHANDLER="1")   # SIGABRT dumps the stacks
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "simulator", "assault", "scenario", "watch-me.scenario.toml", "--watch",
             "--games", "20", "--seed", "5", "--workers", "1", *args],
            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=_as_in_a_terminal)
        self.lines: queue.Queue = queue.Queue()
        self.out: list[str] = []
        self.err: list[str] = []
        self.searched = {"out": 0, "err": 0}      # lines of each stream already searched
        for stream, name in ((self.proc.stdout, "out"), (self.proc.stderr, "err")):
            threading.Thread(target=self._pump, args=(stream, name), daemon=True).start()

    def _pump(self, stream, name):
        for line in stream:
            self.lines.put((name, line.rstrip("\n")))

    def wait_for(self, name: str, needle: str, seconds: float) -> str:
        """The next line of std``name`` holding ``needle`` (after the last one found): the
        two streams arrive in any order (stdout is buffered), so a line already taken
        from the queue while waiting for the other stream still counts."""
        seen = self.out if name == "out" else self.err
        for i in range(self.searched[name], len(seen)):
            if needle in seen[i]:
                self.searched[name] = i + 1
                return seen[i]
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                kind, line = self.lines.get(timeout=1)
            except queue.Empty:
                if self.proc.poll() is not None and self.lines.empty():
                    break
                continue
            (self.out if kind == "out" else self.err).append(line)
            if kind == name and needle in line:
                self.searched[name] = len(seen)
                return line
        self.stop()
        raise AssertionError(f"no {needle!r} on std{name} in {seconds} s; stdout {self.out}, stderr {self.err}")

    def finish(self, seconds: float) -> int:
        try:
            rc = self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:             # say where it hangs: every thread's stack
            self.proc.send_signal(signal.SIGABRT)
            self.proc.wait(timeout=30)
            self._drain()
            raise AssertionError(f"still running {seconds} s later; stdout {self.out}; stderr:\n"
                                 + "\n".join(self.err)) from None
        self._drain()
        return rc

    def _drain(self):
        time.sleep(0.2)
        while not self.lines.empty():
            kind, line = self.lines.get()
            (self.out if kind == "out" else self.err).append(line)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def save(path: Path, text: str) -> None:
    """Save as an editor does, the new content visible at once."""
    tmp = path.with_suffix(".swp")
    tmp.write_text(text)
    os.replace(tmp, path)


def test_watch_replays_on_save_survives_a_bad_save_and_rewrites_the_report(tmp_path):
    scenario = tmp_path / "watch-me.scenario.toml"
    scenario.write_text(SCENARIO.format(turns=2))
    w = Watcher(tmp_path, "--out", "report", "--watch-max-runs", "3")
    try:
        first = w.wait_for("out", "verdict (", START_SECONDS)
        assert first.startswith("verdict (") and "margin ±5 points): german " in first
        assert "->" not in first and "20 games" in first
        page = (tmp_path / "report" / "index.html").read_text()
        assert '<meta http-equiv="refresh"' in page                      # the open page reloads itself
        w.wait_for("err", "watching", 60)
        save(scenario, SCENARIO.format(turns=2).replace('"~" = "river"', '"~" = "rivr"'))
        bad = w.wait_for("err", "error", RUN_SECONDS)
        assert "map.legend" in bad and "rivr" in bad and "did you mean 'river'" in bad
        w.wait_for("err", "watching", 60)
        save(scenario, SCENARIO.format(turns=4))
        second = w.wait_for("out", "verdict (", RUN_SECONDS)
        assert "margin ±5 points): german " in second and "->" in second and "paired change" in second
        assert w.finish(RUN_SECONDS) == 0
    finally:
        w.stop()
    assert [x for x in w.out if x.startswith("verdict (")] == [first, second]
    assert not any("Traceback" in x for x in w.err)
    balance = json.loads((tmp_path / "report" / "balance.json").read_text())
    assert balance["games"] == 20 and balance["data"]["turns"] == 4          # the last save's report
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name or ".old-" in p.name]


def test_ctrl_c_ends_the_watch_cleanly(tmp_path):
    (tmp_path / "watch-me.scenario.toml").write_text(SCENARIO.format(turns=2))
    w = Watcher(tmp_path)
    try:
        w.wait_for("out", "verdict (", START_SECONDS)
        w.wait_for("err", "watching", 60)
        w.proc.send_signal(signal.SIGINT)
        assert w.finish(60) == 0
    finally:
        w.stop()
    assert not any("Traceback" in x or "KeyboardInterrupt" in x for x in w.err), w.err
    assert any("stopped watching" in x for x in w.err)


def test_watch_max_runs_needs_watch():
    from click.testing import CliRunner

    from simulator.cli import main
    res = CliRunner().invoke(main, ["assault", "scenario", "infantry-training", "--watch-max-runs", "2"])
    assert res.exit_code == 2 and "--watch-max-runs needs --watch" in res.output


# --- the pieces ------------------------------------------------------------------------

def test_a_save_is_a_change_of_content_not_a_touch(tmp_path):
    f = tmp_path / "a.toml"
    f.write_text("x = 1\n")
    before = watch.fingerprint([f])
    os.utime(f, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    touched = watch.fingerprint([f])
    assert touched != before and not watch.content_changed(before, touched)
    f.write_text("x = 2\n")
    assert watch.content_changed(touched, watch.fingerprint([f]))
    f.unlink()
    assert watch.content_changed(touched, watch.fingerprint([f]))
    assert watch.content_changed(None, touched)


def test_the_verdict_line():
    from simulator.engine.core.answers import BalanceReport, Rate

    def report(wins):     # the fields the line reads (its interval is not shown: (0, 1) here)
        return BalanceReport(scenario="toy", sides=("german", "soviet"), players={}, games=1000, seed=0,
                             win_rate={"german": Rate(wins / 1000, (0.0, 1.0)),
                                       "soviet": Rate(1 - wins / 1000, (0.0, 1.0))},
                             draw_rate=0.0, verdict="unbalanced", verdict_text="unbalanced: soviet favoured ...",
                             what_if=(), json={}, verdict_margin=0.05)
    first = watch.verdict_line(report(412))
    assert first == ("verdict (unbalanced, margin ±5 points): german 41.2% (±1.6% SE), 1,000 games: "
                     "unbalanced: soviet favoured ...")
    line = watch.verdict_line(report(380), report(412), (-0.032, 0.011))
    assert line.startswith("verdict (unbalanced, margin ±5 points): german 41.2% -> 38.0% (±1.5% SE; "
                           "paired change -3.2% ±1.1% SE)")


def test_the_paired_change_is_given_with_one_standard_error():
    # the first side (0) wins games 2 and 4 only in the second run: differences 0, 1, 0, 1;
    # mean 0.5, sd (ddof 1) sqrt(4 * 0.25 / 3) = 0.57735, SE 0.57735 / sqrt(4) = 0.288675
    # (1 SE: not a 95% half-width, 0.5658, nor twice the SE)
    mean, se = watch.paired_se([0, 1, 0, 1], [0, 0, 0, 0])
    assert abs(mean - 0.5) < 1e-12 and abs(se - 0.288675) < 1e-6
