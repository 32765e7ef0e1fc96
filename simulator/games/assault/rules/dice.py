"""Battle dice (4.5, 10.7) as data, and dice pools as pool strings.

A die is six faces; a face is a count of each symbol, strongest first:
``crit`` (critical hit), ``hit`` (damage point), ``supp`` (suppression). A face with
two or more symbols is a *double success* (10.7.1). Dice come from a TOML file
(``scenarios/assault/dice.toml`` by default, ``--dice FILE`` to swap in another),
listed strongest colour first (4.5: red > yellow > green > blue).

A pool is a tuple of die letters, strongest first. Pool strings: one letter per die
with an optional count before it, spaces or ``+`` between groups, ``-`` for an
empty pool: ``"RY"``, ``"2RG"`` (= R R G), ``"2R + G"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator

from simulator.run.datafile import SCENARIOS_DIR, file_digest, read_format, read_toml, validate
from simulator.run.errors import InputError

SYMBOLS = ("crit", "hit", "supp")
DEFAULT_DICE_FILE = SCENARIOS_DIR / "assault" / "dice.toml"
FACES_PER_DIE = 6

Face = tuple[int, int, int]  # (crit, hit, supp) counts on one face
Pool = tuple[str, ...]  # die letters, strongest first

DOUBLES_MODES = ("all", "strongest", "weakest")

# Sizes. The kernels count each symbol of a roll in a 10-bit field
# (simulator.games.assault.rules.kernels.FIELD_MAX = 1023) and a Monte Carlo run keeps a table of
# every (crit, hit, supp) total: a pool of MAX_POOL_DICE dice whose faces hold at most
# MAX_FACE_SYMBOLS symbols fits both (at most 400 symbols; a table of at most 135**3
# counts, 19 MiB).
MAX_POOL_DICE = 100
MAX_FACE_SYMBOLS = 4
MAX_ROLL_SYMBOLS = 1023    # = kernels.FIELD_MAX (a test keeps them equal)


def parse_face(text: str) -> Face:
    """``"crit+hit"`` -> ``(1, 1, 0)``; ``"-"`` -> ``(0, 0, 0)``."""
    text = text.strip()
    if text in ("-", ""):
        return (0, 0, 0)
    counts = [0, 0, 0]
    if text.count("+") >= MAX_FACE_SYMBOLS:
        raise ValueError(f"face {text[:40]!r}{'...' if len(text) > 40 else ''} has "
                         f"{text.count('+') + 1} symbols; a face holds at most {MAX_FACE_SYMBOLS}")
    for part in text.split("+"):
        part = part.strip()
        if part not in SYMBOLS:
            raise ValueError(f"unknown symbol {part!r} in face {text!r} (crit, hit, supp or -)")
        counts[SYMBOLS.index(part)] += 1
    return (counts[0], counts[1], counts[2])


def format_face(face: Face) -> str:
    parts = [name for name, n in zip(SYMBOLS, face, strict=True) for _ in range(n)]
    return "+".join(parts) or "-"


def single_symbol(face: Face, doubles: str) -> Face:
    """How a face counts under a doubles rule (10.8.1, rulings.md #2).

    ``all``: every symbol counts. ``strongest`` / ``weakest``: a double success
    counts as one symbol, the strongest / weakest on the face.
    """
    if doubles == "all" or sum(face) < 2:
        return face
    present = [i for i in range(3) if face[i] > 0]
    keep = present[0] if doubles == "strongest" else present[-1]
    out = [0, 0, 0]
    out[keep] = 1
    return (out[0], out[1], out[2])


class _DiceFileModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    status: str = Field(min_length=1)
    source: str = ""
    dice: dict[str, list[str]]

    @field_validator("dice")
    @classmethod
    def _check_dice(cls, dice: dict[str, list[str]]) -> dict[str, list[str]]:
        if not dice:
            raise ValueError("at least one die is needed")
        return dice


def _check_dice_file(dice: dict[str, list[str]], where: str) -> None:
    """Each die: a name starting with a letter of its own, six readable faces; errors
    name the die's key (``dice.red``) or face (``dice.red[2]``)."""
    letters: dict[str, str] = {}
    for colour, faces in dice.items():
        key = f"dice.{colour}"
        if not colour or not colour[0].isascii() or not colour[0].isalpha():
            raise InputError(where, key, f"die name {colour!r} must start with a letter A-Z")
        letter = colour[0].upper()
        if letter in letters:
            raise InputError(where, key, f"dice {letters[letter]!r} and {colour!r} share the letter {letter}")
        letters[letter] = colour
        if len(faces) != FACES_PER_DIE:
            raise InputError(where, key, f"die {colour!r} has {len(faces)} faces, expected {FACES_PER_DIE}")
        for i, face in enumerate(faces):
            try:
                parse_face(face)
            except ValueError as exc:
                raise InputError(where, f"{key}[{i}]", str(exc)) from None


@dataclass(frozen=True)
class Die:
    colour: str
    letter: str
    rank: int  # 0 = strongest
    faces: tuple[Face, ...]


@dataclass(frozen=True)
class DiceSet:
    """The battle dice of one dice file, strongest first."""

    name: str
    status: str
    source: str
    path: str
    digest: str
    dice: tuple[Die, ...]

    @property
    def letters(self) -> str:
        return "".join(d.letter for d in self.dice)

    @cached_property
    def by_letter(self) -> dict[str, Die]:
        """Each die by its letter (built once: pools are sorted by rank millions of times
        when a scenario is compiled)."""
        return {d.letter: d for d in self.dice}

    @cached_property
    def ranks(self) -> dict[str, int]:
        """Each letter's rank, 0 the strongest."""
        return {d.letter: d.rank for d in self.dice}

    def die(self, letter: str) -> Die:
        return self.by_letter[letter]

    def rank(self, letter: str) -> int:
        return self.ranks[letter]

    @property
    def label(self) -> str:
        """What reports print: ``assault-default, reconstructed``."""
        return f"{self.name}, {self.status}"

    def face_table(self, doubles: str = "all") -> np.ndarray:
        """``int64[n_dice, 6, 3]`` symbol counts per die (dice-set order) and face."""
        return np.array([[single_symbol(f, doubles) for f in d.faces] for d in self.dice],
                        dtype=np.int64)


DICE_FORMAT = 1  # the dice.toml format (issue 44.9): 1, the first; a file of a newer format is refused


@cache
def _load_dice_cached(path: str, mtime_ns: int) -> DiceSet:
    model = validate(_DiceFileModel, read_format(read_toml(path), path, "dice.toml", DICE_FORMAT, {}), path)
    _check_dice_file(model.dice, path)
    dice = tuple(
        Die(colour, colour[0].upper(), rank, tuple(parse_face(f) for f in faces))
        for rank, (colour, faces) in enumerate(model.dice.items())
    )
    return DiceSet(model.name, model.status, model.source, path, file_digest(path), dice)


def as_dice(dice: "DiceSet | str | Path | None") -> DiceSet:
    """A dice set as given, or loaded from a dice file (``None``: the shipped dice)."""
    return dice if isinstance(dice, DiceSet) else load_dice(dice)


def load_dice(path: str | Path | None = None) -> DiceSet:
    """Load a dice file (default: the shipped ``scenarios/assault/dice.toml``)."""
    p = Path(path) if path is not None else DEFAULT_DICE_FILE
    try:
        mtime = p.stat().st_mtime_ns
    except OSError:
        raise InputError(str(p), "", "file not found") from None
    return _load_dice_cached(str(p), mtime)


_GROUP = re.compile(r"(\d*)([A-Za-z])")


def parse_pool(text: str, dice: DiceSet, where: str = "pool") -> Pool:
    """Parse a pool string into a normalised pool (letters, strongest first).

    ``where`` names the argument or key for the error message.
    """
    s = text.strip()
    if s == "-":
        return ()
    if not s:
        raise InputError(where, "", "empty pool string (use '-' for no dice)")
    letters: list[str] = []
    for token in re.split(r"[\s+]+", s):
        if not token:
            continue
        pos = 0
        while pos < len(token):
            m = _GROUP.match(token, pos)
            if not m:
                raise InputError(where, "", f"cannot read {text!r} at {token[pos:]!r} "
                                 f"(expected e.g. 'RY', '2RG', '2R + G' or '-')")
            digits = m.group(1).lstrip("0") or m.group(1)   # "" (no count: one die) or the count
            count = 1 if not digits else int(digits) if len(digits) <= 6 else 10**6  # no 5,000-digit ints
            letter = m.group(2).upper()
            if letter not in dice.letters:
                raise InputError(where, "", f"unknown die {m.group(2)!r} in {text!r} "
                                 f"(dice {dice.name}: {', '.join(dice.letters)})")
            if count < 1 or count > 99:
                shown = m.group(1) if len(m.group(1)) <= 12 else m.group(1)[:12] + "..."
                raise InputError(where, "", f"die count {shown} in {text[:60]!r} must be 1..99")
            letters.extend([letter] * count)
            if len(letters) > MAX_POOL_DICE:
                raise InputError(where, "", f"{text[:60]!r}{'...' if len(text) > 60 else ''} has more than "
                                 f"{MAX_POOL_DICE} dice; at most {MAX_POOL_DICE} dice in a pool")
            pos = m.end()
    return normalise(letters, dice)


def parse_pool_at(text: str, dice: DiceSet, where: str, key: str) -> Pool:
    """:func:`parse_pool` for a pool inside a data file: the error names the file
    ``where`` and the ``key`` in it."""
    try:
        return parse_pool(text, dice, where)
    except InputError as exc:
        raise InputError(where, key, exc.problem) from None


def normalise(letters, dice: DiceSet) -> Pool:
    """Sort die letters strongest first."""
    return tuple(sorted(letters, key=dice.ranks.__getitem__))


def format_pool(pool: Pool) -> str:
    """``("R", "R", "Y")`` -> ``"RRY"``; the empty pool is ``"-"``."""
    return "".join(pool) or "-"


def add_die(pool: Pool, letter: str, dice: DiceSet) -> Pool:
    return normalise((*pool, letter), dice)


def weakest_die(pool: Pool, dice: DiceSet) -> str | None:
    return max(pool, key=dice.rank) if pool else None


def without_weakest(pool: Pool, dice: DiceSet) -> Pool:
    """Remove one die of the weakest colour present, never below one die (rulings.md #3)."""
    if len(pool) <= 1:
        return pool
    letters = list(pool)
    letters.remove(weakest_die(pool, dice))
    return normalise(letters, dice)


def pool_indices(pool: Pool, dice: DiceSet) -> np.ndarray:
    """Die indices into :meth:`DiceSet.face_table` for a pool (``int64[n]``)."""
    return np.array([dice.rank(letter) for letter in pool], dtype=np.int64)
