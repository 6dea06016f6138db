"""What the server refuses before any handler runs: the security headers of every response,
the static files a page may load (no other), and the origins a websocket or a POST may come
from.

The limits of the HTTP connection itself (header size and time, idle connections, the number
of connections) belong to the web server: ``server/serving.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .http import CSP

__all__ = [
    "SECURITY_HEADERS",
    "OriginCheck",
    "PageFiles",
    "SecurityHeaders",
    "checked_origins",
    "page_files",
]

#: The headers every HTTP response carries (a response that sets one itself keeps its own).
SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

# What a page or a module loads: ``src="/static/x.js"``, ``href="/static/x.css"`` in a page,
# ``from "./x.js"`` and ``import("./x.js")`` in a module.
_PAGE_LOADS = re.compile(r"""(?:src|href)="/static/([A-Za-z0-9_.-]+)\"""")
_MODULE_LOADS = re.compile(r"""(?:from\s+|import\s*\(\s*)["']\./([A-Za-z0-9_.-]+)["']""")


def page_files(web_dir: Path, pages: Iterable[str]) -> frozenset[str]:
    """The files of ``web_dir`` that the ``pages`` load, directly or through the modules they
    import (followed to the end): exactly what ``/static`` needs to serve."""
    found: set[str] = set()
    todo: list[str] = []
    for page in pages:
        todo += _PAGE_LOADS.findall((web_dir / page).read_text(encoding="utf-8"))
    while todo:
        name = todo.pop()
        if name in found or not (web_dir / name).is_file():
            continue
        found.add(name)
        if name.endswith(".js"):
            todo += _MODULE_LOADS.findall((web_dir / name).read_text(encoding="utf-8"))
    return frozenset(found)


class PageFiles(StaticFiles):
    """Starlette's static files, but only those named in ``allowed`` (anything else, the
    package's Python files included, is a 404)."""

    def __init__(self, *, directory: Path, allowed: frozenset[str]) -> None:
        super().__init__(directory=directory)
        self.allowed = allowed

    async def get_response(self, path: str, scope: Scope) -> Response:
        """The file if it is one a page loads, else 404."""
        if path not in self.allowed:
            raise HTTPException(status_code=404)
        return await super().get_response(path, scope)


class SecurityHeaders:
    """ASGI middleware: every HTTP response gets :data:`SECURITY_HEADERS` (those it has not
    set itself), errors and static files included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _origin(url: str) -> str | None:
    """``scheme://host[:port]`` of a URL, lower case; None if it has no scheme or host."""
    parts = urlsplit(url.strip().lower())
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}"


def checked_origins(urls: Iterable[str]) -> frozenset[str]:
    """The origins of ``urls`` (``https://example.org``, a path is dropped); a URL without a
    scheme (http or https) and a host is a :class:`ValueError` that says so."""
    checked = set()
    for url in urls:
        origin = _origin(url)
        if origin is None:
            raise ValueError(f"an allowed origin is like https://example.org, not {url!r}")
        checked.add(origin)
    return frozenset(checked)


#: The methods that change nothing: another site's page may send them (its links, its images).
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class OriginCheck:
    """ASGI middleware: a websocket or a request that may change something (a POST) whose
    ``Origin`` is neither the server's own (the scheme and ``Host`` the request came with) nor
    one of ``allowed`` is refused before any handler runs (a 403: the one JSON error over
    HTTP), so that another site's page cannot play with a visitor's session, nor log him in
    to a name of its own choosing (the session cookie is SameSite=Lax as well). A client that
    sends no ``Origin`` (not a browser) is let through."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = checked_origins(allowed)

    def permits(self, scope: Scope) -> bool:
        """Whether the websocket's ``Origin`` is the server's own or an allowed one."""
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if origin is None:
            return True
        host = headers.get("host", "")
        scheme = "https" if scope.get("scheme") in {"wss", "https"} else "http"
        given = _origin(origin)
        return given is not None and (
            given == f"{scheme}://{host.lower()}" or given in self.allowed
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope.get("method", "GET") not in SAFE_METHODS
            and not self.permits(scope)
        ):
            refusal = JSONResponse(
                {"error": "this origin may not send requests here", "status": 403},
                status_code=403,
            )
            await refusal(scope, receive, send)
            return
        if scope["type"] == "websocket" and not self.permits(scope):
            # The websocket denial response (ASGI) where the server supports it, else a close
            # before accepting, which servers answer with a 403.
            await send({"type": "websocket.close", "code": 4403, "reason": "origin not allowed"})
            return
        await self.app(scope, receive, send)
