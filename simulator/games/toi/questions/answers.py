"""Tide of Iron's calculator answers as values: frozen dataclasses whose fields say what
was asked and what was found, in the game's words (issue 42, item 4).

The JSON a command prints and the DataFrame a notebook reads are renderings of these
(``to_json()``, ``frame()``); nothing rides in ``DataFrame.attrs``. The text tables and
report bundles read the fields (:mod:`simulator.games.toi.report`). A ``summary`` is
the JSON block of the answer's chances and means (its keys follow the target: a state
of the target is a ``p_...`` key named in ``states``), with ``se`` by Monte Carlo.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from simulator.engine.core.answers import Computed, Method

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class FireAnswer(Computed):
    """A ranged attack, area attack or minefield entry (001 Attacking; Minefields): the
    attack and defence strengths, the range band and the faces that hit and cancel, the
    attack's ``mode`` and ``kind``, the target (described) and its possible ``states``
    (``{"state", "key"}``: the summary key of each); how each unit's firepower entered
    (``contributions``) and the ``notes``; ``table``: one row per number of hits (``hits``,
    ``p``; ``se``, ``lo``, ``hi`` by Monte Carlo). For an attack on a hex, the units it
    leaves alone (``unaffected``) and whose roll decides the razor wire (``wire_roll``)."""

    how: Method
    data: str
    data_digest: str
    attack_strength: int
    defence_strength: int
    range: str
    success_on: str
    defence_success_on: str
    mode: str
    area: bool
    thick_armour: bool
    armour: int
    cover: int
    kind: str
    target: str | None
    states: list[dict[str, str]]
    contributions: list[dict[str, Any]]
    notes: list[str]
    summary: dict[str, Any]
    table: pd.DataFrame = field(repr=False)
    unseen: str | None = None     # Monte Carlo: what the table says of outcomes never seen (intervals.unseen_note)
    run: dict[str, Any] | None = None
    unaffected: tuple[str, ...] = ()
    wire_roll: str | None = None

    def __getitem__(self, name: str) -> Any:
        return self.table[name]

    def __contains__(self, name: str) -> bool:
        return name in self.table

    def frame(self) -> pd.DataFrame:
        """The hits table as a tidy DataFrame (one row per number of hits; no attrs)."""
        return self.table

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``lanchester toi fire`` and ``toi minefield`` (one target)."""
        keys = ["hits", "p"] + (["se"] if "se" in self.table else [])
        s = self.summary
        states = [{"state": st["state"], "p": s[st["key"]]} | ({"se": s["se"][st["key"]]} if "se" in s else {})
                  for st in self.states]
        return {**self.how.to_json(), "data": self.data, "data_digest": self.data_digest,
                "attack_strength": self.attack_strength, "defence_strength": self.defence_strength,
                "range": self.range, "success_on": self.success_on, "defence_success_on": self.defence_success_on,
                "mode": self.mode, "area": self.area, "thick_armour": self.thick_armour, "armour": self.armour,
                "cover": self.cover, "kind": self.kind, "target": self.target, "contributions": self.contributions,
                "notes": self.notes, "unaffected": list(self.unaffected), "wire_roll": self.wire_roll,
                "hits": [{k: (int(r[k]) if k == "hits" else float(r[k])) for k in keys}
                         for r in self.table.to_dict("records")],
                "states": states, "summary": s}


@dataclass(frozen=True)
class AssaultAnswer(Computed):
    """An assault (002): the attack strength against the defenders' strength and cover
    dice, the range and faces, how each unit's firepower entered (``parts``) and the
    cover's notes, the room to retreat and how the defender spends hits
    (``hit_policy``); each side's hits (``hits``, ``defender_hits``: ``{"hits", "p"}``
    rows, with ``se`` and ``ci95`` by Monte Carlo); the ``summary`` (``p_success``, the
    mean hits and losses, ``p_active_eliminated``, ``p_defenders_eliminated``) and each
    defender's (``defenders``); ``table``: one row per (attacker's hits, defender's hits)."""

    how: Method
    data: str
    data_digest: str
    attack_strength: int
    defender_strength: int
    defence_strength: int
    range: str
    success_on: str
    defence_success_on: str
    parts: list[dict[str, Any]]
    cover_notes: list[str]
    retreat_space: int
    hit_policy: str
    hits: list[dict[str, Any]]
    defender_hits: list[dict[str, Any]]
    summary: dict[str, Any]
    defenders: list[dict[str, Any]]
    table: pd.DataFrame = field(repr=False)
    unseen: str | None = None     # Monte Carlo: what the table says of outcomes never seen (intervals.unseen_note)
    run: dict[str, Any] | None = None

    def __getitem__(self, name: str) -> Any:
        return self.table[name]

    def __contains__(self, name: str) -> bool:
        return name in self.table

    def frame(self) -> pd.DataFrame:
        """The joint hits table as a tidy DataFrame (no attrs)."""
        return self.table

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``lanchester toi assault``."""
        keys = ["attacker_hits", "defender_hits", "p"] + (["se"] if "se" in self.table else [])
        return {**self.how.to_json(), "data": self.data, "data_digest": self.data_digest,
                "attack_strength": self.attack_strength, "defender_strength": self.defender_strength,
                "defence_strength": self.defence_strength, "range": self.range, "success_on": self.success_on,
                "defence_success_on": self.defence_success_on, "parts": self.parts,
                "cover_notes": self.cover_notes, "retreat_space": self.retreat_space,
                "hit_policy": self.hit_policy, "hits": self.hits, "defender_hits": self.defender_hits,
                "outcomes": [{k: (int(r[k]) if k.endswith("hits") else float(r[k])) for k in keys}
                             for r in self.table.to_dict("records")],
                "summary": self.summary, "defenders": self.defenders}
