"""Copying a game's state, for any game: a state is a ``NamedTuple`` of arrays, the
event log among them, named ``log`` (Assault's and Tide of Iron's ``GameState``).
Look-ahead players copy it and restore it between trials (greedy's one-ply trials
too: the copy is about a third of a tree-search simulation's time on Tide of Iron's
Ridge Line, ``bench/mcts_profile.py``); the log is never copied, and neither is a
batch's heat map (a field named ``heat``), which no rule reads."""

from __future__ import annotations

import numba
from numba.core import cgutils, types
from numba.extending import intrinsic, overload


def copy_state(s):
    """A deep copy without the event log (a one-row log in its place), the log found by
    its name as :func:`restore_state` finds it (not by its place among the fields)."""
    return type(s)(*(a[:1].copy() if name == "log" else a.copy() for name, a in zip(s._fields, s, strict=True)))


@intrinsic
def copy_into(typingctx, a, b):
    """Copy array ``b`` into the same-shaped C-contiguous array ``a`` of the same dtype:
    one ``memcpy`` of its bytes, no allocation. (An element loop over ``reshape`` views,
    a call of numba's reshape helper per 2-d array, took about 1.6 times as long to
    restore a Ridge Line state: ``bench/mcts_profile.py``.)"""
    if not (isinstance(a, types.Array) and isinstance(b, types.Array) and a.layout == "C" and b.layout == "C"
            and a.dtype == b.dtype and a.ndim == b.ndim):
        return None

    def codegen(context, builder, signature, args):
        dst = context.make_array(signature.args[0])(context, builder, args[0])
        src = context.make_array(signature.args[1])(context, builder, args[1])
        cgutils.raw_memcpy(builder, dst.data, src.data, src.nitems, src.itemsize)
        return context.get_dummy_value()

    return types.void(a, b), codegen


NOT_COPIED = ("log", "heat")     # a state's fields a copy leaves alone: the event log, the batch's heat map


def copy_fields(dst, src):
    """Copy each array field of the state ``src`` into the same-shaped one of ``dst``,
    but those named in :data:`NOT_COPIED` (compiled code only: one :func:`copy_into`
    per field, whatever their number, types and dimensions)."""
    raise NotImplementedError("copy_fields is called from compiled code only")


@overload(copy_fields)
def _copy_fields(dst, src):
    # one call per field, written out: a tuple's fields differ in type, so they are
    # reached by constant indices (a loop, or a recursion over the tuple's tail, costs
    # numba a typing pass per step: about 15 s of a cold compile)
    body = "".join(f"    copy_into(dst[{i}], src[{i}])\n" for i, name in enumerate(dst.fields)
                   if name not in NOT_COPIED)
    namespace = {"copy_into": copy_into}
    exec(f"def impl(dst, src):\n{body}    return None\n", namespace)
    return namespace["impl"]


@numba.njit(cache=True, no_cpython_wrapper=False, _nrt=False)
def restore_state(dst, src):
    """Copy ``src`` into ``dst`` in place, without allocating: the position, not the
    event log nor the heat map (:data:`NOT_COPIED`; the rules only add to them, and a
    copy played out is thrown away)."""
    copy_fields(dst, src)
