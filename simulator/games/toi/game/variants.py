"""Tide of Iron's what-if keys (``lanchester toi scenario --vary KEY=V1,V2 / --tune KEY``):
a variant is the scenario file with a value overridden before it is compiled, played on
the main run's seeds by the shared what-ifs (:func:`simulator.engine.core.balance.paired_variants`,
:func:`~simulator.engine.core.balance.tune_scan`).

Keys (the scenario file's own, 001 Setup and Action phase):

- ``rounds=N``: the rounds of the game (the file's ``rounds``);
- ``actions=N``: the actions per player turn (``actions_per_turn``);
- ``initiative=SIDE``: the side that starts with the initiative token (``initiative``);
- ``vp.OBJECTIVE=N``: the victory points of one objective, named by its ``hex`` as the
  file writes it or by its ``name`` (``vp.9,4=1,3``, ``"vp.east farm=3"``).

Bad keys and values raise :class:`~simulator.run.errors.InputError` naming ``--vary`` (or
``--tune``) and the key: one line, exit status 2.
"""

from __future__ import annotations

from simulator.games.toi.game.scenario import ObjectiveSpec, Scenario, ScenarioFile, compile_scenario
from simulator.run.errors import InputError

KEYS = {"rounds": "rounds", "actions": "actions_per_turn", "initiative": "initiative"}   # key -> file field
TUNE_KEYS = ("rounds", "actions", "vp.OBJECTIVE")
KEY_LIST = "rounds, actions, initiative, vp.OBJECTIVE"


def _limits(field: str, model=ScenarioFile) -> tuple[int, int]:
    """The file's own bounds of a numeric field (its pydantic ``ge`` and ``le``)."""
    meta = model.model_fields[field].metadata
    lo = next(m.ge for m in meta if hasattr(m, "ge"))
    hi = next(m.le for m in meta if hasattr(m, "le"))
    return lo, hi


def parse_vary(items, scenario: Scenario, option: str = "--vary") -> list[tuple[str, list]]:
    """``["rounds=4,6", "initiative=german"]`` -> ``[(key, [value, ...]), ...]``, each
    value checked by compiling its variant (a value the scenario cannot take fails here,
    before any game is played)."""
    out = []
    for item in items:
        key, sep, values = item.partition("=")
        key = key.strip()
        vals = [v.strip() for v in values.split(",") if v.strip()]
        if not sep or not vals:
            raise InputError(option, "", f"write KEY=V1,V2,... (got {item!r})")
        parsed = [parse_value(key, v, scenario, option) for v in vals]
        for v in parsed:
            variant(scenario, key, v, option)
        out.append((key, parsed))
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


def parse_value(key: str, value: str, scenario: Scenario, option: str = "--vary"):
    root = key.partition(".")[0]
    if key not in KEYS and root != "vp":
        raise InputError(option, key, f"unknown key ({KEY_LIST})")
    if root == "vp":
        _objective(key, scenario, option)
    if key == "initiative":
        if value not in scenario.side_names:
            raise InputError(option, key, f"{value!r} is not a side ({', '.join(scenario.side_names)})")
        return value
    try:
        v = int(value)
    except ValueError:
        raise InputError(option, key, f"{value!r} is not a whole number") from None
    lo, hi = _limits("vp", ObjectiveSpec) if root == "vp" else _limits(KEYS[key])
    if not lo <= v <= hi:
        raise InputError(option, key, f"{v} is out of range ({lo}-{hi})")
    return v


def variant(scenario: Scenario, key: str, value, option: str = "--vary") -> Scenario:
    """The scenario with ``key`` set to ``value``, compiled (the file's checks apply)."""
    if key.startswith("vp."):
        k = _objective(key, scenario, option)
        objs = list(scenario.spec.objectives)
        objs[k] = objs[k].model_copy(update={"vp": value})
        spec = scenario.spec.model_copy(update={"objectives": objs})
    else:
        spec = scenario.spec.model_copy(update={KEYS[key]: value})
    try:
        return compile_scenario(spec, scenario.path, scenario.game)
    except InputError as e:
        raise InputError(option, f"{key}={value}", e.problem) from None


def tune_values(key: str, scenario: Scenario) -> list[int]:
    """The values ``--tune KEY`` scans: around the scenario's own, within the file's bounds."""
    if key.startswith("vp."):
        now = scenario.spec.objectives[_objective(key, scenario, "--tune")].vp
        (lo, hi), span = _limits("vp", ObjectiveSpec), 3
    elif key in ("rounds", "actions"):
        lo, hi = _limits(KEYS[key])
        now = int(getattr(scenario.spec, KEYS[key]))
        span = 4 if key == "rounds" else 2
    else:
        raise InputError("--tune", key, f"tune a number: {', '.join(TUNE_KEYS)}")
    return list(range(max(lo, now - span), min(hi, now + span) + 1))
