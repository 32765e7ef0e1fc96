"""Bundles: complete or absent, never clobber a folder that is not a report, rebuildable."""

import json
import os

import pandas as pd
import pytest
from click.testing import CliRunner
from report_helpers import check_bundle, sample_provenance

from reports import bundle
from reports.bundle import Report, Table, emit_report, rebuild, wants_bundle, write_bundle
from reports.tables import ladder
from simulator.cli import main
from simulator.run.errors import InputError


def small_report(with_chart=True):
    from reports import charts
    prov = sample_provenance()
    steps = ladder([0.5, 0.3, 0.2], series="exact")
    chart = [charts.outcome_chart(steps, name="damage", question="How much damage?", xlabel="damage",
                                  prov=prov)] if with_chart else []
    return Report("test", "How much damage?", prov, [Table("damage", steps, "Damage", "desc")], chart,
                  highlights=[("mean damage", "0.700")], result={"answer": 0.7})


def test_bundle_files_summary_and_page(tmp_path):
    out = write_bundle(tmp_path / "r", small_report())
    summary = check_bundle(out)
    assert sorted(p.name for p in out.iterdir()) == ["damage.csv", "damage.png", "index.html", "summary.json"]
    assert summary["provenance"]["sources"] == [{"kind": "dice", "name": "assault-default",
                                                 "status": "reconstructed"}]
    assert summary["provenance"]["seed"] == 7 and summary["result"] == {"answer": 0.7}
    page = (out / "index.html").read_text()
    for needle in ("How much damage?", "dice: assault-default, reconstructed", "abc123def456",
                   "lanchester test --out x", '<img src="damage.png"', '<a href="damage.csv">', "50.00%"):
        assert needle in page
    assert "http://" not in page and "https://" not in page and "<script" not in page   # offline
    assert oct(os.stat(out / "damage.csv").st_mode & 0o044) == oct(0o044)   # readable by the team


def test_failure_leaves_no_folder_and_no_temporary(tmp_path):
    rep = small_report(with_chart=False)
    rep.tables.append(Table("bad", pd.DataFrame({"x": [object()]}), "Bad", "", parquet=True))
    with pytest.raises(Exception):   # noqa: B017 - the point: whatever fails, nothing is left behind
        write_bundle(tmp_path / "r", rep)
    assert list(tmp_path.iterdir()) == []


def test_replaces_a_report_but_never_another_folder(tmp_path):
    out = write_bundle(tmp_path / "r", small_report())
    (out / "damage.csv").write_text("stale")
    write_bundle(out, small_report(with_chart=False))
    assert not (out / "damage.png").exists() and (out / "damage.csv").read_text().startswith("series,")
    other = tmp_path / "mine"
    other.mkdir()
    (other / "thesis.txt").write_text("precious")
    with pytest.raises(InputError, match="not a lanchester report"):
        write_bundle(other, small_report())
    assert (other / "thesis.txt").read_text() == "precious"
    with pytest.raises(InputError, match="not a folder"):
        write_bundle(other / "thesis.txt", small_report())
    check_bundle(out)


def test_out_value_decides_file_or_folder(tmp_path):
    assert not wants_bundle(None) and not wants_bundle("-")
    assert not wants_bundle(tmp_path / "x.json") and not wants_bundle(tmp_path / "x.CSV")
    existing = tmp_path / "plain"
    existing.write_text("")
    assert not wants_bundle(existing)
    assert wants_bundle(tmp_path / "report") and wants_bundle(tmp_path / "new" / "dir")


def test_emit_report_without_builder_keeps_the_frame(tmp_path):
    frame = pd.DataFrame({"a": [1, 2]})
    emit_report("table", tmp_path / "r", table="t", frame=frame, obj={"a": [1, 2]})
    summary = check_bundle(tmp_path / "r")
    assert summary["tables"][0]["columns"] == ["a"] and summary["result"] == {"a": [1, 2]}
    assert (summary["provenance"]["method"], summary["provenance"]["seed"]) == ("exact", None)   # obj names none
    # how it was computed comes from the JSON answer (no attrs on the frame)
    mc = {"method": "monte-carlo", "trials": 500, "seed": 9, "a": [1, 2]}
    emit_report("table", tmp_path / "mc", table="t", frame=frame, obj=mc)
    prov = check_bundle(tmp_path / "mc")["provenance"]
    assert (prov["method"], prov["trials"], prov["seed"]) == ("monte-carlo", 500, 9)
    emit_report("json", tmp_path / "r.json", table="t", frame=frame, obj={"a": [1, 2]})
    assert json.loads((tmp_path / "r.json").read_text()) == {"a": [1, 2]}


def test_big_tables_get_parquet(tmp_path):
    rep = small_report(with_chart=False)
    rep.tables.append(Table("big", pd.DataFrame({"k": range(bundle.PARQUET_MIN_ROWS)}), "Big"))
    out = write_bundle(tmp_path / "r", rep)
    assert pd.read_parquet(out / "big.parquet")["k"].sum() == sum(range(bundle.PARQUET_MIN_ROWS))
    assert not (out / "damage.parquet").exists()


def test_report_command_rebuilds_the_same_page_and_follows_edited_data(tmp_path):
    out = write_bundle(tmp_path / "r", small_report())
    before = (out / "index.html").read_text()
    (out / "index.html").unlink()
    res = CliRunner().invoke(main, ["report", str(out)])
    assert res.exit_code == 0, res.output
    assert (out / "index.html").read_text() == before
    csv = (out / "damage.csv").read_text().replace("0.5,1,", "0.25,1,")
    (out / "damage.csv").write_text(csv)
    rebuild(out)
    assert "25.00%" in (out / "index.html").read_text()


def test_report_command_bad_folder_is_one_line_exit_2(tmp_path):
    res = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert res.exit_code == 2 and res.stdout == ""
    assert res.stderr.strip().splitlines() == [f"lanchester: error: {tmp_path}: not a lanchester report "
                                               "(no summary.json)"]


def test_demo_replaces_its_old_flat_layout_but_nothing_else(tmp_path):
    from simulator.demo import clear_old_layout
    old = tmp_path / "demo"
    old.mkdir()
    for name in ("odds-RY-vs-YG-exact.json", "fire-rifles-41-vs-heavy-rifles-41-open-monte-carlo.csv"):
        (old / name).write_text("{}")
    clear_old_layout(old)
    assert list(old.iterdir()) == []
    (old / "odds-RY-vs-YG-exact.json").write_text("{}")
    (old / "notes.txt").write_text("mine")
    clear_old_layout(old)
    assert sorted(p.name for p in old.iterdir()) == ["notes.txt", "odds-RY-vs-YG-exact.json"]
