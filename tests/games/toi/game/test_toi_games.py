"""Whole Tide of Iron games: deterministic for a seed, legal in every state (stacking,
movement allowance, op fire at most once per hex, fatigued units never activated)."""

from __future__ import annotations

import random

import numpy as np

from simulator.games.toi.game import state as S
from simulator.games.toi.game.game import Game, State, play_games
from simulator.games.toi.game.invariants import log_problems, problems
from tests.games.toi.game.util import MARKED, arg_of, kind_of, tiny_game, unit_of

ACTIVATIONS = (S.K_ADVANCE, S.K_FIRE, S.K_FIREMOVE, S.K_ASSAULT, S.K_PREP_OPFIRE, S.K_FATIGUE)


def test_whole_games_are_deterministic_for_a_seed():
    a = play_games("two-farms", 6, seed=11)
    b = play_games("two-farms", 6, seed=11)
    assert a == b
    c = play_games("two-farms", 3, seed=11, start=3)                  # a game is the same in any batch
    assert c == a[3:]
    assert play_games("two-farms", 6, seed=12) != a


def test_greedy_games_are_deterministic_too():
    assert play_games("two-farms", 2, seed=5, players=("greedy", "random")) == \
        play_games("two-farms", 2, seed=5, players=("greedy", "random"))


def nearest_enemy(st: State, h: int, side: int) -> int:
    t = st.game.tables
    far = [int(t.dist[h, st.s.u[e, S.U_HEX]]) for e in range(st.game.n_units)
           if st.s.u[e, S.U_ST] == S.ONMAP and st.s.u[e, S.U_SIDE] != side]
    return min(far) if far else 0


def bold(st: State, acts: list[int], rng: random.Random) -> list[int]:
    """Half the time, an assaulting squad heads for the nearest enemy and assaults it."""
    sub, t = int(st.s.g[S.G_SUB]), st.game.tables
    if sub == S.SUB_SELECT:
        return [a for a in acts if kind_of(a) == S.K_ASSAULT] or acts
    if sub == S.SUB_ASSAULT:
        return [a for a in acts if kind_of(a) == S.K_ATTACK_HEX] or acts
    if sub == S.SUB_MOVE and st.s.g[S.G_ACTION] == S.K_ASSAULT:
        k = int(st.s.g[S.G_UNIT])
        side, h = int(st.s.u[k, S.U_SIDE]), int(st.s.u[k, S.U_HEX])
        if nearest_enemy(st, h, side) == 1 and any(kind_of(a) == S.K_STOP for a in acts):
            return [a for a in acts if kind_of(a) == S.K_STOP]
        steps = [a for a in acts if kind_of(a) == S.K_STEP]
        if steps:
            best = min(nearest_enemy(st, int(t.side6[h, arg_of(a), 0]), side) for a in steps)
            return [a for a in steps if nearest_enemy(st, int(t.side6[h, arg_of(a), 0]), side) == best]
    return acts


def random_game(game: Game, seed: int, rng: random.Random, pass_weight: float = 0.05,
                boldness: float = 0.0) -> State:
    """A random game stepped from Python, checking every state on the way. The player
    rarely ends its action phase on purpose, so games are long and varied; with
    ``boldness`` it sometimes goes for assaults (:func:`bold`)."""
    st = State(game, seed, 0)
    t = game.tables
    n = 0
    while not st.is_terminal():
        acts = st.legal_actions()
        assert acts, str(st)
        if len(acts) > 1 and rng.random() > pass_weight:
            acts = [a for a in acts if kind_of(a) not in (S.K_PASS, S.K_NO_OPFIRE)] or acts
        if st.s.g[S.G_SUB] == S.SUB_SET_OPFIRE and rng.random() < 0.6:
            acts = [a for a in acts if kind_of(a) == S.K_OPFIRE_DONE]
        if st.s.g[S.G_SUB] == S.SUB_TRANSFER and rng.random() < 0.7:     # a few squad transfers
            acts = [a for a in acts if kind_of(a) == S.K_TRANSFER_DONE]
        if boldness and rng.random() < boldness:
            acts = bold(st, acts, rng)
        a = rng.choice(acts)
        kind, unit = kind_of(a), unit_of(a)
        if st.s.g[S.G_SUB] == S.SUB_SELECT and kind in ACTIVATIONS:
            assert st.s.u[unit, S.U_TOKEN] == S.TOK_FRESH, "only fresh units are activated (001 Action phase)"
            assert st.s.u[unit, S.U_SIDE] == st.current_player()
        mp_before = int(st.s.g[S.G_MP])
        if kind == S.K_STEP:
            h = int(st.s.u[unit, S.U_HEX])
            cost = int(t.side6[h, arg_of(a), 1])
            assert 0 < cost <= mp_before, "a step within the movement allowance"
        st.apply_action(a)
        bad = problems(st.s, t)
        assert not bad, (bad, str(st))
        n += 1
        assert n < 20_000
    assert not log_problems(st.s.log[: int(st.s.g[S.G_LOGN])])
    return st


def test_no_random_game_reaches_an_illegal_state():
    rng = random.Random(3)
    from tests.games.toi.game.test_toi_concealed import HIDDEN
    from tests.games.toi.game.test_toi_markers import SMOKE
    from tests.games.toi.game.test_toi_more_rules import MORE
    from tests.games.toi.game.test_toi_vehicles import VEHICLES
    for game, n in ((tiny_game(), 20), (tiny_game(MARKED), 20), (tiny_game(VEHICLES), 25), (Game("two-farms"), 12),
                    (Game("ridge-line"), 6), (tiny_game(SMOKE), 10), (tiny_game(HIDDEN), 10), (tiny_game(MORE), 15)):
        reasons = set()
        for seed in range(n):
            st = random_game(game, seed, rng, boldness=0.5 * (seed % 2))
            reasons.add(int(st.s.g[S.G_REASON]))
        assert reasons <= {S.R_VICTORY_POINTS, S.R_ELIMINATION}


def test_random_games_see_every_kind_of_action():
    rng = random.Random(4)
    game = Game("two-farms")
    names = ("moved", "attack", "op fire attack", "assault", "retreated", "figures lost", "condition",
             "destroyed", "objective control", "placed in op fire mode")
    seen = set()
    for seed in range(60):          # two German squads since the rebalance: the first retreat is in game 31
        st = random_game(game, seed, rng, boldness=0.5)
        seen |= {e[0] for e in st.events()}
        if all(any(s.startswith(name) for s in seen) for name in names):
            break
    for name in names:
        assert any(s.startswith(name) for s in seen), name


def test_speed_figure(capsys):
    import time
    play_games("two-farms", 2, seed=0)
    t0 = time.perf_counter()
    recs = play_games("two-farms", 300, seed=1)
    dt = time.perf_counter() - t0
    with capsys.disabled():
        print(f"\n[toi speed] two-farms, random v random: {300 / dt:.0f} games/s on one core, "
              f"{np.mean([r.decisions for r in recs]):.0f} decisions and "
              f"{np.mean([r.actions for r in recs]):.1f} actions a game")


def win_rate(scenario: str, players: tuple[str, str], seat: int, n: int = 40) -> float:
    return sum(r.winner == seat for r in play_games(scenario, n, seed=21, players=players)) / n


def test_the_greedy_player_does_at_least_as_well_as_random_in_every_seat_of_the_tiny_field():
    from tests.games.toi.game.util import TINY
    tiny = str(TINY)
    rr_b = win_rate(tiny, ("random", "random"), 1)
    gb = win_rate(tiny, ("random", "greedy"), 1)
    assert gb >= rr_b + 0.2                                            # a clear margin as b
    # as a: both near 100%, so 200 games (40 left greedy a game short of random's 40 of 40
    # once the streams came from the core's seeding)
    assert win_rate(tiny, ("greedy", "random"), 0, 200) >= win_rate(tiny, ("random", "random"), 0, 200)
    for seat in (0, 1):
        players = ("greedy", "random") if seat == 0 else ("random", "greedy")
        assert win_rate("two-farms", players, seat, 20) >= win_rate("two-farms", ("random", "random"), seat, 20)


def test_a_full_event_log_raises_instead_of_dropping_events(monkeypatch):
    """As Assault's (issue 17): an event past the log's capacity is an error, not lost."""
    import pytest

    monkeypatch.setattr(State, "LOG_CAP", 2)          # set-up alone logs more than two events
    monkeypatch.setattr(State, "make_log_room", lambda self: None)   # the rules themselves, not the doubling
    with pytest.raises(ValueError, match="event log full"):
        st = State(tiny_game(), seed=3)
        for _ in range(2000):
            if st.is_terminal():
                break
            st.apply_action(st.legal_actions()[0])
    monkeypatch.undo()
    full = State(tiny_game(), seed=3)                # the normal capacity holds a whole game
    while not full.is_terminal():
        full.apply_action(full.legal_actions()[0])
