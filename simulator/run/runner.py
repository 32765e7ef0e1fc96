"""The one runner every simulating command uses: chunks, seeds, workers, progress,
Dask, checkpoints and precision on demand.

A run of ``trials`` is cut into chunks of a fixed size that depends only on the
run's arguments, never on the number of workers. Chunk ``i`` draws from its own
stream, ``SeedSequence(seed).spawn(n)[i]`` (which is ``SeedSequence(seed,
spawn_key=(i,))``, whatever ``n``). Chunks may finish in any order on any worker;
their results are handed back and merged in chunk order. So the same seed gives the
same numbers on one core, on many, on a Dask cluster, and after a resume.

A *task* is a picklable callable ``task(trials, seed_seq) -> result`` (a
module-level function or a :func:`functools.partial` of one, holding arrays and plain
values). Numba kernels compiled with ``nogil=True`` run on threads (``backend=
"thread"``, no start-up cost); Python-heavy tasks such as whole scenario games use
``backend="process"``. Results are merged with ``merge`` (default: add count arrays).

How a run is carried out is one :class:`RunOptions` value:

* ``workers``, ``backend``: local threads or processes (1 worker: in this thread);
* ``dask``: ``"local"`` (a LocalCluster on loopback, one process per worker) or a
  scheduler address ``"tcp://host:8786"`` (:mod:`simulator.run.dask_backend`);
* ``checkpoint``: a directory; finished chunks are written there atomically and a
  rerun with the same arguments loads them (:mod:`simulator.run.checkpoint`);
  ``auto_checkpoint``: a scenario batch without ``checkpoint`` keeps one of its own in
  the cache folder (:func:`simulator.run.checkpoint.auto_root`), removed when the
  command ends (:func:`discard_auto_checkpoints`) unless it was interrupted;
* ``precision``: stop once the 95% interval of the headline probability is at most
  this wide (:mod:`simulator.run.precision`); ``trials``, if given, is then a cap.
  The command says what its headline is with a :class:`Headline`.

Memory stays bounded: at most two chunks per worker are in flight and results are
merged as they arrive.

Wiring a simulating command (odds and the ``toi`` commands are wired like this;
``assault fire``, close combat, scenarios and matrices are wired the same way):

1. In its click decorators replace ``@cliopts.workers`` by ``@cliopts.monte_carlo``.
   The function then receives ``run_options`` (a :class:`RunOptions`, with ``--workers``,
   ``--dask``, ``--checkpoint``, ``--precision`` and the command's arguments as its
   checkpoint label) instead of ``workers``.
2. Decide exact or Monte Carlo with ``cliopts.wants_monte_carlo(exact, trials, run_options)``
   (``--precision`` means Monte Carlo).
3. Pass ``run_options.with_progress("name")`` down to the library function, which calls
   ``execute(task, trials, seed=seed, options=options, headline=Headline(...))``.
4. Use ``result.trials`` (the trials actually run: with ``--precision`` it is chosen by
   the run) for estimates and standard errors, and keep ``result.describe()`` in
   the answer's ``run`` field.

For example (the odds question)::

    headline = Headline("P(any effect)", lambda counts: counts.sum() - counts[0, 0, 0])
    result = runner.execute(task, trials, seed=seed, options=options, headline=headline)
    probabilities = result.value / result.trials

:func:`run` is :func:`execute` returning only the merged value, for callers that
know their trials in advance.
"""

from __future__ import annotations

import dataclasses
import shutil
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence, Set
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulator.run import progress as progress_lines
from simulator.run.precision import MAX_TRIALS, PrecisionPlan, interval_width
from simulator.run.tasks import default_workers, run_group  # noqa: F401  (run_group: its name for the backends)

DEFAULT_CHUNK_TRIALS = 1 << 20
BACKENDS = ("thread", "process")
Task = Callable[[int, np.random.SeedSequence], Any]


@dataclass(frozen=True)
class Chunk:
    """One piece of a run: its position, its size and its random stream."""

    index: int
    trials: int
    seed_seq: np.random.SeedSequence


@dataclass(frozen=True)
class RunOptions:
    """How a run is carried out (never what it computes: the numbers do not depend on it,
    except that ``precision`` chooses the number of trials)."""

    workers: int | None = None
    backend: str = "thread"
    dask: str | None = None
    dask_timeout: float | None = None   # seconds without a Dask worker before giving up (None: the default)
    checkpoint: str | None = None
    precision: float | None = None
    progress: str | None = None
    label: str = ""       # what was asked (command and arguments): part of the checkpoint key
    unit: str = "trial"   # what the progress bar counts ("game" for scenario batches)
    notes: bool = False   # one-line notes on stderr (checkpoint, precision, Dask): the CLI sets it
    auto_checkpoint: bool = False   # a game batch keeps a checkpoint in the cache folder (the CLI sets it)

    def with_progress(self, progress: str | None) -> "RunOptions":
        return dataclasses.replace(self, progress=progress)


@dataclass(frozen=True)
class Headline:
    """A command's headline probability: its name, and how many trials of a merged
    result had the event (``successes(value)``). ``sequential``: ``--precision`` judges
    its width by the confidence sequence (a scenario batch, whose verdict reads the run)."""

    name: str
    successes: Callable[[Any], float]
    sequential: bool = False


@dataclass(frozen=True)
class RunResult:
    """A finished run: the merged value and how it was obtained."""

    value: Any
    trials: int
    chunks: int
    seed: int
    loaded: int = 0                   # chunks loaded from a checkpoint
    precision: float | None = None    # asked for
    headline: str | None = None
    width: float | None = None        # 95% interval width of the headline probability
    checkpoint: str | None = None     # DIR/<run-key>
    dask: str | None = None           # scheduler address

    @property
    def reached(self) -> bool | None:
        if self.precision is None:
            return None
        return self.width is not None and bool(self.width <= self.precision)

    def describe(self) -> dict[str, Any]:
        """Plain-value summary for an answer's ``run`` field and JSON."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "value"} | {
            "reached": self.reached}


def fresh_seed() -> int:
    """A new random seed (reported by commands so the run can be repeated)."""
    entropy = np.random.SeedSequence().entropy    # drawn from the OS: an int
    assert isinstance(entropy, int)
    return entropy % (2**63)


@dataclass(frozen=True)
class Method:
    """How one question is answered: exactly, or by Monte Carlo with ``trials`` (``None``
    when ``--precision`` picks them) and ``seed``. Made by :func:`choose_method`."""

    monte_carlo: bool
    trials: int | None
    seed: int | None
    by_default: bool = False    # Monte Carlo only because ``exact=None`` left it to the question

    def header(self, trials_run: int | None) -> dict:
        """The ``method``, ``trials`` and ``seed`` every answer reports (``trials_run``:
        the trials the run made; both ``None`` for an exact answer)."""
        return {"method": "monte-carlo" if self.monte_carlo else "exact",
                "trials": trials_run if self.monte_carlo else None,
                "seed": self.seed if self.monte_carlo else None}


def choose_method(exact: bool | None, trials: int | None, seed: int | None, options, default_trials: int,
                  auto_monte_carlo: bool = True) -> Method:
    """Exact or Monte Carlo: Monte Carlo when trials are given, ``options.precision`` is
    set or ``exact`` is false; ``exact=None`` leaves it to ``auto_monte_carlo``. A Monte
    Carlo run gets ``default_trials`` unless trials are given (:func:`trials_or`) or
    the precision picks them, and a fresh seed unless one is given."""
    precise = options is not None and options.precision is not None
    asked = auto_monte_carlo if exact is None else not exact
    if not (trials is not None or precise or asked):
        return Method(False, None, None)
    return Method(True, trials if precise else trials_or(trials, default_trials),
                  fresh_seed() if seed is None else seed,
                  by_default=trials is None and not precise and exact is None)


def chunk_seed(seed: int, index: int) -> np.random.SeedSequence:
    """Chunk ``index``'s stream: ``SeedSequence(seed).spawn(n)[index]`` for any ``n > index``."""
    return np.random.SeedSequence(seed, spawn_key=(index,))


def _chunks(first: int, stop: int, size: int, limit: int, seed: int) -> Iterator[Chunk]:
    """Chunks ``first..stop-1`` of a run of at most ``limit`` trials in chunks of ``size``,
    made one at a time (a plan of 10**14 chunks takes no memory)."""
    for i in range(first, stop):
        yield Chunk(i, min(size, limit - i * size), chunk_seed(seed, i))


class ChunkPlan(Sequence):
    """The chunks of a run of ``trials`` in chunks of ``chunk_trials``, computed on demand:
    a sequence (``len``, indexing, iteration) that holds three numbers, whatever its length."""

    def __init__(self, trials: int, seed: int, chunk_trials: int):
        self.trials, self.seed, self.chunk_trials = trials, seed, chunk_trials

    def __len__(self) -> int:
        return -(-self.trials // self.chunk_trials)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        i = i + n if i < 0 else i
        if not 0 <= i < n:
            raise IndexError(i)
        return next(_chunks(i, i + 1, self.chunk_trials, self.trials, self.seed))

    def __iter__(self) -> Iterator[Chunk]:
        return _chunks(0, len(self), self.chunk_trials, self.trials, self.seed)


def check_trials(trials: int, what: str = "trials") -> None:
    """Refuse a number of trials the 64-bit counts cannot hold."""
    if trials < 1:
        raise ValueError(f"{what} must be at least 1 (got {trials})")
    if trials > MAX_TRIALS:
        raise ValueError(f"at most {MAX_TRIALS} {what} (counts are 64-bit integers; got {trials})")


def trials_or(trials: int | None, default: int) -> int:
    """The trials a Monte Carlo question asked for, else ``default``; 0 or fewer is a
    clear ``ValueError`` (not the default in disguise: ``trials=0`` is falsy)."""
    if trials is None:
        return default
    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)):
        raise ValueError(f"trials must be a whole number (got {trials!r})")
    check_trials(int(trials))
    return int(trials)


def plan_chunks(trials: int, seed: int, chunk_trials: int = DEFAULT_CHUNK_TRIALS) -> ChunkPlan:
    """Cut ``trials`` into chunks with their own seed streams (independent of workers)."""
    check_trials(trials)
    if chunk_trials < 1:
        raise ValueError("chunk_trials must be at least 1")
    return ChunkPlan(trials, seed, chunk_trials)


# ---------------------------------------------------------------- backends

class _Later:
    """A chunk computed when its result is asked for (the one-worker backend)."""

    def __init__(self, task: Task, chunk: Chunk):
        self.task, self.chunk = task, chunk

    def result(self) -> Any:
        return self.task(self.chunk.trials, self.chunk.seed_seq)


class _Ready:
    """A chunk already finished (loaded from a checkpoint)."""

    def __init__(self, value: Any):
        self.value = value

    def result(self) -> Any:
        return self.value


class _InThread:
    window = 1
    address = None

    def start(self, task: Task, chunk: Chunk) -> _Later:
        return _Later(task, chunk)

    def close(self) -> None:
        pass


class _Pool:
    """Local threads or processes; at most two tasks per worker in flight."""

    address = None

    def __init__(self, backend: str, workers: int):
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r} ({' or '.join(BACKENDS)})")
        self.pool: Executor = (ThreadPoolExecutor if backend == "thread" else ProcessPoolExecutor)(workers)
        self.window = 2 * workers

    def start(self, task: Task, chunk: Chunk):
        return self.pool.submit(task, chunk.trials, chunk.seed_seq)

    def submit_group(self, task: Task, pieces: list[tuple[int, np.random.SeedSequence]]):
        return self.pool.submit(run_group, task, pieces)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


# ---------------------------------------------------------------- grouping short chunks

TASK_SECONDS = 0.1    # a process or Dask task should run about this long...
MAX_GROUP = 64        # ...but hold at most this many chunks


class _Group:
    """Consecutive chunks sent to a worker as one task; submitted when full or awaited."""

    def __init__(self, owner: "_Grouped", size: int):
        self.owner, self.size = owner, size
        self.chunks: list[Chunk] = []
        self.future: Any = None       # the backend's future of the group's results
        self.value: Any = None

    def submit(self) -> None:
        if self.future is None:
            self.future = self.owner.inner.submit_group(
                self.owner.task, [(c.trials, c.seed_seq) for c in self.chunks])

    def result(self, i: int) -> Any:
        if self.value is None:
            self.submit()
            wait = getattr(self.owner.inner, "wait", None)    # Dask: says when no worker is left
            self.value, seconds = wait(self.future) if wait else self.future.result()
            self.owner.observe(seconds, sum(c.trials for c in self.chunks))
        return self.value[i]


class _Part:
    """Handle of one chunk of a group."""

    def __init__(self, group: _Group, i: int):
        self.group, self.i = group, i

    def result(self) -> Any:
        return self.group.result(self.i)


class _Grouped:
    """Wraps a process or Dask backend so that short chunks travel in groups.

    Each task costs a round trip (pickling, scheduling) of a few milliseconds; a chunk
    of the dice kernel takes about as long. Chunks are therefore sent in groups sized
    so that a task takes about ``TASK_SECONDS``, judged from the tasks finished so far
    (the first ones go one chunk at a time). Which chunks travel together changes
    nothing in the numbers: every chunk keeps its own seed and the runner merges
    results in chunk order."""

    def __init__(self, inner):
        self.inner = inner
        self.address = getattr(inner, "address", None)
        self.task = None
        self.group: _Group | None = None
        self.seconds_per_trial: float | None = None

    @property
    def window(self) -> int:
        """Chunks in flight: the backend's tasks in flight times the group size."""
        return self.inner.window * (self.group.size if self.group is not None else 1)

    def group_size(self, chunk: Chunk) -> int:
        if self.seconds_per_trial is None:
            return 1
        per_chunk = max(self.seconds_per_trial * chunk.trials, 1e-9)
        return int(min(MAX_GROUP, max(1, TASK_SECONDS // per_chunk)))

    def observe(self, seconds: float, trials: int) -> None:
        rate = seconds / max(trials, 1)
        self.seconds_per_trial = rate if self.seconds_per_trial is None else 0.5 * (self.seconds_per_trial + rate)

    def start(self, task: Task, chunk: Chunk) -> _Part:
        self.task = task
        if self.group is None or self.group.future is not None or len(self.group.chunks) >= self.group.size:
            self.group = _Group(self, self.group_size(chunk))
        self.group.chunks.append(chunk)
        part = _Part(self.group, len(self.group.chunks) - 1)
        if len(self.group.chunks) >= self.group.size:
            self.group.submit()
        return part

    def flush(self) -> None:
        """Send the group being filled (before a result that comes later is awaited)."""
        if self.group is not None:
            self.group.submit()

    def close(self) -> None:
        self.inner.close()


def _open_backend(options: RunOptions, most_chunks: int):
    if options.dask:
        from simulator.run.dask_backend import DaskBackend
        return _Grouped(DaskBackend(options.dask, options.workers, options.dask_timeout))
    workers = min(options.workers or default_workers(), most_chunks)
    if options.backend not in BACKENDS:
        raise ValueError(f"unknown backend {options.backend!r} ({' or '.join(BACKENDS)})")
    if workers <= 1:
        return _InThread()
    pool = _Pool(options.backend, workers)
    return pool if options.backend == "thread" else _Grouped(pool)   # threads: no round trip to save


def _progress_bar(total: int | None, label: str | None, unit: str = "trial"):
    """The stage's progress line (:mod:`simulator.run.progress`), or ``None``."""
    return progress_lines.stage(label, total, unit)


def _close(bar, ended: str) -> None:
    """End a stage's progress: ``ended`` "done", "interrupted" or "failed" (an error, said by itself)."""
    if bar is not None:
        bar.close(interrupted=ended == "interrupted", failed=ended == "failed")


def _stream(task: Task, chunks: Iterable[Chunk], backend, store=None, done: Set[int] = frozenset(),
            bar=None) -> Iterator[tuple[Chunk, Any, bool]]:
    """Yield ``(chunk, result, loaded)`` in chunk order, keeping ``backend.window`` chunks
    in flight; chunks in ``done`` come from ``store``, new results are saved to it."""
    pending: deque = deque()

    def oldest():
        chunk, handle, loaded = pending.popleft()
        result = handle.result()
        if store is not None and not loaded:
            store.save(chunk.index, result, chunk.trials)
        if bar is not None:
            bar.update(chunk.trials)
        return chunk, result, loaded

    for chunk in chunks:
        value = store.load(chunk.index, chunk.trials) if chunk.index in done else None
        if value is not None:
            pending.append((chunk, _Ready(value), True))
        else:
            pending.append((chunk, backend.start(task, chunk), False))
        while len(pending) >= backend.window or (pending and pending[0][2]):
            yield oldest()
    while pending:
        yield oldest()


def iter_results(task: Task, chunks: Sequence[Chunk], *, workers: int | None = None,
                 backend: str = "thread", progress: str | None = None) -> Iterator[tuple[Chunk, Any]]:
    """Run ``task`` on every chunk and yield ``(chunk, result)`` in chunk order."""
    be = _open_backend(RunOptions(workers=workers, backend=backend), len(chunks))
    total = chunks.trials if isinstance(chunks, ChunkPlan) else sum(c.trials for c in chunks)
    bar = _progress_bar(total, progress)
    ended = "failed"
    try:
        for chunk, result, _ in _stream(task, chunks, be, bar=bar):
            yield chunk, result
        ended = "done"
    except KeyboardInterrupt:
        ended = "interrupted"
        raise
    finally:
        be.close()
        _close(bar, ended)


# ---------------------------------------------------------------- running

def _options(options: RunOptions | None, **given: Any) -> RunOptions:
    """``options`` with the explicitly given (not ``None``) keyword values put in."""
    opts = options or RunOptions()
    return dataclasses.replace(opts, **{k: v for k, v in given.items() if v is not None})


_auto_dirs: list = []    # the automatic checkpoints of this process's runs (discard_auto_checkpoints)


def checkpoint_root(opts: RunOptions) -> str | None:
    """Where a run with ``opts`` keeps its finished chunks: ``--checkpoint DIR``, else for a
    game batch with ``auto_checkpoint`` the cache folder's ``checkpoints/``, else nowhere."""
    if opts.checkpoint:
        return opts.checkpoint
    if opts.auto_checkpoint and opts.unit == "game":
        from simulator.run.checkpoint import auto_root, prune_auto
        root = auto_root()
        if root is not None:
            prune_auto(root)
        return None if root is None else str(root)
    return None


def _store(opts: RunOptions, task: Task, seed: int, plan: dict[str, Any]):
    root = checkpoint_root(opts)
    if root is None:
        return None
    from simulator.run.checkpoint import ChunkStore, run_key
    key = run_key(task, seed=seed, plan=plan, label=opts.label)
    store = ChunkStore(root, key, {"label": opts.label, "seed": seed, "plan": plan},
                       warn=lambda text: print(f"lanchester: {text}", file=sys.stderr))
    if not opts.checkpoint:
        _auto_dirs.append(store.dir)
    return store


def discard_auto_checkpoints() -> None:
    """Remove the automatic checkpoints of the runs of this process (a command that ended
    without being interrupted needs them no more)."""
    while _auto_dirs:
        shutil.rmtree(_auto_dirs.pop(), ignore_errors=True)


def _note(opts: RunOptions, text: str) -> None:
    if opts.notes:
        print(f"lanchester: {text}", file=sys.stderr)


def _plan(trials: int | None, opts: RunOptions, headline: Headline | None,
          chunk_trials: int) -> tuple[PrecisionPlan | None, int, int, dict[str, Any]]:
    """``(precision plan or None, chunk size, most trials, plan description)``."""
    if trials is not None:
        check_trials(trials)
    if chunk_trials < 1:
        raise ValueError("chunk_trials must be at least 1")
    if opts.precision is None:
        if trials is None:
            raise ValueError("trials must be given (or a precision)")
        return None, chunk_trials, trials, {"trials": trials, "chunk_trials": chunk_trials}
    if headline is None:
        raise ValueError("a run with precision needs a headline probability")
    pplan = PrecisionPlan.for_width(opts.precision, cap=trials, largest_chunk=chunk_trials,
                                    sequential=headline.sequential)
    return pplan, pplan.chunk_trials, pplan.cap, {"precision": opts.precision, "cap": pplan.cap,
                                                  "chunk_trials": pplan.chunk_trials}


def execute(task: Task, trials: int | None = None, *, seed: int, options: RunOptions | None = None,
            headline: Headline | None = None, chunk_trials: int = DEFAULT_CHUNK_TRIALS,
            merge: Callable[[Any, Any], Any] = np.add, workers: int | None = None,
            backend: str | None = None, progress: str | None = None,
            collect: Callable[[Chunk, Any], Any] | None = None) -> RunResult:
    """Run ``task`` in chunks and merge the results in chunk order (see the module doc).

    ``trials`` is the number of trials, or with ``options.precision`` the most the run
    may use (``None``: as many as the precision can need). ``workers``, ``backend`` and
    ``progress`` override the same fields of ``options``.

    ``collect(chunk, result)``, when given, replaces ``merge``: it is called with every
    chunk's result in chunk order (to stream results somewhere, or fold them into an
    accumulator) and returns the merged value so far (what ``headline`` reads).
    """
    opts = _options(options, workers=workers, backend=backend, progress=progress)
    pplan, size, limit, plan = _plan(trials, opts, headline, chunk_trials)
    target = pplan.first_target() if pplan else limit
    store = _store(opts, task, seed, plan)
    finished = store.finished() if store is not None else set()
    be = _open_backend(opts, -(-limit // size))
    bar = _progress_bar(None if pplan else limit, opts.progress, opts.unit)
    total, done, n_chunks, loaded = None, 0, 0, 0
    ended = "failed"
    progress_lines.run_started()
    try:
        while True:  # one batch of chunks; without precision the only one
            batch = _chunks(n_chunks, -(-target // size), size, limit, seed)
            for chunk, result, was_loaded in _stream(task, batch, be, store, finished, bar):
                if collect is not None:
                    total = collect(chunk, result)
                else:
                    total = result if total is None else merge(total, result)
                done += chunk.trials
                n_chunks += 1
                loaded += was_loaded
            if pplan is None or done >= limit or headline is None or pplan.reached(headline.successes(total), done):
                break                                   # (a precision plan always has a headline: _plan)
            target = pplan.next_target(headline.successes(total), done)
        ended = "done"
    except KeyboardInterrupt:    # Ctrl-C, SIGTERM: the stage says where it stopped
        ended = "interrupted"
        raise
    finally:
        progress_lines.run_ended()
        be.close()
        _close(bar, ended)
    width = (float(interval_width(headline.successes(total), done, headline.sequential))
             if headline is not None else None)
    auto = store is not None and not opts.checkpoint   # the run's own checkpoint: said only when it resumed
    if auto and loaded:
        _note(opts, f"resumed: {loaded} of {n_chunks} pieces loaded from the checkpoint {store.dir}")
    result = RunResult(total, done, n_chunks, seed, loaded, opts.precision,
                       headline.name if headline else None, width,
                       str(store.dir) if store is not None and not auto else None, be.address)
    _report(opts, result)
    return result


def _report(opts: RunOptions, r: RunResult) -> None:
    if r.dask:
        _note(opts, f"ran on the Dask scheduler at {r.dask}")
    if r.checkpoint:
        _note(opts, f"checkpoint {r.checkpoint}: {r.loaded} of {r.chunks} chunks loaded, "
                    f"{r.chunks - r.loaded} computed")
    if r.precision is not None:
        how = "reached" if r.reached else "NOT reached (the trial cap came first)"
        _note(opts, f"precision {r.precision:g} {how} after {r.trials:,} trials: "
                    f"95% interval of {r.headline} is {r.width:.6f} wide")


def run(task: Task, trials: int | None = None, *, seed: int, workers: int | None = None,
        chunk_trials: int = DEFAULT_CHUNK_TRIALS, backend: str | None = None,
        progress: str | None = None, merge: Callable[[Any, Any], Any] = np.add,
        options: RunOptions | None = None, headline: Headline | None = None) -> Any:
    """:func:`execute`, returning only the merged value."""
    return execute(task, trials, seed=seed, options=options, headline=headline, chunk_trials=chunk_trials,
                   merge=merge, workers=workers, backend=backend, progress=progress).value
