"""Numbered names from one declaration: the columns of the game's arrays, the codes of
its actions and events.

A block is one name a line, optionally with how many consecutive numbers it takes
(``HX_OCC*2``: one per side) and what it means::

    U_FIELDS = declare(globals(), '''
        U_SIDE      0 or 1
        U_TYPE      the unit card (a row of the tables' unit types)
    ''')

Each name is set in the module to its number, in order from ``start``; the call returns
the next free number (the width of the array). A name declared twice, a malformed line
or a block that does not start at ``start`` raises at import. Numba reads the names as
the module's global constants (:func:`simulator.games.assault.game.state.int64_constants` makes
them int64 at the end of the module).
"""

from __future__ import annotations

import re

_LINE = re.compile(r"^([A-Z][A-Z0-9_]*)(?:\*(\d+))?(?:\s+(.*))?$")


def parse(block: str) -> list[tuple[str, int, str]]:
    """``(name, width, meaning)`` of each non-blank line of a declaration block."""
    rows = []
    for raw in block.splitlines():
        line = raw.strip()
        if not line:
            continue
        m = _LINE.match(line)
        if m is None:
            raise ValueError(f"field declaration: cannot read {line!r} (NAME, NAME*width, then what it means)")
        rows.append((m.group(1), int(m.group(2) or 1), m.group(3) or ""))
    return rows


def declare(namespace: dict, block: str, start: int = 0) -> int:
    """Set each name of ``block`` in ``namespace`` to its number, counting from ``start``;
    return the next free number."""
    k = start
    for name, width, _meaning in parse(block):
        if name in namespace:
            raise ValueError(f"field declaration: {name} declared twice")
        namespace[name] = k
        k += width
    return k


def names(block: str, start: int = 0) -> dict[int, str]:
    """Number -> name of a declaration block (for printing a state or a log)."""
    out = {}
    k = start
    for name, width, _meaning in parse(block):
        out[k] = name
        k += width
    return out


def labels(block: str) -> tuple[str, ...]:
    """The meanings of a block's names, in order: the words a report prints for codes
    declared with their label (``ONMAP  on map``)."""
    return tuple(meaning for _name, _width, meaning in parse(block))
