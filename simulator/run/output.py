"""Writing results: the three formats and atomic files.

Every command renders its answer as ``table`` (for people), ``csv`` (a tidy table)
or ``json`` (one object), then prints it or writes it to ``--out``. Files are
written to a temporary name beside the target and renamed, so a crash or Ctrl-C
never leaves a half-written file.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from simulator.run.errors import InputError, os_input_error
from simulator.run.vocabulary import FORMATS  # noqa: F401 - re-exported

if TYPE_CHECKING:   # pandas loads with the commands that build tables, not with this module
    import pandas as pd


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _read_umask()    # read once, at import: os.umask can only be read by setting it


# --- temporaries: named after their output and the process that made them ----------
#
# A write goes to a temporary beside its output, then is renamed over it. A killed
# process (kill -9, a power cut) leaves its temporary behind; the next run writing the
# same output removes the ones whose process is gone (remove_stale). The names:
#   .NAME.PID-xxxxxxxx.tmp        a file being written (atomic_write_bytes)
#   NAME.tmp-PID-xxxxxxxx         a report folder being built (reports.bundle.staging)
#   NAME.old-PID-xxxxxxxx         the report folder being replaced

def temp_file(directory: str | Path, name: str) -> str:
    """Create an empty private temporary for the output ``directory/name``; its path."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.{os.getpid()}-", suffix=".tmp", dir=directory)
    os.close(fd)
    return tmp


def temp_dir_name(name: str, kind: str) -> str:
    """``NAME.tmp-PID-xxxxxxxx`` (``kind`` "tmp") or ``NAME.old-PID-xxxxxxxx``."""
    import secrets
    return f"{name}.{kind}-{os.getpid()}-{secrets.token_hex(4)}"


def _stale_patterns(name: str) -> list[re.Pattern]:
    n = re.escape(name)
    return [re.compile(rf"\.{n}\.(\d+)-[a-z0-9_]{{8}}\.tmp"), re.compile(rf"{n}\.(?:tmp|old)-(\d+)-[0-9a-f]{{8}}")]


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid < 2 ** 31    # someone else's process: not ours to judge
    return True


def remove_stale(path: str | Path) -> list[str]:
    """Remove the temporaries a killed run left for the output ``path`` (only those
    named after it, only when the process in their name is gone) and say so on stderr."""
    import shutil
    path = Path(path)
    patterns = _stale_patterns(path.name)
    try:
        entries = list(os.scandir(path.parent if str(path.parent) else "."))
    except OSError:
        return []
    removed = []
    for e in entries:
        m = next((m for p in patterns if (m := p.fullmatch(e.name))), None)
        if m is None or _alive(int(m.group(1))):
            continue
        try:
            if e.is_dir(follow_symlinks=False):
                shutil.rmtree(e.path)
            else:
                os.unlink(e.path)
        except OSError:
            continue
        removed.append(e.name)
    if removed:
        echo(f"lanchester: removed {len(removed)} stale temporar{'y' if len(removed) == 1 else 'ies'} "
                   f"of {path} left by a killed run: {', '.join(sorted(removed))}", err=True)
    return removed


# --- what --out NAME writes -----------------------------------------------------------

def extension(name: str | Path) -> str:
    """The file extension of an ``--out`` name (``.xyz``), or '' when it has none; a
    suffix that is not letters and digits (``run-1.5``, ``2024.01``) is no extension."""
    suffix = Path(name).suffix
    return suffix if re.fullmatch(r"\.[A-Za-z][A-Za-z0-9]{0,7}", suffix) else ""


def out_kind(name: str | Path | None) -> str | None:
    """What ``--out NAME`` writes (its one meaning is in :mod:`simulator.cliopts`):
    ``None`` for no name or ``-`` (print), ``"file"`` for a name with a file extension,
    ``"folder"`` (a report folder) for a name without one. A name that exists keeps what
    it is (a folder ``old.v1`` is a folder, a file ``notes`` a file), unless it ends in
    an extension lanchester writes (``.json``, ``.csv``, ``.txt``, ``.tsv``, ``.md``,
    ``.png``): that is always a file."""
    from simulator.run.vocabulary import OUT_FILE_SUFFIXES, OUT_PICTURE_SUFFIXES

    if name is None or str(name) == "-":
        return None
    path, ext = Path(name), extension(name).lower()
    if ext in OUT_FILE_SUFFIXES + OUT_PICTURE_SUFFIXES:
        return "file"
    if path.is_dir():
        return "folder"
    if path.exists():
        return "file"
    return "file" if ext else "folder"


# --- writing, and the file system saying no ------------------------------------------

def make_parents(path: Path, option: str, shown: str) -> list[Path]:
    """Create the missing folders above ``path``; returns them (for :func:`unmake`).
    A file where a folder should be is the one-line error naming it."""
    missing = []
    p = path.parent
    while not p.exists():
        if p.is_symlink():
            break
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    if p.exists() and not p.is_dir():
        raise InputError(option, shown, f"cannot write ({p} is a file, not a folder)")
    created = []
    try:
        for d in reversed(missing):
            d.mkdir()
            created.append(d)
    except OSError as exc:
        unmake(created)
        raise os_input_error(exc, option, shown, "cannot write") from None
    return created


def unmake(created: list[Path]) -> None:
    """Remove the folders :func:`make_parents` created (after a failed write)."""
    for d in reversed(created):
        try:
            d.rmdir()
        except OSError:
            pass


def atomic_write_bytes(path: str | Path, data: bytes, option: str | None = None) -> None:
    """Write ``data`` to ``path`` through a temporary beside it. A refusal of the file
    system is the one-line error naming ``option`` (``--out``) and the path, with
    nothing left behind. Without ``option`` (a file inside a staging folder, a
    checkpoint chunk) the OSError goes through, naming ``path``, for the caller or the
    CLI root (:func:`simulator.run.errors.os_input_error`) to report."""
    shown = str(path)
    path = Path(path)
    if option is None:
        _write(path, data)
        return
    if path.exists() and not path.is_file():
        what = "a folder" if path.is_dir() else "not a regular file"
        raise InputError(option, shown, f"cannot write ({what}; '-' writes to standard output)")
    remove_stale(path)
    created = make_parents(path, option, shown)
    try:
        _write(path, data)
    except OSError as exc:
        unmake(created)
        raise os_input_error(exc, option, shown, "cannot write") from None


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_file(path.parent, path.name)
    try:
        fd = os.open(tmp, os.O_WRONLY)
        os.fchmod(fd, 0o666 & ~_UMASK)     # mkstemp makes it private (0600); outputs are for sharing
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError) and exc.filename != str(path):
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None   # not the temporary's name
        raise


def atomic_write_text(path: str | Path, text: str, option: str | None = None) -> None:
    atomic_write_bytes(path, text.encode("utf-8"), option)


def _json_default(obj: Any) -> Any:
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def _clean(obj: Any) -> Any:
    """Replace NaN/inf (not valid JSON) with null."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj


def to_json(obj: Any) -> str:
    return json.dumps(_clean(json.loads(json.dumps(obj, default=_json_default))), indent=2) + "\n"


def to_csv(df: pd.DataFrame) -> str:
    return csv_safe(df).to_csv(index=False, float_format="%.10g", lineterminator="\n")


# A spreadsheet runs a cell that starts with one of these as a formula (CSV injection,
# OWASP): a text cell that does is written with a ' before it (issue 44.6); so is a text
# cell that starts with ' and then one of these, so that reading back is exact.
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A CSV cell that no spreadsheet runs: a string starting with = + - @ tab or CR
    gets a leading ' (numbers, -3 included, stay numbers)."""
    if isinstance(value, str) and (value.startswith(_FORMULA) or (value[:1] == "'" and value[1:2] in _FORMULA
                                                                  and value[1:2] != "")):
        return "'" + value
    return value


def csv_text(value: Any) -> Any:
    """:func:`csv_cell` undone (a CSV read back)."""
    if isinstance(value, str) and value[:1] == "'" and value[1:2] != "" and (
            value[1:].startswith(_FORMULA) or (value[1:2] == "'" and value[2:3] in _FORMULA and value[2:3] != "")):
        return value[1:]
    return value


def csv_safe(df: pd.DataFrame, names: bool = True) -> pd.DataFrame:
    """``df`` with every text cell (and column name, unless ``names`` is false) made safe by
    :func:`csv_cell` (a copy when one changes)."""
    import pandas as pd
    text_cols = [c for c in df.columns if not pd.api.types.is_numeric_dtype(df[c])]
    out = df
    for c in text_cols:
        safe = df[c].map(csv_cell)
        if not safe.equals(df[c]):
            out = out.copy() if out is df else out
            out[c] = safe
    if names and any(isinstance(c, str) and csv_cell(c) != c for c in df.columns):
        out = out.rename(columns=lambda c: csv_cell(c) if isinstance(c, str) else c)
    return out


def echo(text: str, *, err: bool = False, nl: bool = True) -> None:
    """Print ``text`` on standard output (standard error with ``err``), flushed: what
    ``click.echo`` does for the commands, without the library importing click."""
    stream = sys.stderr if err else sys.stdout
    stream.write(text + ("\n" if nl else ""))
    stream.flush()


def emit(text: str, out: str | Path | None) -> None:
    """Print ``text``, or write it atomically to ``out``."""
    if out is None or str(out) == "-":
        echo(text, nl=not text.endswith("\n"))
    else:
        atomic_write_text(out, text, option="--out")
        echo(f"wrote {out}", err=True)


SE_LEGEND = "± is one standard error (1 SE) of the Monte Carlo estimate; a 95% interval is about ±2 SE"
CI_LEGEND = ("[a, b] is the 95% interval of a Monte Carlo probability (Wilson's; exact, Clopper-Pearson, at "
             "10 or fewer of a kind: an outcome never seen shows 0 and the largest chance it could have)")


_CI_SHOWN = re.compile(r"%\s\[\d+\.\d\d, \d+\.\d\d\]")     # what :func:`pct_ci` prints


def with_se_legend(text: str) -> str:
    """``text`` with the lines saying what ``±`` and ``[a, b]`` (:func:`pct_ci`) mean when it
    shows them (and lacks the lines)."""
    text = text if text.endswith("\n") else text + "\n"
    if _CI_SHOWN.search(text) and CI_LEGEND not in text:
        text += CI_LEGEND + "\n"
    if "±" in text and SE_LEGEND not in text:
        text += SE_LEGEND + "\n"
    return text


def render(fmt: str, *, table: str, frame: pd.DataFrame, obj: dict[str, Any]) -> str:
    """Pick the rendering for ``--format``; a table showing ``±`` says what it means."""
    if fmt == "json":
        return to_json(obj)
    if fmt == "csv":
        return to_csv(frame)
    return with_se_legend(table)


def pct_ci(p: float, ci=None) -> str:
    """``0.1234`` -> ``"12.34%"``, with ``[lo, hi]`` (a 95% interval, in percent) when
    given: :func:`render` adds :data:`CI_LEGEND` to a table that shows one."""
    if ci is None:
        return pct(p)
    return f"{pct(p)} [{100 * ci[0]:.2f}, {100 * ci[1]:.2f}]"


def pct_mc(p: float, row: dict, key: str | None = None) -> str:
    """A Monte Carlo probability as :func:`pct_ci` with its 95% interval when ``row`` has
    one (``row["ci95"][key]``, or a table row's ``lo`` / ``hi``, or its ``ci95``), else
    as :func:`pct`."""
    if key is not None:
        ci = (row.get("ci95") or {}).get(key)
    elif row.get("lo") is not None and row.get("hi") is not None and row["lo"] == row["lo"]:
        ci = (row["lo"], row["hi"])
    else:
        ci = row.get("ci95")
    return pct_ci(p, ci) if ci is not None else pct(p)


def pct(p: float, se: float | None = None) -> str:
    """``0.1234`` -> ``"12.34%"``, with ``± se`` (one standard error, in points) when given;
    :func:`render` adds :data:`SE_LEGEND` to a table that shows one."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "-"
    s = f"{100 * p:6.2f}%"
    if se is not None:
        s += f" ±{100 * se:.2f}"
    return s


# --- pictures ---------------------------------------------------------------------------

def figure_png(fig, dpi: int) -> bytes:
    """A matplotlib figure as PNG bytes, every text drawn as plain text: scenario, side
    and unit names come from user files, and a ``$`` in one must not be typeset as math
    (nor crash the drawing, issue 44.1). The one place pictures are rendered."""
    import io

    import matplotlib

    with matplotlib.rc_context({"text.parse_math": False, "text.usetex": False}):   # texts drawn from now (tick labels)
        for text in _texts(fig):              # texts created before (titles, legends, labels)
            text.set_usetex(False)
            text.set_parse_math(False)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi, facecolor="white", pil_kwargs={"compress_level": PNG_COMPRESSION})
    return buf.getvalue()


PNG_COMPRESSION = 3     # zlib level of the PNGs: 3 encodes ~35% faster than PIL's default 6, the files 5-10% larger


def _texts(artist):
    """The texts under ``artist`` (as ``findobj(Text)``), except the axes' own axis of an
    axes drawn without them (``set_axis_off``, the maps): asking an axis for its children
    makes its ticks (~80 ms a map), never drawn there."""
    from matplotlib.axis import Axis
    from matplotlib.text import Text

    for child in artist.get_children():
        if isinstance(child, Axis) and not child.axes.axison:
            continue
        if isinstance(child, Text):
            yield child
        yield from _texts(child)
