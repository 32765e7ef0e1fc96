"""``lanchester assault fire`` and ``lanchester assault resolve``."""

from __future__ import annotations

import click

from simulator import cliopts
from simulator.games.assault.report.text import fire_json, fire_table, state_label
from simulator.run.errors import InputError
from simulator.run.vocabulary import EXPERIENCE_LEVELS, FIRE_STATUS_ALIASES, TARGET_STATUSES

aid_option = cliopts.aid          # the shared --aid FILE (simulator/cliopts.py)
support_option = click.option("--support", "support_file", type=click.Path(dir_okay=False), default=None,
                              metavar="FILE", help="Support-phase data instead of scenarios/assault/support.toml.")
units_option = cliopts.units_dir  # the shared --units-dir DIR


def question_options(*, support: bool = False):
    """The options every Assault question shares, in one place: exact or Monte Carlo
    (``--exact --trials --seed`` and the run options), the data files (``--dice --aid
    --units-dir`` and, for chapter 7, ``--support``), ``--format`` and ``--out``."""
    stack = [cliopts.exact, cliopts.trials, cliopts.seed, cliopts.monte_carlo, cliopts.data_files()
             ] + ([support_option] if support else []) + [cliopts.fmt, cliopts.out]

    def apply(command):
        for option in reversed(stack):
            command = option(command)
        return command
    return apply


def split_list(values) -> frozenset[str]:
    return frozenset(x.strip() for v in values for x in v.split(",") if x.strip())


def split_items(values) -> tuple[str, ...]:
    """Comma-separated or repeated values, in order, repeats kept (two brush hexes are two)."""
    return tuple(x.strip() for v in values for x in v.split(",") if x.strip())


@click.command("fire")
@click.argument("firer")
@click.argument("target")
@click.option("--range", "range_", type=int, default=None, metavar="N",
              help="Range in hexes (10.1); required except with --overrun (range 0).")
@click.option("--terrain", default="clear", show_default=True, help="Target hex terrain (10.9.1).")
@click.option("--hill", is_flag=True, help="Target on a hill and the firer lower (10.9.1, 9.6.1).")
@click.option("--hindrance", "hindrances", multiple=True, metavar="T,T",
              help="Terrain of each hindering hex the LOS crosses (10.9.2), comma-separated or repeated.")
@click.option("--fire-status", default="firing", show_default=True,
              type=click.Choice(sorted(FIRE_STATUS_ALIASES)), help="Firer's fire status (10.0, 10.9.4).")
@click.option("--spot", default="rules", show_default=True,
              type=click.Choice(["rules", "auto", "roll", "passed", "failed"]),
              help="Spotting (10.5): by the rules, forced automatic, forced roll, or a given result.")
@click.option("--outside-arc", is_flag=True, help="Target outside the firer's arc of fire (10.5, 10.6).")
@click.option("--target-status", "target_status", multiple=True, metavar="S,S",
              help=f"Target markers: {', '.join(TARGET_STATUSES)}.")
@click.option("--target-facing", type=click.Choice(["front", "flank", "rear", "above"]), default=None,
              help="Vehicle target's area of impact (10.9.3).")
@click.option("--firer-damage", type=int, default=0, show_default=True)
@click.option("--target-damage", type=int, default=0, show_default=True)
@click.option("--firer-experience", default="regular", show_default=True,
              type=click.Choice(EXPERIENCE_LEVELS))
@click.option("--target-experience", default="regular", show_default=True,
              type=click.Choice(EXPERIENCE_LEVELS))
@click.option("--attack-die-minus-one", is_flag=True, help="Firer took a fast action last turn (13.1).")
@click.option("--into-close-combat", is_flag=True,
              help="Target in close combat with a friendly vehicle (10.11): infantry lose their weakest "
                   "defence die; at a vehicle, the success dice also hit --friendly-vehicle.")
@click.option("--indirect", is_flag=True, help="Indirect fire in the support phase (7.1-7.4).")
@click.option("--spotter", default=None, metavar="UNIT",
              help="Adjacent friendly infantry/artillery spotting for indirect fire (7.1, 7.2).")
@click.option("--firer-terrain", default=None, metavar="T", help="Firer's hex terrain (7.1: no indirect fire "
              "from heavy forest or buildings).")
@click.option("--smoke", type=click.IntRange(min=0), default=0, show_default=True, metavar="N",
              help="Smoke markers the LOS crosses; each is a hindrance (10.3, 10.9.2).")
@click.option("--overrun", is_flag=True, help="FIRER is artillery taking its last shot at the overrunning "
              "TARGET tank (9.10.3); range 0.")
@click.option("--firer-status", "firer_status", multiple=True, metavar="S,S",
              help="Firer markers (9.10.3): suppressed, fallback, fast, delayed, normal, fired.")
@click.option("--riding-on", default=None, metavar="VEHICLE",
              help="TARGET is tank riders on VEHICLE: card defence dice only (10.10.1).")
@click.option("--passengers", "passengers", multiple=True, metavar="UNIT[:DAMAGE],...",
              help="Units carried by the vehicle TARGET (10.10): their outcomes and P(emergency disembark).")
@click.option("--friendly-vehicle", default=None, metavar="UNIT",
              help="With --into-close-combat at a vehicle: the friendly vehicle in the close combat (10.11).")
@click.option("--friendly-facing", type=click.Choice(["front", "flank", "rear"]), default=None,
              help="The friendly vehicle's area of impact (10.9.3, 10.11).")
@click.option("--friendly-damage", type=int, default=0, show_default=True)
@click.option("--explain", is_flag=True, help="Show how each pool was built, die by die, with the rule.")
@question_options(support=True)
def fire_command(firer, target, range_, terrain, hill, hindrances, fire_status, spot, outside_arc,
                 target_status, target_facing, firer_damage, target_damage, firer_experience,
                 target_experience, attack_die_minus_one, into_close_combat, indirect, spotter,
                 firer_terrain, smoke, overrun, firer_status, riding_on, passengers, friendly_vehicle,
                 friendly_facing, friendly_damage, explain, exact, trials, seed, run_options, dice_file,
                 aid_file, units_dir, support_file, fmt, out):
    """What happens when FIRER fires at TARGET: the target's state afterwards (chapters 7, 10).

    Units are ids like german/rifles-41 (see 'lanchester assault units').
    With --precision X the headline is P(eliminated): Monte Carlo runs until its
    95% interval is at most X wide.

    \b
    Examples:
      lanchester assault fire german/rifles-41 soviet/heavy-rifles-41 --range 3
      lanchester assault fire german/rifles-41 soviet/heavy-rifles-41 --range 3 \\
          --terrain forest --spot failed --explain
      lanchester assault fire german/rifles-41 soviet/heavy-rifles-41 --range 3 --out out/fire
      lanchester assault fire soviet/at-gun-45mm german/pz-iif --range 2 --target-facing flank
      lanchester assault fire soviet/mortar-82mm german/pz-iif --range 6 --indirect --explain
      lanchester assault fire german/at-gun-37mm soviet/t-26 --overrun
      lanchester assault fire german/hmg-34 soviet/truck --range 3 --target-facing flank \\
          --passengers soviet/rifles-41,soviet/mmg-maxim
      lanchester assault fire german/hmg-34 soviet/rifles-41 --range 3 --riding-on soviet/t-26
      lanchester assault fire german/tank-hunters-41 soviet/t-26 --range 2 --target-facing flank \\
          --into-close-combat --friendly-vehicle german/pz-iif --friendly-facing rear
    """
    from reports.bundle import emit_report
    from simulator.games.assault.questions.fire import fire
    from simulator.games.assault.report.bundles import fire_report
    from simulator.games.assault.rules.pools import FireSituation
    from simulator.games.assault.rules.transport import parse_passenger

    monte_carlo = cliopts.wants_monte_carlo(exact, trials, run_options)
    if range_ is None and not overrun:
        raise click.UsageError("Missing option '--range'")
    situation = FireSituation(
        range=0 if (overrun and range_ is None) else range_, terrain=terrain, hill=hill,
        hindrances=split_items(hindrances),
        fire_status=fire_status, spot=spot, outside_arc=outside_arc,
        target_status=split_list(target_status), target_facing=target_facing,
        firer_damage=firer_damage, target_damage=target_damage, firer_experience=firer_experience,
        target_experience=target_experience, firer_attack_die_minus_one=attack_die_minus_one,
        into_close_combat=into_close_combat, indirect=indirect, spotter=spotter, firer_terrain=firer_terrain,
        smoke=smoke, overrun=overrun, firer_status=split_list(firer_status), riding_on=riding_on,
        passengers=tuple(parse_passenger(p) for p in split_items(passengers)),
        friendly_vehicle=friendly_vehicle, friendly_facing=friendly_facing, friendly_damage=friendly_damage)
    answer = fire(firer, target, situation, exact=not monte_carlo, trials=trials, seed=seed,
                  dice=dice_file, aid=aid_file, units_dir=units_dir, support=support_file,
                  options=run_options.with_progress("fire"))
    emit_report(fmt, out, table=fire_table(answer, explain), frame=answer.frame(), obj=fire_json(answer),
                report=lambda: fire_report([answer], terrain=terrain, dice=dice_file, aid=aid_file,
                                           units_dir=units_dir, support=support_file))


@click.command("resolve")
@click.option("--attack", required=True, metavar="ROLL", help='Attack roll, e.g. "R:crit+hit Y:supp".')
@click.option("--defence", required=True, metavar="ROLL", help='Defence roll, e.g. "Y:- G:hit".')
@click.option("--target", "target_id", default=None, metavar="UNIT", help="Target unit (strength, type).")
@click.option("--target-strength", type=click.IntRange(min=1), default=None, metavar="N",
              help="Target strength when no --target is given (infantry).")
@click.option("--target-damage", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--target-status", "target_status", multiple=True, metavar="S,S",
              help="Markers before the roll: suppressed, fallback, delayed, immobilised.")
@click.option("--target-experience", default="regular", show_default=True,
              type=click.Choice(EXPERIENCE_LEVELS))
@click.option("--crit-attack", default=None, metavar="ROLL", help='Critical-hit roll, attacker: "G:-".')
@click.option("--crit-defence", default=None, metavar="ROLL", help='Critical-hit roll, defender: "B:-".')
@click.option("--passengers", "carrying", is_flag=True,
              help="The target vehicle carries units: say what the roll does to them (10.10.2, 10.10.3).")
@click.option("--riders", is_flag=True, help="The target is tank riders (10.10.1): do they disembark?")
@cliopts.data_files()
@cliopts.fmt
@cliopts.out
def resolve_command(attack, defence, target_id, target_strength, target_damage, target_status,
                    target_experience, crit_attack, crit_defence, carrying, riders, dice_file, aid_file,
                    units_dir, fmt, out):
    """Adjudicate one given roll (10.7.2-10.7.6): what is uncancelled, and the target's state.

    \b
    Example (the worked example of 11.0):
      lanchester assault resolve --attack "R:crit+hit Y:supp" --defence "Y:- G:hit" \\
          --target soviet/heavy-rifles-41 --crit-attack "G:-" --crit-defence "B:-"
      lanchester assault resolve --attack "R:hit Y:supp" --defence "G:-" --target-strength 4 \\
          --out out/resolve
    """
    import pandas as pd

    from reports.bundle import emit_report
    from simulator.games.assault.report.bundles import resolve_report
    from simulator.games.assault.rules.aid import load_aid
    from simulator.games.assault.rules.cards import find_unit, load_units
    from simulator.games.assault.rules.damage import FALLBACK, INFANTRY, STEADY, SUPPRESSED
    from simulator.games.assault.rules.dice import load_dice
    from simulator.games.assault.rules.fire import kind_of
    from simulator.games.assault.rules.resolve import resolve
    from simulator.games.assault.rules.transport import CARRIED, NO_PASSENGERS, RIDERS_TARGETED

    dice = load_dice(dice_file)
    aid = load_aid(aid_file, dice)
    status = split_list(target_status)
    if carrying and riders:
        raise InputError("--riders", "", "the target is either a loaded vehicle or tank riders (10.10.1)")
    if target_id:
        card = find_unit(load_units(units_dir, dice), target_id, "--target")
        if carrying and not card.is_vehicle:
            raise InputError("--passengers", "", f"{card.id} is not a vehicle (9.11)")
        if riders and not card.is_infantry:
            raise InputError("--riders", "", f"{card.id} is not infantry (9.11.1)")
        kind = kind_of(card)
        strength, half_at = card.strength, card.half_strength_threshold
    elif target_strength:
        kind, strength, half_at = INFANTRY, target_strength, (target_strength + 1) // 2
    else:
        raise InputError("--target", "", "give --target UNIT or --target-strength N")
    if target_damage >= strength:
        raise InputError("--target-damage", "", f"must be below the strength {strength}")
    exp = aid.experience(target_experience)
    morale = FALLBACK if "fallback" in status else SUPPRESSED if "suppressed" in status else STEADY
    result = resolve(attack, defence, dice, strength=strength, half_at=half_at, kind=kind,
                     damage=target_damage, morale=morale, immobilised=int("immobilised" in status),
                     ignores_supp=int(exp.ignores_supp), delayed=int("delayed" in status),
                     extra_supp=exp.attacker_supp, crit_attack=crit_attack, crit_defence=crit_defence,
                     passenger_mode=RIDERS_TARGETED if riders else CARRIED if carrying else NO_PASSENGERS)
    u, st = result["uncancelled"], result["state"]
    table = (f"uncancelled: {u['crit']} crit, {u['hit']} hit, {u['supp']} supp\n"
             + (f"critical-hit roll: strongest {result['critical_hit_roll']['strongest']}\n"
                if result["critical_hit_roll"] else "")
             + f"target afterwards: {state_label(st)}\n"
             + (f"passengers: {result['passenger_event']}\n" if result["passenger_event"] else ""))
    who = target_id or f"a strength-{strength} infantry unit"
    emit_report(fmt, out, table=table, frame=pd.DataFrame([{**u, **st}]), obj=result,
                report=lambda: resolve_report(result, target=who, dice=dice_file, aid=aid_file,
                                              units_dir=units_dir))
