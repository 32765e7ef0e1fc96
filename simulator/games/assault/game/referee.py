"""Assault's referee: a finished game's event log checked against the rules it makes checkable.

It reads the log (:mod:`simulator.games.assault.game.events`) and the scenario's fixed data
(the compiled map's neighbours, movement costs and lines of sight; the unit cards' movement
types and ranges), never the engine's state, and follows the units' hexes, morale markers
and close combats from the events alone. :func:`referee` returns the
:class:`~simulator.engine.core.referee.Violation` of every check in :data:`CHECKS`;
``bench/referee.py`` runs it over many games, ``tests/games/assault/game/test_referee.py``
over the shipped scenarios.

What the log does not show: the action markers. The close-combat exhaustion marker
(12.6, revised 12.1.6.2) is not an event of its own; the referee infers it from the end of
the close combat (``EV_CC_END``: the units left in the hex, steady ones, are marked fast
action) and from a withdrawal that leaves one side alone in the hex (revised 12.1.6.1:
the unit that stays is marked); the unit that moves out of an over-stacked hex is logged
(``EV_OVERSTACK``) and marked too. Movement points are logged only as what is left after a
step, so a step is "paid for" when the terrain allows it to the unit's movement type and
the points left are not negative, not that the exact cost was taken.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from simulator.engine.core.los import BLOCKED
from simulator.engine.core.referee import RefereeRun, Violation, referee_games
from simulator.games.assault.game import events as ev
from simulator.games.assault.game.state import K_DISMOUNT, NIL, PH_ORGANISATION, R_ELIMINATION
from simulator.games.assault.game.tables import (
    SL_ARRIVE,
    SL_CARRIER,
    SL_FORM,
    SL_HEX,
    SL_TYPE,
    UT_IND_MAX,
    UT_MAXR,
    UT_MTYPE,
)
from simulator.games.assault.rules.damage import FALLBACK, STEADY, SUPPRESSED

CHECKS = (
    "step to a hex not adjacent",                    # 9.0
    "step the terrain forbids or not paid for",      # 9.0, 9.1 (movement types)
    "move from a hex the log never put it in",       # the log must show every move (issue 40 item 2)
    "unit acted twice in a turn",                    # 6.4, 8.2, 7.2
    "acted with a morale marker",                    # 13.2, 13.3
    "acted after its close combat ended",            # 12.6, revised 12.1.6.1-2: exhaustion marker
    "reaction fire at a unit that did not move",     # 8.2
    "reaction fire at a step into a close combat",   # 12.0: no reaction fire
    "target out of range",                           # 10.1, 7.1
    "target out of line of sight",                   # 10.3, 10.4
    "two units of a side stacked in a hex",          # 9.0: a move may not end on a friend; 12.6
    "eliminated side still has units",              # 6.6: victory by elimination
)
(STEP_FAR, STEP_UNPAID, STEP_UNSEEN, TWICE, MORALE, EXHAUSTED, REACT_STILL, REACT_CC, RANGE, SIGHT, STACKED,
 VICTORY) = CHECKS

ACTING = (ev.EV_ACTIVATE, ev.EV_REACT, ev.EV_SPOTTER)     # a unit uses its action (6.4, 8.2, 7.2)
UNIT_FIELD = {ev.EV_ACTIVATE: 3, ev.EV_REACT: 2, ev.EV_SPOTTER: 2}     # the acting unit's column
ACT_WORDS = {ev.EV_ACTIVATE: "activated", ev.EV_REACT: "reaction fire", ev.EV_SPOTTER: "spots"}


class _Board:
    """What the log has shown so far: each unit's hex (-1 off the map), carrier, morale;
    the close combats; the units that acted this turn; those exhausted by a close combat."""

    def __init__(self, game):
        self.game, self.cm, self.t = game, game.cm, game.tables
        n = game.n_units
        self.side = np.array([sl.side for sl in game.slots], dtype=np.int64)
        self.type = np.array([int(self.t.meta[u, SL_TYPE]) for u in range(n)], dtype=np.int64)
        meta = self.t.meta[:n]
        self.slot_carrier = meta[:, SL_CARRIER].astype(np.int64)
        # a unit the scenario sets in a hex or aboard a vehicle starts there unlogged (5.8, 9.11)
        start = (meta[:, SL_ARRIVE] <= 0) & (meta[:, SL_FORM] < 0)
        self.pos = np.where(start & (self.slot_carrier < 0), meta[:, SL_HEX], -1).astype(np.int64)
        self.carrier = np.where(start, self.slot_carrier, -1).astype(np.int64)
        self.morale = np.zeros(n, dtype=np.int64)
        self.cc_hexes: set[int] = set()
        self.acted: Counter = Counter()
        self.exhausted: set[int] = set()
        self.moved: set[int] = set()        # units that moved since the last activation
        self.turn = 0
        self.out: list[Violation] = []
        self.i = 0
        self._los: dict[tuple[int, int], int] = {}

    def flag(self, check: str, detail: str) -> None:
        self.out.append(Violation(check, self.turn, self.i, detail))

    def name(self, u: int) -> str:
        return f"{self.game.unit_label(u)} ({self.game.sides[int(self.side[u])]})" if 0 <= u < len(self.side) else "-"

    def hexn(self, h: int) -> str:
        return self.cm.names[h] if 0 <= h < self.cm.n else str(h)

    def where(self, u: int) -> int:
        """A unit's hex, its carrier's while it rides (10.10)."""
        return int(self.pos[self.carrier[u]]) if self.pos[u] < 0 and self.carrier[u] >= 0 else int(self.pos[u])

    def sight(self, a: int, b: int) -> int:
        key = (a, b)
        if key not in self._los:
            self._los[key] = int(self.cm.line(a, b)[0])
        return self._los[key]


# --- the game's course -------------------------------------------------------------------

def _course(b: _Board, code: int, a: int, x: int, c: int) -> None:
    if code == ev.EV_TURN:
        b.acted.clear()
        b.exhausted.clear()
    elif code == ev.EV_PHASE and a == PH_ORGANISATION:
        b.morale[:] = STEADY                     # 6.5: the morale markers go (reading)
        _stacking(b)
    elif code == ev.EV_PLACE:
        b.pos[a], b.carrier[a] = x, -1
        b.carrier[(b.slot_carrier == a) & (b.pos < 0)] = a        # 9.11: its passengers come aboard
    elif code == ev.EV_ELIM or code == ev.EV_DISEMBARK_LOST:
        b.pos[a], b.carrier[a] = -1, -1
    elif code == ev.EV_VICTORY:
        _victory(b, a, x)


def _acting(b: _Board, code: int, row) -> None:
    """6.4, 8.2, 7.2: once a turn, steady, not after the close combat it just ended."""
    u = int(row[UNIT_FIELD[code]])
    if code == ev.EV_ACTIVATE:
        _stacking(b)
        b.moved.clear()
        if int(row[4]) == K_DISMOUNT:      # 9.11.3: the dismount is logged before its activation
            b.moved.add(u)
    b.acted[u] += 1
    if b.acted[u] == 2:
        b.flag(TWICE, f"{b.name(u)} acts a second time this turn ({ACT_WORDS[code]})")
    if b.morale[u] != STEADY:
        b.flag(MORALE, f"{b.name(u)} acts while {('steady', 'suppressed', 'fallback')[int(b.morale[u])]}")
    if u in b.exhausted:
        b.flag(EXHAUSTED, f"{b.name(u)} acts after the close combat it was in ended this turn")
    if code == ev.EV_REACT:
        _reaction(b, u, int(row[3]))


def _reaction(b: _Board, r: int, target: int) -> None:
    """8.2: reaction fire at an enemy that moved in this activation, not into a close combat."""
    mover = b.carrier[target] if b.pos[target] < 0 and b.carrier[target] >= 0 else target   # 10.10.1: riders
    if mover not in b.moved:
        b.flag(REACT_STILL, f"{b.name(r)} reacts against {b.name(target)}, which has not moved")
    elif b.where(target) in b.cc_hexes:
        b.flag(REACT_CC, f"{b.name(r)} reacts against {b.name(target)} in the close combat in "
               f"{b.hexn(b.where(target))}")


# --- movement ----------------------------------------------------------------------------

def _step(b: _Board, u: int, h: int, g: int, mp: int) -> None:
    """9.0: one hex to a neighbour, one the unit's movement type may enter, the points left
    not negative; from the hex the log last put it in."""
    if b.pos[u] != h and b.pos[u] >= 0:
        b.flag(STEP_UNSEEN, f"{b.name(u)} moves {b.hexn(h)} -> {b.hexn(g)}, but the log last put it in "
               f"{b.hexn(int(b.pos[u]))}")
    nbrs = list(b.cm.neighbours[h]) if 0 <= h < b.cm.n else []
    if g not in nbrs:
        b.flag(STEP_FAR, f"{b.name(u)} moves {b.hexn(h)} -> {b.hexn(g)}, not a neighbour")
    else:
        mtype = int(b.t.ut[b.type[u], UT_MTYPE])
        if b.cm.move_cost[mtype, h, nbrs.index(g)] < 0 or mp < 0:
            b.flag(STEP_UNPAID, f"{b.name(u)} moves {b.hexn(h)} -> {b.hexn(g)}: terrain cost "
                   f"{int(b.cm.move_cost[mtype, h, nbrs.index(g)])}, {mp} MP left")
    b.pos[u], b.carrier[u] = g, -1
    b.moved.add(u)


def _movement(b: _Board, code: int, a: int, x: int, c: int, d: int) -> None:
    if code == ev.EV_MOVE:
        _step(b, a, x, c, d)
    elif code == ev.EV_BACKTRACK:
        b.pos[a] = c
    elif code == ev.EV_DISEMBARK:
        b.pos[a], b.carrier[a] = c, -1
        b.moved.add(a)
    elif code == ev.EV_LOAD:
        b.pos[a], b.carrier[a] = -1, x
    elif code == ev.EV_OVERSTACK:                   # 12.6: out of the over-stacked hex, marked too
        b.pos[a] = c
        b.exhausted.add(a)


def _stacking(b: _Board) -> None:
    """9.0: a move may not end on a friend; an over-stacked close-combat hex is cleared when
    the close combat ends (12.6). Checked between activations, outside close combats."""
    seen: dict[tuple[int, int], int] = {}
    for u in range(len(b.pos)):
        h = int(b.pos[u])
        if h < 0 or h in b.cc_hexes:
            continue
        key = (h, int(b.side[u]))
        if key in seen:
            b.flag(STACKED, f"{b.name(seen[key])} and {b.name(u)} in {b.hexn(h)}")
        seen[key] = u


# --- fire ---------------------------------------------------------------------------------

def _fire(b: _Board, firer: int, target: int, indirect: bool) -> None:
    """10.1: within the firer's range (7.1: its indirect range); 10.3, 10.4: a direct fire's
    line not blocked by terrain (smoke only blocks more)."""
    h, g = b.where(firer), b.where(target)
    if h < 0 or g < 0:
        return                                       # (off the map: no fire check)
    dist = b.cm.hex_distance(h, g)
    ty = b.type[firer]
    longest = int(b.t.ut[ty, UT_IND_MAX] if indirect else b.t.ut[ty, UT_MAXR])
    if dist > max(longest, 1):
        b.flag(RANGE, f"{b.name(firer)} in {b.hexn(h)} fires at {b.name(target)} in {b.hexn(g)}: "
               f"{dist} hexes, range {longest}")
    if not indirect and h != g and b.sight(h, g) == BLOCKED:
        b.flag(SIGHT, f"{b.name(firer)} in {b.hexn(h)} fires at {b.name(target)} in {b.hexn(g)}: line blocked")


def _morale(b: _Board, code: int, a: int, x: int, d: int) -> None:
    """13.3: the morale marker a result leaves (EV_RESULT, EV_TERRAIN_DAMAGE: the new
    marker; a close-combat result: falls back, withdraws suppressed, else the marker)."""
    if code == ev.EV_CC_RESULT:
        if x == 2:
            b.morale[a] = FALLBACK          # 12.5
        elif x == 3:
            b.morale[a] = max(int(b.morale[a]), SUPPRESSED)     # 12.9, revised 12.5
        elif d != NIL:
            b.morale[a] = d
        return
    if x == 0 and d != NIL:
        b.morale[a] = d


# --- close combat --------------------------------------------------------------------------

def _close_combat(b: _Board, code: int, a: int, x: int, c: int) -> None:
    if code == ev.EV_CC:
        b.cc_hexes.add(c)
    elif code == ev.EV_CC_END:                      # 12.6: those left are marked fast action
        b.cc_hexes.discard(a)
        for v in np.nonzero(b.pos == a)[0]:
            if b.side[v] == x and b.morale[v] == STEADY:
                b.exhausted.add(int(v))
    elif code == ev.EV_CC_WITHDRAW:                 # revised 12.1.6.1: the unit that stays is marked
        here = [int(v) for v in np.nonzero(b.pos == x)[0] if v != a]
        if here and not any(b.side[v] == b.side[a] for v in here):
            b.cc_hexes.discard(x)
            b.exhausted.update(here)


def _victory(b: _Board, winner: int, reason: int) -> None:
    """6.6: a side wins by elimination when the other has no unit left on the map."""
    if reason != R_ELIMINATION or winner < 0:
        return
    left = [u for u in range(len(b.pos)) if b.side[u] != winner and b.where(u) >= 0]
    if left:
        b.flag(VICTORY, f"{b.game.sides[winner]} wins by elimination, but {b.name(left[0])} is on the map")


# --- the referee -------------------------------------------------------------------------

MOVEMENT = (ev.EV_MOVE, ev.EV_BACKTRACK, ev.EV_DISEMBARK, ev.EV_LOAD, ev.EV_OVERSTACK)
COURSE = (ev.EV_TURN, ev.EV_PHASE, ev.EV_PLACE, ev.EV_ELIM, ev.EV_DISEMBARK_LOST, ev.EV_VICTORY)
MORALE_EVENTS = (ev.EV_RESULT, ev.EV_TERRAIN_DAMAGE, ev.EV_CC_RESULT)
CC_EVENTS = (ev.EV_CC, ev.EV_CC_END, ev.EV_CC_WITHDRAW)


def referee(game, events: np.ndarray) -> list[Violation]:
    """The violations an Assault game's log shows (see the module docstring)."""
    b = _Board(game)
    indirect = False
    for i, row in enumerate(events):
        code, turn, a, x, c, d = (int(v) for v in row[:6])
        b.i, b.turn = i, turn
        if code in COURSE:
            _course(b, code, a, x, c)
        elif code in ACTING:
            _acting(b, code, row)
        elif code in MOVEMENT:
            _movement(b, code, a, x, c, d)
        elif code in MORALE_EVENTS:
            _morale(b, code, a, x, d)
        elif code in CC_EVENTS:
            _close_combat(b, code, a, x, c)
        elif code == ev.EV_INDIRECT:
            indirect = True
        elif code == ev.EV_ROLL:
            _fire(b, a, x, indirect)
            indirect = False
    return b.out


def referee_run(name: str, players: tuple[str, str], games: int, seed: int, first: int = 0,
                edition: str | None = None) -> RefereeRun:
    """Games ``first .. first + games - 1`` of scenario ``name`` with ``seed`` and
    ``players``, as the batch plays them, each log refereed."""
    from simulator.games.assault.game.compile import compile_game
    from simulator.games.assault.game.game import LOG_CAP
    from simulator.games.assault.game.state import G_LOGN
    game = compile_game(name, edition=edition)
    return referee_games(game, referee, G_LOGN, seed, players, games, first, log_cap=LOG_CAP)


def replay_command(run: RefereeRun, v: Violation) -> str:
    """The command that prints the game of violation ``v``."""
    return (f"lanchester assault replay {run.scenario} --seed {run.seed} --game {v.game} "
            f"--players {','.join(run.players)}")
