"""One test per close-combat modifier: each rule of chapter 12 (both editions) changes
the pools, the way doubles count, the re-rolls or the outcome as its section says."""

import numpy as np
import pytest

from simulator.games.assault.questions.melee import melee
from simulator.games.assault.rules.aid import load_aid
from simulator.games.assault.rules.cards import load_units
from simulator.games.assault.rules.melee.damage import IN_HEX
from simulator.games.assault.rules.melee.fight import F_IMMOBILISED, F_STATUS, UNIT_STRIDE, begin, field
from simulator.games.assault.rules.melee.situation import (
    A1,
    A2,
    D1,
    D2,
    V1_INITIATE,
    V1_REINFORCE,
    V1_RENEW,
    V2_FIRST,
    V2_LATER,
    Direction,
    MeleeSituation,
    build_cast,
    direction_pools,
    round_pools,
)
from simulator.games.assault.rules.melee.tables import compile_melee, table_for
from simulator.run.errors import InputError

AID = load_aid()
UNITS = load_units()
SOV, GER = "soviet/rifles-41", "german/rifles-41"      # RGG / Y and RYG / Y
PZ, T26, AT_GUN = "german/pz-iif", "soviet/t-26", "german/at-gun-37mm"


def cast(edition, attacker=SOV, defender=GER, **kw):
    return build_cast(edition, UNITS[attacker], UNITS[defender], MeleeSituation(**kw), AID, UNITS)


def pools(edition, attacker=SOV, defender=GER, kind=None, **kw):
    """(attacker's attack on the defender, defender's attack on the attacker)."""
    kind = kind if kind is not None else (V1_INITIATE if edition == "v1" else V2_FIRST)
    return round_pools(cast(edition, attacker, defender, **kw), kind)


def s(pool):
    return "".join(pool)


FIELDS = ("attack", "defence", "doubles", "attack_rerolls", "defence_rerolls", "extra_supp", "adrenaline")


def _view(p) -> dict:
    return {f: (s(getattr(p, f)) if f in ("attack", "defence") else getattr(p, f)) for f in FIELDS}


def changes(edition, attacker=SOV, defender=GER, kind=None, base=None, **kw) -> dict:
    """What a modifier changes, in both directions: ``{(direction, field): (before, after)}``
    against the same fight without it (``base``: the situation's other keywords), where
    direction "a_on_d" is the attacker's attack on the defender (the defender's defence
    pool in it) and "d_on_a" the reverse. A modifier given to the wrong side shows up as
    a change in the other direction."""
    base = base or {}
    before = pools(edition, attacker, defender, kind=kind, **base)
    after = pools(edition, attacker, defender, kind=kind, **{**base, **kw})
    out = {}
    for name, b, a in zip(("a_on_d", "d_on_a"), before, after, strict=True):
        vb, va = _view(b), _view(a)
        out.update({(name, f): (vb[f], va[f]) for f in FIELDS if vb[f] != va[f]})
    return out


# --- first edition -----------------------------------------------------------------------

def test_v1_terrain_initiated_full_dice_for_the_holder_none_for_the_entering_unit():   # 12.7.1
    a_on_d, d_on_a = pools("v1", terrain="forest")
    assert s(a_on_d.defence) == "YYG" and s(d_on_a.defence) == "Y"    # Y (card) + forest's YG; Y (card)
    # against clear (G): only the holder's defence changes, G -> YG; the entering unit gets none
    assert changes("v1", base={"terrain": "clear"}, terrain="forest") == {("a_on_d", "defence"): ("YG", "YYG")}


def test_v1_terrain_renewed_strongest_die_for_both():                                    # 12.7.1
    a_on_d, d_on_a = pools("v1", terrain="forest", kind=V1_RENEW)
    assert s(a_on_d.defence) == "YY" and s(d_on_a.defence) == "YY"


def test_v1_vehicles_get_no_terrain_dice():                                              # 12.7.1
    a_on_d, _ = pools("v1", SOV, PZ, terrain="forest")
    assert s(a_on_d.defence) == "B"                     # the above dice only (12.7.3)
    assert any("no terrain" in st.reason for st in a_on_d.steps)


def test_v1_area_of_attack():                                                            # 12.7.3
    assert s(pools("v1", SOV, PZ)[0].defence) == "B"                           # against infantry: above
    assert s(pools("v1", T26, PZ, entry_area="rear")[0].defence) == "B"        # entered from the rear
    assert s(pools("v1", T26, PZ, entry_area="flank")[0].defence) == "G"
    assert s(pools("v1", T26, PZ, entry_area="rear", kind=V1_RENEW)[0].defence) == "YG"   # renewed: front
    assert s(pools("v1", T26, PZ, defender_immobilised=True, kind=V1_RENEW)[0].defence) == "B"   # rear


def test_v1_adrenaline_rush_every_exchange():                                            # 12.7.2
    for kind in (V1_INITIATE, V1_RENEW):
        a_on_d, d_on_a = pools("v1", kind=kind)
        assert a_on_d.adrenaline == d_on_a.adrenaline == 1


def test_v1_already_activated_defender():                                                # 12.8.1
    assert pools("v1", defender_activated=True)[1].doubles == "strongest"
    assert pools("v1", defender_activated=True, defender_damage=2)[1].doubles == "weakest"
    assert pools("v1", defender_activated=True, kind=V1_RENEW)[1].doubles == "all"
    assert pools("v1")[1].doubles == "all"
    assert pools("v1", defender_damage=2)[1].doubles == "all"    # no general half-strength penalty in v1


def test_v1_outflanked():                                                                # 12.8.2
    assert pools("v1", SOV, AT_GUN, outflanked=True)[1].doubles == "strongest"
    assert pools("v1", SOV, AT_GUN, outflanked=True, defender_damage=1)[1].doubles == "weakest"
    assert pools("v1", SOV, AT_GUN, outflanked=True, kind=V1_RENEW)[1].doubles == "all"
    with pytest.raises(InputError, match="fire all round"):
        pools("v1", outflanked=True)
    # entering from the flank or rear of a unit that fires through its front outflanks it (10.6)
    assert pools("v1", SOV, AT_GUN, entry_area="rear")[1].doubles == "strongest"
    assert pools("v2", T26, PZ, entry_area="flank")[0].attack_rerolls == 1
    assert pools("v2", T26, PZ, entry_area="front")[0].attack_rerolls == 0
    with pytest.raises(InputError, match="inside the arc"):
        pools("v1", SOV, AT_GUN, outflanked=True, entry_area="front")
    # an immobilised vehicle is always outflanked against vehicles, renewed too
    assert pools("v1", T26, PZ, defender_immobilised=True, kind=V1_RENEW)[1].doubles == "strongest"


def test_v1_vehicles_against_infantry():                                                 # 12.8.3
    assert pools("v1", PZ, SOV)[0].doubles == "strongest"
    # outflanked at half strength it counts the weakest symbol against infantry
    assert pools("v1", SOV, PZ, outflanked=True, defender_damage=1)[1].doubles == "weakest"
    assert pools("v1", SOV, PZ)[1].doubles == "strongest"


@pytest.mark.parametrize("edition", ["v1", "v2"])
def test_experience(edition):                                                    # 12.7.4, 12.8.4, 4.2.3
    a_on_d, d_on_a = pools(edition, terrain="road", attacker_experience="veteran", defender_experience="hardened")
    assert s(a_on_d.attack) == "RGGB" and s(a_on_d.defence) == "YB"
    assert s(d_on_a.defence).endswith("B") and s(d_on_a.attack) == "RYG"
    assert pools(edition, defender_experience="recruit")[0].extra_supp == 1


def test_v1_entering_a_suppressed_unit_makes_it_fall_back():                              # 12.0
    a = melee(SOV, GER, MeleeSituation(defender_suppressed=True), edition="v1").to_json()
    assert a["summary"]["p_attacker_holds"] == 1.0 and a["summary"]["p_defender_fell_back"] == 1.0
    assert a["summary"]["mean_rounds"] == 0.0
    art = melee(SOV, AT_GUN, MeleeSituation(defender_suppressed=True), edition="v1").to_json()
    assert art["summary"]["p_defender_eliminated"] == 1.0          # artillery cannot fall back (10.7.3)


@pytest.mark.parametrize("edition", ["v1", "v2"])
def test_entering_a_unit_in_fallback_eliminates_it(edition):                              # 12.0
    a = melee(SOV, GER, MeleeSituation(defender_fallback=True), edition=edition).to_json()
    assert a["summary"]["p_defender_eliminated"] == 1.0 and a["summary"]["p_attacker_holds"] == 1.0


def test_v1_reinforcing_unit_gets_no_terrain_and_the_holder_keeps_it():                  # 12.2, 12.7.1
    c = cast("v1", terrain="forest", reinforce_attacker="soviet/heavy-rifles-41",
             reinforce_defender="german/hmg-34")
    on_holder = direction_pools(Direction(c, A2, D1, V1_REINFORCE))
    assert s(on_holder.defence) == "YYG"                  # the unit that held the hex: full terrain
    on_reinforcement = direction_pools(Direction(c, D1, A2, V1_REINFORCE))
    assert s(on_reinforcement.defence) == "Y"
    between_newcomers = direction_pools(Direction(c, D2, A1, V1_REINFORCE))
    assert s(between_newcomers.defence) == "Y" and between_newcomers.doubles == "all"   # no 12.8.1 on reinforce


def test_v1_reinforcement_rules_and_stacking():                                           # 12.0, 12.2
    with pytest.raises(InputError, match="artillery"):
        cast("v1", reinforce_defender="german/mortar-81mm")
    with pytest.raises(InputError, match="side"):
        cast("v1", reinforce_attacker="german/hmg-34")
    with pytest.raises(InputError, match="two units a faction"):
        cast("v1", SOV, "german/truck", passengers=("german/rifles-41",), reinforce_defender="german/hmg-34")
    with pytest.raises(InputError, match="exist only in edition v1"):
        cast("v2", reinforce_attacker="soviet/heavy-rifles-41")


def test_v1_reinforcements_fight_in_the_first_turn():                                     # 12.2
    a = melee(SOV, GER, MeleeSituation(reinforce_attacker="soviet/heavy-rifles-41"), edition="v1",
              trials=40_000, seed=3).to_json()
    single = a["single_round"]["summary"]
    assert 1.0 < single["mean_rounds"] <= 2.0             # the reinforcement's exchange when it can enter
    assert set(a["units"]) == {"attacker", "attacker_reinforcement", "defender"}
    alone = melee(SOV, GER, MeleeSituation(), edition="v1").to_json()
    assert a["method"] == "monte-carlo" and alone["method"] == "exact"
    assert a["summary"]["p_attacker_holds"] > alone["summary"]["p_attacker_holds"] + 0.1


def test_v1_emergency_disembark_into_the_hex():                                           # 12.10
    c = cast("v1", GER, "soviet/truck", passengers=("soviet/mmg-maxim", "soviet/rifles-41"))
    assert c.passenger_in_hex and c.card(D1).id == "soviet/mmg-maxim" and c.card(D2).id == "soviet/truck"
    a_on_p, p_on_a = round_pools(c, V1_INITIATE)
    assert p_on_a.doubles == "strongest"                  # marked fast: 12.8.1
    assert any(st.section == "12.10" for st in a_on_p.steps)   # no terrain dice for it
    a = melee(GER, "soviet/truck", MeleeSituation(passengers=("soviet/mmg-maxim", "soviet/rifles-41"),
                                                  terrain="forest"), edition="v1", trials=1000, seed=1).to_json()
    assert a["attacker_defence_pool"] == "Y" and a["defender_defence_pool"] == "Y"
    assert [p["disembarks"] for p in a["passengers"]] == ["into the close-combat hex (12.10)",
                                                          "to an adjacent hex (12.10)"]


@pytest.mark.parametrize("edition", ["v1", "v2"])
def test_attack_on_wheels_or_tracks(edition):                                             # 12.9, revised 12.5
    a_on_d, d_on_a = pools(edition, SOV, PZ, tracks=True)
    assert (s(a_on_d.attack), s(a_on_d.defence), a_on_d.tracks) == ("G", "B", True)
    assert not a_on_d.prereq and a_on_d.adrenaline == 0
    assert s(d_on_a.attack) == "YG" and not d_on_a.tracks          # the vehicle attacks normally
    assert pools(edition, SOV, PZ, tracks=True, attacker_fast=True)[0].prereq
    later = V1_RENEW if edition == "v1" else V2_LATER
    assert not pools(edition, SOV, PZ, tracks=True, attacker_fast=True, kind=later)[0].prereq
    with pytest.raises(InputError, match="wheels/tracks"):
        pools(edition, tracks=True)


def test_tracks_choice_changes_once_the_vehicle_is_immobilised():                        # revised 12.5
    cm = compile_melee(cast("v2", SOV, PZ, tracks=True), max_rounds=50, policies=("never", "never"))
    S = cm.state.copy()
    t_mobile = table_for(cm.tables, cm.units, S, cm.params, A1, D1, V2_LATER)
    S[D1 * UNIT_STRIDE + F_IMMOBILISED] = 1
    t_stuck = table_for(cm.tables, cm.units, S, cm.params, A1, D1, V2_LATER)
    assert cm.pools[t_mobile].tracks and not cm.pools[t_stuck].tracks
    assert cm.pools[t_stuck].attack_rerolls == 1         # revised 12.1.2: re-roll against an immobilised vehicle


# --- revised edition -----------------------------------------------------------------------

def test_v2_support_units_give_one_attack_and_one_defence_reroll_in_round_one():          # revised 12.1.1.1
    a_on_d, d_on_a = pools("v2", support_attacker="soviet/heavy-rifles-41")
    assert (a_on_d.attack_rerolls, d_on_a.defence_rerolls) == (1, 1)
    assert (d_on_a.attack_rerolls, a_on_d.defence_rerolls) == (0, 0)
    later = pools("v2", support_attacker="soviet/heavy-rifles-41", kind=V2_LATER)[0]
    assert later.attack_rerolls == 0
    with pytest.raises(InputError, match="no ranged fire"):
        pools("v2", support_attacker="soviet/truck")
    with pytest.raises(InputError, match="side"):
        pools("v2", support_defender="soviet/heavy-rifles-41")
    with pytest.raises(InputError, match="exist only in edition v2"):
        pools("v1", support_attacker="soviet/heavy-rifles-41")


def test_v2_wire_costs_the_weakest_attack_die_in_round_one():                             # revised 12.1.2.1
    # the Soviet card's RGG loses one of its weakest (green) dice: RG; the defender's attack
    # (RYG) and both defences unchanged; nothing in later rounds
    assert changes("v2", wire=True) == {("a_on_d", "attack"): ("RGG", "RG")}
    assert changes("v2", wire=True, kind=V2_LATER) == {}


def test_v2_outflanking_gives_the_attacker_a_reroll():                                     # revised 12.1.2.1
    # one attack re-roll for the assault unit (0 -> 1); the gun's attack keeps counting all
    # doubles (the first edition's 12.8.2 penalty is gone) and gets no re-roll
    assert changes("v2", SOV, AT_GUN, outflanked=True) == {("a_on_d", "attack_rerolls"): (0, 1)}


def test_v2_already_activated_defender():                                                  # revised 12.1.2.2
    assert pools("v2", defender_activated=True)[1].doubles == "strongest"
    assert s(pools("v2", defender_activated=True)[1].attack) == "RYG"
    assert s(pools("v2", defender_activated=True, defender_damage=2)[1].attack) == "RY"
    assert pools("v2", defender_activated=True, kind=V2_LATER)[1].doubles == "all"


def test_v2_suppressed_defender_cannot_attack_in_round_one():                              # revised 12.1.2.2
    assert s(pools("v2", defender_suppressed=True)[1].attack) == ""
    assert s(pools("v2", defender_suppressed=True, kind=V2_LATER)[1].attack) == "RYG"
    cm = compile_melee(cast("v2", defender_suppressed=True), max_rounds=50, policies=("never", "never"))
    S = cm.state.copy()
    begin(S, cm.units, cm.params)
    assert field(S, D1, F_STATUS) == IN_HEX             # it stays (unlike the first edition)


def test_v2_terrain_blue_die_then_strongest_die():                                         # revised 12.1.3
    a_on_d, d_on_a = pools("v2", terrain="stone-building")
    assert s(a_on_d.defence) == "RYY" and s(d_on_a.defence) == "YB"
    a_on_d, d_on_a = pools("v2", terrain="stone-building", kind=V2_LATER)
    assert s(a_on_d.defence) == "RY" and s(d_on_a.defence) == "RY"


def test_v2_fast_assault_loses_its_weakest_defence_die():                                  # revised 12.1.3.2
    # the assault unit's round-one defence, Y (card) + B (revised 12.1.3.2), loses its weakest
    # die, the blue: Y; nothing else changes, the defender's pools included
    assert changes("v2", attacker_fast=True) == {("d_on_a", "defence"): ("YB", "Y")}
    assert s(pools("v2", attacker_fast=True, kind=V2_LATER)[1].defence) == "YG"  # card + clear's strongest die
    with pytest.raises(InputError, match="slow"):
        pools("v2", "soviet/mmg-maxim", GER, attacker_fast=True)


def test_v2_fortification_by_side_and_the_assault_units_primary_terrain_die():             # revised 12.1.3
    a_on_d, d_on_a = pools("v2", terrain="forest", fortification="bunker", entry_area="flank")
    assert s(a_on_d.defence) == "RYY"                   # Y + bunker flank RY (reconstructed)
    assert s(d_on_a.defence) == "YYB"                   # Y + blue + the forest's strongest die
    a_on_d, d_on_a = pools("v2", terrain="forest", fortification="bunker", kind=V2_LATER)
    assert s(a_on_d.defence) == "RY" and s(d_on_a.defence) == "RY"
    with pytest.raises(InputError, match="unknown fortification"):
        pools("v2", fortification="castle")
    with pytest.raises(InputError, match="vehicle"):
        pools("v2", SOV, PZ, fortification="trench")


def test_v2_adrenaline_rush_initial_round_only():                                          # revised 12.1.5
    assert pools("v2")[0].adrenaline == 1
    assert pools("v2", kind=V2_LATER)[0].adrenaline == 0


def test_v2_half_strength_doubles_count_once_every_round():                                # revised 12.1
    for kind in (V2_FIRST, V2_LATER):
        a_on_d, d_on_a = pools("v2", attacker_damage=2, kind=kind)
        assert a_on_d.doubles == "strongest" and d_on_a.doubles == "all"


def test_v2_immobilised_vehicle():                                                         # revised 12.1.2, 12.3
    for kind in (V2_FIRST, V2_LATER):
        a_on_d, d_on_a = pools("v2", SOV, PZ, defender_immobilised=True, kind=kind)
        assert a_on_d.attack_rerolls == 1 and d_on_a.doubles == "strongest"
    assert s(pools("v2", T26, PZ, defender_immobilised=True)[0].defence) == "B"   # rear dice
    assert s(pools("v2", T26, PZ, kind=V2_LATER)[0].defence) == "YG"             # front after round one


def test_v2_immobilised_vehicle_cannot_withdraw():                                         # 13.1
    a = melee(SOV, PZ, MeleeSituation(defender_immobilised=True, defender_damage=1), edition="v2").to_json()
    assert a["summary"]["p_defender_withdrew"] == 0.0


@pytest.mark.parametrize("edition", ["v1", "v2"])
def test_dug_in_defender(edition):                                                   # 9.8.1, revised 12.2
    # the German card's Y + clear's G (the situation's default terrain), plus the dug-in green
    # die: YG -> YGG; the assault unit's defence (v1: Y, card only; v2: Y + the blue die of
    # revised 12.1.3.2) and both attacks unchanged
    assert changes(edition, defender_dug_in=True) == {("a_on_d", "defence"): ("YG", "YGG")}
    a = melee(SOV, GER, MeleeSituation(defender_dug_in=True), edition=edition).to_json()
    if edition == "v1":
        assert a["p_dug_in_kept"] == 1.0                 # the marker always stays (9.8.1)
    else:
        assert a["p_dug_in_kept"] == pytest.approx(a["summary"]["p_defender_holds"] + a["summary"]["p_unresolved"])
        assert a["p_dug_in_kept"] < 1.0
    with pytest.raises(InputError, match="only infantry dig in"):
        pools(edition, SOV, PZ, defender_dug_in=True)


def test_v2_emergency_disembark_fire_at_the_passengers():                                  # revised 12.4
    a = melee(GER, "soviet/truck", MeleeSituation(passengers=("soviet/mmg-maxim", "soviet/rifles-41")),
              edition="v2").to_json()
    assert a["defender_defence_pool"] == "-"             # the truck itself: its above dice (none) vs infantry
    shots = {p["unit"]: p for p in a["passengers"]}
    assert shots["soviet/rifles-41"]["attack_pool"] == "R"   # strongest die of RYG at range 0
    assert shots["soviet/rifles-41"]["defence_pool"] == "Y"  # card dice only
    for p in shots.values():
        assert sum(st["p"] for st in p["states"]) == pytest.approx(1.0)
        assert 0 < p["summary"]["p_eliminated"] < 1 or p["summary"]["mean_damage"] > 0
    with pytest.raises(InputError, match="capacity"):
        cast("v2", GER, "soviet/truck", passengers=("soviet/rifles-41",) * 3)


def test_outcome_states_cover_all_probability():
    for edition in ("v1", "v2"):
        a = melee(SOV, PZ, MeleeSituation(tracks=True), edition=edition).to_json()
        assert np.isclose(sum(st["p"] for st in a["states"]), 1.0)
        total = sum(a["summary"][k] for k in ("p_attacker_holds", "p_defender_holds", "p_neither_holds",
                                               "p_unresolved"))
        assert total == pytest.approx(1.0)
        assert {st["defender"]["status"] for st in a["states"]} >= {"in hex", "withdrew"}
