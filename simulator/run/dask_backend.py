"""The Dask ``distributed`` backend of the runner (``--dask local`` / ``--dask tcp://host:port``).

``local`` starts a :class:`distributed.LocalCluster` on the loopback interface,
one single-threaded worker *process* per core (or ``--workers``), for the length of
the run. An address connects to a scheduler that is already running (see
``docs/cluster.md``); the cluster's workers must have this package installed at the
same version. Chunks are submitted as ordinary Dask tasks (short ones several to a
task, so that a task runs about 0.1 s) and gathered in chunk order by the runner,
exactly as with threads or processes, so the numbers are the same.

A result is awaited in steps (:meth:`DaskBackend.wait`): while the scheduler has no
worker (all lost, none started), ``no Dask workers for N s`` is said every so often,
and after ``--dask-timeout`` seconds (:data:`DEFAULT_TIMEOUT_S`) the run gives up with
the one-line error; the chunks finished by then are in ``--checkpoint``, to resume
(issue 44.4).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from simulator.run.errors import InputError

LOCAL = "local"
ADDRESS = re.compile(r"^(tcp|tls)://[^\s/:]+(:\d{1,5})?$")
CONNECT_TIMEOUT_S = 10
DEFAULT_TIMEOUT_S = 600.0  # no worker this long: give up (--dask-timeout)
POLL_S = 1.0               # how often a wait looks at the workers
SAY_EVERY_S = 30.0         # how often "no Dask workers" is said (at most; half the timeout when shorter)


def check_address(value: str) -> str:
    """``local`` or a scheduler address ``tcp://host:port`` (``tls://`` too)."""
    value = value.strip()
    if value == LOCAL or ADDRESS.match(value):
        return value
    raise InputError("--dask", "", f"expected 'local' or a scheduler address like tcp://host:8786 "
                                   f"(got {value!r})")


def local_cluster(workers: int):
    """A LocalCluster on loopback: ``workers`` single-threaded processes, no dashboard
    (its health/metrics HTTP server on a free loopback port, not 8787)."""
    from distributed import LocalCluster
    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=None, silence_logs=logging.ERROR,
                        scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"})


class DaskBackend:
    """A Dask client (and, for ``local``, its cluster) for the length of one run."""

    def __init__(self, address: str, workers: int | None, timeout: float | None = None):
        check_address(address)
        self.timeout = float(timeout or DEFAULT_TIMEOUT_S)
        try:
            from distributed import Client
        except ImportError:  # pragma: no cover - dask[distributed] is a dependency
            raise InputError("--dask", "", "needs the dask[distributed] package") from None
        self.cluster = None
        try:
            if address == LOCAL:
                from simulator.run.tasks import default_workers
                self.cluster = local_cluster(workers or default_workers())
                self.client = Client(self.cluster, timeout=CONNECT_TIMEOUT_S)
            else:
                self.client = Client(address, timeout=CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError) as exc:
            self.close()
            raise InputError("--dask", "", f"cannot reach a Dask scheduler at {address} ({exc})") from None
        threads = sum(self.client.nthreads().values()) or 1
        self.address = getattr(self.client.scheduler, "address", address)   # None only before connecting
        # chunks in flight: enough to hide the scheduler round trip, still bounded memory
        self.window = 8 * threads

    def start(self, task, chunk) -> Any:
        return self.client.submit(task, chunk.trials, chunk.seed_seq, pure=False)

    def submit_group(self, task, pieces) -> Any:
        """Several consecutive chunks as one task (see ``simulator.run.runner._Grouped``)."""
        from simulator.run.tasks import run_group
        return self.client.submit(run_group, task, pieces, pure=False)

    def workers(self) -> int:
        """How many workers the scheduler has now (0 when it cannot be asked)."""
        try:
            return len(self.client.nthreads())
        except Exception:  # noqa: BLE001 - a scheduler that does not answer has no worker for us
            return 0

    def wait(self, future, clock=None) -> Any:
        """``future.result()``, saying so while no worker is left and giving up after
        ``self.timeout`` seconds without one (InputError naming --dask-timeout)."""
        import sys
        import time

        from distributed import TimeoutError as DaskTimeout
        clock = clock or time.monotonic
        say_every = min(SAY_EVERY_S, self.timeout / 2)
        since = said = None
        while True:
            try:
                return future.result(timeout=POLL_S)
            except (DaskTimeout, TimeoutError):
                pass
            now = clock()
            if self.workers():
                since = said = None
                continue
            since = now if since is None else since
            idle = now - since
            if idle >= self.timeout:
                raise InputError("--dask-timeout", "", f"no Dask workers for {idle:.0f} s at {self.address}: "
                                 "gave up (the chunks finished are kept with --checkpoint; rerun to resume)")
            if idle >= say_every and (said is None or now - said >= say_every):
                said = now
                print(f"lanchester: no Dask workers for {idle:.0f} s at {self.address}; still waiting "
                      f"(giving up after {self.timeout:.0f} s, --dask-timeout)", file=sys.stderr, flush=True)

    def close(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None
