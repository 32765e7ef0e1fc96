"""A Tide of Iron map for the shared drawing (:func:`simulator.engine.core.mapdraw.draw_board`)
and its answers to "who sees whom" (``lanchester toi map``, ``los``, ``replay --png``).

:class:`Board` gives a compiled scenario (:class:`~simulator.games.toi.game.scenario.Scenario`)
the attributes the core's drawing reads; :func:`draw_toi_map` draws the set-up (terrain,
roads, hills with their level, markers, objectives with their command and victory
points, deployment zones with what each side sets up there) or, with ``pieces``, a
position (a game's end). Line of sight is the game's own table
(:func:`simulator.games.toi.game.scenario._line_of_sight`, 001 Line of sight; rulings T23)
and its reasons (:func:`simulator.games.toi.game.scenario.sight`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.engine.core import los as core_los
from simulator.games.toi.game import tables as T
from simulator.games.toi.game.scenario import Scenario, sight
from simulator.run.errors import InputError

# the colours of terrain.toml's terrains (others: the core's distinct extra colours)
TOI_TERRAIN_COLOURS = {
    "clear": "#ece6c8",
    "rough": "#c2a98a",
    "woods": "#5e9a4c",
    "building": "#a8713f",
    "bridge": "#7b3f00",
    "stream_shallow": "#7fb8e6",
    "stream_deep": "#3d78c2",
    "stream_flooded": "#1c4587",
    "pond": "#2f5fa8",
}
SIDE_FACTIONS = ("blue", "red")       # the first side of the file in blue, the second in red
MARKER_LETTERS = {"entrenchment": "E", "pillbox": "P", "minefield": "M", "razor_wire": "W", "tank_trap": "T"}


@dataclass(frozen=True)
class Board:
    """A Tide of Iron map as :func:`~simulator.engine.core.mapdraw.draw_board` reads it."""

    scenario: Scenario

    @property
    def grid(self):
        return self.scenario.grid

    @property
    def n(self) -> int:
        return self.grid.n

    @property
    def cols(self) -> int:
        return self.grid.cols

    @property
    def rows(self) -> int:
        return self.grid.rows

    @property
    def orientation(self) -> str:
        return self.grid.orientation

    @property
    def names(self) -> tuple[str, ...]:
        return self.grid.names

    @property
    def name(self) -> str:
        return self.scenario.name

    @property
    def terrain_names(self) -> tuple[str, ...]:
        """The terrains this map uses, in terrain.toml's order."""
        used = {int(x) for x in self.scenario.tables.hexi[:, T.HI_TERRAIN]}
        return tuple(t for i, t in enumerate(self.scenario.terrain_names) if i in used)

    def terrain_of(self, h: int) -> str:
        return self.scenario.terrain_names[int(self.scenario.tables.hexi[h, T.HI_TERRAIN])]

    @property
    def elevation(self) -> np.ndarray:
        return self.scenario.tables.hexi[:, T.HI_ELEV]

    @property
    def hill(self) -> np.ndarray:
        return self.elevation > 0

    @property
    def road(self) -> np.ndarray:
        return self.scenario.tables.hexi[:, T.HI_ROAD] > 0

    def index_of(self, name: str, key: str = "hex") -> int:
        """A hex's index; a hex not on the map is the one-line error naming ``key``."""
        try:
            return self.grid.index_of(name)
        except KeyError:
            raise InputError(key, "", f"{name!r} is not on the map of {self.scenario.name} "
                             f"({self.cols} x {self.rows}: 0,0 to {self.cols - 1},{self.rows - 1})") from None

    def sees(self, a: int, b: int) -> bool:
        """The game's own line of sight (the table every rule reads)."""
        return bool(self.scenario.tables.los[a, b])

    def los_from(self, a: int) -> np.ndarray:
        """The line-of-sight codes of the core (``CLEAR``, ``BLOCKED``; Tide of Iron has
        no hindrance) from hex ``a`` to every hex."""
        return np.where(self.scenario.tables.los[a] > 0, core_los.CLEAR, core_los.BLOCKED)

    def describe(self, h: int) -> str:
        bits = [self.terrain_of(h)]
        if self.road[h]:
            bits.append("road")
        if self.elevation[h]:
            bits.append(("", "hill", "high hill")[min(int(self.elevation[h]), 2)])
        return "+".join(bits)


def los_answer(scenario: Scenario, frm: str, to: str) -> dict:
    """Whether hex ``frm`` sees hex ``to`` and why (001 Line of sight; rulings T23): the
    JSON answer of ``lanchester toi los``."""
    b = Board(scenario)
    x, y = b.index_of(frm, "FROM"), b.index_of(to, "TO")
    sees, why, crossed = sight(scenario, x, y)
    assert bool(sees) == b.sees(x, y), "toi los: the reasons disagree with the game's table"
    names = b.names
    return {
        "scenario": scenario.name, "file": str(scenario.path), "from": names[x], "to": names[y],
        "los": "clear" if sees else "blocked", "sees": bool(sees), "range": int(scenario.grid.distance[x, y]),
        "from_terrain": b.describe(x), "to_terrain": b.describe(y),
        "from_elevation": int(b.elevation[x]), "to_elevation": int(b.elevation[y]),
        "blocking": sorted({names[h] for _, hexes in why for h in hexes}, key=names.index),
        "reasons": [{"reason": r, "hexes": [names[h] for h in hexes]} for r, hexes in why],
        "crossed": [names[h] for h in crossed],
    }


def los_text(a: dict) -> str:
    lines = [f"{a['scenario']}: LOS {a['from']} ({a['from_terrain']}, level {a['from_elevation']}) -> "
             f"{a['to']} ({a['to_terrain']}, level {a['to_elevation']}), range {a['range']}",
             f"  los: {a['los']}" + (" (adjacent hexes always see each other)" if a["range"] <= 1 else "")]
    for r in a["reasons"]:
        lines.append(f"  blocked by {', '.join(r['hexes'])}: {r['reason']}")
    lines.append(f"  hexes crossed: {', '.join(a['crossed']) or 'none (adjacent)'}")
    return "\n".join(lines) + "\n"


def zone_hexes(scenario: Scenario) -> list[tuple[int, str, list[int]]]:
    """The deployment zones: ``(side, zone name, hexes)`` (the loader's zone bits)."""
    hexi = scenario.tables.hexi
    out, z = [], 0
    for si, side in enumerate(scenario.side_names):     # the loader numbers zones side by side, in file order
        for zname in scenario.spec.sides[side].zones:
            out.append((si, zname, [h for h in range(scenario.grid.n) if (int(hexi[h, T.HI_ZONE]) >> z) & 1]))
            z += 1
    return out


def zone_forces(scenario: Scenario, side: str, zone: str) -> list[str]:
    """What ``side`` sets up in (or brings into) ``zone``, e.g. ``2 x 3regular+officer``."""
    sp = scenario.spec.sides[side]
    out = []
    for sq in sp.squads:
        if sq.zone == zone:
            late = f" after round {sq.arrives_after_round}" if sq.arrives_after_round else ""
            spec = f" {sq.specialisation}" if sq.specialisation else ""
            out.append(f"{sq.count} x {sq.figures}{spec}{late}")
    for v in sp.vehicles:
        if v.zone == zone:
            late = f" after round {v.arrives_after_round}" if v.arrives_after_round else ""
            out.append(f"{v.count} x {v.model}{late}")
    return out


def fixed_forces(scenario: Scenario, side: str) -> list[tuple[str, str]]:
    """What ``side`` sets up (or brings in) at a fixed hex (rulings T44): ``(hex, text)``,
    e.g. ``("4,1", "1 x 2regular+mg")``."""
    sp = scenario.spec.sides[side]
    out = []
    for entry in [*sp.squads, *sp.vehicles]:
        if entry.hex is not None:
            late = f" after round {entry.arrives_after_round}" if entry.arrives_after_round else ""
            what = entry.figures if hasattr(entry, "figures") else entry.model
            spec = f" {entry.specialisation}" if getattr(entry, "specialisation", None) else ""
            out.append((entry.hex, f"{entry.count} x {what}{spec}{late}"))
    return out


def draw_toi_map(scenario: Scenario, *, los_from: str | None = None, pieces=None,
                 objective_holders: dict[str, int] | None = None, title: str | None = None,
                 subtitle: str | None = None, footer: str | None = None, dpi: int = 110,
                 geometry: dict | None = None, heat=None) -> bytes:
    """The map as PNG bytes: the set-up, or with ``pieces`` (core
    :class:`~simulator.engine.core.mapdraw.Piece`) a position, objectives then in the
    colour of the side holding them (``objective_holders``: hex name -> side index);
    ``geometry``: filled with the hexes' pixel centres (core ``draw_board``); ``heat`` (core
    :class:`~simulator.engine.core.mapdraw.Heat`): a batch's heat map instead of the set-up."""
    from matplotlib.patches import Patch

    from simulator.engine.core.mapdraw import FACTION_COLOURS, _draw_position, draw_board, draw_heat

    b = Board(scenario)
    colours = [FACTION_COLOURS[f] for f in SIDE_FACTIONS]

    def overlay(ax, xs, ys, size) -> list:
        handles = _roads_and_markers(ax, b, xs, ys, size)
        handles += _objectives(ax, b, colours, objective_holders or {}, pieces is not None, xs, ys, size)
        if heat is not None:
            return handles + draw_heat(ax, b, heat, xs, ys, size)
        if pieces is None:
            return handles + _zones(ax, b, colours, xs, ys, size)
        handles += _draw_position(ax, b, None, pieces, {}, xs, ys, size)
        return handles + [Patch(facecolor=colours[si], label=f"{side} ({SIDE_FACTIONS[si]})")
                          for si, side in enumerate(scenario.side_names)]

    seen = None
    if los_from is not None:
        seen = b.los_from(b.index_of(los_from, "--los-from"))
    sub = f"{b.cols} x {b.rows} {b.orientation}-topped hexes; {scenario.spec.rounds} rounds; " \
          f"map: {scenario.spec.map.source or 'not given'}"
    if subtitle:
        sub = f"{subtitle}; {sub}"
    return draw_board(b, title=title or scenario.name, sub=sub, seen=seen, los_from=los_from, dpi=dpi,
                      footer=footer, overlay=overlay, palette=TOI_TERRAIN_COLOURS, shades=(core_los.BLOCKED,),
                      geometry=geometry)


def _roads_and_markers(ax, b: Board, xs, ys, size) -> list:
    """Roads (a dot: road is an overlay on the hex's terrain, 001 Terrain: Road) and the
    fortification and obstacle markers (a letter and their count)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = []
    for h in np.flatnonzero(b.road):
        ax.plot([xs[h]], [ys[h]], marker="s", markersize=2.5, color="#7a5a2a", zorder=3)
    if b.road.any():
        handles.append(Line2D([], [], marker="s", linestyle="none", markersize=3, color="#7a5a2a", label="road"))
    markers = b.scenario.spec.markers
    for m in markers:
        h = b.index_of(m.hex)
        letter = MARKER_LETTERS.get(m.kind.strip().lower().replace("-", "_"), "?")
        ax.text(xs[h] - 0.45 * size, ys[h] + 0.45 * size, letter + (str(m.count) if m.count > 1 else ""),
                fontsize=5, ha="center", va="center", color="white", zorder=8,
                bbox=dict(boxstyle="square,pad=0.15", facecolor="#444444", edgecolor="none"))
    kinds = sorted({m.kind.strip().lower().replace("-", "_") for m in markers})
    handles += [Patch(facecolor="#444444", edgecolor="none", label=f"{MARKER_LETTERS.get(k, '?')}: {k.replace('_', ' ')}")
                for k in kinds]
    return handles


def _objectives(ax, b: Board, colours, holders: dict[str, int], position: bool, xs, ys, size) -> list:
    """Objectives as stars: with their command/victory points on the set-up, in the
    holder's colour on a position."""
    from matplotlib.lines import Line2D

    for o in b.scenario.spec.objectives:
        h = b.index_of(o.hex)
        held = holders.get(o.hex, -1)
        ax.plot([xs[h]], [ys[h] + (0.4 if position else 0.05) * size], marker="*", markersize=12,
                color=colours[held] if held >= 0 else "#ffd400", markeredgecolor="#6b5200", zorder=7)
        if not position:
            ax.text(xs[h] + 0.42 * size, ys[h] - 0.3 * size, f"{o.command}/{o.vp}", fontsize=4.5, zorder=8)
    return [Line2D([], [], marker="*", linestyle="none", markersize=9, color="#ffd400", markeredgecolor="#6b5200",
                   label="objective (held: in the side's colour)" if position else "objective (command/VP)")]


def _zones(ax, b: Board, colours, xs, ys, size) -> list:
    """The deployment zones in their side's colour; the legend says what sets up where."""
    from matplotlib.patches import Patch

    from simulator.engine.core.mapdraw import shrunk_hex, zone_outlines

    def outline(hexes, colour):       # one collection per zone (cheaper than a patch per hex)
        if hexes:
            ax.add_collection(zone_outlines([shrunk_hex(b, h, xs, ys, size, 0.88) for h in hexes], colour),
                              autolim=False)

    sc = b.scenario
    for si, _zone, hexes in zone_hexes(sc):
        outline(hexes, colours[si])
    handles = []
    for si, side in enumerate(sc.side_names):
        fixed = fixed_forces(sc, side)
        outline([sc.grid.index_of(name) for name, _ in fixed], colours[si])  # rulings T44: a one-hex set-up, a zone
        handles.append(Patch(facecolor=colours[si], alpha=0.35, edgecolor=colours[si],
                             label=f"{side} ({SIDE_FACTIONS[si]}): deployment zones"))
        for zname in sc.spec.sides[side].zones:
            forces = zone_forces(sc, side, zname)
            if forces:          # one line each: a long list would run off the picture
                handles += [Patch(facecolor="none", edgecolor="none", label=text)
                            for text in [f"  zone {zname}:"] + [f"    {f}" for f in forces]]
        if fixed:
            handles += [Patch(facecolor="none", edgecolor="none", label=text)
                        for text in ["  fixed hexes:"] + [f"    {f} at {name}" for name, f in fixed]]
    return handles
