"""The matchup matrix: every firer against every target, at each range and terrain.

``matchup_answer()`` answers it as a value
(:class:`~simulator.games.assault.questions.answers.MatrixAnswer`): the question and a
table, one row per (firer, target, range, terrain), with every metric of the fire question (:func:`simulator.games.assault.rules.fire.fire`)
computed exactly through the same pieces: :func:`~simulator.games.assault.rules.pools.fire_pools`
assembles the dice, :func:`~simulator.games.assault.rules.fire.exact_states` resolves them and
:func:`~simulator.games.assault.rules.fire.summarise_states` gives the metrics. Cells whose pools
and target are the same (a range band spans several hexes; cards share dice) are
computed once.

It covers direct fire only (chapter 10; the ``fire`` column says ``direct``):
indirect fire (chapter 7) has its own question, ``fire(..., FireSituation(indirect=True))``.

The situation is the plain one: both units regular, undamaged and steady, the firer
firing (10.0), spotting by the rules (10.5), vehicle targets hit on the facing given
(front by default, 10.9.3). A pair that cannot fire (out of range, or a card with no
dice against that kind of target, 10.1, 4.2.2) is a row with ``can_fire`` False, the
reason, and empty metrics. ``matchup_matrix()`` is the table alone, for notebooks.
"""

from __future__ import annotations

import re
import time
from dataclasses import replace
from pathlib import Path

import pandas as pd

from simulator.games.assault.questions.answers import MatrixAnswer
from simulator.games.assault.rules.aid import Aid, load_aid
from simulator.games.assault.rules.cards import UnitCard, find_unit, load_units
from simulator.games.assault.rules.dice import DiceSet, as_dice, format_pool
from simulator.games.assault.rules.fire import exact_states, target_of
from simulator.games.assault.rules.pools import FirePools, FireSituation, fire_pools
from simulator.games.assault.rules.support import Support, as_support
from simulator.games.assault.rules.target_states import state_frame, summarise_states
from simulator.run.errors import InputError

MATRIX_COLUMNS = ["firer", "target", "range", "terrain", "target_facing", "can_fire", "reason",
                  "attack_pool", "defence_pool", "p_spotted", "p_eliminated", "p_suppressed_fallback_or_eliminated",
                  "p_fallback", "p_immobilised", "mean_damage", "fire"]
FIRE_KIND = "direct"   # the "fire" column: the matrix is direct fire (chapter 10) only
FIRE_COVERED = ("direct fire only (chapter 10); indirect fire (chapter 7: mortars, artillery) "
                "is not in the matrix: ask `lanchester assault fire FIRER TARGET --indirect`")
from simulator.run.vocabulary import VEHICLE_FACINGS  # noqa: E402 - one definition

_SUMMARY_KEYS = ("p_eliminated", "p_suppressed_fallback_or_eliminated", "p_fallback", "p_immobilised", "mean_damage")


def parse_ranges(text: str | None, where: str = "--ranges") -> tuple[int, ...] | None:
    """``"1-6"``, ``"1,3,5"``, ``"2-4,6"`` -> sorted ranges; ``None`` stays ``None``."""
    if text is None:
        return None
    out: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        m = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", part)
        if not m:
            raise InputError(where, "", f"cannot read {part!r}: give ranges like 1-6 or 1,3,5")
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if lo < 1 or hi < lo:
            raise InputError(where, "", f"{part!r}: ranges are whole hexes from 1 up (e.g. 1-6)")
        out.update(range(lo, hi + 1))
    return tuple(sorted(out))


def unit_ids(items: list[str] | None, units: dict[str, UnitCard], where: str) -> list[str]:
    """Unit ids from a list of ids and side names (``german`` = all German units)."""
    if not items:
        return list(units)
    sides = {c.side for c in units.values()}
    out: list[str] = []
    for item in items:
        ids = [i for i, c in units.items() if c.side == item] if item in sides else [find_unit(units, item, where).id]
        out += [i for i in ids if i not in out]
    return out


def cannot_fire_reason(firer: UnitCard, target: UnitCard, distance: int) -> str:
    dice = firer.attack_dice(distance, target.is_armoured_vehicle)
    if dice is None:
        return f"out of range (max range {firer.max_range})"
    row = "armoured vehicles" if target.is_armoured_vehicle else "infantry/artillery"
    return f"no dice vs {row} at this range"


def _pools_key(pools: FirePools) -> FirePools:
    """What the exact answer depends on: the pools without the explanation steps."""
    return replace(pools, steps=())


def matchup_matrix(firers: list[str] | None = None, targets: list[str] | None = None,
                   ranges: tuple[int, ...] | None = None, terrains: tuple[str, ...] = ("clear",), *,
                   facing: str = "front", dice: DiceSet | str | Path | None = None,
                   aid: Aid | str | Path | None = None, units_dir: str | Path | None = None,
                   support: Support | str | Path | None = None) -> pd.DataFrame:
    """Exact fire metrics for every firer x target x range x terrain (one row each): the
    table of :func:`matchup_answer` (same arguments).

    >>> matchup_matrix(["german/rifles-41"], ["soviet"], (1, 3)).shape  # doctest: +SKIP
    """
    return matchup_answer(firers, targets, ranges, terrains, facing=facing, dice=dice, aid=aid,
                          units_dir=units_dir, support=support).frame()


def matchup_answer(firers: list[str] | None = None, targets: list[str] | None = None,
                   ranges: tuple[int, ...] | None = None, terrains: tuple[str, ...] = ("clear",), *,
                   facing: str = "front", dice: DiceSet | str | Path | None = None,
                   aid: Aid | str | Path | None = None, units_dir: str | Path | None = None,
                   support: Support | str | Path | None = None) -> MatrixAnswer:
    """The matchup matrix as a value: exact fire metrics for every firer x target x
    range x terrain, and the question.

    ``firers``/``targets``: unit ids or side names (default: the whole roster).
    ``ranges``: default 1 to the longest range among the firers.
    """
    start = time.perf_counter()
    dice = as_dice(dice)
    aid = aid if isinstance(aid, Aid) else load_aid(aid, dice)
    support = as_support(support, aid)
    units = load_units(units_dir, dice)
    if facing not in VEHICLE_FACINGS:
        raise InputError("--facing", "", f"unknown facing {facing!r} ({', '.join(VEHICLE_FACINGS)})")
    f_ids, t_ids = unit_ids(firers, units, "--firers"), unit_ids(targets, units, "--targets")
    terrains = tuple(aid.terrain(t, "--terrain").name for t in terrains)
    if ranges is None:
        ranges = tuple(range(1, max([units[f].max_range for f in f_ids] + [1]) + 1))
    cache: dict[tuple, dict] = {}
    rows = []
    for f_id in f_ids:
        f = units[f_id]
        for t_id in t_ids:
            g = units[t_id]
            for terrain in terrains:
                for r in ranges:
                    rows.append(_cell(f, g, FireSituation(range=r, terrain=terrain,
                                                          target_facing=facing if g.is_vehicle else None),
                                      aid, dice, units, support, cache))
    return MatrixAnswer(firers=f_ids, targets=t_ids, ranges=list(ranges), terrains=list(terrains), facing=facing,
                        dice=dice.name, dice_status=dice.status, aid=aid.name, aid_status=aid.status,
                        table=pd.DataFrame(rows, columns=MATRIX_COLUMNS), computed=len(cache), fire=FIRE_COVERED,
                        seconds=time.perf_counter() - start)


def _cell(f: UnitCard, g: UnitCard, s: FireSituation, aid: Aid, dice: DiceSet,
          units: dict[str, UnitCard], support: Support, cache: dict) -> dict:
    row = {"firer": f.id, "target": g.id, "range": s.range, "terrain": s.terrain,
           "target_facing": s.target_facing or "", "can_fire": False, "reason": "",
           "attack_pool": "", "defence_pool": "", "p_spotted": float("nan"),
           **{k: float("nan") for k in _SUMMARY_KEYS}, "fire": FIRE_KIND}
    try:
        pools = fire_pools(f, g, s, aid, units=units, support=support)
    except InputError as exc:
        if exc.where != "--range":   # only "no attack dice here" means the pair cannot fire
            raise
        row["reason"] = cannot_fire_reason(f, g, s.range)
        return row
    t = target_of(g, s, aid)
    key = (_pools_key(pools), t, g.half_strength_threshold)
    if key not in cache:
        states = state_frame(exact_states(pools, t, dice), g.strength, g.half_strength_threshold, None)
        cache[key] = summarise_states(states, s.target_damage, None)
    summary = cache[key]
    row.update({"can_fire": True, "attack_pool": format_pool(pools.attack),
                "defence_pool": format_pool(pools.defence), "p_spotted": pools.p_spotted,
                **{k: summary[k] for k in _SUMMARY_KEYS}})
    return row
