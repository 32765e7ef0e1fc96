"""Dice data and pool strings (4.5, 10.7)."""

import pytest

from simulator.games.assault.rules.dice import (
    add_die,
    format_pool,
    load_dice,
    parse_face,
    parse_pool,
    single_symbol,
    without_weakest,
)
from simulator.run.errors import InputError

DICE = load_dice()


def test_shipped_dice_match_the_documented_defaults():
    assert DICE.name == "assault-default"
    assert DICE.status == "reconstructed"
    assert DICE.letters == "RYGB"  # 4.5: red > yellow > green > blue
    red = DICE.die("R").faces
    assert red == ((1, 1, 0), (1, 0, 0), (0, 1, 0), (0, 1, 0), (0, 0, 1), (0, 0, 0))
    assert DICE.die("G").faces[:3] == ((1, 1, 0), (0, 1, 0), (0, 0, 1))  # 12.9: double, hit, supp
    assert DICE.die("B").faces == ((0, 1, 0), (0, 0, 1)) + ((0, 0, 0),) * 4


@pytest.mark.parametrize("text,expected", [
    ("RY", "RY"), ("2RG", "RRG"), ("2R + G", "RRG"), ("GYR", "RYG"), ("b", "B"),
    ("-", "-"), (" 3B ", "BBB"), ("R+Y+G+B", "RYGB"), ("12R", "R" * 12),
])
def test_pool_strings_normalise_strongest_first(text, expected):
    assert format_pool(parse_pool(text, DICE)) == expected


@pytest.mark.parametrize("text", ["", "RX", "2", "R-", "0R", "R/Y", "100R"])
def test_bad_pool_strings_name_the_argument(text):
    with pytest.raises(InputError) as err:
        parse_pool(text, DICE, "ATTACK")
    assert str(err.value).startswith("ATTACK: ")
    assert "\n" not in str(err.value)


def test_faces_and_doubles_rule():
    assert parse_face("crit+hit") == (1, 1, 0)
    assert parse_face("-") == (0, 0, 0)
    assert single_symbol((1, 1, 0), "strongest") == (1, 0, 0)
    assert single_symbol((1, 1, 0), "weakest") == (0, 1, 0)
    assert single_symbol((1, 1, 0), "all") == (1, 1, 0)
    assert single_symbol((0, 1, 0), "weakest") == (0, 1, 0)
    with pytest.raises(ValueError):
        parse_face("boom")


def test_losing_the_weakest_die_never_goes_below_one():
    # rulings.md #3
    assert format_pool(without_weakest(parse_pool("RYGB", DICE), DICE)) == "RYG"
    assert format_pool(without_weakest(parse_pool("RRG", DICE), DICE)) == "RR"
    assert format_pool(without_weakest(parse_pool("Y", DICE), DICE)) == "Y"
    assert format_pool(add_die(parse_pool("YG", DICE), "R", DICE)) == "RYG"


BAD_DICE_FILES = [
    ("name = \"x\"\nstatus = \"s\"\n[dice]\nred = [\"crit\"]\n", "dice", "faces"),
    ("name = \"x\"\nstatus = \"s\"\n[dice]\nred = [\"crit\", \"boom\", \"-\", \"-\", \"-\", \"-\"]\n",
     "dice", "unknown symbol"),
    ("name = \"x\"\nstatus = \"s\"\ncolour = 1\n[dice]\nred = [\"-\",\"-\",\"-\",\"-\",\"-\",\"-\"]\n",
     "colour", "unknown key"),
    ("status = \"s\"\n[dice]\nred = [\"-\",\"-\",\"-\",\"-\",\"-\",\"-\"]\n", "name", "missing"),
    ("name = \"x\"\nstatus = \"s\"\n[dice]\nred = [\"-\",\"-\",\"-\",\"-\",\"-\",\"-\"]\n"
     "rose = [\"-\",\"-\",\"-\",\"-\",\"-\",\"-\"]\n", "dice", "share the letter"),
    ("name = \"x\"\nstatus = \"s\"\n[dice]\nred = 3\n", "dice.red", "list"),
    ("name = \"x\nstatus", "", "TOML syntax error"),
]


@pytest.mark.parametrize("text,key,problem", BAD_DICE_FILES)
def test_bad_dice_files_give_one_line_naming_file_and_key(tmp_path, text, key, problem):
    path = tmp_path / "dice.toml"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        load_dice(path)
    msg = str(err.value)
    assert msg.startswith(str(path))
    assert err.value.key.startswith(key)
    assert problem in msg
    assert "\n" not in msg
