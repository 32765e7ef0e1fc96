"""Area attacks by mortar squads (001 Area attacks; Mortar crew; rulings T8).

A fresh mortar squad (neither pinned nor disrupted) may attack a whole hex holding enemy
units: its mortar figures fire alone (No Mixed Fire), at least ``P_MORTAR_MIN`` hexes
away (Minimum Distance), not from a building or a pillbox, with its own line of sight or
one of a non-fatigued friendly unit (Ballistic Fire); black dice succeed on 5-6, 6 at
long range (``simulator.toi.attack.AREA_BAND_SUCCESS_FROM``). Every unit in the hex rolls
its own defence dice and takes its own result; a suppressive area attack leaves the
vehicles alone (001 step 3); 3+ successes remove razor wire (rulings T37); concealed
squads are left alone (T39). Not yet: supporters, strategy-card area attacks (mortars
never op fire, 001 No Op Fire).
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, push, rule
from simulator.engine.toi.events import EV_FIRE, REVEAL_FIRED, log
from simulator.engine.toi.fire import cover_dice
from simulator.engine.toi.state import (
    COND_NORMAL,
    K_AREA,
    MODE_NORMAL,
    MODE_SUPPRESSIVE,
    ONMAP,
    TOK_FATIGUED,
    U_COND,
    U_FIG,
    U_HEX,
    U_IN,
    U_MODEL,
    U_SIDE,
    U_ST,
    U_TOKEN,
    action,
)
from simulator.engine.toi.tables import (
    FT_AREA,
    FT_IFPR,
    FT_IRANGE,
    FT_VFPR,
    FT_VRANGE,
    HI_ELEV,
    HI_NO_MORTAR,
    HI_PILLBOX,
    P_HIGHER,
    P_MORTAR_MIN,
    P_N_FIG,
    P_N_HEX,
    P_N_UNITS,
    P_WIRE_AREA,
    VT_THICK,
)
from simulator.engine.toi.units import (
    has_mortar,
    hidden,
    is_vehicle,
    normal_hits,
    obstacle_halves,
    remove_wire,
    reveal,
    roll,
    sees,
    smoke_in,
    suppress,
    visible_in,
    wire_in,
)
from simulator.toi.jit import (
    AREA_CLOSE,
    AREA_LONG,
    AREA_NORMAL,
    RED_SUCCESS_FROM,
    band_index_jit,
    halved_fpr_jit,
    net_hits_jit,
)


@rule
def mortar_fpr(s, t, k, h, vs_vehicle):
    """``(strength, band)`` of the squad's mortar figures against hex ``h`` (strength -1 if
    they cannot reach it)."""
    a = s.u[k, U_HEX]
    d = t.dist[a, h]
    if d < t.p[P_MORTAR_MIN]:
        return -1, 0
    bonus = t.p[P_HIGHER] if t.hexi[a, HI_ELEV] > t.hexi[h, HI_ELEV] else 0
    fpr = 0
    band = -1
    for f in range(t.p[P_N_FIG]):
        n = s.u[k, U_FIG + f]
        if n == 0 or t.ft[f, FT_AREA] == 0:
            continue
        bi = band_index_jit(d, (t.ft[f, FT_VRANGE] if vs_vehicle else t.ft[f, FT_IRANGE]) + bonus)
        if bi < 0:
            continue
        fpr += n * (t.ft[f, FT_VFPR] if vs_vehicle else t.ft[f, FT_IFPR])
        if bi > band:
            band = bi
    if band < 0 or fpr == 0:
        return -1, 0
    strength = halved_fpr_jit(fpr, 1 if obstacle_halves(s, t, a) or smoke_in(s, a) else 0)   # rulings T2
    return (strength, band) if strength > 0 else (-1, 0)


@rule
def can_fire_mortars(s, t, k):
    h = s.u[k, U_HEX]
    return (s.u[k, U_COND] == COND_NORMAL and has_mortar(s, t, k) and t.hexi[h, HI_NO_MORTAR] == 0
            and not (s.u[k, U_IN] == 1 and t.hexi[h, HI_PILLBOX] == 1))


@rule
def sees_hex(s, t, k, h):
    """The squad's own LOS, or a non-fatigued friendly unit's (001 Mortar crew: Ballistic Fire)."""
    if sees(s, t, s.u[k, U_HEX], h):
        return True
    side = s.u[k, U_SIDE]
    for j in range(t.p[P_N_UNITS]):
        if (s.u[j, U_ST] == ONMAP and s.u[j, U_SIDE] == side and s.u[j, U_TOKEN] != TOK_FATIGUED
                and sees(s, t, s.u[j, U_HEX], h)):
            return True
    return False


@rule
def area_actions(s, t, k, out, n):
    if not can_fire_mortars(s, t, k):
        return n
    foe = 1 - s.u[k, U_SIDE]
    for h in range(t.p[P_N_HEX]):
        if not visible_in(s, t, h, foe):            # 001 Concealed squads: not affected (rulings T39)
            continue
        if mortar_fpr(s, t, k, h, False)[0] <= 0 and mortar_fpr(s, t, k, h, True)[0] <= 0:
            continue
        if sees_hex(s, t, k, h):
            n = push(out, n, action(K_AREA, k, h * 2 + MODE_NORMAL))
            n = push(out, n, action(K_AREA, k, h * 2 + MODE_SUPPRESSIVE))
    return n


@rule
def area_attack(s, t, k, h, mode):
    """Every unit in hex ``h`` rolls its own defence against the mortars (001 Area attacks).
    Razor wire goes with 3+ successes of the roll against the hex's first squad, or its
    first vehicle if it holds no squad (001 Razor wire; rulings T8, T37)."""
    foe = 1 - s.u[k, U_SIDE]
    squads = False
    for j in range(t.p[P_N_UNITS]):
        if s.u[j, U_ST] == ONMAP and s.u[j, U_HEX] == h and not is_vehicle(s, j):
            squads = True
    decided = not wire_in(s, h)
    for j in range(t.p[P_N_UNITS]):
        if s.u[j, U_ST] != ONMAP or s.u[j, U_HEX] != h or s.u[j, U_SIDE] != foe or hidden(s, j):
            continue
        vehicle = is_vehicle(s, j)
        if vehicle and mode != MODE_NORMAL:
            continue                                   # vehicles are immune to suppressive attacks
        strength, band = mortar_fpr(s, t, k, h, vehicle)
        if strength <= 0:
            continue
        cover = cover_dice(s, t, j, mode, 0)
        black = roll(s, strength, AREA_CLOSE if band == 0 else (AREA_NORMAL if band == 1 else AREA_LONG))
        red = roll(s, cover, RED_SUCCESS_FROM)
        if vehicle and t.vt[s.u[j, U_MODEL], VT_THICK] == 1 and red < cover:
            red += 1
        hits = net_hits_jit(black, red)
        log(s, EV_FIRE, k, j, mode + 2, strength, cover, hits)    # mode + 2: an area attack
        if not decided and (not vehicle or not squads):
            decided = True
            if black >= t.p[P_WIRE_AREA]:
                remove_wire(s, h)
        if hits > 0:
            if mode == MODE_NORMAL:
                normal_hits(s, t, j, hits)
            else:
                suppress(s, t, j, hits)
    s.u[k, U_TOKEN] = TOK_FATIGUED
    reveal(s, k, REVEAL_FIRED)                         # 001 Concealed squads: firing reveals


int64_constants(globals())
