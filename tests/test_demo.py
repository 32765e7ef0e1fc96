"""`lanchester demo` (what `make demo` runs) writes a readable report folder."""

import json

from click.testing import CliRunner

from simulator.cli import main


def test_demo_writes_exact_and_monte_carlo_results(tmp_path):
    res = CliRunner().invoke(main, ["demo", "--out", str(tmp_path), "--trials", "20000", "--seed", "3",
                                    "--games", "300"])
    assert res.exit_code == 0, res.output
    assert "report written to" in res.output
    # the main job: the balance report of the default scenario, as `assault scenario --out` writes it
    sc = tmp_path / "scenario-infantry-training"
    balance = json.loads((sc / "balance.json").read_text())
    assert balance["scenario"] == "infantry-training" and balance["games"] == 300 and balance["seed"] == 3
    assert [v["key"] for v in balance["what_if"]["variants"]] == ["turns", "turns", "edition"]
    summary = json.loads((sc / "summary.json").read_text())
    files = [c["file"] for c in summary["charts"]]
    heat = [f for f in files if f.startswith("heat-")]      # a map per kind and side that happened (issue 43.2)
    assert summary["kind"] == "assault scenario" and "objective-control.png" in files \
        and {"heat-shots-received-0.png", "heat-shots-received-1.png"} <= set(heat)
    assert len(files) == 9 + len(heat)      # with the map, activity, changes, objective control, the heat maps
    assert (sc / "games.parquet").is_file() and "margin ±5 points): with greedy on both sides" in res.output
    assert balance["verdict"]["status"] in ("balanced", "unbalanced", "undecided", "no verdict")
    assert balance["verdict"]["margin"] == 0.05
    top = json.loads((tmp_path / "summary.json").read_text())
    assert top["reports"][0]["dir"] == "scenario-infantry-training"
    # the Tide of Iron balance report (as `toi scenario --out` writes it), its games capped by --games
    toi = tmp_path / "toi-scenario-two-farms"
    toi_balance = json.loads((toi / "balance.json").read_text())
    assert toi_balance["scenario"] == "two-farms" and toi_balance["games"] == 300
    assert [v["key"] for v in toi_balance["what_if"]["variants"]] == ["initiative"]
    assert json.loads((toi / "summary.json").read_text())["kind"] == "toi scenario"
    assert (toi / "map.png").is_file() and "toi-scenario-two-farms/index.html" in (tmp_path / "index.html").read_text()
    odds = json.loads((tmp_path / "odds-RY-vs-YG" / "summary.json").read_text())["result"]
    exact, mc = odds["exact"], odds["monte-carlo"]
    assert exact["method"] == "exact" and mc["method"] == "monte-carlo" and mc["seed"] == 3
    assert abs(exact["summary"]["mean_damage"] - mc["summary"]["mean_damage"]) < 4 * mc["summary"]["se"]["mean_damage"]
    fire = json.loads((tmp_path / "fire-rifles-41-vs-heavy-rifles-41-open" / "summary.json").read_text())
    assert fire["result"]["exact"]["attack_pool"] == "RY" and fire["result"]["exact"]["defence_pool"] == "YG"
    states = (tmp_path / "fire-rifles-41-vs-heavy-rifles-41-forest" / "states.csv").read_text()
    assert states.startswith("series,state,eliminated,")
