"""``lanchester assault schema | new``: tools for writing scenario files.

``schema`` prints the JSON Schema of a scenario file, generated from the models the
loader validates with (so an editor checks a file as the designer types); ``new``
writes a commented starter scenario that passes ``check``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import click

from simulator import cliopts
from simulator.run.errors import InputError

STARTER = Path(__file__).resolve().parents[4] / "scenarios" / "assault" / "templates" / "starter.toml"
SUFFIX = ".scenario.toml"


def scenario_schema() -> dict:
    """The JSON Schema (draft 2020-12) of an Assault scenario file."""
    from simulator.games.assault.game.scenario_format import Scenario
    schema = Scenario.model_json_schema(by_alias=True)
    return {**schema, "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Assault scenario file (lanchester)"}


def schema_text() -> str:
    return json.dumps(scenario_schema(), indent=2, sort_keys=True) + "\n"


def starter_text(name: str, file: str) -> str:
    """The starter scenario for ``name`` (the comment tells ``file``)."""
    title = " ".join(w.capitalize() for w in re.split(r"[-_\s]+", name) if w)
    text = STARTER.read_text(encoding="utf-8")
    return text.replace("{name}", title).replace("{title}", title).replace("{file}", file)


@click.command("schema")
@cliopts.out_file("the schema", (".json",))
def schema_command(out):
    """Print the JSON Schema of a scenario file (docs/scenario.schema.json).

    TOML editors that validate against a JSON Schema (for example with a
    ``#:schema PATH`` first line, as the starter scenario has) then flag unknown keys
    and wrong types as you type.

    \b
    Examples:
      lanchester assault schema
      lanchester assault schema --out scenario.schema.json
    """
    from simulator.run.output import atomic_write_text

    text = schema_text()
    if out:
        atomic_write_text(out, text)
    else:
        click.echo(text, nl=False)


def schema_path_from(path: Path) -> str:
    """The ``#:schema`` path of a new scenario file at ``path``: the schema relative to the
    file's folder (the file and a copy of the project moved together keep it; issue 43),
    absolute only when no relative path exists (another drive)."""
    import os

    schema = Path(__file__).resolve().parents[4] / "docs" / "scenario.schema.json"
    try:
        return Path(os.path.relpath(schema, path.parent.resolve())).as_posix()
    except ValueError:
        return str(schema)


@click.command("new")
@click.argument("name")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def new_command(name, force):
    """Write NAME.scenario.toml, a commented starter scenario that passes ``check``.

    NAME may be a path (``scenarios/mine/river``); the suffix is added when missing.

    \b
    Examples:
      lanchester assault new river-crossing
      lanchester assault check river-crossing.scenario.toml
    """
    from simulator.run.output import atomic_write_text

    path = Path(name if name.endswith(SUFFIX) else name + SUFFIX)
    stem = path.name[: -len(SUFFIX)]
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", stem):
        raise InputError("NAME", "", f"{stem!r}: use letters, digits, '-' and '_' (e.g. river-crossing)")
    if path.exists() and not force:
        raise InputError(str(path), "", "file exists (use --force to overwrite)")
    if not path.parent.is_dir():
        raise InputError(str(path), "", f"folder {str(path.parent)!r} does not exist")
    text = starter_text(stem, str(path))
    text = text.replace("#:schema ../../docs/scenario.schema.json", f"#:schema {schema_path_from(path)}", 1)
    atomic_write_text(path, text)
    click.echo(f"wrote {path}: check it with 'lanchester assault check {path}'")
