"""Assault's calculator answers as values: frozen dataclasses whose fields say what was
asked and what was found, in the game's words (issue 42, item 4).

The JSON a command prints and the DataFrame a notebook reads are renderings of these
(``to_json()``, ``frame()``); nothing rides in ``DataFrame.attrs``. The text tables
and report bundles read the fields (:mod:`simulator.games.assault.report`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from simulator.engine.core.answers import Computed, Method
from simulator.run.vocabulary import DEPRECATED_KEYS, OLD_SUPPRESSED_OR_WORSE, SUPPRESSED_OR_WORSE

if TYPE_CHECKING:
    import pandas as pd

OUTCOME_KEYS = ("crit", "hit", "supp")     # the uncancelled symbols of an outcome row (10.7.2)


@dataclass(frozen=True)
class DamageSummary:
    """The summary a designer reads of an odds answer: the chance of any uncancelled
    symbol, the mean crit, hit and damage (crit + hit, 10.7.3), the chance of a
    suppression symbol left, damage "at least" k (k = 0, 1, ...) and damage quantiles
    (``"5%"`` ... ``"95%"``). By Monte Carlo also ``se`` (standard errors of the means
    and rates) and ``ci95`` (their 95% intervals), keyed as these fields."""

    p_any: float
    mean_crit: float
    mean_hit: float
    mean_damage: float
    p_supp: float
    p_damage_at_least: tuple[float, ...]
    damage_quantiles: dict[str, int]
    se: dict[str, Any] | None = None
    ci95: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON ``summary`` block (``se`` and ``ci95`` only by Monte Carlo)."""
        out: dict[str, Any] = {
            "p_any": self.p_any, "mean_crit": self.mean_crit, "mean_hit": self.mean_hit,
            "mean_damage": self.mean_damage, "p_supp": self.p_supp,
            "p_damage_at_least": list(self.p_damage_at_least),
            "damage_quantiles": dict(self.damage_quantiles),
        }
        if self.se is not None:
            out["se"] = self.se
        if self.ci95 is not None:
            out["ci95"] = self.ci95
        return out


@dataclass(frozen=True)
class OddsAnswer(Computed):
    """The answer to an odds question (10.7.2): ``attack`` rolled against ``defence``
    (pools as written, strongest die first), how doubles count (``doubles``, rulings #2)
    and the suppression symbols added (``extra_supp``, 4.2.3); the dice used; how it was
    computed (``how``); the outcome columns ``crit``, ``hit``, ``supp``, ``p`` (and by
    Monte Carlo ``se``, ``lo``, ``hi``), one row per outcome with any chance (by Monte Carlo
    every possible outcome, those never seen at 0: ``unseen`` says so); the
    :class:`DamageSummary`; the run's description (Monte Carlo only).

    Columns read by name (``answer["p"]``) as in the DataFrame of :meth:`frame`."""

    attack: str
    defence: str
    doubles: str
    extra_supp: int
    dice: str
    dice_status: str
    dice_file: str | None
    dice_digest: str
    how: Method
    columns: dict[str, np.ndarray] = field(repr=False)
    summary: DamageSummary
    run: dict[str, Any] | None = None
    unseen: str | None = None     # Monte Carlo: what the table says of outcomes never seen (intervals.unseen_note)

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[name]

    def __contains__(self, name: str) -> bool:
        return name in self.columns

    def frame(self) -> pd.DataFrame:
        """The outcome table as a tidy DataFrame (one row per outcome; no attrs)."""
        import pandas as pd
        return pd.DataFrame(self.columns)

    def outcome_rows(self, keys: list[str]) -> list[dict[str, Any]]:
        """The outcome rows as dicts of ``keys`` (plain Python numbers)."""
        cols = [np.asarray(self.columns[k]).tolist() for k in keys]
        return [dict(zip(keys, values, strict=True)) for values in zip(*cols, strict=True)]

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``lanchester assault odds --format json``."""
        keys = [*OUTCOME_KEYS, "p"] + (["se"] if "se" in self.columns else [])
        return {
            **self.how.to_json(),
            "dice": self.dice, "dice_status": self.dice_status, "dice_digest": self.dice_digest,
            "attack": self.attack, "defence": self.defence,
            "doubles": self.doubles, "extra_supp": self.extra_supp,
            "outcomes": [{k: (int(r[k]) if k in OUTCOME_KEYS else float(r[k])) for k in keys}
                         for r in self.outcome_rows(keys)],
            "summary": self.summary.to_json(),
            **({"unseen": self.unseen} if self.unseen else {}),
        }


MATRIX_JSON_KEYS = ("fire", "firers", "targets", "ranges", "terrains", "facing", "dice", "dice_status", "aid",
                    "aid_status", "cells", "computed")   # the question's keys in the JSON, in this order


@dataclass(frozen=True)
class MatrixAnswer:
    """The matchup matrix (exact, direct fire only, chapter 10): every firer of
    ``firers`` against every target of ``targets`` (unit ids) at each of ``ranges`` and
    ``terrains``, vehicle targets hit on ``facing`` (10.9.3); the dice and the aid used;
    ``table``, one row per cell (``MATRIX_COLUMNS``); ``computed``: the distinct fire
    questions it took (equal pools against an equal target are computed once);
    ``fire``: what fire the matrix covers, in a sentence; ``seconds`` it took."""

    firers: list[str]
    targets: list[str]
    ranges: list[int]
    terrains: list[str]
    facing: str
    dice: str
    dice_status: str
    aid: str
    aid_status: str
    table: pd.DataFrame = field(repr=False)
    computed: int
    fire: str
    seconds: float
    how: Method = Method("exact")

    @property
    def cells(self) -> int:
        return len(self.table)

    def frame(self) -> pd.DataFrame:
        """The matrix as a tidy DataFrame (one row per cell; no attrs)."""
        return self.table

    def question(self) -> dict[str, Any]:
        """What was asked and what it took, as the JSON and the report's summary hold it."""
        return {k: getattr(self, k) for k in MATRIX_JSON_KEYS}

    def to_json(self, metric: str) -> dict[str, Any]:
        """The JSON of ``lanchester assault matrix --metric METRIC --format json``."""
        rows = [{**r, OLD_SUPPRESSED_OR_WORSE: r[SUPPRESSED_OR_WORSE]} for r in self.table.to_dict("records")]
        return {"method": self.how.method, **self.question(), "metric": metric, "rows": rows,
                "deprecated": dict(DEPRECATED_KEYS)}    # the old key's rows, issue 43


MELEE_POOL_KEYS = ("attacker_attack_pool", "attacker_defence_pool", "defender_attack_pool", "defender_defence_pool",
                   "attacker_doubles", "defender_doubles", "attacker_rerolls", "defender_rerolls", "adrenaline",
                   "tracks")   # a round's pools as the JSON and the text name them, in this order


@dataclass(frozen=True)
class MeleeAnswer(Computed):
    """The answer to a close-combat question (chapter 12) in one ``edition``: ``attacker``
    entering ``defender``'s hex; the units in each slot (``units``) and the support units
    (``support``); the round-one pools (``round_one``) and the later rounds'
    (``later_round_pools``), keyed as ``MELEE_POOL_KEYS``; the sequence (``mode``,
    ``max_rounds``, ``withdraw_policy``); ``summary`` (who holds the hex, mean rounds and
    losses; ``se`` and ``ci95`` by Monte Carlo) and the end ``states``, most likely first;
    how the pools were built (``explain``) and the ``notes``; the data used; and, when
    they apply, the first-edition first turn alone (``single_round``), the dug-in marker
    kept (``p_dug_in_kept``), the fortification and the passengers' fire.

    ``table`` is the end-state table (one row per end state; :meth:`frame`); ``run`` how a
    Monte Carlo run was carried out (workers, checkpoint: not in the JSON, which is the
    same however the run was made)."""

    edition: str
    edition_name: str
    how: Method
    attacker: str
    defender: str
    units: dict[str, str]
    support: dict[str, str | None]
    round_one: dict[str, Any]
    later_round_pools: dict[str, Any]
    mode: str
    max_rounds: int
    withdraw_policy: dict[str, str]
    summary: dict[str, Any]
    states: list[dict[str, Any]]
    explain: list[dict[str, Any]]
    notes: list[str]
    dice: str
    dice_status: str
    aid: str
    aid_status: str
    units_status: list[str]
    table: pd.DataFrame = field(repr=False)
    run: dict[str, Any] | None = None
    unseen: str | None = None
    fortification: dict[str, Any] | None = None
    single_round: dict[str, Any] | None = None
    p_dug_in_kept: float | None = None
    passengers: list[dict[str, Any]] | None = None

    def frame(self) -> pd.DataFrame:
        """The end states as a tidy DataFrame (one row per end state; no attrs)."""
        return self.table

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``lanchester assault melee --format json`` (no ``run``)."""
        out: dict[str, Any] = {
            "edition": self.edition, "edition_name": self.edition_name, **self.how.to_json(),
            "attacker": self.attacker, "defender": self.defender, "units": self.units, "support": self.support,
            **self.round_one, "later_round_pools": self.later_round_pools, "mode": self.mode,
            "max_rounds": self.max_rounds, "withdraw_policy": self.withdraw_policy, "summary": self.summary,
            "states": self.states, "explain": self.explain, "notes": self.notes, "dice": self.dice,
            "dice_status": self.dice_status, "aid": self.aid, "aid_status": self.aid_status,
            "units_status": self.units_status}
        optional = {"unseen": self.unseen, "fortification": self.fortification, "single_round": self.single_round,
                    "p_dug_in_kept": self.p_dug_in_kept, "passengers": self.passengers}
        return out | {k: v for k, v in optional.items() if v is not None}


@dataclass(frozen=True)
class EditionsAnswer:
    """The same close combat under both editions (``lanchester assault melee
    --compare-editions``): each edition's :class:`MeleeAnswer` (``editions``), the
    difference of every summary number (v2 - v1), the first round alone in each
    (``first_round``: v1's single round, v2's initial round without withdrawal), the
    round-one pools side by side (``round_one``: key -> {edition: value}) and those that
    differ, and the rules that make the numbers differ (``differing_rules``). ``table``
    holds both editions' end states (column ``edition``)."""

    editions: dict[str, MeleeAnswer]
    difference: dict[str, float]
    first_round: dict[str, dict[str, float]]
    round_one: dict[str, dict[str, Any]]
    pools_differ: list[str]
    differing_rules: list[dict[str, str]]
    table: pd.DataFrame = field(repr=False)

    @property
    def attacker(self) -> str:
        return next(iter(self.editions.values())).attacker

    @property
    def defender(self) -> str:
        return next(iter(self.editions.values())).defender

    def frame(self) -> pd.DataFrame:
        """Both editions' end states as a tidy DataFrame (no attrs)."""
        return self.table

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``lanchester assault melee --compare-editions --format json``."""
        return {"edition": list(self.editions), "attacker": self.attacker, "defender": self.defender,
                "editions": {e: a.to_json() for e, a in self.editions.items()}, "difference": self.difference,
                "first_round": self.first_round, "round_one": self.round_one, "pools_differ": self.pools_differ,
                "differing_rules": self.differing_rules}


SMOKE_JSON_KEYS = ("firer", "smoke_pool", "doubles", "hexes", "max_markers_per_hex", "range", "dice", "dice_status",
                   "aid", "aid_status", "support", "support_status")   # after method, trials, seed, in this order


@dataclass(frozen=True)
class SmokeAnswer(Computed):
    """The answer to a smoke question (7.5): ``firer`` rolls ``smoke_pool`` (doubles
    counting as ``doubles``) into up to ``hexes`` hexes at ``range``, at most
    ``max_markers_per_hex`` markers a hex; ``per_hex``, each hex's markers (exactly, mean,
    LOS hindered or blocked; ``se`` and ``ci95`` by Monte Carlo); ``summary`` (mean markers
    in all hexes, no smoke, every hex smoked); how the dice were built (``explain``); the
    data used. ``table``: one row per placement (``hex1``, ``hex2``, ``hex3`` markers,
    ``p``; ``se``, ``lo``, ``hi`` by Monte Carlo, every possible placement listed:
    ``unseen`` says so); ``run``: how a Monte Carlo run was carried out (not in the JSON)."""

    how: Method
    firer: str
    smoke_pool: str
    doubles: str
    hexes: int
    max_markers_per_hex: int
    range: int | None
    per_hex: list[dict[str, Any]]
    summary: dict[str, float]
    explain: list[dict[str, Any]]
    dice: str
    dice_status: str
    aid: str
    aid_status: str
    support: str
    support_status: str
    table: pd.DataFrame = field(repr=False)
    run: dict[str, Any] | None = None
    unseen: str | None = None

    def frame(self) -> pd.DataFrame:
        """The placements as a tidy DataFrame (one row per placement; no attrs)."""
        return self.table

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``lanchester assault smoke --format json``."""
        keys = ["hex1", "hex2", "hex3", "p"] + (["se"] if "se" in self.table else [])
        outcomes = [{k: (int(r[k]) if k.startswith("hex") else float(r[k])) for k in keys}
                    for r in self.table.to_dict("records")]
        return {**self.how.to_json(), **{k: getattr(self, k) for k in SMOKE_JSON_KEYS},
                "per_hex": self.per_hex, "outcomes": outcomes, "summary": self.summary, "explain": self.explain,
                **({"unseen": self.unseen} if self.unseen else {})}


@dataclass(frozen=True)
class TerrainDamageAnswer(Computed):
    """The answer to a terrain-damage question (9.10.1, 9.10.2): ``vehicle`` enters
    ``terrain`` (on a ``hill`` or not) with ``damage_before`` points, at ``experience``;
    the terrain rolls ``attack_pool`` against ``defence_pool`` (the card's strongest die);
    a crit counts as damage too when ``crit_is_damage``; the vehicle's states afterwards
    (``table``, one row per state, as the fire question's: :meth:`frame`) and their
    ``summary``; how the pools were built (``explain``); the data used; ``run`` (how a
    Monte Carlo run was carried out, not in the JSON) and ``unseen``. The JSON is
    :func:`simulator.games.assault.report.text.terrain_damage_json` of it."""

    how: Method
    vehicle: str
    terrain: str
    hill: bool
    attack_pool: str
    defence_pool: str
    damage_before: int
    experience: str
    crit_is_damage: bool
    vehicle_strength: int
    explain: list[dict[str, Any]]
    dice: str
    dice_status: str
    aid: str
    aid_status: str
    summary: dict[str, Any]
    table: pd.DataFrame = field(repr=False)
    run: dict[str, Any] | None = None
    unseen: str | None = None

    def frame(self) -> pd.DataFrame:
        """The vehicle's states as a tidy DataFrame (one row per state; no attrs)."""
        return self.table


@dataclass(frozen=True)
class FireAnswer(Computed):
    """The answer to a fire question (chapters 7 and 10; 9.10.3): ``firer`` fires at
    ``target`` at ``range`` (``indirect``, 7.1-7.4; the last shot of an ``overrun``; through
    ``smoke_markers``, 10.3; called by ``spotter``); a vehicle target hit on
    ``target_facing`` (``target_facing_assumed``: the front, when none was given, 10.9.3);
    the pools rolled (``attack_pool`` against ``defence_pool``, or ``defence_pool_unspotted``
    when spotting fails, with ``p_spotted`` and the ``spot_number`` needed), how doubles
    count, the suppression symbols added and what a re-roll re-rolls (``reroll``, 7.3); the
    target's ``target_strength`` and damage before (``target_damage_before``); how the pools
    were built (``explain``); the data used; how it was computed (``how``).

    ``table``: the target's states afterwards, one row per state with ``p`` (``se``,
    ``lo``, ``hi`` by Monte Carlo: :meth:`frame`), columns read by name (``answer["p"]``);
    ``summary`` of them (``p_eliminated``, ``mean_damage``, ... and ``p_artillery_overrun``
    for an overrun). Passengers (10.10.2-10.10.3: ``passengers``, one dict each, and
    ``p_emergency_disembark``) or tank riders (10.10.1: ``riding_on``, ``disembark_markers``);
    the friendly vehicle hit by fire into a close combat (10.11: ``friendly_vehicle``, its
    states and summary). ``run``: how a Monte Carlo run was carried out; ``unseen`` what the
    table says of states never seen. The JSON is
    :func:`simulator.games.assault.report.text.fire_json` of it."""

    how: Method
    firer: str
    target: str
    range: int
    target_facing: str | None
    target_facing_assumed: str | None
    indirect: bool
    overrun: bool
    smoke_markers: int
    spotter: str | None
    riding_on: str | None
    reroll: str
    attack_pool: str
    defence_pool: str
    defence_pool_unspotted: str | None
    doubles: str
    extra_supp: int
    target_strength: int
    target_damage_before: int
    p_spotted: float
    spot_number: int | None
    explain: list[dict[str, Any]]
    dice: str
    dice_status: str
    aid: str
    aid_status: str
    support: str
    support_status: str
    summary: dict[str, Any]
    table: pd.DataFrame = field(repr=False)
    passengers: list[dict[str, Any]] = field(default_factory=list)
    p_emergency_disembark: float | None = None
    p_emergency_disembark_se: float | None = None
    disembark_markers: dict[str, float] | None = None
    friendly_vehicle: dict[str, Any] | None = None
    run: dict[str, Any] | None = None
    unseen: str | None = None

    def __getitem__(self, name: str) -> pd.Series:
        return self.table[name]

    def __contains__(self, name: str) -> bool:
        return name in self.table

    def frame(self) -> pd.DataFrame:
        """The target's states as a tidy DataFrame (one row per state; no attrs)."""
        return self.table


@dataclass(frozen=True)
class UnitCards:
    """The unit cards (4.2): ``table``, one row per card sorted by id (``UNITS_COLUMNS``:
    :meth:`frame`), and each card in full (``cards``, as the JSON lists them); the dice set
    read them (``dice``, its status and digest) from ``units_dir`` (its digest, and the
    cards' status: illustrative or rulebook)."""

    dice: str
    dice_status: str
    dice_digest: str
    units_dir: str
    units_digest: str
    units_status: str
    cards: list[dict[str, Any]]
    table: pd.DataFrame = field(repr=False)

    def frame(self) -> pd.DataFrame:
        """The roster as a tidy DataFrame (one row per card; no attrs)."""
        return self.table

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``lanchester assault units --format json``."""
        return {"dice": self.dice, "dice_status": self.dice_status, "dice_digest": self.dice_digest,
                "units_dir": self.units_dir, "units_digest": self.units_digest,
                "units_status": self.units_status, "units": self.cards}


LOS_JSON_KEYS = ("scenario", "file", "from", "to", "los", "hindrances", "range", "los_dice", "blocking", "smoke",
                 "smoke_markers", "crossed", "from_terrain", "to_terrain", "from_elevation", "to_elevation", "aid",
                 "aid_status", "aid_file")   # the JSON's keys, in this order


@dataclass(frozen=True)
class LosAnswer:
    """The line of sight between two hexes of a scenario's map (10.3, 10.4): from
    ``firer`` to ``target`` (the JSON's ``from`` and ``to``), ``los`` clear, hindered or
    blocked, the ``hindrances`` (and the defence dice they add, ``los_dice``, 10.9.2), the
    ``blocking`` hexes, the hexes with ``smoke`` (``smoke_markers`` as asked), the hexes
    ``crossed``, both ends' terrain and elevation; the ``scenario`` and its ``file``, the
    aid read. ``table``: the answer as one row (:meth:`frame`)."""

    scenario: str
    file: str
    firer: str
    target: str
    los: str
    hindrances: list[str]
    range: int
    los_dice: int
    blocking: list[str]
    smoke: list[str]
    smoke_markers: dict[str, int]
    crossed: list[str]
    from_terrain: str
    to_terrain: str
    from_elevation: int
    to_elevation: int
    aid: str
    aid_status: str
    aid_file: str
    table: pd.DataFrame = field(repr=False)

    def frame(self) -> pd.DataFrame:
        """The answer as a one-row DataFrame (no attrs)."""
        return self.table

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``lanchester assault los --format json``."""
        named = {"from": self.firer, "to": self.target}
        return {k: named[k] if k in named else getattr(self, k) for k in LOS_JSON_KEYS}


@dataclass(frozen=True)
class MapAnswer:
    """A scenario's map: ``table``, one row per hex (name, column, row, terrain, hill,
    elevation, and with ``los_from`` what that hex sees: :meth:`frame`), and the picture
    (``png``, bytes) of the ``scenario`` (its ``id`` and ``file``)."""

    scenario: str
    file: str
    id: str
    los_from: str | None
    png: bytes = field(repr=False)
    table: pd.DataFrame = field(repr=False)

    def frame(self) -> pd.DataFrame:
        """One row per hex (no attrs)."""
        return self.table


@dataclass(frozen=True)
class ScenariosAnswer:
    """The shipped scenarios, one dict each (``scenarios``: id, name, turns, sides, map,
    edition, file) and as a table (:meth:`frame`)."""

    scenarios: list[dict[str, Any]]
    table: pd.DataFrame = field(repr=False)

    def frame(self) -> pd.DataFrame:
        """One row per scenario (no attrs)."""
        return self.table

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``lanchester assault scenarios --format json``."""
        return {"scenarios": self.scenarios}


@dataclass(frozen=True)
class CheckAnswer:
    """A scenario file checked: its ``file``, whether it is ``ok``, how many ``errors``
    and ``warnings``, each problem (``table``: severity, key, message, :meth:`frame`; and
    as the text ``lines``), the data files used (``data``) and, when it loads with no
    error, what it sets up (``summary``, and as text ``summary_lines``)."""

    file: str
    ok: bool
    errors: int
    warnings: int
    lines: list[str]
    data: dict[str, Any]
    table: pd.DataFrame = field(repr=False)
    summary: dict[str, Any] | None = None
    summary_lines: list[str] = field(default_factory=list)

    def frame(self) -> pd.DataFrame:
        """One row per problem (no attrs)."""
        return self.table

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``lanchester assault check --format json``."""
        return {"file": self.file, "ok": self.ok, "errors": self.errors, "warnings": self.warnings,
                "problems": self.table.to_dict("records"), "data": self.data, "summary": self.summary}
