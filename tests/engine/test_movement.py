"""Movement (chapter 9): the rule-book examples (9.4, 9.6.1), hills, harsh terrain,
stacking, vehicles' facing, reversing and roads, loading and dismounting."""

from simulator.assault.aid import load_aid
from simulator.assault.cards import load_units
from simulator.engine.assault.scenario import MapSpec
from simulator.engine.core.compiled import compile_map
from simulator.engine.movement import (
    can_load,
    dismount_options,
    harsh_hexes,
    loading_marker,
    move_options,
    movement_allowance,
    reachable,
)

AID = load_aid()
UNITS = load_units()
LEGEND = {".": "clear", "r": "road", "b": "brush", "f": "forest", "F": "heavy_forest",
          "w": "wooden_building", "h": "hill", "H": "hill+forest", "X": "hill+heavy_forest"}


def cmap(rows, orientation="pointy"):
    return compile_map(MapSpec(orientation=orientation, rows=list(rows), legend=LEGEND), AID)


def names(cm, hexes):
    return {cm.names[h] for h in hexes}


def test_allowances():
    rifles = UNITS["german/rifles-41"]
    assert movement_allowance(rifles) == 2                       # 9.4 example
    assert movement_allowance(rifles, "fast") == 3               # 9.2, 9.4 example
    assert movement_allowance(rifles, "move-and-fire") == 1      # 9.3: half, rounded up
    pz = UNITS["german/pz-iif"]
    assert movement_allowance(pz) == 5 and movement_allowance(pz, reverse=True) == 3  # 9.10
    assert movement_allowance(pz, "move-and-fire", reverse=True) == 2


def test_9_4_example_two_clear_hexes_normal_three_fast():
    cm = cmap(["......."])
    r = reachable(cm, "0,0", "foot", movement_allowance(UNITS["german/rifles-41"]))
    assert r == {0: 0, 1: 1, 2: 2}
    r = reachable(cm, "0,0", "foot", 3, base_allowance=2, fast=True)
    assert max(r) == 3 and r[3] == 3


def test_move_costs_come_from_the_aid_and_add_the_hill():
    cm = cmap([".fFhH"])
    h = cm.index_of("0,0")
    east = 2  # pointy: side 2 is E
    assert cm.move_cost[cm.movement_type_index("foot"), h, east] == 2          # forest
    f = cm.index_of("1,0")
    assert cm.move_cost[cm.movement_type_index("wheeled"), f, east] == 4       # heavy forest
    F = cm.index_of("2,0")
    assert cm.move_cost[cm.movement_type_index("foot"), F, east] == 1 + 1      # clear hill +1 (9.6.1)
    assert cm.move_cost[cm.movement_type_index("gun"), F, east] == 1 + 2       # +2 for guns
    hh = cm.index_of("3,0")
    assert cm.move_cost[cm.movement_type_index("foot"), hh, east] == 2         # same hill: no extra
    assert cm.climb[F, east] and not cm.climb[hh, east]


def test_9_6_1_example_heavy_forest_on_a_hill_is_harsh_for_infantry():
    # 2 for heavy forest + 1 for the hill = 3 > base allowance 2 (9.5, 9.6.1)
    cm = cmap(["..X"])
    opts = move_options(cm, "1,0", "foot", 2)
    harsh = [o for o in opts if o.harsh]
    assert [(cm.names[o.hex], o.cost, o.path) for o in harsh] == [("2,0", 2, (cm.index_of("2,0"),))]
    # not from two hexes away, and the fast action's extra point does not help (9.5)
    assert cm.index_of("2,0") not in reachable(cm, "0,0", "foot", 2)
    assert cm.index_of("2,0") not in reachable(cm, "1,0", "foot", 3, base_allowance=2, fast=True)
    assert harsh_hexes(cm, "1,0", "foot", 2) == {cm.index_of("2,0")}


def test_harsh_terrain_for_guns_and_prohibited_terrain():
    cm = cmap([".f.w."])
    gun = UNITS["soviet/at-gun-45mm"]               # movement 1; forest costs guns 3
    assert harsh_hexes(cm, "0,0", "gun", gun.movement) == {cm.index_of("1,0")}
    truck = reachable(cm, "2,0", "wheeled", 6, facing=1)   # pointy facing 1 = NE vertex
    assert cm.index_of("3,0") not in truck            # buildings are prohibited for wheels


def test_no_fast_action_up_a_hill_but_across_and_down():
    cm = cmap([".hh."])
    assert cm.index_of("1,0") not in reachable(cm, "0,0", "foot", 3, base_allowance=2, fast=True)
    r = reachable(cm, "1,0", "foot", 3, base_allowance=2, fast=True)
    assert r[cm.index_of("2,0")] == 1 and r[cm.index_of("3,0")] == 2   # same hill, then down
    assert reachable(cm, "0,0", "foot", 2)[cm.index_of("1,0")] == 2    # normal move climbs


def test_stacking_pass_through_friends_not_enemies():
    cm = cmap(["....."])
    r = reachable(cm, "0,0", "foot", 2, friendly=["1,0"])
    assert cm.index_of("1,0") not in r and r[cm.index_of("2,0")] == 2   # 9.0
    r = reachable(cm, "0,0", "foot", 2, friendly=["1,0"], may_end=["1,0"])
    assert r[cm.index_of("1,0")] == 1                                   # loading (9.11.2)
    cm2 = cmap(["...", "...", "..."])
    assert reachable(cm2, "0,1", "foot", 2)[cm2.index_of("2,1")] == 2   # straight through 1,1
    r = reachable(cm2, "0,1", "foot", 3, enemy=["1,1"])
    assert cm2.index_of("1,1") not in r
    assert r[cm2.index_of("2,1")] == 3   # around the enemy: one hex longer


def test_vehicles_move_only_into_their_frontal_hexes():
    cm = cmap(["......."] * 5)
    start = cm.index_of("3,2")
    side = lambda *ds: {int(cm.neighbours[start, d % 6]) for d in ds}
    for f in range(6):
        # with no point to spare for turning: the two frontal hexes (9.10)
        zero = {o.hex for o in move_options(cm, start, "tracked", 1, facing=f)
                if o.hex != start and o.facing == f and o.path == (o.hex,)}
        assert side(f, f + 1) <= zero
        # the free vertex change in the start hex adds one hex either side; never the
        # two rear hexes when moving forwards
        one = {o.hex for o in move_options(cm, start, "tracked", 1, facing=f) if o.hex != start}
        assert one == side(f - 1, f, f + 1, f + 2)
        back = {o.hex for o in move_options(cm, start, "tracked", 1, facing=f, reverse=True)
                if o.hex != start}
        assert back == side(f + 2, f + 3, f + 4, f + 5)
    # in a corridor one hex wide a vehicle facing along it cannot go back without room
    cm2 = cmap(["....."])
    r = reachable(cm2, "2,0", "tracked", 1, facing=1)   # pointy 1 = NE: frontal NE, E
    assert set(r) == {cm2.index_of("2,0"), cm2.index_of("3,0")}


def test_vehicle_facing_changes():
    cm = cmap(["......."] * 5)
    s = cm.index_of("3,2")
    turns = {o.facing: o.cost for o in move_options(cm, s, "tracked", 5, facing=0) if o.hex == s}
    # 9.10 (German: in the same hex): one vertex free, each further vertex 1 point
    assert turns == {0: 0, 1: 0, 5: 0, 2: 1, 4: 1, 3: 2}
    # the hex behind (side 3) is frontal for facing 2: turn 2 vertices (1 free + 1)
    # and drive 1 hex = 2 points; reversing into it costs 1
    behind = int(cm.neighbours[s, 3])
    fwd = reachable(cm, s, "tracked", 5, facing=0)
    assert fwd[behind] == 2
    rev = reachable(cm, s, "tracked", 3, facing=0, reverse=True)
    assert rev[behind] == 1


def test_vehicles_turn_freely_on_a_road():
    cm = cmap(["rrrrr", "....."])
    s = cm.index_of("2,0")
    turns = {o.facing: o.cost for o in move_options(cm, s, "wheeled", 6, facing=0) if o.hex == s}
    assert set(turns.values()) == {0} and len(turns) == 6   # 9.1, 9.10
    off = cm.index_of("2,1")
    turns = {o.facing: o.cost for o in move_options(cm, off, "wheeled", 6, facing=0) if o.hex == off}
    assert turns[3] == 2


def test_vehicle_paths_list_the_hexes_entered():
    cm = cmap(["....", "...."])
    opts = move_options(cm, "0,0", "tracked", 3, facing=1)   # pointy facing 1: NE vertex -> NE, E
    end = [o for o in opts if o.hex == cm.index_of("3,0") and o.facing == 1]
    assert end and end[0].path == (cm.index_of("1,0"), cm.index_of("2,0"), cm.index_of("3,0"))
    assert end[0].cost == 3


def test_loading_rules():
    truck, pz = UNITS["german/truck"], UNITS["german/pz-iif"]
    rifles, hmg, gun = UNITS["german/rifles-41"], UNITS["german/hmg-34"], UNITS["german/at-gun-37mm"]
    assert can_load(truck, (), [(rifles, False)], rifles)[0]              # 4 + 4 <= 8
    ok, why = can_load(truck, (), [(rifles, False), (rifles, False)], hmg)
    assert not ok and "8 + 3" in why                                      # 9.11
    assert can_load(truck, (), [(rifles, False), (rifles, True)], gun)[0]  # 4 + 2 + 2 = 8
    assert not can_load(pz, (), [], gun)[0]                               # tank riders: infantry
    assert can_load(pz, (), [], rifles)[0]                                # 4 tank riders (9.11.1)
    ok, why = can_load(truck, ("fast",), [], rifles)
    assert not ok and "9.11.2" in why
    assert loading_marker(truck, rifles) is None


def test_dismounting():
    cm = cmap(["..X", ".w.", "..."])
    rifles, gun = UNITS["german/rifles-41"], UNITS["german/at-gun-37mm"]
    h = cm.index_of("1,1")   # the transport's hex (a building; dismounting only reads its sides)
    opts = dismount_options(cm, h, rifles, occupied=["0,1"])
    assert cm.index_of("0,1") not in opts                     # stacking (9.11.3)
    assert opts[cm.index_of("2,1")] == "fast"                 # infantry: fast action (9.11.3)
    gun_opts = dismount_options(cm, h, gun)
    assert set(gun_opts.values()) == {"delayed"}              # slow artillery: delayed
    far = dismount_options(cm, cm.index_of("1,0"), rifles)
    assert far[cm.index_of("2,0")] == "delayed"               # harsh for infantry (9.5)
