"""The scenario engine's close-combat API: compiled functions called from a numba loop,
held against the exact answers."""

import numba
import numpy as np

from simulator.games.assault.rules.aid import load_aid
from simulator.games.assault.rules.cards import load_units
from simulator.games.assault.rules.melee.damage import IN_HEX
from simulator.games.assault.rules.melee.exact import exact_fight
from simulator.games.assault.rules.melee.fight import F_DAMAGE, F_STATUS, G_ROUNDS, begin, decode, end_code, field
from simulator.games.assault.rules.melee.kernels import resolve_exchange, resolve_fight, resolve_round_v2
from simulator.games.assault.rules.melee.situation import A1, D1, V1_INITIATE, MeleeSituation, build_cast
from simulator.games.assault.rules.melee.tables import compile_melee
from simulator.run.rng import seed_state

AID, UNITS = load_aid(), load_units()
N = 100_000


def compiled(edition, max_rounds, **kw):
    cast = build_cast(edition, UNITS["soviet/rifles-41"], UNITS["german/rifles-41"], MeleeSituation(**kw), AID, UNITS)
    return compile_melee(cast, max_rounds=max_rounds, policies=("half-strength", "half-strength"))


@numba.njit(cache=True)
def engine_like_v1_rounds(T, U, S0, P, n, state, out):
    """What an engine does for a first-edition initiation: one exchange, then read the units."""
    S = np.empty_like(S0)
    for i in range(n):
        S[:] = S0
        resolve_exchange(T, U, S, P, A1, D1, V1_INITIATE, state)
        out[i, 0] = field(S, A1, F_STATUS)
        out[i, 1] = field(S, D1, F_DAMAGE)


@numba.njit(cache=True)
def engine_like_fights(T, U, S0, P, n, state, codes, rounds):
    S = np.empty_like(S0)
    for i in range(n):
        S[:] = S0
        resolve_fight(T, U, S, P, state)
        codes[i] = end_code(S)
        rounds[i] = S[G_ROUNDS]


def test_one_first_edition_round_from_a_numba_loop_matches_the_exact_round():
    cm = compiled("v1", 1, terrain="forest")
    out = np.zeros((N, 2), dtype=np.int64)
    engine_like_v1_rounds(cm.tables, cm.units, cm.state, cm.params, N, seed_state(np.random.SeedSequence(21)), out)
    first = exact_fight(cm).first
    p_in = sum(p for code, p in first.items() if decode(code)[A1]["status"] == IN_HEX)
    p_dmg2 = sum(p for code, p in first.items() if decode(code)[D1]["damage"] == 2)
    for p, q in ((p_in, np.mean(out[:, 0] == IN_HEX)), (p_dmg2, np.mean(out[:, 1] == 2))):
        assert abs(q - p) < 4 * np.sqrt(p * (1 - p) / N), (p, q)


def test_whole_revised_fight_from_a_numba_loop_matches_the_markov_chain():
    cm = compiled("v2", 50, terrain="brush", defender_activated=True)
    codes = np.zeros(N, dtype=np.int64)
    rounds = np.zeros(N, dtype=np.int64)
    engine_like_fights(cm.tables, cm.units, cm.state, cm.params, N, seed_state(np.random.SeedSequence(22)),
                       codes, rounds)
    ex = exact_fight(cm)
    for code, p in ex.final.items():
        if p * N >= 10:
            q = np.mean(codes == code)
            assert abs(q - p) < 4 * np.sqrt(p * (1 - p) / N), (decode(code), p, q)
    sd = rounds.std() / np.sqrt(N)
    assert abs(rounds.mean() - ex.mean_rounds) < 4 * sd


@numba.njit(cache=True)
def engine_like_v2_rounds(T, U, S0, P, n, state, damage):
    S = np.empty_like(S0)
    for i in range(n):
        S[:] = S0
        resolve_round_v2(T, U, S, P, state)
        damage[i] = field(S, D1, F_DAMAGE) if field(S, D1, F_STATUS) != 4 else -1


def test_one_revised_round_from_a_numba_loop_matches_the_exact_initial_round():
    cm = compiled("v2", 1, wire=True)               # wire: the initial round's own pool (RG)
    S0 = cm.state.copy()
    begin(S0, cm.units, cm.params)
    damage = np.zeros(N, dtype=np.int64)
    engine_like_v2_rounds(cm.tables, cm.units, S0, cm.params, N, seed_state(np.random.SeedSequence(23)), damage)
    exact = {}
    for code, p in exact_fight(cm).final.items():
        d = decode(code)[D1]
        k = -1 if d["status"] == 4 else d["damage"]
        exact[k] = exact.get(k, 0.0) + p
    for k, p in exact.items():
        q = np.mean(damage == k)
        assert abs(q - p) < 4 * np.sqrt(p * (1 - p) / N), (k, p, q)
