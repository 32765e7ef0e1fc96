"""Compiling a scenario, the packing: every table laid out in the few arrays the
compiled rules read (:class:`~simulator.games.assault.game.tables.Tables`: :func:`pack`).
Part of :func:`simulator.games.assault.game.compile.compile_game`."""

from __future__ import annotations

import numpy as np

from simulator.games.assault.game import closecombat as ccm
from simulator.games.assault.game.layout import can_stand, cover_table, terrain_damage
from simulator.games.assault.game.tables import (
    CI_ADRENALINE,
    CI_ATK_REROLLS,
    CI_DEF_REROLLS,
    CI_EXTRA,
    CI_FIELDS,
    CI_NATK,
    CI_NDEF,
    CI_PREREQ,
    CI_TRACKS,
    FO_FIELDS,
    HI_ELEV,
    HI_FIELDS,
    HI_FREEFACE,
    HI_HILL,
    HI_NOIND,
    HI_OBJ,
    HI_Q,
    HI_R,
    HI_STAND,
    HI_TDMG,
    HI_TERRAIN,
    ICC_HEAD,
    META_WIDTH,
    OB_HEX,
    OB_START,
    OB_VALUE,
    P_CRIT_B,
    P_CRIT_G,
    P_CRIT_MAX,
    P_FIELDS,
    P_N_ATK,
    P_N_FORMS,
    P_N_UNITS,
    P_N_ZONES,
    P_NAREA,
    P_NB,
    P_NFLAGS,
    P_NG,
    P_NOUT,
    P_NR,
    P_NROLES,
    P_NSMOKE,
    P_NT,
    P_NTERR,
    P_O_ATK,
    P_O_BAND,
    P_O_CC,
    P_O_CCLOSS,
    P_O_COVER,
    P_O_DEF,
    P_O_DRAW,
    P_O_FORM,
    P_O_ICC,
    P_O_IND,
    P_O_INDDEF,
    P_O_INDSPOT,
    P_O_OBJ,
    P_O_OVR,
    P_O_PFIRE,
    P_O_SMOKE,
    P_O_SPOT,
    P_O_VIC,
    PO_EXTRA,
    PO_N,
    S6_CLIMB,
    S6_COST,
    S6_FIELDS,
    S6_NBR,
    S6_TDMG,
    UT_RIDEDEF,
    UT_TDEF,
    Tables,
)
from simulator.games.assault.rules.cards import MOVEMENT_TYPES
from simulator.games.assault.rules.kernels import packed_faces


def _cumulative_odds(p_dmg: np.ndarray, p_morale: np.ndarray) -> np.ndarray:
    """``odds[a, d, :, k]`` for a target with ``k`` strength points left: P(eliminated)
    = P(damage >= k), E[strength points taken] = E[min(damage, k)], P(morale hit and
    survives) = P(damage < k and a crit or supp uncancelled). One look-up each."""
    bins = p_dmg.shape[2]
    out = np.zeros(p_dmg.shape[:2] + (3, bins), dtype=np.float64)
    for k in range(bins):
        out[:, :, 0, k] = p_dmg[:, :, k:].sum(axis=2)
        dmg = np.minimum(np.arange(bins), k)
        out[:, :, 1, k] = (p_dmg * dmg).sum(axis=2)
        out[:, :, 2, k] = p_morale[:, :, :k].sum(axis=2)
    return out


def _into_cc_parts(icc, n_atk) -> list[np.ndarray]:
    """10.11: the block of fire into a close combat in ``keys`` (``tables.icc_*``): a header
    (where each table starts in the block, the keep masks' width), the two defence tables
    (pool ids shifted past the attack pools) and the success-dice masks. None: no block."""
    if icc is None:
        return []
    shift = [np.where(x >= 0, x + n_atk, -1).astype(np.int32).ravel() for x in (icc.infantry, icc.friendly)]
    keep = icc.keep.astype(np.int32)
    head = np.array([ICC_HEAD, ICC_HEAD + len(shift[0]), ICC_HEAD + len(shift[0]) + len(shift[1]),
                     keep.shape[1]], dtype=np.int32)
    return [head, shift[0], shift[1], keep.ravel()]


def pack(cm, aid, support, geo, between, geo_bare, nhind, ut, ft, melee, cck, cc_mask, cc_loss, cc_stats, b, draw, vic,
          objectives, obj_start, p, n_types) -> Tables:
    """Lay every table out in the few arrays of :class:`Tables`."""
    n = cm.n
    hexi = np.zeros((n, HI_FIELDS), dtype=np.int64)
    hexi[:, HI_TDMG] = -1
    hexi[:, HI_TERRAIN] = cm.terrain
    hexi[:, HI_ELEV] = cm.elevation
    hexi[:, HI_HILL] = cm.hill
    hexi[:, HI_OBJ] = -1
    for k, o in enumerate(objectives):
        hexi[cm.index_of(o.hex), HI_OBJ] = k
    hexi[:, HI_NOIND] = [int(cm.terrain_names[x] in support.no_indirect_from) for x in cm.terrain]
    hexi[:, HI_Q] = cm.q
    hexi[:, HI_R] = cm.r
    hexi[:, HI_STAND:HI_STAND + len(MOVEMENT_TYPES)] = can_stand(cm).T
    hexi[:, HI_FREEFACE] = cm.free_facing.astype(np.int64)
    side6 = np.zeros((n, 6, S6_FIELDS), dtype=np.int64)
    side6[:, :, S6_NBR] = cm.neighbours
    side6[:, :, S6_CLIMB] = cm.climb
    for m in range(len(MOVEMENT_TYPES)):
        side6[:, :, S6_COST + m] = cm.move_cost[m]
    geoi = np.stack([geo_bare, nhind], axis=1).astype(np.int64)

    # ranged pools: attack pools, defence pools, then the two critical-hit rows
    # then the terrain-damage pools (9.10.1)
    n_atk, n_def = ft.atk_rows.shape[0], ft.def_rows.shape[0]
    hex_pool, def_pool = terrain_damage(cm, aid, b.types)
    td = sorted({x for x in hex_pool if x})
    td_def = sorted({x for x in def_pool if x})
    td_rows = [packed_faces(x, (), aid.dice, "all") for x in td] + [packed_faces((), x, aid.dice, "all")
                                                                      for x in td_def]
    n_fixed = n_atk + n_def + 2
    width = max([ft.atk_rows.shape[1], ft.def_rows.shape[1], ft.crit_g.shape[0]] + [r.shape[0] for r in td_rows])
    rows = np.zeros((n_fixed + len(td_rows), width, 6), dtype=np.int64)
    rows[:n_atk, :ft.atk_rows.shape[1]] = ft.atk_rows
    rows[n_atk:n_atk + n_def, :ft.def_rows.shape[1]] = ft.def_rows
    rows[n_atk + n_def, :ft.crit_g.shape[0]] = ft.crit_g
    rows[n_atk + n_def + 1, :ft.crit_b.shape[0]] = ft.crit_b
    pooli = np.zeros((n_fixed + len(td_rows), 2), dtype=np.int64)
    pooli[:n_atk, PO_N] = ft.atk_n
    pooli[:n_atk, PO_EXTRA] = ft.atk_extra
    pooli[n_atk:n_atk + n_def, PO_N] = ft.def_n
    pooli[n_atk + n_def:n_fixed, PO_N] = ft.crit_g.shape[0]
    for k, r in enumerate(td_rows):
        rows[n_fixed + k, :r.shape[0]] = r
        pooli[n_fixed + k, PO_N] = r.shape[0]
    hexi[:, HI_TDMG] = [n_fixed + td.index(x) if x else -1 for x in hex_pool]
    nb = cm.neighbours
    side6[:, :, S6_TDMG] = np.where(nb >= 0, hexi[np.maximum(nb, 0), HI_TDMG] >= 0, False)   # 9.10.3
    ut = ut.copy()
    ut[:, UT_TDEF] = [n_fixed + len(td) + td_def.index(x) if x else -1 for x in def_pool]
    ut[:, UT_RIDEDEF] = np.where(ft.rider_def >= 0, ft.rider_def + n_atk, -1)     # 10.10.1
    def_key = np.where(ft.def_key >= 0, ft.def_key + n_atk, -1).astype(np.int32)
    odds = _cumulative_odds(ft.p_dmg, ft.p_morale)

    last_shot = ft.last_shot.copy()
    last_shot[..., 1] = np.where(last_shot[..., 1] >= 0, last_shot[..., 1] + n_atk, -1)   # 9.10.3
    parts = [ft.atk_key.ravel(), ft.band_of.ravel(), def_key.ravel(), ft.spot_need.astype(np.int32).ravel(),
             last_shot.ravel()]
    parts += _support_parts(ft.support, n_atk)                                     # chapter 7
    p[P_O_ICC] = sum(len(x) for x in parts) if ft.into_cc is not None else -1     # 10.11
    parts += _into_cc_parts(ft.into_cc, n_atk)
    pfire = ft.passenger_fire.copy()                                               # revised 12.4
    pfire[..., 1] = np.where(pfire[..., 1] >= 0, pfire[..., 1] + n_atk, -1)
    p[P_O_PFIRE] = sum(len(x) for x in parts)
    parts.append(pfire.ravel())
    offsets = np.cumsum([0] + [len(x) for x in parts])
    keys = np.concatenate(parts).astype(np.int32)
    p[P_O_ATK], p[P_O_BAND], p[P_O_DEF], p[P_O_SPOT], p[P_O_OVR] = offsets[:5]
    if ft.support is not None:
        p[P_O_IND], p[P_O_INDDEF], p[P_O_INDSPOT], p[P_O_SMOKE] = offsets[5:9]
    p[P_NT] = n_types
    p[P_NB] = ft.atk_key.shape[2]
    p[P_NR] = ft.band_of.shape[1]
    p[P_NG] = ft.def_key.shape[1]
    p[P_NSMOKE] = ft.def_key.shape[2]
    p[P_NAREA] = ft.def_key.shape[5]
    p[P_NOUT] = ft.spot_need.shape[4]
    p[P_NTERR] = len(cm.terrain_names)
    p[P_NROLES] = ccm.N_ROLES
    p[P_NFLAGS] = ccm.N_FLAGS
    p[P_CRIT_G] = n_atk + n_def
    p[P_CRIT_B] = n_atk + n_def + 1
    p[P_CRIT_MAX] = ft.crit_g.shape[0]
    p[P_N_ATK] = n_atk
    p[P_FIELDS:P_FIELDS + ccm.N_ROLES] = cc_mask
    p[ccm.P_PREREQ_FACES:ccm.P_PREREQ_FACES + 6] = melee.prereq_faces

    cci = np.zeros((len(melee.n_attack), CI_FIELDS), dtype=np.int64)
    cci[:, CI_NATK] = melee.n_attack
    cci[:, CI_NDEF] = melee.n_defence
    cci[:, CI_ATK_REROLLS] = melee.attack_rerolls
    cci[:, CI_DEF_REROLLS] = melee.defence_rerolls
    cci[:, CI_EXTRA] = melee.extra_supp
    cci[:, CI_ADRENALINE] = melee.adrenaline
    cci[:, CI_TRACKS] = melee.tracks
    cci[:, CI_PREREQ] = melee.prereq

    slots = b.slot_array()
    meta_rows = [slots]
    p[P_N_UNITS] = len(b.slots)
    p[P_O_FORM] = sum(len(x) for x in meta_rows)
    forms = np.zeros((max(1, len(b.form_rows)), META_WIDTH), dtype=np.int32)
    for i, r in enumerate(b.form_rows):
        forms[i, :FO_FIELDS] = r
    meta_rows.append(forms)
    p[P_N_FORMS] = len(b.form_rows)
    p[P_O_VIC] = sum(len(x) for x in meta_rows)
    v = np.zeros((2, META_WIDTH), dtype=np.int32)
    v[:, :vic.shape[1]] = vic
    meta_rows.append(v)
    p[P_O_OBJ] = sum(len(x) for x in meta_rows)
    ob = np.zeros((max(1, len(objectives)), META_WIDTH), dtype=np.int32)
    for k, o in enumerate(objectives):
        ob[k, OB_HEX] = cm.index_of(o.hex)
        ob[k, OB_VALUE] = o.value
        ob[k, OB_START] = obj_start[k]
    meta_rows.append(ob)
    p[P_O_DRAW] = sum(len(x) for x in meta_rows)
    dr = np.zeros((6, META_WIDTH), dtype=np.int32)
    dr[:, :2] = draw.reshape(6, 2)
    meta_rows.append(dr)
    meta = np.concatenate(meta_rows).astype(np.int64)

    p[P_N_ZONES] = len(b.zones)
    starts = np.zeros(len(b.zones) + 1, dtype=np.int64)
    for i, z in enumerate(b.zones):
        starts[i + 1] = starts[i] + len(z)
    zones = np.concatenate([starts, np.array([h for z in b.zones for h in z], dtype=np.int64)]).astype(np.int64)

    cover = cover_table(cm, aid)
    p[P_O_COVER] = 0
    p[P_O_CCLOSS] = n
    p[P_O_CC] = n + cc_loss.size          # close-combat pool statistics (CC_STATS each)
    fconst = np.concatenate([cover, cc_loss.ravel(), cc_stats.ravel()]).astype(np.float64)
    return Tables(hexi=hexi, side6=side6, near=geo, between=between, geoi=geoi,
                  ut=ut.astype(np.int64), p=p.astype(np.int64),
                  rows=rows, pooli=pooli, keys=keys, odds=odds, cc_faces=melee.faces.astype(np.int64),
                  cc_gain=melee.gain.astype(np.float64), cci=cci, cck=cck, meta=meta, zones=zones, fconst=fconst)


def _support_parts(sup, n_atk: int) -> list[np.ndarray]:
    """The support phase's key blocks (chapter 7), defence pools moved past the attack pools."""
    if sup is None:
        return []
    ind_def = np.where(sup.ind_def >= 0, sup.ind_def + n_atk, -1)
    return [sup.ind_atk.ravel(), ind_def.ravel(), sup.ind_spot.ravel(), sup.smoke_atk.ravel()]
