"""A scenario compiled for the engine: every rules constant as a few integer arrays.

:class:`Tables` is what the ``njit`` rules read: the map (from the map helper's
``CompiledMap``), the unit types with their card values, the ranged-fire pools
(:mod:`simulator.games.assault.game.pooltab`, built by ``fire_pools``), the close-combat pools
(built by the melee package's ``direction_pools``), the unit slots of the scenario
(every unit that may ever be on the map), set-up zones, objectives, victory
conditions and the optional rules. :func:`simulator.games.assault.game.compile.compile_game`
builds it.

Integers are int64 (numba compiles a function once per argument type), except the
big arrays ``near``, ``between`` and ``keys``, read through accessors that widen them.
Lines of sight are stored only as far as the units ever look (``near``, ``between``:
memory grows as the map, not its square; see compile.near_tables).
It has few arrays on purpose (numba's compile time grows with every array passed in
a tuple): small tables share an array and are reached through the accessor
functions below, with their offsets and sizes in ``p``.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from simulator.engine.core.compiling import int64_constants, rule
from simulator.engine.core.fields import declare

# --- per hex (hexi[hex, field]) --------------------------------------------------------
HI_FIELDS = declare(globals(), """
    HI_TERRAIN      the terrain
    HI_ELEV         its elevation
    HI_HILL         1: a hill hex
    HI_OBJ          the objective here, -1 none
    HI_NOIND        1: indirect fire may not target it
    HI_Q            axial q coordinate
    HI_R            axial r coordinate
    HI_STAND*5      HI_STAND + movement type: 1 a unit moving so may stand here
    HI_FREEFACE     1: vehicles turn freely here (road, 9.1)
    HI_TDMG         terrain-damage pool (9.10.1) or -1
    HI_CCT          close combat's ground: index of (terrain, fortification) in compile.Grounds (revised 12.1.3)
    HI_FORTFACE     the vertex the hex's fortification faces (revised 12.1.3.1), -1 none
    HI_WIRE         1: barbed wire or a stone wall a close combat initiated into the hex crosses (revised 12.1.2.1)
""")
# --- per hex side (side6[hex, dir, field]) ---------------------------------------------
S6_FIELDS = declare(globals(), """
    S6_NBR          the hex across, -1 off the map
    S6_CLIMB        1: the step climbs
    S6_COST*4       S6_COST + movement type (foot, gun, wheeled, tracked): the cost, -1 impassable
    S6_TDMG         1: the hex across has terrain that may damage vehicles (9.10.1; no overrun there, 9.10.3)
""")
# --- per line of sight, by axial offset (near[a, dq + R, dr + R], between[a, dq + R, dr + R, k]) --
# R (the sight radius, compile.sight_radius) = (near.shape[1] - 1) // 2; distance is
# computed from the axial coordinates (hexgrid.axial_distance), not stored
# --- per geometry class (geoi[geo, field]) ---------------------------------------------
declare(globals(), """
    GE_BARE         a geometry class's bare pool
    GE_NHIND        its count of hindrances
""")
# --- unit types (ut[type, field]) ------------------------------------------------------
UT_FIELDS = declare(globals(), """
    UT_KIND         INFANTRY, ARTILLERY or VEHICLE
    UT_STR          strength (damage points to eliminate it)
    UT_HALF         damage at which it is at half strength
    UT_MOVE         movement allowance
    UT_MTYPE        movement type (foot, gun, wheeled, tracked)
    UT_FAST_OK      1: may make a fast move (9.2)
    UT_TURRET       1: has a turret (10.6)
    UT_CAP          transport capacity (9.11)
    UT_RIDERS       tank riders it may carry (10.10.1)
    UT_ARMOURED     1: armoured
    UT_ELITE        1: ignores suppression (elite)
    UT_VALUE        its value in points
    UT_CARD         its unit card
    UT_RANGED       1: has a ranged attack
    UT_MAXR         its longest range
    UT_SUPPORT      1: may fire in the support phase (chapter 7)
    UT_IND_MIN      indirect fire's shortest range
    UT_IND_MAX      indirect fire's longest range
    UT_SMOKE        1: may fire smoke (7.5)
    UT_CC_INIT      1: may initiate a close combat
    UT_SLOW         1: slow (revised 12.4)
    UT_IMMOBILE     1: cannot move
    UT_EXP          experience
    UT_TDEF         the pool of the strongest card defence die against terrain damage (9.10.1)
    UT_RIDEDEF      tank riders' defence pool (10.10.1) or -1
    UT_LOAD_FULL    transport points taken at full strength (9.11)
    UT_LOAD_HALF    transport points taken at half strength (9.11)
    UT_OVERRUN      1: an armoured vehicle with track movement, which may overrun artillery (9.10.3)
""")
# --- ranged pools (pooli[pool, field]) -------------------------------------------------
declare(globals(), """
    PO_N            dice in the pool
    PO_EXTRA        extra suppression
""")
# --- close-combat pools (cci[pool, field]) ---------------------------------------------
CI_FIELDS = declare(globals(), """
    CI_NATK         attack dice
    CI_NDEF         defence dice
    CI_ATK_REROLLS  the attacker's re-rolls
    CI_DEF_REROLLS  the defender's re-rolls
    CI_EXTRA        extra suppression
    CI_ADRENALINE   suppressions the adrenaline rush cancels (12.7.2, revised 12.1.5)
    CI_TRACKS       1: an attack on wheels/tracks (12.9)
    CI_PREREQ       1: the green pre-roll comes first (12.9)
""")
# --- rows of meta: slots, formation cards, victory, objectives, draws -----------------
declare(globals(), """
    SL_SIDE         a unit slot's side
    SL_TYPE         its unit type
    SL_HEX          its set-up hex, -1 placed by its player
    SL_ZONE         its set-up zone
    SL_FACE         its facing
    SL_CARRIER      the slot carrying it, -1 none
    SL_ARRIVE       the turn it arrives, 0 at the start
    SL_ENTRY        its entry zone as a reinforcement
    SL_FORM         its formation card, -1 none
    SL_ROLL         the d6 it needs to arrive, 0 none
    SL_GROUP        its reinforcement group
""")
META_WIDTH = 12
FO_FIELDS = declare(globals(), """
    FO_SIDE         a formation card's side
    FO_TYPE         its type (FO_CLASS: one card of a class draw)
    FO_CP           its command points
    FO_ZONE         its set-up zone
    FO_DRAW         its draw (class draws)
""")
FO_CLASS = 3     # FO_TYPE of one card of a reinforcement class draw (5.7), FO_DRAW its draw; not a formation
declare(globals(), """
    V_HOLD_MASK     a side's victory: the objectives it must hold, a bit each
    V_HOLD_COUNT    how many objectives it must hold
    V_POINTS        the objective points it needs
    V_ELIM          enemy units it must eliminate
    V_ANY           1: it has a victory condition
    V_SUDDEN        1: sudden death (6.6)
""")
declare(globals(), """
    OB_HEX          an objective's hex
    OB_VALUE        its points
    OB_START        who holds it at the start, -1 nobody
""")
declare(globals(), """
    D_COUNT         draw rows (side * 3 + unit kind): cards to keep
    D_METHOD        how (METHOD_*)
""")
declare(globals(), """
    METHOD_CHOOSE   5.6, in the book's order
    METHOD_DOUBLE
    METHOD_DRAW
""")

# --- parameters (p[field]) -------------------------------------------------------------
P_FIELDS = declare(globals(), """
    P_TURNS         the scenario's turns
    P_INITIATIVE    the side with the initiative every turn, -1 rolled (6.1)
    P_SETUP_FIRST   the side that sets up first, -1 rolled (5.8)
    P_EDITION       close combat's edition, 1 or 2
    P_CP_RULE       1: the command points rule (6.2.2)
    P_SUDDEN        1: sudden death (6.6)
    P_IF_NEITHER    the winner when neither side meets its conditions, -1 a draw
    P_CC_STACK      stacking in a close-combat hex
    P_FAST_UPHILL   1: fast moves uphill allowed
    P_MAX_SMOKE     smoke markers a hex holds
    P_SMOKE_DECAY   smoke markers removed each organisation phase (6.5)
    P_MIN_CP        the minimum command points (10.7.3)
    P_N_OBJ         objectives
    P_NEED_SUPPORT  1: the support phase is played
    P_HAS_VEHICLES  1: some unit is a vehicle
    P_BASE_CP0*2    P_BASE_CP0 + side: command points of the scenario
    P_MAXR          the longest range
    P_N_UNITS       unit slots
    P_N_FORMS       formation cards
    P_N_ZONES       zones
    P_O_FORM        offset into meta: formation cards
    P_O_VIC         victory
    P_O_OBJ         objectives
    P_O_DRAW        draws
    P_O_ATK         offset into keys: attack pools
    P_O_BAND        range bands
    P_O_DEF         defence pools
    P_O_SPOT        spotting pools
    P_O_CC          offset into fconst: the close-combat pool statistics
    P_NT            size: unit types
    P_NB            range bands
    P_NR            ranges
    P_NG            geometry classes
    P_NSMOKE        smoke levels
    P_NAREA         areas
    P_NOUT          outcomes
    P_NTERR         terrains
    P_NROLES        close-combat roles
    P_NFLAGS        close-combat flags
    P_CRIT_G        pool in rows: the critical-hit roll's green dice
    P_CRIT_B        its blue dice
    P_CRIT_MAX      the most crits rolled for
    P_N_ATK         attack pools
    P_O_COVER       offset into fconst: cover
    P_O_CCLOSS      close-combat losses
    P_O_CCMASK      close-combat masks
    P_TRANSPORT     1: some unit can carry another (9.11): the transport rules are played
    P_OVERRUN       1: some vehicle may overrun some enemy artillery (9.10.3)
    P_O_OVR         offset into keys of the last-shot pools (9.10.3): [gun type, tank type, 2]
    P_O_ICC         offset into keys of the fire-into-close-combat pools (10.11)
    P_ICC_SPARE     (unused: the 10.11 block in keys has its own header, ICC_*)
    P_O_IND         offsets into keys of the support phase's pools (chapter 7): indirect-fire attack [firer type, target type, half, minus]
    P_O_INDDEF      indirect-fire defence [target type, terrain, hill, status, failed]
    P_O_INDSPOT     spotting [.., adjacent]
    P_O_SMOKE       smoke attack [firer type, half, minus]
    P_CP_ALWAYS     1: 10.7.3's minimum of four command points holds always; 0: only as a floor on losses
    P_FALLBACK_EVER 1: a unit that has ever fallen back is eliminated by its next fallback (13.3, reading S22); 0: only while its fallback marker is on
    P_O_PFIRE       offset into keys of the revised 12.4 shot at passengers: [assault type, passenger type, half, 2] attack / defence pool, -1 none
    P_NCCT          close combat's grounds (terrain, fortification) of the map (HI_CCT; CC_WHERE bounds 3x)
""")
N_WEIGHTS = 16


class Tables(NamedTuple):
    hexi: np.ndarray      # int64[n, HI_FIELDS]
    side6: np.ndarray     # int64[n, 6, S6_FIELDS]: neighbour, climbs a hill (9.6.1), cost per movement type
    near: np.ndarray      # int32[n, w, w]: geometry class of a fire at each offset within R, -1 none or blocked
    between: np.ndarray   # int16[n, w, w, K] (int32 on maps beyond 32,767 hexes): hexes strictly between
    geoi: np.ndarray      # int64[G, 2]: the same line at a unit without terrain dice, hindrances
    ut: np.ndarray        # int64[types, UT_FIELDS]
    rows: np.ndarray      # int64[pools, max_dice, 6]: packed ranged pools (attack, defence, crit roll)
    pooli: np.ndarray     # int64[pools, 2]: dice in the pool, supp added to the attack (4.2.3)
    keys: np.ndarray      # int32[...]: attack / band / defence / spotting / close-combat lookups
    odds: np.ndarray      # float64[n_atk, n_def, 3, DMG_BINS]: exact odds for k points left (compile._cumulative_odds)
    cc_faces: np.ndarray  # int64[cc pools, max_dice, 6]: close-combat directions (melee tables)
    cc_gain: np.ndarray   # float64[cc pools, max_dice, 6]: re-roll gains (rulings #11)
    cci: np.ndarray       # int64[cc pools, CI_FIELDS]
    cck: np.ndarray       # int64[...] sorted (direction key << 20 | pool): close-combat lookups (cc_pool)
    meta: np.ndarray      # int64[rows, META_WIDTH]: slots, formation cards, victory, objectives, draws
    zones: np.ndarray     # int64[zones + 1 + hexes]: zone starts, then the hexes
    p: np.ndarray         # int64[P_FIELDS + roles]: parameters, offsets, sizes, close-combat masks
    fconst: np.ndarray    # float64[...]: cover per hex, close-combat losses and pool statistics


# --- accessors (inlined into the rules) -------------------------------------------------

@rule
def between(t, a, b, k):
    """The ``k``-th hex strictly between ``a`` and ``b`` (-1: no more), for ``b`` within
    the sight radius of ``a`` (k < n_between(t))."""
    rad = (t.near.shape[1] - 1) // 2
    return np.int64(t.between[a, t.hexi[b, HI_Q] - t.hexi[a, HI_Q] + rad, t.hexi[b, HI_R] - t.hexi[a, HI_R] + rad, k])


@rule
def n_between(t):
    return t.between.shape[3]


@rule
def geo(t, a, b):
    """The geometry class of a fire from hex ``a`` at hex ``b`` (target terrain, hill,
    hindrances: compile._geometry), -1 when the line is blocked by terrain (10.3, 10.4),
    ``a`` is ``b``, or ``b`` lies beyond the sight radius (farther than any unit fires)."""
    rad = (t.near.shape[1] - 1) // 2
    dq = t.hexi[b, HI_Q] - t.hexi[a, HI_Q]
    dr = t.hexi[b, HI_R] - t.hexi[a, HI_R]
    if dq < -rad or dq > rad or dr < -rad or dr > rad:
        return np.int64(-1)
    return np.int64(t.near[a, dq + rad, dr + rad])


@rule
def hex_dist(hexi, a, b):
    """Hex distance (10.1) from the axial coordinates in ``hexi``."""
    dq = hexi[a, HI_Q] - hexi[b, HI_Q]
    dr = hexi[a, HI_R] - hexi[b, HI_R]
    return max(abs(dq), abs(dr), abs(dq + dr))


@rule
def nbr(t, h, d):
    return t.side6[h, d, S6_NBR]


@rule
def dist(t, a, b):
    return hex_dist(t.hexi, a, b)


@rule
def n_units(t):
    return t.p[P_N_UNITS]


@rule
def slot(t, u, f):
    return t.meta[u, f]


@rule
def form(t, f, field):
    return t.meta[t.p[P_O_FORM] + f, field]


@rule
def vic(t, side, field):
    return t.meta[t.p[P_O_VIC] + side, field]


@rule
def obj(t, k, field):
    return t.meta[t.p[P_O_OBJ] + k, field]


@rule
def draw(t, side, kind, field):
    return t.meta[t.p[P_O_DRAW] + side * 3 + kind, field]


@rule
def zone_lo(t, z):
    return t.zones[z]


@rule
def zone_hi(t, z):
    return t.zones[z + 1]


@rule
def zone_hex(t, i):
    return t.zones[t.p[P_N_ZONES] + 1 + i]


@rule
def atk_key(t, i, j, band, half, minus):
    return np.int64(t.keys[t.p[P_O_ATK] + (((i * t.p[P_NT] + j) * t.p[P_NB] + band) * 2 + half) * 2 + minus])


@rule
def band_of(t, i, r):
    return np.int64(t.keys[t.p[P_O_BAND] + i * t.p[P_NR] + r])


@rule
def def_key(t, j, geo, smoke, fs, st, area, failed):
    i = ((((j * t.p[P_NG] + geo) * t.p[P_NSMOKE] + smoke) * 3 + fs) * 16 + st) * t.p[P_NAREA] + area
    return np.int64(t.keys[t.p[P_O_DEF] + i * 2 + failed])


@rule
def spot_need(t, j, geo, st, adj, out):
    return np.int64(t.keys[t.p[P_O_SPOT] + (((j * t.p[P_NG] + geo) * 16 + st) * 2 + adj) * t.p[P_NOUT] + out])


@rule
def last_shot_key(t, gun, tank, which):
    """9.10.3: the attack (``which`` 0) or defence (1) pool of the last shot of artillery
    type ``gun`` at tank type ``tank`` (-1: no last shot)."""
    return np.int64(t.keys[t.p[P_O_OVR] + (gun * t.p[P_NT] + tank) * 2 + which])


@rule
def passenger_fire_key(t, a, p, half, which):
    """Revised 12.4: the attack (``which`` 0) or defence (1) pool of assault type ``a``'s
    shot at passenger type ``p`` (-1: no shot)."""
    return np.int64(t.keys[t.p[P_O_PFIRE] + ((a * t.p[P_NT] + p) * 2 + half) * 2 + which])


@rule
def ind_atk_key(t, i, j, half, minus):
    """7.1-7.3: the indirect-fire attack pool of type ``i`` at type ``j`` (-1: none)."""
    return np.int64(t.keys[t.p[P_O_IND] + ((i * t.p[P_NT] + j) * 2 + half) * 2 + minus])


@rule
def ind_def_key(t, j, terrain, hill, st, failed):
    """7.1, 7.3: the defence pool of type ``j`` against indirect fire (-1: not fired at)."""
    return np.int64(t.keys[t.p[P_O_INDDEF] + (((j * t.p[P_NTERR] + terrain) * 2 + hill) * 16 + st) * 2 + failed])


@rule
def ind_spot(t, j, terrain, hill, st, adj):
    """10.5: the d6 needed to spot type ``j`` for indirect fire, 0 automatic."""
    return np.int64(t.keys[t.p[P_O_INDSPOT] + (((j * t.p[P_NTERR] + terrain) * 2 + hill) * 16 + st) * 2 + adj])


@rule
def smoke_key(t, i, half, minus):
    """7.5: the smoke dice of type ``i`` (-1: it fires no smoke)."""
    return np.int64(t.keys[t.p[P_O_SMOKE] + (i * 2 + half) * 2 + minus])


# 10.11: the block at p[P_O_ICC] in keys (-1: no such block) starts with a header giving
# where its three tables start (relative to the block) and the keep masks' width
ICC_H_INFANTRY, ICC_H_FRIENDLY, ICC_H_KEEP, ICC_H_WIDTH = range(4)
ICC_HEAD = 4


@rule
def icc_infantry_key(t, j, geo, smoke, fs, st, failed):
    """10.11, first case: the defence pool of infantry type ``j`` in a close combat with a
    friendly armoured vehicle (its weakest die lost), indexed like :func:`def_key` without
    the area; -1 none."""
    o = t.p[P_O_ICC]
    i = ((((j * t.p[P_NG] + geo) * t.p[P_NSMOKE] + smoke) * 3 + fs) * 16 + st) * 2 + failed
    return np.int64(t.keys[o + t.keys[o + ICC_H_INFANTRY] + i])


@rule
def icc_friendly_key(t, j, geo, smoke, fs, area):
    """10.11, second case: the defence pool of the friendly vehicle (type ``j``, area of
    impact ``area`` from the firer) against the success dice rolled again; -1 none."""
    o = t.p[P_O_ICC]
    i = (((j * t.p[P_NG] + geo) * t.p[P_NSMOKE] + smoke) * 3 + fs) * 3 + area
    return np.int64(t.keys[o + t.keys[o + ICC_H_FRIENDLY] + i])


@rule
def icc_keep(t, ak, die):
    """10.11: six bits, bit ``r`` set when face ``r`` of die ``die`` of attack pool ``ak``
    shows a success symbol (``set_aside.keep_table(..., KEEP_SUCCESS)``)."""
    o = t.p[P_O_ICC]
    return np.int64(t.keys[o + t.keys[o + ICC_H_KEEP] + ak * t.keys[o + ICC_H_WIDTH] + die])


CC_POOL_BITS = 20
CC_WHERE = 64        # ground + grounds * area (the area of a vehicle or fortification entered from)


@numba.njit(cache=True, _nrt=False)
def cc_direction_key(x, y, where, role, flags, half, x_imm, y_imm, tracks, n_types):
    """The packed key of one close-combat direction (x attacks y): ``where`` is the
    terrain of the hex, or for a vehicle defender the area its attacker entered from."""
    return ((((((((x * n_types + y) * CC_WHERE + where) * 16 + role) * 256 + flags) * 2 + half) * 2 + x_imm) * 2
             + y_imm) * 2 + tracks)


@rule
def cc_pool(t, x, y, where, role, flags, half, x_imm, y_imm, tracks):
    """The melee pool of a close-combat direction (binary search in ``cck``), -1 if none."""
    key = cc_direction_key(x, y, where, role, flags, half, x_imm, y_imm, tracks, t.p[P_NT])
    lo = 0
    hi = t.cck.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if (t.cck[mid] >> CC_POOL_BITS) < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < t.cck.shape[0] and (t.cck[lo] >> CC_POOL_BITS) == key:
        return t.cck[lo] & ((1 << CC_POOL_BITS) - 1)
    return np.int64(-1)


@rule
def cc_stat(t, pool, k):
    """Close-combat pool statistic ``k``: E[hits], E[crits], P(a supp), P(a crit or a hit)."""
    return t.fconst[t.p[P_O_CC] + pool * 4 + k]


@rule
def cc_mask(t, role):
    return t.p[P_FIELDS + role]


@rule
def cover(t, h):
    return t.fconst[t.p[P_O_COVER] + h]


@rule
def cc_loss(t, x, y, terr, who):
    return t.fconst[t.p[P_O_CCLOSS] + ((x * t.p[P_NT] + y) * t.p[P_NCCT] + terr) * 2 + who]


int64_constants(globals())
