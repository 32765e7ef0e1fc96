"""Moving a unit in an Advance, Fire & Movement or Assault action, and op fire
(001 Movement; Moving and opportunity fire; Fire & movement; Assault).

A move is one hex a decision (``K_STEP`` to a neighbour) until the mover stops, has no
MPs for any neighbour, or is stopped by op fire. A squad may not enter a hex with enemy
units and may pass through full friendly hexes but not stop in one; a mover stopped in
a full hex goes back to the last hex of its path with room (001 Setup: stacking). Every
unit may pass through a hex holding only concealed enemy squads, at no extra cost and
without stopping there; one forced to end its move there goes back to the last hex of its
path without enemy units (001 Concealed squads; rulings T43).
After each hex entered the enemy may attack the mover with one unit in op fire mode,
supported by its other units in op fire mode; at most once per hex (001 Opportunity
fire; Moving and op fire). A mover pinned, disrupted or destroyed by it stops and is
fatigued. A Fire & Movement unit fires before or after its move (not in the middle); an
assaulting squad chooses its target hex after the move (:mod:`..assault`).
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, push, rule
from simulator.games.toi.game.assault import start_assault_choice
from simulator.games.toi.game.events import (
    EV_BACK,
    EV_FORT,
    EV_MINES,
    EV_MOVE,
    EV_OVERRUN,
    EV_TRANSPORT,
    REVEAL_OBJECTIVE,
    log,
)
from simulator.games.toi.game.fire import (
    HOW_FIREMOVE,
    HOW_OPFIRE,
    HOW_RAPID,
    ROLE_LEAD,
    attack,
    share,
    supporters_exist,
)
from simulator.games.toi.game.phases.action import end_activation
from simulator.games.toi.game.state import (
    AUX_OPHEX,
    AUX_PATH,
    CARRIED,
    COND_NORMAL,
    COND_PINNED,
    DMG_HEAVY,
    FIRE_RAPID,
    G_ACTION,
    G_ACTIVE,
    G_DMG0,
    G_FIRED,
    G_MOVED,
    G_MP,
    G_NO_ASSAULT,
    G_OPF_SIDE,
    G_OPFIRES,
    G_OPN,
    G_PATHN,
    G_STURDY,
    G_SUB,
    G_UNIT,
    HX_OCC,
    K_ASSAULT,
    K_CUT_WIRE,
    K_DISEMBARK,
    K_EMBARK,
    K_FIREMOVE,
    K_FORT_IN,
    K_FORT_OUT,
    K_NO_OPFIRE,
    K_NOFIRE,
    K_OPFIRE,
    K_SHOOT,
    K_STEP,
    K_STOP,
    MAX_PATH,
    MODE_NORMAL,
    MODE_SUPPRESSIVE,
    ONMAP,
    SUB_AFTER_MOVE,
    SUB_MOVE,
    SUB_OPFIRE,
    TOK_FATIGUED,
    TOK_FRESH,
    TOK_OPFIRE,
    U_CARRIER,
    U_COND,
    U_DMG,
    U_HEX,
    U_IN,
    U_MODEL,
    U_OPHEX,
    U_RAPID,
    U_SIDE,
    U_ST,
    U_TOKEN,
    a_arg,
    a_kind,
    a_unit,
    action,
    fire_arg,
    fire_mode,
    fire_rapid,
    fire_support,
    fire_target,
)
from simulator.games.toi.game.tables import (
    HI_HAS_TRAP,
    HI_MINES,
    HI_OBJ,
    P_ENG_MINES,
    P_FORT_MP,
    P_MINE_DICE,
    P_MINE_FROM,
    P_N_UNITS,
    P_TRANSPORT_MP,
    P_WIRE_MP,
    S6_COST,
    S6_NBR,
    S6_VCOST,
    SPEC_ENGINEER,
    VT_LIGHT,
    VT_OVERRUN,
    VT_TRANSPORT,
)
from simulator.games.toi.game.units import (
    ability,
    carried_by,
    enemy_in,
    fort_free,
    hidden,
    is_vehicle,
    normal_hits,
    over_stacked,
    put,
    remove_wire,
    reveal,
    reveal_scan,
    roll,
    room_for,
    set_condition,
    wire_in,
)


@rule
def step_ok(s, t, k, d):
    """Whether the mover may enter the hex across side ``d`` now (001 Movement)."""
    h = s.u[k, U_HEX]
    y = t.side6[h, d, S6_NBR]
    if y < 0:
        return False
    cost = t.side6[h, d, S6_VCOST] if is_vehicle(s, k) else t.side6[h, d, S6_COST]
    if is_vehicle(s, k) and t.hexi[y, HI_HAS_TRAP] == 1 and s.g[G_PATHN] > 1:
        return False                                    # 001 Tank traps: only from its start hex
    if cost < 0 or s.g[G_PATHN] >= MAX_PATH or s.u[k, U_IN] == 1:
        return False                                    # a squad leaves its fortification first
    foes = visible_foes(s, t, y, 1 - s.u[k, U_SIDE])
    if foes > 0:                                        # no hex with an enemy unit, but a tank's overrun
        if not overruns(s, t, k):
            return False
        cost += foes                                    # 001 Tanks: Overrun, +1 MP each enemy unit
    return cost <= s.g[G_MP]                            # only concealed squads: passed through (rulings T43)


@rule
def visible_foes(s, t, h, foe):
    """Units of side ``foe`` in hex ``h`` that are not concealed: those that close the hex to
    the enemy and that an overrun pays for (001 Concealed squads: enemy units move through
    hexes holding only concealed squads, tank movement is unaffected; rulings T43)."""
    if s.hx[h, HX_OCC + foe] == 0:
        return 0
    n = 0
    for j in range(t.p[P_N_UNITS]):
        if s.u[j, U_ST] == ONMAP and s.u[j, U_HEX] == h and s.u[j, U_SIDE] == foe and not hidden(s, j):
            n += 1
    return n


@rule
def overruns(s, t, k):
    return is_vehicle(s, k) and t.vt[s.u[k, U_MODEL], VT_OVERRUN] == 1


@rule
def may_stop(s, t, k):
    """The mover's hex is not over the stacking limit with it (001 Setup: stacking)."""
    return not over_stacked(s, t, s.u[k, U_HEX], s.u[k, U_SIDE])


@rule
def can_shoot_any(s, t, k, how):
    side = s.u[k, U_SIDE]
    for e in range(t.p[P_N_UNITS]):
        if s.u[e, U_ST] == ONMAP and s.u[e, U_SIDE] != side and share(s, t, k, e, ROLE_LEAD, how)[0] > 0:
            return True
    return False


@rule
def shoot_actions(s, t, k, out, n):
    """Fire & Movement attacks: any enemy in reach, normal or suppressive, no support."""
    side = s.u[k, U_SIDE]
    for e in range(t.p[P_N_UNITS]):
        if s.u[e, U_ST] == ONMAP and s.u[e, U_SIDE] != side and share(s, t, k, e, ROLE_LEAD, HOW_FIREMOVE)[0] > 0:
            n = push(out, n, action(K_SHOOT, k, fire_arg(e, MODE_NORMAL, 0)))
            if not is_vehicle(s, e):
                n = push(out, n, action(K_SHOOT, k, fire_arg(e, MODE_SUPPRESSIVE, 0)))
    return n


@rule
def transport_actions(s, t, k, out):
    """001 Transporting squads in vehicles: a carried squad's move starts by getting out
    (2 MPs, if the hex has room); a squad may get into a friendly transport in its hex
    with room left (2 MPs, and its action is over)."""
    if s.u[k, U_ST] == CARRIED:
        n = push(out, 0, action(K_STOP, k, 0))
        v = s.u[k, U_CARRIER]
        if s.g[G_MP] >= t.p[P_TRANSPORT_MP] and room_for(s, t, k, s.u[v, U_HEX]) > 0:
            n = push(out, n, action(K_DISEMBARK, k, v))
        return n
    return -1


@rule
def embark_actions(s, t, k, out, n):
    if is_vehicle(s, k) or s.g[G_MP] < t.p[P_TRANSPORT_MP] or s.u[k, U_IN] == 1:
        return n
    h = s.u[k, U_HEX]
    for v in range(t.p[P_N_UNITS]):
        if (s.u[v, U_ST] == ONMAP and s.u[v, U_HEX] == h and s.u[v, U_SIDE] == s.u[k, U_SIDE]
                and is_vehicle(s, v) and carried_by(s, v) < t.vt[s.u[v, U_MODEL], VT_TRANSPORT]):
            n = push(out, n, action(K_EMBARK, k, v))
    return n


@rule
def move_actions(s, t, out):
    k = s.g[G_UNIT]
    n = transport_actions(s, t, k, out)
    if n >= 0:
        return n
    n = embark_actions(s, t, k, out, 0)
    any_step = False
    for d in range(6):
        if step_ok(s, t, k, d):
            n = push(out, n, action(K_STEP, k, d))
            any_step = True
    if (may_stop(s, t, k) and not enemy_in(s, s.u[k, U_HEX], s.u[k, U_SIDE])) or not any_step:
        n = push(out, n, action(K_STOP, k, 0))
    h = s.u[k, U_HEX]                                   # 001 Entrenchments & pillboxes: 1 MP in or out
    if s.g[G_MP] >= t.p[P_FORT_MP]:
        if s.u[k, U_IN] == 1:
            n = push(out, n, action(K_FORT_OUT, k, 0))
        elif (fort_free(s, t, h) > 0 and may_stop(s, t, k) and not is_vehicle(s, k)   # vehicles cannot enter
              and not enemy_in(s, h, s.u[k, U_SIDE])):          # not where it may not stop (rulings T43)
            n = push(out, n, action(K_FORT_IN, k, 0))
    if can_cut_wire(s, t, k):
        n = push(out, n, action(K_CUT_WIRE, k, 0))
    if s.g[G_ACTION] == K_FIREMOVE and s.g[G_FIRED] == 0 and s.g[G_MOVED] == 0:
        n = shoot_actions(s, t, k, out, n)          # fire first, then move
    return n


@rule
def can_cut_wire(s, t, k):
    """001 Razor wire: during its Advance, Fire & Movement or Assault action (any move), an
    engineer squad (not pinned or disrupted) or a tank spends 2 MP to remove the wire in its
    hex (rulings T37: not in a hex it is overrunning)."""
    h = s.u[k, U_HEX]
    if s.u[k, U_ST] != ONMAP or not wire_in(s, h) or s.g[G_MP] < t.p[P_WIRE_MP] or enemy_in(s, h, s.u[k, U_SIDE]):
        return False
    if is_vehicle(s, k):
        return t.vt[s.u[k, U_MODEL], VT_LIGHT] == 0          # 001 Tanks: heavy vehicles
    return ability(s, k, SPEC_ENGINEER)


@rule
def opfire_candidates(s, t, mover, out, n):
    """The enemy's op-fire attacks on the mover in its hex (001 Opportunity fire)."""
    side = 1 - s.u[mover, U_SIDE]
    for k in range(t.p[P_N_UNITS]):
        if (s.u[k, U_ST] == ONMAP and s.u[k, U_SIDE] == side and s.u[k, U_TOKEN] == TOK_OPFIRE
                and s.u[k, U_COND] == COND_NORMAL
                and share(s, t, k, mover, ROLE_LEAD, HOW_OPFIRE)[0] > 0):
            if out.shape[0] == 0:
                return 1
            sup = 1 if supporters_exist(s, t, k, mover, HOW_OPFIRE) else 0
            top = MODE_NORMAL if is_vehicle(s, mover) else MODE_SUPPRESSIVE    # 001 step 3
            rapid = rapid_ok(s, t, k, mover)
            for mode in range(MODE_NORMAL, top + 1):
                for su in range(sup + 1):
                    n = push(out, n, action(K_OPFIRE, k, fire_arg(mover, mode, su)))
                    if rapid:
                        n = push(out, n, action(K_OPFIRE, k, fire_arg(mover, mode, su) | FIRE_RAPID))
    return n


@rule
def rapid_ok(s, t, k, mover):
    """001 MG crew: Rapid Op Fire: a squad whose MG crews can fire alone, at a target it has
    not op-fired at so with them this round (multiple attacks, different targets)."""
    if (s.u[k, U_RAPID + (mover >> 6)] >> (mover & 63)) & 1:
        return False
    return share(s, t, k, mover, ROLE_LEAD, HOW_RAPID)[0] > 0


@rule
def opfire_actions(s, t, out):
    n = push(out, 0, action(K_NO_OPFIRE, 0, 0))
    return opfire_candidates(s, t, s.g[G_UNIT], out, n)


@rule
def apply_step(s, t, k, d):
    h = s.u[k, U_HEX]
    y = t.side6[h, d, S6_NBR]
    s.g[G_MP] -= t.side6[h, d, S6_VCOST] if is_vehicle(s, k) else t.side6[h, d, S6_COST]
    s.g[G_MP] -= visible_foes(s, t, y, 1 - s.u[k, U_SIDE])   # an overrun's +1 MP each enemy unit (rulings T43)
    if enemy_in(s, h, s.u[k, U_SIDE]) and overruns(s, t, k):
        overrun_pins(s, t, k, h)                    # 001 Tanks: Overrun, after leaving the hex
    put(s, k, y)
    s.aux[AUX_PATH, s.g[G_PATHN]] = y
    s.g[G_PATHN] += 1
    s.g[G_MOVED] = 1
    log(s, EV_MOVE, k, h, y, s.g[G_MP], 0, 0)
    if t.hexi[y, HI_OBJ] >= 0:
        reveal(s, k, REVEAL_OBJECTIVE)              # 001 Concealed squads: into an objective hex
    reveal_scan(s, t, False)                        # in sight in the open, before any op fire (rulings T39)
    if t.hexi[h, HI_MINES] == 1:
        s.g[G_MP] = 0                               # 001 Minefields: out of one only to an adjacent hex
    if wire_in(s, y) and not ability(s, k, SPEC_ENGINEER) \
            and (not is_vehicle(s, k) or t.vt[s.u[k, U_MODEL], VT_LIGHT] == 1):
        s.g[G_MP] = 0                               # 001 Razor wire: non-engineer squads, light vehicles stop
    if t.hexi[y, HI_HAS_TRAP] == 1 and is_vehicle(s, k):
        s.g[G_MP] = 0                               # 001 Tank traps: a vehicle ends its move
    if wire_in(s, y):
        s.g[G_NO_ASSAULT] = 1                       # 002 first list (engineers too)
    if t.hexi[y, HI_MINES] == 1:                    # 001 Minefields: stop, fatigued, roll (rulings T16)
        s.g[G_MP] = 0
        s.g[G_NO_ASSAULT] = 1
        s.u[k, U_TOKEN] = TOK_FATIGUED
        exempt = ability(s, k, SPEC_ENGINEER) and t.p[P_ENG_MINES] == 1     # engineers do not roll
        hits = 0 if exempt else roll(s, t.p[P_MINE_DICE], t.p[P_MINE_FROM])
        log(s, EV_MINES, k, y, hits, 0, 0, 0)
        if hits > 0:
            normal_hits(s, t, k, hits)
        if s.u[k, U_ST] != ONMAP:
            end_move(s, t, k, True)
            return
    opfire_check(s, t, k)


@rule
def opfired_here(s, h):
    """Whether the mover already drew op fire in hex ``h`` during this move (001 Moving and
    op fire: not more than once per hex, coming back to a hex included: rulings T33)."""
    for i in range(s.g[G_OPN]):
        if s.aux[AUX_OPHEX, i] == h:
            return True
    return False


@rule
def opfire_check(s, t, k):
    """Immediately after the mover entered a hex (or left a fortification in it): the
    enemy's op fire, at most once per hex (001 Moving and op fire)."""
    empty = s.aux[AUX_PATH, :0]
    if not opfired_here(s, s.u[k, U_HEX]) and opfire_candidates(s, t, k, empty, 0) > 0:
        s.g[G_SUB] = SUB_OPFIRE
        s.g[G_OPF_SIDE] = 1 - s.u[k, U_SIDE]
        return
    after_step(s, t, k)


@rule
def after_step(s, t, k):
    """Go on moving, or end the move when the mover cannot or may not go on."""
    if (s.u[k, U_ST] != ONMAP or s.u[k, U_COND] != COND_NORMAL or s.u[k, U_TOKEN] == TOK_FATIGUED
            or (s.u[k, U_DMG] > s.g[G_DMG0] and s.g[G_STURDY] == 0) or s.u[k, U_DMG] == DMG_HEAVY):
        end_move(s, t, k, True)                     # stopped by op fire or a minefield
        return
    s.g[G_SUB] = SUB_MOVE


@rule
def overrun_pins(s, t, k, h):
    """001 Tanks: Overrun: every enemy squad of the hex left is pinned, except squads in
    fortifications (vehicles and transported squads are not in it); pinned or disrupted
    squads are unaffected."""
    foe = 1 - s.u[k, U_SIDE]
    for j in range(t.p[P_N_UNITS]):
        if (s.u[j, U_ST] == ONMAP and s.u[j, U_HEX] == h and s.u[j, U_SIDE] == foe and not is_vehicle(s, j)
                and s.u[j, U_IN] == 0 and s.u[j, U_COND] == COND_NORMAL and not hidden(s, j)):
            set_condition(s, j, COND_PINNED)        # 001 Concealed squads: unaffected by Overrun
            log(s, EV_OVERRUN, k, j, h, 0, 0, 0)


@rule
def back_to_room(s, t, k):
    """001 Setup: a unit stopped in a full hex returns to the last hex it moved from with room;
    001 Tanks: a tank forced to end its move in an enemy hex, to its last enemy-free hex
    (no MP, fatigued, nobody pinned); so does any unit forced to end its move in a hex of
    concealed enemy squads it was passing through (001 Concealed squads; rulings T43)."""
    if enemy_in(s, s.u[k, U_HEX], s.u[k, U_SIDE]):
        for i in range(s.g[G_PATHN] - 2, -1, -1):
            h = s.aux[AUX_PATH, i]
            if not enemy_in(s, h, s.u[k, U_SIDE]) and room_for(s, t, k, h) > 0:
                put(s, k, h)
                log(s, EV_BACK, k, h, 1, 0, 0, 0)
                s.u[k, U_TOKEN] = TOK_FATIGUED
                return
    if may_stop(s, t, k):
        return
    for i in range(s.g[G_PATHN] - 2, -1, -1):
        h = s.aux[AUX_PATH, i]
        if not enemy_in(s, h, s.u[k, U_SIDE]) and room_for(s, t, k, h) > 0:   # never into an enemy's hex
            put(s, k, h)
            log(s, EV_BACK, k, h, 0, 0, 0, 0)
            return


@rule
def end_move(s, t, k, stopped):
    """The move is over: the Fire & Movement attack, the assault or the end of the action."""
    if s.u[k, U_ST] == ONMAP:
        back_to_room(s, t, k)
    if s.u[k, U_ST] == CARRIED:                      # never got out
        end_activation(s, t)
        return
    kind = s.g[G_ACTION]
    if stopped or s.u[k, U_ST] != ONMAP:
        end_activation(s, t)                        # halted: its activation ends
        return
    if kind == K_FIREMOVE and s.g[G_FIRED] == 0 and can_shoot_any(s, t, k, HOW_FIREMOVE):
        s.g[G_SUB] = SUB_AFTER_MOVE
        return
    if kind == K_ASSAULT and s.g[G_NO_ASSAULT] == 0 and start_assault_choice(s, t, k):
        return
    end_activation(s, t)


@rule
def apply_move(s, t, a):
    k = s.g[G_UNIT]
    kind = a_kind(a)
    if kind == K_STEP:
        apply_step(s, t, k, a_arg(a))
        return
    if kind == K_EMBARK:                             # in, fatigued, its action complete
        v = a_arg(a)
        put(s, k, -1)
        s.u[k, U_ST] = CARRIED
        s.u[k, U_CARRIER] = v
        log(s, EV_TRANSPORT, k, v, 1, 0, 0, 0)
        end_activation(s, t)
        return
    if kind == K_DISEMBARK:                          # out into the vehicle's hex; may draw op fire
        v = s.u[k, U_CARRIER]
        s.g[G_MP] -= t.p[P_TRANSPORT_MP]
        s.u[k, U_ST] = ONMAP
        s.u[k, U_CARRIER] = -1
        put(s, k, s.u[v, U_HEX])
        log(s, EV_TRANSPORT, k, v, 0, 0, 0, 0)
        opfire_check(s, t, k)
        return
    if kind == K_CUT_WIRE:                           # 001 Razor wire: 2 MP; the move goes on
        s.g[G_MP] -= t.p[P_WIRE_MP]
        remove_wire(s, s.u[k, U_HEX])
        return
    if kind == K_FORT_IN:
        s.g[G_MP] -= t.p[P_FORT_MP]
        s.u[k, U_IN] = 1
        log(s, EV_FORT, k, 1, 0, 0, 0, 0)
        return
    if kind == K_FORT_OUT:                           # may trigger op fire
        s.g[G_MP] -= t.p[P_FORT_MP]
        s.u[k, U_IN] = 0
        log(s, EV_FORT, k, 0, 0, 0, 0, 0)
        opfire_check(s, t, k)
        return
    if kind == K_SHOOT:                              # Fire & Movement: fire first
        arg = a_arg(a)
        attack(s, t, k, fire_target(arg), fire_mode(arg), 0, HOW_FIREMOVE)
        s.g[G_FIRED] = 1
        s.u[k, U_TOKEN] = TOK_FRESH                  # still active: fatigued when the action ends
        return
    end_move(s, t, k, False)                         # K_STOP


@rule
def apply_opfire(s, t, a):
    mover = s.g[G_UNIT]
    s.u[mover, U_OPHEX] = s.u[mover, U_HEX]          # at most once per hex of the move
    if s.g[G_OPN] < s.aux.shape[1]:
        s.aux[AUX_OPHEX, s.g[G_OPN]] = s.u[mover, U_HEX]
        s.g[G_OPN] += 1
    if a_kind(a) == K_OPFIRE:
        arg = a_arg(a)
        how = HOW_RAPID if fire_rapid(arg) else HOW_OPFIRE
        attack(s, t, a_unit(a), mover, fire_mode(arg), fire_support(arg), how)
        s.g[G_OPFIRES] += 1
    after_step(s, t, mover)


@rule
def after_move_actions(s, t, out):
    k = s.g[G_UNIT]
    n = push(out, 0, action(K_NOFIRE, k, 0))
    return shoot_actions(s, t, k, out, n)


@rule
def apply_after_move(s, t, a):
    k = s.g[G_UNIT]
    if a_kind(a) == K_SHOOT:
        arg = a_arg(a)
        attack(s, t, k, fire_target(arg), fire_mode(arg), 0, HOW_FIREMOVE)
        s.g[G_FIRED] = 1
    end_activation(s, t)


_unused = (G_ACTIVE,)
int64_constants(globals())
