"""The game state of a scenario as a few small integer arrays (chapter 6).

A game is a :class:`GameState` named tuple of numpy arrays, so the rules (``njit``
functions in :mod:`simulator.engine.turn` and friends) run without touching a Python
object and a look-ahead player can copy a whole state in a microsecond.

- ``u[unit, field]``: one row per unit slot of the scenario (``U_*`` fields below);
- ``g[field]``: the turn, phase, who decides now, the activation in progress (``G_*``);
- ``hx[hex, field]``: smoke markers (7.5, 6.5), dug-in markers (9.8.1) and how many units
  of each side stand there (stacking, 9.0);
- ``aux``: the hexes of the current move and of a fallback, the queue of units waiting
  to fall back (13.3), who holds each objective (-1 nobody, 9.7) and what became of
  each formation card (0 in the deck, 1 drawn, 2 kept, 3 set aside, 4 reinforcement);
- ``cp[side, type, 0/1]``: command points assigned / spent per unit card (6.2.2);
- ``rng[3, 4]``: xoshiro256** states: 0 the dice, 1 and 2 the two players' own draws;
- ``log[n, 8]``: events for replays (written only when ``g[G_LOG_ON]``).

Only seven arrays, all integers int64: every array in a tuple argument costs numba
compile time in every function it is passed to, and a function called with int32 here
and int64 there is compiled twice.

Actions are ints: ``kind | unit << 8 | arg << 16`` (:func:`action`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numba
import numpy as np
from numba.core import types
from numba.core.registry import CPUDispatcher

from simulator.rng import next_u64 as _next

_JIT_MARK = re.compile(rb"^@(rule\w*|entry|numba\.\w+|n?jit)\b|numba\.njit\(", re.MULTILINE)


def _is_compiled(path) -> bool:
    """Whether a source holds numba code (pure-Python modules beside it, such as the
    batch's bookkeeping or the balance report, do not touch the compiled engine)."""
    return bool(_JIT_MARK.search(path.read_bytes()))


def _refresh_numba_cache() -> None:
    """Numba's disk cache notices a change in a function's own file only, not in the
    functions it calls from other files (those are compiled into it). So when any
    source the engine is compiled from changes, drop the engine's whole cache."""
    import hashlib
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    compiled_from = ("engine/**/*.py", "assault/damage.py", "assault/kernels.py", "assault/compare.py",
                     "assault/melee/damage.py", "assault/melee/kernels.py", "assault/melee/fight.py",
                     "assault/melee/policies.py", "assault/melee/tables.py", "assault/vehicle_terrain.py",
                     "assault/transport.py",
                     "rng.py")
    sources = sorted(p for pat in compiled_from for p in root.glob(pat) if _is_compiled(p))
    digest = hashlib.sha256()
    for p in sources:
        digest.update(str(p.relative_to(root)).encode())
        digest.update(p.read_bytes())
    cache = root / "engine" / "__pycache__"
    stamp = cache / "numba-sources.sha256"
    key = digest.hexdigest()
    try:
        if stamp.read_text() == key:
            return
    except OSError:
        pass
    cache.mkdir(exist_ok=True)
    for f in list((root / "engine").glob("**/__pycache__/*.nb[ic]")):
        try:
            f.unlink()
        except OSError:
            pass
    try:
        stamp.write_text(key)
    except OSError:
        pass


_refresh_numba_cache()

# --- unit fields ----------------------------------------------------------------------
U_SIDE, U_TYPE, U_ST, U_HEX, U_DMG, U_MORALE, U_ACT, U_DONE, U_FACE, U_IMMOB = range(10)
U_CARRIER, U_TIRED, U_CC, U_ARRIVE, U_ZONE, U_ENTRY, U_FORM, U_HELD, U_CCROLE, U_NEXT_TIRED = range(10, 20)
U_EMERG = 20          # 1: waiting to be placed by an emergency disembark (10.10.3, 12.10); U_HEX: from where
U_FACED = 21          # 1: this artillery unit changed its facing in this support phase (7.6)
U_FELL = 22           # 1: the unit has fallen back at least once in this game (13.3 "ever", reading S22)
U_FIELDS = 23

# unit status (U_ST)
ABSENT, PENDING, ONMAP, CARRIED, ELIMINATED, TO_PLACE = range(6)
STATUS_NAMES = ("absent", "pending", "on map", "carried", "eliminated", "to place")

# action status markers (U_ACT, 13.2)
ACT_NONE, ACT_NORMAL, ACT_FAST, ACT_DELAYED, ACT_DIGGING, ACT_FIRING, ACT_TURRET, ACT_MOVEFIRE, \
    ACT_FIREMOVE = range(9)
ACT_NAMES = ("-", "normal", "fast", "delayed", "digging in", "firing", "turret firing",
             "move and fire", "fire and move")

# close-combat markers (U_CC, 12.1-12.3, 13.1)
CC_NONE, CC_ACTIVE, CC_INACTIVE = range(3)

# --- global fields --------------------------------------------------------------------
(G_TURN, G_PHASE, G_SUB, G_ACTIVE, G_FIRST, G_PASSES, G_DECIDER, G_UNIT, G_MODE, G_MP,
 G_STEPS, G_TARGET, G_WINNER, G_REASON, G_OVER, G_LOGN, G_LOG_ON, G_FB_UNIT, G_FB_MP,
 G_FB_STEPS, G_REACT_UNIT, G_REACT_BACK, G_PATHN, G_FB_PATHN, G_QN, G_CC_HEX, G_CC_A, G_CC_D,
 G_CC_ROUND, G_CC_KIND, G_PLACE_SIDE, G_SUPPORT_PASSED, G_DECIDED_TURN, G_ACTIVATIONS, G_CP0,
 G_CP1, G_CPLOST0, G_CPLOST1, G_FB_ORIGIN, G_CC_BACK, G_ORIGIN, G_SETUP_FIRST, G_REACTIONS,
 G_FALLBACKS, G_CCS, G_STAGE, G_PROV, G_CC_SUPA, G_CC_SUPD, G_CC_FLAGS, G_CC_PEND, G_CC_Q,
 G_SMOKE_ANY, G_PLAN0, G_PLAN1, G_DECISIONS, G_FIRST1, G_TURNED, G_FACES, G_CC_AFTER, G_CC_X, G_CC_Y,
 G_CC_RXY, G_CC_RYX, G_CC_TRACKS, G_CC_XF, G_EMERG) = range(67)
# 7.5, a smoke action in progress: the firer, the dice set aside (bit per die), hexes smoked so
# far, the target hex, the second hex, the hex whose LOS counts (the firer's or the spotter's)
G_SMK_UNIT, G_SMK_MASK, G_SMK_K, G_SMK_H0, G_SMK_H1, G_SMK_SEER = range(67, 73)
G_ODD_OBJ = 73          # organisation phases that left an objective held alone by a side not its owner (a check)
G_CC_FROM = 74          # the hex the unit entering a close combat (12.1, 12.2) came from (12.7.3, 12.8.2)
G_CC_TGT = 75           # first edition: the enemy unit a reinforcing unit attacks (12.2), -1 none
G_FIELDS = 76
# G_EMERG: passengers waiting for their emergency disembark (10.10.3, 12.10)
# G_PLAN0 + side: a player's own memory (the hex its moving unit is heading for, + 1);
# the rules never read it.

# phases (chapter 6)
PH_SETUP, PH_PLANNING, PH_SUPPORT, PH_ACTION, PH_ORGANISATION, PH_OVER = range(6)
PHASE_NAMES = ("set-up", "planning", "support", "action", "organisation", "over")

# sub-states: which decision is pending (or which automatic step comes next)
(SUB_TURN_START, SUB_PLACE, SUB_PLAN, SUB_SUPPORT, SUB_SELECT, SUB_MOVE, SUB_REACT, SUB_AFTER_MOVE,
 SUB_FALLBACK, SUB_CC_PICK, SUB_CC_WITHDRAW, SUB_ORG, SUB_END, SUB_FORMATION, SUB_ACT_END,
 SUB_CC_RESOLVE, SUB_SETUP_ORDER) = range(17)
SUB_SMOKE_NEXT = 17     # 7.5: the smoking player names the next hex for the dice set aside
SUB_NAMES = ("turn start", "placement", "planning", "support", "select", "move", "reaction",
             "fire after move", "fallback", "close-combat target", "withdraw?", "organisation",
             "end", "formation", "activation end", "close combat", "set-up order", "next smoke hex")

# movement modes (G_MODE)
MODE_NORMAL, MODE_FAST, MODE_MOVEFIRE, MODE_FIREMOVE, MODE_WITHDRAW, MODE_REVERSE = range(6)

# --- action kinds ---------------------------------------------------------------------
(K_PASS, K_MOVE, K_FAST, K_MOVEFIRE, K_FIREMOVE, K_FIRE, K_TURRET, K_DIG, K_RENEW, K_WITHDRAW,
 K_STEP, K_STOP, K_REACT, K_NOREACT, K_TARGET, K_NOFIRE, K_PLACE, K_CCPICK, K_STAY, K_LEAVE,
 K_FORM, K_CP, K_CPDONE, K_SETUP_FIRST, K_TURN, K_REVERSE, K_TRACKS, K_VEHICLE, K_DISMOUNT, K_LOAD,
 K_DISEMBARK) = range(31)
# chapter 7, the support phase: indirect fire (arg: target + 256 * (spotter + 1)), smoke at a hex
# (arg: hex + 65536 * (spotter + 1)), an artillery unit's new facing (arg: vertex), the next
# smoke hex (arg: hex) or no more smoke hexes
K_INDIRECT, K_SMOKE, K_ART_FACE, K_SMOKE_HEX, K_SMOKE_DONE = 31, 32, 33, 34, 35
K_INTO_CC = 36          # 12.10 (first edition): this infantry passenger disembarks into the close-combat hex
KIND_NAMES = ("pass", "move", "fast move", "move and fire", "fire and move", "fire", "turret fire",
              "dig in", "renew close combat", "withdraw from close combat", "step", "stop",
              "reaction fire", "no reaction", "fire at", "no fire", "place", "attack in close combat",
              "stay in close combat", "leave close combat", "formation", "command point",
              "command points done", "set up first", "turn", "reverse", "attack the wheels or tracks",
              "attack the vehicle", "dismount", "load", "emergency disembark", "indirect fire", "smoke",
              "face artillery", "smoke hex", "no more smoke", "disembark into the close-combat hex")

# victory reasons; R_TRUNCATED: the game was cut short at the batch's decision limit, not
# over (set in the per-game record only, with winner NO_WINNER: neither side, not a draw)
R_NONE, R_OBJECTIVES, R_ELIMINATION, R_SUDDEN_DEATH, R_DRAW, R_TURN_LIMIT, R_TRUNCATED = range(7)
REASON_NAMES = ("none", "objectives", "elimination", "sudden death", "draw", "turn limit", "truncated")
NO_WINNER = -2          # the winner of a game that is not over (-1 is a draw)

MAX_PATH = 32
MAX_QUEUE = 16
EV_FIELDS = 8

# hex fields (hx[hex, field])
HX_SMOKE, HX_DUG, HX_OCC = 0, 1, 2       # HX_OCC + side: units of that side standing there
HX_FIELDS = 4
# rows of aux[row, :]
AUX_PATH, AUX_FBPATH, AUX_QUEUE, AUX_OBJ, AUX_FST = range(5)
AUX_ROWS = 5


@numba.njit(cache=True, no_cpython_wrapper=True, _nrt=False)
def action(kind, unit, arg):
    return kind | (unit << 8) | (arg << 16)


@numba.njit(cache=True, no_cpython_wrapper=True, _nrt=False)
def a_kind(a):
    return a & 0xFF


@numba.njit(cache=True, no_cpython_wrapper=True, _nrt=False)
def a_unit(a):
    return (a >> 8) & 0xFF


@numba.njit(cache=True, no_cpython_wrapper=True, _nrt=False)
def a_arg(a):
    return a >> 16


def decode(a: int) -> tuple[int, int, int]:
    """``(kind, unit, arg)`` of an action, for Python code (the numba helpers above have
    no Python wrapper)."""
    a = int(a)
    return a & 0xFF, (a >> 8) & 0xFF, a >> 16


def encode(kind: int, unit: int = 0, arg: int = 0) -> int:
    """An action from its parts, for Python code."""
    return int(kind) | (int(unit) << 8) | (int(arg) << 16)


@numba.njit(cache=True, no_cpython_wrapper=True, _nrt=False)
def push(out, n, a):
    """Append action ``a`` at ``out[n]``; return the new count. A buffer of length 0 only
    counts (``s.aux[AUX_PATH, :0]``: "is there any action?"); a full one raises."""
    if n < out.shape[0]:
        out[n] = a
    elif out.shape[0] > 0:
        raise ValueError("legal actions buffer full: more than MAX_ACTIONS actions (simulator/engine/turn.py)")
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


# the damage rules' constants, as the engine passes them (simulator.assault.damage)
STEADY, SUPPRESSED, FALLBACK = 0, 1, 2
INFANTRY, ARTILLERY, VEHICLE = 0, 1, 2
NIL = 0
TRUE, FALSE = 1, 0


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


def rule(fn):
    """Compile an internal rules function: cached on disk, no Python wrapper (it is only
    called from compiled code) and no reference counting (``_nrt=False``): passing the
    game's two array tuples on to another function would otherwise cost 24 atomic
    increments and decrements per call. Such a function must not allocate arrays;
    those that do use :func:`rule_alloc`."""
    return typed_by_type(numba.njit(cache=True, no_cpython_wrapper=True, _nrt=False)(fn))


def rule_inlined(fn):
    """:func:`rule` for a small function called in an inner loop: inlined at numba's level
    into every caller (numba passes every field of every array argument on each call;
    for the game's two tuples of arrays that is about 230 machine words, more than such
    a function's own work)."""
    return numba.njit(cache=True, no_cpython_wrapper=True, _nrt=False, inline="always")(fn)


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
    return typed_by_type(numba.njit(cache=True, no_cpython_wrapper=True, _nrt=False, inline=_into_hot_loops)(fn))


def rule_alloc(fn):
    """:func:`rule` for the few functions that allocate arrays (reference counting on)."""
    return typed_by_type(numba.njit(cache=True, no_cpython_wrapper=True)(fn))


def entry(fn):
    """A rules function Python calls too: cached, with its wrapper, no reference counting."""
    return typed_by_type(numba.njit(cache=True, _nrt=False)(fn))


class GameState(NamedTuple):
    u: np.ndarray        # int64[units, U_FIELDS]
    g: np.ndarray        # int64[G_FIELDS]
    hx: np.ndarray       # int64[hexes, HX_FIELDS]: smoke, dug in, units of side 0, of side 1
    aux: np.ndarray      # int64[AUX_ROWS, width]: move path, fallback path, fallback queue,
                         #   objective holders (-1 nobody), formation cards' fate
    cp: np.ndarray       # int64[2, types, 2] command points assigned / spent per card (6.2.2)
    rng: np.ndarray      # uint64[3, 4]
    log: np.ndarray      # int32[cap, EV_FIELDS]


def empty_state(n_units: int, n_hex: int, n_obj: int, n_types: int, n_forms: int = 1,
                log_cap: int = 1) -> GameState:
    width = max(MAX_PATH, MAX_QUEUE, n_obj, n_forms, 1)
    aux = np.zeros((AUX_ROWS, width), dtype=np.int64)
    aux[AUX_OBJ, :] = -1
    return GameState(
        u=np.zeros((n_units, U_FIELDS), dtype=np.int64),
        g=np.zeros(G_FIELDS, dtype=np.int64),
        hx=np.zeros((n_hex, HX_FIELDS), dtype=np.int64),
        aux=aux,
        cp=np.zeros((2, max(1, n_types), 2), dtype=np.int64),
        rng=np.zeros((3, 4), dtype=np.uint64),
        log=np.zeros((max(1, log_cap), EV_FIELDS), dtype=np.int32),
    )


@numba.njit(cache=True)
def copy_state(s):
    """A deep copy without the event log (for look-ahead rollouts)."""
    return GameState(s.u.copy(), s.g.copy(), s.hx.copy(), s.aux.copy(), s.cp.copy(), s.rng.copy(),
                     s.log[:1].copy())


@numba.njit(cache=True, _nrt=False)
def _copy2(dst, src):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@numba.njit(cache=True, _nrt=False)
def restore_state(dst, src):
    """Copy ``src`` into ``dst`` in place (log excepted), without allocating."""
    _copy2(dst.u, src.u)
    for i in range(src.g.shape[0]):
        dst.g[i] = src.g[i]
    _copy2(dst.hx, src.hx)
    _copy2(dst.aux, src.aux)
    for i in range(src.cp.shape[0]):
        for j in range(src.cp.shape[1]):
            for k in range(src.cp.shape[2]):
                dst.cp[i, j, k] = src.cp[i, j, k]
    _copy2(dst.rng, src.rng)


int64_constants(globals())
