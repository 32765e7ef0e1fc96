"""``lanchester demo``: the main job on the bundled defaults, written as a report.

The main job is the balance report of the default scenario, Infantry Training (greedy
against greedy, 10,000 games, what-ifs on the number of turns and the close-combat
edition), exactly as ``lanchester assault scenario ... --out`` makes it. Beside it, the
Tide of Iron balance report of Two Farms (greedy against greedy, 3,000 games, a what-if
on who starts with the initiative), as ``lanchester toi scenario ... --out`` makes it.
With them: the
dice-odds and ranged-fire examples (the worked example of 11.0, German Rifles '41 fire
at Soviet Heavy Rifles '41 at range 3 in the open, pools RY against YG, and the same
fire into forest, exactly and by Monte Carlo) and the German-against-Soviet matchup
matrix in the open.

The quick answers come first, while on a fresh machine the scenario engine compiles in
the background on both cores (:mod:`simulator.games.assault.game.warmup`), and Tide of Iron's
beside it (:mod:`simulator.games.toi.game.warmup`); each scenario is played once its engine
is ready. The index still lists the main job first.

The report folder holds one report bundle per question (CSV, PNG charts,
summary.json, index.html; see :mod:`reports.bundle`) and a top ``index.html``
linking them. The folder is written whole or not at all.

The click command is :mod:`simulator.cli_demo`; this module is what it runs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import click

if TYPE_CHECKING:   # annotations only: the modules load when a command runs
    from reports.bundle import Report


DEMO_QUESTIONS = (("RY", "YG"), ("RRY", "YG"), ("RY", "YYG"))
DEMO_FIRE = (("german/rifles-41", "soviet/heavy-rifles-41", {"range": 3}, "open"),   # FireSituation fields
             ("german/rifles-41", "soviet/heavy-rifles-41", {"range": 3, "terrain": "forest"}, "forest"))
DEMO_MATRIX = ("german", "soviet", (1, 2, 3, 4, 5, 6), ("clear",))
# Files of the demo's earlier flat layout, replaced without asking.
_OLD_DEMO_FILE = re.compile(r"(odds|fire)-.*-(exact|monte-carlo)\.(csv|json)")


DEMO_SCENARIO = "infantry-training"
DEMO_VARY = ("turns=5,7", "edition=v2")
DEMO_GAMES = 10_000   # with the what-ifs 40,000 games: the whole demo within 3 min on a fresh 2-core machine


DEMO_TOI_SCENARIO = "two-farms"
DEMO_TOI_VARY = ("initiative=german",)   # the scenario gives one side the initiative: who starts, measured
DEMO_TOI_GAMES = 3_000   # at most (the demo's --games caps it): with the what-if 6,000 games, seconds once compiled


def toi_scenario_entry(seed: int, games: int, compiling=None):
    """The Tide of Iron balance report of Two Farms, played into its subfolder once its
    engine's background compile (``compiling``, :func:`simulator.games.toi.game.warmup.start`)
    is done."""

    from reports.scenario_text import report_table
    from simulator.engine.core.answers import BalanceReport
    from simulator.games.toi.game import warmup
    from simulator.games.toi.report.bundles import scenario_bundle

    def build(folder: Path) -> Report:
        warmup.finish(compiling)
        report, bundle = scenario_bundle(DEMO_TOI_SCENARIO, folder, games=games, seed=seed,
                                         players="greedy,greedy", vary=DEMO_TOI_VARY)
        click.echo(report_table(BalanceReport.of(report)))
        return bundle
    return f"toi-scenario-{DEMO_TOI_SCENARIO}", build


def scenario_entry(seed: int, games: int):
    """The balance report of the default scenario, played into its subfolder."""

    from reports.scenario_text import report_table
    from simulator.engine.core.answers import BalanceReport
    from simulator.games.assault.report.bundles import scenario_bundle

    def build(folder: Path) -> Report:
        # no "what matters most": at the demo's 300 games it never fits the batch's time
        report, bundle = scenario_bundle(DEMO_SCENARIO, folder, games=games, seed=seed, players="greedy,greedy",
                                         vary=DEMO_VARY, what_matters="off")
        click.echo(report_table(BalanceReport.of(report)))
        return bundle
    return f"scenario-{DEMO_SCENARIO}", build


def demo_reports(seed: int, trials: int, games: int = DEMO_GAMES) -> Iterator[tuple[str, Report]]:
    """Each question's report, as (folder name, report), printing the tables as it goes:
    the quick answers first, the scenarios last (their engines compiled meanwhile): Assault's,
    then Tide of Iron's (``games`` capped at :data:`DEMO_TOI_GAMES`)."""
    from simulator.games.assault.game import warmup
    from simulator.games.toi.game import warmup as toi_warmup

    compiling = warmup.start()
    toi_compiling = toi_warmup.start()
    try:
        yield from quick_reports(seed, trials)
        warmup.finish(compiling)
        yield scenario_entry(seed, games)
        yield toi_scenario_entry(seed, min(games, DEMO_TOI_GAMES), toi_compiling)
    finally:
        if toi_compiling is not None and toi_compiling.poll() is None:   # a demo stopped early
            toi_compiling.kill()


def quick_reports(seed: int, trials: int) -> Iterator[tuple[str, Report]]:
    """The odds, fire and matrix questions (seconds each)."""
    from simulator.games.assault.questions.fire import fire
    from simulator.games.assault.questions.matrix import matchup_answer
    from simulator.games.assault.questions.odds import odds_outcomes
    from simulator.games.assault.report.bundles import fire_report, matrix_report, odds_report
    from simulator.games.assault.report.text import fire_json, fire_table, odds_json, odds_table
    from simulator.games.assault.rules.pools import FireSituation

    for attack, defence in DEMO_QUESTIONS:
        answers = [odds_outcomes(attack, defence),
                   odds_outcomes(attack, defence, trials=trials, seed=seed, progress="demo")]
        for answer in answers:
            click.echo(odds_table(answer))
        report = odds_report(answers)
        report.result = {x.method: odds_json(x) for x in answers}   # summary.json: the full answers
        yield f"odds-{attack}-vs-{defence}", report
    for firer, target, fields, label in DEMO_FIRE:
        situation = FireSituation(**fields)
        fired = [fire(firer, target, situation),
                 fire(firer, target, situation, trials=trials, seed=seed, progress="demo")]
        for answer in fired:
            click.echo(fire_table(answer, explain=not answer.how.monte_carlo))
        stem = f"fire-{firer.split('/')[1]}-vs-{target.split('/')[1]}-{label}"
        report = fire_report(fired, terrain=situation.terrain)
        report.result = {x.method: fire_json(x) for x in fired}
        yield stem, report
    firers, targets, ranges, terrains = DEMO_MATRIX
    answer = matchup_answer([firers], [targets], ranges, terrains)
    click.echo(f"matchup matrix {firers} vs {targets}: {answer.cells:,} cells in {answer.seconds:.2f} s\n")
    yield f"matrix-{firers}-vs-{targets}", matrix_report(answer, "p_eliminated")


def clear_old_layout(out: Path) -> None:
    """Remove the flat files an older ``lanchester demo`` wrote, so the folder can be replaced."""
    from reports.bundle import is_report

    if not out.is_dir() or is_report(out):
        return
    entries = list(out.iterdir())
    if entries and all(p.is_file() and _OLD_DEMO_FILE.fullmatch(p.name) for p in entries):
        for p in entries:
            p.unlink()
