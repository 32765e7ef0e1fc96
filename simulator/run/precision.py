"""Precision on demand (``--precision X``): how many trials a run needs.

A run asked for precision ``X`` stops as soon as the 95% Wilson interval of its
*headline probability* (the one number a command leads with: P(any effect) for
odds, P(at least one hit) for a Tide of Iron attack, ...) is at most ``X`` wide.

Everything here depends only on ``X`` (and an optional cap on trials) and on the
results so far, never on the number of workers: the chunk size is fixed by ``X``,
the run grows in batches of whole chunks, and the next batch's size is worked out
from the counts merged so far. So the stopping point, and the numbers, depend on
the seed and ``X`` alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from simulator.run.stats import Z95, wilson_interval

MIN_CHUNK_TRIALS = 256
CHUNKS_AT_MOST = 256     # chunk size: the trials that always suffice, cut in this many chunks
PILOT_CHUNKS = 4         # the first batch, before anything is known about the probability
MIN_STEP_CHUNKS = 4      # a later batch adds at least this many chunks
OVERSHOOT = 1.05         # aim a little past the predicted need, to stop in one more batch
from simulator.run.vocabulary import MAX_TRIALS  # noqa: E402 - one definition


def interval_width(successes: float, trials: int) -> float:
    """Width of the 95% Wilson interval of ``successes`` out of ``trials``."""
    lo, hi = wilson_interval(successes, trials)
    return hi - lo


def trials_always_enough(width: float) -> int:
    """Trials after which the Wilson interval is narrower than ``width`` whatever p is.

    The full width is largest at p = 1/2 and there below ``Z95 / sqrt(n)``. Never more
    than :data:`MAX_TRIALS` (a width so narrow is then not reached: the run says so).
    """
    ratio = Z95 / width
    need = ratio * ratio            # inf, not OverflowError, for an absurdly narrow width
    return MAX_TRIALS if not need < MAX_TRIALS else math.ceil(need)


def trials_predicted(successes: float, trials: int, width: float) -> int:
    """Trials a run with this record so far is expected to need (normal approximation,
    Agresti-Coull estimate so that 0 or all successes do not predict zero)."""
    p = (successes + 2) / (trials + 4)
    ratio = 2 * Z95 * math.sqrt(p * (1 - p)) / width
    need = ratio * ratio            # inf, not OverflowError or a division by zero
    return MAX_TRIALS if not need < MAX_TRIALS else math.ceil(need)


@dataclass(frozen=True)
class PrecisionPlan:
    """How a ``--precision`` run grows: chunk size, cap, and the batch after each check."""

    width: float
    cap: int             # never more trials than this
    chunk_trials: int

    @classmethod
    def for_width(cls, width: float, cap: int | None = None, largest_chunk: int = 1 << 20) -> "PrecisionPlan":
        if not (0 < width < 1):
            raise ValueError(f"precision must be between 0 and 1 (got {width})")
        enough = trials_always_enough(width)
        cap = enough if cap is None else min(cap, enough)
        chunk = min(largest_chunk, max(MIN_CHUNK_TRIALS, math.ceil(cap / CHUNKS_AT_MOST)))
        return cls(width, cap, min(chunk, cap))

    def reached(self, successes: float, trials: int) -> bool:
        return interval_width(successes, trials) <= self.width

    def first_target(self) -> int:
        return min(self.cap, PILOT_CHUNKS * self.chunk_trials)

    def next_target(self, successes: float, trials: int) -> int:
        """Trials to have done after the next batch (whole chunks, at most ``cap``)."""
        want = math.ceil(OVERSHOOT * trials_predicted(successes, trials, self.width))
        want = max(want, trials + MIN_STEP_CHUNKS * self.chunk_trials)
        want = -(-want // self.chunk_trials) * self.chunk_trials
        return min(self.cap, want)
