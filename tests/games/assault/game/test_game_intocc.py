"""Fire into a close combat in the engine (10.11, readings C10 and S20): offered only to
the active player's infantry, at enemy infantry in a close combat with a friendly
armoured vehicle or at an enemy vehicle in a close combat with a friendly vehicle; the
results match the exact calculator ``fire(..., FireSituation(into_close_combat=True))``
for the target and, in the second case, for the friendly vehicle."""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pandas as pd
import pytest

from simulator.engine.core.seeding import chunk_key, seed_game
from simulator.engine.players.interface import DEFAULT_PARAMS, PLAYER_NAMES, choose, make_work
from simulator.games.assault.game import events as ev
from simulator.games.assault.game.closecombat import ROLE_A1, ROLE_D1
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.game import State as _State
from simulator.games.assault.game.replay import describe_events
from simulator.games.assault.game.state import (
    ACT_FIREMOVE,
    CC_INACTIVE,
    CC_NONE,
    G_LOGN,
    G_MODE,
    G_SUB,
    G_UNIT,
    HX_OCC,
    K_FIRE,
    K_FIREMOVE,
    K_REACT,
    K_TURRET,
    MODE_FIREMOVE,
    ONMAP,
    SUB_REACT,
    U_ACT,
    U_CC,
    U_CCROLE,
    U_DMG,
    U_DONE,
    U_HEX,
    U_SIDE,
    U_ST,
    decode,
    encode,
)
from simulator.games.assault.game.tables import P_N_ATK, P_O_ICC
from simulator.games.assault.game.turn import apply_action
from simulator.games.assault.questions.fire import fire
from simulator.games.assault.rules.dice import format_pool
from simulator.games.assault.rules.pools import FireSituation
from tests.games.assault.game.test_game_setup import act, hex_of, unit


def State(g, *args, **kw):
    """A new game past its support phase: the guns here could turn in it (6.3, 7.6;
    issue 16), these tests start in the action phase (both pass; no dice rolled)."""
    from simulator.games.assault.game.state import G_PHASE, PH_SUPPORT
    st = _State(g, *args, **kw)
    while int(st.s.g[G_PHASE]) == PH_SUPPORT and not st.is_terminal():
        act(st, "pass")
    return st

SCENARIO = """\
name = "into-cc"
turns = 3
close_combat_edition = "v1"
unit_rules = ["infantry", "artillery", "vehicle"]
first_setup = "german"
initiative = "german"
[optional_rules]
command_points = false
[map]
orientation = "flat"
rows = ["...f...", ".......", "......."]
[map.legend]
"." = "clear"
"f" = "forest"

[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "tank-hunters-41"
hex = "0,1"
[[sides.german.units]]
unit = "rifles-41"
hex = "0,0"
[[sides.german.units]]
unit = "pz-iif"
hex = "1,0"
facing = "E"
[[sides.german.units]]
unit = "pz-iif"
hex = "1,1"
facing = "E"
[[sides.german.units]]
unit = "truck"
hex = "0,2"
facing = "E"
[[sides.german.units]]
unit = "at-gun-37mm"
hex = "1,2"
facing = "E"
[sides.german.victory]
eliminate = 9

[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "rifles-41"
hex = "6,0"
[[sides.soviet.units]]
unit = "t-26"
hex = "6,1"
facing = "W"
[[sides.soviet.units]]
unit = "at-gun-45mm"
hex = "6,2"
facing = "W"
[[sides.soviet.units]]
unit = "at-rifles-41"
hex = "5,2"
[sides.soviet.victory]
eliminate = 9
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("intocc") / "intocc.scenario.toml"
    path.write_text(textwrap.dedent(SCENARIO))
    return compile_game(path)


class Units:
    def __init__(self, g):
        self.hunters = unit(g, "german", "tank-hunters-41")
        self.rifles = unit(g, "german", "rifles-41")
        self.tank = unit(g, "german", "pz-iif")
        self.tank2 = unit(g, "german", "pz-iif", 1)
        self.truck = unit(g, "german", "truck")
        self.gun = unit(g, "german", "at-gun-37mm")
        self.red_rifles = unit(g, "soviet", "rifles-41")
        self.t26 = unit(g, "soviet", "t-26")
        self.red_gun = unit(g, "soviet", "at-gun-45mm")
        self.at_rifles = unit(g, "soviet", "at-rifles-41")


def move(st, g, u, name):
    """Stand ``u`` in hex ``name`` (the stacking counts follow, 9.0)."""
    h = hex_of(g, name)
    old, side = int(st.s.u[u, U_HEX]), int(st.s.u[u, U_SIDE])
    st.s.hx[old, HX_OCC + side] -= 1
    st.s.hx[h, HX_OCC + side] += 1
    st.s.u[u, U_HEX] = h


def close_combat(st, g, units, name):
    """Put ``units`` in a (first-edition) close combat in hex ``name``: the German side
    initiated it, the Soviet side held the hex (12.1)."""
    for u in units:
        move(st, g, u, name)
        st.s.u[u, U_CC] = CC_INACTIVE
        st.s.u[u, U_CCROLE] = ROLE_A1 if int(st.s.u[u, U_SIDE]) == 0 else ROLE_D1


def fires_at(st, firer, target) -> set[str]:
    """The fire actions ``firer`` is offered at ``target``."""
    names = {int(K_FIRE): "fire", int(K_FIREMOVE): "fire and move", int(K_TURRET): "turret"}
    out = set()
    for a in st.legal_actions():
        k, u, x = decode(a)
        if u == firer and x == target and k in names:
            out.add(names[k])
    return out


def test_only_scenarios_with_infantry_and_vehicles_get_the_tables(game, skirmish):
    assert int(game.tables.p[P_O_ICC]) >= 0
    assert int(skirmish.tables.p[P_O_ICC]) == -1          # infantry only: nothing tabulated
    vt = compile_game("vehicle-training")                  # vehicles only: no infantry to fire
    assert int(vt.tables.p[P_O_ICC]) == -1


def test_first_case_needs_a_friendly_armoured_vehicle_and_an_infantry_firer(game):
    g, x = game, Units(game)
    st = State(g, seed=0)
    close_combat(st, g, [x.tank, x.red_rifles], "3,1")
    assert fires_at(st, x.hunters, x.red_rifles) == {"fire", "fire and move"}
    assert fires_at(st, x.rifles, x.red_rifles) == {"fire", "fire and move"}
    assert fires_at(st, x.tank2, x.red_rifles) == set()            # a vehicle does not (10.11)
    assert fires_at(st, x.gun, x.red_rifles) == set()              # nor artillery
    # with only an unarmoured vehicle in the close combat there is no first case
    st = State(g, seed=0)
    close_combat(st, g, [x.truck, x.red_rifles], "3,1")
    assert fires_at(st, x.hunters, x.red_rifles) == set()
    # nor with only infantry
    st = State(g, seed=0)
    close_combat(st, g, [x.rifles, x.red_rifles], "3,1")
    assert fires_at(st, x.hunters, x.red_rifles) == set()


def test_second_case_needs_a_friendly_vehicle_and_no_artillery_target(game):
    g, x = game, Units(game)
    st = State(g, seed=0)
    close_combat(st, g, [x.truck, x.t26], "3,1")          # any friendly vehicle
    assert fires_at(st, x.hunters, x.t26) == {"fire", "fire and move"}
    assert fires_at(st, x.tank2, x.t26) == set()
    st = State(g, seed=0)
    close_combat(st, g, [x.rifles, x.t26], "3,1")         # a friendly unit, but no vehicle
    assert fires_at(st, x.hunters, x.t26) == set()
    st = State(g, seed=0)
    close_combat(st, g, [x.tank, x.red_gun], "3,1")       # 10.11: not at artillery
    assert fires_at(st, x.hunters, x.red_gun) == set()
    assert fires_at(st, x.rifles, x.red_gun) == set()


def test_range_and_line_of_sight_are_those_of_any_fire(game):
    g, x = game, Units(game)
    st = State(g, seed=0)
    close_combat(st, g, [x.tank, x.t26], "6,1")
    move(st, g, x.hunters, "1,0")                         # range 5: beyond the card's bands
    assert int(g.cm.hex_distance(hex_of(g, "1,0"), hex_of(g, "6,1"))) == 5
    assert fires_at(st, x.hunters, x.t26) == set()


def test_only_the_active_player_fires_into_a_close_combat(game):
    """Reaction fire (8.2) targets the mover only and never a unit in a close combat; the
    Soviet infantry may fire into the same close combat in its own activation."""
    g, x = game, Units(game)
    st = State(g, seed=0)
    close_combat(st, g, [x.rifles, x.t26], "3,1")         # German infantry with a Soviet tank
    move(st, g, x.at_rifles, "2,0")
    act(st, "move", x.hunters)
    d = next(d for d in range(6) if int(g.tables.side6[hex_of(g, "0,1"), d, 0]) == hex_of(g, "0,0"))
    act(st, "step", x.hunters, d)
    assert int(st.s.g[G_SUB]) == int(SUB_REACT)
    reactions = [decode(a) for a in st.legal_actions() if decode(a)[0] == int(K_REACT)]
    assert reactions and all(arg == x.hunters for _, _, arg in reactions)
    assert (int(K_REACT), x.at_rifles, x.hunters) in reactions
    # in its own activation the Soviet infantry may fire at the German infantry (first case)
    st = State(g, seed=0)
    close_combat(st, g, [x.rifles, x.t26], "3,1")
    move(st, g, x.at_rifles, "2,0")
    act(st, "pass")
    assert fires_at(st, x.at_rifles, x.rifles) == {"fire", "fire and move"}


def _results(st, code_unit):
    """The first ranged-fire result of each unit in ``code_unit`` after the 10.11 fire:
    ``{unit: (eliminated, damage, morale, immobilised)}``."""
    out = {}
    seen = False
    for row in st.s.log[: int(st.s.g[G_LOGN])]:
        code, _, a, b, c, d, e, _f = (int(v) for v in row)
        if code == ev.EV_INTO_CC:
            seen = True
        elif seen and code == ev.EV_RESULT and a in code_unit and a not in out:
            out[a] = (1,) if b else (0, c, d, e)
    return out


def _exact_states(df) -> dict:
    out = {}
    for r in df.to_dict("records"):
        key = (1,) if r["eliminated"] else (0, int(r["damage"]), 2 if r["fallback"] else int(r["suppressed"]),
                                            int(r["immobilised"]))
        out[key] = out.get(key, 0.0) + float(r["p"])
    return out


def _check(counts: dict, exact: dict, n: int) -> None:
    assert set(counts) <= set(exact), (counts, exact)
    for key, p in exact.items():
        f = counts.get(key, 0) / n
        assert abs(f - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-9, (key, f, p)


def _play_fires(g, st0, firer, target, watch, n, seed):
    """Fire ``firer`` at ``target`` from the position ``st0`` with ``n`` dice streams;
    count each watched unit's state after the fire."""
    counts = {u: {} for u in watch}
    key = chunk_key(seed, 0)
    a = np.int64(encode(K_FIRE, firer, target))
    for i in range(n):
        st = st0.clone()
        seed_game(key, i, st.s.rng)
        st.s.g[G_LOGN] = 0
        apply_action(st.s, g.tables, a)
        res = _results(st, watch)
        for u in watch:
            k = res.get(u, (0, 0, 0, 0))
            counts[u][k] = counts[u].get(k, 0) + 1
    return counts, st


def test_first_case_matches_the_exact_fire_into_close_combat(game):
    """Infantry in a forest (a spotting roll, 10.5) in a close combat with a German tank:
    the engine's results over 3000 dice streams against ``fire(..., into_close_combat=True)``,
    every state within four standard errors; the defence pool lacks its weakest die."""
    g, x = game, Units(game)
    st0 = State(g, seed=0)
    close_combat(st0, g, [x.tank, x.red_rifles], "3,0")
    move(st0, g, x.hunters, "1,0")
    assert g.cm.terrain_names[int(g.cm.terrain[hex_of(g, "3,0")])] == "forest"
    n = 3000
    counts, last = _play_fires(g, st0, x.hunters, x.red_rifles, [x.red_rifles, x.tank], n, seed=11)
    exact = fire("german/tank-hunters-41", "soviet/rifles-41",
                 FireSituation(range=2, terrain="forest", into_close_combat=True))
    assert exact.spot_number is not None                # the roll is part of the test
    _check(counts[x.red_rifles], _exact_states(exact.table), n)
    assert counts[x.tank] == {(0, 0, 0, 0): n}                  # the tank is not hit in the first case
    # the pools the engine rolled are the calculator's
    n_atk = int(g.tables.p[P_N_ATK])
    rolls = [r for r in last.s.log[: int(last.s.g[G_LOGN])] if int(r[0]) == ev.EV_ROLL]
    assert format_pool(g.fire_pools[int(rolls[0][4])][0]) == exact.attack_pool
    assert format_pool(g.defence_pools[int(rolls[0][5]) - n_atk]) in (
        exact.defence_pool, exact.defence_pool_unspotted)


def test_second_case_matches_the_exact_target_and_friendly_vehicle(game):
    """A T-26 (front towards the firer) in a close combat with a Pz IIF (rear towards the
    firer): the success dice are rolled again at the Pz IIF. Both marginals over 3000 dice
    streams against the exact calculator, four standard errors."""
    g, x = game, Units(game)
    st0 = State(g, seed=0)
    close_combat(st0, g, [x.tank, x.t26], "4,2")
    move(st0, g, x.hunters, "2,2")
    n = 3000
    counts, last = _play_fires(g, st0, x.hunters, x.t26, [x.t26, x.tank], n, seed=12)
    exact = fire("german/tank-hunters-41", "soviet/t-26",
                 FireSituation(range=2, target_facing="front", into_close_combat=True,
                               friendly_vehicle="german/pz-iif", friendly_facing="rear"))
    _check(counts[x.t26], _exact_states(exact.table), n)
    friendly = exact.friendly_vehicle
    _check(counts[x.tank], _exact_states(pd.DataFrame(friendly["states"])), n)
    # the replay names the fire and the dice rolled again at the friendly vehicle
    for i in range(200):
        st = st0.clone()
        seed_game(chunk_key(13, 0), i, st.s.rng)
        st.s.g[G_LOGN] = 0
        apply_action(st.s, g.tables, np.int64(encode(K_FIRE, x.hunters, x.t26)))
        text = [r["text"] for r in describe_events(st)]
        if any("rolled again at" in t for t in text):
            break
    assert any("fire into the close combat" in t for t in text)
    hit = next(t for t in text if "rolled again at" in t)
    assert f"rolls {friendly['defence_pool']}" in hit


def test_the_close_combat_ends_when_the_fire_eliminates_the_last_enemy(game):
    g, x = game, Units(game)
    st0 = State(g, seed=0)
    close_combat(st0, g, [x.tank, x.red_rifles], "3,1")
    st0.s.u[x.red_rifles, U_DMG] = 3                       # one strength point left
    move(st0, g, x.hunters, "1,0")
    for i in range(100):
        st = st0.clone()
        seed_game(chunk_key(5, 0), i, st.s.rng)
        apply_action(st.s, g.tables, np.int64(encode(K_FIRE, x.hunters, x.red_rifles)))
        if int(st.s.u[x.red_rifles, U_ST]) != int(ONMAP):
            assert int(st.s.u[x.tank, U_CC]) == int(CC_NONE)   # 12.6: the close combat is over
            return
    raise AssertionError("no elimination in 100 fires")


def test_greedy_fires_into_the_close_combat_when_it_is_clearly_good(game):
    """The Soviet rifles in a close combat with the German tank are the only target in
    range of the German tank hunters, two hexes away: greedy fires (first case)."""
    g, x = game, Units(game)
    st = State(g, seed=3)
    close_combat(st, g, [x.tank, x.red_rifles], "3,1")
    move(st, g, x.hunters, "1,0")
    for u in (x.rifles, x.tank2, x.truck, x.gun):          # nothing else the German could do
        st.s.u[u, U_DONE] = 1
    st.s.u[x.tank, U_DONE] = 1
    w = make_work(g)
    greedy = np.int64(PLAYER_NAMES.index("greedy"))
    picks = set()
    for seed in range(5):
        s = st.clone()
        seed_game(chunk_key(seed, 0), 0, s.s.rng)
        a = choose(s.s, g.tables, greedy, np.int64(0), w, DEFAULT_PARAMS)
        picks.add(decode(a))
    assert picks <= {(int(K_FIRE), x.hunters, x.red_rifles), (int(K_FIREMOVE), x.hunters, x.red_rifles)}, picks


def test_fire_and_move_fires_into_the_close_combat_then_moves(game):
    """The fire of a fire-and-move action (10.0, 9.3) may go into the close combat; the
    unit then moves with half its allowance."""
    g, x = game, Units(game)
    st = State(g, seed=4)
    close_combat(st, g, [x.tank, x.red_rifles], "3,1")
    move(st, g, x.hunters, "1,0")
    st.s.g[G_LOGN] = 0
    st.apply_action(encode(K_FIREMOVE, x.hunters, x.red_rifles))
    codes = [int(r[0]) for r in st.events()]
    assert ev.EV_INTO_CC in codes and ev.EV_ROLL in codes
    assert int(st.s.g[G_MODE]) == int(MODE_FIREMOVE) and int(st.s.g[G_UNIT]) == x.hunters   # then it moves
    assert int(st.s.u[x.hunters, U_ACT]) == int(ACT_FIREMOVE)
