"""The batch runner: the same numbers for any number of workers, records streamed to
Parquet and CSV, a replay that is exactly game K of a batch, the JSON summary and the
command line."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.engine.core.balance import paired_change
from simulator.engine.core.batch import GAMES_PER_CHUNK, run_games, summary
from simulator.games.assault.game.balance import balance_report
from simulator.games.assault.game.replay import replay_game
from simulator.run.stats import wilson_interval

N = GAMES_PER_CHUNK + 700          # two chunks


def test_same_numbers_for_any_number_of_workers(skirmish, tmp_path):
    one = run_games(skirmish, games=N, seed=42, players=("greedy", "random"), workers=1, out_dir=tmp_path / "a")
    two = run_games(skirmish, games=N, seed=42, players=("greedy", "random"), workers=2, out_dir=tmp_path / "b")
    a = pd.read_parquet(tmp_path / "a" / "games.parquet")
    b = pd.read_parquet(tmp_path / "b" / "games.parquet")
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == N and list(a["game"]) == list(range(N))
    assert np.array_equal(one.tally.outcome_array(), two.tally.outcome_array())
    other = run_games(skirmish, games=500, seed=43, players=("greedy", "random"), workers=2)
    assert not np.array_equal(other.tally.outcome_array(), one.tally.outcome_array()[:500])


def test_records_stream_to_parquet_and_csv(skirmish, tmp_path):
    run_games(skirmish, games=300, seed=1, players=("greedy", "greedy"), workers=2, out_dir=tmp_path)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["games.csv", "games.parquet"]               # no temporary files left over
    pq = pd.read_parquet(tmp_path / "games.parquet")
    csv = pd.read_csv(tmp_path / "games.csv")
    assert len(pq) == len(csv) == 300
    for col in ("winner", "winner_side", "reason_name", "turns", "first_side", "objectives_0",
                "units_lost_0", "lost_german_rifles-41", "lost_soviet_rifles-41", "formations_0"):
        assert col in pq.columns
    assert set(pq["winner_side"]) <= {"german", "soviet", "draw"}
    assert (pq["turns"] == 4).all()                              # no sudden death: all turns played
    assert (pq["units_lost_0"] == pq["lost_german_rifles-41"]).all()
    assert pq.equals(csv.astype(pq.dtypes.to_dict())) or np.array_equal(pq["winner"], csv["winner"])


@pytest.mark.parametrize("players,games,ks", [
    (("greedy", "random"), N, (0, 17, GAMES_PER_CHUNK + 5)),   # a game of the second chunk too
    (("lookahead", "greedy"), 60, (7, 59)),
])
def test_replay_is_game_k_of_the_batch(skirmish, tmp_path, players, games, ks):
    run_games(skirmish, games=games, seed=9, players=players, workers=2, out_dir=tmp_path)
    records = pd.read_parquet(tmp_path / "games.parquet")
    for k in ks:
        st = replay_game(skirmish, 9, k, players)
        row = records.iloc[k]
        assert st.winner == row["winner"] and st.turn == row["turns"]
        lost = sum(1 for u in range(skirmish.n_units) if int(st.s.u[u, 2]) == 4 and int(st.s.u[u, 0]) == 0)
        assert lost == row["units_lost_0"]
        decisions = sum(1 for e in st.events() if e[0] in (3, 4))   # activations and passes
        assert decisions == row["activations"] + (decisions - row["activations"])
        assert [e for e in st.events() if e[0] == 3].__len__() == row["activations"]


def test_summary_keys_and_intervals(skirmish):
    r = run_games(skirmish, games=500, seed=5, players=("greedy", "greedy"), workers=2)
    s = summary(r)
    for key in ("scenario", "games", "seed", "players", "edition", "win_rate", "draw_rate",
                "first_player_win_rate", "mean_turns", "games_per_second"):
        assert key in s
    assert list(s["win_rate"]) == ["german", "soviet"]
    wins = r.tally.wins
    for i, side in enumerate(("german", "soviet")):
        assert s["win_rate"][side]["p"] == pytest.approx(wins[i] / 500)
        assert s["win_rate"][side]["ci95"] == pytest.approx(list(wilson_interval(int(wins[i]), 500)))
    assert s["draw_rate"] == pytest.approx(wins[2] / 500)
    assert sum(s["win_rate"][x]["p"] for x in ("german", "soviet")) + s["draw_rate"] == pytest.approx(1.0)
    assert s["mean_turns"] == 4.0 and s["players"] == {"german": "greedy", "soviet": "greedy"}
    v = s["verdict"]
    decisive = int(wins[0] + wins[1])
    lo, hi = wilson_interval(int(wins[0]), decisive)
    assert v["ci95"] == pytest.approx([lo, hi]) and v["margin"] == 0.05
    # the equivalence test by hand: inside 45%-55% balanced, wholly outside unbalanced, else undecided
    expected = "balanced" if lo >= 0.45 and hi <= 0.55 else "unbalanced" if hi < 0.45 or lo > 0.55 else "undecided"
    assert v["status"] == expected and (v["games_needed"] is not None) == (expected == "undecided")


def test_what_if_uses_common_random_numbers(skirmish_path):
    rep = balance_report(str(skirmish_path), games=400, seed=11, players="greedy,greedy", workers=2,
                         vary=("turns=4,6",), progress=False)
    same, longer = rep["what_if"]["variants"]
    # the same games: 0 changed of 400, the exact bound +-(1 - 0.025^(1/400)) = +-0.0091798
    assert same["value"] == 4 and same["change"] == 0.0
    assert same["change_ci95"] == pytest.approx([-0.0091798, 0.0091798], abs=1e-7)
    assert same["p_value"] == 1.0 and same["family_size"] == 2 and not same["significant"]
    assert longer["value"] == 6 and not np.isnan(longer["change"])
    base = np.array([0, 1, 2, 0, 0, 1])
    other = np.array([0, 0, 2, 1, 0, 1])
    ch, lo, hi = paired_change(base, other)
    # one game gained a german win (game 3), one lost it (game 1): 1 v 1 of 6, change 0 with
    # Tango's score interval, which holds 0 and stays within the discordant rate's reach
    assert ch == pytest.approx(0.0) and -0.7 < lo < 0 < hi < 0.7


def test_tune_finds_the_value_closest_to_the_target(skirmish_path):
    rep = balance_report(str(skirmish_path), games=300, seed=3, players="greedy,greedy", workers=2,
                         tune="turns", target=0.5, progress=False)
    tune = rep["tune"]
    rates = {r["value"]: r["win_rate"] for r in tune["values"]}
    assert tune["best"]["value"] == min(rates, key=lambda v: abs(rates[v] - 0.5))


def test_scenario_command_json_and_records(skirmish_path, tmp_path):
    out = tmp_path / "run"
    res = CliRunner().invoke(main, ["assault", "scenario", str(skirmish_path), "--games", "300", "--seed", "4",
                                    "--workers", "2", "--format", "json", "--out", str(out)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output[res.output.index("{"):])
    assert data["games"] == 300 and data["seed"] == 4 and data["edition"] == "v1"
    assert set(data["win_rate"]) == {"german", "soviet"}
    assert (out / "games.parquet").exists() and (out / "balance.json").exists()


def test_bad_players_one_line_error(skirmish_path):
    res = CliRunner().invoke(main, ["assault", "scenario", str(skirmish_path), "--players", "greedy,clever"])
    assert res.exit_code == 2
    assert "unknown player 'clever'" in res.output and "Traceback" not in res.output


def test_replay_command_prints_the_game_and_draws_it(skirmish_path, tmp_path):
    png = tmp_path / "final.png"
    res = CliRunner().invoke(main, ["assault", "replay", str(skirmish_path), "--seed", "9", "--game", "3",
                                    "--png", str(png)])
    assert res.exit_code == 0, res.output
    assert "=== turn 1 ===" in res.output and "game over" in res.output and "rolls" in res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_searching_entry_plays_the_quick_players_games_and_the_quick_one_refuses_search(skirmish):
    """Two compiled batch entries, one set of players: the searching players' entry
    (``play_chunk_searching``) plays a greedy-against-random batch game for game as the
    quick entry does; the quick entry refuses a searching player rather than play it as
    another; ``chunk_entry`` picks by the players."""
    from simulator.engine.core.seeding import chunk_key
    from simulator.engine.players.chunks import chunk_entry, play_chunk, play_chunk_searching
    from simulator.engine.players.interface import make_work, player_setup
    from simulator.games.assault.game import records as _hooks  # noqa: F401  (registers Assault's record hooks)

    def records(entry, names, n=40):
        kinds, params = player_setup(names)
        out = np.zeros((n, len(skirmish.record_columns())), dtype=np.int64)
        entry(skirmish.tables, chunk_key(5, 0), np.int64(0), np.int64(n), kinds, params, skirmish.new_state(),
              make_work(skirmish), out, np.int64(0), np.int64(20_000))
        return out

    quick = records(play_chunk, ("greedy", "random"))
    assert np.array_equal(quick, records(play_chunk_searching, ("greedy", "random")))
    assert len(set(quick[:, 1])) > 1                                   # both sides win some
    with pytest.raises(ValueError, match="searching player"):
        records(play_chunk, ("lookahead", "greedy"), n=1)
    assert chunk_entry(player_setup(("greedy", "random"))[0]) is play_chunk
    assert chunk_entry(player_setup(("random", "mcts:8"))[0]) is play_chunk_searching


# --- issue 43, item 5: what-ifs that combine, the grid, the tuning range ---------------------------

def test_a_combined_what_if_plays_both_changes_on_the_baselines_seeds(skirmish_path):
    from simulator.games.assault.game.compile import compile_game

    both = "count.german.rifles-41=3&experience.german.rifles-41=veteran"
    rep = balance_report(str(skirmish_path), games=300, seed=5, players="greedy,greedy", workers=2,
                         vary=("turns=4&count.german.rifles-41=2", both), progress=False)
    same, changed = rep["what_if"]["variants"]
    # the skirmish has 4 turns and 2 german rifles: both changes are no change, so the same 300
    # games: 0 changed, the exact bound +-(1 - 0.025^(1/300)) = +-(1 - exp(ln 0.025 / 300)) = +-0.012221
    assert same["label"] == "turns=4&count.german.rifles-41=2" and same["change"] == 0.0
    assert same["change_ci95"] == pytest.approx([-0.012221, 0.012221], abs=1e-6)
    assert changed["label"] == both and changed["games"] == 300
    # the combined variant is the game compiled with both overrides at once, on the same seeds
    game = compile_game(skirmish_path, overrides={("count", "german", "german/rifles-41"): 3,
                                                  ("experience", "german", "german/rifles-41"): "veteran"})
    direct = run_games(game, games=300, seed=5, players=("greedy", "greedy"), workers=2).tally.outcome_array()
    assert changed["wins"] == int((direct == 0).sum())
    # and the API's frame gives both sides an interval (issue 43 item 6: the second side's were NaN)
    from simulator.engine.core.balance import balance_frame
    frame = balance_frame(rep)
    assert not frame[["ci95_low", "ci95_high"]].isna().any().any()
    soviet = frame[(frame["variant"] == both) & (frame["side"] == "soviet")].iloc[0]
    wins = int((direct == 1).sum())
    assert [soviet["ci95_low"], soviet["ci95_high"]] == pytest.approx(list(wilson_interval(wins, 300)))


def test_a_bad_what_if_part_is_named_and_a_misspelt_unit_suggested(skirmish_path):
    res = CliRunner().invoke(main, ["assault", "scenario", str(skirmish_path), "--games", "10",
                                    "--vary", "count.german.rifles-41=3&experience.german.rifles-41=vetran"])
    assert res.exit_code == 2 and "experience.german.rifles-41" in res.output and "'vetran'" in res.output
    res = CliRunner().invoke(main, ["assault", "scenario", str(skirmish_path), "--games", "10",
                                    "--vary", "count.german.rifle=3"])
    assert res.exit_code == 2 and "unknown unit 'rifle' of german (did you mean 'rifles-41'?)" in res.output


def test_the_grid_writes_its_table_heatmap_and_lines(skirmish_path, tmp_path):
    out = tmp_path / "grid"
    res = CliRunner().invoke(main, ["assault", "scenario", str(skirmish_path), "--games", "200", "--seed", "2",
                                    "--workers", "2", "--grid", "turns=3,4", "--grid", "count.soviet.rifles-41=1,2",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    grid = pd.read_csv(out / "grid.csv")
    assert list(grid.columns) == ["key1", "value1", "key2", "value2", "games", "share", "share_lo", "share_hi",
                                  "win_rate_change", "change_lo", "change_hi"]
    cells = set(zip(grid["value1"], grid["value2"], strict=True))
    assert len(grid) == 4 and cells == {(3, 1), (3, 2), (4, 1), (4, 2)}
    assert (grid["games"] == 200).all()
    assert ((grid["share_lo"] <= grid["share"]) & (grid["share"] <= grid["share_hi"])).all()
    # the cell of the scenario's own values (4 turns, 2 soviet rifles) is the baseline: no game changed
    own = grid[(grid["value1"] == 4) & (grid["value2"] == 2)].iloc[0]
    assert own["win_rate_change"] == 0.0
    report = json.loads((out / "balance.json").read_text())
    base = report["verdict"]["share_first_side"]
    assert own["share"] == pytest.approx(base)
    assert (out / "grid.png").read_bytes()[:4] == b"\x89PNG"
    assert "grid.png" in (out / "index.html").read_text()
    assert "what-if grid turns x count.soviet.rifles-41" in res.output


def test_tune_searches_the_range_given_and_no_lower_than_the_key_allows(skirmish_path):
    rep = balance_report(str(skirmish_path), games=200, seed=3, players="greedy,greedy", workers=2,
                         tune="count.german.rifles-41", tune_range="1:3", progress=False)
    assert [r["value"] for r in rep["tune"]["values"]] == [1, 2, 3]
    with pytest.raises(Exception, match="--range: 0:3: count.german.rifles-41 is at least 1"):
        balance_report(str(skirmish_path), games=10, seed=3, tune="count.german.rifles-41", tune_range="0:3",
                       progress=False)


def test_crossroads_compiles_for_play_as_the_revised_reading_s12_says():
    """docs/rulings.md S12 (revised, issue 43): crossroads (mortar, truck) was once refused;
    the engine plays transport and the support phase now."""
    from simulator.games.assault.game.compile import compile_game

    game = compile_game("crossroads")
    assert set(game.sides) == {"german", "soviet"}
    from pathlib import Path
    text = (Path(__file__).resolve().parents[4] / "docs" / "rulings.md").read_text()
    s12 = text[text.index("### S12. "):text.index("### S12a.")]
    assert "(revised" in s12 and "`crossroads` (mortar, truck) plays" in s12
