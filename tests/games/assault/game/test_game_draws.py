"""Reinforcement class choices in the engine (5.7, reading S17): when several unit cards
match the class a reinforcement names, the owner chooses one at set-up; the units of
the other cards never arrive, and the per-game record (formation breakdown) names the
card that came."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from simulator.engine.core.batch import run_games, summary
from simulator.games.assault.game import events as ev
from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.game import State
from simulator.games.assault.game.replay import describe_events, replay_game
from simulator.games.assault.game.state import ABSENT, AUX_FST, G_CP0, G_SUB, ONMAP, PENDING, SUB_PLACE, U_ST
from simulator.games.assault.game.tables import FO_CLASS, FO_TYPE, P_BASE_CP0, P_O_FORM
from tests.games.assault.game.test_game_setup import act, both_pass, write_scenario

UNITS_DIR = Path(__file__).resolve().parents[4] / "scenarios" / "assault" / "units"

# The HMG 34 card made a second German "standard infantry" card, so the class has two.
CLASS_DRAW = """
[data]
units = "units"
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
hex = "0,1"
[[sides.german.reinforcements]]
turn = 1
draw_class = [{{ type = "infantry", class = "standard infantry", count = 2 }}]
entry = ["0,0-2"]
[sides.german.victory]
eliminate = 1
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "heavy-rifles-41"
hex = "6,1"
[sides.soviet.victory]
eliminate = 1
"""


def two_card_units(tmp_path: Path) -> None:
    units = tmp_path / "units"
    shutil.copytree(UNITS_DIR, units)
    german = units / "german.toml"
    text = german.read_text()
    assert 'class = "heavy machine gun"' in text
    german.write_text(text.replace('class = "heavy machine gun"', 'class = "standard infantry"', 1))


@pytest.fixture(scope="module")
def drawn_game(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("draws")
    two_card_units(tmp)
    return compile_game(write_scenario(tmp, CLASS_DRAW.format()))


def options(g) -> list[int]:
    t = g.tables
    return [f for f in range(len(g.formations)) if int(t.meta[t.p[P_O_FORM] + f, FO_TYPE]) == FO_CLASS]


def reinforcements_of(g, card: str) -> list[int]:
    return [u for u, sl in enumerate(g.slots) if sl.arrive > 0 and sl.unit == card]


def test_class_draw_compiles_one_option_per_matching_card(drawn_game):
    g = drawn_game
    names = [g.formations[f] for f in options(g)]
    assert names == ["german/hmg-34 (drawn for class 'standard infantry')",
                     "german/rifles-41 (drawn for class 'standard infantry')"]
    assert len(reinforcements_of(g, "german/hmg-34")) == 2          # count units of each option
    assert len(reinforcements_of(g, "german/rifles-41")) == 2
    assert int(g.tables.p[P_BASE_CP0]) == 0                         # no command points of its own


def test_the_owner_chooses_one_card(drawn_game):
    g = drawn_game
    opts = options(g)
    hmg = reinforcements_of(g, "german/hmg-34")
    rifles = reinforcements_of(g, "german/rifles-41")
    st = State(g, seed=3, log=False)
    assert st.current_player() == 0                                 # the German decides...
    assert len(st.legal_actions()) == 2                             # ...between the two cards
    for a in st.legal_actions():
        trial = st.clone()
        trial.apply_action(a)
        chosen = [f for f in opts if int(trial.s.aux[AUX_FST, f]) == 4]
        assert len(chosen) == 1                                      # exactly one card comes
        came, stays = (hmg, rifles) if g.formations[chosen[0]].startswith("german/hmg-34") else (rifles, hmg)
        assert all(int(trial.s.u[u, U_ST]) == PENDING for u in came)
        assert all(int(trial.s.u[u, U_ST]) == ABSENT for u in stays)  # the other card never arrives
        assert all(int(trial.s.aux[AUX_FST, f]) == 0 for f in opts if f != chosen[0])


def test_greedy_chooses_the_card_with_more_points(drawn_game):
    g = drawn_game
    res = run_games(g, games=60, seed=2, players=("greedy", "greedy"), workers=1)
    rows = summary(res)["formations"]
    german = {tuple(r["formations"]) for r in rows if r["side"] == "german"}
    value = {c: g.scenario.units[c].points for c in ("german/hmg-34", "german/rifles-41")}
    best = max(value, key=value.get)
    assert value["german/hmg-34"] != value["german/rifles-41"]
    assert german == {(f"{best} (drawn for class 'standard infantry')",)}


def test_drawn_units_arrive_and_the_card_is_recorded(drawn_game):
    g = drawn_game
    st = State(g, seed=11)
    st.apply_action(st.legal_actions()[0])                         # the German's choice of card
    drawn = [f for f in options(g) if int(st.s.aux[AUX_FST, f]) == 4][0]
    card = g.formations[drawn].split(" ")[0]
    both_pass(st)                                                  # end of turn 1 (6.7)
    assert int(st.s.g[G_SUB]) == SUB_PLACE
    while int(st.s.g[G_SUB]) == SUB_PLACE:
        act(st, "place")
    assert all(int(st.s.u[u, U_ST]) == ONMAP for u in reinforcements_of(g, card))
    assert int(st.s.aux[AUX_FST, drawn]) == 2                      # recorded as arrived
    assert int(st.s.g[G_CP0]) == 0                                 # a class draw gives no command points
    texts = [r["text"] for r in describe_events(st) if r["event"] == ev.EV_CLASS_DRAW]
    assert texts == [f"german draws {g.formations[drawn]} for a reinforcement (5.7)"]


def test_batch_breaks_win_rates_down_by_the_card_drawn(drawn_game):
    g = drawn_game
    res = run_games(g, games=300, seed=5, players=("random", "random"), workers=1)
    rows = summary(res)["formations"]
    german = {tuple(r["formations"]): r["games"] for r in rows if r["side"] == "german"}
    assert set(german) == {("german/hmg-34 (drawn for class 'standard infantry')",),
                           ("german/rifles-41 (drawn for class 'standard infantry')",)}
    n = sum(german.values())
    assert n == 300                                                # every game records its card
    share = german[("german/hmg-34 (drawn for class 'standard infantry')",)] / n
    assert abs(share - 0.5) < 4 * (0.25 / n) ** 0.5                # the random player chooses uniformly
    # a replayed game names the card it drew
    st = replay_game(g, 5, 7, ("random", "random"))
    drawn = [f for f in options(g) if int(st.s.aux[AUX_FST, f]) in (2, 4)]
    assert len(drawn) == 1
    texts = [r["text"] for r in describe_events(st) if r["event"] == ev.EV_CLASS_DRAW]
    assert texts == [f"german draws {g.formations[drawn[0]]} for a reinforcement (5.7)"]


def test_command_points_minimum_without_formation_cards(tmp_path):
    two_card_units(tmp_path)
    g = compile_game(write_scenario(tmp_path, CLASS_DRAW.format(), cp="true"))
    assert int(g.tables.p[P_BASE_CP0]) == 4          # 10.7.3, S9: class options are not formation cards
    st = State(g, seed=2, log=False)
    st.apply_action(st.legal_actions()[0])
    assert int(st.s.g[G_CP0]) == 4
