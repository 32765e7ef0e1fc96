"""Chapter 5 in the engine: set-up zones, fixed hexes, formation draws (5.6),
objectives in a set-up area (5.5), reinforcements (5.7, 6.7). Also the helpers the
other engine test modules use: tiny scenarios written by hand in the scenario format."""

from __future__ import annotations

import textwrap
from pathlib import Path

from simulator.games.assault.game.compile import compile_game
from simulator.games.assault.game.game import State
from simulator.games.assault.game.state import (
    AUX_FST,
    AUX_OBJ,
    G_CP0,
    G_SUB,
    KIND_NAMES,
    ONMAP,
    SUB_FORMATION,
    SUB_PLACE,
    SUB_SELECT,
    TO_PLACE,
    U_HEX,
    U_ST,
    decode,
)

# --- helpers for every engine test module --------------------------------------------

HEAD = """\
name = "{name}"
turns = {turns}
close_combat_edition = "{edition}"
unit_rules = ["infantry"]
first_setup = "{first_setup}"
initiative = "{initiative}"
[optional_rules]
command_points = {cp}
[map]
rows = {rows}
[map.legend]
"." = "clear"
"f" = "forest"
"F" = "heavy_forest"
"h" = "hill"
"b" = "brush"
"w" = "wooden_building"
"H" = "hill+heavy_forest"
"""


def write_scenario(tmp_path: Path, body: str, *, rows=(".......", ".......", "......."), turns=3,
                   edition="v1", first_setup="german", initiative="german", cp="false",
                   name="tiny") -> Path:
    head = HEAD.format(name=name, turns=turns, edition=edition, first_setup=first_setup,
                       initiative=initiative, cp=cp, rows=list(rows).__repr__().replace("'", '"'))
    path = tmp_path / f"{name}.scenario.toml"
    path.write_text(head + textwrap.dedent(body))
    return path


def tiny(tmp_path: Path, body: str, **kw):
    return compile_game(write_scenario(tmp_path, body, **kw))


def hex_of(game, name: str) -> int:
    return game.cm.index_of(name)


def unit(game, side: str, card: str, n: int = 0) -> int:
    """Slot of the n-th unit of ``card`` (``rifles-41``) of ``side``."""
    found = [i for i, s in enumerate(game.slots) if game.sides[s.side] == side and s.unit.endswith("/" + card)]
    return found[n]


def actions(st: State, kind: str) -> list[int]:
    k = KIND_NAMES.index(kind)
    return [a for a in st.legal_actions() if decode(a)[0] == k]


def find(st: State, kind: str, unit: int | None = None, arg: int | None = None) -> int:
    for a in actions(st, kind):
        _, u, x = decode(a)
        if (unit is None or u == unit) and (arg is None or x == arg):
            return a
    raise AssertionError(f"no legal {kind} (unit {unit}, arg {arg}); legal: "
                         f"{[st.action_to_string(a) for a in st.legal_actions()]}")


def act(st: State, kind: str, unit: int | None = None, arg: int | None = None) -> None:
    st.apply_action(find(st, kind, unit, arg))


def step_to(st: State, u: int, to: str) -> None:
    """Step unit ``u`` into the neighbouring hex named ``to``."""
    g = st.game
    h = int(st.s.u[u, U_HEX])
    target = hex_of(g, to)
    d = [int(x) for x in g.tables.side6[h, :, 0]].index(target)
    act(st, "step", u, d)


def both_pass(st: State) -> None:
    """Decline reactions, stop moves and pass until the action phase is over (8.1:
    three passes in a row)."""
    turn = st.turn
    while not st.is_terminal() and st.turn == turn:
        for kind in ("no reaction", "stop", "no fire", "pass"):
            if actions(st, kind):
                act(st, kind)
                break
        else:
            return


TWO_RIFLES = """
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
hex = "0,1"
[sides.german.victory]
hold = ["6,1"]
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "heavy-rifles-41"
hex = "3,1"
[sides.soviet.victory]
eliminate = 1
[[objectives]]
hex = "6,1"
"""


# --- set-up -------------------------------------------------------------------------

def test_fixed_hexes_and_objective_nobody_holds(tmp_path):
    g = tiny(tmp_path, TWO_RIFLES)
    st = State(g, seed=1)
    assert st.turn == 1 and int(st.s.g[G_SUB]) == SUB_SELECT      # no placement needed
    assert int(st.s.u[unit(g, "german", "rifles-41"), U_HEX]) == hex_of(g, "0,1")
    assert int(st.s.aux[AUX_OBJ, 0]) == -1                        # 5.5: not in a set-up area


ZONES = """
[[objectives]]
hex = "5,1"
[sides.german]
faction = "blue"
zones.west = ["0-1,0-2"]
[[sides.german.units]]
unit = "rifles-41"
count = 2
zone = "west"
[sides.german.victory]
hold = ["5,1"]
[sides.soviet]
faction = "red"
zones.east = ["5-6,0-2"]
[[sides.soviet.units]]
unit = "heavy-rifles-41"
zone = "east"
[sides.soviet.victory]
hold_count = 1
"""


def test_placement_alternates_in_zones_and_objective_in_set_up_area(tmp_path):
    g = tiny(tmp_path, ZONES, first_setup="soviet")
    st = State(g, seed=2)
    assert int(st.s.aux[AUX_OBJ, 0]) == 1                          # 5.5: in the Soviet set-up area
    assert int(st.s.g[G_SUB]) == SUB_PLACE and st.current_player() == 1   # the Soviets set up first
    places = actions(st, "place")
    east = {hex_of(g, f"{c},{r}") for c in (5, 6) for r in (0, 1, 2)}
    assert {decode(a)[2] // 8 for a in places} == east             # 5.8: only the zone's hexes
    st.apply_action(places[0])
    assert st.current_player() == 0                                 # 5.8: the players alternate
    first = actions(st, "place")[0]
    st.apply_action(first)
    second = actions(st, "place")
    assert decode(first)[2] not in [decode(a)[2] for a in second]  # 9.0: one unit a hex
    st.apply_action(second[0])
    assert st.turn == 1 and int(st.s.g[G_SUB]) == SUB_SELECT
    assert all(int(st.s.u[u, U_ST]) == ONMAP for u in range(g.n_units))


FORMATIONS = """
[sides.german]
faction = "blue"
zones.west = ["0-2,0-2"]
[sides.german.formations]
method = "{method}"
infantry = 1
zone = "west"
deck = ["rifle-platoon", "tank-hunter-section"]
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


def test_random_formation_draw_is_sampled_and_gives_command_points(tmp_path):
    g = tiny(tmp_path, FORMATIONS.format(method="draw"), rows=(".......",) * 3)
    kept = set()
    for seed in range(12):
        st = State(g, seed=seed)
        chosen = [g.formations[f] for f in range(len(g.formations)) if int(st.s.aux[AUX_FST, f]) == 2]
        assert len(chosen) == 1                                    # 5.6: the scenario's number
        kept.add(chosen[0])
        card = g.scenario.formation_cards[chosen[0]]
        assert int(st.s.g[G_CP0]) == card.command_points           # 4.9.2: the card's command points
        to_place = [u for u in range(g.n_units) if int(st.s.u[u, U_ST]) == TO_PLACE]
        assert len(to_place) == card.unit_count                    # 5.8: its units set up
    assert kept == {"german/rifle-platoon", "german/tank-hunter-section"}   # both come up


def test_draw_double_keep_half_is_the_players_choice(tmp_path):
    g = tiny(tmp_path, FORMATIONS.format(method="draw-double"))
    st = State(g, seed=3)
    assert int(st.s.g[G_SUB]) == SUB_FORMATION and st.current_player() == 0
    offered = actions(st, "formation")
    assert len(offered) == 2                                       # 5.6: double the number drawn
    st.apply_action(offered[1])
    chosen = decode(offered[1])[2]
    assert int(st.s.aux[AUX_FST, chosen]) == 2
    assert int(st.s.aux[AUX_FST, decode(offered[0])[2]]) == 3      # the other is set aside


def test_free_choice_offers_every_card(tmp_path):
    g = tiny(tmp_path, FORMATIONS.format(method="choose"))
    st = State(g, seed=4)
    offered = {g.formations[decode(a)[2]] for a in actions(st, "formation")}
    assert offered == {"german/rifle-platoon", "german/tank-hunter-section"}


REINFORCED = """
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
hex = "0,1"
[[sides.german.reinforcements]]
turn = 1
units = [{{ unit = "hmg-34" }}]
entry = ["0,0-2"]
{roll}
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


def test_reinforcements_enter_at_the_end_of_their_turn(tmp_path):
    g = tiny(tmp_path, REINFORCED.format(roll=""))
    st = State(g, seed=5)
    hmg = unit(g, "german", "hmg-34")
    assert int(st.s.u[hmg, U_ST]) != ONMAP
    both_pass(st)                                                  # end of turn 1 (6.5-6.7)
    assert int(st.s.g[G_SUB]) == SUB_PLACE
    entries = {decode(a)[2] // 8 for a in actions(st, "place")}
    assert entries == {hex_of(g, "0,0"), hex_of(g, "0,2")}         # the free entry hexes
    act(st, "place", hmg)
    assert int(st.s.u[hmg, U_ST]) == ONMAP and st.turn == 2


def test_reinforcement_roll_decides_arrival(tmp_path):
    g = tiny(tmp_path, REINFORCED.format(roll="roll = 4"))
    arrived = 0
    n = 60
    for seed in range(n):
        st = State(g, seed=seed, log=False)
        both_pass(st)
        arrived += int(int(st.s.g[G_SUB]) == SUB_PLACE)
    # P(d6 >= 4) = 1/2: 60 games, 4 standard errors
    assert abs(arrived / n - 0.5) < 4 * (0.25 / n) ** 0.5
    assert 0 < arrived < n
