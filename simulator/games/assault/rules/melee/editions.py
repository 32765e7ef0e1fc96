"""How the two editions of close combat differ, rule by rule, for ``--compare-editions``.

Each entry names a rule, what each edition does and the sections, and says when it
matters for a given question (the units and the situation). The explanation a
designer reads lists the entries that apply, next to the round-one pools of both
editions and the difference in the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from simulator.games.assault.rules.melee.situation import Cast, MeleeSituation


@dataclass(frozen=True)
class RuleDifference:
    rule: str
    v1: str
    v2: str
    sections: str
    applies: Callable[[Cast, MeleeSituation], bool]

    def as_dict(self) -> dict:
        return {"rule": self.rule, "v1": self.v1, "v2": self.v2, "sections": self.sections}


def _always(cast: Cast, s: MeleeSituation) -> bool:
    return True


def _has_vehicle(cast: Cast, s: MeleeSituation) -> bool:
    return any(u is not None and u.is_vehicle for u in cast.units)


DIFFERENCES = (
    RuleDifference(
        "rounds", "one exchange when the close combat is initiated, then one renewed exchange a turn "
        "until it ends (turn cap, rulings #9)",
        "rounds repeat in the same activation until elimination, fallback or withdrawal",
        "12.1-12.4 / revised 12.1", _always),
    RuleDifference(
        "adrenaline rush", "every exchange ignores one suppression", "the initial round only",
        "12.7.2 / revised 12.1.5", _always),
    RuleDifference(
        "half strength", "no attack penalty unless activated or outflanked",
        "double successes count once at half strength, every round",
        "12.8.1, 12.8.2 / revised 12.1, 10.8.1", _always),
    RuleDifference(
        "terrain of the entering unit", "no terrain dice", "one blue die in the initial round",
        "12.7.1 / revised 12.1.3.2", lambda c, s: not c.units[0].is_vehicle),
    RuleDifference(
        "withdrawal", "in the action phase of a later turn, before renewing (policy)",
        "after every round, the attacker decides first (policy)",
        "12.6 / revised 12.1.6.1", _always),
    RuleDifference(
        "already-activated defender", "its doubles count once: strongest at full, weakest at half strength",
        "only half success symbols count (doubles once); at half strength it also loses its weakest attack die",
        "12.8.1 / revised 12.1.2.2", lambda c, s: s.defender_activated),
    RuleDifference(
        "outflanked", "the defender's doubles count once (strongest; weakest at half strength)",
        "the attacker gets one re-roll of an attack die", "12.8.2 / revised 12.1.2.1",
        lambda c, s: c.outflanked),
    RuleDifference(
        "suppressed defender", "falls back as soon as the hex is entered: no close combat",
        "stays and cannot attack in the initial round", "12.0 / revised 12.0, 12.1.2.2",
        lambda c, s: s.defender_suppressed),
    RuleDifference(
        "fast action of the attacker", "no effect on the dice (its marker becomes a close-combat marker)",
        "loses its weakest defence die in the initial round", "12.1 / revised 12.1.3.2",
        lambda c, s: s.attacker_fast),
    RuleDifference(
        "support units", "none", "one attack and one defence re-roll in the initial round per supported side",
        "- / revised 12.1.1.1", lambda c, s: bool(s.support_attacker or s.support_defender)),
    RuleDifference(
        "reinforcing", "up to two units a faction; a reinforcing unit fights with no terrain dice",
        "one unit a faction: no reinforcing", "12.2, 12.7.1 / revised 12.0",
        lambda c, s: bool(s.reinforce_attacker or s.reinforce_defender)),
    RuleDifference(
        "wire or walls crossed", "no rule", "the attacker loses its weakest attack die in the initial round",
        "- / revised 12.1.2.1", lambda c, s: s.wire),
    RuleDifference(
        "fortification", "no rule: read as the hex's terrain (full dice for the defender, strongest die "
        "when renewed)", "the side attacked from in the initial round; the assault unit gets the primary "
        "terrain's strongest die; both get the strongest die later", "- / revised 12.1.3",
        lambda c, s: s.fortification is not None),
    RuleDifference(
        "immobilised vehicle", "always outflanked against vehicles: its doubles count once",
        "its opponent gets one attack re-roll every round", "12.8.2 / revised 12.1.2",
        lambda c, s: _has_vehicle(c, s) and (s.defender_immobilised or s.tracks)),
    RuleDifference(
        "wheels or tracks", "chosen for the close combat; a suppressed vehicle must leave the hex",
        "may change every round; a suppressed vehicle withdraws", "12.9 / revised 12.5",
        lambda c, s: s.tracks),
    RuleDifference(
        "dug-in marker", "stays in the hex whatever happens", "removed unless the defender wins",
        "9.8.1 / revised 12.2", lambda c, s: s.defender_dug_in),
    RuleDifference(
        "emergency disembark", "one infantry passenger disembarks into the hex and fights",
        "the attacker first fires its strongest range-0 die at each passenger; all disembark to "
        "adjacent hexes", "12.10 / revised 12.4", lambda c, s: bool(s.passengers)),
)


def differences(cast: Cast, s: MeleeSituation) -> list[dict]:
    """The rule differences that matter for this question."""
    return [d.as_dict() for d in DIFFERENCES if d.applies(cast, s)]
