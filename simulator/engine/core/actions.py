"""The action encoding every game on the engine shares: one int64 per action, its kind in
the low 8 bits, the acting unit in the next 8 and the kind's argument above them
(``action(kind, unit, arg)``; ``a_kind``, ``a_unit``, ``a_arg`` take it apart). What the
kinds and arguments mean is each game's (``simulator/games/<game>/game/state.py``), as are
the argument packers such as Assault's ``place_arg`` or Tide of Iron's ``fire_arg``."""

from __future__ import annotations

from simulator.engine.core.compiling import rule_plain

KIND_BITS = 8       # kinds 0..255
UNIT_BITS = 8       # units 0..255; the argument is the rest


@rule_plain
def action(kind, unit, arg):
    """The action of ``kind`` by ``unit`` with argument ``arg``."""
    return kind | (unit << 8) | (arg << 16)


@rule_plain
def a_kind(a):
    """Action ``a``'s kind."""
    return a & 0xFF


@rule_plain
def a_unit(a):
    """The unit acting in ``a``."""
    return (a >> 8) & 0xFF


@rule_plain
def a_arg(a):
    """Action ``a``'s argument (what its kind says it is)."""
    return a >> 16


def decode(a: int) -> tuple[int, int, int]:
    """``(kind, unit, arg)`` of action ``a``, for Python callers (the compiled functions'
    own Python code)."""
    a = int(a)
    return a_kind.py_func(a), a_unit.py_func(a), a_arg.py_func(a)
