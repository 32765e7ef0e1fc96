"""What every game's Python side shares: the :class:`Game` protocol the batch runner and
the reports read, and the :class:`State` base with OpenSpiel's API (``current_player``,
``legal_actions``, ``apply_action``, ``is_terminal``, ``returns``, ``clone``), written
once over a game's compiled entry points (:class:`Rules`).

A game's ``State`` subclasses :class:`State`, sets ``RULES`` and adds what only it can
say: ``action_to_string``, a readable ``__str__``, its events. There is no second
implementation of any rule here: every method calls the game's compiled rules.

Seeding: the core's (:mod:`simulator.engine.core.seeding`), so game ``k`` of a run rolls
the dice the batch rolled for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Protocol, runtime_checkable

import numpy as np

from simulator.engine.core.seeding import seed_run_game

TERMINAL = -4       # current_player() once the game is over (OpenSpiel's kTerminalPlayerId)
LOG_CAP = 8192      # events a logged game keeps before its log doubles


@runtime_checkable
class Game(Protocol):
    """A compiled scenario as the shared batch runner, balance report and players see it
    (:mod:`simulator.engine.core.batch`): Assault's
    :class:`simulator.games.assault.game.scenario_game.Game` and Tide of Iron's
    :class:`simulator.games.toi.game.game.Game` (checked by the contract test)."""

    sides: list[str]
    scenario: Any               # the game's scenario as loaded (its file at .path)
    tables: Any
    edition: str | None
    formations: Any
    reason_names: Any
    no_winner: int
    r_truncated: int

    @property
    def name(self) -> str: ...

    @property
    def turns(self) -> int: ...

    def new_state(self, log_cap: int = 1) -> Any: ...

    def unit_label(self, u: int) -> str: ...

    def chunk_entry(self, kinds) -> Callable: ...

    @property
    def players(self) -> Any: ...

    def player_work(self, weights=None) -> Any: ...

    def card_names(self) -> list[str]: ...

    def card_side(self, card: str) -> str: ...

    def objective_names(self) -> list[str]: ...

    @property
    def activity_words(self) -> dict[str, str | None]: ...

    def record_columns(self) -> list[str]: ...

    def describe(self) -> dict: ...


@dataclass(frozen=True)
class Rules:
    """A game's compiled entry points and the fields of its ``g`` array that the shared
    :class:`State` reads."""

    new_game: Callable          # (s, t): set up game 0's state after seeding
    legal_actions: Callable     # (s, t, buf) -> n
    apply_action: Callable      # (s, t, a)
    max_actions: int            # the legal actions buffer's length
    state_type: type            # the game's state arrays (a namedtuple)
    g_decider: int              # the side that decides now
    g_over: int                 # 1: the game is over
    g_winner: int               # 0 or 1, -1 a draw
    g_log_on: int               # 1: events are logged
    g_logn: int                 # events logged so far
    no_winner: int              # what ``winner`` says while the game is not over


class State:
    """A game in progress (OpenSpiel's ``State``), over the arrays of a game's state."""

    RULES: ClassVar[Rules]
    LOG_CAP: ClassVar[int] = LOG_CAP      # events a logged game starts with (the log doubles as it fills)

    def __init__(self, game, seed: int = 0, game_index: int = 0, *, log: bool = True, _arrays=None):
        self.game = game
        self.seed = seed
        self.game_index = game_index
        if _arrays is not None:
            self.s = _arrays
            return
        r = self.RULES
        self.s = game.new_state(log_cap=self.LOG_CAP if log else 1)
        seed_run_game(seed, game_index, self.s.rng)
        self.s.g[r.g_log_on] = 1 if log else 0
        r.new_game(self.s, game.tables)
        self.s.g[r.g_log_on] = 1 if log else 0

    # -- OpenSpiel API ---------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else int(self.s.g[self.RULES.g_decider])

    def legal_actions(self) -> list[int]:
        buf = np.empty(self.RULES.max_actions, dtype=np.int64)
        n = self.RULES.legal_actions(self.s, self.game.tables, buf)
        return [int(a) for a in buf[:n]]

    def apply_action(self, a: int) -> None:
        """Play action ``a``; ValueError when the game is over or ``a`` is not legal."""
        if self.is_terminal():
            raise ValueError("the game is over")
        if int(a) not in self.legal_actions():
            raise ValueError(f"illegal action {self._named(a)} ({a})")
        self.make_log_room()
        self.RULES.apply_action(self.s, self.game.tables, np.int64(a))

    def _named(self, a: int) -> str:
        try:
            return self.action_to_string(a)
        except (IndexError, KeyError, ValueError):      # not an action of this game at all
            return "(no such action)"

    def make_log_room(self) -> None:
        """Double the event log once it is half full, before an action: the rules raise on
        a full log, and a long game should keep every event (a single action filling the
        other half would be a runaway)."""
        r, log = self.RULES, self.s.log
        if self.s.g[r.g_log_on] and 2 * int(self.s.g[r.g_logn]) >= log.shape[0]:
            bigger = np.zeros((2 * log.shape[0], log.shape[1]), dtype=log.dtype)
            bigger[: log.shape[0]] = log
            self.s = self.s._replace(log=bigger)

    def is_terminal(self) -> bool:
        return bool(self.s.g[self.RULES.g_over])

    def returns(self) -> list[float]:
        """+1 the winner, -1 the loser, 0 both in a draw or while the game goes on."""
        if not self.is_terminal():
            return [0.0, 0.0]
        w = int(self.s.g[self.RULES.g_winner])
        return [0.0, 0.0] if w < 0 else [1.0 if w == 0 else -1.0, 1.0 if w == 1 else -1.0]

    def clone(self) -> State:
        """An independent copy: the same position, the same random streams."""
        arrays = self.RULES.state_type(*(a.copy() for a in self.s))
        return type(self)(self.game, self.seed, self.game_index, _arrays=arrays)

    def action_to_string(self, a: int) -> str:
        """Action ``a`` in the game's words (each game's own)."""
        raise NotImplementedError

    # -- reading -------------------------------------------------------------------------
    @property
    def winner(self) -> int:
        """0 or 1, -1 a draw; the game's ``no_winner`` while the game is not over."""
        return int(self.s.g[self.RULES.g_winner]) if self.is_terminal() else int(self.RULES.no_winner)
