"""The engine's results must not depend on how numba inlines (issue 42, item 3).

numba 0.68.1 drops writes into the arrays of a NamedTuple argument when an
``@overload(..., inline="always")`` is inlined into a function that also inlines an
``@njit(inline="always")`` helper writing those arrays: the typed inliner splits the
caller's block and appends the continuation (which holds the helper's ``w = <argument>``)
after the blocks that use it; ``ir_utils.find_potential_aliases`` walks the blocks once,
in that order, so ``getattr(w, "cands")`` is not seen as an alias of the argument, and the
dead-code pass after the inlining removes the ``setitem`` into it. That is what changed
the look-ahead's golden games when the game API's hooks were inlined: its
``best_candidates`` wrote no candidates, and every candidate's playouts played a pass.
docs/compiler.md has the whole account and the upstream report.

These tests reproduce it on a small function and hold the engine to the consequence: as
long as numba drops the writes, no ``@overload`` of ours is inlined.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.extending import overload

ROOT = Path(__file__).resolve().parents[3]


class Work(NamedTuple):
    buf: np.ndarray
    scores: np.ndarray
    cands: np.ndarray


@njit
def _score(w, n):
    for i in range(n):
        w.scores[i] = float((i * 7) % 5)      # 0, 2, 4, 1, 3


def _score_always(w, n):
    pass


def _score_never(w, n):
    pass


@overload(_score_always, inline="always")
def _ov_always(w, n):
    return lambda w, n: _score(w, n)


@overload(_score_never, inline="never")
def _ov_never(w, n):
    return lambda w, n: _score(w, n)


@njit(inline="always")
def _best_three(w, n):
    """The look-ahead's best_candidates, reduced: the three best scores' actions into w.cands."""
    for m in range(3):
        j = 0
        for i in range(n):
            if w.scores[i] > w.scores[j]:
                j = i
        w.cands[m] = w.buf[j]
        w.scores[j] = -1.0
    return 3


@njit
def _candidates_inlined(w, n):
    _score_always(w, n)
    return _best_three(w, n)


@njit
def _candidates_called(w, n):
    _score_never(w, n)
    return _best_three(w, n)


def _cands(entry) -> list[int]:
    w = Work(np.arange(10, 18), np.zeros(8), np.zeros(4, np.int64))
    entry(w, 5)
    return w.cands.tolist()


def numba_drops_the_writes() -> bool:
    """Whether this numba loses the helper's writes behind an inlined overload."""
    return _cands(_candidates_inlined) != _cands(_candidates_called)


def test_the_called_overload_keeps_the_writes():
    # scores 0, 2, 4, 1, 3 for actions 10..14: the best three are 12 (4), 14 (3), 11 (2)
    assert _cands(_candidates_called) == [12, 14, 11, 0]


def test_no_overload_of_ours_is_inlined_while_numba_drops_writes():
    inlined = [f"{p.relative_to(ROOT)}:{i}" for p in (ROOT / "simulator").rglob("*.py")
               for i, line in enumerate(p.read_text().splitlines(), 1)
               if re.search(r"@overload\([^)]*inline\s*=", line)]
    if numba_drops_the_writes():
        assert inlined == [], (f"numba still drops writes behind an inlined @overload (docs/compiler.md): "
                               f"do not inline {inlined}")
    else:                        # a numba that keeps them: inlining the hooks is safe again
        assert _cands(_candidates_inlined) == [12, 14, 11, 0]
