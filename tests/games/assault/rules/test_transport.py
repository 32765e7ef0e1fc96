"""Transported units and tank riders under fire (10.10, 9.11), emergency disembark as an outcome."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.games.assault.questions.fire import fire
from simulator.games.assault.rules.aid import load_aid
from simulator.games.assault.rules.cards import load_units
from simulator.games.assault.rules.damage import FALLBACK, STEADY, SUPPRESSED
from simulator.games.assault.rules.dice import load_dice
from simulator.games.assault.rules.exact import roll_outcome
from simulator.games.assault.rules.pools import FireSituation, fire_pools
from simulator.games.assault.rules.transport import (
    ABOARD,
    CARRIED,
    DISEMBARK,
    FLIPPED,
    NO_PASSENGERS,
    RIDERS_TARGETED,
    transport_event,
)
from simulator.run.errors import InputError

UNITS = load_units()
AID = load_aid()
DICE = load_dice()
HMG, TRUCK, T26 = "german/hmg-34", "soviet/truck", "soviet/t-26"
RIFLES, MMG = "soviet/rifles-41", "soviet/mmg-maxim"


def cli(*args, code=0):
    res = CliRunner().invoke(main, list(args))
    assert res.exit_code == code, res.output
    return res


def truck_fire(passengers, **kw):
    kw.setdefault("range", 3)
    kw.setdefault("target_facing", "flank")
    return fire(HMG, TRUCK, FireSituation(passengers=passengers, **kw))


def test_transport_event_rules():
    # (mode, crit, hit, supp, eliminated, damage, morale, immobilised, damage0, morale0, immobilised0)
    assert transport_event(CARRIED, 0, 0, 0, 0, 0, STEADY, 0, 0, STEADY, 0) == ABOARD
    assert transport_event(CARRIED, 0, 1, 0, 0, 1, STEADY, 0, 0, STEADY, 0) == DISEMBARK       # damage point
    assert transport_event(CARRIED, 0, 0, 1, 0, 0, SUPPRESSED, 0, 0, STEADY, 0) == DISEMBARK  # suppressed
    assert transport_event(CARRIED, 0, 0, 1, 0, 0, FALLBACK, 0, 0, SUPPRESSED, 0) == DISEMBARK
    assert transport_event(CARRIED, 0, 0, 1, 0, 0, STEADY, 0, 0, STEADY, 0) == ABOARD          # elite ignored it
    assert transport_event(CARRIED, 1, 0, 0, 0, 1, STEADY, 1, 0, STEADY, 0) == FLIPPED         # crit (10.10.2)
    assert transport_event(CARRIED, 0, 2, 0, 1, 2, STEADY, 0, 0, STEADY, 0) == FLIPPED         # destroyed
    assert transport_event(RIDERS_TARGETED, 0, 0, 1, 0, 0, STEADY, 0, 0, STEADY, 0) == DISEMBARK  # 10.10.1
    assert transport_event(RIDERS_TARGETED, 0, 0, 0, 0, 0, STEADY, 0, 0, STEADY, 0) == ABOARD
    assert transport_event(NO_PASSENGERS, 1, 1, 1, 1, 2, STEADY, 0, 0, STEADY, 0) == ABOARD


def test_passengers_of_a_truck_share_its_fate():
    f = truck_fire(((RIFLES, 0), (MMG, 0)))
    t = f.table
    p_unchanged = float(t.p[(t.damage == 0) & ~t.eliminated & ~t.suppressed & ~t.fallback & ~t.immobilised].sum())
    # exact check of 10.10.2 from the roll alone: crit in the main roll, or destroyed (2 damage)
    unc = roll_outcome(tuple("RRY"), ("B",), DICE)        # HMG 34 at range 3, truck flank B
    c, h, _ = np.indices(unc.shape)
    p_flip = float(unc[(c > 0) | (c + h >= 2)].sum())
    for p in f.passengers:
        assert p["p_aboard"] == pytest.approx(p_unchanged)                         # nothing hit the truck
        assert p["p_flipped_to_half"] == pytest.approx(p_flip)
        assert p["p_emergency_disembark"] == pytest.approx(1 - p_unchanged)
        assert p["p_eliminated"] == 0.0 and p["disembark_marker"] == "fast action"
    assert f.p_emergency_disembark == pytest.approx(1 - p_unchanged)


def test_half_strength_passengers_are_eliminated_by_a_crit_or_the_loss_of_the_vehicle():
    f = truck_fire(((RIFLES, 2), (MMG, 0)))           # Rifles '41 at half strength (2 damage)
    rifles, mmg = f.passengers
    assert rifles["half_strength_before"] and rifles["p_eliminated"] == pytest.approx(mmg["p_flipped_to_half"])
    assert rifles["p_emergency_disembark"] == pytest.approx(mmg["p_emergency_disembark"] - mmg["p_flipped_to_half"])
    only_half = truck_fire(((RIFLES, 2),))
    p = only_half.passengers[0]
    assert only_half.p_emergency_disembark == pytest.approx(p["p_emergency_disembark"])


def test_slow_artillery_disembarks_with_delayed_action():
    f = fire(HMG, TRUCK, FireSituation(range=3, target_facing="front", passengers=(("soviet/at-gun-45mm", 0),)))
    assert f.passengers[0]["disembark_marker"] == "delayed action"                    # 10.10.3


@pytest.mark.parametrize("passengers,problem", [
    (((RIFLES, 0), (RIFLES, 0), (MMG, 0)), "carries 8"),                 # 4 + 4 + 3 > 8 (9.11)
    (((RIFLES, 2), (RIFLES, 0), (MMG, 0)), "carries 8"),                 # half strength counts 2: 9 > 8
    ((("german/rifles-41", 0),), "different sides"),
    ((("soviet/t-26", 0),), "only infantry and artillery"),
    (((RIFLES, 4),), "damage must be"),
])
def test_illegal_loads(passengers, problem):
    with pytest.raises(InputError, match=problem):
        truck_fire(passengers)


def test_legal_loads_count_nominal_strength():
    truck_fire(((RIFLES, 2), (RIFLES, 3), (MMG, 0)))      # 2 + 2 + 3 = 7 (damage beyond the flip ignored)
    with pytest.raises(InputError, match="must be infantry"):   # tank riders (9.11.1)
        fire(HMG, T26, FireSituation(range=3, target_facing="rear", passengers=(("soviet/mortar-82mm", 0),)))
    with pytest.raises(InputError, match="transports no units"):
        fire(HMG, "soviet/zis-30", FireSituation(range=3, target_facing="rear", passengers=((RIFLES, 0),)))
    with pytest.raises(InputError, match="not a vehicle"):
        fire(HMG, RIFLES, FireSituation(range=3, passengers=((MMG, 0),)))


def test_tank_riders_defend_with_their_card_dice_only():
    def riders(**kw):
        return fire_pools(UNITS[HMG], UNITS[RIFLES], FireSituation(range=3, riding_on=T26, **kw), AID)
    plain = riders()
    assert ("".join(plain.attack), "".join(plain.defence)) == ("RRY", "Y")     # inf/art row; card Y
    loaded = riders(terrain="forest", hill=True, hindrances=("brush",), target_experience="hardened",
                    fire_status="move-fire", spot="passed")
    assert "".join(loaded.defence) == "Y"                                      # 10.10.1: nothing else
    assert "".join(riders(firer_attack_die_minus_one=True).attack) == "RR"     # attacker reductions apply
    # spotted on their vehicle: in forest the T-26 needs 4+; if not spotted, no fire at all
    unseen = riders(terrain="forest")
    assert unseen.p_spotted == pytest.approx(0.5) and unseen.defence_unspotted is None
    assert any(s.section == "10.10.1" for s in plain.steps)


def test_tank_riders_disembark_after_any_uncancelled_symbol():
    f = fire(HMG, RIFLES, FireSituation(range=3, riding_on=T26))
    unc = roll_outcome(tuple("RRY"), ("Y",), DICE)
    p_any = 1 - float(unc[0, 0, 0])
    p_elim = f.summary["p_eliminated"]
    assert f.p_emergency_disembark == pytest.approx(p_any - p_elim)       # the dead do not disembark
    m = f.disembark_markers
    p_supp = float(f.table.p[f.table.suppressed & ~f.table.eliminated].sum())
    assert m["suppressed"] == pytest.approx(p_supp)                                # 10.10.3 exception
    assert sum(m.values()) == pytest.approx(f.p_emergency_disembark)


def test_only_tank_riders_can_be_fired_on_apart_from_their_vehicle():
    with pytest.raises(InputError, match="inside"):
        fire(HMG, RIFLES, FireSituation(range=3, riding_on=TRUCK))
    with pytest.raises(InputError, match="not infantry"):
        fire(HMG, "soviet/mortar-82mm", FireSituation(range=3, riding_on=T26))
    with pytest.raises(InputError, match="not infantry"):     # fire at a loaded tank: --passengers
        fire(HMG, T26, FireSituation(range=3, target_facing="rear", riding_on=T26))


def test_indirect_fire_on_a_loaded_vehicle_reaches_its_riders():   # 7.3 last paragraph -> 10.10
    f = fire("german/mortar-81mm", T26, FireSituation(range=5, indirect=True, passengers=((RIFLES, 0),)))
    assert f.reroll == "damage-dice"
    p = f.passengers[0]
    assert 0 < p["p_flipped_to_half"] < p["p_emergency_disembark"] < 1


@pytest.mark.parametrize("firer,target,kw,seed", [
    (HMG, TRUCK, {"range": 3, "target_facing": "flank", "passengers": ((RIFLES, 0), (MMG, 0))}, 51),
    (HMG, T26, {"range": 2, "target_facing": "rear", "passengers": ((RIFLES, 2),)}, 52),
    ("german/mortar-81mm", T26, {"range": 5, "indirect": True, "passengers": ((RIFLES, 0),)}, 53),
    (HMG, RIFLES, {"range": 3, "riding_on": T26, "terrain": "forest"}, 54),
])
def test_passenger_outcomes_monte_carlo_agree_with_exact(firer, target, kw, seed):
    trials = 200_000
    s = FireSituation(**kw)
    ex, mc = fire(firer, target, s), fire(firer, target, s, trials=trials, seed=seed, workers=1)
    p, q = ex.p_emergency_disembark, mc.p_emergency_disembark
    assert abs(p - q) < 4 * max(mc.p_emergency_disembark_se, 1 / trials)
    for a, b in zip(ex.passengers, mc.passengers, strict=True):
        for key in ("p_aboard", "p_flipped_to_half", "p_eliminated"):
            se = np.sqrt(a[key] * (1 - a[key]) / trials)
            assert abs(a[key] - b[key]) < 4 * se + 1e-12, (key, a, b)


def test_fire_json_keeps_its_contract_and_adds_passenger_keys():
    obj = json.loads(cli("assault", "fire", HMG, TRUCK, "--range", "3", "--target-facing", "flank",
                         "--passengers", f"{RIFLES},{MMG}:1", "--format", "json").output)
    for key in ("firer", "target", "attack_pool", "defence_pool", "target_strength", "p_spotted", "method",
                "states", "summary", "passengers", "p_emergency_disembark"):
        assert key in obj
    assert set(obj["states"][0]) == {"eliminated", "damage", "half_strength", "suppressed", "fallback",
                                      "immobilised", "p"}
    assert [p["unit"] for p in obj["passengers"]] == [RIFLES, MMG]
    assert obj["passengers"][1]["damage_before"] == 1
    assert set(obj["passengers"][0]) == {"unit", "damage_before", "half_strength_before", "p_aboard",
                                          "p_emergency_disembark", "p_flipped_to_half", "p_eliminated",
                                          "disembark_marker"}
    plain = json.loads(cli("assault", "fire", HMG, TRUCK, "--range", "3", "--target-facing", "flank",
                           "--format", "json").output)
    assert plain["passengers"] == [] and plain["p_emergency_disembark"] is None
    assert plain["states"] == obj["states"]                  # passengers do not change the vehicle's fate
    out = cli("assault", "fire", HMG, TRUCK, "--range", "3", "--target-facing", "flank",
              "--passengers", RIFLES).output
    assert "passengers (10.10.2, 10.10.3)" in out and "P(emergency disembark)" in out
    riders = json.loads(cli("assault", "fire", HMG, RIFLES, "--range", "3", "--riding-on", T26,
                            "--format", "json").output)
    assert riders["riding_on"] == T26 and set(riders["disembark_markers"]) == {"fast action", "suppressed",
                                                                                 "fallback"}
    out = cli("assault", "fire", HMG, RIFLES, "--range", "3", "--riding-on", T26, "--explain").output
    assert "(10.10.1)" in out and "tank riders on soviet/t-26" in out
    res = cli("assault", "fire", HMG, TRUCK, "--range", "3", "--target-facing", "flank",
              "--passengers", "soviet/rifles-41:x", code=2)
    assert "UNIT:DAMAGE" in res.output and res.output.count("\n") == 1


def test_resolve_names_what_a_given_roll_does_to_passengers():
    def resolve(*args):
        return json.loads(cli("assault", "resolve", *args, "--format", "json").output)
    # a supp on the truck: suppressed, so its passengers disembark unharmed (10.10.3)
    r = resolve("--attack", "Y:supp", "--defence", "B:-", "--target", TRUCK, "--passengers")
    assert r["state"]["suppressed"] and r["passenger_event"] == "emergency disembark"
    # a crit in the main roll flips them first (10.10.2), even though the crit roll does nothing
    r = resolve("--attack", "R:crit", "--defence", "B:-", "--target", TRUCK, "--passengers",
                "--crit-attack", "G:-", "--crit-defence", "B:-")
    assert r["passenger_event"] == "flipped to half strength, then disembark"
    r = resolve("--attack", "Y:supp", "--defence", "Y:supp", "--target", TRUCK, "--passengers")
    assert r["passenger_event"] == "aboard"
    r = resolve("--attack", "Y:supp", "--defence", "Y:-", "--target", RIFLES, "--riders")   # 10.10.1
    assert r["passenger_event"] == "emergency disembark"
    assert resolve("--attack", "Y:supp", "--defence", "Y:-", "--target", RIFLES)["passenger_event"] is None
    res = cli("assault", "resolve", "--attack", "Y:supp", "--defence", "Y:-", "--target", RIFLES,
              "--passengers", code=2)
    assert "not a vehicle" in res.output
