"""The replay viewer page (reports/replay_viewer.py) on made-up data, in headless
Chromium: self-contained, the address fragment and the keys step through the rows, and
the page shows each unit where the frame puts it."""

from __future__ import annotations

import base64
import re

import pytest

from reports.replay_viewer import viewer_page
from tests.reports.viewer_helpers import key_driver, shown_state

# a 1x1 white PNG (the map does not matter to the positions)
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==")
HEXES = ["0,0", "1,0", "2,0", "0,1", "1,1", "2,1"]
ON, GONE = 2, 4
# rows: turn 1 rows 0-2, turn 2 rows 3-5; unit 0 walks 0,0 -> 1,0 -> 2,0, unit 1 stays in 2,1
# until it is eliminated in row 5
MOVES = [0, 1, 2, 2, 2, 2]


def frames():
    out = []
    for i, h in enumerate(MOVES):
        out.append({"units": [[h, ON, 0, 0, 0, 0, 7], [-1, GONE, 4, 0, 0, 0, 7] if i == 5 else [5, ON, 1, 1, 0, 0, 7]],
                    "objectives": [1 if i >= 4 else -1], "smoke": {}})
    return out


def rows():
    r = [{"turn": 1 if i < 3 else 2, "text": f"row {i}", "code": "move",
          "marks": {"trail": MOVES[: i + 1], "units": [0]}} for i in range(6)]
    r[4]["marks"] = {"fire": [2, 5, "+1 damage"], "units": [0, 1]}
    return r


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    geometry = {"width": 300, "height": 200, "radius": 20.0,
                "centres": {h: [40 + 60 * int(h[0]), 40 + 60 * int(h[2])] for h in HEXES}}
    text = viewer_page(title="T </script> & co", subtitle="s", map_png=PNG, geometry=geometry, hex_names=HEXES,
                       units=[{"label": "a", "short": "a", "side": 0, "strength": 4},
                              {"label": "b", "short": "b", "side": 1, "strength": 4}],
                       sides=[{"name": "x", "colour": "#1f4e9c"}, {"name": "y", "colour": "#b3261e"}],
                       rows=rows(), frames=frames(), status_names=["absent", "pending", "on map", "carried",
                                                                   "eliminated"],
                       on_map=[ON], morale_names=["steady", "suppressed", "fallback"], objectives=["1,1"])
    path = tmp_path_factory.mktemp("viewer") / "viewer.html"
    path.write_text(text)
    return path


def test_the_page_needs_no_network():
    """Inline everything: no http(s) address is loaded, the map is a data URI, and text
    that looks like a closing tag in the data cannot end the script."""
    text = viewer_page(title="t", subtitle="s", map_png=PNG, geometry={"width": 1, "height": 1, "radius": 1,
                                                                        "centres": {}},
                       hex_names=[], units=[{"label": "</script>", "short": "x", "side": 0, "strength": 1}],
                       sides=[{"name": "x", "colour": "#000"}], rows=[], frames=[], status_names=[], on_map=[],
                       morale_names=[], objectives=[])
    assert not re.search(r'(src|href)="https?:', text)
    assert 'src="data:image/png;base64,' in text
    assert text.count("</script>") == 2          # the data block's and the viewer script's own ends only
    with pytest.raises(ValueError):
        viewer_page(title="t", subtitle="s", map_png=PNG, geometry={}, hex_names=[], units=[], sides=[],
                    rows=[{"turn": 1, "text": "", "code": "", "marks": {}}], frames=[], status_names=[],
                    on_map=[], morale_names=[], objectives=[])


def test_the_fragment_opens_a_row_and_the_keys_step(page, tmp_path):
    """#event=1 shows row 1 (unit a in MOVES[1] = 1,0, b in 2,1); from there right, right:
    row 3, turn 2. From row 3, the first of turn 2, shift+left goes to the first row of
    turn 1: row 0. PageDown from row 0: row 3, turn 2's first. End: row 5, where b is
    eliminated (off the map) and a stands in MOVES[5] = 2,0."""
    s = shown_state(page, tmp_path / "p1", "event=1")
    assert s["row"] == 1 and s["turn"] == 1
    assert [u["hex"] for u in s["units"]] == ["1,0", "2,1"]
    s = shown_state(page, tmp_path / "p2", "event=1", key_driver([("ArrowRight", False), ("ArrowRight", False)]))
    assert (s["row"], s["turn"]) == (3, 2)
    s = shown_state(page, tmp_path / "p3", "event=3", key_driver([("ArrowLeft", True)]))
    assert s["row"] == 0
    s = shown_state(page, tmp_path / "p4", "", key_driver([("PageDown", False)]))
    assert (s["row"], s["turn"]) == (3, 2)
    s = shown_state(page, tmp_path / "p5", "", key_driver([("End", False)]))
    assert s["row"] == 5
    assert [(u["hex"], u["status"]) for u in s["units"]] == [("2,0", "on map"), (None, "eliminated")]
