"""Ranged attacks in a game: concentrated fire with combined fire, fire and movement, op
fire (001 Combat; Resolving an attack; Combined fire; Opportunity fire).

The dice, the range bands, who fires with what, the halvings, the cover dice and the result
tables are the calculator's (:mod:`simulator.games.toi.rules.shares` and the others, compiled
through :mod:`simulator.games.toi.rules.jit`); this module reads their numbers from the state,
finds who may fire at whom and applies the result to it.
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule, rule_inlined
from simulator.games.toi.game.events import EV_FIRE, EV_OPFIRE, REVEAL_FIRED, log
from simulator.games.toi.game.state import (
    COND_NORMAL,
    COND_PINNED,
    DMG_HEAVY,
    DMG_LIGHT,
    G_MP,
    G_STURDY,
    G_UNIT,
    HT_SHOT,
    MODE_NORMAL,
    ONMAP,
    TOK_FATIGUED,
    TOK_FRESH,
    TOK_OPFIRE,
    U_COND,
    U_DMG,
    U_FIG,
    U_HEX,
    U_IN,
    U_MODEL,
    U_RAPID,
    U_SIDE,
    U_ST,
    U_TOKEN,
)
from simulator.games.toi.game.tables import (
    FT_AREA,
    FT_HARDENED,
    FT_IFPR,
    FT_IRANGE,
    FT_RAPID,
    FT_VFPR,
    FT_VRANGE,
    HI_CONCUSSIVE,
    HI_COVER,
    HI_ELEV,
    HI_FORT_COVER,
    HI_MINES,
    HI_PILLBOX,
    HI_TRAP,
    P_AT_FPR,
    P_AT_RANGE,
    P_CONC_FPR,
    P_CONC_RANGE,
    P_DETERMINATION,
    P_FLAME_CUT,
    P_FLAME_DIST,
    P_FLAME_FPR,
    P_FLAME_SUPPORT,
    P_HIGHER,
    P_MEDIC_COVER,
    P_N_FIG,
    P_N_UNITS,
    P_SMOKE_COVER,
    SPEC_ANTI_TANK,
    SPEC_FLAMETHROWER,
    VT_ARMOUR,
    VT_CONCUSSIVE,
    VT_IFPR,
    VT_IRANGE,
    VT_STURDY,
    VT_THICK,
    VT_VFPR,
    VT_VRANGE,
)
from simulator.games.toi.game.units import (
    ability,
    damage,
    has_mortar,
    has_officer,
    hidden,
    is_vehicle,
    lose_figures,
    medic_in_hex,
    officer_in_hex,
    reveal,
    roll,
    sees,
    smoke_in,
    suppress,
    wire_in,
)
from simulator.games.toi.rules.jit import (
    RED_SUCCESS_FROM,
    SUCCESS_CLOSE,
    SUCCESS_LONG,
    SUCCESS_NORMAL,
    ability_cover_jit,
    defence_dice_jit,
    figure_band_jit,
    firer_halvings_jit,
    hex_halvings_jit,
    net_hits_jit,
    squad_bonus_jit,
    strength_after_jit,
    vehicle_fire_jit,
)

ROLE_LEAD, ROLE_SUPPORT = 0, 1
HOW_CONCENTRATED, HOW_FIREMOVE, HOW_OPFIRE, HOW_RAPID = 0, 1, 2, 3    # HOW_RAPID: op fire by MG crews alone


@rule_inlined
def success_from(band):
    if band == 0:
        return SUCCESS_CLOSE
    if band == 1:
        return SUCCESS_NORMAL
    return SUCCESS_LONG


@rule
def halvings_of(s, t, k, role, how):
    """How often unit ``k``'s FPR is halved in this attack, -1 when it may not fire at all:
    :func:`simulator.games.toi.rules.shares.firer_halvings` with the state's numbers (its hex:
    smoke and a minefield halve all units, razor wire squads; rulings T2, T36)."""
    a = s.u[k, U_HEX]
    cond = s.u[k, U_COND]
    veh = is_vehicle(s, k)
    for_all = (1 if smoke_in(s, a) else 0) + (1 if t.hexi[a, HI_MINES] == 1 else 0)
    in_hex = hex_halvings_jit(for_all, 1 if wire_in(s, a) else 0, veh)
    officer = cond == COND_PINNED and officer_in_hex(s, t, a, s.u[k, U_SIDE])
    return firer_halvings_jit(cond, role == ROLE_LEAD, how == HOW_CONCENTRATED, officer, role == ROLE_SUPPORT,
                              how == HOW_FIREMOVE, in_hex, veh and s.u[k, U_DMG] == DMG_HEAVY)


@rule
def share(s, t, k, target, role, how):
    """``(strength, band)`` unit ``k`` adds to an attack on ``target``; strength -1 when it
    cannot take part.

    001 Range (figures that cannot reach are left out, the lowest range of those firing
    sets the band, +1 range from higher ground: rulings T3), 001 step 1 (FPR is the sum over
    the figures), 001 Combined fire (supporters at half FPR), Fire & Movement (half FPR,
    no long range), Officer: Rally (a pinned squad leading a concentrated attack with an
    officer in its hex fires at half FPR), halved twice: no attack (rulings #15, T1).
    Mortar figures make area attacks only (``area.py``).
    """
    a = s.u[k, U_HEX]
    b = s.u[target, U_HEX]
    if hidden(s, target):                         # 001 Concealed squads: never fired upon (rulings T39)
        return -1, 0
    if not sees(s, t, a, b):                      # 001 Combat: range and LOS; 001 Smoke: blocking
        return -1, 0
    if is_vehicle(s, k) and how == HOW_RAPID and role == ROLE_LEAD:
        return -1, 0                              # 001 MG crew: Rapid Op Fire is the MG crews' (rulings T30)
    halvings = halvings_of(s, t, k, role, how)
    if halvings < 0:
        return -1, 0
    d = t.dist[a, b]
    bonus = t.p[P_HIGHER] if t.hexi[a, HI_ELEV] > t.hexi[b, HI_ELEV] else 0
    if is_vehicle(s, k):
        fpr, band = vehicle_fpr(s, t, k, target, d, bonus)
    else:
        fpr, band = squad_fpr(s, t, k, target, d, bonus, role, how)
    if band < 0 or (how == HOW_FIREMOVE and band == 2):
        return -1, 0                              # 001 Fire & movement: no long-range attack
    strength = strength_after_jit(fpr, halvings)
    if strength <= 0:
        return -1, 0
    return strength, band


@rule
def squad_fpr(s, t, k, target, d, bonus, role, how):
    """A squad's FPR and band against ``target`` before halving (001 step 1, Range; rulings
    T3): the figures that reach it (:func:`~simulator.games.toi.rules.shares.figure_band`; the
    MG crews alone in Rapid Op Fire), with Armor-Piercing Weaponry (anti-tank) and Flaming
    Death (:func:`~simulator.games.toi.rules.shares.squad_bonus`; supporters as rulings T4 says)."""
    vs_vehicle = is_vehicle(s, target)
    at = vs_vehicle and ability(s, k, SPEC_ANTI_TANK)
    fpr = 0
    band = -1
    if has_mortar(s, t, k):
        return 0, -1                              # 001 Mortar crew: No Mixed Fire, area attacks only
    for f in range(t.p[P_N_FIG]):
        n = s.u[k, U_FIG + f]
        if n == 0 or t.ft[f, FT_AREA] == 1:
            continue
        if how == HOW_RAPID and role == ROLE_LEAD and t.ft[f, FT_RAPID] == 0:
            continue                              # 001 MG crew: Rapid Op Fire, its MG crews alone
        f_fpr = t.ft[f, FT_VFPR] if vs_vehicle else t.ft[f, FT_IFPR]    # 001 Combat: FPR by target type
        f_rng = t.ft[f, FT_VRANGE] if vs_vehicle else t.ft[f, FT_IRANGE]
        bi = figure_band_jit(f_fpr, f_rng, d, bonus, at, t.p[P_AT_RANGE])
        if bi < 0:
            continue
        fpr += n * f_fpr
        if bi > band:
            band = bi
    if band >= 0:
        fpr += squad_bonus_jit(at, t.p[P_AT_FPR], flame_reaches(s, t, k, d, role), t.p[P_FLAME_FPR])
    return fpr, band


@rule_inlined
def flame_reaches(s, t, k, d, role):
    return (ability(s, k, SPEC_FLAMETHROWER) and d <= t.p[P_FLAME_DIST]
            and (role == ROLE_LEAD or t.p[P_FLAME_SUPPORT] == 1))


@rule
def vehicle_fpr(s, t, k, target, d, bonus):
    """A vehicle's FPR and band (001 Combat; Tanks: Concussive Firepower against a squad in a
    building or pillbox, rulings T4): :func:`~simulator.games.toi.rules.shares.vehicle_fire`;
    band -1 when it cannot fire (no firepower against this target, out of range)."""
    m = s.u[k, U_MODEL]
    conc = False
    if is_vehicle(s, target):
        fpr, rng = t.vt[m, VT_VFPR], t.vt[m, VT_VRANGE]
    else:
        fpr, rng = t.vt[m, VT_IFPR], t.vt[m, VT_IRANGE]
        h = s.u[target, U_HEX]
        conc = t.vt[m, VT_CONCUSSIVE] == 1 and (t.hexi[h, HI_CONCUSSIVE] == 1
                                               or (s.u[target, U_IN] == 1 and t.hexi[h, HI_PILLBOX] == 1))
    if fpr == 0:
        return 0, -1
    fpr, rng, band = vehicle_fire_jit(fpr, rng, conc, t.p[P_CONC_FPR], t.p[P_CONC_RANGE], d, bonus)
    return fpr, band


@rule_inlined
def can_support(s, k, side, how):
    """001 Combined fire: other fresh friendly units; op fire: those in op fire mode."""
    if s.u[k, U_ST] != ONMAP or s.u[k, U_SIDE] != side:
        return False
    if how == HOW_OPFIRE or how == HOW_RAPID:
        return s.u[k, U_TOKEN] == TOK_OPFIRE and s.u[k, U_COND] == COND_NORMAL
    return s.u[k, U_TOKEN] == TOK_FRESH


@rule
def supporters_exist(s, t, lead, target, how):
    side = s.u[lead, U_SIDE]
    for k in range(t.p[P_N_UNITS]):
        if k != lead and can_support(s, k, side, how) and share(s, t, k, target, ROLE_SUPPORT, how)[0] > 0:
            return True
    return False


@rule
def cover_dice(s, t, target, mode, cut):
    """001 step 2: :func:`simulator.games.toi.rules.shares.defence_dice` with the state's
    numbers: the target hex's cover and smoke (all units), a fortification it is in and a
    tank trap (squads), abilities (:func:`~simulator.games.toi.rules.shares.ability_cover`:
    Battle-Hardened, Determination, Bandage; rulings T6), less ``cut`` (a flamethrower,
    rulings T5), then a vehicle's armour (-1 when damaged; rulings T7)."""
    h = s.u[target, U_HEX]
    cover_all = t.hexi[h, HI_COVER] + (t.p[P_SMOKE_COVER] if smoke_in(s, h) else 0)
    if is_vehicle(s, target):
        armour = max(t.vt[s.u[target, U_MODEL], VT_ARMOUR] - (1 if s.u[target, U_DMG] > 0 else 0), 0)
        return defence_dice_jit(cover_all, 0, True, 0, cut, armour)
    side = s.u[target, U_SIDE]
    squads = t.hexi[h, HI_TRAP] + (t.hexi[h, HI_FORT_COVER] if s.u[target, U_IN] == 1 else 0)
    suppressive = mode != MODE_NORMAL
    hardened = 0
    officer = False
    medic = False
    if suppressive:
        for f in range(t.p[P_N_FIG]):
            hardened += s.u[target, U_FIG + f] * t.ft[f, FT_HARDENED]
        officer = has_officer(s, t, target) or officer_in_hex(s, t, h, side)
    else:
        medic = medic_in_hex(s, t, h, side)
    abilities = ability_cover_jit(suppressive, hardened, officer, t.p[P_DETERMINATION], medic, t.p[P_MEDIC_COVER])
    return defence_dice_jit(cover_all, squads, False, abilities, cut, 0)


@rule
def shot_at(s, k, h):
    """The batch's heat map (not a rule): an attack at unit ``k`` in hex ``h`` (one per
    EV_FIRE / EV_OPFIRE event)."""
    if h >= 0:
        s.heat[h, HT_SHOT + s.u[k, U_SIDE]] += 1


@rule
def attack(s, t, lead, target, mode, support, how):
    """Resolve an attack led by ``lead`` (with every eligible supporter if ``support``) and
    apply it; everyone who fired is fatigued (001 Combined fire; Opportunity fire).
    Returns the hits."""
    strength, band = share(s, t, lead, target, ROLE_LEAD, how)
    side = s.u[lead, U_SIDE]
    flames = flame_reaches(s, t, lead, t.dist[s.u[lead, U_HEX], s.u[target, U_HEX]], ROLE_LEAD)
    if support == 1 and how != HOW_FIREMOVE:      # 001 Fire & movement: no support
        for k in range(t.p[P_N_UNITS]):
            if k != lead and can_support(s, k, side, how):
                st, bd = share(s, t, k, target, ROLE_SUPPORT, how)
                if st > 0:
                    strength += st
                    if flame_reaches(s, t, k, t.dist[s.u[k, U_HEX], s.u[target, U_HEX]], ROLE_SUPPORT):
                        flames = True
                    if bd > band:
                        band = bd             # 001 Combined fire: the least favourable range
                    s.u[k, U_TOKEN] = TOK_FATIGUED
                    reveal(s, k, REVEAL_FIRED)    # 001 Concealed squads: supporting reveals
    cover = cover_dice(s, t, target, mode, t.p[P_FLAME_CUT] if flames else 0)
    black = roll(s, strength, success_from(band))
    red = roll(s, cover, RED_SUCCESS_FROM)
    if is_vehicle(s, target) and t.vt[s.u[target, U_MODEL], VT_THICK] == 1 and red < cover:
        red += 1                                  # 001 Tanks: Thick Armor (rulings T9)
    hits = net_hits_jit(black, red)
    log(s, EV_OPFIRE if how >= HOW_OPFIRE else EV_FIRE, lead, target, mode, strength, cover, hits)
    shot_at(s, target, s.u[target, U_HEX])
    reveal(s, lead, REVEAL_FIRED)                 # 001 Concealed squads: firing reveals
    if how == HOW_RAPID:                          # stays in op fire mode; this target is used up
        s.u[lead, U_RAPID + (target >> 6)] |= 1 << (target & 63)
    else:
        s.u[lead, U_TOKEN] = TOK_FATIGUED
    if hits > 0:
        if is_vehicle(s, target):
            before = s.u[target, U_DMG]
            after = damage(s, t, target, hits)
            if after == DMG_LIGHT and before == 0 and s.g[G_UNIT] == target:
                s.g[G_MP] = max(s.g[G_MP] - 1, 0)  # lightly damaged: -1 movement, at once
                if how >= HOW_OPFIRE and t.vt[s.u[target, U_MODEL], VT_STURDY] == 1:
                    s.g[G_STURDY] = 1             # 001 Tanks: Sturdy, not fatigued by light damage
        elif mode == MODE_NORMAL:
            lose_figures(s, t, target, hits)      # 001 Normal attack results: figures
        else:
            suppress(s, t, target, hits)          # 001 Suppressive attack results
    return hits


_unused = (COND_NORMAL,)
int64_constants(globals())
