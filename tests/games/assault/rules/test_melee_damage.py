"""Close-combat damage (12.5, rulings #5, #8), the tracks attack (12.9), the withdrawal
policies (rulings #10) and the re-roll rule (rulings #11), checked directly."""

import itertools

import numpy as np
import pytest

from simulator.games.assault.rules.damage import ARTILLERY, FALLBACK, INFANTRY, STEADY, SUPPRESSED, VEHICLE
from simulator.games.assault.rules.dice import load_dice, single_symbol
from simulator.games.assault.rules.kernels import ATTACK_SHIFT, DEFENCE_SHIFT, pack_face
from simulator.games.assault.rules.melee.damage import (
    ELIMINATED,
    FELL_BACK,
    IN_HEX,
    WITHDREW,
    after_close_combat,
    after_tracks_attack,
)
from simulator.games.assault.rules.melee.exact import _die_rows, side_distribution
from simulator.games.assault.rules.melee.kernels import roll_side
from simulator.games.assault.rules.melee.policies import (
    AT_HALF,
    HALF_STRENGTH,
    WEAKER,
    parse_withdraw_policies,
    reroll_gains,
    wants_withdraw,
)
from simulator.run.errors import InputError
from simulator.run.rng import seed_state
from simulator.run.vocabulary import NEVER

DICE = load_dice()


def cc(crit=0, hit=0, supp=0, *, kind=INFANTRY, strength=4, half_at=2, elite=0, damage=0, morale=STEADY, imm=0):
    return tuple(int(v) for v in after_close_combat(kind, strength, half_at, elite, damage, morale, imm,
                                                    crit, hit, supp))


def test_damage_points_and_elimination_at_strength():          # 12.5, rulings #5
    assert cc(hit=1) == (IN_HEX, 1, STEADY, 0)
    assert cc(hit=4) == (ELIMINATED, 4, STEADY, 0)               # damage = strength eliminates
    assert cc(hit=3, damage=1)[0] == ELIMINATED


def test_critical_hits_go_to_half_strength_then_eliminate():    # 12.5, revised 12.1.4, rulings #8, CC2
    assert cc(crit=1) == (IN_HEX, 2, STEADY, 0)                  # flipped to half strength
    assert cc(crit=1, hit=1) == (IN_HEX, 3, STEADY, 0)           # damage first, then the crit's two points
                                                                 # (revised 12.6 step 8)
    # a 3-strength unit (reverse side 1, so it flips at 3 - 1 = 2 damage) with 1 damage is not yet at
    # half strength: the crit flips it, 1 + 2 = 3 points capped at 3 - 1 = 2, one point left (CC2, revised)
    assert cc(crit=1, damage=1, strength=3) == (IN_HEX, 2, STEADY, 0)
    assert cc(crit=2, damage=1, strength=3)[0] == ELIMINATED     # the second crit finds it at half strength
    assert cc(crit=1, hit=1, strength=3) == (IN_HEX, 2, STEADY, 0)   # the hit first (1), then the flip (2)
    assert cc(crit=1, damage=2)[0] == ELIMINATED                 # already at half strength
    assert cc(crit=2)[0] == ELIMINATED                           # two crits kill a full-strength unit
    assert cc(crit=1, hit=2, damage=0)[0] == ELIMINATED          # two hits reach half, then the crit


def test_suppression_in_close_combat_is_a_fallback():           # 12.5
    assert cc(supp=1) == (FELL_BACK, 0, FALLBACK, 0)
    assert cc(supp=3, hit=1) == (FELL_BACK, 1, FALLBACK, 0)
    assert cc(supp=1, morale=SUPPRESSED) == (FELL_BACK, 0, FALLBACK, 0)
    assert cc(supp=1, elite=1) == (IN_HEX, 0, STEADY, 0)         # elite ignores suppression (4.2.3)
    assert cc(supp=1, kind=ARTILLERY)[0] == ELIMINATED           # artillery cannot fall back (10.7.3)
    assert cc(supp=1, kind=VEHICLE, imm=1)[0] == ELIMINATED      # immobilised: abandoned (13.1)
    assert cc(supp=1, crit=1) == (FELL_BACK, 2, FALLBACK, 0)     # the crit still counts


def tracks(crit=0, hit=0, supp=0, *, damage=0, imm=0, strength=2, elite=0):
    return tuple(int(v) for v in after_tracks_attack(strength, elite, damage, STEADY, imm, crit, hit, supp))


def test_attack_on_wheels_or_tracks():                           # 12.9, revised 12.5
    assert tracks(crit=1, hit=1) == (IN_HEX, 1, STEADY, 1)       # double: immobilised + a damage point
    assert tracks(crit=1) == (IN_HEX, 0, STEADY, 1)
    assert tracks(hit=1) == (IN_HEX, 0, STEADY, 1)
    assert tracks(supp=1) == (WITHDREW, 0, SUPPRESSED, 0)        # suppressed: must leave the hex
    assert tracks(supp=1, imm=1)[0] == ELIMINATED                # cannot leave: abandoned (13.1)
    assert tracks(crit=1, hit=1, damage=1)[0] == ELIMINATED
    assert tracks(supp=1, elite=1) == (IN_HEX, 0, STEADY, 0)
    assert tracks() == (IN_HEX, 0, STEADY, 0)


def test_withdrawal_policies():                                  # rulings #10
    # (policy, own remaining, own half, an enemy at full strength, enemy's most remaining)
    assert not wants_withdraw(NEVER, 1, 1, 1, 4)
    assert wants_withdraw(HALF_STRENGTH, 2, 1, 1, 4)
    assert not wants_withdraw(HALF_STRENGTH, 2, 1, 0, 2)        # the opponent is at half strength too
    assert not wants_withdraw(HALF_STRENGTH, 3, 0, 1, 4)
    assert wants_withdraw(AT_HALF, 2, 1, 0, 1)
    assert wants_withdraw(WEAKER, 2, 0, 1, 3) and not wants_withdraw(WEAKER, 3, 0, 1, 3)
    assert parse_withdraw_policies("never,at-half") == ("never", "at-half")
    assert parse_withdraw_policies(None) == ("half-strength", "half-strength")
    with pytest.raises(InputError, match="unknown withdrawal policy"):
        parse_withdraw_policies("run-away")


def test_reroll_choice_rule():                                   # rulings #11
    red = DICE.die("R").faces
    attack = reroll_gains(red, defence=False)
    blank = red.index((0, 0, 0))
    supp = red.index((0, 0, 1))
    assert attack[blank] > attack[supp] > 0                      # a blank first, then the weakest result
    assert attack[red.index((1, 1, 0))] < 0                      # never re-roll the best face
    defence = reroll_gains(DICE.die("Y").faces, defence=True)
    yellow = DICE.die("Y").faces
    assert all(defence[i] < 0 for i, f in enumerate(yellow) if sum(f) > 0)   # defence: blanks only
    assert all(defence[i] > 0 for i, f in enumerate(yellow) if sum(f) == 0)
    # between two blanks, the stronger die gains more
    assert reroll_gains(red, defence=False)[blank] > reroll_gains(DICE.die("G").faces, defence=False)[3]


def brute_force(pool, doubles, rerolls, shift, defence):
    """Every roll of the pool, re-rolls spent by the stated rule, by enumeration."""
    faces = [[single_symbol(f, doubles) for f in DICE.die(x).faces] for x in pool]
    gains = [reroll_gains(f, defence=defence) for f in faces]
    out = {}
    for roll in itertools.product(range(6), repeat=len(pool)):
        order = sorted(range(len(pool)), key=lambda i: -gains[i][roll[i]])   # stable: ties to the earlier die
        chosen = [i for i in order if gains[i][roll[i]] > 0][:rerolls]
        for new in itertools.product(range(6), repeat=len(chosen)):
            final = list(roll)
            for i, f in zip(chosen, new, strict=True):
                final[i] = f
            total = sum(pack_face(faces[i][final[i]], shift) for i in range(len(pool)))
            out[total] = out.get(total, 0.0) + 6.0 ** -(len(pool) + len(chosen))
    return out


@pytest.mark.parametrize("pool,doubles,rerolls,defence", [
    ("RGG", "all", 1, False), ("RYG", "strongest", 2, False), ("YYG", "all", 1, False),
    ("RRYY", "all", 1, True), ("YB", "all", 2, True), ("G", "all", 3, False),
])
def test_exact_rerolls_match_brute_force(pool, doubles, rerolls, defence):
    shift = DEFENCE_SHIFT if defence else ATTACK_SHIFT
    exact = side_distribution(_die_rows(tuple(pool), DICE, doubles, shift, defence), rerolls)
    brute = brute_force(tuple(pool), doubles, rerolls, shift, defence)
    assert set(k for k, v in exact.items() if v > 1e-15) == set(brute)
    for k, v in brute.items():
        assert exact[k] == pytest.approx(v, abs=1e-12)


def test_kernel_rerolls_match_exact_within_4_se():
    pool, rerolls = ("R", "G", "G"), 2
    rows = np.array([[pack_face(f, ATTACK_SHIFT) for f in DICE.die(x).faces] for x in pool], dtype=np.int64)
    gains = np.array([reroll_gains(DICE.die(x).faces, defence=False) for x in pool])
    faces, gain = rows[None], gains[None]
    state = seed_state(np.random.SeedSequence(11))
    n = 60_000
    counts = {}
    for _ in range(n):
        t = int(roll_side(faces, gain, 0, 0, 3, rerolls, state))
        counts[t] = counts.get(t, 0) + 1
    exact = side_distribution(_die_rows(pool, DICE, "all", ATTACK_SHIFT, False), rerolls)
    for k, p in exact.items():
        se = max(np.sqrt(p * (1 - p) / n), 1e-12)
        assert abs(counts.get(k, 0) / n - p) < 4 * se + 1e-12, k
