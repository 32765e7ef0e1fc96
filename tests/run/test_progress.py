"""The progress lines of long runs (simulator.run.progress, issue 43 item 3), on a fake clock."""

from __future__ import annotations

import io
import os

import pytest

from simulator.run import progress
from simulator.run.progress import Stage, bar_line, duration_text, rate_text


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_rate_keeps_two_digits_below_ten_a_second():
    # an mcts run of 2 games in 5 s is 2 / 5 = 0.4 games/s (it read "0 games/s" when rounded to units)
    assert rate_text(2, 5.0) == "0.4 games/s"
    # 10,000 games in 12 s: 833.33... rounds to 833
    assert rate_text(10_000, 12.0) == "833 games/s"
    # 1 game in 30 s: 0.0333... to two significant digits
    assert rate_text(1, 30.0) == "0.033 games/s"
    # 3,000,000 trials in 1 s: thousands separated
    assert rate_text(3_000_000, 1.0, "trial") == "3,000,000 trials/s"
    assert rate_text(5, 0.0) == "- games/s"


def test_durations():
    assert duration_text(42.4) == "42 s"
    assert duration_text(185) == "3 min 05 s"          # 3 * 60 + 5
    assert duration_text(7620) == "2 h 07 min"         # 2 * 3600 + 7 * 60


def test_the_terminal_line_has_bar_count_rate_and_time_left():
    # 250 of 1,000 games in 5 s: 50 games/s, 750 left at 50 a second = 15 s; the bar 24 * 250 / 1000 = 6 of 24
    assert bar_line("skirmish", 250, 1000, 5.0) == \
        f"skirmish |{'#' * 6}{'-' * 18}| 250/1,000 games  50 games/s  ETA 15 s"
    # no games yet: no time left to tell
    assert bar_line("skirmish", 0, 1000, 0.0).endswith("0/1,000 games  - games/s  ETA ?")
    # --precision: the total is not known, so no bar and no ETA
    assert bar_line("skirmish", 512, None, 4.0) == "skirmish  512 games  128 games/s"


def test_a_terminal_stage_redraws_one_line_in_place_and_erases_it():
    out, clock = io.StringIO(), Clock()
    st = Stage("turns=5", 1000, stream=out, clock=clock, live=True)
    clock.now += 0.1
    st.update(100)                       # within REDRAW_SECONDS (0.2) of the start: not drawn
    assert out.getvalue() == ""
    clock.now += 1.9                     # 2 s in, 100 + 300 = 400 games: 200 games/s, 600 left = 3 s
    st.update(300)
    assert out.getvalue() == "\rturns=5 |" + "#" * 9 + "-" * 15 + "| 400/1,000 games  200 games/s  ETA 3 s\x1b[K"
    st.close()
    assert out.getvalue().endswith("\r\x1b[K") and "\n" not in out.getvalue()


def test_not_a_terminal_one_line_a_stage():
    out, clock = io.StringIO(), Clock()
    st = Stage("river-and-bridge", 1000, stream=out, clock=clock, live=False)
    for _ in range(4):                   # 4 pieces of 250 games, 1 s each: no line while under 10 s
        clock.now += 1.0
        st.update(250)
    st.close()
    # one line for the stage: 1,000 games in 4 s, 1000 / 4 = 250 games/s
    assert out.getvalue() == "lanchester: river-and-bridge: 1,000 games in 4 s (250 games/s)\n"


def test_not_a_terminal_a_long_stage_says_how_far_at_most_every_ten_seconds():
    out, clock = io.StringIO(), Clock()
    st = Stage("level 2 of 3", 600, stream=out, clock=clock, live=False)
    for _ in range(30):                  # 30 pieces of 20 games, 1 s each
        clock.now += 1.0
        st.update(20)
    st.close()
    lines = out.getvalue().splitlines()
    # at 10 s and 20 s (EVERY_SECONDS apart), then the stage's line at 30 s: 600 / 30 = 20 games/s
    assert lines == ["lanchester: level 2 of 3: 200 of 600 games, 20 games/s, ETA 20 s",
                     "lanchester: level 2 of 3: 400 of 600 games, 20 games/s, ETA 10 s",
                     "lanchester: level 2 of 3: 600 games in 30 s (20 games/s)"]


def test_a_short_stage_says_nothing_unless_interrupted():
    out, clock = io.StringIO(), Clock()
    st = Stage("quick", 512, stream=out, clock=clock, live=False)
    clock.now += 0.5
    st.update(256)
    st.close()                           # 0.5 s < FIRST_SECONDS (2 s): silent
    assert out.getvalue() == ""
    st = Stage("quick", 512, stream=out, clock=clock, live=False)
    st.update(256)
    st.close(interrupted=True)
    assert out.getvalue() == "lanchester: quick: interrupted after 256 of 512 games\n"


def test_a_stage_ended_by_an_error_leaves_the_error_alone():
    out, clock = io.StringIO(), Clock()
    st = Stage("odds", 10, unit="trial", stream=out, clock=clock, live=False)
    clock.now += 30.0                    # long enough for a line had it ended well
    st.close(failed=True)
    assert out.getvalue() == ""


def test_quiet_gives_no_stage(monkeypatch):
    monkeypatch.setattr(progress, "_quiet", [False])
    assert progress.stage("run", 10).lines
    assert not progress.stage("odds", 10, "trial").lines     # trials: the terminal's line only
    out, clock = io.StringIO(), Clock()
    st = Stage("odds", 10, unit="trial", stream=out, clock=clock, live=False, lines=False)
    clock.now += 30.0
    st.update(10)
    st.close()
    assert out.getvalue() == ""
    progress.set_quiet(True)
    assert progress.stage("run", 10) is None and progress.stage(None, 10) is None


@pytest.mark.parametrize("signum, status", [(2, 130), (15, 143)])
def test_exit_status_is_128_plus_the_signal(monkeypatch, signum, status):
    monkeypatch.setattr(progress, "_signalled", [0])
    monkeypatch.setattr(progress, "_running", [1])      # during a run (else the signal's default: death)
    with pytest.raises(KeyboardInterrupt):
        progress.on_terminate(signum, None)
    assert progress.exit_status() == status


def test_a_runs_own_checkpoint_not_resumed_for_a_week_is_removed(tmp_path):
    from simulator.run.checkpoint import AUTO_KEEP_DAYS, prune_auto
    now = 1_000_000_000.0
    for name, age_days in (("old", AUTO_KEEP_DAYS + 1), ("recent", AUTO_KEEP_DAYS - 1)):
        run = tmp_path / name
        run.mkdir()
        for f in (run / "run.json", run / "chunk-000000.npz"):
            f.write_text("{}")
            os.utime(f, (now - age_days * 86400, now - age_days * 86400))
    prune_auto(tmp_path, now=now)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["recent"]
