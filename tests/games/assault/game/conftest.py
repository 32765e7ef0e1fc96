"""Shared fixtures of the engine tests: the small Skirmish scenario of ``test_players``
as a file and compiled (once per test session)."""

from __future__ import annotations

import pytest

from simulator.games.assault.game.compile import compile_game
from tests.games.assault.game.test_players import SKIRMISH


@pytest.fixture(scope="session", autouse=True)
def _engine_first(engine_compiled):
    """Every engine test runs on the engine compiled on both cores (see the root conftest)."""
    return engine_compiled


@pytest.fixture(scope="session")
def skirmish_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("skirmish") / "skirmish.scenario.toml"
    path.write_text(SKIRMISH)
    return path


@pytest.fixture(scope="session")
def skirmish(skirmish_path):
    return compile_game(skirmish_path)
