"""The player's aid (4.6): the shipped defaults, the lookups and the loader's checks."""

import pytest

from simulator.games.assault.rules.aid import DEFAULT_AID_FILE, EXPERIENCE_LEVELS, load_aid
from simulator.games.assault.rules.dice import format_pool, load_dice
from simulator.run.errors import InputError

AID = load_aid()
TEXT = DEFAULT_AID_FILE.read_text()
P = None  # prohibited


def test_aid_is_labelled_reconstructed():
    assert AID.name == "assault-default" and AID.status == "reconstructed" and AID.source
    assert AID.label == "assault-default, reconstructed"


# terrain | def. inf/art | def. vehicle | foot gun wheeled tracked | vehicle damage | LOS | LOS die | height | spot
TERRAIN_CHART = [
    ("clear", "G", "-", (1, 1, 1, 1), "-", "clear", "-", 0, None),
    ("road", "-", "-", (1, 1, 1, 1), "-", "clear", "-", 0, None),
    ("brush", "G", "-", (1, 2, 2, 1), "-", "hinder", "G", 0, 3),
    ("forest", "YG", "B", (2, 3, 3, 2), "G", "hinder", "Y", 1, 4),
    ("heavy-forest", "YY", "G", (2, 2, 4, 4), "Y", "blocked", "-", 1, 5),
    ("wooden-building", "YY", "-", (2, P, P, P), "-", "blocked", "-", 1, 4),
    ("stone-building", "RY", "-", (2, P, P, P), "-", "blocked", "-", 1, 5),
    # reconstructed rows (no Assault book prints them; docs/rulings.md D15)
    ("stream", "-", "-", (2, 3, 4, 3), "G", "clear", "-", 0, 3),
    ("river", "-", "-", (P, P, P, P), "-", "clear", "-", 0, 3),
    ("lake", "-", "-", (P, P, P, P), "-", "clear", "-", 0, 3),
    ("bridge", "-", "-", (1, 1, 1, 1), "-", "clear", "-", 0, None),
    ("ford", "-", "-", (2, 2, 2, 2), "-", "clear", "-", 0, 3),
    ("marsh", "B", "-", (2, 4, P, 4), "Y", "clear", "-", 0, 3),
    ("rough", "G", "-", (1, 2, 3, 2), "B", "clear", "-", 0, 3),
    ("rubble", "YG", "B", (2, 3, 4, 3), "G", "hinder", "G", 0, 4),
    ("orchard", "G", "-", (1, 2, 2, 1), "-", "hinder", "G", 1, 3),
    ("field", "B", "-", (1, 1, 2, 1), "-", "hinder", "B", 0, 3),
]


@pytest.mark.parametrize("row", TERRAIN_CHART, ids=[r[0] for r in TERRAIN_CHART])
def test_terrain_chart_matches_the_documented_defaults(row):
    name, inf, veh, costs, damage, los, los_dice, height, spot = row
    t = AID.terrain(name)
    assert format_pool(t.defence_dice(False)) == inf
    assert format_pool(t.defence_dice(True)) == veh
    assert tuple(t.movement_cost(m) for m in ("foot", "gun", "wheeled", "tracked")) == costs
    assert format_pool(t.vehicle_damage) == damage
    assert (t.los, format_pool(t.los_dice), t.height, t.spot) == (los, los_dice, height, spot)


def test_stated_terrain_values():
    assert AID.terrain("clear").defence_infantry == ("G",)          # 11.0 step 7
    assert AID.terrain("forest").defence_infantry == ("Y", "G")     # 10.9.1
    assert AID.terrain("road").free_facing                          # 9.1
    assert AID.terrain("heavy-forest").blocks                       # 10.3
    assert AID.terrain("brush").hinders                             # 10.2


def test_hill_row():
    h = AID.hill
    assert format_pool(h.defence_infantry) == "B" and format_pool(h.defence_vehicle) == "B"
    assert [h.movement_cost(m) for m in ("foot", "gun", "wheeled", "tracked")] == [1, 2, 2, 2]
    assert h.ground == 1 and h.spot == 3 and not h.fast_action_uphill  # 9.6.1


@pytest.mark.parametrize("status,any_target,fast_vehicle,failed_spot", [
    ("firing", "-", "B", "G"),
    ("turret-firing", "B", "G", "Y"),
    ("move-and-fire", "G", "Y", "Y"),
    ("fire-and-move", "G", "Y", "Y"),
])
def test_ranged_fire_modification_table(status, any_target, fast_vehicle, failed_spot):
    assert format_pool(AID.fire_modifier(status)) == any_target
    assert format_pool(AID.fire_modifier(status, "any")) == any_target
    assert format_pool(AID.fire_modifier(status, "fast-vehicle")) == fast_vehicle
    assert format_pool(AID.fire_modifier(status, "failed-spot")) == failed_spot


def test_fast_vehicle_always_gains_a_better_die():  # 13.2
    dice = load_dice()
    for status in ("firing", "turret-firing", "move-and-fire"):
        normal, fast = AID.fire_modifier(status), AID.fire_modifier(status, "fast-vehicle")
        assert fast and (not normal or dice.rank(fast[0]) < dice.rank(normal[0]))


def test_unknown_fire_status_or_case():
    with pytest.raises(InputError, match="unknown fire status 'running'"):
        AID.fire_modifier("running")
    with pytest.raises(InputError, match="unknown case"):
        AID.fire_modifier("firing", "blind")


def test_experience_levels():  # 4.2.3, 10.8.3, 10.9.8
    got = {lvl: AID.experience(lvl) for lvl in EXPERIENCE_LEVELS}
    assert got["recruit"].attacker_supp == 1 and not got["recruit"].defence
    assert (got["regular"].attack, got["regular"].defence, got["regular"].attacker_supp) == ((), (), 0)
    assert got["hardened"].defence == ("B",) and not got["hardened"].attack
    assert got["veteran"].attack == ("B",) and got["veteran"].defence == ("B",)
    assert got["elite"].attack == ("B",) and got["elite"].defence == ("B",)
    assert got["elite"].ignores_supp and not got["veteran"].ignores_supp
    with pytest.raises(InputError, match="unknown experience level 'green'"):
        AID.experience("green")


def test_terrain_lookup_accepts_spaces_and_names_unknown_terrain():
    assert AID.terrain("Heavy Forest").name == "heavy-forest"
    with pytest.raises(InputError) as err:
        AID.terrain("swamp", "scenarios/assault/x.toml", "map.hexes[3].terrain")
    msg = str(err.value)
    assert msg.startswith("scenarios/assault/x.toml: map.hexes[3].terrain: unknown terrain 'swamp'")
    assert "clear, road, brush, forest, heavy-forest, wooden-building, stone-building" in msg


def test_terrain_defence_with_hill():  # 9.6.1
    assert format_pool(AID.terrain_defence("forest", False)) == "YG"
    assert format_pool(AID.terrain_defence("forest", False, on_hill=True)) == "YGB"
    assert format_pool(AID.terrain_defence("forest", False, on_hill=True, hill_counts=False)) == "YG"
    assert format_pool(AID.terrain_defence("clear", True, on_hill=True)) == "B"


def test_movement_costs_with_hill():  # 9.4, 9.6.1
    assert AID.movement_cost("wooden-building", "gun") is None
    assert AID.movement_cost("heavy-forest", "foot", climbing=True) == 3  # harsh for MA 2
    assert AID.movement_cost("clear", "tracked", climbing=True) == 3
    with pytest.raises(InputError):
        AID.movement_cost("clear", "hover")


def test_spot_numbers():  # 10.5, 10.5.1, 10.6
    assert AID.spot_number("clear") is None                       # 10.5.1 item 2
    assert AID.spot_number("road", outside_arc=True) is None      # item 2 also outside the arc (D13)
    assert AID.spot_number("brush") == 3
    assert AID.spot_number("brush", target_is_vehicle=True) is None   # no bonus: 10.5.1 item 1
    assert AID.spot_number("brush", target_is_vehicle=True, outside_arc=True) is None   # item 1 first
    assert AID.spot_number("forest", target_is_vehicle=True) == 4
    assert AID.spot_number("stone-building", outside_arc=True) == 5
    assert AID.spot_number("clear", on_hill=True) is None         # item 2: "regardless of any bonus"
    assert AID.spot_number("brush", target_is_vehicle=True, on_hill=True) == 3   # the hill's own number
    assert AID.spot_number("clear", on_hill=True, hill_counts=False) is None
    assert AID.spot_number("forest", on_hill=True) == 4           # the terrain's number wins


# --- malformed files -------------------------------------------------------------------

def _load(tmp_path, text, dice=None):
    path = tmp_path / "aid.toml"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        load_aid(path, dice)
    assert err.value.where == str(path)
    assert "\n" not in str(err.value)
    return err.value


@pytest.mark.parametrize("old,new,key,problem", [
    ("[terrain.clear]", "[terrain.clear", "", "TOML syntax error"),
    ('spot = 3\nstatus = "partly stated"\n\n[terrain.forest]',
     'spot = 3\nspott = 3\nstatus = "partly stated"\n\n[terrain.forest]',
     "terrain.brush.spott", "unknown key"),
    ('spot = 3\nstatus = "partly stated"\n\n[terrain.forest]',
     'spot = 7\nstatus = "partly stated"\n\n[terrain.forest]', "terrain.brush.spot", "1..6"),
    ("height = 0                  # 10.4 (stated)", 'height = "low"', "terrain.brush.height",
     "integer"),
    ('defence_infantry = "GY"', 'defence_infantry = "GQ"', "terrain.forest.defence_infantry",
     "unknown die 'Q'"),
    ("movement = { foot = 1, gun = 2, wheeled = 2, tracked = 1 }",
     'movement = { foot = 1, gun = 2, wheeled = "no", tracked = 1 }',
     "terrain.brush.movement.wheeled", "prohibited"),
    ("movement = { foot = 1, gun = 2, wheeled = 2, tracked = 1 }",
     "movement = { foot = 1, gun = 2, wheeled = 2 }", "terrain.brush.movement.tracked",
     "required key is missing"),
    ('los_dice = "G"', 'los_dice = "-"', "terrain.brush.los_dice", "10.9.2"),
    ('los = "hinder"              # 10.2 (stated)', 'los = "foggy"', "terrain.brush.los", "'hinder'"),
    ("[terrain.heavy-forest]", "[terrain.Heavy_Forest]", "terrain.Heavy_Forest", "lower case"),
    ("[experience.regular]        # 4.2.3: no effect (stated)", "", "experience.regular",
     "required key is missing"),
    ("[fire_modifier.turret-firing]", "[fire_modifier.turret]", "fire_modifier.turret-firing",
     "required key is missing"),
    ('fast_vehicle = "B"', 'fast_vehicle = 1', "fire_modifier.firing.fast_vehicle", "string"),
    ("outside_arc = 4", "outside_arc = 0", "spotting.outside_arc", "greater than or equal to 1"),
])
def test_malformed_aid_names_file_and_key(tmp_path, old, new, key, problem):
    assert old in TEXT
    err = _load(tmp_path, TEXT.replace(old, new, 1))
    assert err.key == key
    assert problem in err.problem


def test_aid_pools_are_checked_against_the_dice_in_use(tmp_path):
    dice_file = tmp_path / "dice.toml"
    dice_file.write_text('name = "two"\nstatus = "test"\n[dice]\n'
                         'red = ["hit", "hit", "supp", "-", "-", "-"]\n'
                         'blue = ["hit", "supp", "-", "-", "-", "-"]\n')
    err = _load(tmp_path, TEXT, dice=load_dice(dice_file))
    assert err.key == "terrain.clear.defence_infantry" and "unknown die 'G'" in err.problem


def test_missing_aid_file(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        load_aid(tmp_path / "nowhere.toml")


# --- the common terrain a designer expects (issue 21, item 3) ---------------------------

def test_every_terrain_row_says_where_it_comes_from():
    aid = load_aid()
    status = {t.name: t.status for t in aid.terrains}
    assert status["road"] == "stated"                               # 9.1: the whole row
    for name in ("clear", "brush", "forest", "heavy-forest", "wooden-building", "stone-building"):
        assert status[name] == "partly stated"
    # no Assault book prints these rows: all the project's reconstruction
    for name in ("stream", "river", "lake", "bridge", "ford", "marsh", "rough", "rubble", "orchard", "field"):
        assert status[name] == "reconstructed"


def test_water_and_crossings():
    aid = load_aid()
    for mt in ("foot", "gun", "wheeled", "tracked"):
        assert aid.movement_cost("river", mt) is None and aid.movement_cost("lake", mt) is None   # 9.4
        assert aid.movement_cost("bridge", mt) == aid.movement_cost("road", mt) == 1
        assert aid.movement_cost("ford", mt) is not None and aid.movement_cost("stream", mt) is not None
    bridge = aid.terrain("bridge")
    assert bridge.free_facing and bridge.spot is None and not bridge.defence_infantry   # as road (9.1, 10.5.1)
    assert aid.movement_cost("marsh", "wheeled") is None
    assert aid.terrain("stream").vehicle_damage and aid.terrain("marsh").vehicle_damage   # 9.10.1
    assert aid.terrain("rubble").hinders and aid.terrain("orchard").hinders and aid.terrain("field").hinders
    assert aid.terrain("orchard").height == 1 and aid.terrain("field").height == 0     # 10.4


def test_a_bad_terrain_status_names_the_key(tmp_path):
    p = tmp_path / "aid.toml"
    p.write_text(TEXT.replace('status = "stated"', 'status = "guessed"', 1))
    with pytest.raises(InputError) as e:
        load_aid(p)
    assert "terrain.road.status" in str(e.value)
