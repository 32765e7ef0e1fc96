"""``lanchester toi replay`` (issue 19): game K of a batch again, decision by decision;
the same game as the batch's record (same seed, players, decision limit)."""

from __future__ import annotations

import json

import pandas as pd
from click.testing import CliRunner

from simulator.cli import main
from simulator.engine.core.batch import run_games
from simulator.games.toi.game import state as S
from simulator.games.toi.game.game import Game
from simulator.games.toi.game.replay import replay_game, replay_json, replay_text

PLAYERS = ("greedy", "random")


def test_a_replay_is_the_batch_game(tmp_path):
    game = Game("two-farms")
    run_games(game, games=4, seed=11, players=PLAYERS, workers=1, out_dir=tmp_path / "run")
    rec = pd.read_parquet(tmp_path / "run" / "games.parquet").set_index("game")
    for k in (1, 3):
        rp = replay_game(game, 11, k, PLAYERS)
        g = rp.state.s.g
        assert int(g[S.G_OVER]) == 1
        assert rec.loc[k, "winner"] == rp.state.winner
        assert rec.loc[k, "reason"] == int(g[S.G_REASON])
        assert rec.loc[k, "turns"] == int(g[S.G_ROUND])
        assert rec.loc[k, "decisions"] == len(rp.decisions)
        assert rec.loc[k, "activations"] == int(g[S.G_ACTIONS])
        assert (rec.loc[k, "points_left_0"], rec.loc[k, "points_left_1"]) == (int(g[S.G_VP0]), int(g[S.G_VP0 + 1]))
        j = replay_json(rp)
        assert j["winner"] == rec.loc[k, "winner_side"] and j["reason"] == rec.loc[k, "reason_name"]


def test_a_replay_is_deterministic_and_tells_the_events():
    game = Game("two-farms")
    a = replay_text(replay_game(game, 5, 2, ("greedy", "greedy")))
    b = replay_text(replay_game(game, 5, 2, ("greedy", "greedy")))
    assert a == b
    assert a.startswith("Two Farms (two-farms); game 2 of seed 5\nplayers: american greedy, german greedy\n")
    for text in ("[set-up] american: american squad 0", "placed in", "=== round 1 ===", "[round 1] ",
                 " activated: ", "=== game over: ", "\nresult: ", "\nfinal position:\n"):
        assert text in a, text
    assert a != replay_text(replay_game(game, 5, 3, ("greedy", "greedy")))


def test_replay_command(tmp_path):
    res = CliRunner().invoke(main, ["toi", "replay", "two-farms", "--seed", "5", "--game", "2",
                                    "--players", "greedy,random", "--format", "json"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.output[res.output.index("{"):])
    for key in ("scenario", "seed", "game", "edition", "players", "winner", "turns", "events", "final",
                "reason", "vp", "actions"):
        assert key in obj, key
    assert obj["players"] == {"american": "greedy", "german": "random"} and obj["seed"] == 5 and obj["game"] == 2
    assert {"turn", "event", "text"} <= set(obj["events"][0]) and obj["actions"][0]["decision"] == 0
    assert len(obj["final"]) == Game("two-farms").n_units
    png = tmp_path / "end.png"
    res = CliRunner().invoke(main, ["toi", "replay", "two-farms", "--seed", "5", "--game", "2", "--players",
                                    "greedy,random", "--png", str(png), "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in (tmp_path / "rep").iterdir()) == ["events.csv", "final.png", "replay.json",
                                                                     "replay.txt", "viewer.html"]
    assert json.loads((tmp_path / "rep" / "replay.json").read_text()) == obj
    bad = CliRunner().invoke(main, ["toi", "replay", "two-farms", "--seed", "5", "--game", "2", "--players", "x,y"])
    assert bad.exit_code == 2 and "--players" in bad.output
    res = CliRunner().invoke(main, ["toi", "replay", "two-farms", "--seed", "5", "--game", "2",
                                    "--png", str(tmp_path / "pics")])
    assert res.exit_code == 0 and (tmp_path / "pics" / "two-farms-seed-5-game-2.png").is_file()
    bad = CliRunner().invoke(main, ["toi", "replay", "two-farms", "--seed", "5", "--game", "2",
                                    "--png", str(tmp_path / "end.jpg")])
    assert bad.exit_code == 2 and "--png" in bad.output and not (tmp_path / "end.jpg").exists()


def test_an_area_attacks_mode_is_told_in_words():
    """area.py logs an area attack's mode + 2: the text says area attack, and which mode."""
    from simulator.games.toi.game import events as ev
    from simulator.games.toi.game.replay import describe_event
    game = Game("two-farms")
    texts = [describe_event(game, (ev.EV_FIRE, 1, 0, 5, m, 4, 1, 2)) for m in range(4)]
    assert ["(normal)" in texts[0], "(suppressive)" in texts[1]] == [True, True]
    assert "(normal area attack)" in texts[2] and "(suppressive area attack)" in texts[3]
