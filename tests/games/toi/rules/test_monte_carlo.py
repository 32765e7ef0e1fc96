"""Monte Carlo kernels against the exact answers (4 standard errors), and determinism."""

import numpy as np
import pytest

from simulator.games.toi.questions.odds import assault, fire, parse_target
from simulator.games.toi.rules.assault import build_assault
from simulator.games.toi.rules.attack import from_strengths
from simulator.games.toi.rules.data import load_game
from simulator.games.toi.rules.units import parse_unit

GAME = load_game()
TRIALS = 200_000


def within(mc, ex, se, k=4.0, trials=None):
    """|MC - exact| <= k standard errors. For probabilities, the standard error under the exact
    value is used too, so a rare outcome the sample missed (count 0, se 0) is not a failure."""
    mc, ex, se = (np.asarray(x, dtype=float) for x in (mc, ex, se))
    if trials is not None:
        se = np.maximum(se, np.sqrt(np.clip(ex * (1 - ex), 0, None) / trials))
    assert np.all(np.abs(mc - ex) <= k * se + 1e-12), (mc, ex, se)


@pytest.mark.parametrize("n_att,n_def,band,thick,area,target,mode", [
    (6, 2, "normal", False, False, "squad:4", "suppressive"),
    (8, 6, "normal", True, False, "tiger", "normal"),
    (5, 3, "close", False, False, "squad:3:pinned", "suppressive"),
    (9, 1, "long", False, True, "squad:4", "normal"),
    (7, 0, "close", False, False, "gmc_truck", "normal"),
])
def test_fire_monte_carlo_agrees_with_exact(n_att, n_def, band, thick, area, target, mode):
    attack = from_strengths(n_att, n_def, band, mode=mode, area=area, thick_armour=thick,
                            target=parse_target(target, GAME))
    ex = fire(attack, game=GAME)
    mc = fire(attack, game=GAME, trials=TRIALS, seed=11, workers=1)
    within(mc["p"], ex["p"], mc["se"], trials=TRIALS)
    se = mc.summary["se"]
    for key, value in ex.summary.items():
        within(mc.summary[key], value, se[key], trials=TRIALS if key.startswith("p_") else None)
    assert mc.method == "monte-carlo" and mc.seed == 11 and mc.trials == TRIALS


def _example():
    return build_assault(GAME, parse_unit("squad:4regular:flamethrower", GAME),
                         [parse_unit("squad:4regular", GAME)],
                         [parse_unit("squad:3regular:pinned:woods:entrenchment", GAME),
                          parse_unit("squad:2regular:disrupted", GAME), parse_unit("sdkfz_251", GAME)],
                         retreat_space=1)


def test_assault_monte_carlo_agrees_with_exact():
    s = _example()
    ex = assault(s, game=GAME)
    mc = assault(s, game=GAME, trials=TRIALS, seed=5, workers=1)
    se = mc.summary["se"]
    for key, value in ex.summary.items():
        within(mc.summary[key], value, se[key], trials=TRIALS if key.startswith("p_") else None)
    for a, b in zip(mc.defenders, ex.defenders, strict=True):
        for key, value in b.items():
            if key != "unit":
                within(a[key], value, a["se"][key], trials=TRIALS if key.startswith("p_") else None)
    merged = ex.frame().merge(mc.frame(), on=["attacker_hits", "defender_hits"], how="left", suffixes=("_exact", ""))
    merged = merged.fillna({"p": 0.0, "se": 0.0})
    within(merged["p"], merged["p_exact"], merged["se"], trials=TRIALS)


def test_same_seed_same_numbers_whatever_the_workers():
    attack = from_strengths(7, 3, "normal", target=parse_target("squad:4", GAME))
    one = fire(attack, game=GAME, trials=60_000, seed=3, workers=1, chunk_trials=10_000)
    two = fire(attack, game=GAME, trials=60_000, seed=3, workers=2, chunk_trials=10_000)
    assert one["p"].tolist() == two["p"].tolist()
    assert one.summary == two.summary
    s = _example()
    a1 = assault(s, game=GAME, trials=40_000, seed=9, workers=1, chunk_trials=7_000)
    a2 = assault(s, game=GAME, trials=40_000, seed=9, workers=2, chunk_trials=7_000)
    assert a1["p"].tolist() == a2["p"].tolist()
    other = fire(attack, game=GAME, trials=60_000, seed=4, workers=1, chunk_trials=10_000)
    assert one["p"].tolist() != other["p"].tolist()


def test_unseeded_runs_report_their_seed():
    attack = from_strengths(3, 1, "close")
    mc = fire(attack, game=GAME, trials=1000, workers=1)
    again = fire(attack, game=GAME, trials=1000, workers=1, seed=mc.seed)
    assert isinstance(mc.seed, int) and mc["p"].tolist() == again["p"].tolist()
