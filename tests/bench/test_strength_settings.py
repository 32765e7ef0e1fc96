"""``bench/strength.py --set NAME=VALUE``: a player setting measured before it becomes the
default reaches the players it names (and only their runs' saved files carry it)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from simulator.engine.players import base
from simulator.engine.players.interface import DEFAULT_PARAMS

BENCH = Path(__file__).resolve().parents[2] / "bench" / "strength.py"


@pytest.fixture(scope="module")
def strength():
    spec = importlib.util.spec_from_file_location("bench_strength", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_setting_reaches_the_parameter_it_names(strength):
    settings = strength.settings_of(["MC_ROLLOUT=-2", "la_playouts=16"])
    assert settings == {"MC_ROLLOUT": -2, "LA_PLAYOUTS": 16}
    params = strength.params_with(settings)
    assert params[base.MC_ROLLOUT] == -2 and params[base.LA_PLAYOUTS] == 16
    changed = [i for i in range(len(params)) if params[i] != DEFAULT_PARAMS[i]]
    assert sorted(changed) == sorted([base.MC_ROLLOUT, base.LA_PLAYOUTS])


@pytest.mark.parametrize("item", ["MC_ROLLOUT", "MC_NOPE=1", "RS_KINDS=1", "MC_C=high"])
def test_a_bad_setting_is_refused_with_its_reason(strength, item):
    with pytest.raises(ValueError, match="MC_ROLLOUT|NAME=VALUE|whole number"):
        strength.settings_of([item])


def test_a_saved_run_names_the_settings_that_reached_its_players(strength):
    settings = {"MC_ROLLOUT": -2, "LA_PLAYOUTS": 16}
    assert strength.settings_reaching(("lookahead", "lookahead"), settings) == "_LA_PLAYOUTS=16"
    assert strength.settings_reaching(("mcts:64", "greedy"), settings) == "_MC_ROLLOUT=-2"
    assert strength.settings_reaching(("mcts", "lookahead"), settings) == "_LA_PLAYOUTS=16_MC_ROLLOUT=-2"
    assert strength.settings_reaching(("greedy", "random"), settings) == ""
