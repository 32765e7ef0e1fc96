"""Precision on demand (``--precision X``): how many trials a run needs.

A run asked for precision ``X`` stops as soon as the 95% Wilson interval of its
*headline probability* (the one number a command leads with: P(any effect) for
odds, P(at least one hit) for a Tide of Iron attack, ...) is at most ``X`` wide. A
scenario batch, whose verdict is read from the same run, judges the width by the
anytime-valid confidence sequence instead (``sequential``: :mod:`simulator.run.verdicts`),
since the run looks after every batch and stops when the answer looks clear (issue 39).

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
from simulator.run.verdicts import confidence_sequence

MIN_CHUNK_TRIALS = 256
CHUNKS_AT_MOST = 256     # chunk size: the trials that always suffice, cut in this many chunks
PILOT_CHUNKS = 4         # the first batch, before anything is known about the probability
MIN_STEP_CHUNKS = 4      # a later batch adds at least this many chunks
OVERSHOOT = 1.05         # aim a little past the predicted need, to stop in one more batch
# The confidence sequence is about 1.5 to 1.7 times as wide as Wilson's interval near an
# even share from 1,000 to 20,000 trials (more far from it): a sequential plan's next batch
# aims at this many times the trials Wilson's interval would need.
SEQUENCE_TRIALS = 4
from simulator.run.vocabulary import MAX_TRIALS  # noqa: E402 - one definition


def interval_width(successes: float, trials: int, sequential: bool = False) -> float:
    """Width of the 95% Wilson interval of ``successes`` out of ``trials`` (``sequential``:
    of the 95% confidence sequence, valid however often the run looked)."""
    lo, hi = confidence_sequence(int(successes), int(trials)) if sequential else wilson_interval(successes, trials)
    return hi - lo


def trials_always_enough(width: float) -> int:
    """Trials after which the Wilson interval is narrower than ``width`` whatever p is.

    The full width is largest at p = 1/2 and there below ``Z95 / sqrt(n)``. Never more
    than :data:`MAX_TRIALS` (a width so narrow is then not reached: the run says so).
    """
    ratio = Z95 / width
    need = ratio * ratio            # inf, not OverflowError, for an absurdly narrow width
    return MAX_TRIALS if not need < MAX_TRIALS else math.ceil(need)


def sequence_always_enough(width: float) -> int:
    """Trials after which the 95% confidence sequence is narrower than ``width`` whatever
    the share (checked on shares 0, 1/50, ..., 1/2; its prior, centred on an even game,
    makes it widest between an even share and none): the least such ``n``, by doubling then
    bisection, to within 0.1%. At most :data:`MAX_TRIALS`."""
    def narrow(n: int) -> bool:
        return all(interval_width(round(n * k / 50), n, True) <= width for k in range(26))
    hi = max(1, trials_always_enough(width))
    while not narrow(hi):
        if hi >= MAX_TRIALS:
            return MAX_TRIALS
        hi = min(MAX_TRIALS, 2 * hi)
    lo = hi // 2
    while hi - lo > max(1, hi // 1000):      # to within 0.1%: a cap, not an answer
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if narrow(mid) else (mid, hi)
    return hi


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
    sequential: bool = False   # the width judged by the confidence sequence

    @classmethod
    def for_width(cls, width: float, cap: int | None = None, largest_chunk: int = 1 << 20,
                  sequential: bool = False) -> "PrecisionPlan":
        if not (0 < width < 1):
            raise ValueError(f"precision must be between 0 and 1 (got {width})")
        enough = sequence_always_enough(width) if sequential else trials_always_enough(width)
        cap = enough if cap is None else min(cap, enough)
        chunk = min(largest_chunk, max(MIN_CHUNK_TRIALS, math.ceil(cap / CHUNKS_AT_MOST)))
        return cls(width, cap, min(chunk, cap), sequential)

    def reached(self, successes: float, trials: int) -> bool:
        return interval_width(successes, trials, self.sequential) <= self.width

    def first_target(self) -> int:
        return min(self.cap, PILOT_CHUNKS * self.chunk_trials)

    def next_target(self, successes: float, trials: int) -> int:
        """Trials to have done after the next batch (whole chunks, at most ``cap``)."""
        factor = SEQUENCE_TRIALS if self.sequential else 1
        want = math.ceil(OVERSHOOT * factor * trials_predicted(successes, trials, self.width))
        want = max(want, trials + MIN_STEP_CHUNKS * self.chunk_trials)
        want = -(-want // self.chunk_trials) * self.chunk_trials
        return min(self.cap, want)
