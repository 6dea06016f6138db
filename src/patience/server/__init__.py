"""The web server: a Starlette app serving the front end (``patience.web``), a JSON API over
HTTP and the same game protocol over websockets (docs/web.md), all of it on one table service
(``service.py``)."""

from __future__ import annotations

from .app import MAX_BODY, MAX_FRAME, OLD_COOKIE, SESSION_COOKIE, create_app
from .catalogue import catalogue
from .errors import CommandError
from .service import TableService
from .table import COMMANDS, Table

__all__ = [
    "COMMANDS",
    "MAX_BODY",
    "MAX_FRAME",
    "OLD_COOKIE",
    "SESSION_COOKIE",
    "CommandError",
    "Table",
    "TableService",
    "catalogue",
    "create_app",
]
