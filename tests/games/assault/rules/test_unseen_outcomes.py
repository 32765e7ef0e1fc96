"""Monte Carlo tables list every possible outcome (issue 39, item 7): an outcome the pools
can give but the run never saw is a row at 0 with its exact upper bound, not a missing
row. The possible outcomes are the exact calculator's support; few trials make sure some
are never seen."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulator.games.assault import odds
from simulator.games.assault.questions.fire import fire
from simulator.games.assault.questions.melee import melee
from simulator.games.assault.questions.odds import odds_outcomes
from simulator.games.assault.questions.smoke import smoke
from simulator.games.assault.rules.dice import load_dice, parse_pool
from simulator.games.assault.rules.exact import roll_outcome
from simulator.games.assault.rules.melee.situation import MeleeSituation
from simulator.games.assault.rules.pools import FireSituation
from simulator.run.intervals import UNSEEN_LISTED

DICE = load_dice()


def bound(n: int) -> float:
    """The exact (Clopper-Pearson) 95% upper bound of an outcome seen 0 times in n:
    P(0 of n | p) = (1 - p)^n = 0.025 gives p = 1 - 0.025^(1/n)."""
    return 1.0 - 0.025 ** (1.0 / n)


def test_bound_by_hand():
    # 1 - 0.025^(1/40) = 1 - exp(ln(0.025) / 40) = 1 - exp(-3.688879 / 40) = 1 - 0.911903 = 0.088097
    assert bound(40) == pytest.approx(0.088097, abs=1e-6)


def test_odds_lists_every_possible_outcome_seen_or_not():
    trials = 40
    answer = odds_outcomes("RYY", "GG", trials=trials, seed=3)
    mc = answer.frame()
    exact = roll_outcome(parse_pool("RYY", DICE), parse_pool("GG", DICE), DICE)
    possible = set(zip(*(x.tolist() for x in np.nonzero(exact)), strict=True))
    rows = set(zip(mc["crit"].tolist(), mc["hit"].tolist(), mc["supp"].tolist(), strict=True))
    assert rows == possible                      # every possible outcome a row, nothing else
    unseen = mc[mc["p"] == 0]
    # RYY against GG has more outcomes than 40 trials can show: some are never seen
    assert len(possible) > 0 and len(unseen) > 0
    assert (unseen["lo"] == 0).all() and np.allclose(unseen["hi"], bound(trials))
    assert mc["p"].sum() == pytest.approx(1.0)
    assert answer.unseen == UNSEEN_LISTED
    # the damage ladder reaches the most damage possible (read from the exact table), not
    # just the most seen
    most = max(c + h for c, h, _ in possible)
    assert len(answer.summary.p_damage_at_least) == most + 1


def test_exact_odds_lists_non_zero_rows_only_and_has_no_intervals():
    ex = odds_outcomes("RYY", "GG")
    assert (ex["p"] > 0).all() and "lo" not in ex and ex.unseen is None and "unseen" not in ex.to_json()


def test_fire_states_list_every_possible_state():
    kw = dict(trials=30, seed=4, workers=1)
    situation = FireSituation(range=2)
    exact = fire("german/rifles-41", "soviet/rifles-41", situation)
    mc = fire("german/rifles-41", "soviet/rifles-41", situation, **kw)
    cols = ["eliminated", "damage", "suppressed", "fallback", "immobilised"]
    key = lambda f: set(map(tuple, f.table[cols].to_numpy().tolist()))     # noqa: E731
    assert key(mc) == key(exact)                 # the exact table lists the possible states (p > 0)
    unseen = mc.table[mc["p"] == 0]
    assert len(unseen) > 0 and np.allclose(unseen["hi"], bound(30))
    assert mc.unseen == UNSEEN_LISTED


def test_smoke_lists_every_possible_placement():
    ex_answer, mc_answer = smoke("soviet/mortar-82mm"), smoke("soviet/mortar-82mm", trials=25, seed=6, workers=1)
    ex, mc = ex_answer.table, mc_answer.table
    cols = ["hex1", "hex2", "hex3"]
    assert set(map(tuple, mc[cols].to_numpy().tolist())) == set(map(tuple, ex[cols].to_numpy().tolist()))
    unseen = mc[mc["p"] == 0]
    assert len(unseen) > 0 and np.allclose(unseen["hi"], bound(25))
    # per hex, a count of markers the exact table rules out has [0, 0]; one possible but
    # not seen its exact bound
    for h_mc, h_ex in zip(mc_answer.per_hex, ex_answer.per_hex, strict=True):
        for p_ex, p_mc, (lo, hi) in zip(h_ex["p_markers"], h_mc["p_markers"], h_mc["ci95"]["p_markers"], strict=True):
            if p_ex == 0:
                assert (lo, hi) == (0.0, 0.0)
            elif p_mc == 0:
                assert hi == pytest.approx(bound(25))


def test_close_combat_lists_every_end_state_the_exact_chain_reaches():
    s = MeleeSituation()
    ex = melee("soviet/rifles-41", "german/rifles-41", s, edition="v2").to_json()
    mc = melee("soviet/rifles-41", "german/rifles-41", s, edition="v2", trials=20, seed=2, workers=1).to_json()
    assert len(mc["states"]) == len(ex["states"])
    unseen = [st for st in mc["states"] if st["p"] == 0]
    assert len(unseen) > 0 and all(st["ci95"] == pytest.approx([0.0, bound(20)]) for st in unseen)
    assert sum(st["p"] for st in mc["states"]) == pytest.approx(1.0)
    assert mc["unseen"] == UNSEEN_LISTED
    # the CSV of the same answer (--format csv) has the rows too
    frame = melee("soviet/rifles-41", "german/rifles-41", s, edition="v2", trials=20, seed=2, workers=1).frame()
    assert len(frame) == len(ex["states"]) and math.isclose(frame["hi"][frame["p"] == 0].min(), bound(20))


def test_damage_ladder_ends_at_the_most_damage_possible_even_when_seen():
    # one red die against nothing: every face's damage is seen in 2,000 trials (each face
    # has chance 1/6; P(a face unseen) = (5/6)^2000, nil), so no row "beyond the most seen"
    from simulator.games.assault.report.text import odds_table
    mc = odds_outcomes("R", "-", trials=2000, seed=1)
    s = mc.summary.to_json()
    exact = odds("R", "-")
    most = int((exact["crit"] + exact["hit"]).max())
    assert len(s["p_damage_at_least"]) == len(s["ci95"]["p_damage_at_least"]) == most + 1
    assert "may be impossible" not in odds_table(mc)
