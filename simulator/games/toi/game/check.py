"""Checking a Tide of Iron scenario file (``lanchester toi check``).

The file's shape (keys, types, ranges) is checked whole, every problem reported with
its key (:func:`simulator.run.datafile.model_problems`); a file of the right shape is then
loaded by the game's own loader (:func:`simulator.games.toi.game.scenario.load_scenario`),
whose first problem is reported (it stops there). A loaded scenario gets warnings for
what loads but is likely a mistake: zone hexes off the map (the loader drops them), a
zone where no unit can stand, an objective no unit can enter.
"""

from __future__ import annotations

import pydantic

from simulator.games.toi.game import tables as T
from simulator.games.toi.game.scenario import Scenario, ScenarioFile, load_scenario, scenario_path
from simulator.run.datafile import CheckResult, Problem, model_problems, read_toml
from simulator.run.errors import InputError


def check_toi_scenario(name: str) -> CheckResult:
    """Every problem of a scenario (a file or a shipped scenario's name)."""
    try:
        path = scenario_path(name)
    except InputError as exc:
        return CheckResult(str(name), [Problem(exc.key, exc.problem)])
    where = str(path)
    result = CheckResult(where)
    try:
        raw = read_toml(path)
        ScenarioFile.model_validate(raw)
    except InputError as exc:
        result.problems.append(Problem(exc.key, exc.problem))
        return result
    except pydantic.ValidationError as exc:
        result.problems += model_problems(exc, model=ScenarioFile)
        return result
    try:
        sc = load_scenario(where)
    except InputError as exc:       # the loader's checks: the first problem (it stops there)
        result.problems.append(Problem(exc.key, exc.problem))
        return result
    result.scenario = sc
    result.problems += _warnings(sc)
    return result


def _warnings(sc: Scenario) -> list[Problem]:
    from simulator.engine.core.hexspec import parse_hex_spec

    out = []
    grid, hexi = sc.grid, sc.tables.hexi
    z = 0
    for side in sc.side_names:               # the loader numbers the zones side by side, in file order
        for zname, specs in sc.spec.sides[side].zones.items():
            key = f"sides.{side}.zones.{zname}"
            off = sorted({f"{c},{r}" for s in specs for c, r in parse_hex_spec(s) if not grid.on_map(c, r)})
            if off:
                out.append(Problem(key, f"{len(off)} hex{'es' if len(off) > 1 else ''} off the "
                                   f"{grid.cols} x {grid.rows} map, ignored: {', '.join(off[:6])}"
                                   + (" ..." if len(off) > 6 else ""), "warning"))
            room = [h for h in range(grid.n) if (int(hexi[h, T.HI_ZONE]) >> z) & 1 and hexi[h, T.HI_STAND]]
            if not room:
                out.append(Problem(key, "no hex of the zone can hold a unit", "warning"))
            z += 1
    for k, o in enumerate(sc.spec.objectives):
        h = grid.index_of(o.hex)
        if not hexi[h, T.HI_STAND]:
            out.append(Problem(f"objectives[{k}].hex", f"no unit can enter {o.hex} ({sc.terrain_names[int(hexi[h, T.HI_TERRAIN])]}):"
                               " nobody can take it", "warning"))
    return out


def summary_line(sc: Scenario) -> str:
    """One line: the map, the rounds, the forces, the objectives."""
    t = sc.tables
    forces = []
    for si, side in enumerate(sc.side_names):
        rows = t.slots[t.slots[:, T.SL_SIDE] == si]
        squads = int((rows[:, T.SL_VEHICLE] == 0).sum())
        vehicles = int((rows[:, T.SL_VEHICLE] == 1).sum())
        forces.append(f"{side} {squads} squad{'s' if squads != 1 else ''}"
                      + (f" and {vehicles} vehicle{'s' if vehicles != 1 else ''}" if vehicles else ""))
    n_obj = len(sc.spec.objectives)
    return (f"{sc.name}: {sc.grid.cols} x {sc.grid.rows} map, {sc.spec.rounds} rounds, "
            f"{sc.spec.actions_per_turn} actions a turn, {' against '.join(forces)}, "
            f"{n_obj} objective{'s' if n_obj != 1 else ''}, {len(sc.spec.markers)} markers")
