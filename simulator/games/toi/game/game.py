"""The Python side of a Tide of Iron game, as Assault's :mod:`simulator.games.assault.game.game`:
a :class:`Game` (a compiled scenario: ``new_state``) and a :class:`State` with the
OpenSpiel-like API (``current_player``, ``legal_actions``, ``apply_action``,
``is_terminal``, ``returns``, ``clone``, a readable ``str``), and per-game records.

Seeding: the core's, as for every game (:mod:`simulator.engine.core.seeding`), so a
game is the same whichever batch or worker plays it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simulator.engine.core import pystate as core
from simulator.engine.core.actions import decode
from simulator.games.toi.game import state as S
from simulator.games.toi.game import tables as T
from simulator.games.toi.game.events import EVENT_NAMES
from simulator.games.toi.game.scenario import Scenario, load_scenario
from simulator.games.toi.game.turn import MAX_ACTIONS, apply_action, legal_actions, new_game

TERMINAL = core.TERMINAL
LOG_CAP = core.LOG_CAP


class Game:
    """A compiled Tide of Iron scenario."""

    def __init__(self, scenario: Scenario | str):
        self.scenario = load_scenario(scenario) if isinstance(scenario, str) else scenario
        self.tables = self.scenario.tables
        self.sides = self.scenario.side_names
        self.n_units = int(self.tables.p[0])

    def new_state(self, log_cap: int = 1) -> S.GameState:
        t = self.tables
        return S.empty_state(self.n_units, len(t.hexi), len(t.obj), log_cap, self.turns)

    def unit_label(self, k: int) -> str:
        return self.scenario.squad_label(k)

    # --- the shared batch runner's game API (simulator.engine.core.batch) -------------
    edition = None
    formations: tuple[str, ...] = ()
    reason_names = S.REASON_NAMES
    no_winner = S.NO_WINNER
    r_truncated = S.R_TRUNCATED

    @property
    def name(self) -> str:
        """The scenario's id, as Assault's: its file name without ``.scenario.toml``."""
        return Path(self.scenario.path).name.removesuffix(".toml").removesuffix(".scenario")

    @property
    def turns(self) -> int:
        return int(self.tables.p[T.P_ROUNDS])

    def chunk_entry(self, kinds):
        """The compiled batch entry for players ``kinds``
        (:func:`simulator.engine.players.chunks.chunk_entry`, with Tide of Iron's record hooks)."""
        from simulator.engine.players.chunks import chunk_entry
        from simulator.games.toi.game import records  # noqa: F401  (registers Tide of Iron's record hooks)
        return chunk_entry(kinds)

    @property
    def players(self):
        """The shared players (:mod:`simulator.engine.players.interface`)."""
        from simulator.engine.players import interface
        return interface

    def player_work(self, weights=None):
        """The players' scratch for one worker (:func:`simulator.games.toi.game.playerapi.make_work`)."""
        from simulator.games.toi.game.playerapi import make_work
        return make_work(self, weights)

    def prepare_players(self, players, progress: str | None = None) -> None:
        """Before ``players`` play a batch: a learned player's position value fitted or
        loaded into ``self.learned_value`` (:func:`simulator.engine.players.learned.prepare`)."""
        from simulator.engine.players.learned import prepare
        prepare(self, players, progress)

    def card_names(self) -> list[str]:
        """One record column per unit: ``SIDE/unit-K`` (lost or not)."""
        sl = self.tables.slots
        return [f"{self.sides[int(sl[k, T.SL_SIDE])]}/unit-{k}" for k in range(self.n_units)]

    def card_side(self, card: str) -> str:
        return card.partition("/")[0]

    def card_label(self, card: str) -> str:
        """A unit column's name in the losses table: ``squad 3 (3regular+1officer)``."""
        k = int(card.rpartition("-")[2])
        return self.unit_label(k).removeprefix(self.card_side(card)).strip()

    # the summary's activity keys (core.records.ACTIVITY_KEYS) in Tide of Iron's words:
    # reaction fire is op fire, close combat the assault; nothing falls back (None: not shown)
    # (``turn``: what the reports call a turn, Tide of Iron's round)
    activity_words = {"activations": "activations", "reaction_fires": "op fire attacks", "fallbacks": None,
                      "close_combats": "assaults", "decisions": "decisions", "close_in": "assault",
                      "turn": "round"}

    def record_columns(self) -> list[str]:
        """The shared columns, ``lost_<side>_unit-<k>`` per unit, then each side's
        objectives after each round (:func:`~simulator.engine.core.records.control_columns`)."""
        from simulator.engine.core.records import FIXED_COLUMNS, control_columns
        return list(FIXED_COLUMNS) + [f"lost_{c.replace('/', '_')}" for c in self.card_names()] \
            + control_columns(self.turns)

    def objective_names(self) -> list[str]:
        """The objectives in the order of the records' masks (bit o: objective o)."""
        return [o.name or o.hex for o in self.scenario.spec.objectives]

    def heat(self, s):
        """The heat counters a batch piece added up in ``s``: ``[kind, side, hex]``, kinds
        units destroyed, attacked, assaults made (the state's ``heat``: ``HT_LOST``, ``HT_SHOT``, ``HT_CC``)."""
        import numpy as np
        return np.stack([s.heat[:, c:c + 2].T for c in (S.HT_LOST, S.HT_SHOT, S.HT_CC)]).astype(np.int64)

    def hex_names(self) -> list[str]:
        """Each hex's name (``col,row``), in the order of the state's hexes."""
        return list(self.scenario.grid.names)

    def describe(self) -> dict:
        """The run's data, with the keys of Assault's (the balance report's ``data``)."""
        spec = self.scenario.spec
        return {"game": "toi", "scenario": self.name, "name": spec.name, "edition": self.edition,
                "sides": list(self.sides), "turns": self.turns, "overrides": {},
                "data": {"dice": "Tide of Iron dice (simulator/games/toi)", "aid": "none",
                         "units": "scenarios/toi/units.toml", "terrain": "scenarios/toi/terrain.toml"},
                "source": spec.source or "not given (the scenario's source key)",
                "map_source": spec.map.source or "not given (the scenario's map.source key)",
                "units_status": "the project's reading of the rules (docs/rulings.md)",
                "notes": [self._design_note(),
                          "Strategy and operations cards are not played (the engine has no card decks): "
                          "command goes to the initiative pool only (docs/rulings.md T25)."]}

    def _design_note(self) -> str:
        from simulator.games.toi.game.scenario import SCENARIO_DIR
        source = self.scenario.spec.source or "not given"
        if Path(self.scenario.path).resolve().parent == SCENARIO_DIR.resolve():
            return ("The bundled Tide of Iron scenarios are the project's own design, not published ones "
                    f"(the scenario book is not among our sources); this one's source: {source}.")
        return f"Scenario source (the file's source key): {source}."


class State(core.State):
    """A game in progress (:class:`simulator.engine.core.pystate.State`), with Tide of
    Iron's words: ``action_to_string``, a readable ``str``, its events."""

    RULES = core.Rules(new_game=new_game, legal_actions=legal_actions, apply_action=apply_action,
                       max_actions=int(MAX_ACTIONS), state_type=S.GameState, g_decider=int(S.G_DECIDER),
                       g_over=int(S.G_OVER), g_winner=int(S.G_WINNER), g_log_on=int(S.G_LOG_ON),
                       g_logn=int(S.G_LOGN), no_winner=int(S.NO_WINNER))

    def play(self, players: tuple[str, str] = ("random", "random"), max_decisions: int = 100_000) -> int:
        """Play on to the end with the shared players ``players`` (``"mcts:50"``...), a
        decision at a time through :func:`simulator.engine.players.interface.chooser`'s
        entry; return the decisions taken."""
        from simulator.engine.players.interface import chooser, make_work, player_setup
        kinds, params = player_setup(players)
        choose = chooser(kinds)
        w = make_work(self.game)
        t = self.game.tables
        d = 0
        while not self.is_terminal() and d < max_decisions:
            side = self.current_player()
            apply_action(self.s, t, choose(self.s, t, kinds[side], side, w, params))
            d += 1
        return d

    def action_to_string(self, a: int) -> str:
        kind, unit, arg = decode(a)
        name = S.KIND_NAMES[kind]
        sc = self.game.scenario
        if name in ("end action phase", "stop", "no fire", "no op fire", "no assault", "stay",
                    "op-fire placement done", "squad transfers done"):
            return name
        who = sc.squad_label(unit)
        if name in ("concentrated fire", "fire at", "op fire"):
            mode = "suppressive" if S.fire_mode.py_func(arg) == S.MODE_SUPPRESSIVE else "normal"
            sup = ((", supported" if S.fire_support.py_func(arg) else "")
                   + (", MG crews alone" if S.fire_rapid.py_func(arg) else ""))
            return f"{who}: {name} ({mode}{sup}) at {sc.squad_label(S.fire_target.py_func(arg))}"
        if name == "step":
            h = int(self.s.u[unit, S.U_HEX])
            return f"{who}: step to {sc.hex_name(int(self.game.tables.side6[h, arg, 0]))}"
        if name in ("enter the vehicle", "exit the vehicle", "heal"):
            return f"{who}: {name} ({sc.squad_label(arg)})"
        if name == "place":
            return f"{who}: place {sc.hex_name(arg >> 1)}" + (" in its fortification" if arg & 1 else "")
        if name == "advance into the hex":
            return f"{who}: {name} {sc.hex_name(arg)}"
        if name == "area attack":
            mode = "suppressive" if S.area_mode.py_func(arg) == S.MODE_SUPPRESSIVE else "normal"
            sup = ", supported" if S.area_support.py_func(arg) else ""
            return f"{who}: area attack ({mode}{sup}) on {sc.hex_name(S.area_hex.py_func(arg))}"
        if name == "dig an entrenchment":
            return f"{who}: {name}" + (" and enter it" if arg else "")
        if name == "place in a vehicle":
            return f"{who}: place in {sc.squad_label(arg)}"
        if name == "transfer a figure":
            fig = sc.figure_names[S.transfer_fig.py_func(arg)]
            return f"{who}: transfer a {fig} figure to {sc.squad_label(S.transfer_to.py_func(arg))}"
        if name == "assault hex":
            return f"{who}: assault {sc.hex_name(arg >> 1)}" + (" with support" if arg & 1 else "")
        return f"{who}: {name}"

    def __str__(self) -> str:
        s, sc = self.s, self.game.scenario
        head = (f"{sc.name}: round {int(s.g[S.G_ROUND])}/{int(sc.tables.p[4])}, "
                f"{S.PHASE_NAMES[int(s.g[S.G_PHASE])]} phase ({S.SUB_NAMES[int(s.g[S.G_SUB])]}), "
                f"VP {int(s.g[S.G_VP0])}-{int(s.g[S.G_VP0 + 1])}, initiative {self.game.sides[int(s.g[S.G_INIT])]}")
        if self.is_terminal():
            w = self.winner
            head += f" -- game over: {'draw' if w < 0 else self.game.sides[w] + ' wins'}"
        lines = [head]
        for k in range(self.game.n_units):
            st = int(s.u[k, S.U_ST])
            if st == S.ABSENT:
                continue
            bits = [f"  {sc.squad_label(k):<40}", S.STATUS_NAMES[st]]
            if st == S.ONMAP:
                state = (("undamaged", "light damage", "heavy damage")[int(s.u[k, S.U_DMG])] if s.u[k, S.U_VEHICLE]
                         else S.COND_NAMES[int(s.u[k, S.U_COND])] + (" (dug in)" if s.u[k, S.U_IN] else "")
                         + (" (concealed)" if s.u[k, S.U_HIDDEN] else ""))
                bits += [sc.hex_name(int(s.u[k, S.U_HEX])), state, S.TOKEN_NAMES[int(s.u[k, S.U_TOKEN])]]
            lines.append("  ".join(bits))
        return "\n".join(lines)

    def events(self) -> list[tuple[str, ...]]:
        n = int(self.s.g[S.G_LOGN])
        return [(EVENT_NAMES[int(r[0])],) + tuple(int(x) for x in r[1:]) for r in self.s.log[:n]]


@dataclass(frozen=True)
class Record:
    """One game's result: the per-game record of a batch."""

    game_index: int
    winner: int
    reason: int
    rounds: int
    vp0: int
    vp1: int
    decisions: int
    actions: int
    opfires: int
    assaults: int


def play_games(scenario: str, n: int, seed: int = 0, players: tuple[str, str] = ("random", "random"),
               start: int = 0) -> list[Record]:
    """``n`` whole games with the shared players (tests)."""
    game = Game(scenario)
    out = []
    for i in range(start, start + n):
        st = State(game, seed, i, log=False)
        d = st.play(players)
        g = st.s.g
        out.append(Record(i, st.winner, int(g[S.G_REASON]), int(g[S.G_ROUND]), int(g[S.G_VP0]), int(g[S.G_VP0 + 1]),
                          d, int(g[S.G_ACTIONS]), int(g[S.G_OPFIRES]), int(g[S.G_ASSAULTS])))
    return out
