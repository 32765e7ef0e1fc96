"""The data files: shipped files load, every value has a source, bad files name file and key."""

import shutil
import tomllib

import pytest

from simulator.games.toi.rules.data import TERRAIN_FILE, UNITS_FILE, load_game, load_terrain, load_units
from simulator.run.errors import InputError


def test_shipped_files_load_with_every_figure_and_vehicle_of_the_seed():
    game = load_game()
    assert set(game.units.figures) == {"regular", "elite", "officer", "mg", "mortar"}
    assert set(game.units.vehicles) == {"gmc_truck", "m3a1_halftrack", "sherman", "opel_blitz", "sdkfz_251",
                                        "panzer_iv", "tiger"}
    assert {"clear", "rough", "woods", "road", "hill", "building", "bridge", "pond", "entrenchment", "pillbox",
            "tank_trap", "razor_wire", "minefield", "smoke"} <= set(game.terrain.features)
    tiger = game.units.vehicles["tiger"]
    assert (tiger.vehicle.range.value, tiger.vehicle.fpr.value, tiger.armour.value, tiger.movement.value) == (8, 13, 6, 5)
    assert game.terrain.features["entrenchment"].cover.value == 2
    assert game.terrain.features["pillbox"].cover.value == 6


def _stats(node, path=""):
    if isinstance(node, dict):
        if "value" in node and "source" in node:
            yield path, node
        for k, v in node.items():
            yield from _stats(v, f"{path}.{k}" if path else k)


@pytest.mark.parametrize("path", [UNITS_FILE, TERRAIN_FILE])
def test_every_value_has_a_source_and_reconstructions_say_why(path):
    raw = tomllib.loads(path.read_text())
    stats = list(_stats(raw))
    assert len(stats) > 20
    for key, stat in stats:
        assert stat["source"].strip(), key
    recon = [k for k, s in stats if s.get("reconstructed")]
    if path == UNITS_FILE:  # the garbled stat blocks: at least these had to be rebuilt
        for key in ("figures.regular.infantry.range", "vehicles.panzer_iv.armour", "vehicles.tiger.thick_armour",
                    "vehicles.m3a1_halftrack.movement", "squads.max_figures"):
            assert key in recon


def _copy(tmp_path, src, edit):
    text = src.read_text()
    new = edit(text)
    assert new != text
    path = tmp_path / src.name
    path.write_text(new)
    return path


@pytest.mark.parametrize("edit,key,problem", [
    (lambda t: t.replace('[figures.elite]\nname = "Elite infantry"', '[figures.elite]\nname = "Elite infantry"\ncolour = "red"'),
     "figures.elite.colour", "unknown key"),
    (lambda t: t.replace('armour = { value = 6, source = "001 German unit stats, Tiger I (AV 6)" }', ""),
     "vehicles.tiger.armour", "required key is missing"),
    (lambda t: t.replace('armour = { value = 6,', 'armour = { value = "six",'), "vehicles.tiger.armour.value", "integer"),
    (lambda t: t.replace('traits = { value = ["battle_hardened"]', 'traits = { value = ["battle_hardend"]'),
     "figures.elite.traits", "unknown trait"),
    (lambda t: t.replace('weight = { value = "heavy", source = "001 Tanks: Tank, Heavy Vehicle" }\ntraits = { value = ["tank", "sturdy", "concussive_firepower", "overrun"], source = "001 Tanks special abilities" }\ntransport = { value = 0, source = "001 Tanks (no Transport)" }\nthick_armour = { value = true',
                         'weight = { value = "medium", source = "x" }\ntraits = { value = ["tank", "sturdy", "concussive_firepower", "overrun"], source = "001 Tanks special abilities" }\ntransport = { value = 0, source = "001 Tanks (no Transport)" }\nthick_armour = { value = true'),
     "vehicles.tiger.weight.value", "light"),
    (lambda t: t.replace('fpr_bonus = { value = 2, source', 'fpr_bonus = { value = 2 source'), "", "TOML syntax error"),
])
def test_bad_units_file_names_file_and_key(tmp_path, edit, key, problem):
    path = _copy(tmp_path, UNITS_FILE, edit)
    with pytest.raises(InputError) as err:
        load_units(path)
    assert err.value.where == str(path)
    assert err.value.key == key
    assert problem in err.value.problem


@pytest.mark.parametrize("edit,key,problem", [
    (lambda t: t.replace('assault_cover = "per_squad"\nblocking = { value = "no", source = "001 Entrenchments & pillboxes" }\nmovement = { value = "1 MP to enter or leave; vehicles cannot enter", source = "001 Entrenchments & pillboxes" }\n\n[features.pillbox]',
                         'assault_cover = "twice"\nblocking = { value = "no", source = "001 Entrenchments & pillboxes" }\nmovement = { value = "1 MP to enter or leave; vehicles cannot enter", source = "001 Entrenchments & pillboxes" }\n\n[features.pillbox]'),
     "features.entrenchment.assault_cover", "per_squad"),
    (lambda t: t.replace('cover = { value = 3, source = "001 Terrain: Building" }', 'cover = { value = -3, source = "001 Terrain: Building" }'),
     "features.building.cover.value", "greater than or equal to 0"),
    (lambda t: t.replace('entry_dice = { value = 4, source = "001 Minefields (4 dice on entry)" }\n', ""),
     "features", "minefield needs entry_dice"),
    (lambda t: t.replace("[features.woods]", "[features.Woods]"), "features.Woods", "lower case"),
])
def test_bad_terrain_file_names_file_and_key(tmp_path, edit, key, problem):
    path = _copy(tmp_path, TERRAIN_FILE, edit)
    with pytest.raises(InputError) as err:
        load_terrain(path)
    assert err.value.where == str(path)
    assert err.value.key == key
    assert problem in err.value.problem


def test_missing_file_and_name_clash(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        load_units(tmp_path / "nope.toml")
    path = _copy(tmp_path, UNITS_FILE, lambda t: t.replace("[vehicles.tiger]", "[vehicles.mg]"))
    with pytest.raises(InputError) as err:
        load_units(path)
    assert err.value.key == "vehicles.mg" and "share a name" in err.value.problem


def test_edited_copy_is_used_not_the_cache(tmp_path):
    path = tmp_path / "units.toml"
    shutil.copy(UNITS_FILE, path)
    assert load_units(path).vehicles["tiger"].armour.value == 6
    path.write_text(path.read_text().replace('armour = { value = 6,', 'armour = { value = 7,'))
    import os
    os.utime(path, ns=(1, 10**18))
    assert load_units(path).vehicles["tiger"].armour.value == 7
