"""The one error of the server's protocol, and its one JSON shape.

Every refusal, over HTTP or a websocket and at any table, is a :class:`CommandError` and reaches
the client as ``{"error": MESSAGE, "status": STATUS}`` (over a websocket with ``"type":
"error"`` as well, and with the table's ``"state"`` where docs/web.md says so); over HTTP the
status is also the response's status. A refused move also carries ``"reason"``: what was refused,
which cards, and why, as data (``{"kind": "illegal_move", "move", "cards", "why"}``), so that a
page can say it in words of its own; ``"error"`` stays the text a terminal shows.
"""

from __future__ import annotations

import sqlite3
from typing import Any

__all__ = ["CommandError", "error_json", "failure"]


class CommandError(ValueError):
    """A request refused: ``status`` is the HTTP status that fits (400 malformed, 403 not your
    table or seat, 404 no such table, 409 out of date or not possible now, 413 too large, 422
    against the rules, 429 too many, 5xx the server's own trouble); nothing was changed."""

    def __init__(self, status: int, message: str, reason: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        # Raised in a worker process (server/pools.py), it crosses back pickled: with its
        # status and every attribute, not only the message ``Exception`` would keep.
        return (self.__class__, (self.status, self.message), dict(self.__dict__))


def error_json(error: CommandError, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON of a refusal: ``{"error", "status"}``, plus ``"reason"`` when the error has one
    and ``"state"`` when given."""
    body: dict[str, Any] = {"error": error.message, "status": error.status}
    if error.reason is not None:
        body["reason"] = error.reason
    if state is not None:
        body["state"] = state
    return body


def failure(error: BaseException) -> CommandError:
    """The refusal that tells a client of an unexpected exception: a store that failed (disk
    full, a read-only file, a damaged database: 503, with SQLite's words, which name no card
    or secret) or any other failure (500, "the server failed"; the log has the rest)."""
    if isinstance(error, sqlite3.Error):
        return CommandError(503, f"the store failed: {error}")
    return CommandError(500, "the server failed")
