"""What must hold in every Tide of Iron state (tests and ``--check`` runs), as Assault's
:mod:`simulator.games.assault.game.invariants`: plain Python over the arrays, returning the
problems found (an empty list when the state is legal)."""

from __future__ import annotations

import numpy as np

from simulator.games.toi.game import state as S
from simulator.games.toi.game import tables as T
from simulator.games.toi.game.events import EV_ACTIVATE, EV_MOVE, EV_OPFIRE


def problems(s: S.GameState, t: T.Tables) -> list[str]:
    """Stacking (001 Setup: three units a hex), no hex shared with the enemy (001 Movement),
    the hex counts agree with the units, destroyed units are off the map, squads on the map
    have figures, tokens and conditions are known values, no negative MPs."""
    occ = np.zeros((t.hexi.shape[0], 2), dtype=np.int64)
    veh = np.zeros((t.hexi.shape[0], 2), dtype=np.int64)
    out = unit_problems(s, t, occ, veh)
    return out + hex_problems(s, t, occ, veh)


def unit_problems(s: S.GameState, t: T.Tables, occ: np.ndarray, veh: np.ndarray) -> list[str]:
    """Each unit's own fields; counts the units of each side per hex into ``occ``."""
    out = []
    n_hex = t.hexi.shape[0]
    nf = int(t.p[T.P_N_FIG])
    for k in range(int(t.p[T.P_N_UNITS])):
        st, h, side = int(s.u[k, S.U_ST]), int(s.u[k, S.U_HEX]), int(s.u[k, S.U_SIDE])
        figs = int(s.u[k, S.U_FIG:S.U_FIG + nf].sum())
        if st == S.ONMAP:
            if not 0 <= h < n_hex:
                out.append(f"unit {k} on the map without a hex")
                continue
            occ[h, side] += 1
            if s.u[k, S.U_VEHICLE]:
                veh[h, side] += 1
                if s.u[k, S.U_IN] or figs or not 0 <= s.u[k, S.U_DMG] <= 2:
                    out.append(f"vehicle {k}: in a fortification, with figures, or damage {s.u[k, S.U_DMG]}")
            elif figs <= 0:
                out.append(f"unit {k} on the map with no figures")
            elif figs > t.p[T.P_SQUAD_MAX]:
                out.append(f"squad {k} holds {figs} figures, more than a base (rulings T17, T35)")
            if t.hexi[h, T.HI_STAND] == 0:
                out.append(f"unit {k} in impassable hex {h}")
        elif h != -1:
            out.append(f"unit {k} ({S.STATUS_NAMES[st]}) still in hex {h}")
        if st == S.CARRIED:
            out += carried_problems(s, t, k)
        out += figure_problems(s, t, k)
        if (s.u[k, S.U_FIG:S.U_FIG + nf] < 0).any():
            out.append(f"unit {k} has a negative figure count")
        if s.u[k, S.U_COND] not in (S.COND_NORMAL, S.COND_PINNED, S.COND_DISRUPTED):
            out.append(f"unit {k} condition {s.u[k, S.U_COND]}")
        if s.u[k, S.U_TOKEN] not in (S.TOK_FRESH, S.TOK_FATIGUED, S.TOK_OPFIRE):
            out.append(f"unit {k} token {s.u[k, S.U_TOKEN]}")
        if st == S.ONMAP and s.u[k, S.U_COND] != S.COND_NORMAL and s.u[k, S.U_TOKEN] == S.TOK_OPFIRE:
            out.append(f"unit {k} pinned or disrupted in op fire mode (001 Squad conditions)")
    return out


def figure_problems(s: S.GameState, t: T.Tables, k: int) -> list[str]:
    """Squad transfers (001 Status phase, 4; rulings T35): a specialised squad or a vehicle
    never gains figures but by Heal (T38), an emptied base holds none, no squad both gave
    and received one figure type in one status phase; wounds are never negative."""
    nf = int(t.p[T.P_N_FIG])
    figs = s.u[k, S.U_FIG:S.U_FIG + nf]
    out = []
    if s.u[k, S.U_ST] == S.EMPTIED and figs.sum() != 0:
        out.append(f"emptied squad {k} still holds figures")
    if s.u[k, S.U_WOUNDS] < 0:
        out.append(f"squad {k} has negative wounds")
    if (s.u[k, S.U_SPEC] != T.SPEC_NONE or s.u[k, S.U_VEHICLE]) and figs.sum() > t.slots[k, T.SL_FIG:T.SL_FIG + nf].sum():
        out.append(f"unit {k} (specialised or a vehicle) gained figures")
    x = int(s.u[k, S.U_XFER])
    if any(x & S.gave_bit.py_func(f) and x & S.got_bit.py_func(f) for f in range(nf)):
        out.append(f"squad {k} gave and received one figure type in one status phase (rulings T35)")
    return out


def carried_problems(s: S.GameState, t: T.Tables, k: int) -> list[str]:
    """A transported squad (carried since the set-up, rulings T41, or boarded, T32) is in a
    friendly vehicle on the map, within its capacity, and in no fortification (001
    Transporting squads in vehicles; Setup)."""
    v = int(s.u[k, S.U_CARRIER])
    if s.u[k, S.U_IN] or s.u[k, S.U_VEHICLE]:
        return [f"unit {k} carried while in a fortification, or a carried vehicle"]
    if not (0 <= v < len(s.u) and s.u[v, S.U_ST] == S.ONMAP and s.u[v, S.U_VEHICLE]
            and s.u[v, S.U_SIDE] == s.u[k, S.U_SIDE]):
        return [f"squad {k} carried by {v}, not a friendly vehicle on the map"]
    load = int(((s.u[:, S.U_ST] == S.CARRIED) & (s.u[:, S.U_CARRIER] == v)).sum())
    if load > t.vt[s.u[v, S.U_MODEL], T.VT_TRANSPORT]:
        return [f"vehicle {v} carries {load} squads, more than it may"]
    return []


def hex_problems(s: S.GameState, t: T.Tables, occ: np.ndarray, veh: np.ndarray) -> list[str]:
    out = []
    n_hex = t.hexi.shape[0]
    if not (veh == s.hx[:, S.HX_VEH:S.HX_VEH + 2]).all():
        out.append("vehicle counts disagree with the units")
    if not (occ == s.hx[:, S.HX_OCC:S.HX_OCC + 2]).all():
        out.append("hex counts disagree with the units")
    stack = int(t.p[T.P_STACK])
    moving = int(s.g[S.G_UNIT]) if s.g[S.G_SUB] in (S.SUB_MOVE, S.SUB_OPFIRE) else -1
    for h in range(n_hex):
        for side in range(2):
            extra = 1 if moving >= 0 and s.u[moving, S.U_HEX] == h and s.u[moving, S.U_SIDE] == side else 0
            if occ[h, side] - extra > stack:
                out.append(f"hex {h}: {occ[h, side]} units of side {side} (stacking)")
            vextra = extra if extra and s.u[moving, S.U_VEHICLE] else 0
            if veh[h, side] - vextra > int(t.p[T.P_VEH_STACK]):
                out.append(f"hex {h}: {veh[h, side]} vehicles of side {side} (stacking)")
        if occ[h, 0] and occ[h, 1] and not passing(s, moving, h, occ, veh):
            out.append(f"hex {h} holds both sides")
    inside = np.zeros(n_hex, dtype=np.int64)
    for k in range(int(t.p[T.P_N_UNITS])):
        if s.u[k, S.U_ST] == S.ONMAP and s.u[k, S.U_IN] == 1:
            inside[int(s.u[k, S.U_HEX])] += 1
    over = np.nonzero(inside > s.hx[:, S.HX_FORT])[0]
    if len(over):
        out.append(f"more squads in fortifications than markers in hexes {over.tolist()}")
    if s.g[S.G_MP] < 0:
        out.append(f"negative movement points {s.g[S.G_MP]}")
    return out + marker_problems(s, t) + concealment_problems(s, t) + fortification_problems(s, t)


def passing(s: S.GameState, moving: int, h: int, occ: np.ndarray, veh: np.ndarray) -> bool:
    """The mover alone of its side in an enemy hex it is passing through: a vehicle (an
    overrun, 001 Tanks; or concealed squads, rulings T43), or a squad among enemy squads
    (vehicles are never concealed: such a hex held only concealed squads when it entered)."""
    if moving < 0 or s.u[moving, S.U_HEX] != h:
        return False
    side = int(s.u[moving, S.U_SIDE])
    return occ[h, side] == 1 and (bool(s.u[moving, S.U_VEHICLE]) or veh[h, 1 - side] == 0)


def fortification_problems(s: S.GameState, t: T.Tables) -> list[str]:
    """001 Entrenchments & pillboxes; Engineer: Dig Entrenchment (rulings T40): no hex holds
    more than 3 fortification markers, none is ever taken away, and entrenchments are dug
    only where the terrain allows and no pillbox stands; the area-attack scratch marks are
    clear between decisions (rulings T42)."""
    out = []
    forts, base = s.hx[:, S.HX_FORT], t.hexi[:, T.HI_FORT]
    if (forts > t.p[T.P_FORT_MAX]).any():
        out.append(f"more than {int(t.p[T.P_FORT_MAX])} fortification markers in hexes "
                   f"{np.nonzero(forts > t.p[T.P_FORT_MAX])[0].tolist()}")
    if (forts < base).any():
        out.append("a scenario fortification marker has gone")
    dug = forts > base
    bad = dug & ((t.hexi[:, T.HI_NO_DIG] == 1) | ((base > 0) & (t.hexi[:, T.HI_PILLBOX] == 1))
                 | (t.hexi[:, T.HI_STAND] == 0))
    if bad.any():
        out.append(f"an entrenchment dug where none may be, hexes {np.nonzero(bad)[0].tolist()}")
    if (s.u[:, S.U_MARK] != 0).any():
        out.append("an area-attack supporter mark left set")
    return out


def concealment_problems(s: S.GameState, t: T.Tables) -> list[str]:
    """001 Concealed squads (rulings T39): only squads are concealed, and none stays so in an
    enemy unit's line of sight outside cover-providing terrain."""
    out = []
    los = t.los_smoke if s.g[S.G_SMOKE] else t.los
    on = [k for k in range(int(t.p[T.P_N_UNITS])) if s.u[k, S.U_ST] == S.ONMAP]
    for k in range(int(t.p[T.P_N_UNITS])):
        if not s.u[k, S.U_HIDDEN]:
            continue
        if s.u[k, S.U_VEHICLE]:
            out.append(f"vehicle {k} concealed")
        if s.u[k, S.U_ST] != S.ONMAP:
            continue
        h = int(s.u[k, S.U_HEX])
        seen = [e for e in on if s.u[e, S.U_SIDE] != s.u[k, S.U_SIDE] and los[int(s.u[e, S.U_HEX]), h]]
        if t.hexi[h, T.HI_COVER] == 0 and seen:
            out.append(f"squad {k} concealed in the open in sight of unit {seen[0]}")
    return out


def marker_problems(s: S.GameState, t: T.Tables) -> list[str]:
    """Smoke (001 Smoke; rulings T36): at most one marker a hex, never on a building, only the
    scenario's, all of them or none (the line of sight table assumes so); razor wire only
    where the scenario put it (removed, never added: rulings T37)."""
    out = []
    smoke = s.hx[:, S.HX_SMOKE]
    if not np.isin(smoke, (0, 1)).all() or (smoke > t.hexi[:, T.HI_SMOKE]).any():
        out.append("a smoke marker the scenario did not place, or two in a hex")
    if (smoke & t.hexi[:, T.HI_NO_SMOKE]).any():
        out.append("smoke on a building hex")
    if int(smoke.sum()) != int(s.g[S.G_SMOKE]) or s.g[S.G_SMOKE] not in (0, int(t.hexi[:, T.HI_SMOKE].sum())):
        out.append(f"smoke count {int(s.g[S.G_SMOKE])} disagrees with the markers")
    if not np.isin(s.hx[:, S.HX_WIRE], (0, 1)).all() or (s.hx[:, S.HX_WIRE] > t.hexi[:, T.HI_WIRE]).any():
        out.append("razor wire where the scenario put none")
    return out


def log_problems(events: np.ndarray) -> list[str]:
    """From a game's event log: op fire on a mover at most once per hex entered in one
    activation (001 Moving and op fire)."""
    out = []
    mover, hex_now, act = -1, -1, 0
    seen: set[tuple[int, int, int]] = set()
    for row in events:
        code = int(row[0])
        if code == EV_ACTIVATE:
            mover, act = int(row[2]), act + 1
            hex_now = -1
        elif code == EV_MOVE and int(row[2]) == mover:
            hex_now = int(row[4])
        elif code == EV_OPFIRE:
            key = (act, int(row[3]), hex_now)
            if key in seen:
                out.append(f"op fire twice on unit {row[3]} in hex {hex_now} (activation {act})")
            seen.add(key)
    return out
