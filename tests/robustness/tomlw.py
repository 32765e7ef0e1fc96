"""A tiny TOML writer for the robustness tests (inline tables; enough to round-trip data files).

The standard library reads TOML but does not write it; the corpus and the fuzzers
write mutated data files with this.
"""

from __future__ import annotations

import json
import math
from typing import Any


def _string(text: str) -> str:
    # JSON escapes are valid TOML basic-string escapes; TOML also wants DEL escaped.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_string(str(k))} = {value(x)}" for k, x in v.items()) + " }" if v else "{}"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def dumps(data: dict[str, Any]) -> str:
    """One ``key = value`` line per top-level key."""
    return "".join(f"{_string(str(k))} = {value(v)}\n" for k, v in data.items())
