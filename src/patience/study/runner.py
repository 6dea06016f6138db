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
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..engine import Game, Rules
from ..games import get_rules
from ..options import OptionValue
from ..solve import Verdict, default_engine, solve, solver_version
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
    #: None: the engine's default bound (patience.solve.solve).
    max_states: int | None = None
    #: ``seconds`` are CPU seconds of the worker, not wall-clock seconds.
    cpu_time: bool = False
    #: The solver's engine (None: the default for the game).
    engine: str | None = None


def solve_chunk(task: ChunkTask) -> list[DealResult]:
    """Solve every deal of ``task`` (in a worker); return one result per deal."""
    rules = get_rules(task.game, task.options)
    results = []
    for deal in task.deals:
        # The CPU time of this thread, not of the process: a Dask worker may solve several
        # chunks at once in threads of one process.
        cpu_start = time.thread_time()
        solution = solve(
            Game.create(rules, deal=deal),
            seconds=task.seconds,
            nodes=task.nodes,
            max_states=task.max_states,
            cpu_time=task.cpu_time,
            engine=task.engine,
        )
        cpu_seconds = time.thread_time() - cpu_start
        results.append(
            DealResult(
                deal,
                solution.result,
                solution.seconds,
                solution.nodes,
                len(solution.moves),
                cpu_seconds,
            )
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
    """The local pool's worker initializer: leave Ctrl-C to the driver and die with it."""
    # Ctrl-C reaches the whole process group: the driver handles it (and stops the workers),
    # so that the workers do not each print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A driver killed outright (SIGKILL, the OOM killer) cannot stop its workers, and they would
    # wait on the pool's queue forever (keeping the forkserver and resource tracker alive too).
    # So each worker watches the driver itself and leaves when it is gone.
    threading.Thread(target=_exit_with_driver, name="exit-with-driver", daemon=True).start()


def _exit_with_driver() -> None:
    """Wait (in a worker's thread) until the driver is gone, then end the worker at once."""
    parent = multiprocessing.parent_process()
    if parent is not None and parent.sentinel is not None:
        # The driver holds the other end of this pipe: it reads as closed once the driver is
        # gone (the forkserver, which forked this worker, is not the driver).
        multiprocessing.connection.wait([parent.sentinel])
    else:  # no sentinel to wait on (not a forkserver or spawn child): poll the parent
        parent_pid = os.getppid()
        while os.getppid() == parent_pid:
            time.sleep(1.0)
    os._exit(1)


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


@contextmanager
def _children_ignore_interrupts() -> Iterator[None]:
    """Ignore Ctrl-C while a local cluster starts its processes, which keep ignoring it.

    The cluster's processes share the driver's process group, so Ctrl-C reaches them too, and
    each would print tracebacks; the driver alone should handle it (it then closes the
    cluster). An ignored signal stays ignored in a child (through fork and exec, and Python
    keeps it so), while a handler does not. The price: Ctrl-C during these few seconds of
    start-up is ignored by the driver too. (Blocking the signal instead, to deliver it to the
    driver afterwards, does not reach the children: the cluster starts them from other threads.)
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


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
            # Checked before a Client is made: a Client that fails to start is left behind
            # half made, and closing it when it is collected can deadlock.
            _check_dask_address(address)
            try:
                self.client = distributed.Client(address, timeout=30)
            except ValueError as error:  # a form the check above let through
                raise BackendError(_not_a_dask_address(address, error)) from None
            except (OSError, TimeoutError) as error:
                raise BackendError(f"cannot reach the Dask scheduler {address}: {error}") from None
            try:
                # The chunk size and the chunks in flight are set from the workers present.
                self.client.wait_for_workers(1, timeout=60)
            except TimeoutError:
                self.client.close()
                raise BackendError(f"the Dask scheduler {address} has no workers") from None
            except BaseException:  # Ctrl-C
                self.client.close()
                raise
        else:
            try:
                with _children_ignore_interrupts():
                    # Worker logs below errors (a cancelled chunk, a worker killed on close)
                    # are the normal end of an interrupted study, not news for the user.
                    self._cluster = distributed.LocalCluster(
                        n_workers=jobs,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=None,
                        silence_logs=logging.ERROR,
                    )
                self.client = distributed.Client(self._cluster)
            except BaseException:  # Ctrl-C, above all: stop what was started
                if self._cluster is not None:
                    self._cluster.close()
                raise

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
            if address is not None and address not in ("auto", "local"):
                _check_ray_address(address)
            try:
                if address is not None:
                    ray.init(address=address, log_to_driver=False)
                else:
                    ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as error:
                where = f"reach Ray at {address}" if address is not None else "start Ray"
                # A ray:// address without the Ray Client's packages: a ValueError.
                hint = ": pip install 'patience[ray]'" if "ray[client]" in str(error) else ""
                raise BackendError(f"cannot {where}: {error}{hint}") from None
            except KeyboardInterrupt:
                ray.shutdown()  # whatever part of a local Ray had started
                raise
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


#: Seconds to wait for a Dask scheduler's or Ray cluster's port to answer before saying it
#: cannot be reached.
CONNECT_SECONDS = 5.0


def _not_a_dask_address(address: str, error: Exception) -> str:
    return (
        f"{address!r} is not a Dask scheduler address ({error}): write it as tcp://HOST:PORT "
        "(the scheduler's port is 8786 unless set otherwise)"
    )


def _check_dask_address(address: str) -> None:
    """Raise :class:`BackendError` unless ``address`` is a scheduler address (as dask parses
    it) whose port takes a connection, for the TCP-based schemes."""
    comm: Any = importlib.import_module("distributed.comm")
    try:
        scheme, _ = comm.parse_address(address)
        host, port = comm.get_address_host_port(address)
    except ValueError as error:  # no port, a port that is no number, an unknown scheme
        raise BackendError(_not_a_dask_address(address, error)) from None
    if scheme in ("tcp", "tls", "ws", "wss"):
        _check_port(host, port, f"the Dask scheduler {address}", "is the scheduler running?")


_RAY_ADDRESSES = (
    "write auto (the cluster this machine belongs to), HOST:PORT (the cluster's head, port 6379 "
    "by default) or ray://HOST:PORT (the Ray Client server, port 10001 by default)"
)


def _check_ray_address(address: str) -> None:
    """Raise :class:`BackendError` unless ``address`` (``HOST:PORT`` or ``ray://HOST:PORT``)
    takes a TCP connection within :data:`CONNECT_SECONDS`.

    ``ray.init`` retries an address that does not answer for minutes, saying only that it
    failed to connect; a plain connection tells at once whether anything listens there.
    """
    host, _, port_text = address.removeprefix("ray://").rpartition(":")
    host = host.strip("[]")  # an IPv6 address: [::1]:6379
    try:
        port = int(port_text)
    except ValueError:
        port = 0
    if not host or not 0 < port < 65536:
        raise BackendError(f"{address!r} is not a Ray address: {_RAY_ADDRESSES}")
    _check_port(host, port, f"Ray at {address}", "is a Ray cluster running there?")


def _check_port(host: str, port: int, what: str, question: str) -> None:
    """Raise :class:`BackendError` unless ``port`` of ``host`` takes a TCP connection within
    :data:`CONNECT_SECONDS` (a scheduler or cluster that is not there is then said at once)."""
    try:
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()
    except OSError as error:
        raise BackendError(
            f"cannot reach {what}: nothing answers on port {port} of {host} ({error}); {question}"
        ) from None


def make_backend(name: str, jobs: int = 1, address: str | None = None) -> Backend:
    """The backend called ``name`` (one of :data:`BACKENDS`).

    Raises :class:`BackendError` when it cannot start, and when interrupted (Ctrl-C) while
    starting a cluster or connecting to one: nothing has run then, and what was started is
    stopped.
    """
    if name == "local":
        if address is not None:
            raise ValueError("--address is for the dask and ray backends")
        return LocalBackend(jobs)
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}: choose one of {', '.join(BACKENDS)}")
    try:
        if name == "dask":
            return DaskBackend(address, jobs)
        return RayBackend(address, jobs)
    except KeyboardInterrupt:
        raise BackendError(
            f"interrupted while starting the {name} backend: nothing was run"
        ) from None


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
    """What one run did: deals skipped (already stored), to do, and the results so far;
    ``seconds`` are the CPU seconds the workers spent on them (whatever the budget counts)."""

    skipped: int
    todo: int
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(map(str, Verdict), 0))
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
            self.seconds += result.seconds if result.cpu_seconds is None else result.cpu_seconds


def run_study(
    db: StudyDB,
    rules: Rules[Any],
    deals: Iterable[int],
    budget: Budget,
    backend: Backend,
    *,
    chunk: int | None = None,
    max_states: int | None = None,
    engine: str | None = None,
    on_start: Callable[[RunSummary], None] | None = None,
    on_chunk: Callable[[RunSummary, Sequence[DealResult]], None] | None = None,
) -> RunSummary:
    """Solve every deal of ``deals`` not already stored for this game, options, budget, engine
    (None: the game's default) and solver version, storing each chunk as it finishes; return
    what was done.

    ``on_start`` is called once the work is known, ``on_chunk`` after each chunk is stored
    (progress). An exception or interrupt stops the workers; every chunk stored stays stored.
    """
    if rules.players != 1:
        raise ValueError(f"{rules.name} is not a one-player game: the solver plays patience only")
    options = options_key(rules.options)
    engine = engine or default_engine(rules.name)
    solver = solver_version(rules.name, engine)
    wanted = list(dict.fromkeys(deals))
    done = db.done_deals(rules.name, options, budget, solver, wanted, engine=engine)
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
            engine=engine,
        )
        for i in range(0, len(todo), size)
    )
    with closing(backend.run(tasks, in_flight=2 * workers)) as finished:
        for _task, results in finished:
            db.write_chunk(rules.name, options, budget, solver, results, engine=engine)
            summary.add(results)
            if on_chunk is not None:
                on_chunk(summary, results)
    return summary
