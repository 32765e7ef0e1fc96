"""The Assault game system (Assault Red Horizon '41): dice, ranged fire, close combat.

``from simulator.assault import odds`` is the Python entry point for dice odds; it is
loaded on first use (PEP 562), so importing the package for the CLI stays light.
"""

__all__ = ["odds"]


def __getattr__(name: str):
    if name == "odds":
        from simulator.assault.odds import odds
        return odds
    raise AttributeError(f"module 'simulator.assault' has no attribute {name!r}")
