"""Maps a designer draws: every terrain of the shipped aid and any terrain a designer
adds get distinct colours; rows and columns labelled as the file numbers them (issue
21, item 3)."""

from __future__ import annotations

import shutil
from pathlib import Path

from matplotlib.figure import Figure

from simulator.engine.core import mapdraw
from simulator.games.assault.game.compiled import compile_map
from simulator.games.assault.game.mapdraw import draw_map
from simulator.games.assault.game.scenario import load_scenario
from simulator.games.assault.rules.aid import load_aid
from simulator.run.datafile import SCENARIOS_DIR

EXTRA = """
[terrain.canal]
defence_infantry = "-"
defence_vehicle = "-"
movement = { foot = "prohibited", gun = "prohibited", wheeled = "prohibited", tracked = "prohibited" }
vehicle_damage = "-"
los = "clear"
height = 0
spot = "auto"

[terrain.causeway]
defence_infantry = "-"
defence_vehicle = "-"
movement = { foot = 1, gun = 1, wheeled = 1, tracked = 1 }
vehicle_damage = "-"
los = "clear"
height = 0
spot = "auto"
"""

SCENARIO = """name = "River"
[map]
rows = ["..~..", "..=..", "..~.."]
[map.legend]
"." = "clear"
"~" = "river"
"=" = "bridge"
"""

CANAL = """name = "Canal"
[data]
aid = "my-aid.toml"
[map]
rows = ["..~..", "..=..", "..~.."]
[map.legend]
"." = "clear"
"~" = "canal"
"=" = "causeway"
"""


def river(tmp_path: Path) -> Path:
    """River and bridge from the shipped aid."""
    path = tmp_path / "river.scenario.toml"
    path.write_text(SCENARIO)
    return path


def canal(tmp_path: Path) -> Path:
    """Two terrains a designer adds to a copy of the aid."""
    shutil.copy(SCENARIOS_DIR / "assault" / "aid.toml", tmp_path / "my-aid.toml")
    with open(tmp_path / "my-aid.toml", "a") as f:
        f.write(EXTRA)
    path = tmp_path / "canal.scenario.toml"
    path.write_text(CANAL)
    return path


def test_every_shipped_terrain_has_its_own_colour():
    names = load_aid().terrain_names
    assert set(names) <= set(mapdraw.TERRAIN_COLOURS)
    colours = [mapdraw.terrain_colour(t, names) for t in names]
    assert len(set(colours)) == len(colours)
    assert not set(colours) & set(mapdraw.OTHER_TERRAINS)


def test_new_terrains_get_distinct_colours_in_the_aid_order():
    names = ("clear", "road", "canal", "causeway", "railway")
    colours = [mapdraw.terrain_colour(t, names) for t in names]
    assert len(set(colours)) == len(colours)
    assert colours[0] == mapdraw.TERRAIN_COLOURS["clear"]
    assert colours[2] == mapdraw.OTHER_TERRAINS[0] and colours[3] == mapdraw.OTHER_TERRAINS[1]


def test_river_and_bridge_are_drawn_apart_and_in_the_legend(tmp_path):
    cm = compile_map(load_scenario(river(tmp_path)))
    assert cm.terrain_names == ("clear", "river", "bridge")     # only what the map uses, aid order
    labels = [h.get_label() for h in mapdraw._terrain_legend(cm)]
    assert {"river", "bridge", "clear"} <= set(labels)
    fills = {h.get_label(): h.get_facecolor() for h in mapdraw._terrain_legend(cm)}
    assert len({fills["river"], fills["bridge"], fills["clear"]}) == 3
    png = draw_map(load_scenario(river(tmp_path)))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_terrains_a_designer_adds_are_drawn_apart(tmp_path):
    cm = compile_map(load_scenario(canal(tmp_path)))
    fills = {h.get_label(): h.get_facecolor() for h in mapdraw._terrain_legend(cm)}
    assert {"canal", "causeway", "clear"} <= set(fills)
    assert len({fills["canal"], fills["causeway"], fills["clear"]}) == 3
    assert draw_map(load_scenario(canal(tmp_path)))[:4] == b"\x89PNG"


def test_rows_and_columns_are_labelled_as_the_file_numbers_them(tmp_path):
    cm = compile_map(load_scenario(river(tmp_path)))
    ax = Figure().add_subplot()
    xs, ys = [], []
    from simulator.engine.core import hexgrid
    for h in range(cm.n):
        x, y = hexgrid.centre(h % cm.cols, h // cm.cols, cm.orientation, 1.0)
        xs.append(x)
        ys.append(y)
    mapdraw._label_rows_and_columns(ax, cm, xs, ys, 1.0)
    texts = [(t.get_text(), t.get_position()) for t in ax.texts]
    columns = [t for t in texts[: cm.cols]]
    rows = [t for t in texts[cm.cols:]]
    assert [c[0] for c in columns] == ["0", "1", "2", "3", "4"]
    assert [r[0] for r in rows] == ["0", "1", "2"]
    # each column number sits above that column's row-0 hex; each row number left of column 0
    for c, (_, (x, y)) in enumerate(columns):
        assert x == xs[c] and y < ys[c]
    for r, (_, (x, y)) in enumerate(rows):
        assert y == ys[r * cm.cols] and x < xs[r * cm.cols]


# --- issue 43, item 6: long set-up lists and zone tints ------------------------------------------

LONG = """name = "Long lists"
turns = 4
[map]
rows = ["........", "........", "........", "........"]
[map.legend]
"." = "clear"
[sides.german]
faction = "blue"
zones.west = ["0-2,0-3"]
""" + "".join(f"""[[sides.german.units]]
unit = "{u}"
count = {n}
zone = "west"
""" for u, n in (("rifles-41", 2), ("hmg-34", 2), ("tank-hunters-41", 2), ("mortar-81mm", 1),
                  ("at-gun-37mm", 1))) + """[sides.soviet]
faction = "red"
zones.east = ["7,0-3"]
[[sides.soviet.units]]
unit = "rifles-41"
count = 2
zone = "east"
"""


def _pixels(png: bytes):
    import io

    import numpy as np
    from PIL import Image
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def test_a_long_set_up_list_is_wrapped_and_the_legend_fits_the_picture(tmp_path):
    path = tmp_path / "long.scenario.toml"
    path.write_text(LONG)
    im = _pixels(draw_map(load_scenario(path)))
    # the zone line "zone west: 2 x Rifles 41, 2 x HMG 34, 2 x Tank Hunters, 1 x 81 mm, 1 x 3.7 cm"
    # (80 characters) ran past the right edge before: now the last 4 pixel columns are background
    # (white, 255) from top to bottom, nothing drawn there
    assert (im[:, -4:] >= 250).all()
    assert mapdraw._wrapped("  zone west: " + "2 x Rifles 41, " * 6, 56).count("\n") == 1   # 103 chars: 2 lines


def test_set_up_zones_are_outlined_and_leave_the_terrain_colour(tmp_path):
    path = tmp_path / "long.scenario.toml"
    path.write_text(LONG)
    geometry: dict = {}
    im = _pixels(draw_map(load_scenario(path), geometry=geometry))
    clear = [int(mapdraw.TERRAIN_COLOURS["clear"][k:k + 2], 16) for k in (1, 3, 5)]   # #ece6c8: 236, 230, 200
    for hex_name in ("1,1", "7,2"):                      # a german and a soviet zone hex, no unit drawn there
        x, y = (round(v) for v in geometry["centres"][hex_name])
        # the hex's centre keeps the clear terrain's colour (a 13% tint moved it by up to 30 levels)
        assert abs(im[y, x] - clear).max() <= 3, (hex_name, im[y, x])
