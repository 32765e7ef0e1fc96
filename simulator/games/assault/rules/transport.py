"""Transported units and tank riders under ranged fire (10.10, 9.11; 7.3 for indirect fire).

Two ways fire reaches passengers:

- The transporting vehicle is the target (:data:`CARRIED`). Passengers are untouched
  unless the vehicle is hit: if it takes an uncancelled critical hit in the main roll
  (not in the critical-hit roll of 10.7.6) or is destroyed, every passenger is flipped
  to half strength, or eliminated if already at half strength (10.10.2); the survivors,
  and the passengers of a vehicle that is immobilised, damaged or suppressed, make an
  emergency disembark (10.10.3).
- Tank riders are the target (:data:`RIDERS_TARGETED`, 10.10.1): they defend with their
  card dice only and must make an emergency disembark after any uncancelled symbol.

:func:`transport_event` is the one rule both the exact calculator and the Monte Carlo
kernel call (numba, ints only). The rest checks the load (9.11, 9.11.1) and turns event
probabilities into per-passenger outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba

from simulator.games.assault.rules.cards import UnitCard
from simulator.run.errors import InputError

# Who the fire is aimed at, as far as passengers go
NO_PASSENGERS, CARRIED, RIDERS_TARGETED = 0, 1, 2
# What happens to the passengers in one trial
ABOARD, DISEMBARK, FLIPPED = 0, 1, 2
N_EVENTS = 3
EVENT_NAMES = ("aboard", "emergency disembark", "flipped to half strength, then disembark")


@numba.njit(cache=True)
def transport_event(mode, crit, hit, supp, eliminated, damage, morale, immobilised,
                    damage0, morale0, immobilised0):
    """What one roll does to the passengers (10.10.1-10.10.3).

    ``crit, hit, supp``: the main roll's uncancelled symbols; ``eliminated, damage,
    morale, immobilised``: the target's state after the fire; ``*0``: before it.
    """
    if mode == CARRIED:
        if eliminated == 1 or crit > 0:                          # 10.10.2
            return FLIPPED
        if damage > damage0 or morale != morale0 or immobilised != immobilised0:   # 10.10.3
            return DISEMBARK
        return ABOARD
    if mode == RIDERS_TARGETED and crit + hit + supp > 0:         # 10.10.1
        return DISEMBARK
    return ABOARD


# Why a unit may not ride in a vehicle (9.11, 9.11.1)
RIDE_OK, RIDE_VEHICLE, RIDE_NOT_INFANTRY = 0, 1, 2


@numba.njit(cache=True)
def ride_refusal(tank_riders, is_vehicle, is_infantry):
    """Whether a unit may ride in a vehicle at all (9.11: infantry and artillery are
    carried, not vehicles; 9.11.1: tank riders, on a vehicle that carries them, are
    infantry): ``RIDE_OK`` or the reason it may not. The one statement of the rule:
    the set-up check (:func:`check_load`) and the game's loading
    (``simulator.games.assault.game.transport.may_load``) both ask it."""
    if is_vehicle:
        return RIDE_VEHICLE
    if tank_riders and not is_infantry:
        return RIDE_NOT_INFANTRY
    return RIDE_OK


@numba.njit(cache=True)
def within_capacity(load, capacity):
    """9.11: the strength points aboard (each passenger's :attr:`Passenger.load`) fit
    the vehicle's transport capacity."""
    return load <= capacity


@dataclass(frozen=True)
class Passenger:
    card: UnitCard
    damage: int = 0

    @property
    def half_strength(self) -> bool:
        return self.damage >= self.card.half_strength_threshold

    @property
    def load(self) -> int:
        """Transport points it takes: nominal full or half strength, damage ignored (9.11)."""
        return self.card.half_strength if self.half_strength else self.card.strength


def parse_passenger(text: str, where: str = "--passengers") -> tuple[str, int]:
    """``"german/rifles-41"`` or ``"german/rifles-41:2"`` (2 damage points) -> (id, damage)."""
    unit_id, sep, dmg = text.strip().partition(":")
    if not unit_id:
        raise InputError(where, "", f"cannot read {text!r} (expected UNIT or UNIT:DAMAGE)")
    if not sep:
        return unit_id, 0
    try:
        damage = int(dmg)
    except ValueError:
        raise InputError(where, "", f"cannot read the damage in {text!r} (expected UNIT:DAMAGE)") from None
    return unit_id, damage


def check_load(vehicle: UnitCard, passengers: list[Passenger], where: str = "--passengers") -> None:
    """The load must be legal (9.11, 9.11.1): capacity, who may ride, damage in range."""
    capacity = vehicle.transport_capacity
    if not vehicle.is_vehicle or capacity == 0:
        raise InputError(where, "", f"{vehicle.id} transports no units (9.11, 9.11.1)")
    for p in passengers:
        c = p.card
        why = ride_refusal(vehicle.carries_tank_riders, c.is_vehicle, c.is_infantry)
        if why == RIDE_VEHICLE:
            raise InputError(where, "", f"{c.id} is a vehicle: only infantry and artillery are carried (9.11)")
        if why == RIDE_NOT_INFANTRY:
            raise InputError(where, "", f"{vehicle.id} carries tank riders, which must be infantry (9.11.1)")
        if c.side != vehicle.side:
            raise InputError(where, "", f"{c.id} cannot ride in {vehicle.id}: different sides")
        if not 0 <= p.damage < c.strength:
            raise InputError(where, "", f"{c.id} has strength {c.strength}: damage must be 0..{c.strength - 1}")
    load = sum(p.load for p in passengers)
    if not within_capacity(load, capacity):
        raise InputError(where, "", f"{vehicle.id} carries {capacity} strength points; "
                         f"this load is {load} (9.11)")


def check_riders(riders: Passenger, carrier: UnitCard) -> None:
    """10.10.1: only tank riders (on top of an armoured tracked vehicle) can be fired on
    apart from their vehicle; passengers inside a transport cannot."""
    if not carrier.carries_tank_riders:
        raise InputError("--riding-on", "", f"{carrier.id} carries no tank riders: passengers inside "
                         "a transport cannot be fired on apart from it (10.10, 9.11.1)")
    check_load(carrier, [riders], "--riding-on")


def disembark_marker(card: UnitCard) -> str:
    """The marker of an emergency disembark (10.10.3): fast action, or delayed action
    for slow artillery. (Disembarking into harsh terrain also gives delayed action: a
    question for the map, not modelled here.)"""
    return "delayed action" if card.is_artillery and card.slow else "fast action"


def passenger_outcomes(p_event: list[float], passengers: list[Passenger]) -> list[dict]:
    """Per passenger of a fired-on transport: P(stays aboard), P(emergency disembark),
    P(flipped to half strength), P(eliminated) (10.10.2, 10.10.3)."""
    aboard, disembark, flipped = p_event
    out = []
    for p in passengers:
        half = p.half_strength
        out.append({"unit": p.card.id, "damage_before": p.damage, "half_strength_before": half,
                    "p_aboard": aboard,
                    "p_emergency_disembark": disembark + (0.0 if half else flipped),
                    "p_flipped_to_half": 0.0 if half else flipped,
                    "p_eliminated": flipped if half else 0.0,
                    "disembark_marker": disembark_marker(p.card)})
    return out


def p_any_disembark(p_event: list[float], passengers: list[Passenger]) -> float:
    """P(at least one passenger must make an emergency disembark) (10.10.3)."""
    if not passengers:
        return 0.0
    survivors = any(not p.half_strength for p in passengers)
    return p_event[DISEMBARK] + (p_event[FLIPPED] if survivors else 0.0)
