"""Indirect fire (7.0-7.4, German text 003; the English text lost it).

What :func:`~simulator.games.assault.rules.pools.fire_pools` changes when a question is indirect
fire (``FireSituation(indirect=True)``):

- 7.1: only a unit whose card has indirect fire (support 'S', dice on the card back)
  may fire it; one range band and one pool, whatever the target; not from a hex of
  heavy forest or a wooden/stone building; the firer needs its own LOS or a spotter.
- 7.2: the spotter is a friendly infantry or artillery unit adjacent to the firer.
- 7.0: the firer is marked *firing*, so the fire-status column gives nothing.
- 7.1: hindered LOS gives the defender no dice.
- 7.3: a vehicle always defends with its "above" dice, plus a bonus die when one of
  them is blue; the attack dice are rolled once and those without a damage symbol set
  aside, the rest rolled again as the real attack (see :mod:`~simulator.games.assault.rules.set_aside`).
- 7.4: results as in 10.7.

The terrains, colours and bonus come from ``support.toml`` (:mod:`~simulator.games.assault.rules.support`).
"""

from __future__ import annotations

from simulator.games.assault.rules.cards import UnitCard
from simulator.games.assault.rules.dice import Pool
from simulator.games.assault.rules.support import Support
from simulator.run.errors import InputError

INDIRECT_FIRE_STATUS = "firing"   # 7.0: indirect fire and smoke are marked firing
VEHICLE_FACING = "above"          # 7.3, 10.9.3


def indirect_dice(firer: UnitCard, distance: int, where: str = "--range") -> Pool:
    """The card-back pool for indirect fire at ``distance`` hexes (7.1).

    Raises :class:`InputError` when the unit has no indirect fire or the distance is
    outside its one range band.
    """
    f = firer.indirect_fire
    if f is None:
        raise InputError("--indirect", "", f"{firer.id} has no indirect fire (7.1: only cards "
                         "with indirect-fire dice on the back)")
    if not f.min <= distance <= f.max:
        raise InputError(where, "", f"{firer.id} fires indirectly at {f.min}-{f.max} hexes "
                         f"(7.1), not at {distance}")
    return f.dice


def check_fired_from(firer: UnitCard, firer_terrain: str | None, support: Support) -> None:
    """7.1: no indirect fire (nor smoke, fired the same way, 7.5) from these hexes."""
    if firer_terrain is not None and firer_terrain in support.no_indirect_from:
        raise InputError("--firer-terrain", "", f"no indirect fire from {firer_terrain} (7.1)")


def check_spotter(firer: UnitCard, spotter: UnitCard) -> None:
    """7.1, 7.2: a spotter is a friendly infantry or artillery unit (adjacent to the firer)."""
    if spotter.is_vehicle:
        raise InputError("--spotter", "", f"{spotter.id} is a vehicle: only infantry or artillery "
                         "spot for indirect fire (7.1, 7.2)")
    if spotter.side != firer.side:
        raise InputError("--spotter", "", f"{spotter.id} is not on {firer.id}'s side (7.1)")
    if spotter.id == firer.id:
        raise InputError("--spotter", "", "the firer spots for itself without --spotter (7.2)")


def vehicle_bonus(target: UnitCard, support: Support) -> Pool:
    """7.3: the bonus die of a vehicle whose "above" dice include the trigger colour."""
    above = target.defence_dice(VEHICLE_FACING)
    return support.vehicle_bonus if support.vehicle_bonus_if in above else ()
