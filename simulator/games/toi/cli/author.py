"""``lanchester toi schema | new``: tools for writing Tide of Iron scenario files, as
Assault's (:mod:`simulator.games.assault.cli.author`).

``schema`` prints the JSON Schema of a scenario file, generated from the model the loader
and ``toi check`` validate with (:class:`simulator.games.toi.game.scenario.ScenarioFile`),
so the schema, the loader and the checker cannot drift apart; ``new`` writes a commented
starter scenario (``scenarios/toi/templates/starter.toml``) that passes ``toi check``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import click

from simulator import cliopts
from simulator.run.errors import InputError

ROOT = Path(__file__).resolve().parents[4]
STARTER = ROOT / "scenarios" / "toi" / "templates" / "starter.toml"
SCHEMA_FILE = ROOT / "docs" / "toi-scenario.schema.json"
SUFFIX = ".scenario.toml"


def scenario_schema() -> dict:
    """The JSON Schema (draft 2020-12) of a Tide of Iron scenario file."""
    from simulator.games.toi.game.scenario import ScenarioFile
    schema = ScenarioFile.model_json_schema(by_alias=True)
    return {**schema, "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Tide of Iron scenario file (lanchester)"}


def schema_text() -> str:
    return json.dumps(scenario_schema(), indent=2, sort_keys=True) + "\n"


def starter_text(name: str, path: Path) -> str:
    """The starter scenario for ``name``, to be written at ``path`` (its ``#:schema`` line
    points to docs/toi-scenario.schema.json relative to the file's folder)."""
    title = " ".join(w.capitalize() for w in re.split(r"[-_\s]+", name) if w)
    try:
        schema = Path(os.path.relpath(SCHEMA_FILE, path.resolve().parent)).as_posix()
    except ValueError:          # another drive (Windows): no relative path
        schema = SCHEMA_FILE.as_posix()
    text = STARTER.read_text(encoding="utf-8")
    return (text.replace("{schema}", schema).replace("{name}", title).replace("{title}", title)
            .replace("{file}", str(path)))


@click.command("schema")
@cliopts.out_file("the schema", (".json",))
def schema_command(out):
    """Print the JSON Schema of a Tide of Iron scenario file (docs/toi-scenario.schema.json).

    TOML editors that validate against a JSON Schema (for example with a
    ``#:schema PATH`` first line, as the starter scenario has) then flag unknown keys
    and wrong types as you type. Every key: docs/toi-scenarios.md.

    \b
    Examples:
      lanchester toi schema
      lanchester toi schema --out toi-scenario.schema.json
    """
    from simulator.run.output import atomic_write_text

    text = schema_text()
    if out:
        atomic_write_text(out, text)
    else:
        click.echo(text, nl=False)


@click.command("new")
@click.argument("name")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def new_command(name, force):
    """Write NAME.scenario.toml, a commented starter Tide of Iron scenario that passes
    ``toi check`` and plays.

    NAME may be a path (``scenarios/mine/farm``); the suffix is added when missing.

    \b
    Examples:
      lanchester toi new farm-attack
      lanchester toi check farm-attack.scenario.toml
      lanchester toi scenario farm-attack.scenario.toml --games 500 --watch
    """
    from simulator.run.output import atomic_write_text

    path = Path(name if name.endswith(SUFFIX) else name + SUFFIX)
    stem = path.name[: -len(SUFFIX)]
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", stem):
        raise InputError("NAME", "", f"{stem!r}: use letters, digits, '-' and '_' (e.g. farm-attack)")
    if path.exists() and not force:
        raise InputError(str(path), "", "file exists (use --force to overwrite)")
    if not path.parent.is_dir():
        raise InputError(str(path), "", f"folder {str(path.parent)!r} does not exist")
    atomic_write_text(path, starter_text(stem, path))
    click.echo(f"wrote {path}: check it with 'lanchester toi check {path}'")
