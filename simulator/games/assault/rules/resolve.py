"""Adjudicating one given roll: for rules questions, replays and tests.

``resolve("R:crit+hit Y:supp", "Y:- G:hit", strength=4)`` applies the same
cancellation (10.7.2) and damage rules (10.7.3-10.7.6) as every other command to
dice whose faces are given, not rolled.
"""

from __future__ import annotations

from simulator.games.assault.rules.compare import uncancelled
from simulator.games.assault.rules.damage import (
    CRIT_ATTACK_DIE,
    CRIT_DEFENCE_DIE,
    after_fire,
    crit_roll_due,
    state_index,
    unpack_state,
)
from simulator.games.assault.rules.dice import DiceSet, format_face, parse_face
from simulator.games.assault.rules.kernels import ATTACK_SHIFT, DEFENCE_SHIFT, crit_roll_result, pack_face
from simulator.games.assault.rules.transport import EVENT_NAMES, NO_PASSENGERS, transport_event
from simulator.run.errors import InputError


def parse_roll(text: str, dice: DiceSet, where: str) -> list[tuple[str, tuple[int, int, int]]]:
    """``"R:crit+hit Y:-"`` -> ``[("R", (1, 1, 0)), ("Y", (0, 0, 0))]``; "-" is no dice.

    Each face must be one the die actually has.
    """
    if text.strip() == "-":
        return []
    out = []
    for token in text.split():
        letter, sep, face_text = token.partition(":")
        letter = letter.upper()
        if not sep or letter not in dice.letters:
            raise InputError(where, "", f"cannot read {token!r} (expected DIE:FACE like R:crit+hit or Y:-)")
        try:
            face = parse_face(face_text)
        except ValueError as exc:
            raise InputError(where, "", str(exc)) from None
        if face not in dice.die(letter).faces:
            raise InputError(where, "", f"die {letter} has no face {format_face(face)!r} "
                             f"(faces: {', '.join(format_face(f) for f in dice.die(letter).faces)})")
        out.append((letter, face))
    return out


def totals(roll) -> tuple[int, int, int]:
    return tuple(sum(f[i] for _, f in roll) for i in range(3))


def resolve(attack: str, defence: str, dice: DiceSet, *, strength: int, half_at: int,
            kind: int, damage: int = 0, morale: int = 0, immobilised: int = 0,
            ignores_supp: int = 0, delayed: int = 0, extra_supp: int = 0,
            crit_attack: str | None = None, crit_defence: str | None = None,
            passenger_mode: int = NO_PASSENGERS) -> dict:
    """The uncancelled symbols and the target's state after one given roll.

    ``passenger_mode`` (:mod:`~simulator.games.assault.rules.transport`): the target carries
    passengers (``CARRIED``) or is tank riders (``RIDERS_TARGETED``); the result then
    names what the roll does to them (10.10) under ``passenger_event``.
    """
    atk = totals(parse_roll(attack, dice, "--attack"))
    dfn = totals(parse_roll(defence, dice, "--defence"))
    c, h, s = (int(x) for x in uncancelled(atk[0], atk[1], atk[2] + extra_supp, *dfn))
    symbol, crit_result = 0, None
    if crit_roll_due(c, h, damage, strength):
        if crit_attack is None or crit_defence is None:
            raise InputError("--crit-attack", "", f"{c} uncancelled crit(s): give the critical-hit roll "
                             f"({c} {CRIT_ATTACK_DIE} with --crit-attack, {c} {CRIT_DEFENCE_DIE} with --crit-defence)")
        ca = parse_roll(crit_attack, dice, "--crit-attack")
        cd = parse_roll(crit_defence, dice, "--crit-defence")
        if [x for x, _ in ca] != [CRIT_ATTACK_DIE] * c or [x for x, _ in cd] != [CRIT_DEFENCE_DIE] * c:
            raise InputError("--crit-attack", "", f"the critical-hit roll is {c} {CRIT_ATTACK_DIE} "
                             f"against {c} {CRIT_DEFENCE_DIE} (10.7.5)")
        packed = sum(pack_face(f, ATTACK_SHIFT) for _, f in ca) + sum(pack_face(f, DEFENCE_SHIFT) for _, f in cd)
        cc, ch, cs, symbol = (int(x) for x in crit_roll_result(packed))   # as the kernels read a crit roll
        crit_result = {"crit": cc, "hit": ch, "supp": cs,
                       "strongest": ("none", "supp", "hit", "crit")[symbol]}
    e, d, m, i = after_fire(kind, strength, ignores_supp, delayed, damage, morale, immobilised, c, h, s, symbol)
    event = transport_event(passenger_mode, c, h, s, e, d, m, i, damage, morale, immobilised)
    return {"attack_symbols": dict(zip(("crit", "hit", "supp"), atk, strict=True)),
            "defence_symbols": dict(zip(("crit", "hit", "supp"), dfn, strict=True)),
            "uncancelled": {"crit": c, "hit": h, "supp": s},
            "critical_hit_roll": crit_result,
            "state": unpack_state(state_index(e, d, m, i), strength, half_at),
            "passenger_event": EVENT_NAMES[event] if passenger_mode != NO_PASSENGERS else None}
