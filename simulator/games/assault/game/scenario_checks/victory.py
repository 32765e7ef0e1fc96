"""``[sides.*.victory]`` (3.1, 6.6, 9.7): objective hexes to hold and how many."""

from __future__ import annotations

from simulator.games.assault.game.scenario_checks.base import CheckBase
from simulator.games.assault.game.scenario_format import SideVictory, canon_hex


class VictoryChecks(CheckBase):
    """``[sides.*.victory]``."""

    def check_victory(self, key: str, v: SideVictory, side: str) -> None:
        objs = getattr(self, "objective_hexes", set())
        for j, hx in enumerate(v.hold):
            if self.hex_ok(hx, f"{key}.hold[{j}]") and canon_hex(hx) not in objs:
                self.r.error(f"{key}.hold[{j}]", f"{hx} is not an objective hex (objectives)")
        if v.hold_count > len(objs):
            self.r.error(f"{key}.hold_count", f"{v.hold_count} objectives to hold but the scenario "
                         f"has {len(objs)}")
        if self.raw.get("sides") and v.is_empty:
            self.r.warn(key, f"side {side} has no victory condition: it can only win by "
                        f"victory.if_neither")
