"""Assault attacks in a game (001 Assault; Assault attacks; 002 steps 1-11).

After its move (1 fewer MP) the active squad may assault an adjacent hex holding enemy
units (``K_ATTACK_HEX``, with or without support: the two strongest friendly squads
adjacent to the target that are neither pinned nor disrupted and hold no heavy weapon,
fatigued or not, 002 step 1), or not. The dice follow 002 steps 2-5 with the rules of
:mod:`simulator.games.toi` (:mod:`simulator.games.toi.rules.jit`): attack strength, cover dice of the
hex, the defender's firepower (disrupted nothing, pinned half unless an officer is in
the hex), successes on 4-6, red dice on 5-6. Casualties: the active squad first, then
the supporters (002 step 6); the defender's by
:func:`simulator.games.toi.rules.jit.assault_squad_losses` (002 steps 7, 9). A successful assault
makes the defenders retreat into one adjacent hex (the engine picks the one with most
room, then most cover: rulings T26); the active squad may then advance into the vacated
hex (``K_ENTER`` / ``K_STAY``). Everyone who took part is fatigued (002 step 11).
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, push, rule, rule_inlined
from simulator.games.toi.game.events import EV_ADVANCE, EV_ASSAULT, EV_RETREAT, REVEAL_ASSAULTED, REVEAL_FIRED, log
from simulator.games.toi.game.state import (
    AUX_ATT,
    AUX_COND,
    AUX_DEF,
    AUX_HITS,
    AUX_KEEP,
    AUX_SIZE,
    COND_DISRUPTED,
    COND_NORMAL,
    COND_PINNED,
    DMG_HEAVY,
    G_ADV_HEX,
    G_ASSAULTS,
    G_SUB,
    G_UNIT,
    HT_CC,
    HX_OCC,
    K_ATTACK_HEX,
    K_ENTER,
    K_NO_ASSAULT,
    K_STAY,
    ONMAP,
    SUB_ADVANCE,
    SUB_ASSAULT,
    TOK_FATIGUED,
    U_COND,
    U_DMG,
    U_FIG,
    U_HEX,
    U_IN,
    U_MODEL,
    U_SIDE,
    U_ST,
    U_TOKEN,
    a_arg,
    a_kind,
    action,
)
from simulator.games.toi.game.tables import (
    FT_AREA,
    FT_IFPR,
    HI_COVER,
    HI_FORT_COVER,
    HI_MINES,
    HI_STAND,
    P_FLAME_CUT,
    P_FLAME_FPR,
    P_MAX_SUPPORT,
    P_MEDIC_ASSAULT,
    P_MEDIC_COVER,
    P_N_FIG,
    P_N_UNITS,
    P_SMOKE_ASSAULT,
    P_SMOKE_COVER,
    P_STACK,
    S6_NBR,
    SPEC_FLAMETHROWER,
    VT_IFPR,
    VT_LIGHT,
)
from simulator.games.toi.game.units import (
    ability,
    damage,
    destroy,
    figures,
    has_heavy,
    hits_to_destroy,
    is_vehicle,
    lose_figures,
    medic_in_hex,
    officer_in_hex,
    put,
    reveal,
    roll,
    room_for,
    smoke_in,
    visible_in,
    wire_in,
)
from simulator.games.toi.rules.jit import (
    ASSAULT_FROM,
    RED_SUCCESS_FROM,
    assault_attacker_halvings_jit,
    assault_cover_dice_jit,
    assault_defender_halvings_jit,
    assault_squad_losses,
    assault_succeeds_jit,
    hex_halvings_jit,
    net_hits_jit,
    strength_after_jit,
)


@rule
def infantry_fpr(s, t, k):
    """FPR against infantry of a squad's figures (002 step 2); mortar figures add nothing
    (001 Mortar crew: Minimum Distance)."""
    fpr = 0
    for f in range(t.p[P_N_FIG]):
        if t.ft[f, FT_AREA] == 0:
            fpr += s.u[k, U_FIG + f] * t.ft[f, FT_IFPR]
    return fpr


@rule
def heavy_vehicle_in(s, t, h, side):
    """002 first list: a hex with an enemy heavy vehicle cannot be assaulted."""
    for j in range(t.p[P_N_UNITS]):
        if (s.u[j, U_ST] == ONMAP and s.u[j, U_HEX] == h and s.u[j, U_SIDE] == side and is_vehicle(s, j)
                and t.vt[s.u[j, U_MODEL], VT_LIGHT] == 0):
            return True
    return False


@rule
def start_assault_choice(s, t, k):
    """After the move: ask for a target if the squad may assault one (002 first list)."""
    if s.u[k, U_COND] != COND_NORMAL:
        return False
    h = s.u[k, U_HEX]
    for d in range(6):
        y = t.side6[h, d, S6_NBR]
        if (y >= 0 and visible_in(s, t, y, 1 - s.u[k, U_SIDE]) and not heavy_vehicle_in(s, t, y, 1 - s.u[k, U_SIDE])
                and active_halvings(s, t, k, y) < 2):
            s.g[G_SUB] = SUB_ASSAULT
            return True
    return False


@rule
def supporter_ok(s, t, k, side, target_hex, active):
    """002 step 1: a friendly squad adjacent to the target, not pinned or disrupted, with no
    heavy infantry weapon; fatigued squads may support."""
    return (k != active and s.u[k, U_ST] == ONMAP and s.u[k, U_SIDE] == side and not is_vehicle(s, k)
            and s.u[k, U_COND] == COND_NORMAL and not has_heavy(s, t, k)
            and t.dist[s.u[k, U_HEX], target_hex] == 1
            and attacker_halvings(s, t, k, target_hex, True) < 2)   # halved twice: wire, mines, smoke (T1, T10)


@rule_inlined
def obstacles_in(s, t, h):
    """Halvings of a squad from wire and mines in hex ``h`` (rulings T2, T18), one each."""
    return hex_halvings_jit(1 if t.hexi[h, HI_MINES] == 1 else 0, 1 if wire_in(s, h) else 0, False)


@rule_inlined
def attacker_halvings(s, t, k, target, supporting):
    """An assaulting squad's halvings: :func:`simulator.games.toi.rules.shares.assault_attacker_halvings`
    (wire or mines in its hex, a smoke target hex; smoke in its own hex does not halve it:
    001 Smoke; rulings T10, T18). Two: no assault (T1)."""
    return assault_attacker_halvings_jit(supporting, smoke_in(s, target), obstacles_in(s, t, s.u[k, U_HEX]))


@rule_inlined
def active_halvings(s, t, k, target):
    return attacker_halvings(s, t, k, target, False)


@rule
def assault_actions(s, t, out):
    k = s.g[G_UNIT]
    side = s.u[k, U_SIDE]
    h = s.u[k, U_HEX]
    n = push(out, 0, action(K_NO_ASSAULT, k, 0))
    for d in range(6):
        y = t.side6[h, d, S6_NBR]
        if (y < 0 or not visible_in(s, t, y, 1 - side) or heavy_vehicle_in(s, t, y, 1 - side)
                or active_halvings(s, t, k, y) >= 2):     # rulings T39: not a hex of concealed squads only
            continue
        n = push(out, n, action(K_ATTACK_HEX, k, y * 2))
        for j in range(t.p[P_N_UNITS]):
            if supporter_ok(s, t, j, side, y, k):
                n = push(out, n, action(K_ATTACK_HEX, k, y * 2 + 1))
                break
    return n


@rule
def retreat_hex(s, t, target, side):
    """The hex the defenders retreat to (002 step 9; rulings T26): adjacent, free of enemy
    units, the most room, then the most cover, then the lowest index; -1 if none."""
    best = -1
    best_room = 0
    best_cover = -1
    for d in range(6):
        y = t.side6[target, d, S6_NBR]
        if y < 0 or t.hexi[y, HI_STAND] == 0 or s.hx[y, HX_OCC + 1 - side] > 0:
            continue
        r = t.p[P_STACK] - s.hx[y, HX_OCC + side]
        c = t.hexi[y, HI_COVER]
        if r > best_room or (r == best_room and r > 0 and c > best_cover):
            best, best_room, best_cover = y, r, c
    return best


@rule
def attackers(s, t, k, target, support):
    """002 steps 1-2: ``aux[AUX_ATT]`` gets the active squad and its supporters (the two
    strongest, if ``support``); returns the attack strength (supporters at half FPR)."""
    side = s.u[k, U_SIDE]
    att = s.aux[AUX_ATT]
    for i in range(3):
        att[i] = -1
    att[0] = k
    strength = max(strength_after_jit(infantry_fpr(s, t, k), active_halvings(s, t, k, target)), 0)
    if support == 1:
        for slot in range(1, 1 + t.p[P_MAX_SUPPORT]):
            best, best_f = -1, -1
            for j in range(t.p[P_N_UNITS]):
                if supporter_ok(s, t, j, side, target, k) and j != att[1] and infantry_fpr(s, t, j) > best_f:
                    best, best_f = j, infantry_fpr(s, t, j)
            if best >= 0:
                att[slot] = best
                strength += max(strength_after_jit(best_f, attacker_halvings(s, t, best, target, True)), 0)
    for i in range(3):                               # 002 step 2: +2 for each flamethrower squad
        if att[i] >= 0 and ability(s, att[i], SPEC_FLAMETHROWER):
            strength += t.p[P_FLAME_FPR]
    return strength


@rule
def assault_cover(s, t, target, foe, nd):
    """002 step 4: the hex's terrain cover, each defending squad's fortification (rulings
    T11), the medic's Bandage as ``P_MEDIC_ASSAULT`` says; less 5 (not below 0) if a
    flamethrower squad attacks (rulings T5)."""
    cover = t.hexi[target, HI_COVER]
    if smoke_in(s, target) and t.p[P_SMOKE_ASSAULT] == 1:
        cover += t.p[P_SMOKE_COVER]                  # 001 Smoke: a defender in smoke, once (rulings T10, T11)
    medic = medic_in_hex(s, t, target, foe)
    if medic and t.p[P_MEDIC_ASSAULT] == 1:
        cover += t.p[P_MEDIC_COVER]
    for i in range(nd):
        j = s.aux[AUX_DEF, i]
        if s.u[j, U_IN] == 1:
            cover += t.hexi[target, HI_FORT_COVER]
        if medic and t.p[P_MEDIC_ASSAULT] == 2 and not is_vehicle(s, j):
            cover += t.p[P_MEDIC_COVER]
    flame = False
    for i in range(3):
        a = s.aux[AUX_ATT, i]
        if a >= 0 and ability(s, a, SPEC_FLAMETHROWER):
            flame = True
    return assault_cover_dice_jit(cover, flame, t.p[P_FLAME_CUT])


@rule
def defenders(s, t, target, foe):
    """002 step 3: ``aux[AUX_DEF]`` gets the units in the hex; returns how many and their
    firepower (disrupted nothing, pinned half unless an officer is in the hex)."""
    defs = s.aux[AUX_DEF]
    for i in range(3):
        defs[i] = -1
    nd = 0
    officer = officer_in_hex(s, t, target, foe)
    for_all = (1 if t.hexi[target, HI_MINES] == 1 else 0) + (1 if smoke_in(s, target) else 0)
    wire = 1 if wire_in(s, target) else 0
    strength = 0
    for j in range(t.p[P_N_UNITS]):
        if s.u[j, U_ST] == ONMAP and s.u[j, U_HEX] == target and nd < 3:
            defs[nd] = j
            nd += 1
            veh = is_vehicle(s, j)                   # 002 step 3: light vehicles add their FPR
            h = assault_defender_halvings_jit(veh, s.u[j, U_COND], officer, hex_halvings_jit(for_all, wire, veh),
                                              veh and s.u[j, U_DMG] == DMG_HEAVY)    # rulings T12
            if h < 0:
                continue                             # disrupted: nothing
            fpr = t.vt[s.u[j, U_MODEL], VT_IFPR] if veh else infantry_fpr(s, t, j)
            strength += max(strength_after_jit(fpr, h), 0)
    return nd, strength


@rule
def attacker_losses(s, t, hits):
    """002 step 6: the active squad first, then the supporters."""
    att = s.aux[AUX_ATT]
    for i in range(3):
        j = att[i]
        if j >= 0 and hits > 0 and s.u[j, U_ST] == ONMAP:
            hits -= lose_figures(s, t, j, hits)


@rule
def defender_losses(s, t, target, foe, nd, hits, success):
    """002 steps 7 and 9: casualties, then the retreat of the units kept (pinned ones become
    disrupted; not movement, so no op fire) and the destruction of the others."""
    defs = s.aux[AUX_DEF]
    for i in range(nd):                              # light vehicles take hits first, each at most
        j = defs[i]                                  # what destroys it (002 step 7; rulings T13, T22)
        if is_vehicle(s, j) and hits > 0:
            h = min(hits, hits_to_destroy(s, t, j))
            hits -= h
            damage(s, t, j, h)
    sizes = s.aux[AUX_SIZE]
    conds = s.aux[AUX_COND]
    sq = s.aux[AUX_ATT, 3:6]                         # the defending squads' indices in defs
    ns = 0
    for i in range(nd):
        if not is_vehicle(s, defs[i]):
            sq[ns] = i
            sizes[ns] = figures(s, t, defs[i])
            conds[ns] = s.u[defs[i], U_COND]
            ns += 1
    dest = retreat_hex(s, t, target, foe) if success else -1
    space = t.p[P_STACK] - s.hx[dest, HX_OCC + foe] if dest >= 0 else 0
    taken = s.aux[AUX_HITS]
    keep = s.aux[AUX_KEEP]
    assault_squad_losses(sizes, conds, ns, hits, success, space, taken, keep)
    for i in range(ns):
        j = defs[sq[i]]
        if taken[i] > 0:
            lose_figures(s, t, j, taken[i])
        if success and s.u[j, U_ST] == ONMAP:
            if keep[i] == 1:
                retreat(s, j, target, dest)
            else:
                destroy(s, j)                        # disrupted, no hex, or no room
    for i in range(nd):                              # surviving vehicles retreat if there is room left
        j = defs[i]
        if success and is_vehicle(s, j) and s.u[j, U_ST] == ONMAP:
            if dest >= 0 and room_for(s, t, j, dest) > 0:
                retreat(s, j, target, dest)
            else:
                destroy(s, j)


@rule
def retreat(s, j, target, dest):
    """002 step 9: not movement, so no op fire; a pinned squad becomes disrupted; a fresh
    unit or one in op fire mode becomes fatigued (rulings T14)."""
    put(s, j, dest)
    log(s, EV_RETREAT, j, target, dest, 0, 0, 0)
    if s.u[j, U_COND] == COND_PINNED:
        s.u[j, U_COND] = COND_DISRUPTED
    s.u[j, U_TOKEN] = TOK_FATIGUED                   # 002 step 9: every unit forced to retreat


@rule
def assault_dice(s, t, a):
    """002 steps 1-4 of assault ``a`` by the active squad: ``aux`` gets who takes part;
    returns ``(attack strength, defending units, cover dice, defender strength)``."""
    k = s.g[G_UNIT]
    target = a_arg(a) >> 1
    foe = 1 - s.u[k, U_SIDE]
    strength = attackers(s, t, k, target, a_arg(a) & 1)
    nd, dstrength = defenders(s, t, target, foe)
    cover = assault_cover(s, t, target, foe, nd)
    return strength, nd, cover, dstrength


@rule
def assault_result(s, t, a, nd, strength, cover, dstrength, a_hits, d_hits):
    """002 steps 6-11 of assault ``a`` (after :func:`assault_dice`) from the two hit counts:
    everything that follows them. Returns True when the activation is over, False when the
    active squad may advance into the vacated hex (002 step 10). The engine's assault
    (:func:`apply_assault`) and greedy's exact odds (``turn.apply_assault_hits``) both end here."""
    k = s.g[G_UNIT]
    target = a_arg(a) >> 1
    foe = 1 - s.u[k, U_SIDE]
    s.g[G_ASSAULTS] += 1
    s.heat[target, HT_CC + s.u[k, U_SIDE]] += 1      # the batch's heat map (not a rule): who assaults where
    success = assault_succeeds_jit(a_hits, d_hits)   # 002 steps 8-9
    log(s, EV_ASSAULT, k, target, strength, cover, dstrength, a_hits * 100 + d_hits)
    for i in range(3):                               # 001 Concealed squads: all who fought are revealed
        if s.aux[AUX_ATT, i] >= 0:
            reveal(s, s.aux[AUX_ATT, i], REVEAL_FIRED)
        if i < nd:
            reveal(s, s.aux[AUX_DEF, i], REVEAL_ASSAULTED)
    attacker_losses(s, t, d_hits)
    defender_losses(s, t, target, foe, nd, a_hits, success)
    att = s.aux[AUX_ATT]
    for i in range(3):                               # 002 step 11: all fatigued
        if att[i] >= 0 and s.u[att[i], U_ST] == ONMAP:
            s.u[att[i], U_TOKEN] = TOK_FATIGUED
    if (success and s.u[k, U_ST] == ONMAP and s.hx[target, HX_OCC + foe] == 0
            and s.hx[target, HX_OCC + s.u[k, U_SIDE]] < t.p[P_STACK]):
        s.g[G_ADV_HEX] = target                      # 002 step 10: may advance
        s.g[G_SUB] = SUB_ADVANCE
        return False
    return True


@rule
def apply_assault(s, t, a):
    """The active squad's assault choice; returns True when its activation is over."""
    if a_kind(a) == K_NO_ASSAULT:
        return True
    strength, nd, cover, dstrength = assault_dice(s, t, a)
    a_hits = net_hits_jit(roll(s, strength, ASSAULT_FROM), roll(s, cover, RED_SUCCESS_FROM))
    d_hits = roll(s, dstrength, ASSAULT_FROM)        # 002 step 5
    return assault_result(s, t, a, nd, strength, cover, dstrength, a_hits, d_hits)


@rule
def assault_capacity(s, t, nd):
    """After :func:`assault_dice`: the most hits that change anything, ``(on the defenders,
    on the attackers)``: the defending squads' figures and what destroys each light vehicle
    (002 step 7), the attacking squads' figures (002 step 6)."""
    cap_def = 0
    for i in range(nd):
        j = s.aux[AUX_DEF, i]
        cap_def += hits_to_destroy(s, t, j) if is_vehicle(s, j) else figures(s, t, j)
    cap_att = 0
    for i in range(3):
        if s.aux[AUX_ATT, i] >= 0:
            cap_att += figures(s, t, s.aux[AUX_ATT, i])
    return cap_def, cap_att


@rule
def advance_actions(s, t, out):
    k = s.g[G_UNIT]
    n = push(out, 0, action(K_ENTER, k, s.g[G_ADV_HEX]))
    return push(out, n, action(K_STAY, k, 0))


@rule
def apply_advance(s, t, a):
    k = s.g[G_UNIT]
    if a_kind(a) == K_ENTER:
        put(s, k, s.g[G_ADV_HEX])                    # not movement: no op fire (002 step 10)
        log(s, EV_ADVANCE, k, s.g[G_ADV_HEX], 0, 0, 0, 0)
    s.g[G_ADV_HEX] = -1


int64_constants(globals())
