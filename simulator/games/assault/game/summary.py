"""What a scenario file sets up, in a few lines (``lanchester assault check``, as Tide of
Iron's check summarises): the map, the turns, each side's units, the objectives and each
side's victory conditions (3.1, 6.6, 9.7). It reads the loaded file; nothing is compiled."""

from __future__ import annotations

from simulator.games.assault.game.scenario_format import Scenario, SideVictory


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def side_units(scenario: Scenario, side: str) -> dict:
    """``{"at_start", "reinforcements", "formations"}``: the units a side sets up (fixed
    hexes and zones, 5.8), those arriving later (6.7), and its formation cards (5.6)."""
    s = scenario.sides[side]
    start = sum(f.count for f in s.units)
    later = sum(u.count for r in s.reinforcements for u in r.units) + \
        sum(d.count for r in s.reinforcements for d in r.draw_class)
    later_formations = sum(len(r.formations) for r in s.reinforcements)
    cards = 0 if s.formations is None else sum(s.formations.count(t) for t in ("infantry", "artillery", "vehicle"))
    return {"at_start": start, "reinforcements": later, "formations": cards + later_formations}


def victory_text(v: SideVictory, sudden: bool) -> str:
    """A side's conditions (all must be met, 3.1) in words."""
    parts = []
    if v.hold:
        parts.append("hold " + " and ".join(v.hold))
    if v.hold_count:
        parts.append(f"hold {_plural(v.hold_count, 'objective')}")
    if v.objective_points:
        parts.append(f"objective points {v.objective_points}+")
    if v.eliminate:
        parts.append(f"eliminate {_plural(v.eliminate, 'unit')}")
    if not parts:
        return "no conditions (cannot win by them)"
    return "; and ".join(parts) + (" (sudden death: any victory check, 6.6)" if sudden else " (at the end)")


def summary(scenario: Scenario) -> dict:
    """The file's set-up as JSON-ready values: map, turns, sides (units, victory), objectives."""
    sides = {}
    for name in scenario.side_names:
        sides[name] = {**side_units(scenario, name), "faction": scenario.sides[name].faction,
                       "victory": victory_text(scenario.sides[name].victory, scenario.sudden_death(name))}
    objectives = [{"hex": o.hex, "value": o.value, "name": o.name} for o in scenario.objective_list]
    return {"name": scenario.name, "map": f"{scenario.board.grid.cols} x {scenario.board.grid.rows}",
            "turns": scenario.turns, "sides": sides, "objectives": objectives,
            "if_neither": scenario.victory.if_neither}


def summary_lines(scenario: Scenario) -> list[str]:
    """:func:`summary` for people: one line for the game, one a side, one for the end."""
    s = summary(scenario)
    turns = _plural(s["turns"], "turn") if s["turns"] else "no turns (not playable: give turns)"
    objs = ", ".join(o["hex"] + (f" ({o['name']})" if o["name"] else "") + (f" worth {o['value']}"
                                                                          if o["value"] != 1 else "")
                     for o in s["objectives"]) or "none"
    lines = [f"{s['name']}: {s['map']} map, {turns}, objectives: {objs}"]
    for side, d in s["sides"].items():
        more = [f"{d['reinforcements']} as reinforcements"] if d["reinforcements"] else []
        more += [_plural(d["formations"], "formation card")] if d["formations"] else []
        lines.append(f"  {side} ({d['faction']}): {_plural(d['at_start'], 'unit')} at the start"
                     + (f", {', '.join(more)}" if more else "") + f"; wins by: {d['victory']}")
    lines.append(f"  if neither side wins: {s['if_neither']}")
    return lines
