"""``lanchester assault ...``: the Assault commands.

Each command lives in its own module and is imported only when it runs
(:class:`simulator.cli_lazy.LazyGroup`), so ``lanchester assault --help`` loads none of them.
"""

from __future__ import annotations

import click

from simulator.cli_lazy import LazyGroup

COMMANDS = {
    "odds": ("simulator.games.assault.cli.odds:odds_command", "Odds of ATTACK dice rolled against DEFENCE dice (10.7.2)."),
    "fire": ("simulator.games.assault.cli.fire:fire_command", "What happens when FIRER fires at TARGET (chapter 10)."),
    "resolve": ("simulator.games.assault.cli.fire:resolve_command", "Adjudicate one given roll (10.7.2-10.7.6)."),
    "melee": ("simulator.games.assault.cli.melee:melee_command", "Close combat of ATTACKER entering DEFENDER's hex (chapter 12)."),
    "smoke": ("simulator.games.assault.cli.support:smoke_command", "How many smoke markers FIRER lands in each hex (7.5)."),
    "terrain-damage": ("simulator.games.assault.cli.support:terrain_damage_command",
                       "What entering TERRAIN does to VEHICLE (9.10.1, 9.10.2)."),
    "units": ("simulator.games.assault.cli.units:units", "List the unit cards."),
    "matrix": ("simulator.games.assault.cli.matrix:matrix_command", "Matchup matrix: every firer against every target."),
    "los": ("simulator.games.assault.cli.map:los_command", "Line of sight between two hexes of a scenario map."),
    "map": ("simulator.games.assault.cli.map:map_command", "Draw a scenario map as a PNG."),
    "scenarios": ("simulator.games.assault.cli.map:scenarios_command", "List the shipped scenarios."),
    "check": ("simulator.games.assault.cli.map:check_command", "Check a scenario file and report every problem."),
    "scenario": ("simulator.games.assault.cli.scenario:scenario_command",
                 "Play scenario NAME many times with computer players: is it balanced?"),
    "replay": ("simulator.games.assault.cli.scenario:replay_command", "Play game K of a batch again, turn by turn."),
    "learn": ("simulator.games.assault.cli.learn:learn_command",
              "Fit the scenario's learned position value and show its calibration."),
    "schema": ("simulator.games.assault.cli.author:schema_command", "Print the JSON Schema of a scenario file."),
    "new": ("simulator.games.assault.cli.author:new_command", "Write a commented starter scenario."),
}


@click.group("assault", cls=LazyGroup, lazy=COMMANDS)
def assault() -> None:
    """Assault Red Horizon '41: dice odds, ranged fire, close combat, scenarios."""
