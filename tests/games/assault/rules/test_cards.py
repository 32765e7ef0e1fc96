"""Unit cards (4.2): the shipped roster, its stated facts, the loader's checks and the
``units`` command."""

import io
import json
import tomllib
from itertools import pairwise

import pandas as pd
import pytest
from click.testing import CliRunner

from simulator.games.assault.cli.units import units
from simulator.games.assault.questions.units import unit_cards
from simulator.games.assault.rules.cards import DEFAULT_UNITS_DIR, FACINGS, load_units
from simulator.games.assault.rules.dice import format_pool, load_dice, parse_pool
from simulator.run.errors import InputError

DICE = load_dice()
UNITS = load_units()
GERMAN = (DEFAULT_UNITS_DIR / "german.toml").read_text()
SOVIET = (DEFAULT_UNITS_DIR / "soviet.toml").read_text()


# --- the stated facts (assault-defaults.md) --------------------------------------------

def test_german_rifles_41_at_range_3_vs_infantry_roll_red_and_yellow():  # 11.0 step 3
    assert UNITS["german/rifles-41"].attack_pool(3, target_is_armoured_vehicle=False) == "RY"


def test_soviet_heavy_rifles_41_defend_with_yellow():  # 11.0 step 6
    assert UNITS["soviet/heavy-rifles-41"].defence_pool() == "Y"


def test_soviet_rifles_41_card():  # 12.11 steps 4, 5, 7; 5.7
    rifles = UNITS["soviet/rifles-41"]
    assert rifles.strength == 4
    assert rifles.attack_pool(0, target_is_armoured_vehicle=False) == "RGG"
    assert rifles.defence_pool() == "Y"
    assert rifles.half_strength_threshold == 2  # two damage points flip it (12.11 step 7)
    standard = [c.id for c in UNITS.values()
                if c.side == "soviet" and c.type == "infantry" and c.unit_class == "standard infantry"]
    assert standard == ["soviet/rifles-41"]


def test_german_tank_hunters_41_card():  # 12.11 steps 4, 5
    hunters = UNITS["german/tank-hunters-41"]
    assert hunters.attack_pool(0, target_is_armoured_vehicle=False) == "YY"
    assert hunters.defence_pool() == "Y"


def test_every_infantry_unit_moves_2_on_foot():  # 9.4 example
    infantry = [c for c in UNITS.values() if c.is_infantry]
    assert infantry
    assert all(c.movement == 2 and c.movement_type == "foot" for c in infantry)


def test_soviet_82mm_mortar_fires_indirect_from_2_to_12():  # 7.1 (German text)
    mortar = UNITS["soviet/mortar-82mm"]
    assert (mortar.indirect_fire.min, mortar.indirect_fire.max) == (2, 12)
    assert mortar.support and mortar.smoke


def test_pz_iif_has_a_turret():  # 10.6
    assert UNITS["german/pz-iif"].has_turret


def test_transport_capacities():  # 9.11, 9.11.1
    for uid in ("german/pz-iif", "german/stug-iiie", "soviet/t-26"):
        card = UNITS[uid]
        assert card.is_armoured_vehicle and card.movement_type == "tracked"
        assert card.transport_capacity == 4 and card.carries_tank_riders
    for uid in ("german/truck", "soviet/truck"):
        card = UNITS[uid]
        assert card.transport_capacity == 8 and not card.carries_tank_riders
        assert card.is_vehicle and not card.armoured
    assert UNITS["soviet/zis-30"].transport_capacity == 0  # the card overrides 9.11.1


def test_45mm_gun_is_the_only_medium_anti_tank_gun():  # 5.7
    medium = [c.id for c in UNITS.values() if c.unit_class == "medium anti-tank gun"]
    assert medium == ["soviet/at-gun-45mm"]


def test_infantry_training_units_are_infantry():  # 2.2
    for uid in ("german/rifles-41", "german/hmg-34", "soviet/heavy-rifles-41", "soviet/mmg-maxim"):
        assert UNITS[uid].is_infantry


# --- the roster as a whole -------------------------------------------------------------

@pytest.mark.parametrize("side", ["german", "soviet"])
def test_roster_covers_every_role(side):
    cards = [c for c in UNITS.values() if c.side == side]
    classes = {c.unit_class for c in cards}
    assert "standard infantry" in classes
    assert any("machine gun" in k for k in classes)
    assert "anti-tank infantry" in classes
    assert any("mortar" in k for k in classes)
    assert any("anti-tank gun" in k for k in classes)
    assert any(c.is_armoured_vehicle and c.has_turret for c in cards)
    assert any(c.is_armoured_vehicle and not c.has_turret for c in cards)
    assert any(c.unit_class == "truck" and c.transport_capacity for c in cards)


def test_ids_are_side_slash_name():
    for uid, card in UNITS.items():
        side, name = uid.split("/")
        assert card.id == uid and card.side == side and name == name.lower() and " " not in name


def _pool_strings(node, key=""):
    """Every pool string of a raw unit file, with its key."""
    pool_keys = {"vs_vehicle", "vs_infantry", "defence", "dice", *FACINGS}
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("stated",):
                continue
            if k in pool_keys and isinstance(v, str):
                yield f"{key}.{k}", v
            else:
                yield from _pool_strings(v, f"{key}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _pool_strings(v, f"{key}[{i}]")


@pytest.mark.parametrize("text", [GERMAN, SOVIET], ids=["german", "soviet"])
def test_every_pool_string_parses(text):
    found = list(_pool_strings(tomllib.loads(text)["units"]))
    assert len(found) > 50
    for key, pool in found:
        assert format_pool(parse_pool(pool, DICE, key)) == format_pool(parse_pool(
            format_pool(parse_pool(pool, DICE, key)), DICE, key))


def _weaker_or_equal(later, earlier):
    """Die by die, ``later`` is no stronger than ``earlier`` and has no more dice."""
    return len(later) <= len(earlier) and all(
        DICE.rank(a) >= DICE.rank(b) for a, b in zip(later, earlier, strict=False))


def test_attack_dice_do_not_grow_with_range():
    for card in UNITS.values():
        for before, after in pairwise(card.ranges):
            assert _weaker_or_equal(after.vs_vehicle, before.vs_vehicle), card.id
            assert _weaker_or_equal(after.vs_infantry, before.vs_infantry), card.id


def test_armoured_vehicles_are_strongest_in_front():
    for card in UNITS.values():
        if card.is_armoured_vehicle:
            front = card.defence_dice("front")
            for facing in ("flank", "rear", "above"):
                assert _weaker_or_equal(card.defence_dice(facing), front), (card.id, facing)
            assert DICE.rank(card.strongest_defence_die(DICE)) < DICE.rank("B")  # 4.2.2


def test_attack_pool_ranges_and_rows():
    rifles = UNITS["german/rifles-41"]
    assert rifles.attack_pool(1, False) == "RYG"
    assert rifles.attack_pool(3, True) == "-"        # in range, no dice against armour
    assert rifles.attack_pool(7, False) is None      # out of range
    assert rifles.attack_dice(3, False) == ("R", "Y")
    assert rifles.max_range == 6
    truck = UNITS["german/truck"]
    assert truck.attack_pool(1, False) is None and not truck.has_ranged_fire
    # an unarmoured vehicle is attacked with the vs-infantry row (4.2.2)
    assert not UNITS["soviet/truck"].is_armoured_vehicle


def test_defence_pool_needs_a_facing_for_vehicles():
    tank = UNITS["german/stug-iiie"]
    assert tank.defence_pool("front") == "RY"
    with pytest.raises(ValueError):
        tank.defence_pool()
    assert UNITS["german/hmg-34"].defence_pool("front") == "Y"  # infantry: one pool


def test_arcs_and_fast_action():
    assert UNITS["german/rifles-41"].arc_of_fire == 360
    assert UNITS["german/pz-iif"].arc_of_fire == 120
    assert not UNITS["soviet/at-gun-45mm"].can_fast_action      # slow
    assert UNITS["soviet/rifles-41"].can_fast_action


# --- malformed files -------------------------------------------------------------------

def _load(tmp_path, text, name="german.toml", dice=None):
    (tmp_path / name).write_text(text)
    with pytest.raises(InputError) as err:
        load_units(tmp_path, dice)
    return err.value


@pytest.mark.parametrize("old,new,key,problem", [
    ("strength = 4", "strength = = 4", "", "TOML syntax error"),
    ("strength = 4", "strength = 4\nstrenght = 4", "units.rifles-41.strenght", "unknown key"),
    ("strength = 4", 'strength = "four"', "units.rifles-41.strength", "integer"),
    ("strength = 4", "strength = true", "units.rifles-41.strength", "integer"),
    ('type = "infantry"', 'type = "tank"', "units.rifles-41.type", "'infantry'"),
    ("points = 40\n", "", "units.rifles-41.points", "required key is missing"),
    ('vs_infantry = "RYG" }', 'vs_infantry = "RXG" }', "units.rifles-41.ranges[0].vs_infantry",
     "unknown die 'X'"),
    ('{ min = 3, max = 4, vs_vehicle = "-", vs_infantry = "RY" }',
     '{ min = 2, max = 4, vs_vehicle = "-", vs_infantry = "RY" }',
     "units.rifles-41.ranges[1].min", "overlaps"),
    ('{ min = 3, max = 4, vs_vehicle = "-", vs_infantry = "RY" }',
     '{ min = 4, max = 4, vs_vehicle = "-", vs_infantry = "RY" }',
     "units.rifles-41.ranges[1].min", "gap"),
    ('{ min = 3, max = 4, vs_vehicle = "-", vs_infantry = "RY" }',
     '{ min = 3, max = 2, vs_vehicle = "-", vs_infantry = "RY" }',
     "units.rifles-41.ranges[1].max", "less than min"),
    ('defence = { front = "YG", flank = "G", rear = "B", above = "B" }',
     'defence = { front = "YG", flank = "G", rear = "B" }', "units.pz-iif.defence", "missing: above"),
    ('defence = { front = "YG", flank = "G", rear = "B", above = "B" }',
     'defence = { front = "YG", flank = "G", rear = "B", top = "B" }', "units.pz-iif.defence",
     "unknown facing 'top'"),
    ('defence = { front = "YG", flank = "G", rear = "B", above = "B" }', 'defence = "YG"',
     "units.pz-iif.defence", "per facing"),
    ('defence = "Y"', 'defence = { front = "Y" }', "units.rifles-41.defence", "one defence pool"),
    ("armoured = false", "armoured = true", "units.truck.armoured", "4.2.2"),
    ('movement_type = "tracked"', 'movement_type = "foot"', "units.pz-iif.movement_type",
     "wheeled or tracked"),
    ("strength = 4", "strength = 4\nhalf_strength = 4", "units.rifles-41.half_strength", "less than"),
    ('"ranges[1].vs_infantry"', '"ranges[7].vs_infantry"', "units.rifles-41.stated.ranges[7].vs_infantry",
     "names no value"),
    ("smoke = true", "smoke = true\nturret = true", "units.mortar-81mm.abilities.turret", "vehicles"),
    ("[units.rifles-41]", "[units.Rifles_41]", "units.Rifles_41", "lower case"),
    ('side = "german"', 'side = "Germans!"', "side", "lower case"),
])
def test_malformed_unit_file_names_file_and_key(tmp_path, old, new, key, problem):
    assert old in GERMAN
    text = GERMAN.replace(old, new, 1)
    if old == "[units.rifles-41]":
        text = text.replace("[units.rifles-41.stated]", "[units.Rifles_41.stated]")
    err = _load(tmp_path, text)
    assert err.where == str(tmp_path / "german.toml")
    assert err.key == key
    assert problem in err.problem
    assert str(err).startswith(f"{tmp_path / 'german.toml'}: {key}")
    assert "\n" not in str(err)


def test_negative_strength_message(tmp_path):
    err = _load(tmp_path, GERMAN.replace("strength = 4", "strength = -1", 1))
    assert str(err) == f"{tmp_path / 'german.toml'}: units.rifles-41.strength: must be positive (got -1)"


def test_smoke_needs_indirect_fire_and_support(tmp_path):
    no_indirect = GERMAN.replace('indirect_fire = { min = 2, max = 12, dice = "RYGG" }', "", 1)
    assert _load(tmp_path, no_indirect).key == "units.mortar-81mm.abilities.smoke"
    no_support = GERMAN.replace("support = true\n", "", 1)
    assert _load(tmp_path, no_support).key == "units.mortar-81mm.abilities.support"


def test_duplicate_id_across_files(tmp_path):
    (tmp_path / "a.toml").write_text(GERMAN)
    err = _load(tmp_path, GERMAN, name="b.toml")
    assert err.where == str(tmp_path / "b.toml")
    assert err.key == "units.rifles-41"  # the first unit of the second file
    assert "duplicate unit id 'german/rifles-41'" in err.problem and "a.toml" in err.problem


def test_empty_or_missing_directory(tmp_path):
    with pytest.raises(InputError, match="no unit files"):
        load_units(tmp_path)
    with pytest.raises(InputError, match="not found"):
        load_units(tmp_path / "nowhere")


def test_pools_are_checked_against_the_dice_in_use(tmp_path):
    dice_file = tmp_path / "dice.toml"
    dice_file.write_text('name = "two"\nstatus = "test"\n[dice]\n'
                         'red = ["hit", "hit", "supp", "-", "-", "-"]\n'
                         'blue = ["hit", "supp", "-", "-", "-", "-"]\n')
    units_dir = tmp_path / "units"
    units_dir.mkdir()
    err = _load(units_dir, GERMAN, dice=load_dice(dice_file))
    assert err.key.startswith("units.") and "unknown die" in err.problem
    only_rb = ('side = "german"\nstatus = "test"\nsource = "test"\n'
               '[units.x]\nname = "X"\ntype = "infantry"\nclass = "c"\nstrength = 2\n'
               'movement = 2\nmovement_type = "foot"\ndefence = "B"\npoints = 1\nsource = "t"\n'
               'close_combat = { vs_vehicle = "-", vs_infantry = "RB" }\n')
    (units_dir / "german.toml").write_text(only_rb)
    assert format_pool(load_units(units_dir, dice_file)["german/x"].close_combat_vs_infantry) == "RB"


# --- the units command -----------------------------------------------------------------

def test_unit_cards_answer():
    answer = unit_cards()
    frame = answer.frame()
    assert list(frame["id"]) == sorted(UNITS) and frame.attrs == {}
    assert answer.dice == "assault-default" and answer.units_status == "illustrative"
    # the JSON lists every card in full, in the table's order
    assert [c["id"] for c in answer.to_json()["units"]] == list(frame["id"])
    row = frame.set_index("id").loc["german/rifles-41"]
    assert row["ranges"] == "1-2 B/RYG; 3-4 -/RY; 5-6 -/G"
    assert "11.0" in row["source"] and "ranges[1].vs_infantry" in row["stated"]
    assert set(unit_cards("soviet").table["side"]) == {"soviet"}
    with pytest.raises(InputError, match="sides: german, soviet"):
        unit_cards("italian")


def test_units_command_table():
    res = CliRunner().invoke(units, [])
    assert res.exit_code == 0, res.output
    assert "german/pz-iif" in res.output and "soviet/mmg-maxim" in res.output
    assert "illustrative" in res.output and "reconstructed" in res.output


def test_units_command_csv_side():
    res = CliRunner().invoke(units, ["--side", "german", "--format", "csv"])
    assert res.exit_code == 0, res.output
    frame = pd.read_csv(io.StringIO(res.output))
    assert frame["id"].str.startswith("german/").all()
    assert {"id", "type", "armoured", "strength", "movement", "ranges", "defence", "abilities",
            "points", "class", "source"} <= set(frame.columns)


def test_units_command_json_to_file(tmp_path):
    out = tmp_path / "units.json"
    res = CliRunner().invoke(units, ["--format", "json", "--out", str(out)])
    assert res.exit_code == 0, res.output
    obj = json.loads(out.read_text())
    cards = {u["id"]: u for u in obj["units"]}
    assert cards["soviet/rifles-41"]["close_combat"]["vs_infantry"] == "RGG"
    assert cards["german/pz-iif"]["defence"]["front"] == "YG"
    assert obj["dice_status"] == "reconstructed"


def test_units_command_help_has_an_example():
    res = CliRunner().invoke(units, ["--help"])
    assert "lanchester assault units --side soviet" in res.output


def test_units_command_bad_units_dir_is_one_line(tmp_path):
    from simulator.cli import main
    bad = tmp_path / "units"
    bad.mkdir()
    (bad / "german.toml").write_text(GERMAN.replace("strength = 4", "strength = -1", 1))
    res = CliRunner().invoke(main, ["assault", "units", "--units-dir", str(bad)])
    assert res.exit_code == 2
    assert "units.rifles-41.strength: must be positive (got -1)" in res.output
    assert "Traceback" not in res.output
