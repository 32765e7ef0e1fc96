"""What every check of a scenario file shares (:class:`CheckBase`): the file, its
sections as far as they validated, the problems found, the data files loaded, and the
helpers that check a hex, a hex list or a unit name and report what is wrong."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pydantic

from simulator.engine.core.hexgrid import parse_hex_name
from simulator.engine.core.hexspec import parse_hex_spec
from simulator.games.assault.game.scenario_format import (
    DATA_OPTIONS,
    Board,
    FormationCard,
    Report,
    Scenario,
    Side,
    unit_id,
)
from simulator.games.assault.rules.aid import Aid
from simulator.games.assault.rules.cards import UnitCard
from simulator.games.assault.rules.dice import DiceSet


class CheckBase:
    """The checks' shared state and helpers; the tables' checks are mixins of it."""

    def __init__(self, path: Path, raw: dict[str, Any], scenario: Scenario | None, report: Report,
                 given: Mapping[str, str | Path] | None = None):
        self.path, self.raw, self.s, self.r = path, raw, scenario, report
        self.given = {k: v for k, v in (given or {}).items() if v is not None}
        self.chosen: dict[str, str] = {}   # kind -> what chose its file: "--aid", "data.aid", "shipped"
        unknown = set(self.given) - set(DATA_OPTIONS)
        if unknown:
            raise ValueError(f"unknown data files {sorted(unknown)} (known: {', '.join(DATA_OPTIONS)})")
        self.board: Board | None = None
        self.units: dict[str, UnitCard] = {}
        self.formations: dict[str, FormationCard] = {}
        self.aid: Aid | None = None
        self.dice: DiceSet | None = None
        self.occupied: dict[str, str] = {}  # hex -> key of the force fixed there

    def section(self, model, name: str):
        if self.s is not None:
            return getattr(self.s, name)
        if name not in self.raw:
            return model() if name not in ("map",) else None
        try:
            return model.model_validate(self.raw[name])
        except pydantic.ValidationError:
            return None  # already reported by the whole-file validation

    def sides(self) -> dict[str, Side]:
        if self.s is not None:
            return self.s.sides
        out = {}
        raw = self.raw.get("sides")
        if isinstance(raw, dict):
            for name, v in raw.items():
                try:
                    out[name] = Side.model_validate(v)
                except pydantic.ValidationError:
                    pass
        return out

    def hex_ok(self, name: Any, key: str) -> bool:
        """Is ``name`` a hex of the map? Reports the problem if not."""
        if not isinstance(name, str):
            self.r.error(key, f"a hex is a string \"col,row\" (got {name!r})")
            return False
        try:
            c, r = parse_hex_name(name)
        except ValueError as exc:
            self.r.error(key, str(exc))
            return False
        if self.board is not None and not self.board.grid.on_map(c, r):
            g = self.board.grid
            self.r.error(key, f"hex {name!r} is off the map (columns 0-{g.cols - 1}, rows "
                         f"0-{g.rows - 1})")
            return False
        return True

    def specs_ok(self, specs: list[str], key: str) -> list[str]:
        """Expand hex specs, reporting malformed and off-map ones; returns hex names."""
        out: dict[str, None] = {}
        for j, spec in enumerate(specs):
            try:
                cells = parse_hex_spec(spec)
            except ValueError as exc:
                self.r.error(f"{key}[{j}]", str(exc))
                continue
            if self.board is None:
                continue
            off = [f"{c},{r}" for c, r in cells if not self.board.grid.on_map(c, r)]
            if off:
                self.r.error(f"{key}[{j}]", f"{len(off)} hex{'es' if len(off) > 1 else ''} off "
                             f"the map ({', '.join(off[:4])}{'...' if len(off) > 4 else ''})")
            for c, r in cells:
                if self.board.grid.on_map(c, r):
                    out[f"{c},{r}"] = None
        return list(out)

    def card(self, text: str, side: str, key: str) -> UnitCard | None:
        if not self.units:
            return None
        uid = unit_id(text, side)
        card = self.units.get(uid)
        if card is None:
            mine = sorted(u.split("/", 1)[1] for u in self.units if u.startswith(f"{side}/"))
            self.r.error(key, f"unknown unit {text!r} (side {side} has: {', '.join(mine)})")
            return None
        if card.side != side:
            self.r.error(key, f"{uid} is a unit of side {card.side}, not {side}")
        if card.type not in self.unit_rules:
            self.r.error(key, f"{uid} is {card.type}, but the scenario uses only the "
                         f"{', '.join(self.unit_rules)} rules (unit_rules, 2.1, 3.2.2)")
        return card
