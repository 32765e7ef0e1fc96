"""The ``uct`` player (issue 41, item 3): a second search family that uses none of
greedy's priors or value. It reads only the rules' side of the game API, beats random
from both seats of a small scenario, is the same for a seed on 1 and 2 workers, and
``uct:N`` sets its budget; ``uct:N:learned`` values a playout's end by the learned
value (issue 41 item 3 with item 2's value). (The contract over both games: tests/engine/core/test_game_contract.py;
its strength and speed on the shipped scenarios: docs/strength.md.)"""

from __future__ import annotations

import ast
import math
from pathlib import Path

import numpy as np
import pytest

from simulator.engine.core.batch import run_games
from simulator.engine.players import interface
from simulator.engine.players.base import MC_LEARNED, MC_SIMS, UC_HORIZON, UC_LROLLOUT
from simulator.engine.players.interface import DEFAULT_PARAMS, UCT, is_learned, parse_player, player_setup
from simulator.games.assault.game.compile import compile_game
from tests.games.assault.game.test_players import SKIRMISH

ROOT = Path(interface.__file__).resolve().parents[3]
# the rules' side of the game API (gameapi's docstring): outlook is the game's own victory check,
# is_activation which decisions start an activation (the rules' sequence of play, 6.4 / 001)
RULES = {"legal_actions", "apply_action", "decider", "is_over", "winner", "turn_number", "log_off", "forbidden",
         "outlook", "is_activation"}


def _imports(module: str) -> list[tuple[str, set[str]]]:
    tree = ast.parse((ROOT / (module.replace(".", "/") + ".py")).read_text())
    return [(n.module, {a.name for a in n.names}) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]


def test_uct_reads_only_the_rules():
    """Every module of the players that ``uct`` reaches (its own imports, followed
    through the players' modules) takes from the game API only the rules' hooks: no
    ``greedy_choice``, ``greedy_scores``, ``other_plans``, ``evaluate`` (greedy's priors
    and value)."""
    todo, seen, api = ["simulator.engine.players.uct"], set(), set()
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        for mod, names in _imports(m):
            if mod == "simulator.engine.core.gameapi":
                api |= names
            elif mod.startswith("simulator.engine.players."):
                todo.append(mod)
    assert seen == {"simulator.engine.players.uct", "simulator.engine.players.base",
                    "simulator.engine.players.randomplay", "simulator.engine.players.value"}, seen
    # features: the position's description the learned value (uct:N:learned) is fitted on, not greedy's
    assert api <= RULES | {"features"} and {"legal_actions", "apply_action", "winner"} <= api, api
    assert not api & {"greedy_choice", "greedy_scores", "other_plans", "evaluate"}, api


def test_the_budget_is_read_from_the_name():
    assert parse_player("uct") == (UCT, interface.DEFAULT_UCT_SIMS)
    assert parse_player("uct:500") == (UCT, 500)
    kinds, params = player_setup(("uct:40", "random"))
    assert list(kinds) == [UCT, interface.RANDOM] and params[MC_SIMS] == 40
    assert params[MC_SIMS + 1] == DEFAULT_PARAMS[MC_SIMS + 1]
    for bad in ("uct:0", "uct:many", "uct:10001"):
        with pytest.raises(ValueError, match="uct:N wants N simulations per decision"):
            parse_player(bad)
    with pytest.raises(ValueError, match=r"only mcts:N and uct:N do"):
        parse_player("greedy:3")


def test_the_learned_uct_is_read_from_the_name():
    assert parse_player("uct:4:learned") == (UCT, 4)
    assert parse_player("uct:learned") == (UCT, interface.DEFAULT_UCT_SIMS)     # as a plain ``uct``
    assert is_learned("uct:4:learned") and not is_learned("uct:4")
    kinds, params = player_setup(("random", "uct:40:learned"))
    assert list(kinds) == [interface.RANDOM, UCT] and params[MC_SIMS + 1] == 40
    assert params[MC_LEARNED] == 0 and params[MC_LEARNED + 1] == 1
    for bad in ("uct:0:learned", "uct:x:learned", "uct:10001:learned"):
        with pytest.raises(ValueError, match="uct:N wants N simulations per decision"):
            parse_player(bad)
    with pytest.raises(ValueError, match="no leaf value to learn"):
        parse_player("random:learned")


@pytest.fixture(scope="module")
def skirmish(tmp_path_factory, engine_compiled):
    """The small symmetric Skirmish of ``test_players`` (4 turns, two squads a side)."""
    path = tmp_path_factory.mktemp("skirmish") / "skirmish.scenario.toml"
    path.write_text(SKIRMISH)
    return compile_game(path)


def outcomes(game, players, n, seed=5, workers=2, params=None):
    return run_games(game, games=n, seed=seed, players=players, workers=workers, params=params).tally.outcome_array()


def binomial_tail(n: int, k: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p)."""
    return sum(math.comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(k, n + 1))


def test_uct_beats_random_from_both_seats(skirmish):
    """``uct:32`` with playouts to the end of the game (``UC_HORIZON`` -1) against random,
    48 games from each seat (seed 5): it must win at least 6 of 48 in each. Random
    against random wins none of the 48 in either seat (asserted, at most 1: every game is
    drawn); were uct no better, a win rate of 2%, 6 or more wins would have the one-sided
    binomial probability P(X >= 6 | 48, 0.02) = 3.8e-4. (Measured: 15 and 11 of 48; at
    the default horizon, the end of the turn, 4 and 1 of 24: random playouts of a turn
    rarely reach the objective, docs/strength.md.)"""
    n, need = 48, 6
    assert binomial_tail(n, need, 0.02) < 4e-4
    params = DEFAULT_PARAMS.copy()
    params[UC_HORIZON] = -1
    rr = outcomes(skirmish, ("random", "random"), n)
    for seat, players in ((0, ("uct:32", "random")), (1, ("random", "uct:32"))):
        assert (rr == seat).sum() <= 1, (seat, rr)
        wins = int((outcomes(skirmish, players, n, params=params) == seat).sum())
        assert wins >= need, (seat, wins)


def test_uct_is_the_same_for_a_seed_on_one_and_two_workers(skirmish):
    a = run_games(skirmish, games=6, seed=11, players=("uct:8", "random"), workers=2)
    b = run_games(skirmish, games=6, seed=11, players=("uct:8", "random"), workers=1)
    c = run_games(skirmish, games=6, seed=11, players=("random", "uct:8"), workers=2)
    assert np.array_equal(a.tally.outcome_array(), b.tally.outcome_array())
    assert a.tally.turns_sum == b.tally.turns_sum and np.array_equal(a.tally.strength_left, b.tally.strength_left)
    # and the comparison can fail: with uct in the other seat the same seeds give other games
    assert not np.array_equal(a.tally.outcome_array(), c.tally.outcome_array())


@pytest.fixture(scope="module")
def infantry(tmp_path_factory, engine_compiled):
    """Infantry Training with a learned value fitted on 120 greedy games (seed 5; a few
    seconds), in a cache folder of its own."""
    import os

    from simulator.engine.players import learned as L
    old = os.environ.get("LANCHESTER_CACHE_DIR")
    os.environ["LANCHESTER_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    try:
        g = compile_game("infantry-training")
        g.learned_value, _ = L.learn(g, games=120, seed=5)      # (prepare keeps a value already there)
    finally:
        if old is None:
            del os.environ["LANCHESTER_CACHE_DIR"]
        else:
            os.environ["LANCHESTER_CACHE_DIR"] = old
    return g


def test_learned_uct_is_the_same_for_a_seed_on_one_and_two_workers(infantry, tmp_path):
    """``uct:4:learned`` on Infantry Training, 4 games of seed 13: the games' records
    are the same on one worker or two; and the value matters: ``uct:4`` on the same
    seed plays other games."""
    texts = []
    for workers, folder, player in ((1, "a", "uct:4:learned"), (2, "b", "uct:4:learned"), (2, "c", "uct:4")):
        run_games(infantry, games=4, seed=13, players=(player, "greedy"), workers=workers, out_dir=tmp_path / folder)
        texts.append((tmp_path / folder / "games.csv").read_text())
    assert texts[0] == texts[1]
    assert len(texts[0].strip().splitlines()) == 1 + 4          # a header and four games
    assert texts[0] != texts[2]


def _root_means(g, player, params, side_value):
    """The root's children after ``player``'s first decision of Infantry Training (seed
    3), with ``w.value`` set to ``side_value`` (the learned weights; None: the fitted
    ones): ``(deciding side, [(visits, value sum)])``."""
    from simulator.engine.players.interface import choose, make_work
    from simulator.games.assault.game.game import State
    kinds, params = player_setup((player, player), params)
    st = State(g, seed=3, game_index=0, log=False)
    w = make_work(g)
    if side_value is not None:
        w.value[:] = 0.0
        w.value[0] = side_value
    side = st.current_player()
    choose(st.s, g.tables, kinds[side], np.int64(side), w, params)
    tree, kids, c = w.utree, [], w.utree.first[0]
    while c != 0:
        kids.append((int(tree.visits[c]), float(tree.value[c])))
        c = tree.sibling[c]
    return side, kids


def test_learned_uct_values_the_cap_by_the_learned_value(infantry):
    """At the playout's cap (the end of turn 1: no game of Infantry Training ends there)
    ``uct:16:learned`` backs up the learned value, not the outlook's sign. With the
    weights all 0 but the intercept ``z``, the learned value is ``1 / (1 + e^-z)`` for
    side 0 at every position: z = ln 3 gives 0.75, so every child of the root holds
    0.75 a visit when side 0 decides and 1 - 0.75 = 0.25 when side 1 does (values are
    kept for the side that chose). The plain ``uct:16`` backs up the outlook's sign (0,
    one half or 1): on the same decision its children's means are not all 0.25 / 0.75."""
    side, kids = _root_means(infantry, "uct:16:learned", None, math.log(3.0))
    want = 0.75 if side == 0 else 0.25
    assert sum(v for v, _ in kids) == 16          # each of the 16 simulations went through one child of the root
    for visits, total in kids:
        assert visits > 0 and total == pytest.approx(want * visits, abs=1e-9), (visits, total)
    # with the playout cut to 0 decisions the value is the learned one as well
    params = DEFAULT_PARAMS.copy()
    params[UC_LROLLOUT] = 0
    _, kids0 = _root_means(infantry, "uct:16:learned", params, math.log(3.0))
    assert all(t == pytest.approx(want * v, abs=1e-9) for v, t in kids0)
    _, plain = _root_means(infantry, "uct:16", None, math.log(3.0))
    assert any(abs(t - want * v) > 1e-6 for v, t in plain), plain
