"""What each side did in a game: activations, shots, moves, close combats, by side.

The batch records count activity for both sides together (``activations``,
``close_combats`` ... in ``games.csv``). Who did it is in the event log, which the
batch does not keep (it costs a branch per event, and memory): :func:`side_activity`
replays the first games of a batch with the log switched on (the same games: same
seed, same players) and counts each side's events; :func:`turn_activity` counts one
replayed game's events turn by turn (the replay report's chart).

What is counted (``MEASURES``), per side:

- ``activations``: units activated (6.3), any action;
- ``shots``: ranged attack rolls made (fire, reaction fire, indirect fire, a gun's last
  shot at an overrunning tank): one per roll of attack dice against a target;
- ``reaction_fires``: reaction fire taken (8.2), also counted in ``shots``;
- ``moves``: hexes entered by moving units;
- ``close_combats``: close combats started by a unit of the side entering an enemy hex
  (renewals and reinforcements not counted).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.games.assault.game import events as ev
from simulator.games.assault.game.scenario_game import Game
from simulator.games.assault.game.state import U_SIDE

MEASURES = ("activations", "shots", "reaction_fires", "moves", "close_combats")
SAMPLE_GAMES = 200      # games of a batch replayed for the per-side counts
CC_INITIATED = 0        # EV_CC's last field: 0 initiated, 1 reinforced, 2 renewed


def count_events(log: np.ndarray, unit_side: np.ndarray) -> np.ndarray:
    """Counts ``[side, measure]`` (measures in :data:`MEASURES` order) of one game's log."""
    out = np.zeros((2, len(MEASURES)), np.int64)
    if not len(log):
        return out
    code, a, d = log[:, 0], log[:, 2], log[:, 5]

    def add(k: int, sides: np.ndarray) -> None:
        out[:, k] += np.bincount(sides, minlength=2)[:2]

    add(0, a[code == ev.EV_ACTIVATE])                              # a: the side
    add(1, unit_side[a[code == ev.EV_ROLL]])                        # a: the firer
    add(2, unit_side[a[code == ev.EV_REACT]])                       # a: the reacting unit
    add(3, unit_side[a[code == ev.EV_MOVE]])                        # a: the unit moving
    add(4, unit_side[a[(code == ev.EV_CC) & (d == CC_INITIATED)]])   # a: the unit entering
    return out


def replay_log(game: Game, seed: int, game_index: int, players: tuple[str, str]):
    """Game ``game_index`` of the batch with ``seed``, played again with the event log on:
    ``(State, log)``."""
    from simulator.games.assault.game.replay import replay_game
    st = replay_game(game, seed, game_index, players)
    return st, st.events()


def side_activity(game: Game, seed: int, players: tuple[str, str], games: int = SAMPLE_GAMES) -> dict:
    """Each side's activity per game over the first ``games`` games of the batch
    (replayed with the event log): ``{"games": n, "sample": ..., side: {measure: mean}}``."""
    total = np.zeros((2, len(MEASURES)), np.int64)
    sides = list(game.sides)
    n = int(games)
    for k in range(n):
        st, log = replay_log(game, seed, k, players)
        total += count_events(log, st.s.u[:, U_SIDE])
    out = {"games": n, "sample": f"the first {n:,} games of the batch, replayed with their event log"}
    for i, side in enumerate(sides):
        out[side] = {m: float(total[i, j] / max(n, 1)) for j, m in enumerate(MEASURES)}
    return out


def turn_activity(st, log: np.ndarray | None = None) -> pd.DataFrame:
    """One game's activity turn by turn: ``turn, side, measure, count`` (every turn,
    side and measure, zeros included)."""
    g = st.game
    log = st.events() if log is None else log
    unit_side = st.s.u[:, U_SIDE]
    last = max(int(st.turn), int(log[:, 1].max()) if len(log) else 0, 1)
    rows = []
    for turn in range(1, last + 1):
        counts = count_events(log[log[:, 1] == turn], unit_side)
        for i, side in enumerate(g.sides):
            rows += [{"turn": turn, "side": side, "measure": m, "count": int(counts[i, j])}
                     for j, m in enumerate(MEASURES)]
    return pd.DataFrame(rows, columns=["turn", "side", "measure", "count"])
