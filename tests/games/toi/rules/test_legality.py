"""What the rules forbid is refused; what they allow gets the rule's answer (issue 22).

Each case goes through the main command (one line on stderr, exit 2) or the Python API.
"""

from fractions import Fraction as F
from math import comb

import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.games.toi.questions.odds import assault, fire_on_hex
from simulator.games.toi.rules.assault import build_assault, replay, resolve
from simulator.games.toi.rules.data import load_game
from simulator.games.toi.rules.units import parse_unit
from simulator.run.errors import InputError

GAME = load_game()


def refused(*args, needle):
    res = CliRunner().invoke(main, ["toi", *args])
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in res.stderr, res.stderr


# ---------------------------------------------------------------- 1. Fire & Movement with a heavy weapon

@pytest.mark.parametrize("squad,figure", [("squad:3regular+mg", "mg"), ("squad:2mortar", "mortar")])
def test_fire_and_movement_with_a_heavy_weapon_is_refused(squad, figure):
    # 001 Fire & movement; MG crew and Mortar crew: Limited Choice of Actions
    refused("fire", "--attacker", squad, "--target", "squad:4regular", "--distance", "2", "--fire-and-movement",
            needle=f"a squad with a {figure} figure (heavy infantry weapon) may not take a Fire & Movement")


def test_fire_and_movement_by_a_pinned_squad_is_refused_even_with_an_officer():
    refused("fire", "--attacker", "squad:3regular+officer:pinned", "--target", "squad:4regular", "--distance", "2",
            "--fire-and-movement", needle="a pinned squad may not move")


def test_fire_and_movement_without_a_heavy_weapon_still_answers():
    res = CliRunner().invoke(main, ["toi", "fire", "--attacker", "squad:3regular", "--target", "squad:4regular",
                                    "--distance", "2", "--fire-and-movement", "--format", "json"])
    assert res.exit_code == 0 and '"attack_strength": 2' in res.output      # 3 halved, rounded up


# ---------------------------------------------------------------- 2. only fresh units attack

@pytest.mark.parametrize("args,needle", [
    (["--attacker", "squad:4regular:fatigued"], "is fatigued: only a fresh unit may be activated"),
    (["--attacker", "sherman:op-fire"], "is in Op Fire mode: only a fresh unit may be activated"),
    (["--attacker", "squad:4regular", "--supporter", "squad:4regular:fatigued"],
     "is fatigued: only fresh units support"),
    (["--attacker", "squad:4regular", "--supporter", "squad:4regular:op-fire"],
     "is in Op Fire mode: only fresh units support"),
])
def test_fatigued_or_op_fire_units_may_not_lead_or_support_an_attack(args, needle):
    refused("fire", *args, "--target", "squad:4regular", "--distance", "2", needle=needle)


def test_assault_needs_a_fresh_active_squad_but_fatigued_supporters_may_help():
    refused("assault", "--attacker", "squad:4regular:fatigued", "--defender", "squad:3regular",
            needle="only a fresh squad may be activated to assault")
    refused("assault", "--attacker", "squad:4regular:op-fire", "--defender", "squad:3regular",
            needle="is in Op Fire mode")
    s = build_assault(GAME, parse_unit("squad:4regular", GAME), [parse_unit("squad:3regular:fatigued", GAME)],
                      [parse_unit("squad:3regular", GAME)])
    assert s.attack_strength == 4 + 2                                      # 002 step 1: "even fatigued squads"


# ---------------------------------------------------------------- 3. impossible hexes

@pytest.mark.parametrize("args,needle", [
    (["fire", "--attacker", "squad:4regular", "--target", "squad:4regular", "--terrain", "building", "--smoke",
      "--distance", "2"], "smoke may not be placed on a building hex"),
    (["fire", "--attacker", "squad:4regular", "--target", "squad:4regular:building:smoke", "--distance", "2"],
     "smoke may not be placed on a building hex"),
    (["assault", "--attacker", "squad:4regular", "--defender", "squad:3regular", "--terrain", "building",
      "--smoke"], "smoke may not be placed on a building hex"),
    (["fire", "--attacker", "squad:4regular", "--target", "sdkfz_251:stream_deep", "--distance", "2"],
     "no vehicle can be in a stream_deep hex"),
    (["fire", "--attacker", "sherman:stream_deep", "--target", "squad:4regular", "--distance", "2"],
     "no vehicle can be in a stream_deep hex"),
    (["assault", "--attacker", "squad:4regular", "--defender", "sdkfz_251", "--terrain", "stream_deep"],
     "no vehicle can be in a stream_deep hex"),
    (["fire", "--attacker", "squad:4regular", "--target", "squad:4regular:pond", "--distance", "2"],
     "no unit can be in a pond hex"),
    (["fire", "--attacker", "squad:4regular", "--target", "squad:4regular", "--terrain", "stream_flooded",
      "--distance", "2"], "no unit can be in a stream_flooded hex"),
    (["fire", "--attacker", "squad:2mortar", "--target", "squad:4regular:woods", "--target", "sdkfz_251:rough",
      "--distance", "4"], "share its terrain"),
    (["fire", "--attacker", "squad:2mortar", "--target", "sdkfz_251", "--target", "sdkfz_251", "--target",
      "opel_blitz", "--distance", "4"], "at most 3 units, 2 of them vehicles"),
])
def test_impossible_hexes_are_refused(args, needle):
    refused(*args, needle=needle)


def test_a_squad_may_still_be_in_a_deep_stream():
    frames = fire_on_hex("squad:4regular", ["squad:4regular:stream_deep"], distance=2, game=GAME)
    assert frames[0].defence_strength == 0                         # 001 Terrain: Stream, cover none


# ---------------------------------------------------------------- 4. suppressive area attack on a hex with a vehicle

def test_suppressive_area_attack_affects_the_squads_and_leaves_the_vehicle_alone():
    frames = fire_on_hex("squad:2mortar", ["squad:4regular:woods", "sdkfz_251:woods"], distance=6,
                         mode="suppressive", game=GAME)
    assert len(frames) == 1
    (squad,) = frames
    assert (squad.attack_strength, squad.defence_strength) == (8, 2)
    assert list(squad.unaffected) == ["Sdkfz 251 half-track: immune to suppressive attacks (001 step 3), unaffected"]
    # the squad's odds are those of the same attack on the squad alone
    alone = fire_on_hex("squad:2mortar", ["squad:4regular:woods"], distance=6, mode="suppressive", game=GAME)[0]
    assert squad.summary == alone.summary
    res = CliRunner().invoke(main, ["toi", "fire", "--attacker", "squad:2mortar", "--target", "squad:4regular:woods",
                                    "--target", "sdkfz_251:woods", "--distance", "6", "--mode", "suppressive"])
    assert res.exit_code == 0 and "not attacked: Sdkfz 251 half-track" in res.output


def test_suppressive_attack_on_vehicles_only_is_still_refused():
    refused("fire", "--attacker", "squad:2mortar", "--target", "sdkfz_251:woods", "--distance", "6", "--mode",
            "suppressive", needle="vehicles are immune")


# ---------------------------------------------------------------- 5. the defender chooses what the retreat destroys

def _setup(active, defenders, supporters=(), **kw):
    return build_assault(GAME, parse_unit(active, GAME), [parse_unit(s, GAME) for s in supporters],
                         [parse_unit(d, GAME) for d in defenders], **kw)


def _figures_lost(setup, result):
    return sum(u.size - o.figures_left for u, o in zip(setup.defenders, result.defenders, strict=True) if not u.is_vehicle)


def test_issue_replay_loses_three_figures_not_five():
    s = _setup("squad:2regular", ["squad:3regular", "squad:3regular"], retreat_space=1)
    r = replay(s, [6, 6], [], [1] * 6)
    first, second = r.defenders
    assert r.success and _figures_lost(s, r) == 3
    # the hits go on the squad the stacking limit destroys; the untouched squad retreats
    assert (first.hits, first.destroyed_by, second.hits, second.retreated) == (2, "retreat", 0, True)


def _best_by_hand(sizes, hits, room):
    """Fewest figures lost by any split of the hits and any choice of the squads that retreat."""
    best = None
    for split in ((a, b) for a in range(sizes[0] + 1) for b in range(sizes[1] + 1)
                  if a + b == min(hits, sum(sizes))):
        left = [n - h for n, h in zip(sizes, split, strict=True)]
        alive = sorted((x for x in left if x), reverse=True)
        lost = sum(split) + sum(alive[room:])
        best = lost if best is None else min(best, lost)
    return best


@pytest.mark.parametrize("sizes", [(3, 3), (4, 1), (2, 4), (1, 1)])
@pytest.mark.parametrize("hits", range(0, 7))
@pytest.mark.parametrize("room", [0, 1, 2])
def test_defender_loses_the_fewest_figures_possible(sizes, hits, room):
    s = _setup("squad:4regular", [f"squad:{n}regular" for n in sizes], retreat_space=room)
    r = resolve(s, hits, 0)
    assert r.success == (hits > 0)
    if r.success:
        assert _figures_lost(s, r) == _best_by_hand(sizes, hits, room)


def test_exact_and_monte_carlo_both_use_the_defenders_choice():
    s = _setup("squad:2regular", ["squad:3regular", "squad:3regular"], retreat_space=1)
    # closed form: 2 black dice at 4-6, no cover, 6 defender dice at 4-6; success only if the defender
    # rolls fewer hits. Figures lost: the hits, and on a success the rest of the squad that took them.
    expect = F(0)
    for a in range(3):
        pa = comb(2, a) * F(1, 2) ** 2
        for d in range(7):
            pd_ = comb(6, d) * F(1, 2) ** 6
            lost = 3 if a > d else a   # success: the squad that took the hits is the one destroyed
            expect += pa * pd_ * lost
    ex = assault(s, game=GAME).summary
    assert ex["mean_defender_figures_lost"] == pytest.approx(float(expect), abs=1e-12)
    mc = assault(s, game=GAME, trials=200_000, seed=22, workers=1).summary
    se = mc["se"]["mean_defender_figures_lost"]
    assert abs(mc["mean_defender_figures_lost"] - float(expect)) < 4 * se


# ---------------------------------------------------------------- 6. one wire marker, one answer

def test_one_area_attack_has_one_wire_removal_chance():
    frames = fire_on_hex("squad:2mortar", ["squad:4regular:woods:razor_wire", "sdkfz_251:woods:razor_wire"],
                         distance=6, game=GAME)
    chances = {f.summary["p_wire_removed"] for f in frames}
    # the roll against the squads decides: 8 dice at 5-6, 3 or more successes
    third = F(1, 3)
    p = sum(comb(8, k) * third**k * (1 - third) ** (8 - k) for k in range(3, 9))
    assert len(chances) == 1 and chances.pop() == pytest.approx(float(p), abs=1e-14)
    assert float(p) == pytest.approx(0.5318, abs=1e-4)
    assert {f.wire_roll for f in frames} == {"infantry"}
    # with vehicles only, the roll against them is the hex's roll: 4 dice, 3 or more: 9/81
    only = fire_on_hex("squad:2mortar", ["sdkfz_251:woods:razor_wire"], distance=6, game=GAME)[0]
    assert only.summary["p_wire_removed"] == pytest.approx(1 / 9, abs=1e-14)


def test_one_wire_chance_in_monte_carlo_too():
    frames = fire_on_hex("squad:2mortar", ["squad:4regular:woods:razor_wire", "sdkfz_251:woods:razor_wire"],
                         distance=6, game=GAME, trials=50_000, seed=6, workers=1)
    assert len({f.summary["p_wire_removed"] for f in frames}) == 1
    assert len({f.seed for f in frames}) == 1


def test_refusals_are_input_errors_in_the_python_api_too():
    with pytest.raises(InputError, match="Fire & Movement"):
        fire_on_hex("squad:2mortar", ["squad:4regular"], distance=3, fire_and_movement=True, game=GAME)
