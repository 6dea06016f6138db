"""Running a study: chunks of deals go to workers, results come back to the driver.

Workers only compute (:func:`solve_chunk`); the driver alone writes to the database, one
transaction per chunk, as chunks finish. At most ``in_flight`` chunks are out at a time, so an
interrupt (Ctrl-C, a killed worker, a killed driver) loses at most those; running the same study
again skips the deals already stored (:meth:`StudyDB.done_deals`).

Backends: :class:`LocalBackend` (a process pool, the default), :class:`DaskBackend`
(dask.distributed: a scheduler's address or a local cluster) and :class:`RayBackend`. Each one
runs the same chunks through the same :func:`solve_chunk`, so with a node budget they give the
same results.
"""

from __future__ import annotations

import importlib
import multiprocessing
import signal
from collections.abc import Callable, Generator, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..engine import Game, Rules
from ..games import get_rules
from ..options import OptionValue
from ..solve import Budget as SearchBudget
from ..solve import solve, solver_version
from .db import Budget, DealResult, StudyDB, options_key

__all__ = [
    "BACKENDS",
    "Backend",
    "BackendError",
    "ChunkTask",
    "DaskBackend",
    "LocalBackend",
    "RayBackend",
    "RunSummary",
    "chunk_size_for",
    "make_backend",
    "run_study",
    "solve_chunk",
]

BACKENDS = ("local", "dask", "ray")

#: The most deals in one chunk when the size is chosen automatically.
MAX_AUTO_CHUNK = 25
#: The most budget a chunk made by :func:`chunk_size_for` holds (a chunk is stored whole or not
#: at all, so this bounds what an interrupt loses): five minutes.
MAX_CHUNK_SECONDS = 300.0


class BackendError(RuntimeError):
    """A backend cannot start (a missing extra, an unreachable scheduler) or lost a worker."""


@dataclass(frozen=True)
class ChunkTask:
    """What a worker needs to solve a chunk of deals (plain data: it is pickled)."""

    game: str
    options: dict[str, OptionValue]
    deals: tuple[int, ...]
    seconds: float | None
    nodes: int | None
    max_states: int = SearchBudget.max_states
    #: ``seconds`` are CPU seconds of the worker, not wall-clock seconds.
    cpu_time: bool = False


def solve_chunk(task: ChunkTask) -> list[DealResult]:
    """Solve every deal of ``task`` (in a worker); return one result per deal."""
    rules = get_rules(task.game, task.options)
    results = []
    for deal in task.deals:
        solution = solve(
            Game.create(rules, deal=deal),
            seconds=task.seconds,
            nodes=task.nodes,
            max_states=task.max_states,
            cpu_time=task.cpu_time,
        )
        results.append(
            DealResult(deal, solution.result, solution.seconds, solution.nodes, len(solution.moves))
        )
    return results


class Backend(Protocol):
    """Runs chunks somewhere and yields each chunk with its results as it finishes."""

    name: str

    @property
    def workers(self) -> int:
        """How many chunks can run at once."""
        ...

    def run(
        self, tasks: Iterable[ChunkTask], in_flight: int
    ) -> Generator[tuple[ChunkTask, list[DealResult]], None, None]:
        """Yield ``(task, results)`` as chunks finish, with at most ``in_flight`` out at once;
        closing the iterator early cancels the chunks still out."""
        ...

    def close(self) -> None:
        """Release the workers (a cluster started by the backend is shut down)."""
        ...


def _bounded(
    tasks: Iterable[ChunkTask],
    in_flight: int,
    submit: Callable[[ChunkTask], Any],
    wait_some: Callable[[list[Any]], Iterable[Any]],
    result: Callable[[Any], list[DealResult]],
    cancel: Callable[[list[Any]], None],
) -> Generator[tuple[ChunkTask, list[DealResult]], None, None]:
    """The loop every backend shares: keep ``in_flight`` chunks out, yield them as they end."""
    pending: dict[Any, ChunkTask] = {}
    queue = iter(tasks)
    finished = False
    try:
        while True:
            while not finished and len(pending) < in_flight:
                task = next(queue, None)
                if task is None:
                    finished = True
                    break
                pending[submit(task)] = task
            if not pending:
                return
            for handle in wait_some(list(pending)):
                task = pending.pop(handle)
                yield task, result(handle)
    finally:
        if pending:
            cancel(list(pending))


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group: the driver handles it (and stops the workers),
    # so that the workers do not each print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalBackend:
    """A pool of ``jobs`` worker processes on this machine."""

    name = "local"

    def __init__(self, jobs: int = 1) -> None:
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        self.jobs = jobs

    @property
    def workers(self) -> int:
        """The number of processes."""
        return self.jobs

    def run(
        self, tasks: Iterable[ChunkTask], in_flight: int
    ) -> Generator[tuple[ChunkTask, list[DealResult]], None, None]:
        """See :class:`Backend`. A worker that dies raises :class:`BackendError`."""
        # forkserver, not fork: the driver runs a progress-bar thread, and forking a process
        # with threads can copy a held lock into the child.
        executor = ProcessPoolExecutor(
            self.jobs,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=_ignore_interrupts,
        )
        clean = False
        try:
            yield from _bounded(
                tasks,
                in_flight,
                lambda task: _submit(executor, task),
                lambda handles: wait(handles, return_when=FIRST_COMPLETED).done,
                _future_result,
                _cancel_futures,
            )
            clean = True
        finally:
            if clean:
                executor.shutdown(wait=True)
            else:
                _terminate(executor)

    def close(self) -> None:
        """Nothing to release: each run makes its own pool."""


def _cancel_futures(futures: list[Future[list[DealResult]]]) -> None:
    for future in futures:
        future.cancel()


_WORKER_DIED = (
    "a worker process died: the chunks it had were not stored; run the same command again to resume"
)


def _submit(executor: ProcessPoolExecutor, task: ChunkTask) -> Future[list[DealResult]]:
    # A worker can die between two submissions: the pool then refuses new work at once.
    try:
        return executor.submit(solve_chunk, task)
    except BrokenProcessPool:
        raise BackendError(_WORKER_DIED) from None


def _future_result(future: Future[list[DealResult]]) -> list[DealResult]:
    try:
        return future.result()
    except BrokenProcessPool:
        raise BackendError(_WORKER_DIED) from None


def _terminate(executor: ProcessPoolExecutor) -> None:
    """Stop a pool now, killing chunks in progress (they are lost, and redone on resume)."""
    terminate = getattr(executor, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    # Before 3.14 the pool has no public way to stop running work; its process table is the
    # only handle on the workers.
    processes: dict[int, multiprocessing.Process] = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()
    executor.shutdown(wait=True, cancel_futures=True)


class DaskBackend:
    """dask.distributed: the scheduler at ``address``, or a local cluster of ``jobs`` worker
    processes; or an existing ``client`` (which :meth:`close` leaves open)."""

    name = "dask"

    def __init__(
        self, address: str | None = None, jobs: int = 1, client: Any | None = None
    ) -> None:
        try:
            # Imported as a plain module: distributed's functions carry no type hints.
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise BackendError(
                "the dask backend needs dask.distributed: pip install 'patience[dask]'"
            ) from None
        self._cluster: Any = None
        self._own_client = client is None
        if client is not None:
            self.client = client
        elif address is not None:
            try:
                self.client = distributed.Client(address, timeout=30)
            except (OSError, TimeoutError) as error:
                raise BackendError(f"cannot reach the Dask scheduler {address}: {error}") from None
            try:
                # The chunk size and the chunks in flight are set from the workers present.
                self.client.wait_for_workers(1, timeout=60)
            except TimeoutError:
                self.client.close()
                raise BackendError(f"the Dask scheduler {address} has no workers") from None
        else:
            self._cluster = distributed.LocalCluster(
                n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None
            )
            self.client = distributed.Client(self._cluster)

    @property
    def workers(self) -> int:
        """The cluster's threads (one chunk each)."""
        info = self.client.scheduler_info()
        return max(1, sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values()))

    def run(
        self, tasks: Iterable[ChunkTask], in_flight: int
    ) -> Generator[tuple[ChunkTask, list[DealResult]], None, None]:
        """See :class:`Backend`."""
        dask_wait = importlib.import_module("distributed").wait
        client = self.client
        yield from _bounded(
            tasks,
            in_flight,
            # pure=False: a chunk is never taken from a cache of earlier runs.
            lambda task: client.submit(solve_chunk, task, pure=False),
            lambda handles: dask_wait(handles, return_when="FIRST_COMPLETED").done,
            lambda future: future.result(),
            client.cancel,
        )

    def close(self) -> None:
        """Close the client and the local cluster this backend started."""
        if self._own_client:
            self.client.close()
        if self._cluster is not None:
            self._cluster.close()


class RayBackend:
    """Ray: the cluster at ``address`` (``auto`` for the one this machine belongs to), or a
    local one with ``jobs`` CPUs; an already initialised Ray is used as it is."""

    name = "ray"

    def __init__(self, address: str | None = None, jobs: int = 1) -> None:
        try:
            import ray
        except ImportError:
            raise BackendError("the ray backend needs Ray: pip install 'patience[ray]'") from None
        self._ray: Any = ray
        self._started = False
        if not ray.is_initialized():
            try:
                if address is not None:
                    ray.init(address=address, log_to_driver=False)
                else:
                    ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
            except (ConnectionError, RuntimeError) as error:
                raise BackendError(f"cannot start or reach Ray: {error}") from None
            self._started = True
        self._remote = ray.remote(solve_chunk)

    @property
    def workers(self) -> int:
        """The cluster's CPUs."""
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def run(
        self, tasks: Iterable[ChunkTask], in_flight: int
    ) -> Generator[tuple[ChunkTask, list[DealResult]], None, None]:
        """See :class:`Backend`."""
        ray = self._ray

        def cancel(refs: list[Any]) -> None:
            for ref in refs:
                ray.cancel(ref, force=True)

        yield from _bounded(
            tasks,
            in_flight,
            self._remote.remote,
            lambda refs: ray.wait(refs, num_returns=1)[0],
            ray.get,
            cancel,
        )

    def close(self) -> None:
        """Shut Ray down if this backend started it."""
        if self._started:
            self._ray.shutdown()


def make_backend(name: str, jobs: int = 1, address: str | None = None) -> Backend:
    """The backend called ``name`` (one of :data:`BACKENDS`)."""
    if name == "local":
        if address is not None:
            raise ValueError("--address is for the dask and ray backends")
        return LocalBackend(jobs)
    if name == "dask":
        return DaskBackend(address, jobs)
    if name == "ray":
        return RayBackend(address, jobs)
    raise ValueError(f"unknown backend {name!r}: choose one of {', '.join(BACKENDS)}")


def chunk_size_for(deals: int, workers: int, seconds: float | None = None) -> int:
    """Chunks small enough that every worker gets several (so the load evens out and an
    interrupt loses little), at most :data:`MAX_AUTO_CHUNK` deals and, with a budget of
    ``seconds`` a deal, at most :data:`MAX_CHUNK_SECONDS` of budget."""
    size = min(MAX_AUTO_CHUNK, deals // (workers * 4))
    if seconds is not None:
        size = min(size, int(MAX_CHUNK_SECONDS // seconds))
    return max(1, size)


@dataclass
class RunSummary:
    """What one run did: deals skipped (already stored), to do, and the results so far."""

    skipped: int
    todo: int
    counts: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(("won", "unwinnable", "unknown"), 0)
    )
    seconds: float = 0.0
    chunks: int = 0

    @property
    def done(self) -> int:
        """Deals solved and stored in this run."""
        return sum(self.counts.values())

    def add(self, results: Sequence[DealResult]) -> None:
        """Count a stored chunk."""
        self.chunks += 1
        for result in results:
            self.counts[result.result] += 1
            self.seconds += result.seconds


def run_study(
    db: StudyDB,
    rules: Rules[Any],
    deals: Iterable[int],
    budget: Budget,
    backend: Backend,
    *,
    chunk: int | None = None,
    max_states: int = SearchBudget.max_states,
    on_start: Callable[[RunSummary], None] | None = None,
    on_chunk: Callable[[RunSummary, Sequence[DealResult]], None] | None = None,
) -> RunSummary:
    """Solve every deal of ``deals`` not already stored for this game, options, budget and
    solver version, storing each chunk as it finishes; return what was done.

    ``on_start`` is called once the work is known, ``on_chunk`` after each chunk is stored
    (progress). An exception or interrupt stops the workers; every chunk stored stays stored.
    """
    if rules.players != 1:
        raise ValueError(f"{rules.name} is not a one-player game: the solver plays patience only")
    options = options_key(rules.options)
    wanted = list(dict.fromkeys(deals))
    done = db.done_deals(rules.name, options, budget, solver_version(rules.name), wanted)
    todo = [deal for deal in wanted if deal not in done]
    summary = RunSummary(skipped=len(wanted) - len(todo), todo=len(todo))
    if on_start is not None:
        on_start(summary)
    if not todo:
        return summary
    workers = backend.workers
    seconds = budget.amount if budget.kind in ("seconds", "cpu-seconds") else None
    size = chunk or chunk_size_for(len(todo), workers, seconds)
    nodes = int(budget.amount) if budget.kind == "nodes" else None
    tasks = (
        ChunkTask(
            rules.name,
            dict(rules.options),
            tuple(todo[i : i + size]),
            seconds,
            nodes,
            max_states,
            cpu_time=budget.kind == "cpu-seconds",
        )
        for i in range(0, len(todo), size)
    )
    with closing(backend.run(tasks, in_flight=2 * workers)) as finished:
        for _task, results in finished:
            db.write_chunk(rules.name, options, budget, solver_version(rules.name), results)
            summary.add(results)
            if on_chunk is not None:
                on_chunk(summary, results)
    return summary
