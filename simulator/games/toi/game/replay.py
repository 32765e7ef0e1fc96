"""Replaying one Tide of Iron game of a batch, decision by decision (``lanchester toi replay``).

:func:`replay_game` plays game ``k`` of the run with seed ``S`` again, as Assault's
:func:`simulator.games.assault.game.replay.replay_game` does: the batch's own compiled loop
(:func:`simulator.engine.core.batch.play_alone`, same streams, same players, same
decision limit) with the event log on gives the game's final state. To tell which
decision caused which events, it then walks the same game one decision at a time with
the same compiled functions the loop calls (the players'
:func:`~simulator.engine.players.interface.chooser`'s entry, the rules'
:func:`~simulator.games.toi.game.turn.apply_action`) and checks that the walk ends in
exactly the batch's final state (every array, the log included); a difference raises.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simulator.engine.core.batch import MAX_DECISIONS, play_alone
from simulator.engine.core.seeding import seed_run_game
from simulator.engine.players.interface import chooser, make_work
from simulator.games.toi.game import events as ev
from simulator.games.toi.game import state as S
from simulator.games.toi.game import tables as T
from simulator.games.toi.game.events import EVENT_NAMES
from simulator.games.toi.game.game import LOG_CAP, Game, State
from simulator.games.toi.game.turn import apply_action, new_game


@dataclass
class Replay:
    """A replayed game: its final :class:`~simulator.games.toi.game.game.State` and its
    decisions, each ``{decision, turn, side, action, text, first_event, n_events}``
    (``turn`` the round; events ``first_event ..`` of the log followed it). Events
    before the first decision (the set-up's automatic steps) belong to no decision."""

    game: Game
    seed: int
    game_index: int
    players: tuple[str, str]
    state: State
    decisions: list[dict] = field(default_factory=list)
    decision_limit: int = MAX_DECISIONS
    # the units and the objectives' holders before the first decision, then after each
    # (``positions[d + 1]`` after decision ``d``): the replay viewer's exact points
    positions: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)

    @property
    def truncated(self) -> bool:
        """Cut short at the decision limit (not over): recorded as truncated, no winner."""
        return not self.state.is_terminal()


def _wrap(game: Game, s) -> State:
    st = object.__new__(State)
    st.game, st.s = game, s
    return st


def replay_game(game: Game, seed: int, game_index: int, players: tuple[str, str] = ("greedy", "greedy"),
                max_decisions: int = MAX_DECISIONS) -> Replay:
    """Game ``game_index`` of the batch with ``seed`` and ``players`` (see the module
    docstring)."""
    kinds, params = game.players.player_setup(players)
    final = play_alone(game, seed, game_index, kinds, params, log_cap=LOG_CAP, max_decisions=max_decisions)
    t = game.tables
    s = game.new_state(log_cap=final.log.shape[0])
    seed_run_game(seed, game_index, s.rng)                # the batch's streams (chunks.play_chunk)
    s.g[S.G_LOG_ON] = 1
    new_game(s, t)
    s.g[S.G_LOG_ON] = 1
    w = make_work(game)
    choose = chooser(kinds)
    st = _wrap(game, s)
    out: list[dict] = []
    positions = [(s.u.copy(), s.aux[S.AUX_OBJ].copy())]
    d = 0
    while not s.g[S.G_OVER] and d < max_decisions:       # the batch's loop (players.interface.play), a step at a time
        side = int(s.g[S.G_DECIDER])
        a = int(choose(s, t, kinds[side], side, w, params))
        text = st.action_to_string(a)
        turn, n0 = int(s.g[S.G_ROUND]), int(s.g[S.G_LOGN])
        apply_action(s, t, np.int64(a))
        out.append({"decision": d, "turn": turn, "side": game.sides[side], "action": a, "text": text,
                    "first_event": n0, "n_events": int(s.g[S.G_LOGN]) - n0})
        positions.append((s.u.copy(), s.aux[S.AUX_OBJ].copy()))
        d += 1
    for name, x, y in zip(s._fields, s, final, strict=True):
        if not np.array_equal(x, y):
            raise RuntimeError(f"toi replay: the step-by-step game left the batch's game ({name} differs)")
    return Replay(game, seed, game_index, tuple(players), st, out, int(max_decisions), positions)


# --- the events in words -----------------------------------------------------------------

def describe_event(game: Game, row) -> str:
    """One log row ``(code, round, unit, a, b, c, d, e)`` in words (the fields of
    :mod:`simulator.games.toi.game.events`)."""
    code, _, u, a, b, c, d, e = (int(x) for x in row)
    sc, sides = game.scenario, game.sides

    def unit(k: int) -> str:
        return sc.squad_label(k) if k >= 0 else "-"

    def hexn(h: int) -> str:
        return sc.hex_name(h)

    def side(k: int) -> str:
        return sides[k] if 0 <= k < 2 else "nobody"

    def mode(m: int) -> str:
        # an area attack logs its mode + 2 (simulator/games/toi/game/area.py)
        what = "suppressive" if m % 2 == S.MODE_SUPPRESSIVE else "normal"
        return f"{what} area attack" if m >= 2 else what

    texts = {
        ev.EV_PLACE: lambda: f"{unit(u)} placed in {hexn(a)}",
        ev.EV_ACTIVATE: lambda: f"{unit(u)} activated: {S.KIND_NAMES[a] if 0 <= a < len(S.KIND_NAMES) else a}",
        ev.EV_MOVE: lambda: f"{unit(u)} moves {hexn(a)} -> {hexn(b)} ({c} MP left)",
        ev.EV_FIRE: lambda: f"{unit(u)} attacks {unit(a)} ({mode(b)}): {c} attack dice, {d} cover dice, "
                            f"{e} hit{'s' if e != 1 else ''}",
        ev.EV_OPFIRE: lambda: f"{unit(u)} op fires at {unit(a)} ({mode(b)}): {c} attack dice, {d} cover dice, "
                              f"{e} hit{'s' if e != 1 else ''}",
        ev.EV_FIGURES: lambda: f"{unit(u)} loses {a} figure{'s' if a != 1 else ''}, {b} left",
        ev.EV_CONDITION: lambda: f"{unit(u)} is {S.COND_NAMES[a] if 0 <= a < len(S.COND_NAMES) else a}",
        ev.EV_DESTROYED: lambda: f"{unit(u)} destroyed",
        ev.EV_ASSAULT: lambda: f"{unit(u)} assaults {hexn(a)}: {b} attack dice, {c} cover dice against "
                               f"{d} defence dice; hits {e // 100} by the attackers, {e % 100} by the defenders",
        ev.EV_RETREAT: lambda: f"{unit(u)} retreats {hexn(a)} -> {hexn(b)}",
        ev.EV_ADVANCE: lambda: f"{unit(u)} advances into {hexn(a)}",
        ev.EV_CONTROL: lambda: f"objective {sc.spec.objectives[a].hex if 0 <= a < len(sc.spec.objectives) else a}"
                               f" controlled by {side(b)}",
        ev.EV_POINTS: lambda: f"command phase: VP {sides[0]} {a}, {sides[1]} {b}; "
                              f"initiative pools {c} and {d}",
        ev.EV_INITIATIVE: lambda: f"initiative: {side(a)}",
        ev.EV_ROUND: lambda: f"=== round {a} ===",
        ev.EV_PASS: lambda: f"{side(a)} ends its action phase",
        ev.EV_OPFIRE_SET: lambda: f"{unit(u)} placed in op fire mode",
        ev.EV_BACK: lambda: f"{unit(u)} goes back to {hexn(a)} (stacking)",
        ev.EV_OVER: lambda: f"=== game over: {'draw' if a < 0 else side(a) + ' wins'} "
                            f"({S.REASON_NAMES[b] if 0 <= b < len(S.REASON_NAMES) else b}) ===",
        ev.EV_FORT: lambda: f"{unit(u)} {'enters' if a else 'leaves'} the fortification",
        ev.EV_MINES: lambda: f"{unit(u)} enters the minefield in {hexn(a)}: {b} hit{'s' if b != 1 else ''}",
        ev.EV_DAMAGE: lambda: f"{unit(u)}: {('no', 'light', 'heavy')[a] if 0 <= a < 3 else a} damage",
        ev.EV_TRANSPORT: lambda: f"{unit(u)} {'boards' if b else 'leaves'} {unit(a)}",
        ev.EV_OVERRUN: lambda: f"{unit(u)} overruns {hexn(b)}: {unit(a)} pinned",
        ev.EV_SMOKE_GONE: lambda: f"smoke in {hexn(a)} removed",
        ev.EV_WIRE_GONE: lambda: f"razor wire in {hexn(a)} removed",
        ev.EV_REVEALED: lambda: f"{unit(u)} revealed: "
                                f"{ev.REVEAL_NAMES[a] if 0 <= a < len(ev.REVEAL_NAMES) else a}",
        ev.EV_HEAL: lambda: f"{unit(u)} heals {unit(a)}: rolls {b}, {'a figure back' if c else 'nothing'}",
        ev.EV_DUG: lambda: f"{unit(u)} digs an entrenchment in {hexn(a)}{' and enters it' if b else ''} "
                           f"({c} fortification marker{'s' if c != 1 else ''} there)",
        ev.EV_PLACE_IN: lambda: f"{unit(u)} set up in {unit(a)}",
        ev.EV_TRANSFER: lambda: f"{unit(u)} gives a {sc.figure_names[b] if 0 <= b < len(sc.figure_names) else b} "
                                f"figure to {unit(a)} ({c} left{', base removed' if c == 0 else ''})",
    }
    if code in texts:
        return texts[code]()
    # an event this module does not know yet: its name and fields
    name = EVENT_NAMES[code] if 0 <= code < len(EVENT_NAMES) else f"event {code}"
    return f"{name}: {unit(u)} {a} {b} {c} {d} {e}"


def event_rows(rp: Replay) -> list[dict]:
    """Every event of the log: ``{turn, event, name, decision, side, text}`` (``event``
    the code, ``name`` :data:`~simulator.games.toi.game.events.EVENT_NAMES`; ``decision``
    and ``side`` of the decision it followed, None before the first)."""
    s = rp.state.s
    owner: list[dict | None] = [None] * int(s.g[S.G_LOGN])
    for dec in rp.decisions:
        for i in range(dec["first_event"], dec["first_event"] + dec["n_events"]):
            owner[i] = dec
    rows = []
    for i, row in enumerate(s.log[: int(s.g[S.G_LOGN])]):
        dec = owner[i]
        rows.append({"turn": int(row[1]), "event": int(row[0]), "name": EVENT_NAMES[int(row[0])].split(" (")[0],
                     "decision": None if dec is None else dec["decision"],
                     "side": None if dec is None else dec["side"], "text": describe_event(rp.game, row)})
    return rows


# --- the result --------------------------------------------------------------------------

def result(rp: Replay) -> dict:
    """The game's result: the fields of its batch record that a reader looks for."""
    g = rp.state.s.g
    w = rp.state.winner
    return {"winner": None if rp.truncated or w < 0 else rp.game.sides[w],
            "reason": S.REASON_NAMES[S.R_TRUNCATED] if rp.truncated else S.REASON_NAMES[int(g[S.G_REASON])],
            "rounds": int(g[S.G_ROUND]), "vp": {rp.game.sides[k]: int(g[S.G_VP0 + k]) for k in (0, 1)},
            "decisions": len(rp.decisions), "truncated": rp.truncated}


def final_position(rp: Replay) -> list[dict]:
    """One entry per unit of the scenario: side, unit, status, hex (None off the map),
    condition (a vehicle: its damage), token, figures left (a squad, by figure type)."""
    s, sc, t = rp.state.s, rp.game.scenario, rp.game.tables
    from simulator.games.toi.game.tables import SL_SIDE
    out = []
    for k in range(rp.game.n_units):
        st = int(s.u[k, S.U_ST])
        on = st == S.ONMAP
        vehicle = bool(s.u[k, S.U_VEHICLE])
        alive = st in (S.ONMAP, S.CARRIED, S.TO_PLACE)
        out.append({"side": rp.game.sides[int(t.slots[k, SL_SIDE])], "unit": sc.squad_label(k),
                    "status": S.STATUS_NAMES[st], "hex": sc.hex_name(int(s.u[k, S.U_HEX])) if on else None,
                    "condition": None if not on else (("undamaged", "light damage", "heavy damage")[int(s.u[k, S.U_DMG])]
                                                      if vehicle else S.COND_NAMES[int(s.u[k, S.U_COND])]),
                    "token": S.TOKEN_NAMES[int(s.u[k, S.U_TOKEN])] if on else None,
                    "figures": None if vehicle else {name: int(s.u[k, S.U_FIG + f]) if alive else 0
                                                     for f, name in enumerate(sc.figure_names)
                                                     if t.slots[k, T.SL_FIG + f] > 0}})
    return out


def replay_json(rp: Replay) -> dict:
    """The JSON answer of ``lanchester toi replay --format json``: Assault's replay keys
    (scenario, seed, game, edition, players, winner, turns, events, final; truncated and
    decisions when cut short) and Tide of Iron's result, reason, vp, actions."""
    g = rp.game
    r = result(rp)
    out = {"scenario": g.name, "seed": rp.seed, "game": rp.game_index, "edition": g.edition,
           "players": dict(zip(g.sides, rp.players, strict=True)), "winner": r["winner"], "turns": r["rounds"],
           "reason": r["reason"], "vp": r["vp"], "result": r}
    if rp.truncated:
        out["truncated"] = True
        out["decisions"] = rp.decision_limit
    actions = [{k: d[k] for k in ("decision", "turn", "side", "action", "text")} for d in rp.decisions]
    return {**out, "actions": actions, "events": event_rows(rp), "final": final_position(rp)}


def replay_text(rp: Replay) -> str:
    """The game in words: each decision (round, side, action) with the events it caused."""
    g = rp.game
    sc = g.scenario
    lines = [f"{sc.name} ({g.name}); game {rp.game_index} of seed {rp.seed}",
             f"players: {g.sides[0]} {rp.players[0]}, {g.sides[1]} {rp.players[1]}", ""]
    rows = event_rows(rp)
    at = 0
    for dec in [None] + rp.decisions:
        if dec is not None:
            when = "set-up" if dec["turn"] == 0 else f"round {dec['turn']}"
            lines.append(f"[{when}] {dec['side']}: {dec['text']}")
        while at < len(rows) and rows[at]["decision"] == (None if dec is None else dec["decision"]):
            text = rows[at]["text"]
            lines.append(text if text.startswith("===") else "    " + text)
            at += 1
    r = result(rp)
    if rp.truncated:
        lines.append(f"=== game cut short: not over after {rp.decision_limit:,} decisions (the decision limit); "
                     "recorded as truncated, no winner ===")
    vp = ", ".join(f"{k} {v}" for k, v in r["vp"].items())
    lines += ["", f"result: {r['winner'] or ('none' if rp.truncated else 'draw')} ({r['reason']}), "
              f"{r['rounds']} rounds, VP {vp}, {r['decisions']} decisions", "", "final position:", str(rp.state)]
    return "\n".join(lines) + "\n"


def final_position_png(rp: Replay, dpi: int = 110) -> bytes:
    """The final position on the map (:func:`simulator.games.toi.game.board.draw_toi_map`)."""
    from simulator.engine.core.mapdraw import Piece
    from simulator.games.toi.game.board import SIDE_FACTIONS, draw_toi_map

    s, sc = rp.state.s, rp.game.scenario
    pieces = []
    for k in range(rp.game.n_units):
        if int(s.u[k, S.U_ST]) != S.ONMAP:
            continue
        pieces.append(Piece(sc.hex_name(int(s.u[k, S.U_HEX])), short_label(rp.game, k),
                            SIDE_FACTIONS[int(s.u[k, S.U_SIDE])]))
    holders = {o.hex: int(s.aux[S.AUX_OBJ, i]) for i, o in enumerate(sc.spec.objectives)}
    r = result(rp)
    what = "cut short, no winner" if rp.truncated else (f"{r['winner']} wins" if r["winner"] else "draw")
    return draw_toi_map(sc, pieces=pieces, objective_holders=holders, dpi=dpi,
                        title=f"{sc.name}: final position of game {rp.game_index} (seed {rp.seed}) - {what}",
                        subtitle=f"round {r['rounds']}, VP " + "-".join(str(v) for v in r["vp"].values()))


def short_label(game: Game, k: int) -> str:
    """A unit's label on the map: its number and figures (``4: 3r+1o``) or its vehicle."""
    sc = game.scenario
    sl = sc.tables.slots[k]
    if sl[T.SL_VEHICLE]:
        return f"{k}: " + list(sc.game.units.vehicles)[int(sl[T.SL_MODEL])][:8]
    return f"{k}: " + "+".join(f"{int(sl[T.SL_FIG + f])}{name[0]}" for f, name in enumerate(sc.figure_names)
                              if sl[T.SL_FIG + f] > 0)


# --- the replay viewer's frames ------------------------------------------------------------

def unit_strength(game: Game, k: int) -> int:
    """What the viewer counts down for unit ``k``: a squad's figures at the start, a
    vehicle's damage steps before it is destroyed (undamaged, light, heavy: 3)."""
    sl = game.scenario.tables.slots[k]
    return 3 if sl[T.SL_VEHICLE] else int(sum(int(sl[T.SL_FIG + f]) for f in range(S.MAX_FIG)))


def _frame_unit(game: Game, u: np.ndarray, k: int, left: dict) -> list[int]:
    """Unit ``k`` in a viewer frame: [hex, status, strength lost, condition, 0, 0, 0]
    (:func:`reports.replay_viewer.viewer_page`; a vehicle's damage is its strength lost;
    ``left``: a squad's figures left after an event that said so, before ``u`` knows)."""
    figures = left.get(k, int(u[k, S.U_FIG:S.U_FIG + S.MAX_FIG].sum()))
    lost = int(u[k, S.U_DMG]) if u[k, S.U_VEHICLE] else unit_strength(game, k) - figures
    return [int(u[k, S.U_HEX]), int(u[k, S.U_ST]), lost, int(u[k, S.U_COND]), 0, 0, 0]


_HARM = (ev.EV_FIGURES, ev.EV_CONDITION, ev.EV_DESTROYED, ev.EV_DAMAGE)


def viewer_data(rp: Replay) -> dict:
    """The replay viewer's rows (one per event, :func:`event_rows`) and the position
    after each. Within a decision the position follows the events (placed, moved,
    retreated, advanced, sent back, figures lost, condition, vehicle damage, destroyed,
    carried, objectives); after a decision's last event it is replaced by the game's own
    (``rp.positions``), and ``drift`` counts the units whose hex or status the events
    had put elsewhere (0: the log says every move). Events before the first decision
    (the set-up's automatic steps) show the position the set-up ends in."""
    game = rp.game
    log = rp.state.s.log[: int(rp.state.s.g[S.G_LOGN])]
    u, obj = (x.copy() for x in rp.positions[0])
    sync = {d["first_event"] + d["n_events"] - 1: k + 1 for k, d in enumerate(rp.decisions) if d["n_events"]}
    texts = event_rows(rp)
    rows, frames, paths, drift, left = [], [], {}, 0, {}
    shot = None           # [row, target] of the last attack: its result follows
    for i, row in enumerate(log):
        code, _, k, a, b = (int(x) for x in row[:5])
        marks = _viewer_event(u, obj, paths, code, k, a, b)
        if code == ev.EV_FIGURES:
            left[k] = b
        if code in (ev.EV_FIRE, ev.EV_OPFIRE):
            marks["fire"] = [int(u[k, S.U_HEX]), int(u[a, S.U_HEX]), f"{int(row[7])} hits"]
            shot = [len(rows), a]
        elif code in _HARM and shot is not None and k == shot[1]:
            fire = rows[shot[0]]["marks"]["fire"]
            fire[2] += "; " + texts[i]["text"].removeprefix(game.scenario.squad_label(k)).strip(" :")
            marks["fire"] = fire
        if i in sync:
            su, sobj = rp.positions[sync[i]]
            drift += int(np.any(su[:, [S.U_HEX, S.U_ST]] != u[:, [S.U_HEX, S.U_ST]], axis=1).sum())
            u, obj = su.copy(), sobj.copy()
            left.clear()
        rows.append({"event": i, "turn": int(row[1]), "code": texts[i]["name"], "text": texts[i]["text"],
                     "marks": marks})
        frames.append({"units": [_frame_unit(game, u, j, left) for j in range(game.n_units)],
                       "objectives": [int(v) for v in obj], "smoke": {}})
    return {"rows": rows, "frames": frames, "drift": drift, "synced": sorted(sync)}


def _viewer_event(u: np.ndarray, obj: np.ndarray, paths: dict, code: int, k: int, a: int, b: int) -> dict:
    """Set in ``u`` what the event logs; its marks for the viewer (trail, close combat,
    the units it is about)."""
    marks: dict = {"units": [k] if k >= 0 else []}
    if code == ev.EV_ACTIVATE:
        paths.pop(k, None)
    elif code in (ev.EV_PLACE, ev.EV_BACK, ev.EV_ADVANCE):
        u[k, S.U_HEX], u[k, S.U_ST] = a, S.ONMAP
    elif code in (ev.EV_MOVE, ev.EV_RETREAT):
        path = paths.setdefault(k, [a])
        if path[-1] != a:
            path.append(a)
        path.append(b)
        u[k, S.U_HEX], u[k, S.U_ST] = b, S.ONMAP
        marks["trail"] = list(path)
    elif code == ev.EV_DESTROYED:
        u[k, S.U_HEX], u[k, S.U_ST] = -1, S.DESTROYED
    elif code == ev.EV_CONDITION:
        u[k, S.U_COND] = a
    elif code == ev.EV_DAMAGE:
        u[k, S.U_DMG] = a
    elif code == ev.EV_TRANSPORT:
        u[k, S.U_HEX], u[k, S.U_ST] = (-1, S.CARRIED) if b else (u[a, S.U_HEX], S.ONMAP)
    elif code == ev.EV_CONTROL:
        obj[a] = b
    elif code == ev.EV_ASSAULT:
        marks["cc"] = a
    if code in (ev.EV_FIRE, ev.EV_OPFIRE, ev.EV_HEAL, ev.EV_TRANSPORT, ev.EV_OVERRUN) and a >= 0:
        marks["units"].append(a)
    return marks
