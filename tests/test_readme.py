"""Every Python example in the README runs, as written (issue 21: the README documents
the Python API of every question)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)


def test_the_readme_has_an_example_for_every_question():
    code = "\n".join(BLOCKS)
    for name in ("odds(", "fire(", "melee(", "compare_editions(", "matchup_matrix(", "scenario_balance("):
        assert name in code, f"no README example calls {name}"


@pytest.mark.parametrize("block", BLOCKS, ids=[b.splitlines()[0][:60] for b in BLOCKS])
def test_readme_python_block_runs(block):
    namespace: dict = {}
    exec(compile(block, "README.md", "exec"), namespace)   # noqa: S102 - the README's own code
    # the last line of a block is the value a reader looks at: it must evaluate, not be empty
    last = block.strip().splitlines()[-1].split("#")[0].strip()
    value = eval(last, namespace)                          # noqa: S307
    assert value is not None
