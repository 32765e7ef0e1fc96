"""Issue 16: the nine faults of the scenario engine against the rule books, each on a
tiny scenario (the rules tests that would have caught them)."""

from __future__ import annotations

import textwrap

import pytest

from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.events import EV_CC_RESULT, EV_CC_ROLL
from simulator.games.assault.game.game import State
from simulator.games.assault.game.state import (
    ACT_DELAYED,
    ACT_FAST,
    CC_NONE,
    FALLBACK,
    G_CC_PEND,
    G_EMERG,
    G_FB_UNIT,
    G_PHASE,
    G_SUB,
    HX_OCC,
    ONMAP,
    PH_SUPPORT,
    SUB_REACT,
    SUB_SMOKE_NEXT,
    SUPPRESSED,
    U_ACT,
    U_CC,
    U_CCROLE,
    U_DMG,
    U_FACE,
    U_HEX,
    U_IMMOB,
    U_MORALE,
    U_ST,
    U_TIRED,
    U_TYPE,
    decode,
)
from simulator.games.assault.game.tables import S6_COST, UT_MOVE, UT_MTYPE
from simulator.games.assault.questions.fire import fire
from simulator.games.assault.rules.pools import FireSituation
from tests.games.assault.game.test_game_setup import act, actions, hex_of, step_to, tiny, unit, write_scenario
from tests.games.assault.game.test_game_support import BODY as SUPPORT_BODY
from tests.games.assault.game.test_game_support import HEAD as SUPPORT_HEAD
from tests.games.assault.game.test_game_support import check_against_exact, exact_outcomes, outcome, sgame
from tests.games.assault.game.test_game_transport import HEAD as T_HEAD
from tests.games.assault.game.test_game_vehicle import _enter, vgame

# --- fault 1: a reinforcing unit that is the lowest-numbered in the hex (12.2, 12.6) ---

REINFORCE = """
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
hex = "2,1"
[[sides.german.units]]
unit = "tank-hunters-41"
hex = "4,1"
[sides.german.victory]
eliminate = 9
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "rifles-41"
hex = "3,1"
[sides.soviet.victory]
eliminate = 9
"""


def test_a_reinforcing_unit_fights_on_its_own_side_and_the_fight_ends(tmp_path):
    """12.2: the reinforcing German rifles (unit 0, the lowest number in the hex) take an
    attacker's role; when the last Soviet unit dies the close combat is over (12.6)."""
    g = tiny(tmp_path, REINFORCE)
    first, second = unit(g, "german", "rifles-41"), unit(g, "german", "tank-hunters-41")
    enemy = unit(g, "soviet", "rifles-41")
    assert first < second < enemy
    reinforced = ended = 0
    for seed in range(300):
        st = State(g, seed=seed)
        act(st, "move", second)
        step_to(st, second, "3,1")                              # 12.1: initiated
        if not (int(st.s.u[second, U_CC]) != CC_NONE and int(st.s.u[enemy, U_CC]) != CC_NONE
                and int(st.s.u[enemy, U_MORALE]) != FALLBACK and int(st.s.u[second, U_MORALE]) != FALLBACK):
            continue
        while st.current_player() == 1 and actions(st, "pass"):
            act(st, "pass")
        if not actions(st, "move") or st.current_player() != 0:
            continue
        act(st, "move", first)
        step_to(st, first, "3,1")                               # 12.2: reinforced
        reinforced += 1
        if int(st.s.u[first, U_CC]) != CC_NONE:
            assert int(st.s.u[first, U_CCROLE]) in (1, 2)      # an attacker, never the holder's side
        if int(st.s.u[enemy, U_ST]) != ONMAP:
            ended += 1
            assert int(st.s.u[first, U_CC]) == CC_NONE and int(st.s.u[second, U_CC]) == CC_NONE
    assert reinforced > 20 and ended > 0


# --- fault 2: reversing draws reaction fire (8.2) -------------------------------------

def test_a_reversing_vehicle_draws_reaction_fire(tmp_path):
    g = vgame(tmp_path, tank="3,1", rifles="5,1", enemy="t-26", enemy_facing="W")
    tank = unit(g, "german", "pz-iif")
    st = State(g, seed=1)
    act(st, "reverse", tank)
    act(st, "step", tank)
    assert int(st.s.g[G_SUB]) == SUB_REACT and actions(st, "reaction fire")


# --- fault 3: 9.2 bars infantry and artillery from two fast actions running, not vehicles

def test_a_vehicle_may_move_fast_in_the_turn_after_a_fast_action(tmp_path):
    g = vgame(tmp_path)
    tank = unit(g, "german", "pz-iif")
    st = State(g, seed=1)
    st.s.u[tank, U_TIRED] = 1
    assert [decode(a)[1] for a in actions(st, "fast move")] == [tank]
    g2 = tiny(tmp_path, REINFORCE)
    st2 = State(g2, seed=1)
    r = unit(g2, "german", "rifles-41")
    assert r in [decode(a)[1] for a in actions(st2, "fast move")]
    st2.s.u[r, U_TIRED] = 1
    assert r not in [decode(a)[1] for a in actions(st2, "fast move")]


# --- fault 4: the support phase without a support unit, for the free gun turn (6.3, 7.6)

GUN = """
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
hex = "1,1"
[sides.german.victory]
eliminate = 9
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "at-gun-45mm"
hex = "5,1"
facing = "E"
[sides.soviet.victory]
eliminate = 9
"""


def test_an_artillery_unit_turns_in_a_support_phase_without_support_units(tmp_path):
    path = write_scenario(tmp_path, GUN)
    path.write_text(path.read_text().replace('unit_rules = ["infantry"]', 'unit_rules = ["infantry", "artillery"]'))
    g = compile_game(path)
    gun = unit(g, "soviet", "at-gun-45mm")
    st = State(g, seed=1)
    assert int(st.s.g[G_PHASE]) == PH_SUPPORT and st.current_player() == 1
    faces = {decode(a)[2] for a in actions(st, "face artillery") if decode(a)[1] == gun}
    assert len(faces) == 5
    act(st, "face artillery", gun, 4)
    assert int(st.s.u[gun, U_ACT]) == 0


# --- fault 5: the tracks attack's suppression (12.9): suppressed, and out of the hex ---

def test_tracks_suppression_is_suppressed_and_leaves_the_hex(tmp_path):
    g = vgame(tmp_path, tank="3,1", rifles="2,1", initiative="soviet")
    r = unit(g, "soviet", "rifles-41")
    tank = unit(g, "german", "pz-iif")
    seen = 0
    for seed in range(400):
        st = State(g, seed=seed)
        _enter(g, st, r, "2,1", "3,1")
        act(st, "attack the wheels or tracks")
        res = [e for e in st.events() if int(e[0]) == EV_CC_RESULT and int(e[2]) == tank]
        if not res or int(res[0][3]) != 3:                      # WITHDREW: suppressed, must leave
            continue
        seen += 1
        assert int(st.s.u[tank, U_MORALE]) == SUPPRESSED        # as the melee calculator says
        while int(st.s.g[G_FB_UNIT]) == tank:
            st.apply_action(st.legal_actions()[0])
        if int(st.s.u[tank, U_ST]) == ONMAP:
            assert int(st.s.u[tank, U_HEX]) != hex_of(g, "3,1")
            assert int(st.s.u[tank, U_CC]) == CC_NONE             # (its marker may be gone: a new turn)
        assert int(st.s.u[r, U_CC]) == CC_NONE
    assert seen > 5


# --- fault 6: the unit moved out of an over-stacked hex (12.6), delayed into harsh terrain

def test_overstack_move_into_harsh_terrain_is_delayed(tmp_path):
    g = tiny(tmp_path, REINFORCE, rows=("HHHHHHH", "H..HHHH", "HHHHHHH"))
    first, second = unit(g, "german", "rifles-41"), unit(g, "german", "tank-hunters-41")
    ty = int(State(g).s.u[first, U_TYPE])
    mt, mv = int(g.tables.ut[ty, UT_MTYPE]), int(g.tables.ut[ty, UT_MOVE])
    h = hex_of(g, "2,1")
    nbrs = [(d, int(g.tables.side6[h, d, 0])) for d in range(6) if int(g.tables.side6[h, d, 0]) >= 0]
    harsh = {n for d, n in nbrs if int(g.tables.side6[h, d, S6_COST + mt]) > mv}
    easy = {n for d, n in nbrs if 0 <= int(g.tables.side6[h, d, S6_COST + mt]) <= mv}
    assert harsh and easy
    for target_set, marker in ((harsh, ACT_DELAYED), (easy, ACT_FAST)):
        st = State(g, seed=1)
        old = int(st.s.u[second, U_HEX])                       # two German units in one hex,
        st.s.u[second, U_HEX] = h                              # as a close combat left them
        st.s.hx[old, HX_OCC] -= 1
        st.s.hx[h, HX_OCC] += 1
        st.s.g[G_CC_PEND] = h + 1
        act(st, "pass")
        picks = [a for a in actions(st, "attack in close combat") if decode(a)[1] == first
                 and decode(a)[2] in target_set and decode(a)[2] != hex_of(g, "3,1")]
        assert picks
        st.apply_action(picks[0])
        assert int(st.s.u[first, U_ACT]) == marker


# --- fault 7: revised 12.4 situation 2: a slow passenger is delayed --------------------

def test_revised_emergency_disembark_of_a_slow_unit_is_delayed(tmp_path):
    path = tmp_path / "transport.scenario.toml"
    path.write_text(T_HEAD.format(initiative="soviet").replace('"v1"', '"v2"') + textwrap.dedent("""
        [sides.german]
        faction = "blue"
        [[sides.german.units]]
        unit = "truck"
        hex = "3,1"
        facing = "E"
        carrying = [{ unit = "hmg-34" }]
        [sides.german.victory]
        eliminate = 9
        [sides.soviet]
        faction = "red"
        [[sides.soviet.units]]
        unit = "rifles-41"
        hex = "4,1"
        [sides.soviet.victory]
        eliminate = 9
        """))
    g = compile_game(path)
    hmg, r = unit(g, "german", "hmg-34"), unit(g, "soviet", "rifles-41")
    placed = 0
    for seed in range(40):
        st = State(g, seed=seed)
        act(st, "move", r)
        step_to(st, r, "3,1")                                   # 12.4: the passengers get out
        if int(st.s.g[G_EMERG]) == 0 or st.current_player() != 0:
            continue
        act(st, "emergency disembark", hmg)
        if int(st.s.u[hmg, U_ST]) == ONMAP and int(st.s.u[hmg, U_MORALE]) == 0:
            placed += 1
            assert int(st.s.u[hmg, U_ACT]) == ACT_DELAYED
    assert placed > 0


# --- fault 8: every smoked hex is in the band (10.0, 7.5) ------------------------------

def test_smoke_hexes_stay_in_the_range_band(tmp_path):
    g = sgame(tmp_path, rows=("................",) * 4)
    mortar = unit(g, "german", "mortar-81mm")
    m = hex_of(g, "1,1")
    edge = next(h for h in range(g.cm.n) if g.cm.hex_distance(m, h) == 12
                and any(g.cm.hex_distance(m, int(x)) == 13 for x in g.tables.side6[h, :, 0] if x >= 0))
    seconds = 0
    for seed in range(200):
        st = State(g, seed=seed)
        act(st, "smoke", mortar, edge)
        if int(st.s.g[G_SUB]) != SUB_SMOKE_NEXT:
            continue
        nxt = [decode(a)[2] for a in actions(st, "smoke hex")]
        assert nxt and all(2 <= g.cm.hex_distance(m, h) <= 12 for h in nxt)
        seconds += 1
    assert seconds > 0


# --- fault 9: automatic spotting by the firing unit's adjacency (10.5.1 item 4, C2) ----

def test_indirect_spotting_ignores_the_spotters_adjacency(tmp_path):
    """A blind mortar at range 2 of rifles in forest, its spotter next to both: the
    spotting roll is the firing unit's (not adjacent, so rolled), as ``fire --indirect``."""
    rows = (".....F..........", ".....Ff.........", ".....F..........", "................")
    body = SUPPORT_BODY.format(target="rifles-41", mortar="4,1", facing="").replace('hex = "1,2"', 'hex = "5,1"')
    path = tmp_path / "support.scenario.toml"
    path.write_text(SUPPORT_HEAD.format(turns=2, rows=list(rows).__repr__().replace("'", '"')) + textwrap.dedent(body))
    g = compile_game(path)
    rifles = unit(g, "german", "rifles-41")
    enemy = unit(g, "soviet", "rifles-41")
    d = g.cm.hex_distance
    assert d(hex_of(g, "4,1"), hex_of(g, "6,1")) == 2 and g.cm.los[hex_of(g, "4,1"), hex_of(g, "6,1")] == 2
    assert d(hex_of(g, "5,1"), hex_of(g, "6,1")) == 1 == d(hex_of(g, "5,1"), hex_of(g, "4,1"))
    n = 3000
    counts: dict = {}
    for seed in range(n):
        st = State(g, seed=seed, log=False)
        fires = actions(st, "indirect fire")
        assert [decode(a)[2] for a in fires] == [enemy + 256 * (rifles + 1)]   # only with the spotter
        st.apply_action(fires[0])
        key = outcome(st, enemy, 4)
        counts[key] = counts.get(key, 0) + 1
    exact = exact_outcomes(fire("german/mortar-81mm", "soviet/rifles-41",
                                FireSituation(range=2, indirect=True, terrain="forest")).table)
    check_against_exact(counts, exact, n)


# --- reading S9 (10.7.3): the minimum of four command points, a scenario option --------

def test_command_point_minimum_is_an_option_that_vary_can_change():
    from simulator.games.assault.game.balance import parse_vary
    from simulator.games.assault.game.scenario import load_scenario
    from simulator.games.assault.game.tables import P_CP_ALWAYS
    assert int(compile_game("crossroads").tables.p[P_CP_ALWAYS]) == 1            # "always" (the text)
    # the override on the small Infantry Training (Crossroads compiled again: a minute)
    assert int(compile_game("infantry-training").tables.p[P_CP_ALWAYS]) == 1
    assert int(compile_game("infantry-training", overrides={"cp_minimum": "losses"}).tables.p[P_CP_ALWAYS]) == 0
    assert parse_vary(["cp_minimum=always,losses"], load_scenario("crossroads")) == \
        [("cp_minimum", ["always", "losses"])]


# ======================================================================================
# Issue 16, the rest: what the melee calculator had and the engine lacked, and two
# readings decided again (docs/rulings.md CC2, S22-S24)
# ======================================================================================

def _side_toward(g, frm: str, to: str) -> int:
    return next(d for d in range(6) if int(g.tables.side6[hex_of(g, frm), d, 0]) == hex_of(g, to))


def _cc_rolls(st):
    return [(int(e[2]), int(e[3]), int(e[6]), int(e[7])) for e in st.events() if int(e[0]) == EV_CC_ROLL]


# --- crit damage (revised 12.1.4 and its 12.6 example, rulings CC2): one implementation --

def test_the_engine_assigns_close_combat_damage_with_the_calculators_function():
    """The engine's close-combat damage is the melee package's ``after_close_combat`` (the
    12.6 example's "two further damage points" in both); its replay gives 3 damage."""
    from simulator.games.assault.game import closecombat as ccm
    from simulator.games.assault.rules.melee import damage as md
    assert ccm.md.after_close_combat is md.after_close_combat
    status, dmg, _m, _i = md.after_close_combat(0, 4, 2, 0, 0, 0, 0, 1, 1, 0)   # 1 damage + 1 crit, 4 strength
    assert (int(status), int(dmg)) == (md.IN_HEX, 3)


# --- 12.7.3, 12.8.2: the unit attacked turns to face its attacker (first edition) -----

@pytest.mark.parametrize("edition", ["v1", "v2"])
def test_the_vehicle_attacked_turns_to_face_the_attacker(tmp_path, edition):
    """First edition: after the initiated exchange the holder is turned so that the side
    its attacker crossed is frontal; the revised chapter does not say so (no turn)."""
    g = vgame(tmp_path, tank="2,1", rifles="3,1", enemy="t-26", edition=edition)   # T-26 faces E
    tank, t26 = unit(g, "german", "pz-iif"), unit(g, "soviet", "t-26")
    d = _side_toward(g, "3,1", "2,1")                                  # the side the tank crosses
    turned = 0
    for seed in range(60):
        st = State(g, seed=seed, log=True)
        st.s.u[tank, U_FACE] = _side_toward(g, "2,1", "3,1")
        _enter(g, st, tank, "2,1", "3,1")
        while not _cc_rolls(st) and actions(st, "stay in close combat"):
            act(st, "stay in close combat")                          # v2: no support unit
        f = int(st.s.u[t26, U_FACE])
        if edition == "v2":
            assert f == 1                                             # E, as set up
            continue
        if int(st.s.u[t26, U_ST]) == ONMAP and int(st.s.u[t26, U_MORALE]) != FALLBACK \
                and int(st.s.u[t26, U_IMMOB]) == 0:
            assert d in (f, (f + 1) % 6)                              # now in its front
            turned += 1
    assert edition == "v2" or turned > 10


# --- 12.7.3, 12.8.2: a reinforcing unit's target defends with the area entered from ---

def test_a_reinforcing_vehicle_from_the_rear_hits_rear_armour(tmp_path):
    """First edition: Soviet rifles initiate against the Pz II from its front; a T-26 then
    reinforces from its rear. The reinforced exchange's pools are the melee calculator's
    with ``reinforce_area="rear"`` (12.7.3; the outflanking of 12.8.2 follows from it)."""
    from simulator.games.assault.rules.melee.situation import (
        A2,
        V1_REINFORCE,
        Direction,
        MeleeSituation,
        build_cast,
        direction_pools,
    )
    from simulator.games.assault.rules.melee.situation import D1 as SD1
    body = """
    [sides.german]
    faction = "blue"
    [[sides.german.units]]
    unit = "pz-iif"
    hex = "3,1"
    facing = "E"
    [sides.german.victory]
    eliminate = 9
    [sides.soviet]
    faction = "red"
    [[sides.soviet.units]]
    unit = "rifles-41"
    hex = "4,1"
    [[sides.soviet.units]]
    unit = "t-26"
    hex = "2,1"
    facing = "E"
    [sides.soviet.victory]
    eliminate = 9
    """
    from tests.games.assault.game.test_game_vehicle import HEAD as V_HEAD
    path = tmp_path / "reinforce.scenario.toml"
    path.write_text(V_HEAD.format(edition="v1", initiative="soviet", rows='[".......", ".......", "......."]')
                    + textwrap.dedent(body))
    g = compile_game(path)
    tank, r, t26 = unit(g, "german", "pz-iif"), unit(g, "soviet", "rifles-41"), unit(g, "soviet", "t-26")
    units = g.scenario.units
    cast = build_cast("v1", units["soviet/t-26"], units["german/pz-iif"],
                      MeleeSituation(terrain="clear", reinforce_attacker="soviet/t-26", reinforce_area="rear"),
                      g.scenario.aid, units)
    atk = direction_pools(Direction(cast, A2, SD1, V1_REINFORCE))
    assert atk.defence[:len(units["german/pz-iif"].defence_dice("rear"))] == \
        tuple(units["german/pz-iif"].defence_dice("rear"))
    checked = 0
    for seed in range(80):
        st = State(g, seed=seed, log=True)
        _enter(g, st, r, "4,1", "3,1")
        act(st, "attack the vehicle")
        if not (int(st.s.u[r, U_CC]) != CC_NONE and int(st.s.u[tank, U_CC]) != CC_NONE
                and int(st.s.u[tank, U_MORALE]) == 0 and int(st.s.u[r, U_MORALE]) == 0
                and int(st.s.u[tank, U_IMMOB]) == 0):
            continue
        while st.current_player() == 0 and actions(st, "pass"):   # (the German has nothing to do)
            act(st, "pass")
        if st.current_player() != 1 or not any(decode(a)[1] == t26 for a in actions(st, "move")):
            continue
        half = int(st.s.u[tank, U_DMG]) >= units["german/pz-iif"].half_strength_threshold
        _enter(g, st, t26, "2,1", "3,1")
        rolls = [x for x in _cc_rolls(st) if x[0] == t26]
        assert len(rolls) == 1 and rolls[0][1] == tank
        got_a, got_b = g.cc_pools[rolls[0][2]], g.cc_pools[rolls[0][3]]
        back = direction_pools(Direction(cast, SD1, A2, V1_REINFORCE, x_half=half))
        assert (got_a.attack, got_a.defence, got_a.doubles) == (atk.attack, atk.defence, atk.doubles)
        assert (got_b.attack, got_b.defence, got_b.doubles) == (back.attack, back.defence, back.doubles)
        checked += 1
        if checked >= 3:
            break
    assert checked > 0


# --- 13.3 "ever" a second fallback: a scenario option (reading S22) --------------------

FIRE = """
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
hex = "2,1"
[sides.german.victory]
eliminate = 9
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "rifles-41"
hex = "4,1"
[sides.soviet.victory]
eliminate = 9
"""


def test_second_fallback_ever_eliminates_a_unit_that_fell_back_before(tmp_path):
    """A suppressed Soviet unit that fell back in an earlier turn (its marker since
    removed, 6.5): with ``second_fallback = "ever"`` the fallback a second suppression
    brings eliminates it; with "marker" (the default) it falls back. Same seeds, same dice."""
    from simulator.games.assault.game.state import U_FELL
    from simulator.games.assault.game.tables import P_FALLBACK_EVER
    path = write_scenario(tmp_path, FIRE)
    marker, ever = compile_game(path), compile_game(path, overrides={"second_fallback": "ever"})
    assert int(marker.tables.p[P_FALLBACK_EVER]) == 0 and int(ever.tables.p[P_FALLBACK_EVER]) == 1
    path2 = tmp_path / "ever.scenario.toml"
    path2.write_text(path.read_text().replace("[optional_rules]", '[optional_rules]\nsecond_fallback = "ever"'))
    assert int(compile_game(path2).tables.p[P_FALLBACK_EVER]) == 1
    me, enemy = unit(marker, "german", "rifles-41"), unit(marker, "soviet", "rifles-41")
    compared = 0
    for seed in range(300):
        results = []
        for g, fell in ((marker, 1), (ever, 1), (ever, 0)):
            st = State(g, seed=seed)
            st.s.u[enemy, U_MORALE] = SUPPRESSED
            st.s.u[enemy, U_FELL] = fell
            act(st, "fire", me, enemy)
            results.append((int(st.s.u[enemy, U_ST]), int(st.s.u[enemy, U_MORALE])))
        if results[0] == (ONMAP, FALLBACK):
            compared += 1
            assert results[1][0] != ONMAP                      # "ever": the second fallback eliminates
            assert results[2] == (ONMAP, FALLBACK)             # a first fallback is a fallback
        else:
            assert results[0] == results[1] == results[2]
    assert compared > 10


def test_second_fallback_is_a_vary_key():
    from simulator.games.assault.game.balance import parse_vary
    from simulator.games.assault.game.scenario import load_scenario
    assert parse_vary(["second_fallback=marker,ever"], load_scenario("crossroads")) == \
        [("second_fallback", ["marker", "ever"])]


# --- revised 12.4: the assault unit shoots at the passengers before they disembark ----

def test_revised_passenger_fire_matches_the_melee_calculator(tmp_path):
    """Soviet rifles assault a truck carrying an HMG (revised edition): the shot at the
    passenger uses ``passenger_fire_pools`` and its results are those the ``melee``
    calculator gives for ``--passengers`` (within four standard errors)."""
    import pandas as pd

    from simulator.games.assault.game.events import EV_ROLL
    from simulator.games.assault.questions.melee import melee
    from simulator.games.assault.rules.melee.situation import MeleeSituation, passenger_fire_pools
    path = tmp_path / "transport.scenario.toml"
    path.write_text(T_HEAD.format(initiative="soviet").replace('"v1"', '"v2"') + textwrap.dedent("""
        [sides.german]
        faction = "blue"
        [[sides.german.units]]
        unit = "truck"
        hex = "3,1"
        facing = "E"
        carrying = [{ unit = "hmg-34" }]
        [sides.german.victory]
        eliminate = 9
        [sides.soviet]
        faction = "red"
        [[sides.soviet.units]]
        unit = "rifles-41"
        hex = "4,1"
        [sides.soviet.victory]
        eliminate = 9
        """))
    g = compile_game(path)
    hmg, r = unit(g, "german", "hmg-34"), unit(g, "soviet", "rifles-41")
    units = g.scenario.units
    atk, dfn, doubles, extra = passenger_fire_pools(units["soviet/rifles-41"], units["german/hmg-34"],
                                                    g.scenario.aid, False, "regular")
    n = 1500
    counts: dict = {}
    for seed in range(n):
        st = State(g, seed=seed, log=seed < 5)
        act(st, "move", r)
        step_to(st, r, "3,1")
        if seed < 5:
            rolls = [e for e in st.events() if int(e[0]) == EV_ROLL and int(e[2]) == r and int(e[3]) == hmg]
            assert len(rolls) == 1
            assert g.fire_pools[int(rolls[0][4])] == (atk, doubles, extra)
            assert g.defence_pools[int(rolls[0][5]) - len(g.fire_pools)] == dfn
        key = outcome(st, hmg, 0)
        counts[key] = counts.get(key, 0) + 1
    frame = melee("soviet/rifles-41", "german/truck", MeleeSituation(passengers=("german/hmg-34",)), edition="v2")
    exact = exact_outcomes(pd.DataFrame(frame.passengers[0]["states"]))
    check_against_exact(counts, exact, n)


# --- revised 12.1.2.1-12.1.3.2: fortifications, wire and walls on the map --------------

FORT = """
[[map.features]]
hexes = ["3,1"]
fortification = "bunker"
facing = "E"
{wire}
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
hex = "3,1"
[sides.german.victory]
eliminate = 9
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "rifles-41"
hex = "{start}"
[sides.soviet.victory]
eliminate = 9
"""


def _fort_game(tmp_path, edition, start, wire):
    return tiny(tmp_path, FORT.format(start=start, wire="wire = true" if wire else ""), edition=edition,
                initiative="soviet")


@pytest.mark.parametrize("edition,start,area,wire", [("v2", "2,1", "rear", True), ("v2", "4,1", "front", False),
                                                      ("v1", "2,1", "rear", False), ("v1", "4,1", "front", False)])
def test_a_fortified_hex_gives_the_calculators_pools(tmp_path, edition, start, area, wire):
    """Rifles in a bunker facing E, assaulted from the W (its rear) or the E (its front):
    the initial round's pools are the melee calculator's with ``--fortification bunker
    --entry-area AREA`` (and ``--wire`` in the revised edition)."""
    from simulator.games.assault.game.tables import HI_FORTFACE, HI_WIRE
    from simulator.games.assault.rules.melee.situation import (
        A1,
        V1_INITIATE,
        V2_FIRST,
        Direction,
        MeleeSituation,
        build_cast,
        direction_pools,
    )
    from simulator.games.assault.rules.melee.situation import D1 as SD1
    g = _fort_game(tmp_path, edition, start, wire)
    h = hex_of(g, "3,1")
    assert int(g.tables.hexi[h, HI_FORTFACE]) == 1 and int(g.tables.hexi[h, HI_WIRE]) == int(wire)
    holder, attacker = unit(g, "german", "rifles-41"), unit(g, "soviet", "rifles-41")
    units = g.scenario.units
    card = units["soviet/rifles-41"]
    sit = MeleeSituation(terrain="clear", fortification="bunker", entry_area=area, wire=wire)
    cast = build_cast(edition, card, units["german/rifles-41"], sit, g.scenario.aid, units)
    kind = V1_INITIATE if edition == "v1" else V2_FIRST
    atk, back = direction_pools(Direction(cast, A1, SD1, kind)), direction_pools(Direction(cast, SD1, A1, kind))
    st = State(g, seed=2, log=True)
    act(st, "move", attacker)
    step_to(st, attacker, "3,1")
    while not _cc_rolls(st):
        act(st, "stay in close combat")                                  # v2: no support unit
    x, y, ta, tb = _cc_rolls(st)[0]
    assert (x, y) == (attacker, holder)
    got_a, got_b = g.cc_pools[ta], g.cc_pools[tb]
    assert (got_a.attack, got_a.defence) == (atk.attack, atk.defence)
    assert (got_b.attack, got_b.defence) == (back.attack, back.defence)
    from collections import Counter
    assert not Counter(cast.fortification.dice(area)) - Counter(atk.defence)   # the bunker's side entered
    if wire:
        assert len(atk.attack) == len(card.attack_dice(0, False)) - 1    # revised 12.1.2.1: weakest die lost


def test_map_features_are_checked(tmp_path):
    from simulator.games.assault.game.scenario import check_scenario
    path = write_scenario(tmp_path, REINFORCE)
    text = path.read_text()
    bad = text.replace("[map.legend]", '[[map.features]]\nhexes = ["3,1", "9,9"]\nfortification = "castle"\n'
                       '[[map.features]]\nhexes = ["3,1"]\nwire = true\nfacing = "E"\n[map.legend]')
    path.write_text(bad)
    problems = " | ".join(f"{p.key}: {p.message}" for p in check_scenario(path).problems)
    for expected in ("unknown fortification 'castle'", "needs the vertex", "off the map",
                     "already in map.features[0]", "only a fortification has a facing"):
        assert expected in problems, problems


# --- 12.10 (first edition): one infantry passenger disembarks into the close-combat hex

def _truck_game(tmp_path):
    path = tmp_path / "into.scenario.toml"
    path.write_text(T_HEAD.format(initiative="soviet") + textwrap.dedent("""
        [sides.german]
        faction = "blue"
        [[sides.german.units]]
        unit = "truck"
        hex = "3,1"
        facing = "E"
        carrying = [{ unit = "rifles-41" }]
        [sides.german.victory]
        eliminate = 9
        [sides.soviet]
        faction = "red"
        [[sides.soviet.units]]
        unit = "rifles-41"
        hex = "2,1"
        [sides.soviet.victory]
        eliminate = 9
        """))
    return compile_game(path)


def test_a_passenger_may_disembark_into_the_close_combat_hex(tmp_path):
    """12.10: Soviet rifles assault a German truck (facing E) from the W carrying rifles.
    The German player may send the rifles into the hex: they fight the initiated exchange
    with the melee calculator's pools for ``--passengers`` (no terrain dice, 12.8.1's
    penalty), the truck gets an active marker and turns to face the attacker."""
    from simulator.games.assault.rules.melee.situation import (
        A1,
        V1_INITIATE,
        Direction,
        MeleeSituation,
        build_cast,
        direction_pools,
    )
    from simulator.games.assault.rules.melee.situation import D1 as SD1
    g = _truck_game(tmp_path)
    truck, riders, r = unit(g, "german", "truck"), unit(g, "german", "rifles-41"), unit(g, "soviet", "rifles-41")
    units = g.scenario.units
    cast = build_cast("v1", units["soviet/rifles-41"], units["german/truck"],
                      MeleeSituation(terrain="clear", passengers=("german/rifles-41",)), g.scenario.aid, units)
    assert cast.passenger_in_hex
    atk = direction_pools(Direction(cast, A1, SD1, V1_INITIATE))
    back = direction_pools(Direction(cast, SD1, A1, V1_INITIATE))
    d = _side_toward(g, "3,1", "2,1")
    for seed in range(20):
        st = State(g, seed=seed, log=True)
        act(st, "move", r)
        step_to(st, r, "3,1")
        assert st.current_player() == 0                                   # the German player decides
        assert [decode(a)[1] for a in actions(st, "disembark into the close-combat hex")] == [riders]
        act(st, "disembark into the close-combat hex", riders)
        rolls = _cc_rolls(st)
        assert len(rolls) == 1 and rolls[0][:2] == (r, riders)
        got_a, got_b = g.cc_pools[rolls[0][2]], g.cc_pools[rolls[0][3]]
        assert (got_a.attack, got_a.defence, got_a.doubles) == (atk.attack, atk.defence, atk.doubles)
        assert (got_b.attack, got_b.defence, got_b.doubles) == (back.attack, back.defence, back.doubles)
        assert int(st.s.u[truck, U_CC]) != CC_NONE or int(st.s.u[r, U_CC]) == CC_NONE   # (unless it ended)
        f = int(st.s.u[truck, U_FACE])
        assert d in (f, (f + 1) % 6)                                      # turned to face the attacker
        from simulator.games.assault.game.events import EV_DISEMBARK
        assert [int(e[5]) for e in st.events() if int(e[0]) == EV_DISEMBARK and int(e[2]) == riders] == [2]
        if int(st.s.u[riders, U_ST]) == ONMAP and int(st.s.u[riders, U_MORALE]) != FALLBACK:
            assert int(st.s.u[riders, U_HEX]) == hex_of(g, "3,1")        # (the turn may be over: markers
                                                                          # gone, the fast action too)


def test_declining_sends_every_passenger_out(tmp_path):
    """12.10: the option may be declined; then the passengers disembark next to the hex
    and the close combat is fought against the truck, as before."""
    from simulator.games.assault.game.state import U_EMERG
    g = _truck_game(tmp_path)
    truck, riders, r = unit(g, "german", "truck"), unit(g, "german", "rifles-41"), unit(g, "soviet", "rifles-41")
    st = State(g, seed=4, log=True)
    act(st, "move", r)
    step_to(st, r, "3,1")
    act(st, "stay in close combat")                                       # no passenger into the hex
    assert int(st.s.u[riders, U_EMERG]) == 1 and int(st.s.g[G_EMERG]) == 1   # waiting to be placed next to it
    act(st, "emergency disembark", riders)                                # placed next to the hex
    assert int(st.s.u[riders, U_HEX]) != hex_of(g, "3,1")
    act(st, "attack the vehicle")                                         # 12.9: the truck can still move
    assert _cc_rolls(st)[0][:2] == (r, truck)


@pytest.mark.parametrize("start", ["5,1", "1,1"])
def test_a_fortification_gives_no_dice_against_ranged_fire(tmp_path, start):
    """Rulings S31 (issue 40, item 6): fortifications stay out of ranged fire (9.6.3.2, the
    section the revised 12.6 example cites, is in none of our texts). Soviet rifles fire at
    the German rifles in a bunker facing E, from its front (5,1, two hexes E) and its rear
    (1,1, two hexes W): the roll is the same attack and defence pool as with no bunker on
    the map, and wire in the hex changes neither."""
    from simulator.games.assault.game.events import EV_ROLL
    rolls = []
    for fort, wire in ((True, True), (False, False)):
        body = FORT.format(start=start, wire="wire = true" if wire else "")
        if not fort:
            body = body.replace('fortification = "bunker"\nfacing = "E"\n', "")
            body = body.replace("[[map.features]]\nhexes = [\"3,1\"]\n\n", "")
        assert ("fortification" in body) == fort and ("[[map.features]]" in body) == fort
        (tmp_path / f"{fort}").mkdir()
        g = tiny(tmp_path / f"{fort}", body, edition="v2", initiative="soviet")
        firer, target = unit(g, "soviet", "rifles-41"), unit(g, "german", "rifles-41")
        st = State(g, seed=1, log=True)
        act(st, "fire", firer, target)
        roll = [e for e in st.events() if int(e[0]) == EV_ROLL and int(e[2]) == firer]
        assert len(roll) == 1
        rolls.append((g.fire_pools[int(roll[0][4])], g.defence_pools[int(roll[0][5]) - len(g.fire_pools)]))
    assert rolls[0] == rolls[1]
