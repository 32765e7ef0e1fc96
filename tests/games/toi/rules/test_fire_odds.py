"""The fire question: hit distributions turned into the target's states (exact)."""

from math import comb

import numpy as np
import pytest

from simulator.games.toi.questions.odds import fire_from_strengths, fire_from_units, minefield


def binom_pmf(n, p):
    return np.array([comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)])


def test_suppressive_against_a_normal_squad():
    f = fire_from_strengths(5, 0, "close", mode="suppressive", target="squad:4")
    pmf = binom_pmf(5, 0.5)
    s = f.summary
    assert f["p"].to_numpy() == pytest.approx(pmf)
    assert s["p_normal"] == pytest.approx(pmf[0])
    assert s["p_pinned"] == pytest.approx(pmf[1] + pmf[2])
    assert s["p_disrupted"] == pytest.approx(pmf[3])
    assert s["p_routed"] == pytest.approx(pmf[4] + pmf[5]) == s["p_destroyed"]
    assert s["mean_hits"] == pytest.approx(2.5)


def test_suppressive_against_pinned_and_disrupted_squads():
    pmf = binom_pmf(4, 0.5)
    s = fire_from_strengths(4, 0, "close", mode="suppressive", target="squad:4:pinned").summary
    assert "p_normal" not in s
    assert (s["p_pinned"], s["p_disrupted"], s["p_routed"]) == pytest.approx((pmf[0], pmf[1] + pmf[2], pmf[3] + pmf[4]))
    s = fire_from_strengths(4, 0, "close", mode="suppressive", target="squad:2:disrupted").summary
    assert s["p_routed"] == pytest.approx(1 - pmf[0])


def test_normal_attack_against_a_squad_removes_figures():
    pmf = binom_pmf(6, 1 / 3)
    s = fire_from_strengths(6, 0, "normal", target="squad:2").summary
    assert s["p_destroyed"] == pytest.approx(pmf[2:].sum())
    assert s["p_1_left"] == pytest.approx(pmf[1])
    assert s["mean_figures_lost"] == pytest.approx(pmf[1] + 2 * pmf[2:].sum())


@pytest.mark.parametrize("target,expect", [
    ("vehicle", {"p_undamaged": [0], "p_light_damage": [1, 2], "p_heavy_damage": [3], "p_destroyed": [4, 5, 6]}),
    ("vehicle:light", {"p_light_damage": [0], "p_heavy_damage": [1, 2], "p_destroyed": [3, 4, 5, 6]}),
    ("vehicle:heavy", {"p_heavy_damage": [0], "p_destroyed": [1, 2, 3, 4, 5, 6]}),
    ("gmc_truck", {"p_undamaged": [0], "p_light_damage": [1, 2], "p_destroyed": [3, 4, 5, 6]}),   # fragile
])
def test_normal_attack_against_vehicles(target, expect):
    pmf = binom_pmf(6, 0.5)
    s = fire_from_strengths(6, 0, "close", target=target).summary
    for key, ks in expect.items():
        assert s[key] == pytest.approx(pmf[ks].sum()), key
    assert s.get("p_heavy_damage", 0) == pytest.approx(pmf[3] if target == "vehicle" else s.get("p_heavy_damage", 0))


def test_area_attack_reports_wire_removal():
    f = fire_from_units("squad:2mortar", "squad:4:razor_wire", distance=4)
    assert f.area and f.success_on == "5-6"
    assert f.summary["p_wire_removed"] == pytest.approx(binom_pmf(8, 1 / 3)[3:].sum())


def test_minefield_entry_and_engineers():
    s = minefield("squad:4regular").summary
    assert s["mean_hits"] == pytest.approx(2.0) and s["p_destroyed"] == pytest.approx(1 / 16)
    s = minefield("sdkfz_251").summary
    assert s["p_destroyed"] == pytest.approx(1 / 16) and s["p_heavy_damage"] == pytest.approx(4 / 16)
    assert minefield("squad:4regular:engineer").summary["p_hit"] == 0


def test_unit_mode_records_every_modifier():
    f = fire_from_units("squad:3regular+officer:pinned", "squad:2elite+2regular", distance=2, mode="suppressive",
                        terrain="woods", smoke=True, cover=1)
    a = f
    assert a.attack_strength == 2 and a.contributions[0]["halvings"] == ["rally (pinned with officer)"]
    assert a.defence_strength == 2 + 2 + 2 + 1
    assert any("battle-hardened" in n for n in a.notes) and any("smoke" in n for n in a.notes)
