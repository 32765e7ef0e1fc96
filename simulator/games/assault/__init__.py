"""The Assault game system (Assault Red Horizon '41): dice, ranged fire, close combat,
and whole scenarios on the engine: ``rules/``, ``questions/``, ``game/``, ``report/``,
``cli/`` (see :mod:`simulator.games`).

``from simulator.games.assault import odds`` is the Python entry point for dice odds. It is
loaded on first use, so importing the package for the command line stays light; and
it stays the function if anything binds the name here (a setter ignores it).
Import the submodule itself with ``from simulator.games.assault.questions.odds import ...``.
"""

import sys
import types

__all__ = ["odds"]


class _Package(types.ModuleType):
    @property
    def odds(self):
        from simulator.games.assault.questions.odds import odds
        return odds

    @odds.setter
    def odds(self, _submodule):
        pass   # the function stays


sys.modules[__name__].__class__ = _Package
