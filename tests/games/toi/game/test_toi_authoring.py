"""Tide of Iron's authoring tools (issue 43, item 4): ``toi new``, ``toi schema`` and its
shipped file, docs/toi-scenarios.md, fixed hexes for squads and vehicles (rulings T44),
the count and experience what-ifs (T45), restricted play (T46), ``--watch`` and
``toi replay --vary``."""

from __future__ import annotations

import json
import threading
import time
import tomllib
from pathlib import Path

import numpy as np
import pydantic
import pytest
from click.testing import CliRunner

from simulator.cli import main
from simulator.games.toi.game import tables as T
from simulator.games.toi.game.scenario import SCENARIO_DIR, ScenarioFile, load_scenario
from simulator.run.errors import InputError

ROOT = Path(__file__).resolve().parents[4]
SCHEMA = ROOT / "docs" / "toi-scenario.schema.json"
DOC = ROOT / "docs" / "toi-scenarios.md"
SHIPPED = sorted(SCENARIO_DIR.glob("*.scenario.toml"))
MG = 'figures = "2regular+mg"\nhex = "4,1"'        # the starter's fixed German machine gun


def _starter(tmp_path: Path, name: str = "farm") -> Path:
    res = CliRunner().invoke(main, ["toi", "new", str(tmp_path / name)])
    assert res.exit_code == 0, res.output
    return tmp_path / f"{name}.scenario.toml"


# --- schema and docs ------------------------------------------------------------------

def test_the_schema_command_writes_the_shipped_file(tmp_path):
    """``toi schema`` prints, and ``--out`` writes, exactly docs/toi-scenario.schema.json."""
    res = CliRunner().invoke(main, ["toi", "schema"])
    assert res.exit_code == 0, res.output
    assert res.output == SCHEMA.read_text()
    out = tmp_path / "s.json"
    assert CliRunner().invoke(main, ["toi", "schema", "--out", str(out)]).exit_code == 0
    assert out.read_text() == SCHEMA.read_text()
    bad = CliRunner().invoke(main, ["toi", "schema", "--out", str(tmp_path / "s.txt")])
    assert bad.exit_code == 2 and ".json" in bad.output


def test_the_schema_accepts_the_shipped_scenarios_and_the_starter_and_refuses_what_the_loader_refuses(tmp_path):
    """Both shipped scenarios (and the starter) validate; a misspelt key and a wrong type
    fail the schema and the loader alike (one model behind both)."""
    import jsonschema

    schema = json.loads(SCHEMA.read_text())
    validator = jsonschema.Draft202012Validator(schema)
    assert len(SHIPPED) == 2                               # two-farms, ridge-line
    for path in [*SHIPPED, _starter(tmp_path)]:
        errors = list(validator.iter_errors(tomllib.loads(path.read_text())))
        assert not errors, (path.name, [e.message for e in errors])
    raw = tomllib.loads((SCENARIO_DIR / "two-farms.scenario.toml").read_text())
    for broken in ({**raw, "rouns": 6}, {**raw, "rounds": "six"}, {**raw, "rounds": 31}):
        assert list(validator.iter_errors(broken))
        with pytest.raises(pydantic.ValidationError):
            ScenarioFile.model_validate(broken)


def _key_paths(model, prefix: str = "") -> set[str]:
    """Every key the loader accepts, as docs/toi-scenarios.md writes it: ``map.rows``,
    ``objectives[].vp``, ``sides.SIDE.squads[].hex``."""
    from typing import get_args, get_origin

    from pydantic import BaseModel

    out = set()
    for name, field in model.model_fields.items():
        path = prefix + name
        out.add(path)
        inner = [field.annotation, *get_args(field.annotation)]
        inner += [b for a in inner for b in get_args(a)]
        for sub in inner:
            if isinstance(sub, type) and issubclass(sub, BaseModel):
                is_list = get_origin(field.annotation) is list
                is_map = get_origin(field.annotation) is dict
                out |= _key_paths(sub, path + ("[]." if is_list else ".SIDE." if is_map else "."))
    return out


def test_every_key_the_loader_accepts_is_in_the_doc():
    keys = _key_paths(ScenarioFile)
    # the walk reaches the nested keys (a check of the walk itself)
    assert {"rounds", "map.legend", "objectives[].nation", "markers[].count", "rules.lower_hills_block",
            "sides.SIDE.squads[].hex", "sides.SIDE.vehicles[].hex", "verdict.margin"} <= keys
    text = DOC.read_text()
    missing = sorted(k for k in keys if f"`{k}`" not in text)
    assert not missing, f"docs/toi-scenarios.md lacks {missing}"


# --- toi new --------------------------------------------------------------------------

def test_new_writes_a_starter_that_checks(tmp_path):
    path = _starter(tmp_path)
    text = path.read_text()
    assert 'name = "Farm"' in text
    schema_line = text.splitlines()[0]
    assert schema_line.startswith("#:schema ") and not Path(schema_line[9:]).is_absolute()
    assert (path.parent / schema_line[9:]).resolve() == SCHEMA.resolve()
    res = CliRunner().invoke(main, ["toi", "check", str(path)])
    assert res.exit_code == 0 and "ok" in res.output, res.output
    again = CliRunner().invoke(main, ["toi", "new", str(tmp_path / "farm")])
    assert again.exit_code == 2 and "file exists (use --force to overwrite)" in again.output
    assert CliRunner().invoke(main, ["toi", "new", str(tmp_path / "farm"), "--force"]).exit_code == 0
    bad = CliRunner().invoke(main, ["toi", "new", str(tmp_path / "no such folder" / "x")])
    assert bad.exit_code == 2 and "does not exist" in bad.output
    bad = CliRunner().invoke(main, ["toi", "new", str(tmp_path / "a b")])
    assert bad.exit_code == 2 and "use letters, digits" in bad.output and "Traceback" not in bad.output


# --- fixed hexes (rulings T44) ----------------------------------------------------------

def _with(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def _load_text(tmp_path: Path, text: str):
    p = tmp_path / "x.scenario.toml"
    p.write_text(text)
    return load_scenario(str(p))


def test_a_fixed_hex_is_a_one_hex_zone_placed_first(tmp_path):
    """The starter's German machine gun (its first German entry, hex 4,1): its unit's zone
    holds exactly that hex; the German zone squad comes after it."""
    sc = load_scenario(str(_starter(tmp_path)))
    t = sc.tables
    german = [k for k in range(len(t.slots)) if t.slots[k, T.SL_SIDE] == 1]
    assert german == [3, 4]                                # 3 American squads first (1 + count 2)
    mg, rifles = german
    zone_hexes = np.nonzero((t.hexi[:, T.HI_ZONE] >> t.slots[mg, T.SL_ZONE]) & 1)[0]
    assert [sc.grid.names[h] for h in zone_hexes] == ["4,1"]
    assert sc.entries[mg] == ("german", "squads", 0) and sc.entries[rifles] == ("german", "squads", 1)
    # the zone squad first in the file, the fixed one second: the fixed one still gets the first German unit
    text = (tmp_path / "farm.scenario.toml").read_text()
    swapped = _with(_with(text, 'figures = "3regular"\nzone = "village"', 'figures = "3regular"\nhex = "4,1"'),
                    MG, 'figures = "2regular+mg"\nzone = "village"\n#')
    sc2 = _load_text(tmp_path, swapped)
    regular = sc2.figure_names.index("regular")
    assert sc2.entries[3] == ("german", "squads", 1) and sc2.tables.slots[3, T.SL_FIG + regular] == 3
    assert sc2.entries[4] == ("german", "squads", 0)


@pytest.mark.parametrize("new, key, words", [
    ('figures = "2regular+mg"\nhex = "9,1"', "sides.german.squads[0].hex", "'9,1' is not on the 8 x 6 map"),
    ('figures = "2regular+mg"\nzone = "village"\nhex = "4,1"', "sides.german.squads[0]",
     "give zone (a deployment zone) or hex (a fixed hex), one of them"),
    ('figures = "2regular+mg"\n#', "sides.german.squads[0]", "give zone (a deployment zone) or hex"),
    ('figures = "2regular+mg"\nhex = "2,0"', "sides.german.squads[0].hex", "no unit can be in 2,0 (pond; 001 Terrain)"),
    ('figures = "2regular+mg"\nhex = "1,5"', "sides.german", "fixed hex 1,5 lies in american's zone 'south'"),
    ('figures = "2regular+mg"\ncount = 4\nhex = "4,1"', "sides.german",
     "4 units (0 vehicles) set up in 4,1: at most 3 a hex, 2 of them vehicles"),
])
def test_a_fixed_hex_is_checked(tmp_path, new, key, words):
    text = _with(_starter(tmp_path).read_text(), MG, new)
    text = _with(text, '"w" = "woods"', '"w" = "pond"') if "2,0" in new else text     # 2,0: woods made a pond
    with pytest.raises(InputError) as e:
        _load_text(tmp_path, text)
    assert e.value.key == key and words in e.value.problem, e.value.one_line()


def test_both_sides_may_not_fix_the_same_hex(tmp_path):
    text = _with(_starter(tmp_path).read_text(), 'figures = "4regular"\ncount = 2\nzone = "south"',
                 'figures = "4regular"\ncount = 2\nhex = "0,0"')
    text = _with(text, MG, 'figures = "2regular+mg"\nhex = "0,0"')
    with pytest.raises(InputError) as e:
        _load_text(tmp_path, text)
    assert e.value.key == "sides.american" and "both sides have a fixed hex 0,0" in e.value.problem


def test_a_fixed_vehicle_hex_refuses_terrain_closed_to_vehicles(tmp_path):
    text = _starter(tmp_path).read_text() + '\n[[sides.german.vehicles]]\nmodel = "panzer_iv"\nhex = "2,0"\n'
    _load_text(tmp_path, text)                             # woods: a vehicle may be there
    deep = _with(text, '"w" = "woods"', '"w" = "stream_deep"')
    with pytest.raises(InputError) as e:
        _load_text(tmp_path, deep)
    assert e.value.key == "sides.german.vehicles[0].hex" and "no vehicle can be in 2,0 (stream_deep" in e.value.problem


# --- count and experience what-ifs (T45) ---------------------------------------------------

def test_count_and_experience_variants():
    from simulator.games.toi.game import variants as V

    sc = load_scenario("two-farms")                 # american: 3regular+officer, 3 x 4regular, 2regular+2mg
    assert len(sc.tables.slots) == 7                # 5 American squads and 2 German
    parsed = V.parse_vary(["count.american.4regular=1,0", "experience.german.2elite+mg=regular"], sc)
    assert parsed == [("count.american.4regular", [1, 0]), ("experience.german.2elite+mg", ["regular"])]
    assert len(V.variant(sc, "count.american.4regular", 1).tables.slots) == 5    # 7 - 2
    assert len(V.variant(sc, "count.american.squads[1]", 0).tables.slots) == 4   # 7 - 3: the entry dropped
    f = {name: i for i, name in enumerate(sc.figure_names)}
    row = sc.tables.slots[6]                         # the German machine-gun squad (2elite+mg since issue 41), the last unit
    assert (row[T.SL_FIG + f["elite"]], row[T.SL_FIG + f["regular"]], row[T.SL_FIG + f["mg"]]) == (2, 0, 1)
    rg = V.variant(sc, "experience.german.2elite+mg", "regular")
    row = rg.tables.slots[6]                         # its two elite riflemen regular again: the data before issue 41
    assert (row[T.SL_FIG + f["elite"]], row[T.SL_FIG + f["regular"]], row[T.SL_FIG + f["mg"]]) == (0, 2, 1)
    assert V.tune_values("count.american.4regular", sc) == [1, 2, 3, 4, 5, 6]    # 3 - 2 (floor 1) to 3 + 3


@pytest.mark.parametrize("item, words", [
    ("count.amerian.4regular=1", "unknown side 'amerian' (did you mean 'american'"),
    ("count.american.4reglar=1", "no squad or vehicle '4reglar' (did you mean '4regular'"),
    ("count.american=1", "write count.SIDE.UNIT"),
    ("count.american.4regular=41", "41 is out of range (0-40)"),
    ("count.german.squads[2]=1", "german has 2 squads entries (0-1)"),
    ("experience.american.4regular=veteran", "'veteran' is not a level (regular, elite"),
    ("cont.american.4regular=1", "unknown key (did you mean 'count'?)"),
])
def test_bad_what_ifs_are_one_line_errors(item, words):
    res = CliRunner().invoke(main, ["toi", "scenario", "two-farms", "--games", "5", "--vary", item])
    assert res.exit_code == 2 and words in res.output and "Traceback" not in res.output, res.output


def test_dropping_a_sides_only_squad_is_refused(tmp_path):
    from simulator.games.toi.game import variants as V

    sc = load_scenario(str(_starter(tmp_path)))
    two = _with((tmp_path / "farm.scenario.toml").read_text(),
                '[[sides.german.squads]]\nfigures = "3regular"\nzone = "village"\n', "")
    one = _load_text(tmp_path, two)
    with pytest.raises(InputError) as e:
        V.parse_vary(["count.german.2regular+mg=0"], one)
    assert "german would field no squad" in e.value.problem
    assert V.parse_vary(["count.german.2regular+mg=0"], sc)   # the starter's Germans keep their riflemen


# --- restricted play (T46) ------------------------------------------------------------------

def test_restrictions_parse_and_set_the_players_parameters():
    from simulator.engine.players.base import RS_CARDS, RS_KINDS
    from simulator.engine.players.interface import DEFAULT_PARAMS
    from simulator.games.toi.game import restrict as R
    from simulator.games.toi.game.state import K_ASSAULT

    sc = load_scenario("two-farms")
    a = R.parse_restriction("american:unit=4regular", sc)
    assert a.units == (1, 2, 3) and a.label == "american:unit=4regular"
    p = R.restricted_params(a, DEFAULT_PARAMS)
    assert p[RS_CARDS + 0] == 0b1110 and p[RS_CARDS + 1] == 0 and p[RS_KINDS + 0] == 0   # units 1-3 of side 0
    b = R.restricted_params(R.parse_restriction("german:assault", sc), DEFAULT_PARAMS)
    assert b[RS_KINDS + 1] == 1 << int(K_ASSAULT) and b[RS_CARDS + 1] == 0
    names = [x.what for x in R.every_restriction(sc, "american")]
    # three entries, then what Americans without mortars, engineers, medics, wire, vehicles or markers can do
    assert names == ["unit=3regular+officer", "unit=4regular", "unit=2regular+2mg", "assault", "concentrated-fire",
                     "fire-and-movement", "advance", "op-fire", "transfer"]
    ridge = load_scenario("ridge-line")              # wire, fortifications and a half-track: three more
    assert {"cut-wire", "fortification", "transport"} <= {x.what for x in R.every_restriction(ridge, "american")}


@pytest.mark.parametrize("args, words", [
    (["--restrict", "german:asault"], "unknown restriction 'asault' (did you mean 'assault'"),
    (["--restrict", "germn:assault"], "unknown side 'germn'"),
    (["--restrict", "german"], "write SIDE:WHAT"),
    (["--restrict", "german:unit=tiger"], "german has no squad or vehicle 'tiger'"),
    (["--restrict-all", "soviet"], "--restrict-all: soviet: unknown side 'soviet'"),
    (["--watch-max-runs", "2"], "--watch-max-runs needs --watch"),
])
def test_bad_restrictions_are_one_line_errors(args, words):
    res = CliRunner().invoke(main, ["toi", "scenario", "two-farms", "--games", "5", *args])
    assert res.exit_code == 2 and words in res.output and "Traceback" not in res.output, res.output


def test_restricted_play_pairs_the_games_and_a_restriction_of_nothing_changes_none(tmp_path):
    """Two restrictions on the main run's seeds: German ``heal`` (no medic: it forbids no
    action, so every game is the same, change 0, no game changed) and the American
    machine-gun squad never activated; each row pairs the 30 games of the main run; the
    report page has the restricted-play table."""
    res = CliRunner().invoke(main, ["toi", "scenario", "two-farms", "--games", "30", "--seed", "4", "--workers", "1",
                                   "--format", "json", "--restrict", "german:heal",
                                   "--restrict", "american:unit=2regular+2mg", "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout[res.stdout.index("{"):])
    heal, mg = report["restricted"]
    assert (heal["side"], heal["restriction"], mg["restriction"]) == ("german", "heal", "unit=2regular+2mg")
    assert heal["games"] == mg["games"] == 30 and heal["family_size"] == 2
    assert heal["games_changed"] == {"better": 0, "worse": 0} and heal["change"] == 0.0
    assert heal["win_rate"] == heal["base_win_rate"] == report["win_rate"]["german"]["p"]
    assert mg["base_win_rate"] == report["win_rate"]["american"]["p"]
    changed = mg["games_changed"]["better"] + mg["games_changed"]["worse"]
    assert mg["change"] == pytest.approx((mg["wins"] - round(30 * mg["base_win_rate"])) / 30)
    assert changed >= abs(mg["wins"] - round(30 * mg["base_win_rate"]))   # each changed win is a changed game
    assert "restricted play" in report["restricted_method"]
    page = (tmp_path / "rep" / "index.html").read_text()
    assert "Restricted play" in page and "unit=2regular+2mg" in page


# --- the fixed hex in play, replay --vary -------------------------------------------------

def test_the_fixed_squad_sets_up_at_its_hex_and_replay_takes_vary(tmp_path):
    from simulator.games.toi.game.events import EV_PLACE

    path = _starter(tmp_path)
    res = CliRunner().invoke(main, ["toi", "replay", str(path), "--seed", "1", "--game", "0", "--format", "json"])
    assert res.exit_code == 0, res.output
    game = json.loads(res.stdout[res.stdout.index("{"):])
    places = [e for e in game["events"] if e["event"] == EV_PLACE and e["turn"] == 0]
    assert len(places) == 5                                # 3 American and 2 German squads set up
    mg = [e for e in places if "squad 3 " in e["text"]]
    assert len(mg) == 1 and "4,1" in mg[0]["text"], mg
    varied = CliRunner().invoke(main, ["toi", "replay", str(path), "--seed", "1", "--game", "0", "--format", "json",
                                      "--vary", "count.american.4regular=1", "--vary", "rounds=3"])
    assert varied.exit_code == 0, varied.output
    v = json.loads(varied.stdout[varied.stdout.index("{"):])
    assert v["vary"] == ["count.american.4regular=1", "rounds=3"]
    assert len(v["final"]) == 4 and len(game["final"]) == 5       # one 4regular squad fewer
    assert v["turns"] <= 3
    bad = CliRunner().invoke(main, ["toi", "replay", str(path), "--seed", "1", "--game", "0", "--vary", "rounds=3,4"])
    assert bad.exit_code == 2 and "replay one value a key (got 2: 3, 4)" in bad.output


# --- --watch ---------------------------------------------------------------------------------

def test_watch_replays_on_save_and_survives_a_bad_save(tmp_path):
    """``toi scenario FILE --watch``: a run at once, a save that fails its check reported
    in one line, a good save played again with the change of the verdict; the report page
    rewritten each time (it reloads itself)."""
    path = _starter(tmp_path)
    good = path.read_text()
    out = tmp_path / "out"

    def editor():
        deadline = time.time() + 900
        while not (out / "index.html").exists() and time.time() < deadline:
            time.sleep(0.2)
        path.write_text(good.replace("rounds = 5 ", "rouns = 5 "))         # a misspelt key: the check fails
        time.sleep(3)
        path.write_text(good.replace("rounds = 5 ", "rounds = 4 "))
    thread = threading.Thread(target=editor, daemon=True)
    thread.start()
    res = CliRunner().invoke(main, ["toi", "scenario", str(path), "--games", "12", "--seed", "2", "--workers", "1",
                                   "--watch", "--watch-max-runs", "3", "--out", str(out)])
    thread.join(5)
    assert res.exit_code == 0, res.output
    lines = [x for x in res.output.splitlines() if x.startswith("verdict (")]
    assert len(lines) == 2, res.output                     # the first run and the third (the second failed)
    assert "->" not in lines[0] and "->" in lines[1] and "paired change" in lines[1]
    assert "lanchester: error: " in res.output and "rounds: required key is missing" in res.output
    assert 'http-equiv="refresh"' in (out / "index.html").read_text()


def _events_of(params, seeds=range(4)) -> np.ndarray:
    """The event logs of random-against-random games of Two Farms played with ``params``,
    stacked: rows (code, round, unit, ...)."""
    from simulator.engine.players.interface import RANDOM, choose_quick, make_work
    from simulator.games.toi.game import state as S
    from simulator.games.toi.game.game import Game, State

    game = Game("two-farms")
    w = make_work(game)
    logs = []
    for seed in seeds:
        st = State(game, seed, 0, log=True)
        while not st.is_terminal():
            side = st.current_player()
            st.apply_action(int(choose_quick(st.s, game.tables, np.int64(RANDOM), np.int64(side), w, params)))
        logs.append(st.s.log[: int(st.s.g[S.G_LOGN])].copy())
    return np.concatenate(logs)


def test_a_restriction_in_play_forbids_what_it_names():
    """Random players, the same seeds: unrestricted, the Americans set op fire and fire
    it, and activate their machine-gun squad (unit 4); with ``american:op-fire`` no
    American unit is ever put in op fire mode or fires op fire, and with
    ``american:unit=2regular+2mg`` unit 4 is never activated."""
    from simulator.engine.players.interface import DEFAULT_PARAMS
    from simulator.games.toi.game import restrict as R
    from simulator.games.toi.game.events import EV_ACTIVATE, EV_OPFIRE, EV_OPFIRE_SET

    sc = load_scenario("two-farms")
    american = {k for k in range(len(sc.tables.slots)) if sc.tables.slots[k, T.SL_SIDE] == 0}   # units 0-4

    def count(log, codes, units):
        return int((np.isin(log[:, 0], codes) & np.isin(log[:, 2], list(units))).sum())
    free = _events_of(DEFAULT_PARAMS)
    no_opfire = _events_of(R.restricted_params(R.parse_restriction("american:op-fire", sc), DEFAULT_PARAMS))
    no_mg = _events_of(R.restricted_params(R.parse_restriction("american:unit=2regular+2mg", sc), DEFAULT_PARAMS))
    assert count(free, [EV_OPFIRE, EV_OPFIRE_SET], american) > 0 and count(no_opfire, [EV_OPFIRE, EV_OPFIRE_SET],
                                                                          american) == 0
    assert count(free, [EV_ACTIVATE], {4}) > 0 and count(no_mg, [EV_ACTIVATE], {4}) == 0
    assert count(no_mg, [EV_ACTIVATE], american - {4}) > 0      # the other American squads still act
