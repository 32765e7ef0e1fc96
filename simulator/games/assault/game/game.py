"""One game in Python, OpenSpiel style: :class:`State`.

``State`` wraps the arrays of :mod:`simulator.games.assault.game.state` and calls the rules'
``njit`` functions (:func:`~simulator.games.assault.game.turn.advance`,
:func:`~simulator.games.assault.game.turn.legal_actions`, :func:`~simulator.games.assault.game.turn.apply_action`):
there is no second implementation of any rule here. It is for tests, replays and
notebooks; batches call :func:`simulator.games.assault.game.records.play_chunk` directly.

Random numbers: game ``k`` of a run with seed ``S`` draws from three xoshiro256**
streams (dice, player 0, player 1) seeded by the core
(:mod:`simulator.engine.core.seeding`), so a replay of game ``k`` rolls exactly the
dice the batch rolled.
"""

from __future__ import annotations

import numpy as np

from simulator.engine.core.compiling import int64_constants
from simulator.engine.core.seeding import seed_run_game
from simulator.games.assault.game.scenario_game import Game
from simulator.games.assault.game.state import (
    ACT_NAMES,
    AUX_OBJ,
    CC_NONE,
    G_DECIDER,
    G_LOG_ON,
    G_LOGN,
    G_OVER,
    G_PHASE,
    G_SUB,
    G_TURN,
    G_WINNER,
    KIND_NAMES,
    NO_FACING,
    NO_WINNER,
    PHASE_NAMES,
    STATUS_NAMES,
    SUB_NAMES,
    U_ACT,
    U_CC,
    U_DMG,
    U_FACE,
    U_HEX,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TYPE,
    decode,
    place_facing,
    place_hex,
)
from simulator.games.assault.game.turn import MAX_ACTIONS, apply_action, legal_actions, new_game

TERMINAL = -4
LOG_CAP = 8192      # events a logged game keeps


class State:
    """A game in progress (OpenSpiel's ``State``): ``current_player``, ``legal_actions``,
    ``apply_action``, ``is_terminal``, ``returns``, ``clone`` and a readable ``str``."""

    def __init__(self, game: Game, seed: int = 0, game_index: int = 0, *, log: bool = True,
                 _arrays=None):
        self.game = game
        self.seed = seed
        self.game_index = game_index
        if _arrays is not None:
            self.s = _arrays
            return
        self.s = game.new_state(log_cap=LOG_CAP if log else 1)
        seed_run_game(seed, game_index, self.s.rng)
        self.s.g[G_LOG_ON] = 1 if log else 0
        new_game(self.s, game.tables)
        self.s.g[G_LOG_ON] = 1 if log else 0

    # -- OpenSpiel API ---------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else int(self.s.g[G_DECIDER])

    def legal_actions(self) -> list[int]:
        buf = np.empty(MAX_ACTIONS, dtype=np.int64)
        n = legal_actions(self.s, self.game.tables, buf)
        return [int(a) for a in buf[:n]]

    def apply_action(self, a: int) -> None:
        if self.is_terminal():
            raise ValueError("the game is over")
        if int(a) not in self.legal_actions():
            raise ValueError(f"illegal action {self.action_to_string(a)} ({a})")
        self.make_log_room()
        apply_action(self.s, self.game.tables, np.int64(a))

    def make_log_room(self) -> None:
        """Double the event log once it is half full, before an action: the rules raise on
        a full log, and a long game should keep every event (a single action filling the
        other half would be a runaway)."""
        log = self.s.log
        if self.s.g[G_LOG_ON] and 2 * int(self.s.g[G_LOGN]) >= log.shape[0]:
            bigger = np.zeros((2 * log.shape[0], log.shape[1]), dtype=log.dtype)
            bigger[: log.shape[0]] = log
            self.s = self.s._replace(log=bigger)

    def is_terminal(self) -> bool:
        return bool(self.s.g[G_OVER])

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        w = int(self.s.g[G_WINNER])
        return [0.0, 0.0] if w < 0 else [1.0 if w == 0 else -1.0, 1.0 if w == 1 else -1.0]

    def clone(self) -> "State":
        from simulator.games.assault.game.state import GameState
        arrays = GameState(*(a.copy() for a in self.s))
        return State(self.game, self.seed, self.game_index, _arrays=arrays)

    # -- reading -------------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return int(self.s.g[G_TURN])

    @property
    def winner(self) -> int:
        """0 or 1, -1 a draw; ``NO_WINNER`` (-2) while the game is not over (as the batch
        records a game cut short at its decision limit)."""
        return int(self.s.g[G_WINNER]) if self.is_terminal() else int(NO_WINNER)

    def hex_name(self, h: int) -> str:
        return self.game.cm.names[h] if h >= 0 else "-"

    def action_to_string(self, a: int) -> str:
        k, u, arg = decode(a)
        g = self.game
        kind = KIND_NAMES[k] if k < len(KIND_NAMES) else f"kind {k}"
        name = KIND_NAMES[k]
        if name in ("pass", "no reaction", "no fire", "stop", "command points done",
                    "stay in close combat", "leave close combat"):
            return kind
        unit = g.unit_label(u)
        if name in ("fire", "turret fire", "fire and move", "fire at", "renew close combat"):
            return f"{unit}: {kind} {g.unit_label(arg)}"
        if name == "reaction fire":
            return f"{unit}: reaction fire at {g.unit_label(arg)}"
        if name == "step":
            h = int(self.s.u[u, U_HEX])
            to = int(g.tables.side6[h, arg, 0]) if h >= 0 else -1
            return f"{unit}: step to {self.hex_name(to)}"
        if name == "place":
            f = place_facing.py_func(arg)
            return f"{unit}: place in {self.hex_name(place_hex.py_func(arg))}" + (f" facing {f}" if f != NO_FACING else "")
        if name == "attack in close combat":
            if arg < g.n_units and self.s.u[u, U_HEX] != arg:
                return f"{unit}: {kind} {g.unit_label(arg)}" if arg < g.n_units else f"{unit}: {arg}"
            return f"{unit}: move to {self.hex_name(arg)}"
        if name == "formation":
            return f"keep formation {g.formations[arg]}"
        if name == "command point":
            return f"command point on {g.types[arg].label}"
        if name == "set up first":
            return f"{g.sides[arg]} sets up first"
        return f"{unit}: {kind}"

    def unit_line(self, u: int) -> str:
        s, g = self.s, self.game
        st = int(s.u[u, U_ST])
        parts = [f"{g.sides[int(s.u[u, U_SIDE])]:>8} {g.unit_label(u):<24}"]
        if st != 2:
            parts.append(STATUS_NAMES[st])
        else:
            t = g.types[int(s.u[u, U_TYPE])]
            parts.append(f"{self.hex_name(int(s.u[u, U_HEX])):>5} ({g.cm.describe(int(s.u[u, U_HEX]))})")
            parts.append(f"strength {t.card.strength - int(s.u[u, U_DMG])}/{t.card.strength}")
            m = int(s.u[u, U_MORALE])
            if m:
                parts.append(("", "suppressed", "fallback")[m])
            a = int(s.u[u, U_ACT])
            if a:
                parts.append(ACT_NAMES[a])
            if int(s.u[u, U_CC]) != CC_NONE:
                parts.append("close combat" + (" (active)" if int(s.u[u, U_CC]) == 1 else ""))
            if not t.card.is_infantry:
                parts.append(f"facing {int(s.u[u, U_FACE])}")
        return "  ".join(parts)

    def __str__(self) -> str:
        s, g = self.s, self.game
        head = (f"{g.scenario.name}: turn {int(s.g[G_TURN])}/{int(g.tables.p[0])}, "
                f"{PHASE_NAMES[int(s.g[G_PHASE])]} phase ({SUB_NAMES[int(s.g[G_SUB])]})")
        if self.is_terminal():
            w = self.winner
            head += f" -- game over: {'draw' if w < 0 else g.sides[w] + ' wins'}"
        else:
            head += f", {g.sides[int(s.g[G_DECIDER])]} to decide"
        lines = [head]
        objs = [f"{o.hex}: {g.sides[int(s.aux[AUX_OBJ, k])] if s.aux[AUX_OBJ, k] >= 0 else 'nobody'}"
                for k, o in enumerate(g.scenario.objective_list)]
        if objs:
            lines.append("objectives  " + ", ".join(objs))
        for u in range(g.n_units):
            if int(s.u[u, U_ST]) != 0:
                lines.append("  " + self.unit_line(u))
        return "\n".join(lines)

    def events(self) -> np.ndarray:
        return self.s.log[: int(self.s.g[G_LOGN])].copy()


int64_constants(globals())
