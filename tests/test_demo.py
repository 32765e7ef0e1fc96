"""`lanchester demo` (what `make demo` runs) writes a readable report folder."""

import json

from click.testing import CliRunner

from simulator.cli import main


def test_demo_writes_exact_and_monte_carlo_results(tmp_path):
    res = CliRunner().invoke(main, ["demo", "--out", str(tmp_path), "--trials", "20000", "--seed", "3"])
    assert res.exit_code == 0, res.output
    assert "report written to" in res.output
    exact = json.loads((tmp_path / "odds-RY-vs-YG-exact.json").read_text())
    mc = json.loads((tmp_path / "odds-RY-vs-YG-monte-carlo.json").read_text())
    assert exact["method"] == "exact" and mc["method"] == "monte-carlo" and mc["seed"] == 3
    assert abs(exact["summary"]["mean_damage"] - mc["summary"]["mean_damage"]) < 4 * mc["summary"]["se"]["mean_damage"]
    fire = json.loads((tmp_path / "fire-rifles-41-vs-heavy-rifles-41-open-exact.json").read_text())
    assert fire["attack_pool"] == "RY" and fire["defence_pool"] == "YG"
    assert (tmp_path / "fire-rifles-41-vs-heavy-rifles-41-forest-exact.csv").read_text().startswith("eliminated,")
