"""Area attacks by mortar squads (001 Area attacks; Mortar crew; rulings T8).

A fresh mortar squad (neither pinned nor disrupted) may attack a whole hex holding enemy
units: its mortar figures fire alone (No Mixed Fire), at least ``P_MORTAR_MIN`` hexes
away (Minimum Distance), not from a building or a pillbox, with its own line of sight or
one of a non-fatigued friendly unit (Ballistic Fire); black dice succeed on 5-6, 6 at
long range (``simulator.games.toi.rules.attack.AREA_BAND_SUCCESS_FROM``). Every unit in the hex rolls
its own defence dice and takes its own result; a suppressive area attack leaves the
vehicles alone (001 step 3); 3+ successes remove razor wire (rulings T37); concealed
squads are left alone (T39). The attack may be supported (001 Combined fire; rulings T8,
T42): every other fresh friendly unit that can attack a unit of the hex adds half its FPR
against it (mortar squads with their mortars, Ballistic Fire included; the others as in
combined fire), the least favourable range sets the band, all who add are fatigued and
revealed. Not yet: strategy-card area attacks (mortars never op fire, 001 No Op Fire).
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, push, rule
from simulator.games.toi.game.events import EV_FIRE, REVEAL_FIRED, log
from simulator.games.toi.game.fire import (
    HOW_CONCENTRATED,
    ROLE_SUPPORT,
    can_support,
    cover_dice,
    flame_reaches,
    share,
    shot_at,
)
from simulator.games.toi.game.state import (
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
    U_MARK,
    U_MODEL,
    U_SIDE,
    U_ST,
    U_TOKEN,
    action,
    area_arg,
)
from simulator.games.toi.game.tables import (
    FT_AREA,
    FT_IFPR,
    FT_IRANGE,
    FT_VFPR,
    FT_VRANGE,
    HI_ELEV,
    HI_NO_MORTAR,
    HI_PILLBOX,
    P_FLAME_CUT,
    P_HIGHER,
    P_MORTAR_MIN,
    P_N_FIG,
    P_N_HEX,
    P_N_UNITS,
    P_WIRE_AREA,
    VT_THICK,
)
from simulator.games.toi.game.units import (
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
from simulator.games.toi.rules.jit import (
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
    """``(strength, band)`` of the squad's mortar figures leading an attack on hex ``h``."""
    return mortar_share(s, t, k, h, vs_vehicle, 0)


@rule
def mortar_share(s, t, k, h, vs_vehicle, halvings):
    """``(strength, band)`` of the squad's mortar figures against hex ``h`` with ``halvings``
    (1 supporting, 001 Combined fire) besides an obstacle or smoke in its own hex (rulings
    T2); strength -1 if they cannot reach it or are halved twice (rulings #15, T1)."""
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
    strength = halved_fpr_jit(fpr, halvings + (1 if obstacle_halves(s, t, a) or smoke_in(s, a) else 0))   # T2
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
def attackable(s, t, j, foe, mode):
    """Unit ``j`` is one the area attack on its hex attacks: an enemy, not concealed (rulings
    T39), not a vehicle when the attack is suppressive (001 step 3)."""
    return s.u[j, U_SIDE] == foe and not hidden(s, j) and not (is_vehicle(s, j) and mode != MODE_NORMAL)


@rule
def support_share(s, t, j, h, target):
    """``(strength, band)`` supporter ``j`` adds against unit ``target`` of hex ``h``
    (rulings T42): a mortar squad with its mortars (Minimum Distance, not from a building or
    pillbox, Ballistic Fire) at half FPR, any other unit as in combined fire."""
    if has_mortar(s, t, j):
        if not can_fire_mortars(s, t, j) or not sees_hex(s, t, j, h):
            return -1, 0
        return mortar_share(s, t, j, h, is_vehicle(s, target), 1)
    return share(s, t, j, target, ROLE_SUPPORT, HOW_CONCENTRATED)


@rule
def area_supporters_exist(s, t, k, h, mode):
    """Another fresh friendly unit that can add to mortar squad ``k``'s area attack on hex
    ``h`` against one of the units it attacks (001 Combined fire; rulings T42)."""
    side = s.u[k, U_SIDE]
    for i in range(t.p[P_N_UNITS]):
        if s.u[i, U_ST] != ONMAP or s.u[i, U_HEX] != h or not attackable(s, t, i, 1 - side, mode):
            continue
        if mortar_fpr(s, t, k, h, is_vehicle(s, i))[0] <= 0:
            continue
        for j in range(t.p[P_N_UNITS]):
            if j != k and can_support(s, j, side, HOW_CONCENTRATED) and support_share(s, t, j, h, i)[0] > 0:
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
            for mode in range(MODE_NORMAL, MODE_SUPPRESSIVE + 1):
                n = push(out, n, action(K_AREA, k, area_arg(h, mode, 0)))
                if area_supporters_exist(s, t, k, h, mode):     # rulings T42: none or every one
                    n = push(out, n, action(K_AREA, k, area_arg(h, mode, 1)))
    return n


@rule
def add_supporters(s, t, k, h, j, strength, band):
    """Every eligible supporter's share against unit ``j`` of hex ``h`` added to the lead's
    ``strength`` (001 Combined fire: the least favourable range sets the ``band``); marks
    them (``U_MARK``) to be fatigued once the attack is over. Returns ``(strength, band,
    flames)``, ``flames`` when a supporting flamethrower cuts the cover (rulings T4, T5, T42)."""
    side = s.u[k, U_SIDE]
    flames = False
    for i in range(t.p[P_N_UNITS]):
        if i == k or not can_support(s, i, side, HOW_CONCENTRATED):
            continue
        st, bd = support_share(s, t, i, h, j)
        if st > 0:
            strength += st
            if bd > band:
                band = bd
            if not has_mortar(s, t, i) and flame_reaches(s, t, i, t.dist[s.u[i, U_HEX], h], ROLE_SUPPORT):
                flames = True
            s.u[i, U_MARK] = 1
    return strength, band, flames


@rule
def area_attack(s, t, k, h, mode, support):
    """Every unit in hex ``h`` rolls its own defence against the mortars (001 Area attacks),
    with every eligible supporter's half FPR against it if ``support`` (rulings T42).
    Razor wire goes with 3+ successes of the roll against the hex's first squad, or its
    first vehicle if it holds no squad (001 Razor wire; rulings T8, T37)."""
    foe = 1 - s.u[k, U_SIDE]
    squads = False
    for j in range(t.p[P_N_UNITS]):
        if s.u[j, U_ST] == ONMAP and s.u[j, U_HEX] == h and not is_vehicle(s, j):
            squads = True
    decided = not wire_in(s, h)
    for j in range(t.p[P_N_UNITS]):
        if s.u[j, U_ST] != ONMAP or s.u[j, U_HEX] != h or not attackable(s, t, j, foe, mode):
            continue                                   # concealed squads; vehicles against suppressive
        vehicle = is_vehicle(s, j)
        strength, band = mortar_fpr(s, t, k, h, vehicle)
        if strength <= 0:
            continue
        flames = False
        if support == 1:                               # 001 Combined fire (rulings T42)
            strength, band, flames = add_supporters(s, t, k, h, j, strength, band)
        cover = cover_dice(s, t, j, mode, t.p[P_FLAME_CUT] if flames else 0)
        black = roll(s, strength, AREA_CLOSE if band == 0 else (AREA_NORMAL if band == 1 else AREA_LONG))
        red = roll(s, cover, RED_SUCCESS_FROM)
        if vehicle and t.vt[s.u[j, U_MODEL], VT_THICK] == 1 and red < cover:
            red += 1
        hits = net_hits_jit(black, red)
        log(s, EV_FIRE, k, j, mode + 2, strength, cover, hits)    # mode + 2: an area attack
        shot_at(s, j, h)
        if not decided and (not vehicle or not squads):
            decided = True
            if black >= t.p[P_WIRE_AREA]:
                remove_wire(s, h)
        if hits > 0:
            if mode == MODE_NORMAL:
                normal_hits(s, t, j, hits)
            else:
                suppress(s, t, j, hits)
    for i in range(t.p[P_N_UNITS]):                    # the supporters: fatigued, revealed
        if s.u[i, U_MARK] == 1:
            s.u[i, U_MARK] = 0
            s.u[i, U_TOKEN] = TOK_FATIGUED
            reveal(s, i, REVEAL_FIRED)
    s.u[k, U_TOKEN] = TOK_FATIGUED
    reveal(s, k, REVEAL_FIRED)                         # 001 Concealed squads: firing reveals


int64_constants(globals())
