"""``lanchester toi replay``: game K of a ``lanchester toi scenario`` batch again, decision
by decision (:func:`simulator.games.toi.game.replay.replay_game`), as ``lanchester assault
replay``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from simulator import cliopts
from simulator.run.errors import InputError

if TYPE_CHECKING:
    from simulator.games.toi.game.scenario import Scenario

FOLDER = "replay.txt, replay.json, events.csv, final.png and viewer.html (the game step by step on the map)"


@click.command("replay")
@click.argument("name")
@click.option("--seed", type=click.IntRange(min=0), required=True, metavar="S", help="Seed of the batch.")
@cliopts.replay_choice("rounds")
@click.option("--players", default="greedy,greedy", show_default=True, metavar="P1,P2",
              help="Players of the first and second side, as the batch had them: random, greedy.")
@click.option("--png", type=click.Path(), default=None, metavar="DIR_OR_FILE",
              help="Also draw the final position: a file NAME.png, or a folder (NAME-seed-S-game-K.png in it).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@cliopts.out_folder(FOLDER)
@click.option("--vary", multiple=True, metavar="KEY=VALUE",
              help="Replay a game of a what-if batch ('toi scenario --vary KEY=...'): the scenario with KEY set to "
                   "VALUE, one value a key (repeatable: all apply). Keys as 'toi scenario --vary'. Example: "
                   "--vary count.american.4regular=2")
def replay_command(name, seed, game_index, pick, pick_games, players, png, fmt, out, vary):
    """Play game K of the batch "lanchester toi scenario NAME --seed S" again and print
    it decision by decision: the round, the side, the action, the events it caused;
    then the result and the final position.

    Same seed and players as the batch give exactly that game (the same decision limit
    too); the first game is 0.

    \b
    Examples:
      lanchester toi replay two-farms --seed 7 --game 12
      lanchester toi replay two-farms --seed 7 --game 12 --players random,greedy --format json
      lanchester toi replay ridge-line --seed 3 --game 0 --png final.png
      lanchester toi replay ridge-line --seed 3 --pick typical-loss:german --out loss/
      lanchester toi replay two-farms --seed 7 --game 12 --out game12/
      lanchester toi replay two-farms --seed 7 --game 3 --vary rounds=5 --vary experience.german.2elite+mg=regular
    """
    from simulator.engine.core.background import loading
    from simulator.engine.core.batch import player_kinds
    from simulator.engine.players import interface
    from simulator.games.toi.game.game import Game
    from simulator.games.toi.game.replay import event_rows, final_position_png, replay_game, replay_json, replay_text
    from simulator.games.toi.game.warmup import COMPILE_ESTIMATE
    from simulator.run.output import atomic_write_bytes, emit, to_csv, to_json

    pl = player_kinds(players, players=interface)
    game = Game(varied(name, vary)) if vary else Game(name)
    if (game_index is None) == (pick is None):
        raise click.UsageError("give --game K or --pick typical-win:SIDE / typical-loss:SIDE (one of them)")
    from simulator.engine.core.typical import batch_frame, parse_pick, pick_typical
    chosen = parse_pick(pick, list(game.sides)) if pick else None
    target = None
    if png:                 # checked before the game is played
        target = Path(png)
        if target.suffix and target.suffix.lower() != ".png" and not target.is_dir():
            raise InputError("--png", png, "give a file name ending in .png, or a folder")
    with loading(COMPILE_ESTIMATE):
        if chosen:
            game_index = pick_typical(batch_frame(game, seed, pick_games, pl), *chosen, list(game.sides))
            if game_index is None:
                raise click.ClickException(f"no game of the {pick_games} of seed {seed} is a {chosen[1]} "
                                           f"{chosen[0]}: try more --games or another seed")
            click.echo(f"--pick {pick}: game {game_index} of {pick_games}", err=True)
        rp = replay_game(game, seed, game_index, pl)
    text = replay_text(rp)
    obj = replay_json(rp)
    if chosen:
        obj["picked"] = {"pick": pick, "games": pick_games}
    if vary:
        obj["vary"] = list(vary)
        text = f"what-if: {', '.join(vary)}\n" + text
    if target is not None:                                            # --png
        if target.suffix.lower() != ".png" or target.is_dir():      # the game is known now (--pick)
            target = target / f"{game.name}-seed-{seed}-game-{game_index}.png"
        atomic_write_bytes(target, final_position_png(rp), option="--png")
        click.echo(f"wrote {target}", err=True)
    if out is not None:
        import pandas as pd
        folder = Path(out)
        atomic_write_bytes(folder / "replay.txt", text.encode(), option="--out")
        atomic_write_bytes(folder / "replay.json", to_json(obj).encode(), option="--out")
        atomic_write_bytes(folder / "events.csv", to_csv(pd.DataFrame(event_rows(rp))).encode(), option="--out")
        atomic_write_bytes(folder / "final.png", final_position_png(rp), option="--out")
        from simulator.games.toi.report.bundles import replay_viewer_html
        atomic_write_bytes(folder / "viewer.html", replay_viewer_html(rp).encode(), option="--out")
        click.echo(f"wrote {folder} ({FOLDER})", err=True)
        return
    emit(to_json(obj) if fmt == "json" else text, None)


def varied(name: str, vary) -> Scenario:
    """The scenario ``name`` with each ``KEY=VALUE`` of ``vary`` applied in turn (the
    what-ifs of :mod:`simulator.games.toi.game.variants`; one value a key)."""
    from simulator.games.toi.game import variants as V
    from simulator.games.toi.game.scenario import load_scenario

    sc = load_scenario(name)
    for item in vary:
        for key, values in V.parse_vary([item], sc):
            if len(values) != 1:
                raise InputError("--vary", key, f"replay one value a key (got {len(values)}: "
                                                f"{', '.join(map(str, values))})")
            sc = V.variant(sc, key, values[0])
    return sc
