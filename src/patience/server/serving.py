"""How ``patience serve`` runs the app on uvicorn, with the limits of the HTTP connection itself
(docs/web.md, "Limits"): the same configuration for the command and for the tests that start a
live server.

uvicorn's options give most limits: the size of a request's head (h11's
``max_incomplete_event_size``), idle keep-alive connections (``timeout_keep_alive``), the
connections served at once (``limit_concurrency``: beyond it a request gets a 503), websocket
frames and pings. Two are missing and :class:`LimitedH11Protocol` adds them: a request whose
head and body do not arrive within :data:`REQUEST_TIMEOUT` (a connection that sends nothing, a
half-sent head, a half-sent body) is closed, and one client address holds at most
:data:`CONNECTIONS_PER_CLIENT` HTTP connections at once, so that one client's open connections
leave room for everybody else's requests.

The HTTP parser is h11 (uvicorn's pure-Python one), never httptools: uvicorn gives httptools no
bound on a request's head, so a never-ending header grows the server without limit, while h11
refuses a head over its bound (a 400, then the connection is closed).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from .http import MAX_FRAME

__all__ = [
    "CONNECTIONS_PER_CLIENT",
    "KEEP_ALIVE",
    "MAX_CONNECTIONS",
    "MAX_HEAD",
    "REQUEST_TIMEOUT",
    "WS_PING",
    "LimitedH11Protocol",
    "ServeConfig",
    "serve_config",
]

log = logging.getLogger(__name__)

#: Seconds a request's head and body have to arrive, from the connection (or the request's
#: first byte on a kept-alive connection) on; then the connection is closed.
REQUEST_TIMEOUT = 20.0
#: Seconds an idle kept-alive connection stays open.
KEEP_ALIVE = 5
#: The largest request head (request line and headers), in bytes.
MAX_HEAD = 16 * 1024
#: Connections (HTTP and websocket) served at once; beyond it a request gets a 503.
MAX_CONNECTIONS = 1000
#: HTTP connections one client address may hold open at once (more are closed at once);
#: not applied behind a trusted proxy, where every connection comes from the proxy.
CONNECTIONS_PER_CLIENT = 64
#: Seconds between the server's websocket pings, and to wait for the pong before closing.
WS_PING = 20.0


class ServeConfig(uvicorn.Config):
    """uvicorn's configuration with the limits :class:`LimitedH11Protocol` adds, and the count
    of each client address's open connections (one per server)."""

    def __init__(
        self,
        app: Any,
        *,
        request_timeout: float = REQUEST_TIMEOUT,
        connections_per_client: int | None = CONNECTIONS_PER_CLIENT,
        **options: Any,
    ) -> None:
        super().__init__(app, **options)
        self.request_timeout = request_timeout
        self.connections_per_client = connections_per_client
        self.client_connections: Counter[str] = Counter()


class LimitedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request and a bound on each client
    address's connections (see the module's docstring)."""

    def __init__(
        self,
        config: uvicorn.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        # A plain uvicorn.Config gets the deadline and no bound per client.
        self.request_timeout = REQUEST_TIMEOUT
        self.per_client: int | None = None
        self.client_connections: Counter[str] = Counter()
        if isinstance(config, ServeConfig):
            self.request_timeout = config.request_timeout
            self.per_client = config.connections_per_client
            self.client_connections = config.client_connections
        self._deadline: asyncio.TimerHandle | None = None
        self._counted: str | None = None
        self._upgraded = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the client's connection (closing one too many) and start waiting for a
        request."""
        super().connection_made(transport)
        host = self.client[0] if self.client else ""
        if self.per_client is not None:
            if self.client_connections[host] >= self.per_client:
                log.warning("%s holds %d connections: one more closed", host, self.per_client)
                transport.close()
                return
            self.client_connections[host] += 1
            self._counted = host
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone: its deadline and count with it."""
        self._disarm()
        self._uncount()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Parse as uvicorn does, then keep a deadline while a request is only partly here."""
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        """As uvicorn (the keep-alive timer), then follow a pipelined request."""
        super().on_response_complete()
        self._follow()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        """A websocket is the websocket protocol's (its pings and frame limits): no deadline,
        and no longer an HTTP connection of its client."""
        self._upgraded = True
        self._disarm()
        self._uncount()
        super().handle_websocket_upgrade(event)

    def _follow(self) -> None:
        """A deadline while part of a request is here (a head begun, a body being sent); none
        while the app answers or the connection waits idle (the keep-alive timer's)."""
        if self._upgraded or self.transport.is_closing():
            self._disarm()
            return
        state = self.conn.their_state
        begun = state is h11.IDLE and bool(self.conn.trailing_data[0])
        if state is h11.SEND_BODY or begun:
            self._arm()
        else:
            self._disarm()

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.request_timeout, self._timed_out)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _uncount(self) -> None:
        if self._counted is not None:
            self.client_connections[self._counted] -= 1
            if self.client_connections[self._counted] <= 0:
                del self.client_connections[self._counted]
            self._counted = None

    def _timed_out(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            log.info("a request took over %s s to arrive: connection closed", self.request_timeout)
            self.transport.close()


def serve_config(
    app: Any,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    proxy_headers: bool = False,
    forwarded_allow_ips: str = "127.0.0.1",
    request_timeout: float = REQUEST_TIMEOUT,
    keep_alive: int = KEEP_ALIVE,
    max_connections: int = MAX_CONNECTIONS,
    connections_per_client: int | None = CONNECTIONS_PER_CLIENT,
    log_level: str = "warning",
) -> ServeConfig:
    """The configuration ``patience serve`` runs the app with. ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are read only with ``proxy_headers`` and only from the addresses of
    ``forwarded_allow_ips`` (uvicorn would trust 127.0.0.1 by default: a client on the same
    machine could then claim any address and escape the limits per address); behind a proxy
    the limit of connections per address is the proxy's business, and is off here."""
    return ServeConfig(
        app,
        host=host,
        port=port,
        http=LimitedH11Protocol,
        h11_max_incomplete_event_size=MAX_HEAD,
        timeout_keep_alive=keep_alive,
        limit_concurrency=max_connections,
        request_timeout=request_timeout,
        connections_per_client=None if proxy_headers else connections_per_client,
        proxy_headers=proxy_headers,
        forwarded_allow_ips=forwarded_allow_ips if proxy_headers else None,
        ws_max_size=MAX_FRAME,
        ws_ping_interval=WS_PING,
        ws_ping_timeout=WS_PING,
        log_level=log_level,
    )
