"""``--precision`` on a scenario batch judges the width by the confidence sequence (issue
39, item 2): the plan's cap is enough at any share, and the plan stops only when the
sequence, not Wilson's interval, is narrow enough."""

from __future__ import annotations

from simulator.run.precision import PrecisionPlan, interval_width, sequence_always_enough, trials_always_enough
from simulator.run.verdicts import confidence_sequence, wilson


def test_the_sequences_cap_is_enough_at_every_share_and_not_much_more():
    for width in (0.2, 0.05):
        n = sequence_always_enough(width)
        widths = [interval_width(k, n, True) for k in range(0, n + 1, max(1, n // 500))]
        assert max(widths) <= width
        # the least such n to within 0.1% (bisection), checked on the same 26 shares it uses
        m = int(n * 0.995)
        assert max(interval_width(round(m * k / 50), m, True) for k in range(26)) > width
        assert n > trials_always_enough(width)          # the price of looking after every batch


def test_a_sequential_plan_reads_the_sequence():
    plan = PrecisionPlan.for_width(0.1, sequential=True)
    assert plan.sequential and plan.cap == sequence_always_enough(0.1)
    # 500 of 1,000: Wilson's interval is 0.062 wide, the sequence's wider than 0.062
    lo, hi = wilson(500, 1000)
    slo, shi = confidence_sequence(500, 1000)
    assert interval_width(500, 1000) == hi - lo and interval_width(500, 1000, True) == shi - slo
    assert PrecisionPlan.for_width(0.07).reached(500, 1000)            # Wilson: 0.062 <= 0.07
    assert shi - slo > 0.07                                         # the sequence: wider than 0.07
    assert PrecisionPlan.for_width(0.07, sequential=True).reached(500, 1000) == (shi - slo <= 0.07)
