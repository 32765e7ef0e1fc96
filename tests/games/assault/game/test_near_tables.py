"""Issue 20: the engine's line-of-sight tables reach only as far as its units look
(``layout.near_tables``, by axial offset) and distance is computed from the axial
coordinates. Both must say exactly what the all-pairs tables say (the old
representation, still computed by ``los.compute_los_tables`` on small maps): checked
exhaustively over every pair of every shipped map and of random maps, and by playing
the same games with the tables cut to the sight radius as across the whole map."""

import random

import numpy as np
import pandas as pd
import pytest

from simulator.engine.core.batch import run_games
from simulator.games.assault.game import layout
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.compiled import compile_map
from simulator.games.assault.game.layout import near_tables
from simulator.games.assault.game.pooltab import GeoKey, hindrance_names
from simulator.games.assault.game.scenario import load_scenario
from simulator.games.assault.game.scenario_format import MapSpec
from simulator.games.assault.rules.aid import load_aid

AID = load_aid()
SHIPPED = ["infantry-training", "vehicle-training", "crossroads"]
LEGEND = {".": "clear", "r": "road", "b": "brush", "f": "forest", "F": "heavy_forest",
          "w": "wooden_building", "s": "stone_building", "h": "hill", "H": "hill+forest",
          "W": "hill+wooden_building", "B": "hill+brush"}


def assert_near_equals_full(cm, radius):
    """Every line within ``radius``: code, LOS dice and hexes between as in the all-pairs
    tables; every offset beyond it, or off the map, empty."""
    code, dice, between = near_tables(cm, radius)
    w = 2 * radius + 1
    seen = 0
    for a in range(cm.n):
        for i in range(w):
            for j in range(w):
                dq, dr = i - radius, j - radius
                b = cm.index[cm.q[a] + dq - cm.qmin, cm.r[a] + dr - cm.rmin] \
                    if 0 <= cm.q[a] + dq - cm.qmin < cm.index.shape[0] and \
                    0 <= cm.r[a] + dr - cm.rmin < cm.index.shape[1] else -1
                if b < 0 or b == a or max(abs(dq), abs(dr), abs(dq + dr)) > radius:
                    assert code[a, i, j] == -1 and (between[a, i, j] == -1).all()
                    continue
                seen += 1
                assert code[a, i, j] == cm.los[a, b], (a, b)
                assert (dice[a, i, j] == cm.hindrance_dice[a, b]).all(), (a, b)
                assert [x for x in between[a, i, j] if x >= 0] == [x for x in cm.between[a, b] if x >= 0], (a, b)
    within = int(((cm.distance <= radius) & (cm.distance > 0)).sum())
    assert seen == within
    return seen


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_maps_whole_and_cut_to_a_radius(name):
    cm = compile_map(load_scenario(name))
    assert cm.diameter == int(cm.distance.max())
    # distance from the axial coordinates is the old table, every pair
    d = np.array([[cm.hex_distance(a, b) for b in range(cm.n)] for a in range(cm.n)])
    assert (d == cm.distance).all()
    assert assert_near_equals_full(cm, cm.diameter) == cm.n * (cm.n - 1)
    assert assert_near_equals_full(cm, 5) > 0


@pytest.mark.parametrize("seed", range(6))
def test_random_maps(seed):
    rng = random.Random(seed)
    cols, rows = rng.randint(2, 9), rng.randint(2, 8)
    spec = MapSpec(orientation=rng.choice(["flat", "pointy"]), legend=LEGEND,
                   rows=["".join(rng.choice("....bbfFwshHWB") for _ in range(cols)) for _ in range(rows)])
    cm = compile_map(spec, AID)
    assert_near_equals_full(cm, cm.diameter)
    assert_near_equals_full(cm, rng.randint(1, max(1, cm.diameter)))
    # one line traced on demand is the row of the full tables
    for _ in range(20):
        a, b = rng.randrange(cm.n), rng.randrange(cm.n)
        code, nh, dice, between, alt = cm.line(a, b)
        assert (code, nh) == (cm.los[a, b], cm.hindrances[a, b]) and (dice == cm.hindrance_dice[a, b]).all()
        assert [x for x in between if x >= 0] == [x for x in cm.between[a, b] if x >= 0]
        assert [x for x in alt if x >= 0] == [x for x in cm.between_alt[a, b] if x >= 0]


@pytest.mark.parametrize("name", SHIPPED)
def test_engine_geometry_classes_are_the_full_tables(name):
    """``tables.near`` (read by ``tables.geo``) gives every pair of a shipped map the class
    of its line in the full tables: target terrain, hill die, hindrances; -1 if blocked."""
    g = compile_game(name)
    cm, t = g.cm, g.tables
    code, dice, _ = near_tables(cm, cm.diameter)
    geos, geo, _, _ = layout.geometry(cm, AID, code, dice, cm.diameter)
    assert (geo == t.near).all()
    rad = (t.near.shape[1] - 1) // 2
    assert rad == cm.diameter                      # shipped maps: the whole map
    for a in range(cm.n):
        for b in range(cm.n):
            k = t.near[a, cm.q[b] - cm.q[a] + rad, cm.r[b] - cm.r[a] + rad]
            if a == b or cm.los[a, b] >= 2:
                assert k == -1
                continue
            hill = bool(cm.hill[b]) and int(cm.elevation[a]) != int(cm.elevation[b])
            want = GeoKey(cm.terrain_names[cm.terrain[b]], hill,
                          hindrance_names(AID, tuple(int(x) for x in cm.hindrance_dice[a, b]), cm.name))
            assert geos[k] == want, (a, b)


def test_games_are_the_same_with_the_tables_cut_to_the_sight_radius(monkeypatch, tmp_path):
    """The tables cut to the sight radius (what a large map gets) play the same games as
    the tables across the whole map (what a shipped map gets): no rule asks for a line
    beyond the radius."""
    monkeypatch.setenv("LANCHESTER_CACHE_DIR", "off")      # both compiled, not read back
    whole = compile_game("vehicle-training")
    monkeypatch.setattr(layout, "WHOLE_MAP_LINES", 0)
    cut = compile_game("vehicle-training")
    assert (cut.tables.near.shape[1] - 1) // 2 < whole.cm.diameter
    for players in (("greedy", "greedy"), ("random", "greedy")):
        run_games(whole, games=150, seed=5, players=players, workers=1, out_dir=tmp_path / f"w{players[0]}")
        run_games(cut, games=150, seed=5, players=players, workers=1, out_dir=tmp_path / f"c{players[0]}")
        pd.testing.assert_frame_equal(pd.read_csv(tmp_path / f"w{players[0]}" / "games.csv"),
                                      pd.read_csv(tmp_path / f"c{players[0]}" / "games.csv"))
