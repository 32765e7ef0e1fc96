"""``lanchester toi check | map | los``: Tide of Iron scenario files and their maps, as
Assault's (:mod:`simulator.games.assault.cli.map`).

The library calls: :func:`simulator.games.toi.game.check.check_toi_scenario`,
:func:`simulator.games.toi.game.board.draw_toi_map`, :func:`simulator.games.toi.game.board.los_answer`.
"""

from __future__ import annotations

from pathlib import Path

import click

from simulator import cliopts


def _show(path: str | Path) -> str:
    from simulator.run.datafile import REPO_ROOT

    try:
        return str(Path(path).resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def _load(name: str):
    """The scenario (the loader's first problem is the one-line error, exit 2)."""
    from simulator.games.toi.game.scenario import load_scenario
    from simulator.run.notice import waiting

    with waiting(f"loading {name} (its line-of-sight table)"):
        return load_scenario(name)


# --- check ------------------------------------------------------------------------------

def check_json(result) -> dict:
    where = _show(result.where)
    return {"file": where, "ok": result.ok, "errors": len(result.errors), "warnings": len(result.warnings),
            "problems": [{"severity": p.severity, "key": p.key, "message": p.message} for p in result.problems],
            "summary": None if result.scenario is None else _summary(result.scenario)}


def _summary(sc) -> str:
    from simulator.games.toi.game.check import summary_line
    return summary_line(sc)


def check_text(result) -> str:
    where = _show(result.where)
    lines = [p.line(where) for p in result.problems]
    if result.ok:
        lines.append(f"{where}: ok: {_summary(result.scenario)}")
    return "\n".join(lines) + "\n"


@click.command("check")
@click.argument("scenario")
@cliopts.fmt
@cliopts.out_file()
def check_command(scenario, fmt, out):
    """Check a Tide of Iron scenario file (or a shipped scenario) and report its problems,
    each with its key; "ok" and a one-line summary when it loads. Exit status 2 when
    there are errors (warnings alone exit 0).

    \b
    Examples:
      lanchester toi check two-farms
      lanchester toi check my-map.scenario.toml
      lanchester toi check ridge-line --format json
    """
    import pandas as pd

    from simulator.games.toi.game.check import check_toi_scenario
    from simulator.run.notice import waiting
    from simulator.run.output import emit, render

    with waiting(f"checking {scenario}"):
        result = check_toi_scenario(scenario)
    obj = check_json(result)
    frame = pd.DataFrame(obj["problems"], columns=["severity", "key", "message"])
    emit(render(fmt, table=check_text(result), frame=frame, obj=obj), out)
    if not result.ok:
        raise click.exceptions.Exit(2)


# --- map --------------------------------------------------------------------------------

@click.command("map")
@click.argument("scenario")
@click.option("--los-from", "los_from", default=None, metavar="HEX",
              help="Shade every hex a unit in HEX does not see (001 Line of sight).")
@cliopts.out_file("the picture", cliopts.OUT_PICTURE_SUFFIXES,
                  default="SCENARIO-map.png, or SCENARIO-los-C-R.png with --los-from, in the current folder")
def map_command(scenario, los_from, out):
    """Draw a Tide of Iron scenario map as a PNG: terrain, roads, hills with their level,
    fortification and obstacle markers, objectives (command/victory points), each
    side's deployment zones and what it sets up there, hex names.

    \b
    Examples:
      lanchester toi map two-farms
      lanchester toi map ridge-line --los-from 1,4 --out ridge-los.png
      lanchester toi map my-map.scenario.toml --out map.png
    """
    from simulator.games.toi.game.board import draw_toi_map
    from simulator.run.output import atomic_write_bytes

    sc = _load(scenario)
    png = draw_toi_map(sc, los_from=los_from)
    if out is None:
        stem = Path(sc.path).name.removesuffix(".toml").removesuffix(".scenario")
        suffix = "map" if los_from is None else "los-" + los_from.replace(",", "-").replace(" ", "")
        out = f"{stem}-{suffix}.png"
    atomic_write_bytes(out, png, option="--out")
    click.echo(f"wrote {out}", err=True)


# --- los --------------------------------------------------------------------------------

@click.command("los")
@click.argument("scenario")
@click.argument("firer", metavar="FROM")
@click.argument("target", metavar="TO")
@cliopts.fmt
@cliopts.out_file()
def los_command(scenario, firer, target, fmt, out):
    """Whether a unit in hex FROM sees hex TO on a Tide of Iron map, and what blocks it
    (001 Line of sight; the project's reading: docs/rulings.md T23). The game's own
    line-of-sight table; hexes are "col,row".

    \b
    Examples:
      lanchester toi los two-farms 0,6 5,1
      lanchester toi los ridge-line 1,4 8,4 --format json
    """
    import pandas as pd

    from simulator.games.toi.game.board import los_answer, los_text
    from simulator.run.output import emit, render

    answer = los_answer(_load(scenario), firer, target)
    answer["file"] = _show(answer["file"])
    frame = pd.DataFrame([{"from": answer["from"], "to": answer["to"], "los": answer["los"],
                           "range": answer["range"], "blocking": " ".join(answer["blocking"]) or "-",
                           "crossed": " ".join(answer["crossed"]) or "-"}])
    emit(render(fmt, table=los_text(answer), frame=frame, obj=answer), out)
