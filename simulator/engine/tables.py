"""A scenario compiled for the engine: every rules constant as a few integer arrays.

:class:`Tables` is what the ``njit`` rules read: the map (from the map helper's
``CompiledMap``), the unit types with their card values, the ranged-fire pools
(:mod:`simulator.engine.pooltab`, built by ``fire_pools``), the close-combat pools
(built by the melee package's ``direction_pools``), the unit slots of the scenario
(every unit that may ever be on the map), set-up zones, objectives, victory
conditions and the optional rules. :func:`simulator.engine.compile.compile_game`
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

from simulator.engine.state import int64_constants, rule

# --- per hex (hexi[hex, field]) --------------------------------------------------------
HI_TERRAIN, HI_ELEV, HI_HILL, HI_OBJ, HI_NOIND, HI_Q, HI_R, HI_STAND = range(8)   # HI_STAND + mtype
HI_FREEFACE, HI_TDMG = 12, 13   # vehicles turn freely here (road, 9.1); terrain-damage pool (9.10.1) or -1
HI_CCT = 14      # close combat's ground: index of (terrain, fortification) in compile.Grounds (revised 12.1.3)
HI_FORTFACE = 15  # the vertex the hex's fortification faces (revised 12.1.3.1), -1 none
HI_WIRE = 16     # 1: barbed wire or a stone wall a close combat initiated into the hex crosses (revised 12.1.2.1)
HI_FIELDS = 17
# --- per hex side (side6[hex, dir, field]) ---------------------------------------------
S6_NBR, S6_CLIMB, S6_COST = 0, 1, 2    # S6_COST + movement type (foot, gun, wheeled, tracked)
S6_TDMG = 6      # 1: the hex across has terrain that may damage vehicles (9.10.1; no overrun there, 9.10.3)
S6_FIELDS = 7
# --- per line of sight, by axial offset (near[a, dq + R, dr + R], between[a, dq + R, dr + R, k]) --
# R (the sight radius, compile.sight_radius) = (near.shape[1] - 1) // 2; distance is
# computed from the axial coordinates (hexgrid.axial_distance), not stored
# --- per geometry class (geoi[geo, field]) ---------------------------------------------
GE_BARE, GE_NHIND = range(2)
# --- unit types (ut[type, field]) ------------------------------------------------------
(UT_KIND, UT_STR, UT_HALF, UT_MOVE, UT_MTYPE, UT_FAST_OK, UT_TURRET, UT_CAP, UT_RIDERS, UT_ARMOURED,
 UT_ELITE, UT_VALUE, UT_CARD, UT_RANGED, UT_MAXR, UT_SUPPORT, UT_IND_MIN, UT_IND_MAX, UT_SMOKE,
 UT_CC_INIT, UT_SLOW, UT_IMMOBILE, UT_EXP, UT_TDEF) = range(24)
UT_RIDEDEF, UT_LOAD_FULL, UT_LOAD_HALF = 24, 25, 26   # tank riders' defence pool (10.10.1) or -1;
                                                        # transport points taken at full / half strength (9.11)
UT_OVERRUN = 27  # 1: an armoured vehicle with track movement, which may overrun artillery (9.10.3)
UT_FIELDS = 28   # UT_TDEF: the pool of the strongest card defence die against terrain damage (9.10.1)
# --- ranged pools (pooli[pool, field]) -------------------------------------------------
PO_N, PO_EXTRA = range(2)
# --- close-combat pools (cci[pool, field]) ---------------------------------------------
CI_NATK, CI_NDEF, CI_ATK_REROLLS, CI_DEF_REROLLS, CI_EXTRA, CI_ADRENALINE, CI_TRACKS, CI_PREREQ = range(8)
CI_FIELDS = 8
# --- rows of meta: slots, formation cards, victory, objectives, draws -----------------
(SL_SIDE, SL_TYPE, SL_HEX, SL_ZONE, SL_FACE, SL_CARRIER, SL_ARRIVE, SL_ENTRY, SL_FORM, SL_ROLL,
 SL_GROUP) = range(11)
META_WIDTH = 12
FO_SIDE, FO_TYPE, FO_CP, FO_ZONE, FO_DRAW = range(5)
FO_FIELDS = 5
FO_CLASS = 3     # FO_TYPE of one card of a reinforcement class draw (5.7), FO_DRAW its draw; not a formation
V_HOLD_MASK, V_HOLD_COUNT, V_POINTS, V_ELIM, V_ANY, V_SUDDEN = range(6)
OB_HEX, OB_VALUE, OB_START = range(3)
D_COUNT, D_METHOD = range(2)          # draw rows: side * 3 + unit kind
METHOD_CHOOSE, METHOD_DOUBLE, METHOD_DRAW = range(3)   # 5.6, in the book's order

# --- parameters (p[field]) -------------------------------------------------------------
(P_TURNS, P_INITIATIVE, P_SETUP_FIRST, P_EDITION, P_CP_RULE, P_SUDDEN, P_IF_NEITHER, P_CC_STACK,
 P_FAST_UPHILL, P_MAX_SMOKE, P_SMOKE_DECAY, P_MIN_CP, P_N_OBJ, P_NEED_SUPPORT, P_HAS_VEHICLES,
 P_BASE_CP0, P_BASE_CP1, P_MAXR, P_N_UNITS, P_N_FORMS, P_N_ZONES,
 # offsets into meta
 P_O_FORM, P_O_VIC, P_O_OBJ, P_O_DRAW,
 # offsets into keys and their sizes (P_O_CC: into fconst, the close-combat pool statistics)
 P_O_ATK, P_O_BAND, P_O_DEF, P_O_SPOT, P_O_CC, P_NT, P_NB, P_NR, P_NG, P_NSMOKE, P_NAREA, P_NOUT,
 P_NTERR, P_NROLES, P_NFLAGS,
 # pools in rows
 P_CRIT_G, P_CRIT_B, P_CRIT_MAX, P_N_ATK,
 # offsets into fconst
 P_O_COVER, P_O_CCLOSS, P_O_CCMASK) = range(47)
P_TRANSPORT = 47      # 1: some unit can carry another (9.11): the transport rules are played
P_OVERRUN = 48        # 1: some vehicle may overrun some enemy artillery (9.10.3)
P_O_OVR = 49          # offset into keys of the last-shot pools (9.10.3): [gun type, tank type, 2]
P_O_ICC = 50          # offset into keys of the fire-into-close-combat pools (10.11)
P_ICC_SPARE = 51      # (reserved for 10.11; unused: the block in keys has its own header, ICC_*)
P_O_IND = 52          # offsets into keys of the support phase's pools (chapter 7): indirect-fire attack
P_O_INDDEF = 53       #   [firer type, target type, half, minus], indirect-fire defence [target type,
P_O_INDSPOT = 54      #   terrain, hill, status, failed], spotting [.., adjacent] and smoke attack
P_O_SMOKE = 55        #   [firer type, half, minus] (P_NEED_SUPPORT: the support phase is played)
P_CP_ALWAYS = 56      # 1: 10.7.3's minimum of four command points holds always; 0: only as a floor on losses
P_FALLBACK_EVER = 57  # 1: a unit that has ever fallen back is eliminated by its next fallback (13.3, reading S22);
                      #   0: only a fallback while its fallback marker is on eliminates it
P_O_PFIRE = 58        # offset into keys of the revised 12.4 shot at passengers: [assault type, passenger type,
                      #   half, 2] attack / defence pool, -1 none
P_NCCT = 59          # close combat's grounds (terrain, fortification) of the map (HI_CCT; CC_WHERE bounds 3x)
P_FIELDS = 60
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
