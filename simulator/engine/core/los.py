"""Line of sight (10.2-10.4, rulings #12-#14), exact and precomputed per map.

The LOS runs from the centre of the firer's hex to the centre of the target's hex
(10.3, 4.8). Which hexes it crosses is computed exactly, in integer arithmetic: in
cube coordinates a hex is the set of points ``p`` with ``|px - py|``, ``|py - pz|``,
``|pz - px|`` all at most 1 away from its centre's, so the stretch of the segment inside
a hex is an interval of the segment's parameter with rational ends. A hex the segment
passes through counts; a hex whose border the segment runs *along* (a line exactly on a
hex side) is one of a pair, and the one worse for the firer counts (rulings #12); a hex
the segment only touches at a single corner point does not count. The two end hexes
never hinder or block (rulings #12).

What an intervening hex does (10.4, rulings #13), with ``level`` the higher of the two
units' ground elevations:

- it is traced over when its obstacle height (ground + terrain height, buildings and
  forests +1) is below ``level``;
- otherwise its terrain hinders or blocks as the aid says, and a hill hex whose ground
  is at least ``level`` blocks, unless it belongs to the hill one of the two units stands
  on (the bare top of a unit's own hill does not obstruct: rulings #13).

Three or more hindrances block (10.3, rulings #14); smoke markers count with them and
are added at run time by :func:`los_with_smoke`.

Codes: ``CLEAR = 0``, ``HINDERED = 1``, ``BLOCKED = 2``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

CLEAR, HINDERED, BLOCKED = 0, 1, 2
LOS_NAMES = ("clear", "hindered", "blocked")
HINDRANCES_TO_BLOCK = 3  # 10.3


# --- exact geometry of a line between two hex centres --------------------------------

@njit(cache=True)
def _cube_round(x: float, y: float, z: float) -> tuple:
    rx = np.floor(x + 0.5)
    ry = np.floor(y + 0.5)
    rz = np.floor(z + 0.5)
    dx = abs(rx - x)
    dy = abs(ry - y)
    dz = abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    return (int(rx), int(ry))  # axial (q, r) = (x, y)


@njit(cache=True)
def _less(an: int, ad: int, bn: int, bd: int) -> bool:
    """an/ad < bn/bd with positive denominators."""
    return an * bd < bn * ad


@njit(cache=True)
def _segment_in_hex(ux: int, uy: int, uz: int, wx: int, wy: int, wz: int) -> tuple:
    """Where the segment ``u + t w`` (t in [0, 1], u = start - hex centre) meets a hex.

    Returns ``(kind, lo_num, lo_den, hi_num, hi_den)``: kind 0 = not at all or at a single
    point, 1 = through the inside, 2 = along its border (a hex side)."""
    lon, lod, hin, hid = 0, 1, 1, 1
    border = False
    for k in range(3):
        if k == 0:
            c, m = ux - uy, wx - wy
        elif k == 1:
            c, m = uy - uz, wy - wz
        else:
            c, m = uz - ux, wz - wx
        if m == 0:
            if c > 1 or c < -1:
                return (0, 0, 1, 0, 1)
            if c == 1 or c == -1:
                border = True
            continue
        # -1 <= c + t m <= 1
        n1, n2, d = -1 - c, 1 - c, m
        if d < 0:
            n1, n2, d = -n2, -n1, -d
        # now t in [n1/d, n2/d]
        if _less(lon, lod, n1, d):
            lon, lod = n1, d
        if _less(n2, d, hin, hid):
            hin, hid = n2, d
    if not _less(lon, lod, hin, hid):
        return (0, lon, lod, hin, hid)
    return (2 if border else 1, lon, lod, hin, hid)


@njit(cache=True)
def line_steps(qa: int, ra: int, qb: int, rb: int, index, qmin: int, rmin: int,  # noqa: C901 - one walk along a line, its cases inline
               prim, alt, stamp, stamp_id: int, work, fkey) -> int:
    """The hexes strictly between hex a and hex b (axial coordinates), in order from a.

    Writes step k into ``prim[k]`` (map index, or -1 off the map) and ``alt[k]`` (the
    other hex of a pair along a hex side, else -2); returns the number of steps.
    ``index[q - qmin, r - rmin]`` maps axial coordinates to map indices (-1 off map; the
    array has a margin of 2 around the map). ``stamp`` is a scratch array of the same
    shape, ``stamp_id`` a number not used before in it; ``work`` is an int64 scratch
    array of shape (9, (n + 1) * 7) or larger and ``fkey`` a float64 one of (n + 1) * 7,
    both from :func:`line_work`."""
    n = max(abs(qa - qb), abs(ra - rb), abs((qa + ra) - (qb + rb)))
    if n <= 1:
        return 0
    ax, ay, az = qa, ra, -qa - ra
    bx, by, bz = qb, rb, -qb - rb
    wx, wy, wz = bx - ax, by - ay, bz - az
    # candidates: the hexes at the sample points i/n and their neighbours
    cq = work[0]
    cr = work[1]
    nc = 0
    for i in range(n + 1):
        t = i / n
        q0, r0 = _cube_round(ax + t * wx + 1e-7, ay + t * wy + 2e-7, az + t * wz - 3e-7)
        for d in range(7):
            if d == 6:
                q, r = q0, r0
            else:
                q, r = q0 + _DQ[d], r0 + _DR[d]
            iq, ir = q - qmin, r - rmin
            if stamp[iq, ir] != stamp_id:
                stamp[iq, ir] = stamp_id
                cq[nc] = q
                cr[nc] = r
                nc += 1
    # classify each candidate
    kind = work[2]
    lon = work[3]
    lod = work[4]
    hin = work[5]
    hid = work[6]
    for c in range(nc):
        q, r = cq[c], cr[c]
        kind[c] = 0
        if (q == qa and r == ra) or (q == qb and r == rb):
            continue
        k, a1, a2, b1, b2 = _segment_in_hex(ax - q, ay - r, az + q + r, wx, wy, wz)
        kind[c] = k
        lon[c], lod[c], hin[c], hid[c] = a1, a2, b1, b2
    # steps: inside hexes singly, border hexes paired by their common stretch
    ns = 0
    sp = work[7]
    sa = work[8]
    for c in range(nc):
        kc = kind[c]
        if kc <= 0:
            continue
        kind[c] = -1
        other = -1
        if kc == 2:
            for e in range(c + 1, nc):
                if (kind[e] == 2 and lon[e] * lod[c] == lon[c] * lod[e]
                        and hin[e] * hid[c] == hin[c] * hid[e]):
                    other = e
                    kind[e] = -1
                    break
        h1 = index[cq[c] - qmin, cr[c] - rmin]
        h2 = -2
        if kc == 2:
            h2 = -1 if other < 0 else index[cq[other] - qmin, cr[other] - rmin]
            if h1 < 0 and h2 >= 0:
                h1, h2 = h2, h1
        # order along the line by the middle of the stretch (stretches are disjoint and
        # their ends have denominators below 4n, so floats order them exactly)
        mid = lon[c] / lod[c] + hin[c] / hid[c]
        j = ns
        while j > 0 and fkey[j - 1] > mid:
            fkey[j] = fkey[j - 1]
            sp[j] = sp[j - 1]
            sa[j] = sa[j - 1]
            j -= 1
        fkey[j] = mid
        sp[j] = h1
        sa[j] = h2
        ns += 1
    for k in range(ns):
        prim[k] = sp[k]
        alt[k] = sa[k]
    return ns


def line_work(max_distance: int) -> tuple:
    """Scratch arrays for :func:`line_steps` on lines up to ``max_distance`` hexes."""
    size = (max_distance + 1) * 7
    return np.empty((9, size), dtype=np.int64), np.empty(size, dtype=np.float64)


_DQ = np.array([0, 1, 1, 0, -1, -1], dtype=np.int64)
_DR = np.array([-1, -1, 0, 1, 1, 0], dtype=np.int64)


# --- what a hex does to a LOS ---------------------------------------------------------

@njit(cache=True)
def hex_effect(x: int, a: int, b: int, elevation, obstacle, los_class, hill_id) -> int:
    """CLEAR, HINDERED or BLOCKED: what hex ``x`` between ``a`` and ``b`` does (10.4,
    rulings #13). Off-map hexes (``x < 0``) are clear."""
    if x < 0:
        return CLEAR
    level = max(elevation[a], elevation[b])
    if obstacle[x] < level:
        return CLEAR  # traced over (10.4)
    effect = los_class[x]
    if elevation[x] > 0 and elevation[x] >= level and effect < BLOCKED:
        own = hill_id[x] >= 0 and (hill_id[x] == hill_id[a] or hill_id[x] == hill_id[b])
        if not own:
            effect = BLOCKED  # a hill at the viewer's level blocks (10.4, 9.6.1)
    return effect


@njit(cache=True)
def _worse(x: int, y: int, ex: int, ey: int, dice) -> bool:
    """Whether hex x is worse for the firer than hex y (rulings #12): block > hinder >
    clear, then the stronger LOS dice, then the lower index (a fixed, symmetric choice)."""
    if ex != ey:
        return ex > ey
    if ex == HINDERED:
        for k in range(dice.shape[1]):
            if dice[x, k] != dice[y, k]:
                return dice[x, k] > dice[y, k]
    return x < y


@njit(cache=True)
def trace_line(a, b, q, r, index, qmin, rmin, elevation, obstacle, los_class, hill_id, los_dice,
               prim, alt, stamp, sid, work, fkey, dice, between, between_alt) -> tuple:
    """The LOS from hex ``a`` to hex ``b`` (no smoke): ``(code, hindrances, steps)``.

    Adds the LOS dice of the hindering hexes to ``dice`` (10.9.2) and writes the hexes
    strictly between into ``between[k]`` (the worse of a side pair, rulings #12) and the
    other hex of such a pair into ``between_alt[k]`` (-1 if none or off the map), for the
    first ``len(between)`` steps; ``steps`` is how many there were. The scratch arrays are
    those of :func:`line_steps` (``sid`` a stamp not used before)."""
    ns = line_steps(q[a], r[a], q[b], r[b], index, qmin, rmin, prim, alt, stamp, sid, work, fkey)
    nd = los_dice.shape[1]
    kmax = between.shape[0]
    code = CLEAR
    nh = 0
    kk = 0
    for k in range(ns):
        x = prim[k]
        y = alt[k]
        if x < 0:
            continue  # off the map: clear, and not listed
        ex = hex_effect(x, a, b, elevation, obstacle, los_class, hill_id)
        if y >= 0:
            ey = hex_effect(y, a, b, elevation, obstacle, los_class, hill_id)
            if _worse(y, x, ey, ex, los_dice):
                x, y, ex = y, x, ey
        if kk < kmax:  # kmax is generous; the caller trims to the longest
            between[kk] = x
            if between_alt.shape[0] > kk:
                between_alt[kk] = y if y >= 0 else -1
        kk += 1
        if ex == BLOCKED:
            code = BLOCKED
        elif ex == HINDERED:
            nh += 1
            for j in range(nd):
                dice[j] += los_dice[x, j]
    if code != BLOCKED and nh > 0:
        code = BLOCKED if nh >= HINDRANCES_TO_BLOCK else HINDERED
    return (code, nh, kk)


@njit(cache=True)
def compute_los_tables(q, r, index, qmin, rmin, elevation, obstacle, los_class, hill_id,
                       los_dice, kmax):
    """All-pairs LOS of a map: ``(los, hindrances, dice, between, between_alt, longest)``.

    ``los[a, b]`` is the code without smoke, ``hindrances[a, b]`` the number of hindering
    hexes, ``dice[a, b, :]`` the LOS dice they add (10.9.2), ``between[a, b, k]`` the
    hexes strictly between (the worse of a side pair, rulings #12; -1 pads) and
    ``between_alt[a, b, k]`` the other hex of such a pair (-1 if none or off the map);
    ``longest`` is the most steps any line needed (at most ``kmax`` are stored). A line
    can cross more than ``distance - 1`` hexes: it may clip the corner of a hex beside
    its row. Memory grows as the square of the map: the engine uses
    :func:`compute_los_near` instead; this full table is the reference (tests, bench)."""
    n = q.shape[0]
    nd = los_dice.shape[1]
    los = np.zeros((n, n), dtype=np.int8)
    hind = np.zeros((n, n), dtype=np.int8)
    dice = np.zeros((n, n, nd), dtype=np.int8)
    between = np.full((n, n, kmax), -1, dtype=np.int32)
    between_alt = np.full((n, n, kmax), -1, dtype=np.int32)
    stamp = np.zeros(index.shape, dtype=np.int64)
    size = (kmax + 2) * 7
    prim = np.empty(size, dtype=np.int64)
    alt = np.empty(size, dtype=np.int64)
    work = np.empty((9, size), dtype=np.int64)
    fkey = np.empty(size, dtype=np.float64)
    d64 = np.zeros(nd, dtype=np.int64)
    sid = 0
    longest = 0
    for a in range(n):
        for b in range(n):
            if a == b:
                continue
            sid += 1
            d64[:] = 0
            code, nh, kk = trace_line(a, b, q, r, index, qmin, rmin, elevation, obstacle, los_class,
                                      hill_id, los_dice, prim, alt, stamp, sid, work, fkey, d64,
                                      between[a, b], between_alt[a, b])
            for j in range(nd):
                dice[a, b, j] = d64[j]
            los[a, b] = code
            hind[a, b] = nh
            longest = max(longest, kk)
    return los, hind, dice, between, between_alt, longest


@njit(cache=True)
def longest_line(radius: int) -> int:
    """The most hexes strictly between two hexes at most ``radius`` apart (off-map steps
    aside, which a line on a map only skips): lines are the same wherever they start."""
    m = radius + 3
    index = np.zeros((2 * m + 1, 2 * m + 1), dtype=np.int64)
    stamp = np.zeros(index.shape, dtype=np.int64)
    size = (2 * radius + 4) * 7
    prim = np.empty(size, dtype=np.int64)
    alt = np.empty(size, dtype=np.int64)
    work = np.empty((9, size), dtype=np.int64)
    fkey = np.empty(size, dtype=np.float64)
    longest = 0
    sid = 0
    for dq in range(-radius, radius + 1):
        for dr in range(-radius, radius + 1):
            if abs(dq + dr) > radius:
                continue
            sid += 1
            longest = max(longest, line_steps(0, 0, dq, dr, index, -m, -m, prim, alt, stamp, sid, work, fkey))
    return longest


@njit(cache=True)
def compute_los_near(q, r, index, qmin, rmin, elevation, obstacle, los_class, hill_id,
                     los_dice, radius, kmax, between):
    """The LOS of every line at most ``radius`` hexes long, by axial offset: ``(los,
    dice)`` with ``los[a, dq + radius, dr + radius]`` the code from hex ``a`` to the hex
    at offset ``(dq, dr)`` (-1: off the map, ``a`` itself, or farther than ``radius``),
    ``dice[a, i, j, :]`` the LOS dice of its hindrances (10.9.2); the hexes strictly
    between are written into ``between[a, i, j, :kmax]`` (int16 or int32, filled with -1
    by the caller). Memory grows as the map times the square of ``radius``, not as the
    square of the map. The same lines as :func:`compute_los_tables` (:func:`trace_line`)."""
    n = q.shape[0]
    nd = los_dice.shape[1]
    w = 2 * radius + 1
    los = np.full((n, w, w), -1, dtype=np.int8)
    dice = np.zeros((n, w, w, nd), dtype=np.int8)
    stamp = np.zeros(index.shape, dtype=np.int64)
    size = (kmax + 2) * 7
    prim = np.empty(size, dtype=np.int64)
    alt = np.empty(size, dtype=np.int64)
    work = np.empty((9, size), dtype=np.int64)
    fkey = np.empty(size, dtype=np.float64)
    b32 = np.empty(kmax, dtype=np.int32)
    alt32 = np.empty(0, dtype=np.int32)
    d64 = np.zeros(nd, dtype=np.int64)
    sid = 0
    for a in range(n):
        for i in range(w):
            dq = i - radius
            for j in range(w):
                dr = j - radius
                if abs(dq + dr) > radius or (dq == 0 and dr == 0):
                    continue
                iq = q[a] + dq - qmin
                ir = r[a] + dr - rmin
                if iq < 0 or ir < 0 or iq >= index.shape[0] or ir >= index.shape[1]:
                    continue
                b = index[iq, ir]
                if b < 0:
                    continue
                sid += 1
                d64[:] = 0
                code, nh, kk = trace_line(a, b, q, r, index, qmin, rmin, elevation, obstacle, los_class,
                                          hill_id, los_dice, prim, alt, stamp, sid, work, fkey, d64,
                                          b32, alt32)
                for k in range(min(kk, kmax)):
                    between[a, i, j, k] = b32[k]
                for k in range(nd):
                    dice[a, i, j, k] = d64[k]
                los[a, i, j] = code
    return los, dice


@njit(cache=True)
def los_with_smoke(a: int, b: int, smoke, between, between_alt, elevation, obstacle,
                   los_class, hill_id, count_markers: bool) -> tuple:
    """LOS from ``a`` to ``b`` with smoke markers (10.3, rulings #14): ``(code,
    hindrances)``. ``smoke[h]`` is the number of smoke markers in hex ``h``; each marker
    counts as one hindrance (``count_markers``) or each smoky hex as one. Smoke counts
    whatever the elevations (smoke is not terrain, 10.4). Of a pair along a hex side the
    worse counts: blocked first, then more hindrances."""
    code = CLEAR
    total = 0
    for k in range(between.shape[2]):
        x = between[a, b, k]
        if x < 0:
            break
        ex = hex_effect(x, a, b, elevation, obstacle, los_class, hill_id)
        sx = smoke[x] if count_markers else min(smoke[x], 1)
        hx = (1 if ex == HINDERED else 0) + sx
        y = between_alt[a, b, k]
        if y >= 0:
            ey = hex_effect(y, a, b, elevation, obstacle, los_class, hill_id)
            sy = smoke[y] if count_markers else min(smoke[y], 1)
            hy = (1 if ey == HINDERED else 0) + sy
            if (ey == BLOCKED and ex != BLOCKED) or (ex != BLOCKED and ey != BLOCKED and hy > hx):
                ex, hx = ey, hy
        if ex == BLOCKED:
            code = BLOCKED
        total += hx
    if code != BLOCKED and total > 0:
        code = BLOCKED if total >= HINDRANCES_TO_BLOCK else HINDERED
    return (code, total)
