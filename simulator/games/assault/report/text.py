"""Terminal text and JSON of the Assault answers: what ``lanchester assault odds``,
``fire``, ``resolve``, ``smoke``, ``terrain-damage`` and ``units`` print (``--format
table`` and ``json``), and ``lanchester demo`` with them.

Presentation only: each function takes what the library computed (an answer of
:mod:`simulator.games.assault.questions.answers`) and returns text or a dict.
No module-level imports, so ``--help`` and an exact
``lanchester assault odds`` load neither numba nor pandas; heavy modules are imported
inside the functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.run.vocabulary import DEPRECATED_KEYS, OLD_SUPPRESSED_OR_WORSE, SUPPRESSED_OR_WORSE

if TYPE_CHECKING:
    from simulator.games.assault.questions.answers import (
        FireAnswer,
        OddsAnswer,
        SmokeAnswer,
        TerrainDamageAnswer,
        UnitCards,
    )

# --- odds (10.7.2) ---------------------------------------------------------------------

def odds_json(answer: OddsAnswer) -> dict:
    """The JSON of ``lanchester assault odds``: the answer's own rendering."""
    return answer.to_json()


def unseen_lines(a) -> list[str]:
    """A Monte Carlo table's line on the outcomes it never saw (listed at 0, or not listed:
    :func:`simulator.run.intervals.unseen_note`); an exact table lists its non-zero outcomes.
    ``a``: an answer with an ``unseen`` field, or a dict with that key."""
    note = a.get("unseen") if isinstance(a, dict) else getattr(a, "unseen", None)
    return [f"({note})"] if note else []


def odds_table(answer: OddsAnswer) -> str:
    from simulator.games.assault.questions.odds import QUANTILES, damage_pmf
    from simulator.run.intervals import proportion_interval
    from simulator.run.output import pct_ci

    a, s = answer, answer.summary.to_json()
    mc = a.how.monte_carlo
    trials = a.trials or 0
    se = s.get("se", {})
    how = f"Monte Carlo, {a.trials:,} trials, seed {a.seed}" if mc else "exact"
    lines = [f"{a.attack} attacks {a.defence}  ({how}; doubles: {a.doubles}"
             + (f"; +{a.extra_supp} supp" if a.extra_supp else "") + ")",
             f"dice: {a.dice}, {a.dice_status}", "",
             "uncancelled        P(exactly)", "crit  hit  supp"]
    for r in a.outcome_rows(["crit", "hit", "supp", "p"] + (["lo", "hi"] if "lo" in a else [])):
        lines.append(f"{r['crit']:4d} {r['hit']:4d} {r['supp']:5d}    "
                     f"{pct_ci(r['p'], (r['lo'], r['hi']) if mc else None)}")
    pmf = damage_pmf(answer)
    at_least = s["p_damage_at_least"]
    ci = s.get("ci95", {})
    lines += unseen_lines(a)
    lines += ["", "damage (crit + hit)   P(exactly)" + " " * (24 if mc else 8) + "P(at least)"]
    for k, p in enumerate(pmf):
        e1 = proportion_interval(int(round(p * trials)), trials) if mc else None
        e2 = ci["p_damage_at_least"][k] if mc else None
        lines.append(f"{k:6d}                {pct_ci(p, e1):{32 if mc else 16}s}  {pct_ci(at_least[k], e2)}")
    if mc and len(ci["p_damage_at_least"]) > len(pmf):      # one more than the most damage seen
        k = len(pmf)
        lines.append(f"{k:6d}                {pct_ci(0.0, ci['p_damage_at_least'][k]):32s}  "
                     f"{pct_ci(0.0, ci['p_damage_at_least'][k])}  (never seen; may be impossible)")
    q = s["damage_quantiles"]
    qci = ci.get("damage_quantiles", {})
    lines += ["", "damage quantiles" + (" (95% interval)" if mc else "") + ": " + "  ".join(
        f"{int(p * 100)}%{' (' + name + ')' if name else ''}: {q[f'{int(p * 100)}%']}"
        + (" [{}-{}]".format(*qci[f"{int(p * 100)}%"]) if mc else "") for p, name in QUANTILES)]
    lines += [f"P(any effect) {pct_ci(s['p_any'], ci.get('p_any'))}   "
              f"P(supp symbol left) {pct_ci(s['p_supp'], ci.get('p_supp'))}",
              f"mean crit {s['mean_crit']:.4f}  mean hit {s['mean_hit']:.4f}  "
              f"mean damage {s['mean_damage']:.4f}"
              + (f" ±{se['mean_damage']:.4f}" if mc else "")]
    return "\n".join(lines) + "\n"


# --- fire and resolve (chapter 10) -----------------------------------------------------

def state_label(r: dict) -> str:
    if r["eliminated"]:
        return "eliminated"
    parts = [f"{r['damage']} damage" + (" (half strength)" if r["half_strength"] else "")]
    parts += [w for w in ("fallback", "suppressed", "immobilised") if r[w]]
    return ", ".join(parts)


FIRE_JSON_KEYS = ("firer", "target", "range", "attack_pool", "defence_pool", "defence_pool_unspotted", "doubles",
                  "extra_supp", "target_strength", "p_spotted", "spot_number", "dice", "dice_status", "aid",
                  "aid_status", "support", "support_status", "indirect", "overrun", "smoke_markers", "spotter",
                  "riding_on", "reroll", "passengers", "p_emergency_disembark", "p_emergency_disembark_se",
                  "disembark_markers", "target_facing", "target_facing_assumed")   # after method, trials, seed


def fire_json(answer: FireAnswer) -> dict:
    """The JSON of ``lanchester assault fire --format json``: the answer's fields."""
    from simulator.games.assault.rules.target_states import STATE_COLUMNS

    a = answer
    keys = STATE_COLUMNS + ["p"] + (["se"] if "se" in a else [])
    states = [state_json(r, keys) for r in a.table.to_dict("records")]
    friendly = a.friendly_vehicle
    if friendly:
        friendly = {**friendly, "states": [state_json(r, list(r)) for r in friendly["states"]],
                    "summary": summary_json(friendly["summary"])}
    return {**a.how.to_json(), **{k: getattr(a, k) for k in FIRE_JSON_KEYS}} | {
        "states": states, "summary": summary_json(a.summary), "friendly_vehicle": friendly,
        "explain": a.explain, **({"unseen": a.unseen} if a.unseen else {})}


def state_json(r: dict, keys) -> dict:
    from simulator.games.assault.rules.target_states import STATE_COLUMNS

    return {k: (bool(r[k]) if k in STATE_COLUMNS and k != "damage" else
                int(r[k]) if k == "damage" else float(r[k])) for k in keys}


def explain_steps(steps: list[dict]) -> str:
    """How the pools were built, a line a step (``--explain``)."""
    lines = ["How the pools were built:"]
    for s in steps:
        if s["side"] == "spotting":
            lines.append(f"  spotting   {s['reason']}")
        else:
            lines.append(f"  {s['side']:<26} {s['change']:<12} -> {s['pool']:<8} {s['reason']} ({s['section']})")
    return "\n".join(lines) + "\n\n"


WORSE, OLD_WORSE = SUPPRESSED_OR_WORSE, OLD_SUPPRESSED_OR_WORSE   # the summary's key, and its old name


def summary_json(summary: dict) -> dict:
    """A target-state summary for JSON: as it is, plus the key's old name (same value, and
    in ``se`` and ``ci95``) and a ``deprecated`` note saying what to read instead."""
    if WORSE not in summary:
        return summary
    out = {**summary, OLD_WORSE: summary[WORSE], "deprecated": dict(DEPRECATED_KEYS)}
    for part in ("se", "ci95"):
        if isinstance(summary.get(part), dict) and WORSE in summary[part]:
            out[part] = {**summary[part], OLD_WORSE: summary[part][WORSE]}
    return out


def fire_table(answer: FireAnswer, explain: bool) -> str:
    from simulator.run.output import pct, pct_mc

    a, s = answer, answer.summary
    mc = a.how.monte_carlo
    se = s.get("se", {})
    how = f"Monte Carlo, {a.trials:,} trials, seed {a.seed}" if mc else "exact"
    kind = "last shot at" if a.overrun else "fires indirectly at" if a.indirect else "fires at"
    head = [f"{a.firer} {kind} {a.target}, range {a.range}  ({how})",
            f"attack {a.attack_pool}  vs  defence {a.defence_pool}"
            + (f"  (spotting failed: {a.defence_pool_unspotted})" if a.defence_pool_unspotted else "")
            + f"   P(spotted) {pct(a.p_spotted)}",
            f"dice: {a.dice}, {a.dice_status}; aid: {a.aid}, {a.aid_status}"]
    if a.target_facing_assumed:
        head.append(f"facing: {a.target} hit on its {a.target_facing_assumed} (no --target-facing given; "
                    "matrix assumes the front too; 10.9.3)")
    head.append("")
    body = [explain_steps(a.explain)] if explain else []
    rows = ["target afterwards                          P"]
    for r in a.table.to_dict("records"):
        rows.append(f"  {state_label(r):<40} {pct_mc(r['p'], r) if mc else pct(r['p'])}")
    rows += unseen_lines(a)
    tail = ["", f"P(eliminated) {pct_mc(s['p_eliminated'], s, 'p_eliminated')}   "
                f"P(suppressed, fallback or eliminated) {pct_mc(s[WORSE], s, WORSE)}   "
                f"P(fallback) {pct_mc(s['p_fallback'], s, 'p_fallback')}",
            f"mean damage {s['mean_damage']:.4f}" + (f" ±{se['mean_damage']:.4f}" if mc else "")]
    return "\n".join(head + body + rows + tail + extra_lines(answer)) + "\n"


def extra_lines(answer: FireAnswer) -> list[str]:
    """Overrun, passengers, tank riders and the friendly vehicle of 10.11, when asked."""
    from simulator.run.output import pct

    a, s = answer, answer.summary
    mc = a.how.monte_carlo
    se = s.get("se", {})
    out = []
    if a.overrun:
        out.append(f"P(gun overrun) {pct(s['p_artillery_overrun'], se.get('p_artillery_overrun'))}   (9.10.3)")
    if a.passengers:
        out += ["", "passengers (10.10.2, 10.10.3)",
                f"  {'unit':<30} {'aboard':>8} {'disembark':>10} {'flipped':>8} {'eliminated':>10}  marker"]
        for p in a.passengers:
            out.append(f"  {p['unit'] + (' (half)' if p['half_strength_before'] else ''):<30} "
                       f"{pct(p['p_aboard']):>8} {pct(p['p_emergency_disembark']):>10} "
                       f"{pct(p['p_flipped_to_half']):>8} {pct(p['p_eliminated']):>10}  {p['disembark_marker']}")
        out.append(f"P(emergency disembark) {pct(a.p_emergency_disembark, a.p_emergency_disembark_se)}")
    if a.riding_on:
        m = a.disembark_markers or {}
        out += ["", f"tank riders on {a.riding_on} (10.10.1): P(emergency disembark) "
                    f"{pct(a.p_emergency_disembark, a.p_emergency_disembark_se)}  "
                    f"(fast action {pct(m['fast action'])}, stays suppressed {pct(m['suppressed'])}, "
                    f"fallback {pct(m['fallback'])})"]
    f = a.friendly_vehicle
    if f:
        fs = f["summary"]
        out += ["", f"friendly vehicle {f['unit']} ({f['facing']}, defence {f['defence_pool']}) "
                    "hit by the success dice (10.11):"]
        for r in f["states"]:
            out.append(f"  {state_label(r):<40} {pct(r['p'], r.get('se') if mc else None)}")
        out.append(f"P(friendly eliminated) {pct(fs['p_eliminated'], fs.get('se', {}).get('p_eliminated'))}   "
                   f"P(friendly suppressed, fallback or eliminated) {pct(fs['p_suppressed_fallback_or_eliminated'])}")
    return out


# --- smoke (7.5) -------------------------------------------------------------------

def how(a: dict) -> str:
    return f"Monte Carlo, {a['trials']:,} trials, seed {a['seed']}" if a["method"] == "monte-carlo" else "exact"


def smoke_json(answer: SmokeAnswer) -> dict:
    return answer.to_json()


def smoke_table(a: SmokeAnswer, explain: bool, top: int = 10) -> str:
    from simulator.run.output import pct, pct_mc

    mc = a.how.monte_carlo
    cap = a.max_markers_per_hex
    lines = [f"{a.firer} fires smoke with {a.smoke_pool} into up to {a.hexes} hexes  ({how(a.how.to_json())})",
             f"dice: {a.dice}, {a.dice_status}; support: {a.support}, {a.support_status}", ""]
    if explain:
        lines.append(explain_steps(a.explain).rstrip("\n") + "\n")
    lines.append("hex           " + "".join(f"{k} markers".rjust(11) for k in range(cap + 1))
                 + "       mean   LOS hindered  LOS blocked (10.3)")
    for h in a.per_hex:
        se = h.get("se", {})
        lines.append(f"{h['hex']} {h['name']:<11} " + "".join(f"{pct(p):>11}" for p in h["p_markers"])
                     + f"   {h['mean_markers']:.3f}" + (f"±{se['mean_markers']:.3f}" if mc else "")
                     + f"  {pct(h['p_los_hindered']):>11}  {pct(h['p_los_blocked'], se.get('p_los_blocked'))}")
    s = a.summary
    lines += ["", f"mean markers in all {a.hexes} hexes {s['mean_total_markers']:.3f}   "
                  f"P(no smoke at all) {pct(s['p_no_smoke'])}   P(every hex smoked) {pct(s['p_every_hex_smoked'])}",
              "", "most likely placements (markers in hex 1, 2, 3):"]
    for r in a.table.sort_values("p", ascending=False).head(top).to_dict("records"):
        lines.append(f"  {r['hex1']} {r['hex2']} {r['hex3']}   {pct_mc(r['p'], r) if mc else pct(r['p'])}")
    lines += unseen_lines(a)
    return "\n".join(lines) + "\n"


# --- terrain damage (9.10.1, 9.10.2) -----------------------------------------------------

TERRAIN_DAMAGE_JSON_KEYS = ("vehicle", "terrain", "hill", "attack_pool", "defence_pool", "damage_before",
                            "experience", "crit_is_damage", "vehicle_strength", "dice", "dice_status", "aid",
                            "aid_status")   # after method, trials, seed, in this order


def terrain_damage_json(a: TerrainDamageAnswer) -> dict:
    """The JSON of ``lanchester assault terrain-damage --format json``: the answer's fields."""
    keys = list(a.table.columns)
    return {**a.how.to_json(), **{k: getattr(a, k) for k in TERRAIN_DAMAGE_JSON_KEYS}} | {
        "states": [state_json(r, keys) for r in a.table.to_dict("records")],
        "summary": summary_json(a.summary), "explain": a.explain, **({"unseen": a.unseen} if a.unseen else {})}


def terrain_damage_table(a: TerrainDamageAnswer, explain: bool) -> str:
    from simulator.run.output import pct, pct_mc

    s = a.summary
    mc = a.how.monte_carlo
    se = s.get("se", {})
    lines = [f"{a.vehicle} enters {a.terrain}{' on a hill' if a.hill else ''}  ({how(a.how.to_json())})",
             f"terrain rolls {a.attack_pool}  vs  {a.defence_pool} (strongest card die)",
             f"dice: {a.dice}, {a.dice_status}; aid: {a.aid}, {a.aid_status}", ""]
    if explain:
        lines.append(explain_steps(a.explain).rstrip("\n") + "\n")
    lines.append("vehicle afterwards                         P")
    for r in a.table.to_dict("records"):
        lines.append(f"  {state_label(r):<40} {pct_mc(r['p'], r) if mc else pct(r['p'])}")
    lines += unseen_lines(a)
    lines += ["", f"P(immobilised) {pct_mc(s['p_immobilised'], s, 'p_immobilised')}   "
                  f"P(eliminated) {pct_mc(s['p_eliminated'], s, 'p_eliminated')}   "
                  f"P(suppressed, fallback or eliminated) {pct_mc(s[WORSE], s, WORSE)}",
              f"mean damage {s['mean_damage']:.4f}" + (f" ±{se['mean_damage']:.4f}" if mc else "")]
    return "\n".join(lines) + "\n"


# --- the unit cards (4.2) -------------------------------------------------------------

UNITS_TABLE_COLUMNS = ["id", "type", "armoured", "strength", "movement", "ranges", "close_combat",
                       "defence", "abilities", "points", "class", "source"]


def units_table(a: UnitCards) -> str:
    frame = a.table
    shown = frame.assign(movement=frame["movement"].astype(str) + " " + frame["movement_type"])
    body = shown[UNITS_TABLE_COLUMNS].to_string(index=False)
    return "\n".join([
        f"unit cards: {show_path(a.units_dir)} ({a.units_status}); "
        f"dice: {a.dice}, {a.dice_status}",
        "ranges and close_combat: dice vs armoured vehicles / vs infantry and artillery (4.2.2)",
        "",
        body,
        "",
        "source: 'illustrative' values are the project's choice; 'rulebook' names the sections "
        "that state some values (see the 'stated' column of --format csv/json).",
    ]) + "\n"


def show_path(path: str) -> str:
    from pathlib import Path

    from simulator.run.datafile import REPO_ROOT

    try:
        return str(Path(path).resolve().relative_to(REPO_ROOT))
    except ValueError:
        return path


def units_json(answer: UnitCards) -> dict:
    """The JSON of ``lanchester assault units --format json``: the answer's own rendering."""
    return answer.to_json()
