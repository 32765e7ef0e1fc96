"""Assaults (002): strengths, cover dice, the worked example replayed, every consequence."""

from fractions import Fraction as F
from math import comb

import pytest

from simulator.games.toi.questions.odds import assault
from simulator.games.toi.rules.assault import build_assault, hit_order, replay, resolve
from simulator.games.toi.rules.data import load_game
from simulator.games.toi.rules.units import parse_unit
from simulator.run.errors import InputError

GAME = load_game()


def setup(active, defenders, supporters=(), **kw):
    return build_assault(GAME, parse_unit(active, GAME, "--attacker"),
                         [parse_unit(s, GAME, "--supporter") for s in supporters],
                         [parse_unit(d, GAME, "--defender") for d in defenders], **kw)


def fails(needle, *args, **kw):
    with pytest.raises(InputError) as err:
        setup(*args, **kw)
    assert needle in err.value.problem, err.value.problem


# ---------------------------------------------------------------- the worked example of 002

def example():
    """002 example: squad A assaults hex B (a German squad in an entrenchment and a half-track),
    supported by the two squads in hex C, one of them fatigued. The figures are not given in
    002; these squads are our choice and fit every number the example states."""
    return setup("squad:4regular", ["squad:3regular:entrenchment", "sdkfz_251"],
                 ["squad:4regular", "squad:3regular:fatigued"])


def test_002_example_strengths_and_two_cover_dice():
    s = example()
    assert s.attack_strength == 4 + 2 + 2      # active full, supporters half rounded up (step 2)
    assert s.cover == 2                        # "two cover dice (representing the single entrenchment)"
    assert s.defender_strength == 3 + 4        # the squad and the half-track (step 3)


def test_002_example_replayed_with_given_dice():
    s = example()
    # 6 black successes - 1 red success = 5 hits; the defender's 7 dice show two 4-6
    r = replay(s, [6, 5, 4, 4, 6, 5, 2, 1], [5, 3], [4, 6, 1, 2, 3, 1, 2])
    assert (r.attacker_hits, r.defender_hits) == (5, 2)
    assert r.attacker_losses == (2, 0, 0)      # "removes 2 figures from the active squad"
    squad, halftrack = r.defenders
    assert halftrack.hits == 4 and halftrack.damage == "destroyed"  # "applies 4 hits to the half-track"
    assert squad.hits == 1 and squad.figures_left == 2              # "the remaining hit to his squad"
    assert r.success and squad.retreated and not squad.destroyed    # "the German player retreats"


def test_002_example_woods_with_two_entrenched_squads_is_six_cover_dice():
    # 002 step 4 example: woods (2) + two squads in entrenchments (2 each)
    s = setup("squad:4regular", ["squad:2regular:entrenchment", "squad:2regular:entrenchment", "squad:2regular"],
              hex_features={"woods"})
    assert s.cover == 6


def test_replay_checks_the_dice():
    with pytest.raises(InputError, match="8 faces needed"):
        replay(example(), [6, 5], [5, 3], [4] * 7)
    with pytest.raises(InputError, match="1 to 6"):
        replay(example(), [7] * 8, [5, 3], [4] * 7)


# ---------------------------------------------------------------- strengths (002 steps 1-4)

def test_attack_strength_is_fpr_against_infantry_even_with_a_light_vehicle():
    s = setup("squad:2elite+2regular", ["sdkfz_251"])
    assert s.attack_strength == 6 and s.cover == 0    # light vehicle armour does not count (step 4)


def test_flamethrower_assault_plus_two_each_and_cover_minus_five():
    s = setup("squad:3regular:flamethrower", ["squad:3regular:woods:entrenchment"], ["squad:4regular:flamethrower"])
    assert s.attack_strength == 3 + 2 + 2 + 2
    assert s.cover == 0                                # 2 + 2 - 5, not below 0
    s = setup("squad:3regular:flamethrower", ["squad:3regular:pillbox"], hex_features={"building"})
    assert s.cover == 3 + 6 - 5


def test_defender_disrupted_adds_nothing_pinned_half_unless_officer():
    assert setup("squad:4regular", ["squad:3regular:disrupted"]).defender_strength == 0
    assert setup("squad:4regular", ["squad:3regular:pinned"]).defender_strength == 2
    assert setup("squad:4regular", ["squad:3regular:pinned", "squad:1officer"]).defender_strength == 3 + 1
    assert setup("squad:4regular", ["squad:3regular:pinned:with-officer"]).defender_strength == 3


def test_defending_mortars_and_heavy_damage():
    assert setup("squad:4regular", ["squad:2mortar+2regular"]).defender_strength == 2
    assert setup("squad:4regular", ["squad:1mg+2regular"]).defender_strength == 5
    assert setup("squad:4regular", ["sdkfz_251:heavy"]).defender_strength == 2


def test_smoke_in_the_assaulted_hex():
    s = setup("squad:4regular", ["squad:3regular"], hex_features={"smoke"})
    assert (s.attack_strength, s.defender_strength, s.cover) == (2, 2, 2)
    fails("halved twice", "squad:4regular", ["squad:3regular"], ["squad:4regular"], hex_features={"smoke"})
    s = setup("squad:4regular", ["squad:3regular:pinned"], hex_features={"smoke"})
    assert s.defender_strength == 0                   # pinned and in smoke: halved twice


def test_assaulting_from_smoke_is_not_halved_but_from_wire_is():
    assert setup("squad:4regular:smoke", ["squad:3regular"], ["squad:4regular:smoke"]).attack_strength == 6
    assert setup("squad:4regular:razor_wire:unmoved", ["squad:3regular"]).attack_strength == 2   # rulings T18
    fails("entered razor_wire", "squad:4regular:razor_wire", ["squad:3regular"])            # 002 first list
    fails("entered minefield", "squad:4regular:minefield", ["squad:3regular"])
    fails("halved twice", "squad:4regular", ["squad:3regular"], ["squad:4regular:minefield"])


def test_wire_and_mines_in_the_defended_hex_halve_the_defenders():
    assert setup("squad:4regular", ["squad:3regular", "sdkfz_251"], hex_features={"razor_wire"}).defender_strength == 2 + 4
    assert setup("squad:4regular", ["squad:3regular", "sdkfz_251"], hex_features={"minefield"}).defender_strength == 2 + 2


def test_tank_trap_and_medic_do_not_add_assault_cover():
    assert setup("squad:4regular", ["squad:3regular:tank_trap:with-medic"]).cover == 0


@pytest.mark.parametrize("active,defenders,supporters,needle", [
    ("sherman", ["squad:3regular"], [], "only squads"),
    ("squad:3regular+mg", ["squad:3regular"], [], "mg figure"),
    ("squad:4regular", ["squad:3regular"], ["squad:2mortar"], "mortar figure"),
    ("squad:4regular:pinned", ["squad:3regular"], [], "pinned squad cannot assault"),
    ("squad:4regular", ["squad:3regular"], ["squad:4regular:disrupted"], "disrupted squad cannot support"),
    ("squad:4regular", ["squad:3regular"], ["squad:1regular"] * 3, "at most 2"),
    ("squad:4regular", ["squad:3regular", "tiger"], [], "heavy vehicle"),
    ("squad:4regular", ["squad:1regular"] * 4, [], "1 to 3 units"),
    ("squad:4regular", ["sdkfz_251", "sdkfz_251", "opel_blitz"], [], "at most 2 vehicles"),
    ("squad:4regular", ["squad:4"], [], "name the defender"),
    ("squad:4regular", ["squad:2regular:woods", "squad:2regular:building"], [], "one main terrain"),
])
def test_who_may_not_take_part(active, defenders, supporters, needle):
    fails(needle, active, defenders, supporters)


# ---------------------------------------------------------------- consequences (002 steps 6-9)

def test_ties_go_to_the_defender():  # rulings #16
    s = setup("squad:4regular", ["squad:3regular"])
    assert not resolve(s, 2, 2).success and resolve(s, 3, 2).success
    assert not resolve(s, 0, 0).success


def test_attacker_losses_active_first_then_supporters():
    s = setup("squad:2regular", ["squad:3regular"], ["squad:3regular", "squad:2regular"])
    r = resolve(s, 0, 6)
    assert r.attacker_losses == (2, 3, 1) and r.active_eliminated
    assert resolve(s, 0, 20).attacker_losses == (2, 3, 2)


def test_failed_assault_leaves_defenders_in_place():
    s = setup("squad:4regular", ["squad:3regular:pinned"])
    o = resolve(s, 1, 3).defenders[0]
    assert (o.figures_left, o.condition, o.retreated, o.destroyed) == (2, "pinned", False, False)


def test_retreat_pinned_become_disrupted_disrupted_are_destroyed():
    s = setup("squad:4regular", ["squad:3regular:pinned", "squad:2regular:disrupted", "squad:2regular"])
    r = resolve(s, 1, 0)
    pinned, disrupted, fresh = r.defenders
    assert disrupted.hits == 1            # hits go first to the squad the retreat destroys anyway
    assert disrupted.destroyed and disrupted.destroyed_by == "retreat"
    assert pinned.retreated and pinned.condition == "disrupted" and pinned.figures_left == 3
    assert fresh.retreated and fresh.condition == "normal"


def test_no_retreat_hex_destroys_all_and_stacking_excess_is_destroyed():
    s = setup("squad:4regular", ["squad:3regular", "sdkfz_251"], retreat_space=0)
    assert resolve(s, 1, 0).defenders_eliminated
    s = setup("squad:4regular", ["squad:3regular", "squad:2regular", "sdkfz_251"], retreat_space=1)
    a, b, v = resolve(s, 1, 0).defenders
    assert a.retreated and b.destroyed_by == "retreat" and v.destroyed_by == "retreat"


def test_light_vehicles_take_hits_up_to_destruction_and_policies():
    s = setup("squad:4regular", ["squad:3regular", "sdkfz_251"])
    squad, ht = resolve(s, 6, 0).defenders
    assert (ht.hits, ht.damage, squad.hits) == (4, "destroyed", 2)
    squad, ht = resolve(s, 2, 5).defenders                       # failed assault, 2 hits
    assert (ht.hits, ht.damage, squad.hits) == (2, "light", 0)
    s = setup("squad:4regular", ["squad:3regular", "opel_blitz:light"], hit_policy="squads-first")
    squad, truck = resolve(s, 4, 0).defenders
    assert (squad.hits, truck.hits, truck.damage) == (3, 1, "destroyed")   # fragile: 1 hit on a light truck
    assert hit_order(s, success=False) == [0, 1]


def test_exact_assault_success_against_closed_form():
    s = setup("squad:3regular", ["squad:2regular:woods"])       # 3 black (4-6), 2 red (5-6), 2 defender dice
    half, third = F(1, 2), F(1, 3)
    p = F(0)
    for a in range(4):
        for c in range(3):
            for d in range(3):
                if max(a - c, 0) > d:
                    p += comb(3, a) * half**3 * comb(2, c) * third**c * (1 - third) ** (2 - c) * comb(2, d) * half**2
    frame = assault(s, game=GAME)
    assert frame.summary["p_success"] == pytest.approx(float(p), abs=1e-14)
    assert frame["p"].sum() == pytest.approx(1.0)
    assert frame.summary["mean_defender_hits"] == pytest.approx(1.0)
    assert frame.summary["mean_attacker_losses"] == pytest.approx(1.0)
