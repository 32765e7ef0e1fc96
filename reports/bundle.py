"""Report bundles: one folder a designer can open without the tool.

``write_bundle(DIR, report)`` writes::

    DIR/index.html      the question, the provenance, the charts and the tables
    DIR/summary.json    the same provenance, the highlights, the command's JSON answer,
                        and the list of tables and charts (what ``lanchester report`` reads)
    DIR/<table>.csv     tidy tables (columns: docs/report-columns.md), + .parquet for big ones
    DIR/<chart>.png     the charts

The folder is built as ``DIR.tmp-xxxx`` beside DIR, every file written with
:func:`simulator.output.atomic_write_bytes`, then renamed to DIR: DIR is complete or
absent. An existing DIR is replaced only if it is empty or a lanchester report.

Commands call :func:`emit_report`: without ``--out`` (or with ``--out FILE.json``
etc.) it prints or writes the ``--format`` text exactly as before; with ``--out DIR``
it writes the bundle.
"""

from __future__ import annotations

import io
import json
import os
import secrets
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import click
import pandas as pd

from simulator.errors import InputError
from simulator.output import atomic_write_bytes, atomic_write_text, emit, render, to_csv, to_json

REPORT_MARK = "lanchester_report"   # key of summary.json that marks a report folder
REPORT_VERSION = 1
FILE_SUFFIXES = (".json", ".csv", ".txt", ".tsv", ".md")   # --out NAME.json: one file, as before
PARQUET_MIN_ROWS = 1000   # tables this long also get a Parquet file


@dataclass
class Table:
    """One tidy table of a report: ``name``.csv (and .parquet)."""

    name: str
    frame: pd.DataFrame
    title: str
    description: str = ""
    parquet: bool | None = None   # None: when the table has PARQUET_MIN_ROWS rows or more


@dataclass
class Report:
    """What a bundle holds. ``charts`` are :class:`reports.charts.Chart` objects."""

    kind: str
    question: str
    provenance: Any                     # reports.provenance.Provenance
    tables: list[Table]
    charts: list = field(default_factory=list)
    highlights: list[tuple[str, str]] = field(default_factory=list)
    result: Any = None                  # the command's JSON answer (summary.json "result")
    notes: list[str] = field(default_factory=list)


# --- the one call a command makes ---------------------------------------------------

def wants_bundle(out: str | Path | None) -> bool:
    """``--out DIR`` writes a bundle; no ``--out``, ``-``, or a file name (``x.json``, an
    existing file) keeps the old meaning: the ``--format`` text, printed or written."""
    if out is None or str(out) == "-":
        return False
    p = Path(out)
    return not (p.suffix.lower() in FILE_SUFFIXES or p.is_file())


def emit_report(fmt: str, out: str | Path | None, *, table: str, frame: pd.DataFrame, obj: dict,
                report: Report | Callable[[], Report] | None = None) -> Path | None:
    """Print/write the ``--format`` answer, or with ``--out DIR`` write the report bundle.

    ``report`` is built only when a bundle is wanted (pass a lambda); without it the
    bundle holds ``frame`` as ``data.csv`` and no charts.
    """
    if not wants_bundle(out):
        emit(render(fmt, table=table, frame=frame, obj=obj), out)
        return None
    rep = report() if callable(report) else report
    if rep is None:
        from reports.provenance import method_of, provenance
        method, seed, trials = method_of([frame.attrs])
        rep = Report("result", "The command's answer as a table", provenance([], [], method=method, seed=seed,
                                                                               trials=trials),
                     [Table("data", frame, "The answer", "The command's --format csv table.")])
    if rep.result is None:
        rep.result = obj
    path = write_bundle(out, rep)
    click.echo(f"report written to {path / 'index.html'}", err=True)
    return path


# --- writing -------------------------------------------------------------------------

def write_bundle(out_dir: str | Path, report: Report) -> Path:
    """Write ``report`` as the folder ``out_dir`` (complete or absent); returns its path."""
    out = Path(out_dir)
    with staging(out) as tmp:
        fill(tmp, report)
    return out


def fill(folder: Path, report: Report) -> dict:
    """Write every file of a bundle into ``folder``; returns the summary written."""
    table_entries, frames = [], {}
    for t in report.tables:
        csv = to_csv(t.frame)
        atomic_write_text(folder / f"{t.name}.csv", csv)
        parquet = t.parquet if t.parquet is not None else len(t.frame) >= PARQUET_MIN_ROWS
        if parquet:
            buf = io.BytesIO()
            t.frame.to_parquet(buf, index=False)
            atomic_write_bytes(folder / f"{t.name}.parquet", buf.getvalue())
        frames[t.name] = read_csv_text(csv)   # the page shows what the CSV holds
        table_entries.append({"name": t.name, "file": f"{t.name}.csv",
                              "parquet": f"{t.name}.parquet" if parquet else None, "title": t.title,
                              "description": t.description, "columns": list(t.frame.columns),
                              "rows": len(t.frame)})
    chart_entries = []
    for c in report.charts:
        atomic_write_bytes(folder / f"{c.name}.png", c.png)
        chart_entries.append({"file": f"{c.name}.png", "title": c.title, "alt": c.alt,
                              "width": c.width, "height": c.height})
    summary = {REPORT_MARK: REPORT_VERSION, "kind": report.kind, "question": report.question,
               "highlights": [list(h) for h in report.highlights], "notes": list(report.notes),
               "provenance": report.provenance.to_dict(), "charts": chart_entries,
               "tables": table_entries, "result": report.result}
    atomic_write_text(folder / "summary.json", to_json(summary))
    from reports.html import render_page
    atomic_write_text(folder / "index.html", render_page(summary, frames))
    readable(folder)
    return summary


def readable(folder: Path) -> None:
    """Give the bundle's files the usual permissions (the atomic writes' temporary files
    are private, 0600): a report is meant to be shared."""
    mask = os.umask(0)
    os.umask(mask)
    for f in folder.iterdir():
        if f.is_file():
            os.chmod(f, 0o666 & ~mask)


def write_collection(out_dir: str | Path, *, title: str, intro: str,
                     reports: Iterable[tuple[str, Report | Callable[[Path], Report]]]) -> Path:
    """A folder of bundles (one per question) and an ``index.html`` linking them.

    A report may be given as a function of its (already created) subfolder, for a
    report that streams data files there before its tables and charts are added."""
    out = Path(out_dir)
    with staging(out) as tmp:
        entries = []
        for name, report in reports:
            sub = tmp / name
            sub.mkdir()
            s = fill(sub, report(sub) if callable(report) else report)
            entries.append({"dir": name, "kind": s["kind"], "question": s["question"],
                            "highlights": s["highlights"], "charts": s["charts"][:1],
                            "method": s["provenance"]["method"]})
        summary = {REPORT_MARK: REPORT_VERSION, "kind": "collection", "title": title, "intro": intro,
                   "reports": entries, "provenance": _collection_provenance(tmp, entries)}
        atomic_write_text(tmp / "summary.json", to_json(summary))
        from reports.html import render_collection
        atomic_write_text(tmp / "index.html", render_collection(summary))
    return out


def _collection_provenance(folder: Path, entries: list[dict]) -> dict:
    """The collection's provenance: the first report's, with the method of all of them."""
    if not entries:
        return {}
    first = json.loads((folder / entries[0]["dir"] / "summary.json").read_text())["provenance"]
    return {k: first[k] for k in ("version", "command")}


def read_csv_text(text: str) -> pd.DataFrame:
    """A bundle CSV read back the way ``lanchester report`` reads it."""
    try:
        return pd.read_csv(io.StringIO(text), keep_default_na=False, na_values=[""])
    except pd.errors.EmptyDataError:
        return pd.DataFrame()


def is_report(folder: Path) -> bool:
    try:
        return REPORT_MARK in json.loads((folder / "summary.json").read_text())
    except (OSError, ValueError):
        return False


class staging:
    """``with staging(DIR) as tmp``: build in ``DIR.tmp-xxxx``, then rename to DIR."""

    def __init__(self, out: Path):
        self.out = Path(out).resolve()   # "." and "dir/" have a name once resolved

    def __enter__(self) -> Path:
        out = self.out
        if out.exists() and not out.is_dir():
            raise InputError("--out", "", f"{out} exists and is not a folder")
        if out.is_dir() and any(out.iterdir()) and not is_report(out):
            raise InputError("--out", "", f"{out} is a folder that is not a lanchester report: "
                             "give a new or empty folder")
        out.parent.mkdir(parents=True, exist_ok=True)
        self.tmp = out.with_name(f"{out.name}.tmp-{secrets.token_hex(4)}")
        self.tmp.mkdir()
        return self.tmp

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)
            return
        old = None
        if self.out.exists():
            old = self.out.with_name(f"{self.out.name}.old-{secrets.token_hex(4)}")
            os.rename(self.out, old)
        os.rename(self.tmp, self.out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def rebuild(folder: str | Path) -> Path:
    """Re-render ``index.html`` of a report (or a collection) from its summary.json and CSVs."""
    folder = Path(folder)
    summary_file = folder / "summary.json"
    if not summary_file.is_file():
        raise InputError(str(folder), "", "not a lanchester report (no summary.json)")
    try:
        summary = json.loads(summary_file.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise InputError(str(summary_file), "", f"not valid JSON ({exc})") from None
    if REPORT_MARK not in summary:
        raise InputError(str(summary_file), "", "not a lanchester report summary")
    if summary.get("kind") == "collection":
        from reports.html import render_collection
        for entry in summary["reports"]:
            rebuild(folder / entry["dir"])
        atomic_write_text(folder / "index.html", render_collection(summary))
        return folder
    frames = {}
    for t in summary["tables"]:
        path = folder / t["file"]
        if not path.is_file():
            raise InputError(str(path), "", "table listed in summary.json is missing")
        frames[t["name"]] = read_csv_text(path.read_text(encoding="utf-8"))
    for c in summary["charts"]:
        if not (folder / c["file"]).is_file():
            raise InputError(str(folder / c["file"]), "", "chart listed in summary.json is missing")
    from reports.html import render_page
    atomic_write_text(folder / "index.html", render_page(summary, frames))
    return folder
