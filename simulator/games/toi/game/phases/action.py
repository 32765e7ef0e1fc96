"""The action phase (001 Action phase; End of the action phase): players alternate taking
the scenario's number of actions; each action activates one fresh unit, which is then
fatigued (unless it prepared op fire); a side whose actions are over leaves the phase and
the other acts until it has none.

Actions of a fresh unit: Advance, Concentrated Fire, Fire & Movement, Assault, Prepare Op
Fire, Fatigue Unit (001 Action phase list), a medic squad's Heal (001 Medic: an action),
an engineer's Dig Entrenchment (001 Engineer: an action; rulings T40); and the side may
declare its actions over (``K_PASS``). Strategy cards and the other
special actions are not in the engine.
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, push, rule
from simulator.games.toi.game.area import area_actions, area_attack
from simulator.games.toi.game.events import EV_ACTIVATE, EV_OPFIRE_SET, EV_PASS, log
from simulator.games.toi.game.fire import HOW_CONCENTRATED, ROLE_LEAD, attack, share, supporters_exist
from simulator.games.toi.game.phases.command import command_and_status
from simulator.games.toi.game.state import (
    AUX_PATH,
    CARRIED,
    COND_NORMAL,
    G_ACTION,
    G_ACTIONS,
    G_ACTIVE,
    G_DMG0,
    G_FIRED,
    G_INIT,
    G_LEFT,
    G_MOVED,
    G_MP,
    G_NO_ASSAULT,
    G_OPN,
    G_OUT0,
    G_OVER,
    G_PATHN,
    G_PHASE,
    G_STURDY,
    G_SUB,
    G_UNIT,
    K_ADVANCE,
    K_AREA,
    K_ASSAULT,
    K_DIG,
    K_FATIGUE,
    K_FIRE,
    K_FIREMOVE,
    K_HEAL,
    K_PASS,
    K_PREP_OPFIRE,
    MODE_NORMAL,
    MODE_SUPPRESSIVE,
    ONMAP,
    PH_ACTION,
    SUB_MOVE,
    SUB_SELECT,
    TOK_FATIGUED,
    TOK_OPFIRE,
    U_CARRIER,
    U_COND,
    U_DMG,
    U_HEX,
    U_OPHEX,
    U_SIDE,
    U_ST,
    U_TOKEN,
    a_arg,
    a_kind,
    a_unit,
    action,
    area_hex,
    area_mode,
    area_support,
    fire_arg,
    fire_mode,
    fire_support,
    fire_target,
)
from simulator.games.toi.game.tables import P_ACTIONS, P_N_UNITS
from simulator.games.toi.game.units import (
    can_move,
    dig,
    dig_actions,
    fresh,
    has_heavy,
    heal,
    heal_actions,
    is_vehicle,
    movement,
)


@rule
def has_fresh(s, t, side):
    """Whether ``side`` can still take an action: a fresh unit on the map (any fresh unit can
    at least be fatigued, 001 Fatigue unit)."""
    for k in range(t.p[P_N_UNITS]):
        if s.u[k, U_SIDE] == side and fresh(s, k):
            return True
    return False


@rule
def start_action_phase(s, t):
    s.g[G_PHASE] = PH_ACTION
    s.g[G_OUT0] = 0
    s.g[G_OUT0 + 1] = 0
    s.g[G_ACTIVE] = s.g[G_INIT]               # 001 Turn sequence: started by the initiative
    s.g[G_LEFT] = t.p[P_ACTIONS]
    s.g[G_UNIT] = -1
    next_actor(s, t)


@rule
def next_actor(s, t):
    """Who acts next (001 Action phase; End of the action phase), or the command phase."""
    while True:
        side = s.g[G_ACTIVE]
        other = 1 - side
        if s.g[G_OUT0 + side] == 0 and not has_fresh(s, t, side):
            s.g[G_OUT0 + side] = 1
            log(s, EV_PASS, -1, side, 0, 0, 0, 0)
        if s.g[G_OUT0 + other] == 0 and not has_fresh(s, t, other):
            s.g[G_OUT0 + other] = 1
            log(s, EV_PASS, -1, other, 0, 0, 0, 0)
        if s.g[G_OUT0] == 1 and s.g[G_OUT0 + 1] == 1:
            command_and_status(s, t)
            return
        if s.g[G_OUT0 + side] == 1:
            s.g[G_ACTIVE] = other
            s.g[G_LEFT] = t.p[P_ACTIONS]
            continue
        if s.g[G_LEFT] <= 0:
            if s.g[G_OUT0 + other] == 0:
                s.g[G_ACTIVE] = other              # players alternate action turns
            s.g[G_LEFT] = t.p[P_ACTIONS]
            continue
        s.g[G_SUB] = SUB_SELECT
        return


@rule
def end_activation(s, t):
    """The active unit's action is complete: fatigued unless in op fire mode (001 Action phase)."""
    k = s.g[G_UNIT]
    if k >= 0 and (s.u[k, U_ST] == ONMAP or s.u[k, U_ST] == CARRIED) and s.u[k, U_TOKEN] != TOK_OPFIRE:
        s.u[k, U_TOKEN] = TOK_FATIGUED
    s.g[G_UNIT] = -1
    s.g[G_LEFT] -= 1
    s.g[G_ACTIONS] += 1
    if s.g[G_OVER] == 1:
        return
    next_actor(s, t)


@rule
def select_actions(s, t, out):
    """Every action the active side may take now (001 Action phase)."""
    side = s.g[G_ACTIVE]
    n = push(out, 0, action(K_PASS, 0, 0))
    nu = t.p[P_N_UNITS]
    for k in range(nu):
        if s.u[k, U_SIDE] != side or not fresh(s, k):
            continue
        normal = s.u[k, U_COND] == COND_NORMAL
        if s.u[k, U_ST] == CARRIED:                # 001 Transporting squads: activated only to get out
            n = push(out, n, action(K_FATIGUE, k, 0))
            if normal:
                n = push(out, n, action(K_ADVANCE, k, 0))
                if not has_heavy(s, t, k):         # 001 Fire & movement; Assault: no heavy weapon, carried too
                    n = push(out, n, action(K_FIREMOVE, k, 0))
                    n = push(out, n, action(K_ASSAULT, k, 0))
            continue
        if normal:
            n = push(out, n, action(K_ADVANCE, k, 0))
            if not has_heavy(s, t, k):             # 001 Fire & movement; Assault: no heavy weapon
                n = push(out, n, action(K_FIREMOVE, k, 0))
                if not is_vehicle(s, k):           # 001 Assault: squads only
                    n = push(out, n, action(K_ASSAULT, k, 0))
            n = push(out, n, action(K_PREP_OPFIRE, k, 0))   # 001 Squad conditions: never if pinned
        n = push(out, n, action(K_FATIGUE, k, 0))
        n = area_actions(s, t, k, out, n)          # 001 Mortar crew: area attacks
        n = heal_actions(s, t, k, out, n)          # 001 Medic: Heal (rulings T38)
        n = dig_actions(s, t, k, out, n)           # 001 Engineer: Dig Entrenchment (rulings T40)
        for e in range(nu):                        # 001 Concentrated fire (Rally for a pinned squad)
            if s.u[e, U_ST] != ONMAP or s.u[e, U_SIDE] == side:
                continue
            if share(s, t, k, e, ROLE_LEAD, HOW_CONCENTRATED)[0] <= 0:
                continue
            sup = 1 if supporters_exist(s, t, k, e, HOW_CONCENTRATED) else 0
            top = MODE_NORMAL if is_vehicle(s, e) else MODE_SUPPRESSIVE    # 001 step 3: vehicles immune
            for mode in range(MODE_NORMAL, top + 1):
                for su in range(sup + 1):
                    n = push(out, n, action(K_FIRE, k, fire_arg(e, mode, su)))
    return n


@rule
def apply_select(s, t, a):
    kind = a_kind(a)
    side = s.g[G_ACTIVE]
    if kind == K_PASS:                             # 001 End of the action phase: declared over
        s.g[G_OUT0 + side] = 1
        log(s, EV_PASS, -1, side, 1, 0, 0, 0)
        s.g[G_LEFT] = 0
        next_actor(s, t)
        return
    k = a_unit(a)
    s.g[G_UNIT] = k
    s.g[G_ACTION] = kind
    log(s, EV_ACTIVATE, k, kind, 0, 0, 0, 0)
    if kind == K_FATIGUE:                          # 001 Fatigue unit
        end_activation(s, t)
    elif kind == K_PREP_OPFIRE:                    # 001 Prepare op fire
        s.u[k, U_TOKEN] = TOK_OPFIRE
        log(s, EV_OPFIRE_SET, k, 0, 0, 0, 0, 0)
        end_activation(s, t)
    elif kind == K_HEAL:                           # 001 Medic: Heal, then fatigued
        heal(s, t, k, a_arg(a))
        end_activation(s, t)
    elif kind == K_DIG:                            # 001 Engineer: Dig Entrenchment, then fatigued
        dig(s, t, k, a_arg(a))
        end_activation(s, t)
    elif kind == K_AREA:                           # 001 Area attacks (supported: rulings T42)
        arg = a_arg(a)
        area_attack(s, t, k, area_hex(arg), area_mode(arg), area_support(arg))
        end_activation(s, t)
    elif kind == K_FIRE:                           # 001 Concentrated fire
        arg = a_arg(a)
        attack(s, t, k, fire_target(arg), fire_mode(arg), fire_support(arg), HOW_CONCENTRATED)
        end_activation(s, t)
    else:                                          # Advance, Fire & Movement, Assault: a move
        mp = movement(s, t, k)
        if kind != K_ADVANCE:
            mp -= 2 if is_vehicle(s, k) else 1     # 001 Fire & movement (vehicles 2 fewer); Assault: 1 fewer
        s.g[G_MP] = mp if can_move(s, k) else 0
        s.g[G_FIRED] = 0
        s.g[G_MOVED] = 0
        s.g[G_NO_ASSAULT] = 0
        s.g[G_DMG0] = s.u[k, U_DMG]
        s.g[G_STURDY] = 0
        s.g[G_PATHN] = 1
        s.aux[AUX_PATH, 0] = s.u[k, U_HEX] if s.u[k, U_ST] == ONMAP else s.u[s.u[k, U_CARRIER], U_HEX]
        s.u[k, U_OPHEX] = -1
        s.g[G_OPN] = 0
        s.g[G_SUB] = SUB_MOVE


_unused = (K_FIREMOVE, K_ASSAULT)
int64_constants(globals())
