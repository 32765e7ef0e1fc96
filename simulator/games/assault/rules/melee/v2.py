"""Revised close combat (004, 12.1-12.5): the round rules.

Rounds repeat in the same activation until one side is eliminated, falls back or
withdraws (12.1); the initial round has its own modifiers (12.1.2.1, 12.1.2.2,
12.1.3.1, 12.1.3.2), support units give re-rolls (12.1.1.1, rulings #11), the
adrenaline rush lasts one round (12.1.5). These functions are the edition's part of
:func:`~simulator.games.assault.rules.melee.situation.direction_pools`; the sequence of rounds is
in :mod:`simulator.games.assault.rules.melee.fight`.
"""

from __future__ import annotations

import sys

from simulator.games.assault.rules.melee.fortifications import strongest
from simulator.games.assault.rules.melee.situation import (
    A1,
    ASSAULT_BLUE_DIE,
    D1,
    EDITION_RULES,
    V2_FIRST,
    Direction,
    PoolBuilder,
)

EDITION = "v2"
TRACKS_SECTION = "revised 12.5"
CARD_ATTACK_SECTION = "revised 12.1.2, 4.2.2"
EXPERIENCE_ATTACK_SECTION = "revised 12.1.2"
EXPERIENCE_DEFENCE_SECTION = "revised 12.1.3"
TERRAIN_SECTION = "revised 12.1.3"


def is_first(kind: int) -> bool:
    return kind == V2_FIRST


def attack_losses(atk: PoolBuilder, d: Direction) -> None:
    """Initial-round attack modifiers that remove dice (12.1.2.1, 12.1.2.2)."""
    s = d.situation
    if d.kind != V2_FIRST:
        return
    if d.x == A1 and s.wire:
        atk.lose_weakest("revised 12.1.2.1", "initiated across barbed wire or a stone wall")
    if d.x == D1 and s.defender_activated and d.x_half:
        atk.lose_weakest("revised 12.1.2.2", "already activated and at half strength")
    if d.x == D1 and s.defender_suppressed:
        atk.clear("revised 12.1.2.2", "suppressed: cannot attack in the initial round")


def defence_losses(dfn: PoolBuilder, d: Direction) -> None:
    """12.1.3.2: an assault unit that moved in with a fast action loses its weakest
    defence die in the initial round."""
    if d.kind == V2_FIRST and d.y == A1 and d.situation.attacker_fast:
        dfn.lose_weakest("revised 12.1.3.2", "moved into close combat with a fast action")


def defence_area(d: Direction) -> tuple[str, str, str]:
    """Which card defence dice a vehicle uses (12.3)."""
    if not d.X.is_vehicle:
        return "above", "revised 12.3", "a vehicle against infantry uses its above dice"
    if d.y_immobilised:
        return "rear", "revised 12.3", "an immobilised vehicle uses its rear dice against vehicles"
    if d.kind == V2_FIRST and d.y == D1:
        area = d.cast.entry_area
        return area, "revised 12.3", f"initial round: the enemy entered from its {area}"
    return "front", "revised 12.3", "front armour (reading: the chapter is silent after the initial round)"


def terrain(dfn: PoolBuilder, d: Direction) -> None:
    """Terrain and fortification dice (12.1.3, 12.1.3.1, 12.1.3.2)."""
    cast, s = d.cast, d.situation
    fort = cast.fortification
    if d.kind != V2_FIRST:
        dfn.add(cast.strongest_hex_die(), "revised 12.1.3",
                "both units: the strongest terrain die" + (f" ({fort.name})" if fort else ""))
        return
    if d.y == D1:
        if fort is not None:
            area = cast.entry_area
            dfn.add(fort.dice(area), "revised 12.1.3.1", f"{fort.name}, attacked from its {area}")
        else:
            dfn.add(cast.hex_dice(), "revised 12.1.3.1", f"terrain {s.terrain}")
        return
    dfn.add(ASSAULT_BLUE_DIE, "revised 12.1.3.2", "assault unit: no terrain dice, one blue die")
    if fort is not None:
        dfn.add(strongest(cast.aid.terrain_defence(s.terrain, False), cast.dice), "revised 12.1.3.2",
                f"defenders in a fortification: strongest die of the primary terrain ({s.terrain})")


def doubles(atk: PoolBuilder, d: Direction) -> str:
    """How the attacker's double successes count (12.1, 12.1.2, 12.1.2.2; rulings #2)."""
    mode = "all"
    if d.x_half:
        mode = "strongest"
        atk.note("revised 12.1, 10.8.1", "half strength", "doubles count once (strongest)")
    if d.kind == V2_FIRST and d.x == D1 and d.situation.defender_activated:
        mode = "strongest"
        atk.note("revised 12.1.2.2", "already activated: only half success symbols count",
                 "doubles count once (strongest)")
    if d.X.is_vehicle and d.Y.is_infantry:
        mode = "strongest"
        atk.note("revised 12.1.2", "vehicle against infantry", "doubles count once (strongest)")
    return mode


def rerolls(atk: PoolBuilder, dfn: PoolBuilder, d: Direction) -> tuple[int, int]:
    """Re-rolls (12.1.1.1, 12.1.2, 12.1.2.1, 12.1.3; rulings #11)."""
    cast = d.cast
    attack = defence = 0
    first = d.kind == V2_FIRST
    if first and cast.supported[cast.side_of(d.x)]:
        attack += 1
        atk.note("revised 12.1.1.1", f"supported by {cast.supports[cast.side_of(d.x)].id}", "+1 re-roll")
    if first and d.x == A1 and cast.outflanked:
        attack += 1
        atk.note("revised 12.1.2.1", "outflanked defender", "+1 re-roll")
    if d.Y.is_vehicle and d.y_immobilised:
        attack += 1
        atk.note("revised 12.1.2", "against an immobilised vehicle (every round)", "+1 re-roll")
    if first and cast.supported[cast.side_of(d.y)]:
        defence += 1
        dfn.note("revised 12.1.1.1", f"supported by {cast.supports[cast.side_of(d.y)].id}", "+1 re-roll")
    return attack, defence


def adrenaline(dfn: PoolBuilder, d: Direction) -> int:
    """12.1.5: the adrenaline rush lasts the initial round only."""
    if d.kind == V2_FIRST:
        dfn.note("revised 12.1.5", "adrenaline rush (initial round only)", "ignores 1 supp")
        return 1
    return 0


EDITION_RULES["v2"] = sys.modules[__name__]     # the pool assembly finds this edition's rules here
