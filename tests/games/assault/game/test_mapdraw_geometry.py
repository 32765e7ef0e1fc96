"""The hexes' pixel centres the map drawing exports for the replay viewer
(``draw_map(..., geometry=...)``): the PNG's own size, and every centre on its hex."""

from __future__ import annotations

import numpy as np

from simulator.engine.core.mapdraw import terrain_colour
from simulator.games.assault.game.compiled import compile_map
from simulator.games.assault.game.mapdraw import draw_map
from simulator.games.assault.game.scenario import load_scenario
from tests.reports.report_helpers import pixels


def test_every_hex_centre_lies_on_its_hex_colour(tmp_path):
    """The pixel at each exported centre has the colour of that hex's terrain (within
    0.06 a channel), for hexes that carry no marker at their centre: not a road (a
    square marker) and not a hill (hatched). Two hexes of one column in rows next to
    each other are neighbours: sqrt(3) radii apart (flat: straight down; pointy: half a
    hex across and 1.5 radii down, sqrt(0.75 + 2.25)), within a pixel."""
    from tests.games.assault.game.test_players import SKIRMISH
    path = tmp_path / "s.scenario.toml"
    path.write_text(SKIRMISH)
    sc = load_scenario(path)
    cm = compile_map(sc)
    geometry: dict = {}
    png = draw_map(sc, pieces=[], geometry=geometry)
    img = pixels(png)
    assert (geometry["width"], geometry["height"]) == (img.shape[1], img.shape[0])
    checked = 0
    for h in range(cm.n):
        terrain = cm.terrain_of(h)
        if terrain == "road" or cm.hill[h]:
            continue
        x, y = geometry["centres"][cm.names[h]]
        want = terrain_colour(terrain, cm.terrain_names)
        rgb = np.array([int(want[i:i + 2], 16) / 255 for i in (1, 3, 5)])
        assert np.abs(img[int(round(y)), int(round(x))] - rgb).max() < 0.06, (cm.names[h], terrain)
        checked += 1
    assert checked == cm.n                 # SKIRMISH has no road and no hill
    a, b = (np.array(geometry["centres"][n]) for n in ("0,0", "0,1"))   # same column, next row
    assert abs(np.hypot(*(a - b)) - np.sqrt(3) * geometry["radius"]) < 1.0
