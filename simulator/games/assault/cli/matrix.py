"""``lanchester assault matrix``: every firer against every target, exactly."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:   # annotations only: the modules load when a command runs
    from simulator.games.assault.questions.answers import MatrixAnswer

from simulator import cliopts
from simulator.run.vocabulary import METRICS, VEHICLE_FACINGS

PLOTS = ("heatmap", "lines")   # --plot: the report's chart
MAX_LINES = 12                 # lines one --plot lines chart may hold


def split(text: str | None) -> list[str] | None:
    return [x.strip() for x in text.split(",") if x.strip()] if text else None


def matrix_table(answer: MatrixAnswer, metric: str) -> str:
    """One block per terrain and range: firers down, targets across, ``-``: cannot fire."""
    import pandas as pd

    from simulator.run.output import pct

    a, frame = answer, answer.frame()
    lines = [f"{metric}: firer (rows) fires at target (columns); exact; vehicle targets hit on the "
             f"{a.facing}; '-': cannot fire",
             f"fire: {a.fire}",
             f"dice: {a.dice}, {a.dice_status}; aid: {a.aid}, {a.aid_status}",
             f"{a.cells:,} cells, {a.computed:,} distinct fire questions computed in {a.seconds:.2f} s"]
    show = (lambda v: "-" if pd.isna(v) else pct(v).strip()) if metric.startswith("p_") else \
        (lambda v: "-" if pd.isna(v) else f"{v:.3f}")
    for (terrain, r), part in frame.groupby(["terrain", "range"], sort=False):
        grid = part.pivot(index="firer", columns="target", values=metric).reindex(
            index=list(dict.fromkeys(part["firer"])), columns=list(dict.fromkeys(part["target"])))
        grid = grid.map(show)   # units by id, side first: both sides field cards of the same name
        lines += ["", f"terrain {terrain}, range {r}", grid.to_string()]
    return "\n".join(lines) + "\n"


def matrix_json(answer: MatrixAnswer, metric: str) -> dict:
    """The JSON of the command: the answer's own rendering."""
    return answer.to_json(metric)


@click.command("matrix")
@click.option("--firers", default=None, metavar="U,...",
              help="Firing units: ids or side names, comma-separated (default: every unit).")
@click.option("--targets", default=None, metavar="U,...",
              help="Target units: ids or side names, comma-separated (default: every unit).")
@click.option("--ranges", "ranges_text", default=None, metavar="1-6",
              help="Ranges in hexes: 1-6, 1,3,5 or 2-4,6 (default: 1 to the longest firer range).")
@click.option("--terrain", "terrain_text", default="clear", show_default=True, metavar="T,...",
              help="Target hex terrains, comma-separated: clear,forest,... (10.9.1).")
@click.option("--metric", type=click.Choice(METRICS), default="p_eliminated", show_default=True,
              help="What the table and the heatmaps show (the CSV has every metric).")
@click.option("--facing", type=click.Choice(VEHICLE_FACINGS), default="front", show_default=True,
              help="Area of impact on vehicle targets (10.9.3).")
@cliopts.data_files()
@click.option("--plot", type=click.Choice(PLOTS), default="heatmap", show_default=True,
              help="The report's chart: heatmap (firers x targets, a panel per range) or lines "
                   f"(--metric by range, a line per firer and target; at most {MAX_LINES} lines).")
@cliopts.fmt
@cliopts.out_with_chart("the --plot chart", "matrix.csv, the --plot chart, summary.json, index.html")
def matrix_command(firers, targets, ranges_text, terrain_text, metric, facing, dice_file, aid_file,
                   units_dir, plot, fmt, out):
    """Matchup matrix: every firer against every target at each range and terrain (exact).

    One row per firer, target, range and terrain with P(eliminated), P(suppressed,
    fallback or eliminated), P(fallback), P(immobilised) and mean damage; pairs that
    cannot fire are marked. Units regular, undamaged and steady; firer firing;
    spotting by the rules. Direct fire only (chapter 10): indirect fire is
    'lanchester assault fire FIRER TARGET --indirect'.

    \b
    Examples:
      lanchester assault matrix --ranges 1-6 --terrain clear,forest --out out/matrix
      lanchester assault matrix --firers german --targets soviet --ranges 3 --metric mean_damage
      lanchester assault matrix --firers german/rifles-41,german/hmg-34 --format csv
      lanchester assault matrix --firers german/rifles-41,german/hmg-34 --targets soviet/rifles-41 \\
          --plot lines --out lines.png
    """
    from reports.bundle import emit_report, wants_bundle
    from simulator.games.assault.questions.matrix import matchup_answer, parse_ranges
    from simulator.games.assault.report.bundles import matrix_report
    from simulator.run.errors import InputError
    from simulator.run.output import atomic_write_bytes, extension

    answer = matchup_answer(split(firers), split(targets), parse_ranges(ranges_text),
                            tuple(split(terrain_text) or ("clear",)), facing=facing, dice=dice_file,
                            aid=aid_file, units_dir=units_dir)
    frame = answer.frame()
    if plot == "lines":
        pairs = frame.loc[frame["can_fire"], ["firer", "target"]].drop_duplicates()
        if len(pairs) > MAX_LINES:
            raise InputError("--plot lines", "", f"{len(pairs)} firer-target pairs can fire, too many lines "
                             f"for one chart (at most {MAX_LINES}): choose units with --firers and --targets")
        if not len(pairs):
            raise InputError("--plot lines", "", "no firer can fire at any target at these ranges: nothing to draw")
    if out is not None and extension(out).lower() in cliopts.OUT_PICTURE_SUFFIXES:
        rep = matrix_report(answer, metric, dice=dice_file, aid=aid_file, units_dir=units_dir, plot=plot)
        if len(rep.charts) != 1:
            raise InputError("--out", str(out), f"a PNG holds one chart; this --plot {plot} draws "
                             f"{len(rep.charts)} (one per terrain): give one --terrain, or --out DIR")
        atomic_write_bytes(out, rep.charts[0].png, option="--out")
        click.echo(f"wrote {out}", err=True)
        return
    if plot != "heatmap" and not wants_bundle(out):
        raise click.UsageError("--plot draws a chart: give --out DIR (a report) or --out FILE.png")
    emit_report(fmt, out, table=matrix_table(answer, metric), frame=frame, obj=matrix_json(answer, metric),
                report=lambda: matrix_report(answer, metric, dice=dice_file, aid=aid_file, units_dir=units_dir,
                                             plot=plot))

