"""A compiled scenario kept on disk, so the second run of a scenario starts at once.

Compiling a scenario (:func:`simulator.games.assault.game.compile.compile_game`) is pure Python
work over every pair of unit types, terrain and range: about half a minute for
Crossroads. Its result depends only on the data and on the code, so it is kept on
disk under a key made of

- the scenario as validated (every key, after ``--vary`` style overrides), the file's
  digest, the dice, aid and support digests, the unit and formation cards as loaded;
- every file of the shipped data (``scenarios/assault``);
- the source of every module of ``simulator`` that compiles or plays a game;
- the close-combat edition played (the scenario's own when none is asked for) and the overrides.

Any change to one of them gives another key, so a stale entry is never used; old
entries are pruned (the newest :data:`KEEP` stay). An entry that cannot be read back
(damaged, truncated, from another Python) is removed and the scenario compiled again.

The folder is ``$LANCHESTER_CACHE_DIR``, else ``$XDG_CACHE_HOME/lanchester``, else
``~/.cache/lanchester``; ``LANCHESTER_CACHE_DIR=off`` turns the cache off. Entries are
pickles, like numba's own cache, so nothing is unpickled that this user did not write
(issue 44.3): the folder (and its ``games`` folder) must be the user's own and writable
by no one else, else it is not used (one line on stderr, once; the scenario is compiled);
and every entry carries an HMAC-SHA256 of its bytes under a key kept in the folder
(``key``, private, made at first use), checked before the bytes are unpickled: a
planted or altered entry is removed unread and the scenario compiled again. Nothing is
read from a report or checkpoint folder. (Arrays and JSON would need no such care; the
compiled game holds Python objects besides its arrays, so it stays a signed pickle.)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import pickle
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Callable

from simulator.run.datafile import SCENARIOS_DIR

KEEP = 32                   # entries kept; the oldest beyond are removed
FORMAT = 2                  # bumped when the entry layout changes (2: signed, issue 44.3)
_PACKAGE = Path(__file__).resolve().parents[3]      # simulator/


def cache_dir() -> Path | None:
    """The cache folder, or None when the cache is off (one rule for every cache:
    :func:`simulator.run.checkpoint.cache_dir`)."""
    from simulator.run.checkpoint import cache_dir as shared
    return shared()


@lru_cache(maxsize=1)
def code_digest() -> str:
    """The source of the modules a compiled game is made by (all of ``simulator``: the
    loaders, the assault rules and the engine)."""
    return _tree_digest(_PACKAGE, "*.py")


def _tree_digest(folder: Path, pattern: str = "*") -> str:
    """A SHA-256 of the files under ``folder`` matching ``pattern``: names and bytes."""
    h = hashlib.sha256()
    if folder.is_dir():
        for p in sorted(folder.rglob(pattern)):
            if p.is_file():
                h.update(str(p.relative_to(folder)).encode())
                h.update(p.read_bytes())
    return h.hexdigest()


def _stable(obj) -> str:
    """A text of a loaded object that does not depend on the process: ``repr`` with the
    sets and frozensets sorted (their order follows PYTHONHASHSEED)."""
    return json.dumps(obj, sort_keys=True, default=_plain)


def _plain(obj):
    import dataclasses
    if isinstance(obj, (set, frozenset)):
        return sorted(_stable(x) for x in obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json")
    if hasattr(obj, "tolist"):
        return obj.tolist()
    return repr(obj)


def game_key(scenario, edition: str | None, overrides: dict) -> str:
    """The key of a compiled game (see the module docstring)."""
    parts = {
        "format": FORMAT,
        "code": code_digest(),
        "shipped": _tree_digest(SCENARIOS_DIR / "assault"),
        "scenario": scenario.model_dump(mode="json"),
        "files": scenario.data_files(),
        "units": _stable(scenario._units),
        "formations": _stable(scenario._formations),
        "dice": _stable(scenario._dice),
        "aid": _stable(scenario._aid),
        # the edition played (None: the scenario's own), so that asking for the scenario's
        # edition by name reads back the same entry (the compiled game is the same)
        "edition": edition or overrides.get("edition") or scenario.edition,
        "overrides": sorted((repr(k), repr(v)) for k, v in overrides.items()),
    }
    return hashlib.sha256(_stable(parts).encode()).hexdigest()


def cached(scenario, edition: str | None, overrides: dict, compile_: Callable[[], object]):
    """The compiled game from the cache, else ``compile_()`` (then kept)."""
    folder = cache_dir()
    if folder is None:
        return compile_()
    try:
        key = game_key(scenario, edition, overrides)
    except (TypeError, ValueError, OSError):
        return compile_()
    if not _trusted(folder):
        return compile_()
    path = folder / "games" / f"{key}.pickle"
    game = _load(path)
    if game is not None:
        return game
    with _compiling(path):                  # another process compiling it: wait, then read its entry
        game = _load(path)
        if game is None:
            game = compile_()
            _store(path, game)
    return game


@contextmanager
def _compiling(path: Path):
    """Hold the entry's lock file (``KEY.lock`` beside it) while it is compiled, so two
    processes asking for the same scenario at once compile it once (the test suite's
    workers, two commands started together). Without a lock (no ``fcntl``, a folder
    that cannot be written) each compiles on its own, as before."""
    held = None
    try:
        import fcntl
        _make(path.parent)
        held = open(path.with_suffix(".lock"), "w")
        fcntl.flock(held, fcntl.LOCK_EX)
    except (ImportError, OSError):
        if held is not None:
            held.close()
        held = None
    try:
        yield
    finally:
        if held is not None:
            held.close()                    # closing releases the lock


_warned: set[str] = set()
TAG = 32                    # bytes of the HMAC-SHA256 before an entry's pickle


def _unsafe(folder: Path) -> str:
    """Why ``folder`` may hold entries this user did not write ('' when it is safe or
    not there yet: it is then made private)."""
    try:
        st = os.stat(folder)
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if st.st_uid != os.getuid():
        return f"belongs to user id {st.st_uid}, not to you (user id {os.getuid()})"
    if st.st_mode & 0o022:
        return f"others can write to it (mode {st.st_mode & 0o777:04o})"
    return ""


def _trusted(folder: Path) -> bool:
    """True when the cache folder and its ``games`` folder are the user's own and no one
    else can write them; else says so on stderr (once a process) and the cache is not used."""
    for f in (folder, folder / "games"):
        why = _unsafe(f)
        if why:
            if str(f) not in _warned:
                _warned.add(str(f))
                from simulator.run.output import echo
                echo(f"lanchester: warning: compiled-game cache {f}: {why}: not used (the scenario is "
                     "compiled each run; make it yours and private, chmod 700, or set LANCHESTER_CACHE_DIR)",
                     err=True)
            return False
    return True


def _key(folder: Path, create: bool) -> bytes | None:
    """The folder's signing key (32 random bytes in ``key``, private), made when asked."""
    path = folder / "key"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        if not create:
            return None
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(os.urandom(32))
        except FileExistsError:
            pass
        except OSError:
            return None
        return _key(folder, False)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if st.st_uid != os.getuid() or st.st_mode & 0o077:
            return None
        key = f.read(64)
    return key if len(key) == 32 else None


def _make(games: Path) -> None:
    """The cache folder and its ``games`` folder, private (whatever the umask)."""
    games.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    games.mkdir(exist_ok=True, mode=0o700)


def _sign(key: bytes, body: bytes) -> bytes:
    return hmac.new(key, body, hashlib.sha256).digest()


def _load(path: Path):
    from simulator.games.assault.game.scenario_game import Game
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return None
    except OSError:
        return None
    key = _key(path.parent.parent, create=False)
    if key is None or len(data) <= TAG or not hmac.compare_digest(data[:TAG], _sign(key, data[TAG:])):
        _remove(path)                                   # not written by this user's lanchester: unread
        return None
    try:
        game = pickle.loads(data[TAG:])
    except Exception:                                   # damaged or foreign: compile again
        _remove(path)
        return None
    if not isinstance(game, Game):
        _remove(path)
        return None
    try:
        os.utime(path)                                  # recently used: kept by the pruning
    except OSError:
        pass
    return game


def _store(path: Path, game) -> None:
    """Write the entry through a temporary beside it; a cache that cannot be written
    (read-only home, full disk) is skipped silently: it only saves time."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        _make(path.parent)
        key = _key(path.parent.parent, create=True)
        if key is None:
            return
        body = pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)
        with open(tmp, "wb") as f:
            f.write(_sign(key, body) + body)
        os.replace(tmp, path)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        _remove(tmp)
        return
    _prune(path.parent)


def _prune(folder: Path) -> None:
    try:
        entries = sorted(folder.glob("*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for p in entries[KEEP:]:
        _remove(p)
        _remove(p.with_suffix(".lock"))


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
