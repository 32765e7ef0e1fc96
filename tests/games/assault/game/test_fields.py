"""Field constants come from one declaration each (simulator/engine/core/fields.py): numbered
in order, widths respected, nothing declared twice, and every upper-case name the
declaring modules use defined (pyflakes cannot see names set by ``declare``)."""

import ast
import builtins
from pathlib import Path

import numpy as np
import pytest

from simulator.engine.core import fields
from simulator.games.assault.game import events, state, tables


def test_a_block_numbers_its_names_in_order_with_widths():
    ns = {}
    end = fields.declare(ns, """
        A_ONE       the first
        A_PAIR*2    two numbers
        A_LAST
    """, start=3)
    assert (ns["A_ONE"], ns["A_PAIR"], ns["A_LAST"], end) == (3, 4, 6, 7)
    assert fields.names("A_ONE x\nA_TWO y\n") == {0: "A_ONE", 1: "A_TWO"}
    assert fields.labels("A_ONE on map\nA_TWO -\n") == ("on map", "-")


@pytest.mark.parametrize("block", ["A_ONE\nA_ONE\n", "a_lower\n", "A_ONE*x\n"])
def test_a_bad_block_raises(block):
    with pytest.raises(ValueError, match="field declaration"):
        fields.declare({}, block)


def test_the_game_arrays_are_as_wide_as_their_declarations():
    s = state.empty_state(3, 5, 2, 2)
    assert s.u.shape[1] == state.U_FIELDS == state.U_FELL + 1
    assert s.g.shape[0] == state.G_FIELDS == state.G_CC_TGT + 1
    assert s.hx.shape[1] == state.HX_FIELDS == state.HX_CC + 2
    assert s.aux.shape[0] == state.AUX_ROWS
    assert len(state.KIND_NAMES) == state.K_INTO_CC + 1
    assert len(state.SUB_NAMES) == state.SUB_SMOKE_NEXT + 1
    assert tables.P_FIELDS == tables.P_NCCT + 1 and tables.UT_FIELDS == tables.UT_OVERRUN + 1


@pytest.mark.parametrize("module", [state, tables, events])
def test_every_upper_case_name_a_declaring_module_uses_is_defined(module):
    tree = ast.parse(Path(module.__file__).read_text())
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    missing = sorted(n for n in used if n.isupper() and not hasattr(module, n) and not hasattr(builtins, n))
    assert missing == []


@pytest.mark.parametrize("module", [state, tables, events])
def test_declared_constants_are_int64_for_numba(module):
    declared = [k for k, v in vars(module).items() if k.isupper() and isinstance(v, (int, np.integer))
                and not isinstance(v, bool)]
    assert declared
    assert all(type(getattr(module, k)) is np.int64 for k in declared)
