"""Copying a game's state, for any game: a state is a ``NamedTuple`` of arrays whose
last field is the event log (Assault's and Tide of Iron's ``GameState``). Look-ahead
players copy it and restore it between trials; the log is never copied."""

from __future__ import annotations

import numba
from numba.core import cgutils, types
from numba.extending import intrinsic, overload


def copy_state(s):
    """A deep copy without the event log (a one-row log in its place)."""
    return type(s)(*(a.copy() for a in s[:-1]), s[-1][:1].copy())


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


def copy_arrays(dst, src):
    """Copy each array of the tuple ``src`` into the same-shaped one of ``dst`` (compiled
    code only: one :func:`copy_into` per field, whatever their number, types and
    dimensions)."""
    raise NotImplementedError("copy_arrays is called from compiled code only")


@overload(copy_arrays)
def _copy_arrays(dst, src):
    # one call per field, written out: a tuple's fields differ in type, so they are
    # reached by constant indices (a loop, or a recursion over the tuple's tail, costs
    # numba a typing pass per step: about 15 s of a cold compile)
    body = "".join(f"    copy_into(dst[{i}], src[{i}])\n" for i in range(len(dst)))
    namespace = {"copy_into": copy_into}
    exec(f"def impl(dst, src):\n{body}    return None\n", namespace)
    return namespace["impl"]


@numba.njit(cache=True, no_cpython_wrapper=False, _nrt=False)
def restore_state(dst, src):
    """Copy ``src`` into ``dst`` in place, log excepted, without allocating."""
    copy_arrays(dst[:-1], src[:-1])
