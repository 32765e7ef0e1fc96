"""``lanchester assault melee``: who holds the hex after a close combat, in either edition."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:   # annotations only: the modules load when a command runs
    from simulator.games.assault.questions.answers import EditionsAnswer, MeleeAnswer

from simulator import cliopts
from simulator.games.assault.cli.fire import question_options
from simulator.run.vocabulary import AREAS, EDITIONS, EXPERIENCE_LEVELS, WITHDRAW_POLICIES

SUMMARY_ROWS = (("attacker holds", "p_attacker_holds"), ("defender holds", "p_defender_holds"),
                ("neither holds", "p_neither_holds"), ("  both eliminated", "p_both_eliminated"),
                ("unresolved", "p_unresolved"))


def ordered_list(values) -> tuple[str, ...]:
    """``("a,b", "c")`` -> ``("a", "b", "c")``, in the order given (12.10: the first
    infantry passenger is the one that disembarks into the hex)."""
    return tuple(x.strip() for v in values for x in v.split(",") if x.strip())


def melee_json(answer: MeleeAnswer) -> dict:
    """Everything the question produced, as one JSON object (without ``run``, how it was
    run: workers, checkpoint, Dask, which does not change the numbers)."""
    return answer.to_json()


def _se(summary: dict, key: str):
    return summary.get("se", {}).get(key)


def summary_lines(title: str, s: dict) -> list[str]:
    from simulator.run.output import pct, pct_mc

    lines = [title]
    for label, key in SUMMARY_ROWS:
        lines.append(f"  {label:<20} {pct_mc(s[key], s, key)}")
    mr = f"{s['mean_rounds']:.3f}" + (f" ±{_se(s, 'mean_rounds'):.3f}" if "se" in s else "")
    lines.append(f"  mean rounds {mr}; strength points lost: attacker {s['attacker_mean_damage']:.3f}, "
                 f"defender {s['defender_mean_damage']:.3f}")
    for who in ("attacker", "defender"):
        lines.append(f"  {who}: eliminated {pct(s[f'p_{who}_eliminated']).strip()}, "
                     f"fell back {pct(s[f'p_{who}_fell_back']).strip()}, "
                     f"withdrew {pct(s[f'p_{who}_withdrew']).strip()}")
    return lines


def _unit_text(u: dict) -> str:
    if u["eliminated"]:
        return "eliminated"
    parts = [u["status"], f"{u['damage']} dmg" + (" (half)" if u["half_strength"] else "")]
    parts += [w for w in ("suppressed", "immobilised") if u[w]]
    return ", ".join(parts)


def state_lines(states: list[dict], limit: int = 12) -> list[str]:
    from simulator.run.output import pct_mc

    lines = ["most likely end states"]
    for st in states[:limit]:
        units = "; ".join(f"{k}: {_unit_text(v)}" for k, v in st.items() if isinstance(v, dict))
        lines.append(f"  {pct_mc(st['p'], st)}  {st['outcome']:<15} {units}")
    if len(states) > limit:
        lines.append(f"  ... {len(states) - limit} more (see --format csv or json)")
    return lines


def pool_line(label: str, p: dict) -> str:
    return (f"{label}: attacker {p['attacker_attack_pool']} ({p['attacker_doubles']}"
            f"{', ' + str(p['attacker_rerolls']['attack']) + ' re-roll' if p['attacker_rerolls']['attack'] else ''})"
            f" vs defence {p['defender_defence_pool']}; defender {p['defender_attack_pool']}"
            f" ({p['defender_doubles']}"
            f"{', ' + str(p['defender_rerolls']['attack']) + ' re-roll' if p['defender_rerolls']['attack'] else ''})"
            f" vs defence {p['attacker_defence_pool']}")


def explain_lines(a: MeleeAnswer) -> list[str]:
    lines = ["How the pools were built:"]
    current = None
    for s in a.explain:
        if s["round"] != current:
            current = s["round"]
            lines.append(f" {current}")
        lines.append(f"  {s['side']:<30} {s['change']:<30} -> {s['pool']:<7} {s['reason']} ({s['section']})")
    return lines + [""]


def first_turn_title(units: dict[str, str]) -> str:
    """The first-edition first-turn block's title: one round unless reinforcements enter,
    whose exchanges that turn count as rounds too (12.2; issue 43: "single round" beside a
    mean of 1.698 rounds). ``units``: the answer's units by slot."""
    joining = [u for k, u in units.items() if k.endswith("_reinforcement")]
    if not joining:
        return "Single round (the first turn only)"
    return (f"The first turn only (the first exchange, then {' and '.join(joining)} reinforcing: one more "
            "exchange each when it enters, 12.2; rounds count every exchange)")


def melee_table(a: MeleeAnswer, explain: bool) -> str:
    from simulator.run.output import pct

    how = f"Monte Carlo, {a.trials:,} trials, seed {a.seed}" if a.how.monte_carlo else "exact"
    lines = [f"{a.attacker} attacks {a.defender} in close combat  ({a.edition}: {a.edition_name}; {how})",
             pool_line("round one", a.round_one), pool_line("later rounds", a.later_round_pools),
             f"dice: {a.dice}, {a.dice_status}; aid: {a.aid}, {a.aid_status}; "
             f"units: {', '.join(a.units_status)}", ""]
    if explain:
        lines += explain_lines(a)
    title = (f"Renew every turn until it ends (at most {a.max_rounds} turns)" if a.edition == "v1"
             else f"Rounds until it ends (at most {a.max_rounds})")
    lines += summary_lines(title, a.summary)
    if a.single_round is not None:
        lines += [""] + summary_lines(first_turn_title(a.units), a.single_round["summary"])
    if a.p_dug_in_kept is not None:
        lines.append(f"dug-in marker kept: {pct(a.p_dug_in_kept).strip()}")
    for p in a.passengers or []:
        extra = (f": {p['attack_pool']} vs {p['defence_pool']}, eliminated "
                 f"{pct(p['summary']['p_eliminated']).strip()}" if "summary" in p else "")
        lines.append(f"passenger {p['unit']} disembarks {p['disembarks']}{extra}")
    lines += [""] + state_lines(a.states) + ([f"  ({a.unseen})"] if a.unseen else [])
    lines += ["", "notes:"] + [f"  - {n}" for n in a.notes]
    return "\n".join(lines) + "\n"


def _compare_rows(rows, v1s: dict, v2s: dict, pct) -> list[str]:
    lines = []
    for label, key in rows:
        v1, v2 = v1s[key], v2s[key]
        if key.startswith("p_"):
            lines.append(f"  {label:<20}{pct(v1):>26}{pct(v2):>14}{100 * (v2 - v1):>+11.2f}%")
        else:
            lines.append(f"  {label:<20}{v1:>26.3f}{v2:>14.3f}{v2 - v1:>+12.3f}")
    return lines


def compare_table(result: EditionsAnswer, explain: bool) -> str:
    from simulator.run.output import pct

    a1, a2 = result.editions["v1"], result.editions["v2"]
    lines = [f"{a1.attacker} attacks {a1.defender}: the two editions of close combat", ""]
    lines.append(f"{'':<22}{'v1 (renew until it ends)':>26}{'v2':>14}{'v2 - v1':>12}")
    lines += _compare_rows(SUMMARY_ROWS + (("mean rounds", "mean_rounds"), ("attacker loses", "attacker_mean_damage"),
                                          ("defender loses", "defender_mean_damage")), a1.summary, a2.summary, pct)
    fr = result.first_round
    lines += ["", "The first round alone (v1 single round, v2 initial round without withdrawal):"]
    lines += _compare_rows(SUMMARY_ROWS[:2] + (("unresolved", "p_unresolved"), ("attacker loses", "attacker_mean_damage"),
                                               ("defender loses", "defender_mean_damage")), fr["v1"], fr["v2"], pct)
    lines += ["  (the rest of the difference comes from the sequence: rounds, withdrawal, later-round rules)"]
    lines += ["", "Round one:", "  v1 " + pool_line("", a1.round_one)[2:], "  v2 " + pool_line("", a2.round_one)[2:]]
    if result.pools_differ:
        lines.append("  differs: " + ", ".join(result.pools_differ))
    lines += ["", "Why the numbers differ (rules that apply to this fight):"]
    for r in result.differing_rules:
        lines.append(f"  - {r['rule']} ({r['sections']}): v1 {r['v1']}; v2 {r['v2']}")
    if explain:
        lines += ["", "v1 " + explain_lines(a1)[0]] + explain_lines(a1)[1:]
        lines += ["v2 " + explain_lines(a2)[0]] + explain_lines(a2)[1:]
    notes = [n for n in a1.notes + a2.notes if "ignored in" in n]
    if notes:
        lines += ["", "notes:"] + [f"  - {n}" for n in notes]
    return "\n".join(lines) + "\n"


def compare_json(result: EditionsAnswer) -> dict:
    return result.to_json()


@click.command("melee")
@click.argument("attacker")
@click.argument("defender")
@click.option("--edition", type=click.Choice(EDITIONS), default="v1", show_default=True,
              help="Close-combat rules: v1 = rule book 1.0 chapter 12, v2 = the revised chapter 12.")
@click.option("--compare-editions", is_flag=True, help="Answer in both editions and explain the difference.")
@click.option("--terrain", default="clear", show_default=True, help="Terrain of the defender's hex (12.7.1).")
@click.option("--defender-activated", is_flag=True,
              help="Defender already activated this turn (12.8.1, revised 12.1.2.2).")
@click.option("--defender-suppressed", is_flag=True, help="Defender marked suppressed (12.0; revised 12.1.2.2).")
@click.option("--defender-fallback", is_flag=True, help="Defender in fallback: eliminated when entered (12.0).")
@click.option("--outflanked", is_flag=True,
              help="Attacker enters from outside the defender's arc of fire (12.8.2, revised 12.1.2.1).")
@click.option("--entry-area", type=click.Choice(AREAS), default=None,
              help="Side the attacker enters from: vehicle defence dice (12.7.3) and fortification "
                   "side (revised 12.1.3.1).")
@click.option("--attacker-fast", is_flag=True,
              help="Attacker moved in with a fast action (revised 12.1.3.2; 12.9 pre-roll).")
@click.option("--support-attacker", metavar="UNIT", default=None,
              help="Attacker's support unit (v2, revised 12.1.1.1).")
@click.option("--support-defender", metavar="UNIT", default=None,
              help="Defender's support unit (v2, revised 12.1.1.1).")
@click.option("--reinforce-attacker", metavar="UNIT", default=None,
              help="A second attacking unit reinforces (v1, 12.2).")
@click.option("--reinforce-defender", metavar="UNIT", default=None,
              help="A second defending unit reinforces (v1, 12.2).")
@click.option("--defender-dug-in", is_flag=True,
              help="Defender is dug in: +G (9.8.1); marker outcome (revised 12.2).")
@click.option("--fortification", metavar="NAME", default=None,
              help="Defender in a fortification from the aid: bunker, pillbox, trench, ... (revised 12.1.3).")
@click.option("--wire", is_flag=True, help="Attacker crosses barbed wire or a stone wall (v2, revised 12.1.2.1).")
@click.option("--tracks", is_flag=True, help="Infantry attacks the vehicle's wheels/tracks (12.9, revised 12.5).")
@click.option("--defender-immobilised", is_flag=True, help="Defending vehicle is immobilised (12.8.2, revised 12.1.2).")
@click.option("--passengers", "passengers", multiple=True, metavar="UNIT,UNIT",
              help="Units the defending vehicle transports (12.10, revised 12.4).")
@click.option("--attacker-damage", type=int, default=0, show_default=True)
@click.option("--defender-damage", type=int, default=0, show_default=True)
@click.option("--attacker-experience", type=click.Choice(EXPERIENCE_LEVELS), default="regular", show_default=True)
@click.option("--defender-experience", type=click.Choice(EXPERIENCE_LEVELS), default="regular", show_default=True)
@click.option("--withdraw-policy", metavar="NAME[,NAME]", default=None,
              help=f"Withdrawal policy, both sides or ATTACKER,DEFENDER: {', '.join(WITHDRAW_POLICIES)} "
                   "(default half-strength; rulings #10).")
@click.option("--max-rounds", type=int, default=None, metavar="N",
              help="v1: turn cap for renewing (default 10, rulings #9); v2: round cap (default 50).")
@click.option("--explain", is_flag=True, help="Show how each pool was built, die by die, with the rule.")
@question_options()
def melee_command(attacker, defender, edition, compare_editions, terrain, defender_activated,
                  defender_suppressed, defender_fallback, outflanked, entry_area, attacker_fast,
                  support_attacker, support_defender, reinforce_attacker, reinforce_defender,
                  defender_dug_in, fortification, wire, tracks, defender_immobilised, passengers,
                  attacker_damage, defender_damage, attacker_experience, defender_experience,
                  withdraw_policy, max_rounds, explain, exact, trials, seed, run_options, dice_file,
                  aid_file, units_dir, fmt, out):
    """Close combat of ATTACKER entering DEFENDER's hex: who holds it, and at what cost (chapter 12).

    Units are ids like soviet/rifles-41 (see 'lanchester assault units').
    With --precision X the headline is P(attacker holds) (in each edition with
    --compare-editions).

    \b
    Examples:
      lanchester assault melee soviet/rifles-41 german/tank-hunters-41 --terrain brush \\
          --defender-activated --edition v1
      lanchester assault melee soviet/rifles-41 german/tank-hunters-41 --terrain brush \\
          --defender-activated --compare-editions --explain
      lanchester assault melee soviet/rifles-41 german/hmg-34 --edition v2 --fortification bunker \\
          --support-attacker soviet/rifles-41 --trials 200000 --seed 1
      lanchester assault melee soviet/rifles-41 german/hmg-34 --compare-editions --out out/melee
    """
    from reports.bundle import emit_report
    from simulator.games.assault.questions import melee as questions
    from simulator.games.assault.questions.melee import melee
    from simulator.games.assault.report.bundles import melee_report
    from simulator.games.assault.rules.melee.situation import MeleeSituation

    monte_carlo = cliopts.wants_monte_carlo(exact, trials, run_options)
    situation = MeleeSituation(
        terrain=terrain, defender_activated=defender_activated, defender_suppressed=defender_suppressed,
        defender_fallback=defender_fallback, outflanked=outflanked, entry_area=entry_area,
        attacker_fast=attacker_fast, support_attacker=support_attacker, support_defender=support_defender,
        reinforce_attacker=reinforce_attacker, reinforce_defender=reinforce_defender,
        defender_dug_in=defender_dug_in, fortification=fortification, wire=wire, tracks=tracks,
        attacker_damage=attacker_damage, defender_damage=defender_damage,
        attacker_experience=attacker_experience, defender_experience=defender_experience,
        defender_immobilised=defender_immobilised, passengers=ordered_list(passengers))
    kw = dict(exact=True if exact else (False if monte_carlo else None), trials=trials, seed=seed,
              withdraw_policy=withdraw_policy, max_rounds=max_rounds, dice=dice_file,
              aid=aid_file, units_dir=units_dir, options=run_options.with_progress("melee"))
    data = dict(terrain=terrain, dice=dice_file, aid=aid_file, units_dir=units_dir)
    if compare_editions:
        if monte_carlo and seed is None:
            from simulator.run.runner import fresh_seed
            kw["seed"] = fresh_seed()
        both = questions.compare_editions(attacker, defender, situation, **kw)
        emit_report(fmt, out, table=compare_table(both, explain), frame=both.frame(), obj=compare_json(both),
                    report=lambda: melee_report(both.editions, compare=both, **data))
        return
    answer = melee(attacker, defender, situation, edition=edition, **kw)
    emit_report(fmt, out, table=melee_table(answer, explain), frame=answer.frame(), obj=melee_json(answer),
                report=lambda: melee_report({edition: answer}, **data))

