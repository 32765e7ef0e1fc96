"""The shared search players play Tide of Iron through the game API (issue 19): the
look-ahead and the tree search are the same code as Assault's (simulator/engine/players,
which imports no game), reproducible for a seed whatever the number of workers, blind
to the game's next dice; ``toi scenario`` gets the skill ladder and the skill curve."""

from __future__ import annotations

import json

import numba
import numpy as np
import pandas as pd
from click.testing import CliRunner

from simulator.engine.core import gameapi
from simulator.engine.core.batch import SEARCH_PIECE_GAMES, run_games
from simulator.engine.players.interface import GREEDY, choose_quick, make_work, player_setup
from simulator.games.toi.game.game import Game, State
from simulator.games.toi.game.state import G_INIT, G_ROUND, G_VP0

N = SEARCH_PIECE_GAMES + 4         # two pieces: with two workers each plays one


def test_search_players_give_the_same_records_on_one_and_two_workers_and_the_ladder_and_curve(tmp_path):
    """One test, so that the searching batch entry compiles once (on one test worker)."""
    game = Game("two-farms")
    runs = [run_games(game, games=N, seed=5, players=("mcts:8", "lookahead"), workers=w, out_dir=tmp_path / str(w))
            for w in (1, 2)]
    a, b = (pd.read_parquet(tmp_path / str(w) / "games.parquet") for w in (1, 2))
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == N and runs[0].tally.games == N
    assert (runs[0].tally.outcome_array() == runs[1].tally.outcome_array()).all()
    assert a["activations"].min() > 0                     # whole games were played
    greedy = run_games(game, games=N, seed=5, players=("greedy", "lookahead"), workers=1)
    assert (greedy.tally.stats != runs[0].tally.stats).any()     # the tree search is not greedy under another name
    ladder_and_skill_curve(tmp_path)


def _midgame(seed: int = 3, decisions: int = 12) -> State:
    st = State(Game("two-farms"), seed, 0, log=False)
    kinds, params = player_setup(("greedy", "greedy"))
    w = make_work(st.game)
    for _ in range(decisions):
        side = st.current_player()
        st.apply_action(int(choose_quick(st.s, st.game.tables, kinds[side], side, w, params)))
    return st


@numba.njit
def outlook_of(s, t, side):
    return gameapi.outlook(s, t, side)      # a compiled hook has no Python wrapper


def test_the_outlook_is_the_games_own_victory_check():
    """``outlook`` (the tree search's ``MC_VICTORY`` term): before every decision of three
    greedy games of Two Farms, +-(the share of the rounds begun) for the side with more
    VPs, a tie to the side with the initiative (001 Winning the game); when the game is
    over, for its winner (by VPs after the last round or by elimination)."""
    game = Game("two-farms")
    t = game.tables
    kinds, params = player_setup(("greedy", "greedy"))
    w = make_work(game)
    decisions = 0
    for seed in range(3):
        st = State(game, seed, 0, log=False)
        while not st.is_terminal():
            g = st.s.g
            v0, v1 = g[G_VP0], g[G_VP0 + 1]
            leader = 0 if v0 > v1 else (1 if v1 > v0 else g[G_INIT])
            share = min(1.0, g[G_ROUND] / game.turns)
            for side in (0, 1):
                assert outlook_of(st.s, t, side) == (share if side == leader else -share)
            decisions += 1
            side = st.current_player()
            st.apply_action(int(choose_quick(st.s, t, kinds[side], side, w, params)))
        share = min(1.0, st.s.g[G_ROUND] / game.turns)
        assert st.winner >= 0 and outlook_of(st.s, t, st.winner) == share > 0
        assert outlook_of(st.s, t, 1 - st.winner) == -share
    assert decisions > 100


def test_greedy_never_reads_the_games_next_dice():
    """Tide of Iron's greedy (whose scores rank the searches' candidates and whose choices
    play their playouts) chooses alike whatever the game's dice stream holds: its trials'
    dice come from its own stream; and choosing leaves the game's dice where they were.
    The searches' own blindness is the shared code's, tested on Assault
    (tests/games/assault/game/test_mcts.py)."""
    kind = GREEDY
    st = _midgame()
    _, params = player_setup(("greedy", "greedy"))
    side = st.current_player()
    picks = set()
    for dice in range(4):
        s = st.clone().s
        s.rng[0, :] = np.array([11 + dice, 2 * dice + 1, 7, 99 + dice], dtype=np.uint64)
        before = s.rng[0].copy()
        picks.add(int(choose_quick(s, st.game.tables, kind, side, make_work(st.game), params)))
        assert (s.rng[0] == before).all()
    assert len(picks) == 1, picks


def ladder_and_skill_curve(tmp_path):
    """``toi scenario --ladder`` and ``--skill-curve``: JSON keys, the verdict's strength,
    the report page."""
    from simulator.cli import main
    res = CliRunner().invoke(main, ["toi", "scenario", "two-farms", "--games", "8", "--seed", "3", "--ladder",
                                    "--ladder-games", "10", "--format", "json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output[res.output.index("{"):])
    ladder = report["skill_ladder"]
    assert [(r["weaker"], r["stronger"]) for r in ladder["rungs"]] == [("random", "greedy"), ("greedy", "lookahead")]
    assert all(len(r["seats"]) == 2 for r in ladder["rungs"]) and ladder["games_per_match"] == 10
    out = tmp_path / "curve"
    res = CliRunner().invoke(main, ["toi", "scenario", "two-farms", "--games", "10", "--seed", "3", "--skill-curve",
                                    "--levels", "random,greedy,mcts:4", "--family", "off", "--out", str(out),
                                    "--format", "json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output[res.output.index("{"):])
    curve = report["skill_curve"]
    assert [row["level"] for row in curve] == ["random", "greedy", "mcts:4"]
    assert all(row["games"] == 10 and set(row["win_rate"]) == {"american", "german"} for row in curve)
    assert report["verdict"]["strength"] == "mcts:4"
    # 10 games a level: even no changed game leaves the paired interval ±(1 - 0.025^(1/10)) = ±30.8 points
    assert report["convergence"]["status"] in ("moving", "undecided") and report["converged"] is False
    assert report["players"] == {"american": "mcts:4", "german": "mcts:4"}
    assert "skill" in (out / "index.html").read_text().lower()
    assert "family_check" not in report and "family" not in report["verdict"]      # --family off
    res = CliRunner().invoke(main, ["toi", "scenario", "two-farms", "--games", "10", "--seed", "3", "--skill-curve",
                                    "--levels", "random,greedy", "--family", "uct:2"])
    assert res.exit_code == 0, res.output
    assert "  second family    uct:2: american" in res.output and "second search family (uct:2)" in res.output


def test_restricted_play_forbids_exactly_what_it_names():
    """Tide of Iron's side of restricted play (playerapi.forbidden, through the shared
    legal_for): a unit denied (RS_CARDS) never gets an action of the action phase, a kind
    denied (RS_KINDS) is never taken; the same random stream, unrestricted, does both."""
    from simulator.engine.core.actions import decode
    from simulator.engine.players.base import RS_CARDS, RS_KINDS
    from simulator.engine.players.interface import RANDOM
    from simulator.games.toi.game.state import G_SUB, K_ADVANCE, K_PASS, SUB_SELECT

    st = _midgame()
    assert int(st.s.g[G_SUB]) == SUB_SELECT
    side = st.current_player()
    units = {decode(a)[1] for a in st.legal_actions() if decode(a)[0] != K_PASS}
    denied = min(units)
    _, free = player_setup(("random", "random"))
    no_unit, no_kind = free.copy(), free.copy()
    no_unit[RS_CARDS + side] = 1 << denied
    no_kind[RS_KINDS + side] = 1 << K_ADVANCE
    seen = {"free": set(), "unit": set(), "kind": set()}
    streams = np.random.default_rng(9).integers(1, 2**63, size=(200, 4), dtype=np.uint64)   # the player's stream
    for draw in range(200):
        for name, params in (("free", free), ("unit", no_unit), ("kind", no_kind)):
            s = st.clone().s
            s.rng[1 + side] = streams[draw]
            a = int(choose_quick(s, st.game.tables, RANDOM, side, make_work(st.game), params))
            seen[name].add(decode(a)[:2])
    assert any(u == denied for _, u in seen["free"]), seen["free"]
    assert any(k == K_ADVANCE for k, _ in seen["free"]), seen["free"]
    assert seen["unit"] and all(u != denied for k, u in seen["unit"] if k != K_PASS)
    assert seen["kind"] and all(k != K_ADVANCE for k, _ in seen["kind"])
