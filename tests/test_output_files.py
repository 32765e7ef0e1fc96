"""Outputs written atomically get the usual permissions, not mkstemp's private 0600."""

import os
import stat

from simulator.run.output import atomic_write_text


def test_atomic_writes_follow_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        import simulator.run.output as output
        mask, output._UMASK = output._UMASK, 0o022
        try:
            atomic_write_text(tmp_path / "a.csv", "x\n")
        finally:
            output._UMASK = mask
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "a.csv").st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["a.csv"]
