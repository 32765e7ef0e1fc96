"""Limits declared and checked (issue 17, item 3): an engine buffer that would overflow
(legal actions, event log, move and fallback paths, fallback queue) raises an error naming
it instead of dropping the entry."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from simulator.engine.core.batch import play_alone
from simulator.engine.players.interface import DEFAULT_PARAMS
from simulator.games.assault.game.fire import queue_fallback
from simulator.games.assault.game.game import LOG_CAP, State
from simulator.games.assault.game.phases.movement import push_fbpath, push_path
from simulator.games.assault.game.state import G_FB_PATHN, G_LOGN, G_PATHN, G_QN, MAX_PATH, MAX_QUEUE
from simulator.games.assault.game.turn import apply_action, legal_actions


def test_a_full_legal_actions_buffer_raises(skirmish):
    st = State(skirmish, 1, 0, log=False)
    n = len(st.legal_actions())
    assert n > 1
    assert legal_actions(st.s, skirmish.tables, np.zeros(n, np.int64)) == n     # exactly full: fine
    with pytest.raises(ValueError, match="legal actions buffer full"):
        legal_actions(st.s, skirmish.tables, np.zeros(n - 1, np.int64))


def test_a_full_event_log_raises(skirmish):
    st = State(skirmish, 1, 0, log=True)
    a = st.legal_actions()[0]
    st.s.g[G_LOGN] = st.s.log.shape[0]                  # full
    with pytest.raises(ValueError, match="event log full"):
        apply_action(st.s, skirmish.tables, np.int64(a))


def test_state_grows_its_log_before_it_fills(skirmish):
    st = State(skirmish, 1, 0, log=True)
    cap = st.s.log.shape[0]
    st.s.g[G_LOGN] = cap // 2
    st.apply_action(st.legal_actions()[0])
    assert st.s.log.shape[0] == 2 * cap and int(st.s.g[G_LOGN]) > cap // 2


def test_a_replay_whose_log_overflows_is_played_again_with_a_larger_one(skirmish):
    kinds = np.array([1, 1], np.int64)
    small = play_alone(skirmish, 3, 0, kinds, DEFAULT_PARAMS, log_cap=4)      # grows 4 -> 16 -> ... -> 256
    whole = play_alone(skirmish, 3, 0, kinds, DEFAULT_PARAMS, log_cap=LOG_CAP)
    n = int(whole.g[G_LOGN])
    assert small.log.shape[0] >= n > 4 and int(small.g[G_LOGN]) == n
    assert np.array_equal(small.log[:n], whole.log[:n]) and np.array_equal(small.u, whole.u)


@numba.njit
def _push_paths(s, which, n):
    for i in range(n):
        if which == 0:
            push_path(s, i)
        elif which == 1:
            push_fbpath(s, i)
        else:
            queue_fallback(s, i)


@pytest.mark.parametrize("which,cap,counter,message", [
    (0, MAX_PATH, G_PATHN, "move path buffer full"),
    (1, MAX_PATH, G_FB_PATHN, "fallback path buffer full"),
    (2, MAX_QUEUE, G_QN, "fallback queue full"),
])
def test_full_paths_and_fallback_queue_raise(skirmish, which, cap, counter, message):
    st = State(skirmish, 1, 0, log=False)
    st.s.g[counter] = 0
    _push_paths(st.s, np.int64(which), np.int64(cap))   # exactly full: fine
    assert int(st.s.g[counter]) == cap
    st.s.g[counter] = 0
    with pytest.raises(ValueError, match=message):
        _push_paths(st.s, np.int64(which), np.int64(cap + 1))
