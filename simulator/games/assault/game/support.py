"""The support phase's rules in a game (6.3, chapter 7; German text 003).

What a support unit (the yellow "S" on its card) may do in the support phase, and how
it is resolved with the game's dice:

- **indirect fire** (7.1): at an enemy unit within the card back's one range band, not
  from heavy forest or a building; the firer sees the target itself, or a friendly
  infantry or artillery unit adjacent to it does (the spotter, 7.2, activated with a
  normal action marker). Hindrances give the target no dice (7.1); a vehicle defends
  with its "above" dice and the bonus die, and the attack dice are rolled twice, those
  without a damage symbol set aside in between (7.3). Results as 10.7 (7.4).
- **smoke** (7.5): the same dice at a hex; each crit or hit is a marker there (at most
  four a hex); the dice without one are set aside and may be rolled for a hex adjacent
  to the target hex, then once more for another (reading S21). Every smoked hex must be
  seen by the firer or the spotter.

The pools are ``fire_pools(FireSituation(indirect=True))`` and ``smoke_pool``,
tabulated at compile time (:mod:`simulator.games.assault.game.pooltab`); the roll is the ranged
fire's (``sum_rolls``, ``cancel_packed``) and the result ``apply_symbols``. Who may act
when, and the alternation of 6.3, are in :mod:`simulator.games.assault.game.phases.support`.
"""

from __future__ import annotations

from simulator.engine.core.compiling import int64_constants, rule
from simulator.games.assault.game.events import EV_INDIRECT, EV_ROLL, EV_SMOKE, log_event
from simulator.games.assault.game.fire import fire_odds, line_open, roll_result, spotted_defence, target_status
from simulator.games.assault.game.state import (
    CC_NONE,
    G_SMOKE_ANY,
    HX_SMOKE,
    NIL,
    ONMAP,
    U_CC,
    U_DMG,
    U_HEX,
    U_SIDE,
    U_ST,
    U_TIRED,
    U_TYPE,
    VEHICLE,
)
from simulator.games.assault.game.tables import (
    HI_ELEV,
    HI_HILL,
    HI_NOIND,
    HI_TERRAIN,
    P_MAX_SMOKE,
    PO_N,
    UT_HALF,
    UT_IND_MAX,
    UT_IND_MIN,
    UT_KIND,
    UT_SMOKE,
    UT_SUPPORT,
    dist,
    ind_atk_key,
    ind_def_key,
    ind_spot,
    smoke_key,
)
from simulator.games.assault.rules.kernels import field
from simulator.run.rng import below, sum_rolls

NO_SPOTTER = -1
SMOKE_HEXES = 3      # 7.5: the target hex and up to two adjacent hexes


@rule
def fires_indirect_from(s, t, f):
    """7.1, 7.5: ``f`` has indirect fire and does not stand in a hex it may not fire from."""
    ty = s.u[f, U_TYPE]
    return t.ut[ty, UT_SUPPORT] == 1 and t.ut[ty, UT_IND_MAX] > 0 and t.hexi[s.u[f, U_HEX], HI_NOIND] == 0


@rule
def in_band(s, t, f, h):
    """7.1: hex ``h`` lies in the one range band on the back of ``f``'s card."""
    ty = s.u[f, U_TYPE]
    d = dist(t, s.u[f, U_HEX], h)
    return t.ut[ty, UT_IND_MIN] <= d <= t.ut[ty, UT_IND_MAX]


@rule
def sees(s, t, h, g):
    """A unit in ``h`` sees hex ``g`` (10.2, 10.3; smoke markers counted)."""
    return h == g or line_open(s, t, h, g)


@rule
def may_spot(s, t, w, f):
    """7.1, 7.2: ``w`` is a friendly infantry or artillery unit adjacent to the firer
    (whether it may be activated is the sequence of play's question)."""
    if w == f or s.u[w, U_ST] != ONMAP or s.u[w, U_SIDE] != s.u[f, U_SIDE]:
        return False
    if t.ut[s.u[w, U_TYPE], UT_KIND] == VEHICLE or s.u[w, U_CC] != CC_NONE:
        return False
    return dist(t, s.u[w, U_HEX], s.u[f, U_HEX]) == 1


@rule
def indirect_target(s, t, f, v):
    """An enemy unit ``f`` may fire at indirectly, LOS aside: on the map, not in a close
    combat (reading S21: only infantry fire into one, directly, 10.11), in the band."""
    if s.u[v, U_ST] != ONMAP or s.u[v, U_SIDE] == s.u[f, U_SIDE] or s.u[v, U_CC] != CC_NONE:
        return False
    return in_band(s, t, f, s.u[v, U_HEX]) and ind_atk_key(t, s.u[f, U_TYPE], s.u[v, U_TYPE], 0, 0) >= 0


@rule
def seer_hex(s, t, f, spotter):
    """The hex whose LOS counts: the firer's, or the spotter's (7.2)."""
    return s.u[f, U_HEX] if spotter < 0 else s.u[spotter, U_HEX]


@rule
def indirect_keys(s, t, f, v, spotter):
    """Table entries of an indirect fire of ``f`` at ``v`` (``spotter`` -1: the firer sees
    it): ``(attack pool, defence pool, defence if the spot fails, d6 to spot)``."""
    fh = s.u[f, U_HEX]
    th = s.u[v, U_HEX]
    ft = s.u[f, U_TYPE]
    vt = s.u[v, U_TYPE]
    half = 1 if s.u[f, U_DMG] >= t.ut[ft, UT_HALF] else 0
    minus = 1 if s.u[f, U_TIRED] == 1 else 0
    ak = ind_atk_key(t, ft, vt, half, minus)
    terrain = t.hexi[th, HI_TERRAIN]
    hill = 1 if (t.hexi[th, HI_HILL] == 1 and t.hexi[th, HI_ELEV] != t.hexi[fh, HI_ELEV]) else 0   # 9.6.1
    st = target_status(s, t, v, th, 0)
    adj = 1 if dist(t, fh, th) == 1 else 0       # 10.5.1 item 4: the firing unit (C2)
    return (ak, ind_def_key(t, vt, terrain, hill, st, 0), ind_def_key(t, vt, terrain, hill, st, 1),
            ind_spot(t, vt, terrain, hill, st, adj))


@rule
def damage_symbols(x):
    """Crits and hits on a die's packed attack face: the damage symbols that keep a die in
    7.3 and are smoke markers in 7.5 (``set_aside.KEEP_DAMAGE``)."""
    return field(x, 0) + field(x, 1)


@rule
def attack_roll(s, t, ak, two_stage):
    """The attack dice's packed total; 7.3 (``two_stage``): the first roll only sorts the
    dice, those with a damage symbol are rolled again as the attack. Returns ``(total,
    dice rolled in the attack)``."""
    n = t.pooli[ak, PO_N]
    if two_stage == 0:
        return sum_rolls(t.rows[ak, :n], s.rng[0]), n
    kept = 0
    for j in range(n):
        if damage_symbols(t.rows[ak, j, below(s.rng[0], 6)]) > 0:
            kept |= 1 << j
    total = 0
    k = 0
    for j in range(n):
        if kept & (1 << j):
            total += t.rows[ak, j, below(s.rng[0], 6)]
            k += 1
    return total, k


@rule
def resolve_indirect(s, t, f, v, spotter):
    """One indirect fire (7.1-7.4) with the game's dice. Returns -1 if nothing was fired
    (a vehicle not spotted, 10.5), else 1 if the target was eliminated, 0 otherwise."""
    ak, dks, dkf, spot = indirect_keys(s, t, f, v, spotter)
    log_event(s, EV_INDIRECT, f, v, spotter, NIL, NIL, NIL)
    dk = spotted_defence(s, f, v, dks, dkf, spot)
    if dk < 0:
        return -1
    two_stage = 1 if t.ut[s.u[v, U_TYPE], UT_KIND] == VEHICLE else 0
    total, k = attack_roll(s, t, ak, two_stage)
    if k == 0:                                  # 7.3: no dice left, no effect
        log_event(s, EV_ROLL, f, v, ak, dk, 0, 0)
        return 0
    total += sum_rolls(t.rows[dk, :t.pooli[dk, PO_N]], s.rng[0])
    return roll_result(s, t, f, v, ak, dk, total)


@rule
def expected_indirect(s, t, f, v, spotter):
    """Exact odds of an indirect fire for the players: ``(P eliminated, E strength points
    taken, P morale hit)``, the spotting roll mixed in; 7.3's two rolls are in the
    attack pool's odds (``pooltab._kept_mixture``)."""
    ak, dks, dkf, spot = indirect_keys(s, t, f, v, spotter)
    return fire_odds(t, s.u[v, U_TYPE], s.u[v, U_DMG], ak, dks, dkf, spot)


# ======================================================================================
# smoke (7.5)
# ======================================================================================


@rule
def fires_smoke(s, t, f):
    return t.ut[s.u[f, U_TYPE], UT_SMOKE] == 1 and fires_indirect_from(s, t, f)


@rule
def smoke_pool_of(s, t, f):
    ft = s.u[f, U_TYPE]
    half = 1 if s.u[f, U_DMG] >= t.ut[ft, UT_HALF] else 0
    minus = 1 if s.u[f, U_TIRED] == 1 else 0
    return smoke_key(t, ft, half, minus)


@rule
def roll_smoke(s, t, f, h, mask):
    """7.5: roll the dice of ``mask`` (bit per die of the smoke pool) for hex ``h``: each
    crit or hit is a marker, at most four a hex counting those there (reading S21).
    Returns the dice that showed no damage symbol (the next hex's dice)."""
    ak = smoke_pool_of(s, t, f)
    markers = 0
    aside = 0
    for j in range(t.pooli[ak, PO_N]):
        if mask & (1 << j):
            x = t.rows[ak, j, below(s.rng[0], 6)]
            d = damage_symbols(x)
            if d > 0:
                markers += d
            else:
                aside |= 1 << j
    before = s.hx[h, HX_SMOKE]
    s.hx[h, HX_SMOKE] = min(t.p[P_MAX_SMOKE], before + markers)
    if s.hx[h, HX_SMOKE] > 0:
        s.g[G_SMOKE_ANY] = 1
    log_event(s, EV_SMOKE, f, h, markers, s.hx[h, HX_SMOKE], NIL, NIL)
    return aside


@rule
def all_dice(s, t, f):
    return (1 << t.pooli[smoke_pool_of(s, t, f), PO_N]) - 1


int64_constants(globals())
