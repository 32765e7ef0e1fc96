"""Where a Tide of Iron answer's data came from: the roster and terrain files, or a
compiled scenario's files (:class:`reports.provenance.Source` rows)."""

from __future__ import annotations

from pathlib import Path

from reports.provenance import Source, shown_path


def toi_data(units_file=None, terrain_file=None) -> tuple[list[Source], list[Path]]:
    """Sources and files of the Tide of Iron data in use."""
    from simulator.games.toi.rules.data import TERRAIN_FILE, UNITS_FILE, load_terrain, load_units

    u, t = load_units(units_file), load_terrain(terrain_file)
    return ([Source("toi units", u.name, u.status), Source("toi terrain", t.name, t.status)],
            [Path(units_file or UNITS_FILE), Path(terrain_file or TERRAIN_FILE)])


def toi_scenario_data(game) -> tuple[list[Source], list[Path]]:
    """Sources and files of a Tide of Iron scenario run (:class:`simulator.games.toi.game.game.Game`):
    the scenario file with its source, the units and terrain it plays with."""
    s = game.scenario
    sources, files = toi_data()
    return ([Source("scenario", f"{s.name} ({shown_path(s.path)})", s.spec.source or "not stated")] + sources,
            [Path(s.path)] + files)
