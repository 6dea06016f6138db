"""What every page and request handler of the server shares: the size limit of a request, the
pages' security policy, reading a JSON body, and serving a page."""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, Response

from .. import jsontext
from ..web import WEB_DIR
from .errors import CommandError

__all__ = [
    "CREATIONS_PER_MINUTE",
    "CSP",
    "MAX_BODY",
    "MAX_FRAME",
    "CreationLimit",
    "RateLimit",
    "page_response",
    "read_json",
    "read_message",
]

#: The largest request body (or websocket message) accepted, in bytes.
MAX_BODY = 16 * 1024
#: The largest websocket frame the web server (uvicorn's ``ws_max_size``) lets through to the
#: app. It is far above :data:`MAX_BODY` so that an oversized message gets the app's 413 error
#: and the connection stays open; only a frame over this makes uvicorn close it (code 1009).
MAX_FRAME = 1024 * 1024
#: Tables one client address may create in any minute, one-player and shared together.
CREATIONS_PER_MINUTE = 120
#: What a page may load: only our own files, no inline scripts.
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"
)


async def read_json(request: Request, limit: int = MAX_BODY) -> Any:
    """The request's JSON body, read up to ``limit`` bytes (an empty body is ``{}``); a larger
    or malformed body is a :class:`CommandError` (413 or 400)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise CommandError(413, f"a request body has at most {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise CommandError(413, f"a request body has at most {limit} bytes")
    if not body:
        return {}
    try:
        return jsontext.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, jsontext.JSONTextError) as error:
        raise CommandError(400, f"the request body is not JSON: {error}") from None


def read_message(text: str | None) -> Any:
    """A websocket message's JSON value (``text`` is None for a binary message); a binary
    message, one over :data:`MAX_BODY` bytes or one that is not JSON is a :class:`CommandError`
    (400 or 413)."""
    if text is None:
        raise CommandError(400, "send JSON text, not binary messages")
    if len(text.encode("utf-8")) > MAX_BODY:
        raise CommandError(413, f"a message has at most {MAX_BODY} bytes")
    try:
        return jsontext.loads(text)
    except jsontext.JSONTextError as error:
        raise CommandError(400, f"the message is not JSON: {error}") from None


def page_response(filename: str, status_code: int = 200) -> Response:
    """One of the web app's HTML pages, under :data:`CSP` and never cached (the page fetches
    its state itself); ``status_code`` 404 for the page of a table that is not there (the
    page says so)."""
    response = FileResponse(WEB_DIR / filename, media_type="text/html", status_code=status_code)
    response.headers["Content-Security-Policy"] = CSP
    response.headers["Cache-Control"] = "no-store"
    return response


class RateLimit:
    """At most ``per_minute`` of something (``what``, plural: "new tables") from one client
    address in any 60 seconds (None: no limit). Beyond it a :class:`CommandError` (429) says
    how long to wait. Memory stays bounded: clients quiet for a minute are forgotten."""

    def __init__(
        self,
        per_minute: int | None,
        what: str,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_minute = per_minute
        self.what = what
        self.clock = clock
        self._times: dict[str, deque[float]] = {}

    def check(self, connection: HTTPConnection) -> None:
        """Count one for the connection's client, or refuse it."""
        self.check_address(connection.client.host if connection.client else "")

    def check_address(self, host: str) -> None:
        """Count one for the client address ``host``, or refuse it."""
        if self.per_minute is None:
            return
        now = self.clock()
        if len(self._times) > 10_000:
            # Forget the clients quiet for a minute: memory stays bounded.
            self._times = {
                host: times for host, times in self._times.items() if times[-1] > now - 60
            }
        times = self._times.setdefault(host, deque())
        while times and times[0] <= now - 60:
            times.popleft()
        if len(times) >= self.per_minute:
            wait = math.ceil(times[0] + 60 - now)
            raise CommandError(
                429,
                f"at most {self.per_minute} {self.what} a minute from one address: wait {wait} s",
            )
        times.append(now)


class CreationLimit(RateLimit):
    """At most ``per_minute`` new tables from one client address in any 60 seconds (None: no
    limit), so that a client looping on "new deal" cannot fill the store. Beyond it a
    :class:`CommandError` (429) says how long to wait; nothing is created."""

    def __init__(
        self,
        per_minute: int | None = CREATIONS_PER_MINUTE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(per_minute, "new tables", clock)
