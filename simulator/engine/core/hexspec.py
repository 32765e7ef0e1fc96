"""Hex specs of scenario files, shared by every game: ``"3,4"`` is one hex (column,
row), ``"0-2,5-9"`` a block of them."""

from __future__ import annotations

import re

from simulator.engine.core.hexgrid import HexGrid

_SPEC = re.compile(r"\s*(\d+)(?:\s*-\s*(\d+))?\s*,\s*(\d+)(?:\s*-\s*(\d+))?\s*")


def parse_hex_spec(spec: str) -> list[tuple[int, int]]:
    """``"3,4"`` or ranges ``"0-2,5-9"`` (columns, rows) -> offset coordinates."""
    m = _SPEC.fullmatch(str(spec))
    if not m:
        raise ValueError(f"not a hex or hex range {spec!r} (write \"col,row\" or "
                         f"\"c1-c2,r1-r2\", e.g. \"0-2,0-9\")")
    c1 = int(m.group(1))
    c2 = int(m.group(2)) if m.group(2) else c1
    r1 = int(m.group(3))
    r2 = int(m.group(4)) if m.group(4) else r1
    if c2 < c1 or r2 < r1:
        raise ValueError(f"range {spec!r} runs backwards")
    return [(c, r) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]


def expand_hexes(specs: list[str], grid: HexGrid) -> list[str]:
    """Hex names of a list of hex specs, on the map, in order, without repeats."""
    out: dict[str, None] = {}
    for s in specs:
        for c, r in parse_hex_spec(s):
            if grid.on_map(c, r):
                out[f"{c},{r}"] = None
    return list(out)
