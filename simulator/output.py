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
import tempfile
from pathlib import Path
from typing import Any

import click
import numpy as np
import pandas as pd

FORMATS = ("table", "csv", "json")


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _read_umask()    # read once, at import: os.umask can only be read by setting it


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_UMASK)     # mkstemp makes it private (0600); outputs are for sharing
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


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
    return df.to_csv(index=False, float_format="%.10g", lineterminator="\n")


def emit(text: str, out: str | Path | None) -> None:
    """Print ``text``, or write it atomically to ``out``."""
    if out is None or str(out) == "-":
        click.echo(text, nl=not text.endswith("\n"))
    else:
        atomic_write_text(out, text)
        click.echo(f"wrote {out}", err=True)


def render(fmt: str, *, table: str, frame: pd.DataFrame, obj: dict[str, Any]) -> str:
    """Pick the rendering for ``--format``."""
    if fmt == "json":
        return to_json(obj)
    if fmt == "csv":
        return to_csv(frame)
    return table if table.endswith("\n") else table + "\n"


def pct(p: float, se: float | None = None) -> str:
    """``0.1234`` -> ``"12.34%"``, with ``± se`` when a standard error is given."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "-"
    s = f"{100 * p:6.2f}%"
    if se is not None:
        s += f" ±{100 * se:.2f}"
    return s
