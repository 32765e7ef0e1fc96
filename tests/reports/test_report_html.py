"""The HTML pages in a real browser (headless Chromium): every image on them loads.

Chromium is the Debian package ``chromium`` (``make test`` installs it with apt-get
when it is missing); without it these tests fail, they do not skip.
"""

import json
import re

import pytest
from click.testing import CliRunner
from report_helpers import check_bundle, images_in_chromium

from reports.bundle import rebuild
from simulator.cli import main


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo") / "demo"
    res = CliRunner().invoke(main, ["demo", "--out", str(out), "--trials", "20000", "--seed", "3",
                                    "--games", "300"])
    assert res.exit_code == 0, res.output
    return out, res.output


def test_a_report_page_loads_every_chart(tmp_path):
    out = tmp_path / "matrix"
    res = CliRunner().invoke(main, ["assault", "matrix", "--firers", "german", "--targets", "soviet",
                                    "--ranges", "2-3", "--terrain", "clear,forest", "--out", str(out)])
    assert res.exit_code == 0, res.output
    summary = check_bundle(out)
    images = images_in_chromium(out / "index.html", tmp_path / "profile")
    assert [i["src"] for i in images] == [c["file"] for c in summary["charts"]]
    for img, chart in zip(images, summary["charts"], strict=True):
        assert img["ok"], f"{img['src']} did not load"
        assert (img["w"], img["h"]) == (chart["width"], chart["height"])


def test_chromium_notices_a_missing_image(tmp_path):
    """The check can fail: a deleted PNG is reported as not loaded."""
    out = tmp_path / "odds"
    assert CliRunner().invoke(main, ["assault", "odds", "RY", "YG", "--out", str(out)]).exit_code == 0
    (out / "damage.png").unlink()
    images = images_in_chromium(out / "index.html", tmp_path / "profile")
    assert images == [{"src": "damage.png", "ok": False, "w": 0, "h": 0}]


def test_make_demo_report_prints_its_path_and_every_image_loads(demo_dir, tmp_path):
    out, output = demo_dir
    last = output.strip().splitlines()[-1]
    assert last == f"report written to {(out / 'index.html').resolve()}"
    top = json.loads((out / "summary.json").read_text())
    assert top["kind"] == "collection" and len(top["reports"]) == 8   # 2 scenarios, 3 odds, 2 fire, matrix
    for entry in top["reports"]:
        sub = check_bundle(out / entry["dir"])
        assert sub["question"] == entry["question"]
    images = images_in_chromium(out / "index.html", tmp_path / "profile")
    assert len(images) == len(top["reports"]) and all(i["ok"] for i in images), images
    fire = next(e["dir"] for e in top["reports"] if e["kind"] == "assault fire")
    sub_images = images_in_chromium(out / fire / "index.html", tmp_path / "profile")
    assert len(sub_images) == 2 and all(i["ok"] for i in sub_images), sub_images
    toi = images_in_chromium(out / "toi-scenario-two-farms" / "index.html", tmp_path / "profile")
    assert len(toi) >= 7 and all(i["ok"] for i in toi), toi     # Tide of Iron's page, map and reasons too


def test_demo_writes_exact_and_monte_carlo_results(demo_dir):
    """`lanchester demo` (what `make demo` runs) writes a readable report folder: the
    demo run above, shared with the pages' tests (one run of the demo for all three)."""
    out, output = demo_dir
    assert "report written to" in output
    # the main job: the balance report of the default scenario, as `assault scenario --out` writes it
    sc = out / "scenario-infantry-training"
    balance = json.loads((sc / "balance.json").read_text())
    assert balance["scenario"] == "infantry-training" and balance["games"] == 300 and balance["seed"] == 3
    assert [v["key"] for v in balance["what_if"]["variants"]] == ["turns", "turns", "edition"]
    summary = json.loads((sc / "summary.json").read_text())
    files = [c["file"] for c in summary["charts"]]
    heat = [f for f in files if f.startswith("heat-")]      # a map per kind and side that happened (issue 43.2)
    assert summary["kind"] == "assault scenario" and "objective-control.png" in files \
        and {"heat-shots-received-0.png", "heat-shots-received-1.png"} <= set(heat)
    assert len(files) == 9 + len(heat)      # with the map, activity, changes, objective control, the heat maps
    assert (sc / "games.parquet").is_file() and "margin ±5 points): with greedy on both sides" in output
    assert balance["verdict"]["status"] in ("balanced", "unbalanced", "undecided", "no verdict")
    assert balance["verdict"]["margin"] == 0.05
    top = json.loads((out / "summary.json").read_text())
    assert top["reports"][0]["dir"] == "scenario-infantry-training"
    # the Tide of Iron balance report (as `toi scenario --out` writes it), its games capped by --games
    toi = out / "toi-scenario-two-farms"
    toi_balance = json.loads((toi / "balance.json").read_text())
    assert toi_balance["scenario"] == "two-farms" and toi_balance["games"] == 300
    assert [v["key"] for v in toi_balance["what_if"]["variants"]] == ["initiative"]
    assert json.loads((toi / "summary.json").read_text())["kind"] == "toi scenario"
    assert (toi / "map.png").is_file() and "toi-scenario-two-farms/index.html" in (out / "index.html").read_text()
    odds = json.loads((out / "odds-RY-vs-YG" / "summary.json").read_text())["result"]
    exact, mc = odds["exact"], odds["monte-carlo"]
    assert exact["method"] == "exact" and mc["method"] == "monte-carlo" and mc["seed"] == 3
    assert abs(exact["summary"]["mean_damage"] - mc["summary"]["mean_damage"]) < 4 * mc["summary"]["se"]["mean_damage"]
    fire = json.loads((out / "fire-rifles-41-vs-heavy-rifles-41-open" / "summary.json").read_text())
    assert fire["result"]["exact"]["attack_pool"] == "RY" and fire["result"]["exact"]["defence_pool"] == "YG"
    states = (out / "fire-rifles-41-vs-heavy-rifles-41-forest" / "states.csv").read_text()
    assert states.startswith("series,state,eliminated,")


def test_demo_report_numbers_and_rebuild(demo_dir):
    out, _ = demo_dir
    odds = json.loads((out / "odds-RY-vs-YG" / "summary.json").read_text())
    assert odds["provenance"]["method"] == "exact + monte-carlo" and odds["provenance"]["seed"] == 3
    high = dict(odds["highlights"])
    exact, mc = float(high["mean damage (exact)"]), high["mean damage (Monte Carlo)"]
    value, se = (float(x) for x in re.match(r"([\d.]+) ±([\d.]+)", mc).groups())
    assert abs(value - exact) <= 4 * se + 1e-3   # shown to 3 decimals
    pages = {p: p.read_text() for p in out.rglob("index.html")}
    rebuild(out)
    assert {p: p.read_text() for p in out.rglob("index.html")} == pages

