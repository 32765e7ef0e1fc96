"""``lanchester toi scenario`` (issue 19): the shared runner and summary behind the
same options and JSON keys as ``lanchester assault scenario``."""

from __future__ import annotations


def test_toi_scenario_command(tmp_path):
    """``lanchester toi scenario``: the JSON keys of ``assault scenario`` (but the
    activity replay by side, Assault's), the records and report files with --out (the
    bundle itself: test_toi_report.py)."""
    import json

    from click.testing import CliRunner

    from simulator.games.toi.cli import toi
    out = tmp_path / "rep"
    res = CliRunner().invoke(toi, ["scenario", "two-farms", "--games", "30", "--seed", "2", "--workers", "1",
                                   "--players", "random,greedy", "--format", "json", "--out", str(out)])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output[res.output.index("{"):])
    for key in ("scenario", "games", "seed", "players", "edition", "win_rate", "draw_rate", "truncated_rate",
                "verdict", "first_player_effect", "closeness", "mean_losses", "activity", "warnings",
                "workers", "data", "files", "sides"):
        assert key in report, key
    assert report["games"] == 30 and report["players"] == dict(zip(report["sides"], ("random", "greedy"), strict=True))
    assert {"balance.json", "balance.txt", "games.csv", "games.parquet", "index.html"} <= {p.name for p in out.iterdir()}
    text = (out / "balance.txt").read_text()
    assert text.startswith("Two Farms (two-farms): 30 games") and "close combat" not in text   # Assault's editions only
    bad = CliRunner().invoke(toi, ["scenario", "two-farms", "--games", "3", "--levels", "random,greedy"])
    assert bad.exit_code == 2 and "--levels needs --skill-curve" in bad.output
    from simulator.cli import main
    bad = CliRunner().invoke(main, ["toi", "scenario", "two-farms", "--games", "3", "--skill-curve", "--levels",
                                    "greedy,chess"])
    assert bad.exit_code == 2 and "unknown player 'chess'" in bad.output


def test_toi_verdict_margin_until_decided_and_the_scenario_key(tmp_path):
    """Issue 39 on ``toi scenario``: --margin in the JSON verdict, --until-decided's rounds
    (random against greedy is lopsided: decided within the first rounds, the same on one
    and two workers), the scenario's ``[verdict] margin`` and its one-line error."""
    import json

    from click.testing import CliRunner

    from simulator.games.toi.cli import toi
    from simulator.games.toi.game.scenario import SCENARIO_DIR
    from simulator.run.verdicts import round_totals

    runs = []
    for workers in ("1", "2"):
        res = CliRunner().invoke(toi, ["scenario", "two-farms", "--games", "20", "--seed", "5", "--workers", workers,
                                       "--players", "random,greedy", "--until-decided", "--max-games", "160",
                                       "--margin", "4", "--format", "json"])
        assert res.exit_code == 0, res.output
        runs.append(json.loads(res.stdout[res.stdout.index("{"):]))
        assert res.stderr.count("until decided: round") == len(runs[-1]["run"]["until_decided"]["rounds"])
    one, two = runs
    v = one["verdict"]
    assert v["margin"] == 0.04 and v["interval"] == "sequence" and "(margin ±4 points)" in res.stderr
    assert {"status", "games_needed", "edge_detectable", "ci95"} <= set(v)
    rounds = one["run"]["until_decided"]["rounds"]
    assert [r["games"] for r in rounds] == round_totals(20, 160)[:len(rounds)]
    # american (random) against greedy germans: american wins at most a few of the decisive games,
    # so the sequence's interval lies below 46% soon: unbalanced, german favoured
    assert v["status"] == "unbalanced" and v["favoured"] == "german" and one["run"]["until_decided"]["decided"]
    assert rounds == two["run"]["until_decided"]["rounds"] and one["win_rate"] == two["win_rate"]

    text = (SCENARIO_DIR / "two-farms.scenario.toml").read_text()
    wide = tmp_path / "wide.scenario.toml"
    wide.write_text(text + "\n[verdict]\nmargin = 10\n")
    res = CliRunner().invoke(toi, ["scenario", str(wide), "--games", "10", "--seed", "1", "--format", "json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout[res.stdout.index("{"):])["verdict"]["margin"] == 0.10
    bad = tmp_path / "bad.scenario.toml"
    bad.write_text(text + "\n[verdict]\nmargin = 0\n")
    from simulator.cli import main
    res = CliRunner().invoke(main, ["toi", "scenario", str(bad), "--games", "10"])
    assert res.exit_code == 2 and "verdict.margin" in res.output and "bad.scenario.toml" in res.output
    assert "Traceback" not in res.output
