"""The result tables of 001: suppressive and normal attacks on squads and vehicles."""

import pytest

from simulator.games.toi.rules.results import Target, damaged, hits_to_destroy, suppressed


@pytest.mark.parametrize("condition,hits,after", [
    # 001 Suppressive attack results, every row
    ("normal", 0, "normal"), ("normal", 1, "pinned"), ("normal", 2, "pinned"), ("normal", 3, "disrupted"),
    ("normal", 4, "routed"), ("normal", 9, "routed"),
    ("pinned", 0, "pinned"), ("pinned", 1, "disrupted"), ("pinned", 2, "disrupted"), ("pinned", 3, "routed"),
    ("disrupted", 0, "disrupted"), ("disrupted", 1, "routed"),
])
def test_suppressive_table(condition, hits, after):
    assert suppressed(condition, hits) == after


@pytest.mark.parametrize("damage,hits,after", [
    # 001 Normal attack results against vehicles, every row
    ("undamaged", 1, "light"), ("undamaged", 2, "light"), ("undamaged", 3, "heavy"), ("undamaged", 4, "destroyed"),
    ("light", 1, "heavy"), ("light", 2, "heavy"), ("light", 3, "destroyed"),
    ("heavy", 1, "destroyed"), ("undamaged", 0, "undamaged"),
])
def test_vehicle_table(damage, hits, after):
    assert damaged(damage, hits) == after


def test_fragile_trucks_die_when_heavily_damaged():  # 001 Trucks: Fragile
    assert damaged("undamaged", 3, fragile=True) == "destroyed"
    assert damaged("light", 1, fragile=True) == "destroyed"
    assert damaged("undamaged", 2, fragile=True) == "light"
    assert [hits_to_destroy(d) for d in ("undamaged", "light", "heavy")] == [4, 3, 1]
    assert [hits_to_destroy(d, True) for d in ("undamaged", "light", "heavy")] == [3, 1, 1]


def test_normal_attack_on_squads_removes_figures_and_keeps_condition():
    t = Target("squad", figures=3, condition="pinned")
    assert t.after("normal", 2) == "1 left" and t.figures_lost("normal", 2) == 2
    assert t.after("normal", 5) == "destroyed" and t.figures_lost("normal", 5) == 3
    assert t.states("normal") == ["3 left", "2 left", "1 left", "destroyed"]
    assert t.states("suppressive") == ["pinned", "disrupted", "routed"]
