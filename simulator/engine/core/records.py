"""The record every game's batch entry writes per game, first columns shared: the batch
runner (:mod:`simulator.engine.core.batch`) reads these by index. Each game says what
they mean for it (``simulator/games/<game>/game/records.py``) and adds its own columns
after ``N_FIXED`` (units lost per unit card or per unit)."""

from __future__ import annotations

import numba

from simulator.engine.core.compiling import int64_constants

(C_GAME, C_WINNER, C_REASON, C_TURNS, C_FIRST, C_DECIDED, C_OBJ0, C_OBJ1, C_OBJMASK0, C_OBJMASK1,
 C_LOST0, C_LOST1, C_SLOST0, C_SLOST1, C_SLEFT0, C_SLEFT1, C_VALUE0, C_VALUE1, C_FORM0, C_FORM1,
 C_ACTIVATIONS, C_REACTIONS, C_FALLBACKS, C_CCS, C_DECISIONS) = range(25)
N_FIXED = 25
FIXED_COLUMNS = ("game", "winner", "reason", "turns", "first_player", "decided_turn",
                 "objectives_0", "objectives_1", "objectives_mask_0", "objectives_mask_1",
                 "units_lost_0", "units_lost_1", "strength_lost_0", "strength_lost_1",
                 "strength_left_0", "strength_left_1", "points_left_0", "points_left_1",
                 "formations_0", "formations_1", "activations", "reactions_fired", "fallbacks",
                 "close_combats", "decisions")
assert len(FIXED_COLUMNS) == N_FIXED
# the summary's "activity" keys (per game, both sides), from C_ACTIVATIONS .. C_DECISIONS;
# each game names them in its own words (its game object's ``activity_words``)
ACTIVITY_KEYS = ("activations", "reaction_fires", "fallbacks", "close_combats", "decisions")


def control_columns(turns: int) -> list[str]:
    """The names of the record's last ``2 * turns`` columns (:func:`control_by_turn`):
    ``objectives_mask_<side>_turn_<k>``, turn-major."""
    return [f"objectives_mask_{side}_turn_{k}" for k in range(1, turns + 1) for side in (0, 1)]


@numba.njit(cache=True, _nrt=False)
def control_by_turn(aux, first_row, final0, final1, turns, row):
    """The record's last ``2 * turns`` columns: each side's objective mask at the end of
    each turn (``aux[first_row + side, turn - 1]``, turn-major); a turn the game did not
    end (it was over, or cut short, before) takes the holders at the game's end."""
    base = row.shape[0] - 2 * turns
    for k in range(turns):
        m0 = aux[first_row, k] if k < aux.shape[1] else -1
        m1 = aux[first_row + 1, k] if k < aux.shape[1] else -1
        row[base + 2 * k] = m0 if m0 >= 0 else final0
        row[base + 2 * k + 1] = m1 if m1 >= 0 else final1


int64_constants(globals())
