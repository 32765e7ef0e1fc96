"""Closest valid names for a misspelt one: "did you mean ...?" in error messages.

Two sources of valid names: a plain list (unit ids, scenario names, terrain keys), and
the keys a pydantic model accepts at a place in a data file (:func:`keys_at`), so an
"unknown key" error can name the key the designer meant.
"""

from __future__ import annotations

import difflib
import types
import typing
from typing import Any, Iterable

import pydantic


def closest(word: str, choices: Iterable[str], n: int = 3) -> list[str]:
    """The valid names nearest to ``word``, best first (case-insensitive; may be empty)."""
    choices = list(dict.fromkeys(str(c) for c in choices))
    lower = {c.lower(): c for c in choices}
    hits = difflib.get_close_matches(str(word).lower(), list(lower), n=n, cutoff=0.6)
    return [lower[h] for h in hits]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``" (did you mean 'x'?)"``, ``" (did you mean 'x' or 'y'?)"``, or ``""``."""
    hits = closest(word, choices)
    if not hits:
        return ""
    quoted = [repr(h) for h in hits]
    text = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
    return f" (did you mean {text}?)"


def _models_in(annotation: Any) -> list[type[pydantic.BaseModel]]:
    """The pydantic models an annotation can hold directly (through Optional and unions)."""
    if isinstance(annotation, type) and issubclass(annotation, pydantic.BaseModel):
        return [annotation]
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return [m for a in typing.get_args(annotation) for m in _models_in(a)]
    return []


def _step(annotation: Any, part: Any) -> tuple[Any, bool]:
    """Follow one location part into an annotation: (annotation after it, consumed)."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (list, tuple) and isinstance(part, int):
        return (args[0] if args else Any), True
    if origin is dict:
        return (args[1] if len(args) == 2 else Any), True
    if origin in (typing.Union, types.UnionType):
        containers = [a for a in args if typing.get_origin(a) in (list, tuple, dict)]
        if len(containers) == 1:
            return _step(containers[0], part)
    return annotation, False


def _union_member(annotation: Any, part: Any) -> Any | None:
    """Pydantic names the union member it tried in an error's location ("Objective" in
    ``objectives.0.Objective.hexx``): that member, or None when ``part`` names none."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        for a in typing.get_args(annotation):
            if getattr(a, "__name__", None) == part:
                return a
    return None


def _field_names(model: type[pydantic.BaseModel]) -> dict[str, Any]:
    """Every key a model accepts (alias when it has one) -> its annotation."""
    return {(f.alias or name): f.annotation for name, f in model.model_fields.items()}


def keys_at(model: type[pydantic.BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The keys ``model`` accepts in the table that holds location ``loc`` (the error's
    location, its last part being the unknown key). Empty when the place is not a model."""
    annotation: Any = model
    for part in loc[:-1]:
        member = _union_member(annotation, part)
        if member is not None:
            annotation = member
            continue
        models = _models_in(annotation)
        if models:
            fields = _field_names(models[0])
            if part not in fields:
                return []
            annotation = fields[part]
            continue
        annotation, consumed = _step(annotation, part)
        if not consumed:
            return []
    models = _models_in(annotation)
    return list(_field_names(models[0])) if models else []
