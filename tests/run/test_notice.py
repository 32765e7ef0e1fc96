"""Long waits say what they do (issue 21, item 1): simulator.run.notice.waiting."""

from __future__ import annotations

import io
import time

from simulator.run.notice import waiting


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_a_short_wait_says_nothing(monkeypatch):
    out = Tty()
    with waiting("compiling", stream=out, quiet=0.5):
        pass
    assert out.getvalue() == ""


def test_a_long_wait_on_a_terminal_counts_seconds_and_says_when_done():
    out = Tty()
    with waiting("loading the scenario engine", "about 4 min", stream=out, quiet=0.05, every=0.05):
        time.sleep(0.3)
    text = out.getvalue()
    assert "\rlanchester: loading the scenario engine (about 4 min)... 0 s" in text
    assert text.count("\r") >= 3                   # the count is updated in place
    assert text.rstrip().endswith("lanchester: loading the scenario engine: done in 0 s")


def test_pipes_stay_clean_unless_asked(monkeypatch):
    out = io.StringIO()
    monkeypatch.delenv("LANCHESTER_PROGRESS", raising=False)
    with waiting("compiling", stream=out, quiet=0.01):
        time.sleep(0.1)
    assert out.getvalue() == ""
    monkeypatch.setenv("LANCHESTER_PROGRESS", "1")
    with waiting("compiling", stream=out, quiet=0.01):
        time.sleep(0.1)
    assert out.getvalue().splitlines() == ["lanchester: compiling...", "lanchester: compiling: done in 0 s"]
