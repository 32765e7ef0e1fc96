"""Smoke (7.5): the 7.5 example replayed, exact vs closed form and Monte Carlo, smoke on the LOS (10.3)."""

import json
from itertools import product

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.games.assault.questions.smoke import smoke
from simulator.games.assault.rules.aid import load_aid
from simulator.games.assault.rules.cards import load_units
from simulator.games.assault.rules.dice import load_dice
from simulator.games.assault.rules.pools import FireSituation, fire_pools
from simulator.games.assault.rules.smoke import exact_smoke, place_smoke
from simulator.games.assault.rules.support import load_support
from simulator.run.errors import InputError

DICE = load_dice()
AID = load_aid()
UNITS = load_units()
MORTAR = "soviet/mortar-82mm"      # smoke with its indirect-fire dice RYGG (7.5)
RYGG = tuple("RYGG")
# P(no damage symbol) per die (dice.toml): R 2/6, Y 3/6, G 4/6
P_NONE = {"R": 2 / 6, "Y": 3 / 6, "G": 4 / 6}


def cli(*args, code=0):
    res = CliRunner().invoke(main, list(args))
    assert res.exit_code == code, res.output
    return res


def test_the_7_5_example_replays():
    # four dice on hex 1: two give three markers (a double among them), two are set aside;
    # hex 2: one marker, one die left; hex 3: a double, two markers (English 7.5 example)
    rolls = ["R:crit+hit Y:hit G:- G:-", "G:hit G:-", "G:crit+hit"]
    assert place_smoke(RYGG, rolls, DICE) == [3, 1, 2]


def test_given_rolls_must_follow_the_dice_set_aside():
    with pytest.raises(InputError, match="must roll GG"):
        place_smoke(RYGG, ["R:crit+hit Y:hit G:- G:-", "R:hit G:-"], DICE)
    with pytest.raises(InputError, match="must roll RYGG"):
        place_smoke(RYGG, ["R:crit+hit Y:hit G:-"], DICE)
    with pytest.raises(InputError, match="1 to 3 hexes"):
        place_smoke(RYGG, ["R:- Y:- G:- G:-"] * 4, DICE)


def test_at_most_four_markers_per_hex_and_a_full_roll_ends_the_action():
    assert place_smoke(RYGG, ["R:crit+hit Y:crit+hit G:crit+hit G:-", "G:hit"], DICE) == [4, 1]
    assert place_smoke(RYGG, ["R:hit Y:hit G:hit G:supp", "G:-", "G:-"], DICE) == [3, 0, 0]   # supp: no smoke
    assert place_smoke(RYGG, ["R:hit Y:hit G:hit G:hit"], DICE) == [4]
    # a half-strength firer's double counts once (10.8.1)
    assert place_smoke(RYGG, ["R:crit+hit Y:- G:- G:-", "Y:- G:- G:-", "Y:- G:- G:-"], DICE,
                       doubles="strongest") == [1, 0, 0]


def test_exact_matches_closed_forms():
    dist = exact_smoke(RYGG, DICE, "all", 3, 4)
    assert dist.sum() == pytest.approx(1.0)
    # no damage symbol on any die, three times over: no smoke anywhere
    p_none = np.prod([P_NONE[x] for x in RYGG])
    assert dist[0, 0, 0] == pytest.approx(p_none ** 3)
    assert dist[0].sum() == pytest.approx(p_none)                     # hex 1 empty
    # hex 1 by brute force over the 6**4 faces, capped at four markers
    brute = np.zeros(5)
    for faces in product(*(DICE.die(x).faces for x in RYGG)):
        brute[min(4, sum(f[0] + f[1] for f in faces))] += 1 / 6 ** 4
    assert dist.sum(axis=(1, 2)) == pytest.approx(brute)
    # when every die shows a damage symbol on hex 1, hexes 2 and 3 stay empty
    p_all = np.prod([1 - P_NONE[x] for x in RYGG])
    assert dist[:, 1:, :].sum() + dist[:, 0, 1:].sum() <= 1 - p_all + 1e-12


def test_a_single_die_puts_smoke_in_the_first_hex_it_hits():
    # one green die: P(first success in hex k) = (4/6)**(k-1) * 2/6; markers = 2 on the double
    dist = exact_smoke(("G",), DICE, "all", 3, 4)
    assert dist[1, 0, 0] == pytest.approx(1 / 6) and dist[2, 0, 0] == pytest.approx(1 / 6)
    assert dist[0, 1, 0] == pytest.approx(4 / 6 / 6) and dist[0, 0, 2] == pytest.approx((4 / 6) ** 2 / 6)
    assert dist[0, 0, 0] == pytest.approx((4 / 6) ** 3)


def test_fewer_hexes_leave_the_others_empty():
    one = smoke(MORTAR, hexes=1)
    assert (one.table.hex2 == 0).all() and (one.table.hex3 == 0).all()
    assert one.per_hex[0]["p_markers"] == pytest.approx(smoke(MORTAR).per_hex[0]["p_markers"])
    two = smoke(MORTAR, hexes=2)
    assert (two.table.hex3 == 0).all() and len(two.per_hex) == 2


@pytest.mark.parametrize("kw,pool,doubles", [
    ({}, "RYGG", "all"),
    ({"firer_experience": "veteran"}, "RYGGB", "all"),        # 10.8.3
    ({"attack_die_minus_one": True}, "RYG", "all"),           # 13.1
    ({"firer_damage": 1}, "RYGG", "strongest"),               # 10.8.1
])
def test_smoke_pool_modifiers(kw, pool, doubles):
    f = smoke(MORTAR, **kw)
    assert (f.smoke_pool, f.doubles) == (pool, doubles)


def test_half_strength_smoke_is_thinner():
    full, half = smoke(MORTAR), smoke(MORTAR, firer_damage=1)
    assert half.summary["mean_total_markers"] < full.summary["mean_total_markers"]


def test_who_may_fire_smoke():
    with pytest.raises(InputError, match="cannot fire smoke"):
        smoke("german/hmg-34")
    with pytest.raises(InputError, match="2-12"):
        smoke(MORTAR, distance=1)
    with pytest.raises(InputError, match="no indirect fire from heavy-forest"):
        smoke(MORTAR, firer_terrain="heavy-forest")
    with pytest.raises(InputError, match="1 to 3 hexes"):
        smoke(MORTAR, hexes=4)


def test_monte_carlo_agrees_with_exact_in_every_cell():
    trials = 300_000
    ex, mc = smoke(MORTAR), smoke(MORTAR, trials=trials, seed=31, workers=1)
    keys = ["hex1", "hex2", "hex3"]
    both = ex.table.merge(mc.table, on=keys, how="outer", suffixes=("_x", "_mc")).fillna(0.0)
    assert not ((both.p_x == 0) & (both.p_mc > 0)).any()
    se = np.sqrt(both.p_x * (1 - both.p_x) / trials)
    z = np.abs(both.p_mc - both.p_x) / np.where(se > 0, se, 1)
    assert z.max() < 4, both
    for h_ex, h_mc in zip(ex.per_hex, mc.per_hex, strict=True):
        assert abs(h_ex["mean_markers"] - h_mc["mean_markers"]) < 4 * h_mc["se"]["mean_markers"]


def test_per_hex_los_effect_counts_markers_as_hindrances():
    h1 = smoke(MORTAR).per_hex[0]
    pm = h1["p_markers"]
    assert h1["p_los_blocked"] == pytest.approx(pm[3] + pm[4])     # 10.3: three markers block
    assert h1["p_los_hindered"] == pytest.approx(pm[1] + pm[2])
    assert h1["mean_turns"] == pytest.approx(h1["mean_markers"])  # one marker removed per turn (6.5)


def test_smoke_markers_on_the_line_of_sight_in_fire():
    sup = load_support()
    def pool(**kw):
        return fire_pools(UNITS["german/rifles-41"], UNITS["soviet/heavy-rifles-41"], FireSituation(range=3, **kw), AID)
    assert "".join(pool(smoke=1).defence) == "YGG"                  # + the marker's die (10.9.2)
    assert "".join(pool(smoke=2).defence) == "Y" + "".join(sorted("G" + "".join(sup.smoke_los_dice) * 2,
                                                                    key=DICE.rank))
    with pytest.raises(InputError, match="three or more block"):  # rulings #14: hexes + markers
        pool(smoke=2, hindrances=("brush",))
    with pytest.raises(InputError, match="three or more block"):
        pool(smoke=3)
    steps = [s for s in pool(smoke=1).steps if s.section == "10.3, 10.9.2"]
    assert len(steps) == 1 and steps[0].change == "+G"


def test_support_file_is_checked(tmp_path):
    from simulator.games.assault.rules.support import DEFAULT_SUPPORT_FILE
    text = DEFAULT_SUPPORT_FILE.read_text()
    bad = tmp_path / "support.toml"
    bad.write_text(text.replace('"heavy-forest",', '"jungle",'))
    with pytest.raises(InputError) as e:
        load_support(bad)
    assert e.value.key == "indirect_fire.no_fire_from[0]" and "jungle" in e.value.problem
    bad.write_text(text.replace('los_dice = "G"', 'los_dice = "X"'))
    with pytest.raises(InputError) as e:
        load_support(bad)
    assert e.value.key == "smoke.los_dice"


def test_smoke_cli_json_table_and_explain():
    obj = json.loads(cli("assault", "smoke", MORTAR, "--format", "json").output)
    for key in ("method", "firer", "smoke_pool", "hexes", "per_hex", "outcomes", "summary", "explain",
                "dice_status", "support_status"):
        assert key in obj
    assert obj["smoke_pool"] == "RYGG" and obj["method"] == "exact"
    assert sum(o["p"] for o in obj["outcomes"]) == pytest.approx(1.0)
    assert set(obj["outcomes"][0]) == {"hex1", "hex2", "hex3", "p"}
    assert [h["hex"] for h in obj["per_hex"]] == [1, 2, 3]
    out = cli("assault", "smoke", MORTAR, "--explain", "--hexes", "2").output
    assert "(7.5" in out and "LOS blocked" in out and "3 third hex" not in out
    mc = json.loads(cli("assault", "smoke", MORTAR, "--trials", "20000", "--seed", "4", "--workers", "1",
                        "--format", "json").output)
    assert mc["method"] == "monte-carlo" and mc["seed"] == 4 and "se" in mc["outcomes"][0]
    assert cli("assault", "smoke", MORTAR, "--format", "csv").output.startswith("hex1,hex2,hex3,p")
    res = cli("assault", "smoke", "german/hmg-34", code=2)
    assert "cannot fire smoke" in res.output and res.output.count("\n") == 1


SMOKE_JSON_KEYS = ["method", "trials", "seed", "firer", "smoke_pool", "doubles", "hexes", "max_markers_per_hex",
                   "range", "dice", "dice_status", "aid", "aid_status", "support", "support_status", "per_hex",
                   "outcomes", "summary", "explain"]   # the order `smoke --format json` printed before issue 42.4


def test_smoke_answer_is_a_value_rendered_as_json_and_csv():
    import dataclasses
    import io

    import pandas as pd

    answer = smoke(MORTAR)
    with pytest.raises(dataclasses.FrozenInstanceError):
        answer.hexes = 1     # type: ignore[misc]
    j = answer.to_json()
    assert list(j) == SMOKE_JSON_KEYS and "unseen" not in j       # exact: nothing unseen, no run
    # RYGG: no damage symbol on R, Y, G, G is 2/6 * 3/6 * 4/6 * 4/6 = 96/1296 = 0.0740741;
    # no smoke in three hexes: that, three times over, 0.0740741 ** 3 = 0.000406442
    assert j["smoke_pool"] == "RYGG"
    assert j["summary"]["p_no_smoke"] == pytest.approx((96 / 1296) ** 3, rel=1e-12)
    assert j["summary"]["p_no_smoke"] == pytest.approx(0.000406442, abs=1e-9)
    no_smoke = [o for o in j["outcomes"] if (o["hex1"], o["hex2"], o["hex3"]) == (0, 0, 0)]
    assert no_smoke[0]["p"] == pytest.approx((96 / 1296) ** 3, rel=1e-12)
    assert sum(o["p"] for o in j["outcomes"]) == pytest.approx(1.0)
    csv = pd.read_csv(io.StringIO(answer.frame().to_csv(index=False)))
    assert list(csv.columns) == ["hex1", "hex2", "hex3", "p"] and len(csv) == len(j["outcomes"])
    assert csv.loc[(csv.hex1 == 0) & (csv.hex2 == 0) & (csv.hex3 == 0), "p"].iloc[0] == pytest.approx(
        (96 / 1296) ** 3, rel=1e-12)
    assert answer.frame().attrs == {}


def test_smoke_monte_carlo_answer_says_what_it_never_saw():
    answer = smoke(MORTAR, hexes=2, trials=2000, seed=7, workers=1)
    j = answer.to_json()
    assert list(j) == [*SMOKE_JSON_KEYS, "unseen"]
    assert (j["method"], j["trials"], j["seed"]) == ("monte-carlo", 2000, 7)
    assert answer.run is not None and "run" not in j
