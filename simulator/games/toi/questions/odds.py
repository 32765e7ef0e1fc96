"""The questions a Tide of Iron designer asks, as functions returning answers as values
(:mod:`simulator.games.toi.questions.answers`: each with its table, ``frame()``, and its
JSON, ``to_json()``).

* :func:`fire` - a ranged attack (or a minefield entry): one row per number of hits;
* :func:`fire_on_hex` - an attack on the units of one hex (several for an area attack);
* :func:`assault` - an assault: one row per (attacker hits, defender hits);
* :func:`roster_frame`, :func:`readings_frame` - the roster, and the values a designer
  may switch to another reading.

Exact by default; with ``trials`` by Monte Carlo (numba kernels, shared RNG and
runner, so the same seed gives the same numbers whatever ``workers`` is). What was
asked and the summary a designer reads are the answer's fields; every Monte Carlo
number has its standard error (``se`` column, ``summary["se"]``).

>>> from simulator.games.toi.questions.odds import fire_from_strengths
>>> answer = fire_from_strengths(6, 2, "normal", target="squad:4", mode="suppressive")
>>> answer.summary["p_pinned"]  # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from simulator.engine.core.answers import Method
from simulator.games.toi.questions.answers import AssaultAnswer, FireAnswer
from simulator.games.toi.rules import exact, kernels
from simulator.games.toi.rules.assault import AssaultSetup, build_assault, defender_figures, resolve
from simulator.games.toi.rules.attack import (
    DEFENCE_SUCCESS_FROM,
    Attack,
    build_attack,
    from_strengths,
    minefield_entry,
    target_of,
)
from simulator.games.toi.rules.data import GameData, load_game
from simulator.games.toi.rules.results import VEHICLE_STEPS, Target, state_key
from simulator.games.toi.rules.units import Unit, label, parse_unit, with_features
from simulator.run import runner
from simulator.run.errors import InputError
from simulator.run.intervals import add_interval_columns, listed_outcomes, proportion_interval, unseen_note
from simulator.run.stats import mean_se, proportion_se

# ---------------------------------------------------------------- shared helpers


def _method(trials: int | None, seed: int | None,
            options: runner.RunOptions | None = None) -> tuple[bool, int | None]:
    """Monte Carlo or exact, and the seed; ``--precision`` (in ``options``) means Monte Carlo."""
    if trials is None and (options is None or options.precision is None):
        return False, None
    if trials is not None and trials < 1:
        raise InputError("--trials", "", f"must be at least 1 (got {trials})")
    return True, runner.fresh_seed() if seed is None else seed


def _stat(values: np.ndarray, p: np.ndarray, trials: int | None) -> tuple[float, float | None]:
    """Mean of a per-outcome value; its standard error when estimated from ``trials``."""
    mean = float(np.sum(values * p))
    if trials is None:
        return mean, None
    if values.dtype == bool:
        return mean, float(proportion_se(mean, trials))
    return mean, mean_se(values.astype(float), p, trials)


def _summary(p: np.ndarray, trials: int | None, metrics: dict[str, np.ndarray]) -> dict[str, Any]:
    """Each metric's mean over the outcomes; by Monte Carlo its ``se`` and, for a
    probability (a yes/no metric), its 95% interval in ``ci95`` (Wilson's, exact at 10 or
    fewer: :func:`~simulator.run.intervals.proportion_interval`)."""
    out: dict[str, Any] = {}
    se: dict[str, float] = {}
    ci: dict[str, list[float]] = {}
    for name, values in metrics.items():
        values = np.asarray(values)
        out[name], e = _stat(values, p, trials)
        if e is not None:
            se[name] = e
        if trials is not None and values.dtype == bool:
            ci[name] = list(proportion_interval(int(round(out[name] * trials)), trials))
    if trials is not None:
        out["se"] = se
        out["ci95"] = ci
    return out


def _meta(game: GameData, monte_carlo: bool, trials: int | None, seed: int | None) -> dict[str, Any]:
    """How an answer was computed (``how``) and the data it used."""
    return {"how": Method(**runner.Method(monte_carlo, trials, seed).header(trials)), "data": game.label,
            "data_digest": game.digest}


def faces(from_face: int) -> str:
    return "6" if from_face == 6 else f"{from_face}-6"


# ---------------------------------------------------------------- ranged fire

def at_least_one_hit(counts: np.ndarray) -> float:
    """Trials with at least one hit, from (black, red) success counts: the fire headline."""
    return float(counts.sum() - exact.hits_pmf(counts)[0])


def _fire_joint(attack: Attack, trials: int | None, seed: int, workers: int | None, progress: str | None,
                chunk_trials: int, options: runner.RunOptions | None = None) -> runner.RunResult:
    table = np.vstack([kernels.success_rows(attack.attack_strength, attack.success_from, 0),
                       kernels.success_rows(attack.defence_strength, DEFENCE_SUCCESS_FROM, 1)])
    shape = (attack.attack_strength + 1, attack.defence_strength + 1)
    task = partial(kernels.fire_chunk, table, attack.defence_strength, attack.thick_armour, shape)
    return runner.execute(task, trials, seed=seed, options=options, workers=workers, progress=progress,
                          chunk_trials=chunk_trials, headline=runner.Headline("P(at least one hit)", at_least_one_hit))


def _target_metrics(target: Target, mode: str, hits: np.ndarray) -> tuple[dict[str, np.ndarray], list[str]]:
    after = [target.after(mode, int(k)) for k in hits]
    states = target.states(mode)
    metrics = {state_key(s): np.array([a == s for a in after]) for s in states}
    if target.kind == "squad" and mode == "normal":
        metrics["mean_figures_lost"] = np.array([target.figures_lost(mode, int(k)) for k in hits])
        metrics["p_destroyed"] = np.array([target.destroyed(a) for a in after])
    if target.kind == "squad" and mode == "suppressive":
        metrics["p_destroyed"] = metrics["p_routed"]  # 001: routed means destroyed
    return metrics, states


def fire(attack: Attack, *, trials: int | None = None, seed: int | None = None, workers: int | None = None,
         progress: str | None = None, chunk_trials: int = runner.DEFAULT_CHUNK_TRIALS,
         game: GameData | None = None, options: runner.RunOptions | None = None) -> FireAnswer:
    """Distribution of hits of a compiled attack, and what they do to its target.

    ``options``: how to run (see :mod:`simulator.run.runner`); with ``precision`` the run picks its trials."""
    game = game or load_game()
    monte_carlo, seed = _method(trials, seed, options)
    run = _fire_joint(attack, trials, seed, workers, progress, chunk_trials, options) if monte_carlo else None
    trials = run.trials if run else trials
    joint = run.value / run.trials if run else exact.roll_joint(attack)
    pmf = exact.hits_pmf(joint)
    hits = np.arange(len(pmf))
    frame = pd.DataFrame({"hits": hits, "p": pmf})
    if monte_carlo:
        frame["se"] = proportion_se(pmf, trials)
        add_interval_columns(frame, trials)
        # every count of hits 0..attack strength is a row (never seen: 0 and its exact upper
        # bound), but one the exact table rules out (thick armour: all of them) has [0, 0]
        impossible = (exact.hits_pmf(exact.roll_joint(attack)) == 0) & (pmf == 0)
        frame.loc[impossible, ["lo", "hi"]] = 0.0
    metrics: dict[str, np.ndarray] = {"mean_hits": hits, "p_hit": hits > 0}
    states: list[str] = []
    if attack.target is not None:
        target_metrics, states = _target_metrics(attack.target, attack.mode, hits)
        metrics.update(target_metrics)
    summary = _summary(pmf, trials if monte_carlo else None, metrics)
    wire_rule = game.terrain.features.get("razor_wire")
    need = wire_rule.area_removal_successes if wire_rule is not None else None
    if attack.area and need is not None:  # 001 Razor wire: an area attack with 3+ successes removes the wire
        black = exact.black_pmf(joint)
        wire = _summary(black, trials if monte_carlo else None,
                        {"p_wire_removed": np.arange(len(black)) >= need.value})
        summary["p_wire_removed"] = wire["p_wire_removed"]
        if monte_carlo:
            summary["se"]["p_wire_removed"] = wire["se"]["p_wire_removed"]
            summary["ci95"]["p_wire_removed"] = wire["ci95"]["p_wire_removed"]
    return FireAnswer(
        **_meta(game, monte_carlo, trials, seed), run=run.describe() if run else None,
        attack_strength=attack.attack_strength, defence_strength=attack.defence_strength,
        range=attack.band, success_on=faces(attack.success_from),
        defence_success_on=faces(DEFENCE_SUCCESS_FROM), mode=attack.mode, area=attack.area,
        thick_armour=attack.thick_armour, armour=attack.armour, cover=attack.cover, kind=attack.kind,
        target=attack.target.describe() if attack.target else None,
        states=[{"state": s, "key": state_key(s)} for s in states],
        contributions=[vars(c) | {"halvings": list(c.halvings), "notes": list(c.notes)}
                       for c in attack.contributions],
        notes=list(attack.notes), summary=summary, table=frame,
        unseen=unseen_note(True) if monte_carlo else None)


def parse_target(text: str | None, game: GameData, where: str = "--target") -> Target | None:
    """A result-table target from a spec (``squad:4:pinned``, ``vehicle:light``, ``truck``)."""
    if text is None:
        return None
    return target_of(parse_unit(text, game, where), game)


def fire_from_strengths(attack_strength: int, defence_strength: int, range: str = "normal", *,
                        mode: str = "normal", target: str | None = None, area: bool = False,
                        thick_armour: bool = False, game: GameData | None = None, **run: Any) -> FireAnswer:
    """A ranged attack given by its strengths (the player did 001 steps 1-2)."""
    game = game or load_game()
    attack = from_strengths(attack_strength, defence_strength, range, mode=mode, area=area,
                            thick_armour=thick_armour, target=parse_target(target, game))
    return fire(attack, game=game, **run)


def _units(specs: list[str] | tuple[str, ...], game: GameData, where: str) -> list[Unit]:
    return [parse_unit(s, game, where) for s in specs]


def fire_from_units(attacker: str, target: str, *, supporters: list[str] | tuple[str, ...] = (),
                    distance: int = 1, mode: str = "normal", terrain: str | None = None, smoke: bool = False,
                    cover: int = 0, fire_and_movement: bool = False, support_abilities: bool | None = None,
                    game: GameData | None = None, **run: Any) -> FireAnswer:
    """A ranged attack from the units taking part (001 Resolving an attack, Combined fire).

    ``support_abilities``: whether flamethrower and concussive firepower work for supporters
    (``None``: as ``units.toml`` says, rulings T4)."""
    game = game or load_game()
    tgt = parse_unit(target, game, "--target")
    extra = hex_features_of(terrain, smoke, game)
    if extra:
        tgt = with_features(tgt, extra, game, "--target")
    return _fire_at(game, attacker, supporters, tgt, distance=distance, mode=mode,
                    fire_and_movement=fire_and_movement, extra_cover=cover, support_abilities=support_abilities,
                    **run)


def _fire_at(game: GameData, attacker: str, supporters, tgt: Unit, **kw: Any) -> FireAnswer:
    run = {k: kw.pop(k) for k in list(kw) if k not in ("distance", "mode", "fire_and_movement", "extra_cover",
                                                       "support_abilities")}
    attack = build_attack(game, parse_unit(attacker, game, "--attacker"), _units(supporters, game, "--supporter"),
                          tgt, **kw)
    answer = fire(attack, game=game, **run)
    return dataclasses.replace(answer, target=f"{label(tgt, game)}: {answer.target}")


def _check_one_hex(units: list[Unit], game: GameData) -> None:
    """The targets of an area attack are the units of one hex (001 Setup: stacking; Terrain)."""
    most, vehicles = 3, 2  # 001 Setup: three units a hex, never more than two vehicles
    if len(units) > most or sum(u.is_vehicle for u in units) > vehicles:
        raise InputError("--target", "", f"a hex holds at most {most} units, {vehicles} of them vehicles")
    shared = [frozenset(f for f in u.features if game.terrain.features[f].kind != "fortification") for u in units]
    if len(set(shared)) > 1:
        raise InputError("--target", "", "the units of one hex share its terrain and markers, got "
                         + " / ".join(", ".join(sorted(s)) or "none" for s in shared))


def fire_on_hex(attacker: str, targets: list[str] | tuple[str, ...], *, supporters: list[str] | tuple[str, ...] = (),
                distance: int = 1, mode: str = "normal", terrain: str | None = None, smoke: bool = False,
                cover: int = 0, fire_and_movement: bool = False, support_abilities: bool | None = None,
                game: GameData | None = None, **run: Any) -> list[FireAnswer]:
    """An attack on the units of one hex: one answer per unit it affects (001 Area attacks).

    Several targets need an area attack (a squad with mortar figures leading). Each unit is
    resolved separately with the attacker's FPR against its type. A suppressive attack
    leaves vehicles alone (001 step 3: they are immune), so they get no answer; they are
    named in ``unaffected`` of every answer. Razor wire in the hex is removed on
    3+ successes of the roll against the squads (against the vehicles if the hex holds
    none): ``summary["p_wire_removed"]`` is that one number in every answer (rulings T8).
    """
    game = game or load_game()
    if not targets:
        raise InputError("--target", "", "give at least one target")
    extra = hex_features_of(terrain, smoke, game)
    units = [parse_unit(t, game, "--target") for t in targets]
    units = [with_features(u, extra, game, "--target") if extra else u for u in units]
    if len(units) > 1:
        _check_one_hex(units, game)
    immune = [u for u in units if u.is_vehicle] if mode == "suppressive" and not all(u.is_vehicle for u in units) \
        else []
    hit = [u for u in units if u not in immune]
    options = run.get("options")
    if run.get("seed") is None and (run.get("trials") is not None or (options and options.precision is not None)):
        run["seed"] = runner.fresh_seed()  # one seed for every unit of the hex
    kw = dict(distance=distance, mode=mode, fire_and_movement=fire_and_movement, extra_cover=cover,
              support_abilities=support_abilities)
    answers = [_fire_at(game, attacker, supporters, u, **kw, **run) for u in hit]
    if len(units) > 1 and not answers[0].area:  # 001 Area attacks: only they hit every unit of a hex
        raise InputError("--target", "", "several targets need an area attack (a mortar squad leading)")
    unaffected = tuple(f"{label(u, game)}: immune to suppressive attacks (001 step 3), unaffected" for u in immune)
    first = next((i for i, u in enumerate(hit) if not u.is_vehicle), 0)  # the roll that decides the wire
    decider = answers[first].summary
    if "p_wire_removed" not in decider:
        return [dataclasses.replace(a, unaffected=unaffected) for a in answers]
    roll = "vehicles" if hit[first].is_vehicle else "infantry"
    return [dataclasses.replace(a, unaffected=unaffected, wire_roll=roll, summary=_wire_of(a.summary, decider))
            for a in answers]


def _wire_of(summary: dict[str, Any], decider: dict[str, Any]) -> dict[str, Any]:
    """``summary`` with the hex's one chance of removing the wire, ``decider``'s (rulings T8)."""
    out = {**summary, "p_wire_removed": decider["p_wire_removed"]}
    if "se" in decider:
        out["se"] = {**summary["se"], "p_wire_removed": decider["se"]["p_wire_removed"]}
        out["ci95"] = {**summary["ci95"], "p_wire_removed": decider["ci95"]["p_wire_removed"]}
    return out


def hex_features_of(terrain: str | None, smoke: bool, game: GameData, more: tuple[str, ...] = ()) -> set[str]:
    """Feature names for ``--terrain``, ``--smoke`` and other hex flags, checked against the terrain file."""
    feats = set()
    if terrain:
        name = terrain.strip().lower().replace("-", "_")
        if name not in game.terrain.features:
            raise InputError("--terrain", "", f"unknown terrain {terrain!r} "
                             f"(one of: {', '.join(game.terrain.features)})")
        feats.add(name)
    for name in (("smoke",) if smoke else ()) + tuple(more):
        if name not in game.terrain.features:
            raise InputError("terrain", f"features.{name}", "the terrain file does not define it")
        feats.add(name)
    return feats


def minefield(unit: str, *, game: GameData | None = None, **run: Any) -> FireAnswer:
    """A unit entering a minefield (001 Minefields): hits, and what they do."""
    game = game or load_game()
    u = parse_unit(unit, game, "--target")
    attack = minefield_entry(game, u)
    if attack is None:  # engineers do not roll
        attack = Attack(0, 0, "close", 4, target=target_of(u, game), kind="minefield",
                        notes=("engineers do not roll for mines (001 Minefields)",))
    answer = fire(attack, game=game, **run)
    return dataclasses.replace(answer, target=f"{label(u, game)}: {answer.target}")


# ---------------------------------------------------------------- assault

def assault_succeeds(counts: np.ndarray) -> float:
    """Trials where the attacker scored more hits than the defender: the assault headline."""
    a, d = np.indices(counts.shape)
    return float(counts[a > d].sum())


def _assault_joint(setup: AssaultSetup, trials: int | None, seed: int, workers: int | None,
                   progress: str | None, chunk_trials: int,
                   options: runner.RunOptions | None = None) -> runner.RunResult:
    table = np.vstack([kernels.success_rows(setup.attack_strength, 4, 0),            # 002 step 4
                       kernels.success_rows(setup.cover, DEFENCE_SUCCESS_FROM, 1),   # 002 step 4
                       kernels.success_rows(setup.defender_strength, 4, 2)])         # 002 step 5
    shape = (setup.attack_strength + 1, setup.defender_strength + 1)
    task = partial(kernels.assault_chunk, table, shape)
    return runner.execute(task, trials, seed=seed, options=options, workers=workers, progress=progress,
                          chunk_trials=chunk_trials, headline=runner.Headline("P(assault succeeds)", assault_succeeds))


def _assault_metrics(setup: AssaultSetup, cells: list[tuple[int, int]]) -> tuple[dict, list[dict]]:
    results = [resolve(setup, a, d) for a, d in cells]
    lost = [defender_figures(r, setup) for r in results]
    metrics = {
        "p_success": np.array([r.success for r in results]),
        "mean_attacker_hits": np.array([r.attacker_hits for r in results]),
        "mean_defender_hits": np.array([r.defender_hits for r in results]),
        "mean_attacker_losses": np.array([sum(r.attacker_losses) for r in results]),
        "mean_defender_losses": np.array([x[0] for x in lost]),
        "mean_defender_figures_lost": np.array([x[0] + x[1] for x in lost]),
        "p_active_eliminated": np.array([r.active_eliminated for r in results]),
        "p_defenders_eliminated": np.array([r.defenders_eliminated for r in results]),
    }
    per_unit = []
    for i, u in enumerate(setup.defenders):
        outs = [r.defenders[i] for r in results]
        m = {"p_destroyed": np.array([o.destroyed for o in outs]),
             "p_destroyed_in_retreat": np.array([o.destroyed_by == "retreat" for o in outs])}
        if u.is_vehicle:
            for state in VEHICLE_STEPS[VEHICLE_STEPS.index(u.damage):-1]:
                m[state_key(state)] = np.array([o.damage == state for o in outs])
            m["mean_hits_taken"] = np.array([o.hits for o in outs])
        else:
            m["mean_figures_left"] = np.array([o.figures_left for o in outs])
            m["p_disrupted"] = np.array([not o.destroyed and o.condition == "disrupted" for o in outs])
        per_unit.append(m)
    return metrics, per_unit


def assault(setup: AssaultSetup, *, trials: int | None = None, seed: int | None = None,
            workers: int | None = None, progress: str | None = None,
            chunk_trials: int = runner.DEFAULT_CHUNK_TRIALS, game: GameData | None = None,
            options: runner.RunOptions | None = None) -> AssaultAnswer:
    """Joint distribution of both sides' hits in an assault, and its consequences (002).

    ``summary``: ``p_success`` (attacker hits > defender hits), ``mean_attacker_hits``,
    ``mean_defender_hits``, ``mean_attacker_losses`` (figures), ``mean_defender_losses``
    (figures removed by hits, step 7; hits on light vehicles not counted),
    ``mean_defender_figures_lost`` (also those destroyed by the retreat, step 9),
    ``p_active_eliminated``, ``p_defenders_eliminated``. ``defenders``: per unit
    ``p_destroyed``, ``p_destroyed_in_retreat`` and its end states.
    """
    game = game or load_game()
    monte_carlo, seed = _method(trials, seed, options)
    run = _assault_joint(setup, trials, seed, workers, progress, chunk_trials, options) if monte_carlo else None
    trials = run.trials if run else trials
    exact_joint = exact.assault_joint(setup.attack_strength, setup.cover, setup.defender_strength)
    joint = run.value / run.trials if run else exact_joint
    # Monte Carlo: every possible (attacker hits, defender hits) is a row, one never seen at 0
    a, d = listed_outcomes(joint, exact_joint > 0 if run else None)
    p = joint[a, d]
    n = trials if monte_carlo else None
    metrics, per_unit = _assault_metrics(setup, list(zip(a.tolist(), d.tolist(), strict=True)))
    frame = pd.DataFrame({"attacker_hits": a, "defender_hits": d, "p": p, "success": metrics["p_success"]})
    if monte_carlo:
        frame["se"] = proportion_se(p, trials)
        add_interval_columns(frame, trials)
    att_pmf, def_pmf = joint.sum(axis=1), joint.sum(axis=0)
    return AssaultAnswer(
        **_meta(game, monte_carlo, trials, seed), run=run.describe() if run else None,
        attack_strength=setup.attack_strength, defender_strength=setup.defender_strength,
        defence_strength=setup.cover, range="close", success_on=faces(4),
        defence_success_on=faces(DEFENCE_SUCCESS_FROM),
        hits=_pmf_rows(att_pmf, n), defender_hits=_pmf_rows(def_pmf, n),
        parts=[vars(x) | {"halvings": list(x.halvings), "notes": list(x.notes)} for x in setup.parts],
        cover_notes=list(setup.cover_notes), retreat_space=setup.retreat_space,
        hit_policy=setup.hit_policy,
        summary=_summary(p, n, metrics),
        defenders=[{"unit": lab, **_summary(p, n, m)} for lab, m in zip(setup.labels, per_unit, strict=True)],
        table=frame, unseen=unseen_note(True) if monte_carlo else None)


def _pmf_rows(pmf: np.ndarray, trials: int | None) -> list[dict[str, float]]:
    rows = []
    for k, q in enumerate(pmf):
        row = {"hits": k, "p": float(q)}
        if trials is not None:
            row["se"] = float(proportion_se(q, trials))
            row["ci95"] = list(proportion_interval(int(round(q * trials)), trials))
        rows.append(row)
    return rows


def assault_from_units(attacker: str, defenders: list[str] | tuple[str, ...], *,
                       supporters: list[str] | tuple[str, ...] = (), terrain: str | None = None,
                       smoke: bool = False, hex_features: tuple[str, ...] = (), cover: int = 0,
                       retreat_space: int = 3, hit_policy: str = "vehicles-first",
                       game: GameData | None = None, **run: Any) -> AssaultAnswer:
    """An assault from unit specs (002)."""
    game = game or load_game()
    setup = build_assault(game, parse_unit(attacker, game, "--attacker"), _units(supporters, game, "--supporter"),
                          _units(defenders, game, "--defender"),
                          hex_features=hex_features_of(terrain, smoke, game, hex_features), extra_cover=cover,
                          retreat_space=retreat_space, hit_policy=hit_policy)
    return assault(setup, game=game, **run)


# ---------------------------------------------------------------- the roster

def _v(stat) -> str:
    return f"{stat.value}{'*' if stat.reconstructed else ''}"


def roster_frame(game) -> pd.DataFrame:
    """One row per figure and vehicle: range and FPR vs infantry / vs vehicles, movement,
    armour, traits; ``*`` marks a reconstructed value."""
    rows = []
    for key, f in game.units.figures.items():
        rows.append({"id": key, "kind": "figure", "name": f.name, "inf_range": _v(f.infantry.range),
                     "inf_fpr": _v(f.infantry.fpr), "veh_range": _v(f.vehicle.range), "veh_fpr": _v(f.vehicle.fpr),
                     "movement": _v(f.movement), "armour": "", "traits": " ".join(f.traits.value)})
    for key, v in game.units.vehicles.items():
        thick = ["thick_armour" + ("*" if v.thick_armour.reconstructed else "")] if v.thick_armour.value else []
        rows.append({"id": key, "kind": f"{v.weight.value} vehicle ({v.nation})", "name": v.name,
                     "inf_range": _v(v.infantry.range), "inf_fpr": _v(v.infantry.fpr),
                     "veh_range": _v(v.vehicle.range), "veh_fpr": _v(v.vehicle.fpr), "movement": _v(v.movement),
                     "armour": _v(v.armour),
                     "traits": " ".join(v.traits.value + thick)})
    return pd.DataFrame(rows)


SWITCHES = ("when_supporting", "assault_cover")   # readings kept as data (docs/rulings.md T4, T11)


def readings_frame(game) -> pd.DataFrame:
    """Every reconstructed value and every reading kept as data: its value and the other reading."""
    rows = []

    def walk(node, path):
        if isinstance(node, dict):
            if "value" in node and "source" in node and (node.get("reconstructed") or node.get("alternative")
                                                         is not None or path.rsplit(".", 1)[-1] in SWITCHES):
                alt = node.get("alternative")
                rows.append({"key": path, "value": str(node["value"]).lower(),
                             "alternative": "" if alt is None else str(alt).lower(),
                             "reconstructed": bool(node.get("reconstructed")), "source": node["source"]})
                return
            for k, v in node.items():
                walk(v, f"{path}.{k}" if path else k)
    walk(game.units.model_dump(), "")
    return pd.DataFrame(rows)
