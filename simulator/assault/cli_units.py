"""``lanchester assault units``: list the unit cards (4.2) in use.

:func:`units_frame` is the library call (one row per unit); the click command only
renders it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:   # annotations only: the modules load when a command runs
    import pandas as pd

    from simulator.assault.cards import UnitCard
    from simulator.assault.dice import DiceSet

from simulator import cliopts
from simulator.errors import InputError

TABLE_COLUMNS = ["id", "type", "armoured", "strength", "movement", "ranges", "close_combat",
                 "defence", "abilities", "points", "class", "source"]


def ranges_summary(card: UnitCard) -> str:
    """``1-2 B/RYG; 3-4 -/RY``: each band with its dice vs vehicles / vs infantry (10.1)."""
    from simulator.assault.dice import format_pool

    return "; ".join(f"{b.label} {format_pool(b.vs_vehicle)}/{format_pool(b.vs_infantry)}"
                     for b in card.ranges) or "-"


def defence_summary(card: UnitCard) -> str:
    """``Y``, or per area of impact for vehicles: ``front RY, flank G, rear B, above B``."""
    from simulator.assault.dice import format_pool

    if not card.is_vehicle:
        return card.defence_pool()
    return ", ".join(f"{facing} {format_pool(pool)}" for facing, pool in card.defence)


def source_summary(card: UnitCard) -> str:
    """``illustrative + rulebook 12.11, 5.7``: the card's source and the sections that
    state some of its values."""
    sections = sorted({m.group(0) for cite in dict(card.stated).values()
                       for m in [re.search(r"\d+(\.\d+)*", cite)] if m},
                      key=lambda s: tuple(int(x) for x in s.split(".")))
    return card.source + (f" + rulebook {', '.join(sections)}" if sections else "")


def units_frame(side: str | None = None, units_dir: str | Path | None = None,
                dice: DiceSet | str | Path | None = None) -> pd.DataFrame:
    """The roster as a tidy table, one row per unit card, sorted by id.

    ``side`` keeps one side only. ``frame.attrs`` records the dice set and unit files.

    >>> units_frame("soviet").loc[0, "id"]  # doctest: +SKIP
    'soviet/at-gun-45mm'
    """
    import pandas as pd

    from simulator.assault.cards import DEFAULT_UNITS_DIR, UNITS_COLUMNS, load_units, units_digest
    from simulator.assault.dice import as_dice, format_pool

    dice = as_dice(dice)
    cards = list(load_units(units_dir, dice).values())
    sides = sorted({c.side for c in cards})
    if side is not None:
        if side not in sides:
            raise InputError("--side", "", f"no units of side {side!r} (sides: {', '.join(sides)})")
        cards = [c for c in cards if c.side == side]
    rows = [{
        "id": c.id, "side": c.side, "name": c.name, "type": c.type, "class": c.unit_class,
        "armoured": c.armoured, "strength": c.strength, "movement": c.movement,
        "movement_type": c.movement_type, "ranges": ranges_summary(c),
        "close_combat": f"{format_pool(c.close_combat_vs_vehicle)}/"
                        f"{format_pool(c.close_combat_vs_infantry)}",
        "defence": defence_summary(c), "abilities": ", ".join(c.abilities) or "-",
        "points": c.points, "source": source_summary(c),
        "stated": "; ".join(f"{k}: {v}" for k, v in c.stated),
    } for c in cards]
    frame = pd.DataFrame(rows, columns=UNITS_COLUMNS)
    d = Path(units_dir) if units_dir is not None else DEFAULT_UNITS_DIR
    frame.attrs.update({
        "dice": dice.name, "dice_status": dice.status, "dice_digest": dice.digest,
        "units_dir": str(d), "units_digest": units_digest(d),
        "units_status": ", ".join(sorted({c.status for c in cards})),
        "cards": [c.to_dict() for c in cards],
    })
    return frame


def units_table(frame: pd.DataFrame) -> str:
    a = frame.attrs
    shown = frame.assign(movement=frame["movement"].astype(str) + " " + frame["movement_type"])
    body = shown[TABLE_COLUMNS].to_string(index=False)
    return "\n".join([
        f"unit cards: {_show_path(a['units_dir'])} ({a['units_status']}); "
        f"dice: {a['dice']}, {a['dice_status']}",
        "ranges and close_combat: dice vs armoured vehicles / vs infantry and artillery (4.2.2)",
        "",
        body,
        "",
        "source: 'illustrative' values are the project's choice; 'rulebook' names the sections "
        "that state some values (see the 'stated' column of --format csv/json).",
    ]) + "\n"


def _show_path(path: str) -> str:
    from simulator.datafile import REPO_ROOT

    try:
        return str(Path(path).resolve().relative_to(REPO_ROOT))
    except ValueError:
        return path


def units_json(frame: pd.DataFrame) -> dict:
    a = frame.attrs
    return {"dice": a["dice"], "dice_status": a["dice_status"], "dice_digest": a["dice_digest"],
            "units_dir": a["units_dir"], "units_digest": a["units_digest"],
            "units_status": a["units_status"], "units": a["cards"]}


@click.command("units")
@click.option("--side", default=None, metavar="SIDE",
              help="Only the units of one side: german or soviet.")
@cliopts.data_files(with_aid=False)
@cliopts.fmt
@cliopts.out
def units(side: str | None, dice_file: str | None, units_dir: str | None, fmt: str,
          out: str | None) -> None:
    """List the unit cards: type, strength, movement, range bands, defence, abilities.

    Values are the project's illustrative cards unless the source column names the
    rule-book section that states them.

    \b
    Examples:
      lanchester assault units
      lanchester assault units --side soviet --format csv --out soviet.csv
      lanchester assault units --units-dir my-cards/ --format json
      lanchester assault units --out out/units
    """
    from reports.assault import units_report
    from reports.bundle import emit_report

    frame = units_frame(side, units_dir, dice_file)
    emit_report(fmt, out, table=units_table(frame), frame=frame, obj=units_json(frame),
                report=lambda: units_report(frame, dice=dice_file))
