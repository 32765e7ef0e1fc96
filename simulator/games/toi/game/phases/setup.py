"""Set-up (001 Setup) and the op-fire placement (001 Setup, last step; Status phase, 3).

In order of initiative each side places all its starting squads in its deployment
zones, one squad a decision (a hex of its zone with room, 001 Setup: stacking), its
vehicles first so that a squad may set up inside a friendly transport standing in its
zone (001 Setup: squads may start deployed in transport vehicles; rulings T41); then, in
order of initiative, each side puts any of its units in op fire mode, one a decision,
until it says it is done. The same placement runs in every status phase, followed by the
squad transfers (001 Status phase, 4; :mod:`.transfer`: a side with no transfer to make is
not asked) and the reinforcements (5).
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, push, rule
from simulator.games.toi.game.events import EV_OPFIRE_SET, EV_PLACE, EV_PLACE_IN, EV_ROUND, log
from simulator.games.toi.game.phases.action import start_action_phase
from simulator.games.toi.game.phases.command import next_round
from simulator.games.toi.game.phases.transfer import any_transfer, do_transfer
from simulator.games.toi.game.state import (
    CARRIED,
    COND_NORMAL,
    G_DECIDER,
    G_INIT,
    G_PHASE,
    G_PLACER,
    G_ROUND,
    G_SUB,
    K_OPFIRE_DONE,
    K_PLACE,
    K_PLACE_IN,
    K_SET_OPFIRE,
    K_TRANSFER,
    LOST,
    ONMAP,
    PH_SETUP,
    SUB_PLACE,
    SUB_SET_OPFIRE,
    SUB_TRANSFER,
    TO_PLACE,
    TOK_FRESH,
    TOK_OPFIRE,
    U_CARRIER,
    U_COND,
    U_HEX,
    U_IN,
    U_MODEL,
    U_SIDE,
    U_ST,
    U_TOKEN,
    U_XFER,
    U_ZONE,
    a_arg,
    a_kind,
    a_unit,
    action,
)
from simulator.games.toi.game.tables import HI_ZONE, P_N_HEX, P_N_UNITS, VT_TRANSPORT
from simulator.games.toi.game.units import carried_by, enemy_in, fort_free, is_vehicle, put, reveal_scan, room_for


@rule
def can_place(s, t, k, h):
    """A hex of the unit's zone with room and no enemy unit (001 Setup; Placing reinforcements)."""
    side = s.u[k, U_SIDE]
    if (t.hexi[h, HI_ZONE] >> s.u[k, U_ZONE]) & 1 == 0:
        return False
    return room_for(s, t, k, h) > 0 and not enemy_in(s, h, side)


@rule
def can_place_in(s, t, k, v):
    """001 Setup: squad ``k`` may start deployed in vehicle ``v``: a friendly transport on the
    map with room left (Transport (N)), in a hex of the squad's zone with no enemy unit; only
    in the set-up (rulings T41: reinforcements come on foot)."""
    if s.g[G_ROUND] != 0 or is_vehicle(s, k) or v == k or not is_vehicle(s, v):
        return False
    if s.u[v, U_ST] != ONMAP or s.u[v, U_SIDE] != s.u[k, U_SIDE]:
        return False
    if carried_by(s, v) >= t.vt[s.u[v, U_MODEL], VT_TRANSPORT]:
        return False
    h = s.u[v, U_HEX]
    return (t.hexi[h, HI_ZONE] >> s.u[k, U_ZONE]) & 1 == 1 and not enemy_in(s, h, s.u[k, U_SIDE])


@rule
def placeable(s, t, k):
    """A hex or, in the set-up, a vehicle for unit ``k``."""
    for h in range(t.p[P_N_HEX]):
        if can_place(s, t, k, h):
            return True
    for v in range(t.p[P_N_UNITS]):
        if can_place_in(s, t, k, v):
            return True
    return False


@rule
def next_to_place(s, t, side):
    """The side's next unit to place, its vehicles first in the set-up (rulings T41); a
    reinforcement with no hex to go to is lost (001 Placing reinforcements: missed
    reinforcements remain lost)."""
    for rank in range(2):
        for k in range(t.p[P_N_UNITS]):
            if s.u[k, U_ST] != TO_PLACE or s.u[k, U_SIDE] != side:
                continue
            if s.g[G_ROUND] == 0 and rank == 0 and not is_vehicle(s, k):
                continue                          # the set-up: vehicles first
            if rank == 1 and (s.g[G_ROUND] != 0 or is_vehicle(s, k)):
                continue                          # already seen in the first pass
            if placeable(s, t, k):
                return k
            s.u[k, U_ST] = LOST
    return -1


@rule
def start_setup(s, t):
    s.g[G_PHASE] = PH_SETUP
    s.g[G_SUB] = SUB_PLACE
    s.g[G_PLACER] = s.g[G_INIT]
    setup_step(s, t)


@rule
def setup_step(s, t):
    """The next side to place, or the op-fire placement once every squad is placed."""
    for _ in range(2):
        if next_to_place(s, t, s.g[G_PLACER]) >= 0:
            s.g[G_DECIDER] = s.g[G_PLACER]
            return
        s.g[G_PLACER] = 1 - s.g[G_PLACER]
    if s.g[G_ROUND] > 0:                      # reinforcements placed: the next round
        reveal_scan(s, t, True)               # 001 Concealed squads: next to an enemy at the status phase's end
        next_round(s, t)
        start_action_phase(s, t)
        return
    s.g[G_SUB] = SUB_SET_OPFIRE               # 001 Setup: op fire, in order of initiative
    s.g[G_PLACER] = s.g[G_INIT]
    s.g[G_DECIDER] = s.g[G_INIT]


@rule
def placement_actions(s, t, out):
    k = next_to_place(s, t, s.g[G_PLACER])
    n = 0
    for h in range(t.p[P_N_HEX]):
        if can_place(s, t, k, h):
            n = push(out, n, action(K_PLACE, k, 2 * h))
            if fort_free(s, t, h) > 0 and not is_vehicle(s, k):   # set up in a fortification of the hex
                n = push(out, n, action(K_PLACE, k, 2 * h + 1))
    for v in range(t.p[P_N_UNITS]):               # 001 Setup: in a transport vehicle (rulings T41)
        if can_place_in(s, t, k, v):
            n = push(out, n, action(K_PLACE_IN, k, v))
    return n


@rule
def apply_place(s, t, a):
    k = a_unit(a)
    if a_kind(a) == K_PLACE_IN:                   # carried from the start (rulings T41)
        v = a_arg(a)
        s.u[k, U_ST] = CARRIED
        s.u[k, U_CARRIER] = v
        s.u[k, U_HEX] = -1
        log(s, EV_PLACE_IN, k, v, 0, 0, 0, 0)
        setup_step(s, t)
        return
    put(s, k, a_arg(a) >> 1)
    s.u[k, U_IN] = a_arg(a) & 1
    s.u[k, U_ST] = ONMAP
    log(s, EV_PLACE, k, a_arg(a) >> 1, a_arg(a) & 1, 0, 0, 0)
    setup_step(s, t)


@rule
def opfire_actions(s, t, out):
    """Units the placing side may put in op fire mode: fresh and not pinned or disrupted
    (001 Squad conditions: Opportunity fire)."""
    side = s.g[G_PLACER]
    n = push(out, 0, action(K_OPFIRE_DONE, 0, 0))
    for k in range(t.p[P_N_UNITS]):
        if (s.u[k, U_ST] == ONMAP and s.u[k, U_SIDE] == side and s.u[k, U_TOKEN] == TOK_FRESH
                and s.u[k, U_COND] == COND_NORMAL):
            n = push(out, n, action(K_SET_OPFIRE, k, 0))
    return n


@rule
def apply_opfire_placement(s, t, a):
    if a_kind(a) == K_SET_OPFIRE:
        k = a_unit(a)
        s.u[k, U_TOKEN] = TOK_OPFIRE
        log(s, EV_OPFIRE_SET, k, 0, 0, 0, 0, 0)
        return
    if s.g[G_PLACER] == s.g[G_INIT]:              # the other side places next
        s.g[G_PLACER] = 1 - s.g[G_INIT]
        s.g[G_DECIDER] = s.g[G_PLACER]
        return
    if s.g[G_ROUND] == 0:                         # the end of the set-up: round 1
        s.g[G_ROUND] = 1
        log(s, EV_ROUND, -1, 1, 0, 0, 0, 0)
        start_action_phase(s, t)
        return
    start_transfers(s, t)                         # 001 Status phase, 4


@rule
def start_transfers(s, t):
    """001 Status phase, 4: squad transfers, in order of initiative."""
    for k in range(t.p[P_N_UNITS]):
        s.u[k, U_XFER] = 0
    s.g[G_SUB] = SUB_TRANSFER
    s.g[G_PLACER] = s.g[G_INIT]
    transfer_step(s, t)


@rule
def transfer_step(s, t):
    """The placing side decides while it has a transfer to make; then the other side; then
    the reinforcements (001 Status phase, 5)."""
    while not any_transfer(s, t, s.g[G_PLACER]):
        if s.g[G_PLACER] != s.g[G_INIT]:
            end_transfers(s, t)
            return
        s.g[G_PLACER] = 1 - s.g[G_INIT]
    s.g[G_DECIDER] = s.g[G_PLACER]


@rule
def end_transfers(s, t):
    s.g[G_SUB] = SUB_PLACE                        # 001 Status phase, 5: reinforcements
    s.g[G_PLACER] = s.g[G_INIT]
    setup_step(s, t)


@rule
def apply_transfer(s, t, a):
    if a_kind(a) == K_TRANSFER:
        do_transfer(s, t, a)
    elif s.g[G_PLACER] == s.g[G_INIT]:            # done: the other side's transfers
        s.g[G_PLACER] = 1 - s.g[G_INIT]
    else:
        end_transfers(s, t)
        return
    transfer_step(s, t)


int64_constants(globals())
