"""The Assault game system (Assault Red Horizon '41): dice, ranged fire, close combat.

``from simulator.assault import odds`` is the Python entry point for dice odds. It is
loaded on first use, so importing the package for the command line stays light; and
it stays the function even after the submodule of the same name is imported (the
import system binds a submodule to its package's attribute: that binding is ignored).
Import the submodule itself with ``from simulator.assault.odds import ...``.
"""

import sys
import types

__all__ = ["odds"]


class _Package(types.ModuleType):
    @property
    def odds(self):
        from simulator.assault.odds import odds
        return odds

    @odds.setter
    def odds(self, _submodule):
        pass   # `import simulator.assault.odds` binds the submodule here: the function stays


sys.modules[__name__].__class__ = _Package
