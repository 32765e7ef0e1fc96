"""Issue 40: the referee over whole Tide of Iron games (:mod:`simulator.games.toi.game.referee`).

Whole games of both shipped scenarios, random, greedy and the look-ahead, must show no
violation but those of :data:`KNOWN_FAULTS` (faults of issue 40 that other branches fix:
empty the list as their fixes land); logs edited or written by hand are caught, each by
its own check, while the same log unedited is not.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulator.engine.core.referee import referee_games
from simulator.games.toi.game import events as ev
from simulator.games.toi.game import referee as R
from simulator.games.toi.game import tables as T
from simulator.games.toi.game.game import LOG_CAP, Game
from simulator.games.toi.game.state import G_LOGN, K_ADVANCE, K_ASSAULT, K_FIRE, R_ELIMINATION
from tests.games.toi.game.util import A0, A1, AMG, B0, B1, BOFF

# Checks today's engine fails (issue 40's items; the referee found them on these games,
# see the report of branch issue40referee). The test tolerates them; the lead empties this
# as the fixes are merged. (Item 8, a retreat that does not fatigue, is not among them: no
# squad retreats in these games; test_tokens_retreat_and_heavy_weapons checks the check.)
KNOWN_FAULTS: dict = {}      # items 8-14 fixed (issue 40, Tide of Iron)

SCENARIOS = ("two-farms", "ridge-line")
SEED = 40
# games per scenario and pairing: a few hundred quick, a few dozen searching (about 25 s on 2 cores;
# the look-ahead's games: bench/referee.py)
PAIRINGS = ((("random", "greedy"), 150), (("greedy", "greedy"), 150), (("random", "random"), 150),
            (("mcts:16", "greedy"), 12))


@pytest.mark.parametrize("name", SCENARIOS)
def test_whole_games_break_no_rule(name):
    unexpected = {}
    for players, n in PAIRINGS:
        run = R.referee_run(name, players, n, SEED)
        assert run.games == n and run.events > 30 * n      # every game was read, each dozens of events
        for check, v in run.first_of_each().items():
            if check not in KNOWN_FAULTS:
                unexpected[check] = f"{v.detail}: {R.replay_command(run, v)}"
    assert not unexpected, unexpected


# --- planted violations ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def ridge():
    return Game("ridge-line")


@pytest.fixture(scope="module")
def real_log(ridge):
    logs = []
    referee_games(ridge, lambda g, e: logs.append(e.copy()) or [], G_LOGN, 2026, ("greedy", "greedy"), 1,
                  log_cap=LOG_CAP)
    return logs[0]


@pytest.fixture(scope="module")
def tiny():
    from tests.games.toi.game.util import tiny_game
    return tiny_game()


def checks(game, events) -> list[str]:
    return [v.check for v in R.referee(game, np.asarray(events, dtype=np.int64))]


def row(code, rnd, unit=-1, a=0, b=0, c=0, d=0, e=0):
    return [code, rnd, unit, a, b, c, d, e]


def test_the_real_log_is_clean_and_edits_of_it_are_caught(ridge, real_log):
    """The unedited log of a whole greedy game of Ridge Line (game 0 of seed 2026, a golden
    game) shows nothing outside the known faults; a second activation of the first unit
    activated, right after its first, is one "activated while fatigued"; its first step sent
    two hexes away is one "not adjacent"."""
    known = set(KNOWN_FAULTS)
    assert [c for c in checks(ridge, real_log) if c not in known] == []
    i = int(np.nonzero(real_log[:, 0] == ev.EV_ACTIVATE)[0][0])
    twice = np.insert(real_log, i + 1, real_log[i], axis=0)
    assert [c for c in checks(ridge, twice) if c not in known] == [R.FATIGUED_ACTS]
    j = int(np.nonzero(real_log[:, 0] == ev.EV_MOVE)[0][0])
    h = int(real_log[j, 3])
    far = next(g for g in range(ridge.tables.dist.shape[0]) if ridge.tables.dist[h, g] == 2
               and ridge.tables.hexi[g, T.HI_STAND] == 1)
    jumped = real_log.copy()
    jumped[j, 4] = far
    assert R.STEP_FAR in checks(ridge, jumped)


def test_a_cliff_side_is_impassable_both_ways(ridge):
    """001 Terrain: Hill, cliff sides impassable (rulings T23): a step from level 2 down to
    level 0 is one violation, as a step up would be; a step between equal levels none."""
    t = ridge.tables
    n = t.dist.shape[0]
    h, g = next((h, int(t.side6[h, d, T.S6_NBR])) for h in range(n) for d in range(6)
                if t.side6[h, d, T.S6_NBR] >= 0 and t.hexi[h, T.HI_ELEV] - t.hexi[t.side6[h, d, T.S6_NBR], T.HI_ELEV] == 2)
    k = 0
    down = [row(ev.EV_PLACE, 0, k, h), row(ev.EV_MOVE, 1, k, h, g, 2)]
    up = [row(ev.EV_PLACE, 0, k, g), row(ev.EV_MOVE, 1, k, g, h, 2)]
    assert checks(ridge, down) == [R.CLIFF]
    assert checks(ridge, up) == [R.CLIFF]
    flat_h, flat_g = next((h, int(t.side6[h, d, T.S6_NBR])) for h in range(n) for d in range(6)
                          if t.side6[h, d, T.S6_NBR] >= 0 and t.side6[h, d, T.S6_COST] >= 0
                          and t.hexi[h, T.HI_ELEV] == t.hexi[t.side6[h, d, T.S6_NBR], T.HI_ELEV])
    assert checks(ridge, [row(ev.EV_PLACE, 0, k, flat_h), row(ev.EV_MOVE, 1, k, flat_h, flat_g, 2)]) == []


def test_a_target_out_of_range_or_sight_is_caught(ridge):
    """001 Range: a squad's attack at a target one hex beyond its longest reach is one
    violation; 001 Line of sight: one across a blocked line is one."""
    t = ridge.tables
    b = R._Board(ridge)
    k = next(u for u in range(ridge.n_units) if b.side[u] == 0 and not b.vehicle[u])
    e = next(u for u in range(ridge.n_units) if b.side[u] == 1)
    n = t.dist.shape[0]
    reach = R._reach(t, k, b.figs[k])
    h, g = next((h, g) for h in range(n) for g in range(n) if t.dist[h, g] == 2 * reach + 1)   # beyond long range
    log = [row(ev.EV_PLACE, 0, k, h), row(ev.EV_PLACE, 0, e, g), row(ev.EV_ROUND, 1, -1, 1),
           row(ev.EV_ACTIVATE, 1, k, K_FIRE), row(ev.EV_FIRE, 1, k, e, 0, 4, 0, 0)]
    assert R.RANGE in checks(ridge, log)
    h, g = next((h, g) for h in range(n) for g in range(n) if 1 <= t.dist[h, g] <= reach and t.los[h, g] == 0)
    log[0], log[1] = row(ev.EV_PLACE, 0, k, h), row(ev.EV_PLACE, 0, e, g)
    assert checks(ridge, log) == [R.SIGHT]
    h, g = next((h, g) for h in range(n) for g in range(n) if 1 <= t.dist[h, g] <= reach and t.los[h, g] == 1)
    log[0], log[1] = row(ev.EV_PLACE, 0, k, h), row(ev.EV_PLACE, 0, e, g)
    assert checks(ridge, log) == []


def test_tokens_retreat_and_heavy_weapons(tiny):
    """On the tiny field: a retreated squad that is activated in the same round is one
    violation (002 step 9 fatigues it), and none in the next round; an op fire without an
    op-fire token is one; the MG squad given Assault is one; a second op fire by a squad with
    no MG crew in one round is one, none once a squad transfer gave it one (A1 in 0,2 fires at B1 next to it in 1,2: in range, in sight)."""
    sq = tiny.scenario.grid.index_of
    h0, h1 = sq("1,1"), sq("2,1")
    start = [row(ev.EV_PLACE, 0, A0, h0), row(ev.EV_PLACE, 0, AMG, sq("0,0")), row(ev.EV_PLACE, 0, A1, sq("0,2")),
             row(ev.EV_PLACE, 0, B0, sq("4,1")), row(ev.EV_PLACE, 0, B1, sq("1,2")), row(ev.EV_PLACE, 0, BOFF, sq("5,0")),
             row(ev.EV_ROUND, 1, -1, 1)]
    retreat = start + [row(ev.EV_RETREAT, 1, A0, h0, h1), row(ev.EV_ACTIVATE, 1, A0, K_ADVANCE)]
    assert checks(tiny, retreat) == [R.RETREAT_ACTS]
    next_round = start + [row(ev.EV_RETREAT, 1, A0, h0, h1), row(ev.EV_ROUND, 2, -1, 2),
                          row(ev.EV_ACTIVATE, 2, A0, K_ADVANCE)]
    assert checks(tiny, next_round) == []
    assert checks(tiny, start + [row(ev.EV_OPFIRE, 1, A1, B1, 0, 4, 0, 0)]) == [R.NO_TOKEN]
    assert checks(tiny, start + [row(ev.EV_ACTIVATE, 1, AMG, K_ASSAULT)]) == [R.HEAVY]
    again = start + [row(ev.EV_OPFIRE_SET, 1, A1), row(ev.EV_OPFIRE, 1, A1, B1, 0, 4, 0, 0),
                     row(ev.EV_OPFIRE, 1, A1, B1, 0, 4, 0, 0)]
    assert checks(tiny, again) == [R.RAPID]
    # the same two op fires after the MG squad gave A1 its machine-gun figure (001 Status phase,
    # 4): A1 may fire Rapid Op Fire now, so none
    mg = list(tiny.scenario.figure_names).index("mg")
    given = start + [row(ev.EV_TRANSFER, 1, AMG, A1, mg, 2)] + again[len(start):]
    assert checks(tiny, given) == []


def test_stacking_and_the_last_squad(tiny):
    """001 Setup: four units of a side in a hex (three allowed) is one violation at the next
    activation; rulings T25: a side whose squads are all destroyed loses at once, so an
    activation after it is one violation, and an elimination win while the loser has
    squads is one."""
    sq = tiny.scenario.grid.index_of
    h = sq("0,1")
    four = [row(ev.EV_PLACE, 0, k, h) for k in (0, 1, 2, 3)] + [row(ev.EV_PLACE, 0, B0, sq("5,1")),
                                                                row(ev.EV_ROUND, 1, -1, 1),
                                                                row(ev.EV_ACTIVATE, 1, B0, K_ADVANCE)]
    assert checks(tiny, four) == [R.STACK]
    b_gone = [row(ev.EV_PLACE, 0, 0, h), row(ev.EV_PLACE, 0, B0, sq("5,1")), row(ev.EV_ROUND, 1, -1, 1)]
    b_gone += [row(ev.EV_DESTROYED, 1, k) for k in (B0, B1, BOFF, 7)] + [row(ev.EV_ACTIVATE, 1, 0, K_ADVANCE)]
    assert checks(tiny, b_gone) == [R.NO_SQUAD]
    early = [row(ev.EV_PLACE, 0, 0, h), row(ev.EV_PLACE, 0, B0, sq("5,1")), row(ev.EV_OVER, 1, -1, 0, R_ELIMINATION)]
    assert checks(tiny, early) == [R.RESULT]
