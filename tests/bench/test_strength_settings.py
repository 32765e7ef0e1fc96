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


def test_a_saved_run_names_its_revision_and_another_revision_is_never_pooled(strength, tmp_path, capsys):
    import numpy as np
    folder = str(tmp_path)
    path = strength.run_file(folder, "skirmish", 11, 10, ("mcts:64", "lookahead"), "", "abc123")
    assert path.endswith("skirmish_11_10_mcts-64_lookahead@abc123.npy")
    # runs of the same question by another revision, and a file saved before names had one
    np.save(strength.run_file(folder, "skirmish", 11, 10, ("mcts:64", "lookahead"), "", "old999"), np.zeros(10))
    np.save(str(tmp_path / "skirmish_11_10_mcts-64_lookahead.npy"), np.zeros(10))
    # another seed's or another player's runs are other questions
    np.save(strength.run_file(folder, "skirmish", 12, 10, ("mcts:64", "lookahead"), "", "old999"), np.zeros(10))
    assert strength.other_revisions(path) == ["skirmish_11_10_mcts-64_lookahead.npy",
                                              "skirmish_11_10_mcts-64_lookahead@old999.npy"]


def test_outcomes_reads_only_this_revisions_runs(strength, tmp_path, monkeypatch, capsys):
    import numpy as np
    played = []

    class Tally:
        def outcome_array(self):
            return np.ones(4, dtype=np.int8)

    class Result:
        tally = Tally()

    def fake_run(game, *, games, seed, players, workers, params):
        played.append(seed)
        return Result()

    monkeypatch.setattr(strength, "run_games", fake_run)
    monkeypatch.setattr(strength, "code_revision", lambda: "new111")
    save = (str(tmp_path), "skirmish")
    np.save(strength.run_file(str(tmp_path), "skirmish", 11, 4, ("greedy", "greedy"), "", "old999"),
            np.zeros(4, dtype=np.int8))
    np.save(strength.run_file(str(tmp_path), "skirmish", 12, 4, ("greedy", "greedy"), "", "new111"),
            np.full(4, 2, dtype=np.int8))
    out, _ = strength.outcomes(None, ("greedy", "greedy"), 4, [11, 12], save)
    # seed 11 is played again (the old revision's zeros are not pooled), seed 12 is read back (twos)
    assert played == [11] and out.tolist() == [1, 1, 1, 1, 2, 2, 2, 2]
    assert "not pooled" in capsys.readouterr().out
    assert (tmp_path / "skirmish_11_4_greedy_greedy@new111.npy").exists()


def test_code_revision_names_a_commit(strength):
    rev = strength.code_revision()
    head = rev.partition("-dirty-")[0]
    assert rev == "unknown" or (len(head) == 12 and all(c in "0123456789abcdef" for c in head))
