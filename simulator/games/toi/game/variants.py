"""Tide of Iron's what-if keys (``lanchester toi scenario --vary KEY=V1,V2 / --tune KEY``):
a variant is the scenario file with a value overridden before it is compiled, played on
the main run's seeds by the shared what-ifs (:func:`simulator.engine.core.balance.paired_variants`,
:func:`~simulator.engine.core.balance.tune_scan`).

Keys (the scenario file's own, 001 Setup and Action phase):

- ``rounds=N``: the rounds of the game (the file's ``rounds``);
- ``actions=N``: the actions per player turn (``actions_per_turn``);
- ``initiative=SIDE``: the side that starts with the initiative token (``initiative``);
- ``vp.OBJECTIVE=N``: the victory points of one objective, named by its ``hex`` as the
  file writes it or by its ``name`` (``vp.9,4=1,3``, ``"vp.east farm=3"``);
- ``count.SIDE.UNIT=N``: how many of one squad or vehicle entry of a side the scenario
  fields (its ``count``; 0 drops the entry), 001 Setup;
- ``experience.SIDE.UNIT=LEVEL``: Tide of Iron's infantry has no experience levels; its
  nearest equivalent is the figure type, regular or elite (001 Elite infantry: the elite
  figure's firepower and Battle-Hardened), so every regular or elite figure of the squad
  entry becomes ``LEVEL`` (rulings T45).

``UNIT`` names an entry of the side's ``squads`` or ``vehicles`` (:func:`unit_entry`): its
``figures`` as written (``3regular+officer``), a vehicle's ``model`` (``sherman``), or its
place, ``squads[K]`` / ``vehicles[K]`` (needed when two entries have the same figures).

Bad keys and values raise :class:`~simulator.run.errors.InputError` naming ``--vary`` (or
``--tune``) and the key: one line, exit status 2.
"""

from __future__ import annotations

import re

from simulator.engine.core.balance import Combined, parse_vary_items, range_values
from simulator.games.toi.game.scenario import (
    ObjectiveSpec,
    Scenario,
    ScenarioFile,
    SquadSpec,
    VehicleSpec,
    compile_scenario,
)
from simulator.run.errors import InputError
from simulator.run.suggest import did_you_mean

KEYS = {"rounds": "rounds", "actions": "actions_per_turn", "initiative": "initiative"}   # key -> file field
UNIT_KEYS = ("count", "experience")              # count.SIDE.UNIT, experience.SIDE.UNIT
TUNE_KEYS = ("rounds", "actions", "vp.OBJECTIVE", "count.SIDE.UNIT")
KEY_LIST = "rounds, actions, initiative, vp.OBJECTIVE, count.SIDE.UNIT, experience.SIDE.UNIT"
LEVELS = ("regular", "elite")                    # the figure types experience.SIDE.UNIT switches between


def _limits(field: str, model=ScenarioFile) -> tuple[int, int]:
    """The file's own bounds of a numeric field (its pydantic ``ge`` and ``le``)."""
    meta = model.model_fields[field].metadata
    lo = next(m.ge for m in meta if hasattr(m, "ge"))
    hi = next(m.le for m in meta if hasattr(m, "le"))
    return lo, hi


def parse_vary(items, scenario: Scenario, option: str = "--vary") -> list[tuple[str, list]]:
    """``["rounds=4,6", "initiative=german", "rounds=5&vp.9,4=2"]`` -> ``[(key, [value, ...]), ...]``,
    each value checked by compiling its variant (a value the scenario cannot take fails here,
    before any game is played); an ``&`` item is one variant of all its changes
    (:func:`simulator.engine.core.balance.parse_vary_items`)."""
    def checked(key, text, opt):
        value = parse_value(key, text, scenario, opt)
        variant(scenario, key, value, opt)
        return value
    out = parse_vary_items(items, checked, option)
    for key, values in out:
        for v in values:
            if isinstance(v, Combined):
                variant(scenario, key, v, option)         # the changes together (each alone was checked)
    return out


def _objective(key: str, scenario: Scenario, option: str) -> int:
    """The index of the objective ``vp.OBJECTIVE`` names (its hex as written, or its name)."""
    which = key.partition(".")[2]
    objs = scenario.spec.objectives
    for k, o in enumerate(objs):
        if which in (o.hex, o.name):
            return k
    known = ", ".join(o.hex + (f" ({o.name})" if o.name else "") for o in objs)
    raise InputError(option, key, f"no objective {which!r} (objectives: {known})")


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", text.strip().lower()).replace("-", "_")


def unit_entry(key: str, scenario: Scenario, option: str = "--vary") -> tuple[str, str, int]:
    """``count.SIDE.UNIT`` / ``experience.SIDE.UNIT`` -> ``(side, "squads" or "vehicles",
    index)``: the entry UNIT names (its figures, a vehicle's model, or ``squads[K]`` /
    ``vehicles[K]``). Unknown or ambiguous names raise InputError (one line)."""
    parts = key.split(".", 2)
    sides = list(scenario.side_names)
    if len(parts) != 3 or not parts[1] or not parts[2]:
        raise InputError(option, key, f"write {parts[0]}.SIDE.UNIT (sides: {', '.join(sides)})")
    side, unit = parts[1].strip(), parts[2].strip()
    if side not in sides:
        raise InputError(option, key, f"unknown side {side!r}{did_you_mean(side, sides)} (sides: {', '.join(sides)})")
    sp = scenario.spec.sides[side]
    m = re.fullmatch(r"(squads|vehicles)\[(\d+)\]", unit)
    if m:
        k, entries = int(m.group(2)), getattr(sp, m.group(1))
        if k >= len(entries):
            raise InputError(option, key, f"{side} has {len(entries)} {m.group(1)} entries (0-{len(entries) - 1})")
        return side, m.group(1), k
    named = [("squads", k, _norm(q.figures)) for k, q in enumerate(sp.squads)]
    named += [("vehicles", k, _norm(v.model)) for k, v in enumerate(sp.vehicles)]
    hits = [(kind, k) for kind, k, n in named if n == _norm(unit)]
    if not hits:
        names = [n for _, _, n in named]
        raise InputError(option, key, f"{side} has no squad or vehicle {unit!r}{did_you_mean(_norm(unit), names)} "
                                      f"(its entries: {', '.join(names)}; or squads[K], vehicles[K])")
    if len(hits) > 1:
        raise InputError(option, key, f"{side} has {len(hits)} entries {unit!r}: name one as "
                                      f"{hits[0][0]}[{hits[0][1]}] or {hits[1][0]}[{hits[1][1]}]")
    return side, hits[0][0], hits[0][1]


def parse_value(key: str, value: str, scenario: Scenario, option: str = "--vary"):
    root = key.partition(".")[0]
    if key not in KEYS and root not in ("vp",) + UNIT_KEYS:
        raise InputError(option, key, f"unknown key{did_you_mean(root, list(KEYS) + ['vp', *UNIT_KEYS])} "
                                      f"({KEY_LIST})")
    if root == "vp":
        _objective(key, scenario, option)
    if root in UNIT_KEYS:
        side, kind, k = unit_entry(key, scenario, option)
        if root == "experience":
            if kind == "vehicles":
                raise InputError(option, key, "a vehicle has no experience level (a squad's figures: regular, elite)")
            if value.strip().lower() not in LEVELS:
                raise InputError(option, key, f"{value!r} is not a level ({', '.join(LEVELS)}; rulings T45)")
            return value.strip().lower()
    if key == "initiative":
        if value not in scenario.side_names:
            raise InputError(option, key, f"{value!r} is not a side ({', '.join(scenario.side_names)})")
        return value
    try:
        v = int(value)
    except ValueError:
        raise InputError(option, key, f"{value!r} is not a whole number") from None
    if root == "count":
        lo, hi = 0, _limits("count", SquadSpec if kind == "squads" else VehicleSpec)[1]    # 0: the entry dropped
    else:
        lo, hi = _limits("vp", ObjectiveSpec) if root == "vp" else _limits(KEYS[key])
    if not lo <= v <= hi:
        raise InputError(option, key, f"{v} is out of range ({lo}-{hi})")
    return v


def variant(scenario: Scenario, key: str, value, option: str = "--vary") -> Scenario:
    """The scenario with ``key`` set to ``value``, compiled (the file's checks apply); a
    :class:`~simulator.engine.core.balance.Combined` value: each of its changes in turn."""
    if isinstance(value, Combined):
        for k, v in value.changes:
            scenario = variant(scenario, k, v, option)
        return scenario
    if key.startswith("vp."):
        k = _objective(key, scenario, option)
        objs = list(scenario.spec.objectives)
        objs[k] = objs[k].model_copy(update={"vp": value})
        spec = scenario.spec.model_copy(update={"objectives": objs})
    elif key.partition(".")[0] in UNIT_KEYS:
        spec = _unit_variant(scenario, key, value, option)
    else:
        spec = scenario.spec.model_copy(update={KEYS[key]: value})
    try:
        return compile_scenario(spec, scenario.path, scenario.game)
    except InputError as e:
        raise InputError(option, f"{key}={value}", e.problem) from None


def _unit_variant(scenario: Scenario, key: str, value, option: str) -> ScenarioFile:
    """The file with one squad or vehicle entry's ``count`` set (0: dropped) or its regular
    and elite figures all made ``value`` (rulings T45)."""
    side, kind, k = unit_entry(key, scenario, option)
    sp = scenario.spec.sides[side]
    entries = list(getattr(sp, kind))
    if key.startswith("count."):
        if value == 0:
            del entries[k]
            if kind == "squads" and not entries:
                raise InputError(option, f"{key}={value}", f"{side} would field no squad")
        else:
            entries[k] = entries[k].model_copy(update={"count": value})
    else:
        other = LEVELS[1 - LEVELS.index(value)]
        figures = re.sub(rf"\b(\d*)\s*{other}\b", rf"\g<1>{value}", entries[k].figures.lower())
        entries[k] = entries[k].model_copy(update={"figures": figures})
    sides = dict(scenario.spec.sides)
    sides[side] = sp.model_copy(update={kind: entries})
    return scenario.spec.model_copy(update={"sides": sides})


def tune_limits(key: str, scenario: Scenario) -> tuple[int, int]:
    """The least and greatest value of a tunable key (the file's own bounds; a unit's count
    at least 1: tuning never drops the entry)."""
    if key.startswith("vp."):
        _objective(key, scenario, "--tune")
        return _limits("vp", ObjectiveSpec)
    if key.startswith("count."):
        _side, kind, _k = unit_entry(key, scenario, "--tune")
        return 1, _limits("count", SquadSpec if kind == "squads" else VehicleSpec)[1]
    if key in ("rounds", "actions"):
        return _limits(KEYS[key])
    raise InputError("--tune", key, f"tune a number: {', '.join(TUNE_KEYS)}")


def tune_values(key: str, scenario: Scenario, span: tuple[int, int] | None = None) -> list[int]:
    """The values ``--tune KEY`` scans: ``span`` (``--range LO:HI``, within the key's
    limits) when given, else around the scenario's own, within the file's bounds."""
    lo, hi = tune_limits(key, scenario)
    if span is not None:
        return range_values(key, span, (lo, hi))
    if key.startswith("vp."):
        now, span_ = scenario.spec.objectives[_objective(key, scenario, "--tune")].vp, 3
    elif key.startswith("count."):
        _side, kind, k = unit_entry(key, scenario, "--tune")
        now, span_ = getattr(scenario.spec.sides[_side], kind)[k].count, 3
    else:
        now, span_ = int(getattr(scenario.spec, KEYS[key])), (4 if key == "rounds" else 2)
    return list(range(max(lo, now - span_), min(hi, now + span_) + 1))
