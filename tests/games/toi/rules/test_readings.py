"""Readings kept as data (issue 22): each switch changes the answer as docs/rulings.md says."""

import json
from fractions import Fraction as F
from math import comb

import pytest
from click.testing import CliRunner

from simulator.games.toi.cli import toi
from simulator.games.toi.questions.odds import fire_from_units
from simulator.games.toi.rules.assault import build_assault
from simulator.games.toi.rules.attack import build_attack
from simulator.games.toi.rules.data import TERRAIN_FILE, UNITS_FILE, load_game
from simulator.games.toi.rules.units import parse_unit
from simulator.run.errors import InputError

GAME = load_game()


def edited(tmp_path, src, old, new):
    text = src.read_text()
    assert text.count(old) == 1, old
    path = tmp_path / src.name
    path.write_text(text.replace(old, new))
    return path


def binom(n, p, k):
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def p_destroy_sherman(black_from):
    """10 black dice (Panzer IV vs vehicles) against 4 red (Sherman AV 4): 4+ hits destroy (001 results)."""
    pb, pr = F(7 - black_from, 6), F(1, 3)
    return sum(binom(10, pb, a) * binom(4, pr, d) for a in range(11) for d in range(5) if a - d >= 4)


def test_panzer_iv_range_against_vehicles_and_its_alternative(tmp_path):
    six = fire_from_units("panzer_iv", "sherman", distance=6, game=GAME).summary["p_destroyed"]
    assert six == pytest.approx(float(p_destroy_sherman(5)), abs=1e-14) and round(six, 3) == 0.196
    units = edited(tmp_path, UNITS_FILE, "reconstructed = true, alternative = 5 }", "reconstructed = true, alternative = 6 }")
    units.write_text(units.read_text().replace(
        'vehicle.range = { value = 6, source = "the digit before', 'vehicle.range = { value = 5, source = "the digit before'))
    game = load_game(units)
    assert game.units.vehicles["panzer_iv"].vehicle.range.value == 5
    five = fire_from_units("panzer_iv", "sherman", distance=6, game=game).summary["p_destroyed"]
    assert five == pytest.approx(float(p_destroy_sherman(6)), abs=1e-14) and round(five, 3) == 0.021


def test_units_listing_shows_the_reconstructions_and_their_alternatives():
    res = CliRunner().invoke(toi, ["units", "--format", "json"])
    readings = {r["key"]: r for r in json.loads(res.output)["readings"]}
    assert (readings["vehicles.panzer_iv.vehicle.range"]["value"],
            readings["vehicles.panzer_iv.vehicle.range"]["alternative"]) == ("6", "5")
    assert readings["vehicles.tiger.thick_armour"]["alternative"] == "false"
    for key in ("vehicles.m3a1_halftrack.movement", "vehicles.m3a1_halftrack.armour", "vehicles.panzer_iv.movement",
                "vehicles.panzer_iv.armour", "vehicles.sherman.thick_armour", "squads.max_figures"):
        assert readings[key]["reconstructed"] and len(readings[key]["source"]) > 60   # the reasoning is written
    text = CliRunner().invoke(toi, ["units"]).output
    assert "vehicles.panzer_iv.vehicle.range     6           5" in text


def _assault(game, defenders, **kw):
    return build_assault(game, parse_unit("squad:4regular", game), [],
                         [parse_unit(d, game) for d in defenders], **kw)


def test_medic_in_assault_cover_dice_is_a_switch(tmp_path):
    defenders = ["squad:3regular:medic", "squad:2regular"]
    assert _assault(GAME, defenders).cover == 0                                     # 002 step 4 (default)
    old = 'ranged fire", alternative = "per_squad" }'
    assert 'assault_cover = { value = "none"' in UNITS_FILE.read_text()
    for how, cover in (("per_squad", 2), ("hex", 1)):
        path = edited(tmp_path, UNITS_FILE, 'assault_cover = { value = "none"', f'assault_cover = {{ value = "{how}"')
        assert old in path.read_text()
        game = load_game(path)
        assert _assault(game, defenders).cover == cover
        assert _assault(game, ["squad:3regular:medic:pinned", "squad:2regular"]).cover == 0   # no ability when pinned


def test_tank_trap_in_assault_cover_dice_is_a_switch(tmp_path):
    assert _assault(GAME, ["squad:3regular"], hex_features={"tank_trap"}).cover == 0
    path = edited(tmp_path, TERRAIN_FILE, 'assault_cover = "none"       # 002 step 4 counts terrain',
                  'assault_cover = "hex"       # 002 step 4 counts terrain')
    game = load_game(None, path)
    assert _assault(game, ["squad:3regular", "squad:2regular"], hex_features={"tank_trap"}).cover == 1
    assert _assault(game, ["sdkfz_251"], hex_features={"tank_trap"}).cover == 0       # cover for squads only


def test_concussive_firepower_for_a_supporting_tank_is_a_switch(tmp_path):
    def support(game):
        a = build_attack(game, parse_unit("squad:4regular", game), [parse_unit("sherman", game)],
                         parse_unit("squad:4:building", game), distance=2)
        return a.contributions[1].strength
    assert support(GAME) == 5                                  # (6 + 3) / 2, rounded up
    path = edited(tmp_path, UNITS_FILE, 'rulings T4. false: the leading tank only", alternative = false }',
                  'rulings T4. false: the leading tank only", alternative = true }')
    path.write_text(path.read_text().replace("when_supporting = { value = true, source = \"001 Tanks",
                                             "when_supporting = { value = false, source = \"001 Tanks"))
    assert support(load_game(path)) == 3                       # 6 / 2


def test_bad_switch_values_name_the_file_and_key(tmp_path):
    path = edited(tmp_path, TERRAIN_FILE, 'closed_to = "all"            # 001 Terrain: Pond',
                  'closed_to = "ducks"            # 001 Terrain: Pond')
    with pytest.raises(InputError) as err:
        load_game(None, path)
    assert "features.pond.closed_to" in str(err.value)
