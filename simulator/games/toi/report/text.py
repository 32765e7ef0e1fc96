"""Terminal text and JSON of the Tide of Iron answers: what ``lanchester toi fire``,
``minefield``, ``assault`` and ``units`` print (``--format table`` and ``json``).

Presentation only: each function takes what :mod:`simulator.games.toi.questions.odds` computed (an
answer of :mod:`simulator.games.toi.questions.answers`, or an assault replayed from given
dice) and returns text or a dict. No heavy module-level imports, so ``lanchester toi ... --help`` loads neither
numpy nor pandas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:   # annotations only
    import pandas as pd

    from simulator.games.toi.questions.answers import AssaultAnswer, FireAnswer


def _how(a: FireAnswer | AssaultAnswer) -> str:
    if a.method == "monte-carlo":
        return f"Monte Carlo, {a.trials:,} trials, seed {a.seed}"
    return "exact"


def _se(a: FireAnswer | AssaultAnswer, key: str):
    return a.summary.get("se", {}).get(key) if a.method == "monte-carlo" else None


# ---------------------------------------------------------------- fire

def fire_json(answer: FireAnswer) -> dict:
    """The JSON of ``toi fire`` and ``toi minefield``: the answer's own rendering."""
    return answer.to_json()


def _contribution_lines(a: FireAnswer) -> list[str]:
    lines = []
    for c in a.contributions:
        how = "full" if not c["halvings"] else "half: " + "; ".join(c["halvings"])
        lines.append(f"  {c['role']:7s} {c['unit']}: FPR {c['fpr']} ({how}) -> {c['strength']}; "
                     f"range {c['range']} at {c['distance']} hex{'es' if c['distance'] != 1 else ''} = {c['band']}")
        lines += [f"          {n}" for n in c["notes"]]
    return lines


def fire_table(answer: FireAnswer) -> str:
    from simulator.run.output import pct
    from simulator.run.stats import at_least

    a, frame = answer, answer.frame()
    mc = a.method == "monte-carlo"
    kind = {"area": f"area attack ({a.mode})", "minefield": "minefield entry"}.get(a.kind, f"{a.mode} attack")
    lines = [f"Tide of Iron {kind} ({_how(a)})", f"data: {a.data}", ""]
    lines.append(f"attack strength {a.attack_strength}")
    lines += _contribution_lines(a)
    defence = f"defence strength {a.defence_strength}"
    if a.contributions:
        defence += f" = armour {a.armour} + cover {a.cover}"
    lines.append(defence + ("; thick armour (one red die may be turned to 6)" if a.thick_armour else ""))
    lines += [f"  {n}" for n in a.notes]
    if a.kind != "minefield":
        lines.append(f"range {a.range}: black dice hit on {a.success_on}, "
                     f"red dice cancel on {a.defence_success_on}")
    if a.target:
        lines.append(f"target: {a.target}")
    lines += ["", "hits   P(exactly)         P(at least)"]
    p = frame["p"].to_numpy()
    for k, (pk, ak) in enumerate(zip(p, at_least(p), strict=True)):
        se = frame["se"].iloc[k] if mc else None
        lines.append(f"{k:4d}   {pct(pk, se):17s}  {pct(ak)}")
    s = a.summary
    lines += ["", f"mean hits {s['mean_hits']:.4f}" + (f" ±{_se(a, 'mean_hits'):.4f}" if mc else "")
              + f"   P(at least one hit) {pct(s['p_hit'], _se(a, 'p_hit'))}"]
    if a.states:
        lines.append("target afterwards:")
        lines += [f"  {st['state']:12s} {pct(s[st['key']], _se(a, st['key']))}" for st in a.states]
        if "mean_figures_lost" in s:
            lines.append(f"  mean figures lost {s['mean_figures_lost']:.4f}"
                         + (f" ±{_se(a, 'mean_figures_lost'):.4f}" if mc else ""))
    if "p_wire_removed" in s:
        roll = f", the hex's roll against {a.wire_roll}" if a.wire_roll else ""
        lines.append(f"P(razor wire removed{roll}) {pct(s['p_wire_removed'], _se(a, 'p_wire_removed'))}")
    lines += [f"not attacked: {u}" for u in a.unaffected]
    return "\n".join(lines) + "\n"


def area_frame(answers: list[FireAnswer]) -> pd.DataFrame:
    """One tidy table for an area attack on several units: a ``target`` column added."""
    import pandas as pd

    return pd.concat([a.frame().assign(target=a.target) for a in answers], ignore_index=True)


# ---------------------------------------------------------------- assault

def assault_json(answer: AssaultAnswer) -> dict:
    """The JSON of ``toi assault``: the answer's own rendering."""
    return answer.to_json()


def _part_lines(a: AssaultAnswer) -> list[str]:
    lines = []
    for p in a.parts:
        how = "full" if not p["halvings"] else "; ".join(p["halvings"])
        lines.append(f"  {p['role']:8s} {p['unit']}: FPR {p['fpr']} ({how}) -> {p['strength']}"
                     + "".join(f"; {n}" for n in p["notes"]))
    return lines


def _pmf_lines(a: AssaultAnswer, mc: bool) -> list[str]:
    from simulator.run.output import pct

    att, dfn = a.hits, a.defender_hits
    lines = ["hits   attacker's hits      defender's hits"]
    for k in range(max(len(att), len(dfn))):
        x = pct(att[k]["p"], att[k].get("se")) if k < len(att) else ""
        y = pct(dfn[k]["p"], dfn[k].get("se")) if k < len(dfn) else ""
        lines.append(f"{k:4d}   {x:19s}  {y}")
    return lines


def assault_table(answer: AssaultAnswer) -> str:
    from simulator.run.output import pct

    a, s = answer, answer.summary
    mc = a.method == "monte-carlo"
    lines = [f"Tide of Iron assault ({_how(a)})", f"data: {a.data}", "",
             f"attack strength {a.attack_strength} (black dice hit on 4-6), "
             f"defender strength {a.defender_strength}, cover dice {a.defence_strength} (cancel on 5-6)"]
    lines += _part_lines(a)
    lines += [f"  cover: {n}" for n in a.cover_notes]
    spare = "figures" if a.hit_policy == "vehicles-first" else "vehicles"
    lines += [f"retreat room {a.retreat_space} unit(s); the defender chooses his hits and who retreats, "
              f"sparing {spare} first ({a.hit_policy})", ""]
    lines += _pmf_lines(a, mc) + [""]
    rows = [("P(assault succeeds)", "p_success"), ("P(active squad eliminated)", "p_active_eliminated"),
            ("P(all defenders destroyed)", "p_defenders_eliminated")]
    lines += [f"{name:30s} {pct(s[key], _se(a, key))}" for name, key in rows]
    means = [("mean attacker hits", "mean_attacker_hits"), ("mean defender hits", "mean_defender_hits"),
             ("mean attacker losses", "mean_attacker_losses"), ("mean defender losses (hits)", "mean_defender_losses"),
             ("mean defender figures lost", "mean_defender_figures_lost")]
    lines += [f"{name:30s} {s[key]:.4f}" + (f" ±{_se(a, key):.4f}" if mc else "") for name, key in means]
    lines.append("defenders afterwards:")
    for d in a.defenders:
        se = d.get("se", {})
        bits = [f"{k[2:]} {pct(v, se.get(k)).strip()}" if k.startswith("p_") else
                f"{k.replace('_', ' ')} {v:.3f}" + (f" ±{se[k]:.3f}" if k in se else "")
                for k, v in d.items() if k not in ("unit", "se", "ci95")]
        lines.append(f"  {d['unit']}: " + ", ".join(b.replace("_", " ") for b in bits))
    return "\n".join(lines) + "\n"


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


# ---------------------------------------------------------------- roster

def units_table(game, roster: pd.DataFrame, readings: pd.DataFrame) -> str:
    """The roster, the reconstructed values and readings kept as data, the terrain features."""
    import pandas as pd

    table = roster.to_string(index=False) + "\n\n* reconstructed value; see scenarios/toi/units.toml\n"
    table += ("\nreconstructed values and readings kept as data (write the alternative as the value to switch;\n"
              "sources and reasoning in units.toml, docs/rulings.md)\n"
              + readings[["key", "value", "alternative"]].to_string(index=False) + "\n")
    features = [{"id": k, "kind": f.kind, "cover": str(f.cover.value) if f.cover else "as main terrain",
                 "cover_for": f.cover_for,
                 "assault_cover": f.assault_cover, "halves_fpr_of": f.halves_fpr_of,
                 "closed_to": f.closed_to, "smoke": "never" if f.no_smoke else "may"} for k, f in
                game.terrain.features.items()]
    return table + "\nterrain features\n" + pd.DataFrame(features).to_string(index=False) + "\n"


def units_json(game, readings: pd.DataFrame) -> dict:
    return {"units": game.units.model_dump(), "terrain": game.terrain.model_dump(), "digest": game.digest,
            "readings": readings.to_dict("records")}
