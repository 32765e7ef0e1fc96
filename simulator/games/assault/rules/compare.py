"""Comparing dice rolls (10.7.2): which attack symbols the defence cancels.

One function serves the exact calculator (on numpy arrays), the Monte Carlo kernels
(compiled by numba) and, later, the scenario engine (on plain ints).

Reading (rulings.md #1): cancellation is strongest first. Defence crits cancel
attack crits, then hits, then supps; defence hits cancel hits, then supps;
defence supps cancel supps. This leaves the fewest uncancelled crits, then hits,
then suppressions, which is the defender's best play.
"""

from __future__ import annotations

import numpy as np


def uncancelled(atk_crit, atk_hit, atk_supp, def_crit, def_hit, def_supp):
    """Attack symbols left after the defence cancels (10.7.2, rulings.md #1).

    Works element-wise on numpy arrays, on ints, and compiled
    (:data:`simulator.games.assault.rules.kernels.uncancelled_jit`; numba is not imported here, so the
    exact calculator starts without it).
    Returns ``(crit, hit, supp)``.
    """
    crit = np.maximum(atk_crit - def_crit, 0)
    spare_crit = np.maximum(def_crit - atk_crit, 0)        # crits left to cancel weaker symbols
    hit_after_crit = np.maximum(atk_hit - spare_crit, 0)
    spare_crit = np.maximum(spare_crit - atk_hit, 0)
    hit = np.maximum(hit_after_crit - def_hit, 0)
    spare_hit = np.maximum(def_hit - hit_after_crit, 0)   # hits left to cancel suppressions
    supp = np.maximum(atk_supp - spare_crit - spare_hit - def_supp, 0)
    return crit, hit, supp

