"""Hypothesis fuzzing: the loaders and the pool parser answer any input with a result or an
InputError, never another exception.

Data files are fuzzed two ways: raw text (mostly TOML syntax errors), and the shipped
file with a few random changes (a value replaced by another of any type, a key
removed, a key added), written back with the tests' TOML writer.
"""

import itertools
import os
import tempfile
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.games.assault.rules.aid import DEFAULT_AID_FILE, load_aid
from simulator.games.assault.rules.cards import DEFAULT_UNITS_DIR, load_unit_file
from simulator.games.assault.rules.dice import DEFAULT_DICE_FILE, format_pool, load_dice, parse_pool
from simulator.run.errors import InputError

from .tomlw import dumps

DICE = load_dice()
EXAMPLES = int(os.environ.get("LANCHESTER_FUZZ_EXAMPLES", "150"))  # more by hand: e.g. 3000
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TEXT = st.characters(blacklist_categories=("Cs",))   # any character UTF-8 can hold
SAMPLE_UNITS = sorted(DEFAULT_UNITS_DIR.glob("*.toml"))[0]

_dir = tempfile.TemporaryDirectory(prefix="lanchester-fuzz-")
_names = itertools.count()


def fresh_file(data: bytes) -> Path:
    """A new file for each example (loaders cache by path and modification time)."""
    path = Path(_dir.name) / f"f{next(_names)}.toml"
    path.write_bytes(data)
    return path


LOADERS = {
    "dice": (DEFAULT_DICE_FILE, lambda p: load_dice(p)),
    "aid": (DEFAULT_AID_FILE, lambda p: load_aid(p, DICE)),
    "units": (SAMPLE_UNITS, lambda p: load_unit_file(p, DICE)),
}


def accepts_or_input_error(load, path: Path) -> None:
    try:
        load(path)
    except InputError as exc:
        assert str(path) in exc.one_line() and "\n" not in exc.one_line()


# ---------------------------------------------------------------- the pool parser

@FUZZ
@given(st.text(TEXT, max_size=30))
def test_any_pool_string_parses_or_is_an_input_error(text):
    try:
        pool = parse_pool(text, DICE, "ATTACK")
    except InputError as exc:
        assert exc.where == "ATTACK"
        return
    assert all(letter in DICE.letters for letter in pool)
    assert list(pool) == sorted(pool, key=DICE.rank)


@FUZZ
@given(st.text(alphabet="RYGBrygb0123456789 +-", max_size=20))
def test_pool_like_strings_parse_or_are_input_errors(text):
    try:
        parse_pool(text, DICE)
    except InputError:
        pass


@FUZZ
@given(st.lists(st.tuples(st.integers(1, 9), st.sampled_from("RYGB")), min_size=1, max_size=5),
       st.sampled_from([" ", " + ", "+", ""]))
def test_written_pools_read_back(groups, sep):
    text = sep.join(f"{n}{letter}" for n, letter in groups)
    pool = parse_pool(text, DICE)
    assert len(pool) == sum(n for n, _ in groups)
    assert parse_pool(format_pool(pool), DICE) == pool


# ---------------------------------------------------------------- data files

ANY_VALUE = st.one_of(
    st.booleans(), st.integers(-(10**6), 10**6), st.floats(allow_nan=True, allow_infinity=True),
    st.text(TEXT, max_size=12),
    st.sampled_from(["-", "R", "2RY", "0G", "100R", "crit+hit", "kill", "auto", "prohibited", "hinder",
                     "foot", "vehicle", "front"]),
    st.lists(st.one_of(st.integers(-3, 9), st.text("crithsup+-", max_size=9)), max_size=7),
    st.dictionaries(st.text(TEXT, min_size=1, max_size=6), st.integers(-3, 9), max_size=3),
)


def paths(node, prefix=()):
    """Every key path of a parsed TOML document (tables and list items included)."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        yield prefix + (key,)
        yield from paths(child, prefix + (key,))


def _holds(node, key) -> bool:
    return (isinstance(node, dict) and key in node) or (isinstance(node, list) and isinstance(key, int)
                                                         and key < len(node))


def mutate(data, changes):
    """Apply the changes that still make sense (an earlier one may have removed a path)."""
    for path, action, value in changes:
        node = data
        for key in path[:-1]:
            node = node[key] if _holds(node, key) else None
        last = path[-1]
        if not _holds(node, last):
            continue
        if action == "delete":
            del node[last]
        elif action == "add":
            if isinstance(node[last], dict):
                node[last][f"fuzz_{value!s:.8}"] = value
        else:
            node[last] = value
    return data


def mutations(base):
    all_paths = list(paths(base))
    change = st.tuples(st.sampled_from(all_paths), st.sampled_from(["set", "set", "delete", "add"]), ANY_VALUE)
    return st.lists(change, min_size=1, max_size=3)


@pytest.mark.parametrize("kind", sorted(LOADERS))
def test_random_text_is_an_input_error_or_accepted(kind):
    _, load = LOADERS[kind]

    @FUZZ
    @given(st.binary(max_size=200) | st.text(TEXT, max_size=200).map(lambda t: t.encode()))
    def check(data):
        accepts_or_input_error(load, fresh_file(data))

    check()


@pytest.mark.parametrize("kind", sorted(LOADERS))
def test_mutated_data_files_load_or_are_input_errors(kind):
    shipped, load = LOADERS[kind]
    base = tomllib.loads(Path(shipped).read_text())

    @FUZZ
    @given(st.data())
    def check(data):
        doc = tomllib.loads(Path(shipped).read_text())   # a fresh copy to change
        doc = mutate(doc, data.draw(mutations(base)))
        accepts_or_input_error(load, fresh_file(dumps(doc).encode()))

    check()
