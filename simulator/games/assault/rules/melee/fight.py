"""The sequence of a close combat as a state machine over int arrays (numba).

Which units fight which, in what kind of round, when a unit withdraws and when the
close combat ends: the first edition's exchanges turn by turn (12.1-12.3, 12.6;
"renew every turn until it ends" with a turn cap, rulings #9) and the revised
edition's rounds (12.1, 12.1.6; round cap). The exact calculator, the Monte Carlo
kernels and the scenario engine all step through these functions; only the dice are
rolled (Monte Carlo) or enumerated (exact) outside them.

Arrays:

- ``U`` (``int64[4, N_UNIT]``), the units' constants by slot (attacker, attacker's
  reinforcement, defender, defender's second unit): ``U_EXISTS``, ``U_SIDE`` (0
  attacker, 1 defender), ``U_KIND`` (:mod:`simulator.games.assault.rules.damage` kinds),
  ``U_STRENGTH``, ``U_HALF_AT`` (damage that flips the counter), ``U_IGNORES_SUPP``
  (elite), ``U_CAN_RENEW`` (not artillery, 12.0, and has close-combat dice), ``U_INFANTRY``, ``U_VEHICLE``.
- ``S`` (``int64[N_STATE]``), the state: per slot ``u`` the fields at
  ``u * UNIT_STRIDE + F_STATUS | F_DAMAGE | F_MORALE | F_IMMOBILISED | F_ACTIVE``, then
  ``G_ROUNDS`` (rounds/exchanges fought), ``G_TURN`` (first edition), ``G_STEP``
  (where in the turn), ``G_MOVER`` (side to renew next), ``G_ENDED`` (0 going on,
  1 ended, 2 stopped by the cap).
- ``P`` (``int64[N_PARAM]``): ``P_EDITION`` (1 or 2), ``P_MAX`` (turn cap, v1; round
  cap, v2), ``P_POLICY_ATTACKER``, ``P_POLICY_DEFENDER`` (withdrawal, rulings #10),
  ``P_TRACKS`` (wheels/tracks policy).
"""

from __future__ import annotations

import numba
import numpy as np

from simulator.games.assault.rules.melee.damage import (
    ABSENT,
    ELIMINATED,
    IN_HEX,
    STAYED_OUT,
    WITHDREW,
    enter_hex_of,
)
from simulator.games.assault.rules.melee.policies import wants_withdraw, weakest_enemy
from simulator.games.assault.rules.melee.situation import (
    A1,
    A2,
    D1,
    D2,
    V1_INITIATE,
    V1_REINFORCE,
    V1_RENEW,
    V2_FIRST,
    V2_LATER,
)

# unit constants
U_EXISTS, U_SIDE, U_KIND, U_STRENGTH, U_HALF_AT, U_IGNORES_SUPP, U_CAN_RENEW, U_INFANTRY, U_VEHICLE = range(9)
N_UNIT = 9
# state
F_STATUS, F_DAMAGE, F_MORALE, F_IMMOBILISED, F_ACTIVE = range(5)
UNIT_STRIDE = 5
N_SLOTS = 4
G_ROUNDS, G_TURN, G_STEP, G_MOVER, G_ENDED = (N_SLOTS * UNIT_STRIDE + i for i in range(5))
N_STATE = N_SLOTS * UNIT_STRIDE + 5
# params
P_EDITION, P_MAX, P_POLICY_ATTACKER, P_POLICY_DEFENDER, P_TRACKS = range(5)
N_PARAM = 5
# what next_exchange returns besides a round
TERMINAL, TURN_END = -1, -2
# The caps on a close combat that nobody wins (rulings #9; docs/rulings.md CC1), the one
# definition: the first edition renews turn by turn, at most V1_TURN_CAP turns (the
# melee calculator's default); the revised edition fights rounds in one activation, at
# most V2_ROUND_CAP rounds (the melee calculator's default and the scenario engine's
# cap: a real fight never reaches it; two trucks that cannot hurt each other do).
V1_TURN_CAP = 10
V2_ROUND_CAP = 50
# first-edition steps within a turn
STEP_INITIATE, STEP_REINFORCE_ATTACKER, STEP_REINFORCE_DEFENDER, STEP_TURN_END, STEP_NEXT_TURN = 0, 1, 2, 3, 4
STEP_ORGANISE, STEP_RENEW = 10, 11
# end-state codes: 12 bits a slot
CODE_BITS = 12


@numba.njit(cache=True)
def field(S, u, f):
    return S[u * UNIT_STRIDE + f]


@numba.njit(cache=True)
def set_unit(S, u, status, damage, morale, immobilised):
    base = u * UNIT_STRIDE
    S[base + F_STATUS] = status
    S[base + F_DAMAGE] = damage
    S[base + F_MORALE] = morale
    S[base + F_IMMOBILISED] = immobilised


@numba.njit(cache=True)
def in_hex(S, u):
    return S[u * UNIT_STRIDE + F_STATUS] == IN_HEX


@numba.njit(cache=True)
def side_in_hex(S, U, side):
    for u in range(N_SLOTS):
        if U[u, U_EXISTS] == 1 and U[u, U_SIDE] == side and in_hex(S, u):
            return True
    return False


@numba.njit(cache=True)
def going_on(S, U):
    """12.6 / revised 12.1.6: a close combat goes on while both sides are in the hex."""
    return side_in_hex(S, U, 0) and side_in_hex(S, U, 1)


@numba.njit(cache=True)
def is_half(S, U, u):
    return S[u * UNIT_STRIDE + F_DAMAGE] >= U[u, U_HALF_AT]


@numba.njit(cache=True)
def remaining(S, U, u):
    return U[u, U_STRENGTH] - S[u * UNIT_STRIDE + F_DAMAGE]


@numba.njit(cache=True)
def end(S, U, how):
    """Close the fight; reinforcements still waiting stay out."""
    for u in range(N_SLOTS):
        if U[u, U_EXISTS] == 1 and S[u * UNIT_STRIDE + F_STATUS] == ABSENT:
            S[u * UNIT_STRIDE + F_STATUS] = STAYED_OUT
    S[G_ENDED] = how


@numba.njit(cache=True)
def target_of(S, U, u):
    """The enemy unit ``u`` attacks: the one in the hex with the fewest strength points
    left (policies.weakest_enemy). -1 if none."""
    left = np.full(N_SLOTS, -1, dtype=np.int64)
    for v in range(N_SLOTS):
        if U[v, U_EXISTS] == 1 and U[v, U_SIDE] != U[u, U_SIDE] and in_hex(S, v):
            left[v] = remaining(S, U, v)
    return weakest_enemy(left)


@numba.njit(cache=True)
def withdraws(S, U, P, u):
    """Whether unit ``u`` withdraws under its side's policy (rulings #10)."""
    any_full, max_left = 0, 0
    for v in range(N_SLOTS):
        if U[v, U_EXISTS] == 1 and U[v, U_SIDE] != U[u, U_SIDE] and in_hex(S, v):
            if not is_half(S, U, v):
                any_full = 1
            max_left = max(max_left, remaining(S, U, v))
    policy = P[P_POLICY_ATTACKER] if U[u, U_SIDE] == 0 else P[P_POLICY_DEFENDER]
    return wants_withdraw(policy, remaining(S, U, u), 1 if is_half(S, U, u) else 0, any_full, max_left)


@numba.njit(cache=True)
def check_withdrawals(S, U, P):
    """The attacking side decides first (revised 12.1.6.1); the close combat ends as
    soon as one unit leaves a side empty. An immobilised vehicle cannot move (13.1),
    so it cannot withdraw. Returns True if a unit withdrew."""
    moved = False
    for side in range(2):
        for u in range(N_SLOTS):
            if not going_on(S, U):
                return moved
            if (U[u, U_EXISTS] == 1 and U[u, U_SIDE] == side and in_hex(S, u)
                    and S[u * UNIT_STRIDE + F_IMMOBILISED] == 0 and withdraws(S, U, P, u)):
                S[u * UNIT_STRIDE + F_STATUS] = WITHDREW
                moved = True
    return moved


@numba.njit(cache=True)
def begin(S, U, P):
    """Entering the defender's hex (12.0): a unit in fallback is eliminated; in the first
    edition a suppressed unit falls back at once. No round is fought then."""
    for u in (D1, D2):
        if U[u, U_EXISTS] == 1 and in_hex(S, u):
            base = u * UNIT_STRIDE
            status, morale = enter_hex_of(U[u, U_KIND], S[base + F_MORALE], S[base + F_IMMOBILISED],
                                          P[P_EDITION])
            if status == ELIMINATED:
                set_unit(S, u, ELIMINATED, U[u, U_STRENGTH], 0, 0)
            else:
                S[base + F_STATUS] = status
                S[base + F_MORALE] = morale
    if not going_on(S, U):
        end(S, U, 1)


@numba.njit(cache=True)
def next_exchange(S, U, P):
    """The next round to fight: ``(x, y, kind)``, or ``(TERMINAL, ..)`` when the close
    combat is over, or ``(TURN_END, ..)`` at the end of a first-edition turn (the state
    then is the answer to "one turn of close combat")."""
    if S[G_ENDED] != 0:
        return TERMINAL, TERMINAL, TERMINAL
    if P[P_EDITION] == 2:
        return _next_v2(S, U, P)
    return _next_v1(S, U, P)


@numba.njit(cache=True)
def _next_v2(S, U, P):
    """Revised 12.1: rounds repeat until elimination, fallback or withdrawal."""
    if not going_on(S, U):
        end(S, U, 1)
        return TERMINAL, TERMINAL, TERMINAL
    if S[G_ROUNDS] >= P[P_MAX]:
        end(S, U, 2)
        return TERMINAL, TERMINAL, TERMINAL
    return A1, D1, V2_FIRST if S[G_ROUNDS] == 0 else V2_LATER


@numba.njit(cache=True)
def _enter(S, U, u):
    """A reinforcement moves into the close-combat hex (12.2) and picks its target."""
    if U[u, U_EXISTS] == 0 or S[u * UNIT_STRIDE + F_STATUS] != ABSENT:
        return -1
    if not going_on(S, U):
        S[u * UNIT_STRIDE + F_STATUS] = STAYED_OUT
        return -1
    S[u * UNIT_STRIDE + F_STATUS] = IN_HEX
    return target_of(S, U, u)


@numba.njit(cache=True)
def _renewer(S, U, side):
    """The first unit of ``side`` that may renew (12.3): in the hex, not yet active this
    turn, not artillery (12.0), with an enemy in the hex."""
    for u in range(N_SLOTS):
        if (U[u, U_EXISTS] == 1 and U[u, U_SIDE] == side and in_hex(S, u)
                and S[u * UNIT_STRIDE + F_ACTIVE] == 0 and U[u, U_CAN_RENEW] == 1):
            t = target_of(S, U, u)
            if t >= 0:
                return u, t
    return -1, -1


@numba.njit(cache=True)
def _next_v1(S, U, P):
    """First edition: turn 1 is the initiation (12.1) and the reinforcements (12.2),
    attacker's first; later turns renew (12.3) after the withdrawals (12.6)."""
    while True:
        step = S[G_STEP]
        if step == STEP_INITIATE:
            S[G_STEP] = STEP_REINFORCE_ATTACKER
            if going_on(S, U):
                return A1, D1, V1_INITIATE
        elif step == STEP_REINFORCE_ATTACKER or step == STEP_REINFORCE_DEFENDER:
            u = A2 if step == STEP_REINFORCE_ATTACKER else D2
            S[G_STEP] = step + 1
            t = _enter(S, U, u)
            if t >= 0:
                return u, t, V1_REINFORCE
        elif step == STEP_TURN_END:
            S[G_STEP] = STEP_NEXT_TURN
            return TURN_END, TURN_END, TURN_END
        elif step == STEP_NEXT_TURN:
            if not going_on(S, U):
                end(S, U, 1)
                return TERMINAL, TERMINAL, TERMINAL
            if S[G_TURN] >= P[P_MAX]:
                end(S, U, 2)
                return TERMINAL, TERMINAL, TERMINAL
            S[G_TURN] += 1
            S[G_STEP] = STEP_ORGANISE
        elif step == STEP_ORGANISE:
            for u in range(N_SLOTS):           # 6.5, 12.3: close-combat markers to inactive
                S[u * UNIT_STRIDE + F_ACTIVE] = 0
            S[G_MOVER] = 0
            S[G_STEP] = STEP_RENEW
            check_withdrawals(S, U, P)          # 12.6: in the action phase, attacker's side first
            if not going_on(S, U):
                end(S, U, 1)
                return TERMINAL, TERMINAL, TERMINAL
        else:                                   # STEP_RENEW
            mover = S[G_MOVER]
            u, t = _renewer(S, U, mover)
            if u < 0:
                u, t = _renewer(S, U, 1 - mover)
            if u < 0:
                S[G_STEP] = STEP_TURN_END
                continue
            S[G_MOVER] = 1 - U[u, U_SIDE]
            return u, t, V1_RENEW


@numba.njit(cache=True)
def after_exchange(S, U, P, x, y):
    """Book-keeping after both units' new states are set: count the round, mark both
    active (12.1-12.3); in the revised edition, the withdrawal check (12.1.6.1)."""
    S[G_ROUNDS] += 1
    S[x * UNIT_STRIDE + F_ACTIVE] = 1
    S[y * UNIT_STRIDE + F_ACTIVE] = 1
    if P[P_EDITION] == 2 and going_on(S, U):
        check_withdrawals(S, U, P)


@numba.njit(cache=True)
def end_code(S):
    """The units' end states in one int (``CODE_BITS`` a slot): status, morale,
    immobilised, damage."""
    code = 0
    for u in range(N_SLOTS):
        base = u * UNIT_STRIDE
        part = (S[base + F_STATUS] | (S[base + F_MORALE] << 3) | (S[base + F_IMMOBILISED] << 5)
                | (S[base + F_DAMAGE] << 6))
        code |= part << (u * CODE_BITS)
    return code


def decode(code: int) -> list[dict]:
    """The units' end states from :func:`end_code`, by slot."""
    out = []
    for u in range(N_SLOTS):
        part = (int(code) >> (u * CODE_BITS)) & ((1 << CODE_BITS) - 1)
        out.append({"status": part & 7, "morale": (part >> 3) & 3, "immobilised": (part >> 5) & 1,
                    "damage": part >> 6})
    return out

