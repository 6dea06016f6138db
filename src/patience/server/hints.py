"""Hints: the solver's honest hint for a table, bounded so that hints cannot take every core
from the games being played."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..engine import Game
from .errors import CommandError

__all__ = ["HINTS_AT_ONCE", "HintGate", "Hinter"]

#: Hints worked out at once, over every table. The solver spends about 2 s of one core on a
#: hint; beyond this a hint request is refused (503) rather than queued, so that a burst of
#: requests cannot take every core from the games being played.
HINTS_AT_ONCE = 2

#: A hint for a table's current position; the hook for the solver's honest hint.
Hinter = Callable[[Game], dict[str, Any]]


class HintGate:
    """Bounds the hints being worked out: one per table at a time (another request for the
    same table is a 429 while it runs) and at most ``at_once`` in all (a 503 beyond). The hints
    run on a pool of ``at_once`` threads of their own; a slot is given back only when the
    solver has finished, even if the client went away meanwhile."""

    def __init__(self, at_once: int = HINTS_AT_ONCE) -> None:
        if at_once < 1:
            raise ValueError("at least one hint must be allowed at once")
        self.at_once = at_once
        self._busy: set[str] = set()
        self._pool = ThreadPoolExecutor(max_workers=at_once, thread_name_prefix="hint")

    @property
    def busy(self) -> int:
        """How many hints are being worked out."""
        return len(self._busy)

    async def run(self, table_id: str, hinter: Hinter, game: Game) -> dict[str, Any]:
        """``hinter(game)`` in a worker thread, or a :class:`CommandError` when the table has a
        hint running already (429) or the server has as many as it allows (503)."""
        if table_id in self._busy:
            raise CommandError(
                429, "a hint for this table is being worked out already: wait for it"
            )
        if len(self._busy) >= self.at_once:
            raise CommandError(
                503,
                f"the server is working out {self.at_once} hints already: try again in a moment",
            )
        # The gate is only touched on the event loop's thread, so a set is enough.
        loop = asyncio.get_running_loop()
        self._busy.add(table_id)
        try:
            work = self._pool.submit(hinter, game)
        except BaseException:
            self._busy.discard(table_id)
            raise
        work.add_done_callback(lambda _: loop.call_soon_threadsafe(self._busy.discard, table_id))
        return await asyncio.wrap_future(work)

    def close(self) -> None:
        """Stop taking hints; running ones finish in their threads."""
        self._pool.shutdown(wait=False, cancel_futures=True)
