"""Before turn 1 and for reinforcements: formation cards (5.6, 5.7) and placing units in their
zones (5.8)."""

from __future__ import annotations

import numpy as np

from simulator.engine.core.compiling import int64_constants, push, rule, rule_inlined
from simulator.games.assault.game.board import empty, put
from simulator.games.assault.game.events import (
    EV_CLASS_DRAW,
    EV_FORMATION,
    EV_PLACE,
    log_event,
)
from simulator.games.assault.game.phases.initiative import roll_off
from simulator.games.assault.game.state import (
    ABSENT,
    AUX_FST,
    AUX_OBJ,
    CARRIED,
    G_CP0,
    G_DECIDER,
    G_PLACE_SIDE,
    G_SETUP_FIRST,
    G_STAGE,
    G_STEPS,
    G_SUB,
    G_TARGET,
    G_TURN,
    INFANTRY,
    K_FORM,
    K_PLACE,
    K_SETUP_FIRST,
    NIL,
    NO_FACING,
    PENDING,
    SUB_PLACE,
    SUB_SETUP_ORDER,
    SUB_TURN_START,
    TO_PLACE,
    U_ARRIVE,
    U_CARRIER,
    U_FACE,
    U_FORM,
    U_SIDE,
    U_ST,
    U_TYPE,
    U_ZONE,
    a_arg,
    a_unit,
    action,
    place_arg,
    place_facing,
    place_hex,
)
from simulator.games.assault.game.tables import (
    D_COUNT,
    D_METHOD,
    FO_CLASS,
    FO_CP,
    FO_DRAW,
    FO_SIDE,
    FO_TYPE,
    FO_ZONE,
    HI_STAND,
    METHOD_DOUBLE,
    METHOD_DRAW,
    OB_START,
    P_N_FORMS,
    P_N_OBJ,
    P_N_UNITS,
    P_SETUP_FIRST,
    P_TRANSPORT,
    SL_ARRIVE,
    SL_CARRIER,
    SL_FORM,
    SL_GROUP,
    SL_SIDE,
    UT_KIND,
    UT_MTYPE,
    draw,
    form,
    obj,
    slot,
    zone_hex,
    zone_hi,
    zone_lo,
)
from simulator.run.rng import below


@rule
def place_actions(s, t, u, out, n):
    """5.8: a free hex of the unit's zone whose terrain it may enter; artillery and
    vehicles also choose the vertex they face."""
    ty = s.u[u, U_TYPE]
    mt = t.ut[ty, UT_MTYPE]
    facings = t.ut[ty, UT_KIND] != INFANTRY
    z = s.u[u, U_ZONE]
    for i in range(zone_lo(t, z), zone_hi(t, z)):
        h = zone_hex(t, i)
        if not empty(s, h) or t.hexi[h, HI_STAND + mt] == 0:
            continue
        if facings:
            for f in range(6):
                n = push(out, n, action(K_PLACE, u, place_arg(h, f)))
        else:
            n = push(out, n, action(K_PLACE, u, place_arg(h, NO_FACING)))
    return n


@rule
def any_place(s, t, u):
    """Whether the unit has a hex to be placed in (5.8)."""
    mt = t.ut[s.u[u, U_TYPE], UT_MTYPE]
    z = s.u[u, U_ZONE]
    for i in range(zone_lo(t, z), zone_hi(t, z)):
        h = zone_hex(t, i)
        if empty(s, h) and t.hexi[h, HI_STAND + mt] == 1:
            return True
    return False


@rule
def next_to_place(s, side):
    for u in range(s.u.shape[0]):
        if s.u[u, U_ST] == TO_PLACE and s.u[u, U_SIDE] == side:
            return u
    return -1


@rule
def apply_place(s, t, a):
    """5.8: place a unit in a hex of its set-up (or entry) zone, facing a vertex."""
    u = a_unit(a)
    arg = a_arg(a)
    h = place_hex(arg)
    f = place_facing(arg)
    put(s, u, h)
    if f != NO_FACING:
        s.u[u, U_FACE] = f
    log_event(s, EV_PLACE, u, h, f, NIL, NIL, NIL)
    if t.p[P_TRANSPORT] == 1:                      # 9.11: a reinforcement's passengers come aboard
        for p in range(s.u.shape[0]):
            if s.u[p, U_ST] == PENDING and slot(t, p, SL_CARRIER) == u:
                s.u[p, U_ST] = CARRIED
                s.u[p, U_CARRIER] = u
    side = s.u[u, U_SIDE]
    other = 1 - side
    if next_to_place(s, other) >= 0:               # 5.8: the players alternate
        s.g[G_PLACE_SIDE] = other
    elif next_to_place(s, side) >= 0:
        s.g[G_PLACE_SIDE] = side
    else:
        s.g[G_SUB] = SUB_TURN_START


@rule
def place_step(s, t):
    """A placement decision is pending unless the unit has nowhere to go: a reinforcement
    with its entry hexes all taken waits for the next turn (reading)."""
    side = s.g[G_PLACE_SIDE]
    u = next_to_place(s, side)
    if u < 0:
        other = 1 - side
        if next_to_place(s, other) >= 0:
            s.g[G_PLACE_SIDE] = other
            return False
        s.g[G_SUB] = SUB_TURN_START
        return False
    if not any_place(s, t, u):
        if s.g[G_STAGE] == 1:
            s.u[u, U_ST] = PENDING
            s.u[u, U_ARRIVE] = s.g[G_TURN] + 1
        else:
            s.u[u, U_ST] = ABSENT                   # nowhere to set up: the unit stays out
            for p in range(s.u.shape[0]):           # and so do its passengers (9.11)
                if s.u[p, U_ST] == CARRIED and s.u[p, U_CARRIER] == u:
                    s.u[p, U_ST] = ABSENT
        return False
    s.g[G_DECIDER] = side
    return True


@rule
def keep_formation(s, t, f):
    """5.6: a side keeps formation card ``f`` from those it may choose among."""
    s.aux[AUX_FST, f] = 2
    side = form(t, f, FO_SIDE)
    log_event(s, EV_FORMATION, side, f, NIL, NIL, NIL, NIL)
    s.g[G_CP0 + side] += form(t, f, FO_CP)
    for u in range(s.u.shape[0]):
        if s.u[u, U_FORM] == f and s.u[u, U_ARRIVE] == 0 and s.u[u, U_ST] == ABSENT:
            s.u[u, U_ST] = TO_PLACE
            s.u[u, U_ZONE] = form(t, f, FO_ZONE)
    s.g[G_STEPS] -= 1                               # cards still to keep of this kind


@rule
def draw_cards(s, t, side, kind, k, mark):
    """Draw ``k`` cards at random from the side's deck of this kind; mark them."""
    for _ in range(k):
        n = 0
        for f in range(t.p[P_N_FORMS]):
            if form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind and s.aux[AUX_FST, f] == 0:
                n += 1
        if n == 0:
            return
        pick = below(s.rng[0], n)
        for f in range(t.p[P_N_FORMS]):
            if form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind and s.aux[AUX_FST, f] == 0:
                if pick == 0:
                    s.aux[AUX_FST, f] = mark
                    break
                pick -= 1


@rule
def formation_step(s, t):
    """5.6: the formation draws, one side and card type at a time. ``G_STAGE`` walks
    (side, kind); returns True when a side must choose a card."""
    while s.g[G_STAGE] < 6:
        side = s.g[G_STAGE] // 3
        kind = s.g[G_STAGE] % 3
        count = draw(t, side, kind, D_COUNT)
        method = draw(t, side, kind, D_METHOD)
        if s.g[G_STEPS] == -1:                      # first visit of this (side, kind)
            s.g[G_STEPS] = count
            if count > 0:
                if method == METHOD_DRAW:
                    draw_cards(s, t, side, kind, count, np.int64(1))
                    for f in range(t.p[P_N_FORMS]):
                        if s.aux[AUX_FST, f] == 1 and form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind:
                            keep_formation(s, t, f)
                elif method == METHOD_DOUBLE:
                    draw_cards(s, t, side, kind, 2 * count, np.int64(1))
                else:                                # METHOD_CHOOSE: every card may be chosen
                    for f in range(t.p[P_N_FORMS]):
                        if form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind and s.aux[AUX_FST, f] == 0:
                            s.aux[AUX_FST, f] = 1
        offered = 0
        for f in range(t.p[P_N_FORMS]):
            if s.aux[AUX_FST, f] == 1 and form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind:
                offered += 1
        if s.g[G_STEPS] > 0 and offered > 0:
            s.g[G_TARGET] = kind
            s.g[G_DECIDER] = side
            return True
        for f in range(t.p[P_N_FORMS]):              # the rest: set aside (drawn) or left in the deck
            if s.aux[AUX_FST, f] == 1 and form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind:
                s.aux[AUX_FST, f] = 3 if method == METHOD_DOUBLE else 0
        s.g[G_STAGE] += 1
        s.g[G_STEPS] = -1
    return False


@rule
def draw_reinforcement_cards(s, t):
    """5.7: each reinforcing formation is the top card of the shuffled deck of its type,
    drawn from the cards not in play."""
    n_groups = 0
    for u in range(t.p[P_N_UNITS]):
        if slot(t, u, SL_FORM) >= 0 and slot(t, u, SL_ARRIVE) > 0:
            n_groups = max(n_groups, slot(t, u, SL_GROUP) + 1)
    for grp in range(n_groups):
        side = -1
        kind = -1
        for u in range(t.p[P_N_UNITS]):
            if slot(t, u, SL_GROUP) == grp and slot(t, u, SL_FORM) >= 0 and slot(t, u, SL_ARRIVE) > 0 \
                    and form(t, slot(t, u, SL_FORM), FO_TYPE) != FO_CLASS:     # (class draws: the owner chooses, class_step)
                side = slot(t, u, SL_SIDE)
                kind = form(t, slot(t, u, SL_FORM), FO_TYPE)
                break
        if side < 0:
            continue
        n = 0
        for f in range(t.p[P_N_FORMS]):
            if form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind and s.aux[AUX_FST, f] == 0 \
                    and group_has(t, grp, f):
                n += 1
        if n == 0:
            continue
        pick = below(s.rng[0], n)
        chosen = -1
        for f in range(t.p[P_N_FORMS]):
            if form(t, f, FO_SIDE) == side and form(t, f, FO_TYPE) == kind and s.aux[AUX_FST, f] == 0 \
                    and group_has(t, grp, f):
                if pick == 0:
                    chosen = f
                    break
                pick -= 1
        s.aux[AUX_FST, chosen] = 4
        for u in range(t.p[P_N_UNITS]):
            if slot(t, u, SL_GROUP) == grp and slot(t, u, SL_FORM) == chosen and slot(t, u, SL_ARRIVE) > 0:
                s.u[u, U_ST] = PENDING


@rule
def class_draws(t):
    """How many reinforcements of a unit class several cards match (5.7)."""
    n = 0
    for f in range(t.p[P_N_FORMS]):
        if form(t, f, FO_TYPE) == FO_CLASS:
            n = max(n, form(t, f, FO_DRAW) + 1)
    return n


@rule
def class_step(s, t):
    """5.7 (reading S17): when several cards match the class a reinforcement names, its
    owner chooses one; ``G_STAGE`` 6, 7, ... walks the draws. Returns True when a side
    must choose."""
    while s.g[G_STAGE] < 6 + class_draws(t):
        k = s.g[G_STAGE] - 6
        side = -1
        for f in range(t.p[P_N_FORMS]):
            if form(t, f, FO_TYPE) == FO_CLASS and form(t, f, FO_DRAW) == k:
                side = form(t, f, FO_SIDE)
                if s.g[G_STEPS] == -1:
                    s.aux[AUX_FST, f] = 1                # offered
        if s.g[G_STEPS] == -1:
            s.g[G_STEPS] = 1
        if s.g[G_STEPS] > 0:
            s.g[G_TARGET] = FO_CLASS
            s.g[G_DECIDER] = side
            return True
        for f in range(t.p[P_N_FORMS]):              # the cards not chosen never arrive
            if form(t, f, FO_TYPE) == FO_CLASS and s.aux[AUX_FST, f] == 1:
                s.aux[AUX_FST, f] = 0
        s.g[G_STAGE] += 1
        s.g[G_STEPS] = -1
    return False


@rule
def choose_class_card(s, t, f):
    """The owner's choice among the matching cards: its units arrive as the reinforcement
    (like a reinforcing formation card, 6.7), the others never do."""
    s.aux[AUX_FST, f] = 4
    log_event(s, EV_CLASS_DRAW, form(t, f, FO_SIDE), f, NIL, NIL, NIL, NIL)
    for u in range(t.p[P_N_UNITS]):
        if slot(t, u, SL_FORM) == f:
            s.u[u, U_ST] = PENDING
    s.g[G_STEPS] -= 1


@rule
def group_has(t, grp, f):
    for u in range(t.p[P_N_UNITS]):
        if slot(t, u, SL_GROUP) == grp and slot(t, u, SL_FORM) == f and slot(t, u, SL_ARRIVE) > 0:
            return True
    return False


@rule
def setup_done(s, t):
    """After the formation draws: reinforcement cards, then who sets up first (5.8)."""
    draw_reinforcement_cards(s, t)
    s.g[G_STAGE] = 0
    for k in range(t.p[P_N_OBJ]):                    # 5.5: objectives in a set-up area
        s.aux[AUX_OBJ, k] = obj(t, k, OB_START)
    if t.p[P_SETUP_FIRST] >= 0:
        s.g[G_SETUP_FIRST] = t.p[P_SETUP_FIRST]
        s.g[G_PLACE_SIDE] = t.p[P_SETUP_FIRST]
        s.g[G_SUB] = SUB_PLACE
    else:
        s.g[G_TARGET] = roll_off(s)                 # the winner decides who sets up first
        s.g[G_SUB] = SUB_SETUP_ORDER


int64_constants(globals())


@rule_inlined
def placement_actions(s, t, out):
    """5.8: where the next unit of the placing side goes."""
    u = next_to_place(s, s.g[G_PLACE_SIDE])
    return place_actions(s, t, u, out, NIL)


@rule_inlined
def formation_actions(s, t, out):
    """5.6, 5.7: a card the deciding side may keep among those offered."""
    side = s.g[G_DECIDER]
    n = NIL
    for f in range(t.p[P_N_FORMS]):
        if form(t, f, FO_SIDE) == side and s.aux[AUX_FST, f] == 1 and form(t, f, FO_TYPE) == s.g[G_TARGET]:
            n = push(out, n, action(K_FORM, 0, f))
    return n


@rule_inlined
def apply_formation(s, t, a):
    f = a_arg(a)
    if form(t, f, FO_TYPE) == FO_CLASS:
        choose_class_card(s, t, f)
    else:
        keep_formation(s, t, f)


@rule_inlined
def formation_phase_step(s, t):
    """The formation draws and class draws; when they are done, the set-up goes on.
    Returns True when a side must choose a card."""
    if formation_step(s, t) or class_step(s, t):
        return True
    setup_done(s, t)
    return False


@rule_inlined
def setup_order_actions(s, t, out):
    """5.8: the roll-off's winner names the side that sets up first."""
    n = push(out, NIL, action(K_SETUP_FIRST, 0, 0))
    return push(out, n, action(K_SETUP_FIRST, 0, 1))


@rule_inlined
def setup_order_step(s):
    s.g[G_DECIDER] = s.g[G_TARGET]
    return True


@rule_inlined
def apply_setup_order(s, t, a):
    s.g[G_SETUP_FIRST] = a_arg(a)
    s.g[G_PLACE_SIDE] = a_arg(a)
    s.g[G_SUB] = SUB_PLACE
