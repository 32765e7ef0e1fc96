"""The support phase in the engine (6.3, chapter 7, reading S21): the alternation until
both players pass, indirect fire with and without a spotter (7.1, 7.2) against the
exact calculator ``fire(..., FireSituation(indirect=True))`` (7.3's two rolls against a
vehicle included), smoke (7.5) against the exact ``smoke`` distribution, smoke in the
LOS (10.3) and its removal (6.5), and artillery facing (7.6)."""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pytest

from simulator.engine.core.batch import run_games
from simulator.engine.players.interface import DEFAULT_PARAMS, PLAYER_NAMES, choose, make_work
from simulator.games.assault.game import events as ev
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.game import State
from simulator.games.assault.game.replay import describe_events
from simulator.games.assault.game.state import (
    ACT_FIRING,
    ACT_NORMAL,
    ELIMINATED,
    FALLBACK,
    G_ACTIVE,
    G_DECIDER,
    G_PHASE,
    G_SMOKE_ANY,
    G_SUB,
    HX_SMOKE,
    PH_ACTION,
    PH_SUPPORT,
    SUB_SMOKE_NEXT,
    SUB_SUPPORT,
    U_ACT,
    U_DMG,
    U_DONE,
    U_FACE,
    U_IMMOB,
    U_MORALE,
    U_ST,
    decode,
)
from simulator.games.assault.game.tables import HI_Q, HI_R
from simulator.games.assault.questions.fire import fire
from simulator.games.assault.questions.smoke import smoke
from simulator.games.assault.rules.pools import FireSituation
from tests.games.assault.game.test_game_setup import act, actions, hex_of, unit

HEAD = """\
name = "support"
turns = {turns}
close_combat_edition = "v1"
first_setup = "german"
initiative = "german"
[optional_rules]
command_points = false
[map]
orientation = "flat"
rows = {rows}
[map.legend]
"." = "clear"
"f" = "forest"
"F" = "heavy_forest"
"""

BODY = """
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "mortar-81mm"
hex = "{mortar}"
facing = "E"
[[sides.german.units]]
unit = "rifles-41"
hex = "1,2"
[sides.german.victory]
eliminate = 2
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "{target}"
hex = "6,1"
{facing}
[sides.soviet.victory]
eliminate = 2
"""

OPEN = ("................",) * 4


def sgame(tmp_path, rows=OPEN, target="rifles-41", mortar="1,1", turns=2):
    path = tmp_path / "support.scenario.toml"
    facing = 'facing = "W"' if target in ("t-26", "truck") else ""
    path.write_text(HEAD.format(turns=turns, rows=list(rows).__repr__().replace("'", '"'))
                    + textwrap.dedent(BODY.format(target=target, mortar=mortar, facing=facing)))
    return compile_game(path)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return sgame(tmp_path_factory.mktemp("support"))


def indirect_at(st, mortar, target, spotter=-1):
    act(st, "indirect fire", mortar, target + 256 * (spotter + 1))


def outcome(st, v, strength):
    """The target's state as the exact calculator's rows name it."""
    if int(st.s.u[v, U_ST]) == ELIMINATED:
        return "eliminated"
    return int(st.s.u[v, U_DMG]), int(st.s.u[v, U_MORALE]), int(st.s.u[v, U_IMMOB])


def exact_outcomes(df):
    out = {}
    for r in df.itertuples():
        key = "eliminated" if r.eliminated else (int(r.damage), 2 if r.fallback else 1 if r.suppressed else 0,
                                                 int(r.immobilised))
        out[key] = out.get(key, 0.0) + r.p
    return out


def check_against_exact(counts: dict, exact: dict, n: int) -> None:
    """Every state within four standard errors of the exact probability."""
    assert set(counts) <= set(exact), set(counts) - set(exact)
    for key, p in exact.items():
        got = counts.get(key, 0) / n
        assert abs(got - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-9, (key, got, p)


def test_the_support_phase_comes_between_planning_and_action(game):
    g = game
    mortar, rifles = unit(g, "german", "mortar-81mm"), unit(g, "german", "rifles-41")
    enemy = unit(g, "soviet", "rifles-41")
    st = State(g, seed=1)
    assert int(st.s.g[G_PHASE]) == PH_SUPPORT and int(st.s.g[G_SUB]) == SUB_SUPPORT
    assert int(st.s.g[G_DECIDER]) == 0                       # 6.3: the starting player first
    assert decode(actions(st, "indirect fire")[0])[1:] == (mortar, enemy)   # the mortar sees it itself
    # smoke at every hex in the band 2-12 (7.1, 7.5), the rifles never act here
    smoked = {decode(a)[2] for a in actions(st, "smoke")}
    assert smoked == {h for h in range(g.cm.n) if 2 <= int(g.cm.hex_distance(hex_of(g, "1,1"), h)) <= 12}
    assert {decode(a)[2] for a in actions(st, "face artillery")} == {0, 1, 2, 3, 4, 5} - {int(st.s.u[mortar, U_FACE])}
    assert not any(decode(a)[1] == rifles for a in st.legal_actions())
    # 7.6: turning is no activation, and only once a support phase (reading S21)
    new_face = (int(st.s.u[mortar, U_FACE]) + 1) % 6
    act(st, "face artillery", mortar, new_face)
    assert int(st.s.u[mortar, U_FACE]) == new_face and int(st.s.u[mortar, U_DONE]) == 0
    # the soviet side has nothing to do in the support phase and passes: german again
    assert int(st.s.g[G_PHASE]) == PH_SUPPORT and int(st.s.g[G_DECIDER]) == 0
    assert not actions(st, "face artillery")
    indirect_at(st, mortar, enemy)
    assert int(st.s.u[mortar, U_ACT]) == ACT_FIRING and int(st.s.u[mortar, U_DONE]) == 1    # 7.0
    # nothing left for either side: the action phase, starting player first (6.4)
    assert int(st.s.g[G_PHASE]) == PH_ACTION and int(st.s.g[G_ACTIVE]) == 0
    assert not any(decode(a)[1] == mortar for a in actions(st, "fire") + actions(st, "move"))


def test_passing_ends_a_players_support_phase(game):
    g = game
    st = State(g, seed=2)
    act(st, "pass")
    assert int(st.s.g[G_PHASE]) == PH_ACTION
    texts = [r["text"] for r in describe_events(st)]
    assert "german passes (6.3, 8.1)" in texts and "soviet passes (6.3, 8.1)" in texts


def test_indirect_fire_matches_the_exact_calculator(game):
    """3000 indirect fires at range 5 in the clear against ``fire(..., indirect=True)``."""
    g = game
    mortar, enemy = unit(g, "german", "mortar-81mm"), unit(g, "soviet", "rifles-41")
    n = 3000
    counts: dict = {}
    for seed in range(n):
        st = State(g, seed=seed, log=False)
        indirect_at(st, mortar, enemy)
        key = outcome(st, enemy, 4)
        counts[key] = counts.get(key, 0) + 1
    exact = exact_outcomes(fire("german/mortar-81mm", "soviet/rifles-41", FireSituation(range=5, indirect=True)).table)
    check_against_exact(counts, exact, n)


def test_indirect_fire_on_a_vehicle_rolls_twice(tmp_path):
    """7.3: the "above" dice and the bonus die, the dice without a damage symbol set
    aside before the real attack: the engine's outcomes against the exact ones."""
    g = sgame(tmp_path, target="t-26")
    mortar, tank = unit(g, "german", "mortar-81mm"), unit(g, "soviet", "t-26")
    n = 3000
    counts: dict = {}
    rolls = 0
    for seed in range(n):
        st = State(g, seed=seed, log=seed < 200)
        indirect_at(st, mortar, tank)
        key = outcome(st, tank, 2)
        counts[key] = counts.get(key, 0) + 1
        rolls += sum(int(e[0]) == ev.EV_ROLL for e in st.events())
    exact = exact_outcomes(fire("german/mortar-81mm", "soviet/t-26", FireSituation(range=5, indirect=True)).table)
    check_against_exact(counts, exact, n)
    assert rolls == 200


def test_a_spotter_sees_for_a_blind_firer(tmp_path):
    """7.1, 7.2: with heavy forest between mortar and target, only the adjacent rifles
    (which see it) can spot; the spotter is activated with a normal action marker."""
    rows = ("................", "..F.............", "................", "................")
    g = sgame(tmp_path, rows=rows)
    mortar, rifles = unit(g, "german", "mortar-81mm"), unit(g, "german", "rifles-41")
    enemy = unit(g, "soviet", "rifles-41")
    st = State(g, seed=3)
    assert g.cm.los[hex_of(g, "1,1"), hex_of(g, "6,1")] == 2        # blocked (10.3)
    assert g.cm.los[hex_of(g, "1,2"), hex_of(g, "6,1")] < 2
    fires = actions(st, "indirect fire")
    assert [decode(a)[2] for a in fires] == [enemy + 256 * (rifles + 1)]
    st.apply_action(fires[0])
    assert int(st.s.u[rifles, U_ACT]) == ACT_NORMAL and int(st.s.u[rifles, U_DONE]) == 1
    assert int(st.s.u[mortar, U_ACT]) == ACT_FIRING
    texts = [r["text"] for r in describe_events(st)]
    assert any("spots for" in x and "(7.2)" in x for x in texts)


def test_no_indirect_fire_from_heavy_forest(tmp_path):
    """7.1: not from heavy forest (nor smoke, 7.5); the mortar may still turn (7.6)."""
    rows = ("................", ".F..............", "................", "................")
    g = sgame(tmp_path, rows=rows)
    st = State(g, seed=4)
    assert not actions(st, "indirect fire") and not actions(st, "smoke")
    assert actions(st, "face artillery")


def test_smoke_matches_the_exact_distribution(game):
    """7.5: markers in the target hex (the first roll of all four dice) against the
    exact ``smoke`` marginal, 3000 times; the dice set aside go to an adjacent hex
    named by the player, and every hex holds at most four markers."""
    g = game
    mortar = unit(g, "german", "mortar-81mm")
    target = hex_of(g, "8,2")
    n = 3000
    counts = np.zeros(5)
    seconds = 0
    for seed in range(n):
        st = State(g, seed=seed, log=False)
        act(st, "smoke", mortar, target)
        m = int(st.s.hx[target, HX_SMOKE])
        counts[m] += 1
        if int(st.s.g[G_SUB]) == SUB_SMOKE_NEXT:
            nxt = [decode(a)[2] for a in actions(st, "smoke hex")]
            assert nxt and all(int(g.cm.hex_distance(target, h)) == 1 for h in nxt)
            act(st, "smoke hex", mortar, nxt[0])
            seconds += 1
        assert int(st.s.hx[:, HX_SMOKE].max()) <= 4
    df = smoke("german/mortar-81mm").frame()
    exact = df.groupby("hex1")["p"].sum().reindex(range(5), fill_value=0.0).to_numpy()
    for k in range(5):
        p = exact[k]
        assert abs(counts[k] / n - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-9, (k, counts[k] / n, p)
    assert seconds > 0


def test_smoke_blocks_and_fades(game):
    """10.3 (rulings #14): three smoke markers between two units block their LOS, two
    do not; 6.5: one marker a hex goes in each organisation phase."""
    g = game
    rifles, enemy = unit(g, "german", "rifles-41"), unit(g, "soviet", "rifles-41")
    t, a, b = g.tables, hex_of(g, "1,2"), hex_of(g, "6,1")
    rad = (t.near.shape[1] - 1) // 2             # tables.between: per hex, by axial offset
    offset = (t.hexi[b, HI_Q] - t.hexi[a, HI_Q] + rad, t.hexi[b, HI_R] - t.hexi[a, HI_R] + rad)
    line = [int(x) for x in t.between[a, offset[0], offset[1]] if x >= 0]
    mid = line[len(line) // 2]
    for markers, open_ in ((0, True), (2, True), (3, False)):
        st = State(g, seed=5)
        st.s.hx[mid, HX_SMOKE] = markers
        st.s.g[G_SMOKE_ANY] = 1
        act(st, "pass")                               # the support phase is over
        fires = [decode(a)[1:] for a in actions(st, "fire")]
        assert ((rifles, enemy) in fires) == open_, markers
    st = State(g, seed=5)
    h = hex_of(g, "4,1")
    st.s.hx[h, HX_SMOKE] = 4
    st.s.hx[mid, HX_SMOKE] = 2
    st.s.g[G_SMOKE_ANY] = 1
    act(st, "pass")
    while int(st.s.g[G_PHASE]) == PH_ACTION:
        act(st, "pass") if actions(st, "pass") else st.apply_action(st.legal_actions()[0])
    assert int(st.s.hx[h, HX_SMOKE]) == 3 and int(st.s.hx[mid, HX_SMOKE]) == 1


def test_fallback_in_the_support_phase_draws_no_reaction_fire(game):
    """7.0: a fallback caused by indirect fire moves without reaction fire."""
    g = game
    mortar, enemy = unit(g, "german", "mortar-81mm"), unit(g, "soviet", "rifles-41")
    fallbacks = 0
    for seed in range(400):
        st = State(g, seed=seed)
        indirect_at(st, mortar, enemy)
        kinds_ = [int(e[0]) for e in st.events()]
        if ev.EV_FALLBACK in kinds_:
            fallbacks += 1
            assert ev.EV_REACT not in kinds_
            assert int(st.s.u[enemy, U_MORALE]) == FALLBACK
    assert fallbacks > 10


def test_greedy_fires_indirectly_when_it_pays(game):
    """Greedy takes the indirect fire (exact odds, S21) over passing or smoke when the
    target stands in the open."""
    g = game
    w = make_work(g)
    greedy = np.int64(PLAYER_NAMES.index("greedy"))
    taken = 0
    for seed in range(20):
        st = State(g, seed=seed)
        a = choose(st.s, g.tables, greedy, np.int64(0), w, DEFAULT_PARAMS)
        taken += decode(a)[0] == decode(actions(st, "indirect fire")[0])[0]
    assert taken == 20


def test_whole_games_with_support_units(game):
    for players in (("random", "random"), ("greedy", "greedy"), ("lookahead", "random")):
        n = 30 if players[0] == "lookahead" else 200
        res = run_games(game, games=n, seed=7, players=players, workers=1)
        assert res.tally.games == n
