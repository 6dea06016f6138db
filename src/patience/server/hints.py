"""Hints: the solver's honest hint for a table, bounded so that hints cannot take every core
from the games being played."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..engine import Game
from .errors import CommandError
from .pools import Client, client_keys

__all__ = ["HINTS_AT_ONCE", "HINTS_PER_CLIENT", "HintGate", "Hinter"]

#: Hints worked out at once, over every table. The solver spends about 2 s of one core on a
#: hint; beyond this a hint request is refused (503) rather than queued, so that a burst of
#: requests cannot take every core from the games being played.
HINTS_AT_ONCE = 2
#: Hints one client address, and one session, may have worked out at once (at any of its
#: tables): beyond it a request is refused (429), so that one client cannot take every hint
#: thread.
HINTS_PER_CLIENT = 1

#: A hint for a table's current position; the hook for the solver's honest hint.
Hinter = Callable[[Game], dict[str, Any]]


class HintGate:
    """Bounds the hints being worked out: one per table at a time (another request for the
    same table is a 429 while it runs), ``per_client`` for each key of a client (its address,
    its session: a 429 beyond) and at most ``at_once`` in all (a 503 beyond). The hints run on
    a pool of ``at_once`` threads of their own; a slot is given back only when the solver has
    finished, even if the client went away meanwhile."""

    def __init__(self, at_once: int = HINTS_AT_ONCE, per_client: int = HINTS_PER_CLIENT) -> None:
        if at_once < 1 or per_client < 1:
            raise ValueError("at least one hint must be allowed at once, and for each client")
        self.at_once = at_once
        self.per_client = per_client
        self._busy: set[str] = set()
        self._clients: Counter[str] = Counter()
        self._pool = ThreadPoolExecutor(max_workers=at_once, thread_name_prefix="hint")

    @property
    def busy(self) -> int:
        """How many hints are being worked out."""
        return len(self._busy)

    async def run(
        self, table_id: str, hinter: Hinter, game: Game, client: Client = None
    ) -> dict[str, Any]:
        """``hinter(game)`` in a worker thread, or a :class:`CommandError` when the table has a
        hint running already or ``client`` (an address, or an address and a session: each
        key has the quota; None: no quota) as many as it may (429), or the server has as many
        as it allows (503)."""
        if table_id in self._busy:
            raise CommandError(
                429, "a hint for this table is being worked out already: wait for it"
            )
        keys = client_keys(client)
        if any(self._clients[key] >= self.per_client for key in keys):
            raise CommandError(
                429,
                f"you have {self.per_client} hint(s) being worked out already at another "
                "table: wait for it",
            )
        if len(self._busy) >= self.at_once:
            raise CommandError(
                503,
                f"the server is working out {self.at_once} hints already: try again in a moment",
            )
        # The gate is only touched on the event loop's thread, so a set is enough.
        loop = asyncio.get_running_loop()
        self._busy.add(table_id)
        for key in keys:
            self._clients[key] += 1
        try:
            work = self._pool.submit(hinter, game)
        except BaseException:
            self._release(table_id, keys)
            raise

        def done(_: object) -> None:
            # The loop may have closed meanwhile (the server stopped): nothing to give back.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._release, table_id, keys)

        work.add_done_callback(done)
        return await asyncio.wrap_future(work)

    def _release(self, table_id: str, keys: tuple[str, ...]) -> None:
        self._busy.discard(table_id)
        for key in keys:
            self._clients[key] -= 1
            if self._clients[key] <= 0:
                del self._clients[key]

    def close(self) -> None:
        """Stop taking hints; running ones finish in their threads."""
        self._pool.shutdown(wait=False, cancel_futures=True)
