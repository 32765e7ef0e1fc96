"""Adjudicating one given round of close combat: for worked examples, rules questions
and tests.

``resolve_round(cast, kind, attacker_attack="R:hit G:supp G:-", ...)`` takes the four
rolls of a round as faces (``"DIE:FACE ..."`` as in :mod:`simulator.games.assault.rules.resolve`),
checks them against the pools the one pool assembly builds, and applies the same
cancellation (10.7.2), adrenaline rush and damage rules (12.5) as every other
question. Given rolls are the final ones, after any re-rolls.
"""

from __future__ import annotations

from simulator.games.assault.rules.compare import uncancelled
from simulator.games.assault.rules.dice import format_pool, normalise, single_symbol
from simulator.games.assault.rules.melee.damage import STATUS_NAMES, after_close_combat, after_tracks_attack
from simulator.games.assault.rules.melee.fight import (
    F_DAMAGE,
    F_IMMOBILISED,
    F_MORALE,
    U_HALF_AT,
    U_IGNORES_SUPP,
    U_KIND,
    U_STRENGTH,
    field,
)
from simulator.games.assault.rules.melee.situation import A1, D1, Cast, DirectionPools, round_pools
from simulator.games.assault.rules.melee.tables import start_state, unit_constants
from simulator.games.assault.rules.resolve import parse_roll
from simulator.run.errors import InputError


def _roll(text: str, pool, cast: Cast, where: str, doubles: str):
    roll = parse_roll(text, cast.dice, where)
    letters = normalise([x for x, _ in roll], cast.dice)
    if letters != tuple(pool):
        raise InputError(where, "", f"the pool is {format_pool(pool)}, the roll has {format_pool(letters)}")
    faces = [single_symbol(f, doubles) for _, f in roll]
    return tuple(sum(f[i] for f in faces) for i in range(3))


def _direction(p: DirectionPools, attack: str, defence: str, cast: Cast, who: str) -> dict:
    atk = _roll(attack, p.attack, cast, f"{who} attack", p.doubles)
    dfn = _roll(defence, p.defence, cast, f"{who} target's defence", "all")
    c, h, s = (int(v) for v in uncancelled(atk[0], atk[1], atk[2] + p.extra_supp, *dfn))
    return {"attack_symbols": dict(zip(("crit", "hit", "supp"), atk, strict=True)),
            "defence_symbols": dict(zip(("crit", "hit", "supp"), dfn, strict=True)),
            "uncancelled": {"crit": c, "hit": h, "supp": max(s - p.adrenaline, 0)},
            "ignored_by_adrenaline": min(s, p.adrenaline), "doubles": p.doubles}


def _after(p: DirectionPools, U, S, slot: int, cast: Cast, symbols: dict) -> dict:
    damage, morale, immobilised = (int(field(S, slot, f)) for f in (F_DAMAGE, F_MORALE, F_IMMOBILISED))
    c, h, s = symbols["crit"], symbols["hit"], symbols["supp"]
    if p.tracks:
        status, d, m, i = after_tracks_attack(U[slot, U_STRENGTH], U[slot, U_IGNORES_SUPP], damage, morale,
                                              immobilised, c, h, s)
    else:
        status, d, m, i = after_close_combat(U[slot, U_KIND], U[slot, U_STRENGTH], U[slot, U_HALF_AT],
                                             U[slot, U_IGNORES_SUPP], damage, morale, immobilised, c, h, s)
    card = cast.card(slot)
    return {"status": STATUS_NAMES[status], "damage": int(d),
            "half_strength": bool(d >= card.half_strength_threshold), "immobilised": bool(i),
            "fallback": STATUS_NAMES[status] == "fell back"}


def resolve_round(cast: Cast, kind: int, *, attacker_attack: str, attacker_defence: str,
                  defender_attack: str, defender_defence: str) -> dict:
    """One round between the attacker and the defender with the given rolls.

    Returns the pools, each side's symbols and both units' states afterwards.
    """
    a_on_d, d_on_a = round_pools(cast, kind, A1, D1)
    U, S = unit_constants(cast), start_state(cast)
    on_defender = _direction(a_on_d, attacker_attack, defender_defence, cast, "attacker")
    on_attacker = _direction(d_on_a, defender_attack, attacker_defence, cast, "defender")
    return {
        "pools": {"attacker_attack": format_pool(a_on_d.attack), "defender_defence": format_pool(a_on_d.defence),
                  "defender_attack": format_pool(d_on_a.attack), "attacker_defence": format_pool(d_on_a.defence)},
        "attacker_on_defender": on_defender, "defender_on_attacker": on_attacker,
        "attacker": _after(d_on_a, U, S, A1, cast, on_attacker["uncancelled"]),
        "defender": _after(a_on_d, U, S, D1, cast, on_defender["uncancelled"]),
    }
