"""Answers as values, for every game (issue 42, item 4): how an answer was computed
(:class:`Method`) and a scenario's balance report (:class:`BalanceReport`), frozen, with
the JSON and the DataFrame as renderings of them. Each game's calculator answers are in
its ``questions/answers.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
    variant."""

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
        variants = tuple(
            VariantRates(variant=r.get("label", f"{r['key']}={r['value']}"), win_rate=dict(r["win_rate"]),
                         ci95=(r["ci95"][0], r["ci95"][1]), draw_rate=r["draw_rate"],
                         ci95_by_side={s: (lo, hi) for s, (lo, hi) in
                                       r.get("ci95_by_side", {sides[0]: r["ci95"]}).items()})
            for r in report.get("what_if", {}).get("variants", []))
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
