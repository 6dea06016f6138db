"""The web server: a Starlette app serving the front end (``patience.web``), a JSON API over
HTTP and the same game protocol over websockets (docs/web.md)."""

from __future__ import annotations

from .app import COOKIE, MAX_BODY, MAX_FRAME, create_app
from .tables import COMMANDS, CommandError, Table, Tables, catalogue

__all__ = [
    "COMMANDS",
    "COOKIE",
    "MAX_BODY",
    "MAX_FRAME",
    "CommandError",
    "Table",
    "Tables",
    "catalogue",
    "create_app",
]
