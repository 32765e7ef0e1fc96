"""Property tests of cancellation (10.7.2) and the exact distribution."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.games.assault import odds
from simulator.games.assault.questions.odds import odds_outcomes
from simulator.games.assault.rules.compare import uncancelled

counts = st.integers(min_value=0, max_value=12)
pools = st.text(alphabet="RYGB", min_size=0, max_size=5).map(lambda s: s or "-")


@given(counts, counts, counts, counts, counts, counts)
def test_never_more_uncancelled_than_rolled(ac, ah, asu, dc, dh, ds):
    c, h, s = uncancelled(ac, ah, asu, dc, dh, ds)
    assert 0 <= c <= ac and 0 <= h <= ah and 0 <= s <= asu
    # every cancelled symbol needs a defence symbol at least as strong
    assert (ac - c) <= dc
    assert (ac - c) + (ah - h) <= dc + dh
    assert (ac - c) + (ah - h) + (asu - s) <= dc + dh + ds


@given(counts, counts, counts, counts, counts, counts, st.sampled_from([0, 1, 2]))
def test_one_more_defence_symbol_never_helps_the_attacker(ac, ah, asu, dc, dh, ds, k):
    before = uncancelled(ac, ah, asu, dc, dh, ds)
    extra = [dc, dh, ds]
    extra[k] += 1
    after = uncancelled(ac, ah, asu, *extra)
    assert all(a <= b for a, b in zip(after, before, strict=True))


@settings(max_examples=60, deadline=None)
@given(pools, pools, st.sampled_from("RYGB"))
def test_adding_a_defence_die_never_helps_the_attacker(attack, defence, die):
    base = odds_outcomes(attack, defence).summary
    more = odds_outcomes(attack, (defence if defence != "-" else "") + die).summary
    assert more.p_any <= base.p_any + 1e-12
    assert more.mean_damage <= base.mean_damage + 1e-12
    for a, b in zip(more.p_damage_at_least, base.p_damage_at_least, strict=True):
        assert a <= b + 1e-12


@settings(max_examples=60, deadline=None)
@given(pools, pools, st.sampled_from(["all", "strongest", "weakest"]), st.integers(0, 2))
def test_probabilities_sum_to_one(attack, defence, doubles, extra):
    frame = odds(attack, defence, doubles=doubles, extra_supp=extra)
    assert abs(frame["p"].sum() - 1.0) < 1e-12
    assert (frame["p"] > 0).all()
    assert np.all(frame[["crit", "hit", "supp"]].to_numpy() >= 0)
