"""Assault's map pictures: :func:`draw_map` draws a scenario's map through the game-neutral
:func:`simulator.engine.core.mapdraw.draw_board`, with objectives as stars, units at their
fixed hexes (with an arrow to the facing vertex for vehicles and artillery), set-up zones
and reinforcement entry hexes outlined in the side's faction colour. With ``los_from``
every hex is shaded by what a unit in that hex sees (10.3, 10.4): clear (unshaded),
hindered (yellow) or blocked (dark). With ``pieces`` it draws a position instead of the
set-up (e.g. the end of a game: ``lanchester assault replay --png``): those units,
stacked ones one above the other, objectives in the colour of the side holding them, and
smoke markers. Returns PNG bytes: write them with :func:`simulator.run.output.atomic_write_bytes`.
"""

from __future__ import annotations

from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from simulator.engine.core.hexspec import expand_hexes
from simulator.engine.core.mapdraw import (
    FACTION_COLOURS,
    Heat,
    Piece,
    _draw_position,
    _draw_smoke,
    _draw_unit,
    _short,
    draw_board,
    draw_heat,
    shrunk_hex,
    zone_outlines,
)
from simulator.games.assault.game.compiled import CompiledMap, compile_map
from simulator.games.assault.game.scenario_format import Scenario


def draw_map(scenario: Scenario | CompiledMap, *, los_from: str | None = None,
             smoke: dict | None = None, dpi: int = 110, title: str | None = None,
             pieces: list[Piece] | None = None, objective_holders: dict[str, str] | None = None,
             subtitle: str | None = None, footer: str | None = None, geometry: dict | None = None,
             heat: Heat | None = None) -> bytes:
    """An Assault map as PNG bytes (see the module docstring), drawn by :func:`draw_board`.

    ``pieces`` replaces the scenario's set-up (fixed units, zones, entry hexes) with a
    position; ``objective_holders`` maps an objective's hex to the faction holding it;
    ``smoke`` maps hex names to smoke markers (drawn, and counted in ``los_from``);
    ``footer``: lines printed small under the map (a report's provenance); ``geometry``:
    filled with the hexes' pixel centres (:func:`simulator.engine.core.mapdraw.draw_board`);
    ``heat``: a batch's heat map over the terrain and the objectives instead of the set-up."""
    if isinstance(scenario, CompiledMap):
        cm, s = scenario, None
    else:
        cm, s = compile_map(scenario), scenario

    def overlay(ax, xs, ys, size) -> list:
        handles = []
        if heat is not None:
            return handles + _draw_position(ax, cm, s, [], {}, xs, ys, size)[:1] + draw_heat(ax, cm, heat, xs, ys, size)
        if pieces is not None:
            handles += _draw_position(ax, cm, s, pieces, objective_holders or {}, xs, ys, size)
        elif s is not None:
            handles += _draw_scenario(ax, cm, s, xs, ys, size)
        if smoke:
            handles += _draw_smoke(ax, cm, smoke, xs, ys, size)
        return handles

    sub = f"{cm.cols} x {cm.rows} {cm.orientation}-topped hexes; aid: {cm.aid_label}"
    if s is not None and s.map.source:
        sub += f"; map: {s.map.source}"
    if subtitle:
        sub = f"{subtitle}; {sub}"
    return draw_board(cm, seen=_los_codes(cm, los_from, smoke), los_from=los_from, dpi=dpi,
                      title=title or (s.name if s is not None else cm.name), sub=sub, footer=footer,
                      overlay=overlay, geometry=geometry)


def _los_codes(cm: CompiledMap, los_from: str | None, smoke):
    if los_from is None:
        return None
    a = cm.index_of(los_from)
    if not smoke:
        return cm.los_from(a)
    markers = cm.smoke_array(smoke)
    return [cm.los_with_smoke(a, b, markers)[0] for b in range(cm.n)]


def _draw_scenario(ax, cm: CompiledMap, s: Scenario, xs, ys, size) -> list:
    handles = []
    grid = s.board.grid
    for o in s.objective_list:
        h = cm.index_of(o.hex)
        ax.plot([xs[h]], [ys[h] + 0.05], marker="*", markersize=13, color="#ffd400",
                markeredgecolor="#6b5200", zorder=7)
        if o.value != 1:
            ax.text(xs[h] + 0.38, ys[h] - 0.28, str(o.value), fontsize=5, zorder=8)
    if s.objectives:
        handles.append(Line2D([], [], marker="*", linestyle="none", markersize=9, color="#ffd400",
                              markeredgecolor="#6b5200", label="objective"))
    for side_name, side in s.sides.items():
        colour = FACTION_COLOURS[side.faction]
        zones = [cm.index_of(name) for specs in side.zones.values() for name in expand_hexes(specs, grid)]
        if zones:
            ax.add_collection(zone_outlines([shrunk_hex(cm, h, xs, ys, size, 0.88) for h in zones], colour),
                              autolim=False)
        entries = [cm.index_of(name) for rf in side.reinforcements for name in expand_hexes(rf.entry, grid)]
        if entries:
            ax.add_collection(zone_outlines([shrunk_hex(cm, h, xs, ys, size, 0.8) for h in entries], colour,
                                            linestyle="--", linewidth=0.9), autolim=False)
        for f in side.units:
            if f.hex is None:
                continue
            h = cm.index_of(f.hex)
            card = s.units[f.unit]
            label = _short(card.name) + ("+" if f.carrying else "")
            _draw_unit(ax, cm, xs[h], ys[h], ys[h] + 0.12, label, colour, f.facing, size, fontsize=4.6)
        handles.append(Patch(facecolor=colour, alpha=0.35, edgecolor=colour,
                             label=f"{side_name} ({side.faction}): units, set-up zones"))
        for zone in side.zones:
            placed = [f"{f.count} x {_short(s.units[f.unit].name)}" for f in side.units
                      if f.zone == zone]
            if side.formations is not None and side.formations.zone == zone:
                fd = side.formations
                placed += [f"{fd.count(t)} {t} formation{'s' if fd.count(t) > 1 else ''} ({fd.method})"
                           for t in ("infantry", "artillery", "vehicle") if fd.count(t)]
            if placed:
                handles.append(Patch(facecolor="none", edgecolor="none",
                                     label=f"  zone {zone}: {', '.join(placed)}"))
        if side.reinforcements:
            handles.append(Patch(facecolor="white", edgecolor=colour, linestyle="--",
                                 label=f"{side_name} reinforcement entry"))
    return handles
