"""Checkpoints (``--checkpoint DIR``): finished chunks on disk, so a killed run resumes.

A run's chunks are stored under ``DIR/<run-key>/chunk-000123.npy`` (``.pkl`` for
results that are not one numpy array), each written to a temporary name and renamed,
so a chunk file is either whole or absent. The *run key* is a hash of everything the
numbers depend on: what was asked (the command and its arguments, and the compiled
task itself: its function and data), the seed, the chunk plan, and the program's own
source code. A rerun with the same arguments finds the same key, loads the finished
chunks and computes only the rest; any change (another seed, another dice file, a
code fix) gives another key, so stale chunks are never mixed in.

``DIR/<run-key>/run.json`` says in words what the run was.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import json
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from simulator.errors import InputError
from simulator.output import atomic_write_bytes, atomic_write_text

PACKAGE_DIR = Path(__file__).resolve().parent


@functools.cache
def code_digest() -> str:
    """Hash of the package's source: a code change invalidates every checkpoint."""
    h = hashlib.sha256()
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        h.update(str(path.relative_to(PACKAGE_DIR)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _feed(obj: Any, h: "hashlib._Hash") -> None:
    """Feed a canonical form of ``obj`` to ``h`` (stable across processes and runs)."""
    def put(tag: str, data: bytes = b"") -> None:
        h.update(tag.encode() + b":" + str(len(data)).encode() + b":" + data)

    if isinstance(obj, functools.partial):
        put("partial")
        for part in (obj.func, obj.args, dict(obj.keywords)):
            _feed(part, h)
    elif isinstance(obj, np.ndarray):
        put("array", f"{obj.dtype.str}{obj.shape}".encode())
        put("data", np.ascontiguousarray(obj).tobytes())
    elif isinstance(obj, (np.generic, bool, int, float, complex, str, bytes, type(None))):
        put(type(obj).__name__, repr(obj.item() if isinstance(obj, np.generic) else obj).encode())
    elif isinstance(obj, (tuple, list)):
        put(type(obj).__name__, str(len(obj)).encode())
        for item in obj:
            _feed(item, h)
    elif isinstance(obj, dict):
        put("dict", str(len(obj)).encode())
        for key in sorted(obj, key=repr):
            _feed(key, h)
            _feed(obj[key], h)
    elif isinstance(obj, (set, frozenset)):
        put("set", ",".join(sorted(digest_of(x) for x in obj)).encode())
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        put("dataclass", type(obj).__qualname__.encode())
        for f in dataclasses.fields(obj):
            _feed(f.name, h)
            _feed(getattr(obj, f.name), h)
    elif callable(obj) and hasattr(obj, "__qualname__"):
        func = getattr(obj, "py_func", obj)  # a numba dispatcher: its Python function
        put("callable", f"{getattr(func, '__module__', '')}.{func.__qualname__}".encode())
    else:
        put("pickle", pickle.dumps(obj, protocol=4))


def digest_of(obj: Any) -> str:
    """A stable hash of a task or of any plain value made of arrays, numbers and strings."""
    h = hashlib.sha256()
    _feed(obj, h)
    return h.hexdigest()


def run_key(task: Callable, *, seed: int, plan: dict[str, Any], label: str = "") -> str:
    """The run key: what was asked, the seed, the chunk plan and the code, hashed."""
    h = hashlib.sha256()
    _feed({"label": label, "task": digest_of(task), "seed": int(seed), "plan": plan,
           "code": code_digest()}, h)
    return h.hexdigest()[:20]


class ChunkStore:
    """Finished chunks of one run, one file each, written atomically."""

    def __init__(self, root: str | Path, key: str, about: dict[str, Any]):
        self.dir = Path(root) / key
        self.key = key
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError("--checkpoint", "", f"cannot create {self.dir} ({exc.strerror})") from None
        if not (self.dir / "run.json").exists():
            atomic_write_text(self.dir / "run.json", json.dumps(about, indent=2, default=str) + "\n")

    def _path(self, index: int, suffix: str) -> Path:
        return self.dir / f"chunk-{index:06d}{suffix}"

    def finished(self) -> set[int]:
        """Indices of the chunks on disk."""
        out = set()
        for p in self.dir.glob("chunk-*.*"):
            stem = p.name.split(".")[0]
            if p.suffix in (".npy", ".pkl") and stem[6:].isdigit():
                out.add(int(stem[6:]))
        return out

    def load(self, index: int) -> Any | None:
        """A finished chunk's result, or ``None`` if it is missing or unreadable."""
        npy, pkl = self._path(index, ".npy"), self._path(index, ".pkl")
        try:
            if npy.exists():
                return np.load(npy, allow_pickle=False)
            if pkl.exists():
                return pickle.loads(pkl.read_bytes())
        except (OSError, ValueError, EOFError, pickle.UnpicklingError):
            return None  # a damaged file: the chunk is simply computed again
        return None

    def save(self, index: int, result: Any) -> None:
        if isinstance(result, np.ndarray) and result.dtype != object:
            buf = io.BytesIO()
            np.save(buf, result, allow_pickle=False)
            atomic_write_bytes(self._path(index, ".npy"), buf.getvalue())
        else:
            atomic_write_bytes(self._path(index, ".pkl"), pickle.dumps(result, protocol=4))
