"""``lanchester toi ...``: Tide of Iron odds (fire, assault, minefield) and the roster."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:   # annotations only: the modules load when a command runs
    import pandas as pd

from simulator import cliopts
from simulator.errors import InputError
from simulator.vocabulary import HIT_POLICIES

data_files = [
    click.option("--units-file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                 help="Roster to use instead of scenarios/toi/units.toml."),
    click.option("--terrain-file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                 help="Terrain to use instead of scenarios/toi/terrain.toml."),
]


def with_data_files(f):
    for opt in reversed(data_files):
        f = opt(f)
    return f


@click.group("toi")
def toi() -> None:
    """Tide of Iron: odds of ranged fire, assaults and minefields; the roster.

    \b
    Examples:
      lanchester toi fire --attack-strength 6 --defence-strength 2 --range normal --target squad:4
      lanchester toi fire --attacker sherman --target tiger --distance 4
      lanchester toi assault --attacker squad:4regular --defender squad:3regular:entrenchment
      lanchester toi units
    """


def _run_options(exact, trials, seed, run_options, progress):
    from simulator.runner import fresh_seed

    monte_carlo = cliopts.wants_monte_carlo(exact, trials, run_options)
    if monte_carlo and seed is None:
        seed = fresh_seed()  # reported, and one seed for every target of an area attack
    return {"trials": trials if monte_carlo else None, "seed": seed,
            "options": run_options.with_progress(progress)}


def _how(a) -> str:
    if a["method"] == "monte-carlo":
        return f"Monte Carlo, {a['trials']:,} trials, seed {a['seed']}"
    return "exact"


def _se(a, key):
    return a["summary"].get("se", {}).get(key) if a["method"] == "monte-carlo" else None


# ---------------------------------------------------------------- fire

def fire_json(frame: pd.DataFrame) -> dict:
    a = frame.attrs
    keys = ["hits", "p"] + (["se"] if "se" in frame else [])
    states = [{"state": s["state"], "p": a["summary"][s["key"]]}
              | ({"se": a["summary"]["se"][s["key"]]} if "se" in a["summary"] else {}) for s in a["states"]]
    return {k: a[k] for k in ("method", "trials", "seed", "data", "data_digest", "attack_strength",
                              "defence_strength", "range", "success_on", "defence_success_on", "mode", "area",
                              "thick_armour", "armour", "cover", "kind", "target", "contributions", "notes")} | {
        "unaffected": a.get("unaffected", []), "wire_roll": a.get("wire_roll"),
        "hits": [{k: (int(r[k]) if k == "hits" else float(r[k])) for k in keys} for r in frame.to_dict("records")],
        "states": states, "summary": a["summary"]}


def _contribution_lines(a) -> list[str]:
    lines = []
    for c in a["contributions"]:
        how = "full" if not c["halvings"] else "half: " + "; ".join(c["halvings"])
        lines.append(f"  {c['role']:7s} {c['unit']}: FPR {c['fpr']} ({how}) -> {c['strength']}; "
                     f"range {c['range']} at {c['distance']} hex{'es' if c['distance'] != 1 else ''} = {c['band']}")
        lines += [f"          {n}" for n in c["notes"]]
    return lines


def fire_table(frame: pd.DataFrame) -> str:
    from simulator.output import pct
    from simulator.stats import at_least

    a = frame.attrs
    mc = a["method"] == "monte-carlo"
    kind = {"area": f"area attack ({a['mode']})", "minefield": "minefield entry"}.get(a["kind"], f"{a['mode']} attack")
    lines = [f"Tide of Iron {kind} ({_how(a)})", f"data: {a['data']}", ""]
    lines.append(f"attack strength {a['attack_strength']}")
    lines += _contribution_lines(a)
    defence = f"defence strength {a['defence_strength']}"
    if a["contributions"]:
        defence += f" = armour {a['armour']} + cover {a['cover']}"
    lines.append(defence + ("; thick armour (one red die may be turned to 6)" if a["thick_armour"] else ""))
    lines += [f"  {n}" for n in a["notes"]]
    if a["kind"] != "minefield":
        lines.append(f"range {a['range']}: black dice hit on {a['success_on']}, "
                     f"red dice cancel on {a['defence_success_on']}")
    if a["target"]:
        lines.append(f"target: {a['target']}")
    lines += ["", "hits   P(exactly)         P(at least)"]
    p = frame["p"].to_numpy()
    for k, (pk, ak) in enumerate(zip(p, at_least(p), strict=True)):
        se = frame["se"].iloc[k] if mc else None
        lines.append(f"{k:4d}   {pct(pk, se):17s}  {pct(ak)}")
    s = a["summary"]
    lines += ["", f"mean hits {s['mean_hits']:.4f}" + (f" ±{_se(a, 'mean_hits'):.4f}" if mc else "")
              + f"   P(at least one hit) {pct(s['p_hit'], _se(a, 'p_hit'))}"]
    if a["states"]:
        lines.append("target afterwards:")
        lines += [f"  {st['state']:12s} {pct(s[st['key']], _se(a, st['key']))}" for st in a["states"]]
        if "mean_figures_lost" in s:
            lines.append(f"  mean figures lost {s['mean_figures_lost']:.4f}"
                         + (f" ±{_se(a, 'mean_figures_lost'):.4f}" if mc else ""))
    if "p_wire_removed" in s:
        roll = f", the hex's roll against {a['wire_roll']}" if a.get("wire_roll") else ""
        lines.append(f"P(razor wire removed{roll}) {pct(s['p_wire_removed'], _se(a, 'p_wire_removed'))}")
    lines += [f"not attacked: {u}" for u in a.get("unaffected", [])]
    return "\n".join(lines) + "\n"


def _area_frame(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """One tidy table for an area attack on several units: a ``target`` column added."""
    import pandas as pd

    return pd.concat([f.assign(target=f.attrs["target"]) for f in frames], ignore_index=True)


@toi.command("fire")
@click.option("--attack-strength", type=int, default=None, metavar="N", help="Black dice (strength mode).")
@click.option("--defence-strength", type=int, default=None, metavar="N", help="Red dice (strength mode; default 0).")
@click.option("--range", "band", type=click.Choice(["close", "normal", "long"]), default=None,
              help="Range band (strength mode).")
@click.option("--area", is_flag=True, help="Area attack: hits on 5-6, 6 at long range (strength mode).")
@click.option("--thick-armour", is_flag=True, help="Target has thick armour (strength mode).")
@click.option("--attacker", default=None, metavar="UNIT", help="Leading unit (unit mode), e.g. squad:3regular+officer.")
@click.option("--supporter", multiple=True, metavar="UNIT", help="Supporting unit (combined fire); repeatable.")
@click.option("--target", multiple=True, metavar="UNIT",
              help="Target: squad:FIGURES[:CONDITION] | vehicle[:DAMAGE] | a unit spec. "
                   "Repeat for the units of a hex under an area attack (unit mode).")
@click.option("--distance", type=int, default=1, show_default=True, metavar="D",
              help="Hexes to the target (unit mode).")
@click.option("--terrain", default=None, metavar="NAME", help="Target hex terrain, e.g. woods (unit mode).")
@click.option("--smoke", is_flag=True, help="Smoke in the target hex (unit mode).")
@click.option("--cover", type=int, default=0, metavar="N", help="Extra cover for the target (unit mode).")
@click.option("--mode", type=click.Choice(["normal", "suppressive"]), default="normal", show_default=True)
@click.option("--fire-and-movement", is_flag=True, help="Leading unit fires during Fire & Movement (unit mode).")
@click.option("--support-abilities/--no-support-abilities", default=None,
              help="Whether flamethrower and concussive firepower work for supporting units "
                   "(default: as units.toml says; docs/rulings.md T4).")
@cliopts.exact
@cliopts.trials
@cliopts.seed
@cliopts.monte_carlo
@with_data_files
@cliopts.fmt
@cliopts.report_out
def fire_command(attack_strength, defence_strength, band, area, thick_armour, attacker, supporter, target, distance,
                 terrain, smoke, cover, mode, fire_and_movement, support_abilities, exact, trials, seed, run_options,
                 units_file, terrain_file, fmt, out):
    """Odds of a ranged attack (001 Resolving an attack), from strengths or from units.

    Strength mode: give --attack-strength, --defence-strength and --range.
    Unit mode: give --attacker (and --supporter ...), --target and --distance;
    strengths, range, cover and every modifier are worked out and shown.

    Unit specs: squad:3regular+officer, squad:2elite+2regular:medic:pinned,
    sherman, tiger:light, vehicle:heavy. Tags: pinned, disrupted, light, heavy,
    engineer, anti-tank, flamethrower, medic, any terrain feature (woods,
    entrenchment, pillbox, smoke, wire, minefield, building), higher,
    with-officer, with-medic, fatigued, op-fire, dist=N. What the rules
    forbid (Fire & Movement with a heavy weapon, a fatigued or op-fire unit
    attacking, smoke on a building, ...) is refused (docs/rulings.md T19, T20).

    \b
    Examples:
      lanchester toi fire --attack-strength 6 --defence-strength 2 --range normal --target squad:4
      lanchester toi fire --attack-strength 5 --defence-strength 3 --range close \\
          --mode suppressive --target squad:4:pinned
      lanchester toi fire --attacker squad:3regular+mg --supporter squad:4regular:dist=3 \\
          --target squad:4elite --distance 4 --terrain woods --mode suppressive
      lanchester toi fire --attacker sherman --target tiger --distance 4 --trials 1000000 --seed 7
      lanchester toi fire --attacker squad:2mortar --target squad:4regular:woods --target sdkfz_251:woods \\
          --distance 6 --mode normal
    """
    from reports import toi as toi_reports
    from reports.bundle import emit_report
    from simulator.runner import fresh_seed
    from simulator.toi.data import load_game
    from simulator.toi.questions import fire_from_strengths, fire_on_hex

    game = load_game(units_file, terrain_file)
    files = {"units_file": units_file, "terrain_file": terrain_file}   # for the report's provenance
    run = _run_options(exact, trials, seed, run_options, "fire")
    if attacker is not None:
        for name, value in (("--attack-strength", attack_strength), ("--defence-strength", defence_strength),
                            ("--range", band)):
            if value is not None:
                raise InputError(name, "", "give either strengths (strength mode) or --attacker (unit mode), not both")
        if area or thick_armour:
            raise InputError("--area" if area else "--thick-armour", "", "in unit mode this comes from the units")
        if not target:
            raise InputError("--target", "", "unit mode needs a target")
        if run["trials"] is not None and seed is None:
            run["seed"] = fresh_seed()  # one seed for every target of an area attack
        frames = fire_on_hex(attacker, target, supporters=supporter, distance=distance, mode=mode, terrain=terrain,
                             smoke=smoke, cover=cover, fire_and_movement=fire_and_movement,
                             support_abilities=support_abilities, game=game, **run)
        if len(frames) > 1:
            emit_report(fmt, out, table="\n".join(fire_table(f) for f in frames), frame=_area_frame(frames),
                        obj=fire_json(frames[0]) | {"targets": [fire_json(f) for f in frames]},
                        report=lambda: toi_reports.fire_report(frames, **files))
            return
        frame = frames[0]
    else:
        if len(target) > 1:
            raise InputError("--target", "", "strength mode takes one target")
        target = target[0] if target else None
        if attack_strength is None or band is None:
            raise InputError("--attack-strength" if attack_strength is None else "--range", "",
                             "strength mode needs --attack-strength and --range (or use --attacker)")
        if supporter or terrain or smoke or cover or fire_and_movement:
            raise InputError("--attacker", "", "--supporter, --terrain, --smoke, --cover and --fire-and-movement "
                             "need unit mode (--attacker)")
        frame = fire_from_strengths(attack_strength, defence_strength or 0, band, mode=mode, target=target,
                                    area=area, thick_armour=thick_armour, game=game, **run)
    emit_report(fmt, out, table=fire_table(frame), frame=frame, obj=fire_json(frame),
                report=lambda: toi_reports.fire_report([frame], **files))


@toi.command("minefield")
@click.option("--target", required=True, metavar="UNIT", help="Unit entering the minefield, e.g. squad:4regular.")
@cliopts.exact
@cliopts.trials
@cliopts.seed
@cliopts.monte_carlo
@with_data_files
@cliopts.fmt
@cliopts.report_out
def minefield_command(target, exact, trials, seed, run_options, units_file, terrain_file, fmt, out):
    """Odds for a unit entering a minefield (001 Minefields): 4 dice, 4-6, no defence.

    Engineers do not roll.

    \b
    Examples:
      lanchester toi minefield --target squad:4regular
      lanchester toi minefield --target m3a1_halftrack --format json
    """
    from reports import toi as toi_reports
    from reports.bundle import emit_report
    from simulator.toi.data import load_game
    from simulator.toi.questions import minefield

    game = load_game(units_file, terrain_file)
    frame = minefield(target, game=game, **_run_options(exact, trials, seed, run_options, "minefield"))
    emit_report(fmt, out, table=fire_table(frame), frame=frame, obj=fire_json(frame),
                report=lambda: toi_reports.fire_report([frame], units_file=units_file, terrain_file=terrain_file))


# ---------------------------------------------------------------- assault

def assault_json(frame: pd.DataFrame) -> dict:
    a = frame.attrs
    keys = ["attacker_hits", "defender_hits", "p"] + (["se"] if "se" in frame else [])
    return {k: a[k] for k in ("method", "trials", "seed", "data", "data_digest", "attack_strength",
                              "defender_strength", "defence_strength", "range", "success_on",
                              "defence_success_on", "parts", "cover_notes", "retreat_space", "hit_policy",
                              "hits", "defender_hits")} | {
        "outcomes": [{k: (int(r[k]) if k.endswith("hits") else float(r[k])) for k in keys}
                     for r in frame.to_dict("records")],
        "summary": a["summary"], "defenders": a["defenders"]}


def _part_lines(a) -> list[str]:
    lines = []
    for p in a["parts"]:
        how = "full" if not p["halvings"] else "; ".join(p["halvings"])
        lines.append(f"  {p['role']:8s} {p['unit']}: FPR {p['fpr']} ({how}) -> {p['strength']}"
                     + "".join(f"; {n}" for n in p["notes"]))
    return lines


def _pmf_lines(a, mc) -> list[str]:
    from simulator.output import pct

    att, dfn = a["hits"], a["defender_hits"]
    lines = ["hits   attacker's hits      defender's hits"]
    for k in range(max(len(att), len(dfn))):
        x = pct(att[k]["p"], att[k].get("se")) if k < len(att) else ""
        y = pct(dfn[k]["p"], dfn[k].get("se")) if k < len(dfn) else ""
        lines.append(f"{k:4d}   {x:19s}  {y}")
    return lines


def assault_table(frame: pd.DataFrame) -> str:
    from simulator.output import pct

    a, s = frame.attrs, frame.attrs["summary"]
    mc = a["method"] == "monte-carlo"
    lines = [f"Tide of Iron assault ({_how(a)})", f"data: {a['data']}", "",
             f"attack strength {a['attack_strength']} (black dice hit on 4-6), "
             f"defender strength {a['defender_strength']}, cover dice {a['defence_strength']} (cancel on 5-6)"]
    lines += _part_lines(a)
    lines += [f"  cover: {n}" for n in a["cover_notes"]]
    spare = "figures" if a["hit_policy"] == "vehicles-first" else "vehicles"
    lines += [f"retreat room {a['retreat_space']} unit(s); the defender chooses his hits and who retreats, "
              f"sparing {spare} first ({a['hit_policy']})", ""]
    lines += _pmf_lines(a, mc) + [""]
    rows = [("P(assault succeeds)", "p_success"), ("P(active squad eliminated)", "p_active_eliminated"),
            ("P(all defenders destroyed)", "p_defenders_eliminated")]
    lines += [f"{name:30s} {pct(s[key], _se(a, key))}" for name, key in rows]
    means = [("mean attacker hits", "mean_attacker_hits"), ("mean defender hits", "mean_defender_hits"),
             ("mean attacker losses", "mean_attacker_losses"), ("mean defender losses (hits)", "mean_defender_losses"),
             ("mean defender figures lost", "mean_defender_figures_lost")]
    lines += [f"{name:30s} {s[key]:.4f}" + (f" ±{_se(a, key):.4f}" if mc else "") for name, key in means]
    lines.append("defenders afterwards:")
    for d in a["defenders"]:
        se = d.get("se", {})
        bits = [f"{k[2:]} {pct(v, se.get(k)).strip()}" if k.startswith("p_") else
                f"{k.replace('_', ' ')} {v:.3f}" + (f" ±{se[k]:.3f}" if k in se else "")
                for k, v in d.items() if k not in ("unit", "se")]
        lines.append(f"  {d['unit']}: " + ", ".join(b.replace("_", " ") for b in bits))
    return "\n".join(lines) + "\n"


def _replay_faces(text: str) -> tuple[list[int], list[int], list[int]]:
    parts = text.split("/")
    if len(parts) != 3:
        raise InputError("--replay", "", "give three lists of faces: ATTACK/COVER/DEFENDER, e.g. '6,5,4/5/4,1'")
    try:
        return tuple([int(x) for x in p.replace(" ", ",").split(",") if x.strip()] for p in parts)  # type: ignore
    except ValueError:
        raise InputError("--replay", "", f"faces must be numbers 1-6 (got {text!r})") from None


def replay_text(setup, result) -> str:
    lines = [f"assault replayed: attacker {result.attacker_hits} hits, defender {result.defender_hits} hits: "
             + ("success, the defender retreats" if result.success else "repulsed (ties go to the defender)")]
    for sq, lost in zip(setup.attackers, result.attacker_losses, strict=True):
        lines.append(f"  attacker {sq.spec}: loses {lost} figure(s), {sq.size - lost} left")
    for lab, o in zip(setup.labels, result.defenders, strict=True):
        state = (f"destroyed ({o.destroyed_by})" if o.destroyed else
                 (o.damage if o.damage != "-" else f"{o.figures_left} left, {o.condition}"))
        lines.append(f"  defender {lab}: takes {o.hits} hit(s): {state}" + (", retreats" if o.retreated else ""))
    return "\n".join(lines) + "\n"


def replay_json(result) -> dict:
    return {"method": "replay", "attacker_hits": result.attacker_hits, "defender_hits": result.defender_hits,
            "success": result.success, "attacker_losses": list(result.attacker_losses),
            "defenders": [vars(o) for o in result.defenders]}


@toi.command("assault")
@click.option("--attacker", required=True, metavar="SQUAD", help="The active squad, e.g. squad:4regular.")
@click.option("--supporter", multiple=True, metavar="SQUAD", help="Supporting squad (up to two).")
@click.option("--defender", multiple=True, required=True, metavar="UNIT",
              help="A unit in the assaulted hex (squads, light vehicles); repeatable.")
@click.option("--terrain", default=None, metavar="NAME", help="Terrain of the assaulted hex (e.g. woods).")
@click.option("--smoke", is_flag=True, help="Smoke in the assaulted hex.")
@click.option("--wire", is_flag=True, help="Razor wire in the assaulted hex (defending squads at half FPR).")
@click.option("--minefield", "mines", is_flag=True, help="Minefield in the assaulted hex (defenders at half FPR).")
@click.option("--cover", type=int, default=0, metavar="N", help="Extra cover dice.")
@click.option("--retreat-space", type=int, default=3, show_default=True, metavar="N",
              help="Units the best retreat hex can still take (0: no retreat hex, all destroyed).")
@click.option("--hits-to", "hit_policy", type=click.Choice(HIT_POLICIES), default="vehicles-first",
              show_default=True, help="Which the defender values more when he chooses his casualties: "
                                      "vehicles-first spares figures, squads-first spares vehicles "
                                      "(docs/rulings.md T13).")
@click.option("--replay", "replay_dice", default=None, metavar="A/C/D",
              help="Resolve one assault from rolled faces: attack dice / cover dice / defender dice.")
@cliopts.exact
@cliopts.trials
@cliopts.seed
@cliopts.monte_carlo
@with_data_files
@cliopts.fmt
@cliopts.report_out
def assault_command(attacker, supporter, defender, terrain, smoke, wire, mines, cover, retreat_space, hit_policy,
                    replay_dice, exact, trials, seed, run_options, units_file, terrain_file, fmt, out):
    """Odds of an assault (002; 001 Assault attacks): success, hits, losses, retreat.

    \b
    Examples:
      lanchester toi assault --attacker squad:4regular --supporter squad:4regular \\
          --supporter squad:3regular:fatigued --defender squad:3regular:entrenchment --defender sdkfz_251
      lanchester toi assault --attacker squad:4regular:flamethrower --defender squad:4regular:pillbox --terrain woods
      lanchester toi assault --attacker squad:4regular --defender squad:2regular:pinned \\
          --retreat-space 0 --trials 1000000
      lanchester toi assault --attacker squad:4regular --supporter squad:4regular --supporter squad:3regular \\
          --defender squad:3regular:entrenchment --defender sdkfz_251 --replay 6,5,4,4,6,5,2,1/5,3/4,6,1,2,3,1,2
    """
    import pandas as pd

    from reports import toi as toi_reports
    from reports.bundle import emit_report
    from simulator.toi.assault import build_assault, replay
    from simulator.toi.data import load_game
    from simulator.toi.questions import assault, hex_features_of
    from simulator.toi.units import parse_unit

    game = load_game(units_file, terrain_file)
    files = {"units_file": units_file, "terrain_file": terrain_file}   # for the report's provenance
    extra = ("razor_wire",) * wire + ("minefield",) * mines
    setup = build_assault(game, parse_unit(attacker, game, "--attacker"),
                          [parse_unit(s, game, "--supporter") for s in supporter],
                          [parse_unit(d, game, "--defender") for d in defender],
                          hex_features=hex_features_of(terrain, smoke, game, extra), extra_cover=cover,
                          retreat_space=retreat_space, hit_policy=hit_policy)
    if replay_dice is not None:
        result = replay(setup, *_replay_faces(replay_dice))
        obj = replay_json(result)
        frame = pd.DataFrame([{"attacker_hits": result.attacker_hits, "defender_hits": result.defender_hits,
                               "success": result.success}])
        emit_report(fmt, out, table=replay_text(setup, result), frame=frame, obj=obj,
                    report=lambda: toi_reports.replay_report(frame, obj, **files))
        return
    frame = assault(setup, game=game, **_run_options(exact, trials, seed, run_options, "assault"))
    emit_report(fmt, out, table=assault_table(frame), frame=frame, obj=assault_json(frame),
                report=lambda: toi_reports.assault_report(frame, **files))


# ---------------------------------------------------------------- roster

def _v(stat) -> str:
    return f"{stat.value}{'*' if stat.reconstructed else ''}"


def roster_frame(game) -> pd.DataFrame:
    import pandas as pd

    rows = []
    for key, f in game.units.figures.items():
        rows.append({"id": key, "kind": "figure", "name": f.name, "inf_range": _v(f.infantry.range),
                     "inf_fpr": _v(f.infantry.fpr), "veh_range": _v(f.vehicle.range), "veh_fpr": _v(f.vehicle.fpr),
                     "movement": _v(f.movement), "armour": "", "traits": " ".join(f.traits.value)})
    for key, v in game.units.vehicles.items():
        thick = ["thick_armour" + ("*" if v.thick_armour.reconstructed else "")] if v.thick_armour.value else []
        rows.append({"id": key, "kind": f"{v.weight.value} vehicle ({v.nation})", "name": v.name,
                     "inf_range": _v(v.infantry.range), "inf_fpr": _v(v.infantry.fpr),
                     "veh_range": _v(v.vehicle.range), "veh_fpr": _v(v.vehicle.fpr), "movement": _v(v.movement),
                     "armour": _v(v.armour),
                     "traits": " ".join(v.traits.value + thick)})
    return pd.DataFrame(rows)


SWITCHES = ("when_supporting", "assault_cover")   # readings kept as data (docs/rulings.md T4, T11)


def readings_frame(game) -> pd.DataFrame:
    """Every reconstructed value and every reading kept as data: its value and the other reading."""
    import pandas as pd

    rows = []

    def walk(node, path):
        if isinstance(node, dict):
            if "value" in node and "source" in node and (node.get("reconstructed") or node.get("alternative")
                                                         is not None or path.rsplit(".", 1)[-1] in SWITCHES):
                alt = node.get("alternative")
                rows.append({"key": path, "value": str(node["value"]).lower(),
                             "alternative": "" if alt is None else str(alt).lower(),
                             "reconstructed": bool(node.get("reconstructed")), "source": node["source"]})
                return
            for k, v in node.items():
                walk(v, f"{path}.{k}" if path else k)
    walk(game.units.model_dump(), "")
    return pd.DataFrame(rows)


@toi.command("units")
@with_data_files
@cliopts.fmt
@cliopts.report_out
def units_command(units_file, terrain_file, fmt, out):
    """The roster: range and FPR vs infantry / vs vehicles, movement, armour, traits.

    Values marked * were reconstructed from a garbled stat block (see the source
    notes in scenarios/toi/units.toml).

    \b
    Examples:
      lanchester toi units
      lanchester toi units --format csv
    """
    import pandas as pd

    from reports import toi as toi_reports
    from reports.bundle import emit_report
    from simulator.toi.data import load_game

    game = load_game(units_file, terrain_file)
    frame = roster_frame(game)
    table = frame.to_string(index=False) + "\n\n* reconstructed value; see scenarios/toi/units.toml\n"
    readings = readings_frame(game)
    table += ("\nreconstructed values and readings kept as data (write the alternative as the value to switch;\n"
              "sources and reasoning in units.toml, docs/rulings.md)\n"
              + readings[["key", "value", "alternative"]].to_string(index=False) + "\n")
    features = [{"id": k, "kind": f.kind, "cover": str(f.cover.value) if f.cover else "as main terrain",
                 "cover_for": f.cover_for,
                 "assault_cover": f.assault_cover, "halves_fpr_of": f.halves_fpr_of,
                 "closed_to": f.closed_to, "smoke": "never" if f.no_smoke else "may"} for k, f in
                game.terrain.features.items()]
    table += "\nterrain features\n" + pd.DataFrame(features).to_string(index=False) + "\n"
    obj = {"units": game.units.model_dump(), "terrain": game.terrain.model_dump(), "digest": game.digest,
           "readings": readings.to_dict("records")}
    emit_report(fmt, out, table=table, frame=frame, obj=obj,
                report=lambda: toi_reports.units_report(frame, units_file=units_file, terrain_file=terrain_file))
