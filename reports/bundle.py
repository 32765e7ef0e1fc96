"""Report bundles: one folder a designer can open without the tool.

``write_bundle(DIR, report)`` writes::

    DIR/index.html      the question, the provenance, the charts and the tables
    DIR/summary.json    the same provenance, the highlights, the command's JSON answer,
                        and the list of tables and charts (what ``lanchester report`` reads)
    DIR/<table>.csv     tidy tables (columns: docs/report-columns.md), + .parquet for big ones
    DIR/<chart>.png     the charts

The folder is built as ``DIR.tmp-PID-xxxx`` beside DIR, every file written with
:func:`simulator.run.output.atomic_write_bytes`, then renamed to DIR: DIR is complete or
absent. An existing DIR is replaced only if it is empty or a lanchester report.

Commands call :func:`emit_report`: without ``--out`` (or with ``--out FILE.json``
etc.) it prints or writes the ``--format`` text exactly as before; with ``--out DIR``
it writes the bundle.
"""

from __future__ import annotations

import io
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Literal

from simulator.run.errors import InputError, os_input_error
from simulator.run.output import (
    atomic_write_bytes,
    atomic_write_text,
    csv_text,
    echo,
    emit,
    make_parents,
    out_kind,
    remove_stale,
    render,
    temp_dir_name,
    to_csv,
    to_json,
    unmake,
)

REPORT_MARK = "lanchester_report"   # key of summary.json that marks a report folder
REPORT_VERSION = 1

if TYPE_CHECKING:   # a text answer needs no pandas: it loads with the first table written
    import pandas as pd

PARQUET_MIN_ROWS = 1000   # tables this long also get a Parquet file


@dataclass
class Table:
    """One tidy table of a report: ``name``.csv (and .parquet)."""

    name: str
    frame: pd.DataFrame
    title: str
    description: str = ""
    parquet: bool | None = None   # None: when the table has PARQUET_MIN_ROWS rows or more
    chart: str | None = None      # the chart that draws it: the page shows that, not a long table


@dataclass
class Report:
    """What a bundle holds. ``charts`` are :class:`reports.charts.Chart` objects."""

    kind: str
    question: str
    provenance: Any                     # reports.provenance.Provenance
    tables: list[Table]
    charts: list = field(default_factory=list)
    highlights: list[tuple[str, str]] = field(default_factory=list)   # (label, value)
    result: Any = None                  # the command's JSON answer (summary.json "result")
    notes: list[str] = field(default_factory=list)


# --- the one call a command makes ---------------------------------------------------

def wants_bundle(out: str | Path | None) -> bool:
    """``--out DIR`` writes a bundle: a name without a file extension, or a folder that
    exists (:func:`simulator.run.output.out_kind`); no ``--out``, ``-``, or a file name
    (``x.json``, an existing file) prints or writes the ``--format`` text."""
    return out_kind(out) == "folder"


def emit_report(fmt: str, out: str | Path | None, *, table: str,
                frame: pd.DataFrame | Callable[[], pd.DataFrame], obj: dict,
                report: Report | Callable[[], Report] | None = None) -> Path | None:
    """Print/write the ``--format`` answer, or with ``--out DIR`` write the report bundle.

    ``report`` is built only when a bundle is wanted (pass a lambda); without it the
    bundle holds ``frame`` as ``data.csv`` and no charts, computed as ``obj`` (the JSON
    answer) says (its ``method``, ``seed``, ``trials``; exact when it names none). ``frame`` may be a function
    too: it is then built only for ``--format csv`` or a bundle (a text answer starts
    without pandas).
    """
    if not wants_bundle(out):
        if fmt == "csv" and callable(frame):
            frame = frame()
        emit(render(fmt, table=table, frame=frame, obj=obj), out)
        return None
    rep = report() if callable(report) else report
    if rep is None:
        frame = frame() if callable(frame) else frame
        from reports.provenance import method_of, provenance
        method, seed, trials = method_of([obj])
        rep = Report("result", "The command's answer as a table", provenance([], [], method=method, seed=seed,
                                                                               trials=trials),
                     [Table("data", frame, "The answer", "The command's --format csv table.")])
    if rep.result is None:
        rep.result = obj
    assert out is not None          # wants_bundle: --out named a folder
    path = write_bundle(out, rep)
    echo(f"report written to {path / 'index.html'}", err=True)
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
        atomic_write_text(folder / f"{t.name}.csv", csv, option=None)
        parquet = t.parquet if t.parquet is not None else len(t.frame) >= PARQUET_MIN_ROWS
        if parquet:
            buf = io.BytesIO()
            t.frame.to_parquet(buf, index=False)
            atomic_write_bytes(folder / f"{t.name}.parquet", buf.getvalue(), option=None)
        frames[t.name] = read_csv_text(csv)   # the page shows what the CSV holds
        table_entries.append({"name": t.name, "file": f"{t.name}.csv",
                              "parquet": f"{t.name}.parquet" if parquet else None, "title": t.title,
                              "description": t.description, "columns": list(t.frame.columns),
                              "rows": len(t.frame), "chart": f"{t.chart}.png" if t.chart else None})
    chart_entries = []
    for c in report.charts:
        atomic_write_bytes(folder / f"{c.name}.png", c.png, option=None)
        chart_entries.append({"file": f"{c.name}.png", "title": c.title, "alt": c.alt,
                              "width": c.width, "height": c.height})
    summary = {REPORT_MARK: REPORT_VERSION, "kind": report.kind, "question": report.question,
               "highlights": [list(h) for h in report.highlights], "notes": list(report.notes),
               "provenance": report.provenance.to_dict(), "charts": chart_entries,
               "tables": table_entries, "result": report.result}
    atomic_write_text(folder / "summary.json", to_json(summary), option=None)
    from reports.html import render_page
    atomic_write_text(folder / "index.html", render_page(summary, frames), option=None)
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
                     reports: Iterable[tuple[str, Report | Callable[[Path], Report]]],
                     lead: str | None = None) -> Path:
    """A folder of bundles (one per question) and an ``index.html`` linking them.

    A report may be given as a function of its (already created) subfolder, for a
    report that streams data files there before its tables and charts are added.
    ``lead`` names the report the index lists first, whenever it was made."""
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
        entries.sort(key=lambda e: e["dir"] != lead)          # stable: the others keep their order
        summary = {REPORT_MARK: REPORT_VERSION, "kind": "collection", "title": title, "intro": intro,
                   "reports": entries, "provenance": _collection_provenance(tmp, entries)}
        atomic_write_text(tmp / "summary.json", to_json(summary), option=None)
        from reports.html import render_collection
        atomic_write_text(tmp / "index.html", render_collection(summary), option=None)
    return out


def _collection_provenance(folder: Path, entries: list[dict]) -> dict:
    """The collection's provenance: the first report's, with the method of all of them."""
    if not entries:
        return {}
    first = json.loads((folder / entries[0]["dir"] / "summary.json").read_text())["provenance"]
    return {k: first[k] for k in ("version", "command")}


def read_csv_text(text: str) -> pd.DataFrame:
    """A bundle CSV read back the way ``lanchester report`` reads it."""
    import pandas as pd
    try:
        frame = pd.read_csv(io.StringIO(text), keep_default_na=False, na_values=[""])
    except pd.errors.EmptyDataError:
        return pd.DataFrame()
    for c in frame.columns:                 # the ' before a text that looks like a formula (to_csv)
        if not pd.api.types.is_numeric_dtype(frame[c]):
            frame[c] = frame[c].map(csv_text)
    return frame.rename(columns=lambda c: csv_text(c) if isinstance(c, str) else c)


def is_report(folder: Path) -> bool:
    from simulator.run.datafile import read_regular
    try:
        summary = json.loads(read_regular(folder / "summary.json", MAX_REPORT_FILE_BYTES, "a report file"))
    except (InputError, ValueError, RecursionError):
        return False
    return isinstance(summary, dict) and REPORT_MARK in summary


class staging:
    """``with staging(DIR) as tmp``: build in ``DIR.tmp-PID-xxxx``, then rename to DIR.

    A refusal of the file system (no space, the file-size limit, permission, a file
    where a folder should be) is the one-line error naming ``--out`` and DIR, with the
    staging folder and any folder created for it removed. Temporaries a killed run
    left for DIR are removed first (:func:`simulator.run.output.remove_stale`)."""

    def __init__(self, out: Path, option: str = "--out"):
        self.shown = str(out)
        self.option = option
        self.out = Path(out).resolve()   # "." and "dir/" have a name once resolved

    def __enter__(self) -> Path:
        out = self.out
        if out.exists() and not out.is_dir():
            raise InputError(self.option, self.shown, "exists and is not a folder")
        if out.is_dir() and any(out.iterdir()) and not is_report(out):
            raise InputError(self.option, self.shown, "is a folder that is not a lanchester report: "
                             "give a new or empty folder")
        remove_stale(out)
        self.created = make_parents(out, self.option, self.shown)
        self.tmp = out.with_name(temp_dir_name(out.name, "tmp"))
        try:
            self.tmp.mkdir()
        except OSError as exc:
            unmake(self.created)
            raise os_input_error(exc, self.option, self.shown, "cannot write") from None
        return self.tmp

    def __exit__(self, exc_type, exc, tb) -> Literal[False]:
        if exc_type is None:
            try:
                self._publish()
                return False
            except OSError as err:
                exc_type, exc = type(err), err
        shutil.rmtree(self.tmp, ignore_errors=True)
        unmake(self.created)
        if issubclass(exc_type, OSError):
            raise os_input_error(exc, self.option, self.shown, "cannot write") from None
        return False

    def _publish(self) -> None:
        old = None
        if self.out.exists():
            old = self.out.with_name(temp_dir_name(self.out.name, "old"))
            os.rename(self.out, old)
        os.rename(self.tmp, self.out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


# --- reading a report back (lanchester report DIR) -----------------------------------
#
# summary.json is checked against the shape fill() writes before anything is rendered:
# a damaged summary is the one-line error naming the file and the key. Every file it
# names is a plain name inside the report's own folder (no "..", no "/", no absolute
# path, no symbolic link leading out): a report reads and writes only inside itself.

MAX_REPORT_FILE_BYTES = 1024 * 1024 * 1024   # summary.json or a table CSV read back: 1 GiB


def _plain_name(value: str) -> str:
    if not value or value in (".", "..") or "/" in value or "\\" in value or "\0" in value:
        raise ValueError("must be a file name inside the report's folder (no '..', '/' or absolute path)")
    return value


def _summary_models():
    from typing import Annotated, Optional
    from typing import Any as Any_

    import pydantic

    Name = Annotated[str, pydantic.AfterValidator(_plain_name)]
    Pair = Annotated[list[str], pydantic.Field(min_length=2, max_length=2)]
    strict = pydantic.ConfigDict(extra="ignore", strict=True)

    class Source(pydantic.BaseModel):
        model_config = strict
        kind: str
        name: str
        status: str

    class Prov(pydantic.BaseModel):
        model_config = strict
        sources: list[Source]
        data_digest: str
        data_files: list[str]
        method: str
        seed: Optional[Any_] = None
        trials: Optional[int] = None
        unit: str = "trials"
        version: str
        command: str

    class Chart(pydantic.BaseModel):
        model_config = strict
        file: Name
        title: str
        alt: str
        width: int
        height: int

    class TableEntry(pydantic.BaseModel):
        model_config = strict
        name: str
        file: Name
        parquet: Optional[Name] = None
        title: str
        description: str
        columns: list[str]
        rows: int
        chart: Optional[Name] = None

    class Page(pydantic.BaseModel):
        model_config = strict
        kind: str
        question: str
        highlights: list[Pair]
        notes: list[str] = []
        provenance: Prov
        charts: list[Chart]
        tables: list[TableEntry]

    class Entry(pydantic.BaseModel):
        model_config = strict
        dir: Name
        kind: str
        question: str
        highlights: list[Pair]
        charts: list[Chart]
        method: str

    class CollectionProv(pydantic.BaseModel):
        model_config = strict
        version: str
        command: str

    class Collection(pydantic.BaseModel):
        model_config = strict
        title: str
        intro: str
        reports: list[Entry]
        provenance: Optional[CollectionProv] = None

        @pydantic.field_validator("provenance", mode="before")
        @classmethod
        def _empty(cls, v):
            return None if v == {} else v

    return Page, Collection


def _inside(folder: Path, name: str, where: str, key: str) -> Path:
    """``folder/name``, refused when it resolves (through a symbolic link) outside ``folder``."""
    path = folder / name
    root = folder.resolve()
    real = path.resolve()
    if real == root or root not in real.parents:
        raise InputError(where, key, "leads outside the report's folder (a symbolic link?)")
    return path


def read_summary(folder: Path) -> tuple[Path, dict]:
    """A report folder's summary.json, checked (see above)."""
    from simulator.run.datafile import read_regular, validate
    summary_file = folder / "summary.json"
    if not summary_file.exists():
        raise InputError(str(folder), "", "not a lanchester report (no summary.json)")
    where = str(summary_file)
    data = read_regular(summary_file, MAX_REPORT_FILE_BYTES, "a report file")
    try:
        summary = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(where, "", f"not UTF-8 text (bad byte at offset {exc.start})") from None
    except ValueError as exc:
        raise InputError(where, "", f"not valid JSON ({exc})") from None
    except RecursionError:
        raise InputError(where, "", "nested too deeply") from None
    if not isinstance(summary, dict) or REPORT_MARK not in summary:
        raise InputError(where, "", "not a lanchester report summary")
    Page, Collection = _summary_models()
    model = Collection if summary.get("kind") == "collection" else Page
    validate(model, summary, where)
    return summary_file, summary


def rebuild(folder: str | Path, *, inner: bool = False) -> Path:
    """Re-render ``index.html`` of a report (or a collection) from its summary.json and CSVs.

    Reads and writes only inside ``folder``; a collection's reports are its direct
    subfolders (a report inside a collection is not itself a collection)."""
    from simulator.run.datafile import read_regular
    folder = Path(folder)
    summary_file, summary = read_summary(folder)
    where = str(summary_file)
    if summary.get("kind") == "collection":
        if inner:
            raise InputError(where, "kind", "a collection inside a collection")
        from reports.html import render_collection
        for i, entry in enumerate(summary["reports"]):
            sub = _inside(folder, entry["dir"], where, f"reports[{i}].dir")
            if not sub.is_dir():
                raise InputError(where, f"reports[{i}].dir", "report listed in summary.json is missing")
            rebuild(sub, inner=True)
        _write_index(folder, render_collection(summary))
        return folder
    frames = {}
    for i, t in enumerate(summary["tables"]):
        path = _inside(folder, t["file"], where, f"tables[{i}].file")
        if not path.exists():
            raise InputError(str(path), "", "table listed in summary.json is missing")
        text = read_regular(path, MAX_REPORT_FILE_BYTES, "a report table")
        try:
            frames[t["name"]] = read_csv_text(text.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise InputError(str(path), "", f"not a readable CSV table ({' '.join(str(exc).split())[:80]})") from None
    for i, c in enumerate(summary["charts"]):
        path = _inside(folder, c["file"], where, f"charts[{i}].file")
        if not path.is_file():
            raise InputError(str(path), "", "chart listed in summary.json is missing")
    from reports.html import render_page
    _write_index(folder, render_page(summary, frames))
    return folder


def _write_index(folder: Path, html: str) -> None:
    atomic_write_text(folder / "index.html", html, option="report")
