"""``lanchester toi ...``: the Tide of Iron commands.

Each command lives in its own module and is imported only when it runs
(:class:`simulator.cli_lazy.LazyGroup`), so ``lanchester toi --help`` loads none of them.
"""

from __future__ import annotations

import click

from simulator.cli_lazy import LazyGroup

COMMANDS = {
    "fire": ("simulator.games.toi.cli.fire:fire_command", "Odds of a ranged attack, from strengths or from units."),
    "minefield": ("simulator.games.toi.cli.minefield:minefield_command", "Odds for a unit entering a minefield."),
    "assault": ("simulator.games.toi.cli.assault:assault_command",
                "Odds of an assault: success, hits, losses, retreat."),
    "units": ("simulator.games.toi.cli.units:units_command", "The roster, the readings kept as data, the terrain."),
    "scenario": ("simulator.games.toi.cli.scenario:scenario_command",
                 "Play a scenario many times with computer players and report its balance."),
    "replay": ("simulator.games.toi.cli.replay:replay_command", "Play game K of a batch again, decision by decision."),
    "learn": ("simulator.games.toi.cli.learn:learn_command",
              "Fit the scenario's learned position value and show its calibration."),
    "check": ("simulator.games.toi.cli.map:check_command", "Check a scenario file and report every problem."),
    "map": ("simulator.games.toi.cli.map:map_command", "Draw a scenario map as a PNG."),
    "los": ("simulator.games.toi.cli.map:los_command", "Line of sight between two hexes of a scenario map."),
    "new": ("simulator.games.toi.cli.author:new_command", "Write a commented starter scenario that passes check."),
    "schema": ("simulator.games.toi.cli.author:schema_command", "Print the JSON Schema of a scenario file."),
}


@click.group("toi", cls=LazyGroup, lazy=COMMANDS)
def toi() -> None:
    """Tide of Iron: odds of ranged fire, assaults and minefields; the roster; whole games;
    scenario files, maps and replays.

    \b
    Examples:
      lanchester toi fire --attack-strength 6 --defence-strength 2 --range normal --target squad:4
      lanchester toi fire --attacker sherman --target tiger --distance 4
      lanchester toi assault --attacker squad:4regular --defender squad:3regular:entrenchment
      lanchester toi units
      lanchester toi scenario two-farms --games 2000 --seed 7
      lanchester toi learn two-farms --out two-farms-value/
      lanchester toi replay two-farms --seed 7 --game 12
      lanchester toi check two-farms
      lanchester toi map two-farms --los-from 1,4
      lanchester toi los two-farms 0,6 5,1
      lanchester toi new farm-attack
      lanchester toi schema --out toi-scenario.schema.json
    """
