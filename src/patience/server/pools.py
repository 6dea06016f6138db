"""Bounded pools of worker threads, one per kind of work, so that one kind cannot take the
threads another needs: twelve searches for a winnable deal must not hold up the store's writes
of moves at other tables.

Each :class:`WorkPool` has its own threads, a bound on the work it holds (running and waiting)
beyond which it refuses (503), and optionally a quota per client beyond which that client is
refused (429) while others are still served. A client is named by one key or several (the server
gives its address and its session: each has the quota, so that neither many sessions from one
address nor one session from many addresses take more than their share).

Threads, not processes: the expensive work is the solver's search, which runs in the Rust core
with the interpreter lock released (``py.allow_threads`` in core/src/python.rs), so threads use
both cores; the deal picker also remembers the wins it found, which a process would lose; and the
store's SQLite connection does not cross processes. What runs in Python (replaying a record,
a bot's thinking) holds the lock, but each such piece is bounded (a record's size, one bot move
per table at a time), and each kind has its own threads.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from .errors import CommandError

__all__ = ["Client", "PoolLimits", "WorkPool", "client_keys"]

P = ParamSpec("P")
T = TypeVar("T")

#: Who asks for work, as quotas count it: a key (an address), several keys (an address and a
#: session: each is under the quota), or None (the server's own work, under no quota).
Client = str | Sequence[str] | None


def client_keys(client: Client) -> tuple[str, ...]:
    """The keys a client is counted under (none for the server's own work)."""
    if client is None:
        return ()
    if isinstance(client, str):
        return (client,)
    return tuple(client)


@dataclass(frozen=True)
class PoolLimits:
    """How much one kind of work may take: ``threads`` run at once, ``held`` in all (running
    and waiting; None: no bound, for work that must not be refused, like the store's), and
    ``per_client`` of one client at once (None: no quota)."""

    threads: int
    held: int | None = None
    per_client: int | None = None

    def __post_init__(self) -> None:
        if self.threads < 1:
            raise ValueError("a pool needs at least one thread")
        if self.held is not None and self.held < self.threads:
            raise ValueError("a pool must hold at least as much work as it has threads")
        if self.per_client is not None and self.per_client < 1:
            raise ValueError("a quota per client is at least 1")


class WorkPool:
    """Threads of their own for one kind of work (``what``: its name in refusals, plural)."""

    def __init__(self, what: str, limits: PoolLimits) -> None:
        self.what = what
        self.limits = limits
        self._pool = ThreadPoolExecutor(max_workers=limits.threads, thread_name_prefix=what)
        self._held = 0
        self._clients: Counter[str] = Counter()

    @property
    def held(self) -> int:
        """How much work the pool holds (running or waiting)."""
        return self._held

    def held_for(self, client: str) -> int:
        """How much work the pool holds for ``client`` (one key: an address, a session)."""
        return self._clients[client]

    async def run(
        self, client: Client, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """``work(*args, **kwargs)`` on one of the pool's threads, for ``client`` (None: the
        server's own work, under no quota). Refused before any work: 429 when the client (any
        of its keys) has its quota under way, 503 when the pool holds all it may. Its place is
        given back only when the work ends, even if the client went away meanwhile."""
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
        # Only touched on the event loop's thread: plain counters are enough.
        loop = asyncio.get_running_loop()
        self._held += 1
        for key in keys:
            self._clients[key] += 1
        try:
            future = self._pool.submit(work, *args, **kwargs)
        except BaseException:
            self._release(keys)
            raise

        def done(_: object) -> None:
            # The loop may have closed meanwhile (the server stopped): nothing to give back.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._release, keys)

        future.add_done_callback(done)
        return await asyncio.wrap_future(future)

    def _release(self, keys: tuple[str, ...]) -> None:
        self._held -= 1
        for key in keys:
            self._clients[key] -= 1
            if self._clients[key] <= 0:
                del self._clients[key]

    def close(self) -> None:
        """Take no more work; running work finishes in its threads."""
        self._pool.shutdown(wait=False, cancel_futures=True)
