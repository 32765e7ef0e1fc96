"""``lanchester toi assault``: the odds of an assault, or one assault replayed from given dice."""

from __future__ import annotations

import click

from simulator import cliopts
from simulator.run.errors import InputError
from simulator.run.vocabulary import HIT_POLICIES


def _replay_faces(text: str) -> tuple[list[int], list[int], list[int]]:
    parts = text.split("/")
    if len(parts) != 3:
        raise InputError("--replay", "", "give three lists of faces: ATTACK/COVER/DEFENDER, e.g. '6,5,4/5/4,1'")
    try:
        return tuple([int(x) for x in p.replace(" ", ",").split(",") if x.strip()] for p in parts)  # type: ignore
    except ValueError:
        raise InputError("--replay", "", f"faces must be numbers 1-6 (got {text!r})") from None


@click.command("assault")
@click.option("--attacker", required=True, metavar="SQUAD", help="The active squad, e.g. squad:4regular.")
@click.option("--supporter", multiple=True, metavar="SQUAD", help="Supporting squad (up to two).")
@click.option("--defender", multiple=True, required=True, metavar="UNIT",
              help="A unit in the assaulted hex (squads, light vehicles); repeatable.")
@click.option("--terrain", default=None, metavar="NAME", help="Terrain of the assaulted hex (e.g. woods).")
@click.option("--smoke", is_flag=True, help="Smoke in the assaulted hex.")
@click.option("--wire", is_flag=True, help="Razor wire in the assaulted hex (defending squads at half FPR).")
@click.option("--minefield", "mines", is_flag=True, help="Minefield in the assaulted hex (defenders at half FPR).")
@click.option("--cover", type=int, default=0, metavar="N", help="Extra cover dice.")
@click.option("--retreat-space", type=int, default=3, show_default=True, metavar="N",
              help="Units the best retreat hex can still take (0: no retreat hex, all destroyed).")
@click.option("--hits-to", "hit_policy", type=click.Choice(HIT_POLICIES), default="vehicles-first",
              show_default=True, help="Which the defender values more when he chooses his casualties: "
                                      "vehicles-first spares figures, squads-first spares vehicles "
                                      "(docs/rulings.md T13).")
@click.option("--replay", "replay_dice", default=None, metavar="A/C/D",
              help="Resolve one assault from rolled faces: attack dice / cover dice / defender dice.")
@cliopts.exact
@cliopts.trials
@cliopts.seed
@cliopts.monte_carlo
@cliopts.toi_data_files
@cliopts.fmt
@cliopts.out
def assault_command(attacker, supporter, defender, terrain, smoke, wire, mines, cover, retreat_space, hit_policy,
                    replay_dice, exact, trials, seed, run_options, units_file, terrain_file, fmt, out):
    """Odds of an assault (002; 001 Assault attacks): success, hits, losses, retreat.

    \b
    Examples:
      lanchester toi assault --attacker squad:4regular --supporter squad:4regular \\
          --supporter squad:3regular:fatigued --defender squad:3regular:entrenchment --defender sdkfz_251
      lanchester toi assault --attacker squad:4regular:flamethrower --defender squad:4regular:pillbox --terrain woods
      lanchester toi assault --attacker squad:4regular --defender squad:2regular:pinned \\
          --retreat-space 0 --trials 1000000
      lanchester toi assault --attacker squad:4regular --supporter squad:4regular --supporter squad:3regular \\
          --defender squad:3regular:entrenchment --defender sdkfz_251 --replay 6,5,4,4,6,5,2,1/5,3/4,6,1,2,3,1,2
    """
    import pandas as pd

    from reports.bundle import emit_report
    from simulator.games.toi.questions.odds import assault, hex_features_of
    from simulator.games.toi.report import bundles as toi_reports
    from simulator.games.toi.report.text import assault_json, assault_table, replay_json, replay_text
    from simulator.games.toi.rules.assault import build_assault, replay
    from simulator.games.toi.rules.data import load_game
    from simulator.games.toi.rules.units import parse_unit

    game = load_game(units_file, terrain_file)
    files = {"units_file": units_file, "terrain_file": terrain_file}   # for the report's provenance
    extra = ("razor_wire",) * wire + ("minefield",) * mines
    setup = build_assault(game, parse_unit(attacker, game, "--attacker"),
                          [parse_unit(s, game, "--supporter") for s in supporter],
                          [parse_unit(d, game, "--defender") for d in defender],
                          hex_features=hex_features_of(terrain, smoke, game, extra), extra_cover=cover,
                          retreat_space=retreat_space, hit_policy=hit_policy)
    if replay_dice is not None:
        result = replay(setup, *_replay_faces(replay_dice))
        obj = replay_json(result)
        frame = pd.DataFrame([{"attacker_hits": result.attacker_hits, "defender_hits": result.defender_hits,
                               "success": result.success}])
        emit_report(fmt, out, table=replay_text(setup, result), frame=frame, obj=obj,
                    report=lambda: toi_reports.replay_report(frame, obj, **files))
        return
    answer = assault(setup, game=game, **cliopts.run_arguments(exact, trials, seed, run_options, "assault"))
    emit_report(fmt, out, table=assault_table(answer), frame=answer.frame(), obj=assault_json(answer),
                report=lambda: toi_reports.assault_report(answer, **files))
