"""Replaying one game of a batch: every activation, roll and result, turn by turn.

:func:`replay_game` rebuilds game ``k`` of a run with seed ``S`` (same streams, same
players, same rules functions as :func:`simulator.games.assault.game.records.play_chunk`) with the
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
    KIND_NAMES,
    NO_FACING,
    PHASE_NAMES,
    REASON_NAMES,
    U_FACE,
    U_HEX,
    U_SIDE,
    U_ST,
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
    return st


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
    cx = _Names(st)
    rows = []
    for e in st.events():
        code, turn, a, b, c, d, x, y = (int(v) for v in e)
        for describe in (_course_text, _movement_text, _fire_text, _close_combat_text):
            text = describe(cx, code, a, b, c, d, x, y)
            if text is not _NOT_MINE:
                break
        else:
            text = None                 # an event the log does not describe
        if text is not None:
            rows.append({"turn": turn, "event": code, "text": text})
    return rows


class _Names:
    """How :func:`describe_events` names units and hexes."""

    def __init__(self, st: State):
        self.st, self.g = st, st.game
        self.own = self.g.unit_label    # after "german activates", "german places": the side is said
        self.hexn = st.hex_name
        self.n_atk = int(self.g.tables.p[P_N_ATK])

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
        return _fire_result(name, a, b, c, d, x, y)
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


def _fire_result(name, a: int, b: int, c: int, d: int, x: int, y: int) -> str:
    """What a fire did to its target ``a``: eliminated, or damage, morale, immobilised, the
    critical-hit roll."""
    if b:
        return f"    -> {name(a)} eliminated"
    bits = [f"{c} damage"]
    if d:
        bits.append(MORALE_NAMES[d])
    if x:
        bits.append("immobilised")
    if y:
        bits.append(f"critical-hit roll: {CRIT_SYMBOLS[y]}")
    return f"    -> {name(a)}: " + ", ".join(bits)


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
        return f"    -> {name(a)}: {c} damage, {CC_STATUS[b]}" + (f", {MORALE_NAMES[d]}" if d else "")
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
            bits = [f"{c} damage"] + ([MORALE_NAMES[d]] if d else []) + (["immobilised"] if x else [])
            res = ", ".join(bits)
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
    df = pd.DataFrame(describe_events(st), columns=["turn", "event", "text"])
    df.attrs.update({"scenario": st.game.name, "seed": st.seed, "game": st.game_index,
                     "winner": None if st.winner < 0 else st.game.sides[st.winner],
                     "truncated": truncated(st)})
    return df


def replay_json(st: State, frame: pd.DataFrame, seed: int, game_index: int, players: tuple[str, str]) -> dict:
    """The JSON answer of ``lanchester assault replay --format json``: the game, its
    events (``frame`` from :func:`events_frame`) and the final position."""
    g = st.game
    out = {"scenario": g.name, "seed": seed, "game": game_index, "edition": g.edition,
           "players": dict(zip(g.sides, players, strict=True)), "winner": frame.attrs["winner"], "turns": st.turn}
    if truncated(st):       # only then: the JSON of a finished game stays as it was
        out["truncated"] = True
        out["decisions"] = getattr(st, "decision_limit", None)
    return {**out, "events": frame.to_dict("records"), "final": final_position(st)}
