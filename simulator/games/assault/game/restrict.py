"""Restricted play (Jaffe et al., "Evaluating competitive game balance with restricted
play", AIIDE 2012): which of Assault's actions a restriction forbids (numba).

A restriction of one side is two bit masks, kept in the players' parameters
(``params[base.RS_KINDS + side]``, ``params[base.RS_CARDS + side]``) and read by the
players' one filter of the legal actions,
:func:`simulator.engine.players.base.legal_for`:

- ``kinds``: a bit per action kind (``state.K_*``) the side never takes, plus two bits
  for what a kind alone does not tell: :data:`X_ENTER_CC`, a step into a hex an enemy
  unit holds (12.0: it starts a close combat), and :data:`X_OVERRUN`, a vehicle's step
  onto enemy artillery (9.10.3);
- ``cards``: a bit per unit card (``UT_CARD``) whose units the side never activates: no
  action of the action phase (6.4; a dismount is an activation of its own, 9.11.3) and
  no indirect fire or smoke in the support phase, as firer or as spotter (7.0, 7.2).
  Reaction fire (8.2), turning artillery (7.6), fallbacks, close-combat choices and the
  set-up are not activations: such units still do those.

The names a user gives (``close-combat``, ``unit=rifles-41``) are
:mod:`simulator.games.assault.game.restrictions`.
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule
from simulator.games.assault.game.moves import STEP_ENEMY, STEP_OVERRUN, step_kind
from simulator.games.assault.game.state import (
    G_MODE,
    G_MP,
    G_STEPS,
    G_SUB,
    INDIRECT_SCALE,
    K_DIG,
    K_DISMOUNT,
    K_FAST,
    K_FIRE,
    K_FIREMOVE,
    K_INDIRECT,
    K_MOVE,
    K_MOVEFIRE,
    K_RENEW,
    K_REVERSE,
    K_SMOKE,
    K_STEP,
    K_TURRET,
    K_WITHDRAW,
    SMOKE_SCALE,
    SUB_MOVE,
    U_HEX,
    U_TYPE,
    a_arg,
    a_kind,
    a_unit,
    spotted_spotter,
)
from simulator.games.assault.game.tables import UT_CARD

X_ENTER_CC = 56         # kinds' bit: a step into an enemy's hex (12.0)
X_OVERRUN = 57          # kinds' bit: a vehicle's step onto enemy artillery (9.10.3)
STEP_BITS = (1 << X_ENTER_CC) | (1 << X_OVERRUN)
MAX_CARDS = 62          # unit cards a scenario may have for ``cards`` (a bit each)

# the kinds that activate the unit named in the action (6.4, 9.11.3, 7.0)
ACTIVATING = 0
for _k in (K_MOVE, K_FAST, K_MOVEFIRE, K_FIREMOVE, K_FIRE, K_TURRET, K_DIG, K_RENEW, K_WITHDRAW, K_REVERSE,
           K_DISMOUNT, K_INDIRECT, K_SMOKE):
    ACTIVATING |= 1 << int(_k)
ACTIVATING = int(ACTIVATING)


@rule
def card_of(s, t, u):
    return t.ut[s.u[u, U_TYPE], UT_CARD]


@rule
def forbidden(s, t, a, kinds, cards):
    """Whether restriction ``(kinds, cards)`` (see the module docstring) forbids the
    legal action ``a`` to the side deciding in ``s``."""
    k = a_kind(a)
    if (kinds >> k) & 1:
        return True
    if cards != 0 and (ACTIVATING >> k) & 1:
        if (cards >> card_of(s, t, a_unit(a))) & 1:
            return True
        if k == K_INDIRECT or k == K_SMOKE:              # 7.2: the spotter is activated too
            w = spotted_spotter(a_arg(a), INDIRECT_SCALE if k == K_INDIRECT else SMOKE_SCALE)
            if w >= 0 and (cards >> card_of(s, t, w)) & 1:
                return True
    if k == K_STEP and (kinds & STEP_BITS) != 0 and s.g[G_SUB] == SUB_MOVE:
        u = a_unit(a)
        step, _cost = step_kind(s, t, u, s.u[u, U_HEX], a_arg(a), s.g[G_MODE], s.g[G_MP], s.g[G_STEPS])
        if step == STEP_ENEMY:                           # 12.0
            return (kinds >> X_ENTER_CC) & 1 == 1
        if step == STEP_OVERRUN:                         # 9.10.3
            return (kinds >> X_OVERRUN) & 1 == 1
    return False


int64_constants(globals())
