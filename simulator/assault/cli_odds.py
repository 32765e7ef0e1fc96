"""``lanchester assault odds``: the odds of one dice roll against another (10.7.2).

Heavy modules are imported inside the functions, so ``--help`` answers at once.
"""

from __future__ import annotations

import click

from simulator import cliopts


def rows(frame, keys: list[str]) -> list[dict]:
    """The outcome rows of an odds answer (:class:`~simulator.assault.odds.Outcomes` or its
    DataFrame) as dicts of ``keys``."""
    import numpy as np
    cols = [np.asarray(frame[k]).tolist() for k in keys]
    return [dict(zip(keys, values, strict=True)) for values in zip(*cols, strict=True)]


def odds_json(frame) -> dict:
    a = frame.attrs
    keys = ["crit", "hit", "supp", "p"] + (["se"] if "se" in frame else [])
    return {
        "method": a["method"], "trials": a["trials"], "seed": a["seed"],
        "dice": a["dice"], "dice_status": a["dice_status"], "dice_digest": a["dice_digest"],
        "attack": a["attack"], "defence": a["defence"],
        "doubles": a["doubles"], "extra_supp": a["extra_supp"],
        "outcomes": [{k: (int(r[k]) if k in ("crit", "hit", "supp") else float(r[k])) for k in keys}
                     for r in rows(frame, keys)],
        "summary": a["summary"],
    }


def odds_table(frame) -> str:
    from simulator.assault.odds import QUANTILES, damage_pmf
    from simulator.output import pct
    from simulator.stats import proportion_se

    a, s = frame.attrs, frame.attrs["summary"]
    mc = a["method"] == "monte-carlo"
    se = s.get("se", {})
    how = f"Monte Carlo, {a['trials']:,} trials, seed {a['seed']}" if mc else "exact"
    lines = [f"{a['attack']} attacks {a['defence']}  ({how}; doubles: {a['doubles']}"
             + (f"; +{a['extra_supp']} supp" if a["extra_supp"] else "") + ")",
             f"dice: {a['dice']}, {a['dice_status']}", "",
             "uncancelled        P(exactly)", "crit  hit  supp"]
    for r in rows(frame, ["crit", "hit", "supp", "p"] + (["se"] if "se" in frame else [])):
        lines.append(f"{r['crit']:4d} {r['hit']:4d} {r['supp']:5d}    "
                     f"{pct(r['p'], r.get('se') if mc else None)}")
    pmf = damage_pmf(frame)
    at_least = s["p_damage_at_least"]
    lines += ["", "damage (crit + hit)   P(exactly)        P(at least)"]
    for k, p in enumerate(pmf):
        e1 = float(proportion_se(p, a["trials"])) if mc else None
        e2 = se["p_damage_at_least"][k] if mc else None
        lines.append(f"{k:6d}                {pct(p, e1):16s}  {pct(at_least[k], e2)}")
    q = s["damage_quantiles"]
    lines += ["", "damage quantiles: " + "  ".join(
        f"{int(p * 100)}%{' (' + name + ')' if name else ''}: {q[f'{int(p * 100)}%']}" for p, name in QUANTILES)]
    lines += [f"P(any effect) {pct(s['p_any'], se.get('p_any'))}   "
              f"P(supp symbol left) {pct(s['p_supp'], se.get('p_supp'))}",
              f"mean crit {s['mean_crit']:.4f}  mean hit {s['mean_hit']:.4f}  "
              f"mean damage {s['mean_damage']:.4f}"
              + (f" ±{se['mean_damage']:.4f}" if mc else "")]
    return "\n".join(lines) + "\n"


@click.command("odds")
@click.argument("attack")
@click.argument("defence")
@cliopts.exact
@cliopts.trials
@cliopts.seed
@click.option("--doubles", type=click.Choice(["all", "strongest", "weakest"]), default="all",
              show_default=True, help="How the attacker's double successes count (rulings #2).")
@click.option("--extra-supp", type=click.IntRange(min=0), default=0, show_default=True, metavar="K",
              help="Add K suppression symbols to the attack (recruit target, 4.2.3).")
@cliopts.dice
@cliopts.monte_carlo
@cliopts.fmt
@cliopts.report_out
def odds_command(attack, defence, exact, trials, seed, doubles, extra_supp, dice_file, run_options, fmt, out):
    """Odds of ATTACK dice rolled against DEFENCE dice (10.7.2).

    Pools are strings of die letters (R Y G B, strongest first), with optional
    counts: RY, 2RG, "2R + G", or - for no dice.

    \b
    Examples:
      lanchester assault odds RY YG
      lanchester assault odds 2RG YYB --trials 1000000 --seed 7
      lanchester assault odds RY - --doubles strongest --format json
      lanchester assault odds RY YG --out out/ry-vs-yg
    """
    from reports.bundle import emit_report
    from simulator.assault.odds import odds_outcomes

    def report():
        from reports.assault import odds_report  # charts and provenance: only for --out DIR
        return odds_report([answer.frame()])

    monte_carlo = cliopts.wants_monte_carlo(exact, trials, run_options)
    answer = odds_outcomes(attack, defence, exact=not monte_carlo, trials=trials, seed=seed, doubles=doubles,
                 extra_supp=extra_supp, dice=dice_file, options=run_options.with_progress("odds"))
    emit_report(fmt, out, table=odds_table(answer), frame=answer.frame, obj=odds_json(answer), report=report)
