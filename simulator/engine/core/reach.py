"""Is a side's win out of reach, or are the players too weak to find it? (issue 41:
"Crossroads' German side wins 0.5% with every player the project has; nothing tells a
designer whether the scenario or the players are at fault").

From a skill curve (:func:`simulator.engine.core.balance.add_skill_curve`): a side that
wins fewer than :data:`~simulator.engine.core.batch.RARE_WINS` of the games at every level
is named, with whether the curve's strongest step raises its win rate (the paired
difference of the top two levels, :func:`~simulator.engine.core.balance.curve_convergence`)
and where it falls short at the top level: the objectives it held at the end of a turn,
at best (the run's control tally, ``Tally.control``). The reading:

* ``"scenario"``: the strongest step adds at most the margin (the interval's upper end
  within it; a rise may be shown, but a small one): stronger players are unlikely to bring
  its wins within reach, so the likelier fault is the scenario's victory conditions or
  forces;
* ``"players"``: the strongest step raises the side's win rate (its interval above 0) and
  may raise it by more than the margin: stronger players may yet find its wins;
* ``"undecided"``: neither (more games a level tell).

The measured case is in docs/strength.md ("Crossroads: the scenario or the players?").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.engine.core.batch import RARE_WINS

READINGS = ("players", "scenario", "undecided")


def objective_holds(control: np.ndarray, side: int, objectives: list[str], games: int) -> list[dict[str, Any]]:
    """Each objective's best hold by ``side``: the largest share of the ``games`` in which it
    held it at the end of a turn (``control[turn - 1, side, objective]``: games), with that
    turn (the first such); least held first."""
    out = []
    for j, name in enumerate(objectives):
        counts = np.asarray(control[:, side, j])
        k = int(np.argmax(counts))
        out.append({"objective": name, "share": float(counts[k]) / max(games, 1), "turn": k + 1})
    return sorted(out, key=lambda h: h["share"])


def _reading(step: dict | None, margin: float) -> str:
    if step is None:
        return "undecided"
    lo, hi = step["ci95"]
    return "scenario" if hi <= margin else "players" if lo > 0 else "undecided"


def _points(step: dict) -> str:
    lo, hi = step["ci95"]
    return f"{100 * step['p']:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]"


def _text(side: str, rows: list[dict], levels: list[str], step: dict | None, reading: str,
          holds: list[dict], turn: str, rare: float) -> str:
    rates = ", ".join(f"{r['level']} {r['win_rate'][side]['p']:.1%}" for r in rows)
    text = f"{side} wins fewer than {rare:.0%} of the games at every level ({rates})"
    if step is not None:
        change = f"{levels[-1]} minus {levels[0]} {_points(step)}"
        text += {"players": f"; the strongest step raises it ({change}): stronger players may yet find its wins, "
                            "so the players' strength may be what keeps it from winning",
                 "scenario": f"; the strongest step {'raises it, by' if step['ci95'][0] > 0 else 'adds'} at most "
                             f"{100 * step['ci95'][1]:+.1f} points ({change}): stronger players are unlikely to "
                             f"bring its wins within reach; the likelier cause is the scenario (its victory "
                             f"conditions or forces), not the players' strength",
                 "undecided": f"; whether the strongest step raises it is undecided ({change}): more games a level "
                              "would tell whether the scenario or the players' strength keeps it from winning",
                 }[reading]
    if holds:
        text += (f"; at {rows[-1]['level']} the objectives it held at the end of a {turn}, at best: "
                 + ", ".join(f"{h['objective']} {h['share']:.0%} ({turn} {h['turn']})" if h["share"] > 0
                             else f"{h['objective']} never" for h in holds))
    return text + ("; a what-if on its forces or its victory conditions (--vary; Assault's hold.SIDE, Tide of "
                   "Iron's vp.OBJECTIVE) measures what would bring a win within reach")


def out_of_reach(rows: list[dict], sides: list[str], conv: dict | None, *, control: np.ndarray | None = None,
                 objectives: list[str] | None = None, turn: str = "turn", rare: float = RARE_WINS) -> list[dict]:
    """The sides whose wins are out of reach at every level of the skill curve ``rows``
    (weakest first, :func:`~simulator.engine.core.balance.curve_row`): for each side
    winning fewer than ``rare`` of the games at every level (a curve of two levels or
    more), its ``win_rates`` by level, the strongest ``step`` (its paired difference in
    ``conv``, None without one), the ``reading`` (:data:`READINGS`), ``holds``
    (:func:`objective_holds` at the top level, from its ``control`` tally, when the game
    records one) and the sentence ``text``. Empty when every side wins somewhere."""
    if len(rows) < 2:
        return []
    conv = conv or {}
    levels = list(conv.get("levels") or [rows[-2]["level"], rows[-1]["level"]])
    margin = float(conv.get("margin", 0.05))
    out = []
    for i, side in enumerate(sides):
        if any(r["win_rate"][side]["p"] >= rare for r in rows):
            continue
        step = (conv.get("difference") or {}).get(side)
        step = {"p": step["p"], "ci95": list(step["ci95"])} if step else None
        reading = _reading(step, margin)
        holds = [] if control is None or not objectives else \
            objective_holds(control, i, list(objectives), int(rows[-1]["games"]))
        out.append({"side": side, "win_rates": {r["level"]: r["win_rate"][side]["p"] for r in rows},
                    "step": step, "reading": reading, "holds": holds,
                    "text": _text(side, rows, levels, step, reading, holds, turn, rare)})
    return out
