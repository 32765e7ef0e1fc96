"""The game-neutral part of a balance report, for every game on the engine: play a run
and summarise it (:func:`play_balance`), the tidy tables of a report
(:func:`report_frames`, :func:`balance_frame`), what-ifs and tuning with common random
numbers (:func:`paired_variants`, :func:`paired_change`, :func:`tune_scan`), the skill
curve's rows and convergence, and the verdict naming the strength it was made at.

Each game's balance report is built on these: Assault's is
:mod:`simulator.games.assault.game.balance`, Tide of Iron's :mod:`simulator.games.toi.game.balance`.
"""

from __future__ import annotations

import dataclasses
import math
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from simulator.engine.core.answers import BalanceReport
from simulator.engine.core.background import FIRST_RUN_ESTIMATE, loading
from simulator.engine.core.batch import DEFAULT_MARGIN, RunResult, run_games, run_until_decided, summary, verdict
from simulator.engine.core.reach import out_of_reach
from simulator.run.errors import InputError
from simulator.run.intervals import newcombe_difference
from simulator.run.runner import RunOptions
from simulator.run.stats import wilson_interval
from simulator.run.verdicts import (
    about_count,
    convergence,
    discordant_interval,
    games_needed_difference,
    holm_adjusted,
    mcnemar_exact,
    paired_difference,
)
from simulator.run.vocabulary import DEFAULT_LEVELS, DEFAULT_MAX_GAMES

Z95 = 1.959963984540054


def play_balance(game, *, games: int | None, seed: int, players: tuple[str, str], workers: int | None = None,
                 out_dir=None, progress: bool = True, options: RunOptions | None = None,
                 warm=None, label: str | None = None, estimate: str = FIRST_RUN_ESTIMATE,
                 margin: float = DEFAULT_MARGIN, until_decided: bool = False,
                 max_games: int = DEFAULT_MAX_GAMES) -> tuple[dict, RunResult]:
    """The game-neutral part of a balance report: compile the game's batch entry (one
    game, so games per second is play only; ``warm`` first: a game's own background
    compile), play the run (:func:`~simulator.engine.core.batch.run_games`), summarise it
    (:func:`~simulator.engine.core.batch.summary`). Any game on the engine. ``label``:
    what the progress line calls the run (default the game's name); ``estimate``: the
    loading notice's word on how long a first compile takes. ``margin``: the balance
    verdict's (a fraction, 0.05 = ±5 points); ``until_decided``: play rounds of games,
    the first ``games``, until the verdict is decided or ``max_games`` are played
    (:func:`~simulator.engine.core.batch.run_until_decided`)."""
    with loading(estimate):
        if warm is not None:
            warm()                                       # a fresh machine: on both cores
        run_games(game, games=1, seed=seed, players=players, workers=1)   # compile first: games/s is play only
    if until_decided:
        result = run_until_decided(game, first_round=games or DEFAULT_FIRST_ROUND, max_games=max_games, seed=seed,
                                   margin=margin, players=players, workers=workers, out_dir=out_dir,
                                   progress=(label or game.name) if progress else None, options=options)
    else:
        result = run_games(game, games=games, seed=seed, players=players, workers=workers, out_dir=out_dir,
                           progress=(label or game.name) if progress else None, options=options)
    return summary(result, margin=margin), result


DEFAULT_FIRST_ROUND = 1000     # --until-decided without --games: the first round's games


def report_frames(report: dict, result: RunResult) -> dict[str, pd.DataFrame]:
    """The tables the scenario report draws (docs/report-columns.md, "Scenarios"):
    ``games`` (game, winner, decided_turn), ``losses`` (side, unit_type, mean_lost, se:
    units eliminated per game) and, with what-ifs or tuning, ``variants``."""
    sides = list(report["sides"])
    tl = result.tally
    names = np.array(sides + ["draw", "truncated"], dtype=object)   # outcome_array: 0, 1, 2, 3
    games = pd.DataFrame({"game": np.arange(tl.games), "winner": names[tl.outcome_array()],
                          "decided_turn": tl.decided_array().astype(np.int64),
                          "by_default": tl.by_default_array()})
    n = max(tl.games, 1)
    rows = []
    card_label = getattr(result.game, "card_label", lambda card: card.split("/", 1)[1])
    cards = result.game.card_names()
    no_games = np.zeros(len(cards), np.int64)            # a tally of no games has no per-card sums yet
    losses = no_games if tl.losses is None else tl.losses
    losses_sq = no_games if tl.losses_sq is None else tl.losses_sq
    for j, card in enumerate(cards):
        mean = losses[j] / n
        var = max(losses_sq[j] / n - mean * mean, 0.0) * n / max(n - 1, 1)
        rows.append({"side": result.game.card_side(card), "unit_type": card_label(card),
                     "mean_lost": float(mean), "se": math.sqrt(var / n)})
    frames = {"games": games, "losses": pd.DataFrame(rows)}
    variants = [("baseline", sides[0], int(tl.wins[0]), tl.games)]
    for r in report.get("what_if", {}).get("variants", []):
        variants.append((r.get("label", f"{r['key']}={r['value']}"), sides[0], r["wins"], tl.games))
    for r in report.get("tune", {}).get("values", []):
        variants.append((f"{report['tune']['key']}={r['value']}", sides[0], r["wins"], tl.games))
    if len(variants) > 1:
        frames["variants"] = pd.DataFrame(variants, columns=["variant", "side", "wins", "games"])
    frames.update(where_frames(result, sides))
    return frames


HEAT_KINDS = ("units lost", "shots received", "close combats")   # the order of a game's heat counters (the third
                                                                 # in the game's words: Tide of Iron's "assaults")


def where_frames(result: RunResult, sides: list[str]) -> dict[str, pd.DataFrame]:
    """Where the games were won and lost, as counts from the run's tally (the report
    derives shares and intervals, :mod:`reports.tables`): ``control`` (``turn,
    objective, side, games, of_games``: games in which the side held the objective at
    that turn's end) and ``heat`` (``hex, side, kind, count, of_games``: units lost,
    shots received, close combats started, by hex; hexes where nothing happened left out),
    when the game records them."""
    tl, g = result.tally, result.game
    out = {}
    if tl.control is not None:
        objectives = g.objective_names()
        out["control"] = pd.DataFrame(
            [{"turn": k + 1, "objective": name, "side": side, "games": int(tl.control[k, i, j]), "of_games": tl.games}
             for k in range(tl.control.shape[0]) for j, name in enumerate(objectives) for i, side in enumerate(sides)],
            columns=["turn", "objective", "side", "games", "of_games"])
    if tl.heat is not None and hasattr(g, "hex_names"):
        hexes = g.hex_names()
        kinds = HEAT_KINDS[:2] + ((getattr(g, "activity_words", None) or {}).get("close_combats", HEAT_KINDS[2]),)
        out["heat"] = pd.DataFrame(
            [{"hex": hexes[h], "side": side, "kind": kind, "count": int(tl.heat[a, i, h]), "of_games": tl.games}
             for a, kind in enumerate(kinds) for i, side in enumerate(sides) for h in np.flatnonzero(tl.heat[a, i])],
            columns=["hex", "side", "kind", "count", "of_games"])
    return out


def paired_change(base: np.ndarray, other: np.ndarray, side: int = 0) -> tuple[float, float, float]:
    """Change in ``side``'s win rate (default the first side's) between two runs with the
    same seeds, and its 95% interval from the paired per-game differences (common
    random numbers): Tango's score interval (:func:`rate_change`), never zero-width."""
    r = rate_change(np.asarray(base) == side, np.asarray(other) == side)
    return r["change"], r["ci95"][0], r["ci95"][1]


# --- what-ifs that combine: KEY=V&KEY=V (issue 43, item 5) -------------------------------

class Combined(str):
    """One what-if of several changes at once (``--vary "a=4&b=hardened"``, a cell of
    ``--grid``): a string, its label (``"a=4&b=hardened"``, so JSON and tables show it as
    written), with ``changes``, the ``(key, value)`` pairs in the order given."""

    changes: tuple

    def __new__(cls, changes):
        obj = super().__new__(cls, "&".join(f"{k}={v}" for k, v in changes))
        obj.changes = tuple(changes)
        return obj

    def __reduce__(self):          # pickles (a worker process) as itself, changes and all
        return (Combined, (self.changes,))


def variant_label(key: str, value) -> str:
    """What a what-if is called: ``key=value``, or a combined one's own label."""
    return str(value) if isinstance(value, Combined) else f"{key}={value}"


def variant_changes(key: str, value) -> tuple:
    """The ``(key, value)`` changes of a what-if: one, or a combined one's."""
    return value.changes if isinstance(value, Combined) else ((key, value),)


def parse_vary_items(items, parse_value, option: str = "--vary") -> list[tuple[str, list]]:
    """``--vary`` of any game: ``["turns=5,7", "a=4&b=hardened"]`` -> ``[(key, [value, ...])]``,
    each value checked by ``parse_value(key, text, option)``. An item joined by ``&`` is
    one variant of all its changes (one value each, each key once): its key is the keys
    joined by ``&``, its value a :class:`Combined`. Errors name the bad part."""
    out = []
    for item in items:
        if "&" not in item:
            key, sep, values = item.partition("=")
            key = key.strip()
            vals = [v.strip() for v in values.split(",") if v.strip()]
            if not sep or not vals:
                raise InputError(option, "", f"write KEY=V1,V2,... (got {item!r})")
            out.append((key, [parse_value(key, v, option) for v in vals]))
            continue
        changes: list[tuple[str, object]] = []
        for part in item.split("&"):
            key, sep, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if not sep or not key or not value:
                raise InputError(option, part.strip(), f"write KEY=VALUE in each part of a combined what-if "
                                                       f"(got {part.strip()!r} in {item!r})")
            if "," in value:
                raise InputError(option, part.strip(), "a combined what-if takes one value a change "
                                                       "(--grid KEY=V1,V2 --grid KEY=V1,V2 plays every pair)")
            if key in (k for k, _ in changes):
                raise InputError(option, key, f"changed twice in {item!r}")
            changes.append((key, parse_value(key, value, option)))
        out.append(("&".join(k for k, _ in changes), [Combined(changes)]))
    return out


def parse_grid(items, parse_value, option: str = "--grid") -> list[tuple[str, list]]:
    """``--grid KEY=V1,V2 --grid KEY=V1,V2`` of any game: the two axes ``[(key, values),
    (key, values)]`` (checked by ``parse_value`` as ``--vary``'s; none: ``[]``)."""
    if not items:
        return []
    if len(items) != 2:
        raise InputError(option, "", f"give two: --grid KEY=V1,V2 --grid KEY=V1,V2 (got {len(items)})")
    bad = next((item for item in items if "&" in item), None)
    if bad is not None:
        raise InputError(option, bad, "one key an axis (KEY=V1,V2,...)")
    axes = parse_vary_items(items, parse_value, option)
    if axes[0][0] == axes[1][0]:
        raise InputError(option, axes[0][0], "the two axes need two different keys")
    return axes


def paired_grid(axes, base, report, sides, play, margin: float = DEFAULT_MARGIN) -> dict:
    """``--grid``: every pair of values of the two ``axes`` as one combined what-if
    (:class:`Combined`, played by ``play(key, value)`` on the main run's seeds, paired
    against ``base`` as ``--vary``'s are: :func:`paired_variants`). Each cell: the first
    side's share of the decisive games with its Wilson interval, and the change of its
    win rate against the baseline with the paired interval; ``margin`` the balance band
    the heatmap marks (cells whose share lies within 50% ± margin)."""
    (k1, v1), (k2, v2) = axes
    cells = [Combined([(k1, a), (k2, b)]) for a in v1 for b in v2]
    wi = paired_variants([(f"{k1}&{k2}", cells)], base, report, sides, play)
    rows = []
    for r, cell in zip(wi["variants"], cells, strict=True):
        (_, a), (_, b) = cell.changes
        wins0 = r["wins"]
        decisive = wins0 + round(r["win_rate"][sides[1]] * r["games"])
        lo, hi = wilson_interval(wins0, decisive) if decisive else (float("nan"), float("nan"))
        rows.append({"key1": k1, "value1": a, "key2": k2, "value2": b, "games": r["games"],
                     "share": wins0 / decisive if decisive else float("nan"), "share_lo": lo, "share_hi": hi,
                     "win_rate_change": r["change"], "change_lo": r["change_ci95"][0],
                     "change_hi": r["change_ci95"][1], "label": r["label"], "significant": r["significant"],
                     "inside_margin": bool(decisive and abs(wins0 / decisive - 0.5) <= margin)})
    verdict_ = report.get("verdict") if isinstance(report.get("verdict"), dict) else {}
    return {"keys": [k1, k2], "values": [list(v1), list(v2)], "side": sides[0], "margin": margin,
            "baseline_share": verdict_.get("share_first_side"), "cells": rows, "method": PAIRED_TEST,
            "closest_to_even": wi["closest_to_even"]}


def paired_variants(variants, base, report, sides, play) -> dict:
    """The what-ifs of any game: ``play(key, value)`` plays a variant on the main run's
    seeds (a :class:`~simulator.engine.core.batch.RunResult`); each variant's win rates
    and its paired comparison with ``base`` (the main run's outcomes) for the first side
    (:func:`paired_comparison`: each side's win-rate change and the draw rate's, the
    exact test of the changed games), Holm-corrected over all the variants
    (:func:`holm_family`), and the runs closest to even (:func:`closest_to_even`)."""
    rows = []
    runs = {"baseline": np.asarray(base)}
    base_p = report["win_rate"][sides[0]]["p"]
    for key, values in variants:
        for v in values:
            out = play(key, v).tally.outcome_array()
            label = variant_label(key, v)
            runs[label] = out
            p = float((out == 0).mean())
            lo, hi = wilson_interval(int((out == 0).sum()), len(out))
            cmp = paired_comparison(base, out, 0, sides)
            decisive = int(((out == 0) | (out == 1)).sum())
            share = float((out == 0).sum() / decisive) if decisive else float("nan")
            rows.append({"key": key, "value": v, "label": label, "games": int(len(out)), "wins": int((out == 0).sum()),
                         "win_rate": {sides[0]: p, sides[1]: float((out == 1).mean())},
                         "ci95": [lo, hi], "ci95_by_side": {s: list(wilson_interval(int((out == i).sum()), len(out)))
                                                            for i, s in enumerate(sides)},
                         "draw_rate": float((out == 2).mean()),
                         "truncated_rate": float((out == 3).mean()),
                         "change": cmp["change"], "change_ci95": cmp["ci95"], "changes": cmp["changes"],
                         "games_changed": cmp["games_changed"], "p_value": cmp["p_value"],
                         "share_decisive": share})
    holm_family(rows)
    even = closest_to_even(runs, sides)
    closest = None
    if even is not None:
        closest = {"run": even["best"], "even_set": even["even_set"], "runner_up": even["runner_up"],
                   "comparisons": even["comparisons"], "method": even["method"]}
        best = next((r for r in rows if r["label"] == even["best"]), None)
        if best is not None:
            closest.update(key=best["key"], value=best["value"], win_rate=best["win_rate"])
        else:
            closest.update(key="baseline", value=None,
                           win_rate={s: report["win_rate"][s]["p"] for s in sides})
    return {"baseline": {sides[0]: base_p, sides[1]: report["win_rate"][sides[1]]["p"]},
            "method": PAIRED_TEST, "family_size": len(rows),
            "variants": rows,
            "closest_to_even": closest}


def check_target(target: float) -> None:
    if not 0.0 <= target <= 1.0:
        raise InputError("--target", "", f"a win rate between 0 and 1 (got {target})")


def parse_range(text: str | None) -> tuple[int, int] | None:
    """``--range LO:HI`` -> ``(LO, HI)``, whole numbers, LO < HI (None: not given)."""
    if text is None:
        return None
    lo, sep, hi = text.partition(":")
    try:
        pair = (int(lo), int(hi))
    except ValueError:
        pair = None
    if not sep or pair is None:
        raise InputError("--range", text, "write LO:HI, two whole numbers (e.g. 1:8)")
    if pair[0] >= pair[1]:
        raise InputError("--range", text, "LO must be below HI")
    return pair


def range_values(key: str, span: tuple[int, int], limits: tuple[int, int]) -> list[int]:
    """The values ``--tune KEY --range LO:HI`` scans: LO..HI, inside the key's own
    ``limits`` (its least and greatest value; an end outside them is an error)."""
    (lo, hi), (least, most) = span, limits
    if lo < least:
        raise InputError("--range", f"{lo}:{hi}", f"{key} is at least {least}")
    if hi > most:
        raise InputError("--range", f"{lo}:{hi}", f"{key} is at most {most}")
    return list(range(lo, hi + 1))


def tune_scan(key, values, target, side0, play, *, confirm=None, seed: int | None = None,
              margin: float = DEFAULT_MARGIN, sides: list[str] | None = None,
              limits: tuple[int, int] | None = None) -> dict:
    """Scan the values of a numeric key (any game: ``play(value)`` plays ``games`` games
    with the same seed); the one whose first-side win rate is closest to ``target`` wins.
    ``limits``: the key's least and greatest value (no note suggests a value beyond them).
    When the win rate jumps across the target between two neighbouring values, both
    farther than ``margin`` from it, ``step`` says the target lies between them and no
    value of the key reaches it (:func:`tune_step`).

    ``confirm(value, seed)``: the best value played again on fresh seeds,
    :func:`confirmation_seed` of the run's ``seed`` (never used while searching: a best
    value picked among many on one set of games fits their luck too), and its balance
    verdict at ``margin`` reported under ``confirmation``."""
    check_target(target)
    rows = []
    for v in values:
        res = play(v)
        wins = int(res.tally.wins[0])
        lo, hi = wilson_interval(wins, res.tally.games)
        rows.append({"value": v, "wins": wins, "win_rate": wins / res.tally.games, "ci95": [lo, hi]})
    best = min(rows, key=lambda r: abs(r["win_rate"] - target))
    step = tune_step(rows, target, key, margin)
    out = {"key": key, "target": target, "side": side0, "values": rows, "best": best,
           **({"at_bound": None, "bound_note": None} if step else tune_bound(rows, best, target, key, limits)),
           "step": step}
    if confirm is not None:
        out["confirmation"] = tune_confirmation(key, best["value"], target, confirm, seed=seed, margin=margin,
                                                sides=sides or [side0, "other side"])
    return out


CONFIRM_KEY = 39     # the spawn key of the confirmation's seed (issue 39): a stream the search never drew


def confirmation_seed(seed: int) -> int:
    """The seed of ``--tune``'s confirmation: derived from the run's ``seed`` (so the same
    command confirms on the same games) but not the seed the search played, so none of
    its games was seen while choosing the value."""
    state = np.random.SeedSequence(int(seed), spawn_key=(CONFIRM_KEY,)).generate_state(2, np.uint64)
    return int(state[0] >> np.uint64(1))


def confirmation_run(game, *, target: float, games: int, seed: int, players, workers, options, progress,
                     margin: float, max_games: int = DEFAULT_MAX_GAMES) -> RunResult:
    """``--tune``'s confirmation of a value (``game``, compiled with it) on fresh seeds.

    At a 50% target it plays until the value's balance verdict at ``margin`` is decided,
    the same stopping as ``--until-decided`` (rounds from ``games``, doubling, looking with
    the confidence sequence, at most ``max_games`` games: ``--max-games``, default
    :data:`DEFAULT_MAX_GAMES`); for another target, ``games`` games (at most ``max_games``).
    ``progress`` (the label) gets the cap."""
    opts = dataclasses.replace(options, precision=None) if options is not None else None
    label = f"{progress} (at most {max_games:,} games)" if progress else progress
    if abs(target - 0.5) < 1e-12:
        return run_until_decided(game, first_round=games, max_games=max_games, seed=seed,
                                 margin=margin, players=players, workers=workers, options=opts, progress=label,
                                 echo=lambda line: None)   # its rounds: in tune.confirmation, not on stderr
    return run_games(game, games=min(games, max_games), seed=seed, players=players, workers=workers, options=opts,
                     progress=label)


def tune_confirmation(key, value, target, confirm, *, seed, margin, sides) -> dict:
    """The tuned ``value`` played again on :func:`confirmation_seed` (``confirm(value,
    seed)``): its win rate, interval and balance verdict, and a sentence saying whether
    the confirmation holds (balanced at ``margin``, or for a target other than 50% the
    interval containing it). A confirmation stopped undecided by its cap (``--max-games``,
    ``capped``) says so, with the more decisive games that would most likely decide it
    (the verdict's own forecast, ``games_needed``)."""
    fresh = confirmation_seed(seed)
    res = confirm(value, fresh)
    tl = res.tally
    wins = int(tl.wins[0])
    lo, hi = wilson_interval(wins, tl.games)
    v = verdict(tl, sides, margin=margin, sequential=bool(getattr(res, "sequential", False)))
    until = (getattr(res, "run", None) or {}).get("until_decided")
    cap = int(until["max_games"]) if until else None
    capped = bool(until and not until["decided"] and tl.games >= cap)
    if abs(target - 0.5) < 1e-12:
        holds = v["status"] == "balanced"
        what = f"the confirmation's verdict is {v['status']}"
    else:
        holds = lo <= target <= hi
        what = (f"{sides[0]} wins {wins / tl.games:.1%} [{lo:.1%}, {hi:.1%}], which "
                f"{'contains' if holds else 'excludes'} the target {target:.0%}")
    if capped and v["status"] == "undecided":
        more = v.get("games_needed")
        why = (f"undecided after {tl.games:,} games, the cap (--max-games)"
               + (f"; about {about_count(more)} more decisive games would most likely decide it"
                  if more is not None else ""))
    else:
        why = f"{v['status']} on fresh games" + (": not enough games" if v["status"] == "undecided" else "")
    note = (f"{key}={value} confirmed on {tl.games:,} fresh games (seed {fresh}, not used while searching): {what}"
            + ("" if holds else f"; the tuned value is NOT confirmed ({why})"))
    return {"value": value, "seed": fresh, "games": int(tl.games), "wins": wins, "win_rate": wins / tl.games,
            "ci95": [lo, hi], "verdict": v, "confirmed": bool(holds), "max_games": cap, "capped": capped,
            "text": note}


def tune_bound(rows: list[dict], best: dict, target: float, key: str,
               limits: tuple[int, int] | None = None) -> dict:
    """Whether the tuning's best value lies at an end of the values searched while the
    target lies beyond it (the win rate still moving towards it there): ``at_bound``
    is ``"lowest"``, ``"highest"`` or None, with a sentence (``bound_note``) saying so.
    At the key's own least or greatest value (``limits``) the note says no value of the
    key goes further, instead of suggesting one."""
    values = [r["value"] for r in rows]
    if len(values) < 2 or best["value"] not in (values[0], values[-1]):
        return {"at_bound": None, "bound_note": None}
    end = "lowest" if best["value"] == values[0] else "highest"
    inner = rows[1] if end == "lowest" else rows[-2]
    # the target is beyond the end when the best rate is nearer to it than its neighbour's,
    # on the same side of it (across it is a step: tune_step), and not yet reached (an exact
    # hit at an end is still a hit)
    beyond = abs(best["win_rate"] - target) > 0.005 and \
        abs(best["win_rate"] - target) <= abs(inner["win_rate"] - target) and \
        (best["win_rate"] - target) * (inner["win_rate"] - target) > 0
    if not beyond:
        return {"at_bound": None, "bound_note": None}
    note = (f"the best value, {key}={best['value']}, is the {end} searched ({values[0]}-{values[-1]}) and the "
            f"target {target:.0%} was not reached: ")
    edge = None if limits is None else limits[0] if end == "lowest" else limits[1]
    if best["value"] == edge:
        note += f"it is the {'least' if end == 'lowest' else 'greatest'} value {key} takes, so none comes closer"
    else:
        note += "a value beyond the search may come closer" + (f" (--range; {key} takes {limits[0]}-{limits[1]})"
                                                               if limits else "")
    return {"at_bound": end, "bound_note": note}


def tune_step(rows: list[dict], target: float, key: str, margin: float = DEFAULT_MARGIN) -> dict | None:
    """A step in the tuning: two neighbouring values whose first-side win rates lie on
    either side of ``target``, both farther from it than ``margin`` (vp 1: 20%, vp 2:
    95% for 50%), and no value searched within ``margin`` of it: the target lies between
    them and no whole value of the key reaches it. ``{"between", "win_rates", "note"}`` of
    the first such pair, else None."""
    if any(abs(r["win_rate"] - target) <= margin for r in rows):
        return None                                  # a value comes within the margin: no step to report
    for a, b in zip(rows, rows[1:], strict=False):
        da, db = a["win_rate"] - target, b["win_rate"] - target
        if da * db < 0 and min(abs(da), abs(db)) > margin:
            return {"between": [a["value"], b["value"]], "win_rates": [a["win_rate"], b["win_rate"]],
                    "note": f"the target {target:.0%} lies between {key}={a['value']} ({a['win_rate']:.0%}) and "
                            f"{key}={b['value']} ({b['win_rate']:.0%}): the win rate jumps across it there and no "
                            f"value of {key} reaches it (change something else too: --vary \"{key}=V&KEY=V\", "
                            f"--grid)"}
    return None


# --- paired comparisons: what-ifs and restricted play ------------------------------

PAIRED_TEST = ("each variant plays the same seeds as the baseline (common random numbers), so games pair up; "
               "a game changed when the side's result (win > draw or cut short > loss) differs between the two "
               "runs. The test is the exact sign test of the changed games (McNemar's exact test), the "
               "p-values of one run's family of variants are Holm-adjusted, and 'significant' (the *) means "
               "the Holm-adjusted p-value is at most 0.05. Each win rate's and the draw rate's change has "
               "Tango's paired score interval (95%; with no changed game, the exact bound)")


def rate_change(before: np.ndarray, after: np.ndarray) -> dict:
    """The change of a rate between two runs of the same games: ``before`` and ``after``
    are 0/1 arrays (game ``i`` of both on the same seed). ``gained`` counts the games
    that are 1 only after, ``lost`` those 1 only before; the change ``(gained - lost) / n``
    with Tango's paired score interval (:func:`simulator.run.verdicts.discordant_interval`,
    never zero-width: no changed game gives the exact bound)."""
    before, after = np.asarray(before, dtype=bool), np.asarray(after, dtype=bool)
    n = int(before.size)
    gained, lost = int((after & ~before).sum()), int((before & ~after).sum())
    lo, hi = discordant_interval(gained, lost, n)
    return {"change": (gained - lost) / n, "ci95": [lo, hi], "gained": gained, "lost": lost}


def result_rank(outcomes: np.ndarray, side: int) -> np.ndarray:
    """``side``'s result in each game as a rank: 2 a win, 0 a loss, 1 anything else (a
    draw, or a game cut short). Outcomes: 0 / 1 the side that won, 2 draw, 3 cut short."""
    outcomes = np.asarray(outcomes)
    return np.where(outcomes == side, 2, np.where(outcomes == 1 - side, 0, 1))


def paired_comparison(base: np.ndarray, other: np.ndarray, side: int, sides: list[str]) -> dict:
    """How ``other`` (a variant or restriction played on the seeds of ``base``) changed
    the games for ``side``: ``change`` / ``ci95`` of that side's win rate
    (:func:`rate_change`), ``changes`` of each side's win rate and the draw rate, the
    games whose result for ``side`` went up (``better``) or down (``worse``), and the
    exact sign test of those (``p_value``, :func:`simulator.run.verdicts.mcnemar_exact`).
    The family's Holm correction is :func:`holm_family`."""
    base, other = np.asarray(base), np.asarray(other)
    if base.shape != other.shape or base.ndim != 1 or base.size == 0:
        raise ValueError(f"base and other must be non-empty outcome arrays of one length, got {base.shape}, "
                         f"{other.shape}")
    changes = {s: rate_change(base == i, other == i) for i, s in enumerate(sides)}
    changes["draw"] = rate_change(base == 2, other == 2)
    before, after = result_rank(base, side), result_rank(other, side)
    better, worse = int((after > before).sum()), int((after < before).sum())
    own = changes[sides[side]]
    return {"change": own["change"], "ci95": list(own["ci95"]), "changes": changes,
            "games_changed": {"better": better, "worse": worse}, "p_value": mcnemar_exact(better, worse)}


def holm_family(rows: list[dict], alpha: float = 0.05) -> None:
    """The rows of one family (a run's variants, or its restrictions) in place: each
    gets ``p_holm`` (Holm-adjusted p-value over the family), ``significant``
    (``p_holm <= alpha``) and ``family_size``."""
    adjusted = holm_adjusted([r["p_value"] for r in rows])
    for r, p in zip(rows, adjusted, strict=True):
        r.update(p_holm=p, significant=bool(p <= alpha), family_size=len(rows))


def closest_to_even(runs: dict[str, np.ndarray], sides: list[str], alpha: float = 0.05) -> dict | None:
    """Which of ``runs`` (name -> outcomes on the same seeds, the baseline among them)
    comes closest to even, and which cannot be told apart from it.

    Evenness is ``|e|``, ``e`` the first side's win rate minus the second's (the mean of
    ``x = [first won] - [second won]`` per game). The best is the run with the least
    ``|e|``. Another run ``k`` is told apart from it when ``|e_k| > |e_best|`` is shown:
    with ``s`` the sign of ``e_k``'s estimate, both ``s e_k - e_best > 0`` and
    ``s e_k + e_best > 0`` (an intersection-union test: each one-sided at ``alpha/2``
    on the paired per-game values ``s x_k -+ x_best``, normal, with the exact fallback
    when every game agrees), Bonferroni over the comparisons. ``even_set``: the best and
    every run not told apart from it, best first; ``runner_up``: the next closest."""
    if len(runs) < 2:
        return None
    x = {k: (np.asarray(v) == 0).astype(np.int64) - (np.asarray(v) == 1).astype(np.int64) for k, v in runs.items()}
    e = {k: float(v.mean()) for k, v in x.items()}
    best = min(e, key=lambda k: abs(e[k]))
    level = alpha / (len(runs) - 1)
    rows: list[dict[str, Any]] = []
    for k in runs:
        if k == best:
            continue
        s = 1 if e[k] >= 0 else -1
        lows = [_signed_difference(s * x[k], t * x[best], level)[1][0] for t in (1, -1)]
        rows.append({"run": k, "difference": abs(e[k]) - abs(e[best]), "lower_bounds": lows,
                     "told_apart": bool(min(lows) > 0)})
    rows.sort(key=lambda r: r["difference"])
    return {"best": best, "evenness": {k: abs(v) for k, v in e.items()},
            "even_set": [best] + [r["run"] for r in rows if not r["told_apart"]],
            "comparisons": rows, "runner_up": rows[0]["run"],
            "method": f"evenness |first side's win rate - second's|; a run is told apart from the closest when the "
                      f"paired games show its evenness larger (two one-sided paired tests, {1 - level:.2%} "
                      f"intervals: 95% Bonferroni over {len(rows)} comparison(s))"}


def _signed_difference(a: np.ndarray, b: np.ndarray, alpha: float) -> tuple[float, tuple[float, float]]:
    """``mean(a - b)`` with its paired two-sided ``1 - alpha`` interval, for per-game
    values in {-1, 0, 1} (so ``a - b`` in [-2, 2]): when every game that differs differs
    by one step ``c`` (the usual case: a few games changed), Tango's paired score interval
    of :func:`simulator.run.verdicts.discordant_interval` scaled by ``c`` (no game
    differing: the exact ``±2 (1 - (alpha/2)^(1/n))``); otherwise the normal interval on
    the per-game differences."""
    diff = a.astype(np.float64) - b.astype(np.float64)
    n = diff.size
    d = float(diff.mean())
    steps = np.unique(np.abs(diff[diff != 0]))
    if len(steps) <= 1:      # every game changed by the same step, or none: Tango's / the exact bound, scaled
        step = float(steps[0]) if len(steps) else 2.0
        lo, hi = discordant_interval(int((diff > 0).sum()), int((diff < 0).sum()), n, alpha=alpha)
        return d, (lo * step, hi * step)
    half = NormalDist().inv_cdf(1.0 - alpha / 2.0) * float(diff.std(ddof=1)) / math.sqrt(n)
    return d, (max(-2.0, d - half), min(2.0, d + half))


# --- the skill ladder and the skill curve ---------------------------------------------

LADDER_TEST = ("better in a seat when the paired 95% interval of the stronger player's win rate minus the weaker "
               "player's in that seat (weaker on both sides, the same seeds, game by game) lies above 0")


LADDER_LEVELS = ("random", "greedy", "lookahead")    # --ladder without --levels or --skill-curve


def ladder_levels(skill_curve: bool, curve_levels: list[str], levels: list[str] | None = None) -> list[str]:
    """The levels ``--ladder`` climbs: the skill curve's when one is asked for (issue 41
    item 4: every level of the curve beats the one below from both seats), else
    ``levels`` (``--levels``) when given, else :data:`LADDER_LEVELS`."""
    if skill_curve:
        return list(curve_levels)
    return list(levels) if levels else list(LADDER_LEVELS)


def skill_ladder(game, *, games: int, seed: int, workers: int | None, progress: bool = True,
                 options: RunOptions | None = None, levels=LADDER_LEVELS) -> dict:
    """Each of ``levels`` (weakest first; default random < greedy < look-ahead) against
    the one below it, from both seats: the stronger player's win rate against the weaker
    one in each seat, and its paired difference with the weaker player's rate in that
    seat (:data:`LADDER_TEST`, the games paired by seed:
    :func:`simulator.run.verdicts.paired_difference`). ``climbs``: every rung's stronger
    player wins more from both seats; ``first_failing``: the lowest rung that does not."""
    sides = list(game.sides)
    rungs = []
    for weak, strong in zip(levels[:-1], levels[1:], strict=True):
        seats, outs = [], []
        for seat in (0, 1):
            pl = (strong, weak) if seat == 0 else (weak, strong)
            res = run_games(game, games=games, seed=seed, players=pl, workers=workers, options=options,
                            progress=f"{pl[0]} v {pl[1]}" if progress else None)
            outs.append(res.tally.outcome_array())
            wins = int(res.tally.wins[seat])
            lo, hi = wilson_interval(wins, res.tally.games)
            seats.append({"strong_side": sides[seat], "players": {sides[0]: pl[0], sides[1]: pl[1]},
                          "strong_win_rate": wins / res.tally.games, "ci95": [lo, hi]})
        res = run_games(game, games=games, seed=seed, players=(weak, weak), workers=workers, options=options,
                        progress=f"{weak} v {weak}" if progress else None)
        mirror = res.tally.outcome_array()
        base = [res.tally.wins[seat] / res.tally.games for seat in (0, 1)]
        for k, row in enumerate(seats):
            row["difference"], row["at_ceiling"], row["better"] = seat_better(outs[k], mirror, k)
        better = all(row["better"] for row in seats) and any(not row["at_ceiling"] for row in seats)
        rungs.append({"weaker": weak, "stronger": strong, "seats": seats,
                      "weaker_same_seat_win_rate": {sides[i]: base[i] for i in (0, 1)},
                      "stronger_wins_more_from_both_seats": bool(better),
                      "gain_difference": gain_difference(outs, mirror, sides)})
    failing = [r for r in rungs if not r["stronger_wins_more_from_both_seats"]]
    return {"games_per_match": games, "levels": list(levels), "rungs": rungs, "test": LADDER_TEST,
            "skill_matters": not failing,
            "first_failing": None if not failing else f"{failing[0]['stronger']} over {failing[0]['weaker']}"}


def seat_better(strong: np.ndarray, weak: np.ndarray, seat: int) -> tuple[dict, bool, bool]:
    """A ladder rung's test in one seat (:data:`LADDER_TEST`): the paired difference
    (:func:`seat_difference`), whether the seat is at the ceiling (the weaker player there
    already wins every game, and the stronger too: it cannot show more), and "better"
    (the interval above 0, or at the ceiling)."""
    diff = seat_difference(strong, weak, seat)
    rate, base = float((np.asarray(strong) == seat).mean()), float((np.asarray(weak) == seat).mean())
    ceiling = bool(base >= 0.995 and rate >= 0.995)
    return diff, ceiling, bool(diff["ci95"][0] > 0 or ceiling)


def gain_difference(outs: list, mirror: np.ndarray, sides: list[str], alpha: float = 0.05) -> dict:
    """A ladder rung's first seat's gain minus its second seat's (``outs``: the stronger
    player's runs in seat 0 and seat 1, ``mirror``: the weaker on both sides, the same
    seeds), paired game by game with its ``1 - alpha`` interval
    (:func:`_signed_difference`: per game ``[first won in outs[0]] - [first won in the
    mirror]`` against ``[second won in outs[1]] - [second won in the mirror]``). Read
    additively, it is how far the stronger level's own mirror would move the first side's
    win rate away from the weaker level's (:func:`moving_why`)."""
    m = np.asarray(mirror)
    first = (np.asarray(outs[0]) == 0).astype(np.int64) - (m == 0).astype(np.int64)
    second = (np.asarray(outs[1]) == 1).astype(np.int64) - (m == 1).astype(np.int64)
    d, (lo, hi) = _signed_difference(first, second, alpha)
    return {"side": sides[0], "p": d, "ci95": [lo, hi]}


def seat_difference(strong: np.ndarray, weak: np.ndarray, seat: int) -> dict:
    """``{"p", "ci95"}``: the win rate of ``seat`` in the run ``strong`` minus in the run
    ``weak`` (outcome arrays on the same seeds, game by game), with its paired 95%
    interval (:func:`simulator.run.verdicts.paired_difference`); the ladder's "better"
    is ``ci95[0] > 0``."""
    d, (lo, hi) = paired_difference((np.asarray(strong) == seat).astype(np.int64),
                                    (np.asarray(weak) == seat).astype(np.int64))
    return {"p": d, "ci95": [lo, hi]}


def parse_levels(text: str | None, *, players) -> list[str]:
    """``"random,greedy,mcts:64"`` -> the levels, weakest first (default
    :data:`DEFAULT_LEVELS`): player names as ``--players`` takes them (``players``: the
    players' module, its ``parse_player``), at least two, none twice. Raises InputError
    (one line)."""
    if text is None:
        return list(DEFAULT_LEVELS)
    names = [p.strip() for p in text.split(",") if p.strip()]
    for n in names:
        try:
            players.parse_player(n)
        except ValueError as e:
            raise InputError("--levels", n, f"{e} (levels are players: random, greedy, lookahead, mcts, mcts:N, "
                                            "uct, uct:N, lookahead:learned, mcts:N:learned, uct:N:learned)") from None
    if len(names) < 2:
        raise InputError("--levels", text, "give at least two levels, weakest first "
                                           "(e.g. random,greedy,lookahead,mcts:64)")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise InputError("--levels", text, f"level {twice[0]!r} is given twice")
    return names


def family_player(text: str | None, *, players) -> str | None:
    """``--family``: the second search family's player (``"uct:32"``), None for ``None`` or
    ``"off"``; checked by ``players`` (its ``parse_player``). Raises InputError (one line)."""
    if text is None or text.strip() == "off":
        return None
    try:
        players.parse_player(text)
    except ValueError as e:
        raise InputError("--family", text, f"{e} (a player, e.g. uct:32, or off)") from None
    return text.strip()


def skill_curve_levels(game, levels: list[str], *, games: int, seed: int, workers: int | None,
                       progress: bool = True, options: RunOptions | None = None,
                       outcomes: list | None = None) -> list[dict]:
    """:func:`curve_row` of each of ``levels`` (both sides that player), ``games`` games
    each on the same seeds; ``outcomes``, when given, gets each level's per-game outcomes
    (:meth:`~simulator.engine.core.batch.Tally.outcome_array`), for the paired test."""
    rows = []
    sides = list(game.sides)
    for k, level in enumerate(levels):
        res = run_games(game, games=games, seed=seed, players=(level, level), workers=workers, options=options,
                        progress=f"{game.name} at {level} (level {k + 1} of {len(levels) + 1})" if progress else None)
        rows.append(curve_row(level, res.tally.wins, res.tally.games, sides))
        if outcomes is not None:
            outcomes.append(res.tally.outcome_array())
    return rows


def add_skill_curve(report: dict, game, levels: list[str], top: RunResult, *, seed: int, workers: int | None,
                    progress: bool = True, options: RunOptions | None = None,
                    margin: float = DEFAULT_MARGIN, family: str | None = None) -> None:
    """The skill curve into ``report``: every level below the top one played with as
    many games as the main run ``top`` (the top level's), on its seeds; the rows
    (``skill_curve``), the ``convergence`` of the top two levels (:func:`curve_convergence`,
    paired game by game), ``converged`` (true only for "converged"), the test, and the
    verdict made at the top level naming it. With ``family`` (a player of another
    search family, ``--family``: ``uct:N``), that player on both sides on the same seeds
    beside the top level (:func:`family_check`, ``family_check``), said in the verdict.
    A curve still moving says why (``convergence["why"]``, :func:`moving_why`), from the
    ladder's rung of its top two levels when ``report`` has one (``--ladder``). A side that
    wins almost no game at any level is named in ``out_of_reach``
    (:func:`simulator.engine.core.reach.out_of_reach`: the scenario or the players?)."""
    sides = list(game.sides)
    games = top.tally.games
    outcomes: list = []
    rows = skill_curve_levels(game, levels[:-1], games=games, seed=seed, workers=workers, progress=progress,
                              options=options, outcomes=outcomes)
    rows.append(curve_row(levels[-1], top.tally.wins, games, sides))
    report["skill_curve"] = rows
    below = outcomes[-1] if outcomes else None
    report["convergence"] = curve_convergence(rows, sides, margin, top.tally.outcome_array(), below)
    if report["convergence"]["status"] == "moving":      # issue 41 item 4: say why (--ladder: which seat gains)
        report["convergence"]["why"] = moving_why(report["convergence"], sides, report.get("skill_ladder"))
    report["converged"] = report["convergence"]["status"] == "converged"
    report["skill_curve_test"] = converged_test(margin)
    reach = out_of_reach(rows, sides, report["convergence"], control=top.tally.control,
                         objectives=game.objective_names() if top.tally.control is not None else None,
                         turn=(getattr(game, "activity_words", None) or {}).get("turn", "turn"))
    if reach:                                             # a side that never wins: the scenario or the players?
        report["out_of_reach"] = reach
    report["verdict"] = verdict_at_strength(report["verdict"], levels[-1], report["convergence"])
    if family is not None and family != levels[-1]:
        res = run_games(game, games=games, seed=seed, players=(family, family), workers=workers, options=options,
                        progress=f"{game.name} at {family} (the second family)" if progress else None)
        greedy = outcomes[levels.index("greedy")] if "greedy" in levels[:-1] else None
        strength = family_strength(game, family, greedy, games=games, seed=seed, workers=workers, options=options,
                                   progress=progress)
        check = family_check(curve_row(levels[-1], top.tally.wins, games, sides), top.tally.outcome_array(),
                             curve_row(family, res.tally.wins, res.tally.games, sides), res.tally.outcome_array(),
                             sides, margin, strength=strength)
        report["family_check"] = check
        report["verdict"] = dict(report["verdict"], family=check["status"],
                                 text=report["verdict"]["text"] + "; " + check["text"])


# --- the skill curve's rows and the verdict ------------------------------------------

def converged_test(margin: float = DEFAULT_MARGIN) -> str:
    """The skill curve's convergence test in one sentence, naming ``margin``."""
    return (f"converged when, for every side, the 95% interval of the difference of its win rates at the two "
            f"strongest levels (paired game by game: they play the same seeds) lies within ± {100 * margin:g} "
            "points; moving when it lies wholly outside for a side; otherwise undecided (more games a level "
            "needed)")


CONVERGED_TEST = converged_test()


def curve_row(level: str, wins: np.ndarray, games: int, sides: list[str]) -> dict:
    """One level of the curve: games and each side's win rate with its Wilson interval."""
    rates = {}
    for i, s in enumerate(sides):
        lo, hi = wilson_interval(int(wins[i]), games)
        rates[s] = {"p": float(wins[i] / games) if games else 0.0, "ci95": [lo, hi]}
    return {"level": level, "games": int(games), "win_rate": rates,
            "draw_rate": float(wins[2] / games) if games else 0.0}


def _exact_games(margin: float, alpha: float = 0.05) -> int:
    """Paired games after which the exact bound of no discordant game,
    ``1 - (alpha/2)^(1/n)`` (:func:`simulator.run.verdicts.discordant_interval`), is at
    most ``margin``: the fewest games a level at which a curve can converge."""
    return math.ceil(math.log(alpha / 2.0) / math.log1p(-margin))


def _paired_side(a: np.ndarray, b: np.ndarray, margin: float) -> dict:
    """One side's paired difference ``a - b`` (0/1 wins per game) with its status and
    the more games that would most likely decide it."""
    d, (lo, hi) = paired_difference(a, b)
    status = convergence(d, (lo, hi), margin)
    needed = None
    if status == "undecided":
        x = a.astype(np.float64) - b.astype(np.float64)
        sd = float(x.std(ddof=1)) if len(x) > 1 else 0.0
        needed = games_needed_difference(d, sd, len(x), margin) if sd > 0 else \
            max(0, _exact_games(margin) - len(x))
    return {"p": d, "ci95": [lo, hi], "status": status, "games_needed": needed,
            "discordant_games": int((a != b).sum())}


def _unpaired_side(top: dict, below: dict, games: tuple[int, int], margin: float) -> dict:
    """One side's unpaired difference of two levels' win rates (no per-game records):
    Newcombe's hybrid score interval (:func:`simulator.run.intervals.newcombe_difference`,
    built from the two Wilson intervals: it keeps its width at 0% or 100%, where a normal
    interval collapses)."""
    d, (lo, hi) = newcombe_difference(round(top["p"] * games[0]), games[0], round(below["p"] * games[1]), games[1])
    status = convergence(d, (lo, hi), margin)
    return {"p": d, "ci95": [lo, hi], "status": status, "games_needed": None}


def sides_status(diff: dict) -> tuple[str, int | None]:
    """The sides' paired differences (:func:`_paired_side`) as one status: "moving" when a
    side moved, "converged" when every side converged, else "undecided" with the more
    games a level that would most likely decide it (the largest over the undecided sides;
    None when one cannot say)."""
    statuses = [d["status"] for d in diff.values()]
    status = "moving" if "moving" in statuses else "converged" if all(x == "converged" for x in statuses) \
        else "undecided"
    needed = None
    if status == "undecided":
        wanted = [d["games_needed"] for d in diff.values() if d["status"] == "undecided"]
        needed = None if any(w is None for w in wanted) else max(wanted)
    return status, needed


def curve_convergence(rows: list[dict], sides: list[str], margin: float = DEFAULT_MARGIN,
                      top_outcomes: np.ndarray | None = None, below_outcomes: np.ndarray | None = None) -> dict:
    """Whether the skill curve has settled: for each side, the difference of its win
    rates at the two strongest levels (``rows`` weakest first) and its 95% interval,
    judged by :func:`simulator.run.verdicts.convergence` at ``margin``. Paired game by
    game (:func:`simulator.run.verdicts.paired_difference`) when both levels' per-game
    outcomes are given and of equal length (they play the same seeds); else unpaired
    (:func:`_unpaired_side`, said in ``method``). Status "converged" when every side
    converged, "moving" when any side moved, else "undecided" with ``games_needed``: the
    more games a level that would most likely decide it (the largest over the sides;
    None when a side cannot say). Fewer than two levels: "undecided" (no curve)."""
    out: dict = {"margin": margin, "test": converged_test(margin)}
    if len(rows) < 2:
        return {**out, "status": "undecided", "difference": {}, "games_needed": None, "method": None,
                "levels": [r["level"] for r in rows]}
    top, below = rows[-1], rows[-2]
    paired = (top_outcomes is not None and below_outcomes is not None
              and len(top_outcomes) == len(below_outcomes) > 0)
    diff = {}
    for i, s in enumerate(sides):
        if paired:
            diff[s] = _paired_side((np.asarray(top_outcomes) == i).astype(np.int64),
                                   (np.asarray(below_outcomes) == i).astype(np.int64), margin)
        else:
            diff[s] = _unpaired_side(top["win_rate"][s], below["win_rate"][s], (top["games"], below["games"]), margin)
    status, needed = sides_status(diff)
    method = ("paired: the two levels play the same seeds, game by game" if paired else
              "unpaired (no per-game records): Newcombe's interval from the two Wilson intervals")
    return {**out, "status": status, "difference": diff, "games_needed": needed, "method": method,
            "levels": [below["level"], top["level"]], "games_per_level": int(top["games"])}


def curve_converged(rows: list[dict], sides: list[str], margin: float = DEFAULT_MARGIN) -> bool:
    """Whether the curve's rows alone (no per-game records: unpaired) say "converged"."""
    return curve_convergence(rows, sides, margin)["status"] == "converged"


def verdict_with_players(v: dict, players: dict[str, str]) -> dict:
    """The verdict of a run without a skill curve, naming the players it was made with
    (it holds for their strength: the skill curve tells whether stronger ones change it)."""
    names = list(players.values())
    strength = f"{names[0]} on both sides" if len(set(names)) == 1 else \
        ", ".join(f"{side} {name}" for side, name in players.items())
    return dict(v, strength=",".join(names), converged=None,
                text=f"with {strength} (--skill-curve: does it hold with stronger players?): {v['text']}")


def convergence_phrase(conv: dict) -> str:
    """The convergence status in words, with how many games a level would decide it."""
    pts = f"±{100 * conv['margin']:g} points"
    if conv["status"] == "converged":
        return f"the skill curve has converged (the top two levels agree within {pts})"
    if conv["status"] == "moving":
        why = conv.get("why")
        return (f"the skill curve still moves (the top two levels differ by more than {pts}): stronger players may "
                "change this verdict" + (f" — why: {why['text']}" if why else ""))
    more = conv.get("games_needed")
    how = f"about {more:,} more games a level would most likely decide it" if more is not None else \
        "more games a level are needed"
    return f"the skill curve is undecided: not enough games to tell whether the top two levels agree within {pts} ({how})"


def _points_ci(d: dict, unit: str = " points") -> str:
    """``+18.0 points [+8.3, +27.7]``: a difference (``{"p", "ci95"}``, fractions) in points."""
    return f"{100 * d['p']:+.1f}{unit} [{100 * d['ci95'][0]:+.1f}, {100 * d['ci95'][1]:+.1f}]"


def seat_shown(seat: dict) -> str:
    """A ladder seat's gain in words of :data:`LADDER_TEST`: "gains" (its paired interval
    above 0), "loses" (below 0), "at the ceiling" (the weaker player there already wins
    every game: nothing to gain), else "not shown"."""
    if seat.get("at_ceiling"):
        return "at the ceiling"
    lo, hi = seat["difference"]["ci95"]
    return "gains" if lo > 0 else "loses" if hi < 0 else "not shown"


def _seat_words(side: str, gain: dict, weak: str) -> str:
    shown = gain["shown"]
    if shown == "gains":
        return f"the {side} seat gains {_points_ci(gain)}"
    if shown == "loses":
        return f"the {side} seat loses {_points_ci(gain)}"
    if shown == "at the ceiling":
        return f"the {side} seat is at the ceiling ({weak} already wins every game there)"
    return f"the {side} seat {_points_ci(gain)} (gain not shown)"


def _ladder_reading(gains: dict, net: dict | None, sides: list[str], weak: str) -> tuple[str, str | None]:
    """What the top rung's seats say (``gains``: side -> :func:`moving_why`'s seat entry;
    ``net``: the rung's :func:`gain_difference`): a phrase and the side the stronger
    level's verdict leans to by them (None when they do not say)."""
    won = [s for s in sides if gains[s]["shown"] == "gains"]
    lost = [s for s in sides if gains[s]["shown"] == "loses"]
    if len(won) == 1:
        x = won[0]
        y = sides[1 - sides.index(x)]
        return f"the stronger player helps {x} only" + (f" and plays {y} worse" if y in lost else ""), x
    if len(won) == 2:
        if net is None:
            return "the stronger player helps both seats", None
        first, second = sides
        lo, hi = net["ci95"]
        if lo > 0 or hi < 0:
            x = first if net["p"] > 0 else second
            return (f"the stronger player helps both seats, {x} more ({first}'s gain minus {second}'s "
                    f"{_points_ci(net)})"), x
        return (f"the stronger player helps both seats about equally ({first}'s gain minus {second}'s "
                f"{_points_ci(net)})"), None
    if len(lost) == 1:
        x = lost[0]
        y = sides[1 - sides.index(x)]
        return f"the stronger player plays {x} worse than {weak} and shows no gain as {y}", y
    if len(lost) == 2:
        return f"the stronger player plays both seats worse than {weak}: it is not stronger here", None
    return "neither seat's gain is shown", None


def moving_why(conv: dict, sides: list[str], ladder: dict | None = None) -> dict:
    """Why a skill curve still moves (issue 41 item 4), from what the run already has.

    ``conv``: :func:`curve_convergence` (its ``levels``, weaker first, and each side's
    ``difference``, top minus next); ``towards``: the side whose win rate rose beyond the
    margin there, and more than the other's (None when none did: the draws moved). With ``ladder``
    (:func:`skill_ladder`, ``--ladder``) holding the rung of those two levels: each seat's
    gain there (the stronger player against the weaker, minus the weaker's own mirror in
    that seat: :data:`LADDER_TEST`), what they say (:func:`_ladder_reading`: the side the
    stronger level's verdict leans to, ``leans``) and whether that is the way the curve
    moved (``agrees``). Without it the text says which side's win rate moved and that
    ``--ladder`` shows which seat's player gains. ``text``: one sentence in the game's
    side names."""
    weak, strong = conv["levels"]
    diff = conv["difference"]
    up = max(sides, key=lambda s: diff[s]["p"])     # the side that gained on the other, beyond the margin
    towards = up if diff[up]["status"] == "moving" and diff[up]["p"] > max(0.0, *(diff[s]["p"] for s in sides
                                                                              if s != up)) else None
    moves = ", ".join(f"{s} {_points_ci(diff[s], ' points' if k == 0 else '')}" for k, s in enumerate(sides))
    head = f"from {weak} to {strong} the win rates move {moves}"
    head += f" (towards {towards})" if towards else " (no side's rose beyond the margin and more than the " \
                                                    "other's: the draws moved)"
    out: dict[str, Any] = {"levels": [weak, strong], "towards": towards,
                           "curve": {s: {"p": diff[s]["p"], "ci95": diff[s]["ci95"]} for s in sides}}
    rung = next((r for r in (ladder or {}).get("rungs", []) if r["weaker"] == weak and r["stronger"] == strong), None)
    if rung is None or ladder is None:
        out.update(source="curve", text=f"{head}; add --ladder to the command to see from which seat the stronger "
                                        f"player gains (each level against the one below it, from each seat)")
        return out
    gains = {row["strong_side"]: {**row["difference"], "shown": seat_shown(row)} for row in rung["seats"]}
    net = rung.get("gain_difference")
    reading, leans = _ladder_reading(gains, net, sides, weak)
    seats = ", ".join(_seat_words(s, gains[s], weak) for s in sides)
    text = (f"{head}; the ladder's rung {strong} against {weak} ({ladder['games_per_match']:,} games a match, each "
            f"seat against {weak} on both sides) shows {seats}: {reading}")
    if leans is not None and leans == towards:
        other = sides[1 - sides.index(leans)]
        text += f", so the top level's verdict leans {leans}; a player that plays {other} better may move it back"
    elif leans is not None:
        text += (f", yet the curve did not move towards {leans}: the ladder's gains do not explain the move "
                 "(more --ladder-games may)")
    else:
        text += (f"; the ladder does not say why the curve moves (the stronger level's own games are not the sum of "
                 f"its gains against {weak}; more --ladder-games may tell)")
    out.update(source="ladder", ladder_games=int(ladder["games_per_match"]), seats=gains, gain_difference=net,
               leans=leans, agrees=None if leans is None else leans == towards, text=text)
    return out


def verdict_at_strength(v: dict, level: str, conv: dict) -> dict:
    """The verdict of the strongest level of a skill curve, naming that strength, and
    saying plainly when the curve has not converged there."""
    out = dict(v, strength=level, converged=conv["status"] == "converged", convergence=conv["status"])
    text = f"at the strongest level played ({level} on both sides): {v['text']}"
    if conv["status"] != "converged":
        text += "; " + convergence_phrase(conv)
    out["text"] = text
    return out


FAMILY_TEST = ("the verdict depends on the player when, for a side, the 95% interval of the difference of its win "
               "rates with the top level and with the second family's player on both sides (paired game by game: "
               "the same seeds) lies wholly outside ± the margin; the families agree when it lies within for every "
               "side; otherwise undecided (more games needed); 'weaker' instead of 'depends' when the family's "
               "player does not beat greedy from both seats (its difference then says it plays worse)")


def family_strength(game, family: str, greedy_outcomes: np.ndarray | None, *, games: int, seed: int,
                    workers: int | None, options: RunOptions | None = None, progress: bool = True) -> dict:
    """Whether the second family's player is strong enough for its disagreement to mean
    something: it against greedy from both seats, each seat's win rate beside greedy's
    own there (``greedy_outcomes``: greedy on both sides, the same seeds; played here when
    None), judged as the ladder judges a rung (:data:`LADDER_TEST`). ``beats_greedy``:
    better from both seats (a seat greedy already wins every game counts as better when
    the family does too)."""
    sides = list(game.sides)
    if greedy_outcomes is None:
        greedy_outcomes = run_games(game, games=games, seed=seed, players=("greedy", "greedy"), workers=workers,
                                    options=options, progress="greedy v greedy" if progress else None
                                    ).tally.outcome_array()
    seats = []
    for seat in (0, 1):
        pl = (family, "greedy") if seat == 0 else ("greedy", family)
        res = run_games(game, games=games, seed=seed, players=pl, workers=workers, options=options,
                        progress=f"{pl[0]} v {pl[1]}" if progress else None)
        diff, _, better = seat_better(res.tally.outcome_array(), greedy_outcomes, seat)
        seats.append({"side": sides[seat], "win_rate": float(res.tally.wins[seat] / res.tally.games),
                      "greedy_win_rate": float((np.asarray(greedy_outcomes) == seat).mean()), "difference": diff,
                      "better": better})
    return {"against": "greedy", "seats": seats, "beats_greedy": all(x["better"] for x in seats),
            "test": LADDER_TEST}


def family_check(top_row: dict, top_outcomes: np.ndarray, fam_row: dict, fam_outcomes: np.ndarray,
                 sides: list[str], margin: float = DEFAULT_MARGIN, strength: dict | None = None) -> dict:
    """Whether a second family of search (``fam_row``, its per-game outcomes
    ``fam_outcomes``: a player that shares none of greedy's priors or value) reaches the
    top level's balance (``top_row``, ``top_outcomes``, the same seeds): per side the
    paired difference of its win rates (top minus family) judged as the curve's
    "moving" (:func:`simulator.run.verdicts.convergence`, :data:`FAMILY_TEST`). Status
    "depends" when a side's interval lies wholly outside ± ``margin``, "agrees" when
    every side's lies within, else "undecided" (``games_needed``: the more games that
    would most likely decide it); ``text`` says it in one sentence with both families'
    win rates and intervals. With ``strength`` (:func:`family_strength`) a family player
    that does not beat greedy from both seats turns "depends" into "weaker": its
    difference from the top level then says it plays worse, not that the verdict hangs on
    a blind spot of greedy's family."""
    diff = {s: _paired_side((np.asarray(top_outcomes) == i).astype(np.int64),
                            (np.asarray(fam_outcomes) == i).astype(np.int64), margin) for i, s in enumerate(sides)}
    combined, needed = sides_status(diff)
    status = {"moving": "depends", "converged": "agrees"}.get(combined, "undecided")
    if status == "depends" and strength is not None and not strength["beats_greedy"]:
        status = "weaker"
    out = {"player": fam_row["level"], "top_level": top_row["level"], "games": int(fam_row["games"]),
           "margin": margin, "status": status, "games_needed": needed, "difference": diff, "strength": strength,
           "win_rate": {"top": top_row["win_rate"], "family": fam_row["win_rate"]},
           "draw_rate": {"top": top_row["draw_rate"], "family": fam_row["draw_rate"]}, "test": FAMILY_TEST}
    out["text"] = family_phrase(out, sides)
    return out


def family_phrase(check: dict, sides: list[str]) -> str:
    """The family check in one sentence: whether the verdict depends on the player, with
    each family's win rates and intervals."""
    def rates(which):
        return ", ".join(f"{s} {100 * r['p']:.1f}% [{100 * r['ci95'][0]:.1f}, {100 * r['ci95'][1]:.1f}]"
                         for s, r in ((s, check["win_rate"][which][s]) for s in sides))
    pts = f"±{100 * check['margin']:g} points"
    both = f"{check['top_level']} wins {rates('top')}; {check['player']} wins {rates('family')}"
    if check["status"] == "depends":
        return (f"THE VERDICT DEPENDS ON THE PLAYER: a second search family ({check['player']}, no greedy priors "
                f"or value) differs from the top level by more than {pts} ({both})")
    if check["status"] == "weaker":
        seats = "; ".join(f"as {x['side']} it wins {100 * x['win_rate']:.1f}% against greedy, greedy itself "
                          f"{100 * x['greedy_win_rate']:.1f}%" for x in check["strength"]["seats"])
        return (f"a second search family ({check['player']}) differs from the top level by more than {pts}, but it "
                f"does not beat greedy from both seats ({seats}): it plays weaker, so the difference says nothing "
                f"of the top level's blind spots ({both})")
    if check["status"] == "agrees":
        return f"a second search family ({check['player']}) agrees with the top level within {pts} ({both})"
    more = check.get("games_needed")
    how = f"; about {more:,} more games would most likely decide it" if more is not None else ""
    return (f"undecided whether a second search family ({check['player']}) agrees with the top level within "
            f"{pts} ({both}{how})")


# --- restricted play ---------------------------------------------------------------

RESTRICTED_METHOD = ("restricted play (Jaffe et al., AIIDE 2012): the side is denied one kind of choice and "
                     "plays the same seeds as the main run (common random numbers); the change is the "
                     "paired per-game difference of that side's wins, with Tango's paired score interval (95%; "
                     "a restriction that changed no game gets the exact bound); 'significant' is the exact sign "
                     "test (McNemar) of the games whose result changed for that side, Holm-adjusted over all the "
                     "restrictions of the run (the family); a decision where the restriction would leave "
                     "nothing legal keeps every action")


def restricted_play(game, asked: list, params: list[np.ndarray], base: np.ndarray, *, games: int, seed: int,
                    players: tuple[str, str], workers: int | None, progress: bool = True,
                    options: RunOptions | None = None) -> list[dict]:
    """Each restriction of ``asked`` (a game's own objects with ``side``, ``side_name``,
    ``what`` and ``label``; Assault's and Tide of Iron's ``Asked``) played with the players'
    parameters ``params[k]`` that forbid it, on the main run's seeds (``base``: its
    outcomes): the restricted side's win rate and its change with the paired interval, the
    family Holm-corrected (:func:`holm_family`). Game-independent: both games' restricted
    play is this driver."""
    rows = []
    for k, (a, par) in enumerate(zip(asked, params, strict=True)):
        res = run_games(game, games=games, seed=seed, players=players, workers=workers, options=options,
                        params=par, progress=f"restricted {a.label} ({k + 1} of {len(asked)})" if progress else None)
        out = res.tally.outcome_array()
        wins = int((out == a.side).sum())
        lo, hi = wilson_interval(wins, len(out))
        cmp = paired_comparison(base, out, a.side, list(game.sides))
        rows.append({"side": a.side_name, "restriction": a.what, "win_rate": wins / len(out),
                     "win_rate_ci95": [lo, hi], "base_win_rate": float((base == a.side).mean()),
                     "games": len(out), "wins": wins, **cmp})
    holm_family(rows)
    return rows


SHORT_RESTRICT_GAMES = 500      # games per restriction of the batch report's short restricted play


def what_matters_most(report: dict, result, every: list, params: list[np.ndarray], base: np.ndarray, *,
                      command: str, seed: int, players: tuple[str, str], workers: int | None, progress: bool = True,
                      options: RunOptions | None = None) -> None:
    """The batch report's "what matters most": every restriction of ``every`` (both sides'
    ``--restrict-all``; ``params[k]`` the players' parameters that forbid ``every[k]``)
    played on the batch's first :data:`SHORT_RESTRICT_GAMES` games, when that is estimated
    (restrictions x games / the batch's games per second) to take no longer than the batch
    itself; else the exact command that gets it (``command``: the game's scenario command
    and the scenario's name). Fills ``report["what_matters"]`` (``status`` played or
    skipped, ``games``, ``restrictions``, ``estimate_seconds``, ``batch_seconds``,
    ``command``, ``text``) and, when played, ``report["restricted"]``; a skip is also one
    line on stderr. Game-independent: both games' batch reports call it."""
    import math
    import sys

    game = result.game
    n = min(SHORT_RESTRICT_GAMES, len(base))
    speed = report.get("games_per_second") or 0.0
    estimate = len(every) * n / speed if speed > 0 else math.inf
    command = (f"{command} --games {n} --seed {seed} --players {','.join(players)} "
               + " ".join(f"--restrict-all {side}" for side in game.sides) + " --out DIR")
    info = {"games": n, "restrictions": len(every), "estimate_seconds": estimate if math.isfinite(estimate) else None,
            "batch_seconds": result.seconds, "command": command}
    if not every:
        report["what_matters"] = {**info, "status": "skipped", "text": "no restriction applies to either side"}
        return
    if estimate > result.seconds:
        text = (f"not played (about {estimate:,.1f} s for {len(every)} restrictions x {n} games, longer than the "
                f"batch's {result.seconds:,.1f} s); to get it: {command}")
        report["what_matters"] = {**info, "status": "skipped", "text": text}
        print(f"lanchester: what matters most: {text}", file=sys.stderr)
        return
    report["restricted"] = restricted_play(game, every, params, base[:n], games=n, seed=seed, players=players,
                                           workers=workers, progress=progress, options=options)
    report["restricted_method"] = RESTRICTED_METHOD + f"; a short run: the batch's first {n:,} games"
    report["what_matters"] = {**info, "status": "played",
                              "text": f"{len(every)} restrictions x the batch's first {n:,} games (about "
                                      f"{estimate:,.1f} s, within the batch's {result.seconds:,.1f} s); "
                                      f"more games: {command.replace(f'--games {n}', '--games N')}"}


def balance_frame(report: dict) -> pd.DataFrame:
    """One row per side: win rate and interval (and per variant when there are what-ifs):
    :meth:`~simulator.engine.core.answers.BalanceReport.frame` of the report."""
    return BalanceReport.of(report).frame()
