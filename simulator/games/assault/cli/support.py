"""``lanchester assault smoke`` (7.5) and ``lanchester assault terrain-damage`` (9.10.1, 9.10.2)."""

from __future__ import annotations

import click

from simulator import cliopts
from simulator.games.assault.cli.fire import question_options
from simulator.run.vocabulary import EXPERIENCE_LEVELS

EXPERIENCE = click.Choice(EXPERIENCE_LEVELS)


@click.command("smoke")
@click.argument("firer")
@click.option("--hexes", type=click.IntRange(1, 3), default=3, show_default=True,
              help="How many hexes the player will smoke: the target hex and up to two adjacent (7.5).")
@click.option("--range", "range_", type=int, default=None, metavar="N",
              help="Range to the target hex; checked against the indirect-fire band (7.1).")
@click.option("--firer-terrain", default=None, metavar="T", help="Firer's hex terrain (7.1).")
@click.option("--firer-damage", type=int, default=0, show_default=True, help="Half strength: doubles count once (10.8.1).")
@click.option("--firer-experience", default="regular", show_default=True, type=EXPERIENCE)
@click.option("--attack-die-minus-one", is_flag=True, help="Firer took a fast action last turn (13.1).")
@click.option("--explain", is_flag=True, help="Show how the smoke dice were built, with the rule.")
@question_options(support=True)
def smoke_command(firer, hexes, range_, firer_terrain, firer_damage, firer_experience, attack_die_minus_one,
                  explain, exact, trials, seed, run_options, dice_file, aid_file, units_dir, support_file, fmt,
                  out):
    """How many smoke markers FIRER lands in each hex, with what probability (7.5).

    Each crit or hit rolled is a marker (at most 4 per hex); dice without one are
    rolled again for the next hex. Markers hinder LOS in fire (fire --smoke N, 10.3).
    With --precision X the headline is P(at least one marker in the target hex).

    \b
    Examples:
      lanchester assault smoke soviet/mortar-82mm
      lanchester assault smoke german/mortar-81mm --hexes 2 --trials 1000000 --seed 7
      lanchester assault smoke soviet/mortar-82mm --out out/smoke
    """
    from reports.bundle import emit_report
    from simulator.games.assault.questions.smoke import smoke
    from simulator.games.assault.report.bundles import smoke_report
    from simulator.games.assault.report.text import smoke_json, smoke_table

    monte_carlo = cliopts.wants_monte_carlo(exact, trials, run_options)
    answer = smoke(firer, hexes=hexes, distance=range_, firer_terrain=firer_terrain, firer_damage=firer_damage,
                  firer_experience=firer_experience, attack_die_minus_one=attack_die_minus_one,
                  exact=not monte_carlo, trials=trials, seed=seed, dice=dice_file, aid=aid_file,
                  units_dir=units_dir, support=support_file, options=run_options.with_progress("smoke"))
    emit_report(fmt, out, table=smoke_table(answer, explain), frame=answer.frame(), obj=smoke_json(answer),
                report=lambda: smoke_report(answer, dice=dice_file, aid=aid_file, units_dir=units_dir,
                                            support=support_file))


# --- terrain damage --------------------------------------------------------------------

@click.command("terrain-damage")
@click.argument("vehicle")
@click.option("--terrain", required=True, help="Terrain of the hex the vehicle enters (9.10.1).")
@click.option("--hill", is_flag=True, help="The hex is a hill: the hill row's vehicle damage is added.")
@click.option("--damage", type=int, default=0, show_default=True, help="Damage points before entering.")
@click.option("--experience", default="regular", show_default=True, type=EXPERIENCE,
              help="Vehicle's experience (elite ignores suppression, 4.2.3).")
@click.option("--crit-is-damage", is_flag=True,
              help="Read a critical hit as also a damage point (10.7.3); default: it only immobilises (9.10.2).")
@click.option("--explain", is_flag=True, help="Show how the two pools were built, with the rule.")
@question_options()
def terrain_damage_command(vehicle, terrain, hill, damage, experience, crit_is_damage, explain, exact, trials,
                           seed, run_options, dice_file, aid_file, units_dir, fmt, out):
    """What entering TERRAIN does to VEHICLE (9.10.1, 9.10.2): immobilised, damaged, suppressed.

    With --precision X the headline is P(immobilised).

    \b
    Examples:
      lanchester assault terrain-damage german/pz-iif --terrain forest
      lanchester assault terrain-damage soviet/truck --terrain heavy-forest --trials 1000000 --seed 3
      lanchester assault terrain-damage german/pz-iif --terrain forest --out out/pz-iif-forest
    """
    from reports.bundle import emit_report
    from simulator.games.assault.questions.terrain_damage import terrain_damage
    from simulator.games.assault.report.bundles import terrain_damage_report
    from simulator.games.assault.report.text import terrain_damage_json, terrain_damage_table

    monte_carlo = cliopts.wants_monte_carlo(exact, trials, run_options)
    answer = terrain_damage(vehicle, terrain, hill=hill, damage=damage, experience=experience,
                            crit_is_damage=crit_is_damage, exact=not monte_carlo, trials=trials, seed=seed,
                            dice=dice_file, aid=aid_file, units_dir=units_dir,
                            options=run_options.with_progress("terrain-damage"))
    emit_report(fmt, out, table=terrain_damage_table(answer, explain), frame=answer.frame(),
                obj=terrain_damage_json(answer),
                report=lambda: terrain_damage_report(answer, dice=dice_file, aid=aid_file, units_dir=units_dir))
