"""The shared run options on the simulating Assault commands (fire, smoke, terrain-damage,
melee): ``--workers`` does not change the numbers, ``--precision`` stops at the asked
width of the command's headline probability, ``--checkpoint`` resumes with the same
numbers, ``--dask local`` gives the same numbers as local threads.

Each command's headline (named in its --help):
fire -> P(eliminated); smoke -> P(at least one marker in the target hex);
terrain-damage -> P(immobilised); melee -> P(attacker holds).
"""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.games.assault.rules.melee.kernels import MELEE_CHUNK_TRIALS
from simulator.run.precision import PrecisionPlan, interval_width
from simulator.run.runner import DEFAULT_CHUNK_TRIALS

FIRE = ["assault", "fire", "german/rifles-41", "soviet/heavy-rifles-41", "--range", "3"]
# indirect fire at a vehicle (7.3): the general kernel, counts [event, target, friendly]
FIRE_INDIRECT = ["assault", "fire", "soviet/mortar-82mm", "german/pz-iif", "--range", "6", "--indirect"]
SMOKE = ["assault", "smoke", "soviet/mortar-82mm"]
TERRAIN = ["assault", "terrain-damage", "german/pz-iif", "--terrain", "forest"]
MELEE = ["assault", "melee", "soviet/rifles-41", "german/tank-hunters-41", "--terrain", "brush",
         "--defender-activated"]


def headline(name, obj):
    """The headline probability of a command's JSON answer."""
    if name.startswith("fire"):
        return obj["summary"]["p_eliminated"]
    if name == "smoke":
        return obj["per_hex"][0]["p_any"]
    if name == "terrain-damage":
        return obj["summary"]["p_immobilised"]
    return obj["summary"]["p_attacker_holds"]


COMMANDS = {"fire": FIRE, "smoke": SMOKE, "terrain-damage": TERRAIN, "melee": MELEE}
# Two chunks each, so that two workers really run chunks side by side.
TWO_CHUNKS = {"fire": DEFAULT_CHUNK_TRIALS + 50_000, "smoke": DEFAULT_CHUNK_TRIALS + 50_000,
              "terrain-damage": DEFAULT_CHUNK_TRIALS + 50_000, "melee": MELEE_CHUNK_TRIALS + 20_000}


def cli_json(*args):
    res = CliRunner().invoke(main, [*args, "--format", "json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout), res.stderr


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_workers_do_not_change_the_numbers(name):
    args = [*COMMANDS[name], "--trials", str(TWO_CHUNKS[name]), "--seed", "11"]
    one, _ = cli_json(*args, "--workers", "1")
    two, _ = cli_json(*args, "--workers", "2")
    assert one == two
    assert one["method"] == "monte-carlo" and one["trials"] == TWO_CHUNKS[name] and one["seed"] == 11
    other, _ = cli_json(*COMMANDS[name], "--trials", str(TWO_CHUNKS[name]), "--seed", "12", "--workers", "2")
    assert headline(name, other) != headline(name, one)      # the seed does matter


@pytest.mark.parametrize("name", sorted(COMMANDS) + ["fire-indirect"])
def test_precision_stops_at_the_width_of_the_headline(name):
    question = FIRE_INDIRECT if name == "fire-indirect" else COMMANDS[name]
    one, note = cli_json(*question, "--precision", "0.01", "--seed", "2", "--workers", "1")
    two, _ = cli_json(*question, "--precision", "0.01", "--seed", "2", "--workers", "2")
    assert one == two and one["method"] == "monte-carlo"
    n = one["trials"]
    p = headline(name, one)
    assert n < PrecisionPlan.for_width(0.01).cap             # stopped early, not at the bound
    assert interval_width(p * n, n) <= 0.01
    assert f"precision 0.01 reached after {n:,} trials" in note
    exact, _ = cli_json(*question)
    assert exact["method"] == "exact"
    want = headline(name, exact)
    assert abs(p - want) <= 4 * np.sqrt(want * (1 - want) / n) + 1e-12


def test_precision_with_a_trial_cap_says_it_was_not_reached():
    obj, note = cli_json(*MELEE, "--precision", "0.001", "--trials", "3000", "--seed", "1", "--workers", "1")
    assert obj["trials"] == 3000
    assert "precision 0.001 NOT reached (the trial cap came first) after 3,000 trials" in note


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_checkpoint_rerun_loads_the_chunks(name, tmp_path):
    args = [*COMMANDS[name], "--trials", str(TWO_CHUNKS[name]), "--seed", "4", "--checkpoint", str(tmp_path)]
    first, note1 = cli_json(*args, "--workers", "2")
    second, note2 = cli_json(*args, "--workers", "1")
    assert first == second
    assert "0 of 2 chunks loaded, 2 computed" in note1 and "2 of 2 chunks loaded, 0 computed" in note2
    assert len(list(tmp_path.glob("*/chunk-*"))) == 2


def test_melee_compare_editions_takes_the_run_options(tmp_path):
    args = [*MELEE, "--compare-editions", "--trials", "30000", "--seed", "6"]
    one, _ = cli_json(*args, "--workers", "1")
    two, note = cli_json(*args, "--workers", "2", "--checkpoint", str(tmp_path))
    assert one == two and one["editions"]["v1"]["trials"] == 30000
    assert "run" not in one["editions"]["v1"]                # how it was run is not part of the answer
    # v1, v2 and the v2 first round alone: three runs, three checkpoints
    assert note.count("0 of 1 chunks loaded") == 3 and len(list(tmp_path.iterdir())) == 3


@pytest.mark.parametrize("args", [FIRE, SMOKE, TERRAIN, MELEE])
def test_exact_and_precision_cannot_be_combined(args):
    res = CliRunner().invoke(main, [*args, "--exact", "--precision", "0.01"])
    assert res.exit_code == 2 and "--exact and --trials or --precision" in res.output


def test_dask_local_gives_the_local_numbers():
    args = [*TERRAIN, "--trials", str(TWO_CHUNKS["terrain-damage"]), "--seed", "9"]
    local, _ = cli_json(*args, "--workers", "1")
    dask, note = cli_json(*args, "--dask", "local", "--workers", "1")
    assert local == dask
    assert "ran on the Dask scheduler at tcp://127.0.0.1:" in note
