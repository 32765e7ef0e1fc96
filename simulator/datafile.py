"""Reading TOML data files with validation errors a designer can act on.

Data files are validated with pydantic models (``extra="forbid"`` catches unknown
keys and typos). Any failure becomes one :class:`~simulator.errors.InputError`
naming the file, the key path and the problem.
"""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path
from typing import Any, TypeVar

import pydantic

from simulator.errors import InputError

REPO_ROOT = Path(__file__).resolve().parent.parent
SCENARIOS_DIR = REPO_ROOT / "scenarios"

Model = TypeVar("Model", bound=pydantic.BaseModel)


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file, turning I/O and syntax errors into InputError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(str(path), "", "file not found") from None
    except OSError as exc:
        raise InputError(str(path), "", f"cannot read file ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise InputError(str(path), "", f"not UTF-8 text (bad byte at offset {exc.start})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(str(path), "", f"TOML syntax error: {exc}") from None


def key_path(loc: tuple[Any, ...]) -> str:
    """Render a pydantic error location as a dotted TOML key path."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def validate(model: type[Model], data: Any, where: str, prefix: str = "") -> Model:
    """Validate ``data`` against ``model``; the first error becomes an InputError."""
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as exc:
        err = exc.errors()[0]
        key = key_path(tuple(err["loc"]))
        if prefix:
            key = f"{prefix}.{key}" if key else prefix
        msg = err["msg"]
        if err["type"] == "value_error":
            msg = msg.removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = unknown_key_message(model, tuple(err["loc"]))
        elif err["type"] == "missing":
            msg = "required key is missing"
        if "input" in err and err["type"] not in ("missing",) and not isinstance(err["input"], dict):
            msg = f"{msg} (got {err['input']!r})"
        raise InputError(where, key, msg) from None


def unknown_key_message(model: type[pydantic.BaseModel] | None, loc: tuple[Any, ...]) -> str:
    """"unknown key", with the valid keys nearest to it when ``model`` tells them."""
    if model is None or not loc:
        return "unknown key"
    from simulator.suggest import did_you_mean, keys_at
    return "unknown key" + did_you_mean(str(loc[-1]), keys_at(model, loc))


def load_model(model: type[Model], path: str | Path) -> Model:
    """Read a TOML file and validate it against ``model``."""
    return validate(model, read_toml(path), str(path))


def file_digest(*paths: str | Path) -> str:
    """A short hash of data files, for provenance in reports."""
    h = hashlib.sha256()
    for p in paths:
        h.update(Path(p).read_bytes())
    return h.hexdigest()[:12]
