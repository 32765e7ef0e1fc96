"""How the engine's rules are compiled with numba: the decorators every rules module
uses (:func:`rule`, :func:`entry`, ...; each says why), the action buffer's
:func:`push`, int64 constants, and the disk caches dropped per game package when a
source it is compiled from changes. Shared by every game on the engine."""

from __future__ import annotations

import re

import numba
import numpy as np
from numba.core import types
from numba.core.registry import CPUDispatcher

from simulator.run.rng import next_u64 as _next

_JIT_MARK = re.compile(rb"^@(rule\w*|entry|numba\.\w+|n?jit|overload)\b|numba\.njit\(", re.MULTILINE)


def _is_compiled(path) -> bool:
    """Whether a source holds numba code, overloads included (``core/gameapi.py``: what
    they pick is compiled into their callers); pure-Python modules beside it, such as the
    batch's bookkeeping or the balance report, do not touch the compiled engine."""
    return bool(_JIT_MARK.search(path.read_bytes()))


# Which compiled sources each group of caches is built from (held against the import graph
# by tests/engine/core/test_cache_groups.py: a module a compiled module imports is a source). numba's disk cache notices a
# change in a function's own file only, not in the functions it calls from other files
# (those are compiled into it), so a group's caches go when any of its sources changes.
# Globs keep only the files holding numba code (pure-Python modules beside them, such as
# the batch's bookkeeping or the balance report, do not touch the compiled engine); the
# files named one by one are all kept: their Python rules are compiled into the group's
# code (``simulator/games/toi/rules/jit.py`` compiles ``attack``, ``results`` and ``assault``).
# A game's rules are a group of their own too: the calculators' kernels there were left
# stale by a change to a rules file they compile in (a melee damage rule, issue 40).
#   group: (globs, files, caches dropped)
CACHE_GROUPS = {
    # the shared core and rng: every game's code is compiled on top of them
    "core": (("engine/*.py", "engine/core/**/*.py", "run/rng.py"), ("engine/core/records.py", "engine/core/fields.py"),   # constants, field numbering
             ("engine/__pycache__/*.nb[ic]", "engine/core/**/__pycache__/*.nb[ic]")),
    # the shared players are compiled into each game's code: in every game's group
    "assault": (("games/assault/game/**/*.py", "engine/players/**/*.py"),
                tuple(f"games/assault/rules/{f}.py" for f in (
                    "damage", "kernels", "compare", "melee/damage", "melee/kernels", "melee/fight",
                    "melee/policies", "melee/tables", "melee/situation", "vehicle_terrain", "transport",
                    "aid", "cards", "dice", "exact", "fire", "pools", "target_states"))
                + ("games/assault/game/game.py", "games/assault/game/scenario_game.py", "games/assault/game/pooltab.py"),
                ("games/assault/game/**/__pycache__/*.nb[ic]", "engine/players/**/__pycache__/*.nb[ic]")),
    "toi": (("games/toi/game/**/*.py", "engine/players/**/*.py"),
            tuple(f"games/toi/rules/{f}.py" for f in ("jit", "attack", "results", "assault", "shares", "exact"))
            + ("games/toi/game/tables.py",),      # the table layout's constants
            ("games/toi/game/**/__pycache__/*.nb[ic]", "games/toi/rules/__pycache__/jit.*.nb[ic]",
             "engine/players/**/__pycache__/*.nb[ic]")),
    # each game's rules: the calculators' own kernels (their caches sit beside them); every
    # file of the folder counts, for the constants and plain functions compiled into them
    "assault-rules": ((), ("games/assault/rules/**/*.py",), ("games/assault/rules/**/__pycache__/*.nb[ic]",)),
    "toi-rules": ((), ("games/toi/rules/**/*.py",), ("games/toi/rules/**/__pycache__/*.nb[ic]",)),
}
SHARED_GROUP = "core"     # a change here drops every group's caches


def _group_digest(root, globs, files) -> str:
    import hashlib
    sources = {p for pat in globs for p in root.glob(pat) if _is_compiled(p)}
    sources |= {p for f in files for p in root.glob(f)}     # named files (or globs), compiled or not
    digest = hashlib.sha256()
    for p in sorted(sources):
        digest.update(str(p.relative_to(root)).encode())
        digest.update(p.read_bytes())
    return digest.hexdigest()


def _refresh_numba_cache(root=None) -> list[str]:
    """Drop the disk caches of every group (:data:`CACHE_GROUPS`) whose sources changed
    since its stamp (``engine/__pycache__/numba-sources-<group>.sha256``), all of them
    when the shared core changed; returns the groups dropped. A change to Tide of Iron
    leaves Assault's caches alone, and the other way round."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] if root is None else Path(root)      # simulator/
    cache = root / "engine" / "__pycache__"
    keys, stale = {}, []
    for group, (globs, files, _) in CACHE_GROUPS.items():
        keys[group] = _group_digest(root, globs, files)
        try:
            if (cache / f"numba-sources-{group}.sha256").read_text() == keys[group]:
                continue
        except OSError:
            pass
        stale.append(group)
    if SHARED_GROUP in stale:
        stale = list(CACHE_GROUPS)
    if not stale:
        return stale
    cache.mkdir(parents=True, exist_ok=True)
    for group in stale:
        for pat in CACHE_GROUPS[group][2]:
            for f in list(root.glob(pat)):
                try:
                    f.unlink()
                except OSError:
                    pass
    for group in stale:
        try:
            (cache / f"numba-sources-{group}.sha256").write_text(keys[group])
        except OSError:
            pass
    return stale


@numba.njit(cache=True, no_cpython_wrapper=True, _nrt=False)
def push(out, n, a):
    """Append action ``a`` at ``out[n]``; return the new count. A buffer of length 0 only
    counts (``s.aux[AUX_PATH, :0]``: "is there any action?"); a full one raises."""
    if n < out.shape[0]:
        out[n] = a
    elif out.shape[0] > 0:
        raise ValueError("legal actions buffer full: more than MAX_ACTIONS actions (simulator/games/assault/game/turn.py)")
    return n + 1


def int64_constants(namespace: dict) -> None:
    """Turn a module's integer constants (upper-case names) into ``numpy.int64``.

    Numba types a Python int constant passed to a compiled function as a literal and
    compiles the callee once per literal value; an ``int64`` constant is typed
    ``int64`` and shares one compilation. Every engine module calls this at its end.
    """
    for k, v in list(namespace.items()):
        if k.isupper() and type(v) is int:
            namespace[k] = np.int64(v)


@numba.njit(cache=True)
def next_u64_into(rng, src):
    """Fill the xoshiro states ``rng[j, :]`` with draws from the stream ``src`` (never all zero)."""
    for j in range(rng.shape[0]):
        for k in range(4):
            rng[j, k] = _next(src)
        rng[j, 0] |= numba.uint64(1)


class _TypedByType(CPUDispatcher):
    """A numba dispatcher that compiles one version of a function per argument *types*.

    numba's own compiles a function again for every call site passing a constant
    (``NIL``, ``FALSE``, ``-1``: each a ``Literal`` type of its own); for the engine that
    was about 17 s of a 250 s cold compile spent on copies of the same code. Here a call
    is typed with the constants' plain types, so every call site shares one version
    (LLVM still folds the constants where it inlines)."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})


def typed_by_type(dispatcher):
    """Make ``dispatcher`` compile per argument types only (see :class:`_TypedByType`)."""
    dispatcher.__class__ = _TypedByType
    return dispatcher


class _CompiledOnly:
    """A rule compiled without a Python wrapper (``no_cpython_wrapper``) cannot be called
    from Python: numba's dispatcher would run machine code that was never given a Python
    entry, and the process would crash. Calling one raises this instead."""

    def __call__(self, *args, **kws):
        f = self.py_func
        raise TypeError(f"{f.__module__}.{f.__qualname__} is a compiled rule with no Python entry: call it "
                        "from compiled code (in a test, from a numba.njit function), or give it @entry")


class _RuleDispatcher(_CompiledOnly, _TypedByType):
    """A :func:`rule`: typed by argument types, refusing Python calls."""


class _PlainRuleDispatcher(_CompiledOnly, CPUDispatcher):
    """A :func:`rule_inlined` or :func:`rule_plain`: numba's own typing, refusing Python calls."""


def _compiled_only(dispatcher, cls=_RuleDispatcher):
    dispatcher.__class__ = cls
    return dispatcher


def rule(fn):
    """Compile an internal rules function: cached on disk, no Python wrapper (it is only
    called from compiled code) and no reference counting (``_nrt=False``): passing the
    game's two array tuples on to another function would otherwise cost 24 atomic
    increments and decrements per call. Such a function must not allocate arrays;
    those that do use :func:`rule_alloc`."""
    return _compiled_only(numba.njit(cache=True, no_cpython_wrapper=True, _nrt=False)(fn))


def rule_plain(fn):
    """:func:`rule` with numba's own typing (a version per literal argument): the small
    helpers of the action encoding and the state layout, compiled into their callers."""
    return _compiled_only(numba.njit(cache=True, no_cpython_wrapper=True, _nrt=False)(fn), _PlainRuleDispatcher)


def rule_inlined(fn):
    """:func:`rule` for a small function called in an inner loop: inlined at numba's level
    into every caller (numba passes every field of every array argument on each call;
    for the game's two tuples of arrays that is about 230 machine words, more than such
    a function's own work)."""
    return _compiled_only(numba.njit(cache=True, no_cpython_wrapper=True, _nrt=False, inline="always")(fn),
                          _PlainRuleDispatcher)


# The players' inner loops: one call of the fire odds per enemy unit.
HOT_LOOPS = frozenset({"threat_at", "best_fire_from"})


def _into_hot_loops(expr, caller, callee):
    """numba's inlining cost model for :func:`rule_hot`: inline at a call site only when
    the caller is one of ``HOT_LOOPS``. What was inlined into it counts as that caller,
    so a whole chain of calls ends up in the loop."""
    return caller.func_id.func_name in HOT_LOOPS


def rule_hot(fn):
    """:func:`rule` for a function on the path of the players' inner loops: inlined (at
    numba's level) into the ``HOT_LOOPS`` functions, an ordinary call elsewhere.

    Why: LLVM does not inline the longer functions of the fire-odds chain by itself, so
    each enemy in those loops cost a call passing about 230 words of arguments (see
    :func:`rule_inlined`). Inlining the chain into every caller would triple the
    engine's compile time; into these loops it costs about 17 s of a cold compile and
    makes a greedy game about 1.8 times faster (``bench/scenario.py``)."""
    return _compiled_only(numba.njit(cache=True, no_cpython_wrapper=True, _nrt=False, inline=_into_hot_loops)(fn))


def rule_alloc(fn):
    """:func:`rule` for the few functions that allocate arrays (reference counting on)."""
    return _compiled_only(numba.njit(cache=True, no_cpython_wrapper=True)(fn))


def entry(fn):
    """A rules function Python calls too: cached, with its wrapper, no reference counting."""
    return typed_by_type(numba.njit(cache=True, _nrt=False)(fn))


_compiled_only(push, _PlainRuleDispatcher)      # defined above the guard: refuses Python calls too
_refresh_numba_cache()
