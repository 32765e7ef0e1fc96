"""One contract for every game on the engine (issue 42, item 3; OpenSpiel's and pgx's
``api_test``): each game registered with the game API (:mod:`simulator.engine.core.gameapi`)
plays random and greedy games through its Python ``State``
(:class:`simulator.engine.core.pystate.State`), and every decision is checked against
what :mod:`simulator.engine.players.interface` promises of a player and what OpenSpiel's
API promises of a state:

* a player returns one of the legal actions of the decision pending;
* it leaves the state as it found it, but for its own random stream ``s.rng[1 + side]``:
  the dice stream ``s.rng[0]`` and the other side's are untouched;
* ``clone`` is the same position and independent of the original;
* an illegal action raises ValueError and changes nothing;
* a game ends within the decision limit, with ``returns`` summing to 0, the winner one
  of 0, 1 or -1 (a draw) and ``current_player`` the terminal id;
* the game object honours the :class:`~simulator.engine.core.pystate.Game` protocol;
* the searching player of the second family (``uct``, ``uct:N:learned``) keeps the player's part of it.

A game registered without an entry in :data:`GAMES` fails the first test: every game is
held to the contract.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulator.engine.core import gameapi, pystate
from simulator.engine.players.interface import choose, choose_quick, make_work, player_setup

GAMES = {
    "assault": ("simulator.games.assault.game", "infantry-training"),
    "toi": ("simulator.games.toi.game", "two-farms"),
}
GAMES_EACH = 3
DECISION_LIMIT = 20_000


def _load(game: str):
    """The game's Python ``Game`` and ``State`` for its small shipped scenario."""
    if game == "assault":
        from simulator.games.assault.game import playerapi  # noqa: F401  (registers the API)
        from simulator.games.assault.game.compile import compile_game
        from simulator.games.assault.game.game import State
        return compile_game(GAMES[game][1]), State
    from simulator.games.toi.game import playerapi  # noqa: F401,F811
    from simulator.games.toi.game.game import Game, State
    return Game(GAMES[game][1]), State


def test_every_registered_game_is_held_to_the_contract():
    for game in GAMES:
        _load(game)
    registered = {cls.__module__.split(".game.")[0] for cls in gameapi._GAMES}
    assert registered == {m.rsplit(".game", 1)[0] for m, _ in GAMES.values()}, registered


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_game_object_honours_the_protocol(game, engine_compiled):
    g, _ = _load(game)
    assert isinstance(g, pystate.Game)
    assert len(g.sides) == 2 and g.turns > 0 and g.name
    cards = g.card_names()
    assert cards and all(g.card_side(c) in g.sides for c in cards)
    assert g.no_winner not in (-1, 0, 1) and g.r_truncated in range(len(g.reason_names))


def _arrays(s):
    return [a.copy() for a in s]


def _check_decision(st, kinds, params, w, pick=choose_quick) -> int:
    s = st.s
    side = st.current_player()
    assert side in (0, 1), side
    legal = st.legal_actions()
    assert legal, "no legal action while the game goes on"
    before = _arrays(s)
    a = int(pick(s, st.game.tables, kinds[side], side, w, params))
    assert a in legal, f"{st.action_to_string(a)} is not legal"
    for name, old, new in zip(s._fields, before, s, strict=True):
        if name == "rng":
            own = 1 + side
            others = [r for r in range(new.shape[0]) if r != own]
            assert np.array_equal(old[others], new[others]), "a player drew from the dice or the other side's stream"
        else:
            assert np.array_equal(old, new), f"the player changed the state's {name}"
    return a


def _check_clone(st) -> None:
    twin = st.clone()
    for old, new in zip(st.s, twin.s, strict=True):
        assert np.array_equal(old, new) and old is not new
    if not twin.is_terminal():
        before = _arrays(st.s)
        twin.apply_action(twin.legal_actions()[0])
        assert all(np.array_equal(x, y) for x, y in zip(before, st.s, strict=True)), "a clone shares arrays"


def _check_illegal(st) -> None:
    legal = set(st.legal_actions())
    bad = next(a for a in range(max(legal) + 1, max(legal) + 1000) if a not in legal)
    before = _arrays(st.s)
    with pytest.raises(ValueError):
        st.apply_action(bad)
    assert all(np.array_equal(x, y) for x, y in zip(before, st.s, strict=True))


@pytest.mark.parametrize("players", [("random", "random"), ("greedy", "random"), ("random", "greedy")])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_whole_games_keep_the_contract(game, players, engine_compiled):
    g, State = _load(game)
    kinds, params = player_setup(players)
    for k in range(GAMES_EACH):
        st = State(g, seed=42, game_index=k, log=False)
        w = make_work(g)
        decisions = 0
        while not st.is_terminal():
            if decisions % 50 == 0:
                _check_clone(st)
                _check_illegal(st)
            st.apply_action(_check_decision(st, kinds, params, w))
            decisions += 1
            assert decisions < DECISION_LIMIT, "the game did not end"
        assert st.current_player() == pystate.TERMINAL
        assert st.winner in (-1, 0, 1)
        assert sum(st.returns()) == 0.0
        with pytest.raises(ValueError):
            st.apply_action(0)


@pytest.mark.parametrize("players", [("uct:3", "random"), ("random", "uct:3"),
                                     ("uct:3:learned", "random"), ("random", "uct:3:learned")])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_uct_keeps_the_contract(game, players, engine_compiled):
    """The second search family (``uct``, issue 41 item 3) through the searching entry:
    every decision of a whole game legal, the state left as found but for its own
    stream (its simulations play on the players' spare state, from fresh dice). The
    learned one (``uct:3:learned``) with weights drawn at random (seed 0, a tenth's
    spread): the game's ``features`` are read at every playout's end."""
    g, State = _load(game)
    kinds, params = player_setup(players)
    st = State(g, seed=43, game_index=0, log=False)
    w = make_work(g)
    if any(p.endswith(":learned") for p in players):
        w.value[:] = np.random.default_rng(0).normal(0.0, 0.1, w.value.shape[0])
    decisions = 0
    while not st.is_terminal():
        st.apply_action(_check_decision(st, kinds, params, w, pick=choose))
        decisions += 1
        assert decisions < DECISION_LIMIT, "the game did not end"
    assert st.winner in (-1, 0, 1) and sum(st.returns()) == 0.0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_features_hook_is_named_bounded_and_symmetric(game):
    """The ``features`` hook (the learned value's input): as many values as the game's
    ``FEATURE_NAMES`` (at most ``MAX_FEATURES``), finite, and side 1's are side 0's with
    the sides swapped (``x_own`` <-> ``x_enemy``, ``x_lead``/``x_margin`` negated:
    :func:`simulator.engine.players.value.swap_of`), at positions along greedy and random
    games; it leaves the state as it found it."""
    from simulator.engine.players.base import MAX_FEATURES
    from simulator.engine.players.value import swap_of
    from simulator.engine.players.valuedata import features_of
    g, State = _load(game)
    names = gameapi.api_of(type(g.new_state())).FEATURE_NAMES
    assert len(names) <= MAX_FEATURES and len(set(names)) == len(names)
    perm, sign = swap_of(names)
    kinds, params = player_setup(("greedy", "random"))
    checked = 0
    for k in range(2):
        st = State(g, seed=9, game_index=k, log=False)
        w = make_work(g)
        decisions = 0
        while not st.is_terminal() and decisions < DECISION_LIMIT:
            if decisions % 7 == 0:
                f0, f1 = np.zeros(MAX_FEATURES), np.zeros(MAX_FEATURES)
                before = _arrays(st.s)
                n0 = features_of(st.s, g.tables, np.int64(0), f0)
                n1 = features_of(st.s, g.tables, np.int64(1), f1)
                assert n0 == n1 == len(names)
                assert all(np.array_equal(x, y) for x, y in zip(before, st.s, strict=True))
                assert np.all(np.isfinite(f0[:n0]))
                assert np.allclose(f1[:n0], sign * f0[:n0][perm]), dict(zip(names, zip(f0, f1, strict=False),
                                                                           strict=False))
                checked += 1
            side = st.current_player()
            st.apply_action(int(choose_quick(st.s, g.tables, kinds[side], side, w, params)))
            decisions += 1
    assert checked >= 10
