"""Pictures of a game's map (matplotlib, no display needed), for every game on the engine.

:func:`draw_board` draws hexes in their terrain colours with their names, hills with
their elevation, row and column numbers, the terrain legend and the line-of-sight
shading; a game draws its own things over it (Assault: :mod:`simulator.games.assault.game.mapdraw`,
Tide of Iron: :mod:`simulator.games.toi.game.board`), with the shared pieces here: units
(:class:`Piece`, a position), smoke markers, faction colours. Returns PNG bytes: write
them with :func:`simulator.run.output.atomic_write_bytes`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Polygon

from simulator.engine.core import hexgrid, los
from simulator.run.output import figure_png

TERRAIN_COLOURS = {
    "clear": "#ece6c8",
    "road": "#cdb07a",
    "brush": "#b9cf86",
    "forest": "#5e9a4c",
    "heavy-forest": "#2c5a27",
    "wooden-building": "#a8713f",
    "stone-building": "#8d8d8d",
    # the reconstructed rows of the shipped aid (water in blues, ground in browns)
    "stream": "#7fb8e6",
    "river": "#3d78c2",
    "lake": "#1c4587",
    "bridge": "#7b3f00",
    "ford": "#5fc4b4",
    "marsh": "#5f8f6f",
    "rough": "#c2a98a",
    "rubble": "#6e5d52",
    "orchard": "#a2c523",
    "field": "#e8c547",
}
# terrains a designer adds to the aid (a canal, a railway ...): one distinct colour each,
# in the aid's order, so two new terrains never share a colour
OTHER_TERRAINS = ("#6fa8dc", "#9e7b5b", "#c27ba0", "#76a5af", "#e69138", "#8e7cc3",
                  "#93c47d", "#f1c232", "#a61c00", "#45818e", "#b4a7d6", "#d5a6bd")
FACTION_COLOURS = {"blue": "#1f4e9c", "red": "#b3261e"}
LOS_SHADES = {los.HINDERED: ("#f2c200", 0.5), los.BLOCKED: ("#202020", 0.5)}
HILL_EDGE = "#7a4b1e"


@dataclass(frozen=True)
class Piece:
    """A unit drawn on the map: its hex name, a short label, its faction (``blue``,
    ``red``) and, for vehicles and guns, the vertex it faces."""

    hex: str
    label: str
    faction: str
    facing: int | None = None


def draw_board(board, *, title: str, sub: str, seen=None, los_from: str | None = None, dpi: int = 110,
               footer: str | None = None, overlay=None, palette: dict[str, str] | None = None,
               shades: tuple[int, ...] = (los.HINDERED, los.BLOCKED), geometry: dict | None = None) -> bytes:
    """Any game's map as PNG bytes: every hex in its terrain colour with its name, hills
    hatched with their elevation, rows and columns numbered, a terrain legend; then
    ``overlay(ax, xs, ys, size)`` draws the game's own things (objectives, zones, units)
    and returns their legend entries. ``seen``: a line-of-sight code
    (:data:`simulator.engine.core.los.CLEAR`, ``HINDERED``, ``BLOCKED``) per hex, from
    the hex ``los_from``, shaded (``shades``: the codes the legend explains). ``title``, ``sub``: the heading and the grey line under
    it; ``footer``: small lines under the map; ``palette``: terrain colours
    (:data:`TERRAIN_COLOURS` by default).

    ``board`` is game-neutral: anything with ``n``, ``cols``, ``rows``, ``orientation``
    (``flat``/``pointy``), ``names`` (hex names), ``terrain_of(h)``, ``terrain_names``,
    ``hill`` and ``elevation`` (per hex) and ``index_of(name)`` (Assault's
    :class:`~simulator.games.assault.game.compiled.CompiledMap`, Tide of Iron's
    :class:`simulator.games.toi.game.board.Board`). ``geometry``: a dict filled with where
    the hexes landed in the PNG (:func:`_pixel_geometry`), for pages that draw over it."""
    cm = board
    palette = TERRAIN_COLOURS if palette is None else palette
    size = 1.0
    xs, ys = [], []
    for h in range(cm.n):
        x, y = hexgrid.centre(int(h % cm.cols), int(h // cm.cols), cm.orientation, size)
        xs.append(x)
        ys.append(y)
    width = max(xs) - min(xs) + 2.2 * size
    height = max(ys) - min(ys) + 2.2 * size
    scale = 0.42
    fig = Figure(figsize=(max(5.0, width * scale + 2.6), max(3.5, height * scale + 1.2)), dpi=dpi)
    room = (0.012 * (footer.count("\n") + 1) + 0.01) * 9.0 / fig.get_figheight() if footer else 0.0
    ax = fig.add_axes((0.02, 0.03 + room, 0.74, 0.88 - room))
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.set_xlim(min(xs) - 1.6 * size, max(xs) + 1.1 * size)   # room for the row numbers
    ax.set_ylim(max(ys) + 1.1 * size, min(ys) - 1.5 * size)  # row 0 at the top; room for column numbers

    # the hexes, hill hatching and line-of-sight shading as one collection each (a patch per
    # hex cost ~0.1 s a picture to build and draw); mitred corners as a patch draws them
    hexes = [hexgrid.corners(h % cm.cols, h // cm.cols, cm.orientation, size) for h in range(cm.n)]
    ax.add_collection(PolyCollection(hexes, closed=True, joinstyle="miter", edgecolors="#6b6b6b", linewidths=0.5,
                                     zorder=1, facecolors=[terrain_colour(cm.terrain_of(h), cm.terrain_names, palette)
                                                 for h in range(cm.n)]), autolim=False)
    hills = [h for h in range(cm.n) if cm.hill[h]]
    if hills:
        ax.add_collection(PolyCollection([_shrink(hexes[h], xs[h], ys[h], 0.86) for h in hills], closed=True,
                                         joinstyle="miter", facecolors="none", hatch="///", edgecolors=HILL_EDGE, linewidths=1.2,
                                         zorder=2), autolim=False)
    for h in range(cm.n):
        if cm.hill[h]:
            ax.text(xs[h] + 0.45 * size, ys[h] + 0.5 * size, f"▲{int(cm.elevation[h])}",
                    fontsize=5, color=HILL_EDGE, ha="center", va="center", zorder=6)
        if cm.terrain_of(h) == "road":
            ax.plot([xs[h]], [ys[h]], marker="s", markersize=2.5, color="#7a5a2a", zorder=3)
        ax.text(xs[h], ys[h] - 0.62 * size, cm.names[h], fontsize=4.2, ha="center",
                va="center", color="#333333", zorder=6)
    shaded = [] if seen is None else [h for h in range(cm.n) if int(seen[h]) in LOS_SHADES]
    if shaded:
        ax.add_collection(PolyCollection([hexes[h] for h in shaded], closed=True, joinstyle="miter",
                                         edgecolors="none", zorder=4,
                                         facecolors=[to_rgba(*LOS_SHADES[int(seen[h])]) for h in shaded]),
                          autolim=False)

    _label_rows_and_columns(ax, cm, xs, ys, size)
    handles = _terrain_legend(cm, palette)
    if overlay is not None:
        handles += overlay(ax, xs, ys, size)
    if seen is not None:
        a = cm.index_of(los_from)
        ax.add_patch(Polygon(shrunk_hex(cm, a, xs, ys, size, 0.9), closed=True, fill=False,
                             edgecolor="#00a0ff", linewidth=2.2, zorder=8))
        handles += [Patch(facecolor="white", edgecolor="#00a0ff", label=f"LOS from {cm.names[a]}")]
        handles += [Patch(facecolor=LOS_SHADES[code][0], alpha=0.6, label=los.LOS_NAMES[code])
                    for code in shades]
    for h in handles:                        # long set-up lists wrap (issue 43, item 6)
        h.set_label(_wrapped(h.get_label()))
    legend = ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=6,
                       frameon=False)
    _fit_legend(fig, ax, legend)
    fig.suptitle(title, fontsize=10, x=0.02, ha="left", y=0.985)
    fig.text(0.02, 0.925, sub, fontsize=6, ha="left", color="#444444")
    if footer:
        fig.text(0.02, 0.005, footer, fontsize=5, ha="left", va="bottom", family="monospace", color="#444444")
    png = figure_png(fig, dpi)
    if geometry is not None:
        geometry.update(_pixel_geometry(fig, ax, cm, xs, ys, size))
    return png


LEGEND_WRAP = 56     # characters of a legend line before it wraps (indented under its first line)


def _wrapped(label: str, width: int = LEGEND_WRAP) -> str:
    """A legend label wrapped at ``width``, later lines indented under the first."""
    import textwrap
    if len(label) <= width:
        return label
    lead = " " * (len(label) - len(label.lstrip(" ")))
    return "\n".join(textwrap.wrap(label.strip(), width, initial_indent=lead, subsequent_indent=lead + "    "))


def _fit_legend(fig, ax, legend) -> None:
    """Widen the figure when the legend beside the map runs past its right edge, keeping
    the map's size and place (in inches): nothing of the legend is cut off."""
    fig.canvas.draw()
    right = legend.get_window_extent().x1 / fig.dpi            # inches from the left edge
    width = fig.get_figwidth()
    if right + 0.08 <= width:
        return
    grown = right + 0.12
    box = ax.get_position()
    fig.set_figwidth(grown)
    ax.set_position((box.x0 * width / grown, box.y0, box.width * width / grown, box.height))


def _pixel_geometry(fig, ax, cm, xs, ys, size) -> dict:
    """Where the drawing put the hexes, in PNG pixels (origin top left): ``centres`` (hex
    name -> [x, y]), ``radius`` (centre to corner), ``width``, ``height`` of the image.
    Read after ``savefig``, when the equal aspect has been applied."""
    width, height = fig.canvas.get_width_height()
    pts = ax.transData.transform(list(zip(xs, ys, strict=True)))
    corner = ax.transData.transform([(xs[0] + size, ys[0])])[0]
    return {"width": int(width), "height": int(height),
            "radius": float(abs(corner[0] - pts[0][0])),
            "centres": {cm.names[h]: [round(float(pts[h][0]), 2), round(float(height - pts[h][1]), 2)]
                        for h in range(cm.n)}}


ZONE_LINE = 1.8     # set-up zones: outlined in the side's colour, never filled (a tint washed out the terrain)


def zone_outlines(polys, colour: str, linestyle: str = "solid", linewidth: float = ZONE_LINE):
    """Set-up zone hexes' outlines (``polys``, shrunk inside the hexes) in the side's
    ``colour``, never filled: the terrain left as it is (issue 43, item 6); one collection
    (cheaper than a patch each). ``linestyle``, ``linewidth``: another outline (Assault's
    reinforcement entry hexes)."""
    return PolyCollection(polys, closed=True, joinstyle="miter", facecolors="none", edgecolors=colour,
                          linestyles=linestyle, linewidths=linewidth, zorder=5)


def shrunk_hex(m, h: int, xs, ys, size: float, k: float):
    """The corners of hex ``h`` of map ``m`` (its ``cols`` and ``orientation``) drawn
    ``k`` times its size about its centre (``xs[h]``, ``ys[h]``): a zone's outline, a heat
    hex, a line of sight's ends."""
    return _shrink(hexgrid.corners(h % m.cols, h // m.cols, m.orientation, size), xs[h], ys[h], k)


def _shrink(pts, cx, cy, k):
    return [(cx + k * (x - cx), cy + k * (y - cy)) for x, y in pts]


def terrain_colour(terrain: str, terrain_names, palette: dict[str, str] | None = None) -> str:
    """The fill of a terrain: the shipped terrains' own colours (``palette``, by default
    :data:`TERRAIN_COLOURS`); any other terrain of the aid gets the next distinct colour
    of :data:`OTHER_TERRAINS` in the aid's order."""
    palette = TERRAIN_COLOURS if palette is None else palette
    if terrain in palette:
        return palette[terrain]
    others = [t for t in terrain_names if t not in palette]
    k = others.index(terrain) if terrain in others else len(others)
    return OTHER_TERRAINS[k % len(OTHER_TERRAINS)]


def _label_rows_and_columns(ax, cm, xs, ys, size) -> None:
    """Column numbers above each column's first hex and row numbers left of column 0,
    as the scenario file counts them (row r is the r-th string of ``map.rows``)."""
    for c in range(cm.cols):
        ax.text(xs[c], ys[c] - 1.05 * size, str(c), fontsize=5.5, ha="center", va="center",
                color="#555555", zorder=6)
    for r in range(cm.rows):
        h = r * cm.cols
        ax.text(xs[h] - 1.15 * size, ys[h], str(r), fontsize=5.5, ha="right", va="center",
                color="#555555", zorder=6)


def _terrain_legend(cm, palette: dict[str, str] | None = None) -> list:
    palette = TERRAIN_COLOURS if palette is None else palette
    used = sorted({cm.terrain_of(h) for h in range(cm.n)}, key=list(palette).index
                  if all(t in palette for t in cm.terrain_names) else str)
    out = [Patch(facecolor=terrain_colour(t, cm.terrain_names, palette), edgecolor="#6b6b6b", label=t)
           for t in used]
    if cm.hill.any():
        out.append(Patch(facecolor="white", hatch="///", edgecolor=HILL_EDGE, label="hill (▲ elevation)"))
    return out


def _draw_position(ax, cm, s, pieces: list[Piece], holders: dict[str, str],
                   xs, ys, size) -> list:
    """Units where they stand (stacks one above the other) and objectives by holder."""
    handles = []
    if s is not None:
        for o in s.objective_list:
            h = cm.index_of(o.hex)
            holder = holders.get(o.hex)
            ax.plot([xs[h]], [ys[h] + 0.4 * size], marker="*", markersize=11, zorder=7,
                    color=FACTION_COLOURS.get(holder, "#ffd400"), markeredgecolor="#333333")
        if s.objectives:
            handles.append(Line2D([], [], marker="*", linestyle="none", markersize=9, color="#ffd400",
                                  markeredgecolor="#333333", label="objective (held: in the side's colour)"))
    stacked: dict[int, int] = {}
    for p in pieces:
        h = cm.index_of(p.hex)
        k = stacked.get(h, 0)
        stacked[h] = k + 1
        colour = FACTION_COLOURS.get(p.faction, "#555555")
        y = ys[h] - 0.05 * size + 0.3 * size * (k - 0.5 if k else 0)
        _draw_unit(ax, cm, xs[h], ys[h], y, p.label, colour, p.facing, size, fontsize=4.3)
    if s is not None:
        for side_name, side in s.sides.items():
            handles.append(Patch(facecolor=FACTION_COLOURS[side.faction], label=f"{side_name} ({side.faction})"))
    return handles


def _draw_unit(ax, cm, x, y, label_y, label: str, colour: str, facing, size, fontsize) -> None:
    """A unit's label in its side's colour and, for vehicles and guns, an arrow to the
    vertex it faces (5.8)."""
    ax.text(x, label_y, label, fontsize=fontsize, ha="center", va="center", color="white", zorder=9,
            bbox=dict(boxstyle="round,pad=0.2", facecolor=colour, edgecolor="none"))
    if facing is not None:
        vx, vy = vertex_point(cm.orientation, int(facing), size)
        ax.annotate("", xy=(x + 0.8 * vx, y + 0.8 * vy), xytext=(x, y),
                    arrowprops=dict(arrowstyle="-|>", color=colour, lw=1.1), zorder=9)


def _draw_smoke(ax, cm, smoke: dict, xs, ys, size) -> list:
    """Smoke markers: a grey disc with the number of markers in the hex."""
    for name, n in smoke.items():
        if not n:
            continue
        h = cm.index_of(name)
        ax.plot([xs[h] + 0.42 * size], [ys[h] - 0.3 * size], marker="o", markersize=9, color="#9e9e9e",
                alpha=0.85, markeredgecolor="#555555", zorder=8)
        ax.text(xs[h] + 0.42 * size, ys[h] - 0.3 * size, str(int(n)), fontsize=5, ha="center", va="center",
                zorder=9)
    return [Line2D([], [], marker="o", linestyle="none", markersize=7, color="#9e9e9e",
                   markeredgecolor="#555555", label="smoke markers")]


@dataclass(frozen=True)
class Heat:
    """A heat map over a map: ``values`` (hex name -> a rate per game; hexes not named
    are 0), drawn in ``colour`` (a side's faction colour), stronger where higher,
    the rate written in the hex; ``label`` names it in the legend."""

    values: dict
    colour: str
    label: str


def draw_heat(ax, cm, heat: Heat, xs, ys, size) -> list:
    """``heat`` over the board: each hex with a value tinted in the heat's colour (its
    opacity from 0.15 to 0.85 with the value against the highest) and the value written
    in it; returns its legend entries."""
    top = max((float(v) for v in heat.values.values()), default=0.0)
    polys, tints = [], []
    for name, v in heat.values.items():
        v = float(v)
        if v <= 0 or top <= 0:
            continue
        h = cm.index_of(name)
        polys.append(shrunk_hex(cm, h, xs, ys, size, 0.92))
        tints.append(to_rgba(heat.colour, 0.15 + 0.7 * v / top))
        ax.text(xs[h], ys[h] + 0.15 * size, f"{v:.2f}" if v < 10 else f"{v:.0f}", fontsize=5.2, ha="center",
                va="center", color="black", zorder=9,
                bbox=dict(boxstyle="round,pad=0.1", facecolor="white", alpha=0.7, edgecolor="none"))
    if polys:           # one collection: fill and outline in the heat's colour at each hex's opacity
        ax.add_collection(PolyCollection(polys, closed=True, joinstyle="miter", facecolors=tints, edgecolors=tints,
                                         linewidths=0.6, zorder=5), autolim=False)
    return [Patch(facecolor=heat.colour, alpha=0.85, label=f"{heat.label} (highest {top:.2f} a game)"),
            Patch(facecolor=heat.colour, alpha=0.2, label="lighter: fewer")]


def vertex_point(orientation: str, v: int, size: float) -> tuple[float, float]:
    """Offset from a hex centre to its vertex ``v`` (hexgrid's vertex numbering)."""
    # flat: vertex 0 (NE) at -60 degrees on the picture (y down), then clockwise by 60
    start = -60.0 if orientation == "flat" else -90.0
    a = math.radians(start + 60.0 * v)
    return size * math.cos(a), size * math.sin(a)


def _short(name: str) -> str:
    words = name.replace("'", "").split()
    return " ".join(words[:2])[:12]
