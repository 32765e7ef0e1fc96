"""Ranged fire (chapter 10): the 11.0 example, every modifier's pool, exact vs Monte Carlo."""

import dataclasses
import json

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.games.assault.questions.fire import fire
from simulator.games.assault.rules.aid import load_aid
from simulator.games.assault.rules.cards import load_units
from simulator.games.assault.rules.pools import FireSituation, fire_pools
from simulator.run.errors import InputError

UNITS = load_units()
AID = load_aid()
RIFLES, HEAVY = "german/rifles-41", "soviet/heavy-rifles-41"


def pools(firer=RIFLES, target=HEAVY, **kw):
    kw.setdefault("range", 3)
    return fire_pools(UNITS[firer], UNITS[target], FireSituation(**kw), AID)


def cli(*args):
    res = CliRunner().invoke(main, list(args))
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_chapter_11_worked_example_replayed_from_the_given_roll():
    # 11.0 steps 5-11: R crit+hit, Y supp against Y blank, G hit; crit roll G blank vs B blank
    obj = cli("assault", "resolve", "--attack", "R:crit+hit Y:supp", "--defence", "Y:- G:hit",
              "--target", HEAVY, "--crit-attack", "G:-", "--crit-defence", "B:-", "--format", "json")
    assert obj["uncancelled"] == {"crit": 1, "hit": 0, "supp": 1}
    assert obj["critical_hit_roll"]["strongest"] == "none"
    st = obj["state"]
    assert st["damage"] == 1 and st["suppressed"] and not st["fallback"] and not st["eliminated"]


def test_chapter_11_as_a_fire_question():
    obj = cli("assault", "fire", RIFLES, HEAVY, "--range", "3", "--format", "json")
    assert obj["attack_pool"] == "RY" and obj["defence_pool"] == "YG"   # 11.0 steps 3 and 7
    assert obj["p_spotted"] == 1.0 and obj["method"] == "exact"
    for key in ("firer", "target", "target_strength", "states", "summary"):
        assert key in obj
    assert sum(s["p"] for s in obj["states"]) == pytest.approx(1.0)
    assert set(obj["states"][0]) == {"eliminated", "damage", "half_strength", "suppressed", "fallback",
                                      "immobilised", "p"}
    odds = cli("assault", "odds", "RY", "YG", "--format", "json")
    assert obj["summary"]["mean_damage"] == pytest.approx(odds["summary"]["mean_damage"], abs=0.01)


@pytest.mark.parametrize("kw,attack,defence", [
    ({}, "RY", "YG"),
    ({"terrain": "forest", "spot": "passed"}, "RY", "YYG"),                 # 10.9.1
    ({"hill": True}, "RY", "YGB"),                                          # 10.9.1 hill row
    ({"hindrances": ("brush",)}, "RY", "YGG"),                              # 10.9.2
    ({"hindrances": ("brush", "forest")}, "RY", "YYGG"),                    # cumulative
    ({"fire_status": "move-fire"}, "RY", "YGG"),                            # 10.9.4
    ({"fire_status": "fire-move"}, "RY", "YGG"),
    ({"target_status": {"dug-in"}}, "RY", "YGG"),                           # 10.9.6
    ({"target_status": {"suppressed"}}, "RY", "YGG"),
    ({"target_status": {"digging-in"}}, "RY", "Y"),                         # loses weakest
    ({"target_status": {"fast"}}, "RY", "Y"),
    ({"target_status": {"fast"}, "terrain": "forest"}, "RY", "YY"),
    ({"target_experience": "hardened"}, "RY", "YGB"),                       # 10.9.8
    ({"firer_experience": "veteran"}, "RYB", "YG"),                         # 10.8.3
    ({"firer_attack_die_minus_one": True}, "R", "YG"),                      # 13.1
    ({"into_close_combat": True}, "RY", "Y"),                               # 10.11
])
def test_each_modifier_produces_its_pool(kw, attack, defence):
    p = pools(**kw)
    assert ("".join(p.attack), "".join(p.defence)) == (attack, defence)


def test_failed_spotting_die_by_fire_status():
    assert "".join(pools(spot="failed").defence_unspotted) == "YGG"                    # firing: G
    assert "".join(pools(spot="failed", fire_status="move-fire").defence_unspotted) == "YYGG"
    assert pools(spot="failed").p_spotted == 0.0
    assert pools(terrain="forest").p_spotted == pytest.approx(0.5)                      # 4+
    assert pools(terrain="forest", range=1).p_spotted == 1.0                            # adjacent
    assert pools(terrain="forest", target_status={"fast"}).p_spotted == 1.0            # 10.5.1 item 3


def test_half_strength_firer_and_recruit_target():
    assert pools(firer_damage=2).doubles == "strongest"       # 10.8.1
    assert pools().doubles == "all"
    assert pools(target_experience="recruit").extra_supp == 1  # 4.2.3


def test_vehicle_targets_by_facing_and_unspotted():
    gun, tank = "soviet/at-gun-45mm", "german/pz-iif"
    front = pools(gun, tank, range=2, target_facing="front")
    flank = pools(gun, tank, range=2, target_facing="flank")
    rear = pools(gun, tank, range=2, target_facing="rear")
    assert front.attack == flank.attack
    assert front.defence == UNITS[tank].defence_dice("front")
    assert flank.defence == UNITS[tank].defence_dice("flank")
    assert len(rear.defence) <= len(flank.defence) <= len(front.defence)
    assert fire(gun, tank, FireSituation(range=2, target_facing="flank")).summary["p_eliminated"] > \
        fire(gun, tank, FireSituation(range=2, target_facing="front")).summary["p_eliminated"]
    # 10.9.4: a vehicle in fast action gains the second-column die instead
    fast = pools(gun, tank, range=2, target_facing="front", target_status={"fast"})
    assert len(fast.defence) == len(front.defence) + 1
    # 10.5: an unspotted vehicle cannot be fired at
    unspotted = fire(gun, tank, FireSituation(range=2, target_facing="front", spot="failed"))
    assert unspotted.summary["p_eliminated"] == 0.0
    assert len(unspotted.table) == 1 and unspotted["p"].iloc[0] == pytest.approx(1.0)


def test_situations_the_rules_forbid():
    with pytest.raises(InputError, match="no turret"):
        pools(fire_status="turret")
    with pytest.raises(InputError, match="blocks LOS"):
        pools(hindrances=("heavy-forest",))
    with pytest.raises(InputError, match="vehicle"):
        pools("soviet/at-gun-45mm", "german/pz-iif", range=2)
    with pytest.raises(InputError, match="range"):
        pools(range=40)


@pytest.mark.parametrize("firer,target,kw,seed", [
    (RIFLES, HEAVY, {"range": 3, "terrain": "forest"}, 11),                        # spotting roll
    ("soviet/at-gun-45mm", "german/pz-iif", {"range": 2, "target_facing": "flank"}, 12),
    (RIFLES, "soviet/at-gun-45mm", {"range": 2, "target_status": {"suppressed"}}, 13),
    ("german/hmg-34", HEAVY, {"range": 2, "target_damage": 2, "target_experience": "recruit"}, 14),
])
def test_monte_carlo_agrees_with_exact(firer, target, kw, seed):
    trials = 300_000
    s = FireSituation(**kw)
    ex = fire(firer, target, s)
    mc = fire(firer, target, s, trials=trials, seed=seed)
    keys = ["eliminated", "damage", "suppressed", "fallback", "immobilised"]
    both = ex.table.merge(mc.table, on=keys, how="outer", suffixes=("_x", "_mc")).fillna(0.0)
    assert not ((both.p_x == 0) & (both.p_mc > 0)).any()
    se = np.sqrt(both.p_x * (1 - both.p_x) / trials)
    z = np.abs(both.p_mc - both.p_x) / np.where(se > 0, se, 1)
    assert z.max() < 4, both
    assert ex["p"].sum() == pytest.approx(1.0, abs=1e-12)


def test_explain_names_each_rule():
    res = CliRunner().invoke(main, ["assault", "fire", RIFLES, HEAVY, "--range", "3", "--terrain", "forest",
                                    "--spot", "failed", "--target-status", "dug-in", "--explain"])
    assert res.exit_code == 0, res.output
    for needle in ("10.1", "10.9.1", "10.9.5", "10.9.6", "spotting roll given as failed"):
        assert needle in res.output


# --- 10.11: firing into a close combat (second case: an enemy vehicle with a friendly vehicle) ---

TANK_HUNTERS, T26, PZ = "german/tank-hunters-41", "soviet/t-26", "german/pz-iif"
INTO_CC = dict(range=2, target_facing="flank", into_close_combat=True, friendly_vehicle=PZ, friendly_facing="rear")


def test_only_infantry_fire_into_a_close_combat():
    with pytest.raises(InputError, match="only infantry fire into a close combat"):
        pools("soviet/at-gun-45mm", HEAVY, range=2, into_close_combat=True)
    with pytest.raises(InputError, match="not artillery"):
        pools(RIFLES, "soviet/at-gun-45mm", range=2, into_close_combat=True)


def test_fire_at_an_enemy_vehicle_in_close_combat_names_the_friendly_vehicle():
    base = {k: v for k, v in INTO_CC.items() if k not in ("friendly_vehicle", "friendly_facing")}
    with pytest.raises(InputError, match="name it"):
        pools(TANK_HUNTERS, T26, **base)
    with pytest.raises(InputError, match="not a vehicle of"):
        pools(TANK_HUNTERS, T26, **{**INTO_CC, "friendly_vehicle": RIFLES})
    with pytest.raises(InputError, match="not a vehicle of"):
        pools(TANK_HUNTERS, T26, **{**INTO_CC, "friendly_vehicle": "soviet/zis-30"})
    with pytest.raises(InputError, match="area of impact"):
        pools(TANK_HUNTERS, T26, **{**INTO_CC, "friendly_facing": None})
    with pytest.raises(InputError, match="add --into-close-combat"):
        pools(TANK_HUNTERS, T26, range=2, target_facing="flank", friendly_vehicle=PZ, friendly_facing="rear")


def test_success_dice_are_rolled_again_at_the_friendly_vehicle_pools():
    p = pools(TANK_HUNTERS, T26, **INTO_CC)
    assert p.reroll == "success-dice"
    assert ("".join(p.attack), "".join(p.defence)) == ("RG", "G")      # vs-vehicle row; T-26 flank G
    assert p.friendly_defence == UNITS[PZ].defence_dice("rear")         # normal ranged-fire defence (10.11)
    assert any(s.section == "10.11" and s.side == "attack" for s in p.steps)
    moving = pools(TANK_HUNTERS, T26, **{**INTO_CC, "fire_status": "move-fire"})
    assert "".join(moving.friendly_defence) == "GB"                     # + the move-and-fire die (10.9.4)


def test_enemy_outcome_is_plain_fire_and_friendly_outcome_matches_brute_force():
    from itertools import product

    from simulator.games.assault.rules.damage import STEADY, VEHICLE, unpack_state
    from simulator.games.assault.rules.dice import load_dice
    from simulator.games.assault.rules.fire import Target, state_distribution

    dice = load_dice()
    f = fire(TANK_HUNTERS, T26, FireSituation(**INTO_CC))
    plain = fire(TANK_HUNTERS, T26, FireSituation(range=2, target_facing="flank"))
    assert f["p"].to_numpy() == pytest.approx(plain["p"].to_numpy())     # the enemy vehicle: normal fire
    pz = UNITS[PZ]
    want = np.zeros(1 + 6 * pz.strength)
    for fr, fg in product(dice.die("R").faces, dice.die("G").faces):    # first roll of R and G
        kept = tuple(x for x, face in (("R", fr), ("G", fg)) if sum(face) > 0)
        want += state_distribution(kept, ("B",), Target(VEHICLE, pz.strength, 0, 0, 0, STEADY, 0), dice) / 36
    got = {tuple(sorted(r.items())): r["p"] for r in f.friendly_vehicle["states"]}
    for i in np.nonzero(want)[0]:
        st = {**unpack_state(int(i), pz.strength, pz.half_strength_threshold), "p": None}
        match = [p for k, p in got.items() if all(dict(k)[c] == v for c, v in st.items() if c != "p")]
        assert match and match[0] == pytest.approx(want[i])
    assert sum(got.values()) == pytest.approx(1.0)


def test_fire_into_close_combat_monte_carlo_agrees_with_exact():
    trials = 200_000
    s = FireSituation(**INTO_CC)
    ex, mc = fire(TANK_HUNTERS, T26, s), fire(TANK_HUNTERS, T26, s, trials=trials, seed=61, workers=1)
    for a, b in ((ex.summary, mc.summary),
                 (ex.friendly_vehicle["summary"], mc.friendly_vehicle["summary"])):
        for key in ("p_eliminated", "p_suppressed_fallback_or_eliminated", "p_immobilised"):
            assert abs(a[key] - b[key]) < 4 * max(b["se"][key], 1 / trials), key
        assert abs(a["mean_damage"] - b["mean_damage"]) < 4 * b["se"]["mean_damage"]


def test_fire_into_close_combat_cli():
    args = ["assault", "fire", TANK_HUNTERS, T26, "--range", "2", "--target-facing", "flank",
            "--into-close-combat", "--friendly-vehicle", PZ, "--friendly-facing", "rear"]
    obj = cli(*args, "--format", "json")
    fv = obj["friendly_vehicle"]
    assert fv["unit"] == PZ and fv["defence_pool"] == "B" and fv["facing"] == "rear"
    assert sum(s["p"] for s in fv["states"]) == pytest.approx(1.0)
    assert set(fv["states"][0]) == {"eliminated", "damage", "half_strength", "suppressed", "fallback",
                                     "immobilised", "p"}
    assert obj["reroll"] == "success-dice"
    res = CliRunner().invoke(main, args + ["--explain"])
    assert res.exit_code == 0 and "(10.11)" in res.output and "friendly vehicle german/pz-iif" in res.output
    assert cli("assault", "fire", RIFLES, HEAVY, "--range", "3", "--format", "json")["friendly_vehicle"] is None


def test_two_hexes_of_the_same_hindering_terrain_are_two_hindrances():
    # 10.9.2: the dice are cumulative per hex crossed, so repeats count (brush twice: two G)
    obj = cli("assault", "fire", RIFLES, HEAVY, "--range", "3", "--hindrance", "brush,brush", "--format", "json")
    assert obj["defence_pool"] == "YGGG"
    res = CliRunner().invoke(main, ["assault", "fire", RIFLES, HEAVY, "--range", "3",
                                    "--hindrance", "brush", "--hindrance", "brush", "--smoke", "1"])
    assert res.exit_code == 2 and "three or more block LOS" in res.output


@pytest.mark.parametrize("kw", [
    dict(terrain="forest", spot="failed", target_status={"dug-in"}, hindrances=("brush",)),
    dict(range=2, fire_status="move-fire", target_status={"fast", "suppressed"}, firer_damage=2),
    dict(indirect=True, target_experience="recruit", smoke=1),
], ids=["spotting-failed-dug-in", "move-fire-at-a-fast-target", "indirect"])
def test_pools_without_their_steps_are_the_same_pools(kw):
    """Compiling a scenario asks for the pools without ``--explain``'s steps: the same
    dice, the steps left out."""
    firer = "german/mortar-81mm" if kw.get("indirect") else RIFLES
    kw = {"range": 3, **kw}
    explained = fire_pools(UNITS[firer], UNITS[HEAVY], FireSituation(**kw), AID)
    quiet = fire_pools(UNITS[firer], UNITS[HEAVY], FireSituation(**kw), AID, explain=False)
    assert explained.steps and quiet.steps == ()
    assert quiet == dataclasses.replace(explained, steps=())


def test_fire_at_a_vehicle_without_a_facing_hits_its_front_and_says_so():
    """Issue 43, item 6: ``assault fire`` at a vehicle assumed the front where ``matrix`` did
    and now says so; the numbers are those of --target-facing front."""
    gun, tank = "soviet/at-gun-45mm", "german/pz-iif"
    given = cli("assault", "fire", gun, tank, "--range", "2", "--target-facing", "front", "--format", "json")
    assumed = cli("assault", "fire", gun, tank, "--range", "2", "--format", "json")
    assert assumed["target_facing_assumed"] == "front" and given["target_facing_assumed"] is None
    assert assumed["summary"]["p_eliminated"] == given["summary"]["p_eliminated"]
    assert assumed["defence_pool"] == given["defence_pool"]
    res = CliRunner().invoke(main, ["assault", "fire", gun, tank, "--range", "2"])
    assert res.exit_code == 0, res.output
    assert "hit on its front (no --target-facing given" in res.output
    # the flank is weaker armour: a different pool, so the default is not "any facing"
    flank = cli("assault", "fire", gun, tank, "--range", "2", "--target-facing", "flank", "--format", "json")
    assert flank["defence_pool"] != assumed["defence_pool"]


def test_the_suppressed_or_worse_key_is_named_as_printed_and_the_old_one_still_reads():
    """Issue 43, item 6: the key of "P(suppressed, fallback or eliminated)" is
    p_suppressed_fallback_or_eliminated; the JSON keeps p_suppressed_or_worse (same value,
    in se too) with a deprecation note."""
    obj = cli("assault", "fire", RIFLES, HEAVY, "--range", "3", "--format", "json", "--trials", "2000", "--seed", "1")
    s = obj["summary"]
    assert s["p_suppressed_or_worse"] == s["p_suppressed_fallback_or_eliminated"]
    assert s["se"]["p_suppressed_or_worse"] == s["se"]["p_suppressed_fallback_or_eliminated"]
    assert "renamed p_suppressed_fallback_or_eliminated" in s["deprecated"]["p_suppressed_or_worse"]
    # the new key is what it says: the states' P with suppressed, fallback or eliminated set
    counted = sum(r["p"] for r in obj["states"] if r["suppressed"] or r["fallback"] or r["eliminated"])
    assert s["p_suppressed_fallback_or_eliminated"] == pytest.approx(counted)
