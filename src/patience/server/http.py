"""What every page and request handler of the server shares: the size limit of a request, the
pages' security policy, reading a JSON body, and serving a page."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, Response

from ..web import WEB_DIR
from .tables import CommandError

__all__ = ["CSP", "MAX_BODY", "page_response", "read_json"]

#: The largest request body (or websocket message) accepted, in bytes.
MAX_BODY = 16 * 1024
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
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise CommandError(400, f"the request body is not JSON: {error}") from None


def page_response(filename: str) -> Response:
    """One of the web app's HTML pages, under :data:`CSP` and never cached (the page fetches
    its state itself)."""
    response = FileResponse(WEB_DIR / filename, media_type="text/html")
    response.headers["Content-Security-Policy"] = CSP
    response.headers["Cache-Control"] = "no-store"
    return response
