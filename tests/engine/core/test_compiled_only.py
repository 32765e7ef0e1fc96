"""A compiled rule without a Python entry refuses a Python call with a clear error
instead of crashing the interpreter (issue 42, item 3): numba compiles such a function
(``no_cpython_wrapper``) with no Python wrapper, and its dispatcher would run code never
given one. From compiled code the same function works as before."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from simulator.engine.core import actions, compiling


@compiling.rule
def _twice(x):
    return 2 * x


@compiling.rule_inlined
def _plus_one(x):
    return x + 1


@compiling.rule_hot
def _square(x):
    return x * x


@compiling.rule_alloc
def _zeros(n):
    return np.ones(n)


@compiling.rule_plain
def _minus_one(x):
    return x - 1


@compiling.entry
def _from_python(x):
    return _twice(x) + _plus_one(x) + _square(x) + _minus_one(x)


RULES = [_twice, _plus_one, _square, _zeros, _minus_one, actions.a_kind, actions.a_unit, actions.a_arg,
         actions.action, compiling.push]


@pytest.mark.parametrize("fn", RULES, ids=lambda f: f.py_func.__name__)
def test_a_python_call_of_a_compiled_rule_is_refused(fn):
    args = (np.zeros(2, np.int64), 0, 1) if fn is compiling.push else (3,) * fn.py_func.__code__.co_argcount
    with pytest.raises(TypeError, match=rf"{fn.py_func.__name__} is a compiled rule with no Python entry"):
        fn(*args)


def test_compiled_code_still_calls_them():
    # 2*3 + (3+1) + 3*3 + (3-1) = 6 + 4 + 9 + 2
    assert _from_python(np.int64(3)) == 21

    @numba.njit
    def decode(a):
        return actions.a_kind(a), actions.a_unit(a), actions.a_arg(a)

    a = actions.action.py_func(7, 5, 300)        # kind 7, unit 5, argument 300
    assert decode(np.int64(a)) == (7, 5, 300) == actions.decode(a)


def test_entries_keep_their_python_call():
    assert type(_from_python).__name__ == "_TypedByType"
    assert _from_python(np.int64(1)) == 2 + 2 + 1 + 0
