"""Hints: the solver's honest hint for a table, bounded so that hints cannot take every core
from the games being played."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..engine import Game
from .errors import CommandError
from .pools import Client, PoolLimits, WorkPool, client_keys

__all__ = ["HINTS_AT_ONCE", "HINTS_PER_CLIENT", "HintGate", "Hinter"]

#: Hints worked out at once, over every table. A hint (patience.solve.hint's hint_budget: 16
#: worlds, 10,000 nodes a search, an 8 s clock; 32 worlds of 5,000 nodes in Klondike; 4 worlds
#: in one-suit Spider, whose opening has ten moves to judge and slower nodes; one exact search
#: of 640,000 nodes at most in Leoni's Own, whose hints know every card) takes a fraction
#: of a CPU second in Klondike (docs/solving.md, "Hints": under 1 s at the 95th percentile with
#: 32 worlds) and up to a few seconds in Spider; beyond this a hint request is refused (503)
#: rather than queued, so that a burst of requests cannot take every core from the games being
#: played.
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
    ``at_once`` workers of their own: processes when ``processes`` (a hint samples worlds in
    Python, which would hold the interpreter lock the tables need; the hinter and the game are
    then pickled), threads otherwise. A slot is given back only when the solver has
    finished, even if the client went away meanwhile."""

    def __init__(
        self,
        at_once: int = HINTS_AT_ONCE,
        per_client: int = HINTS_PER_CLIENT,
        *,
        processes: bool = False,
    ) -> None:
        if at_once < 1 or per_client < 1:
            raise ValueError("at least one hint must be allowed at once, and for each client")
        self.at_once = at_once
        self.per_client = per_client
        self._busy: set[str] = set()
        self._clients: Counter[str] = Counter()
        #: Where the hints are worked out (the gate keeps the quotas).
        self.pool = WorkPool("hints", PoolLimits(workers=at_once, processes=processes))

    @property
    def busy(self) -> int:
        """How many hints are being worked out."""
        return len(self._busy)

    async def run(
        self, table_id: str, hinter: Hinter, game: Game, client: Client = None
    ) -> dict[str, Any]:
        """``hinter(game)`` on a worker, or a :class:`CommandError` when the table has a
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
        self._busy.add(table_id)
        for key in keys:
            self._clients[key] += 1
        work = asyncio.ensure_future(self.pool.run(None, hinter, game))

        def done(finished: asyncio.Future[dict[str, Any]]) -> None:
            self._release(table_id, keys)
            if not finished.cancelled():
                finished.exception()  # seen here, should the asker have gone away

        work.add_done_callback(done)
        # Shielded: a client that goes away does not give the slot back before the solver ends.
        return await asyncio.shield(work)

    def _release(self, table_id: str, keys: tuple[str, ...]) -> None:
        self._busy.discard(table_id)
        for key in keys:
            self._clients[key] -= 1
            if self._clients[key] <= 0:
                del self._clients[key]

    def close(self) -> None:
        """Stop taking hints; running ones finish in their workers."""
        self.pool.close()
