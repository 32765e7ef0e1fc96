"""Where and why on the batch report's page (issue 43, item 2): objective control by turn,
the heat maps of losses, shots and close combats, what matters most (a short restricted
play when it fits in the batch's time), the decision turns with the games won by default
in their own row, Tide of Iron's end reasons split by winner."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from simulator.cli import main

GAMES = 300


@pytest.fixture(scope="module")
def river(tmp_path_factory):
    out = tmp_path_factory.mktemp("where") / "rb"
    res = CliRunner().invoke(main, ["assault", "scenario", "river-and-bridge", "--games", str(GAMES), "--seed", "1",
                                    "--workers", "1", "--no-restrict-all", "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out


def test_objective_control_csv_and_chart(river):
    control = pd.read_csv(river / "objective-control.csv")
    records = pd.read_parquet(river / "games.parquet")
    assert list(control.columns) == ["turn", "objective", "side", "games", "of_games", "share", "lo", "hi"]
    # one row per turn x objective x side: 6 turns, 2 houses, 2 sides
    assert len(control) == 6 * 2 * 2 and (control["of_games"] == GAMES).all()
    objectives = ["wooden house", "stone house by the bridge"]       # the scenario's names, in its order
    assert list(dict.fromkeys(control["objective"])) == objectives
    for _, r in control.iterrows():   # each count is the records' bit count of that turn's mask
        j = objectives.index(r["objective"])
        masks = records[f"objectives_mask_{0 if r['side'] == 'german' else 1}_turn_{r['turn']}"].to_numpy()
        assert r["games"] == int(((masks >> j) & 1).sum())
        assert r["share"] == pytest.approx(r["games"] / GAMES) and r["lo"] <= r["share"] <= r["hi"]
    summary = json.loads((river / "summary.json").read_text())
    files = [c["file"] for c in summary["charts"]]
    assert "objective-control.png" in files
    page = (river / "index.html").read_text()
    assert "Objective control by turn" in page and "objective-control.csv" in page


def test_hex_heat_csv_and_maps(river):
    heat = pd.read_csv(river / "hex-heat.csv")
    records = pd.read_parquet(river / "games.parquet")
    assert list(heat.columns) == ["hex", "side", "kind", "count", "per_game"]
    lost = heat[heat["kind"] == "units lost"].groupby("side")["count"].sum()
    assert lost.to_dict() == {"german": records["units_lost_0"].sum(), "soviet": records["units_lost_1"].sum()}
    assert heat[heat["kind"] == "close combats"]["count"].sum() == records["close_combats"].sum()
    assert (heat["count"] > 0).all() and heat["per_game"].to_numpy() == pytest.approx(heat["count"] / GAMES)
    files = {c["file"] for c in json.loads((river / "summary.json").read_text())["charts"]}
    for kind in ("units-lost", "shots-received"):       # both sides lose units and are shot at here
        for side in (0, 1):
            assert f"heat-{kind}-{side}.png" in files and (river / f"heat-{kind}-{side}.png").stat().st_size > 5000


def test_decision_turns_name_the_default_wins(river):
    turns = pd.read_csv(river / "decision-turns.csv")
    records = pd.read_parquet(river / "games.parquet")
    assert list(turns.columns) == ["decided_turn", "winner", "games", "share", "decided"]
    default = records["reason_name"] == "turn limit"
    assert turns.loc[turns["decided"] == "won by default at the end", "games"].sum() == default.sum()
    played = turns[turns["decided"] != "won by default at the end"]
    assert played["decided"].tolist() == [f"turn {t}" for t in played["decided_turn"]]
    assert turns["games"].sum() == GAMES


def test_what_matters_most_plays_when_it_fits_else_says_how(capsys):
    """The estimate decides: restrictions x games / the batch's games per second against
    the batch's seconds; played, the rows are the short restricted play's."""
    from simulator.engine.core.batch import run_games
    from simulator.games.assault.game.balance import what_matters_most
    from simulator.games.assault.game.compile import compile_game
    from simulator.games.assault.game.restrictions import every_restriction

    game = compile_game("river-and-bridge")
    res = run_games(game, games=40, seed=2, players=("greedy", "greedy"), workers=1)
    base = res.tally.outcome_array()
    n_rest = sum(len(every_restriction(game.scenario, s, game.card_names())) for s in game.sides)
    slow = {"games_per_second": 1.0}             # 40 games x n_rest restrictions at 1 game/s: far too long
    what_matters_most(slow, res, "river-and-bridge", base, seed=2, players=("greedy", "greedy"), workers=1,
                      progress=False)
    assert slow["what_matters"]["status"] == "skipped" and "restricted" not in slow
    assert slow["what_matters"]["estimate_seconds"] == pytest.approx(n_rest * 40 / 1.0)
    command = ("lanchester assault scenario river-and-bridge --games 40 --seed 2 --players greedy,greedy "
               "--restrict-all german --restrict-all soviet --out DIR")
    assert slow["what_matters"]["command"] == command and command in capsys.readouterr().err
    fast = {"games_per_second": 1e12}
    what_matters_most(fast, res, "river-and-bridge", base, seed=2, players=("greedy", "greedy"), workers=1,
                      progress=False)
    assert fast["what_matters"]["status"] == "played" and len(fast["restricted"]) == n_rest
    assert all(r["games"] == 40 for r in fast["restricted"])
    # the short run's base rate is the batch's own over the same games
    for r in fast["restricted"]:
        side = list(game.sides).index(r["side"])
        assert r["base_win_rate"] == pytest.approx(float((base == side).mean()))

def test_toi_reasons_by_winner_and_where(tmp_path):
    out = tmp_path / "ridge"
    res = CliRunner().invoke(main, ["toi", "scenario", "ridge-line", "--games", "80", "--seed", "1",
                                    "--workers", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    # Tide of Iron's "what matters most" is the shared short restricted play: 80 games at
    # about 23 a second take ~3.5 s, far less than its restrictions x 80 games, so it is not
    # played and the line names the command that gets it
    assert "what matters most: not played" in res.stderr
    assert "lanchester toi scenario ridge-line --games 80 --seed 1 --players greedy,greedy" in res.stderr
    reasons = pd.read_csv(out / "reasons.csv")
    records = pd.read_parquet(out / "games.parquet")
    assert list(reasons.columns) == ["reason", "games", "share", "winner"]
    expected = records.groupby(["reason_name", "winner_side"]).size()
    got = reasons.set_index(["reason", "winner"])["games"]
    assert {k: int(v) for k, v in got.items()} == {k: int(v) for k, v in expected.items()}
    summary = json.loads((out / "summary.json").read_text())
    files = [c["file"] for c in summary["charts"]]
    assert {"reasons.png", "objective-control.png", "heat-units-lost-0.png"} <= set(files)
    control = pd.read_csv(out / "objective-control.csv")
    assert set(control["turn"]) == set(range(1, int(summary["result"]["data"]["turns"]) + 1))
    page = (out / "index.html").read_text()
    assert "Objective control by round" in page and "hex-heat.csv" in page
