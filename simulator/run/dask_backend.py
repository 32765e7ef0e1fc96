"""The Dask ``distributed`` backend of the runner (``--dask local`` / ``--dask tcp://host:port``).

``local`` starts a :class:`distributed.LocalCluster` on the loopback interface,
one single-threaded worker *process* per core (or ``--workers``), for the length of
the run. An address connects to a scheduler that is already running (see
``docs/cluster.md``); the cluster's workers must have this package installed at the
same version. Chunks are submitted as ordinary Dask tasks (short ones several to a
task, so that a task runs about 0.1 s) and gathered in chunk order by the runner,
exactly as with threads or processes, so the numbers are the same.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from simulator.run.errors import InputError

LOCAL = "local"
ADDRESS = re.compile(r"^(tcp|tls)://[^\s/:]+(:\d{1,5})?$")
CONNECT_TIMEOUT_S = 10


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

    def __init__(self, address: str, workers: int | None):
        check_address(address)
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
        self.address = self.client.scheduler.address
        # chunks in flight: enough to hide the scheduler round trip, still bounded memory
        self.window = 8 * threads

    def start(self, task, chunk) -> Any:
        return self.client.submit(task, chunk.trials, chunk.seed_seq, pure=False)

    def submit_group(self, task, pieces) -> Any:
        """Several consecutive chunks as one task (see ``simulator.run.runner._Grouped``)."""
        from simulator.run.tasks import run_group
        return self.client.submit(run_group, task, pieces, pure=False)

    def close(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None
