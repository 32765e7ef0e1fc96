"""Terrain damage to vehicles (9.10.1, 9.10.2) and the overrun last shot (9.10.3)."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.games.assault.questions.fire import fire
from simulator.games.assault.questions.terrain_damage import terrain_damage
from simulator.games.assault.rules.aid import load_aid
from simulator.games.assault.rules.cards import load_units
from simulator.games.assault.rules.damage import STEADY, SUPPRESSED
from simulator.games.assault.rules.pools import FireSituation, fire_pools
from simulator.games.assault.rules.vehicle_terrain import overrun_succeeds, terrain_damage_effect
from simulator.run.errors import InputError

UNITS = load_units()
AID = load_aid()
PZ, GUN, T26 = "german/pz-iif", "german/at-gun-37mm", "soviet/t-26"


def cli(*args, code=0):
    res = CliRunner().invoke(main, list(args))
    assert res.exit_code == code, res.output
    return res


def p_of(frame, **state):
    m = np.ones(len(frame), bool)
    for k, v in state.items():
        m &= frame[k].to_numpy() == v
    return float(frame.p[m].sum())


def test_effects_of_a_terrain_damage_roll():
    # (eliminated, damage, morale, immobilised) for strength 2 from steady, undamaged
    assert terrain_damage_effect(2, 0, STEADY, 0, 0, 1, 0, 0, 0) == (0, 0, STEADY, 1)       # crit: immobilised
    assert terrain_damage_effect(2, 0, STEADY, 0, 0, 2, 0, 0, 0) == (0, 0, STEADY, 1)       # further crits ignored
    assert terrain_damage_effect(2, 0, STEADY, 0, 0, 1, 0, 0, 1) == (0, 1, STEADY, 1)       # 10.7.3 reading
    assert terrain_damage_effect(2, 0, STEADY, 0, 0, 0, 1, 0, 0) == (0, 1, STEADY, 0)       # damage point
    assert terrain_damage_effect(2, 0, STEADY, 0, 0, 0, 0, 3, 0) == (0, 0, SUPPRESSED, 0)   # first supp only
    assert terrain_damage_effect(2, 0, STEADY, 0, 1, 0, 0, 1, 0) == (0, 0, STEADY, 0)       # elite ignores
    assert terrain_damage_effect(2, 1, STEADY, 0, 0, 0, 1, 0, 0)[0] == 1                    # eliminated


def test_pz_iif_entering_forest_matches_the_closed_form():
    # forest rolls G against the Pz IIF's strongest card die Y (9.10.1); see dice.toml
    f = terrain_damage(PZ, "forest")
    assert (f.attack_pool, f.defence_pool) == ("G", "Y")
    assert p_of(f.table, damage=1, immobilised=True) == pytest.approx(1 / 12)   # G crit+hit vs Y supp/blank
    assert p_of(f.table, damage=0, immobilised=True) == pytest.approx(1 / 18)   # G crit+hit vs Y hit
    assert p_of(f.table, damage=1, immobilised=False) == pytest.approx(1 / 12)  # G hit vs Y supp/blank
    assert p_of(f.table, suppressed=True) == pytest.approx(1 / 18)              # G supp vs Y blank
    assert p_of(f.table, damage=0, immobilised=False, suppressed=False) == pytest.approx(13 / 18)
    assert f.summary["p_immobilised"] == pytest.approx(5 / 36)


def test_crit_as_damage_reading_moves_the_immobilised_undamaged_case():
    # a crit+hit now makes two damage points: the strength-2 Pz IIF is eliminated
    f = terrain_damage(PZ, "forest", crit_is_damage=True)
    assert p_of(f.table, eliminated=True) == pytest.approx(1 / 12)
    assert p_of(f.table, damage=1, immobilised=True) == pytest.approx(1 / 18)
    assert p_of(f.table, damage=0, immobilised=True) == 0.0


def test_strongest_card_die_over_all_facings_and_other_cases():
    # the truck's strongest die is B; heavy forest rolls Y (aid.toml)
    f = terrain_damage("soviet/truck", "heavy-forest", damage=1)
    assert (f.attack_pool, f.defence_pool) == ("Y", "B")
    assert f.summary["p_eliminated"] > 0
    # no vehicle-damage dice: nothing can happen
    clear = terrain_damage(PZ, "clear")
    assert len(clear.table) == 1 and clear.table.p.iloc[0] == pytest.approx(1.0) and clear.attack_pool == "-"
    elite = terrain_damage(PZ, "forest", experience="elite")
    assert elite.summary["p_suppressed_fallback_or_eliminated"] == 0.0


def test_bad_terrain_damage_questions():
    with pytest.raises(InputError, match="not a vehicle"):
        terrain_damage("german/rifles-41", "forest")
    with pytest.raises(InputError, match="may not enter"):
        terrain_damage("german/truck", "wooden-building")
    with pytest.raises(InputError, match="unknown terrain"):
        terrain_damage(PZ, "swamp")
    with pytest.raises(InputError, match="damage must be"):
        terrain_damage(PZ, "forest", damage=2)


@pytest.mark.parametrize("vehicle,terrain,seed", [(PZ, "forest", 41), ("soviet/truck", "heavy-forest", 42)])
def test_terrain_damage_monte_carlo_agrees_with_exact(vehicle, terrain, seed):
    trials = 200_000
    ex = terrain_damage(vehicle, terrain, damage=0)
    mc = terrain_damage(vehicle, terrain, damage=0, trials=trials, seed=seed, workers=1)
    keys = ["eliminated", "damage", "suppressed", "fallback", "immobilised"]
    both = ex.table.merge(mc.table, on=keys, how="outer", suffixes=("_x", "_mc")).fillna(0.0)
    se = np.sqrt(both.p_x * (1 - both.p_x) / trials)
    z = np.abs(both.p_mc - both.p_x) / np.where(se > 0, se, 1)
    assert not ((both.p_x == 0) & (both.p_mc > 0)).any() and z.max() < 4, both


def test_terrain_damage_cli_json_and_explain():
    obj = json.loads(cli("assault", "terrain-damage", PZ, "--terrain", "forest", "--format", "json").output)
    for key in ("vehicle", "terrain", "attack_pool", "defence_pool", "states", "summary", "explain", "aid_status"):
        assert key in obj
    assert set(obj["states"][0]) == {"eliminated", "damage", "half_strength", "suppressed", "fallback",
                                      "immobilised", "p"}
    assert obj["summary"]["p_immobilised"] == pytest.approx(5 / 36)
    out = cli("assault", "terrain-damage", PZ, "--terrain", "forest", "--explain").output
    assert "(9.10.1)" in out and "strongest defence die" in out and "P(immobilised)" in out
    res = cli("assault", "terrain-damage", "german/rifles-41", "--terrain", "forest", code=2)
    assert res.output.count("\n") == 1


# --- 9.10.3: the overrun last shot ---------------------------------------------------------

def last_shot(**kw):
    kw.setdefault("range", 0)
    return fire_pools(UNITS[GUN], UNITS[T26], FireSituation(overrun=True, **kw), AID)


def test_last_shot_is_card_dice_at_range_0_against_front_armour_with_no_modifiers():
    plain = last_shot()
    assert ("".join(plain.attack), "".join(plain.defence)) == ("RY", "G")    # close-combat vs vehicle / front
    # nothing else changes either pool (9.10.3)
    modified = last_shot(firer_experience="veteran", firer_damage=1, firer_attack_die_minus_one=True,
                         target_experience="hardened", terrain="forest", target_status={"fast"})
    assert (modified.attack, modified.defence, modified.doubles, modified.extra_supp) == \
        (plain.attack, plain.defence, "all", 0)
    assert plain.p_spotted == 1.0
    assert any(s.section == "9.10.3" for s in plain.steps)


def test_who_may_take_or_suffer_a_last_shot():
    with pytest.raises(InputError, match="not artillery"):
        fire_pools(UNITS["german/rifles-41"], UNITS[T26], FireSituation(range=0, overrun=True), AID)
    with pytest.raises(InputError, match="cannot overrun"):
        fire_pools(UNITS[GUN], UNITS["soviet/truck"], FireSituation(range=0, overrun=True), AID)
    with pytest.raises(InputError, match="transporting infantry"):
        last_shot(passengers=(("soviet/rifles-41", 0),))
    for status in ("suppressed", "fallback", "fast", "delayed"):
        with pytest.raises(InputError, match=f"marked {status}"):
            last_shot(firer_status={status})
    assert last_shot(firer_status={"fired"}).attack == ("R", "Y")       # already activated: allowed
    with pytest.raises(InputError, match="range 0"):
        last_shot(range=1)
    with pytest.raises(InputError, match="front armour"):
        last_shot(target_facing="flank")


def test_gun_is_overrun_unless_the_tank_is_stopped():
    f = fire(GUN, T26, FireSituation(range=0, overrun=True))
    t = f.table
    stopped = t.eliminated | t.suppressed | t.fallback | t.immobilised
    assert f.summary["p_artillery_overrun"] == pytest.approx(float(t.p[~stopped].sum()))
    assert 0 < f.summary["p_artillery_overrun"] < 1
    assert overrun_succeeds({"eliminated": False, "damage": 1, "suppressed": False, "fallback": False,
                             "immobilised": False})
    assert not overrun_succeeds({"eliminated": False, "damage": 0, "suppressed": True, "fallback": False,
                                 "immobilised": False})
    mc = fire(GUN, T26, FireSituation(range=0, overrun=True), trials=200_000, seed=43, workers=1)
    s = mc.summary
    assert abs(s["p_artillery_overrun"] - f.summary["p_artillery_overrun"]) < 4 * s["se"]["p_artillery_overrun"]


def test_overrun_cli():
    obj = json.loads(cli("assault", "fire", GUN, T26, "--overrun", "--format", "json").output)
    assert obj["overrun"] is True and obj["range"] == 0
    assert (obj["attack_pool"], obj["defence_pool"]) == ("RY", "G")
    assert 0 < obj["summary"]["p_artillery_overrun"] < 1
    out = cli("assault", "fire", GUN, T26, "--overrun", "--explain").output
    assert "last shot" in out and "(9.10.3)" in out and "P(gun overrun)" in out
    res = cli("assault", "fire", GUN, T26, "--overrun", "--firer-status", "suppressed", code=2)
    assert "9.10.3" in res.output and res.output.count("\n") == 1


def test_terrain_damage_answer_is_a_value_rendered_as_json_and_csv():
    # issue 42, item 4: a frozen TerrainDamageAnswer; the JSON (keys in the order printed
    # before) and the CSV are renderings of its fields and table
    import dataclasses
    import io

    import pandas as pd

    from simulator.games.assault.report.text import terrain_damage_json
    answer = terrain_damage(PZ, "forest")
    with pytest.raises(dataclasses.FrozenInstanceError):
        answer.terrain = "clear"    # type: ignore[misc]
    j = terrain_damage_json(answer)
    assert list(j) == ["method", "trials", "seed", "vehicle", "terrain", "hill", "attack_pool", "defence_pool",
                       "damage_before", "experience", "crit_is_damage", "vehicle_strength", "dice", "dice_status",
                       "aid", "aid_status", "states", "summary", "explain"]
    # as the closed form above: P(immobilised) = 1/12 + 1/18 = 5/36; no damage, no mark 13/18
    assert j["summary"]["p_immobilised"] == pytest.approx(5 / 36)
    csv = pd.read_csv(io.StringIO(answer.frame().to_csv(index=False)))
    calm = csv[(csv.damage == 0) & ~csv.immobilised & ~csv.suppressed]
    assert float(calm.p.sum()) == pytest.approx(13 / 18)
    assert answer.frame().attrs == {}
