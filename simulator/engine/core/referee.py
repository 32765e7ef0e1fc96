"""A referee over whole games: what a game's event log shows, checked against the rules.

The core knows no game. A game's referee (``simulator/games/<game>/game/referee.py``) is
a function ``referee(game, events) -> list[Violation]`` that reads a finished game's
event log (rows ``(code, time, f1 .. f6)``, :mod:`simulator.engine.core.eventlog`) and the
scenario's fixed data (map, unit cards), never the engine's state. :func:`referee_games`
plays games ``first .. first + N - 1`` of a run with ``seed`` the way the batch does (the
same streams, so a violation is replayed with the game's ``replay`` command) and hands
each log to the referee.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from simulator.engine.core.batch import MAX_DECISIONS, play_alone


@dataclass(frozen=True)
class Violation:
    """One rule the log shows broken: the check's name, the game (its index in the run),
    the turn or round, the row of the log where it shows, and what happened in words."""

    check: str
    turn: int
    event: int
    detail: str
    game: int = -1


@dataclass
class RefereeRun:
    """The violations found in games ``first .. first + games - 1`` of ``seed``."""

    scenario: str
    seed: int
    players: tuple[str, str]
    first: int = 0
    games: int = 0
    events: int = 0
    seconds: float = 0.0
    violations: list[Violation] = field(default_factory=list)

    def by_check(self) -> Counter:
        return Counter(v.check for v in self.violations)

    def first_of_each(self) -> dict[str, Violation]:
        out: dict[str, Violation] = {}
        for v in self.violations:
            out.setdefault(v.check, v)
        return out

    def games_with(self, check: str) -> int:
        return len({v.game for v in self.violations if v.check == check})


Referee = Callable[[object, np.ndarray], list]


def logged_events(s, logn_field: int) -> np.ndarray:
    """The rows of a finished game's log (``s.g[logn_field]`` of them)."""
    return s.log[: int(s.g[logn_field])]


def referee_games(game, referee: Referee, logn_field: int, seed: int, players: tuple[str, str], games: int,
                  first: int = 0, log_cap: int = 8192, max_decisions: int = MAX_DECISIONS) -> RefereeRun:
    """Play games ``first .. first + games - 1`` of the run with ``seed`` and ``players``
    with the batch's own compiled loop (:func:`~simulator.engine.core.batch.play_alone`)
    and the event log on, and give each log to ``referee`` (``logn_field``: the state's
    field counting the log's rows)."""
    kinds, params = game.players.player_setup(players)
    run = RefereeRun(getattr(game, "name", "?"), int(seed), tuple(players), int(first))
    t0 = time.perf_counter()
    for k in range(first, first + games):
        s = play_alone(game, seed, k, kinds, params, log_cap=log_cap, max_decisions=max_decisions)
        events = logged_events(s, logn_field)
        run.events += len(events)
        run.violations += [Violation(v.check, v.turn, v.event, v.detail, k) for v in referee(game, events)]
        run.games += 1
    run.seconds = time.perf_counter() - t0
    return run


def report_lines(run: RefereeRun, replay_command: Callable[[Violation], str], checks: tuple[str, ...] = ()) -> list[str]:
    """The violations by check, with the replay command of the first of each (every name
    of ``checks`` is listed, found or not)."""
    found = run.by_check()
    firsts = run.first_of_each()
    lines = [f"{run.scenario}, {run.players[0]} v {run.players[1]}, seed {run.seed}: {run.games} games "
             f"({run.first}..{run.first + run.games - 1}), {run.events:,} events read in {run.seconds:.1f} s"]
    for name in list(checks) + sorted(set(found) - set(checks)):
        n = found.get(name, 0)
        line = f"  {name}: {n}" + (f" in {run.games_with(name)} games" if n else "")
        if name in firsts:
            v = firsts[name]
            line += f"\n      first: game {v.game}, turn {v.turn}, event {v.event}: {v.detail}\n      " \
                    + replay_command(v)
        lines.append(line)
    lines.append(f"violations: {len(run.violations)}")
    return lines
