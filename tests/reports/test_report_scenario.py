"""``lanchester assault scenario --out DIR``: the balance report as a folder a designer
can open (issue 8), fed by the batch of the scenario engine (issue 7)."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from click.testing import CliRunner
from report_helpers import check_bundle, images_in_chromium

from simulator.cli import main
from tests.engine.test_players import SKIRMISH

GAMES = 400


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    root = tmp_path_factory.mktemp("scenario-report")
    path = root / "skirmish.scenario.toml"
    path.write_text(SKIRMISH)
    out = root / "report"
    res = CliRunner().invoke(main, ["assault", "scenario", str(path), "--games", str(GAMES), "--seed", "8",
                                    "--workers", "2", "--vary", "turns=3,5", "--format", "json",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out, json.loads(res.stdout), res.stderr


def test_the_folder_holds_charts_tables_records_and_provenance(bundle):
    out, data, stderr = bundle
    assert f"report written to {out / 'index.html'}" in stderr
    s = check_bundle(out)              # every PNG passes the pixel check, CSV headers match summary.json
    assert [c["file"] for c in s["charts"]] == ["win-rate.png", "convergence.png", "decision-turn.png",
                                                "losses.png", "what-if.png"]
    assert s["kind"] == "assault scenario" and s["question"].startswith("Is Skirmish balanced?")
    # the per-game records streamed by the batch sit beside the tables, complete
    records = pd.read_parquet(out / "games.parquet")
    assert len(records) == len(pd.read_csv(out / "games.csv")) == GAMES
    assert list(records["game"]) == list(range(GAMES))
    assert data["files"] == ["games.parquet", "games.csv"]
    assert any("games.parquet" in n for n in s["notes"])
    # provenance names the scenario file and the reconstructed dice, with seed and games
    prov = s["provenance"]
    labels = [src["label"] if isinstance(src, dict) and "label" in src else str(src) for src in prov["sources"]]
    assert any("skirmish.scenario.toml" in x for x in labels) and any("reconstructed" in x for x in labels)
    assert prov["seed"] == 8 and prov["trials"] == GAMES


def test_tables_agree_with_the_records_and_the_json(bundle):
    out, data, _ = bundle
    records = pd.read_parquet(out / "games.parquet")
    rates = pd.read_csv(out / "win-rates.csv").set_index("side")
    for side in ("german", "soviet"):
        wins = int((records["winner_side"] == side).sum())
        assert rates.loc[side, "wins"] == wins
        assert rates.loc[side, "p"] == pytest.approx(data["win_rate"][side]["p"])
        assert [rates.loc[side, "lo"], rates.loc[side, "hi"]] == pytest.approx(data["win_rate"][side]["ci95"])
    turns = pd.read_csv(out / "decision-turns.csv")
    assert turns["games"].sum() == GAMES
    assert turns.groupby("decided_turn")["games"].sum().to_dict() == \
        records.groupby("decided_turn").size().to_dict()
    losses = pd.read_csv(out / "losses.csv").set_index(["side", "unit_type"])
    lost = records["lost_german_rifles-41"]
    assert losses.loc[("german", "rifles-41"), "mean_lost"] == pytest.approx(lost.mean())
    assert losses.loc[("german", "rifles-41"), "se"] == pytest.approx(lost.std(ddof=1) / len(lost) ** 0.5)
    conv = pd.read_csv(out / "convergence.csv")
    last = conv[(conv["side"] == "german") & (conv["games"] == GAMES)].iloc[0]
    assert last["wins"] == rates.loc["german", "wins"]
    variants = pd.read_csv(out / "variants.csv")
    assert variants["variant"].tolist() == ["baseline", "turns=3", "turns=5"]
    assert json.loads((out / "balance.json").read_text())["win_rate"] == data["win_rate"]


def test_every_image_on_the_page_loads_in_chromium(bundle, tmp_path):
    out, _, _ = bundle
    images = images_in_chromium(out / "index.html", tmp_path / "profile")
    assert len(images) == 5 and all(i["ok"] for i in images), images


def test_a_failed_run_leaves_no_folder(tmp_path):
    path = tmp_path / "skirmish.scenario.toml"
    path.write_text(SKIRMISH)
    out = tmp_path / "report"
    res = CliRunner().invoke(main, ["assault", "scenario", str(path), "--games", "50", "--seed", "1",
                                    "--vary", "turns=zero", "--out", str(out)])
    assert res.exit_code == 2 and "turns" in res.output and "Traceback" not in res.output
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == ["skirmish.scenario.toml"]


def test_replay_out_writes_the_game_and_its_final_position(tmp_path):
    path = tmp_path / "skirmish.scenario.toml"
    path.write_text(SKIRMISH)
    args = ["assault", "replay", str(path), "--seed", "9", "--game", "3"]
    out = tmp_path / "game3"
    res = CliRunner().invoke(main, args + ["--out", str(out)])
    assert res.exit_code == 0, res.output
    s = check_bundle(out)            # the map carries the provenance footer like every chart
    assert s["kind"] == "assault replay" and [c["file"] for c in s["charts"]] == ["final-position.png"]
    csv = CliRunner().invoke(main, args + ["--format", "csv"])
    assert (out / "events.csv").read_text() == csv.stdout
    data = json.loads(CliRunner().invoke(main, args + ["--format", "json"]).stdout)
    assert s["result"]["winner"] == data["winner"] and s["result"]["turns"] == data["turns"]
    assert s["provenance"]["method"] == "replay of game 3 of a batch" and s["provenance"]["seed"] == 9


def test_lanchester_report_rebuilds_the_scenario_page(bundle, tmp_path):
    import shutil
    out, _, _ = bundle
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    page = (copy / "index.html").read_text()
    (copy / "index.html").unlink()
    res = CliRunner().invoke(main, ["report", str(copy)])
    assert res.exit_code == 0, res.output
    assert (copy / "index.html").read_text() == page
