"""The replay viewer's data and page for real games (issue 43 item 1): the result lines
say the shot's effect and the running total apart, the positions rebuilt from the event
log are the game's own, ``--pick`` chooses a typical game of the batch, and the page
shows in headless Chromium the positions Python computed."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.engine.core.batch import run_games
from simulator.engine.core.typical import batch_frame, pick_typical
from simulator.games.assault.game import events as ev
from simulator.games.assault.game.replay import (
    decision_positions,
    describe_events,
    initial_units,
    replay_game,
    viewer_data,
)
from simulator.games.assault.game.state import ONMAP, U_DMG, U_HEX, U_MORALE, U_ST, U_TYPE
from simulator.games.assault.report.bundles import replay_viewer_html
from tests.reports.viewer_helpers import key_driver, shown_state

SEED = 3
PLAYERS = ("greedy", "greedy")


@pytest.fixture(scope="module")
def games(skirmish):
    return [replay_game(skirmish, SEED, k, PLAYERS) for k in range(8)]


def test_result_lines_say_the_shot_and_the_running_total_apart(games):
    """Each fire result line: the damage the shot added (the event's total minus the
    unit's total before it, followed here from the events) or "no effect", then "(now D
    damage of strength S": D the event's total. The issue's case, a shot that adds
    nothing to a unit already damaged, is among these games and no longer reads as
    damage done."""
    misses_after_damage = 0
    for st in games:
        g = st.game
        worn = {u: int(v) for u, v in enumerate(initial_units(st)[:, U_DMG])}
        lines = iter(r["text"] for r in describe_events(st) if r["event"] == ev.EV_RESULT)
        for e in st.events():
            code, _, a, b, c = (int(v) for v in e[:5])
            if code in (ev.EV_CC_RESULT, ev.EV_TERRAIN_DAMAGE):
                worn[a] = c
            if code != ev.EV_RESULT:
                continue
            line = next(lines)
            if b:
                assert line.endswith("eliminated")
                continue
            strength = g.types[int(st.s.u[a, U_TYPE])].card.strength
            assert f"(now {c} damage of strength {strength}" in line
            effect = line.split(": ", 1)[1]
            assert effect.startswith(f"+{c - worn[a]} damage") == (c > worn[a])
            if c == worn[a] and c > 0:
                misses_after_damage += 1
            worn[a] = c
    assert misses_after_damage > 0


def test_the_positions_are_the_games_after_every_decision(games):
    """The walk decision by decision ends in the batch's game (it raises otherwise); the
    viewer's frame after each decision's last described event is the walk's position
    there (hex, status, damage, morale); the last frame is the final state. The events
    alone get nearly all of it: they miss only what the rules do without an event (a
    unit moved off an over-stacked hex after a close combat, 12.6; markers removed,
    6.5), counted by ``drift``, here fewer than one unit a decision."""
    for st in games:
        positions = decision_positions(st)
        data = viewer_data(st)
        assert len(data["rows"]) == len(data["frames"]) == len(describe_events(st))
        assert data["synced"] == sorted(positions) and len(positions) > 10
        at = {r["event"]: f for r, f in zip(data["rows"], data["frames"], strict=True)}
        checked = 0
        for logn, (u, _obj, _smoke) in positions.items():
            if logn - 1 in at:          # the decision's last event is described: its frame
                frame = np.array(at[logn - 1]["units"])
                assert (frame[:, :4] == u[:, [U_HEX, U_ST, U_DMG, U_MORALE]]).all()
                checked += 1
        assert checked > len(positions) // 2
        final = np.array(data["frames"][-1]["units"])
        assert (final[:, :4] == st.s.u[:, [U_HEX, U_ST, U_DMG, U_MORALE]]).all()
        assert data["drift"] < len(positions)


def test_pick_chooses_the_typical_game_of_an_outcome():
    """German wins: games 0, 1, 2 with turns 3, 5, 7 (mean 5, sd sqrt(8/3) = 1.633) and
    soviet units lost 2, 2, 5 (mean 3, sd sqrt(2) = 1.414), german losses all 1 (sd 0:
    not counted). Squared distances: game 0 (-1.225)^2 + (-0.707)^2 = 2.0, game 1 0 + 0.5
    = 0.5, game 2 1.5 + 2.0 = 3.5: game 1. Soviet wins: game 3 alone. German losses are
    soviet wins: game 3; no draw is anyone's win or loss."""
    f = pd.DataFrame({"game": [0, 1, 2, 3, 4], "winner_side": ["german"] * 3 + ["soviet", "draw"],
                      "turns": [3, 5, 7, 4, 4], "units_lost_0": [1, 1, 1, 2, 0], "units_lost_1": [2, 2, 5, 0, 0]})
    sides = ["german", "soviet"]
    assert pick_typical(f, "win", "german", sides) == 1
    assert pick_typical(f, "win", "soviet", sides) == 3
    assert pick_typical(f, "loss", "german", sides) == 3
    assert pick_typical(f.iloc[:3], "loss", "german", sides) is None


def test_the_pick_batch_is_the_batch(skirmish, tmp_path):
    """batch_frame plays the same games as ``scenario --games N`` (run_games)."""
    ours = batch_frame(skirmish, SEED, 40, PLAYERS)
    run_games(skirmish, games=40, seed=SEED, players=PLAYERS, workers=1, out_dir=tmp_path / "run")
    theirs = pd.read_parquet(tmp_path / "run" / "games.parquet")
    pd.testing.assert_frame_equal(ours.reset_index(drop=True), theirs[list(ours.columns)].reset_index(drop=True),
                                  check_dtype=False)


def test_replay_out_writes_the_viewer_of_the_picked_game(skirmish_path, skirmish, tmp_path):
    out = tmp_path / "g"
    res = CliRunner().invoke(main, ["assault", "replay", str(skirmish_path), "--seed", str(SEED), "--pick",
                                    "typical-win:german", "--games", "40", "--out", str(out)])
    assert res.exit_code == 0, res.output
    k = pick_typical(batch_frame(skirmish, SEED, 40, PLAYERS), "win", "german", ["german", "soviet"])
    summary = json.loads((out / "summary.json").read_text())
    assert summary["result"]["game"] == k and summary["result"]["winner"] == "german"
    assert summary["result"]["picked"] == {"pick": "typical-win:german", "games": 40}
    page = (out / "viewer.html").read_text()
    assert "viewer.html" in (out / "index.html").read_text()
    assert page.count('<li') == 0         # the log rows are built by the script from the data
    data = json.loads(page.split('id="replay-data">', 1)[1].split("</script>", 1)[0].replace("<\\/", "</"))
    assert len(data["rows"]) == len(describe_events(replay_game(skirmish, SEED, k, PLAYERS)))
    bad = CliRunner().invoke(main, ["assault", "replay", str(skirmish_path), "--seed", "1", "--pick", "typical-win:x"])
    assert bad.exit_code != 0 and "typical-win:SIDE" in bad.output


def test_chromium_shows_the_positions_of_the_chosen_event(games, tmp_path):
    """The page opened at #event=K shows every unit in the hex of the Python frame K
    (None off the map); two right arrows then show frame K+2; PageDown the first row of
    the next turn."""
    st = max(games, key=lambda s: s.turn)
    page = tmp_path / "viewer.html"
    page.write_text(replay_viewer_html(st, PLAYERS))
    data = viewer_data(st)
    names = list(st.game.cm.names)
    moves = [i for i, r in enumerate(data["rows"]) if r["code"] == "move"]
    k = moves[len(moves) // 2]

    def expected(i):
        return [names[h] if h >= 0 and s == ONMAP else None for h, s, *_ in data["frames"][i]["units"]]

    shown = shown_state(page, tmp_path / "p1", f"event={k}")
    assert shown["row"] == k and [u["hex"] for u in shown["units"]] == expected(k)
    assert any(h is not None for h in expected(k))
    shown = shown_state(page, tmp_path / "p2", f"event={k}", key_driver([("ArrowRight", False)] * 2))
    assert shown["row"] == k + 2 and [u["hex"] for u in shown["units"]] == expected(k + 2)
    nxt = next(i for i, r in enumerate(data["rows"]) if r["turn"] > data["rows"][k]["turn"])
    shown = shown_state(page, tmp_path / "p3", f"event={k}", key_driver([("PageDown", False)]))
    assert shown["row"] == nxt and [u["hex"] for u in shown["units"]] == expected(nxt)
