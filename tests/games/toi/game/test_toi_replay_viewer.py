"""``lanchester toi replay --out DIR`` writes viewer.html (issue 43 item 1): the game
step by step on the map, its positions exact after every decision, shown by headless
Chromium as Python computed them; ``--pick`` chooses a typical game of the batch."""

from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner

from simulator.cli import main
from simulator.engine.core.typical import batch_frame, pick_typical
from simulator.games.toi.game import state as S
from simulator.games.toi.game.board import Board
from simulator.games.toi.game.game import Game
from simulator.games.toi.game.replay import event_rows, replay_game, viewer_data
from tests.reports.viewer_helpers import key_driver, shown_state

PLAYERS = ("greedy", "greedy")


def test_the_viewer_positions_are_the_game_positions():
    """One row per event; the events alone put every unit where the game has it after
    each decision (drift 0); the last frame is the final state (hex, status, condition,
    figures lost)."""
    game = Game("two-farms")
    rp = replay_game(game, 5, 2, PLAYERS)
    data = viewer_data(rp)
    assert len(data["rows"]) == len(data["frames"]) == len(event_rows(rp))
    assert data["drift"] == 0 and len(data["synced"]) == sum(1 for d in rp.decisions if d["n_events"])
    last = np.array(data["frames"][-1]["units"])
    u = rp.state.s.u
    assert (last[:, 0] == u[:, S.U_HEX]).all() and (last[:, 1] == u[:, S.U_ST]).all()
    assert (last[:, 3] == u[:, S.U_COND]).all()


def test_toi_replay_out_picks_and_chromium_shows_the_positions(tmp_path):
    """--pick typical-win:SIDE replays the game pick_typical chooses among the batch's
    first 30; the page at #event=K (a move in the middle of the game) shows every unit
    in the hex of frame K; the right arrow shows frame K+1."""
    game = Game("two-farms")
    side = game.sides[0]
    out = tmp_path / "g"
    res = CliRunner().invoke(main, ["toi", "replay", "two-farms", "--seed", "5", "--pick", f"typical-win:{side}",
                                    "--games", "30", "--out", str(out)])
    frame = batch_frame(game, 5, 30, PLAYERS)
    k = pick_typical(frame, "win", side, list(game.sides))      # 16 of the 30 are american wins
    assert res.exit_code == 0, res.output
    answer = json.loads((out / "replay.json").read_text())
    assert answer["game"] == k and answer["winner"] == side
    assert answer["picked"] == {"pick": f"typical-win:{side}", "games": 30}
    rp = replay_game(game, 5, k, PLAYERS)
    data = viewer_data(rp)
    page = out / "viewer.html"
    blob = page.read_text().split('id="replay-data">', 1)[1].split("</script>", 1)[0].replace("<\\/", "</")
    hexes = json.loads(blob)["hexes"]
    assert hexes == list(Board(game.scenario).names)
    moves = [i for i, r in enumerate(data["rows"]) if r["code"] == "moved"]
    e = moves[len(moves) // 2]

    def expected(i):
        return [hexes[h] if h >= 0 and s == S.ONMAP else None for h, s, *_ in data["frames"][i]["units"]]

    shown = shown_state(page, tmp_path / "p1", f"event={e}")
    assert shown["row"] == e and [x["hex"] for x in shown["units"]] == expected(e)
    shown = shown_state(page, tmp_path / "p2", f"event={e}", key_driver([("ArrowRight", False)]))
    assert shown["row"] == e + 1 and [x["hex"] for x in shown["units"]] == expected(e + 1)
