"""The disk cache of compiled scenarios: read back only when data, code and overrides
are the same; damaged entries are compiled again; the cache can be turned off."""

import os
import subprocess
import sys

import numpy as np
import pytest

from simulator.games.assault.game import gamecache
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.scenario import load_scenario

MINI = """
name = "Cache test"
source = "test"
turns = 3
unit_rules = ["infantry"]
first_setup = "german"
initiative = "german"

[map]
rows = ["..f.", "....", "...."]

[map.legend]
"." = "clear"
"f" = "forest"

[[objectives]]
hex = "2,1"

[sides.german]
faction = "blue"
zones.west = ["0,0-2"]

[[sides.german.units]]
unit = "rifles-41"
zone = "west"

[sides.german.victory]
hold = ["2,1"]

[sides.soviet]
faction = "red"
zones.east = ["3,0-2"]

[[sides.soviet.units]]
unit = "rifles-41"
zone = "east"

[sides.soviet.victory]
hold_count = 1
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("LANCHESTER_CACHE_DIR", str(folder))
    return folder / "games"


@pytest.fixture
def mini(tmp_path):
    path = tmp_path / "mini.scenario.toml"
    path.write_text(MINI)
    return path


def same_tables(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a.tables, b.tables, strict=True))


def test_a_second_compile_reads_the_same_game_back(cache, mini):
    first = compile_game(str(mini))
    assert len(list(cache.glob("*.pickle"))) == 1
    again = compile_game(str(mini))
    assert again is not first and same_tables(first, again)
    assert again.sides == first.sides and again.unit_label(0) == first.unit_label(0)


def test_a_changed_scenario_or_override_is_a_new_entry(cache, mini):
    base = compile_game(str(mini))
    longer = compile_game(str(mini), overrides={"turns": 5})
    assert len(list(cache.glob("*.pickle"))) == 2 and not same_tables(base, longer)
    mini.write_text(MINI.replace('"f" = "forest"', '"f" = "clear"'))
    cleared = compile_game(str(mini))
    assert len(list(cache.glob("*.pickle"))) == 3 and not same_tables(base, cleared)


def test_a_damaged_entry_is_compiled_again_and_replaced(cache, mini):
    good = compile_game(str(mini))
    (entry,) = cache.glob("*.pickle")
    entry.write_bytes(entry.read_bytes()[:100])            # truncated
    again = compile_game(str(mini))
    assert same_tables(good, again) and entry.stat().st_size > 100
    entry.write_bytes(b"not a pickle at all")
    assert same_tables(good, compile_game(str(mini)))


def test_off_writes_nothing(tmp_path, monkeypatch, mini):
    monkeypatch.setenv("LANCHESTER_CACHE_DIR", "off")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    compile_game(str(mini))
    assert not (tmp_path / "home").exists()


def test_an_unwritable_cache_only_costs_time(tmp_path, monkeypatch, mini):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("LANCHESTER_CACHE_DIR", str(blocker))    # a file: cannot hold a folder
    assert compile_game(str(mini)).n_units == 2


def test_the_key_is_the_same_in_every_process(mini):
    """Keys must not depend on PYTHONHASHSEED (sets in the loaded data), or no other
    process would ever find an entry."""
    code = ("import sys; from simulator.games.assault.game.scenario import load_scenario; "
            "from simulator.games.assault.game.gamecache import game_key; "
            "print(game_key(load_scenario(sys.argv[1]), None, {'turns': 4}))")
    keys = {subprocess.run([sys.executable, "-c", code, str(mini)], capture_output=True, text=True, check=True,
                           env=dict(os.environ, PYTHONHASHSEED=str(seed))).stdout.strip() for seed in (1, 2, 3)}
    assert len(keys) == 1
    assert keys == {gamecache.game_key(load_scenario(str(mini)), None, {"turns": 4})}


def test_old_entries_are_pruned(cache, mini, monkeypatch):
    monkeypatch.setattr(gamecache, "KEEP", 2)
    for turns in (2, 3, 4):
        compile_game(str(mini), overrides={"turns": turns})
    assert len(list(cache.glob("*.pickle"))) == 2


def test_data_given_on_the_command_line_is_part_of_the_key(tmp_path):
    """``--aid FILE`` (and the other data options) load other data: another key, even
    when only a value inside the file differs."""
    from simulator.run.datafile import SCENARIOS_DIR
    text = (SCENARIOS_DIR / "assault" / "aid.toml").read_text()
    other = tmp_path / "aid.toml"
    other.write_text(text)
    same = gamecache.game_key(load_scenario("infantry-training", {"aid": str(other)}), None, {})
    other.write_text(text.replace("# The player's aid", "# A copy of the player's aid", 1).replace(
        'name = "', 'name = "copy of ', 1))
    changed = gamecache.game_key(load_scenario("infantry-training", {"aid": str(other)}), None, {})
    assert same != changed != gamecache.game_key(load_scenario("infantry-training"), None, {})


def test_two_compiles_of_one_scenario_at_once_compile_it_once(cache, mini, monkeypatch):
    """The second asker waits on the entry's lock while the first compiles, then reads
    the first's entry (two test workers, two commands started together)."""
    import threading
    import time

    from simulator.games.assault.game import compile as C
    compiled, first_inside, second_missed = [], threading.Event(), threading.Event()
    real_compile, real_load = C._compile, gamecache._load

    def slow_compile(*args):
        compiled.append(threading.current_thread().name)
        if len(compiled) == 1:
            first_inside.set()
            assert second_missed.wait(10)
            time.sleep(0.3)               # the second has missed the cache and now asks for the lock
        return real_compile(*args)

    def load(path):
        game = real_load(path)
        if threading.current_thread().name == "second" and game is None:
            second_missed.set()
        return game

    monkeypatch.setattr(C, "_compile", slow_compile)
    monkeypatch.setattr(gamecache, "_load", load)
    games = {}
    first = threading.Thread(target=lambda: games.update(first=compile_game(str(mini))), name="first")
    second = threading.Thread(target=lambda: games.update(second=compile_game(str(mini))), name="second")
    first.start()
    assert first_inside.wait(10)
    second.start()
    first.join(30)
    second.join(30)
    assert compiled == ["first"]
    assert same_tables(games["first"], games["second"])
    assert [p.suffix for p in sorted(cache.iterdir()) if not p.name.startswith(".")] == [".lock", ".pickle"]


def test_the_scenarios_own_edition_by_name_is_the_same_entry(cache, mini):
    """``--edition v2`` on a v2 scenario compiles the same game as no edition: one entry."""
    own = load_scenario(str(mini)).edition
    other = "v1" if own == "v2" else "v2"
    compile_game(str(mini))
    assert compile_game(str(mini), edition=own).edition == own
    assert len(list(cache.glob("*.pickle"))) == 1
    assert compile_game(str(mini), edition=other).edition == other
    assert len(list(cache.glob("*.pickle"))) == 2
