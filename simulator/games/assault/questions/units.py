"""The unit-card question: what can each unit card do?

``unit_cards("soviet")`` returns a :class:`~simulator.games.assault.questions.answers.UnitCards`:
the roster table (one row per card, sorted by id) with the dice set and unit files used
(4.2: the cards' values, illustrative unless a rule-book section states them).
"""

from __future__ import annotations

from pathlib import Path

from simulator.games.assault.questions.answers import UnitCards
from simulator.games.assault.rules.cards import DEFAULT_UNITS_DIR, load_units, side_cards, units_digest, units_frame
from simulator.games.assault.rules.dice import DiceSet, as_dice


def unit_cards(side: str | None = None, units_dir: str | Path | None = None,
               dice: DiceSet | str | Path | None = None) -> UnitCards:
    """The unit cards of ``side`` (every side when None) from ``units_dir``, read with ``dice``.

    >>> unit_cards("soviet").table.loc[0, "id"]  # doctest: +SKIP
    'soviet/at-gun-45mm'
    """
    dice = as_dice(dice)
    cards = side_cards(side, load_units(units_dir, dice))
    d = Path(units_dir) if units_dir is not None else DEFAULT_UNITS_DIR
    return UnitCards(dice=dice.name, dice_status=dice.status, dice_digest=dice.digest, units_dir=str(d),
                     units_digest=units_digest(d), units_status=", ".join(sorted({c.status for c in cards})),
                     cards=[c.to_dict() for c in cards], table=units_frame(cards))
