"""Where the suite's time goes: a pytest plugin (not loaded by default) that writes, per
test phase, the wall time, this process's CPU time and its reaped children's, and per
test the numba compiles it ran (numba's ``numba:compile`` event: only real compiles, a
load from the disk cache sends none), one TSV file per xdist worker.

    TIMING_OUT=/tmp/t/times python -m pytest -p tests.timing_plugin      # writes /tmp/t/times.gw0, .gw1

Each line: ``nodeid  phase  wall  cpu_self  cpu_children  start`` (phase setup, call or
teardown; seconds; ``start`` a Unix time, to line the workers up), or for compiles
``nodeid  numba  seconds  count  name:seconds,...  0`` (outermost compiles only, the
names of those over half a second). Two workers compiling the same function name at
about the same time is work done twice; a worker with no line for a while was waiting.
"""

from __future__ import annotations

import os
import resource
import time

import pytest

_out = None
_compiles: list[tuple[str, float]] = []


def _cpu() -> tuple[float, float]:
    s = resource.getrusage(resource.RUSAGE_SELF)
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime, c.ru_utime + c.ru_stime


def _file():
    global _out
    if _out is None:
        path = os.environ.get("TIMING_OUT", "suite-times")
        _out = open(f"{path}.{os.environ.get('PYTEST_XDIST_WORKER', 'main')}", "a", buffering=1)
    return _out


def pytest_configure(config) -> None:
    from numba.core import event

    class Compiles(event.Listener):
        depth = 0
        started = 0.0

        def on_start(self, ev) -> None:
            if self.depth == 0:
                self.started = time.perf_counter()
            self.depth += 1

        def on_end(self, ev) -> None:
            self.depth -= 1
            if self.depth == 0:
                d = ev.data.get("dispatcher") if isinstance(ev.data, dict) else None
                name = getattr(getattr(d, "py_func", None), "__qualname__", "?")
                _compiles.append((name, time.perf_counter() - self.started))

    event.register("numba:compile", Compiles())


def _measure(item, phase):
    wall0, (self0, child0), start = time.perf_counter(), _cpu(), time.time()
    yield
    wall1, (self1, child1) = time.perf_counter(), _cpu()
    _file().write(f"{item.nodeid}\t{phase}\t{wall1 - wall0:.3f}\t{self1 - self0:.3f}\t{child1 - child0:.3f}"
                  f"\t{start:.1f}\n")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    yield from _measure(item, "setup")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    yield from _measure(item, "call")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item):
    yield from _measure(item, "teardown")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    del _compiles[:]
    yield
    if _compiles:
        names = ",".join(f"{n}:{d:.1f}" for n, d in _compiles if d > 0.5)
        _file().write(f"{item.nodeid}\tnumba\t{sum(d for _, d in _compiles):.3f}\t{len(_compiles)}\t{names}\t0\n")
