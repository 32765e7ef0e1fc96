"""'Did you mean ...?': the closest valid names in error messages (issue 21, item 6)."""

from __future__ import annotations

from click.testing import CliRunner

from simulator.cli import main
from simulator.games.assault.game.scenario import check_scenario
from simulator.games.assault.game.scenario_format import Scenario
from simulator.run.suggest import closest, did_you_mean, keys_at


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_closest_is_case_insensitive_and_ordered():
    assert closest("Forrest", ["clear", "forest", "heavy-forest"]) == ["forest", "heavy-forest"]
    assert closest("zzz", ["clear", "forest"]) == []
    assert did_you_mean("gredy", ["random", "greedy"]) == " (did you mean 'greedy'?)"
    assert did_you_mean("zzz", ["random", "greedy"]) == ""


def test_keys_at_walks_tables_lists_dicts_and_unions():
    assert "orientation" in keys_at(Scenario, ("map", "orientaton"))
    assert "zones" in keys_at(Scenario, ("sides", "german", "zone"))            # dict of sides
    assert "hold_count" in keys_at(Scenario, ("sides", "x", "victory", "holdcount"))
    assert "unit" in keys_at(Scenario, ("sides", "x", "units", 0, "unti"))      # list of forces
    assert "hex" in keys_at(Scenario, ("objectives", 0, "Objective", "hexx"))   # Objective | str
    assert keys_at(Scenario, ("map", "rows", 0, "x")) == []                     # not a table


def test_unknown_scenario_keys_name_the_key_meant(tmp_path):
    f = tmp_path / "t.scenario.toml"
    f.write_text('name = "t"\n[map]\nrows = [".."]\norientaton = "flat"\n[map.legend]\n"." = "clear"\n')
    problems = {p.key: p.message for p in check_scenario(f).errors}
    assert problems["map.orientaton"] == "unknown key (did you mean 'orientation'?)"


def test_unknown_unit_suggests_and_unit_ids_ignore_case():
    res = run("assault", "fire", "german/rifles-41", "soviet/heavy-rifle-41", "--range", "3")
    assert res.exit_code == 2
    assert "did you mean 'soviet/heavy-rifles-41'" in res.output
    exact = run("assault", "fire", "german/rifles-41", "soviet/heavy-rifles-41", "--range", "3",
                "--format", "json")
    shouted = run("assault", "fire", "German/Rifles-41", "SOVIET/heavy-rifles-41", "--range", "3",
                  "--format", "json")
    assert exact.exit_code == 0 and shouted.exit_code == 0
    assert exact.output == shouted.output


def test_unknown_names_in_options_suggest():
    res = run("assault", "fire", "german/rifles-41", "soviet/rifles-41", "--range", "2", "--terrain", "forrest")
    assert res.exit_code == 2 and "did you mean 'forest'" in res.output
    res = run("assault", "scenario", "infantry-trainig")
    assert res.exit_code == 2 and "did you mean 'infantry-training'" in res.output
    res = run("assault", "scenario", "infantry-training", "--players", "gredy")
    assert res.exit_code == 2 and "did you mean 'greedy'" in res.output
