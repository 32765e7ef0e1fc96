"""Line of sight (10.2-10.4, 9.6.2, rulings #12-#14): the rule-book cases, hex-side
lines, smoke, the precomputed tables and their properties."""

import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.engine.core import los as L
from simulator.engine.core.hexgrid import HexGrid
from simulator.games.assault.game.compiled import compile_map
from simulator.games.assault.game.scenario_format import MapSpec
from simulator.games.assault.rules.aid import load_aid

AID = load_aid()
LEGEND = {".": "clear", "r": "road", "b": "brush", "f": "forest", "F": "heavy_forest",
          "w": "wooden_building", "s": "stone_building", "h": "hill", "H": "hill+forest",
          "W": "hill+wooden_building", "B": "hill+brush"}


def cmap(rows, orientation="pointy"):
    return compile_map(MapSpec(orientation=orientation, rows=list(rows), legend=LEGEND), AID)


def sight(rows, a, b, orientation="pointy", **kw):
    return cmap(rows, orientation).line_of_sight(a, b, **kw)


# Pointy-topped maps of one row: the LOS runs straight through the hexes between.
@pytest.mark.parametrize("row,los,hind", [
    ("....", "clear", ()),
    (".b..", "hindered", ("1,0",)),                  # 10.2: brush hinders
    (".bb.", "hindered", ("1,0", "2,0")),            # 10.3: one or two hindrances
    (".bbb.", "blocked", ("1,0", "2,0", "3,0")),     # 10.3: three or more block
    (".fb.", "hindered", ("1,0", "2,0")),
    (".F..", "blocked", ()),                         # 10.3: heavy forest blocks
    (".w..", "blocked", ()),                         # buildings block
    (".h..", "blocked", ()),                         # 10.4: a hill between units below it
])
def test_los_on_level_ground(row, los, hind):
    r = sight([row], "0,0", f"{len(row) - 1},0")
    assert (r.los, r.hindrances) == (los, hind)
    assert r.range == len(row) - 1


def test_hindrance_dice_are_cumulative():
    # 10.9.2: each hindering hex adds its LOS die (brush G, forest Y in the shipped aid)
    assert sight([".fb."], "0,0", "3,0").los_dice == "YG"
    assert sight([".bb."], "0,0", "3,0").los_dice == "GG"


@pytest.mark.parametrize("row,los,why", [
    ("hb..", "clear", "10.4 picture 1: brush (elevation 0) seen over from elevation 1"),
    ("hbb.", "clear", "two brush hexes are traced over as well"),
    ("hf..", "hindered", "a forest (height 1) is as high as the firer: it hinders"),
    ("hF..", "blocked", "heavy forest at the firer's level blocks"),
    ("hw..", "blocked", "a building is an elevation-1 obstacle (9.6.2)"),
    ("h.h.", "blocked", "10.4: another elevation-1 hill blocks a unit on a hill"),
    ("hhh.", "clear", "rulings #13: the bare top of the firer's own hill does not block"),
    ("hhH.", "hindered", "a forest on the firer's own hill still hinders (elevation 2)"),
    ("h.H.", "blocked", "a wooded hill elsewhere blocks"),
    ("hBh.", "hindered", "brush on the firer's own hill hinders: only bare hexes are exempt"),
])
def test_elevation_cases_of_10_4(row, los, why):
    r = sight([row], "0,0", f"{len(row) - 1},0")
    assert r.los == los, why
    # the same line seen from the other end (rulings #12-#13 are symmetric)
    assert sight([row], f"{len(row) - 1},0", "0,0").los == los


def test_both_units_on_hills_see_over_a_valley_forest():
    # 10.4: the forest (obstacle height 1) is at the units' level: it still hinders;
    # brush in the valley is traced over
    assert sight(["hfh"], "0,0", "2,0").los == "hindered"
    assert sight(["hbh"], "0,0", "2,0").los == "clear"
    assert sight(["h..bh"], "0,0", "4,0").los == "clear"


def test_a_unit_in_a_building_on_a_hill_is_at_elevation_one():
    # 9.6.2: the occupant is at the hill's elevation; the building is a level-2 obstacle
    cm = cmap(["Wb.W"])
    assert cm.elevation[cm.index_of("0,0")] == 1 and cm.obstacle[cm.index_of("0,0")] == 2
    assert cm.line_of_sight("0,0", "2,0").los == "clear"  # brush below is traced over
    assert cm.line_of_sight("0,0", "3,0").los == "clear"
    assert sight(["bW.."], "0,0", "3,0").los == "blocked"


def test_adjacent_and_own_hex_never_blocked():
    cm = cmap(["FFF", "FFF", "FFF"])
    assert cm.line_of_sight("1,1", "2,1").los == "clear"   # no hex strictly between
    assert cm.line_of_sight("1,1", "1,1").los == "clear"


# Flat-topped hexes: a line between two hexes of the same row with an odd column
# between runs exactly along the side shared by that column's two hexes (rulings #12).
@pytest.mark.parametrize("rows,los", [
    ([".f.", "..."], "hindered"),
    ([".b.", ".F."], "blocked"),     # one of the pair blocks: the worse counts
    ([".F.", ".b."], "blocked"),
    ([".b.", ".f."], "hindered"),
    ([".h.", "..."], "blocked"),
])
def test_hex_side_line_uses_the_worse_hex(rows, los):
    r = sight(rows, "0,1", "2,1", orientation="flat")
    assert r.los == los
    assert r.crossed in (("1,0",), ("1,1",))


def test_hex_side_line_reports_the_stronger_los_die():
    r = sight([".b.", ".f."], "0,1", "2,1", orientation="flat")
    assert (r.hindrances, r.los_dice) == (("1,1",), "Y")   # forest Y beats brush G


def test_smoke_markers_count_with_hindrances():
    rows = [".b.."]
    assert sight(rows, "0,0", "3,0", smoke={"2,0": 1}).los == "hindered"
    r = sight(rows, "0,0", "3,0", smoke={"2,0": 2})
    assert r.los == "blocked" and r.smoke == ("2,0",)  # 1 brush + 2 markers = 3 (rulings #14)
    assert sight(rows, "0,0", "3,0", smoke={"2,0": 2}, count_markers=False).los == "hindered"
    # smoke in the firer's or the target's own hex does not hinder (rulings #12)
    assert sight(rows, "0,0", "3,0", smoke={"0,0": 3, "3,0": 3}).los == "hindered"
    # smoke is not terrain: it is not traced over from a hill (our reading)
    assert sight(["h..."], "0,0", "3,0", smoke={"1,0": 1}).los == "hindered"


def test_smoke_decides_a_hex_side_pair():
    # both hexes of the pair are clear terrain; smoke in either one counts (rulings #12)
    for smoky in ("1,0", "1,1"):
        assert sight(["...", "..."], "0,1", "2,1", orientation="flat",
                     smoke={smoky: 1}).los == "hindered"


def random_map(seed, cols, rows, orientation, chars=".....bfFhhHw"):
    rng = np.random.default_rng(seed)
    return cmap(["".join(rng.choice(list(chars), cols)) for _ in range(rows)], orientation)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.sampled_from(["flat", "pointy"]))
def test_los_properties_on_random_maps(seed, orientation):
    cm = random_map(seed, 8, 7, orientation)
    # symmetric (computed independently for both orders); the diagonal is clear
    assert (cm.los == cm.los.T).all() and (cm.hindrances == cm.hindrances.T).all()
    assert (np.diagonal(cm.los) == 0).all()
    # adjacent hexes always see each other (nothing strictly between)
    assert (cm.los[cm.distance == 1] == 0).all()
    # the hexes between are the same set both ways
    a, b = np.argwhere(cm.distance >= 2)[seed % int((cm.distance >= 2).sum())]
    ab = sorted(x for x in cm.between[a, b] if x >= 0)
    ba = sorted(x for x in cm.between[b, a] if x >= 0)
    alt_ab = sorted(x for x in cm.between_alt[a, b] if x >= 0)
    alt_ba = sorted(x for x in cm.between_alt[b, a] if x >= 0)
    assert sorted(ab + alt_ab) == sorted(ba + alt_ba)
    # the tables agree with the Python LOS and with the code counts
    r = cm.line_of_sight(int(a), int(b))
    assert r.los == L.LOS_NAMES[cm.los[a, b]]
    assert len(r.hindrances) == cm.hindrances[a, b]


def test_los_symmetric_for_equal_elevations_everywhere():
    cm = random_map(3, 10, 9, "flat", chars="..bbfFw")   # no hills: all at elevation 0
    assert (cm.los == cm.los.T).all()
    assert (cm.hindrance_dice == cm.hindrance_dice.transpose(1, 0, 2)).all()


# --- the exact tracer against an independent sampling of the segment ----------------

def _cell_of(x, y, z):
    """Cube rounding of a point (float) -> axial (q, r)."""
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    return rx, ry


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_line_steps_match_dense_sampling(orientation):
    g = HexGrid(12, 11, orientation)
    qmin, rmin = int(g.q.min()) - 2, int(g.r.min()) - 2
    index = np.full((int(g.q.max()) - qmin + 3, int(g.r.max()) - rmin + 3), -1, dtype=np.int64)
    index[g.q - qmin, g.r - rmin] = np.arange(g.n)
    work, fkey = L.line_work(40)
    prim = np.empty(400, dtype=np.int64)
    alt = np.empty(400, dtype=np.int64)
    stamp = np.zeros(index.shape, dtype=np.int64)
    rng = np.random.default_rng(11)
    sid = 0
    for _ in range(150):
        a, b = (int(x) for x in rng.integers(0, g.n, 2))
        if g.distance[a, b] < 2:
            continue
        sid += 1
        ns = L.line_steps(g.q[a], g.r[a], g.q[b], g.r[b], index, qmin, rmin, prim, alt,
                          stamp, sid, work, fkey)
        listed = {int(x) for x in prim[:ns]} | {int(x) for x in alt[:ns] if x >= 0}
        listed.discard(-1)
        assert ns < 2 * g.distance[a, b]
        # sample the open segment densely; nudge sideways both ways so a point on a
        # hex side falls in each of its two hexes
        qa, ra, qb, rb = int(g.q[a]), int(g.r[a]), int(g.q[b]), int(g.r[b])
        seen = set()
        m = 4000
        for i in range(1, m):
            t = i / m
            x, y = qa + t * (qb - qa), ra + t * (rb - ra)
            for ex, ey in ((1e-9, -2e-9), (-1e-9, 2e-9)):
                q, r = _cell_of(x + ex, y + ey, -(x + ex) - (y + ey))
                h = g.axial_index(q, r)
                if h not in (-1, a, b):
                    seen.add(h)
        # every hex the sampling finds is listed; a listed hex the sampling misses has
        # only a sliver of the line (shorter than the sampling step)
        assert seen <= listed, (g.names[a], g.names[b])
        for h in listed - seen:
            # a listed hex the sampling missed holds less than 2/m of the segment
            u = (qa - int(g.q[h]), ra - int(g.r[h]))
            k, ln, ld, hn, hd = L._segment_in_hex(u[0], u[1], -u[0] - u[1], qb - qa, rb - ra,
                                                   -(qb - qa) - (rb - ra))
            assert Fraction(hn, hd) - Fraction(ln, ld) < Fraction(1, m // 2)


def test_a_line_can_clip_a_corner_beside_its_row():
    # flat 0,0 -> 4,1 crosses the side between 2,0 and 2,1 in its middle, so it passes
    # through 2,1 for a short stretch: four hexes between a range of 4
    cm = cmap(["....."] * 3, "flat")
    r = cm.line_of_sight("0,0", "4,1")
    assert r.range == 4 and r.crossed == ("1,0", "2,0", "2,1", "3,0")


def test_all_pairs_los_of_a_20x15_map_is_fast():
    rng = np.random.default_rng(5)
    rows = ["".join(rng.choice(list(".....bfFhhHw"), 20)) for _ in range(15)]
    spec = MapSpec(orientation="flat", rows=rows, legend=LEGEND)
    compile_map(spec, AID)  # warm-up (numba compiles or loads its cache)
    t = time.perf_counter()
    cm = compile_map(spec, AID)
    elapsed = time.perf_counter() - t
    assert cm.los.shape == (300, 300)
    assert elapsed < 1.0, f"compile_map took {elapsed:.3f} s"
