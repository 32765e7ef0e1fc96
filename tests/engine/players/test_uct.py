"""The ``uct`` player (issue 41, item 3): a second search family that uses none of
greedy's priors or value. It reads only the rules' side of the game API, beats random
from both seats of a small scenario, is the same for a seed on 1 and 2 workers, and
``uct:N`` sets its budget. (The contract over both games: tests/engine/core/test_game_contract.py;
its strength and speed on the shipped scenarios: docs/strength.md.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from simulator.engine.players import interface
from simulator.engine.players.base import MC_SIMS
from simulator.engine.players.interface import DEFAULT_PARAMS, UCT, parse_player, player_setup

ROOT = Path(interface.__file__).resolve().parents[3]
# the rules' side of the game API (gameapi's docstring): outlook is the game's own victory check,
# is_activation which decisions start an activation (the rules' sequence of play, 6.4 / 001)
RULES = {"legal_actions", "apply_action", "decider", "is_over", "winner", "turn_number", "log_off", "forbidden",
         "outlook", "is_activation"}


def _imports(module: str) -> list[tuple[str, set[str]]]:
    tree = ast.parse((ROOT / (module.replace(".", "/") + ".py")).read_text())
    return [(n.module, {a.name for a in n.names}) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]


def test_uct_reads_only_the_rules():
    """Every module of the players that ``uct`` reaches (its own imports, followed
    through the players' modules) takes from the game API only the rules' hooks: no
    ``greedy_choice``, ``greedy_scores``, ``other_plans``, ``evaluate`` (greedy's priors
    and value)."""
    todo, seen, api = ["simulator.engine.players.uct"], set(), set()
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        for mod, names in _imports(m):
            if mod == "simulator.engine.core.gameapi":
                api |= names
            elif mod.startswith("simulator.engine.players."):
                todo.append(mod)
    assert seen == {"simulator.engine.players.uct", "simulator.engine.players.base",
                    "simulator.engine.players.randomplay"}, seen
    assert api <= RULES and {"legal_actions", "apply_action", "winner"} <= api, api


def test_the_budget_is_read_from_the_name():
    assert parse_player("uct") == (UCT, interface.DEFAULT_UCT_SIMS)
    assert parse_player("uct:500") == (UCT, 500)
    kinds, params = player_setup(("uct:40", "random"))
    assert list(kinds) == [UCT, interface.RANDOM] and params[MC_SIMS] == 40
    assert params[MC_SIMS + 1] == DEFAULT_PARAMS[MC_SIMS + 1]
    for bad in ("uct:0", "uct:many", "uct:10001"):
        with pytest.raises(ValueError, match="uct:N wants N simulations per decision"):
            parse_player(bad)
    with pytest.raises(ValueError, match=r"only mcts:N and uct:N do"):
        parse_player("greedy:3")
