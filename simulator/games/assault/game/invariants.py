"""Invariants of a game, checked after every action over many whole games.

- a hex in close combat holds units of both sides (12.6, revised 12.1.6.2);
- an objective held by one side alone at the end of a turn is that side's (9.7, 6.5;
  counted by the organisation phase itself, ``G_ODD_OBJ``);
- no unit acts twice in a turn (6.4, 8.2, 7.2: activations, reaction fire, spotting);
- a unit with an action marker, the close-combat exhaustion's too, has acted: it can
  neither be activated nor react (6.4, 8.2, 12.6; reading S30);
- reaction fire is offered on every hex entered by a move that allows it (8.2).

:func:`check_games` plays games the way a batch does (the same streams: a violation
is replayed by ``lanchester assault replay NAME --seed S --game K``) and returns the
violations found.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numba
import numpy as np

from simulator.engine.players.interface import DEFAULT_PARAMS, PLAYER_NAMES, choose, make_work
from simulator.games.assault.game.events import EV_ACTIVATE, EV_CC, EV_ENTER_SUPPRESSED, EV_REACT, EV_SPOTTER
from simulator.games.assault.game.game import State
from simulator.games.assault.game.phases.reaction import any_reactor
from simulator.games.assault.game.scenario_game import Game
from simulator.games.assault.game.state import (
    ACT_NONE,
    CC_NONE,
    G_DECIDER,
    G_FB_UNIT,
    G_LOGN,
    G_MODE,
    G_ODD_OBJ,
    G_OVER,
    G_PHASE,
    G_SUB,
    G_TURN,
    G_UNIT,
    K_STEP,
    MODE_FAST,
    MODE_NORMAL,
    MODE_REVERSE,
    MODE_WITHDRAW,
    ONMAP,
    PH_SUPPORT,
    SUB_FALLBACK,
    SUB_MOVE,
    SUB_REACT,
    U_ACT,
    U_CC,
    U_DONE,
    U_HEX,
    U_SIDE,
    U_ST,
    a_kind,
)
from simulator.games.assault.game.turn import apply_action

ENEMY_HEX_EVENTS = np.array([EV_CC, EV_ENTER_SUPPRESSED])   # a step into an enemy hex (12.0)
CHECKS = ("close combat without an enemy", "objective not its holder's", "unit acted twice",
          "reaction fire not offered", "action marker on a unit free to act")


@numba.njit(cache=True)
def lone_cc_unit(s):
    """A unit marked in close combat with no enemy unit in its hex, or -1."""
    n = s.u.shape[0]
    for u in range(n):
        if s.u[u, U_ST] != ONMAP or s.u[u, U_CC] == CC_NONE:
            continue
        found = False
        for v in range(n):
            if s.u[v, U_ST] == ONMAP and s.u[v, U_HEX] == s.u[u, U_HEX] and s.u[v, U_SIDE] != s.u[u, U_SIDE]:
                found = True
        if not found:
            return u
    return -1


@numba.njit(cache=True)
def marked_but_free(s):
    """A unit on the map with an action status marker that may still be activated or react
    (6.4, 8.2: a marker means it has acted this turn; 12.6, reading S30: the exhaustion
    marker of close combat too), or -1."""
    for u in range(s.u.shape[0]):
        if s.u[u, U_ST] == ONMAP and s.u[u, U_ACT] != ACT_NONE and s.u[u, U_DONE] == 0:
            return u
    return -1


@numba.njit(cache=True)
def reaction_owed(s, t, a, mover, mode, hex_before, turn_before, phase_before):
    """After the step ``a`` of ``mover`` (moving in ``mode``, from ``hex_before``), 8.2:
    it entered a hex outside a close combat in a mode that draws reaction fire, an enemy
    unit may react, and the reaction question is not pending. Checked only while the
    turn and phase are those of the step (units only get activated within a phase, so
    a unit that may react now could react then)."""
    if a_kind(a) != K_STEP or s.g[G_TURN] != turn_before or s.g[G_PHASE] != phase_before:
        return False
    if mode != MODE_NORMAL and mode != MODE_FAST and mode != MODE_WITHDRAW and mode != MODE_REVERSE:
        return False
    if s.u[mover, U_ST] != ONMAP or s.u[mover, U_CC] != CC_NONE or s.u[mover, U_HEX] == hex_before:
        return False
    if s.g[G_SUB] == SUB_REACT:
        return False
    return any_reactor(s, t, mover)


@dataclass
class Violations:
    games: int = 0
    actions: int = 0
    found: Counter = field(default_factory=Counter)
    examples: dict = field(default_factory=dict)     # check -> (game index, turn, detail)

    def add(self, check: str, game: int, turn: int, detail: str) -> None:
        self.found[check] += 1
        self.examples.setdefault(check, (game, turn, detail))

    @property
    def total(self) -> int:
        return sum(self.found.values())


def twice_in_a_turn(events: np.ndarray) -> list[tuple[int, int]]:
    """(turn, unit) of every unit activated more than once in a turn, from the event log."""
    seen: Counter = Counter()
    for e in events:
        code = int(e[0])
        if code == EV_ACTIVATE:
            seen[(int(e[1]), int(e[3]))] += 1
        elif code == EV_REACT or code == EV_SPOTTER:
            seen[(int(e[1]), int(e[2]))] += 1
    return [k for k, n in seen.items() if n > 1]


def check_games(game: Game, games: int, seed: int, players: tuple[str, str] = ("greedy", "greedy"),
                first: int = 0, out: Violations | None = None) -> Violations:
    """Play games ``first .. first + games - 1`` of seed ``seed`` and check the invariants
    after every action."""
    out = out or Violations()
    kinds = [np.int64(PLAYER_NAMES.index(p)) for p in players]
    t = game.tables
    for k in range(first, first + games):
        w = make_work(game)                     # the players' memory starts with the game
        st = State(game, seed, k, log=True)
        s = st.s
        while not s.g[G_OVER]:
            side = int(s.g[G_DECIDER])
            a = choose(s, t, kinds[side], np.int64(side), w, DEFAULT_PARAMS)
            sub_before = int(s.g[G_SUB])
            mover, mode, phase, turn = int(s.g[G_UNIT]), int(s.g[G_MODE]), int(s.g[G_PHASE]), int(s.g[G_TURN])
            if sub_before == SUB_FALLBACK:              # 13.3: a fast action for reaction fire (7.0: none
                mover = int(s.g[G_FB_UNIT])             # in the support phase)
                mode = MODE_FAST if phase != PH_SUPPORT else -1
            before = int(s.u[mover, U_HEX]) if mover >= 0 else -1
            logn = int(s.g[G_LOGN])
            apply_action(s, t, np.int64(a))
            new = s.log[logn:int(s.g[G_LOGN]), 0]
            enemy_hex = bool(np.isin(new, ENEMY_HEX_EVENTS).any())   # 12.0: no reaction fire
            out.actions += 1
            u = lone_cc_unit(s)
            if u >= 0:
                out.add(CHECKS[0], k, st.turn, game.unit_label(u))
                break
            u = marked_but_free(s)
            if u >= 0:
                out.add(CHECKS[4], k, st.turn, game.unit_label(u))
                break
            if not enemy_hex and int(s.g[G_SUB]) != SUB_REACT and sub_before in (SUB_MOVE, SUB_FALLBACK) and mover >= 0 \
                    and reaction_owed(s, t, np.int64(a), np.int64(mover), np.int64(mode), np.int64(before),
                                      np.int64(turn), np.int64(phase)):
                out.add(CHECKS[3], k, st.turn, game.unit_label(mover))
        if int(s.g[G_ODD_OBJ]) > 0:
            out.add(CHECKS[1], k, st.turn, f"{int(s.g[G_ODD_OBJ])} end-of-turn objective(s)")
        if int(s.g[G_LOGN]) < s.log.shape[0]:            # (a full log would hide activations)
            for turn, u in twice_in_a_turn(st.events()):
                out.add(CHECKS[2], k, turn, game.unit_label(u))
        out.games += 1
    return out
