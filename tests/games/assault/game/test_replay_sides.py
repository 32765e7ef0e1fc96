"""A replay names each unit's side (issue 21, item 5): both sides may field a card of the
same name, so "Rifles '41 #1 rolls ..." alone does not say whose the unit is."""

from __future__ import annotations

import re

import pytest

from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.replay import describe_events, final_position, replay_game, replay_text

MENTION = re.compile(r"([A-Z][\w' .-]*?(?: \(\w+\))?(?: #\d+)?) \((german|soviet)\)")


@pytest.fixture(scope="module")
def game():
    st = replay_game(compile_game("infantry-training"), 2026, 1, ("greedy", "greedy"))
    return st


def test_every_roll_names_both_units_with_their_sides(game):
    rolls = [r["text"] for r in describe_events(game) if " rolls " in r["text"] and ";" in r["text"]]
    assert rolls
    for line in rolls:
        firer, target = line.split(";")
        f, t = MENTION.search(firer), MENTION.search(target)
        assert f and t, line
        assert f.group(2) != t.group(2), f"a unit fires at its own side? {line}"


def test_each_named_side_is_the_units_own(game):
    owner = {u["unit"]: u["side"] for u in final_position(game)}
    text = replay_text(game, ("greedy", "greedy"))
    mentions = MENTION.findall(text)
    assert len(mentions) > 20
    for unit, side in mentions:
        assert owner[unit] == side, (unit, side)


def test_the_side_is_not_repeated_after_the_sides_own_name(game):
    text = replay_text(game, ("greedy", "greedy"))
    assert re.search(r"^(german|soviet) activates [^(:]+: ", text, re.M)
    assert not re.search(r"^(german|soviet) activates [^:]*\((german|soviet)\):", text, re.M)
