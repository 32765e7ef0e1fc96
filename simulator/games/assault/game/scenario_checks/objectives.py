"""``[[objectives]]``: hexes of the map, each listed once."""

from __future__ import annotations

from simulator.games.assault.game.scenario_checks.base import CheckBase
from simulator.games.assault.game.scenario_format import canon_hex


class ObjectiveChecks(CheckBase):
    """``[[objectives]]``."""

    def check_objectives(self) -> None:
        objs = self.raw.get("objectives", [])
        if not isinstance(objs, list):
            return
        seen: dict[str, int] = {}
        for i, o in enumerate(objs):
            hx = o if isinstance(o, str) else (o.get("hex") if isinstance(o, dict) else None)
            key = f"objectives[{i}]" if isinstance(o, str) else f"objectives[{i}].hex"
            if hx is None or not self.hex_ok(hx, key):
                continue
            name = canon_hex(hx)
            if name in seen:
                self.r.error(key, f"objective hex {name} is listed twice (also objectives[{seen[name]}])")
            seen[name] = i
        self.objective_hexes = set(seen)
