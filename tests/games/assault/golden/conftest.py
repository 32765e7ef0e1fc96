"""The golden games run on the engine compiled on both cores (see the root conftest)."""

import pytest


@pytest.fixture(scope="session", autouse=True)
def _engine_first(engine_compiled):
    return engine_compiled
