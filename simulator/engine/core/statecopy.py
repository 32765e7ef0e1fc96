"""Copying a game's state, for any game: a state is a ``NamedTuple`` of arrays whose
last field is the event log (Assault's and Tide of Iron's ``GameState``). Look-ahead
players copy it and restore it between trials; the log is never copied."""

from __future__ import annotations

import numba
from numba.extending import overload


def copy_state(s):
    """A deep copy without the event log (a one-row log in its place)."""
    return type(s)(*(a.copy() for a in s[:-1]), s[-1][:1].copy())


def copy_arrays(dst, src):
    """Copy each array of the tuple ``src`` into the same-shaped one of ``dst`` (compiled
    code only: unrolled at compile time over the tuple's fields, whatever their number,
    types and dimensions)."""
    raise NotImplementedError("copy_arrays is called from compiled code only")


@overload(copy_arrays, inline="always")
def _copy_arrays(dst, src):
    if len(dst) == 0:
        return lambda dst, src: None

    def impl(dst, src):
        a = dst[0].reshape(dst[0].size)
        b = src[0].reshape(src[0].size)
        for i in range(b.size):
            a[i] = b[i]
        copy_arrays(dst[1:], src[1:])
    return impl


@numba.njit(cache=True, no_cpython_wrapper=False, _nrt=False)
def restore_state(dst, src):
    """Copy ``src`` into ``dst`` in place, log excepted, without allocating."""
    copy_arrays(dst[:-1], src[:-1])
