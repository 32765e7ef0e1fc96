"""Squads on the map: their figures, movement, firepower, place and tokens (001 Setup:
build squads; Movement; Combat; Squad conditions), and the dice."""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, push, rule, rule_inlined
from simulator.games.toi.game.events import (
    EV_CONDITION,
    EV_DAMAGE,
    EV_DESTROYED,
    EV_DUG,
    EV_FIGURES,
    EV_HEAL,
    EV_REVEALED,
    EV_WIRE_GONE,
    REVEAL_ADJACENT,
    REVEAL_SEEN,
    log,
)
from simulator.games.toi.game.state import (
    CARRIED,
    COND_DISRUPTED,
    COND_NORMAL,
    COND_PINNED,
    DESTROYED,
    DMG_HEAVY,
    G_SMOKE,
    G_UNIT,
    HT_LOST,
    HX_FORT,
    HX_OCC,
    HX_SMOKE,
    HX_VEH,
    HX_WIRE,
    K_DIG,
    K_HEAL,
    ONMAP,
    TOK_FATIGUED,
    TOK_FRESH,
    TOK_OPFIRE,
    U_CARRIER,
    U_COND,
    U_DMG,
    U_FIG,
    U_HEX,
    U_HIDDEN,
    U_IN,
    U_MODEL,
    U_SIDE,
    U_SPEC,
    U_ST,
    U_TOKEN,
    U_VEHICLE,
    U_WOUNDS,
    action,
)
from simulator.games.toi.game.tables import (
    FT_AREA,
    FT_HEAVY,
    FT_LOSS_ORDER,
    FT_MOVE,
    FT_OFFICER,
    HI_COVER,
    HI_MINES,
    HI_NO_DIG,
    HI_PILLBOX,
    HI_STAND,
    P_DIG_SPECS,
    P_FORT_MAX,
    P_HEAL_FROM,
    P_MOBILITY,
    P_N_FIG,
    P_N_UNITS,
    P_REGULAR,
    P_SQUAD_MAX,
    P_STACK,
    P_VEH_STACK,
    SPEC_MEDIC,
    VT_FRAGILE,
    VT_MOVE,
)
from simulator.games.toi.rules.jit import damaged_index_jit, suppressed_index_jit
from simulator.run.rng import below


@rule_inlined
def d6(s):
    """One die from the game's dice stream."""
    return below(s.rng[0], 6) + 1


@rule_inlined
def roll(s, n, success_from):
    """Successes of ``n`` dice, each succeeding on ``success_from``-6 (001 step 4)."""
    k = 0
    for _ in range(n):
        if below(s.rng[0], 6) + 1 >= success_from:
            k += 1
    return k


@rule_inlined
def on_map(s, k):
    return s.u[k, U_ST] == ONMAP


@rule_inlined
def figures(s, t, k):
    n = 0
    for f in range(t.p[P_N_FIG]):
        n += s.u[k, U_FIG + f]
    return n


@rule_inlined
def has_figure(s, t, k, column):
    """Squad ``k`` holds a figure whose type has ``column`` (an ``FT_*`` flag) set."""
    for f in range(t.p[P_N_FIG]):
        if t.ft[f, column] == 1 and s.u[k, U_FIG + f] > 0:
            return True
    return False


@rule_inlined
def has_officer(s, t, k):
    """An officer figure in the squad (001 Officer abilities)."""
    return has_figure(s, t, k, FT_OFFICER)


@rule_inlined
def has_heavy(s, t, k):
    """A heavy infantry weapon figure in the squad (001 MG / Mortar crew)."""
    return has_figure(s, t, k, FT_HEAVY)


@rule_inlined
def has_mortar(s, t, k):
    """A mortar crew in the squad (001 Mortar crew: area attacks only)."""
    return has_figure(s, t, k, FT_AREA)


@rule
def officer_in_hex(s, t, h, side):
    """An officer of ``side`` in hex ``h`` (001 Officer: Rally, Determination, Fast Recovery)."""
    for k in range(t.p[P_N_UNITS]):
        if s.u[k, U_ST] == ONMAP and s.u[k, U_HEX] == h and s.u[k, U_SIDE] == side and has_officer(s, t, k):
            return True
    return False


@rule_inlined
def is_vehicle(s, k):
    return s.u[k, U_VEHICLE] == 1


@rule_inlined
def ability(s, k, spec):
    """The squad has specialisation ``spec`` and may use it: not pinned or disrupted (001
    Specialized squads)."""
    return s.u[k, U_SPEC] == spec and s.u[k, U_COND] == COND_NORMAL


@rule
def medic_in_hex(s, t, h, side):
    """001 Medic: Bandage covers the medic squad and any squad in its hex."""
    for k in range(t.p[P_N_UNITS]):
        if s.u[k, U_ST] == ONMAP and s.u[k, U_HEX] == h and s.u[k, U_SIDE] == side and ability(s, k, SPEC_MEDIC):
            return True
    return False


@rule
def heal_actions(s, t, k, out, n):
    """001 Medic: Heal, an action of a fresh medic squad that may use its ability: one for
    each wounded squad of its side in its hex, itself included, with room in its base
    (rulings T38)."""
    if not ability(s, k, SPEC_MEDIC) or s.u[k, U_ST] != ONMAP or t.p[P_REGULAR] < 0:
        return n
    for j in range(t.p[P_N_UNITS]):
        if (s.u[j, U_ST] == ONMAP and s.u[j, U_HEX] == s.u[k, U_HEX] and s.u[j, U_SIDE] == s.u[k, U_SIDE]
                and not is_vehicle(s, j) and s.u[j, U_WOUNDS] > 0 and figures(s, t, j) < t.p[P_SQUAD_MAX]):
            n = push(out, n, action(K_HEAL, k, j))
    return n


@rule
def heal(s, t, k, j):
    """001 Medic: Heal: one die; on 4-6 one regular figure joins squad ``j``."""
    die = d6(s)
    ok = 1 if die >= t.p[P_HEAL_FROM] else 0
    if ok == 1:
        s.u[j, U_FIG + t.p[P_REGULAR]] += 1
        s.u[j, U_WOUNDS] -= 1
    log(s, EV_HEAL, k, j, die, ok, 0, 0)


@rule
def can_dig(s, t, k):
    """001 Engineer: Dig Entrenchment, read as rulings T40: a fresh squad on the map whose
    specialisation digs (``P_DIG_SPECS``, units.toml) and may use it (not pinned or
    disrupted, 001 Specialized squads), in a hex whose terrain allows it (not a stream, pond
    or building: terrain.toml ``no_dig``), holding fewer than 3 fortification markers, none
    of them pillboxes (the engine keeps one kind of fortification a hex, rulings T27)."""
    spec = s.u[k, U_SPEC]
    if spec < 0 or (t.p[P_DIG_SPECS] >> spec) & 1 == 0 or not ability(s, k, spec):
        return False
    if s.u[k, U_ST] != ONMAP or s.u[k, U_TOKEN] != TOK_FRESH:
        return False
    h = s.u[k, U_HEX]
    if t.hexi[h, HI_NO_DIG] == 1 or s.hx[h, HX_FORT] >= t.p[P_FORT_MAX]:
        return False
    return not (s.hx[h, HX_FORT] > 0 and t.hexi[h, HI_PILLBOX] == 1)


@rule
def dig_actions(s, t, k, out, n):
    """The Dig Entrenchment actions of squad ``k``: dig (arg 0), or dig and enter the new
    entrenchment as part of the action (arg 1) when not already in one (001 Engineer)."""
    if not can_dig(s, t, k):
        return n
    n = push(out, n, action(K_DIG, k, 0))
    if s.u[k, U_IN] == 0:
        n = push(out, n, action(K_DIG, k, 1))
    return n


@rule
def dig(s, t, k, enter):
    """001 Engineer: Dig Entrenchment: one more entrenchment marker in the squad's hex, the
    squad in it if ``enter``; the squad is fatigued by its action's end (rulings T40)."""
    h = s.u[k, U_HEX]
    s.hx[h, HX_FORT] += 1
    if enter == 1:
        s.u[k, U_IN] = 1
    log(s, EV_DUG, k, h, enter, s.hx[h, HX_FORT], 0, 0)


@rule_inlined
def movement(s, t, k):
    """A squad's MPs: the lowest MV of its figures (rulings T24), +1 with an officer (001
    Officer: Increased Mobility). A vehicle's: its MV, -1 lightly damaged, none heavily
    damaged (001 Normal attack results)."""
    if is_vehicle(s, k):
        d = s.u[k, U_DMG]
        return 0 if d == DMG_HEAVY else t.vt[s.u[k, U_MODEL], VT_MOVE] - d
    mv = 99
    for f in range(t.p[P_N_FIG]):
        if s.u[k, U_FIG + f] > 0 and t.ft[f, FT_MOVE] < mv:
            mv = t.ft[f, FT_MOVE]
    if has_officer(s, t, k):
        mv += t.p[P_MOBILITY]
    return mv


@rule_inlined
def room(s, t, h, side):
    """How many more units of ``side`` hex ``h`` takes (001 Setup: stacking)."""
    if t.hexi[h, HI_STAND] == 0:
        return 0
    return t.p[P_STACK] - s.hx[h, HX_OCC + side]


@rule_inlined
def room_for(s, t, k, h):
    """How many more units like ``k`` (not in ``h``) hex ``h`` takes: three units, two of
    them vehicles (001 Setup: stacking)."""
    side = s.u[k, U_SIDE]
    r = room(s, t, h, side)
    if is_vehicle(s, k):
        r = min(r, t.p[P_VEH_STACK] - s.hx[h, HX_VEH + side])
    return r


@rule_inlined
def over_stacked(s, t, h, side):
    return s.hx[h, HX_OCC + side] > t.p[P_STACK] or s.hx[h, HX_VEH + side] > t.p[P_VEH_STACK]


@rule_inlined
def enemy_in(s, h, side):
    return s.hx[h, HX_OCC + 1 - side] > 0


@rule_inlined
def put(s, k, h):
    """Move unit ``k`` to hex ``h`` (-1: off the map), keeping the hex counts."""
    side = s.u[k, U_SIDE]
    old = s.u[k, U_HEX]
    v = s.u[k, U_VEHICLE]
    if old >= 0:
        s.hx[old, HX_OCC + side] -= 1
        s.hx[old, HX_VEH + side] -= v
    if h >= 0:
        s.hx[h, HX_OCC + side] += 1
        s.hx[h, HX_VEH + side] += v
    s.u[k, U_HEX] = h
    s.u[k, U_IN] = 0                         # leaving a hex leaves its fortification


@rule
def fort_free(s, t, h):
    """Fortification markers of hex ``h`` no squad occupies (001 Entrenchments & pillboxes:
    one squad each; the scenario's and those dug, rulings T40)."""
    n = s.hx[h, HX_FORT]
    for k in range(t.p[P_N_UNITS]):
        if s.u[k, U_ST] == ONMAP and s.u[k, U_HEX] == h and s.u[k, U_IN] == 1:
            n -= 1
    return n


@rule_inlined
def wire_in(s, h):
    """Razor wire in hex ``h`` (001 Razor wire; the scenario's markers, less those removed)."""
    return s.hx[h, HX_WIRE] == 1


@rule_inlined
def hidden(s, k):
    """A concealed squad (001 Concealed squads; rulings T39)."""
    return s.u[k, U_HIDDEN] == 1


@rule
def reveal(s, k, why):
    if s.u[k, U_HIDDEN] == 1:
        s.u[k, U_HIDDEN] = 0
        log(s, EV_REVEALED, k, why, 0, 0, 0, 0)


@rule
def visible_in(s, t, h, side):
    """A unit of ``side`` in hex ``h`` that is not concealed (001 Concealed squads: the others
    cannot be fired upon or affected by area attacks; rulings T39)."""
    for j in range(t.p[P_N_UNITS]):
        if s.u[j, U_ST] == ONMAP and s.u[j, U_HEX] == h and s.u[j, U_SIDE] == side and not hidden(s, j):
            return True
    return False


@rule
def reveal_scan(s, t, adjacent):
    """001 Concealed squads: a concealed squad in an enemy unit's line of sight is revealed
    unless its hex's terrain gives cover (smoke does not count); with ``adjacent`` (the end
    of the status phase) one next to an enemy unit is revealed too (rulings T39)."""
    for k in range(t.p[P_N_UNITS]):
        if s.u[k, U_ST] != ONMAP or not hidden(s, k):
            continue
        h = s.u[k, U_HEX]
        for e in range(t.p[P_N_UNITS]):
            if s.u[e, U_ST] != ONMAP or s.u[e, U_SIDE] == s.u[k, U_SIDE]:
                continue
            x = s.u[e, U_HEX]
            if adjacent and t.dist[x, h] <= 1:
                reveal(s, k, REVEAL_ADJACENT)
                break
            if t.hexi[h, HI_COVER] == 0 and sees(s, t, x, h):
                reveal(s, k, REVEAL_SEEN)
                break


@rule
def remove_wire(s, h):
    """Take the razor wire marker off hex ``h`` (001 Razor wire: an engineer or a tank, 2 MP;
    an area attack's 3+ successes)."""
    s.hx[h, HX_WIRE] = 0
    log(s, EV_WIRE_GONE, -1, h, 0, 0, 0, 0)


@rule_inlined
def smoke_in(s, h):
    """A smoke marker in hex ``h`` (001 Smoke; rulings T36)."""
    return s.hx[h, HX_SMOKE] == 1


@rule_inlined
def sees(s, t, a, b):
    """A unit in hex ``a`` sees a unit in hex ``b`` (001 Line of sight), smoke markers being
    blocking terrain while on the map (001 Smoke; the scenario's are all there or all gone:
    rulings T36)."""
    if s.g[G_SMOKE] > 0:
        return t.los_smoke[a, b] == 1
    return t.los[a, b] == 1


@rule_inlined
def obstacle_halves(s, t, h):
    """A squad in a minefield or razor wire hex fights at half FPR (001 Minefields; Razor
    wire; rulings T2). Smoke halves too, except in an assault from the hex: :func:`smoke_in`."""
    return t.hexi[h, HI_MINES] == 1 or wire_in(s, h)


@rule
def destroy(s, k):
    if s.u[k, U_ST] == CARRIED:
        lost_in(s, k, s.u[s.u[k, U_CARRIER], U_HEX])
        s.u[k, U_CARRIER] = -1
    else:
        lost_in(s, k, s.u[k, U_HEX])
        put(s, k, -1)
    s.u[k, U_ST] = DESTROYED
    s.u[k, U_TOKEN] = TOK_FATIGUED
    log(s, EV_DESTROYED, k, 0, 0, 0, 0, 0)
    if s.u[k, U_VEHICLE] == 1:                   # 001 Transporting squads: the squads with it
        for j in range(s.u.shape[0]):
            if s.u[j, U_ST] == CARRIED and s.u[j, U_CARRIER] == k:
                destroy_carried(s, j)


@rule
def lost_in(s, k, h):
    """The batch's heat map (not a rule): unit ``k`` is destroyed in hex ``h`` (-1 none)."""
    if h >= 0:
        s.heat[h, HT_LOST + s.u[k, U_SIDE]] += 1


@rule
def destroy_carried(s, j):
    lost_in(s, j, s.u[s.u[j, U_CARRIER], U_HEX])
    s.u[j, U_CARRIER] = -1
    s.u[j, U_ST] = DESTROYED
    s.u[j, U_TOKEN] = TOK_FATIGUED
    log(s, EV_DESTROYED, j, 1, 0, 0, 0, 0)


@rule
def lose_figures(s, t, k, hits):
    """Remove ``hits`` figures (001 Normal attack results), cheapest first by the loss order
    of the tables (rulings T24); the squad is destroyed when none is left."""
    lost = 0
    for i in range(t.p[P_N_FIG]):
        f = t.ft[i, FT_LOSS_ORDER]
        while hits > lost and s.u[k, U_FIG + f] > 0:
            s.u[k, U_FIG + f] -= 1
            lost += 1
    s.u[k, U_WOUNDS] += lost                     # 001 Medic: Heal puts figures back in the wounded
    left = figures(s, t, k)
    log(s, EV_FIGURES, k, lost, left, 0, 0, 0)
    if left == 0:
        destroy(s, k)
    return lost


@rule
def set_condition(s, k, cond):
    """A squad's new condition; pinned or disrupted in op fire mode or while active makes it
    fatigued at once (001 Squad conditions: Opportunity fire; Moving and op fire)."""
    if cond == s.u[k, U_COND]:
        return
    s.u[k, U_COND] = cond
    log(s, EV_CONDITION, k, cond, 0, 0, 0, 0)
    if cond != COND_NORMAL and (s.u[k, U_TOKEN] == TOK_OPFIRE or s.g[G_UNIT] == k):
        s.u[k, U_TOKEN] = TOK_FATIGUED


@rule
def damage(s, t, k, hits):
    """001 Normal attack results against a vehicle (``simulator.games.toi.rules.results.damaged_index``;
    Trucks: Fragile). Returns the new damage (3: destroyed)."""
    d = damaged_index_jit(s.u[k, U_DMG], hits, t.vt[s.u[k, U_MODEL], VT_FRAGILE] == 1)
    if d >= 3:
        destroy(s, k)
    elif d != s.u[k, U_DMG]:
        s.u[k, U_DMG] = d
        log(s, EV_DAMAGE, k, d, 0, 0, 0, 0)
    return d


@rule
def hits_to_destroy(s, t, k):
    """The fewest hits that destroy vehicle ``k`` now (002 step 7: the most it may take)."""
    fragile = t.vt[s.u[k, U_MODEL], VT_FRAGILE] == 1
    h = 1
    while damaged_index_jit(s.u[k, U_DMG], h, fragile) < 3:
        h += 1
    return h


@rule
def normal_hits(s, t, k, hits):
    """A normal attack's hits: figures off a squad, damage to a vehicle."""
    if is_vehicle(s, k):
        damage(s, t, k, hits)
    else:
        lose_figures(s, t, k, hits)


@rule
def suppress(s, t, k, hits):
    """001 Suppressive attack results (``simulator.games.toi.rules.results.suppressed_index``)."""
    c = suppressed_index_jit(s.u[k, U_COND], hits)
    if c >= 3:
        destroy(s, k)                        # routed and destroyed
    else:
        set_condition(s, k, c)


@rule_inlined
def fresh(s, k):
    return (s.u[k, U_ST] == ONMAP or s.u[k, U_ST] == CARRIED) and s.u[k, U_TOKEN] == TOK_FRESH


@rule
def carried_by(s, v):
    n = 0
    for j in range(s.u.shape[0]):
        if s.u[j, U_ST] == CARRIED and s.u[j, U_CARRIER] == v:
            n += 1
    return n


@rule_inlined
def can_move(s, k):
    """001 Movement: pinned or disrupted squads, heavily damaged vehicles cannot move."""
    return s.u[k, U_COND] == COND_NORMAL and s.u[k, U_DMG] != DMG_HEAVY


_unused = (COND_PINNED, COND_DISRUPTED)
int64_constants(globals())
