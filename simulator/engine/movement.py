"""Movement (chapter 9): reachable hexes with their cost, vehicles' facing and
reversing, harsh terrain, hills, roads, stacking, loading and dismounting.

The rules implemented, each in one place:

- allowance (9.1-9.3, 9.10): normal = the card's; fast = +1; move and fire / fire and
  move = half, rounded up; reversing halves what is left, rounded up
  (:func:`movement_allowance`);
- terrain costs per movement type and the hill's extra cost unless moving within the
  same hill (9.4, 9.6.1) come precompiled in ``CompiledMap.move_cost``;
- harsh terrain (9.5): a hex whose cost exceeds the card's BASE allowance may only be
  entered from the hex the unit starts in, as its only hex; the move ends there with a
  delayed action; not possible in a fast move (our reading: fast and delayed are two
  different actions) nor, therefore, by the extra point of a fast action;
- no fast action may climb a hill (9.6.1 footnote);
- stacking (9.0): friendly units may be passed through but not ended on, unless the hex
  is a transport to load onto (``may_end``); enemy hexes cannot be entered (close
  combat is another action);
- vehicles (9.10) always face a vertex and move only into their two frontal hexes, or
  their two rear hexes when reversing; changing facing by one vertex in a hex is free,
  each further vertex in the same hex costs 1 (German 9.10: "im selben Hex"); in a road
  hex facing changes are free (9.1, 9.10).

:func:`move_options` gives every end position with its cost, path and facing;
:func:`reachable` the cheapest cost per hex. Both use the njit kernel
:func:`movement_kernel`, which the engine may call directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np
from numba import njit

from simulator.assault.cards import VEHICLE_MOVEMENT, UnitCard
from simulator.engine.core.compiled import CompiledMap

UNREACHED = np.iinfo(np.int16).max
MOVE_MODES = ("normal", "fast", "move-and-fire", "fire-and-move")


def movement_allowance(card: UnitCard, mode: str = "normal", reverse: bool = False) -> int:
    """Movement points for one move (9.1 normal, 9.2 fast +1, 9.3 half rounded up;
    9.10 reversing halves, rounded up)."""
    if mode not in MOVE_MODES:
        raise ValueError(f"unknown movement mode {mode!r} ({', '.join(MOVE_MODES)})")
    mp = card.movement
    if mode == "fast":
        mp += 1
    elif mode in ("move-and-fire", "fire-and-move"):
        mp = -(-mp // 2)
    if reverse:
        mp = -(-mp // 2)
    return mp


# --- the kernel ---------------------------------------------------------------------

@njit(cache=True)
def movement_kernel(move_cost, neighbours, climb, free_facing, m: int, start: int,  # noqa: C901 - compiled rule, split in issue 17 item 3
                    facing: int, vehicle: bool, reverse: bool, allowance: int, base: int,
                    fast: bool, blocked, occupied, may_end):
    """Cheapest costs from ``start`` (9.x). Arrays over states ``(hex, facing)``:

    returns ``(cost, pred, harsh)`` with ``cost[h, f]`` int16 (UNREACHED if not reached;
    for non-vehicles only ``f = 0`` is used), ``pred[h, f]`` the state index
    ``g * 6 + f'`` it was reached from (-1 at the start), and ``harsh[h, f]`` True for
    an end by harsh-terrain entry (9.5; cost = the whole allowance). End positions are
    the reached states whose hex is not ``occupied`` (unless ``may_end``); the start
    counts as an end. ``blocked`` hexes (enemy units) are never entered."""
    n = neighbours.shape[0]
    cost = np.full((n, 6), UNREACHED, dtype=np.int16)
    pred = np.full((n, 6), -1, dtype=np.int64)
    harsh = np.zeros((n, 6), dtype=np.bool_)
    # states (h, f, turned): turned = the free vertex change in this hex is used
    best = np.full((n, 6, 2), UNREACHED, dtype=np.int64)
    bpred = np.full((n, 6, 2), -1, dtype=np.int64)
    size = n * 12 + 1
    queue = np.empty(size, dtype=np.int64)
    inq = np.zeros((n, 6, 2), dtype=np.bool_)
    f0 = facing if vehicle else 0
    best[start, f0, 0] = 0
    head = 0
    tail = 0
    queue[tail] = (start * 6 + f0) * 2
    tail += 1
    inq[start, f0, 0] = True
    count = 1
    while count > 0:
        s = queue[head]
        head = (head + 1) % size
        count -= 1
        t = s % 2
        f = (s // 2) % 6
        h = s // 12
        inq[h, f, t] = False
        c = best[h, f, t]
        here = (h * 6 + f) * 2 + t
        # turning in place (vehicles): one vertex either way
        if vehicle:
            for turn in (1, 5):
                nf = (f + turn) % 6
                w = 0 if (free_facing[h] or t == 0) else 1
                nt = t if free_facing[h] else 1
                nc = c + w
                if nc <= allowance and nc < best[h, nf, nt]:
                    best[h, nf, nt] = nc
                    bpred[h, nf, nt] = here
                    if not inq[h, nf, nt]:
                        queue[(head + count) % size] = (h * 6 + nf) * 2 + nt
                        count += 1
                        inq[h, nf, nt] = True
        # moving to a neighbour
        for k in range(6 if not vehicle else 2):
            if vehicle:
                d = (f + k + (3 if reverse else 0)) % 6
            else:
                d = k
            g = neighbours[h, d]
            if g < 0 or blocked[g]:
                continue
            w = move_cost[m, h, d]
            if w < 0:
                continue
            if fast and climb[h, d]:
                continue  # 9.6.1: no fast action up a hill
            if w > base:
                # 9.5: harsh terrain, only as the one hex of a move from the start hex
                if h == start and not fast and not occupied[g] and allowance > 0 \
                        and not harsh[g, f]:
                    harsh[g, f] = True
                    cost[g, f] = allowance
                    pred[g, f] = here
                continue
            nc = c + w
            if nc <= allowance and nc < best[g, f, 0]:
                best[g, f, 0] = nc
                bpred[g, f, 0] = here
                if not inq[g, f, 0]:
                    queue[(head + count) % size] = (g * 6 + f) * 2
                    count += 1
                    inq[g, f, 0] = True
    # collapse the 'turned' flag; keep harsh ends apart
    for h in range(n):
        for f in range(6):
            if harsh[h, f]:
                continue
            c0 = best[h, f, 0]
            c1 = best[h, f, 1]
            if c0 == UNREACHED and c1 == UNREACHED:
                continue
            if occupied[h] and not may_end[h] and h != start:
                continue
            if c0 <= c1:
                cost[h, f] = c0
                pred[h, f] = bpred[h, f, 0]
            else:
                cost[h, f] = c1
                pred[h, f] = bpred[h, f, 1]
    return cost, pred, harsh, bpred


# --- Python interface -----------------------------------------------------------------

@dataclass(frozen=True)
class MoveOption:
    """One way to end a move: where, facing (vehicles), cost, and the hexes entered."""

    hex: int
    cost: int
    facing: int | None
    path: tuple[int, ...]  # hexes entered, in order (not the start hex)
    harsh: bool  # ends by entering harsh terrain: delayed action (9.5)


def _mask(cm: CompiledMap, hexes: Iterable[int | str]) -> np.ndarray:
    out = np.zeros(cm.n, dtype=np.bool_)
    for h in hexes:
        out[cm.index_of(h) if isinstance(h, str) else int(h)] = True
    return out


def _run(cm, start, movement_type, allowance, base_allowance, fast, facing, reverse,
         friendly, enemy, may_end):
    start = cm.index_of(start) if isinstance(start, str) else int(start)
    vehicle = movement_type in VEHICLE_MOVEMENT
    if vehicle and facing is None:
        raise ValueError("a vehicle moves from a facing (9.10): give facing=0..5")
    if reverse and not vehicle:
        raise ValueError("only vehicles reverse (9.10)")
    m = cm.movement_type_index(movement_type)
    base = allowance if base_allowance is None else base_allowance
    out = movement_kernel(cm.move_cost, cm.neighbours, cm.climb, cm.free_facing, m, start,
                          -1 if facing is None else int(facing), vehicle, reverse,
                          int(allowance), int(base), fast, _mask(cm, enemy),
                          _mask(cm, friendly), _mask(cm, may_end))
    return start, vehicle, out


def move_options(cm: CompiledMap, start: int | str, movement_type: str, allowance: int, *,
                 base_allowance: int | None = None, fast: bool = False,
                 facing: int | None = None, reverse: bool = False,
                 friendly: Iterable = (), enemy: Iterable = (),
                 may_end: Iterable = ()) -> list[MoveOption]:
    """Every end position of one move, cheapest first (see the module docstring).

    ``allowance``: the movement points of this move (:func:`movement_allowance`);
    ``base_allowance``: the card's base allowance, for harsh terrain (9.5; default
    ``allowance``); ``facing``: the vehicle's facing (required for wheeled and tracked);
    ``friendly`` / ``enemy``: hexes holding other units (indices or names); ``may_end``:
    friendly hexes the unit may end in (a transport it loads onto, 9.11.2)."""
    start, vehicle, (cost, pred, harsh, bpred) = _run(
        cm, start, movement_type, allowance, base_allowance, fast, facing, reverse,
        friendly, enemy, may_end)
    out = []
    for h, f in np.argwhere(cost != UNREACHED):
        if not vehicle and f != 0:
            continue
        path = _path(int(h), int(f), pred, bpred, bool(harsh[h, f]), start)
        out.append(MoveOption(int(h), int(cost[h, f]), int(f) if vehicle else None,
                              path, bool(harsh[h, f])))
    out.sort(key=lambda o: (o.cost, o.hex, -1 if o.facing is None else o.facing))
    return out


def _path(h: int, f: int, pred, bpred, harsh: bool, start: int) -> tuple[int, ...]:
    hexes = [h]
    s = pred[h, f]
    # pred of a collapsed/harsh end is a state index (g * 6 + f) * 2 + t into bpred
    while s >= 0:
        g = s // 12
        if g != hexes[-1]:
            hexes.append(g)
        s = bpred[g, (s // 2) % 6, s % 2]
    hexes.reverse()
    if hexes and hexes[0] == start:
        hexes = hexes[1:]
    return tuple(hexes)


def reachable(cm: CompiledMap, start: int | str, movement_type: str, allowance: int,
              **kwargs) -> dict[int, int]:
    """``{hex: cheapest cost}`` of every hex a move can end in (the start hex with cost
    0 included). Same arguments as :func:`move_options`; harsh-terrain ends (9.5) are
    included with the whole allowance as their cost."""
    out: dict[int, int] = {}
    for o in move_options(cm, start, movement_type, allowance, **kwargs):
        if o.hex not in out or o.cost < out[o.hex]:
            out[o.hex] = o.cost
    return out


def harsh_hexes(cm: CompiledMap, start: int | str, movement_type: str, allowance: int,
                **kwargs) -> set[int]:
    """The hexes this move can only enter as harsh terrain (9.5): delayed action."""
    return {o.hex for o in move_options(cm, start, movement_type, allowance, **kwargs)
            if o.harsh}


# --- transport (9.11) -----------------------------------------------------------------

# 9.11.2: a transport with one of these markers cannot take units aboard
NO_LOADING_MARKERS = frozenset({"delayed", "suppressed", "fallback", "immobilised",
                                "close-combat", "fast"})
# 9.11.4 (German text): immobile artillery with one of these cannot be loaded
NO_LOADING_IMMOBILE = frozenset({"delayed", "suppressed", "fallback", "close-combat"})


def transport_load(card: UnitCard, half_strength: bool) -> int:
    """Strength points a passenger takes up (9.11): full strength counts in full, a
    half-strength unit as its half strength; damage is otherwise ignored."""
    return card.half_strength if half_strength else card.strength


def can_load(vehicle: UnitCard, vehicle_markers: Iterable[str],
             aboard: Iterable[tuple[UnitCard, bool]], passenger: UnitCard,
             passenger_half: bool = False, passenger_markers: Iterable[str] = ()) -> tuple[bool, str]:
    """Whether ``passenger`` may load onto ``vehicle`` now (9.11, 9.11.1, 9.11.2,
    9.11.4), with the reason when not. ``aboard``: (card, at half strength) of the units
    already loaded."""
    if vehicle.transport_capacity == 0:
        return False, f"{vehicle.id} has no transport capacity (9.11)"
    if passenger.is_vehicle:
        return False, "only infantry and artillery are transported (9.11)"
    if vehicle.carries_tank_riders and not passenger.is_infantry:
        return False, f"{vehicle.id} carries tank riders, which must be infantry (9.11.1)"
    bad = set(vehicle_markers) & NO_LOADING_MARKERS
    if bad:
        return False, f"the transport is marked {', '.join(sorted(bad))} (9.11.2)"
    if passenger.immobile:
        bad = set(passenger_markers) & NO_LOADING_IMMOBILE
        if bad:
            return False, f"immobile artillery marked {', '.join(sorted(bad))} cannot be loaded (9.11.4)"
    used = sum(transport_load(c, half) for c, half in aboard)
    need = transport_load(passenger, passenger_half)
    if used + need > vehicle.transport_capacity:
        return False, (f"{used} + {need} strength points exceed the capacity "
                       f"{vehicle.transport_capacity} of {vehicle.id} (9.11)")
    return True, ""


def loading_marker(vehicle: UnitCard, passenger: UnitCard) -> str | None:
    """Marker the TRANSPORT gets when loading: immobile artillery is loaded by the
    transport moving into its hex, which ends the transport's activation with a delayed
    action (9.11.4); other units load in their own activation (9.11.2): none."""
    return "delayed" if passenger.immobile else None


def dismount_options(cm: CompiledMap, transport_hex: int | str, passenger: UnitCard, *,
                     occupied: Iterable = (), enemy: Iterable = (),
                     transport_moved_into_harsh: bool = False) -> dict[int, str]:
    """``{hex: marker}`` where a passenger may dismount (9.11.3, 9.11.5): an adjacent hex
    its movement type may enter, holding no unit (stacking, enemy), with the marker it
    gets: ``fast`` for infantry, ``delayed`` for slow or immobile artillery or into harsh
    terrain (9.5), else ``fast``. Immobile artillery cannot be unloaded when its transport
    moved into harsh terrain this turn (9.11.5)."""
    if passenger.immobile and transport_moved_into_harsh:
        return {}
    h = cm.index_of(transport_hex) if isinstance(transport_hex, str) else int(transport_hex)
    taken = _mask(cm, occupied) | _mask(cm, enemy)
    m = cm.movement_type_index(passenger.movement_type)
    out = {}
    for d in range(6):
        g = int(cm.neighbours[h, d])
        if g < 0 or taken[g] or cm.move_cost[m, h, d] < 0:
            continue
        harsh = cm.move_cost[m, h, d] > passenger.movement
        if harsh or passenger.immobile or (passenger.is_artillery and passenger.slow):
            out[g] = "delayed"
        else:
            out[g] = "fast"
    return out
