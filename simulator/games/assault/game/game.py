"""One game in Python, OpenSpiel style: :class:`State`.

``State`` wraps the arrays of :mod:`simulator.games.assault.game.state` and calls the rules'
``njit`` functions (:func:`~simulator.games.assault.game.turn.advance`,
:func:`~simulator.games.assault.game.turn.legal_actions`, :func:`~simulator.games.assault.game.turn.apply_action`):
there is no second implementation of any rule here. It is for tests, replays and
notebooks; batches call :func:`simulator.engine.players.chunks.play_chunk` directly.

Random numbers: game ``k`` of a run with seed ``S`` draws from three xoshiro256**
streams (dice, player 0, player 1) seeded by the core
(:mod:`simulator.engine.core.seeding`), so a replay of game ``k`` rolls exactly the
dice the batch rolled.
"""

from __future__ import annotations

import numpy as np

from simulator.engine.core import pystate as core
from simulator.engine.core.compiling import int64_constants
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
    GameState,
    decode,
    place_facing,
    place_hex,
)
from simulator.games.assault.game.turn import MAX_ACTIONS, apply_action, legal_actions, new_game

TERMINAL = core.TERMINAL
LOG_CAP = core.LOG_CAP      # events a logged game keeps

class State(core.State):
    """A game in progress (OpenSpiel's ``State``, :class:`simulator.engine.core.pystate.State`),
    with Assault's words: ``action_to_string``, a readable ``str``, its events."""

    RULES = core.Rules(new_game=new_game, legal_actions=legal_actions, apply_action=apply_action,
                       max_actions=int(MAX_ACTIONS), state_type=GameState, g_decider=int(G_DECIDER),
                       g_over=int(G_OVER), g_winner=int(G_WINNER), g_log_on=int(G_LOG_ON), g_logn=int(G_LOGN),
                       no_winner=int(NO_WINNER))

    # -- reading -------------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return int(self.s.g[G_TURN])

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
