"""Checkpoints (``--checkpoint DIR``): finished chunks on disk, so a killed run resumes.

A run's chunks are stored under ``DIR/<run-key>/chunk-000123.npz``, each written to a
temporary name and renamed, so a chunk file is either whole or absent.

The *run key* is a SHA-256 of a canonical JSON form of everything the numbers depend
on: what was asked (the command and its arguments, and the compiled task itself: its
function and data), the seed, the chunk plan, and the program's own source code. The
canonical form (:func:`canonical`) has sorted keys and sorted sets, names classes and
functions by their qualified names and arrays by dtype, shape and a hash of their
bytes: no pickle, nothing that depends on ``PYTHONHASHSEED`` or on the process. A
rerun with the same arguments finds the same key, loads the finished chunks and
computes only the rest; any change (another seed, another dice file, a code fix)
gives another key, so stale chunks are never mixed in.

A chunk file is a plain ``.npz`` (numpy's zip of ``.npy`` arrays, read back with
``allow_pickle=False``): the result's arrays and a ``header`` (JSON bytes) naming the
run key, the chunk index and trials, and each array's dtype, shape and SHA-256. A
file that does not verify (truncated, altered, of another run, unreadable) is never
merged: the runner computes the chunk again from its own stream and says so in one
line. Results that are not one array (close-combat counts) are stored through a
registered codec (:func:`register_codec`): plain arrays in, the object out; nothing
read from disk names code to run.

``DIR/<run-key>/run.json`` says in words what the run was (written, never read).

A scenario batch run from the command line without ``--checkpoint`` keeps one of its
own under :func:`auto_root` (the cache folder's ``checkpoints/``), so that a run
stopped by Ctrl-C or a kill resumes when the same command (with the seed it printed)
is given again; the command removes it when it ends without being interrupted
(``--no-checkpoint``: none is kept).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import io
import json
import math
import os
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path, PurePath
from typing import Any

import numpy as np

from simulator.run.errors import os_reason
from simulator.run.output import atomic_write_bytes, atomic_write_text

PACKAGE_DIR = Path(__file__).resolve().parents[1]      # simulator/
FORMAT = "lanchester-chunk/1"
SUFFIX = ".npz"
MAX_CHUNK_BYTES = 1 << 30     # a chunk file larger than this is not read (damaged or foreign)
ARRAY_KINDS = "biuf"          # plain numbers only (no objects, strings or records)


@functools.cache
def code_digest() -> str:
    """Hash of the package's source: a code change invalidates every checkpoint."""
    h = hashlib.sha256()
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        h.update(str(path.relative_to(PACKAGE_DIR)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def cache_dir() -> Path | None:
    """lanchester's cache folder: ``$LANCHESTER_CACHE_DIR`` (``off``: none), else
    ``$XDG_CACHE_HOME/lanchester``, else ``~/.cache/lanchester``."""
    own = os.environ.get("LANCHESTER_CACHE_DIR")
    if own:
        return None if own.lower() in ("off", "0", "none") else Path(own)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "lanchester"


AUTO_KEEP_DAYS = 7     # a run's own checkpoint not resumed for this long is removed


def auto_root() -> Path | None:
    """Where the runs' own checkpoints are kept (``None``: the cache is off)."""
    folder = cache_dir()
    return None if folder is None else folder / "checkpoints"


def prune_auto(root: Path, now: float | None = None) -> None:
    """Remove the runs' own checkpoints under ``root`` untouched for :data:`AUTO_KEEP_DAYS`
    (runs interrupted and never resumed)."""
    import shutil
    import time
    limit = (time.time() if now is None else now) - AUTO_KEEP_DAYS * 86400
    for run in Path(root).glob("*/run.json"):
        try:
            if run.stat().st_mtime < limit and max((p.stat().st_mtime for p in run.parent.iterdir()),
                                                   default=0) < limit:
                shutil.rmtree(run.parent, ignore_errors=True)
        except OSError:
            continue


# ---------------------------------------------------------------- canonical form, run key

def _array_digest(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def _qualname(obj: Any) -> str:
    func = getattr(obj, "py_func", obj)  # a numba dispatcher: its Python function
    return f"{getattr(func, '__module__', '')}.{getattr(func, '__qualname__', type(func).__qualname__)}"


def canonical(obj: Any, _active: frozenset = frozenset()) -> Any:
    """A JSON-able form of ``obj`` that is the same in every process for equal values.

    Dicts become sorted ``[key, value]`` pairs and sets sorted lists (sorted by their
    canonical JSON), floats their exact hex form, arrays dtype + shape + SHA-256 of the
    bytes, dataclasses and pydantic models their class name and fields (a model's
    private attributes included, its *fields set* not), functions their qualified name.
    Anything else with attributes is taken by its class name and ``vars()``. No pickle.
    """
    form = _canonical_value(obj)
    if form is not _NO_FORM:
        return form
    if id(obj) in _active:
        return {"cycle": _qualname(type(obj))}
    active = _active | {id(obj)}
    for form_of in (_canonical_container, _canonical_object):
        form = form_of(obj, active)
        if form is not _NO_FORM:
            return form
    raise TypeError(f"no canonical form for a {_qualname(type(obj))} (run keys take plain values)")


_NO_FORM = object()   # what the helpers of canonical() answer for a value that is not theirs


def _canonical_value(obj: Any) -> Any:
    """Values that hold no other values (a cycle cannot pass through them)."""
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, int):
        return {"int": str(obj)} if abs(obj) >= 2**53 else obj
    if isinstance(obj, float):
        return {"float": float.hex(obj)} if math.isfinite(obj) else {"float": repr(obj)}
    if isinstance(obj, complex):
        return {"complex": [float.hex(obj.real), float.hex(obj.imag)]}
    if isinstance(obj, np.generic):
        return {"np": obj.dtype.str, "value": canonical(obj.item())}
    if isinstance(obj, (bytes, bytearray)):
        return {"bytes": hashlib.sha256(bytes(obj)).hexdigest()}
    if isinstance(obj, PurePath):
        return {"path": str(obj)}
    if isinstance(obj, enum.Enum):
        return {"enum": _qualname(type(obj)), "value": canonical(obj.value)}
    if isinstance(obj, type):
        return {"class": _qualname(obj)}
    return _NO_FORM


def _canonical_container(obj: Any, active: frozenset) -> Any:
    """Arrays, partial functions, tuples, lists, dicts and sets."""
    if isinstance(obj, np.ndarray):
        if obj.dtype.hasobject:
            return {"array": "object", "shape": list(obj.shape),
                    "items": [canonical(x, active) for x in obj.ravel().tolist()]}
        return {"array": obj.dtype.str, "shape": list(obj.shape), "sha256": _array_digest(obj)}
    if isinstance(obj, functools.partial):
        return {"partial": canonical(obj.func, active), "args": canonical(obj.args, active),
                "keywords": canonical(dict(obj.keywords), active)}
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):       # a named tuple
        return {"namedtuple": _qualname(type(obj)), "items": [canonical(x, active) for x in obj]}
    if isinstance(obj, (tuple, list)):
        return {type(obj).__name__: [canonical(x, active) for x in obj]}
    if isinstance(obj, dict):
        pairs = [[canonical(k, active), canonical(v, active)] for k, v in obj.items()]
        return {"dict": sorted(pairs, key=lambda kv: _dumps(kv[0]))}
    if isinstance(obj, (set, frozenset)):
        return {"set": sorted((canonical(x, active) for x in obj), key=_dumps)}
    return _NO_FORM


def _canonical_object(obj: Any, active: frozenset) -> Any:
    """Dataclasses, pydantic models, functions, and other objects by their attributes."""
    if dataclasses.is_dataclass(obj):
        return {"dataclass": _qualname(type(obj)),
                "fields": {f.name: canonical(getattr(obj, f.name), active) for f in dataclasses.fields(obj)}}
    model_fields = getattr(type(obj), "model_fields", None)
    if isinstance(model_fields, dict):                               # a pydantic model
        private = getattr(obj, "__pydantic_private__", None) or {}
        return {"model": _qualname(type(obj)),
                "fields": {name: canonical(getattr(obj, name), active) for name in sorted(model_fields)},
                "private": {name: canonical(value, active) for name, value in sorted(private.items())}}
    if callable(obj) and hasattr(getattr(obj, "py_func", obj), "__qualname__"):
        return {"callable": _qualname(obj)}
    state = getattr(obj, "__dict__", None)
    slots = [s for c in type(obj).__mro__ for s in getattr(c, "__slots__", ()) if hasattr(obj, s)]
    if state is not None or slots:
        fields = dict(state or {}) | {s: getattr(obj, s) for s in slots}
        return {"object": _qualname(type(obj)),
                "fields": {str(k): canonical(v, active) for k, v in sorted(fields.items(), key=lambda kv: str(kv[0]))}}
    return _NO_FORM


def _dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def digest_of(obj: Any) -> str:
    """SHA-256 of the canonical JSON of ``obj`` (a task, or any plain value)."""
    return hashlib.sha256(_dumps(canonical(obj)).encode()).hexdigest()


def run_key(task: Callable, *, seed: int, plan: dict[str, Any], label: str = "") -> str:
    """The run key: what was asked, the seed, the chunk plan and the code, hashed."""
    return digest_of({"label": label, "task": digest_of(task), "seed": int(seed), "plan": plan,
                      "code": code_digest()})[:20]


# ---------------------------------------------------------------- chunk files

_CODECS: dict[str, tuple[type, Callable[[Any], dict[str, np.ndarray]], Callable[[dict], Any]]] = {}


def register_codec(name: str, cls: type, to_arrays: Callable[[Any], dict[str, np.ndarray]],
                   from_arrays: Callable[[dict[str, np.ndarray]], Any]) -> None:
    """Let chunk results of class ``cls`` (not one array) be stored as named arrays."""
    _CODECS[name] = (cls, to_arrays, from_arrays)


def _encode(result: Any) -> tuple[str, dict[str, np.ndarray]]:
    if isinstance(result, np.ndarray):
        return "array", {"value": result}
    for name, (cls, to_arrays, _) in _CODECS.items():
        if type(result) is cls:
            return name, to_arrays(result)
    raise TypeError(f"a chunk result of type {_qualname(type(result))} has no checkpoint codec "
                    "(simulator.run.checkpoint.register_codec)")


def _describe(name: str | None, a: np.ndarray) -> dict[str, Any]:
    return {"name": name, "dtype": a.dtype.str, "shape": list(a.shape), "sha256": _array_digest(a)}


def _pack(header: dict[str, Any], arrays: list[np.ndarray]) -> bytes:
    """The bytes of a chunk file: an ``.npz`` (uncompressed, fixed time stamps) of the
    arrays ``a0, a1, ...`` and ``header``. The same contents always give the same bytes,
    so a reader can check every byte of a file it has verified."""
    members = {f"a{i}": np.ascontiguousarray(a) for i, a in enumerate(arrays)}
    members["header"] = np.frombuffer(_dumps(header).encode(), dtype=np.uint8)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for name, a in members.items():
            one = io.BytesIO()
            np.lib.format.write_array(one, a, allow_pickle=False)
            z.writestr(zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0)), one.getvalue())
    return buf.getvalue()


class Damaged(Exception):
    """A chunk file that does not verify (the message says why)."""


def _check_zip(data: bytes, size: int) -> None:
    """A chunk file's zip: no compressed members (nothing expands beyond the file), every
    member's bytes matching its CRC-32."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for info in z.infolist():
            if info.compress_type != zipfile.ZIP_STORED or info.file_size > size:
                raise Damaged(f"member {info.filename!r} is compressed or too large")
        bad = z.testzip()
        if bad is not None:
            raise Damaged(f"member {bad!r} fails its CRC-32 (a changed byte)")


def _verified_arrays(npz, described: list) -> dict[str, np.ndarray]:
    """The chunk file's arrays, each of an allowed dtype and as its header describes it."""
    arrays = {}
    for i, want in enumerate(described):
        a = npz[f"a{i}"]
        if a.dtype.kind not in ARRAY_KINDS:
            raise Damaged(f"array {i} has dtype {a.dtype.str}")
        got = _describe(want.get("name") if isinstance(want, dict) else None, a)   # no name: never matches
        if got != want:
            what = next(k for k in ("name", "dtype", "shape", "sha256") if got[k] != want.get(k))
            raise Damaged(f"array {got['name']!r}: {what} does not match its header"
                          + (" (checksum)" if what == "sha256" else ""))
        arrays[got["name"]] = a
    return arrays


class ChunkStore:
    """Finished chunks of one run, one verified ``.npz`` file each, written atomically."""

    def __init__(self, root: str | Path, key: str, about: dict[str, Any],
                 warn: Callable[[str], None] | None = None):
        self.dir = Path(root) / key
        self.key = key
        self.warn = warn or (lambda text: print(f"lanchester: {text}", file=sys.stderr))
        self.damaged: list[int] = []
        self.unsaved: list[int] = []
        run_json = self.dir / "run.json"
        if not run_json.exists():   # a refusal names the option; the folders made for it are removed (44.7)
            atomic_write_text(run_json, json.dumps(about, indent=2, default=str) + "\n", option="--checkpoint")

    def path(self, index: int) -> Path:
        return self.dir / f"chunk-{index:06d}{SUFFIX}"

    def finished(self) -> set[int]:
        """Indices of the chunk files on disk (verified only when loaded)."""
        out = set()
        for p in self.dir.glob(f"chunk-*{SUFFIX}"):
            digits = p.name[len("chunk-"):-len(SUFFIX)]
            if digits.isdigit() and digits.isascii():
                out.add(int(digits))
        return out

    def load(self, index: int, trials: int | None = None) -> Any | None:
        """A finished chunk's verified result, or ``None`` if it is missing or does not
        verify (then a one-line warning names the file: the chunk is computed again)."""
        index, trials = int(index), (None if trials is None else int(trials))
        path = self.path(index)
        if not os.path.lexists(path):
            return None
        try:
            if not path.is_file():
                raise Damaged("not a regular file")
            return self._read(path, index, trials)
        except Damaged as exc:
            reason = str(exc)
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zipfile.LargeZipFile,
                UnicodeDecodeError, TypeError, IndexError, MemoryError, RuntimeError) as exc:
            reason = f"unreadable ({type(exc).__name__})"
        self.damaged.append(index)
        self.warn(f"checkpoint {path}: {reason}; not used, chunk {index} computed again")
        return None

    def _read(self, path: Path, index: int, trials: int | None) -> Any:
        size = path.stat().st_size
        if size > MAX_CHUNK_BYTES:
            raise Damaged(f"{size} bytes, more than a chunk file may hold ({MAX_CHUNK_BYTES})")
        data = path.read_bytes()
        _check_zip(data, size)
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            header, kind, described = self._check_header(npz, index, trials)
            arrays = _verified_arrays(npz, described)
        if data != _pack(header, list(arrays.values())):
            raise Damaged("its bytes differ from what its verified contents write (a changed byte)")
        if kind == "array":
            if list(arrays) != ["value"]:
                raise Damaged("its arrays do not match its header")
            return arrays["value"]
        return _CODECS[kind][2](arrays)

    def _check_header(self, npz, index: int, trials: int | None) -> tuple[dict, Any, list]:
        """The chunk file's header: this run's, this chunk's, a known kind, one entry an array."""
        if "header" not in npz.files:
            raise Damaged("no header")
        header = json.loads(bytes(npz["header"].astype(np.uint8)).decode("utf-8"))
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise Damaged("not a lanchester chunk file")
        if header.get("key") != self.key:
            raise Damaged(f"belongs to run {header.get('key')!r}, not {self.key!r}")
        if header.get("index") != index:
            raise Damaged(f"holds chunk {header.get('index')!r}, not {index}")
        if trials is not None and header.get("trials") != trials:
            raise Damaged(f"holds {header.get('trials')!r} trials, the chunk has {trials}")
        kind, described = header.get("kind"), header.get("arrays")
        if kind != "array" and kind not in _CODECS:
            raise Damaged(f"unknown kind {kind!r}")
        if not isinstance(described, list) or sorted(npz.files) != sorted(
                ["header"] + [f"a{i}" for i in range(len(described))]):
            raise Damaged("its arrays do not match its header")
        return header, kind, described

    def save(self, index: int, result: Any, trials: int | None = None) -> None:
        kind, arrays = _encode(result)
        names = list(arrays)
        index, trials = int(index), (None if trials is None else int(trials))
        header = {"format": FORMAT, "key": self.key, "index": index, "trials": trials, "kind": kind,
                  "arrays": [_describe(n, np.ascontiguousarray(arrays[n])) for n in names]}
        try:
            atomic_write_bytes(self.path(index), _pack(header, [arrays[n] for n in names]))
        except OSError as exc:   # the run goes on; only the chunks not saved will be computed again
            if not self.unsaved:     # once a run (a full disk would say so for every chunk, issue 44.7)
                self.warn(f"checkpoint {self.dir}: chunk {index} cannot be written ({os_reason(exc)}); "
                          "it and any later chunk that cannot be written are not saved (a resume computes them)")
            self.unsaved.append(index)
