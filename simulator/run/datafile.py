"""Reading TOML data files with validation errors a designer can act on.

Data files are validated with pydantic models (``extra="forbid"`` catches unknown
keys and typos). Any failure becomes one :class:`~simulator.run.errors.InputError`
naming the file, the key path and the problem.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pydantic

from simulator.run.errors import InputError, os_input_error

REPO_ROOT = Path(__file__).resolve().parents[2]
SCENARIOS_DIR = REPO_ROOT / "scenarios"

Model = TypeVar("Model", bound=pydantic.BaseModel)


MIB = 1024 * 1024
MAX_DATA_FILE_BYTES = 4 * MIB   # a data file (dice, aid, units, scenario): the shipped ones are under 10 KiB


def read_regular(path: str | Path, limit: int = MAX_DATA_FILE_BYTES, what: str = "a data file") -> bytes:
    """The bytes of ``path``, which must be a regular file of at most ``limit`` bytes:
    a folder, a device (``/dev/zero``), a FIFO or a socket is refused before it is
    opened for reading, so nothing blocks or fills memory."""
    import os
    import stat
    path = Path(path)
    where = str(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise InputError(where, "", "file not found") from None
    except OSError as exc:
        raise os_input_error(exc, where, "", "cannot read file") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(where, "", "is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(where, "", "not a regular file (a device, FIFO or socket cannot be " + what + ")")
    too_big = f"file too large ({st.st_size:,} bytes; {what} may hold at most {limit // MIB} MiB)"
    if st.st_size > limit:
        raise InputError(where, "", too_big)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):   # swapped since the stat
                raise InputError(where, "", "not a regular file")
            data = f.read(limit + 1)
    except OSError as exc:
        raise os_input_error(exc, where, "", "cannot read file") from None
    if len(data) > limit:
        raise InputError(where, "", f"file too large ({what} may hold at most {limit // MIB} MiB)")
    return data


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML data file (a regular file of at most MAX_DATA_FILE_BYTES), turning
    I/O, size, encoding, syntax and nesting errors into InputError."""
    path = Path(path)
    data = read_regular(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(str(path), "", f"not UTF-8 text (bad byte at offset {exc.start})") from None
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(str(path), "", f"TOML syntax error: {exc}") from None
    except RecursionError:
        raise InputError(str(path), "", "arrays or tables nested too deeply") from None
    _no_control_characters(table, str(path))
    return table


# C0 and C1 control characters and DEL, but tab and newline (multi-line descriptions):
# an escape sequence in a name would reach the terminal (issue 44.5)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _no_control_characters(node: Any, where: str, key: str = "") -> None:
    """InputError naming the key of the first key or string holding a control character."""
    if isinstance(node, str):
        if m := _CONTROL.search(node):
            raise InputError(where, key, f"control character U+{ord(m.group()):04X} in the text "
                             "(escape sequences are not allowed in data files)")
    elif isinstance(node, dict):
        for k, v in node.items():
            sub = f"{key}.{k}" if key else str(k)
            if m := _CONTROL.search(k):
                raise InputError(where, sub, f"control character U+{ord(m.group()):04X} in the key name "
                                 "(escape sequences are not allowed in data files)")
            _no_control_characters(v, where, sub)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _no_control_characters(v, where, f"{key}[{i}]")


def shown(value: Any, width: int = 40) -> str:
    """A value quoted in an error message, cut to ``width`` characters: a message names
    the key and the problem, it does not reproduce a file's content."""
    text = repr(value)
    return text if len(text) <= width else text[:width - 3] + "..."


def key_path(loc: tuple[Any, ...]) -> str:
    """Render a pydantic error location as a dotted TOML key path."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


@dataclass(frozen=True)
class Problem:
    """One thing wrong (``error``) or doubtful (``warning``) in a data file (``lanchester
    assault check``, ``lanchester toi check``)."""

    key: str
    message: str
    severity: str = "error"

    def line(self, where: str) -> str:
        return f"{self.severity}: {InputError(where, self.key, self.message).one_line()}"


@dataclass
class CheckResult:
    """What a scenario check found (``lanchester assault check``, ``lanchester toi check``):
    the problems of one file (``where``) and the scenario when it loaded (the game's own
    ``Scenario``)."""

    where: str
    problems: list[Problem] = field(default_factory=list)
    scenario: Any = None          # the game's Scenario (run/ knows no game), None when it did not load

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def ok(self) -> bool:
        return not self.errors


def model_problems(exc: pydantic.ValidationError, prefix: str = "",
                   model: type[pydantic.BaseModel] | None = None) -> list[Problem]:
    """Every error of a validation, each a :class:`Problem` with its dotted key path."""
    out = []
    for err in exc.errors():
        key = key_path(tuple(err["loc"]))
        key = f"{prefix}.{key}" if prefix and key else (prefix or key)
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = unknown_key_message(model, tuple(err["loc"]))
        elif err["type"] == "missing":
            msg = "required key is missing"
        elif "input" in err and not isinstance(err["input"], (dict, list)):
            msg = f"{msg} (got {shown(err['input'])})"
        out.append(Problem(key, msg))
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
        elif "input" in err and not isinstance(err["input"], (dict, list)):
            msg = f"{msg} (got {shown(err['input'])})"
        raise InputError(where, key, msg) from None


def unknown_key_message(model: type[pydantic.BaseModel] | None, loc: tuple[Any, ...]) -> str:
    """"unknown key", with the valid keys nearest to it when ``model`` tells them."""
    if model is None or not loc:
        return "unknown key"
    from simulator.run.suggest import did_you_mean, keys_at
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


# --- data-file formats (issue 44.9) ------------------------------------------------------
#
# A data file says which format it is written in (a top-level ``format = N``; a file
# without one is format 1, written before formats were). A file of an older format is
# read with the keys later formats added set to their documented defaults, and one note
# on stderr says which; a file of a newer format than this lanchester reads is refused.

def read_format(raw: dict[str, Any], where: str, kind: str, current: int,
                added: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """``raw`` (a parsed data file) brought to format ``current``: the ``format`` key taken
    out, and every key ``added[v]`` (format v added it: dotted key -> default) that a file
    older than v lacks set to its default, with a one-line note naming them."""
    fmt = raw.pop("format", 1)
    if isinstance(fmt, bool) or not isinstance(fmt, int) or not 1 <= fmt:
        raise InputError(where, "format", f"must be a whole number from 1 to {current} (the {kind} format)")
    if fmt > current:
        raise InputError(where, "format", f"format {fmt} is newer than this lanchester reads ({kind} formats 1 to "
                         f"{current}): a newer lanchester wrote it")
    filled = []
    for version in range(fmt + 1, current + 1):
        for dotted, default in added.get(version, {}).items():
            *parents, last = dotted.split(".")
            node: Any = raw
            for part in parents:
                node = node.get(part) if isinstance(node, dict) else None
            if isinstance(node, dict) and last not in node:
                node[last] = default
                shown_value = default.get("value", default) if isinstance(default, dict) else default
                filled.append(f"{dotted} = {json.dumps(shown_value)}")
    if filled:
        import sys
        print(f"lanchester: note: {where}: a format {fmt} {kind} read with format {current}'s defaults for "
              f"{', '.join(filled)} (add format = {current} and these keys to silence this)", file=sys.stderr)
    return raw
