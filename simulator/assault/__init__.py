"""The Assault game system (Assault Red Horizon '41): dice, ranged fire, close combat."""

from simulator.assault.odds import odds

__all__ = ["odds"]
