"""Unit specs: squads from figures and a specialisation, vehicles with damage, tags."""

import pytest

from simulator.games.toi.rules.data import load_game
from simulator.games.toi.rules.units import label, parse_unit, with_features
from simulator.run.errors import InputError

GAME = load_game()


def test_squad_from_figures_with_tags():
    sq = parse_unit("squad:2elite+regular+officer:medic:pinned:woods:entrenchment:dist=3:with-officer", GAME)
    assert sq.size == 4 and sq.figures == (("elite", 2), ("regular", 1), ("officer", 1))
    assert sq.condition == "pinned" and sq.specialisation == "medic"
    assert sq.features == {"woods", "entrenchment"} and sq.situation == {"with_officer"} and sq.distance == 3
    assert not sq.ability_usable()  # 001 Specialized squads: not while pinned
    assert label(sq, GAME) == "squad 2elite+1regular+1officer (medic, pinned)"


def test_generic_squad_and_vehicles():
    assert parse_unit("squad:4", GAME).generic
    v = parse_unit("tiger:light:woods", GAME)
    assert (v.model, v.damage, v.features) == ("tiger", "light", {"woods"})
    assert parse_unit("vehicle:heavy", GAME).generic
    assert parse_unit("squad:3regular:anti-tank:wire", GAME).features == {"razor_wire"}


@pytest.mark.parametrize("spec,needle", [
    ("squad", "needs its figures"),
    ("squad:5regular", "1 to 4 figures"),
    ("squad:3riflemen", "cannot read figure"),
    ("squad:2regular+mg:engineer", "may not hold a mg"),
    ("squad:3regular:pinned:disrupted", "more than one condition"),
    ("squad:3regular:medic:engineer", "more than one specialisation"),
    ("squad:3regular:light", "damage"),
    ("sherman:pinned", "for squads"),
    ("sherman:entrenchment", "cannot be in a entrenchment"),
    ("squad:3regular:woods:building", "one main terrain"),
    ("squad:3regular:sneaky", "unknown tag"),
    ("squad:3regular:dist=0", "dist="),
    ("kingtiger", "unknown unit"),
])
def test_bad_specs_are_input_errors_naming_the_option(spec, needle):
    with pytest.raises(InputError) as err:
        parse_unit(spec, GAME, "--target")
    assert err.value.where == "--target"
    assert needle in err.value.problem


def test_hex_options_are_checked_again():
    v = parse_unit("sherman", GAME)
    with pytest.raises(InputError, match="one main terrain"):
        with_features(parse_unit("squad:2regular:woods", GAME), {"building"}, GAME, "--terrain")
    assert with_features(v, {"smoke"}, GAME, "--smoke").features == {"smoke"}
