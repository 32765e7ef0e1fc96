"""What a number of hits does to its target (001 Normal / Suppressive attack results).

Both result tables have the same shape: 1 or 2 hits move the target one step, 3 hits
two steps, 4 or more three steps, and the steps run

* squads under suppressive fire: normal -> pinned -> disrupted -> routed (destroyed);
* vehicles under normal fire: undamaged -> light -> heavy damage -> destroyed;

counting from the target's present state (a pinned squad needs only 3 hits to be
routed, a heavily damaged vehicle only 1 to be destroyed). Squads under normal fire
lose one figure per hit, keeping their condition.
"""

from __future__ import annotations

from dataclasses import dataclass

SQUAD_STEPS = ("normal", "pinned", "disrupted", "routed")        # 001 Suppressive attack results
VEHICLE_STEPS = ("undamaged", "light", "heavy", "destroyed")     # 001 Normal attack results
MODES = ("normal", "suppressive")


def steps(hits: int) -> int:
    """How far one attack moves its target along the result table (001 results)."""
    if hits <= 0:
        return 0
    if hits <= 2:
        return 1
    return 2 if hits == 3 else 3


def suppressed_index(condition: int, hits: int) -> int:
    """:func:`suppressed` on indices into ``SQUAD_STEPS`` (0 normal ... 3 routed): the form
    the whole-game engine compiles with numba (``simulator.games.toi.rules.jit``), so both share it."""
    return min(condition + steps(hits), 3)


def damaged_index(damage: int, hits: int, fragile: bool) -> int:
    """:func:`damaged` on indices into ``VEHICLE_STEPS`` (0 undamaged ... 3 destroyed)."""
    i = min(damage + steps(hits), 3)
    if fragile and i == 2:  # 001 Trucks, Fragile: heavy damage destroys a truck
        i = 3
    return i


def suppressed(condition: str, hits: int) -> str:
    """A squad's condition after a suppressive attack (001 Suppressive attack results)."""
    return SQUAD_STEPS[suppressed_index(SQUAD_STEPS.index(condition), hits)]


def damaged(damage: str, hits: int, fragile: bool = False) -> str:
    """A vehicle's state after a normal attack (001 Normal attack results; Trucks: Fragile)."""
    return VEHICLE_STEPS[damaged_index(VEHICLE_STEPS.index(damage), hits, fragile)]


def hits_to_destroy(damage: str, fragile: bool = False) -> int:
    """The fewest hits that destroy a vehicle in this state (002 step 7: the most a vehicle may take)."""
    hits = 1
    while damaged(damage, hits, fragile) != "destroyed":
        hits += 1
    return hits


@dataclass(frozen=True)
class Target:
    """What the result tables need to know about a target."""

    kind: str                 # "squad" or "vehicle"
    figures: int = 0          # squads
    condition: str = "normal"  # squads
    damage: str = "undamaged"  # vehicles
    fragile: bool = False     # vehicles (001 Trucks)

    def states(self, mode: str) -> list[str]:
        """Every state the target can end in, in table order."""
        if self.kind == "vehicle":
            return list(VEHICLE_STEPS[VEHICLE_STEPS.index(self.damage):])
        if mode == "suppressive":
            return list(SQUAD_STEPS[SQUAD_STEPS.index(self.condition):])
        return [figures_state(n) for n in range(self.figures, -1, -1)]

    def after(self, mode: str, hits: int) -> str:
        """The state after ``hits`` hits of a ``mode`` attack."""
        if self.kind == "vehicle":
            return damaged(self.damage, hits, self.fragile)
        if mode == "suppressive":
            return suppressed(self.condition, hits)
        return figures_state(max(self.figures - hits, 0))

    def figures_lost(self, mode: str, hits: int) -> int:
        """Figures removed: normal attacks on squads only (001 Normal attack results)."""
        if self.kind == "squad" and mode == "normal":
            return min(hits, self.figures)
        return 0

    def destroyed(self, state: str) -> bool:
        return state in ("destroyed", "routed", figures_state(0))

    def describe(self) -> str:
        if self.kind == "vehicle":
            return "vehicle" + (f", {self.damage} damage" if self.damage != "undamaged" else "") + \
                (", fragile" if self.fragile else "")
        return f"squad of {self.figures} figure{'s' if self.figures != 1 else ''}" + \
            (f", {self.condition}" if self.condition != "normal" else "")


def figures_state(left: int) -> str:
    return "destroyed" if left == 0 else f"{left} left"


STATE_KEYS = {"normal": "p_normal", "pinned": "p_pinned", "disrupted": "p_disrupted",
              "routed": "p_routed", "undamaged": "p_undamaged", "light": "p_light_damage",
              "heavy": "p_heavy_damage", "destroyed": "p_destroyed"}


def state_key(state: str) -> str:
    """Summary key of a state: ``pinned`` -> ``p_pinned``, ``3 left`` -> ``p_3_left``."""
    return STATE_KEYS.get(state, "p_" + state.replace(" ", "_"))
