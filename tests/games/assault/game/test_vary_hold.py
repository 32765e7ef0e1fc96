"""``--vary hold.SIDE=A+B``: the objectives a side must hold (3.1) as a what-if, so that the
question an out-of-reach side raises (docs/strength.md, "Crossroads: the scenario or the
players?") is one command instead of an edited copy of the scenario file."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.games.assault.game.balance import override_for, parse_vary
from simulator.games.assault.game.scenario import load_scenario
from simulator.run.errors import InputError
from tests.games.assault.game.test_skill_curve import OUT_OF_REACH


def test_hold_names_objectives_by_name_or_hex_in_the_scenarios_order():
    crossroads = load_scenario("crossroads")
    assert parse_vary(["hold.german=village house+crossroads"], crossroads) == \
        [("hold.german", ["village house+crossroads"])]
    for value in ("village house+crossroads", "10:7+8:6", "crossroads+8:6"):
        assert override_for("hold.german", value, crossroads) == {("hold", "german"): ("10,7", "8,6")}
    assert override_for("hold.soviet", "wooded hill top", crossroads) == {("hold", "soviet"): ("15,2",)}


@pytest.mark.parametrize("item,words", [
    ("hold.german=crossroad", "'crossroad' is not an objective of the scenario (its objectives: crossroads, "
                              "village house, wooded hill top; a hex as C:R) (did you mean 'crossroads'?)"),
    ("hold.german=crossroads+10:7", "objective '10:7' named twice"),
    ("hold.italian=crossroads", "write hold.SIDE (sides: german, soviet)"),
    ("hold=crossroads", "write hold.SIDE (sides: german, soviet)"),
])
def test_a_bad_hold_is_one_clear_error(item, words):
    with pytest.raises(InputError) as e:
        parse_vary([item], load_scenario("crossroads"))
    assert words in str(e.value)


def test_bad_hold_on_the_command_line_exits_2():
    res = CliRunner().invoke(main, ["assault", "scenario", "crossroads", "--vary", "hold.german=nowhere",
                                    "--games", "10"])
    assert res.exit_code == 2 and "hold.german" in res.output and "Traceback" not in res.output


def test_the_what_if_plays_the_games_of_the_edited_file(tmp_path):
    """The Skirmish whose Germans must hold both objectives, with ``--vary hold.german=4:2``,
    wins exactly the games the same file edited to ``hold = ["4,2"]`` wins on the same seeds."""
    shipped, edited = tmp_path / "both.scenario.toml", tmp_path / "one.scenario.toml"
    shipped.write_text(OUT_OF_REACH)
    edited.write_text(OUT_OF_REACH.replace('hold = ["4,2", "8,4"]', 'hold = ["4,2"]', 1))
    common = ["--games", "60", "--seed", "5", "--format", "json"]
    res = CliRunner().invoke(main, ["assault", "scenario", str(shipped), "--vary", "hold.german=4:2", *common])
    assert res.exit_code == 0, res.output
    variant = json.loads(res.stdout)["what_if"]["variants"][0]
    res = CliRunner().invoke(main, ["assault", "scenario", str(edited), *common])
    assert res.exit_code == 0, res.output
    alone = json.loads(res.stdout)
    assert variant["label"] == "hold.german=4:2"
    assert variant["wins"] == round(alone["win_rate"]["german"]["p"] * 60)
    for side in ("german", "soviet"):
        assert variant["win_rate"][side] == pytest.approx(alone["win_rate"][side]["p"])
    assert variant["wins"] > 0          # the Germans win games once the second hex is not required
