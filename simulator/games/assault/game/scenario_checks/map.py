"""``[map]``: the legend, the rows (a rectangle of hexes) and ``[[map.features]]``
(fortifications and wire); builds the :class:`~simulator.games.assault.game.scenario_format.Board`."""

from __future__ import annotations

from simulator.engine.core.hexgrid import HexGrid, parse_facing, too_many_hexes
from simulator.games.assault.game.scenario_checks.base import CheckBase
from simulator.games.assault.game.scenario_format import Board, MapSpec, parse_terrain, quote_key
from simulator.run.errors import InputError


class MapChecks(CheckBase):
    """``[map]`` and ``[[map.features]]``."""

    def check_map(self) -> None:
        spec = self.section(MapSpec, "map")
        if spec is None or self.aid is None:
            return
        legend: dict[str, tuple[str, bool]] = {}
        for char, value in spec.legend.items():
            key = f"map.legend.{quote_key(char)}"
            if len(char) != 1:
                self.r.error(key, "legend keys are single characters, one per hex")
                continue
            try:
                legend[char] = parse_terrain(value, self.aid)
            except ValueError as exc:
                self.r.error(key, str(exc))
        width = len(spec.rows[0])
        if too_many_hexes(width, len(spec.rows)):   # before any per-hex work
            self.r.error("map.rows", too_many_hexes(width, len(spec.rows)))
            return
        ragged = False
        terrain: list[str] = []
        hill: list[bool] = []
        for i, row in enumerate(spec.rows):
            key = f"map.rows[{i}]"
            if not row:
                self.r.error(key, "empty row")
                ragged = True
                continue
            if len(row) != width:
                self.r.error(key, f"has {len(row)} hexes but row 0 has {width}: rows must be "
                             f"equally long (the map is a rectangle of hexes)")
                ragged = True
            unknown = sorted({c for c in row if c not in spec.legend})
            if unknown:
                cols = [str(j) for j, c in enumerate(row) if c in unknown]
                self.r.error(key, f"character{'s' if len(unknown) > 1 else ''} "
                             f"{', '.join(repr(c) for c in unknown)} (column {', '.join(cols[:6])}"
                             f"{'...' if len(cols) > 6 else ''}) not in map.legend")
            # a ragged row is cut or padded to row 0's width so the other checks can run
            for c in (row + " " * width)[:width]:
                t, h = legend.get(c, ("clear", False))
                terrain.append(t)
                hill.append(h)
        if width == 0:
            return
        if ragged:
            while len(terrain) < width * len(spec.rows):
                terrain.append("clear")
                hill.append(False)
        grid = HexGrid(width, len(spec.rows), spec.orientation)
        self.board = Board(grid, tuple(terrain), tuple(hill), spec.source)
        self.check_features(spec)

    def check_features(self, spec: MapSpec) -> None:
        """``[[map.features]]``: known fortifications with a facing, hexes on the map, each
        hex in one feature at most."""
        from simulator.games.assault.rules.melee.fortifications import load_fortifications
        known = None
        seen: dict[str, int] = {}
        for i, f in enumerate(spec.features):
            key = f"map.features[{i}]"
            if f.fortification is None and not f.wire:
                self.r.error(key, "a feature names a fortification or sets wire = true")
            if f.fortification is not None:
                if known is None:
                    try:
                        known = load_fortifications(self.aid)
                    except InputError as exc:
                        self.r.error(key, exc.one_line())
                        known = {}
                if f.fortification not in known:
                    self.r.error(f"{key}.fortification", f"unknown fortification {f.fortification!r} "
                                 f"(aid {self.aid.name} knows: {', '.join(known) or 'none'})")
                if f.facing is None:
                    self.r.error(f"{key}.facing", "a fortification needs the vertex its front faces "
                                 "(revised 12.1.3.1: its dice depend on the side attacked from)")
            if f.facing is not None:
                if f.fortification is None:
                    self.r.error(f"{key}.facing", "only a fortification has a facing")
                try:
                    parse_facing(f.facing, spec.orientation, "", f"{key}.facing")
                except InputError as exc:
                    self.r.error(f"{key}.facing", exc.one_line())
            for h in self.specs_ok(f.hexes, f"{key}.hexes"):
                if h in seen:
                    self.r.error(f"{key}.hexes", f"hex {h} is already in map.features[{seen[h]}]")
                seen[h] = i
