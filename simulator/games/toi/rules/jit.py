"""The Tide of Iron rules the whole-game engine calls from numba, compiled from the one
Python source the calculator uses (so odds, replays and whole games share each rule).

Each name here is a pure integer function of ``attack``, ``results`` or ``assault``,
compiled with ``inline="always"`` (as ``kernels.py`` does with :func:`net_hits`):

- :data:`net_hits_jit`: hits left after the red dice (001 Resolving an attack, step 4);
- :data:`band_index_jit`: close / normal / long / out of range (001 Range);
- :data:`halved_fpr_jit`: FPR halved once, rounding up, or -1 if halved twice (001
  Combined fire note; rulings #15);
- :data:`steps_jit`, :data:`suppressed_index_jit`, :data:`damaged_index_jit`: the result
  tables (001 Normal / Suppressive attack results);
- :data:`assault_succeeds_jit`: ties go to the defender (002 steps 8-9, rulings #16);
- the ``*_jit`` forms of :mod:`simulator.games.toi.rules.shares`: who fires with what, the
  halvings and the cover dice, in ranged fire and in an assault (issue 40, item 15);
- :data:`assault_hits_into_jit`: the exact hit distributions of an assault
  (:func:`simulator.games.toi.rules.exact.assault_hits_into`), greedy's odds (issue 41).

:func:`assault_squad_losses` is the one piece written for the engine: the defender's
casualties and retreat when only squads defend (002 steps 7 and 9), as an array
function. It loses exactly as few figures as the calculator's
:func:`simulator.games.toi.rules.assault.defender_choice` (rulings T13; held against it in
``tests/games/toi/game/test_toi_rules.py``); its tie-breaks are the engine's (rulings T22).
"""

from __future__ import annotations

import types

import numba

from simulator.games.toi.rules.assault import ASSAULT_SUCCESS_FROM, assault_succeeds
from simulator.games.toi.rules.attack import (
    AREA_BAND_SUCCESS_FROM,
    BAND_SUCCESS_FROM,
    DEFENCE_SUCCESS_FROM,
    band_index,
    halved_fpr,
    net_hits,
)
from simulator.games.toi.rules.exact import assault_hits_into, binomial_into, success_chance
from simulator.games.toi.rules.results import damaged_index, steps, suppressed_index
from simulator.games.toi.rules.shares import (
    ability_cover,
    assault_attacker_halvings,
    assault_cover_dice,
    assault_defender_halvings,
    defence_dice,
    figure_band,
    firer_halvings,
    hex_halvings,
    squad_bonus,
    strength_after,
    vehicle_fire,
)

_inline = numba.njit(inline="always", cache=True)


def _calling(fn, **compiled):
    """``fn`` with the functions it calls replaced by their compiled forms (numba cannot
    call a plain Python function): the same code object, other globals."""
    env = dict(fn.__globals__)
    env.update(compiled)
    return types.FunctionType(fn.__code__, env, fn.__name__, fn.__defaults__, fn.__closure__)


net_hits_jit = _inline(net_hits)
band_index_jit = _inline(band_index)
halved_fpr_jit = _inline(halved_fpr)
steps_jit = _inline(steps)
suppressed_index_jit = _inline(_calling(suppressed_index, steps=steps_jit))
damaged_index_jit = _inline(_calling(damaged_index, steps=steps_jit))
assault_succeeds_jit = _inline(assault_succeeds)
# who fires with what, halvings and cover (simulator.games.toi.rules.shares; issue 40, item 15)
hex_halvings_jit = _inline(hex_halvings)
firer_halvings_jit = _inline(firer_halvings)
strength_after_jit = _inline(strength_after)
figure_band_jit = _inline(_calling(figure_band, band_index=band_index_jit))
squad_bonus_jit = _inline(squad_bonus)
vehicle_fire_jit = _inline(_calling(vehicle_fire, band_index=band_index_jit))
ability_cover_jit = _inline(ability_cover)
defence_dice_jit = _inline(defence_dice)
assault_attacker_halvings_jit = _inline(assault_attacker_halvings)
assault_defender_halvings_jit = _inline(assault_defender_halvings)
assault_cover_dice_jit = _inline(assault_cover_dice)
# the exact hit distributions of an assault (002 steps 4-5): the calculator's, for greedy's exact odds (issue 41)
binomial_into_jit = numba.njit(cache=True, _nrt=False)(binomial_into)
assault_hits_into_jit = numba.njit(cache=True, _nrt=False)(_calling(
    assault_hits_into, binomial_into=binomial_into_jit, net_hits=net_hits_jit, success_chance=_inline(success_chance)))

SUCCESS_CLOSE, SUCCESS_NORMAL, SUCCESS_LONG = BAND_SUCCESS_FROM
AREA_CLOSE, AREA_NORMAL, AREA_LONG = AREA_BAND_SUCCESS_FROM
RED_SUCCESS_FROM = DEFENCE_SUCCESS_FROM
ASSAULT_FROM = ASSAULT_SUCCESS_FROM
DISRUPTED = 2          # index into results.SQUAD_STEPS


@numba.njit(cache=True, _nrt=False)
def assault_squad_losses(sizes, conds, n, hits, success, room, hits_out, keep_out):
    """Where the defender of an all-squad hex puts ``hits`` (002 step 7) and, after a
    successful assault, which squads retreat (002 step 9).

    ``sizes[:n]``, ``conds[:n]`` (0 normal, 1 pinned, 2 disrupted) describe the squads;
    ``room`` is how many units the retreat hex still takes (0: no hex). Writes the hits
    each squad takes into ``hits_out`` and 1 into ``keep_out[i]`` for each squad that
    retreats (the others not wiped out by hits are destroyed by the retreat). Returns the
    figures lost in all.

    Failed assault: hits fill the squads in order. Successful: the ``room`` largest squads
    that are not disrupted retreat (002 step 9: disrupted units are destroyed); hits go
    first on the squads the retreat destroys anyway, then on the retreating ones. That
    loses ``max(hits, total - kept)`` figures, the fewest possible (rulings T13).
    """
    total = 0
    for i in range(n):
        hits_out[i] = 0
        keep_out[i] = 0
        total += sizes[i]
    h = min(hits, total)
    if not success:
        for i in range(n):
            k = min(h, sizes[i])
            hits_out[i] = k
            h -= k
        return min(hits, total)
    kept = 0
    for _ in range(min(room, n)):                 # the largest able squads, lower index first
        best = -1
        for i in range(n):
            if keep_out[i] == 0 and conds[i] != DISRUPTED and (best < 0 or sizes[i] > sizes[best]):
                best = i
        if best < 0:
            break
        keep_out[best] = 1
        kept += sizes[best]
    for i in range(n):                            # the doomed squads take hits first
        if keep_out[i] == 0:
            k = min(h, sizes[i])
            hits_out[i] = k
            h -= k
    for i in range(n):
        if keep_out[i] == 1:
            k = min(h, sizes[i])
            hits_out[i] = k
            h -= k
            if k == sizes[i]:
                keep_out[i] = 0                   # wiped out by hits, nothing left to retreat
    return max(min(hits, total), total - kept)
