"""Close combat in a game (chapter 12, both editions), on the melee package's rules.

The pools of every direction a game can fight are tabulated at compile time with
:func:`simulator.games.assault.rules.melee.situation.direction_pools` (the one close-combat pool
assembly, :mod:`simulator.games.assault.game.compile`); a round here is
:func:`simulator.games.assault.rules.melee.kernels.roll_pools` (the one close-combat roll, also
the melee calculator's) both ways on the states before the round, then :func:`simulator.games.assault.rules.melee.damage.after_close_combat` for both
(12.4: simultaneous). Entering the hex of a suppressed or fallen-back enemy is
:func:`~simulator.games.assault.rules.melee.damage.enter_hex_of` (12.0).

What the engine adds is the sequence inside a game, with the players' choices:

- first edition (v1): one exchange when a close combat is initiated (12.1),
  reinforced (12.2; the entering unit picks its target) or renewed (12.3, an
  activation); the hex stays a close-combat hex from turn to turn until one side has
  left it (12.6: withdrawal is a fast move drawing reaction fire); when it ends, the
  units left get a fast action and an over-stacked hex is cleared by its owner.
- revised edition (v2): both players may first name a support unit (12.1.1.1); then
  rounds until elimination, fallback or withdrawal, the attacker deciding first
  after each round whether to withdraw (12.1.6.1).

Unit roles (``U_CCROLE``): 1 the unit that initiated, 2 another unit of its side,
3 the unit that held the hex, 4 another unit of the holder's side.
Vehicles: a vehicle holding the hex defends with the card dice of the area the
attacker entered from in the initiated exchange / initial round (12.7.3, revised
12.3; kept in ``G_CC_FLAGS`` from bit 8), immobilised vehicles use their own pools,
and before any exchange in which infantry faces a vehicle that can still move, the
infantry's player chooses to attack its wheels/tracks or the vehicle (12.9, revised
12.5: every exchange / round). First edition: after an initiated or reinforced exchange the
unit attacked turns to face its attacker (12.7.3, 12.8.2); a reinforcing unit's target
defends with the area it entered from, or is outflanked (``entry_flags``). Revised 12.4:
the assault unit shoots at the passengers of a transport before they disembark
(``fire_at_passengers``). First edition 12.10: the holder's player may first send one
infantry passenger into the close-combat hex (``Q_PASSENGER``, ``enter_on``; reading S26).
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, push, rule, rule_inlined
from simulator.engine.core.hexgrid import areas_of_impact
from simulator.games.assault.game.board import empty, put, shift
from simulator.games.assault.game.events import (
    EV_CC,
    EV_CC_END,
    EV_CC_RESULT,
    EV_CC_ROLL,
    EV_CC_WITHDRAW,
    EV_DISEMBARK,
    EV_ENTER_SUPPRESSED,
    EV_FACE_ATTACKER,
    EV_OVERSTACK,
    EV_ROLL,
    EV_TRACKS,
    log_event,
)
from simulator.games.assault.game.fire import (
    apply_symbols,
    eliminate,
    fallback_again,
    in_arc_of,
    passengers_hit,
    queue_fallback,
    set_morale,
)
from simulator.games.assault.game.moves import any_step
from simulator.games.assault.game.state import (
    ACT_DELAYED,
    ACT_FAST,
    ACT_FIRING,
    ACT_NONE,
    ACT_NORMAL,
    AUX_PATH,
    AUX_QUEUE,
    CARRIED,
    CC_ACTIVE,
    CC_NONE,
    FALLBACK,
    G_CC_A,
    G_CC_AFTER,
    G_CC_BACK,
    G_CC_D,
    G_CC_FLAGS,
    G_CC_FROM,
    G_CC_HEX,
    G_CC_KIND,
    G_CC_PEND,
    G_CC_Q,
    G_CC_ROUND,
    G_CC_RXY,
    G_CC_RYX,
    G_CC_SUPA,
    G_CC_SUPD,
    G_CC_TGT,
    G_CC_TRACKS,
    G_CC_X,
    G_CC_XF,
    G_CC_Y,
    G_CCS,
    G_DECIDER,
    G_MODE,
    G_MP,
    G_PATHN,
    G_QN,
    G_STEPS,
    G_SUB,
    G_UNIT,
    HX_CC,
    HX_DUG,
    INFANTRY,
    K_CCPICK,
    K_INTO_CC,
    K_LEAVE,
    K_RENEW,
    K_STAY,
    K_TRACKS,
    K_VEHICLE,
    MODE_WITHDRAW,
    NIL,
    ONMAP,
    STEADY,
    SUB_ACT_END,
    SUB_CC_PICK,
    SUB_CC_WITHDRAW,
    SUB_MOVE,
    SUPPRESSED,
    U_ACT,
    U_CARRIER,
    U_CC,
    U_CCROLE,
    U_DMG,
    U_DONE,
    U_FACE,
    U_HELD,
    U_HEX,
    U_IMMOB,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TYPE,
    VEHICLE,
    a_arg,
    a_kind,
    a_unit,
    action,
)
from simulator.games.assault.game.tables import (
    CI_ADRENALINE,
    CI_ATK_REROLLS,
    CI_DEF_REROLLS,
    CI_EXTRA,
    CI_NATK,
    CI_NDEF,
    CI_PREREQ,
    CI_TRACKS,
    HI_CCT,
    HI_FORTFACE,
    HI_Q,
    HI_R,
    HI_WIRE,
    P_CP_RULE,
    P_EDITION,
    P_FIELDS,
    P_NCCT,
    P_TRANSPORT,
    PO_EXTRA,
    PO_N,
    S6_COST,
    S6_NBR,
    UT_CC_INIT,
    UT_ELITE,
    UT_HALF,
    UT_KIND,
    UT_MOVE,
    UT_MTYPE,
    UT_RANGED,
    UT_STR,
    cc_pool,
    dist,
    passenger_fire_key,
)
from simulator.games.assault.rules.kernels import cancel_packed
from simulator.games.assault.rules.kernels import field as packed_field
from simulator.games.assault.rules.melee import damage as md
from simulator.games.assault.rules.melee.fight import V2_ROUND_CAP
from simulator.games.assault.rules.melee.kernels import roll_pools
from simulator.games.assault.rules.transport import DISEMBARK as TR_DISEMBARK
from simulator.run.rng import sum_rolls

# unit roles in a close combat
ROLE_NONE, ROLE_A1, ROLE_A2, ROLE_D1, ROLE_D2 = range(5)
# direction roles (the tables' ``role`` dimension)
(R1_INIT_A, R1_INIT_D, R1_REIN_TO_HOLDER, R1_REIN_FROM_HOLDER, R1_REIN_A, R1_REIN_D, R1_RENEW_TO_HOLDER,
 R1_RENEW_FROM_HOLDER, R1_RENEW_A, R1_RENEW_D, R2_FIRST_A, R2_FIRST_D, R2_LATER_A, R2_LATER_D) = range(14)
N_ROLES = 14
# situation flags
F_ACT, F_OUT, F_FAST, F_DUG, F_SUPP, F_SUPA, F_SUPD = 1, 2, 4, 8, 16, 32, 64
F_WIRE = 128             # revised 12.1.2.1: initiated across barbed wire or a stone wall
F_PASS = 256             # 12.10: the unit attacked is a passenger that disembarked into the hex
N_FLAGS = 512
# round kinds as the engine names them
KIND_INIT, KIND_REIN, KIND_RENEW = 0, 1, 2
# pending questions (G_CC_Q)
Q_NONE, Q_TARGET, Q_OVERSTACK, Q_SUPPORT_A, Q_SUPPORT_D, Q_WITHDRAW_A, Q_WITHDRAW_D, Q_TRACKS, Q_PASSENGER = range(9)
# what follows an exchange that waited for the wheels/tracks question (G_CC_AFTER)
AFTER_V1_INIT, AFTER_V1_FIGHT, AFTER_V2_ROUND = range(3)
AREA_SHIFT = 10          # G_CC_FLAGS >> AREA_SHIFT: the area of a vehicle holder entered from
AREA_ROLES_MASK = ((1 << R1_INIT_A) | (1 << R1_INIT_D) | (1 << R2_FIRST_A) | (1 << R2_FIRST_D)
                   | (1 << R1_REIN_TO_HOLDER) | (1 << R1_REIN_FROM_HOLDER) | (1 << R1_REIN_A) | (1 << R1_REIN_D))
# reinforced exchanges (12.2): the reinforcing unit attacks with R1_REIN_TO_HOLDER (its target held
# the hex) or R1_REIN_D, its target answers with R1_REIN_FROM_HOLDER or R1_REIN_A; the area
# bits then say where the reinforcing unit entered from, seen from its target (12.7.3, 12.8.2)
NO_UNIT = -1
P_PREREQ_FACES = P_FIELDS + N_ROLES   # p[...+face]: the green die's faces that show a result (12.9)


@rule
def is_a_side(role):
    return role == ROLE_A1 or role == ROLE_A2


@rule
def must_leave(s, u):
    """A vehicle suppressed by an attack on its wheels/tracks, still in the close-combat
    hex it must leave (12.9, revised 12.5): queued for its move out."""
    if s.u[u, U_MORALE] != SUPPRESSED or s.u[u, U_CC] == CC_NONE or s.u[u, U_ST] != ONMAP:
        return False
    for i in range(s.g[G_QN]):
        if s.aux[AUX_QUEUE, i] == u:
            return True
    return False


@rule
def in_cc(s, u):
    return s.u[u, U_ST] == ONMAP and s.u[u, U_CC] != CC_NONE


@rule
def count_in_cc(s, h, a_side, skip):
    """Units of the attacking (``a_side`` True) or holding side fighting in hex ``h``."""
    n = 0
    for v in range(s.u.shape[0]):
        if v != skip and in_cc(s, v) and s.u[v, U_HEX] == h and is_a_side(s.u[v, U_CCROLE]) == a_side:
            n += 1
    return n


@rule
def is_vehicle(s, t, u):
    return t.ut[s.u[u, U_TYPE], UT_KIND] == VEHICLE


@rule
def tracks_option(s, t, x, y):
    """12.9, revised 12.5: infantry may attack the wheels/tracks of a vehicle that can
    still move."""
    return (t.ut[s.u[x, U_TYPE], UT_KIND] == INFANTRY and is_vehicle(s, t, y) and s.u[y, U_IMMOB] == 0)


@rule
def direction_table(s, t, x, y, role, flags, h, tracks):
    """The melee pool of ``x`` attacking ``y`` (``tracks``: the attack on its wheels/tracks)."""
    tx = s.u[x, U_TYPE]
    ty = s.u[y, U_TYPE]
    half = 1 if s.u[x, U_DMG] >= t.ut[tx, UT_HALF] else 0
    where = t.hexi[h, HI_CCT]                   # terrain and fortification (revised 12.1.3)
    if (AREA_ROLES_MASK >> role) & 1 == 1:
        where += t.p[P_NCCT] * (flags >> AREA_SHIFT)
    x_imm = s.u[x, U_IMMOB] if is_vehicle(s, t, x) else 0
    y_imm = s.u[y, U_IMMOB] if is_vehicle(s, t, y) else 0
    return cc_pool(t, tx, ty, where, role, flags & t.p[P_FIELDS + role], half, x_imm, y_imm, tracks)


@rule
def roll_cc(t, k, state):
    """One direction's roll on the engine's copy of the melee tables, row ``k``:
    :func:`simulator.games.assault.rules.melee.kernels.roll_pools` (12.9 pre-roll, re-rolls,
    10.7.2, adrenaline rush)."""
    return roll_pools(t.cc_faces, t.cc_gain, k, t.cci[k, CI_PREREQ], t.p[P_PREREQ_FACES:P_PREREQ_FACES + 6],
                      t.cci[k, CI_NATK], t.cci[k, CI_NDEF], t.cci[k, CI_ATK_REROLLS], t.cci[k, CI_DEF_REROLLS],
                      t.cci[k, CI_EXTRA], t.cci[k, CI_ADRENALINE], state)


@rule
def struck(s, t, y, table, c, h, sp):
    """Game unit ``y``'s new ``(status, damage, morale, immobilised)`` after the symbols
    of row ``table``'s attack (-1: not attacked), from its state in ``s.u``. (The melee
    calculator's twin, ``melee.kernels.struck``, reads a slot of its own state; both
    apply :mod:`simulator.games.assault.rules.melee.damage`.)"""
    ty = s.u[y, U_TYPE]
    if table >= 0 and t.cci[table, CI_TRACKS] == 1:
        return md.after_tracks_attack(t.ut[ty, UT_STR], t.ut[ty, UT_ELITE], s.u[y, U_DMG], s.u[y, U_MORALE],
                                      s.u[y, U_IMMOB], c, h, sp)
    return md.after_close_combat(t.ut[ty, UT_KIND], t.ut[ty, UT_STR], t.ut[ty, UT_HALF], t.ut[ty, UT_ELITE],
                                 s.u[y, U_DMG], s.u[y, U_MORALE], s.u[y, U_IMMOB], c, h, sp)


@rule
def apply_result(s, t, u, status, dmg, morale, immob):
    if status == md.FELL_BACK and fallback_again(s, t, u, s.u[u, U_MORALE], FALLBACK):
        status = md.ELIMINATED                  # 13.3 "ever" (option, reading S22)
    log_event(s, EV_CC_RESULT, u, status, dmg, morale, immob, NIL)
    if status == md.ELIMINATED:
        s.u[u, U_DMG] = min(dmg, t.ut[s.u[u, U_TYPE], UT_STR])
        eliminate(s, t, u)
        return
    s.u[u, U_DMG] = dmg
    s.u[u, U_IMMOB] = immob
    if status == md.FELL_BACK:
        set_morale(s, u, FALLBACK)          # 12.5
    elif status == md.WITHDREW:             # 12.9, revised 12.5: suppressed, must leave the hex
        set_morale(s, u, SUPPRESSED)        # (it leaves by the fallback movement's path, S11)
        queue_fallback(s, u)
    else:
        s.u[u, U_MORALE] = morale


@rule
def exchange_or_ask(s, t, x, y, role_xy, role_yx, flags, after):
    """An exchange, after the wheels/tracks question when infantry faces a mobile
    vehicle (12.9, revised 12.5); ``after`` says what follows it. Returns True when
    the exchange was made now."""
    if tracks_option(s, t, x, y) or tracks_option(s, t, y, x):
        s.g[G_CC_X] = x
        s.g[G_CC_Y] = y
        s.g[G_CC_RXY] = role_xy
        s.g[G_CC_RYX] = role_yx
        s.g[G_CC_XF] = flags
        s.g[G_CC_AFTER] = after
        infantry = x if tracks_option(s, t, x, y) else y
        ask(s, t, Q_TRACKS, s.u[infantry, U_SIDE])
        return False
    s.g[G_CC_TRACKS] = 0
    exchange(s, t, x, y, role_xy, role_yx, flags)
    return True


@rule
def exchange(s, t, x, y, role_xy, role_yx, flags):
    """One simultaneous round: both attacks on the states before the round (12.4);
    ``G_CC_TRACKS`` = 1 when the infantry in it attacks the wheels/tracks."""
    h = s.u[x, U_HEX]
    trk = s.g[G_CC_TRACKS]
    txy = direction_table(s, t, x, y, role_xy, flags, h, trk if tracks_option(s, t, x, y) else 0)
    tyx = direction_table(s, t, y, x, role_yx, flags, h, trk if tracks_option(s, t, y, x) else 0)
    c1 = 0
    h1 = 0
    s1 = 0
    c2 = 0
    h2 = 0
    s2 = 0
    if txy >= 0:
        c1, h1, s1 = roll_cc(t, txy, s.rng[0])
    if tyx >= 0:
        c2, h2, s2 = roll_cc(t, tyx, s.rng[0])
    log_event(s, EV_CC_ROLL, x, y, c1 * 100 + h1 * 10 + s1, c2 * 100 + h2 * 10 + s2, txy, tyx)
    ys = struck(s, t, y, txy, c1, h1, s1)
    xs = struck(s, t, x, tyx, c2, h2, s2)
    apply_result(s, t, y, ys[0], ys[1], ys[2], ys[3])
    apply_result(s, t, x, xs[0], xs[1], xs[2], xs[3])


@rule
def after_exchange(s, t, after):
    """Carry on after an exchange that waited for the wheels/tracks question."""
    if after == AFTER_V1_INIT:
        after_v1_init(s, t, s.g[G_CC_Y], s.g[G_CC_HEX])
    elif after == AFTER_V1_FIGHT:
        after_v1_fight(s, t, s.g[G_CC_HEX])
    else:
        after_v2_round(s, t)


@rule
def v1_roles(s, x, y, kind):
    """Direction roles of a first-edition exchange between ``x`` and ``y``."""
    rx = s.u[x, U_CCROLE]
    ry = s.u[y, U_CCROLE]
    if kind == KIND_INIT:
        return R1_INIT_A, R1_INIT_D
    if kind == KIND_REIN:                     # x is the reinforcing unit (12.2), y its target
        if ry == ROLE_D1:
            return R1_REIN_TO_HOLDER, R1_REIN_FROM_HOLDER
        return R1_REIN_D, R1_REIN_A
    base = R1_RENEW_TO_HOLDER
    if ry == ROLE_D1:
        return base, base + 1
    if rx == ROLE_D1:
        return base + 1, base
    if is_a_side(rx):
        return base + 2, base + 3
    return base + 3, base + 2


@rule
def holder_flags(s, t, y, h):
    """F_DUG when the holder is infantry in a dug-in hex (9.8.1, 13.1)."""
    if s.hx[h, HX_DUG] == 1 and s.u[y, U_CCROLE] == ROLE_D1 and t.ut[s.u[y, U_TYPE], UT_KIND] == INFANTRY:
        return F_DUG
    return 0


@rule
def entry_flags(s, t, y, h, from_h, holds):
    """12.7.3, 12.8.2: a unit entering hex ``h`` from ``from_h`` to attack ``y`` there: a
    vehicle ``y`` defends with the area entered from (``AREA_SHIFT`` bits; outflanking
    follows from it), artillery entered from outside its arc of fire is outflanked
    (``F_OUT``); infantry fire all round (10.6). ``holds``: ``y`` held the hex, so a
    fortification there is its own (its side attacked from, revised 12.1.3.1)."""
    ty = s.u[y, U_TYPE]
    dq = t.hexi[from_h, HI_Q] - t.hexi[h, HI_Q]
    dr = t.hexi[from_h, HI_R] - t.hexi[h, HI_R]
    if t.ut[ty, UT_KIND] == VEHICLE:
        area, _a2 = areas_of_impact(dq, dr, s.u[y, U_FACE])
        return area << AREA_SHIFT
    if t.hexi[h, HI_FORTFACE] >= 0 and holds:
        # revised 12.1.3.1 (rulings S25): the fortification's side attacked from; a gun in
        # it counts as facing as its fortification does (outflanking follows from the area)
        area, _a2 = areas_of_impact(dq, dr, t.hexi[h, HI_FORTFACE])
        return area << AREA_SHIFT
    if t.ut[ty, UT_KIND] != INFANTRY and not in_arc_of(t, h, s.u[y, U_FACE], from_h):
        return F_OUT
    return 0


@rule
def face_attacker(s, t, y, h, from_h):
    """First edition 12.7.3, 12.8.2 (and 12.10 for a transport): after an initiated or
    reinforced exchange the unit attacked in hex ``h`` is turned so that the hex side the
    attacker crossed (from ``from_h``) is one of its two frontal sides; of the two such
    facings, the one nearer its old facing (reading S23). Infantry have no facing; an
    immobilised vehicle cannot turn (13.1); a unit that left the hex or is falling back
    does not turn. The revised chapter says nothing of it: not in the revised edition."""
    if t.p[P_EDITION] != 1 or y < 0 or s.u[y, U_ST] != ONMAP or s.u[y, U_HEX] != h:
        return
    ty = s.u[y, U_TYPE]
    if t.ut[ty, UT_KIND] == INFANTRY or s.u[y, U_MORALE] == FALLBACK:
        return
    if t.ut[ty, UT_KIND] == VEHICLE and s.u[y, U_IMMOB] == 1:
        return
    d = -1
    for k in range(6):
        if t.side6[h, k, S6_NBR] == from_h:
            d = k
    if d < 0:
        return
    f = s.u[y, U_FACE]
    if f == d or (f + 1) % 6 == d:                # already in front
        return
    alt = (d + 5) % 6
    dd = min((f - d) % 6, (d - f) % 6)
    da = min((f - alt) % 6, (alt - f) % 6)
    nf = alt if da < dd else d
    s.u[y, U_FACE] = nf
    log_event(s, EV_FACE_ATTACKER, y, nf, from_h, NIL, NIL, NIL)


@rule
def attacking_side(s, h):
    """The side whose units entered the hex first (roles A), or -1."""
    for v in range(s.u.shape[0]):
        if in_cc(s, v) and s.u[v, U_HEX] == h:
            if is_a_side(s.u[v, U_CCROLE]):
                return s.u[v, U_SIDE]
            return 1 - s.u[v, U_SIDE]
    return -1


# ======================================================================================
# entering, renewing, leaving
# ======================================================================================


@rule
def enter(s, t, u, g):
    """A unit moves into hex ``g`` holding enemy units (12.0-12.2; revised 12.0-12.1.1)."""
    side = s.u[u, U_SIDE]
    from_h = s.u[u, U_HEX]
    fighting = False
    e = -1
    for v in range(s.u.shape[0]):
        if s.u[v, U_ST] == ONMAP and s.u[v, U_HEX] == g and s.u[v, U_SIDE] != side:
            if e < 0:
                e = v
            if s.u[v, U_CC] != CC_NONE:
                fighting = True
    edition = t.p[P_EDITION]
    s.g[G_SUB] = SUB_ACT_END
    s.g[G_CC_FROM] = from_h                     # 12.7.3, 12.8.2: where the attacker came from
    if t.p[P_TRANSPORT] == 1 and edition == 1 and not fighting and s.u[e, U_MORALE] == STEADY \
            and infantry_aboard(s, t, e) >= 0:
        s.g[G_CC_A] = u                         # 12.10: the holder's player may send one infantry
        s.g[G_CC_D] = e                         # passenger into the close-combat hex (asked first)
        s.g[G_CC_HEX] = g
        ask(s, t, Q_PASSENGER, s.u[e, U_SIDE])
        return
    enter_on(s, t, u, g, e, fighting, -1)


@rule
def infantry_aboard(s, t, v):
    """An infantry passenger of vehicle ``v`` (12.10), or -1."""
    for p in range(s.u.shape[0]):
        if s.u[p, U_ST] == CARRIED and s.u[p, U_CARRIER] == v and t.ut[s.u[p, U_TYPE], UT_KIND] == INFANTRY:
            return p
    return -1


@rule
def enter_on(s, t, u, g, e, fighting, into):  # noqa: C901 - entering a hex's cases (12.0-12.2, 12.10) read in one place
    """``enter`` once the holder's player has answered the 12.10 question: ``into`` the
    passenger that disembarks into the close-combat hex, or -1."""
    side = s.u[u, U_SIDE]
    from_h = s.g[G_CC_FROM]
    edition = t.p[P_EDITION]
    s.g[G_SUB] = SUB_ACT_END
    if into >= 0:                               # 12.10: fast action, not subject to reaction fire
        s.u[into, U_CARRIER] = -1
        s.u[into, U_ST] = ONMAP
        put(s, into, g)
        s.u[into, U_ACT] = ACT_FAST
        s.u[into, U_DONE] = 1
        log_event(s, EV_DISEMBARK, into, g, g, 2, NIL, NIL)
    if t.p[P_TRANSPORT] == 1:                   # 12.10: the passengers of a vehicle attacked get out
        for v in range(s.u.shape[0]):
            if s.u[v, U_ST] == ONMAP and s.u[v, U_HEX] == g and s.u[v, U_SIDE] != side:
                if edition == 2:                        # revised 12.4: shot at first
                    fire_at_passengers(s, t, u, v)
                passengers_hit(s, t, v, g, TR_DISEMBARK)
    if not fighting:
        te = s.u[e, U_TYPE]
        status, morale = md.enter_hex_of(t.ut[te, UT_KIND], s.u[e, U_MORALE], s.u[e, U_IMMOB], edition)
        if status == md.FELL_BACK and fallback_again(s, t, e, s.u[e, U_MORALE], FALLBACK):
            status = md.ELIMINATED                # 13.3 "ever" (option, reading S22)
        if status != md.IN_HEX:                       # 12.0: no close combat
            log_event(s, EV_ENTER_SUPPRESSED, u, e, status, NIL, NIL, NIL)
            if status == md.ELIMINATED:
                eliminate(s, t, e)
            else:
                set_morale(s, e, FALLBACK)
            shift(s, u, g)
            return
        flags = 0
        if s.u[e, U_DONE] == 1 or s.u[e, U_HELD] == 1:       # 12.8.1, revised 12.1.2.2
            flags |= F_ACT
        if s.u[e, U_MORALE] == SUPPRESSED:                    # revised 12.1.2.2
            flags |= F_SUPP
        flags |= entry_flags(s, t, e, g, from_h, True)     # 12.7.3, 12.8.2, revised 12.1.2.1, 12.1.3.1, 12.3
        if edition == 2 and t.hexi[g, HI_WIRE] == 1:           # revised 12.1.2.1: wire or a wall crossed
            flags |= F_WIRE
        if s.u[u, U_ACT] == ACT_FAST:
            flags |= F_FAST
        s.g[G_CCS] += 1
        s.hx[g, HX_CC + s.u[u, U_SIDE]] += 1                  # the batch's heat map: who starts one where
        s.g[G_CC_KIND] = KIND_INIT
        shift(s, u, g)
        s.u[u, U_CC] = CC_ACTIVE                               # 12.1: replaces the action marker
        s.u[u, U_ACT] = ACT_NONE
        s.u[u, U_CCROLE] = ROLE_A1
        s.u[e, U_CCROLE] = ROLE_D1
        s.g[G_CC_HEX] = g
        s.g[G_CC_A] = u
        s.g[G_CC_D] = e
        s.g[G_CC_FLAGS] = flags | holder_flags(s, t, e, g)
        log_event(s, EV_CC, u, e, g, NIL, s.g[G_CC_FLAGS], NIL)
        if into >= 0:                          # 12.10: the passenger fights the initiated exchange
            s.u[into, U_CCROLE] = ROLE_D2      # (penalised as activated, no terrain dice); the
            s.u[into, U_CC] = CC_ACTIVE        # transport gets an active marker and faces the attacker
            s.u[e, U_CC] = CC_ACTIVE
            s.u[e, U_DONE] = 1
            face_attacker(s, t, e, g, from_h)
            pf = (s.g[G_CC_FLAGS] & (F_FAST | F_ACT)) | F_PASS | F_ACT
            if exchange_or_ask(s, t, u, into, R1_INIT_A, R1_INIT_D, pf, AFTER_V1_INIT):
                after_v1_init(s, t, into, g)
            return
        if edition == 1:
            if exchange_or_ask(s, t, u, e, R1_INIT_A, R1_INIT_D, s.g[G_CC_FLAGS], AFTER_V1_INIT):
                after_v1_init(s, t, e, g)
        else:
            s.g[G_CC_ROUND] = 0
            s.g[G_CC_SUPA] = -1
            s.g[G_CC_SUPD] = -1
            s.u[e, U_CC] = CC_ACTIVE
            ask(s, t, Q_SUPPORT_A, side)
        return
    # 12.2: reinforcing a close combat (first edition only: the revised hex holds one a side);
    # the fight's sides are read before the entering unit is marked (it would find itself)
    a_side = attacking_side(s, g)
    shift(s, u, g)
    s.u[u, U_CC] = CC_ACTIVE
    s.u[u, U_ACT] = ACT_NONE
    s.u[u, U_CCROLE] = ROLE_A2 if side == a_side else ROLE_D2
    s.g[G_CC_HEX] = g
    s.g[G_CC_A] = u
    targets = 0
    last = -1
    for v in range(s.u.shape[0]):
        if in_cc(s, v) and s.u[v, U_HEX] == g and s.u[v, U_SIDE] != side and v != u:
            targets += 1
            last = v
    if targets > 1:
        ask(s, t, Q_TARGET, side)
    elif targets == 1:
        fight_v1(s, t, u, last, KIND_REIN)


@rule_inlined
def fire_at_passengers(s, t, u, v):
    """Revised 12.4: before its passengers' emergency disembark, the assault unit ``u``
    fires the strongest die of its range-0 attack at each unit vehicle ``v`` carries, which
    defends with its card dice only (``melee.situation.passenger_fire_pools``, the melee
    calculator's pools); each shot is resolved as ranged fire (10.7.3-10.7.6, the
    critical-hit roll included) on the passenger's own state. *Reading (S24):* the text's
    "may" is always taken: the shot is free and can only hurt the enemy."""
    half = 1 if s.u[u, U_DMG] >= t.ut[s.u[u, U_TYPE], UT_HALF] else 0
    for p in range(s.u.shape[0]):
        if s.u[p, U_ST] != CARRIED or s.u[p, U_CARRIER] != v:
            continue
        ak = passenger_fire_key(t, s.u[u, U_TYPE], s.u[p, U_TYPE], half, 0)
        if ak < 0:
            continue
        dk = passenger_fire_key(t, s.u[u, U_TYPE], s.u[p, U_TYPE], half, 1)
        total = sum_rolls(t.rows[ak, :t.pooli[ak, PO_N]], s.rng[0]) + sum_rolls(t.rows[dk, :t.pooli[dk, PO_N]],
                                                                                s.rng[0])
        c, h, sp = cancel_packed(total, t.pooli[ak, PO_EXTRA])
        atk = packed_field(total, 0) * 10000 + packed_field(total, 1) * 100 + packed_field(total, 2)
        dfn = packed_field(total, 3) * 10000 + packed_field(total, 4) * 100 + packed_field(total, 5)
        log_event(s, EV_ROLL, u, p, ak, dk, atk, dfn)
        apply_symbols(s, t, p, c, h, sp)


@rule
def after_v1_init(s, t, e, g):
    if s.u[e, U_ST] == ONMAP and s.u[e, U_CC] == CC_NONE and s.u[e, U_MORALE] != FALLBACK:
        s.u[e, U_CC] = CC_ACTIVE                       # 12.1: after the round
        s.u[e, U_DONE] = 1
    face_attacker(s, t, e, g, s.g[G_CC_FROM])          # 12.7.3, 12.8.2
    check_end(s, t, g, NO_UNIT)
    s.g[G_CC_Q] = Q_NONE
    s.g[G_SUB] = SUB_ACT_END


@rule
def after_v1_fight(s, t, h):
    if s.g[G_CC_KIND] == KIND_REIN:                    # 12.7.3, 12.8.2: the target turns to face
        face_attacker(s, t, s.g[G_CC_TGT], h, s.g[G_CC_FROM])
    check_end(s, t, h, NO_UNIT)
    s.g[G_CC_Q] = Q_NONE
    s.g[G_SUB] = SUB_ACT_END


@rule
def fight_v1(s, t, x, y, kind):
    """A first-edition exchange: reinforced (12.2) or renewed (12.3)."""
    h = s.u[x, U_HEX]
    rxy, ryx = v1_roles(s, x, y, kind)
    flags = holder_flags(s, t, y, h) | holder_flags(s, t, x, h)
    s.g[G_CC_KIND] = kind
    s.g[G_CC_TGT] = y
    if kind == KIND_REIN:
        flags |= entry_flags(s, t, y, h, s.g[G_CC_FROM], s.u[y, U_CCROLE] == ROLE_D1)
    log_event(s, EV_CC, x, y, h, kind, flags, NIL)
    s.u[y, U_CC] = CC_ACTIVE                  # 12.2, 12.3: the enemy counts as activated
    s.u[y, U_DONE] = 1
    s.g[G_CC_HEX] = h
    s.g[G_SUB] = SUB_ACT_END
    if exchange_or_ask(s, t, x, y, rxy, ryx, flags, AFTER_V1_FIGHT):
        after_v1_fight(s, t, h)


@rule
def renew_actions(s, t, u, out, n):
    """12.3: a unit with an inactive close-combat marker may renew against one enemy."""
    if t.ut[s.u[u, U_TYPE], UT_CC_INIT] == 0:
        return n
    h = s.u[u, U_HEX]
    for v in range(s.u.shape[0]):
        if in_cc(s, v) and s.u[v, U_HEX] == h and s.u[v, U_SIDE] != s.u[u, U_SIDE]:
            n = push(out, n, action(K_RENEW, u, v))
    return n


@rule
def can_renew(s, t, u):
    if t.ut[s.u[u, U_TYPE], UT_CC_INIT] == 0:
        return False
    h = s.u[u, U_HEX]
    for v in range(s.u.shape[0]):
        if in_cc(s, v) and s.u[v, U_HEX] == h and s.u[v, U_SIDE] != s.u[u, U_SIDE]:
            return True
    return False


@rule
def renew(s, t, u, e):
    s.u[u, U_CC] = CC_ACTIVE
    fight_v1(s, t, u, e, KIND_RENEW)


@rule
def leave(s, t, u):
    """``u`` leaves its close combat (withdrawal 12.6, fallback 12.5); the close combat
    ends when one side has no unit left in the hex."""
    if s.u[u, U_CC] == CC_NONE:
        return
    h = s.u[u, U_HEX]
    s.u[u, U_CC] = CC_NONE
    s.u[u, U_CCROLE] = ROLE_NONE
    log_event(s, EV_CC_WITHDRAW, u, h, NIL, NIL, NIL, NIL)
    check_end(s, t, h, u)


@rule
def check_end(s, t, h, skip):
    """12.6, revised 12.1.6.2: with one side left in the hex the close combat is over;
    its units lose their close-combat markers and are marked fast action, a status marker
    of an activated unit (12.6: the exhaustion of close combat), so they neither activate
    nor react again this turn; an over-stacked hex is cleared by its owner (12.6)."""
    a = count_in_cc(s, h, True, skip)
    d = count_in_cc(s, h, False, skip)
    if a > 0 and d > 0:
        return
    winner_side = -1
    left = 0
    holder_left = False
    for v in range(s.u.shape[0]):
        if v != skip and in_cc(s, v) and s.u[v, U_HEX] == h:
            winner_side = s.u[v, U_SIDE]
            if s.u[v, U_CCROLE] == ROLE_D1:
                holder_left = True
            s.u[v, U_CC] = CC_NONE
            s.u[v, U_CCROLE] = ROLE_NONE
            if s.u[v, U_MORALE] == STEADY:
                s.u[v, U_ACT] = ACT_FAST
            s.u[v, U_DONE] = 1                      # 12.6: exhausted, it neither acts nor reacts this turn
            left += 1
    if t.p[P_EDITION] == 2 and not holder_left:     # revised 12.2: the dug-in marker goes
        s.hx[h, HX_DUG] = 0
    log_event(s, EV_CC_END, h, winner_side, left, NIL, NIL, NIL)
    if left > 1:
        s.g[G_CC_PEND] = h + 1                      # cleared once the fallbacks are done


# ======================================================================================
# questions to the players
# ======================================================================================


@rule
def ask(s, t, q, side):
    s.g[G_CC_Q] = q
    s.g[G_DECIDER] = side
    s.g[G_SUB] = SUB_CC_WITHDRAW if (q == Q_WITHDRAW_A or q == Q_WITHDRAW_D) else SUB_CC_PICK


@rule
def can_support(s, t, v, side, h):
    """Revised 12.1.1.1: an un-activated unit of ``side`` next to the hex, with ranged
    fire, and a command point when that rule is on."""
    if s.u[v, U_ST] != ONMAP or s.u[v, U_SIDE] != side or s.u[v, U_CC] != CC_NONE:
        return False
    if s.u[v, U_DONE] == 1 or s.u[v, U_HELD] == 1 or s.u[v, U_MORALE] != STEADY:
        return False
    if dist(t, s.u[v, U_HEX], h) != 1 or t.ut[s.u[v, U_TYPE], UT_RANGED] == 0:
        return False
    if t.p[P_CP_RULE] == 1:
        ty = s.u[v, U_TYPE]
        if s.cp[side, ty, 0] <= s.cp[side, ty, 1]:
            return False
    return True


@rule
def overstack_moves(s, t, h, out, n):
    """12.6: one of two friendly units left in a former close-combat hex moves to an
    empty adjacent hex it may enter (``out`` may be too short: then only counted)."""
    for v in range(s.u.shape[0]):
        if s.u[v, U_ST] != ONMAP or s.u[v, U_HEX] != h:
            continue
        mt = t.ut[s.u[v, U_TYPE], UT_MTYPE]
        for d in range(6):
            g = t.side6[h, d, S6_NBR]
            if g < 0 or not empty(s, g) or t.side6[h, d, S6_COST + mt] < 0:
                continue
            n = push(out, n, action(K_CCPICK, v, g))
    return n


@rule
def cc_actions(s, t, out):
    q = s.g[G_CC_Q]
    n = 0
    h = s.g[G_CC_HEX]
    if q == Q_TARGET:
        u = s.g[G_CC_A]
        for v in range(s.u.shape[0]):
            if in_cc(s, v) and s.u[v, U_HEX] == h and s.u[v, U_SIDE] != s.u[u, U_SIDE]:
                n = push(out, n, action(K_CCPICK, u, v))
        return n
    if q == Q_OVERSTACK:
        return overstack_moves(s, t, h, out, NIL)
    if q == Q_SUPPORT_A or q == Q_SUPPORT_D:
        n = push(out, 0, action(K_STAY, NIL, NIL))    # no support
        side = s.g[G_DECIDER]
        for v in range(s.u.shape[0]):
            if can_support(s, t, v, side, h):
                n = push(out, n, action(K_CCPICK, v, h))
        return n
    if q == Q_WITHDRAW_A or q == Q_WITHDRAW_D:
        n = push(out, 0, action(K_STAY, NIL, NIL))
        if can_withdraw(s, t, s.g[G_CC_A] if q == Q_WITHDRAW_A else s.g[G_CC_D]):
            n = push(out, n, action(K_LEAVE, NIL, NIL))
        return n
    if q == Q_TRACKS:
        n = push(out, 0, action(K_VEHICLE, NIL, NIL))
        return push(out, n, action(K_TRACKS, NIL, NIL))
    if q == Q_PASSENGER:                              # 12.10: one infantry passenger, or none
        n = push(out, 0, action(K_STAY, NIL, NIL))
        d = s.g[G_CC_D]
        for p in range(s.u.shape[0]):
            if s.u[p, U_ST] == CARRIED and s.u[p, U_CARRIER] == d and t.ut[s.u[p, U_TYPE], UT_KIND] == INFANTRY:
                n = push(out, n, action(K_INTO_CC, p, h))
        return n
    return 0


@rule
def cc_pending(s, t):
    """Whether a close-combat question waits for a player (else carry on)."""
    q = s.g[G_CC_Q]
    if q == Q_OVERSTACK:
        if overstack_moves(s, t, s.g[G_CC_HEX], s.aux[AUX_QUEUE, :0], NIL) == 0:
            eliminate(s, t, last_unit_in(s, s.g[G_CC_HEX]))   # 12.6: nowhere to go
            s.g[G_CC_Q] = Q_NONE
            s.g[G_SUB] = s.g[G_CC_BACK]
            return False
    if q == Q_SUPPORT_A or q == Q_SUPPORT_D:
        found = False
        for v in range(s.u.shape[0]):
            if can_support(s, t, v, s.g[G_DECIDER], s.g[G_CC_HEX]):
                found = True
        if not found:
            support_chosen(s, t, NO_UNIT)
            return False
    return True


@rule
def last_unit_in(s, h):
    last = -1
    for v in range(s.u.shape[0]):
        if s.u[v, U_ST] == ONMAP and s.u[v, U_HEX] == h:
            last = v
    return last


@rule
def support_chosen(s, t, v):
    q = s.g[G_CC_Q]
    if v >= 0:
        s.u[v, U_DONE] = 1                           # revised 12.6 step 4: marked firing
        s.u[v, U_ACT] = ACT_FIRING
        if t.p[P_CP_RULE] == 1:
            s.cp[s.u[v, U_SIDE], s.u[v, U_TYPE], 1] += 1
    if q == Q_SUPPORT_A:
        s.g[G_CC_SUPA] = v
        ask(s, t, Q_SUPPORT_D, 1 - s.u[s.g[G_CC_A], U_SIDE])
    else:
        s.g[G_CC_SUPD] = v
        v2_round(s, t)


@rule
def v2_round(s, t):
    """A round of the revised edition (12.1), then the withdrawal questions (12.1.6.1)."""
    a = s.g[G_CC_A]
    d = s.g[G_CC_D]
    flags = s.g[G_CC_FLAGS]
    if s.g[G_CC_SUPA] >= 0:
        flags |= F_SUPA
    if s.g[G_CC_SUPD] >= 0:
        flags |= F_SUPD
    first = s.g[G_CC_ROUND] == 0
    done = False
    if first:
        done = exchange_or_ask(s, t, a, d, R2_FIRST_A, R2_FIRST_D, flags, AFTER_V2_ROUND)
    else:
        done = exchange_or_ask(s, t, a, d, R2_LATER_A, R2_LATER_D, flags & F_DUG, AFTER_V2_ROUND)
    if done:
        after_v2_round(s, t)


@rule
def after_v2_round(s, t):
    a = s.g[G_CC_A]
    d = s.g[G_CC_D]
    s.g[G_CC_ROUND] += 1
    both = in_cc(s, a) and in_cc(s, d) and s.u[a, U_MORALE] != FALLBACK and s.u[d, U_MORALE] != FALLBACK \
        and not must_leave(s, a) and not must_leave(s, d)
    if not both:
        check_end(s, t, s.g[G_CC_HEX], NO_UNIT)
        s.g[G_CC_Q] = Q_NONE
        s.g[G_SUB] = SUB_ACT_END
        return
    if s.g[G_CC_ROUND] >= V2_ROUND_CAP:          # rulings #9: the melee package's cap
        s.g[G_CC_Q] = Q_NONE
        s.g[G_SUB] = SUB_ACT_END
        return
    ask(s, t, Q_WITHDRAW_A, s.u[a, U_SIDE])


@rule
def withdraw_allowance(s, t, u):
    """Movement points of a withdrawal: a fast action (12.1.6.1)."""
    return t.ut[s.u[u, U_TYPE], UT_MOVE] + 1


@rule
def can_withdraw(s, t, u):
    """Revised 12.1.6.1: a unit may withdraw only if it can move out of the hex (an
    immobilised vehicle cannot, CC10; nor a unit with no hex to enter). Suppression does
    not stop it (a suppressed vehicle even must withdraw, revised 12.5)."""
    return any_step(s, t, u, s.u[u, U_HEX], MODE_WITHDRAW, withdraw_allowance(s, t, u), NIL)


@rule
def withdraw(s, t, u, other):
    """Revised 12.1.6.1: ``u`` leaves with a fast action (reaction fire may follow); the
    unit that stays is marked normal action."""
    h = s.u[u, U_HEX]
    s.u[u, U_CC] = CC_NONE
    s.u[u, U_CCROLE] = ROLE_NONE
    s.u[other, U_CC] = CC_NONE
    s.u[other, U_CCROLE] = ROLE_NONE
    s.u[other, U_ACT] = ACT_NORMAL
    s.u[other, U_DONE] = 1                           # an action marker: it has acted this turn
    if t.p[P_EDITION] == 2 and s.u[other, U_SIDE] == s.u[s.g[G_CC_A], U_SIDE]:
        s.hx[h, HX_DUG] = 0                          # revised 12.2: the defender withdrew
    log_event(s, EV_CC_WITHDRAW, u, h, NIL, NIL, NIL, NIL)
    s.g[G_CC_Q] = Q_NONE
    s.g[G_UNIT] = u
    s.aux[AUX_PATH, 0] = h
    s.g[G_PATHN] = 1
    s.g[G_STEPS] = 0
    s.u[u, U_ACT] = ACT_FAST
    s.u[u, U_DONE] = 1                               # (the defender too: its fast action is its turn)
    s.g[G_MODE] = MODE_WITHDRAW
    s.g[G_MP] = withdraw_allowance(s, t, u)
    s.g[G_SUB] = SUB_MOVE


@rule
def apply_cc(s, t, a):
    q = s.g[G_CC_Q]
    k = a_kind(a)
    if q == Q_PASSENGER:
        s.g[G_CC_Q] = Q_NONE
        enter_on(s, t, s.g[G_CC_A], s.g[G_CC_HEX], s.g[G_CC_D], False, a_unit(a) if k == K_INTO_CC else -1)
    elif q == Q_TRACKS:
        s.g[G_CC_Q] = Q_NONE
        s.g[G_CC_TRACKS] = 1 if k == K_TRACKS else 0
        log_event(s, EV_TRACKS, s.g[G_CC_X], s.g[G_CC_Y], s.g[G_CC_TRACKS], NIL, NIL, NIL)
        exchange(s, t, s.g[G_CC_X], s.g[G_CC_Y], s.g[G_CC_RXY], s.g[G_CC_RYX], s.g[G_CC_XF])
        after_exchange(s, t, s.g[G_CC_AFTER])
    elif q == Q_TARGET:
        s.g[G_CC_Q] = Q_NONE
        fight_v1(s, t, a_unit(a), a_arg(a), KIND_REIN)
    elif q == Q_OVERSTACK:
        v = a_unit(a)
        g = a_arg(a)
        h = s.u[v, U_HEX]
        shift(s, v, g)                               # 12.6: not subject to reaction fire
        s.u[v, U_ACT] = ACT_FAST
        s.u[v, U_DONE] = 1                           # 12.6: marked as having acted
        for d in range(6):                           # 9.5: delayed when the hex is harsh for it
            if t.side6[h, d, S6_NBR] == g and t.side6[h, d, S6_COST + t.ut[s.u[v, U_TYPE], UT_MTYPE]] \
                    > t.ut[s.u[v, U_TYPE], UT_MOVE]:
                s.u[v, U_ACT] = ACT_DELAYED
        log_event(s, EV_OVERSTACK, v, h, g, 1 if s.u[v, U_ACT] == ACT_DELAYED else 0, NIL, NIL)
        s.g[G_CC_Q] = Q_NONE
        s.g[G_SUB] = s.g[G_CC_BACK]
    elif q == Q_SUPPORT_A or q == Q_SUPPORT_D:
        support_chosen(s, t, a_unit(a) if k == K_CCPICK else NO_UNIT)
    elif q == Q_WITHDRAW_A:
        a_u = s.g[G_CC_A]
        d_u = s.g[G_CC_D]
        if k == K_LEAVE:
            withdraw(s, t, a_u, d_u)
        else:
            ask(s, t, Q_WITHDRAW_D, s.u[d_u, U_SIDE])
    elif q == Q_WITHDRAW_D:
        a_u = s.g[G_CC_A]
        d_u = s.g[G_CC_D]
        if k == K_LEAVE:
            withdraw(s, t, d_u, a_u)
        else:
            s.g[G_CC_Q] = Q_NONE
            v2_round(s, t)


@rule
def start_overstack(s, t):
    """Called by the turn loop when no fallback is pending: clear an over-stacked hex."""
    h = s.g[G_CC_PEND] - 1
    s.g[G_CC_PEND] = 0
    side = -1
    count = 0
    for v in range(s.u.shape[0]):
        if s.u[v, U_ST] == ONMAP and s.u[v, U_HEX] == h:
            side = s.u[v, U_SIDE]
            count += 1
    if count <= 1:
        return
    s.g[G_CC_HEX] = h
    s.g[G_CC_BACK] = s.g[G_SUB]
    ask(s, t, Q_OVERSTACK, side)


int64_constants(globals())
