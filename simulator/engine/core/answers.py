"""Answers as values, for every game (issue 42, item 4): how an answer was computed
(:class:`Method`) and a scenario's balance report (:class:`BalanceReport`), frozen, with
the JSON and the DataFrame as renderings of them. Each game's calculator answers are in
its ``questions/answers.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Method:
    """How an answer was computed: ``"exact"``, or ``"monte-carlo"`` with the trials run
    and the seed (both None for an exact answer)."""

    method: str
    trials: int | None = None
    seed: int | None = None

    @property
    def monte_carlo(self) -> bool:
        return self.method == "monte-carlo"

    @property
    def label(self) -> str:
        """``exact`` or ``Monte Carlo``: the series name of the answer in reports."""
        return "Monte Carlo" if self.monte_carlo else "exact"

    def to_json(self) -> dict[str, Any]:
        return {"method": self.method, "trials": self.trials, "seed": self.seed}


class Computed:
    """What every calculator answer with a ``how`` (:class:`Method`) field reads from it:
    ``method``, ``trials``, ``seed``."""

    how: Method

    @property
    def method(self) -> str:
        return self.how.method

    @property
    def trials(self) -> int | None:
        return self.how.trials

    @property
    def seed(self) -> int | None:
        return self.how.seed


@dataclass(frozen=True)
class Rate:
    """A rate of games with its 95% interval (Wilson's)."""

    p: float
    ci95: tuple[float, float]


def _rate(d: dict[str, Any]) -> Rate:
    """A ``{"p": .., "ci95": [lo, hi]}`` section as a :class:`Rate`."""
    return Rate(d["p"], (d["ci95"][0], d["ci95"][1]))


def _pair(x) -> tuple[float, float]:
    return (x[0], x[1])


@dataclass(frozen=True)
class PairedTest:
    """The exact test of the games a what-if or a restriction changed (paired, same
    seeds): the games made ``better`` and ``worse`` for the side, the ``p_value``, the
    Holm-adjusted ``p_holm`` over the ``family_size`` runs tested together, and whether
    it is ``significant`` (p_holm <= 0.05)."""

    better: int
    worse: int
    p_value: float
    p_holm: float
    family_size: int
    significant: bool

    @classmethod
    def of(cls, r: dict[str, Any]) -> PairedTest:
        g = r["games_changed"]
        return cls(g["better"], g["worse"], r["p_value"], r["p_holm"], r["family_size"], r["significant"])


@dataclass(frozen=True)
class Change:
    """A paired change (in probability) and its 95% interval."""

    change: float
    ci95: tuple[float, float]


@dataclass(frozen=True)
class ClosestToEven:
    """Of a what-if's runs, the one closest to even (``run``), the runs that cannot be
    told apart from it (``even_set``, itself included), the ``runner_up`` and its win
    rates."""

    run: str
    even_set: tuple[str, ...]
    runner_up: str | None
    win_rate: dict[str, float]

    @classmethod
    def of(cls, b: dict[str, Any]) -> ClosestToEven:
        return cls(b["run"], tuple(b["even_set"]), b.get("runner_up"), dict(b.get("win_rate", {})))


@dataclass(frozen=True)
class WhatIfFamily:
    """The what-ifs as one family: how many were tested together, the method's sentence
    and the run closest to even (the variants themselves: :attr:`BalanceReport.what_if`)."""

    family_size: int
    method: str
    closest_to_even: ClosestToEven | None

    @classmethod
    def of(cls, wi: dict[str, Any]) -> WhatIfFamily:
        b = wi.get("closest_to_even")
        return cls(wi["family_size"], wi.get("method", ""), ClosestToEven.of(b) if b else None)


@dataclass(frozen=True)
class SkillLevel:
    """One level of the skill curve: both sides played by ``level``."""

    level: str
    games: int
    win_rate: dict[str, Rate]
    draw_rate: float

    @classmethod
    def of(cls, r: dict[str, Any]) -> SkillLevel:
        return cls(r["level"], r["games"], {s: _rate(w) for s, w in r["win_rate"].items()}, r["draw_rate"])


@dataclass(frozen=True)
class LevelDifference:
    """A side's paired difference between two levels (``p``, ``ci95``) and its status."""

    p: float
    ci95: tuple[float, float]
    status: str


@dataclass(frozen=True)
class Convergence:
    """The convergence test of the skill curve's top two levels: ``status`` (converged,
    moving, undecided) at the ``margin``, each side's ``difference`` (top minus next,
    ``levels`` lists them next first), the ``test`` and ``method`` sentences, and the
    ``games_needed`` when undecided; ``why``: when moving, the sentence saying why
    (:func:`simulator.engine.core.balance.moving_why`), else None."""

    status: str
    margin: float
    test: str
    method: str | None
    levels: tuple[str, ...]
    difference: dict[str, LevelDifference]
    games_needed: int | None
    why: str | None = None

    @classmethod
    def of(cls, c: dict[str, Any]) -> Convergence:
        return cls(c["status"], c["margin"], c["test"], c.get("method"), tuple(c.get("levels") or ()),
                   {s: LevelDifference(d["p"], _pair(d["ci95"]), d["status"])
                    for s, d in (c.get("difference") or {}).items() if d},
                   c.get("games_needed"), (c.get("why") or {}).get("text"))


@dataclass(frozen=True)
class FamilySeat:
    """The second family's player in one seat against greedy: its win rate, greedy's own
    in that seat, the paired difference and whether it is better."""

    side: str
    win_rate: float
    greedy_win_rate: float
    difference: Rate
    better: bool


@dataclass(frozen=True)
class FamilyCheck:
    """``--family``: a second search family's ``player`` beside the curve's ``top_level``:
    its win rates and draws, each side's difference (top level minus it), the ``status``
    (depends, agrees, undecided, weaker), its strength against greedy (``strength``), the
    ``test`` and ``margin``, the ``games`` it played and the sentence ``text``."""

    player: str
    top_level: str
    status: str
    games: int
    win_rate: dict[str, Rate]
    draw_rate: float
    difference: dict[str, Rate]
    strength: tuple[FamilySeat, ...]
    test: str
    margin: float
    text: str
    games_needed: int | None

    @classmethod
    def of(cls, c: dict[str, Any]) -> FamilyCheck:
        seats = tuple(FamilySeat(x["side"], x["win_rate"], x["greedy_win_rate"], _rate(x["difference"]), x["better"])
                      for x in (c.get("strength") or {}).get("seats", []))
        return cls(c["player"], c["top_level"], c["status"], c.get("games", 0),
                   {s: _rate(w) for s, w in c["win_rate"]["family"].items()}, c["draw_rate"]["family"],
                   {s: _rate(d) for s, d in c["difference"].items()}, seats, c["test"], c["margin"],
                   c.get("text", ""), c.get("games_needed"))


@dataclass(frozen=True)
class OutOfReach:
    """A side that wins almost no game at any level of the skill curve
    (:func:`simulator.engine.core.reach.out_of_reach`): its ``reading`` ("players",
    "scenario", "undecided": which is the likelier cause) and the sentence ``text``."""

    side: str
    reading: str
    text: str

    @classmethod
    def of(cls, r: dict[str, Any]) -> OutOfReach:
        return cls(r["side"], r["reading"], r["text"])


@dataclass(frozen=True)
class LadderSeat:
    """A rung from one seat: the stronger player as ``strong_side``, its win rate and
    interval, the paired difference from the weaker player's own games in that seat."""

    strong_side: str
    strong_win_rate: float
    ci95: tuple[float, float]
    difference: Rate
    better: bool
    at_ceiling: bool


@dataclass(frozen=True)
class LadderRung:
    """One rung of the skill ladder: ``stronger`` against ``weaker`` from both seats."""

    stronger: str
    weaker: str
    weaker_same_seat_win_rate: dict[str, float]
    seats: tuple[LadderSeat, ...]


@dataclass(frozen=True)
class SkillLadder:
    """``--ladder``: its rungs, whether skill matters, the lowest rung that failed."""

    games_per_match: int
    rungs: tuple[LadderRung, ...]
    skill_matters: bool
    first_failing: str | None
    test: str

    @classmethod
    def of(cls, sl: dict[str, Any]) -> SkillLadder:
        rungs = tuple(LadderRung(r["stronger"], r["weaker"], dict(r["weaker_same_seat_win_rate"]), tuple(
            LadderSeat(x["strong_side"], x["strong_win_rate"], _pair(x["ci95"]), _rate(x["difference"]),
                       x["better"], x["at_ceiling"]) for x in r["seats"])) for r in sl["rungs"])
        return cls(sl["games_per_match"], rungs, sl["skill_matters"], sl.get("first_failing"), sl.get("test", ""))


@dataclass(frozen=True)
class Restriction:
    """``--restrict``: the ``side`` denied ``restriction``, its win rate then and
    unrestricted, the paired change with its interval and the exact test."""

    side: str
    restriction: str
    win_rate: float
    base_win_rate: float
    change: float
    ci95: tuple[float, float]
    test: PairedTest

    @classmethod
    def of(cls, r: dict[str, Any]) -> Restriction:
        return cls(r["side"], r["restriction"], r["win_rate"], r["base_win_rate"], r["change"], _pair(r["ci95"]),
                   PairedTest.of(r))


@dataclass(frozen=True)
class Verdict:
    """A balance verdict: its ``status`` (balanced, unbalanced, undecided, no verdict),
    sentence ``text``, the ``margin`` and ``test`` it was judged with, ``interval``
    ``"sequence"`` for an anytime-valid confidence sequence."""

    status: str | None
    text: str
    margin: float | None = None
    test: str = ""
    interval: str | None = None

    @classmethod
    def of(cls, v: dict[str, Any]) -> Verdict:
        return cls(v.get("status"), v["text"], v.get("margin"), v.get("test", ""), v.get("interval"))


@dataclass(frozen=True)
class GridCell:
    """One ``--grid`` cell (``grid.csv``'s row): the two keys' values, the games, the first
    side's share of the decisive games with its Wilson interval, the paired change of its
    win rate, and whether the share lies within 50% ± the margin."""

    key1: str
    value1: Any
    key2: str
    value2: Any
    games: int
    share: float
    share_lo: float
    share_hi: float
    win_rate_change: float
    change_lo: float
    change_hi: float
    inside_margin: bool


@dataclass(frozen=True)
class Grid:
    """``--grid``: the two ``keys``, the ``side`` whose share is shown, the ``margin``, the
    paired test's ``method`` and the ``cells``."""

    keys: tuple[str, str]
    side: str
    margin: float
    method: str
    cells: tuple[GridCell, ...]

    @classmethod
    def of(cls, g: dict[str, Any]) -> Grid:
        names = GridCell.__dataclass_fields__
        return cls((g["keys"][0], g["keys"][1]), g["side"], g["margin"], g.get("method", ""),
                   tuple(GridCell(**{k: r[k] for k in names}) for r in g["cells"]))


@dataclass(frozen=True)
class TuneValue:
    """A value tried by ``--tune``, the first side's win rate with it and its interval."""

    value: Any
    win_rate: float
    ci95: tuple[float, float]


@dataclass(frozen=True)
class TuneConfirmation:
    """The tuned value played again on fresh seeds: its sentence, whether it held, its verdict."""

    text: str
    confirmed: bool
    verdict: Verdict


@dataclass(frozen=True)
class Tune:
    """``--tune``: the ``key`` tuned for the ``side``'s ``target`` win rate, the ``values``
    tried, the ``best``, a warning at the search's end (``bound_note``), the note of a step
    across the target (``step_note``) and the ``confirmation`` on fresh seeds."""

    key: str
    side: str
    target: float
    values: tuple[TuneValue, ...]
    best: TuneValue
    bound_note: str | None
    step_note: str | None
    confirmation: TuneConfirmation | None

    @classmethod
    def of(cls, tu: dict[str, Any]) -> Tune:
        def value(r: dict[str, Any]) -> TuneValue:
            return TuneValue(r["value"], r["win_rate"], _pair(r["ci95"]))
        conf = tu.get("confirmation")
        return cls(tu["key"], tu["side"], tu["target"], tuple(value(r) for r in tu["values"]), value(tu["best"]),
                   tu.get("bound_note"), (tu.get("step") or {}).get("note"),
                   TuneConfirmation(conf["text"], conf["confirmed"], Verdict.of(conf["verdict"])) if conf else None)


@dataclass(frozen=True)
class VariantRates:
    """A what-if's run (``--vary KEY=VALUE``, or a combined ``KEY=V&KEY=V``) on the main
    run's seeds: each side's win rate, the first side's 95% interval (``ci95``) and every
    side's (``ci95_by_side``, issue 43: the second side's was missing), the draw rate."""

    variant: str
    win_rate: dict[str, float]
    ci95: tuple[float, float]
    draw_rate: float
    ci95_by_side: dict[str, tuple[float, float]] = field(default_factory=dict)
    change: Change | None = None
    changes: dict[str, Change] = field(default_factory=dict)
    test: PairedTest | None = None

    @classmethod
    def of(cls, r: dict[str, Any], sides: tuple[str, ...]) -> VariantRates:
        """A what-if's run of the report's ``what_if.variants``: its rates, and (when the
        report has them) the first side's change (``change``), each side's and the draws'
        (``changes``: the sides' names and ``"draw"``) and the paired test."""
        return cls(variant=r.get("label", f"{r['key']}={r['value']}"), win_rate=dict(r["win_rate"]),
                   ci95=_pair(r["ci95"]), draw_rate=r["draw_rate"],
                   ci95_by_side={s: (lo, hi) for s, (lo, hi) in r.get("ci95_by_side", {sides[0]: r["ci95"]}).items()},
                   change=Change(r["change"], _pair(r["change_ci95"])) if "change_ci95" in r else None,
                   changes={k: Change(c["change"], _pair(c["ci95"])) for k, c in r.get("changes", {}).items()},
                   test=PairedTest.of(r) if "games_changed" in r else None)


@dataclass(frozen=True)
class BalanceReport:
    """A scenario's balance report: the ``scenario`` played ``games`` times from ``seed``
    by ``players`` (side -> player), each side's ``win_rate``, the ``draw_rate``, the
    balance verdict (``verdict``: balanced, unbalanced, undecided or no verdict, with
    its sentence ``verdict_text``, the ``verdict_margin`` and ``verdict_test`` it was
    judged with, ``verdict_interval`` ``"sequence"`` for an anytime-valid confidence
    sequence), the what-ifs' runs (``what_if``), Assault's close-combat ``edition`` and the
    run's ``warnings``.

    ``json`` is the whole report as ``--format json`` prints it (closeness, losses,
    activity, tuning, skill curve, restricted play: docs/report-columns.md), which
    :meth:`to_json` renders; :meth:`frame` is the table of rates, one row per side and
    variant. Every other section is a typed view of it, a property (the play's measures:
    ``activity``, ``closeness``, ``first_player_effect``, ``mean_losses``, ...) or a frozen
    value (:attr:`what_if_family`, :attr:`grid`, :attr:`tune`, :attr:`skill_ladder`,
    :attr:`skill_curve`, :attr:`convergence`, :attr:`family_check`, :attr:`restricted`):
    the renderers (``reports/``, the ``--watch`` line, each game's bundle) read those,
    never the dict."""

    scenario: str
    sides: tuple[str, ...]
    players: dict[str, str]
    games: int
    seed: int
    win_rate: dict[str, Rate]
    draw_rate: float
    verdict: str
    verdict_text: str
    what_if: tuple[VariantRates, ...]
    json: dict[str, Any] = field(repr=False)
    verdict_margin: float | None = None
    verdict_test: str = ""
    verdict_interval: str | None = None
    edition: str | None = None
    warnings: tuple[str, ...] = ()

    @classmethod
    def of(cls, report: dict[str, Any]) -> BalanceReport:
        """The report of a balance run's JSON summary (:func:`simulator.engine.core.batch.summary`
        and the sections each game's balance report adds)."""
        sides = tuple(report["sides"])
        variants = tuple(VariantRates.of(r, sides) for r in report.get("what_if", {}).get("variants", []))
        verdict = report["verdict"]
        return cls(scenario=report["scenario"], sides=sides, players=dict(report["players"]),
                   games=report["games"], seed=report["seed"],
                   win_rate={s: Rate(report["win_rate"][s]["p"], (report["win_rate"][s]["ci95"][0],
                                                                  report["win_rate"][s]["ci95"][1]))
                             for s in sides},
                   draw_rate=report["draw_rate"], verdict=verdict.get("status", ""), verdict_text=verdict["text"],
                   what_if=variants, json=report, verdict_margin=verdict.get("margin"),
                   verdict_test=verdict.get("test", ""), verdict_interval=verdict.get("interval"),
                   edition=report.get("edition"), warnings=tuple(report.get("warnings", [])))

    # --- the sections after the verdict, each a typed view of the JSON's section (None or
    # empty when the run did not ask for it); the renderers (reports/) read these

    @property
    def verdict_of(self) -> Verdict:
        """The verdict as one value (its fields are also the report's ``verdict*``)."""
        return Verdict(self.verdict or None, self.verdict_text, self.verdict_margin, self.verdict_test,
                       self.verdict_interval)

    @property
    def data(self) -> dict[str, Any]:
        """The scenario's data: ``name``, ``data`` (dice, aid), ``units_status``,
        ``map_source``, ``source``, ``notes``."""
        return self.json["data"]

    @property
    def name(self) -> str:
        """The scenario's name (its data's)."""
        return self.json["data"]["name"]

    @property
    def turn_word(self) -> str:
        """The game's word for a turn (``activity_words["turn"]``: Tide of Iron's round)."""
        return (self.json.get("activity_words") or {}).get("turn", "turn")

    @property
    def activity(self) -> dict[str, float] | None:
        """Each count per game, both sides (activations, shots, ...), in the game's order."""
        return self.json.get("activity")

    @property
    def activity_words(self) -> dict[str, str | None] | None:
        """The game's words for the activity counts (None: a count it does not show)."""
        return self.json.get("activity_words")

    @property
    def activity_by_side(self) -> dict[str, Any] | None:
        """Each side's activity per game (side -> measure -> value), its ``sample`` and ``measures``."""
        return self.json.get("activity_by_side")

    @property
    def first_player_win_rate(self) -> float:
        return self.json["first_player_win_rate"]

    @property
    def first_player_win_rate_ci95(self) -> tuple[float, float] | None:
        ci = self.json.get("first_player_win_rate_ci95")
        return _pair(ci) if ci else None

    @property
    def first_player_effect(self) -> dict[str, Any]:
        """The effect of the first turn's initiative: side -> ``win_rate_first``,
        ``win_rate_second``, ``difference``, ``ci95``, ``games_first``, ``games_second``;
        ``same_for_both`` with no draws."""
        return self.json["first_player_effect"]

    @property
    def closeness(self) -> dict[str, Any]:
        """``objective_margin_at_most_1`` (and ``_ci95``), ``mean_relative_points_margin``, ``se``."""
        return self.json["closeness"]

    @property
    def mean_turns(self) -> float:
        return self.json["mean_turns"]

    @property
    def decided_early_rate(self) -> float:
        return self.json["decided_early_rate"]

    @property
    def decided_last_turn_rate(self) -> float:
        return self.json["decided_last_turn_rate"]

    @property
    def mean_losses(self) -> dict[str, dict[str, float]]:
        """Side -> unit column (``side/unit``) -> mean lost per game."""
        return self.json["mean_losses"]

    @property
    def mean_losses_se(self) -> dict[str, dict[str, float]]:
        return self.json.get("mean_losses_se", {})

    @property
    def unit_labels(self) -> dict[str, str]:
        """The unit columns' labels, for a game whose columns are not card names."""
        return self.json.get("unit_labels", {})

    @property
    def formations(self) -> list[dict[str, Any]]:
        """Win rates by drawn formations: ``side``, ``formations``, ``games``, ``win_rate``, ``ci95``."""
        return self.json.get("formations") or []

    @property
    def truncated_games(self) -> int:
        return self.json.get("truncated_games") or 0

    @property
    def truncated_rate(self) -> float:
        return self.json.get("truncated_rate", 0.0)

    @property
    def decision_limit(self) -> int | None:
        return self.json.get("decision_limit")

    @property
    def until_decided(self) -> dict[str, Any] | None:
        """--until-decided: its ``rounds``, whether ``decided``, the ``max_games``."""
        return (self.json.get("run") or {}).get("until_decided")

    @property
    def games_per_second(self) -> float | None:
        return self.json.get("games_per_second")

    @property
    def workers(self) -> int | None:
        return self.json.get("workers")

    @property
    def files(self) -> tuple[str, ...]:
        """The per-game records the run wrote."""
        return tuple(self.json.get("files") or ())

    @property
    def what_matters(self) -> str | None:
        """The sentence on what matters most, when the run has one."""
        wm = self.json.get("what_matters")
        return wm["text"] if wm else None

    @cached_property
    def what_if_family(self) -> WhatIfFamily | None:
        """--vary: the what-ifs as one family (their runs: :attr:`what_if`)."""
        return WhatIfFamily.of(self.json["what_if"]) if "what_if" in self.json else None

    @cached_property
    def grid(self) -> Grid | None:
        return Grid.of(self.json["grid"]) if "grid" in self.json else None

    @cached_property
    def tune(self) -> Tune | None:
        return Tune.of(self.json["tune"]) if "tune" in self.json else None

    @cached_property
    def skill_ladder(self) -> SkillLadder | None:
        return SkillLadder.of(self.json["skill_ladder"]) if "skill_ladder" in self.json else None

    @cached_property
    def skill_curve(self) -> tuple[SkillLevel, ...]:
        """--skill-curve: its levels, weakest first (empty without it)."""
        return tuple(SkillLevel.of(r) for r in self.json.get("skill_curve") or ())

    @property
    def skill_curve_test(self) -> str:
        return self.json.get("skill_curve_test", "")

    @cached_property
    def convergence(self) -> Convergence | None:
        """The skill curve's convergence test (None without a curve, or with one level)."""
        c = self.json.get("convergence")
        return Convergence.of(c) if c else None

    @cached_property
    def family_check(self) -> FamilyCheck | None:
        """--family: the second search family beside the curve's top level."""
        c = self.json.get("family_check")
        return FamilyCheck.of(c) if c else None

    @cached_property
    def out_of_reach(self) -> tuple[OutOfReach, ...]:
        """--skill-curve: the sides that win almost no game at any level (empty when none)."""
        return tuple(OutOfReach.of(r) for r in self.json.get("out_of_reach") or ())

    @cached_property
    def restricted(self) -> tuple[Restriction, ...] | None:
        """--restrict / --restrict-all: each restriction, in the run's order (None without them)."""
        rows = self.json.get("restricted")
        return None if rows is None else tuple(Restriction.of(r) for r in rows)

    @property
    def restricted_method(self) -> str:
        return self.json.get("restricted_method", "")

    def to_json(self) -> dict[str, Any]:
        """The report as ``--format json`` prints it."""
        return self.json

    def frame(self) -> pd.DataFrame:
        """One row per side: win rate and interval (and per what-if variant, each side's
        own interval; NaN only for a report written before every side had one)."""
        import pandas as pd
        rows = [{"variant": "baseline", "side": s, "win_rate": self.win_rate[s].p,
                 "ci95_low": self.win_rate[s].ci95[0], "ci95_high": self.win_rate[s].ci95[1],
                 "draw_rate": self.draw_rate} for s in self.sides]
        for v in self.what_if:
            for s in self.sides:
                lo, hi = v.ci95_by_side.get(s, (float("nan"), float("nan")))
                rows.append({"variant": v.variant, "side": s, "win_rate": v.win_rate[s],
                             "ci95_low": lo, "ci95_high": hi, "draw_rate": v.draw_rate})
        return pd.DataFrame(rows)
