"""Replaying one game of a batch: every activation, roll and result, turn by turn.

:func:`replay_game` rebuilds game ``k`` of a run with seed ``S`` (same streams, same
players, same rules functions as :func:`simulator.engine.players.chunks.play_chunk`) with the
event log switched on; :func:`describe_events` turns the log into lines a designer can
read; :func:`final_position_png` draws where the units ended.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.engine.core.batch import MAX_DECISIONS, play_alone
from simulator.engine.core.hexgrid import vertex_names
from simulator.engine.players.interface import player_setup
from simulator.games.assault.game import events as ev
from simulator.games.assault.game.game import LOG_CAP, State
from simulator.games.assault.game.scenario_game import Game
from simulator.games.assault.game.state import (
    AUX_OBJ,
    G_LOGN,
    HX_SMOKE,
    KIND_NAMES,
    NO_FACING,
    PHASE_NAMES,
    REASON_NAMES,
    U_CC,
    U_DMG,
    U_FACE,
    U_HEX,
    U_IMMOB,
    U_MORALE,
    U_SIDE,
    U_ST,
    U_TYPE,
)
from simulator.games.assault.game.tables import P_N_ATK
from simulator.games.assault.rules.damage import MORALE_NAMES
from simulator.games.assault.rules.dice import format_pool

CC_STATUS = ("absent", "in the hex", "falls back", "withdraws", "eliminated", "stays out")
CRIT_SYMBOLS = ("none", "supp", "hit", "crit")


def replay_game(game: Game, seed: int, game_index: int, players: tuple[str, str] = ("greedy", "greedy"),
                params: np.ndarray | None = None, max_decisions: int = MAX_DECISIONS) -> State:
    """Play game ``game_index`` of a run with ``seed`` again, logging every event (with
    the batch's own compiled loop, so nothing more to compile). As in the batch, the
    game stops after ``max_decisions`` decisions: one not over then was cut short
    (:func:`truncated`)."""
    kinds, params = player_setup(players, params)
    arrays = play_alone(game, seed, game_index, kinds, params, log_cap=LOG_CAP, max_decisions=max_decisions)
    st = State(game, seed, game_index, _arrays=arrays)
    st.decision_limit = int(max_decisions)
    st.player_setup = (kinds, params)       # to walk the game again (decision_positions)
    return st


def initial_units(st: State) -> np.ndarray:
    """The units (``s.u``) of the replayed game before its first event: a new game of the
    same scenario, seed and index."""
    return State(st.game, st.seed, st.game_index, log=False).s.u.copy()


def truncated(st: State) -> bool:
    """Whether a replayed game was cut short at the decision limit (not over)."""
    return not st.is_terminal()


def cut_short_line(st: State) -> str:
    limit = getattr(st, "decision_limit", None)
    after = f" after {limit:,} decisions" if limit is not None else ""
    return (f"=== game cut short: not over{after} (the decision limit); recorded as truncated, "
            "no winner ===")


def _symbols(packed: int) -> str:
    c, h, s = ev.dice_of(int(packed))
    return f"{c} crit, {h} hit, {s} supp"


def _cc_symbols(packed: int) -> str:
    c, h, s = ev.symbols_of(int(packed))
    return f"{c} crit {h} hit {s} supp"


def describe_events(st: State) -> list[dict]:
    """The event log as rows ``{turn, event, text}``; every unit is named with its side
    (``Rifles '41 #1 (german)``) except right after the side's own name."""
    return [{"turn": int(e[1]), "event": int(e[0]), "text": text} for _, e, text in _described(st)
            if text is not None]


def _described(st: State):
    """Every event of the log with its index and its line (None: an event the log does
    not describe)."""
    cx = _Names(st)
    for i, e in enumerate(st.events()):
        code, turn, a, b, c, d, x, y = (int(v) for v in e)
        for describe in (_course_text, _movement_text, _fire_text, _close_combat_text):
            text = describe(cx, code, a, b, c, d, x, y)
            if text is not _NOT_MINE:
                break
        else:
            text = None
        yield i, e, text


class _Names:
    """How :func:`describe_events` names units and hexes."""

    def __init__(self, st: State):
        self.st, self.g = st, st.game
        self.own = self.g.unit_label    # after "german activates", "german places": the side is said
        self.hexn = st.hex_name
        self.n_atk = int(self.g.tables.p[P_N_ATK])
        u0 = initial_units(st)
        # each unit's damage, morale and immobilised so far: a result line says what the
        # shot did and, apart, the running total
        self.worn = {u: (int(u0[u, U_DMG]), int(u0[u, U_MORALE]), int(u0[u, U_IMMOB])) for u in range(len(u0))}

    def effect(self, u: int, dmg: int, morale: int, immob: int) -> str:
        """What a result did to ``u`` (the damage points it added, a new morale marker,
        immobilised) and, in brackets, where the unit stands now."""
        d0, m0, i0 = self.worn[u]
        self.worn[u] = (dmg, morale, immob)
        bits = [f"+{dmg - d0} damage"] if dmg > d0 else []
        bits += [MORALE_NAMES[morale]] if morale and morale != m0 else []
        bits += ["immobilised"] if immob and not i0 else []
        now = f"{dmg} damage of strength {self.g.types[int(self.st.s.u[u, U_TYPE])].card.strength}"
        now += f", {MORALE_NAMES[morale]}" if morale else ""
        return (", ".join(bits) or "no effect") + f" (now {now})"

    def name(self, u: int) -> str:
        """A unit with its side: both sides may field a card of the same name."""
        return f"{self.g.unit_label(u)} ({self.g.sides[int(self.st.s.u[u, U_SIDE])]})" if u >= 0 else "-"


_NOT_MINE = object()   # what a describing function answers for an event of another kind


def _course_text(cx: _Names, code: int, a: int, b: int, c: int, d: int, x: int, y: int):
    """The game's course: turns, phases, set-up, command points, activations, the end."""
    g, st, name, own, hexn = cx.g, cx.st, cx.name, cx.own, cx.hexn
    if code == ev.EV_TURN:
        return f"=== turn {a} ==="
    if code == ev.EV_INITIATIVE:
        return f"initiative (6.1): {g.sides[a]} starts"
    if code == ev.EV_PHASE:
        return f"-- {PHASE_NAMES[a]} phase"
    if code == ev.EV_PLACE:
        return f"{g.sides[st.s.u[a, U_SIDE]]} places {own(a)} in {hexn(b)}" + (f" facing {c}" if c != NO_FACING else "")
    if code == ev.EV_FORMATION:
        return f"{g.sides[a]} keeps formation card {g.formations[b]} (5.6)"
    if code == ev.EV_CLASS_DRAW:
        return f"{g.sides[a]} draws {g.formations[b]} for a reinforcement (5.7)"
    if code == ev.EV_CP:
        return f"{g.sides[a]} puts a command point on {g.types[b].label} (6.2.2)"
    if code == ev.EV_ACTIVATE:
        kind = KIND_NAMES[c]
        target = f" at {name(d)}" if kind in ("fire", "turret fire", "fire and move") else ""
        target = f" against {name(d)}" if kind == "renew close combat" else target
        target = f" at {name(d)} (7.1)" if kind == "indirect fire" else target
        target = f" into {hexn(d)} (7.5)" if kind == "smoke" else target
        return f"{g.sides[a]} activates {own(b)}: {kind}{target}"
    if code == ev.EV_PASS:
        return f"{g.sides[a]} passes (6.3, 8.1)"
    if code == ev.EV_OBJECTIVE:
        return f"objective {g.scenario.objective_list[a].hex} taken by {g.sides[b]} (9.7)"
    if code == ev.EV_REINFORCE:
        return f"{name(a)} arrives as a reinforcement (6.7)"
    if code == ev.EV_VICTORY:
        return (f"=== game over: {'draw' if a < 0 else g.sides[a] + ' wins'} "
                f"({REASON_NAMES[b]}) ===")
    return _NOT_MINE


def _movement_text(cx: _Names, code: int, a: int, b: int, c: int, d: int, x: int, y: int):
    """Moving, facing, overruns, falling back, loading and disembarking, leaving the game."""
    g, st, name, own, hexn = cx.g, cx.st, cx.name, cx.own, cx.hexn
    if code == ev.EV_OVERRUN:
        return (f"  {name(a)} overruns {name(b)} in {hexn(c)} (9.10.3)" if d
                else f"  {name(a)} is stopped by the last shot of {name(b)} in {hexn(c)} (9.10.3)")
    if code == ev.EV_ART_FACE:
        faces = vertex_names(g.cm.orientation)
        return f"{g.sides[st.s.u[a, U_SIDE]]} turns {own(a)} to face {faces[b] if 0 <= b < len(faces) else b} (7.6)"
    if code == ev.EV_MOVE:
        return f"  {name(a)} moves {hexn(b)} -> {hexn(c)} ({d} MP left)"
    if code == ev.EV_STOP:
        return f"  {name(a)} stops in {hexn(b)}"
    if code == ev.EV_BACKTRACK:
        return f"  {name(a)} may not stop on a friend in {hexn(b)}: back to {hexn(c)} (9.0)"
    if code == ev.EV_FALLBACK:
        return f"  {name(a)} falls back from {hexn(b)} (13.3)"
    if code == ev.EV_FALLBACK_BLOCKED:
        return f"  {name(a)} cannot fall back further: one damage point (13.3)"
    if code == ev.EV_ENTER_SUPPRESSED:
        return f"  {name(a)} enters the hex of {name(b)}: " + ("eliminated (12.0)" if c == 4 else "it falls back (12.0)")
    if code == ev.EV_FACE:
        faces = vertex_names(g.cm.orientation)
        return f"  {name(a)} turns to face {faces[b] if 0 <= b < len(faces) else b}" + (f" ({c} MP)" if c else "")
    if code == ev.EV_DISEMBARK:
        return (f"  {name(a)} disembarks into the close-combat hex {hexn(c)} (12.10)" if d == 2
                else f"  {name(a)} makes an emergency disembark {hexn(b)} -> {hexn(c)} (10.10.3)" if d
                else f"  {name(a)} dismounts {hexn(b)} -> {hexn(c)} (9.11.3)")
    if code == ev.EV_LOAD:
        return f"  {name(a)} loads onto {name(b)} (9.11.2)"
    if code == ev.EV_ELIM:
        return f"    {name(a)} is removed from the game"
    return _NOT_MINE


def _fire_text(cx: _Names, code: int, a: int, b: int, c: int, d: int, x: int, y: int):
    """Fire: spotting, indirect fire and smoke, the rolls and their results."""
    g, name, hexn, n_atk = cx.g, cx.name, cx.hexn, cx.n_atk
    if code == ev.EV_SPOTTER:
        return f"  {name(a)} spots for {name(b)} (7.2)"
    if code == ev.EV_SMOKE:
        return f"  smoke in {hexn(b)}: {c} marker{'s' if c != 1 else ''} rolled, {d} there (7.5)"
    if code == ev.EV_INDIRECT:
        return None
    if code == ev.EV_REACT:
        return f"  reaction fire (8.2): {name(a)} fires at {name(b)}"
    if code == ev.EV_SPOT:
        return f"    spotting (10.5): rolled {c}, needs {d}+ -> {'spotted' if c >= d else 'not spotted'}"
    if code == ev.EV_NOFIRE:
        return "    a vehicle not spotted cannot be fired at (10.5)"
    if code == ev.EV_ROLL:
        atk = g.fire_pools[c] if 0 <= c < len(g.fire_pools) else None
        dfn = g.defence_pools[d - n_atk] if 0 <= d - n_atk < len(g.defence_pools) else None
        apool = format_pool(atk[0]) + (f" (doubles {atk[1]})" if atk and atk[1] != "all" else "") if atk else "?"
        dpool = format_pool(dfn) if dfn is not None else "?"
        return f"    {name(a)} rolls {apool}: {_symbols(x)}; {name(b)} rolls {dpool}: {_symbols(y)}"
    if code == ev.EV_RESULT:
        return _fire_result(cx, a, b, c, d, x, y)
    if code == ev.EV_PASSENGER_HIT:
        return (f"    {name(a)}, carried by {name(b)}: " + ("eliminated (already at half strength)" if c
                else "flipped to half strength") + " (10.10.2)")
    if code == ev.EV_DISEMBARK_LOST:
        return f"    {name(a)} has no empty hex next to {hexn(b)} to disembark into: eliminated (10.10.3)"
    if code == ev.EV_INTO_CC:
        return (f"    fire into the close combat in {hexn(d)} (10.11): at {name(b)}, in it with "
                + (f"{name(c)} (its success dice hit that vehicle too)" if x == 2
                   else f"{name(c)} (weakest defence die lost)"))
    if code == ev.EV_FRIENDLY_HIT:
        dfn = g.defence_pools[d - n_atk] if 0 <= d - n_atk < len(g.defence_pools) else None
        return (f"    {c} success {'die' if c == 1 else 'dice'} of {name(a)} rolled again at {name(b)} "
                f"(10.11): {_symbols(x)}; {name(b)} rolls {format_pool(dfn) if dfn is not None else '?'}: "
                f"{_symbols(y)}")
    return _NOT_MINE


def _fire_result(cx: _Names, a: int, b: int, c: int, d: int, x: int, y: int) -> str:
    """What a fire did to its target ``a`` (eliminated, or the damage points it added, a
    new morale marker, immobilised), the critical-hit roll, then the target's running
    total: the event holds the totals after the shot (``c`` damage, ``d`` morale)."""
    if b:
        return f"    -> {cx.name(a)} eliminated"
    crit = f"; critical-hit roll: {CRIT_SYMBOLS[y]}" if y else ""
    return f"    -> {cx.name(a)}: {cx.effect(a, c, d, x)}{crit}"


def _close_combat_text(cx: _Names, code: int, a: int, b: int, c: int, d: int, x: int, y: int):
    """Close combat: who fights whom, the rolls, the results, its end, leaving the hex,
    turning to face the attacker, terrain damage."""
    g, name, hexn = cx.g, cx.name, cx.hexn
    if code == ev.EV_CC:
        kinds = ("initiated", "reinforced", "renewed")
        return f"  close combat in {hexn(c)}: {name(a)} against {name(b)} ({kinds[d] if d < 3 else d})"
    if code == ev.EV_CC_ROLL:
        return f"    {name(a)} scores {_cc_symbols(c)}; {name(b)} scores {_cc_symbols(d)}"
    if code == ev.EV_CC_RESULT:
        if b == 4:
            return f"    -> {name(a)} eliminated"
        return f"    -> {name(a)}: {CC_STATUS[b]}, {cx.effect(a, c, d, x)}"
    if code == ev.EV_CC_END:
        return f"  close combat in {hexn(a)} over" + (f": {g.sides[b]} holds the hex" if b >= 0 else "")
    if code == ev.EV_CC_WITHDRAW:
        return f"  {name(a)} leaves the close combat in {hexn(b)}"
    if code == ev.EV_FACE_ATTACKER:
        faces = vertex_names(g.cm.orientation)
        return (f"  {name(a)} turns to face its attacker, who came from {hexn(c)}: now facing "
                f"{faces[b] if 0 <= b < len(faces) else b} (12.7.3, 12.8.2)")
    if code == ev.EV_OVERSTACK:
        return (f"  {name(a)} moves out of the over-stacked hex {hexn(b)} -> {hexn(c)}, no reaction fire, "
                + ("delayed action (harsh terrain, 9.5)" if d else "fast action") + " (12.6)")
    if code == ev.EV_MUST_LEAVE:
        return (f"  {name(a)} must leave {hexn(b)}: suppressed by the attack on its wheels/tracks (12.9, "
                "revised 12.5); not a fallback, it takes a fallback's path away from the enemy (reading S11)")
    if code == ev.EV_TERRAIN_DAMAGE:
        if b:
            res = "eliminated"
        else:
            res = cx.effect(a, c, d, x)
        return f"    terrain damage (9.10.1): {_cc_symbols(y)} uncancelled -> {name(a)}: {res}"
    if code == ev.EV_TRACKS:
        return (f"    {name(a)} attacks " + ("the wheels/tracks of " if c else "") + f"{name(b)} (12.9)"
                if tracks_side(g, a, b) else f"    {name(b)} attacks " + ("the wheels/tracks of " if c else "")
                + f"{name(a)} (12.9)")
    return _NOT_MINE


def tracks_side(g: Game, x: int, y: int) -> bool:
    """Whether ``x`` is the infantry of a wheels/tracks question between ``x`` and ``y``."""
    return g.scenario.units[g.slots[x].unit].is_infantry


def replay_text(st: State, players: tuple[str, str]) -> str:
    g = st.game
    lines = [f"{g.scenario.name} ({g.name}), close combat {g.edition}; game {st.game_index} of seed {st.seed}",
             f"players: {g.sides[0]} {players[0]}, {g.sides[1]} {players[1]}", ""]
    lines += [r["text"] for r in describe_events(st)]
    if truncated(st):
        lines.append(cut_short_line(st))
    lines += ["", "final position:", str(st)]
    return "\n".join(lines) + "\n"


def final_position_png(st: State, dpi: int = 110, footer: str | None = None) -> bytes:
    """The final position: the scenario map (:func:`simulator.games.assault.game.mapdraw.draw_map`)
    with every unit still on it, objectives in their holder's colour, smoke markers."""
    from simulator.engine.core.mapdraw import Piece
    from simulator.games.assault.game.mapdraw import draw_map
    from simulator.games.assault.game.state import HX_SMOKE

    g = st.game
    cm = g.cm
    sc = g.scenario
    faction = [sc.sides[side].faction for side in g.sides]
    pieces = []
    for u in range(g.n_units):
        if int(st.s.u[u, U_ST]) != 2:     # on the map
            continue
        infantry = sc.units[g.slots[u].unit].is_infantry   # vehicles and guns face a vertex
        pieces.append(Piece(cm.names[int(st.s.u[u, U_HEX])], g.unit_label(u).replace("'", ""),
                            faction[int(st.s.u[u, U_SIDE])], None if infantry else int(st.s.u[u, U_FACE])))
    holders = {o.hex: faction[int(st.s.aux[AUX_OBJ, k])]
               for k, o in enumerate(sc.objective_list) if int(st.s.aux[AUX_OBJ, k]) >= 0}
    smoke = {cm.names[h]: int(st.s.hx[h, HX_SMOKE]) for h in range(cm.n) if st.s.hx[h, HX_SMOKE] > 0}
    w = st.winner
    result = "cut short, no winner" if truncated(st) else "draw" if w < 0 else g.sides[w] + " wins"
    return draw_map(sc, pieces=pieces, objective_holders=holders, smoke=smoke or None, dpi=dpi,
                    title=f"{sc.name}: final position of game {st.game_index} (seed {st.seed}) - {result}",
                    subtitle=f"turn {st.turn}", footer=footer)


def final_position(st: State) -> list[dict]:
    """The final position, one entry per unit of the scenario: side, unit (its label),
    card, hex (None when not on the map), strength left, status (on map, eliminated, ...),
    morale, action marker, close combat, immobilised, facing, objectives aside."""
    from simulator.games.assault.game.state import (
        ACT_NAMES,
        CC_NONE,
        ELIMINATED,
        ONMAP,
        STATUS_NAMES,
        U_ACT,
        U_CC,
        U_DMG,
        U_FACE,
        U_IMMOB,
        U_MORALE,
        U_SIDE,
        U_TYPE,
    )

    g = st.game
    out = []
    for u in range(g.n_units):
        on = int(st.s.u[u, U_ST]) == ONMAP
        card = g.types[int(st.s.u[u, U_TYPE])].card
        out.append({"side": g.sides[int(st.s.u[u, U_SIDE])], "unit": g.unit_label(u), "card": g.slots[u].unit,
                    "hex": st.hex_name(int(st.s.u[u, U_HEX])) if on else None,
                    "strength": 0 if int(st.s.u[u, U_ST]) == ELIMINATED else max(card.strength - int(st.s.u[u, U_DMG]), 0),
                    "status": STATUS_NAMES[int(st.s.u[u, U_ST])],
                    "morale": ("steady", "suppressed", "fallback")[int(st.s.u[u, U_MORALE])],
                    "action": ACT_NAMES[int(st.s.u[u, U_ACT])],
                    "in_close_combat": on and int(st.s.u[u, U_CC]) != CC_NONE,
                    "immobilised": bool(st.s.u[u, U_IMMOB]) if card.is_vehicle else False,
                    "facing": None if (card.is_infantry or not on) else int(st.s.u[u, U_FACE])})
    return out


def events_frame(st: State) -> pd.DataFrame:
    """The game's events, one row each (turn, event, text); the game itself is in
    :func:`replay_json`."""
    return pd.DataFrame(describe_events(st), columns=["turn", "event", "text"])


def replay_json(st: State, frame: pd.DataFrame, seed: int, game_index: int, players: tuple[str, str]) -> dict:
    """The JSON answer of ``lanchester assault replay --format json``: the game, its
    events (``frame`` from :func:`events_frame`) and the final position."""
    g = st.game
    out = {"scenario": g.name, "seed": seed, "game": game_index, "edition": g.edition,
           "players": dict(zip(g.sides, players, strict=True)),
           "winner": None if st.winner < 0 else g.sides[st.winner], "turns": st.turn}
    if truncated(st):       # only then: the JSON of a finished game stays as it was
        out["truncated"] = True
        out["decisions"] = getattr(st, "decision_limit", None)
    return {**out, "events": frame.to_dict("records"), "final": final_position(st)}


# --- the replay viewer's frames ------------------------------------------------------------

# a unit in a frame: [hex (-1 off the map), status (U_ST), damage, morale, close combat
# (U_CC), immobilised, facing]
FRAME_FIELDS = (U_HEX, U_ST, U_DMG, U_MORALE, U_CC, U_IMMOB, U_FACE)
FRAME_NAMES = ("hex", "status", "damage", "morale", "cc", "immobilised", "facing")
_MOVES = (ev.EV_MOVE, ev.EV_BACKTRACK, ev.EV_DISEMBARK)


def viewer_data(st: State, exact: bool = True) -> dict:
    """What the replay viewer (:mod:`reports.replay_viewer`) steps through: one row per
    described event (``describe_events``) with the position after it.

    The position is rebuilt from the event log: a move, a placement, a fire or
    close-combat result, an elimination, a facing, an objective taken set what they log
    (the log holds the new values, not changes). What the rules change without an event
    (6.5: markers removed in the organisation phase, smoke fading; 12.6: a unit moved out
    of an over-stacked hex after a close combat) is taken from the game itself: with
    ``exact`` the game is walked again decision by decision (:func:`decision_positions`)
    and after each decision's last event the rebuilt position is replaced by the real
    one; ``drift`` counts the units whose hex, status or damage the events alone had
    put wrong at those points."""
    g = st.game
    u = initial_units(st)
    objectives = [-1] * len(g.scenario.objective_list)
    smoke = np.zeros(g.cm.n, dtype=np.int64)
    snaps = decision_positions(st) if exact else {}
    drift = 0
    rows, frames = [], []
    paths: dict[int, list[int]] = {}
    last_shot: dict[int, int] = {}       # target -> the row of the roll at it
    for i, e, text in _described(st):
        code, _, a, b, c, d, x, _ = (int(v) for v in e)
        marks = _apply_event(u, objectives, smoke, paths, code, a, b, c, d, x)
        if i + 1 in snaps:               # the real position after this event
            su, sobj, ssmoke = snaps[i + 1]
            drift += int(np.any(su[:, [U_HEX, U_ST, U_DMG]] != u[:, [U_HEX, U_ST, U_DMG]], axis=1).sum())
            u[:] = su
            objectives[:] = sobj
            smoke[:] = ssmoke
        if text is None:
            continue
        if code in (ev.EV_ROLL, ev.EV_REACT, ev.EV_INTO_CC, ev.EV_FRIENDLY_HIT):
            marks["fire"] = [int(u[a, U_HEX]), int(u[b, U_HEX]), ""]      # firer, target
            last_shot[b] = len(rows)
        if code in (ev.EV_RESULT, ev.EV_PASSENGER_HIT) and a in last_shot:
            row = rows[last_shot[a]]
            result = text.split(": ", 1)[-1].split(" (now")[0] if not b else "eliminated"   # the effect alone
            row["marks"]["fire"][2] = result
            marks["fire"] = [row["marks"]["fire"][0], row["marks"]["fire"][1], result]
        rows.append({"event": i, "turn": int(e[1]), "code": ev_name(code), "text": text.strip(), "marks": marks})
        frames.append({"units": [[int(u[k, f]) for f in FRAME_FIELDS] for k in range(len(u))],
                       "objectives": list(objectives),
                       "smoke": {int(h): int(smoke[h]) for h in np.flatnonzero(smoke)}})
    return {"rows": rows, "frames": frames, "drift": drift, "synced": sorted(snaps)}


_EV_NAMES = {int(v): k[3:].lower() for k, v in vars(ev).items()
             if k.startswith("EV_") and k != "EV_FIELDS" and isinstance(v, (int, np.integer))}


def ev_name(code: int) -> str:
    """An event code's name without ``EV_``, lower case (``move``, ``result``)."""
    return _EV_NAMES.get(int(code), str(code))


def _apply_event(u: np.ndarray, objectives: list, smoke: np.ndarray, paths: dict, code: int,
                 a: int, b: int, c: int, d: int, x: int) -> dict:
    """Set what event ``code`` logs in the rebuilt position; return its marks for the
    viewer (``trail``: the hexes of the moving unit's move so far, ``cc``: a close
    combat's hex, ``units``: the units it is about)."""
    marks: dict = {"units": [v for v in (a, b) if v >= 0] if code in _UNIT_PAIRS else [a] if code in _UNIT_ONE else []}
    if code == ev.EV_OBJECTIVE:
        objectives[a] = b
    elif code == ev.EV_SMOKE:
        smoke[b] = d
    elif code == ev.EV_ACTIVATE:
        paths.pop(b, None)
        marks["units"] = [b]
    elif not _apply_move(u, paths, marks, code, a, b, c):
        _apply_harm(u, marks, code, a, b, c, d, x)
    return marks


def _apply_move(u: np.ndarray, paths: dict, marks: dict, code: int, a: int, b: int, c: int) -> bool:
    """Placing, moving, falling back, loading, facing; False for another event."""
    from simulator.games.assault.game.state import CARRIED, ONMAP
    if code == ev.EV_TURN:
        paths.clear()
    elif code == ev.EV_PLACE:
        u[a, U_HEX], u[a, U_ST] = b, ONMAP
        if c != NO_FACING:
            u[a, U_FACE] = c
        paths.pop(a, None)
    elif code in _MOVES:
        path = paths.setdefault(a, [b])
        if path[-1] != b:
            path.append(b)
        path.append(c)
        u[a, U_HEX], u[a, U_ST] = c, ONMAP
        marks["trail"] = list(path)
    elif code == ev.EV_FALLBACK:
        paths[a] = [b]
    elif code == ev.EV_LOAD:
        u[a, U_ST] = CARRIED
    elif code in (ev.EV_FACE, ev.EV_ART_FACE):
        u[a, U_FACE] = b
    else:
        return False
    return True


def _apply_harm(u: np.ndarray, marks: dict, code: int, a: int, b: int, c: int, d: int, x: int) -> None:
    """Fire and close-combat results, eliminations, close combats begun and ended."""
    from simulator.games.assault.game.state import CC_ACTIVE, CC_NONE, ELIMINATED, ONMAP
    if code in (ev.EV_RESULT, ev.EV_TERRAIN_DAMAGE, ev.EV_CC_RESULT):
        if b == (4 if code == ev.EV_CC_RESULT else 1):      # eliminated
            u[a, U_ST], u[a, U_HEX] = ELIMINATED, -1
        else:
            u[a, U_DMG], u[a, U_MORALE], u[a, U_IMMOB] = c, d, x
    elif code == ev.EV_ELIM:
        u[a, U_ST], u[a, U_HEX], u[a, U_CC] = ELIMINATED, -1, CC_NONE
    elif code == ev.EV_CC:
        u[a, U_HEX] = c
        u[a, U_CC] = u[b, U_CC] = CC_ACTIVE
        marks["cc"] = c
    elif code == ev.EV_CC_END:
        u[(u[:, U_HEX] == a) & (u[:, U_ST] == ONMAP), U_CC] = CC_NONE
        marks["cc"] = a
    elif code == ev.EV_CC_WITHDRAW:
        u[a, U_CC] = CC_NONE
        marks["cc"] = b
    if code in (ev.EV_CC_ROLL, ev.EV_CC_RESULT, ev.EV_TRACKS) and u[a, U_HEX] >= 0:
        marks["cc"] = int(u[a, U_HEX])


_UNIT_PAIRS = (ev.EV_ROLL, ev.EV_REACT, ev.EV_CC, ev.EV_CC_ROLL, ev.EV_SPOT, ev.EV_OVERRUN, ev.EV_LOAD,
               ev.EV_ENTER_SUPPRESSED, ev.EV_TRACKS, ev.EV_SPOTTER, ev.EV_INDIRECT, ev.EV_FRIENDLY_HIT)
_UNIT_ONE = (ev.EV_MOVE, ev.EV_STOP, ev.EV_BACKTRACK, ev.EV_FALLBACK, ev.EV_FALLBACK_BLOCKED, ev.EV_RESULT,
             ev.EV_CC_RESULT, ev.EV_ELIM, ev.EV_FACE, ev.EV_ART_FACE, ev.EV_REINFORCE, ev.EV_PLACE,
             ev.EV_DISEMBARK, ev.EV_PASSENGER_HIT, ev.EV_TERRAIN_DAMAGE, ev.EV_CC_WITHDRAW)


def decision_positions(st: State) -> dict[int, tuple]:
    """The real position after every decision of the replayed game: the game walked
    again one decision at a time with the functions the batch's loop calls (the
    players' :func:`~simulator.engine.players.interface.chooser` entry, the rules'
    ``apply_action``, the same streams: ``State(game, seed, k)``), checked to end in
    exactly the batch's final state (a difference raises). Keys: the number of events
    logged by then; values: units, objectives' holders, smoke per hex."""
    from simulator.engine.players.interface import chooser, make_work
    from simulator.games.assault.game.state import G_DECIDER, G_OVER

    setup = getattr(st, "player_setup", None)
    if setup is None:
        return {}
    kinds, params = setup
    g, t = st.game, st.game.tables
    walk = State(g, st.seed, st.game_index, log=True)
    s, w, choose = walk.s, make_work(g), chooser(kinds)
    n_obj = len(g.scenario.objective_list)
    out, n = {}, 0
    limit = getattr(st, "decision_limit", MAX_DECISIONS)
    while not s.g[G_OVER] and n < limit:
        side = int(s.g[G_DECIDER])
        a = choose(s, t, kinds[side], side, w, params)
        walk.make_log_room()
        walk.RULES.apply_action(s, t, np.int64(a))
        n += 1
        out[int(s.g[G_LOGN])] = (s.u.copy(), [int(v) for v in s.aux[AUX_OBJ, :n_obj]], s.hx[:, HX_SMOKE].copy())
    logn = int(st.s.g[G_LOGN])
    same = all(np.array_equal(x, y) for x, y in zip((s.u, s.g, s.aux, s.hx), (st.s.u, st.s.g, st.s.aux, st.s.hx),
                                                    strict=True))
    if not same or not np.array_equal(s.log[:logn], st.s.log[:logn]):
        raise RuntimeError("assault replay: the game walked decision by decision left the batch's game")
    return out
