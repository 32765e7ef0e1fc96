"""The support phase (6.3, chapter 7): artillery facing, indirect fire and smoke, alternating until
both players pass. The rules of the shots themselves are :mod:`simulator.games.assault.game.support`."""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, push, rule, rule_inlined
from simulator.games.assault.game import support as sp
from simulator.games.assault.game.events import (
    EV_ACTIVATE,
    EV_ART_FACE,
    EV_PASS,
    EV_PHASE,
    EV_SPOTTER,
    log_event,
)
from simulator.games.assault.game.phases.action import can_activate
from simulator.games.assault.game.phases.command import spend_cp
from simulator.games.assault.game.state import (
    ACT_FIRING,
    ACT_NORMAL,
    ARTILLERY,
    AUX_PATH,
    CC_NONE,
    FALLBACK,
    G_ACTIVATIONS,
    G_ACTIVE,
    G_DECIDER,
    G_FIRST,
    G_PASSES,
    G_PHASE,
    G_SMK_H0,
    G_SMK_H1,
    G_SMK_K,
    G_SMK_MASK,
    G_SMK_SEER,
    G_SMK_UNIT,
    G_SUB,
    G_SUPPORT_PASSED,
    INDIRECT_SCALE,
    K_ART_FACE,
    K_INDIRECT,
    K_PASS,
    K_SMOKE,
    K_SMOKE_DONE,
    K_SMOKE_HEX,
    NIL,
    ONMAP,
    PH_ACTION,
    PH_SUPPORT,
    SMOKE_SCALE,
    SUB_SELECT,
    SUB_SMOKE_NEXT,
    SUB_SUPPORT,
    U_ACT,
    U_CC,
    U_DONE,
    U_FACE,
    U_FACED,
    U_HEX,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TYPE,
    a_arg,
    a_kind,
    a_unit,
    action,
    spotted_arg,
    spotted_spotter,
    spotted_target,
)
from simulator.games.assault.game.tables import (
    P_NEED_SUPPORT,
    UT_KIND,
)
from simulator.games.assault.game.tables import (
    S6_NBR as _NBR,
)


@rule
def start_support_or_action(s, t):
    """After planning: the support phase when some unit has indirect fire (6.3), the
    starting player first; otherwise straight to the action phase (6.4)."""
    if t.p[P_NEED_SUPPORT] == 1:
        s.g[G_PHASE] = PH_SUPPORT
        s.g[G_SUB] = SUB_SUPPORT
        s.g[G_SUPPORT_PASSED] = 0
        for u in range(s.u.shape[0]):
            s.u[u, U_FACED] = 0
    else:
        s.g[G_PHASE] = PH_ACTION
        s.g[G_SUB] = SUB_SELECT
    s.g[G_ACTIVE] = s.g[G_FIRST]
    s.g[G_PASSES] = 0
    log_event(s, EV_PHASE, s.g[G_PHASE], NIL, NIL, NIL, NIL, NIL)


@rule
def may_support(s, t, u, side):
    """A unit that may be activated in the support phase, as a firer or a spotter (6.3,
    7.2): as in the action phase, and not in a close combat."""
    return can_activate(s, t, u, side) and s.u[u, U_CC] == CC_NONE


@rule
def may_face(s, t, u, side):
    """7.6, 6.3: an artillery unit of ``side`` may change its facing without being
    activated, once a support phase (reading S21); not in a close combat or a fallback."""
    if s.u[u, U_ST] != ONMAP or s.u[u, U_SIDE] != side or s.u[u, U_FACED] == 1:
        return False
    if t.ut[s.u[u, U_TYPE], UT_KIND] != ARTILLERY or s.u[u, U_CC] != CC_NONE:
        return False
    return s.u[u, U_MORALE] != FALLBACK


@rule
def spotted_actions(s, t, side, f, kind, target, h, scale, out, n):
    """Push ``kind`` for target ``target`` in hex ``h``: seen by the firer, or else once for
    each friendly unit that may spot for it (7.2; arg ``target + scale * (spotter + 1)``)."""
    if sp.sees(s, t, s.u[f, U_HEX], h):
        return push(out, n, action(kind, f, target))
    for w in range(s.u.shape[0]):
        if sp.may_spot(s, t, w, f) and may_support(s, t, w, side) and sp.sees(s, t, s.u[w, U_HEX], h):
            n = push(out, n, action(kind, f, spotted_arg(target, w, scale)))
    return n


@rule
def support_actions(s, t, side, out, n):
    """6.3: turn an artillery unit (7.6), fire indirectly (7.1, 7.2), fire smoke (7.5)."""
    for u in range(s.u.shape[0]):
        if may_face(s, t, u, side):
            for f in range(6):
                if f != s.u[u, U_FACE]:
                    n = push(out, n, action(K_ART_FACE, u, f))
        if not may_support(s, t, u, side) or not sp.fires_indirect_from(s, t, u):
            continue
        for v in range(s.u.shape[0]):
            if sp.indirect_target(s, t, u, v):
                n = spotted_actions(s, t, side, u, K_INDIRECT, v, s.u[v, U_HEX], INDIRECT_SCALE, out, n)
        if sp.fires_smoke(s, t, u):
            for h in range(t.hexi.shape[0]):
                if sp.in_band(s, t, u, h):
                    n = spotted_actions(s, t, side, u, K_SMOKE, h, h, SMOKE_SCALE, out, n)
    return n


@rule
def support_step(s, t):
    """6.3: the players take turns until both have passed; a player with nothing to do
    passes. Returns True when a decision is pending."""
    while s.g[G_SUPPORT_PASSED] != 3:
        side = s.g[G_ACTIVE]
        if s.g[G_SUPPORT_PASSED] & (1 << side) == 0:
            if support_actions(s, t, side, s.aux[AUX_PATH, :0], NIL) > 0:
                s.g[G_DECIDER] = side
                return True
            s.g[G_SUPPORT_PASSED] |= 1 << side
            log_event(s, EV_PASS, side, NIL, NIL, NIL, NIL, NIL)
        s.g[G_ACTIVE] = 1 - side
    s.g[G_PHASE] = PH_ACTION                       # 6.4: the starting player acts first
    s.g[G_SUB] = SUB_SELECT
    s.g[G_ACTIVE] = s.g[G_FIRST]
    s.g[G_PASSES] = 0
    log_event(s, EV_PHASE, PH_ACTION, NIL, NIL, NIL, NIL, NIL)
    return False


@rule
def activate_support(s, t, u, kind, arg, spotter):
    """7.0, 7.2: the firer is activated and marked firing; a spotter is activated with a
    normal action marker (each with a command point when that rule is on)."""
    s.u[u, U_DONE] = 1
    s.u[u, U_ACT] = ACT_FIRING
    spend_cp(s, t, u)
    s.g[G_ACTIVATIONS] += 1
    log_event(s, EV_ACTIVATE, s.u[u, U_SIDE], u, kind, arg, NIL, NIL)
    if spotter >= 0:
        s.u[spotter, U_DONE] = 1
        s.u[spotter, U_ACT] = ACT_NORMAL
        spend_cp(s, t, spotter)
        log_event(s, EV_SPOTTER, spotter, u, NIL, NIL, NIL, NIL)


@rule
def apply_support(s, t, a):
    k = a_kind(a)
    u = a_unit(a)
    arg = a_arg(a)
    side = s.g[G_ACTIVE]
    if k == K_PASS:                                    # 6.3: no more support actions this turn
        s.g[G_SUPPORT_PASSED] |= 1 << side
        log_event(s, EV_PASS, side, NIL, NIL, NIL, NIL, NIL)
    elif k == K_ART_FACE:                              # 7.6: not an activation
        s.u[u, U_FACE] = arg
        s.u[u, U_FACED] = 1
        log_event(s, EV_ART_FACE, u, arg, NIL, NIL, NIL, NIL)
    elif k == K_INDIRECT:
        v = spotted_target(arg, INDIRECT_SCALE)
        w = spotted_spotter(arg, INDIRECT_SCALE)
        activate_support(s, t, u, k, v, w)
        sp.resolve_indirect(s, t, u, v, w)
    elif k == K_SMOKE:
        h = spotted_target(arg, SMOKE_SCALE)
        w = spotted_spotter(arg, SMOKE_SCALE)
        activate_support(s, t, u, k, h, w)
        s.g[G_SMK_UNIT] = u
        s.g[G_SMK_K] = 1
        s.g[G_SMK_H0] = h
        s.g[G_SMK_H1] = -1
        s.g[G_SMK_SEER] = sp.seer_hex(s, t, u, w)
        s.g[G_SMK_MASK] = sp.roll_smoke(s, t, u, h, sp.all_dice(s, t, u))
        if s.g[G_SMK_MASK] != 0 and smoke_hex_actions(s, t, s.aux[AUX_PATH, :0], NIL) > 0:
            s.g[G_SUB] = SUB_SMOKE_NEXT
            return
    s.g[G_ACTIVE] = 1 - side


@rule
def smoke_hex_actions(s, t, out, n):
    """7.5: a hex adjacent to the target hex, not smoked yet by this action, seen by the
    firer or its spotter (reading S21)."""
    h0 = s.g[G_SMK_H0]
    for d in range(6):
        g = t.side6[h0, d, _NBR]
        if g >= 0 and g != s.g[G_SMK_H1] and sp.sees(s, t, s.g[G_SMK_SEER], g) \
                and sp.in_band(s, t, s.g[G_SMK_UNIT], g):          # 10.0, 7.5: in range too
            n = push(out, n, action(K_SMOKE_HEX, s.g[G_SMK_UNIT], g))
    return n


@rule
def apply_smoke_hex(s, t, a):
    u = s.g[G_SMK_UNIT]
    if a_kind(a) == K_SMOKE_HEX:
        g = a_arg(a)
        s.g[G_SMK_MASK] = sp.roll_smoke(s, t, u, g, s.g[G_SMK_MASK])
        s.g[G_SMK_K] += 1
        if s.g[G_SMK_H1] < 0:
            s.g[G_SMK_H1] = g
        if s.g[G_SMK_MASK] != 0 and s.g[G_SMK_K] < sp.SMOKE_HEXES \
                and smoke_hex_actions(s, t, s.aux[AUX_PATH, :0], NIL) > 0:
            return
    s.g[G_SUB] = SUB_SUPPORT
    s.g[G_ACTIVE] = 1 - s.u[u, U_SIDE]


int64_constants(globals())


@rule_inlined
def support_phase_actions(s, t, out):
    """6.3: pass (no more support actions this turn) or a support action."""
    n = push(out, NIL, action(K_PASS, 0, 0))
    return support_actions(s, t, s.g[G_ACTIVE], out, n)


@rule_inlined
def next_smoke_actions(s, t, out):
    """7.5: no more smoke hexes, or the next hex for the dice set aside."""
    n = push(out, NIL, action(K_SMOKE_DONE, s.g[G_SMK_UNIT], 0))
    return smoke_hex_actions(s, t, out, n)


@rule_inlined
def next_smoke_step(s):
    """The smoking player names the next hex (7.5)."""
    s.g[G_DECIDER] = s.u[s.g[G_SMK_UNIT], U_SIDE]
    return True
