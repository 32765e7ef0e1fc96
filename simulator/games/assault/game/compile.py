"""Compiling a scenario for the engine: :func:`compile_game` -> :class:`Game`.

Everything a game needs becomes integer arrays once (:class:`~simulator.games.assault.game.tables.Tables`):
the map (``compile_map``), the unit types (card + experience), every unit slot of the
scenario (set-up forces, formation cards that may be drawn, reinforcements), zones,
objectives, victory conditions, the ranged-fire pools (``fire_pools`` via
:mod:`~simulator.games.assault.game.pooltab`) and the close-combat directions
(``direction_pools`` of the melee package). Overrides (``turns``, ``edition``, a side's
command points, a unit's count or experience) are how ``--vary`` and ``--tune``
make variants of a scenario.
"""

from __future__ import annotations

import numpy as np

from simulator.games.assault.game import closecombat as ccm
from simulator.games.assault.game import layout
from simulator.games.assault.game.cctables import cc_grounds, close_combat_tables
from simulator.games.assault.game.compiled import compile_map
from simulator.games.assault.game.forces import (
    MIN_COMMAND_POINTS,
    Builder,
    check_command_points,
    check_supported,
    riders,
    side_index,
    unit_types_table,
)
from simulator.games.assault.game.packing import pack
from simulator.games.assault.game.pooltab import can_overrun, tabulate_fire
from simulator.games.assault.game.scenario import alternate_history, load_scenario
from simulator.games.assault.game.scenario_format import Scenario
from simulator.games.assault.game.scenario_game import Game  # noqa: E402
from simulator.games.assault.game.tables import (
    HI_CCT,
    HI_FORTFACE,
    HI_WIRE,
    P_BASE_CP0,
    P_CC_STACK,
    P_CP_ALWAYS,
    P_CP_RULE,
    P_EDITION,
    P_FALLBACK_EVER,
    P_FAST_UPHILL,
    P_FIELDS,
    P_HAS_VEHICLES,
    P_IF_NEITHER,
    P_INITIATIVE,
    P_MAX_SMOKE,
    P_MAXR,
    P_MIN_CP,
    P_N_OBJ,
    P_NCCT,
    P_NEED_SUPPORT,
    P_OVERRUN,
    P_SETUP_FIRST,
    P_SMOKE_DECAY,
    P_SUDDEN,
    P_TRANSPORT,
    P_TURNS,
)
from simulator.games.assault.rules.support import load_support
from simulator.run.errors import InputError
from simulator.run.vocabulary import EDITIONS

VARY_KEYS = ("turns", "edition", "cp", "count", "experience", "hold", "initiative", "sudden_death", "cp_minimum",
             "second_fallback")


# ======================================================================================
# the whole scenario
# ======================================================================================


def compile_game(name_or_path, *, edition: str | None = None, overrides: dict | None = None,
                 scenario: Scenario | None = None, data: dict | None = None) -> Game:
    """Compile a scenario (a shipped name or a file) for play.

    ``overrides``: ``{"turns": 8}``, ``{"cp": {"german": 6}}``,
    ``{("count", "german", "german/rifles-41"): 3}``,
    ``{("experience", "soviet", "soviet/mmg-maxim"): "veteran"}``, ``{"initiative": "german"}``,
    ``{("hold", "german"): ("10,7", "8,6")}`` (the objectives a side must hold, 3.1),
    ``{"history": "alternate"}`` (the alternate-history version, 5.3).
    ``data``: data files given on the command line (``{"aid": "my-aid.toml"}``), as for
    :func:`simulator.games.assault.game.scenario.load_scenario`.

    A scenario compiled before with the same data, code and overrides is read back
    from the disk cache (:mod:`simulator.games.assault.game.gamecache`).
    """
    from simulator.games.assault.game.gamecache import cached

    scenario = scenario or load_scenario(name_or_path, data)
    overrides = dict(overrides or {})
    return cached(scenario, edition, overrides, lambda: _compile(scenario, edition, overrides))


def _compile(scenario: Scenario, edition: str | None, overrides: dict) -> Game:
    """:func:`compile_game` without the cache."""
    if overrides.get("history") == "alternate":
        scenario = alternate_history(scenario)
    edition = edition or overrides.get("edition") or scenario.edition
    if edition not in EDITIONS:
        raise InputError("--edition", "", f"unknown close-combat edition {edition!r} (v1 or v2)")
    if len(scenario.sides) != 2:
        raise InputError(scenario.path, "sides", "a playable scenario has exactly two sides")
    if scenario.turns is None:
        raise InputError(scenario.path, "turns", "a playable scenario needs turns")
    cm = compile_map(scenario)
    aid = scenario.aid
    b = Builder(scenario, cm, overrides)
    b.forces()
    draw = b.formation_cards()
    b.reinforcements()
    if not b.slots:
        raise InputError(scenario.path, "sides", "no units")
    check_supported(b.types, b.slots, scenario)
    side_names = tuple(scenario.sides)
    max_range = cm.diameter
    ut = unit_types_table(b.types, scenario, max_range)
    radius = layout.sight_radius(ut, cm.n, max_range, len(cm.dice_letters))
    layout.check_map_size(scenario.path, cm, radius)
    code, hdice, between = layout.near_tables(cm, radius)
    geos, geo, geo_bare, nhind = layout.geometry(cm, aid, code, hdice, radius)
    del code, hdice
    support = load_support(None, aid)
    smoke = any(t.card.smoke for t in b.types)
    ft = tabulate_fire(b.types, geos, aid, max_range=max_range, support=support, smoke=smoke,
                       riders=riders(b.types), terrains=tuple(cm.terrain_names))
    grounds = cc_grounds(scenario, cm)                  # revised 12.1.2.1, 12.1.3: [[map.features]]
    melee, cck, cc_mask, cc_loss, cc_stats, cc_pools = close_combat_tables(b.types, scenario, cm, edition, grounds)

    objectives = scenario.objective_list
    if len(objectives) > 30:
        raise InputError(scenario.path, "objectives", "the engine handles at most 30 objectives")
    obj_start = [-1] * len(objectives)
    for side_i, (name, side) in enumerate(scenario.sides.items()):   # 5.5: in a side's set-up area
        area = {h for z in side.zones for h in scenario.zone_hexes(name, z)}
        for k, o in enumerate(objectives):
            if o.hex in area and obj_start[k] == -1:
                obj_start[k] = side_i

    vic = np.zeros((2, 6), dtype=np.int32)
    sudden_all = bool(overrides.get("sudden_death", scenario.victory.sudden_death))
    for side_i, (side_name, side) in enumerate(scenario.sides.items()):   # 3.1, 6.6
        v = side.victory
        mask = 0
        for h in overrides.get(("hold", side_name), v.hold):   # --vary hold.SIDE: the objectives to hold
            mask |= 1 << [o.hex for o in objectives].index(h)
        sudden = sudden_all if (v.sudden_death is None or "sudden_death" in overrides) else v.sudden_death
        vic[side_i] = [mask, v.hold_count, v.objective_points, v.eliminate, int(not v.is_empty), int(sudden)]

    p = np.zeros(P_FIELDS + ccm.N_ROLES + 6, dtype=np.int32)
    p[P_TURNS] = int(overrides.get("turns", scenario.turns))
    init = overrides.get("initiative", scenario.initiative)
    p[P_INITIATIVE] = -1 if init == "roll" else side_index(scenario, init, "initiative")
    p[P_SETUP_FIRST] = -1 if scenario.first_setup == "roll" else side_index(scenario, scenario.first_setup, "first_setup")
    p[P_EDITION] = 1 if edition == "v1" else 2
    p[P_CP_RULE] = int(scenario.optional_rules.command_points)
    p[P_SUDDEN] = int(vic[:, 5].any())
    neither = scenario.victory.if_neither
    p[P_IF_NEITHER] = -1 if neither == "draw" else side_index(scenario, neither, "victory.if_neither")
    p[P_CC_STACK] = 2 if edition == "v1" else 1          # 9.0 item 3; revised 12.0
    p[P_FAST_UPHILL] = int(aid.hill.fast_action_uphill)
    p[P_MAX_SMOKE] = support.max_markers_per_hex
    p[P_SMOKE_DECAY] = support.removed_per_turn
    p[P_MIN_CP] = MIN_COMMAND_POINTS
    p[P_CP_ALWAYS] = int(overrides.get("cp_minimum", scenario.optional_rules.command_point_minimum) == "always")
    p[P_FALLBACK_EVER] = int(overrides.get("second_fallback", scenario.optional_rules.second_fallback) == "ever")
    p[P_N_OBJ] = len(objectives)
    p[P_NEED_SUPPORT] = int(any(t.card.support or t.card.is_artillery for t in b.types))   # 6.3, 7.6
    p[P_HAS_VEHICLES] = int(any(t.card.is_vehicle for t in b.types))
    p[P_MAXR] = max_range
    p[P_TRANSPORT] = int(any(t.card.transport_capacity > 0 for t in b.types))   # 9.11
    p[P_OVERRUN] = int(any(can_overrun(x.card, y.card) for x in b.types for y in b.types))   # 9.10.3
    p[P_NCCT] = len(grounds.pairs)                       # close combat's grounds (Grounds)
    cp = overrides.get("cp", {})
    for side_i, name in enumerate(side_names):
        p[P_BASE_CP0 + side_i] = int(cp.get(name, 0))

    t = pack(cm, aid, support, geo, between, geo_bare, nhind, ut, ft, melee, cck, cc_mask, cc_loss, cc_stats, b, draw,
              vic, objectives, obj_start, p, len(b.types))
    t.hexi[:, HI_CCT] = grounds.of_hex                   # revised 12.1.2.1, 12.1.3 (rulings S25)
    t.hexi[:, HI_FORTFACE] = grounds.fort_face
    t.hexi[:, HI_WIRE] = grounds.wire
    check_command_points(scenario, t.p, b)
    return Game(scenario, cm, t, side_names, b.types, b.slots, b.formations, b.zone_names, edition,
                {k: v for k, v in overrides.items()}, ft.atk_pools, ft.def_pools, cc_pools)
