"""Scenarios as data: ``scenarios/assault/*.scenario.toml`` and the formation cards of
``scenarios/assault/formations/*.toml`` (4.1, 4.7, chapter 5): finding a scenario file,
checking it and loading it.

A scenario file names the scenario, its turns, its map, objective hexes, the two sides'
forces, formation draws (5.6), reinforcements (5.7), who sets up first (5.8), the
initiative rule (6.1), optional rules (4.9), victory conditions (3.1, 6.6, 9.7) and the
close-combat edition. A file with only ``name`` and ``[map]`` is enough for the map and
LOS commands. The models of :mod:`~simulator.games.assault.game.scenario_format` document
every key; the shipped scenario files show them in use, with comments.

:func:`check_scenario` reports every problem of a file, each with its key path (its
shape by the models, the rest by :mod:`~simulator.games.assault.game.scenario_checks`,
one module per table of the format); :func:`load_scenario` raises the first as an
:class:`~simulator.run.errors.InputError`; :func:`alternate_history` is a scenario's
alternate-history version (5.3).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pydantic

from simulator.games.assault.game.scenario_checks import Checker
from simulator.games.assault.game.scenario_format import ASSAULT_DIR, SUFFIX, Report, Scenario, pydantic_problems
from simulator.games.assault.rules.cards import UnitCard
from simulator.run.datafile import (
    CheckResult,
    Problem,
    read_regular,
    read_toml,
)
from simulator.run.errors import InputError
from simulator.run.suggest import did_you_mean

# --- finding files --------------------------------------------------------------------

def shipped_scenarios() -> list[Path]:
    """The scenario files shipped in ``scenarios/assault/``, sorted by name."""
    return sorted(ASSAULT_DIR.glob(f"*{SUFFIX}"))


def resolve_scenario(path_or_name: str | Path) -> Path:
    """A scenario file path, or the name of a shipped scenario (``infantry-training``)."""
    p = Path(path_or_name)
    if p.is_file():
        return p
    shipped = ASSAULT_DIR / f"{path_or_name}{SUFFIX}"
    if "/" not in str(path_or_name) and shipped.is_file():
        return shipped
    if p.exists():                  # a folder, a FIFO, a device: say which (issue 44.8), never "no such file"
        read_regular(p, what="a scenario")
    names = [s.name[: -len(SUFFIX)] for s in shipped_scenarios()]
    hint = did_you_mean(Path(str(path_or_name)).name.removesuffix(SUFFIX), names)
    raise InputError(str(path_or_name), "", f"no such scenario file or shipped scenario{hint} "
                     f"(shipped: {', '.join(names)})")


# --- checking -------------------------------------------------------------------------

def check_scenario(path_or_name: str | Path, data: Mapping[str, str | Path] | None = None) -> CheckResult:
    """Check a scenario file and report EVERY problem found, each with its key path.

    ``data`` holds data files given on the command line (keys ``dice``, ``aid``,
    ``units``, ``formations``; paths relative to the working folder): they beat the
    scenario's ``[data]`` table, which beats the shipped files. The result holds the
    loaded :class:`Scenario` when there are no errors (warnings allowed)."""
    try:
        path = resolve_scenario(path_or_name)
    except InputError as exc:
        return CheckResult(str(path_or_name), [Problem(exc.key, exc.problem)])
    where = str(path)
    result = CheckResult(where)
    try:
        raw = read_toml(path)
    except InputError as exc:
        result.problems.append(Problem(exc.key, exc.problem))
        return result
    report = Report()
    scenario = None
    try:
        scenario = Scenario.model_validate(raw)
    except pydantic.ValidationError as exc:
        report.problems.extend(pydantic_problems(exc, model=Scenario))
    Checker(path, raw, scenario, report, data).run()
    result.problems = report.problems
    if scenario is not None and result.ok:
        result.scenario = scenario
    return result


def load_scenario(path_or_name: str | Path, data: Mapping[str, str | Path] | None = None) -> Scenario:
    """Load and check a scenario (a file path, or a shipped scenario's name); ``data``
    as for :func:`check_scenario`.

    Raises :class:`~simulator.run.errors.InputError` with the key path of the first error;
    ``lanchester assault check`` lists them all."""
    result = check_scenario(path_or_name, data)
    if not result.ok:
        first = result.errors[0]
        raise InputError(result.where, first.key, first.message)
    return result.scenario


# --- alternate history (5.3) ------------------------------------------------------------

def equivalent_unit(card: UnitCard, side: str, units: dict[str, UnitCard]) -> UnitCard:
    """The other side's closest equivalent of a unit (5.3, 5.7): the same type, then the
    same class, else the class sharing most trailing words ("medium machine gun" ~
    "heavy machine gun"), then the nearest points value (4.2.1), then the lowest id."""
    own = [u for u in units.values() if u.side == side and u.type == card.type]
    if not own:
        raise InputError("alternate history", card.id, f"side {side} has no {card.type} unit "
                         f"to stand in for {card.id} (5.3)")

    def shared(a: str, b: str) -> int:
        n = 0
        for x, y in zip(reversed(a.split()), reversed(b.split()), strict=False):
            if x != y:
                break
            n += 1
        return n

    return min(own, key=lambda u: (u.unit_class != card.unit_class,
                                   -shared(u.unit_class, card.unit_class),
                                   abs(u.points - card.points), u.id))


def alternate_history(scenario: Scenario) -> Scenario:
    """The alternate-history version of a scenario (5.3): each side takes the other
    faction's colour, set-up zones, formation draws, reinforcements and victory
    conditions; the individual units listed for the other faction (starting forces and
    reinforcements) become the side's own closest equivalents (:func:`equivalent_unit`).
    Formation draws come from the side's own deck (``deck`` reset to all its cards).
    Side order, map and objectives stay."""
    a, b = scenario.side_names
    new = scenario.model_copy(deep=True)
    for attr in ("_path", "_dice", "_aid", "_units", "_formations", "_board", "_data_chosen"):
        setattr(new, attr, getattr(scenario, attr))
    units = scenario.units
    swap = {a: b, b: a}

    def convert(uid: str, side: str) -> str:
        return equivalent_unit(units[uid], side, units).id

    for side in (a, b):
        theirs = scenario.sides[swap[side]].model_copy(deep=True)
        for f in theirs.units:
            f.unit = convert(f.unit, side)
            for p in f.carrying:
                p.unit = convert(p.unit, side)
        for rf in theirs.reinforcements:
            for u in rf.units:
                u.unit = convert(u.unit, side)
                for p in u.carrying:
                    p.unit = convert(p.unit, side)
        if theirs.formations is not None:
            theirs.formations.deck = None
        new.sides[side] = theirs
    for key in ("first_setup", "initiative"):
        value = getattr(scenario, key)
        setattr(new, key, swap.get(value, value))
    new.victory.if_neither = swap.get(scenario.victory.if_neither, scenario.victory.if_neither)
    new.name = f"{scenario.name} (alternate history)"
    return new
