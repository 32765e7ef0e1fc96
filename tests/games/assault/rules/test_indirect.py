"""Indirect fire (7.0-7.4, German text): pools, the 7.3 two-stage roll on vehicles, exact vs Monte Carlo."""

import json
from itertools import product

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.games.assault.questions.fire import fire
from simulator.games.assault.rules.aid import load_aid
from simulator.games.assault.rules.cards import load_units
from simulator.games.assault.rules.dice import load_dice
from simulator.games.assault.rules.pools import REROLL_DAMAGE_DICE, ROLL_ONCE, FireSituation, fire_pools
from simulator.games.assault.rules.set_aside import KEEP_DAMAGE, kept_distribution, split_distribution
from simulator.run.errors import InputError

UNITS = load_units()
AID = load_aid()
DICE = load_dice()
MORTAR = "soviet/mortar-82mm"          # indirect 2-12, RYGG (7.1 German text: 2-12 stated)
RIFLES = "german/rifles-41"


def pools(target=RIFLES, firer=MORTAR, **kw):
    kw.setdefault("range", 6)
    kw.setdefault("indirect", True)
    return fire_pools(UNITS[firer], UNITS[target], FireSituation(**kw), AID)


def cli(*args, code=0):
    res = CliRunner().invoke(main, list(args))
    assert res.exit_code == code, res.output
    return res


@pytest.mark.parametrize("kw,attack,defence", [
    ({}, "RYGG", "YG"),                                                     # 7.1 card back; 10.9.1 clear
    ({"terrain": "forest", "spot": "passed"}, "RYGG", "YYG"),               # 10.9.1 still applies (7.1)
    ({"hindrances": ("brush",)}, "RYGG", "YG"),                              # 7.1: no hindrance dice
    ({"hindrances": ("brush", "forest")}, "RYGG", "YG"),
    ({"smoke": 2}, "RYGG", "YG"),                                            # 7.1: smoke is a hindrance too
    ({"firer_experience": "veteran"}, "RYGGB", "YG"),                        # 10.8.3 still applies
    ({"firer_attack_die_minus_one": True}, "RYG", "YG"),                     # 13.1
    ({"target_status": {"dug-in"}}, "RYGG", "YGG"),                          # 10.9.6
    ({"target_status": {"fast"}}, "RYGG", "Y"),                              # 10.9.6 loses weakest
    ({"target_experience": "hardened"}, "RYGG", "YGB"),                      # 10.9.8
    ({"range": 2}, "RYGG", "YG"),                                            # band edge 2
    ({"range": 12}, "RYGG", "YG"),                                           # band edge 12
])
def test_each_indirect_modifier_produces_its_pool(kw, attack, defence):
    p = pools(**kw)
    assert ("".join(p.attack), "".join(p.defence)) == (attack, defence)
    assert p.reroll == ROLL_ONCE


def test_direct_fire_with_the_same_hindrances_gains_their_dice():
    direct = fire_pools(UNITS[RIFLES], UNITS["soviet/heavy-rifles-41"],
                        FireSituation(range=3, hindrances=("brush",), smoke=1), AID)
    assert "".join(direct.defence) == "YGGG"        # card Y, clear G, brush G, smoke marker G (10.9.2)


@pytest.mark.parametrize("target,defence", [
    ("german/pz-iif", "YB"),       # above B -> +Y (7.3)
    ("german/stug-iiie", "YB"),    # above B -> +Y
    ("soviet/t-26", "YB"),
    ("soviet/zis-30", "-"),        # above "-": no blue, no bonus
    ("german/truck", "-"),
])
def test_vehicles_always_defend_above_with_the_yellow_bonus_for_a_blue_die(target, defence):
    p = pools(target)
    assert (("".join(p.defence)) or "-") == defence
    assert p.reroll == REROLL_DAMAGE_DICE
    assert p.defence_unspotted is None


def test_vehicle_facing_is_always_above_for_indirect_fire():
    assert pools("german/pz-iif", target_facing="above").defence == pools("german/pz-iif").defence
    with pytest.raises(InputError, match="above armour"):
        pools("german/pz-iif", target_facing="front")
    # direct fire may not choose "above" (10.9.3)
    with pytest.raises(InputError, match="only to indirect"):
        pools("german/pz-iif", firer="soviet/at-gun-45mm", indirect=False, range=2, target_facing="above")


def test_vehicle_modifiers_still_apply_to_indirect_fire():
    # a vehicle in fast action gains the firing row's second-column die (7.3: other modifiers apply)
    assert "".join(pools("german/stug-iiie", target_status={"fast"}).defence) == "YBB"
    assert "".join(pools("german/stug-iiie", terrain="forest").defence) == "YBB"     # forest: B for vehicles


def test_explain_shows_each_indirect_rule():
    p = pools("german/pz-iif", hindrances=("brush",))
    sections = {(s.side, s.section) for s in p.steps}
    assert ("attack", "7.1") in sections and ("attack", "7.3") in sections
    assert ("defence", "7.3, 10.9.3") in sections and ("defence", "7.3") in sections
    assert any(s.section == "7.1" and "brush" in s.reason and s.change == "none" for s in p.steps)
    assert any(s.section == "7.0, 10.9.4" for s in p.steps)


def test_who_may_fire_indirectly_and_from_where():
    with pytest.raises(InputError, match="has no indirect fire"):
        pools(firer="german/hmg-34")
    with pytest.raises(InputError, match="2-12"):
        pools(range=1)
    with pytest.raises(InputError, match="2-12"):
        pools(range=13)
    for where in ("heavy-forest", "wooden-building", "stone-building"):          # 7.1
        with pytest.raises(InputError, match=f"no indirect fire from {where}"):
            pools(firer_terrain=where)
    assert pools(firer_terrain="forest").attack == tuple("RYGG")
    with pytest.raises(InputError, match="marked firing"):
        pools(fire_status="move-fire")                                          # 7.0


def test_spotters_and_blocked_lines_of_sight():
    # 7.1: a blocked LOS needs an adjacent friendly infantry/artillery spotter (7.2)
    with pytest.raises(InputError, match="name an adjacent"):
        pools(hindrances=("heavy-forest",))
    with pytest.raises(InputError, match="name an adjacent"):
        pools(hindrances=("brush",), smoke=2)
    p = pools(hindrances=("heavy-forest",), spotter="soviet/rifles-41")
    assert "".join(p.defence) == "YG"
    assert any("soviet/rifles-41 spots" in s.reason for s in p.steps)
    with pytest.raises(InputError, match="vehicle"):
        pools(spotter="soviet/t-26")
    with pytest.raises(InputError, match="side"):
        pools(spotter="german/hmg-34")
    with pytest.raises(InputError, match="indirect fire only"):
        fire_pools(UNITS[RIFLES], UNITS["soviet/heavy-rifles-41"],
                   FireSituation(range=3, spotter="german/hmg-34"), AID)


def test_failed_spotting_die_applies_to_indirect_fire_on_infantry():
    p = pools(terrain="forest")
    assert p.p_spotted == pytest.approx(0.5)                       # forest 4+ (10.5)
    assert "".join(p.defence_unspotted) == "YYGG"                  # + firing row failed-spot G (10.9.5)
    v = pools("german/pz-iif", terrain="forest")                   # forest gives vehicles B: a roll
    assert v.p_spotted == pytest.approx(0.5) and v.defence_unspotted is None


def test_first_roll_keeps_dice_with_a_damage_symbol():
    # R has a damage symbol on 4 faces, Y on 3, G on 2 (dice.toml): 7.3 first roll
    kept = kept_distribution(tuple("RYGG"), DICE, KEEP_DAMAGE)
    assert sum(kept.values()) == pytest.approx(1.0)
    assert kept[()] == pytest.approx((2 / 6) * (3 / 6) * (4 / 6) ** 2)             # the attack fizzles
    assert kept[tuple("RYGG")] == pytest.approx((4 / 6) * (3 / 6) * (2 / 6) ** 2)
    assert kept[("R", "G")] == pytest.approx((4 / 6) * (3 / 6) * 2 * (2 / 6) * (4 / 6))


def test_split_distribution_matches_brute_force_enumeration():
    pool = ("R", "Y", "G")
    split = split_distribution(pool, DICE, KEEP_DAMAGE)
    brute: dict = {}
    for faces in product(*(DICE.die(x).faces for x in pool)):
        kept = tuple(x for x, f in zip(pool, faces, strict=True) if f[0] + f[1] > 0)
        tot = tuple(sum(f[i] for f in faces) for i in range(3))
        brute[(kept, tot)] = brute.get((kept, tot), 0) + 1 / 6 ** 3
    for (kept, tot), p in brute.items():
        assert split[kept][tot] == pytest.approx(p)
    assert sum(d.sum() for d in split.values()) == pytest.approx(1.0)


def test_indirect_fire_on_a_vehicle_is_weaker_than_the_same_dice_at_its_above_armour_once():
    # 7.3 makes fire on vehicles less effective: the no-effect chance includes the fizzle (2/27)
    ex = fire(MORTAR, "german/pz-iif", FireSituation(range=6, indirect=True))
    t = ex.table
    unchanged = t[(t.damage == 0) & ~t.eliminated & ~t.suppressed & ~t.fallback & ~t.immobilised].p.sum()
    assert unchanged > (2 / 6) * (3 / 6) * (4 / 6) ** 2
    assert ex.reroll == REROLL_DAMAGE_DICE and ex.defence_pool == "YB"


@pytest.mark.parametrize("target,kw,seed", [
    ("german/pz-iif", {}, 21),                                                   # 7.3 two-stage roll
    ("german/stug-iiie", {"terrain": "forest", "target_damage": 1}, 22),         # + spotting, vehicle
    (RIFLES, {"terrain": "forest"}, 23),                                         # spotting + 10.9.5 die
    ("german/at-gun-37mm", {"target_status": {"suppressed"}, "firer_damage": 1}, 24),   # half strength
])
def test_indirect_monte_carlo_agrees_with_exact(target, kw, seed):
    trials = 200_000
    s = FireSituation(range=6, indirect=True, **kw)
    ex = fire(MORTAR, target, s)
    mc = fire(MORTAR, target, s, trials=trials, seed=seed, workers=1)
    keys = ["eliminated", "damage", "suppressed", "fallback", "immobilised"]
    both = ex.table.merge(mc.table, on=keys, how="outer", suffixes=("_x", "_mc")).fillna(0.0)
    assert not ((both.p_x == 0) & (both.p_mc > 0)).any()
    se = np.sqrt(both.p_x * (1 - both.p_x) / trials)
    z = np.abs(both.p_mc - both.p_x) / np.where(se > 0, se, 1)
    assert z.max() < 4, both
    assert ex["p"].sum() == pytest.approx(1.0, abs=1e-12)


def test_indirect_cli_json_and_explain():
    obj = json.loads(cli("assault", "fire", MORTAR, "german/pz-iif", "--range", "6", "--indirect",
                         "--format", "json").output)
    assert obj["indirect"] is True and obj["reroll"] == "damage-dice"
    assert obj["attack_pool"] == "RYGG" and obj["defence_pool"] == "YB"
    assert sum(s["p"] for s in obj["states"]) == pytest.approx(1.0)
    assert set(obj["states"][0]) == {"eliminated", "damage", "half_strength", "suppressed", "fallback",
                                      "immobilised", "p"}
    out = cli("assault", "fire", MORTAR, RIFLES, "--range", "6", "--indirect", "--hindrance", "brush",
              "--explain").output
    assert "fires indirectly" in out
    for needle in ("(7.1)", "no die against indirect fire", "7.0, 10.9.4"):
        assert needle in out


def test_indirect_cli_errors_are_one_line():
    res = cli("assault", "fire", "german/hmg-34", RIFLES, "--range", "3", "--indirect", code=2)
    assert "has no indirect fire" in res.output and res.output.count("\n") == 1
    res = cli("assault", "fire", MORTAR, RIFLES, "--range", "14", "--indirect", code=2)
    assert "2-12" in res.output and res.output.count("\n") == 1
