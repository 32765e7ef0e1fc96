"""The scenario format: the shipped scenarios, the minimal map-only form, formation
cards, and malformed files with the key of each problem."""

import textwrap

import pytest

from simulator.engine.core.hexspec import parse_hex_spec
from simulator.games.assault.game.compiled import compile_map
from simulator.games.assault.game.scenario import check_scenario, load_scenario, shipped_scenarios
from simulator.games.assault.game.scenario_format import load_formations
from simulator.run.errors import InputError

MINIMAL = """
name = "mini"
[map]
orientation = "flat"
rows = ["..f..", ".fFh.", "....."]
[map.legend]
"." = "clear"
"f" = "forest"
"F" = "heavy_forest"
"h" = "hill"
"""


def write(tmp_path, text, name="s.scenario.toml"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


def test_the_minimal_form_is_enough(tmp_path):
    s = load_scenario(write(tmp_path, MINIMAL))
    assert s.name == "mini" and s.sides == {} and s.turns is None
    assert (s.board.grid.cols, s.board.grid.rows) == (5, 3)
    assert s.board.describe(s.board.grid.index_of("3,1")) == "hill+clear"
    assert s.board.terrain[s.board.grid.index_of("2,1")] == "heavy-forest"
    cm = compile_map(s)
    assert cm.hill[cm.index_of("3,1")] and cm.elevation[cm.index_of("3,1")] == 1


def test_shipped_scenarios_load_and_state_the_map_is_our_own():
    names = [p.name for p in shipped_scenarios()]
    assert {"infantry-training.scenario.toml", "vehicle-training.scenario.toml"} <= set(names)
    for p in shipped_scenarios():
        s = load_scenario(p)
        assert "project's own" in s.map.source and "not the scenario book" in s.map.source
        assert "NOT THE SCENARIO BOOK'S" in p.read_text()
        assert s.close_combat_edition in ("v1", "v2")
        assert len(s.sides) == 2 and s.turns
        assert check_scenario(p).problems == []


def forces(s, side):
    out = {}
    for f in s.sides[side].units:
        out[f.unit] = out.get(f.unit, 0) + f.count
    return out


def test_infantry_training_has_the_forces_of_2_2_and_infantry_rules_only():
    s = load_scenario("infantry-training")
    assert s.id == "infantry-training"
    assert forces(s, "german") == {"german/rifles-41": 2, "german/hmg-34": 1}
    assert forces(s, "soviet") == {"soviet/heavy-rifles-41": 2, "soviet/mmg-maxim": 1}
    assert s.unit_rules == ["infantry"]                       # 2.1
    assert not s.optional_rules.command_points and not s.optional_rules.command_cards
    assert all(s.units[u].is_infantry for side in s.side_names for u in forces(s, side))


def test_vehicle_training_uses_vehicle_rules_only():
    s = load_scenario("vehicle-training")
    assert s.unit_rules == ["vehicle"]
    units = [s.units[f.unit] for side in s.side_names for f in s.sides[side].units]
    assert units and all(u.is_vehicle for u in units)
    assert all(isinstance(f.facing, int) for side in s.side_names for f in s.sides[side].units)
    pts = {side: sum(s.units[f.unit].points * f.count for f in s.sides[side].units)
           for side in s.side_names}
    assert pts["german"] == pts["soviet"]


def test_crossroads_has_every_kind_of_force():
    s = load_scenario("crossroads")
    units = {f.unit: f for side in s.side_names for f in s.sides[side].units}
    assert any(s.units[u].is_artillery and units[u].facing is not None for u in units)
    assert any(s.units[u].is_vehicle for u in units)
    truck = units["german/truck"]
    assert [p.unit for p in truck.carrying] == ["german/rifles-41"]
    assert s.sides["german"].formations.method == "draw-double"
    assert s.sides["soviet"].formations.method == "choose"
    rf = s.sides["soviet"].reinforcements
    assert rf[0].formations == ["vehicle"] and rf[1].draw_class[0].unit_class == "standard infantry"
    assert rf[1].roll == 4
    assert s.sides["german"].reinforcements[0].units[0].unit == "german/stug-iiie"
    assert s.optional_rules.command_points and s.initiative == "german"
    assert s.sudden_death("german") and not s.sudden_death("soviet")
    assert s.edition == "v2"
    assert len(s.zone_hexes("german", "west")) == 4 * 7


def test_formation_cards():
    cards = load_formations()
    c = cards["soviet/medium-anti-tank-section"]
    assert c.type == "artillery" and c.command_points == 1
    assert c.units == (("soviet/at-gun-45mm", 1, "regular"), ("soviet/truck", 1, "regular"))
    assert {c.side for c in cards.values()} == {"german", "soviet"}
    assert {c.type for c in cards.values()} == {"infantry", "artillery", "vehicle"}


def test_hex_specs():
    assert parse_hex_spec("3,4") == [(3, 4)]
    assert parse_hex_spec("0-1,2-3") == [(0, 2), (1, 2), (0, 3), (1, 3)]
    with pytest.raises(ValueError):
        parse_hex_spec("3;4")


SIDES = """
name = "t"
turns = 4
[map]
rows = ["..f..", ".fFh.", "...w."]
[map.legend]
"." = "clear"
"f" = "forest"
"F" = "heavy_forest"
"h" = "hill"
"w" = "wooden_building"
[[objectives]]
hex = "2,0"
[sides.german]
faction = "blue"
zones.west = ["0,0-2"]
[[sides.german.units]]
unit = "rifles-41"
zone = "west"
[sides.german.victory]
hold = ["2,0"]
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "rifles-41"
hex = "4,0"
[sides.soviet.victory]
eliminate = 1
"""


def test_a_valid_two_sided_file(tmp_path):
    s = load_scenario(write(tmp_path, SIDES))
    assert s.side_names == ("german", "soviet") and s.zone_hexes("german", "west") == ["0,0", "0,1", "0,2"]


# (replace old with new in SIDES) -> expected key, a fragment of the message
MALFORMED = [
    ('name = "t"', 'nam = "t"', "name", "required key is missing"),
    ('turns = 4', 'turns = 4\ncolour = "x"', "colour", "unknown key"),
    ('rows = ["..f..", ".fFh.", "...w."]', 'rows = ["..f..", ".fF", "...w."]', "map.rows[1]",
     "has 3 hexes but row 0 has 5"),
    ('rows = ["..f..", ".fFh.", "...w."]', 'rows = ["..f..", ".fFx.", "...w."]', "map.rows[1]",
     "'x' (column 3) not in map.legend"),
    ('"h" = "hill"', '"h" = "hill+swamp"', 'map.legend.h', "unknown terrain 'swamp'"),
    ('"h" = "hill"', '"h" = "forest+brush"', 'map.legend.h', "names 2 terrains"),
    ('orientation', 'orientation', "", ""),  # placeholder removed below
    ('hex = "2,0"', 'hex = "9,0"', "objectives[0].hex", "off the map"),
    ('hex = "2,0"', 'hex = "2-0"', "objectives[0].hex", "not a hex name"),
    ('unit = "rifles-41"\nzone', 'unit = "rifles-99"\nzone', "sides.german.units[0].unit",
     "unknown unit 'rifles-99'"),
    ('unit = "rifles-41"\nzone', 'unit = "soviet/rifles-41"\nzone', "sides.german.units[0].unit",
     "a unit of side soviet"),
    ('zone = "west"', 'zone = "east"', "sides.german.units[0].zone", "no set-up zone 'east'"),
    ('zone = "west"', 'zone = "west"\nhex = "0,0"', "sides.german.units[0].zone", "not both"),
    ('zone = "west"', 'zone = "west"\nfacing = "E"', "sides.german.units[0].facing",
     "infantry has no facing"),
    ('zones.west = ["0,0-2"]', 'zones.west = ["0,0-5"]', "sides.german.zones.west[0]",
     "3 hexes off the map"),
    ('zones.west = ["0,0-2"]', 'zones.west = ["0,0-2"]\nzones.town = ["3,2"]\n'
     '[[sides.german.units]]\nunit = "truck"\nzone = "town"', "sides.german.zones.town",
     "only 0 free hexes of the zone allow wheeled movement"),   # a wooden building (9.4)
    ('hex = "4,0"', 'hex = "3,2"', None, None),  # a building: foot may enter: fine
    ('faction = "red"', 'faction = "blue"', "sides.soviet.faction", "both sides are blue"),
    ('faction = "red"', 'faction = "green"', "sides.soviet.faction", "'blue' or 'red'"),
    ('hold = ["2,0"]', 'hold = ["1,1"]', "sides.german.victory.hold[0]", "not an objective hex"),
    ('turns = 4', 'turns = 4\ninitiative = "finnish"', "initiative", "must be \"roll\" or a side"),
    ('turns = 4', 'turns = 4\nclose_combat_edition = "v3"', "close_combat_edition", "'v1' or 'v2'"),
    ('turns = 4', 'turns = 4\nunit_rules = ["vehicle"]', "sides.german.units[0].unit",
     "uses only the vehicle rules"),
    ('[sides.soviet.victory]', '[[sides.soviet.reinforcements]]\nturn = 5\nunits = [{unit = "rifles-41"}]\n'
     'entry = ["4,0-2"]\n[sides.soviet.victory]', "sides.soviet.reinforcements[0].turn", "after the last turn"),
    ('[sides.soviet.victory]', '[[sides.soviet.reinforcements]]\nturn = 2\n'
     'draw_class = [{type = "infantry", class = "elite guards"}]\nentry = ["4,0"]\n[sides.soviet.victory]',
     "sides.soviet.reinforcements[0].draw_class[0].class", "no infantry of class 'elite guards'"),
    ('[sides.soviet.victory]', '[[sides.soviet.reinforcements]]\nturn = 2\nentry = ["4,0"]\n'
     '[sides.soviet.victory]', "sides.soviet.reinforcements[0]", "brings nothing"),
    ('[sides.soviet]', '[sides.finnish]\nfaction = "red"\n[sides.soviet]', "sides", "two sides"),
    ('hex = "4,0"', 'hex = "0,0"', "sides.soviet.units[0].hex", None),  # ok: 0,0 only in a zone
]
MALFORMED = [m for m in MALFORMED if m[2] != ""]


@pytest.mark.parametrize("old,new,key,fragment", MALFORMED, ids=[f"{m[2]}-{i}" for i, m in enumerate(MALFORMED)])
def test_malformed_files_name_the_key(tmp_path, old, new, key, fragment):
    assert old in SIDES
    p = write(tmp_path, SIDES.replace(old, new, 1))
    result = check_scenario(p)
    if fragment is None:
        assert result.ok, [x.line(str(p)) for x in result.problems]
        return
    assert not result.ok
    assert any(x.key == key and fragment in x.message for x in result.errors), \
        [x.line(str(p)) for x in result.problems]
    with pytest.raises(InputError) as err:
        load_scenario(p)
    assert "\n" not in str(err.value) and str(p) in str(err.value)


def test_stacking_and_prohibited_fixed_hexes(tmp_path):
    text = SIDES.replace('hex = "4,0"', 'hex = "4,0"\n[[sides.soviet.units]]\nunit = "rifles-41"\n'
                         'hex = "4,0"\n[[sides.soviet.units]]\nunit = "truck"\nhex = "3,2"\nfacing = "W"')
    res = check_scenario(write(tmp_path, text))
    keys = {x.key: x.message for x in res.errors}
    assert "already holds sides.soviet.units[0]" in keys["sides.soviet.units[1].hex"]
    assert "prohibited terrain for wheeled movement" in keys["sides.soviet.units[2].hex"]


def test_transport_checks(tmp_path):
    text = SIDES.replace('hex = "4,0"', 'hex = "4,0"\n[[sides.soviet.units]]\nunit = "truck"\nhex = "4,2"\n'
                         'carrying = [{unit = "rifles-41", count = 3}]\n'
                         '[[sides.soviet.units]]\nunit = "t-26"\nhex = "4,1"\n'
                         'carrying = [{unit = "at-gun-45mm"}]\n'
                         '[[sides.soviet.units]]\nunit = "rifles-41"\nhex = "0,0"\n'
                         'carrying = [{unit = "rifles-41"}]')
    res = check_scenario(write(tmp_path, text))
    msgs = {x.key: x.message for x in res.errors}
    assert "12 strength points aboard, but soviet/truck carries 8" in msgs["sides.soviet.units[1].carrying"]
    assert "tank riders, which must be infantry" in msgs["sides.soviet.units[2].carrying[0].unit"]
    assert "no transport capacity" in msgs["sides.soviet.units[3].carrying"]


def test_check_reports_every_problem_not_just_the_first(tmp_path):
    text = (SIDES.replace('rows = ["..f..", ".fFh.", "...w."]', 'rows = ["..f..", ".fFh", "...q."]')
            .replace('hex = "2,0"', 'hex = "7,7"')
            .replace('unit = "rifles-41"\nzone', 'unit = "rifles-99"\nzone')
            .replace('eliminate = 1', 'eliminate = -1'))
    res = check_scenario(write(tmp_path, text))
    keys = [x.key for x in res.errors]
    for key in ("map.rows[1]", "map.rows[2]", "sides.german.units[0].unit",
                "sides.soviet.victory.eliminate"):
        assert key in keys, keys
    assert len(res.errors) >= 4


def test_unknown_file_and_bad_toml(tmp_path):
    with pytest.raises(InputError, match="no such scenario"):
        load_scenario("no-such-scenario")
    with pytest.raises(InputError, match="TOML syntax error"):
        load_scenario(write(tmp_path, "name = \n"))


def test_alternate_history_swaps_roles_and_finds_equivalents():
    from simulator.games.assault.game.scenario import alternate_history, equivalent_unit

    s = load_scenario("infantry-training")
    alt = alternate_history(s)
    # 5.3: the Germans take the red set-up area and the red starting forces
    assert alt.sides["german"].faction == "red" and alt.sides["soviet"].faction == "blue"
    assert set(alt.sides["german"].zones) == {"village"}
    assert forces(alt, "german") == {"german/rifles-41": 2, "german/hmg-34": 1}
    assert forces(alt, "soviet") == {"soviet/rifles-41": 2, "soviet/mmg-maxim": 1}
    assert alt.sides["german"].victory.hold_count == 1 and alt.sides["soviet"].victory.hold == ["6,3", "6,5"]
    assert alt.first_setup == "german"
    assert s.sides["german"].faction == "blue"          # the original is untouched
    units = s.units
    assert equivalent_unit(units["soviet/at-gun-45mm"], "german", units).id == "german/at-gun-37mm"
    assert equivalent_unit(units["soviet/t-26"], "german", units).id == "german/pz-iif"
    assert equivalent_unit(units["german/truck"], "soviet", units).id == "soviet/truck"
    c = alternate_history(load_scenario("crossroads"))
    assert c.initiative == "soviet"
    assert c.sides["german"].reinforcements[1].draw_class[0].unit_class == "standard infantry"
    assert [u.unit for u in c.sides["soviet"].reinforcements[0].units] == ["soviet/zis-30"]


def test_command_cards_and_a_hand_limit_are_warned_of_as_not_played(tmp_path):
    """optional_rules.command_cards / hand_limit are read but no card is played (rulings
    S12): check says so with a warning on each key, and the file still loads."""
    text = SIDES + "\n[optional_rules]\ncommand_cards = true\nhand_limit = 4\n"
    res = check_scenario(write(tmp_path, text))
    assert not res.errors, [(e.key, e.message) for e in res.errors]
    warned = {w.key: w.message for w in res.warnings}
    assert "not played" in warned["optional_rules.command_cards"]
    assert "no effect" in warned["optional_rules.hand_limit"]
    quiet = check_scenario(write(tmp_path, SIDES + "\n[optional_rules]\ncommand_cards = false\nhand_limit = 0\n",
                                 name="q.scenario.toml"))
    assert not [w for w in quiet.warnings if w.key.startswith("optional_rules")]
