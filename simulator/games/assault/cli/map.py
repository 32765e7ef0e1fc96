"""``lanchester assault los | map | scenarios | check``: scenario maps and files.

Each command has a library call returning an answer of
:mod:`simulator.games.assault.questions.answers` (``los_answer``, ``map_answer``,
``scenarios_answer``, ``check_answer``), its table by ``frame()``; the click commands only
render them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:   # annotations only: the modules load when a command runs
    from simulator.games.assault.questions.answers import CheckAnswer, LosAnswer, MapAnswer, ScenariosAnswer

from simulator import cliopts
from simulator.run.errors import InputError


def _show(path: str | Path) -> str:
    from simulator.run.datafile import REPO_ROOT

    try:
        return str(Path(path).resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def parse_smoke(values: tuple[str, ...] | list[str]) -> dict[str, int]:
    """``("3,4", "5,1:2")`` -> ``{"3,4": 1, "5,1": 2}``: smoke markers per hex (7.5)."""
    out: dict[str, int] = {}
    for v in values:
        m = re.fullmatch(r"\s*(\d+\s*,\s*\d+)\s*(?::\s*(\d+))?\s*", v)
        if not m:
            raise InputError("--smoke", "", f"{v!r}: write HEX or HEX:MARKERS, e.g. 3,4 or 3,4:2")
        n = int(m.group(2) or 1)
        if not 1 <= n <= 4:
            raise InputError("--smoke", "", f"{v!r}: 1 to 4 smoke markers per hex (7.5)")
        out[re.sub(r"\s", "", m.group(1))] = n
    return out


# --- los --------------------------------------------------------------------------------

def los_answer(scenario: str | Path, firer: str, target: str,
               smoke: dict[str, int] | None = None, data: dict | None = None) -> LosAnswer:
    """The LOS from ``firer`` to ``target`` (10.3, 10.4), with its table of one row.
    ``data``: data files given on the command line (``{"aid": FILE}``)."""
    import pandas as pd

    from simulator.games.assault.game.compiled import compile_map
    from simulator.games.assault.game.scenario import load_scenario
    from simulator.games.assault.questions.answers import LosAnswer

    s = load_scenario(scenario, data)
    cm = compile_map(s)
    for key, h in (("FROM", firer), ("TO", target)):
        try:
            cm.index_of(h)
        except InputError as exc:
            raise InputError(key, "", exc.problem) from None
    r = cm.line_of_sight(firer, target, smoke=smoke or None)
    frame = pd.DataFrame([{
        "from": r.firer, "to": r.target, "los": r.los, "range": r.range,
        "hindrances": " ".join(r.hindrances) or "-", "los_dice": r.los_dice,
        "blocking": " ".join(r.blocking) or "-", "smoke": " ".join(r.smoke) or "-",
        "crossed": " ".join(r.crossed) or "-"}])
    d = r.to_dict()
    return LosAnswer(
        scenario=s.name, file=_show(s.path), firer=d["from"], target=d["to"], los=d["los"],
        hindrances=d["hindrances"], range=d["range"], los_dice=d["los_dice"], blocking=d["blocking"],
        smoke=d["smoke"], smoke_markers=dict(smoke or {}), crossed=d["crossed"],
        from_terrain=cm.describe(cm.index_of(firer)), to_terrain=cm.describe(cm.index_of(target)),
        from_elevation=int(cm.elevation[cm.index_of(firer)]), to_elevation=int(cm.elevation[cm.index_of(target)]),
        aid=s.aid.name, aid_status=s.aid.status, aid_file=_show(s.aid.path), table=frame)


def los_json(a: LosAnswer) -> dict:
    return a.to_json()


def los_table(a: LosAnswer) -> str:
    lines = [f"{a.scenario}: LOS {a.firer} ({a.from_terrain}, elevation {a.from_elevation})"
             f" -> {a.target} ({a.to_terrain}, elevation {a.to_elevation}), range {a.range}",
             f"  los: {a.los}"]
    if a.hindrances:
        lines.append(f"  hindrances: {', '.join(a.hindrances)} (defence +{a.los_dice}, 10.9.2)")
    if a.smoke:
        lines.append(f"  smoke in: {', '.join(a.smoke)}")
    if a.blocking:
        lines.append(f"  blocked by: {', '.join(a.blocking)}")
    lines.append(f"  hexes crossed: {', '.join(a.crossed) or 'none (adjacent)'}")
    lines.append(f"aid: {a.aid}, {a.aid_status} ({a.aid_file})")
    return "\n".join(lines) + "\n"


@click.command("los")
@click.argument("scenario")
@click.argument("firer", metavar="FROM")
@click.argument("target", metavar="TO")
@click.option("--smoke", multiple=True, metavar="HEX[:N]",
              help="Smoke markers in a hex (repeatable), e.g. --smoke 4,3:2.")
@cliopts.data_files(scenario=True)
@cliopts.fmt
@cliopts.out_file()
def los_command(scenario, firer, target, smoke, dice_file, aid_file, units_dir, fmt, out):
    """Line of sight between two hexes of a scenario map (10.3, 10.4).

    SCENARIO is a scenario file or the name of a shipped one; hexes are "col,row".
    The answer is clear, hindered (with the hindering hexes) or blocked.

    \b
    Examples:
      lanchester assault los infantry-training 0,4 8,4
      lanchester assault los my-map.scenario.toml 0,0 4,2 --format json
      lanchester assault los crossroads 3,7 10,7 --smoke 6,7:2
      lanchester assault los my-map.scenario.toml 0,0 4,2 --aid my-aid.toml
    """
    from simulator.run.output import emit, render

    answer = los_answer(scenario, firer, target, parse_smoke(smoke),
                        cliopts.scenario_data(dice_file, aid_file, units_dir))
    emit(render(fmt, table=los_table(answer), frame=answer.frame(), obj=los_json(answer)), out)


# --- map --------------------------------------------------------------------------------

def map_answer(scenario: str | Path, los_from: str | None = None,
               smoke: dict[str, int] | None = None, data: dict | None = None) -> MapAnswer:
    """The map's picture (``png``) and one row per hex: name, column, row, terrain, hill,
    elevation, and (with ``los_from``) what that hex sees."""
    import pandas as pd

    from simulator.engine.core import los as L
    from simulator.games.assault.game.compiled import compile_map
    from simulator.games.assault.game.mapdraw import draw_map
    from simulator.games.assault.game.scenario import load_scenario
    from simulator.games.assault.questions.answers import MapAnswer

    s = load_scenario(scenario, data)
    cm = compile_map(s)
    if los_from is not None:
        try:
            cm.index_of(los_from)
        except InputError as exc:
            raise InputError("--los-from", "", exc.problem) from None
    rows = []
    seen = None
    if los_from is not None:
        a = cm.index_of(los_from)
        markers = cm.smoke_array(smoke)
        seen = [L.LOS_NAMES[cm.los_with_smoke(a, b, markers)[0]] for b in range(cm.n)]
    for h in range(cm.n):
        row = {"hex": cm.names[h], "col": h % cm.cols, "row": h // cm.cols,
               "terrain": cm.terrain_of(h), "hill": bool(cm.hill[h]),
               "elevation": int(cm.elevation[h])}
        if seen is not None:
            row["los"] = seen[h]
        rows.append(row)
    return MapAnswer(scenario=s.name, file=_show(s.path), id=s.id, los_from=los_from,
                     png=draw_map(s, los_from=los_from, smoke=smoke), table=pd.DataFrame(rows))


@click.command("map")
@click.argument("scenario")
@click.option("--los-from", "los_from", default=None, metavar="HEX",
              help="Shade every hex by what a unit in HEX sees: clear, hindered, blocked.")
@click.option("--smoke", multiple=True, metavar="HEX[:N]",
              help="Smoke markers for the LOS shading (repeatable).")
@cliopts.data_files(scenario=True)
@cliopts.out_file("the picture", cliopts.OUT_PICTURE_SUFFIXES,
                  default="SCENARIO-map.png, or SCENARIO-los-C-R.png with --los-from, in the current folder")
def map_command(scenario, los_from, smoke, dice_file, aid_file, units_dir, out):
    """Draw a scenario map as a PNG: terrain, hills and elevation, objectives, units at
    fixed hexes, set-up zones and reinforcement entries, hex names.

    \b
    Examples:
      lanchester assault map infantry-training
      lanchester assault map crossroads --los-from 10,7 --out crossroads-los.png
      lanchester assault map my-map.scenario.toml --aid my-aid.toml --out map.png
    """
    from simulator.run.output import atomic_write_bytes

    answer = map_answer(scenario, los_from, parse_smoke(smoke),
                        cliopts.scenario_data(dice_file, aid_file, units_dir))
    if out is None:
        suffix = "map" if los_from is None else "los-" + los_from.replace(",", "-").replace(" ", "")
        out = f"{answer.id}-{suffix}.png"
    atomic_write_bytes(out, answer.png, option="--out")
    click.echo(f"wrote {out}", err=True)


# --- scenarios --------------------------------------------------------------------------

SCENARIO_COLUMNS = ["id", "name", "turns", "sides", "map", "edition", "file"]


def scenarios_answer() -> ScenariosAnswer:
    """The shipped scenarios: id, name, turns, sides (with factions), map size,
    close-combat edition, file."""
    import pandas as pd

    from simulator.games.assault.game.scenario import load_scenario, shipped_scenarios
    from simulator.games.assault.questions.answers import ScenariosAnswer

    rows = []
    for p in shipped_scenarios():
        s = load_scenario(p)
        g = s.board.grid
        rows.append({
            "id": s.id, "name": s.name, "turns": s.turns,
            "sides": ", ".join(f"{n} ({side.faction})" for n, side in s.sides.items()),
            "map": f"{g.cols}x{g.rows} {g.orientation}", "edition": s.edition,
            "file": _show(p)})
    return ScenariosAnswer(scenarios=rows, table=pd.DataFrame(rows, columns=SCENARIO_COLUMNS))


@click.command("scenarios")
@cliopts.fmt
@cliopts.out_file()
def scenarios_command(fmt, out):
    """List the shipped scenarios (scenarios/assault/*.scenario.toml).

    \b
    Examples:
      lanchester assault scenarios
      lanchester assault scenarios --format json
    """
    from simulator.run.output import emit, render

    answer = scenarios_answer()
    frame = answer.frame()
    table = frame.to_string(index=False) + "\n" if len(frame) else "no scenarios shipped\n"
    emit(render(fmt, table=table, frame=frame, obj=answer.to_json()), out)


# --- check ------------------------------------------------------------------------------

def check_answer(scenario: str | Path, data: dict | None = None) -> CheckAnswer:
    """Every problem of a scenario file: severity, key, message (one row each).
    ``data``: data files given on the command line (``{"aid": FILE}``); the answer's
    ``data`` names the files used when the scenario loaded."""
    import pandas as pd

    from simulator.games.assault.game.scenario import check_scenario, resolve_scenario
    from simulator.games.assault.questions.answers import CheckAnswer

    result = check_scenario(scenario, data)
    frame = pd.DataFrame([{"severity": p.severity, "key": p.key, "message": p.message}
                          for p in result.problems], columns=["severity", "key", "message"])
    try:
        where = _show(resolve_scenario(scenario))
    except InputError:
        where = str(scenario)
    used = {} if result.scenario is None else {
        k: {**d, "file": _show(d["file"]) if k != "units" else ", ".join(_show(x) for x in d["file"].split(", "))}
        for k, d in result.scenario.data_used().items()}
    told: dict = {}
    if result.scenario is not None and result.ok:
        from simulator.games.assault.game.summary import summary, summary_lines
        told = {"summary": summary(result.scenario), "summary_lines": summary_lines(result.scenario)}
    return CheckAnswer(file=where, ok=result.ok, errors=len(result.errors), warnings=len(result.warnings),
                       lines=[p.line(where) for p in result.problems], data=used, table=frame, **told)


@click.command("check")
@click.argument("scenario")
@cliopts.data_files(scenario=True)
@cliopts.fmt
@cliopts.out_file()
def check_command(scenario, dice_file, aid_file, units_dir, fmt, out):
    """Check a scenario file and report every problem with its key; exit status 2
    when there are errors (warnings alone exit 0).

    \b
    Examples:
      lanchester assault check my-scenario.scenario.toml
      lanchester assault check crossroads --format json
      lanchester assault check my-scenario.scenario.toml --aid my-aid.toml
    """
    from simulator.run.output import emit, render

    a = check_answer(scenario, cliopts.scenario_data(dice_file, aid_file, units_dir))
    summary = (f"{a.file}: {a.errors} error{'s' if a.errors != 1 else ''}, "
               f"{a.warnings} warning{'s' if a.warnings != 1 else ''}")
    chosen = [f"{k} {d['file']} ({d['from']})" for k, d in a.data.items() if d["from"] != "shipped"]
    data_line = [f"{a.file}: data: " + "; ".join(chosen)] if chosen else []
    table = "\n".join(a.lines + data_line + [summary if a.lines else f"{a.file}: ok"] + a.summary_lines) + "\n"
    emit(render(fmt, table=table, frame=a.frame(), obj=a.to_json()), out)
    if not a.ok:
        raise click.exceptions.Exit(2)
