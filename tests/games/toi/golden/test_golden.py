"""Tide of Iron's golden games: replays of the shipped scenarios stay byte-identical.

Written by the same script as Assault's (``python tests/games/assault/golden/regen.py``);
a difference means a change of the rules or the players changed games: a bug, or a
deliberate change whose commit regenerates the files and says which games changed and why.
"""

from __future__ import annotations

import difflib

import pytest
from click.testing import CliRunner

from simulator.cli import main
from tests.games.assault.golden import regen

FILES = regen.toi_golden_files()


@pytest.mark.parametrize("file", sorted(FILES))
def test_replay_is_unchanged(file):
    expected = (regen.TOI_HERE / file).read_text()
    got = regen.toi_golden_text(file)
    if got != expected:
        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), got.splitlines(True),
                                                 "golden", "now", n=2))[:60])
        pytest.fail(f"{file} changed (python tests/games/assault/golden/regen.py regenerates it):\n{diff}")


def test_the_command_line_prints_the_golden_replay():
    """The golden files are what ``lanchester toi replay`` prints, text and JSON."""
    name, players, k, _ = FILES[sorted(FILES)[0]]
    for fmt, suffix in (("table", "txt"), ("json", "json")):
        res = CliRunner().invoke(main, ["toi", "replay", name, "--seed", str(regen.SEED), "--game", str(k),
                                        "--players", ",".join(players), "--format", fmt])
        assert res.exit_code == 0, res.output
        assert res.stdout == (regen.TOI_HERE / f"{regen.stem_of(name, players, k)}.{suffix}").read_text()


def test_every_golden_file_is_made_by_the_script():
    on_disk = {p.name for p in regen.TOI_HERE.glob("*.txt")} | {p.name for p in regen.TOI_HERE.glob("*.json")}
    assert on_disk == set(FILES)
