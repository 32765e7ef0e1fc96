"""``mapdraw.draw_map(pieces=...)``: a position (a game's end) instead of the set-up."""

from __future__ import annotations

import io

import numpy as np
from matplotlib import image as mpimg

from simulator.engine.core.mapdraw import FACTION_COLOURS, Piece
from simulator.games.assault.game.mapdraw import draw_map
from simulator.games.assault.game.scenario import load_scenario


def share(png: bytes, hex_colour: str, tol: float = 0.05) -> float:
    img = mpimg.imread(io.BytesIO(png), format="png")[..., :3]
    rgb = np.array([int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])
    return float((np.abs(img - rgb).max(axis=2) < tol).mean())


def test_pieces_objective_holders_and_smoke_are_drawn():
    sc = load_scenario("infantry-training")
    blue, red = FACTION_COLOURS["blue"], FACTION_COLOURS["red"]
    empty = draw_map(sc, pieces=[])
    # no set-up: no zones, no units in either colour (only the legend's two swatches)
    base_blue, base_red = share(empty, blue), share(empty, red)
    one = draw_map(sc, pieces=[Piece("3,4", "Rifles 41", "blue"), Piece("3,4", "HMG 34", "blue"),
                               Piece("9,1", "MMG Maxim", "red", facing=2)])
    assert share(one, blue) > base_blue + 0.0002      # two stacked labels
    assert share(one, red) > base_red + 0.00008
    obj = sc.objective_list[0].hex
    held = draw_map(sc, pieces=[], objective_holders={obj: "red"})
    assert share(held, red) > base_red + 0.00001 and share(held, "#ffd400") < share(empty, "#ffd400")
    smoky = draw_map(sc, pieces=[], smoke={"5,5": 2})
    assert share(smoky, "#9e9e9e", tol=0.03) > share(empty, "#9e9e9e", tol=0.03)
