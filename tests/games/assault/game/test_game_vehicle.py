"""Vehicles in the engine (9.9, 9.10, 12.7.3, 12.9): frontal steps and turning one vertex
at a time, reversing, terrain damage against the exact odds of
``vehicle_terrain.terrain_damage``, close combat against a vehicle (the area entered
from, the wheels/tracks question) on the melee package's pools."""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pytest

from simulator.games.assault.game import events as ev
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.game import State
from simulator.games.assault.game.state import (
    FALLBACK,
    G_MP,
    G_SUB,
    SUB_CC_PICK,
    SUB_MOVE,
    SUB_REACT,
    SUPPRESSED,
    U_DMG,
    U_FACE,
    U_HEX,
    U_IMMOB,
    decode,
)
from simulator.games.assault.questions.terrain_damage import terrain_damage
from simulator.games.assault.rules.melee.situation import (
    A1,
    D1,
    V1_INITIATE,
    V2_FIRST,
    Direction,
    MeleeSituation,
    build_cast,
    direction_pools,
)
from tests.games.assault.game.test_game_setup import act, actions, hex_of, unit

HEAD = """\
name = "vehicles"
turns = 3
close_combat_edition = "{edition}"
unit_rules = ["infantry", "vehicle"]
first_setup = "german"
initiative = "{initiative}"
[optional_rules]
command_points = false
[map]
orientation = "flat"
rows = {rows}
[map.legend]
"." = "clear"
"f" = "forest"
"r" = "road"
"""

BODY = """
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "pz-iif"
hex = "{tank}"
facing = "E"
[sides.german.victory]
eliminate = 1
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "{enemy}"
hex = "{rifles}"{facing}
[sides.soviet.victory]
eliminate = 1
"""


def vgame(tmp_path, tank="1,1", rifles="6,0", rows=(".......",) * 3, edition="v1", initiative="german",
          enemy="rifles-41", enemy_facing="E"):
    head = HEAD.format(edition=edition, initiative=initiative,
                       rows=list(rows).__repr__().replace("'", '"'))
    path = tmp_path / "vehicles.scenario.toml"
    path.write_text(head + textwrap.dedent(BODY.format(tank=tank, rifles=rifles, enemy=enemy,
                                                                facing="" if enemy == "rifles-41" else f'\nfacing = "{enemy_facing}"')))
    return compile_game(path)


def targets(st: State, kind: str) -> set[str]:
    """Hexes the legal steps lead to (``step``), or facings of the legal turns (``turn``)."""
    g = st.game
    out = set()
    for a in actions(st, kind):
        _, u, x = decode(a)
        if kind == "step":
            out.add(g.cm.names[int(g.tables.side6[int(st.s.u[u, U_HEX]), x, 0])])
        else:
            out.add(int(x))
    return out


def decline(st: State) -> None:
    while int(st.s.g[G_SUB]) == SUB_REACT:
        act(st, "no reaction")


def test_frontal_steps_and_turning_one_vertex_at_a_time(tmp_path):
    g = vgame(tmp_path)
    st = State(g, seed=1)
    tank = unit(g, "german", "pz-iif")
    assert int(st.s.u[tank, U_FACE]) == 1                     # E: between sides NE and SE
    act(st, "move", tank)
    assert targets(st, "step") == {"2,1", "2,2"}              # 9.10: the two frontal hexes
    assert targets(st, "turn") == {0, 2}                      # one vertex either way
    act(st, "turn", tank, 2)
    assert int(st.s.g[G_MP]) == 5                             # the first vertex in a hex is free
    assert targets(st, "step") == {"2,2", "1,2"}
    assert targets(st, "turn") == {3}                         # not back to a facing held here
    act(st, "turn", tank, 3)
    assert int(st.s.g[G_MP]) == 4                             # each further vertex: one point
    act(st, "step", tank)                                     # the first legal step
    assert int(st.s.g[G_SUB]) in (SUB_MOVE, SUB_REACT)


def test_turning_on_a_road_is_free(tmp_path):
    g = vgame(tmp_path, rows=(".......", ".r.....", "......."))
    st = State(g, seed=1)
    tank = unit(g, "german", "pz-iif")
    act(st, "move", tank)
    act(st, "turn", tank, 2)
    act(st, "turn", tank, 3)
    act(st, "turn", tank, 4)
    assert int(st.s.g[G_MP]) == 5 and int(st.s.u[tank, U_FACE]) == 4


def test_reverse_steps_into_the_rear_hexes_with_half_the_allowance(tmp_path):
    g = vgame(tmp_path, tank="2,1")
    st = State(g, seed=1)
    tank = unit(g, "german", "pz-iif")
    act(st, "reverse", tank)
    assert int(st.s.g[G_MP]) == 3                             # 9.3 half of 5, rounded up
    assert targets(st, "step") == {"1,1", "1,0"}              # the rear hexes (SW, NW)


def test_terrain_damage_matches_the_exact_odds(tmp_path):
    """9.10.1: a tank entering forest; P(immobilised) and mean damage against
    ``terrain_damage`` (exact) within four standard errors."""
    g = vgame(tmp_path, rows=(".......", "..f....", "......."))
    tank = unit(g, "german", "pz-iif")
    forest = hex_of(g, "2,1")
    n = 1500
    immob = 0
    dmg = 0
    for seed in range(n):
        st = State(g, seed=seed)
        act(st, "move", tank)
        act(st, "step", tank, next(d for d in range(6) if int(g.tables.side6[hex_of(g, "1,1"), d, 0]) == forest))
        immob += int(st.s.u[tank, U_IMMOB])
        dmg += int(st.s.u[tank, U_DMG])
    exact = terrain_damage("german/pz-iif", "forest").summary
    p = exact["p_immobilised"]
    assert abs(immob / n - p) < 4 * math.sqrt(p * (1 - p) / n)
    assert abs(dmg / n - exact["mean_damage"]) < 4 * math.sqrt(exact["mean_damage"] / n) + 1e-9


def _cc_rolls(st: State) -> list[tuple[int, int, int, int]]:
    return [(int(e[2]), int(e[3]), int(e[6]), int(e[7])) for e in st.events() if int(e[0]) == ev.EV_CC_ROLL]


def _expected(g, attacker: str, defender: str, area: str, tracks: bool, edition="v1", kind=V1_INITIATE):
    units = g.scenario.units
    a, d = units[attacker], units[defender]
    cast = build_cast(edition, a, d, MeleeSituation(terrain="clear", entry_area=area), g.scenario.aid, units)
    atk = direction_pools(Direction(cast, A1, D1, kind, tracks=tracks))
    dfn = direction_pools(Direction(cast, D1, A1, kind))
    return atk, dfn


def _enter(g, st, mover: int, from_hex: str, to_hex: str) -> None:
    act(st, "move", mover)
    d = next(d for d in range(6) if int(g.tables.side6[hex_of(g, from_hex), d, 0]) == hex_of(g, to_hex))
    act(st, "step", mover, d)


@pytest.mark.parametrize("rifles,area", [("2,1", "rear"), ("4,1", "front")])
@pytest.mark.parametrize("choice", ["attack the vehicle", "attack the wheels or tracks"])
def test_infantry_against_a_vehicle_chooses_wheels_or_vehicle(tmp_path, rifles, area, choice):
    """12.9: before the exchange the infantry's player chooses the wheels/tracks or the
    vehicle; the pools are the melee package's (a vehicle shows infantry its above dice)."""
    g = vgame(tmp_path, tank="3,1", rifles=rifles, initiative="soviet")
    st = State(g, seed=3, log=True)
    r = unit(g, "soviet", "rifles-41")
    tank = unit(g, "german", "pz-iif")
    _enter(g, st, r, rifles, "3,1")
    assert int(st.s.g[G_SUB]) == SUB_CC_PICK and st.current_player() == 1      # the soviet player decides
    assert len(actions(st, "attack the vehicle")) == 1 and len(actions(st, "attack the wheels or tracks")) == 1
    act(st, choice)
    rolls = _cc_rolls(st)
    assert len(rolls) == 1 and rolls[0][:2] == (r, tank)
    atk, dfn = _expected(g, "soviet/rifles-41", "german/pz-iif", area, choice != "attack the vehicle")
    got_a, got_d = g.cc_pools[rolls[0][2]], g.cc_pools[rolls[0][3]]
    assert (got_a.attack, got_a.defence, got_a.tracks) == (atk.attack, atk.defence, atk.tracks)
    assert (got_d.attack, got_d.defence) == (dfn.attack, dfn.defence)


@pytest.mark.parametrize("edition", ["v1", "v2"])
@pytest.mark.parametrize("start,area", [("2,1", "rear"), ("4,1", "front"), ("3,0", "flank")])
def test_vehicle_defends_with_the_area_entered_from(tmp_path, edition, start, area):
    """12.7.3, revised 12.3: a vehicle holding the hex defends against a vehicle with the
    card dice of the area its attacker entered from (the T-26 faces E)."""
    g = vgame(tmp_path, tank=start, rifles="3,1", enemy="t-26", edition=edition)
    st = State(g, seed=5, log=True)
    tank = unit(g, "german", "pz-iif")
    t26 = unit(g, "soviet", "t-26")
    st.s.u[tank, U_FACE] = next(f for f in range(6)
                                if int(g.tables.side6[hex_of(g, start), f, 0]) == hex_of(g, "3,1"))
    _enter(g, st, tank, start, "3,1")
    while not _cc_rolls(st):
        act(st, "stay in close combat")                                   # v2: no support unit
    kind = V1_INITIATE if edition == "v1" else V2_FIRST
    atk, dfn = _expected(g, "german/pz-iif", "soviet/t-26", area, False, edition, kind)
    x, y, ta, td = _cc_rolls(st)[0]
    assert (x, y) == (tank, t26)
    card = tuple(g.scenario.units["soviet/t-26"].defence_dice(area))
    assert g.cc_pools[ta].defence == atk.defence and atk.defence[:len(card)] == card
    assert g.cc_pools[ta].attack == atk.attack and g.cc_pools[td].attack == dfn.attack
    assert g.cc_pools[td].defence == dfn.defence


def test_tracks_attack_immobilises_at_the_exact_rate(tmp_path):
    """12.9 over many seeds: P(immobilised) is P(a crit or a hit uncancelled) of the
    green die against the blue die, within four standard errors."""
    from simulator.games.assault.rules.exact import pool_distribution, uncancelled_distribution

    g = vgame(tmp_path, tank="3,1", rifles="2,1", initiative="soviet")
    r = unit(g, "soviet", "rifles-41")
    tank = unit(g, "german", "pz-iif")
    n = 800
    immob = 0
    for seed in range(n):
        st = State(g, seed=seed)
        _enter(g, st, r, "2,1", "3,1")
        act(st, "attack the wheels or tracks")
        immob += int(st.s.u[tank, U_IMMOB])
    dice = g.scenario.aid.dice
    u = uncancelled_distribution(pool_distribution(("G",), dice, "all"), pool_distribution(("B",), dice, "all"))
    c, h, _ = np.indices(u.shape)
    p = float((u * ((c + h) > 0)).sum())
    assert abs(immob / n - p) < 4 * math.sqrt(p * (1 - p) / n)


@pytest.mark.parametrize("facing,area", [("E", "rear"), ("W", "front")])
def test_fire_at_a_vehicle_matches_the_exact_calculator(tmp_path, facing, area):
    """10.9.3: the area of impact from the firer's hex picks the card's defence dice; the
    results (damage, morale, immobilised) as ``fire()`` gives them, within 4 SE."""
    from simulator.games.assault.questions.fire import fire
    from simulator.games.assault.rules.pools import FireSituation
    from tests.games.assault.game.test_game_fire import assert_matches

    g = vgame(tmp_path, tank="0,1", rifles="3,1", enemy="t-26", enemy_facing=facing)
    tank = unit(g, "german", "pz-iif")
    t26 = unit(g, "soviet", "t-26")
    n = 3000
    counts: dict = {}
    for seed in range(n):
        st = State(g, seed=seed, log=True)
        act(st, "fire", tank, t26)
        res = [e for e in st.events() if int(e[0]) == ev.EV_RESULT and int(e[2]) == t26]
        assert len(res) == 1
        _, _, _, elim, dmg, morale, immob, _ = (int(x) for x in res[0])
        key = ("eliminated",) if elim else (dmg, morale == SUPPRESSED, morale == FALLBACK, bool(immob))
        counts[key] = counts.get(key, 0) + 1
    exact: dict = {}
    for r in fire("german/pz-iif", "soviet/t-26", FireSituation(range=3, target_facing=area)).table.to_dict("records"):
        key = ("eliminated",) if r["eliminated"] else (int(r["damage"]), bool(r["suppressed"]),
                                                      bool(r["fallback"]), bool(r["immobilised"]))
        exact[key] = exact.get(key, 0.0) + r["p"]
    assert_matches(counts, exact, n)
