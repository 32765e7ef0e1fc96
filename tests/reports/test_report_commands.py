"""``--out DIR`` on each command writes a report bundle; the matchup matrix is exact."""

import io
import json
import time
from types import SimpleNamespace

import pandas as pd
import pytest
from click.testing import CliRunner
from report_helpers import check_bundle, check_chart_png

from reports.tables import LADDER_COLUMNS, ODDS_OUTCOME_COLUMNS
from simulator.cli import main
from simulator.games.assault.questions.fire import fire
from simulator.games.assault.questions.matrix import MATRIX_COLUMNS, matchup_answer, matchup_matrix, parse_ranges
from simulator.games.assault.questions.odds import odds_outcomes
from simulator.games.assault.rules.pools import FireSituation


def bundle_of(tmp_path, *args):
    out = tmp_path / "report"
    res = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert f"report written to {out / 'index.html'}" in res.output
    summary = check_bundle(out)
    assert summary["provenance"]["command"] == "lanchester " + " ".join([*args, "--out", str(out)])
    assert summary["charts"], "a report without a chart"
    return out, summary


def test_odds_report_exact(tmp_path):
    out, s = bundle_of(tmp_path, "assault", "odds", "RY", "YG")
    assert s["kind"] == "assault odds" and s["question"] == "How much damage does RY do against YG?"
    assert s["provenance"]["sources"][0] == {"kind": "dice", "name": "assault-default", "status": "reconstructed"}
    assert s["provenance"]["data_files"] == ["scenarios/assault/dice.toml"]
    damage = pd.read_csv(out / "damage.csv")
    assert list(damage.columns) == LADDER_COLUMNS
    exact = odds_outcomes("RY", "YG").summary.p_damage_at_least
    assert damage["p_at_least"].tolist() == pytest.approx(exact, abs=1e-10)
    assert list(pd.read_csv(out / "outcomes.csv").columns) == ODDS_OUTCOME_COLUMNS
    assert s["result"]["attack"] == "RY"          # the --format json answer rides along


def test_odds_report_monte_carlo_names_seed_and_trials(tmp_path):
    out, s = bundle_of(tmp_path, "assault", "odds", "RY", "YG", "--trials", "20000", "--seed", "4",
                       "--workers", "1")
    p = s["provenance"]
    assert (p["method"], p["seed"], p["trials"]) == ("monte-carlo", 4, 20000)
    damage = pd.read_csv(out / "damage.csv")
    assert damage["se_exactly"].notna().all() and (damage["series"] == "Monte Carlo").all()
    exact = odds_outcomes("RY", "YG").summary.p_damage_at_least
    for got, want, se in zip(damage["p_at_least"], exact, damage["se_at_least"], strict=True):
        assert abs(got - want) <= 4 * se + 1e-12


def test_out_file_keeps_its_old_meaning(tmp_path):
    res = CliRunner().invoke(main, ["assault", "odds", "RY", "YG", "--format", "csv", "--out",
                                    str(tmp_path / "odds.csv")])
    assert res.exit_code == 0
    assert (tmp_path / "odds.csv").read_text().startswith("crit,hit,supp,p")
    assert [p.name for p in tmp_path.iterdir()] == ["odds.csv"]


def test_units_report(tmp_path):
    out, s = bundle_of(tmp_path, "assault", "units")
    units = pd.read_csv(out / "units.csv")
    assert len(units) == 17 and "german/rifles-41" in set(units["id"])
    assert {x["kind"] for x in s["provenance"]["sources"]} == {"dice", "units"}
    assert any(f.endswith("german.toml") for f in s["provenance"]["data_files"])


def test_matrix_report_and_its_csv(tmp_path):
    out, s = bundle_of(tmp_path, "assault", "matrix", "--firers", "german/rifles-41,german/mortar-81mm",
                       "--targets", "soviet", "--ranges", "1-4", "--terrain", "clear,forest",
                       "--metric", "mean_damage")
    m = pd.read_csv(out / "matrix.csv")
    assert list(m.columns) == MATRIX_COLUMNS
    soviet = m["target"].nunique()
    assert soviet == 9 and len(m) == 2 * soviet * 4 * 2
    assert not m.duplicated(["firer", "target", "range", "terrain"]).any()
    assert sorted(c["file"] for c in s["charts"]) == ["matrix-clear.png", "matrix-forest.png"]
    assert s["question"] == "How much damage does each firer deal to each target with direct fire, on average?"


def test_matrix_cells_equal_the_fire_command_exactly():
    frame = matchup_matrix(["german/rifles-41", "german/pz-iif"], ["soviet/heavy-rifles-41", "soviet/t-26"],
                           (1, 3, 5), ("clear", "forest"))
    checked = 0
    for r in frame[frame["can_fire"]].to_dict("records"):
        facing = r["target_facing"] or None
        want = fire(r["firer"], r["target"], FireSituation(range=r["range"], terrain=r["terrain"],
                                                           target_facing=facing))
        for k in ("p_eliminated", "p_suppressed_fallback_or_eliminated", "p_fallback", "p_immobilised", "mean_damage"):
            assert r[k] == pytest.approx(want.summary[k], abs=1e-12)
        assert r["attack_pool"] == want.attack_pool and r["p_spotted"] == want.p_spotted
        checked += 1
    assert checked >= 12


def test_matrix_reports_pairs_that_cannot_fire():
    frame = matchup_matrix(["german/mortar-81mm", "german/rifles-41", "german/truck"],
                           ["soviet/rifles-41", "soviet/t-26"], (1, 3, 5), ("clear",)).set_index(
        ["firer", "target", "range"])
    mortar = frame.loc[("german/mortar-81mm", "soviet/rifles-41", 5)]
    assert not mortar["can_fire"] and mortar["reason"] == "out of range (max range 2)"
    assert pd.isna(mortar["p_eliminated"])
    rifles = frame.loc[("german/rifles-41", "soviet/t-26", 3)]
    assert not rifles["can_fire"] and rifles["reason"] == "no dice vs armoured vehicles at this range"
    assert not frame.loc["german/truck"]["can_fire"].any()
    assert frame.loc[("german/rifles-41", "soviet/rifles-41", 3)]["can_fire"]


def test_whole_roster_matrix_is_fast():
    start = time.perf_counter()
    answer = matchup_answer(ranges=parse_ranges("1-6"), terrains=("clear", "brush", "forest", "stone-building"))
    seconds = time.perf_counter() - start
    frame = answer.frame()
    assert len(frame) == answer.cells == 17 * 17 * 6 * 4
    assert answer.computed < len(frame) / 10     # equal questions computed once
    assert seconds < 10, f"whole roster took {seconds:.1f} s"
    can = frame[frame["can_fire"]]
    assert can[["p_eliminated", "mean_damage"]].notna().all().all()
    worse = can["p_suppressed_fallback_or_eliminated"]
    assert ((can["p_eliminated"] >= 0) & (can["p_eliminated"] <= worse + 1e-12)).all()


def test_matrix_table_and_csv_formats():
    res = CliRunner().invoke(main, ["assault", "matrix", "--firers", "german/rifles-41", "--targets",
                                    "soviet/rifles-41,soviet/t-26", "--ranges", "3"])
    assert res.exit_code == 0 and "terrain clear, range 3" in res.output and "0.93%" in res.output
    csv = CliRunner().invoke(main, ["assault", "matrix", "--firers", "german", "--targets", "soviet/t-26",
                                    "--ranges", "2", "--format", "csv"]).output
    assert list(pd.read_csv(io.StringIO(csv)).columns) == MATRIX_COLUMNS


@pytest.mark.parametrize("args,needle", [
    (["--ranges", "0-2"], "--ranges: '0-2'"),
    (["--ranges", "x"], "--ranges: cannot read 'x'"),
    (["--firers", "german/nobody"], "unknown unit 'german/nobody'"),
    (["--terrain", "lava"], "unknown terrain 'lava'"),
])
def test_matrix_bad_input_is_one_line(args, needle):
    res = CliRunner().invoke(main, ["assault", "matrix", *args])
    assert res.exit_code == 2 and res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], res.stderr
    assert res.exception is None or isinstance(res.exception, SystemExit)


def test_toi_fire_and_minefield_reports(tmp_path):
    out, s = bundle_of(tmp_path, "toi", "fire", "--attack-strength", "6", "--defence-strength", "2",
                       "--range", "normal", "--target", "squad:4")
    assert {x["kind"] for x in s["provenance"]["sources"]} == {"toi units", "toi terrain"}
    assert s["provenance"]["data_digest"] == s["result"]["data_digest"]
    hits = pd.read_csv(out / "hits.csv")
    assert hits["p_exactly"].sum() == pytest.approx(1.0) and (out / "states.png").exists()
    out2, _ = bundle_of(tmp_path / "m", "toi", "minefield", "--target", "squad:4regular")
    assert pd.read_csv(out2 / "hits.csv")["p_exactly"].tolist() == pytest.approx([1 / 16, 4 / 16, 6 / 16,
                                                                                  4 / 16, 1 / 16])


def test_toi_assault_replay_and_units_reports(tmp_path):
    out, s = bundle_of(tmp_path / "a", "toi", "assault", "--attacker", "squad:4regular", "--defender",
                       "squad:3regular")
    hits = pd.read_csv(out / "hits.csv")
    assert set(hits["series"]) == {"attacker's hits", "defender's hits"}
    assert s["highlights"][0][0] == "P(assault succeeds)"
    _, r = bundle_of(tmp_path / "r", "toi", "assault", "--attacker", "squad:4regular", "--defender",
                     "squad:3regular", "--replay", "6,5,4,1//4,1,2")
    assert r["kind"] == "toi assault replay" and r["provenance"]["method"] == "replay"
    out3, _ = bundle_of(tmp_path / "u", "toi", "units")
    assert "tiger" in set(pd.read_csv(out3 / "units.csv")["id"])


def test_fire_report_ready_for_the_fire_command(tmp_path):
    from reports.bundle import write_bundle
    from simulator.games.assault.report.bundles import fire_report
    situation = FireSituation(range=3, terrain="forest")
    frame = fire("german/rifles-41", "soviet/heavy-rifles-41", situation)
    out = write_bundle(tmp_path / "fire", fire_report([frame], terrain="forest"))
    s = check_bundle(out)
    assert s["question"] == ("What happens to soviet/heavy-rifles-41 when german/rifles-41 fires at it "
                             "at range 3 in forest?")
    assert {x["kind"] for x in s["provenance"]["sources"]} >= {"dice", "aid", "units"}
    damage = pd.read_csv(out / "damage.csv")
    assert damage["outcome"].iloc[-1] == f"eliminated ({frame.target_strength})"
    assert damage["p_at_least"].iloc[-1] == pytest.approx(frame.summary["p_eliminated"], abs=1e-12)
    states = pd.read_csv(out / "states.csv")
    assert states["p"].sum() == pytest.approx(1.0) and "1 damage, suppressed" in set(states["state"])
    assert any("spotting" in n for n in s["notes"])          # how the pools were built


def test_close_combat_and_scenario_reports_write_bundles(tmp_path):
    from report_helpers import sample_provenance

    from reports.balance import scenario_report
    from reports.bundle import write_bundle
    from simulator.games.assault.report.bundles import close_combat_report
    prov = sample_provenance()
    end = pd.DataFrame({"edition": ["1.0", "1.0", "revised", "revised"],
                        "end_state": ["attacker wins", "defender holds"] * 2, "p": [0.6, 0.4, 0.45, 0.55]})
    out = write_bundle(tmp_path / "cc", close_combat_report(end, question="How does it end?", provenance=prov))
    s = check_bundle(out)
    assert pd.read_csv(out / "end-states.csv").columns.tolist() == ["edition", "end_state", "p", "se", "lo", "hi"]
    games = pd.DataFrame({"game": range(1, 201), "winner": ["german"] * 120 + ["soviet"] * 80,
                          "decided_turn": [4, 5, 6, 7] * 50})
    losses = pd.DataFrame({"side": ["german", "soviet"], "unit_type": ["infantry", "infantry"],
                           "mean_lost": [2.5, 3.1]})
    variants = pd.DataFrame({"variant": ["baseline", "no tanks"], "side": "german", "wins": [120, 70],
                             "games": [200, 200]})
    out = write_bundle(tmp_path / "sc", scenario_report(games, question="Who wins?", provenance=prov,
                                                        losses=losses, variants=variants,
                                                        sides=["german", "soviet", "finnish"]))
    s = check_bundle(out)
    assert [c["file"] for c in s["charts"]] == ["win-rate.png", "convergence.png", "decision-turn.png",
                                                "losses.png", "what-if.png"]
    rates = pd.read_csv(out / "win-rates.csv").set_index("side")
    assert rates.loc["german", "p"] == pytest.approx(0.6) and rates.loc["finnish", "wins"] == 0
    assert dict(s["highlights"])["P(german wins)"].startswith("60.0% (95% interval")


# --- the matrix says whose units and which fire (issue 21, item 5) ----------------------

def test_matrix_keeps_the_side_in_unit_labels_and_says_it_is_direct_fire(tmp_path):
    res = CliRunner().invoke(main, ["assault", "matrix", "--firers", "german/rifles-41", "--targets",
                                    "soviet/rifles-41", "--ranges", "3"])
    assert res.exit_code == 0, res.output
    assert "german/rifles-41" in res.output and "soviet/rifles-41" in res.output
    assert "fire: direct fire only (chapter 10); indirect fire (chapter 7" in res.output
    csv = CliRunner().invoke(main, ["assault", "matrix", "--firers", "german/mortar-81mm", "--targets",
                                    "soviet/rifles-41", "--ranges", "3", "--format", "csv"]).output
    m = pd.read_csv(io.StringIO(csv))
    assert list(m.columns)[-1] == "fire" and set(m["fire"]) == {"direct"}
    out, s = bundle_of(tmp_path, "assault", "matrix", "--firers", "german/rifles-41", "--targets", "soviet",
                       "--ranges", "2")
    high = dict(s["highlights"])
    assert high["fire"].startswith("direct fire only") and "direct fire" in s["question"]
    assert s["result"]["fire"].startswith("direct fire only")


def test_matrix_heatmaps_label_units_with_their_side():
    from reports.charts import short_unit
    assert short_unit("soviet/rifles-41") == "soviet/rifles-41"


def test_matrix_plot_lines_draws_a_line_per_pair(tmp_path):
    args = ["assault", "matrix", "--firers", "german/rifles-41,german/hmg-34", "--targets",
            "soviet/rifles-41", "--terrain", "clear,forest", "--ranges", "1-6", "--plot", "lines"]
    out, s = bundle_of(tmp_path, *args)
    assert [c["file"] for c in s["charts"]] == ["matrix-lines.png"] and s["result"]["plot"] == "lines"
    alt = s["charts"][0]["alt"]
    assert "german/rifles-41 at soviet/rifles-41" in alt and "german/hmg-34 at soviet/rifles-41" in alt
    png = tmp_path / "lines.png"
    res = CliRunner().invoke(main, [*args, "--out", str(png)])
    assert res.exit_code == 0, res.output
    check_chart_png(png.read_bytes(), s["charts"][0]["width"], s["charts"][0]["height"])   # the same chart


@pytest.mark.parametrize("args,needle", [
    (["--plot", "lines", "--out", "x.png"], "too many lines for one chart (at most 12)"),
    (["--firers", "german/rifles-41", "--targets", "soviet/rifles-41", "--plot", "lines"], "--plot draws a chart"),
    (["--firers", "german/rifles-41", "--terrain", "clear,forest", "--out", "h.png"], "a PNG holds one chart"),
])
def test_matrix_plot_misuse_is_one_line(args, needle, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["assault", "matrix", *args])
    assert res.exit_code == 2 and needle in res.output and "Traceback" not in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_melee_compare_editions_report_carries_the_differences(tmp_path):
    args = ["assault", "melee", "soviet/rifles-41", "german/rifles-41", "--compare-editions"]
    out, s = bundle_of(tmp_path, *args)
    data = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).stdout)
    diff = pd.read_csv(out / "edition-differences.csv")
    whole = diff[diff["part"] == "whole fight"].set_index("measure")
    assert whole.loc["P(attacker holds)", "difference"] == pytest.approx(data["difference"]["p_attacker_holds"])
    first = diff[diff["part"] == "first round alone"].set_index("measure")
    assert first.loc["P(attacker holds)", "difference"] == pytest.approx(
        data["first_round"]["difference"]["p_attacker_holds"])
    rules = pd.read_csv(out / "differing-rules.csv")
    assert rules["rule"].tolist() == [r["rule"] for r in data["differing_rules"]] and len(rules) > 0
    page = (out / "index.html").read_text()
    assert "Why the numbers differ" in page and data["differing_rules"][0]["rule"] in page
    assert dict(s["highlights"])["rules that differ here"].startswith(data["differing_rules"][0]["rule"])


def test_end_states_table_carries_the_summary_intervals():
    # a Monte Carlo melee summary's ci95 becomes the lo/hi of end-states.csv; an exact one
    # (no ci95) leaves them empty
    from simulator.games.assault.report.bundles import melee_end_states
    keys = ["p_attacker_holds", "p_defender_holds", "p_neither_holds", "p_unresolved"]
    mc = {"summary": {**dict(zip(keys, [0.5, 0.3, 0.2, 0.0], strict=True)),
                      "se": dict.fromkeys(keys, 0.01),
                      "ci95": {"p_attacker_holds": [0.45, 0.55], "p_defender_holds": [0.26, 0.34],
                               "p_neither_holds": [0.17, 0.24], "p_unresolved": [0.0, 0.0018]}}}
    exact = {"summary": dict(zip(keys, [0.5, 0.3, 0.2, 0.0], strict=True))}
    # the function reads an answer's summary field (MeleeAnswer.summary)
    table = melee_end_states({"v2": SimpleNamespace(**mc), "v1": SimpleNamespace(**exact)})
    got = table[table["edition"] == "v2"].set_index("end_state")
    assert got.loc["unresolved", "lo"] == 0.0 and got.loc["unresolved", "hi"] == 0.0018
    assert (got.loc["attacker holds", "lo"], got.loc["attacker holds", "hi"]) == (0.45, 0.55)
    assert table[table["edition"] == "v1"][["lo", "hi"]].isna().all().all()
