"""``lanchester toi fire``: the odds of a ranged attack, from strengths or from units."""

from __future__ import annotations

import click

from simulator import cliopts
from simulator.run.errors import InputError


@click.command("fire")
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
@cliopts.toi_data_files
@cliopts.fmt
@cliopts.out
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
    from reports.bundle import emit_report
    from simulator.games.toi.questions.odds import fire_from_strengths, fire_on_hex
    from simulator.games.toi.report import bundles as toi_reports
    from simulator.games.toi.report.text import area_frame, fire_json, fire_table
    from simulator.games.toi.rules.data import load_game

    game = load_game(units_file, terrain_file)
    files = {"units_file": units_file, "terrain_file": terrain_file}   # for the report's provenance
    run = cliopts.run_arguments(exact, trials, seed, run_options, "fire")
    if attacker is not None:
        for name, value in (("--attack-strength", attack_strength), ("--defence-strength", defence_strength),
                            ("--range", band)):
            if value is not None:
                raise InputError(name, "", "give either strengths (strength mode) or --attacker (unit mode), not both")
        if area or thick_armour:
            raise InputError("--area" if area else "--thick-armour", "", "in unit mode this comes from the units")
        if not target:
            raise InputError("--target", "", "unit mode needs a target")
        frames = fire_on_hex(attacker, target, supporters=supporter, distance=distance, mode=mode, terrain=terrain,
                             smoke=smoke, cover=cover, fire_and_movement=fire_and_movement,
                             support_abilities=support_abilities, game=game, **run)
        if len(frames) > 1:
            emit_report(fmt, out, table="\n".join(fire_table(f) for f in frames), frame=area_frame(frames),
                        obj=fire_json(frames[0]) | {"targets": [fire_json(f) for f in frames]},
                        report=lambda: toi_reports.fire_report(frames, **files))
            return
        answer = frames[0]
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
        answer = fire_from_strengths(attack_strength, defence_strength or 0, band, mode=mode, target=target,
                                     area=area, thick_armour=thick_armour, game=game, **run)
    emit_report(fmt, out, table=fire_table(answer), frame=answer.frame(), obj=fire_json(answer),
                report=lambda: toi_reports.fire_report([answer], **files))
