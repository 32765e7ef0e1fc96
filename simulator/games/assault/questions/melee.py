"""The close-combat question: who holds the hex, and at what cost?

``melee("soviet/rifles-41", "german/tank-hunters-41", MeleeSituation(terrain="brush"),
edition="v1")`` returns a :class:`~simulator.games.assault.questions.answers.MeleeAnswer`:
the end states of both units (its ``table``, one row per end state, with ``p``; ``se`` by
Monte Carlo), the round-one pools, the later-round pools, the explanation, the summary
(who holds the hex, mean rounds) and, for the first edition, the answer after the single
round of the first turn beside the "renew every turn until it ends" answer (rulings #9).
:func:`compare_editions` asks the same question of both editions and says which rules
make the numbers differ.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from simulator.engine.core.answers import Method
from simulator.games.assault.questions.answers import EditionsAnswer, MeleeAnswer
from simulator.games.assault.rules.aid import Aid, load_aid
from simulator.games.assault.rules.cards import UnitCard, find_unit, load_units
from simulator.games.assault.rules.damage import STEADY, SUPPRESSED
from simulator.games.assault.rules.dice import DiceSet, as_dice, format_pool
from simulator.games.assault.rules.fire import Target, kind_of, state_distribution
from simulator.games.assault.rules.melee.damage import (
    ABSENT,
    ELIMINATED,
    FELL_BACK,
    IN_HEX,
    STATUS_NAMES,
    STAYED_OUT,
    WITHDREW,
)
from simulator.games.assault.rules.melee.editions import differences
from simulator.games.assault.rules.melee.exact import exact_fight
from simulator.games.assault.rules.melee.fight import N_SLOTS, V1_TURN_CAP, V2_ROUND_CAP, decode
from simulator.games.assault.rules.melee.kernels import MELEE_CHUNK_TRIALS, melee_chunk, merge_chunks
from simulator.games.assault.rules.melee.policies import WITHDRAW_POLICIES, parse_withdraw_policies
from simulator.games.assault.rules.melee.situation import (
    A1,
    A2,
    D1,
    D2,
    EDITIONS,
    FIRST_KIND,
    LATER_KIND,
    V1_REINFORCE,
    Cast,
    DirectionPools,
    MeleeSituation,
    build_cast,
    for_edition,
    passenger_fire_pools,
    round_pools,
)
from simulator.games.assault.rules.melee.tables import compile_melee
from simulator.games.assault.rules.target_states import state_frame, summarise_states
from simulator.run import runner
from simulator.run.errors import InputError
from simulator.run.intervals import (
    add_interval_columns,
    listed_states,
    proportion_interval,
    summary_intervals,
    unseen_note,
)
from simulator.run.stats import proportion_se
from simulator.run.vocabulary import EDITION_NAMES

DEFAULT_MAX_ROUNDS = {"v1": V1_TURN_CAP, "v2": V2_ROUND_CAP}   # v1: turn cap (rulings #9); v2: round cap
DEFAULT_TRIALS = 200_000
OUTCOMES = ("attacker holds", "defender holds", "neither holds", "unresolved")


# --- who is who ------------------------------------------------------------------------

def slot_key(cast: Cast, slot: int) -> str:
    """The name of a slot in reports: the DEFENDER argument is always ``defender``."""
    if cast.passenger_in_hex:
        return {A1: "attacker", A2: "attacker_reinforcement", D1: "passenger", D2: "defender"}[slot]
    return {A1: "attacker", A2: "attacker_reinforcement", D1: "defender", D2: "defender_reinforcement"}[slot]


def _slots(cast: Cast) -> list[int]:
    return [u for u in range(N_SLOTS) if cast.present(u)]


def _fought(status: int) -> bool:
    return status not in (ABSENT, STAYED_OUT)


def outcome(cast: Cast, units: list[dict]) -> str:
    side_in = [False, False]
    for u in _slots(cast):
        if units[u]["status"] == IN_HEX:
            side_in[cast.side_of(u)] = True
    if side_in[0] and side_in[1]:
        return "unresolved"
    if side_in[0]:
        return "attacker holds"
    if side_in[1]:
        return "defender holds"
    return "neither holds"


def _both_eliminated(cast: Cast, units: list[dict]) -> bool:
    out = []
    for side in (0, 1):
        fought = [units[u]["status"] for u in _slots(cast) if cast.side_of(u) == side and _fought(units[u]["status"])]
        out.append(bool(fought) and all(s == ELIMINATED for s in fought))
    return out[0] and out[1]


def unit_state(cast: Cast, slot: int, u: dict) -> dict:
    card = cast.card(slot)
    return {"status": STATUS_NAMES[u["status"]], "eliminated": u["status"] == ELIMINATED,
            "damage": int(u["damage"]), "half_strength": bool(u["damage"] >= card.half_strength_threshold),
            "fallback": u["status"] == FELL_BACK, "withdrew": u["status"] == WITHDREW,
            "suppressed": u["morale"] == SUPPRESSED, "immobilised": bool(u["immobilised"])}


# --- tidy frames and summaries -----------------------------------------------------------

def states_frame(cast: Cast, dist: dict[int, float], trials: int | None) -> pd.DataFrame:
    """One row per end state: each unit's state, the outcome, ``p`` (and ``se``)."""
    rows = []
    for code, p in dist.items():
        units = decode(code)
        row = {"outcome": outcome(cast, units)}
        for u in _slots(cast):
            for k, v in unit_state(cast, u, units[u]).items():
                row[f"{slot_key(cast, u)}_{k}"] = v
        row["p"] = float(p)
        rows.append(row)
    frame = pd.DataFrame(rows)
    if trials is not None:
        frame["se"] = proportion_se(frame["p"].to_numpy(), trials)
        add_interval_columns(frame, trials)
    return frame.sort_values("p", ascending=False, ignore_index=True)


def states_list(cast: Cast, dist: dict[int, float], trials: int | None) -> list[dict]:
    """The end states for JSON: ``{"outcome", <unit key>: {...}, "p"[, "se"]}``."""
    out = []
    for code, p in sorted(dist.items(), key=lambda kv: -kv[1]):
        units = decode(code)
        entry = {"outcome": outcome(cast, units)}
        entry.update({slot_key(cast, u): unit_state(cast, u, units[u]) for u in _slots(cast)})
        entry["p"] = float(p)
        if trials is not None:
            entry["se"] = float(proportion_se(p, trials))
            entry["ci95"] = list(proportion_interval(int(round(p * trials)), trials))
        out.append(entry)
    return out


def summarise(cast: Cast, dist: dict[int, float], rounds: dict[int, float] | float, trials: int | None) -> dict:
    """Who holds the hex, how often units are lost, mean rounds."""
    lead = {"attacker": A1, "defender": cast.defender_slot}
    acc = {f"p_{o.replace(' ', '_')}": 0.0 for o in OUTCOMES}
    acc["p_both_eliminated"] = 0.0
    for who in lead:
        for what in ("eliminated", "fell_back", "withdrew"):
            acc[f"p_{who}_{what}"] = 0.0
    damage = {who: [] for who in lead}
    for code, p in dist.items():
        units = decode(code)
        acc[f"p_{outcome(cast, units).replace(' ', '_')}"] += p
        acc["p_both_eliminated"] += p if _both_eliminated(cast, units) else 0.0
        for who, slot in lead.items():
            status = units[slot]["status"]
            acc[f"p_{who}_eliminated"] += p if status == ELIMINATED else 0.0
            acc[f"p_{who}_fell_back"] += p if status == FELL_BACK else 0.0
            acc[f"p_{who}_withdrew"] += p if status == WITHDREW else 0.0
            lost = (cast.card(slot).strength if status == ELIMINATED else units[slot]["damage"])
            damage[who].append((lost - cast.initial_damage(slot), p))
    summary = {k: float(v) for k, v in acc.items()}
    if isinstance(rounds, dict):          # Monte Carlo: the distribution of rounds fought
        r = np.array(list(rounds.keys()), dtype=float)
        pr = np.array(list(rounds.values()))
        summary["mean_rounds"] = float((r * pr).sum())
    else:                                 # exact: the mean
        summary["mean_rounds"] = float(rounds)
    for who in lead:
        d = np.array(damage[who])
        summary[f"{who}_mean_damage"] = float((d[:, 0] * d[:, 1]).sum())
    if trials is not None:
        se = {k: float(proportion_se(v, trials)) for k, v in summary.items() if k.startswith("p_")}
        se["mean_rounds"] = float(np.sqrt(((r - summary["mean_rounds"]) ** 2 * pr).sum() / trials))
        for who in lead:
            d = np.array(damage[who])
            mean = summary[f"{who}_mean_damage"]
            se[f"{who}_mean_damage"] = float(np.sqrt(((d[:, 0] - mean) ** 2 * d[:, 1]).sum() / trials))
        summary["se"] = se
        summary["ci95"] = summary_intervals(summary, trials)     # every outcome, those never seen at 0
    return summary


# --- pools and explanation ---------------------------------------------------------------

def _pool_dict(a_on_d: DirectionPools, d_on_a: DirectionPools) -> dict:
    return {"attacker_attack_pool": format_pool(a_on_d.attack), "attacker_defence_pool": format_pool(d_on_a.defence),
            "defender_attack_pool": format_pool(d_on_a.attack), "defender_defence_pool": format_pool(a_on_d.defence),
            "attacker_doubles": a_on_d.doubles, "defender_doubles": d_on_a.doubles,
            "attacker_rerolls": {"attack": a_on_d.attack_rerolls, "defence": d_on_a.defence_rerolls},
            "defender_rerolls": {"attack": d_on_a.attack_rerolls, "defence": a_on_d.defence_rerolls},
            "adrenaline": {"attacker_ignores": d_on_a.adrenaline, "defender_ignores": a_on_d.adrenaline},
            "tracks": a_on_d.tracks or d_on_a.tracks}


def _steps(pools: tuple[DirectionPools, DirectionPools], label: str) -> list[dict]:
    steps = [s for p in pools for s in p.steps]
    order = {}
    for s in steps:
        order.setdefault(s.side, len(order))
    return [{"round": label, **s.__dict__} for s in sorted(steps, key=lambda s: order[s.side])]


def reinforcement_steps(cast: Cast) -> list[dict]:
    """How a first-edition reinforcement's pools are built (12.2): the exchange it enters
    with, then the renewed ones, against the enemy's first unit (a reinforcement attacks
    the enemy unit with the fewest strength points left: the first one unless there are
    two). None without reinforcements, or when the second defender is a passenger (12.10)."""
    if cast.edition != "v1" or cast.passenger_in_hex:
        return []
    out = []
    for slot, enemy in ((A2, D1), (D2, A1)):
        if not cast.present(slot):
            continue
        who = cast.card(slot).id
        out += _steps(round_pools(cast, V1_REINFORCE, slot, enemy), f"{who} reinforces (12.2)")
        out += _steps(round_pools(cast, LATER_KIND["v1"], slot, enemy), f"{who}, renewed rounds")
    return out


def edition_notes(cast: Cast, policies: tuple[str, str], max_rounds: int) -> list[str]:
    """What the reader needs to know about how this question was answered."""
    s = cast.situation
    notes = list(cast.notes)
    if cast.edition == "v1":
        notes.append(f"first edition: one exchange in the first turn, then renewed once a turn until it ends, "
                     f"at most {max_rounds} turns (rulings #9); 'single_round' is the first turn alone")
        if s.defender_suppressed:
            notes.append("12.0: the suppressed defender falls back as the attacker enters: no close combat")
    else:
        notes.append(f"revised edition: rounds until elimination, fallback or withdrawal, at most {max_rounds} rounds")
        if s.defender_suppressed:
            notes.append("revised 12.1.2.2: the suppressed defender stays but cannot attack in the initial round")
    if s.defender_fallback:
        notes.append("12.0: a unit in fallback is eliminated when the enemy enters its hex")
    if cast.passenger_in_hex:
        notes.append(f"12.10: {cast.card(D1).id} disembarks into the hex and fights the initiated close combat "
                     f"(the round-one pools are its own); {cast.card(D2).id} stays in the hex")
    for side, name in zip(("attacker", "defender"), policies, strict=True):
        notes.append(f"withdrawal policy of the {side}: {name} ({WITHDRAW_POLICIES[name][1]})")
    if s.tracks:
        notes.append("wheels/tracks: the infantry attacks them while the vehicle can move, then the vehicle")
    if cast.edition == "v1" and (cast.units[A2] or cast.units[D2]) and not cast.passenger_in_hex:
        notes.append("12.2: reinforcements enter in the first turn, the attacker's first, and attack the enemy "
                     "unit with the fewest strength points left; they enter only a close combat still going on")
    return notes


def _dug_in(cast: Cast, summary: dict) -> float | None:
    if not cast.situation.defender_dug_in:
        return None
    if cast.edition == "v1":
        return 1.0                                              # 9.8.1: the marker always stays
    return summary["p_defender_holds"] + summary["p_unresolved"]   # revised 12.2


def passenger_fire(cast: Cast) -> list[dict]:
    """Revised 12.4: before the emergency disembark the assault unit fires its strongest
    range-0 die at each passenger, which defends with its card dice only; first edition
    12.10: one infantry passenger disembarks into the hex, the others next to it."""
    out = []
    if cast.edition == "v1":
        for c in cast.passengers:
            into_hex = cast.passenger_in_hex and c is cast.card(D1)
            out.append({"unit": c.id, "disembarks": "into the close-combat hex (12.10)" if into_hex
                        else "to an adjacent hex (12.10)"})
        return out
    attacker = cast.card(A1)
    dice = cast.dice
    half = cast.situation.attacker_damage >= attacker.half_strength_threshold
    for c in cast.passengers:
        exp = cast.aid.experience(cast.situation.defender_experience)
        attack, defence, doubles, extra = passenger_fire_pools(attacker, c, cast.aid, half,
                                                               cast.situation.defender_experience)
        t = Target(kind_of(c), c.strength, int(exp.ignores_supp), 0, 0, STEADY, 0)
        dist = state_distribution(attack, defence, t, dice, doubles=doubles, extra_supp=extra)
        frame = state_frame(dist, c.strength, c.half_strength_threshold, None)
        out.append({"unit": c.id, "attack_pool": format_pool(attack), "defence_pool": c.defence_pool(None),
                    "method": "exact", "disembarks": "to an adjacent hex after the fire (revised 12.4)",
                    "states": frame.to_dict("records"), "summary": summarise_states(frame, 0, None)})
    return out


# --- the question -------------------------------------------------------------------------

def _cards(attacker: str, defender: str, units: dict[str, UnitCard]) -> tuple[UnitCard, UnitCard]:
    return find_unit(units, attacker, "ATTACKER"), find_unit(units, defender, "DEFENDER")


def attacker_holds(cast: Cast, result) -> float:
    """Close combats that ended with the attacker holding the hex: the headline, P(attacker holds).

    ``result`` is the runner's merged :class:`~.kernels.ChunkResult`."""
    return float(sum(n for code, n in result.final.items() if outcome(cast, decode(code)) == "attacker holds"))


def simulate_run(cm, cast: Cast, trials: int | None, seed: int, workers: int | None = None,
                 progress: str | None = None, options: runner.RunOptions | None = None) -> runner.RunResult:
    """Monte Carlo run of the close combat through :func:`simulator.run.runner.execute`;
    ``.value`` is the merged :class:`~.kernels.ChunkResult`, ``.trials`` the trials run
    (chosen by the run with ``options.precision``, headline P(attacker holds))."""
    task = partial(melee_chunk, (cm.tables, cm.units, cm.state, cm.params))
    return runner.execute(task, trials, seed=seed, options=options, workers=workers, progress=progress,
                          chunk_trials=MELEE_CHUNK_TRIALS, merge=merge_chunks,
                          headline=runner.Headline("P(attacker holds)", partial(attacker_holds, cast)))


def _shares(r, trials: int):
    scale = 1.0 / trials
    return ({k: v * scale for k, v in r.final.items()}, {k: v * scale for k, v in r.first.items()},
            {k: v * scale for k, v in r.rounds.items()}, {k: v * scale for k, v in r.first_rounds.items()})


def melee(attacker: str, defender: str, situation: MeleeSituation | None = None, *, edition: str = "v1",
          exact: bool | None = None, trials: int | None = None, seed: int | None = None, workers: int | None = None,
          withdraw_policy: str | None = None, max_rounds: int | None = None,
          dice: DiceSet | str | Path | None = None, aid: Aid | str | Path | None = None,
          units_dir: str | Path | None = None, progress: str | None = None,
          options: runner.RunOptions | None = None, _notes: tuple[str, ...] = ()) -> MeleeAnswer:
    """End states of a close combat between ``attacker`` and ``defender`` (chapter 12).

    ``edition``: ``v1`` (rule book 1.0) or ``v2`` (revised chapter). ``max_rounds``: the
    turn cap (v1, default 10) or round cap (v2, default 50). ``withdraw_policy``: a
    policy name for both sides or ``"ATTACKER,DEFENDER"`` (rulings #10). ``exact``:
    ``True`` exact, ``False`` Monte Carlo, ``None`` (default) exact unless ``trials`` is
    given or more than one unit a side fights (first-edition reinforcements or a
    disembarked passenger: the exact chain over four units' states is slow, so Monte
    Carlo is used and a note says so; ``exact=True`` forces it). ``options`` says how a
    Monte Carlo run is carried out (:mod:`simulator.run.runner`); ``options.precision`` asks
    for Monte Carlo until the 95% interval of P(attacker holds) is that narrow.
    """
    situation = situation or MeleeSituation()
    dice = as_dice(dice)
    aid = aid if isinstance(aid, Aid) else load_aid(aid, dice)
    units = load_units(units_dir, dice)
    a, d = _cards(attacker, defender, units)
    if edition not in EDITIONS:
        raise InputError("--edition", "", f"unknown edition {edition!r} ({', '.join(EDITIONS)})")
    max_rounds = DEFAULT_MAX_ROUNDS[edition] if max_rounds is None else max_rounds
    if max_rounds < 1:
        raise InputError("--max-rounds", "", f"must be 1 or more (got {max_rounds})")
    policies = parse_withdraw_policies(withdraw_policy)
    cast = build_cast(edition, a, d, situation, aid, units)
    cast = Cast(**{**cast.__dict__, "notes": tuple(_notes)})
    cm = compile_melee(cast, max_rounds=max_rounds, policies=policies)
    several = any(cast.present(u) for u in (A2, D2))
    method = runner.choose_method(exact, trials, seed, options, DEFAULT_TRIALS, auto_monte_carlo=several)
    if method.by_default:
        cast = Cast(**{**cast.__dict__, "notes": cast.notes + (
            "Monte Carlo: more than one unit a side fights, and the exact chain over their joint "
            "states is slow (--exact forces it)",)})
    run = None
    n = None
    unseen = None
    if method.monte_carlo:
        run = simulate_run(cm, cast, method.trials, method.seed, workers, progress, options)
        n = run.trials
        final, first, rounds, first_rounds = _shares(run.value, n)
        # every end state the exact chain can reach is listed, those never seen at 0 with their
        # exact bound; with more than one unit a side the chain is too slow: the states seen
        ex = None if several else exact_fight(cm)
        final = listed_states(final, None if ex is None else ex.final)
        first = listed_states(first, None if ex is None else ex.first)
        unseen = unseen_note(ex, "more than one unit a side fights and the exact chain over their joint states is slow")
    else:
        ex = exact_fight(cm)
        final, first, rounds, first_rounds = ex.final, ex.first, ex.mean_rounds, ex.first_mean_rounds
    frame = states_frame(cast, final, n)
    first_pools = round_pools(cast, FIRST_KIND[edition], A1, D1)
    later_pools = round_pools(cast, LATER_KIND[edition], A1, D1)
    summary = summarise(cast, final, rounds, n)
    passengers = passenger_fire(cast) if cast.passengers else None
    return MeleeAnswer(
        edition=edition, edition_name=EDITION_NAMES[edition], how=Method(**method.header(n)),
        attacker=a.id, defender=d.id,
        units={slot_key(cast, u): cast.card(u).id for u in _slots(cast)},
        support={"attacker": cast.supports[0].id if cast.supports[0] else None,
                 "defender": cast.supports[1].id if cast.supports[1] else None},
        round_one=_pool_dict(*first_pools), later_round_pools=_pool_dict(*later_pools),
        mode="renew-until-resolved" if edition == "v1" else "until-resolved", max_rounds=max_rounds,
        withdraw_policy={"attacker": policies[0], "defender": policies[1]},
        summary=summary, states=states_list(cast, final, n),
        explain=(_steps(first_pools, "round one") + _steps(later_pools, "later rounds")
                 + reinforcement_steps(cast)),
        notes=edition_notes(cast, policies, max_rounds),
        dice=dice.name, dice_status=dice.status, aid=aid.name, aid_status=aid.status,
        units_status=sorted({cast.card(u).status for u in _slots(cast)}), table=frame,
        run=run.describe() if run is not None else None, unseen=unseen,
        fortification=({"name": cast.fortification.name, "source": cast.fortification.source}
                       if cast.fortification is not None else None),
        single_round=({"summary": summarise(cast, first, first_rounds, n), "states": states_list(cast, first, n)}
                      if edition == "v1" else None),
        p_dug_in_kept=_dug_in(cast, summary), passengers=passengers)


SUMMARY_KEYS = ("p_attacker_holds", "p_defender_holds", "p_neither_holds", "p_both_eliminated", "p_unresolved",
                "mean_rounds", "attacker_mean_damage", "defender_mean_damage")
POOL_KEYS = ("attacker_attack_pool", "attacker_defence_pool", "defender_attack_pool", "defender_defence_pool",
             "attacker_doubles", "defender_doubles", "attacker_rerolls", "defender_rerolls", "adrenaline")


def compare_editions(attacker: str, defender: str, situation: MeleeSituation | None = None,
                     **kw) -> EditionsAnswer:
    """The same close combat under both editions (an :class:`EditionsAnswer`): both
    editions' end states (column ``edition``), each edition's answer (``editions``), the difference
    in the numbers, the first round alone, the round-one pools and the rules that
    cause the difference. Options one edition lacks apply to the other only (noted).
    ``max_rounds`` applies to both; by default each edition's own cap."""
    situation = situation or MeleeSituation()
    frames: dict[str, MeleeAnswer] = {}
    for edition in EDITIONS:
        s, notes = for_edition(situation, edition)
        frames[edition] = melee(attacker, defender, s, edition=edition, _notes=tuple(notes), **kw)
    v1, v2 = frames["v1"].round_one, frames["v2"].round_one
    # The first round alone: v1's single round against v2's initial round (no withdrawal
    # after it), so the round-one rules are seen apart from the sequence of rounds.
    s2, notes2 = for_edition(situation, "v2")
    first_v2 = melee(attacker, defender, s2, edition="v2", _notes=tuple(notes2),
                     **{**kw, "max_rounds": 1, "withdraw_policy": "never"}).summary
    first_v1 = frames["v1"].single_round["summary"]
    dice = as_dice(kw.get("dice"))
    aid = kw.get("aid")
    aid = aid if isinstance(aid, Aid) else load_aid(aid, dice)
    units = load_units(kw.get("units_dir"), dice)
    a, d = _cards(attacker, defender, units)
    cast = build_cast("v2", a, d, s2, aid, units)
    frame = pd.concat([f.table.assign(edition=e) for e, f in frames.items()], ignore_index=True)
    s1, s2 = frames["v1"].summary, frames["v2"].summary
    return EditionsAnswer(
        editions=frames, difference={k: s2[k] - s1[k] for k in SUMMARY_KEYS},
        first_round={"v1": {k: first_v1[k] for k in SUMMARY_KEYS}, "v2": {k: first_v2[k] for k in SUMMARY_KEYS},
                     "difference": {k: first_v2[k] - first_v1[k] for k in SUMMARY_KEYS}},
        round_one={k: {"v1": v1[k], "v2": v2[k]} for k in POOL_KEYS},
        pools_differ=[k for k in POOL_KEYS if v1[k] != v2[k]],
        differing_rules=differences(cast, situation), table=frame)

__all__ = ["melee", "compare_editions", "MeleeSituation"]
