"""Tide of Iron's referee: a finished game's event log checked against the rules it makes checkable.

It reads the log (:mod:`simulator.games.toi.game.events`) and the scenario's fixed tables
(hex sides, elevations, lines of sight, the units' figures and vehicles), never the
engine's state, and follows each unit's hex, carrier and token from the events alone:
an activation fatigues (001 Action phase), Prepare Op Fire puts the op-fire token
(``EV_OPFIRE_SET``), an op fire fatigues but Rapid Op Fire by machine-gun crews (001
Machine gun crew; rulings T30), a forced retreat fatigues (002 step 9: "Any fresh unit or
unit in Op Fire mode that is forced to retreat becomes fatigued"), and the status phase
takes the fatigue tokens off (001 Status phase, 2). :func:`referee` returns the
:class:`~simulator.engine.core.referee.Violation` of every check in :data:`CHECKS`.

What the log does not show: the squads that support a concentrated fire or an assault
(only the lead is logged, so only the lead's token is followed), whether an op fire was
rapid (a unit with a machine-gun crew may fire again; one without may not), and which
figure types a squad lost (a heavy-weapon squad is known to hold its heavy weapon only
while it has lost no figure).
"""

from __future__ import annotations

import numpy as np

from simulator.engine.core.referee import RefereeRun, Violation, referee_games
from simulator.games.toi.game import events as ev
from simulator.games.toi.game import tables as T
from simulator.games.toi.game.state import K_ASSAULT, K_FIREMOVE, R_ELIMINATION, R_VICTORY_POINTS
from simulator.games.toi.rules.attack import band_index

CHECKS = (
    "step to a hex not adjacent",                       # 001 Movement
    "step the terrain forbids or not paid for",         # 001 Terrain; Movement
    "step across a cliff side",                         # 001 Terrain: Hill, "Cliff sides (level 0 to 2) are impassable"
    "move from a hex the log never put it in",          # the log shows every move
    "activated while fatigued",                         # 001 Action phase: fresh units act
    "op fire without an op-fire token",                 # 001 Op fire
    "op fire again without Rapid Op Fire",              # 001 Op fire; Machine gun crew (rulings T30)
    "acted after a forced retreat",                     # 002 step 9: retreat fatigues
    "retreat not to an adjacent hex",                   # 002 step 9
    "heavy-weapon squad assaults or fires and moves",   # 001 MG / Mortar crew: Limited Choice of Actions
    "target out of range",                              # 001 Range
    "target out of line of sight",                      # 001 Line of sight
    "stacking over the limit",                          # 001 Setup: stacking
    "both sides in one hex",                            # 001 Movement
    "side with no squad left plays on",                 # rulings T25
    "result not as the rules say",                      # T25; 001 victory points
)
(STEP_FAR, STEP_UNPAID, CLIFF, STEP_UNSEEN, FATIGUED_ACTS, NO_TOKEN, RAPID, RETREAT_ACTS, RETREAT_FAR, HEAVY,
 RANGE, SIGHT, STACK, BOTH, NO_SQUAD, RESULT) = CHECKS

FRESH, FATIGUED, OPFIRE = 0, 1, 2


class _Board:
    """What the log has shown so far: each unit's hex (-1 off the map), carrier, token, and
    whether it retreated this round; figures lost; victory points announced."""

    def __init__(self, game):
        self.game, self.t, self.sc = game, game.tables, game.scenario
        t = self.t
        n = game.n_units
        nf = int(t.p[T.P_N_FIG])
        self.side = t.slots[:n, T.SL_SIDE].astype(np.int64)
        self.vehicle = t.slots[:n, T.SL_VEHICLE] == 1
        figs = t.slots[:n, T.SL_FIG:T.SL_FIG + nf]
        self.figs = figs.astype(np.int64).copy()        # by figure type, as squad transfers move them
        self.heavy_type = t.ft[:nf, T.FT_HEAVY] == 1
        self.rapid_type = t.ft[:nf, T.FT_RAPID] == 1
        self.pos = np.full(n, -1, dtype=np.int64)
        self.carrier = np.full(n, -1, dtype=np.int64)
        self.placed = np.zeros(n, dtype=bool)            # until the log places it, a unit is still to come
        self.gone = np.zeros(n, dtype=bool)
        self.token = np.zeros(n, dtype=np.int64)
        self.retreated = np.zeros(n, dtype=bool)
        self.opfired = np.zeros(n, dtype=bool)
        self.lost = np.zeros(n, dtype=np.int64)
        self.squadless: set[int] = set()
        self.vp = (0, 0)
        self.initiative = int(t.p[T.P_INIT])
        self.round = 0
        self.i = 0
        self.out: list[Violation] = []

    def flag(self, check: str, detail: str) -> None:
        self.out.append(Violation(check, self.round, self.i, detail))

    def name(self, k: int) -> str:
        return f"{self.sc.squad_label(k)} ({self.game.sides[int(self.side[k])]})" if k >= 0 else "-"

    def hexn(self, h: int) -> str:
        return self.sc.hex_name(h) if h >= 0 else "off the map"

    def where(self, k: int) -> int:
        return int(self.pos[self.carrier[k]]) if self.carrier[k] >= 0 else int(self.pos[k])

    def holds_heavy(self, k: int) -> bool:
        """Squad ``k`` surely holds a heavy weapon: one is among its figures (after squad
        transfers) and it has lost no figure (the log does not say which type was lost)."""
        return bool(self.figs[k, self.heavy_type].sum() > 0) and self.lost[k] == 0

    def may_rapid(self, k: int) -> bool:
        """Unit ``k`` may hold a machine-gun crew (Rapid Op Fire): one set up with it or given
        to it by a squad transfer (losses are not told by type: it may have lost it)."""
        return bool(self.figs[k, self.rapid_type].sum() > 0)

    def squads_left(self, side: int) -> int:
        """Squads of ``side`` on the map, carried, or still to arrive (rulings T25)."""
        alive = ~self.gone & ~self.vehicle & (self.side == side)
        return int((alive & ((self.pos >= 0) | (self.carrier >= 0) | ~self.placed)).sum())


def _reach(t: T.Tables, k: int, figs: np.ndarray) -> int:
    """The range value bounding unit ``k``'s attacks (001 Range; long range is twice it): its
    longest weapon, an anti-tank squad's armour-piercing range, Concussive Firepower's bonus,
    higher ground. ``figs``: the figures it holds (squad transfers counted, losses not: the
    log does not say which type was lost)."""
    sl = t.slots[k]
    if sl[T.SL_VEHICLE]:
        m = int(sl[T.SL_MODEL])
        base = max(int(t.vt[m, T.VT_IRANGE]), int(t.vt[m, T.VT_VRANGE])) + int(t.p[T.P_CONC_RANGE])
    else:
        ranges = [max(int(t.ft[f, T.FT_IRANGE]), int(t.ft[f, T.FT_VRANGE])) for f in range(len(figs)) if figs[f] > 0]
        base = max(ranges, default=0)
        if sl[T.SL_SPEC] == T.SPEC_ANTI_TANK:
            base = max(base, int(t.p[T.P_AT_RANGE]))
    return base + int(t.p[T.P_HIGHER])


# --- movement ----------------------------------------------------------------------------

def _step(b: _Board, k: int, h: int, g: int, mp: int) -> None:
    """001 Movement: to a neighbour across a side the unit may cross, the points left not
    negative; never across a cliff side, up or down (001 Terrain: Hill; rulings T23)."""
    t = b.t
    if b.pos[k] != h:
        b.flag(STEP_UNSEEN, f"{b.name(k)} moves {b.hexn(h)} -> {b.hexn(g)}, but the log last put it in "
               f"{b.hexn(int(b.pos[k]))}")
    sides = [d for d in range(6) if t.side6[h, d, T.S6_NBR] == g] if h >= 0 else []
    if not sides:
        b.flag(STEP_FAR, f"{b.name(k)} moves {b.hexn(h)} -> {b.hexn(g)}, not a neighbour")
    elif abs(int(t.hexi[g, T.HI_ELEV]) - int(t.hexi[h, T.HI_ELEV])) >= 2:
        b.flag(CLIFF, f"{b.name(k)} moves {b.hexn(h)} (level {int(t.hexi[h, T.HI_ELEV])}) -> {b.hexn(g)} "
               f"(level {int(t.hexi[g, T.HI_ELEV])})")
    else:
        cost = int(t.side6[h, sides[0], T.S6_VCOST if b.vehicle[k] else T.S6_COST])
        if cost < 0 or mp < 0 or t.hexi[g, T.HI_STAND] == 0:
            b.flag(STEP_UNPAID, f"{b.name(k)} moves {b.hexn(h)} -> {b.hexn(g)}: cost {cost}, {mp} MP left")
    b.pos[k] = g


def _place(b: _Board, code: int, k: int, a: int, x: int, c: int) -> None:
    """Where the log puts a unit other than by a step."""
    if code == ev.EV_PLACE:
        b.pos[k], b.carrier[k], b.placed[k] = a, -1, True
    elif code == ev.EV_PLACE_IN:
        b.pos[k], b.carrier[k], b.placed[k] = -1, a, True
    elif code == ev.EV_TRANSPORT:
        if x == 1:
            b.pos[k], b.carrier[k] = -1, a
        else:
            b.pos[k], b.carrier[k] = b.pos[a], -1
    elif code == ev.EV_BACK or code == ev.EV_ADVANCE:
        b.pos[k] = a
    elif code == ev.EV_DESTROYED:
        b.pos[k], b.carrier[k], b.gone[k] = -1, -1, True
        b.carrier[b.carrier == k] = -1
    elif code == ev.EV_FIGURES:
        b.lost[k] += a
    elif code == ev.EV_TRANSFER:                    # 001 Status phase, 4: one figure of type x to a
        b.figs[k, x] -= 1
        b.figs[a, x] += 1
        if c == 0:                                  # the emptied base goes
            b.pos[k], b.gone[k] = -1, True


def _retreat(b: _Board, k: int, h: int, g: int) -> None:
    """002 step 9: to an adjacent hex; a fresh or op-fire unit becomes fatigued."""
    if b.pos[k] != h:
        b.flag(STEP_UNSEEN, f"{b.name(k)} retreats from {b.hexn(h)}, but the log last put it in "
               f"{b.hexn(int(b.pos[k]))}")
    if int(b.t.dist[h, g]) != 1:
        b.flag(RETREAT_FAR, f"{b.name(k)} retreats {b.hexn(h)} -> {b.hexn(g)}")
    b.pos[k] = g
    b.token[k] = FATIGUED
    b.retreated[k] = True


# --- actions and tokens --------------------------------------------------------------------

def _activate(b: _Board, k: int, kind: int) -> None:
    """001 Action phase: only a fresh unit (or one in op fire) acts, and is fatigued after."""
    _stacking(b)
    _squadless(b)
    if b.retreated[k]:
        b.flag(RETREAT_ACTS, f"{b.name(k)} is activated after it was forced to retreat this round")
    elif b.token[k] == FATIGUED:
        b.flag(FATIGUED_ACTS, f"{b.name(k)} is activated while fatigued")
    if kind in (K_ASSAULT, K_FIREMOVE) and not b.vehicle[k] and b.holds_heavy(k):
        where = "carried" if b.carrier[k] >= 0 else "on the map"
        b.flag(HEAVY, f"{b.name(k)} ({where}, with its heavy weapon) is given "
               f"{'Assault' if kind == K_ASSAULT else 'Fire & Movement'}")
    b.token[k] = FATIGUED


def _opfire(b: _Board, k: int) -> None:
    """001 Op fire: from op-fire mode; the firer is fatigued, but machine-gun crews firing
    Rapid Op Fire stay in op fire (rulings T30)."""
    if b.retreated[k]:
        b.flag(RETREAT_ACTS, f"{b.name(k)} op fires after it was forced to retreat this round")
    elif b.token[k] == FATIGUED and not b.may_rapid(k) and b.opfired[k]:
        b.flag(RAPID, f"{b.name(k)}, with no machine-gun crew, op fires again this round")
    elif b.token[k] != OPFIRE:
        b.flag(NO_TOKEN, f"{b.name(k)} op fires while {('fresh', 'fatigued', 'in op fire')[int(b.token[k])]}")
    b.opfired[k] = True
    if not b.may_rapid(k):
        b.token[k] = FATIGUED


def _fire(b: _Board, k: int, target: int, mode: int) -> None:
    """001 Range and Line of sight (an area attack, mode >= 2, may be spotted: range only)."""
    h, g = b.where(k), b.where(target)
    if h < 0 or g < 0:
        return
    d = int(b.t.dist[h, g])
    reach = _reach(b.t, k, b.figs[k])
    if band_index(d, reach) < 0:         # beyond long range, twice the range (001 Range)
        b.flag(RANGE, f"{b.name(k)} in {b.hexn(h)} attacks {b.name(target)} in {b.hexn(g)}: {d} hexes, "
               f"range {reach} (long range {2 * reach})")
    if mode < 2 and h != g and b.t.los[h, g] == 0:
        b.flag(SIGHT, f"{b.name(k)} in {b.hexn(h)} attacks {b.name(target)} in {b.hexn(g)}: no line of sight")


# --- the board ---------------------------------------------------------------------------

def _stacking(b: _Board) -> None:
    """001 Setup: at most P_STACK units and P_VEH_STACK vehicles of a side in a hex, and no
    hex held by both sides (checked between activations, when nothing is passing through)."""
    on = b.pos >= 0
    n_hex = b.t.hexi.shape[0]
    for side in (0, 1):
        mine = on & (b.side == side)
        units = np.bincount(b.pos[mine], minlength=n_hex)
        vehicles = np.bincount(b.pos[mine & b.vehicle], minlength=n_hex)
        for h in np.nonzero((units > b.t.p[T.P_STACK]) | (vehicles > b.t.p[T.P_VEH_STACK]))[0]:
            b.flag(STACK, f"{int(units[h])} units ({int(vehicles[h])} vehicles) of {b.game.sides[side]} "
                   f"in {b.hexn(int(h))}")
    both = set(b.pos[on & (b.side == 0)].tolist()) & set(b.pos[on & (b.side == 1)].tolist())
    for h in sorted(both):
        b.flag(BOTH, f"units of both sides in {b.hexn(int(h))}")


def _squadless(b: _Board) -> None:
    """Rulings T25: a side with no squad left loses at once (vehicles are not squads)."""
    for side in (0, 1):
        if b.squads_left(side) == 0 and side not in b.squadless:      # said once a game
            b.squadless.add(side)
            b.flag(NO_SQUAD, f"{b.game.sides[side]} has no squad left, and the game goes on")


def _over(b: _Board, winner: int, reason: int) -> None:
    """T25: an elimination win leaves the loser no squad; 001 Victory points: the side with
    more wins, equal points a draw."""
    if reason == R_ELIMINATION and winner >= 0 and b.squads_left(1 - winner) > 0:
        b.flag(RESULT, f"{b.game.sides[winner]} wins by elimination, but {b.game.sides[1 - winner]} has "
               f"{b.squads_left(1 - winner)} squads")
    if reason == R_VICTORY_POINTS:              # 001 Winning the game: a tie to the initiative's side
        best = b.initiative if b.vp[0] == b.vp[1] else int(b.vp[1] > b.vp[0])
        if winner != best:
            b.flag(RESULT, f"VP {b.vp[0]}-{b.vp[1]}, initiative {b.game.sides[b.initiative]}, "
                   f"but {b.game.sides[winner] if winner >= 0 else 'nobody'} wins")


PLACING = (ev.EV_PLACE, ev.EV_PLACE_IN, ev.EV_TRANSPORT, ev.EV_BACK, ev.EV_ADVANCE, ev.EV_DESTROYED, ev.EV_FIGURES,
           ev.EV_TRANSFER)


def referee(game, events: np.ndarray) -> list[Violation]:
    """The violations a Tide of Iron game's log shows (see the module docstring)."""
    b = _Board(game)
    for i, row in enumerate(events):
        code, rnd, k, a, x, c = (int(v) for v in row[:6])
        b.i, b.round = i, rnd
        if code == ev.EV_MOVE:
            _step(b, k, a, x, c)
        elif code in PLACING:
            _place(b, code, k, a, x, c)
        elif code == ev.EV_RETREAT:
            _retreat(b, k, a, x)
        elif code == ev.EV_ACTIVATE:
            _activate(b, k, a)
        elif code == ev.EV_OPFIRE_SET:
            b.token[k] = OPFIRE
        elif code == ev.EV_OPFIRE:
            _opfire(b, k)
            _fire(b, k, a, x)
        elif code == ev.EV_FIRE:
            _fire(b, k, a, x)
        elif code == ev.EV_ROUND:                       # 001 Status phase, 2: fatigue tokens off
            b.token[b.token == FATIGUED] = FRESH
            b.retreated[:] = False
            b.opfired[:] = False
        elif code == ev.EV_POINTS:
            b.vp = (a, x)
        elif code == ev.EV_INITIATIVE:
            b.initiative = a
        elif code == ev.EV_OVER:
            _stacking(b)
            _over(b, a, x)
    return b.out


def referee_run(name: str, players: tuple[str, str], games: int, seed: int, first: int = 0) -> RefereeRun:
    """Games ``first .. first + games - 1`` of scenario ``name`` with ``seed`` and
    ``players``, as the batch plays them, each log refereed."""
    from simulator.games.toi.game.game import LOG_CAP, Game
    from simulator.games.toi.game.state import G_LOGN
    return referee_games(Game(name), referee, G_LOGN, seed, players, games, first, log_cap=LOG_CAP)


def replay_command(run: RefereeRun, v: Violation) -> str:
    """The command that prints the game of violation ``v``."""
    return (f"lanchester toi replay {run.scenario} --seed {run.seed} --game {v.game} "
            f"--players {','.join(run.players)}")
