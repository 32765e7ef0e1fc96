"""Hex geometry (4.8): names, neighbours, distance, facing, arcs of fire (10.6) and
areas of impact (10.9.3)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.engine.core import hexgrid as hg
from simulator.engine.core.hexgrid import FLANK, FRONT, REAR, HexGrid
from simulator.run.errors import InputError

GRIDS = {o: HexGrid(9, 8, o) for o in hg.ORIENTATIONS}


@pytest.mark.parametrize("orientation", hg.ORIENTATIONS)
def test_offset_axial_round_trip(orientation):
    for col in range(-3, 9):
        for row in range(-3, 9):
            q, r = hg.offset_to_axial(col, row, orientation)
            assert hg.axial_to_offset(q, r, orientation) == (col, row)


@pytest.mark.parametrize("orientation,hex_,expected", [
    # flat: odd columns shifted down; order N, NE, SE, S, SW, NW
    ("flat", "2,2", ["2,1", "3,1", "3,2", "2,3", "1,2", "1,1"]),
    ("flat", "1,2", ["1,1", "2,2", "2,3", "1,3", "0,3", "0,2"]),
    # pointy: odd rows shifted right; order NW, NE, E, SE, SW, W
    ("pointy", "2,2", ["1,1", "2,1", "3,2", "2,3", "1,3", "1,2"]),
    ("pointy", "2,1", ["2,0", "3,0", "3,1", "3,2", "2,2", "1,1"]),
])
def test_neighbours_follow_the_documented_order(orientation, hex_, expected):
    g = GRIDS[orientation]
    assert [g.names[x] for x in g.neighbours[g.index_of(hex_)]] == expected


def test_neighbours_off_the_map_are_minus_one():
    g = GRIDS["flat"]
    corner = g.neighbours[g.index_of("0,0")]
    assert [g.names[x] if x >= 0 else None for x in corner] == [None, None, "1,0", "0,1", None, None]


@pytest.mark.parametrize("orientation,a,b,d", [
    ("flat", "0,0", "4,0", 4), ("flat", "0,0", "0,5", 5), ("flat", "0,0", "3,3", 5),
    ("flat", "1,0", "1,0", 0), ("pointy", "0,0", "5,0", 5), ("pointy", "0,0", "0,4", 4),
    ("pointy", "0,0", "3,4", 5),
])
def test_distance_examples(orientation, a, b, d):
    g = GRIDS[orientation]
    assert g.distance[g.index_of(a), g.index_of(b)] == d


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(hg.ORIENTATIONS), st.integers(0, 71), st.integers(0, 71), st.integers(0, 71))
def test_distance_is_a_metric(orientation, a, b, c):
    d = GRIDS[orientation].distance.astype(int)
    assert (d[a, b] == 0) == (a == b)
    assert d[a, b] == d[b, a]
    assert d[a, c] <= d[a, b] + d[b, c]


@pytest.mark.parametrize("orientation", hg.ORIENTATIONS)
def test_neighbours_are_at_distance_one_and_mutual(orientation):
    g = GRIDS[orientation]
    for h in range(g.n):
        for d, x in enumerate(g.neighbours[h]):
            if x >= 0:
                assert g.distance[h, x] == 1
                assert g.neighbours[x, (d + 3) % 6] == h
        assert sum(1 for x in range(g.n) if g.distance[h, x] == 1) == (g.neighbours[h] >= 0).sum()


def test_facing_names_and_errors():
    assert hg.parse_facing("NE", "flat") == 0 and hg.parse_facing("e", "flat") == 1
    assert hg.parse_facing("N", "pointy") == 0 and hg.parse_facing(4, "pointy") == 4
    with pytest.raises(InputError, match="faces one of its vertices NE, E, SE, SW, W, NW"):
        hg.parse_facing("N", "flat")  # a flat-topped hex has no north vertex
    with pytest.raises(InputError):
        hg.parse_facing(6, "flat")


def test_arc_of_fire_holds_the_two_frontal_hexes_only_among_neighbours():
    # 10.6: artillery and vehicles fire through their two frontal hexes (9.10 naming)
    g = HexGrid(11, 11, "flat")
    h = g.index_of("5,5")
    for f in range(6):
        front = {int(g.neighbours[h, s]) for s in hg.frontal_sides(f)}
        ring = {x for x in range(g.n) if g.distance[h, x] == 1 and hg.arc_of_fire(g.q, g.r, h, f, x)}
        assert ring == front


def test_arc_of_fire_is_120_degrees_and_the_same_for_every_facing():
    g = HexGrid(15, 15, "pointy")
    h = g.index_of("7,7")
    near = [x for x in range(g.n) if 1 <= g.distance[h, x] <= 5]
    counts = [sum(hg.arc_of_fire(g.q, g.r, h, f, x) for x in near) for f in range(6)]
    assert len(set(counts)) == 1
    # Facings f, f+2, f+4 cover the plane; their arcs share the three boundary rays
    # through vertices, which meet a hex centre every 2 hexes (2 per ray within 5):
    # 3 * arc = 90 + 3 * 2
    assert counts[0] == (90 + 3 * 2) // 3 == 32
    # the arcs of opposite facings only share boundary hexes: none
    for f in range(6):
        both = [x for x in near if hg.arc_of_fire(g.q, g.r, h, f, x)
                and hg.arc_of_fire(g.q, g.r, h, (f + 3) % 6, x)]
        assert both == []


def test_areas_of_impact_by_side():
    # 10.9.3: sides f, f+1 front; f+2 and f+5 flank; f+3, f+4 rear
    g = HexGrid(11, 11, "flat")
    t = g.index_of("5,5")
    for f in range(6):
        areas = [hg.area_of_impact(g.q, g.r, int(g.neighbours[t, s]), t, f) for s in range(6)]
        expected = [None] * 6
        for k, area in enumerate([FRONT, FRONT, FLANK, REAR, REAR, FLANK]):
            expected[(f + k) % 6] = area
        assert areas == expected


def test_area_of_impact_along_a_boundary_gives_both_and_the_weaker():
    # A firer two hexes away through the vertex between a front and a flank side
    # (a LOS along a hex side line): both areas, and the area_of_impact default is flank.
    g = HexGrid(11, 11, "flat")
    t = g.index_of("5,5")
    f = 0  # facing NE: sides 0 (N) and 1 (NE) are front, side 2 (SE) flank
    vq, vr = hg.vertex_vector(1)  # the vertex between sides 1 and 2
    firer = g.axial_index(int(g.q[t] + vq), int(g.r[t] + vr))
    assert hg.areas_of_impact(int(g.q[firer] - g.q[t]), int(g.r[firer] - g.r[t]), f) == (FRONT, FLANK)
    assert hg.area_of_impact(g.q, g.r, firer, t, f) == FLANK
    # through the facing vertex itself: front only
    vq, vr = hg.vertex_vector(0)
    firer = g.axial_index(int(g.q[t] + vq), int(g.r[t] + vr))
    assert hg.areas_of_impact(int(g.q[firer] - g.q[t]), int(g.r[firer] - g.r[t]), f) == (FRONT, -1)


def test_facing_change_counts_vertices_the_short_way():
    assert [hg.facing_change(0, f) for f in range(6)] == [0, 1, 2, 3, 2, 1]


def test_picture_geometry_puts_neighbours_one_width_apart():
    for orientation in hg.ORIENTATIONS:
        g = GRIDS[orientation]
        h = g.index_of("3,3")
        x0, y0 = hg.centre(3, 3, orientation)
        for x in g.neighbours[h]:
            x1, y1 = hg.centre(int(g.col[x]), int(g.row[x]), orientation)
            assert np.hypot(x1 - x0, y1 - y0) == pytest.approx(np.sqrt(3))
