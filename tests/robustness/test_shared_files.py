"""Shared files are safe to open (issue 44): a scenario or data file someone else wrote
can do nothing but be refused (exit 2, one line naming the file, the key and the
problem) or be played.

``corpus/toi/cases.toml`` holds malformed Tide of Iron scenarios as one change each to a
shipped file (the shape of ``corpus/scenarios/cases.toml``); ``corpus/formats`` the data
files of earlier releases that must keep loading; the other cases are here, by item:
44.1 names drawn as text, 44.2 Tide of Iron maps bounded (and the compiled LOS table),
44.3 the compiled-game cache runs nothing, 44.4 Dask without workers, 44.5 control
characters, 44.6 CSV formulas, 44.7 --checkpoint on a full disk, 44.9 data-file formats
(44.8's messages are corpus cases in toi/cases.toml and files.toml).
"""

import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.games.assault.rules.aid import DEFAULT_AID_FILE as DEFAULT_AID
from simulator.run.datafile import SCENARIOS_DIR

from .test_bad_input import CORPUS, FIRE, SCENARIO, _apply, one_line_error
from .tomlw import dumps

TOI_SCENARIO = SCENARIOS_DIR / "toi" / "two-farms.scenario.toml"
TOI_CASES = tomllib.loads((CORPUS / "toi" / "cases.toml").read_text())["case"]


def toi_file(tmp_path: Path, case: dict) -> Path:
    path = tmp_path / f"{case['name']}.scenario.toml"
    path.write_text(dumps(_apply(tomllib.loads(TOI_SCENARIO.read_text()), case)) + case.get("append", ""))
    return path


@pytest.mark.parametrize("case", TOI_CASES, ids=lambda c: c["name"])
def test_bad_toi_scenario(case, tmp_path):
    path = toi_file(tmp_path, case)
    line = one_line_error(["toi", "los", str(path), "0,0", "1,1"])
    assert str(path) in line
    for needle in case["expect"]:
        assert needle in line, line
    check = CliRunner().invoke(main, ["toi", "check", str(path)])
    assert isinstance(check.exception, SystemExit) and check.exit_code == 2
    assert "Traceback" not in check.output
    assert [x for x in check.output.splitlines() if str(path) in x and all(n in x for n in case["expect"])], \
        check.output


# --- 44.1: every text drawn from user data is drawn as text -----------------------------

MATH_BREAKER = "Two $\\frac{1}{$ Farms"     # mathtext cannot parse it: a ValueError while drawing


@pytest.mark.parametrize("game", ["assault", "toi"])
def test_a_dollar_in_a_name_draws_as_text(game, tmp_path):
    shipped = SCENARIO if game == "assault" else TOI_SCENARIO
    path = tmp_path / "dollar.scenario.toml"
    path.write_text(dumps(_apply(tomllib.loads(shipped.read_text()), {"set": {"name": MATH_BREAKER}})))
    out = tmp_path / "map.png"
    res = CliRunner().invoke(main, [game, "map", str(path), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_dollar_in_a_name_draws_in_a_scenario_report(tmp_path):
    """The charts of a report folder (``toi scenario --out``) title themselves with the name."""
    path = tmp_path / "dollar.scenario.toml"
    path.write_text(dumps(_apply(tomllib.loads(TOI_SCENARIO.read_text()), {"set": {"name": MATH_BREAKER}})))
    out = tmp_path / "rep"
    res = CliRunner().invoke(main, ["toi", "scenario", str(path), "--games", "10", "--seed", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    pngs = sorted(out.glob("*.png"))
    assert len(pngs) >= 3 and all(p.read_bytes()[:4] == b"\x89PNG" for p in pngs)


def test_figure_png_draws_dollars_as_text():
    """``Costs $5 and $10``: as math, "5 and " is typeset in italics without its spaces
    (narrower); as text it is as wide as the same words with the dollars drawn as text."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from simulator.run.output import figure_png

    def width(text: str, parse_math: bool | None) -> float:
        fig = Figure(figsize=(6, 1), dpi=100)
        FigureCanvasAgg(fig)
        t = fig.text(0.01, 0.5, text) if parse_math is None else fig.text(0.01, 0.5, text, parse_math=parse_math)
        if parse_math is None:
            figure_png(fig, 100)
        else:
            fig.canvas.draw()
        return t.get_window_extent().width

    plain = width("Costs $5 and $10", False)
    assert width("Costs $5 and $10", None) == plain
    assert width("Costs $5 and $10", True) != plain
    fig = Figure(figsize=(3, 1), dpi=100)
    FigureCanvasAgg(fig)
    fig.suptitle(MATH_BREAKER)
    with pytest.raises(ValueError):            # the crash of issue 44.1, drawn as math
        fig.canvas.draw()
    assert figure_png(fig, 100)[:4] == b"\x89PNG"


# --- 44.3: a planted compiled-game cache entry runs nothing ------------------------------

class Payload:
    """Unpickling it writes the file named ``marker`` (what a crafted entry would do)."""

    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (Path(self.marker), "ran"))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("LANCHESTER_CACHE_DIR", str(folder))
    from simulator.games.assault.game import gamecache
    monkeypatch.setattr(gamecache, "_warned", set())
    return folder


MINI_SCENARIO = "infantry-training"


def _compile():
    from simulator.games.assault.game.compile import compile_game
    return compile_game(MINI_SCENARIO)


def _plant(entry: Path, marker: Path, signed_with: bytes | None = None) -> None:
    import hashlib
    import hmac
    import pickle
    body = pickle.dumps(Payload(str(marker)))
    tag = hmac.new(signed_with, body, hashlib.sha256).digest() if signed_with else b"\0" * 32
    entry.write_bytes(tag + body)


def test_a_planted_entry_is_removed_unread(cache, tmp_path):
    first = _compile()
    (entry,) = (cache / "games").glob("*.pickle")
    marker = tmp_path / "ran"
    _plant(entry, marker)                        # a crafted pickle in place of the entry
    again = _compile()
    assert not marker.exists()
    assert again.n_units == first.n_units and entry.stat().st_size > 1000    # compiled again and kept
    import pickle
    entry.write_bytes(pickle.dumps(Payload(str(marker))))    # a bare pickle, the format before
    _compile()
    assert not marker.exists()


def test_an_entry_signed_with_another_key_is_removed_unread(cache, tmp_path):
    _compile()
    (entry,) = (cache / "games").glob("*.pickle")
    _plant(entry, tmp_path / "ran", signed_with=b"k" * 32)
    _compile()
    assert not (tmp_path / "ran").exists()


@pytest.mark.parametrize("why", ["others-can-write", "not-yours"])
def test_a_cache_folder_others_control_is_not_used(why, cache, tmp_path, monkeypatch, capsys):
    import os

    from simulator.games.assault.game import gamecache
    _compile()
    (entry,) = (cache / "games").glob("*.pickle")
    key = (cache / "key").read_bytes()
    marker = tmp_path / "ran"
    _plant(entry, marker, signed_with=key)       # even a validly signed entry: the folder is not trusted
    capsys.readouterr()
    if why == "others-can-write":
        os.chmod(cache, 0o777)
        expect = "others can write to it (mode 0777)"
    else:
        uid = os.getuid()
        monkeypatch.setattr(gamecache.os, "getuid", lambda: uid + 1)
        expect = f"belongs to user id {uid}, not to you (user id {uid + 1})"
    _compile()
    _compile()
    assert not marker.exists()
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and f"compiled-game cache {cache}: {expect}: not used" in err[0], err


# --- 44.5: control characters never reach the terminal -----------------------------------

def test_a_file_name_with_an_escape_is_shown_escaped(tmp_path):
    """The loader refuses control characters inside a file; its name is shown escaped."""
    path = tmp_path / "two\x1b]0;pwned\x07farms.scenario.toml"
    path.write_text("name = 1\n")
    line = one_line_error(["toi", "los", str(path), "0,0", "1,1"])
    assert "\x1b" not in line and "\x07" not in line
    assert "two\\x1b]0;pwned\\x07farms.scenario.toml" in line


# --- 44.6: no CSV cell a spreadsheet would run --------------------------------------------

FORMULA_SIDE = '=HYPERLINK("http://example.invalid","x")'


def test_a_formula_side_name_is_written_as_text_in_every_csv(tmp_path):
    import csv
    import re

    from reports.bundle import read_csv_text
    data = tomllib.loads(TOI_SCENARIO.read_text())
    data["sides"] = {FORMULA_SIDE if k == "german" else k: v for k, v in data["sides"].items()}
    path = tmp_path / "formula.scenario.toml"
    path.write_text(dumps(data))
    out = tmp_path / "rep"
    res = CliRunner().invoke(main, ["toi", "scenario", str(path), "--games", "10", "--seed", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    number = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?inf")
    holding = []
    for f in sorted(out.rglob("*.csv")):
        text = f.read_text()
        cells = [c for row in csv.reader(text.splitlines()) for c in row]
        bad = [c for c in cells if c[:1] in ("=", "@") or (c[:1] in "+-" and c[:1] and not number.fullmatch(c))]
        assert not bad, (f.name, bad[:3])
        if "'" + FORMULA_SIDE in cells:
            holding.append(f.name)
            assert FORMULA_SIDE in read_csv_text(text).to_numpy().ravel()     # read back exactly
    # the tables that name the sides (the records, games.csv, included); no CSV has a bare formula
    assert {"convergence.csv", "decision-turns.csv", "first-player.csv", "games.csv", "win-rates.csv"} <= \
        set(holding), holding


def test_csv_cells_round_trip():
    import pandas as pd

    from reports.bundle import read_csv_text
    from simulator.run.output import csv_cell, to_csv
    assert [csv_cell(x) for x in ("=1+1", "+x", "-x", "@x", "\tx", "'=x", "'x", "x", "", -3, 2.5)] == \
        ["'=1+1", "'+x", "'-x", "'@x", "'\tx", "''=x", "'x", "x", "", -3, 2.5]
    frame = pd.DataFrame({"name": ["=1+1", "'=x", "'x", "plain", "-3"], "n": [-3, 4, -5, 0, 1]})
    text = to_csv(frame)
    assert text.splitlines()[1:3] == ["'=1+1,-3", "''=x,4"]          # -3 the number stays a number
    back = read_csv_text(text)
    assert back["name"].tolist() == frame["name"].tolist() and back["n"].tolist() == [-3, 4, -5, 0, 1]


# --- 44.7: --checkpoint on a full disk ------------------------------------------------------

ODDS = ["assault", "odds", "2RG", "YYB", "--trials", "3000000", "--format", "json", "--workers", "1", "--seed", "5"]
# three chunks of 2**20 trials (test_checkpoint_trust.py)


def _disk_full(monkeypatch, only=lambda path: True):
    """Writes through simulator.run.output (run.json, chunks) fail as on a full disk."""
    import errno
    import os

    from simulator.run import output
    real = output._write

    def write(path, data):
        if only(Path(path)):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real(path, data)
    monkeypatch.setattr(output, "_write", write)


def test_checkpoint_on_a_full_disk_names_the_option_and_leaves_no_folder(tmp_path, monkeypatch):
    _disk_full(monkeypatch)
    ck = tmp_path / "ck" / "deeper"
    line = one_line_error([*ODDS, "--checkpoint", str(ck)])
    assert line.startswith("lanchester: error: --checkpoint: ") and "run.json" in line
    assert "no space left on the device" in line
    assert list(tmp_path.iterdir()) == []             # no run folder, no ck folder, no temporary


def test_a_disk_filling_mid_run_warns_once(tmp_path, monkeypatch):
    _disk_full(monkeypatch, only=lambda path: path.name.startswith("chunk-"))
    ck = tmp_path / "ck"
    res = CliRunner().invoke(main, [*ODDS, "--checkpoint", str(ck)])
    assert res.exit_code == 0, res.output
    warnings = [x for x in res.stderr.splitlines() if "cannot be written" in x]
    assert len(warnings) == 1, res.stderr             # three chunks failed: one line (was one a chunk)
    assert "chunk 0 cannot be written (no space left on the device)" in warnings[0]
    (run,) = ck.iterdir()
    assert sorted(p.name for p in run.iterdir()) == ["run.json"]


# --- 44.9: a data file of an earlier release still loads -------------------------------------

FORMATS = CORPUS / "formats"


def test_the_first_releases_toi_units_file_loads_with_a_note(capsys):
    from simulator.games.toi.rules.data import UNITS_FORMAT, load_units
    units = load_units(FORMATS / "toi-units-format-1.toml")
    # the three keys format 2 made required, at their documented defaults (rulings T4, T11)
    assert units.abilities.concussive_firepower.when_supporting.value is True
    assert units.specialisations.flamethrower.when_supporting.value is True
    assert units.specialisations.medic.assault_cover.value == "none"
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("lanchester: note: ") and UNITS_FORMAT == 2
    assert ("a format 1 units.toml read with format 2's defaults for abilities.concussive_firepower.when_supporting"
            " = true, specialisations.flamethrower.when_supporting = true, specialisations.medic.assault_cover = "
            '"none" (add format = 2') in err[0]


@pytest.mark.parametrize("name", ["toi-units-format-1-complete.toml", "toi-terrain-format-1.toml"])
def test_earlier_files_that_lack_nothing_load_silently(name, capsys):
    from simulator.games.toi.rules.data import load_terrain, load_units
    (load_units if "units" in name else load_terrain)(FORMATS / name)
    assert capsys.readouterr().err == ""


def test_an_earlier_units_file_plays_through_the_cli(tmp_path):
    path = tmp_path / "units.toml"
    path.write_bytes((FORMATS / "toi-units-format-1.toml").read_bytes())
    res = CliRunner().invoke(main, ["toi", "units", "--units-file", str(path)])
    assert res.exit_code == 0, res.output
    assert res.stderr.count("lanchester: note: ") == 1


@pytest.mark.parametrize("value, problem", [
    ("3", "format 3 is newer than this lanchester reads (units.toml formats 1 to 2): a newer lanchester wrote it"),
    ('"2"', "must be a whole number from 1 to 2 (the units.toml format)"),
    ("0", "must be a whole number from 1 to 2 (the units.toml format)"),
])
def test_a_units_file_of_an_unknown_format_is_refused(value, problem, tmp_path):
    from simulator.run.datafile import SCENARIOS_DIR as DATA
    path = tmp_path / "units.toml"
    path.write_text((DATA / "toi" / "units.toml").read_text().replace("format = 2 ", f"format = {value} ", 1))
    line = one_line_error(["toi", "units", "--units-file", str(path)])
    assert line == f"lanchester: error: {path}: format: {problem}"


# --- 44.4: a Dask run with no worker left says so and stops ----------------------------------

def test_a_dask_run_without_workers_says_so_and_gives_up(tmp_path):
    """A scheduler with no worker (all lost, or none came): 'no Dask workers for N s'
    while waiting, then exit 2 naming --dask-timeout; the checkpoint stays to resume."""
    import time

    from simulator.run.dask_backend import local_cluster
    with local_cluster(0) as cluster:                  # a scheduler on loopback, no worker
        ck = tmp_path / "ck"
        started = time.monotonic()
        res = CliRunner().invoke(main, [*ODDS, "--dask", cluster.scheduler_address, "--dask-timeout", "3",
                                        "--checkpoint", str(ck)])
        took = time.monotonic() - started
    assert isinstance(res.exception, SystemExit) and res.exit_code == 2, res.output
    assert res.stdout == "" and "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    waiting = [x for x in lines if x.startswith("lanchester: no Dask workers for ")]
    assert waiting and all("still waiting (giving up after 3 s, --dask-timeout)" in x for x in waiting), lines
    assert lines[-1].startswith("lanchester: error: --dask-timeout: no Dask workers for ")
    assert "gave up (the chunks finished are kept with --checkpoint; rerun to resume)" in lines[-1]
    assert took < 60                                   # 3 s without a worker, then a poll or two
    (run,) = ck.iterdir()
    assert (run / "run.json").is_file()


def test_dask_timeout_needs_dask():
    line = one_line_error([*ODDS, "--dask-timeout", "5"])
    assert "--dask-timeout needs --dask" in line


ASSAULT = SCENARIOS_DIR / "assault"


@pytest.mark.parametrize("kind", ["dice", "aid", "units"])
def test_assault_data_files_carry_a_format(kind, tmp_path):
    """Format 1 (the shipped files, written before formats: no key) loads, with or
    without ``format = 1``; a format this lanchester does not know is refused by name."""
    source = {"dice": ASSAULT / "dice.toml", "aid": DEFAULT_AID, "units": ASSAULT / "units" / "german.toml"}[kind]
    folder = tmp_path / kind
    folder.mkdir()
    path = folder / source.name
    args = {"dice": ["assault", "odds", "RY", "YG", "--dice", str(path)], "aid": [*FIRE, "--aid", str(path)],
            "units": ["assault", "units", "--units-dir", str(folder)]}[kind]
    what = {"dice": "dice.toml", "aid": "aid.toml", "units": "unit file"}[kind]
    path.write_text("format = 1\n" + source.read_text())
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0 and res.stderr == "", res.output
    path.write_text("format = 2\n" + source.read_text())
    line = one_line_error(args)
    assert line.endswith(f"{path}: format: format 2 is newer than this lanchester reads ({what} formats 1 to 1): "
                         "a newer lanchester wrote it"), line


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_the_toi_los_table_agrees_with_tracing_each_line(orientation):
    """The table traces each offset once and moves it (44.2); tracing every pair's own line
    with the core's tracer must give the same table, off-map corners and hex sides included."""
    import numpy as np

    from simulator.engine.core.hexgrid import HexGrid
    from simulator.games.toi.game import scenario as S
    rng = np.random.default_rng(44)
    grid = HexGrid(9, 7, orientation)
    elev = rng.integers(0, 3, grid.n).astype(np.int64)
    blocking = (rng.random(grid.n) < 0.25).astype(np.int64)
    table = S._line_of_sight(grid, elev, blocking)
    trace = S.line_tracer(grid)
    for a in range(grid.n):
        for b in range(grid.n):
            if grid.distance[a, b] <= 1:
                assert table[a, b] == 1
                continue
            prim, alt = trace(a, b)
            assert table[a, b] == (S._sight_code(a, b, prim, alt, elev, blocking, grid.q, grid.r)[0] == S.SEES)
    assert 0 < table.sum() < grid.n ** 2        # some lines open, some closed: the check can fail
