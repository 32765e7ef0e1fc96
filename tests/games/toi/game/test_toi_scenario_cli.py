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
