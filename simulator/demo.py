"""``lanchester demo``: the main job on the bundled defaults, written as a report.

Until the scenario engine lands this runs the dice-odds and ranged-fire examples:
the worked example of 11.0 (German Rifles '41 fire at Soviet Heavy Rifles '41 at
range 3 in the open, pools RY against YG) and the same fire into forest, exactly
and by Monte Carlo.
"""

from __future__ import annotations

from pathlib import Path

import click

from simulator.assault.cli import odds_json, odds_table
from simulator.assault.cli_fire import fire_json, fire_table
from simulator.assault.fire import fire
from simulator.assault.pools import FireSituation
from simulator.assault.odds import odds
from simulator.output import atomic_write_text, to_csv, to_json

DEMO_QUESTIONS = (("RY", "YG"), ("RRY", "YG"), ("RY", "YYG"))
DEMO_FIRE = (("german/rifles-41", "soviet/heavy-rifles-41", FireSituation(range=3), "open"),
             ("german/rifles-41", "soviet/heavy-rifles-41", FireSituation(range=3, terrain="forest"), "forest"))


@click.command("demo")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="out/demo",
              show_default=True, help="Folder for the report.")
@click.option("--seed", type=click.IntRange(min=0), default=2026, show_default=True)
@click.option("--trials", type=click.IntRange(min=1), default=2_000_000, show_default=True)
def demo(out_dir: str, seed: int, trials: int) -> None:
    """Run the bundled examples and write a report folder.

    \b
    Example:
      lanchester demo --out out/demo
    """
    out = Path(out_dir)
    for attack, defence in DEMO_QUESTIONS:
        for frame in (odds(attack, defence),
                      odds(attack, defence, trials=trials, seed=seed, progress="demo")):
            stem = f"odds-{attack}-vs-{defence}-{frame.attrs['method']}"
            atomic_write_text(out / f"{stem}.csv", to_csv(frame))
            atomic_write_text(out / f"{stem}.json", to_json(odds_json(frame)))
            click.echo(odds_table(frame))
    for firer, target, situation, label in DEMO_FIRE:
        for frame in (fire(firer, target, situation),
                      fire(firer, target, situation, trials=trials, seed=seed, progress="demo")):
            stem = f"fire-{firer.split('/')[1]}-vs-{target.split('/')[1]}-{label}-{frame.attrs['method']}"
            atomic_write_text(out / f"{stem}.csv", to_csv(frame))
            atomic_write_text(out / f"{stem}.json", to_json(fire_json(frame)))
            click.echo(fire_table(frame, explain=frame.attrs["method"] == "exact"))
    click.echo(f"report written to {out.resolve()}")
