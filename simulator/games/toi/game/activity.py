"""What each side did in a Tide of Iron game, by side, from the event log (as Assault's
:mod:`simulator.games.assault.game.activity`): the batch records count assaults and op
fire for both sides together; who did it is in the event log, which the batch does not
keep. :func:`side_activity` plays the first games of a batch again with the log on (the
same games: same seed, same players, :func:`simulator.engine.core.batch.play_alone`) and
counts each side's events.

What is counted (``MEASURES``), per side:

- ``activations``: units activated (001 Action phase), any action;
- ``moves``: hexes entered by moving units (001 Movement; retreats and advances after an
  assault are not moves);
- ``op_fires``: op fire attacks made (001 Opportunity fire);
- ``assaults``: assaults made (002), by the side of the active squad;
- ``reversals``: hexes entered that the mover had left earlier in the same activation
  (a unit walking back; issue 41).
"""

from __future__ import annotations

import numpy as np

from simulator.games.toi.game import events as ev
from simulator.games.toi.game.state import G_LOGN, U_SIDE

MEASURES = ("activations", "moves", "op_fires", "assaults", "reversals")
SAMPLE_GAMES = 200      # games of a batch played again for the per-side counts
MEASURES_TEXT = ("units activated, hexes entered by moving units, op fire attacks, assaults made, and "
                 "reversals (hexes entered that the mover left earlier in the same activation).")


def count_events(log: np.ndarray, unit_side: np.ndarray) -> np.ndarray:
    """Counts ``[side, measure]`` (measures in :data:`MEASURES` order) of one game's log
    (rows ``(code, round, unit, a, b, ...)``, :mod:`.events`)."""
    out = np.zeros((2, len(MEASURES)), np.int64)
    left: set[int] = set()          # hexes the active unit left in this activation
    for row in log:
        code, unit, a, b = int(row[0]), int(row[2]), int(row[3]), int(row[4])
        if code == ev.EV_ACTIVATE:
            out[unit_side[unit], 0] += 1
            left = set()
        elif code == ev.EV_MOVE:                # a: from, b: to
            side = unit_side[unit]
            out[side, 1] += 1
            out[side, 4] += b in left
            left.add(a)
        elif code == ev.EV_OPFIRE:              # unit: the lead firer
            out[unit_side[unit], 2] += 1
        elif code == ev.EV_ASSAULT:             # unit: the active squad
            out[unit_side[unit], 3] += 1
    return out


def game_counts(game, seed: int, game_index: int, players: tuple[str, str]) -> np.ndarray:
    """:func:`count_events` of game ``game_index`` of the batch with ``seed`` and ``players``."""
    from simulator.engine.core.batch import play_alone
    from simulator.games.toi.game.game import LOG_CAP
    kinds, params = game.players.player_setup(players)
    s = play_alone(game, seed, game_index, kinds, params, log_cap=LOG_CAP)
    return count_events(s.log[:int(s.g[G_LOGN])], s.u[:, U_SIDE])


def side_activity(game, seed: int, players: tuple[str, str], games: int = SAMPLE_GAMES) -> dict:
    """Each side's activity per game over the first ``games`` games of the batch (played
    again with the event log): ``{"games": n, "sample": ..., side: {measure: mean}}``."""
    total = np.zeros((2, len(MEASURES)), np.int64)
    n = int(games)
    for k in range(n):
        total += game_counts(game, seed, k, players)
    out: dict = {"games": n, "sample": f"the first {n:,} games of the batch, played again with their event log",
                 "measures": MEASURES_TEXT}
    for i, side in enumerate(game.sides):
        out[side] = {m: float(total[i, j] / max(n, 1)) for j, m in enumerate(MEASURES)}
    return out
