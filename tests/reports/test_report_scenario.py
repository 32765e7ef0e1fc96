"""``lanchester assault scenario --out DIR``: the balance report as a folder a designer
can open (issue 8), fed by the batch of the scenario engine (issue 7)."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from click.testing import CliRunner
from report_helpers import check_bundle, images_in_chromium

from simulator.cli import main
from tests.games.assault.game.test_players import SKIRMISH

GAMES = 400


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    root = tmp_path_factory.mktemp("scenario-report")
    path = root / "skirmish.scenario.toml"
    path.write_text(SKIRMISH)
    out = root / "report"
    res = CliRunner().invoke(main, ["assault", "scenario", str(path), "--games", str(GAMES), "--seed", "8",
                                    "--workers", "2", "--vary", "turns=3,5", "--format", "json", "--no-restrict-all",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out, json.loads(res.stdout), res.stderr


def test_the_folder_holds_charts_tables_records_and_provenance(bundle):
    out, data, stderr = bundle
    assert f"report written to {out / 'index.html'}" in stderr
    s = check_bundle(out)              # every PNG passes the pixel check, CSV headers match summary.json
    heat = [f"heat-{k}-{side}.png" for k in ("units-lost", "shots-received", "close-combats") for side in (0, 1)]
    assert [c["file"] for c in s["charts"]] == ["win-rate.png", "map.png", "convergence.png", "decision-turn.png",
                                                "losses.png", "what-if.png", "activity.png", "objective-control.png",
                                                *heat, "what-if-change.png"]
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
    # whole scenarios are games, not trials, on the page and in every chart footer
    assert prov["unit"] == "games"
    page = (out / "index.html").read_text()
    assert f"monte-carlo, {GAMES:,} games, seed 8" in page and "trials" not in page
    for c in s["charts"]:
        assert "trials" not in c["title"]


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
    assert len(images) == 15 and all(i["ok"] for i in images), images   # 8, objective control, 6 heat maps


def test_the_page_carries_the_what_if_changes_the_terminal_prints(bundle):
    out, data, _ = bundle
    changes = pd.read_csv(out / "what-if-changes.csv")
    assert changes["variant"].tolist() == ["turns=3", "turns=5"]
    for row, r in zip(changes.to_dict("records"), data["what_if"]["variants"], strict=True):
        assert row["change"] == pytest.approx(r["change"])
        assert [row["change_lo"], row["change_hi"]] == pytest.approx(r["change_ci95"])
        assert row["significant"] == r["significant"] and row["p"] == pytest.approx(r["win_rate"]["german"])
        assert row["p_holm"] == pytest.approx(r["p_holm"]) and row["family_size"] == 2
        assert [row["better"], row["worse"]] == [r["games_changed"]["better"], r["games_changed"]["worse"]]
        assert row["other_change"] == pytest.approx(r["changes"]["soviet"]["change"])
    high = dict(json.loads((out / "summary.json").read_text())["highlights"])
    even = data["what_if"]["closest_to_even"]
    assert high["closest to even of the variants"].startswith(f"{even['run']}:")
    fp = data["first_player_effect"]
    for side in ("german", "soviet")[:1] if fp["same_for_both"] else ("german", "soviet"):
        assert f"{side} with the initiative in turn 1" in high
    page = (out / "index.html").read_text()
    assert "What-if changes" in page and "closeness" in page


def test_each_sides_activity_is_counted_from_the_same_games(bundle):
    out, data, _ = bundle
    act = data["activity_by_side"]
    n = act["games"]
    assert n == min(GAMES, 200) and "replayed" in act["sample"]
    records = pd.read_parquet(out / "games.parquet").head(n)
    # both sides' activations and reaction fires add up to the batch's own counts of those games
    for measure, column in (("activations", "activations"), ("reaction_fires", "reactions_fired")):
        both = act["german"][measure] + act["soviet"][measure]
        assert both == pytest.approx(records[column].mean()), measure
    assert act["german"]["shots"] + act["soviet"]["shots"] > 0
    table = pd.read_csv(out / "activity-by-side.csv")
    assert list(table.columns) == ["side", "measure", "per_game"]
    got = {(r["side"], r["measure"]): r["per_game"] for r in table.to_dict("records")}
    assert got == pytest.approx({(s, m): act[s][m] for s in ("german", "soviet") for m in act["german"]})


def test_the_terminal_shows_each_sides_activity(tmp_path):
    path = tmp_path / "skirmish.scenario.toml"
    path.write_text(SKIRMISH)
    res = CliRunner().invoke(main, ["assault", "scenario", str(path), "--games", "60", "--seed", "8",
                                    "--vary", "turns=3"])
    assert res.exit_code == 0, res.output
    text = res.stdout
    assert "activity per game by side (the first 60 games of the batch" in text
    assert re.search(r"^  german: activations [\d.]+, shots [\d.]+, reaction fires [\d.]+, moves [\d.]+, "
                     r"close combats [\d.]+$", text, re.M), text
    assert re.search(r"^  soviet: activations", text, re.M)
    # the what-if: each side's and the draws' change with its interval, and the exact test of
    # the changed games over a family of one
    assert re.search(r"change german [+-][\d.]+ \[[+-][\d.]+, [+-][\d.]+\], soviet [+-][\d.]+ \[.*\], "
                     r"draw [+-][\d.]+ \[", text), text
    assert re.search(r"german's result: \d+ games changed \(\d+ better, \d+ worse\), exact p [\d.e-]+, "
                     r"Holm [\d.e-]+ of 1", text), text


def test_no_table_on_the_page_is_longer_than_25_rows(bundle):
    out, _, _ = bundle
    page = (out / "index.html").read_text()
    for body in re.findall(r"<tbody>(.*?)</tbody>", page, re.S):
        assert body.count("<tr>") <= 25
    conv = json.loads((out / "summary.json").read_text())["tables"]
    long = [t for t in conv if t["rows"] > 25]
    assert long, "the convergence table should be long"
    for t in long:
        assert t["chart"] and f'href="#chart-{t["chart"][:-4]}"' in page and f'id="chart-{t["chart"][:-4]}"' in page


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
    assert s["kind"] == "assault replay" and [c["file"] for c in s["charts"]] == ["final-position.png", "turns.png"]
    turns = pd.read_csv(out / "turns.csv")
    assert list(turns.columns) == ["turn", "side", "measure", "count"]
    events = pd.read_csv(out / "events.csv")
    activations = events["text"].str.match(r"^(german|soviet) activates ")
    assert turns[turns["measure"] == "activations"]["count"].sum() == activations.sum()
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
