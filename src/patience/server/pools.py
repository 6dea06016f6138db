"""Bounded pools of workers, one per kind of work, so that one kind cannot take the workers
another needs: twelve searches for a winnable deal must not hold up the store's writes of moves
at other tables.

Each :class:`WorkPool` has its own workers, a bound on the work it holds (running and waiting)
beyond which it refuses (503), and optionally a quota per client beyond which that client is
refused (429) while others are still served. A client is named by one or more keys (its address
and its session, say): a quota holds for each key apart, so neither another session from the
same address nor the same session from another address gets past it.

Workers are threads or processes (:attr:`PoolLimits.processes`). Work that runs in Python
(replaying a record, a bot's thinking, a hint's sampling of worlds) holds the interpreter lock
for as long as it runs, so in threads it would slow every table's answers: it runs in processes
of its own. So does a search for a winnable deal: the solver's search runs in the Rust core with
the lock released (``py.allow_threads`` in core/src/python.rs), but the search deals and sets up
each deal it tries in Python, and a deal picker is whatever callable the server was given. The
work crosses to them pickled (a module-level function or a bound method of a picklable object,
its arguments, its result or exception back), so it must not rely on the server's memory: what
it learns comes back in its result (the deal picker's wins: ``PicksApart`` in
server/catalogue.py). The store's work stays in threads (its SQLite connection does not cross
processes, and a write is mostly waiting on the disk).

Processes are started with the ``forkserver`` method (never ``fork`` from a threaded server),
the first time a pool is used; one that dies takes its pool's running work with it (503), and
the pool starts new ones for the next work.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import signal
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from .errors import CommandError

__all__ = ["WORKER_PRELOAD", "Client", "PoolLimits", "WorkPool", "client_keys", "worker_context"]

P = ParamSpec("P")
T = TypeVar("T")


@dataclass(frozen=True)
class PoolLimits:
    """How much one kind of work may take: ``workers`` run at once (threads, or processes when
    ``processes``), ``held`` in all (running and waiting; None: no bound, for work that must not
    be refused, like the store's), and ``per_client`` for each key of one client at once
    (None: no quota)."""

    workers: int
    held: int | None = None
    per_client: int | None = None
    processes: bool = False

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError("a pool needs at least one worker")
        if self.held is not None and self.held < self.workers:
            raise ValueError("a pool must hold at least as much work as it has workers")
        if self.per_client is not None and self.per_client < 1:
            raise ValueError("a quota per client is at least 1")


#: The modules a worker process needs, imported once in the fork server, not in every worker.
WORKER_PRELOAD = [
    "patience.games",
    "patience.bots",
    "patience.record",
    "patience.solve",
    "patience.study.winnable",
]


def worker_context() -> multiprocessing.context.BaseContext:
    """How worker processes start: forked from a clean server process that has the package
    imported already (fast, and safe in a threaded program, unlike a plain ``fork``)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(WORKER_PRELOAD)
    return context


def ignore_interrupts() -> None:
    """A worker's start: Ctrl-C at the terminal reaches every process of the server's group, and
    the server alone stops on it (it then shuts its pools down); a worker that took it too would
    die mid-task and print its traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


Client = str | Sequence[str] | None


def client_keys(client: Client) -> tuple[str, ...]:
    """The keys a client is counted under (none for the server's own work)."""
    if client is None:
        return ()
    if isinstance(client, str):
        return (client,)
    return tuple(dict.fromkeys(client))


class WorkPool:
    """Workers of their own for one kind of work (``what``: its name in refusals, plural)."""

    def __init__(self, what: str, limits: PoolLimits) -> None:
        self.what = what
        self.limits = limits
        self._pool: Executor | None = None
        self._held = 0
        self._clients: Counter[str] = Counter()
        self._closed = False

    @property
    def held(self) -> int:
        """How much work the pool holds (running or waiting)."""
        return self._held

    def held_for(self, client: str) -> int:
        """How much of the work of the client key ``client`` the pool holds."""
        return self._clients[client]

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.limits.processes:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.limits.workers,
                    mp_context=worker_context(),
                    initializer=ignore_interrupts,
                )
            else:
                self._pool = ThreadPoolExecutor(
                    max_workers=self.limits.workers, thread_name_prefix=self.what
                )
        return self._pool

    async def run(
        self, client: Client, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """``work(*args, **kwargs)`` on one of the pool's workers, for ``client`` (its keys:
        an address, a session; None: the server's own work, under no quota). Refused before any
        work: 429 when one of the client's keys has its quota under way, 503 when the pool holds
        all it may or is closed. Its place is given back only when the work ends, even if the
        client went away meanwhile. In a process pool, ``work`` and its arguments are pickled."""
        limits = self.limits
        keys = client_keys(client)
        if limits.per_client is not None and any(
            self._clients[key] >= limits.per_client for key in keys
        ):
            raise CommandError(
                429,
                f"you have {limits.per_client} {self.what} under way already: wait for them",
            )
        if limits.held is not None and self._held >= limits.held:
            raise CommandError(
                503, f"the server has {limits.held} {self.what} under way: try again in a moment"
            )
        if self._closed:
            raise CommandError(503, f"the server is stopping: no more {self.what}")
        # Only touched on the event loop's thread: plain counters are enough.
        loop = asyncio.get_running_loop()
        self._held += 1
        self._clients.update(keys)
        executor = self._executor()
        try:
            future = executor.submit(work, *args, **kwargs)
        except BrokenProcessPool:
            self._release(keys)
            self._replace(executor)
            raise CommandError(503, f"the {self.what} stopped: try again") from None
        except BaseException:
            self._release(keys)
            raise

        def done(_: object) -> None:
            # The loop may have closed meanwhile (the server stopped): nothing to give back.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._release, keys)

        future.add_done_callback(done)
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): its pool is unusable, the next work gets
            # a new one.
            self._replace(executor)
            raise CommandError(503, f"a worker of the {self.what} stopped: try again") from None

    def _replace(self, broken: Executor) -> None:
        if self._pool is broken:
            self._pool = None
            broken.shutdown(wait=False, cancel_futures=True)

    def _release(self, keys: tuple[str, ...]) -> None:
        self._held -= 1
        for key in keys:
            self._clients[key] -= 1
            if self._clients[key] <= 0:
                del self._clients[key]

    def close(self) -> None:
        """Take no more work; running work finishes in its workers (processes are told to end
        once it has)."""
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
