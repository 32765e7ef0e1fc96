"""Restricted play (issue 18, part 4): a side denied one kind of choice never makes it,
whichever player plays it, while unrestricted it does; a restriction that would leave
nothing legal leaves everything legal; bad ``--restrict`` values are one-line errors.

The games are the small Skirmish of ``test_players`` (two rifle squads a side, one
house to hold), played decision by decision through ``choose``, so every choice of
the restricted side is checked against what it was offered."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.engine.players.base import MC_SIMS, RS_CARDS, RS_KINDS
from simulator.engine.players.interface import DEFAULT_PARAMS, GREEDY, LOOKAHEAD, MCTS, RANDOM, choose, make_work
from simulator.games.assault.game import events as ev
from simulator.games.assault.game.game import State
from simulator.games.assault.game.restrict import X_ENTER_CC
from simulator.games.assault.game.restrictions import (
    RESTRICTIONS,
    every_restriction,
    parse_restriction,
    restricted_params,
)
from simulator.games.assault.game.state import K_DIG, K_FAST, K_FIRE, U_SIDE, U_TYPE, decode
from simulator.games.assault.game.tables import UT_CARD
from simulator.run.errors import InputError

GERMAN = 0


def play(game, kind, params, seed):
    """One game, both sides played by ``kind``: ``(German decisions, events)``, each
    decision ``(legal actions, chosen action)``."""
    t = game.tables
    w = make_work(game)
    st = State(game, seed=seed, log=True)
    decisions = []
    while not st.is_terminal():
        side = st.current_player()
        legal = st.legal_actions()
        a = int(choose(st.s, t, np.int64(kind), np.int64(side), w, params))
        assert a in legal
        if side == GERMAN:
            decisions.append((legal, a))
        st.apply_action(a)
    return decisions, st.events(), st


def restricted(game, text):
    return restricted_params(parse_restriction(text, game.scenario), game.card_names(), DEFAULT_PARAMS)


@pytest.mark.parametrize("what,kind", [("dig-in", K_DIG), ("fast-move", K_FAST), ("fire", K_FIRE)])
def test_the_restricted_side_never_takes_the_forbidden_kind(skirmish, what, kind):
    """Over many decisions of random games: restricted, the German side never chooses the
    kind while it has another choice (it always has: passing); unrestricted, it does."""
    params = restricted(skirmish, f"german:{what}")
    taken_free = offered = 0
    for seed in range(6):
        free, _, _ = play(skirmish, RANDOM, DEFAULT_PARAMS, seed)
        taken_free += sum(decode(a)[0] == kind for _, a in free)
        bound, _, _ = play(skirmish, RANDOM, params, seed)
        for legal, a in bound:
            allowed = [x for x in legal if decode(x)[0] != kind]
            offered += len(allowed) < len(legal)
            if allowed:
                assert decode(a)[0] != kind
    assert taken_free > 0 and offered > 0          # the restriction was tested, not vacuous


def test_close_combat_restriction_never_starts_one(skirmish):
    """close-combat forbids the step into an enemy's hex (12.0): no close combat started
    by a German unit, while unrestricted greedy Germans start some (random ones hardly
    ever reach the enemy)."""
    params = restricted(skirmish, "german:close-combat")
    started = {"free": 0, "bound": 0}
    for seed in range(6):
        for key, par in (("free", DEFAULT_PARAMS), ("bound", params)):
            _, log, st = play(skirmish, GREEDY, par, seed)
            cc = log[(log[:, 0] == ev.EV_CC) & (log[:, 5] == 0)]
            started[key] += int((st.s.u[cc[:, 2], U_SIDE] == GERMAN).sum())
    assert started["free"] > 0 and started["bound"] == 0


def test_a_restricted_card_is_never_activated(skirmish):
    params = restricted(skirmish, "german:unit=rifles-41")
    card = skirmish.card_names().index("german/rifles-41")
    activated = {"free": 0, "bound": 0}
    for seed in range(4):
        for key, par in (("free", DEFAULT_PARAMS), ("bound", params)):
            _, log, st = play(skirmish, RANDOM, par, seed)
            act = log[(log[:, 0] == ev.EV_ACTIVATE) & (log[:, 2] == GERMAN)]
            activated[key] += int((skirmish.tables.ut[st.s.u[act[:, 3], U_TYPE], UT_CARD] == card).sum())
    assert activated["free"] > 0 and activated["bound"] == 0


@pytest.mark.parametrize("kind", [GREEDY, LOOKAHEAD, MCTS])
def test_every_player_honours_the_restriction(skirmish, kind):
    params = restricted(skirmish, "german:dig-in")
    params[RS_KINDS] |= np.int64(1 << int(K_FIRE))
    params[MC_SIMS:MC_SIMS + 2] = 8                 # a small tree search
    for seed in range(2):
        decisions, _, _ = play(skirmish, kind, params, seed)
        for legal, a in decisions:
            if any(decode(x)[0] not in (K_DIG, K_FIRE) for x in legal):
                assert decode(a)[0] not in (K_DIG, K_FIRE)


def test_a_restriction_that_forbids_everything_forbids_nothing(skirmish):
    """Every kind forbidden: each decision falls back to all the legal actions (the game
    goes on and ends), as ``legal_for`` documents."""
    params = DEFAULT_PARAMS.copy()
    params[RS_KINDS + GERMAN] = np.int64((1 << 62) - 1)
    params[RS_CARDS + GERMAN] = np.int64((1 << 62) - 1)
    decisions, _, st = play(skirmish, RANDOM, params, 1)
    assert st.is_terminal() and decisions


def test_restriction_names_and_masks(skirmish):
    sc = skirmish.scenario
    a = parse_restriction("soviet:unit=Rifles-41", sc)
    assert (a.side, a.what, a.card) == (1, "unit=rifles-41", "soviet/rifles-41")
    p = restricted_params(a, skirmish.card_names(), DEFAULT_PARAMS)
    assert p[RS_CARDS + 1] == 1 << skirmish.card_names().index("soviet/rifles-41") and p[RS_KINDS + 1] == 0
    assert DEFAULT_PARAMS[RS_CARDS + 1] == 0                         # a copy
    cc = restricted_params(parse_restriction("german:close-combat", sc), skirmish.card_names(), DEFAULT_PARAMS)
    assert cc[RS_KINDS] >> X_ENTER_CC & 1 and cc[RS_KINDS + 1] == 0
    whats = [x.what for x in every_restriction(sc, "german", skirmish.card_names())]
    assert whats[0] == "unit=rifles-41" and "dig-in" in whats and "close-combat" in whats
    assert "indirect-fire" not in whats and "turret-fire" not in whats     # rifles cannot
    assert set(whats[1:]) <= set(RESTRICTIONS)


@pytest.mark.parametrize("text,message", [
    ("italian:dig-in", "unknown side 'italian'"),
    ("german:unit=tiger-1", "unknown unit card 'tiger-1' of german"),
    ("german:dig_in", "unknown restriction 'dig_in' (did you mean 'dig-in'?"),
    ("german", "write SIDE:WHAT"),
])
def test_bad_restrictions_are_one_line(skirmish, text, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace("?", r"\?")):
        parse_restriction(text, skirmish.scenario)


@pytest.mark.parametrize("args,message", [
    (["--restrict", "italian:dig-in"], "unknown side 'italian'"),
    (["--restrict", "german:unit=tiger-1"], "unknown unit card 'tiger-1'"),
    (["--restrict", "german:no-such-thing"], "unknown restriction 'no-such-thing'"),
    (["--restrict-all", "italian"], "unknown side 'italian'"),
])
def test_bad_restrict_options_exit_2(skirmish_path, args, message):
    res = CliRunner().invoke(main, ["assault", "scenario", str(skirmish_path), "--games", "10", *args])
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_restrict_json_keys_and_paired_changes(skirmish_path):
    args = ["assault", "scenario", str(skirmish_path), "--games", "40", "--seed", "3", "--players", "greedy,greedy",
            "--restrict", "german:unit=rifles-41", "--restrict", "soviet:turn-artillery", "--format", "json"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    rows = data["restricted"]
    assert [(r["side"], r["restriction"]) for r in rows] == [("german", "unit=rifles-41"), ("soviet", "turn-artillery")]
    for r in rows:
        assert {"side", "restriction", "win_rate", "change", "ci95"} <= set(r)
        assert r["ci95"][0] <= r["change"] <= r["ci95"][1]
        assert r["change"] == pytest.approx(r["win_rate"] - data["win_rate"][r["side"]]["p"])
    # Germans who never activate hardly win; Soviets without artillery play the very same games
    assert rows[0]["win_rate"] < 0.2 and rows[0]["change"] <= 0
    # no game changed: the exact bound of 0 discordant in 40, +-(1 - 0.025^(1/40)) = +-0.088097,
    # not a zero-width [0, 0]; the exact test of no changed game is p = 1
    assert rows[1]["change"] == 0.0 and rows[1]["ci95"] == pytest.approx([-0.088097, 0.088097], abs=1e-6)
    assert rows[1]["games_changed"] == {"better": 0, "worse": 0} and rows[1]["p_value"] == 1.0
    # the family: two restrictions; Holm's adjusted p is at least the raw one, at most twice it
    for r in rows:
        assert r["family_size"] == 2 and r["p_value"] <= r["p_holm"] <= min(1.0, 2 * r["p_value"])
        assert r["significant"] == (r["p_holm"] <= 0.05)


def test_restrict_all_plays_each_card_and_kind(skirmish_path):
    res = CliRunner().invoke(main, ["assault", "scenario", str(skirmish_path), "--games", "10", "--seed", "1",
                                    "--restrict-all", "soviet", "--format", "json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)["restricted"]
    assert {r["side"] for r in rows} == {"soviet"} and rows[0]["restriction"] == "unit=rifles-41"
    assert len(rows) == len({r["restriction"] for r in rows}) > 5
    # one family: every row knows its size; Holm's adjusted p of the smallest raw p is m times it
    # (capped at 1), and no adjusted p is below its raw one
    m = len(rows)
    assert all(r["family_size"] == m and r["p_holm"] >= r["p_value"] for r in rows)
    smallest = min(rows, key=lambda r: r["p_value"])
    assert smallest["p_holm"] == pytest.approx(min(1.0, m * smallest["p_value"]))
    assert all(r["significant"] == (r["p_holm"] <= 0.05) for r in rows)
