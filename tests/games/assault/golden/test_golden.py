"""Golden games: replays and batch records of the shipped scenarios stay byte-identical.

A difference means a change of the rules or the players changed games: a bug, or a
deliberate change whose commit regenerates the files (``python tests/games/assault/golden/regen.py``)
and says which games changed and why.
"""

from __future__ import annotations

import difflib
import json

import pytest
from click.testing import CliRunner

from simulator.cli import main
from tests.games.assault.golden import regen

FILES = regen.golden_files()


@pytest.mark.parametrize("file", sorted(FILES))
def test_replay_is_unchanged(file):
    expected = (regen.HERE / file).read_text()
    got = regen.golden_text(file)
    if got != expected:
        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), got.splitlines(True),
                                                 "golden", "now", n=2))[:60])
        pytest.fail(f"{file} changed (python tests/games/assault/golden/regen.py regenerates it):\n{diff}")


def test_the_command_line_prints_the_golden_replay():
    """The golden files are what ``lanchester assault replay`` prints, text and JSON."""
    name, players, k, _ = FILES[sorted(FILES)[0]]
    for fmt, suffix in (("table", "txt"), ("json", "json")):
        res = CliRunner().invoke(main, ["assault", "replay", name, "--seed", str(regen.SEED), "--game", str(k),
                                        "--players", ",".join(players), "--format", fmt])
        assert res.exit_code == 0, res.output
        assert res.stdout == (regen.HERE / f"{name}.{'-'.join(players)}.game{k}.{suffix}").read_text()


def test_every_golden_file_is_made_by_the_script():
    on_disk = {p.name for p in regen.HERE.glob("*.txt")} | {p.name for p in regen.HERE.glob("*.json")}
    assert on_disk - {"batches.json"} == set(FILES)


@pytest.mark.parametrize("name", regen.scenarios())
def test_batch_records_are_unchanged(name):
    golden = json.loads((regen.HERE / "batches.json").read_text())
    assert (golden["seed"], golden["games"], golden["players"]) == (regen.SEED, regen.BATCH_GAMES,
                                                                     list(regen.BATCH_PLAYERS))
    assert regen.batch_digest(name) == golden["sha256"][name]
