"""One test per rule and modifier of 001 that changes the dice of a ranged attack."""

import pytest

from simulator.games.toi.rules.attack import build_attack, halve, minefield_entry, range_band
from simulator.games.toi.rules.data import load_game
from simulator.games.toi.rules.units import parse_unit
from simulator.run.errors import InputError

GAME = load_game()


def atk(lead, target, *supporters, distance=1, mode="normal", **kw):
    return build_attack(GAME, parse_unit(lead, GAME, "--attacker"),
                        [parse_unit(s, GAME, "--supporter") for s in supporters],
                        parse_unit(target, GAME, "--target"), distance=distance, mode=mode, **kw)


def fails(needle, *args, **kw):
    with pytest.raises(InputError) as err:
        atk(*args, **kw)
    assert needle in err.value.problem, err.value.problem
    return err.value


# ---------------------------------------------------------------- range (001 Range; rulings #15)

@pytest.mark.parametrize("distance,rng,band", [(1, 0, "close"), (1, 4, "close"), (2, 4, "normal"), (4, 4, "normal"),
                                               (5, 4, "long"), (8, 4, "long"), (9, 4, None)])
def test_range_bands(distance, rng, band):
    assert range_band(distance, rng) == band


def test_band_sets_the_success_number():
    assert atk("squad:4regular", "squad:4", distance=1).success_from == 4
    assert atk("squad:4regular", "squad:4", distance=3).success_from == 5
    assert atk("squad:4regular", "squad:4", distance=6).success_from == 6
    fails("no figure can reach", "squad:4regular", "squad:4", distance=9)


def test_higher_ground_adds_one_range():
    assert atk("squad:4regular", "squad:4", distance=5).band == "long"
    assert atk("squad:4regular:higher", "squad:4", distance=5).band == "normal"


def test_squad_range_is_its_lowest_figure_and_unreachable_figures_stay_out():
    a = atk("squad:3regular+mg", "squad:4", distance=5)
    assert (a.attack_strength, a.band) == (6, "long")      # regular range 4 -> long; all fire
    a = atk("squad:3regular+mg", "sdkfz_251", distance=3)
    # vs vehicles: regulars have range 1 (out at 3 hexes), the MG range 3 fires alone
    assert (a.attack_strength, a.band) == (2, "normal")
    assert "out of range" in a.contributions[0].notes[0]


# ---------------------------------------------------------------- strength (001 step 1, Combined fire)

def test_fpr_is_the_sum_of_the_figures_per_target_type():
    assert atk("squad:2elite+regular+officer", "squad:4", distance=2).attack_strength == 6
    assert atk("squad:2elite+regular+officer", "sherman", distance=1).attack_strength == 4
    assert atk("sherman", "squad:4", distance=3).attack_strength == 6
    assert atk("sherman", "tiger", distance=3).attack_strength == 8


def test_combined_fire_full_lead_half_supporters_rounded_up_worst_band():
    a = atk("squad:4regular", "squad:4", "squad:3regular:dist=6", "squad:1elite", distance=2)
    assert [c.strength for c in a.contributions] == [4, 2, 1]   # 3 -> 2, 2 -> 1 (rounded up)
    assert a.attack_strength == 7 and a.band == "long"


def test_halving_rounds_up():
    assert [halve(n, 1) for n in range(6)] == [0, 1, 1, 2, 2, 3]


# ---------------------------------------------------------------- halvings and their limit

def test_fire_and_movement_halves_and_forbids_support_and_long_range():
    assert atk("squad:3regular", "squad:4", distance=2, fire_and_movement=True).attack_strength == 2
    fails("cannot be supported", "squad:3regular", "squad:4", "squad:4regular", distance=2, fire_and_movement=True)
    fails("long range", "squad:3regular", "squad:4", distance=6, fire_and_movement=True)


@pytest.mark.parametrize("lead,strength", [
    ("squad:3regular:smoke", 2), ("squad:3regular:minefield", 2), ("squad:3regular:razor_wire", 2),
    ("sdkfz_251:smoke", 2), ("sdkfz_251:minefield", 2), ("sdkfz_251:razor_wire", 4),   # wire: squads only
    ("sdkfz_251:heavy", 2), ("sdkfz_251:light", 4),
])
def test_hex_obstacles_and_heavy_damage_halve(lead, strength):
    assert atk(lead, "squad:4", distance=2).attack_strength == strength


def test_rally_lets_a_pinned_squad_with_officer_lead_at_half():
    assert atk("squad:3regular+officer:pinned", "squad:4", distance=2).attack_strength == 2
    assert atk("squad:4regular:pinned:with-officer", "squad:4", distance=2).attack_strength == 2
    fails("pinned squad cannot fire", "squad:4regular:pinned", "squad:4", distance=2)
    fails("pinned squad cannot fire", "squad:4regular", "squad:4", "squad:3regular+officer:pinned", distance=2)
    fails("disrupted squad cannot fire", "squad:4regular+officer:disrupted" .replace("4regular", "3regular"),
          "squad:4", distance=2)


def test_halved_twice_cannot_attack():
    err = fails("halved twice", "squad:4regular", "squad:4", "squad:3regular:smoke", distance=2)
    assert err.where == "--supporter"
    fails("halved twice", "squad:3regular+officer:pinned:smoke", "squad:4", distance=2)
    fails("halved twice", "squad:3regular:razor_wire", "squad:4", distance=2, fire_and_movement=True)
    fails("halved twice", "sherman", "squad:4", "sdkfz_251:heavy", distance=2)


# ---------------------------------------------------------------- defence (001 step 2)

def test_defence_is_armour_plus_cover_damage_costs_one_armour():
    assert atk("sherman", "tiger", distance=2).defence_strength == 6
    assert atk("sherman", "tiger:light:woods", distance=2).defence_strength == 5 + 2
    assert atk("sherman", "panzer_iv:heavy:smoke", distance=2).defence_strength == 3 + 2
    assert atk("squad:4regular", "squad:4:building", distance=2).defence_strength == 3


def test_fortifications_cover_squads_only():
    assert atk("squad:4regular", "squad:4:woods:entrenchment", distance=2).defence_strength == 4
    assert atk("squad:4regular", "squad:4:pillbox", distance=2).defence_strength == 6
    assert atk("squad:4regular", "squad:4:tank_trap", distance=2).defence_strength == 1
    assert atk("squad:4regular", "sdkfz_251:tank_trap", distance=2).defence_strength == 1   # AV only
    fails("cannot be in a pillbox", "squad:4regular", "sdkfz_251:pillbox", distance=2)


def test_extra_cover_option():
    assert atk("squad:4regular", "squad:4", distance=2, extra_cover=2).defence_strength == 2


def test_battle_hardened_each_elite_figure_vs_suppressive_only():
    assert atk("squad:4regular", "squad:2elite+2regular", distance=2, mode="suppressive").defence_strength == 2
    assert atk("squad:4regular", "squad:2elite+2regular", distance=2, mode="normal").defence_strength == 0


def test_officer_determination_vs_suppressive_only():
    assert atk("squad:4regular", "squad:3regular+officer", distance=2, mode="suppressive").defence_strength == 1
    assert atk("squad:4regular", "squad:3regular:with-officer", distance=2, mode="suppressive").defence_strength == 1
    assert atk("squad:4regular", "squad:3regular+officer", distance=2, mode="normal").defence_strength == 0


def test_medic_bandage_vs_normal_only_and_not_when_pinned():
    assert atk("squad:4regular", "squad:3regular:medic", distance=2).defence_strength == 1
    assert atk("squad:4regular", "squad:3regular:with-medic", distance=2).defence_strength == 1
    assert atk("squad:4regular", "squad:3regular:medic", distance=2, mode="suppressive").defence_strength == 0
    assert atk("squad:4regular", "squad:3regular:medic:pinned", distance=2).defence_strength == 0


def test_vehicles_are_immune_to_suppressive_attacks():
    fails("immune", "squad:4regular", "sherman", distance=1, mode="suppressive")


# ---------------------------------------------------------------- special abilities

def test_flamethrower_adjacent_plus_two_and_minus_five_cover_not_armour():
    a = atk("squad:3regular:flamethrower", "squad:4:woods:pillbox", distance=1)
    assert (a.attack_strength, a.defence_strength) == (5, 3)              # cover 8 - 5
    a = atk("squad:3regular:flamethrower", "sdkfz_251:woods", distance=1)
    assert (a.attack_strength, a.defence_strength) == (3 + 2, 1 + 0)     # vs vehicle FPR 3, AV 1 kept
    a = atk("squad:3regular:flamethrower", "squad:4:woods", distance=2)
    assert (a.attack_strength, a.defence_strength) == (3, 2)              # not adjacent: nothing
    a = atk("squad:3regular:flamethrower:pinned:with-officer", "squad:4:woods", distance=1)
    assert (a.attack_strength, a.defence_strength) == (2, 2)              # pinned: no ability


def test_flamethrower_supporting_as_the_data_says_or_the_switch():  # rulings T4
    a = atk("squad:4regular", "squad:4:woods", "squad:3regular:flamethrower", distance=1)
    assert (a.attack_strength, a.defence_strength) == (4 + 3, 0)          # (3+2)/2 up = 3; cover 2 - 5 -> 0
    a = atk("squad:4regular", "squad:4:woods", "squad:3regular:flamethrower", distance=1, support_abilities=False)
    assert (a.attack_strength, a.defence_strength) == (4 + 2, 2)


def test_anti_tank_range_three_plus_three_even_supporting():
    a = atk("squad:3regular:anti_tank", "sherman", distance=3)
    assert (a.attack_strength, a.band, a.contributions[0].range) == (6, "normal", 3)
    a = atk("sherman", "panzer_iv", "squad:3regular:anti-tank:dist=2", distance=3)
    assert a.contributions[1].strength == 3 and a.contributions[1].band == "normal"
    assert atk("squad:3regular:anti_tank", "squad:4", distance=2).attack_strength == 3   # not vs infantry
    fails("no figure can reach", "squad:3regular", "sherman", distance=3)


def test_concussive_firepower_vs_squads_in_buildings_and_pillboxes():
    a = atk("sherman", "squad:4:building", distance=7)
    assert (a.attack_strength, a.contributions[0].range, a.band) == (9, 8, "normal")
    assert atk("sherman", "squad:4:pillbox", distance=2).attack_strength == 9
    assert atk("sherman", "squad:4:woods", distance=2).attack_strength == 6
    assert atk("sdkfz_251", "squad:4:building", distance=2).attack_strength == 4       # not a tank
    # a supporting tank is attacking too (units.toml when_supporting, rulings T4): (6+3)/2 up = 5
    assert atk("squad:4regular", "squad:4:building", "sherman", distance=2).contributions[1].strength == 5
    assert atk("squad:4regular", "squad:4:building", "sherman", distance=2,
               support_abilities=False).contributions[1].strength == 3


def test_thick_armour_comes_from_the_roster():
    assert atk("sherman", "tiger", distance=2).thick_armour
    assert not atk("sherman", "panzer_iv", distance=2).thick_armour


def test_mortar_area_attack_rules():
    a = atk("squad:2mortar+regular", "squad:4", distance=5)
    assert a.area and a.attack_strength == 8 and a.success_from == 5      # mortars alone (No Mixed Fire)
    assert atk("squad:2mortar", "squad:4", distance=12).success_from == 6
    fails("closer than 2", "squad:2mortar", "squad:4", distance=1)
    fails("closer than 2", "squad:4regular", "squad:4", "squad:2mortar", distance=1)
    fails("cannot fire from a building", "squad:2mortar:building", "squad:4", distance=3)
    fails("cannot fire from a pillbox", "squad:2mortar:pillbox", "squad:4", distance=3)


def test_trucks_cannot_attack_and_generic_units_need_names():
    fails("no firepower", "gmc_truck", "squad:4", distance=1)
    fails("name the figures", "squad:4", "squad:4", distance=1)
    fails("name the vehicle", "sherman", "vehicle", distance=1)


def test_minefield_entry_four_dice_four_up_engineers_exempt():
    a = minefield_entry(GAME, parse_unit("squad:4regular", GAME))
    assert (a.attack_strength, a.success_from, a.defence_strength) == (4, 4, 0)
    assert minefield_entry(GAME, parse_unit("squad:4regular:engineer", GAME)) is None
    assert minefield_entry(GAME, parse_unit("squad:4regular:engineer:pinned", GAME)) is not None
