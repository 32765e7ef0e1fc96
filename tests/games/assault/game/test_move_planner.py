"""The players' movement planner. ``moves.reach`` against the plain definition of its
search: label-setting from the most points left down, each level swept over every hex
(every state of a vehicle: hex, facing, turned here) in index order, a vehicle's level
swept again until nothing is left in it. ``reach`` looks only at what it has reached;
it must find the same points left and, on equal routes, the same first action, in every
position of real games (Crossroads and Vehicle Training: infantry, guns, trucks, tanks),
for every unit, kind of move and allowance.

The definition is written here in Python over the engine's own step rule
(``moves.step_core``); a vehicle's turns (9.10: the first vertex in a hex free, then a
point each, free on a road, not back to a facing held) are written out as
``reach_vehicle`` takes them, so what is checked is the order of the search, not the
movement rules.

And greedy's ``prefilter`` (the few hexes a move looks at closely) against its
definition: of the hexes reached, free and not the start, drop the one with the lowest
quick value (the first such hex on a tie) until ``PREFILTER`` are left.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from simulator.engine.players.interface import choose, make_work, player_setup
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.game import State
from simulator.games.assault.game.greedy import PREFILTER, prefilter
from simulator.games.assault.game.greedy_values import hex_is_free, quick_value
from simulator.games.assault.game.moves import (
    MODE_FALLBACK,
    STEP_ENEMY,
    STEP_HARSH,
    STEP_NO,
    STEP_OVERRUN,
    TURN,
    reach,
    step_core,
)
from simulator.games.assault.game.state import (
    G_FACES,
    G_TURNED,
    HX_OCC,
    MODE_FAST,
    MODE_NORMAL,
    MODE_REVERSE,
    U_FACE,
    U_SIDE,
    U_TYPE,
    VEHICLE,
)
from simulator.games.assault.game.tables import HI_FREEFACE, S6_NBR, UT_KIND, UT_MOVE
from simulator.games.assault.game.view import hex_of, is_on_map


@numba.njit(cache=True)
def call_reach(s, t, u, h0, mode, mp, steps0, best, first, stack):
    return reach(s, t, u, h0, mode, mp, steps0, best, first, stack)


@numba.njit(cache=True)
def call_step(s, t, u, h, face, d, mode, mp, steps):
    return step_core(s.u, s.hx, t.ut, t.side6, t.p, t.hexi, u, h, face, d, mode, mp, steps)


@numba.njit(cache=True)
def call_prefilter(s, t, u, h, w):
    prefilter(s, t, u, h, w)


@numba.njit(cache=True)
def quick(s, t, wt, u, g):
    return quick_value(s, t, wt, u, g) if hex_is_free(s, g, s.u[u, U_SIDE]) else np.nan


@numba.njit(cache=True)
def on_map(s, u):
    return is_on_map(s, u)


@numba.njit(cache=True)
def hex_at(s, u):
    return hex_of(s, u)


def next_in_scan(value, done, level, after):
    """The first state past ``after`` a scan over every state would expand at ``level``
    (-1: none)."""
    hits = np.flatnonzero((value[after + 1:] == level) & ~done[after + 1:])
    return after + 1 + int(hits[0]) if hits.size else -1


def scan_reach(s, t, u, h0, mode, mp, steps0, n):
    """The search as a scan over every hex, level by level (the definition)."""
    if t.ut[s.u[u, U_TYPE], UT_KIND] == VEHICLE:
        return scan_reach_vehicle(s, t, u, h0, mode, mp, steps0, n)
    best, first, done = np.full(n, -1), np.full(n, -1), np.zeros(n, bool)
    best[h0] = mp
    side = s.u[u, U_SIDE]
    for level in range(mp, 0, -1):
        h = next_in_scan(best, done, level, -1)
        while h >= 0:
            done[h] = True
            if h == h0 or s.hx[h, HX_OCC + 1 - side] == 0:
                steps = steps0 if h == h0 else steps0 + 1
                for d in range(6):
                    kind, c = call_step(s, t, u, h, s.u[u, U_FACE], d, mode, level, steps)
                    if kind == STEP_NO:
                        continue
                    g = t.side6[h, d, S6_NBR]
                    rest = 0 if kind == STEP_HARSH else level - c
                    if rest > best[g]:
                        best[g] = rest
                        first[g] = d if h == h0 else first[h]
            h = next_in_scan(best, done, level, h)
    return best, first


def scan_reach_vehicle(s, t, u, h0, mode, mp, steps0, n):
    best, first = np.full(n, -1), np.full(n, -1)
    value, code, done = np.full(12 * n, -1), np.zeros(12 * n, int), np.zeros(12 * n, bool)
    side = s.u[u, U_SIDE]
    value[(h0 * 6 + s.u[u, U_FACE]) * 2 + (1 if s.g[G_TURNED] == 1 else 0)] = mp
    best[h0] = mp
    for level in range(mp, -1, -1):
        st = next_in_scan(value, done, level, -1)
        while st >= 0:                              # sweeps until the level is empty
            done[st] = True
            h, f, turned = st // 12, (st // 2) % 6, st % 2
            if h == h0 or s.hx[h, HX_OCC + 1 - side] == 0:
                expand_vehicle(s, t, u, h0, mode, steps0, level, st, h, f, turned, best, first, value, code)
            after = next_in_scan(value, done, level, st)
            st = after if after >= 0 else next_in_scan(value, done, level, -1)
    return best, first


def expand_vehicle(s, t, u, h0, mode, steps0, level, st, h, f, turned, best, first, value, code):
    free = t.hexi[h, HI_FREEFACE] == 1
    for nf in ((f + 1) % 6, (f + 5) % 6):
        if h == h0 and (s.g[G_FACES] >> nf) & 1:
            continue
        rest = level - (0 if free or not turned else 1)
        ns = (h * 6 + nf) * 2 + (turned if free else 1)
        if rest >= 0 and rest > value[ns]:
            value[ns], code[ns] = rest, code[st] or TURN + nf + 1
    if level == 0:
        return
    if mode == MODE_FALLBACK:
        sides = range(6)
    else:
        d0 = (f + 3) % 6 if mode == MODE_REVERSE else f
        sides = (d0, (d0 + 1) % 6)
    steps = steps0 if h == h0 else steps0 + 1
    for d in sides:
        kind, c = call_step(s, t, u, h, f, d, mode, level, steps)
        if kind == STEP_NO:
            continue
        g = t.side6[h, d, S6_NBR]
        rest = 0 if kind == STEP_HARSH else level - c
        cd = code[st] or d + 1
        if rest > best[g]:
            best[g], first[g] = rest, cd - 1
        ns = (g * 6 + f) * 2
        if kind not in (STEP_HARSH, STEP_ENEMY, STEP_OVERRUN) and rest > value[ns]:
            value[ns], code[ns] = rest, cd


def prefiltered(s, t, w, u, h):
    """The definition: the hexes kept (a boolean per hex)."""
    values = {g: quick(s, t, w.weights, u, g) for g in range(len(w.best)) if w.best[g] >= 0 and g != h}
    kept = {g: v for g, v in values.items() if not np.isnan(v)}
    while len(kept) > PREFILTER:
        low = min(kept.values())
        del kept[min(g for g, v in kept.items() if v == low)]
    return np.isin(np.arange(len(w.best)), list(kept))


def positions(scenario, games, every):
    """Every ``every``-th position of ``games`` greedy games."""
    g = compile_game(scenario)
    kinds, params = player_setup(("greedy", "greedy"))
    w = make_work(g)
    for seed in range(games):
        st = State(g, seed=seed, log=False)
        k = 0
        while not st.is_terminal():
            if k % every == 0:
                yield g, st.s
            side = st.current_player()
            st.apply_action(int(choose(st.s, g.tables, np.int64(kinds[side]), np.int64(side), w, params)))
            k += 1


@pytest.mark.parametrize("scenario, games, every, kinds", [("crossroads", 1, 90, ("infantry", "vehicle")),
                                                           ("vehicle-training", 1, 25, ("vehicle",))])
def test_reach_finds_what_a_scan_over_the_map_finds(scenario, games, every, kinds):
    checked = {"infantry": 0, "vehicle": 0}
    for g, s in positions(scenario, games, every):
        t = g.tables
        n = g.cm.n
        w = make_work(g)
        for u in range(s.u.shape[0]):
            if not on_map(s, u):
                continue
            vehicle = t.ut[s.u[u, U_TYPE], UT_KIND] == VEHICLE
            modes = (MODE_NORMAL, MODE_FAST, MODE_REVERSE, MODE_FALLBACK) if vehicle else (MODE_NORMAL, MODE_FAST,
                                                                                           MODE_FALLBACK)
            allowance = int(t.ut[s.u[u, U_TYPE], UT_MOVE])
            for mode in modes:
                for mp in sorted({1, allowance, 2 * allowance}):
                    h0 = hex_at(s, u)
                    count = call_reach(s, t, u, h0, mode, mp, 0, w.best, w.first, w.stack)
                    best, first = scan_reach(s, t, u, h0, mode, mp, 0, n)
                    assert (w.best == best).all(), (scenario, u, mode, mp)
                    assert (w.first == first).all(), (scenario, u, mode, mp)
                    assert count == (best >= 0).sum()
                    call_prefilter(s, t, u, h0, w)
                    assert (~np.isnan(w.cheap) == prefiltered(s, t, w, u, h0)).all(), (scenario, u, mode, mp)
                    checked["vehicle" if vehicle else "infantry"] += 1
    assert all(checked[kind] >= 50 for kind in kinds), checked
