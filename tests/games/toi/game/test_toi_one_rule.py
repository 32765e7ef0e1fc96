"""One rule, one implementation (issue 40, item 15): who fires with what, the halvings and
the cover dice are :mod:`simulator.games.toi.rules.shares`, called by the calculator
(``rules/attack.py``, ``rules/assault.py``) and, compiled, by the engine (``game/fire.py``,
``game/assault.py``). Here the same situation is put to both: the engine's attack event
(its attack dice and cover dice) must be the calculator's pool."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulator.games.toi.game import state as S
from simulator.games.toi.rules import exact, shares
from simulator.games.toi.rules.assault import build_assault
from simulator.games.toi.rules.attack import build_attack
from simulator.games.toi.rules.data import load_game
from simulator.games.toi.rules.units import parse_unit
from tests.games.toi.game.test_toi_vehicles import PZ4, SDKFZ, SHERMAN, SQ
from tests.games.toi.game.test_toi_vehicles import deployed as with_vehicles
from tests.games.toi.game.util import A0, A1, A3, AMG, B0, B1, BOFF, deployed, events, find, hex_of

GAME = load_game()
TINY_SPECS = {A0: "squad:3regular+officer", A1: "squad:4regular", AMG: "squad:2regular+mg", A3: "squad:3regular",
              B0: "squad:4regular", B1: "squad:4regular", BOFF: "squad:2elite+officer"}
VEHICLE_SPECS = {SQ: "squad:4regular", SHERMAN: "sherman", SDKFZ: "sdkfz_251", PZ4: "panzer_iv"}
WOODS = "2,1"           # the one woods hex of both tiny maps


def engine_attack(st, specs, lead, target, mode, support):
    """Fire in the engine; returns (attack dice, cover dice, the calculator's Attack)."""
    game = st.game
    before = {k: int(st.s.u[k, S.U_TOKEN]) for k in specs}
    at = {k: int(st.s.u[k, S.U_HEX]) for k in specs}                      # before anyone is hit
    st.apply_action(find(st, S.K_FIRE, lead, target | (mode << 8) | (support << 9)))
    ev = events(st, "attack")[-1]
    helpers = [k for k in specs if k not in (lead, target) and before[k] == S.TOK_FRESH
               and st.s.u[k, S.U_TOKEN] == S.TOK_FATIGUED]                  # the supporters it took

    def unit(k, role):
        d = int(game.tables.dist[at[k], at[target]])
        tags = ":woods" if at[k] == hex_of(game, WOODS) else ""
        return parse_unit(f"{specs[k]}{tags}:dist={d}" if role != "target" else f"{specs[k]}{tags}", GAME, role)
    calc = build_attack(GAME, unit(lead, "--attacker"), [unit(k, "--supporter") for k in helpers],
                        unit(target, "target"),
                        distance=int(game.tables.dist[at[lead], at[target]]),
                        mode="suppressive" if mode else "normal")
    return ev[5], ev[6], calc, helpers


@pytest.mark.parametrize("where, lead, target, mode, support", [
    ({A0: "1,2", B0: "4,2", BOFF: "5,0"}, A0, B0, 0, 0),     # 3 hexes, clear
    ({A0: "1,2", A1: "1,1", A3: "0,2", B0: "4,2", BOFF: "5,0"}, A0, B0, 0, 1),    # combined fire: half
    ({A0: "0,1", BOFF: WOODS}, A0, BOFF, 1, 0),              # suppressive at elite + officer in woods
    ({AMG: "1,2", B0: "4,2", BOFF: "5,0"}, AMG, B0, 0, 0),   # the MG squad
    ({A1: "0,0", B1: "5,0"}, A1, B1, 0, 0),                  # 5 hexes: long range
])
def test_the_engine_fires_with_the_calculators_pool_squads(where, lead, target, mode, support):
    st = deployed(where=where)
    dice, cover, calc, helpers = engine_attack(st, TINY_SPECS, lead, target, mode, support)
    assert (dice, cover) == (calc.attack_strength, calc.defence_strength)
    assert (len(helpers) > 0) == (support == 1)


@pytest.mark.parametrize("where, band", [
    ({A1: "0,0", B1: "5,0"}, "long"),                      # 5 hexes, range 4: long, hits on 6
    ({A1: "3,0", B1: "4,0"}, "close"),                     # adjacent: close, hits on 4-6
])
def test_the_engine_hits_as_often_as_the_calculators_odds(where, band):
    """The band is not in the event log: the engine's mean hits over many seeds must be the
    calculator's exact mean (within 4 standard errors; 4 dice at 6s against 0 cover give
    4/6 = 0.67 hits, at 5-6 1.33, at 4-6 2: a wrong band is 0.67 away, ~18 errors)."""
    n = 400
    hits, calc = [], None
    for seed in range(n):
        st = deployed(seed, where=where)
        _, _, calc, _ = engine_attack(st, TINY_SPECS, A1, B1, 0, 0)
        hits.append(events(st, "attack")[-1][7])
    assert calc.band == band
    p = exact.roll_joint(calc)
    a, d = np.indices(p.shape)
    h = np.maximum(a - d, 0)
    mean = float((p * h).sum())
    sd = math.sqrt(float((p * h * h).sum()) - mean * mean)
    assert abs(float(np.mean(hits)) - mean) < 4 * sd / math.sqrt(n)


def test_suppressive_cover_of_an_elite_officer_squad_in_woods_is_five_in_both():
    st = deployed(where={A0: "0,1", BOFF: WOODS})
    dice, cover, calc, _ = engine_attack(st, TINY_SPECS, A0, BOFF, 1, 0)
    assert cover == calc.defence_strength == 2 + 2 * 1 + 1     # woods 2, Battle-Hardened 1 per elite, Determination 1


@pytest.mark.parametrize("where, lead, target", [
    ({SHERMAN: "1,0", PZ4: "4,0"}, SHERMAN, PZ4),             # tank against tank: armour
    ({SQ: "3,0", SDKFZ: "4,0"}, SQ, SDKFZ),                   # squad against a half-track, adjacent
    ({PZ4: "4,1", SQ: WOODS}, PZ4, SQ),                       # tank against a squad in woods
])
def test_the_engine_fires_with_the_calculators_pool_vehicles(where, lead, target):
    st = with_vehicles(where=where)
    if st.s.u[lead, S.U_SIDE] != st.current_player():
        st.apply_action(find(st, S.K_PASS))
    dice, cover, calc, _ = engine_attack(st, VEHICLE_SPECS, lead, target, 0, 0)
    assert (dice, cover) == (calc.attack_strength, calc.defence_strength)


def test_the_engine_assaults_with_the_calculators_strengths_and_cover():
    st = deployed(where={A1: "3,2", A0: "3,1", B0: "4,2", B1: "5,0", BOFF: "5,0"})
    st.apply_action(find(st, S.K_ASSAULT, A1))
    st.apply_action(find(st, S.K_STOP))
    st.apply_action(find(st, S.K_ATTACK_HEX, A1, hex_of(st.game, "4,2") * 2 + 1))
    ev = events(st, "assault")[-1]
    calc = build_assault(GAME, parse_unit("squad:4regular", GAME), [parse_unit("squad:3regular+officer", GAME)],
                         [parse_unit("squad:4regular", GAME)])
    assert (ev[4], ev[5], ev[6]) == (calc.attack_strength, calc.cover, calc.defender_strength)
    assert calc.attack_strength == 4 + 2                      # 4 regulars at FPR 1, the supporter's 4 halved to 2


def test_the_shared_halvings():
    assert shares.firer_halvings(2, True, True, True, False, False, 0, False) == -1      # disrupted: never
    assert shares.firer_halvings(1, True, True, False, False, False, 0, False) == -1     # pinned, no officer
    assert shares.firer_halvings(1, True, True, True, False, False, 0, False) == 1       # Rally: one halving
    assert shares.firer_halvings(0, False, True, False, True, False, 1, False) == 2      # support + smoke: two
    assert shares.strength_after(5, 1) == 3 and shares.strength_after(5, 2) == -1       # ceil(5 / 2); twice: out
    assert shares.hex_halvings(1, 1, True) == 1 and shares.hex_halvings(1, 1, False) == 2  # wire: squads only
    assert shares.assault_defender_halvings(False, 1, True, 0, False) == 0               # pinned with officer
    assert shares.defence_dice(2, 2, False, 1, 5, 0) == 0                                # 2 + 2 + 1 - 5
    assert shares.defence_dice(2, 2, True, 1, 0, 4) == 2 + 4                             # vehicle: terrain + AV
