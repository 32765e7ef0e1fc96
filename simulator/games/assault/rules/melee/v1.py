"""First-edition close combat (rule book 1.0, 12.0-12.10): the round rules.

One simultaneous exchange each time a close combat is initiated (12.1), reinforced
(12.2) or renewed (12.3); the close combat goes on from turn to turn until one side has
left the hex or is eliminated (12.6). These functions are the edition's part of
:func:`~simulator.games.assault.rules.melee.situation.direction_pools`; the sequence of exchanges
is in :mod:`simulator.games.assault.rules.melee.fight`.
"""

from __future__ import annotations

import sys

from simulator.games.assault.rules.melee.situation import (
    D1,
    EDITION_RULES,
    V1_INITIATE,
    V1_REINFORCE,
    V1_RENEW,
    Direction,
    PoolBuilder,
    reinforcer,
)

EDITION = "v1"
TRACKS_SECTION = "12.9"
CARD_ATTACK_SECTION = "12.8, 4.2.2"
EXPERIENCE_ATTACK_SECTION = "12.8.4"
EXPERIENCE_DEFENCE_SECTION = "12.7.4"
TERRAIN_SECTION = "12.7.1"


def is_first(kind: int) -> bool:
    return kind == V1_INITIATE


def attack_losses(atk: PoolBuilder, d: Direction) -> None:
    """No first-edition close-combat rule removes attack dice."""


def defence_losses(dfn: PoolBuilder, d: Direction) -> None:
    """No first-edition close-combat rule removes defence dice: the entering unit's
    action marker is replaced by a close-combat marker (12.1)."""


def defence_area(d: Direction) -> tuple[str, str, str]:
    """Which card defence dice a vehicle uses (12.7.3)."""
    if not d.X.is_vehicle:
        return "above", "12.7.3", "a vehicle against infantry uses its above dice"
    if d.y_immobilised:
        return "rear", "12.7.3", "an immobilised vehicle uses its rear dice against vehicles"
    if d.kind == V1_RENEW:
        return "front", "12.7.3", "renewed close combat: front armour"
    if d.kind == V1_INITIATE and d.y == d.cast.defender_slot:
        area = d.cast.entry_area
        return area, "12.7.3", f"the enemy entered from its {area}"
    if d.kind == V1_REINFORCE and d.y != reinforcer(d.x, d.y) and d.situation.reinforce_area:
        area = d.situation.reinforce_area
        return area, "12.7.3", f"reinforced: the enemy entered from its {area}"
    return "front", "12.7.3", "faces the enemy it meets (reading: entering vehicles use the front)"


def terrain(dfn: PoolBuilder, d: Direction) -> None:
    """Terrain defence dice (12.7.1): full for the unit that held the hex when the
    close combat is initiated or reinforced, none for the unit entering, the strongest
    die for both when it is renewed. A fortification counts as the hex's terrain."""
    fort = f" ({d.cast.fortification.name})" if d.cast.fortification else ""
    if d.kind == V1_RENEW:
        dfn.add(d.cast.strongest_hex_die(), "12.7.1", f"renewed: the strongest terrain die{fort}")
    elif d.cast.holds_hex(d.y):
        area = d.situation.reinforce_area if d.kind == V1_REINFORCE else None   # the side entered from
        dfn.add(d.cast.hex_dice(area), "12.7.1", f"held the hex: terrain {d.situation.terrain}{fort}")
    elif d.cast.passenger_in_hex and d.y == D1:
        dfn.note("12.10", "disembarked into the hex: no terrain dice for the initiated close combat")
    else:
        dfn.note("12.7.1", "entered the hex: no terrain dice")


def doubles(atk: PoolBuilder, d: Direction) -> str:
    """How the attacker's double successes count (12.8.1-12.8.3, rulings #2)."""
    s, X, Y = d.situation, d.X, d.Y
    penalties = []
    if d.kind == V1_INITIATE and d.x == D1:
        if d.cast.passenger_in_hex:
            penalties.append(("12.10, 12.8.1", "disembarked with a fast action: already activated"))
        elif s.defender_activated:
            penalties.append(("12.8.1", "already activated when the close combat was initiated"))
    if d.kind == V1_INITIATE and d.x == d.cast.defender_slot and d.cast.outflanked and not X.is_infantry:
        penalties.append(("12.8.2", "outflanked: attacked from outside its arc of fire"))
    if d.kind == V1_REINFORCE and d.x != reinforcer(d.x, d.y) and d.cast.reinforce_outflanks(X):
        penalties.append(("12.8.2", "outflanked: reinforced against from outside its arc of fire"))
    if d.x_immobilised and Y.is_vehicle:
        penalties.append(("12.8.2", "immobilised vehicle against a vehicle: always outflanked"))
    mode = "all"
    if penalties:
        mode = "weakest" if d.x_half else "strongest"
        for section, reason in penalties:
            atk.note(section, f"{reason}, {'half' if d.x_half else 'full'} strength",
                     f"doubles count once ({mode})")
    if X.is_vehicle and Y.is_infantry:
        mode = "weakest" if mode == "weakest" else "strongest"
        atk.note("12.8.3", "vehicle against infantry", f"doubles count once ({mode})")
    return mode


def rerolls(atk: PoolBuilder, dfn: PoolBuilder, d: Direction) -> tuple[int, int]:
    """The first edition has no re-rolls."""
    return 0, 0


def adrenaline(dfn: PoolBuilder, d: Direction) -> int:
    """12.7.2: every unit in close combat ignores one suppression rolled against it."""
    dfn.note("12.7.2", "adrenaline rush (every exchange)", "ignores 1 supp")
    return 1


EDITION_RULES["v1"] = sys.modules[__name__]     # the pool assembly finds this edition's rules here
