"""``--out DIR`` on assault fire, resolve, smoke, terrain-damage and melee writes a report
folder (index.html, summary.json, CSV tables, PNG charts) whose numbers are the command's."""

import json
import shlex
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from report_helpers import check_bundle, colour_share, ink, pixels

from reports import tables
from reports.charts import COLOURS
from reports.tables import (
    CLOSE_COMBAT_COLUMNS,
    FIRE_STATE_COLUMNS,
    LADDER_COLUMNS,
    RESOLVE_SYMBOL_COLUMNS,
    SMOKE_PLACEMENT_COLUMNS,
)
from simulator.cli import main

DOC = (Path(__file__).resolve().parents[2] / "docs" / "report-columns.md").read_text()
HEAVY = "soviet/heavy-rifles-41"
MELEE = ["assault", "melee", "soviet/rifles-41", "german/tank-hunters-41", "--terrain", "brush",
         "--defender-activated"]


def answer(*args):
    res = CliRunner().invoke(main, [*args, "--format", "json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def bundle_of(out, *args, charts=True):
    """Run the command with --out DIR; check every file of the folder; return its summary.
    (CSV numbers carry 10 decimals: compared with abs=1e-9.)"""
    res = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert f"report written to {out / 'index.html'}" in res.stderr and res.stdout == ""
    summary = check_bundle(out)          # PNG size, drawn pixels, title and footer; CSV headers
    # the command line that reproduces the report, quoted as a shell takes it
    assert summary["provenance"]["command"] == shlex.join(["lanchester", *args, "--out", str(out)])
    assert (out / "index.html").stat().st_size > 1000 and summary["tables"]
    for t in summary["tables"]:
        assert (out / t["file"]).exists()
    if charts:
        assert summary["charts"]
        for c in summary["charts"]:
            png = (out / c["file"]).read_bytes()
            assert len(png) > 5000 and ink(pixels(png)) > 0.04
    return summary


def test_fire_report_matches_the_fire_answer(tmp_path):
    args = ["assault", "fire", "german/rifles-41", HEAVY, "--range", "3", "--terrain", "forest"]
    s = bundle_of(tmp_path / "fire", *args)
    want = answer(*args)
    assert s["kind"] == "assault fire" and s["result"] == want
    assert [c["file"] for c in s["charts"]] == ["damage.png", "states.png"]
    damage = pd.read_csv(tmp_path / "fire" / "damage.csv")
    assert list(damage.columns) == LADDER_COLUMNS
    assert damage["p_at_least"].iloc[-1] == pytest.approx(want["summary"]["p_eliminated"], abs=1e-9)
    states = pd.read_csv(tmp_path / "fire" / "states.csv")
    assert list(states.columns) == FIRE_STATE_COLUMNS and states["p"].sum() == pytest.approx(1.0)


def test_fire_report_by_precision_names_its_trials(tmp_path):
    args = ["assault", "fire", "german/rifles-41", HEAVY, "--range", "3", "--precision", "0.01", "--seed", "5",
            "--workers", "1"]
    s = bundle_of(tmp_path / "fire", *args)
    p = s["provenance"]
    assert (p["method"], p["seed"]) == ("monte-carlo", 5)
    assert p["trials"] == s["result"]["trials"] < 38_416       # chosen by the run, below the bound
    damage = pd.read_csv(tmp_path / "fire" / "damage.csv")
    assert damage["se_exactly"].notna().all() and (damage["series"] == "Monte Carlo").all()
    assert dict(s["highlights"])["precision"].startswith("0.01 reached: 95% interval of P(eliminated)")


def test_resolve_report_of_the_worked_example(tmp_path):
    # 11.0: R crit+hit, Y supp against Y blank, G hit; critical-hit roll G blank vs B blank
    s = bundle_of(tmp_path / "resolve", "assault", "resolve", "--attack", "R:crit+hit Y:supp", "--defence",
                  "Y:- G:hit", "--target", HEAVY, "--crit-attack", "G:-", "--crit-defence", "B:-", charts=False)
    assert s["kind"] == "assault resolve" and s["provenance"]["method"] == "given roll"
    symbols = pd.read_csv(tmp_path / "resolve" / "symbols.csv").set_index("roll")
    assert list(symbols.reset_index().columns) == RESOLVE_SYMBOL_COLUMNS
    assert symbols.loc["attack"].tolist() == [1, 1, 1] and symbols.loc["defence"].tolist() == [0, 1, 0]
    assert symbols.loc["uncancelled"].tolist() == [1, 0, 1]
    state = pd.read_csv(tmp_path / "resolve" / "state.csv")
    assert state["state"].tolist() == ["1 damage, suppressed"] and state["p"].tolist() == [1.0]
    assert s["result"]["uncancelled"] == {"crit": 1, "hit": 0, "supp": 1}


def test_smoke_report(tmp_path):
    args = ["assault", "smoke", "soviet/mortar-82mm"]
    bundle_of(tmp_path / "smoke", *args)
    want = answer(*args)
    markers = pd.read_csv(tmp_path / "smoke" / "markers.csv")
    assert list(markers.columns) == LADDER_COLUMNS
    assert markers["series"].unique().tolist() == ["hex 1 (target hex)", "hex 2 (second hex)", "hex 3 (third hex)"]
    hex1 = markers[markers["series"] == "hex 1 (target hex)"]
    assert hex1["p_at_least"].iloc[1] == pytest.approx(want["per_hex"][0]["p_any"], abs=1e-9)
    assert hex1["p_exactly"].tolist() == pytest.approx(want["per_hex"][0]["p_markers"], abs=1e-9)
    placements = pd.read_csv(tmp_path / "smoke" / "placements.csv")
    assert list(placements.columns) == SMOKE_PLACEMENT_COLUMNS and placements["p"].sum() == pytest.approx(1.0)
    assert len(placements) == len(want["outcomes"])
    img = pixels((tmp_path / "smoke" / "markers.png").read_bytes())
    # one "at least" curve per hex, each in its own colour (the bars are drawn translucent)
    assert all(colour_share(img, c) > 0.001 for c in COLOURS[:3])


def test_terrain_damage_report(tmp_path):
    args = ["assault", "terrain-damage", "german/pz-iif", "--terrain", "forest"]
    s = bundle_of(tmp_path / "td", *args)
    want = answer(*args)
    assert s["question"] == "What does entering forest do to german/pz-iif?"
    states = pd.read_csv(tmp_path / "td" / "states.csv")
    assert states["p"].sum() == pytest.approx(1.0)
    assert states.loc[states["immobilised"], "p"].sum() == pytest.approx(want["summary"]["p_immobilised"], abs=1e-9)
    assert dict(s["highlights"])["P(immobilised)"] == f"{100 * want['summary']['p_immobilised']:.2f}%"


def test_melee_report_one_edition(tmp_path):
    args = [*MELEE, "--edition", "v2", "--trials", "20000", "--seed", "3", "--workers", "1"]
    s = bundle_of(tmp_path / "melee", *args)
    want = answer(*args)
    end = pd.read_csv(tmp_path / "melee" / "end-states.csv")
    assert list(end.columns) == CLOSE_COMBAT_COLUMNS and set(end["edition"]) == {"v2"}
    got = dict(zip(end["end_state"], end["p"], strict=True))
    assert got == pytest.approx({k: want["summary"]["p_" + k.replace(" ", "_")]
                                 for k in ("attacker holds", "defender holds", "neither holds", "unresolved")})
    assert end["se"].notna().all() and s["provenance"]["trials"] == 20000
    img = pixels((tmp_path / "melee" / "end-states.png").read_bytes())
    assert colour_share(img, COLOURS[0]) > 0.01 and colour_share(img, COLOURS[1]) < 0.0005


def test_melee_report_compares_the_editions_side_by_side(tmp_path):
    args = [*MELEE, "--compare-editions"]
    s = bundle_of(tmp_path / "cmp", *args)
    want = answer(*args)
    end = pd.read_csv(tmp_path / "cmp" / "end-states.csv")
    assert end["edition"].tolist() == ["v1"] * 4 + ["v2"] * 4
    for edition in ("v1", "v2"):
        part = end[end["edition"] == edition].set_index("end_state")["p"]
        assert part.sum() == pytest.approx(1.0)
        assert part["attacker holds"] == pytest.approx(want["editions"][edition]["summary"]["p_attacker_holds"])
    assert end["se"].isna().all() and s["provenance"]["method"] == "exact"
    assert "under each edition of chapter 12" in s["question"]
    img = pixels((tmp_path / "cmp" / "end-states.png").read_bytes())
    assert colour_share(img, COLOURS[0]) > 0.01 and colour_share(img, COLOURS[1]) > 0.01   # both editions' bars


def test_out_file_keeps_its_old_meaning(tmp_path):
    target = tmp_path / "smoke.json"
    res = CliRunner().invoke(main, ["assault", "smoke", "soviet/mortar-82mm", "--format", "json", "--out",
                                    str(target)])
    assert res.exit_code == 0
    assert json.loads(target.read_text())["firer"] == "soviet/mortar-82mm"
    assert [p.name for p in tmp_path.iterdir()] == ["smoke.json"]


@pytest.mark.parametrize("name", ["SMOKE_PLACEMENT_COLUMNS", "RESOLVE_SYMBOL_COLUMNS"])
def test_new_column_lists_are_documented(name):
    assert f"`{name}`" in DOC
    for c in getattr(tables, name):
        assert f"`{c}`" in DOC and c in tables.COLUMN_HELP
