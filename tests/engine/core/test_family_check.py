"""The skill curve's family check (issue 41, item 3): a second search family (``uct:N``,
no greedy priors or value) plays both sides on the curve's seeds beside the top level,
and the verdict says whether it depends on the player: "depends" when a side's paired
difference has its 95% interval wholly outside ± the margin (the curve's "moving"),
"agrees" when every side's lies within (the curve's "converged"), else "undecided".
Built here from constructed outcome arrays (0 the first side won, 1 the second, 2 a draw)."""

from __future__ import annotations

import numpy as np
import pytest

from reports.scenario_text import family_lines
from simulator.engine.core.answers import FamilyCheck
from simulator.engine.core.balance import curve_row, family_check, family_player
from simulator.engine.players import interface
from simulator.run.errors import InputError
from simulator.run.vocabulary import DEFAULT_FAMILY

SIDES = ["american", "german"]
Z = 1.959963984540054


def outcomes(n: int, b: int, c: int, base: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """The top level's and the family's outcomes over the same n games: the first side
    won b games at the top that the second won with the family, the second side c games
    at the top that the first won with the family; the rest end ``base`` in both."""
    top = np.full(n, base, np.int8)
    fam = np.full(n, base, np.int8)
    top[:b], fam[:b] = 0, 1
    top[b:b + c], fam[b:b + c] = 1, 0
    return top, fam


def check(top: np.ndarray, fam: np.ndarray, margin: float = 0.05) -> dict:
    rows = [curve_row(lv, np.bincount(o, minlength=3)[:3], len(o), SIDES) for lv, o in (("mcts:256", top),
                                                                                         ("uct:32", fam))]
    return family_check(rows[0], top, rows[1], fam, SIDES, margin)


def test_the_verdict_depends_on_the_player_beyond_the_margin():
    # 400 games: the first side wins 120 more at the top level than with uct: +30 points,
    # the second -30; the per-game differences' sd sqrt(120/399 - 0.09) = 0.4590, half-width
    # 1.96 * 0.4590 / 20 = 0.045: [+25.5, +34.5] lies wholly above +5
    c = check(*outcomes(400, 120, 0))
    assert c["status"] == "depends" and c["games_needed"] is None
    assert c["difference"]["american"]["p"] == pytest.approx(0.30)
    assert c["difference"]["german"]["p"] == pytest.approx(-0.30)
    half = Z * np.sqrt(120 / 399 - 0.09 * 400 / 399) / 20
    assert c["difference"]["american"]["ci95"] == pytest.approx([0.30 - half, 0.30 + half], rel=1e-6)
    # both families' rates are shown: the top level 120/400 = 30% first-side wins, uct 0%
    assert c["win_rate"]["top"]["american"]["p"] == pytest.approx(0.30)
    assert c["win_rate"]["family"]["american"]["p"] == 0.0 and c["win_rate"]["family"]["german"]["p"] == 0.30
    assert c["text"].startswith("THE VERDICT DEPENDS ON THE PLAYER") and "uct:32 wins american 0.0%" in c["text"]
    assert "mcts:256 wins american 30.0% [" in c["text"]


def test_the_families_agree_within_the_margin():
    # 400 games, none changed: the exact bound 1 - 0.025^(1/400) = 0.00918 < 0.05 for both sides
    c = check(*outcomes(400, 0, 0, base=0))
    bound = 1 - 0.025 ** (1 / 400)
    assert c["status"] == "agrees" and c["games_needed"] is None
    for s in SIDES:
        assert c["difference"][s]["p"] == 0.0
        assert c["difference"][s]["ci95"] == pytest.approx([-bound, bound], rel=1e-9)
    assert c["text"].startswith("a second search family (uct:32) agrees with the top level within ±5 points")


def test_undecided_with_the_games_needed():
    # 100 games, 5 changed each way: d = 0, sd sqrt(10/99) = 0.3178, half-width 0.0623 > 0.05:
    # undecided; decided at N = ceil((1.96 * 0.3178 / 0.05)^2) = 156 games: 56 more
    c = check(*outcomes(100, 5, 5))
    assert c["status"] == "undecided" and c["games_needed"] == 56
    assert c["text"].startswith("undecided whether a second search family (uct:32) agrees")
    assert "about 56 more games would most likely decide it" in c["text"]
    # a wider margin (10 points) takes the same games as agreeing: 0.0623 < 0.10
    assert check(*outcomes(100, 5, 5), margin=0.10)["status"] == "agrees"


def test_the_text_lines():
    c = check(*outcomes(400, 120, 0))
    lines = family_lines(FamilyCheck.of(c), SIDES)     # the report's typed section
    # the family's row: american 0/400, german 120/400 = 30%, draws 280/400 = 70%
    assert lines[0].startswith("  second family   uct:32: american  0.00% [")
    assert "german 30.00% [" in lines[0] and lines[0].endswith("draws 70.00%: THE VERDICT DEPENDS ON THE PLAYER")
    assert lines[1].startswith("    american: mcts:256 minus uct:32 +30.00 points [+25.")
    assert lines[2].startswith("    german: mcts:256 minus uct:32 -30.00 points [-34.")
    assert family_lines(None, SIDES) == []
    undecided = family_lines(FamilyCheck.of(check(*outcomes(100, 5, 5))), SIDES)
    assert undecided[0].endswith(": undecided") and "    (about 56 more games would most likely decide it)" in undecided


def test_the_family_option():
    assert family_player(None, players=interface) is None and family_player("off", players=interface) is None
    assert family_player("uct:8", players=interface) == "uct:8"
    assert DEFAULT_FAMILY == f"uct:{interface.DEFAULT_UCT_SIMS}"     # the option's default is a plain uct's budget
    with pytest.raises(InputError, match="uct:N wants N simulations"):
        family_player("uct:0", players=interface)
    with pytest.raises(InputError, match="unknown player 'uctt'"):
        family_player("uctt", players=interface)


def strength(better: tuple[bool, bool]) -> dict:
    """A family_strength result with each seat better than greedy's own or not."""
    seats = [{"side": s, "win_rate": 0.1, "greedy_win_rate": 0.5, "better": b,
              "difference": {"p": -0.4 if not b else 0.1, "ci95": [-0.45, -0.35] if not b else [0.05, 0.15]}}
             for s, b in zip(SIDES, better, strict=True)]
    return {"against": "greedy", "seats": seats, "beats_greedy": all(better), "test": "t"}


def test_a_family_player_weaker_than_greedy_does_not_make_the_verdict_depend_on_the_player():
    """The same +30-point difference as above: 'depends' when the family's player beats
    greedy from both seats, 'weaker' when it does not from one (its difference then says
    it plays worse), with each seat against greedy in the text lines."""
    top, fam = outcomes(400, 120, 0)
    rows = [curve_row(lv, np.bincount(o, minlength=3)[:3], len(o), SIDES) for lv, o in (("mcts:256", top),
                                                                                         ("uct:32", fam))]
    strong = family_check(rows[0], top, rows[1], fam, SIDES, 0.05, strength=strength((True, True)))
    assert strong["status"] == "depends" and strong["text"].startswith("THE VERDICT DEPENDS ON THE PLAYER")
    weak = family_check(rows[0], top, rows[1], fam, SIDES, 0.05, strength=strength((True, False)))
    assert weak["status"] == "weaker" and "THE VERDICT DEPENDS" not in weak["text"]
    assert "does not beat greedy from both seats" in weak["text"] and "as german it wins 10.0% against greedy" \
        in weak["text"]
    lines = family_lines(FamilyCheck.of(weak), SIDES)
    assert "weaker than greedy" in lines[0]
    assert any("uct:32 as german against greedy: wins 10.00% (greedy itself 50.00%; -40.00 points" in x
               and x.endswith("NOT better") for x in lines)
    # agreeing families stay 'agrees' whatever the family's strength
    top2, fam2 = outcomes(400, 2, 2, base=0)
    rows2 = [curve_row(lv, np.bincount(o, minlength=3)[:3], len(o), SIDES) for lv, o in (("mcts:256", top2),
                                                                                           ("uct:32", fam2))]
    assert family_check(rows2[0], top2, rows2[1], fam2, SIDES, 0.05,
                        strength=strength((False, False)))["status"] == "agrees"
