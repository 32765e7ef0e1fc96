"""The exhaustion of close combat (12.6; revised 12.1.6.1, 12.1.6.2; issue 40, item 1):
a unit left in the hex when a close combat ends carries an action marker, so it neither
activates nor reacts again in that turn; the unit that stays when the other withdraws
(revised 12.1.6.1: "marked with normal action") does not fire at the one leaving."""

from __future__ import annotations

from simulator.games.assault.game.events import EV_CC_END
from simulator.games.assault.game.game import State
from simulator.games.assault.game.state import (
    ACT_FAST,
    ACT_NORMAL,
    CC_ACTIVE,
    CC_INACTIVE,
    CC_NONE,
    ELIMINATED,
    G_SUB,
    ONMAP,
    STEADY,
    SUB_CC_WITHDRAW,
    SUB_MOVE,
    U_ACT,
    U_CC,
    U_DONE,
    U_HEX,
    U_MORALE,
    U_ST,
    decode,
)
from tests.games.assault.game.test_game_cc import cc_events
from tests.games.assault.game.test_game_setup import act, actions, both_pass, hex_of, step_to, tiny, unit

# a German squad next to a Soviet one; a second Soviet squad far off keeps the game going
BODY = """
[sides.german]
faction = "blue"
[[sides.german.units]]
unit = "rifles-41"
hex = "2,1"
[sides.german.victory]
eliminate = 2
[sides.soviet]
faction = "red"
[[sides.soviet.units]]
unit = "heavy-rifles-41"
hex = "3,1"
[[sides.soviet.units]]
unit = "rifles-41"
hex = "6,0"
[sides.soviet.victory]
eliminate = 1
"""


def _units_of_actions(st: State) -> set[int]:
    return {decode(a)[1] for a in st.legal_actions()}


def _skip_support(st: State) -> None:
    """Revised 12.1.1.1: neither side names a support unit."""
    while int(st.s.g[G_SUB]) != SUB_CC_WITHDRAW and actions(st, "stay in close combat") \
            and not actions(st, "leave close combat"):
        act(st, "stay in close combat")


def test_the_defender_left_after_a_revised_close_combat_does_not_activate(tmp_path):
    """Revised 12.1.6.2: the Soviet defender that eliminated its attacker is marked fast
    action; in the Soviet turn that follows it is not offered as a unit to activate."""
    g = tiny(tmp_path, BODY, edition="v2")
    r = unit(g, "german", "rifles-41")
    hr = unit(g, "soviet", "heavy-rifles-41")
    found = 0
    for seed in range(300):
        st = State(g, seed=seed)
        act(st, "move", r)
        step_to(st, r, "3,1")
        _skip_support(st)
        while int(st.s.g[G_SUB]) == SUB_CC_WITHDRAW:
            act(st, "stay in close combat")
        if not (int(st.s.u[r, U_ST]) == ELIMINATED and int(st.s.u[hr, U_ST]) == ONMAP
                and int(st.s.u[hr, U_HEX]) == hex_of(g, "3,1") and int(st.s.u[hr, U_MORALE]) == STEADY):
            continue
        assert cc_events(st, EV_CC_END)
        assert int(st.s.u[hr, U_CC]) == CC_NONE and int(st.s.u[hr, U_ACT]) == ACT_FAST
        assert int(st.s.u[hr, U_DONE]) == 1                          # an activated unit (12.6)
        assert st.current_player() == 1                              # the Soviets' activation next (6.4)
        assert hr not in _units_of_actions(st)                        # ... but not of this unit
        assert unit(g, "soviet", "rifles-41") in _units_of_actions(st)   # the other squad may act
        found += 1
        if found == 3:
            return
    raise AssertionError(f"the Soviet defender won and stayed steady in only {found} of 300 games")


def test_the_unit_left_after_a_revised_withdrawal_does_not_react(tmp_path):
    """Revised 12.1.6.1: the German attacker withdraws after the first round; the Soviet
    squad that stays (marked normal action) may not fire at it as it moves away, although
    it could target it (an adjacent squad in the open)."""
    g = tiny(tmp_path, BODY, edition="v2")
    r = unit(g, "german", "rifles-41")
    hr = unit(g, "soviet", "heavy-rifles-41")
    for seed in range(200):
        st = State(g, seed=seed)
        act(st, "move", r)
        step_to(st, r, "3,1")
        _skip_support(st)
        if int(st.s.g[G_SUB]) != SUB_CC_WITHDRAW or not actions(st, "leave close combat") \
                or int(st.s.u[hr, U_MORALE]) != STEADY:
            continue
        act(st, "leave close combat")                  # the attacker's side decides first
        assert int(st.s.u[hr, U_ACT]) == ACT_NORMAL and int(st.s.u[hr, U_DONE]) == 1
        assert int(st.s.u[r, U_ACT]) == ACT_FAST and int(st.s.u[r, U_DONE]) == 1
        assert int(st.s.g[G_SUB]) == SUB_MOVE
        act(st, "step", r)                             # out of the hex: reaction fire may follow (8.2)
        assert int(st.s.u[r, U_HEX]) != hex_of(g, "3,1")
        assert not [a for a in actions(st, "reaction fire") if decode(a)[1] == hr]
        return
    raise AssertionError("no withdrawal could be offered in 200 games")


def test_the_unit_left_when_a_first_edition_enemy_withdraws_is_exhausted(tmp_path):
    """12.6 (first edition): the next turn the German squad (inactive marker) withdraws;
    the Soviet squad left in the hex, not yet activated that turn, is marked fast action
    and neither fires at the leaving squad nor activates afterwards."""
    g = tiny(tmp_path, BODY, turns=5)
    r = unit(g, "german", "rifles-41")
    hr = unit(g, "soviet", "heavy-rifles-41")
    for seed in range(100):
        st = State(g, seed=seed)
        act(st, "move", r)
        step_to(st, r, "3,1")
        if not (int(st.s.u[r, U_CC]) == CC_ACTIVE and int(st.s.u[hr, U_CC]) == CC_ACTIVE):
            continue
        both_pass(st)
        if st.current_player() != 0 or int(st.s.u[hr, U_CC]) != CC_INACTIVE:
            continue
        assert int(st.s.u[hr, U_DONE]) == 0                 # a new turn: not activated yet
        act(st, "withdraw from close combat", r)
        assert int(st.s.u[hr, U_CC]) == CC_NONE and int(st.s.u[hr, U_ACT]) == ACT_FAST
        assert int(st.s.u[hr, U_DONE]) == 1                 # 12.6: exhausted
        act(st, "step", r)
        assert not [a for a in actions(st, "reaction fire") if decode(a)[1] == hr]
        return
    raise AssertionError("no close combat lasted into a German turn in 100 games")
