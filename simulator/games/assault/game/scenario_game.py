"""A compiled Assault scenario as the batch runner, the players and the reports see it:
:class:`Game` (the tables, the names a report or a replay needs, the players' entry
points) and the :class:`Slot` of each unit it may put on the map. Built by
:func:`simulator.games.assault.game.compile.compile_game`; kept apart from the compile so
that the compiled-scenario cache can read one back without importing the compile."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simulator.games.assault.game.compiled import CompiledMap
from simulator.games.assault.game.pooltab import UnitType
from simulator.games.assault.game.scenario import Scenario
from simulator.games.assault.game.state import (
    HX_CC,
    HX_LOST,
    HX_SHOT,
    NO_WINNER,
    R_TRUNCATED,
    R_TURN_LIMIT,
    REASON_NAMES,
    GameState,
    empty_state,
)
from simulator.games.assault.game.tables import (
    P_TURNS,
    Tables,
)


@dataclass(frozen=True)
class Slot:
    """One unit the scenario may put on the map."""

    side: int
    unit: str            # card id
    experience: str
    hex: int = -1
    zone: int = -1
    facing: int = -1
    carrier: int = -1
    arrive: int = 0
    entry: int = -1
    formation: int = -1
    roll: int = 0
    group: int = -1


@dataclass
class Game:
    """A compiled scenario: the tables, and the names a report or a replay needs."""

    scenario: Scenario
    cm: CompiledMap
    tables: Tables
    sides: tuple[str, str]
    types: list[UnitType]
    slots: list[Slot]
    formations: list[str]
    zones: list[str]
    edition: str
    overrides: dict = field(default_factory=dict)
    fire_pools: tuple = ()
    defence_pools: tuple = ()
    cc_pools: tuple = ()        # the melee package's DirectionPools, by close-combat pool id

    @property
    def name(self) -> str:
        return self.scenario.id

    @property
    def n_units(self) -> int:
        return len(self.slots)

    def unit_label(self, u: int) -> str:
        sl = self.slots[u]
        same = [i for i, x in enumerate(self.slots) if x.unit == sl.unit and x.side == sl.side]
        card = self.scenario.units[sl.unit]
        suffix = f" #{same.index(u) + 1}" if len(same) > 1 else ""
        exp = "" if sl.experience == "regular" else f" ({sl.experience})"
        return f"{card.name}{exp}{suffix}"

    def card_names(self) -> list[str]:
        """The unit cards (by id) in the order of ``UT_CARD``."""
        return list(dict.fromkeys(t.card.id for t in self.types))

    def new_state(self, log_cap: int = 1) -> GameState:
        return empty_state(len(self.slots), self.cm.n, len(self.scenario.objective_list), len(self.types),
                           max(1, len(self.formations)), log_cap, self.turns)

    # --- the shared batch runner's game API (simulator.engine.core.batch) -------------
    reason_names = REASON_NAMES
    no_winner = NO_WINNER
    r_truncated = R_TRUNCATED
    r_by_default = R_TURN_LIMIT     # won by default: victory.if_neither's side at the end of the last turn (6.6)

    @property
    def turns(self) -> int:
        return int(self.tables.p[P_TURNS])

    def chunk_entry(self, kinds):
        """The compiled batch entry for players ``kinds``
        (:func:`simulator.engine.players.chunks.chunk_entry`, with Assault's record hooks)."""
        from simulator.engine.players.chunks import chunk_entry
        from simulator.games.assault.game import records  # noqa: F401  (registers Assault's record hooks)
        return chunk_entry(kinds)

    @property
    def players(self):
        """The players (:mod:`simulator.engine.players.interface`)."""
        from simulator.engine.players import interface
        return interface

    def player_work(self, weights=None):
        """The players' scratch for one worker
        (:func:`simulator.games.assault.game.playerapi.make_work`)."""
        from simulator.games.assault.game.playerapi import make_work
        return make_work(self, weights)

    def prepare_players(self, players, progress: str | None = None) -> None:
        """Before ``players`` play a batch: a learned player's position value fitted or
        loaded into ``self.learned_value`` (:func:`simulator.engine.players.learned.prepare`)."""
        from simulator.engine.players.learned import prepare
        prepare(self, players, progress)

    def card_side(self, card: str) -> str:
        return self.scenario.units[card].side

    # the summary's activity keys (core.records.ACTIVITY_KEYS) in Assault's words, and
    # what "closing in" is (the warning when the players hardly do it)
    activity_words = {"activations": "activations", "reaction_fires": "reaction fires", "fallbacks": "fallbacks",
                      "close_combats": "close combats", "decisions": "decisions", "close_in": "enter close combat"}

    def record_columns(self) -> list[str]:
        """The shared columns, ``lost_<side>_<unit>`` per unit card, then each side's
        objectives at the end of each turn (:func:`~simulator.engine.core.records.control_columns`)."""
        from simulator.engine.core.records import FIXED_COLUMNS, control_columns
        return list(FIXED_COLUMNS) + [f"lost_{c.replace('/', '_')}" for c in self.card_names()] \
            + control_columns(self.turns)

    def objective_names(self) -> list[str]:
        """The objectives in the order of the records' masks (bit k: objective k)."""
        return [o.name or o.hex for o in self.scenario.objective_list]

    def heat(self, s) -> np.ndarray:
        """The heat counters a batch piece added up in ``s`` (its hexes' ``HX_LOST``,
        ``HX_SHOT``, ``HX_CC`` columns): ``[kind, side, hex]``, kinds lost, shot at, close combats started."""
        return np.stack([s.hx[:, c:c + 2].T for c in (HX_LOST, HX_SHOT, HX_CC)]).astype(np.int64)

    def hex_names(self) -> list[str]:
        """Each hex's name as the reports write it (``col,row``)."""
        return list(self.cm.names)

    def describe(self) -> dict:
        s = self.scenario
        return {"scenario": s.id, "name": s.name, "edition": self.edition, "sides": list(self.sides),
                "turns": int(self.tables.p[P_TURNS]), "overrides": dict(self.overrides),
                "data": s.data_files(), "source": s.source or "not given (the scenario's source key)",
                "map_source": s.map.source or "not given (the scenario's map.source key)",
                "units_status": next(iter(s.units.values())).status if s.units else ""}


# ======================================================================================
# the pieces
# ======================================================================================
