"""Where an Assault answer's data came from: the dice, aid, unit cards and support in use,
or a compiled scenario's files (:class:`reports.provenance.Source` rows)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from reports.provenance import Source, shown_path


def assault_data(*, dice=None, aid=None, units_dir=None, support=None, parts: Iterable[str] = ("dice",)
                 ) -> tuple[list[Source], list[Path]]:
    """Sources and files of the Assault data in use (``parts``: dice, aid, units, support).

    ``dice``/``aid``/``units_dir``/``support`` are what the command was given (objects,
    files or ``None`` for the shipped data).
    """
    from simulator.games.assault.rules.aid import Aid, load_aid
    from simulator.games.assault.rules.cards import DEFAULT_UNITS_DIR, load_units
    from simulator.games.assault.rules.dice import as_dice

    parts = set(parts)
    dice = as_dice(dice)
    sources, files = [Source("dice", data_name(dice.name, dice.path), dice.status)], [Path(dice.path)]
    if "aid" in parts:
        a = aid if isinstance(aid, Aid) else load_aid(aid, dice)
        sources.append(Source("aid", data_name(a.name, a.path), a.status))
        files.append(Path(a.path))
    if "units" in parts:
        d = Path(units_dir) if units_dir is not None else DEFAULT_UNITS_DIR
        cards = load_units(d, dice).values()
        sides = ", ".join(sorted({c.side for c in cards}))
        sources.append(Source("units", f"{shown_path(d)} ({sides})",
                              ", ".join(sorted({c.status for c in cards}))))
        files += sorted(d.glob("*.toml"))
    if "support" in parts:
        from simulator.games.assault.rules.support import as_support
        sup = as_support(support, a if "aid" in parts else load_aid(aid, dice))
        sources.append(Source("support", sup.name, sup.status))
        files.append(Path(sup.path))
    return sources, files


def data_name(name: str, path: str | Path) -> str:
    """A data set's name as reports print it: the name alone for the shipped file
    (``assault-default``), else with the file actually used (``assault-default
    (my-aid.toml)``): a copy of the shipped aid keeps its name but not its values."""
    from simulator.games.assault.rules.aid import DEFAULT_AID_FILE
    from simulator.games.assault.rules.dice import DEFAULT_DICE_FILE

    p = Path(path).resolve()
    if p in (DEFAULT_AID_FILE.resolve(), DEFAULT_DICE_FILE.resolve()):
        return name
    return f"{name} ({shown_path(p)})"


def scenario_data(game) -> tuple[list[Source], list[Path]]:
    """Sources and files of a compiled scenario (:class:`simulator.games.assault.game.scenario_game.Game`):
    the scenario file with its own account of what is stated and what is designed,
    the dice and aid, the unit cards and formation cards it plays with."""
    s = game.scenario
    cards = [s.units[c] for c in game.card_names()]
    from simulator.games.assault.game.tables import P_N_FORMS
    forms = list(s.formation_cards.values()) if game.tables.p[P_N_FORMS] > 0 else []
    sources = [Source("scenario", f"{s.name} ({shown_path(s.path)})", s.source or "not stated"),
               Source("dice", data_name(s.dice.name, s.dice.path), s.dice.status),
               Source("aid", data_name(s.aid.name, s.aid.path), s.aid.status),
               Source("units", ", ".join(c.id for c in cards), ", ".join(sorted({c.status for c in cards})))]
    files = [Path(s.path), Path(s.dice.path), Path(s.aid.path)]
    files += sorted({Path(c.path) for c in cards})
    if forms:
        sources.append(Source("formations", f"{len(forms)} cards", ", ".join(sorted({f.status for f in forms}))))
        files += sorted({Path(f.path) for f in forms if f.path})
    return sources, files
