"""The inlining that makes greedy fast (``state.rule_hot``) stays attached to the loops it
was measured on: renaming a hot loop would silently drop the speed-up (1M games: 6.6
min with it, 11.1 without), so the names are checked here."""

from __future__ import annotations

from types import SimpleNamespace

import simulator.games.assault.game.fire as fire
import simulator.games.assault.game.greedy_values as players
from simulator.engine.core.compiling import HOT_LOOPS, _into_hot_loops


def _ir(name):
    return SimpleNamespace(func_id=SimpleNamespace(func_name=name))


def test_hot_loops_are_functions_of_the_players():
    for name in HOT_LOOPS:
        assert hasattr(players, name), name
        assert hasattr(getattr(players, name), "py_func"), f"{name} is not a numba function"


def test_the_fire_chain_is_inlined_into_the_hot_loops_only():
    assert _into_hot_loops(None, _ir("threat_at"), _ir("fire_value"))
    assert _into_hot_loops(None, _ir("best_fire_from"), _ir("expected_fire"))
    assert not _into_hot_loops(None, _ir("resolve_fire"), _ir("fire_keys"))
    assert not _into_hot_loops(None, _ir("greedy_scores"), _ir("fire_value"))


def test_the_chain_is_marked_for_it():
    """fire_value -> expected_fire -> fire_keys (and what it calls) -> fire_odds: each link
    carries the cost model, or the chain stops being inlined where it breaks."""
    for fn in (players.fire_value, fire.expected_fire, fire.fire_keys, fire.fire_odds, fire.line_open,
               fire.smoke_on_line, fire.target_status, fire.action_class, fire.impact_area,
               fire.outside_arc, fire.in_arc_of):
        assert fn.targetoptions.get("inline") is _into_hot_loops, fn.py_func.__name__
