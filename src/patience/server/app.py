"""The Starlette application: the pages, and the HTTP and websocket addresses of the table
service (``server/service.py``), which this module only translates to and from.

HTTP (every answer is JSON; a refusal is ``{"error", "status"}`` with that status, docs/web.md):

* ``GET /api/games``: the one-player games, their summaries, options and how winnable deals are
  dealt; ``GET /api/shared/games``: the games of several players, the bots and the absence
  settings;
* ``GET /api/player``: who is playing (``{"name", "claimed", "show_stats"}``); ``POST
  /api/player {"name", "show_stats"}``: the name shown and whether others may see the
  statistics; ``POST /api/player/claim {"name", "password"}``, ``POST /api/player/login
  {"name", "password"}``, ``POST /api/player/logout``: claimed names (``server/sessions.py``:
  a cookie holds the browser's session);
* ``POST /api/tables {"game", "options", "deal"}``: a new one-player table (``deal`` null: a
  random deal); ``POST /api/shared {"game", "options", "seats", ...}``: a new shared table;
* ``GET /api/tables``: the player's tables, latest first (``?ongoing=1``: unfinished ones);
  ``GET /api/shared``: the shared tables listed in the lobby, and the player's own;
* ``GET /api/tables/{id}``: the table's state for the player's seat; ``GET /api/shared/{id}``:
  a spectator's state;
* ``POST /api/tables/{id} {"command", "move", "events"}``: a command;
* ``POST /api/tables/{id}/autofinish {"events"}``: the foundation moves that win, one by one;
* ``POST /api/tables/{id}/new {"deal"}``: a new table of the same game and options;
* ``GET /api/tables/{id}/record``, ``GET /api/shared/{id}/record`` (``?format=text|json``): the
  record, as a download (the same for every table);
* ``GET /api/tables/{id}/hint``: the hinter's move;
* ``GET /api/lobby``: the ongoing shared tables their creators listed (``"listed": true``);
* ``GET /api/stats?player=NAME``: statistics per game and options (the session's own by
  default; another's only if a claimed name shows them);
* ``GET /api/rules/{game}``: the game's rules as HTML, ``{"html": ...}`` (404 if unknown);
* ``POST /api/replay`` (a record file as the body): the record checked, and its views step by step.

Websockets ``/ws/tables/{id}`` and ``/ws/shared/{id}``: one loop (:meth:`TableService.serve`)
serves both, each in its dialect (:class:`Dialect`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from argon2 import PasswordHasher
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .. import record
from ..store import Store
from ..web import WEB_DIR
from .catalogue import DealPicker, catalogue
from .errors import CommandError, error_json, failure
from .hints import HINTS_AT_ONCE, Hinter, HintGate
from .http import (
    CREATIONS_PER_MINUTE,
    MAX_BODY,
    MAX_FRAME,
    CreationLimit,
    page_response,
    read_json,
)
from .limits import (
    SECURITY_HEADERS,
    OriginCheck,
    PageFiles,
    SecurityHeaders,
    checked_origins,
    page_files,
)
from .rules import RulesBook
from .service import SOCKETS_PER_CLIENT, TableService, shared_catalogue
from .sessions import (
    DEFAULT_PLAYER,
    OLD_COOKIE,
    PASSWORD_TRIES_PER_MINUTE,
    SESSION_COOKIE,
    SESSION_MAX_AGE,
    SESSIONS_PER_MINUTE,
    Sessions,
    Visitor,
)
from .table import HOLD_LIMIT, Dialect, Table, shared_request, solo_request

__all__ = [
    "DEFAULT_PLAYER",
    "HINTS_AT_ONCE",
    "MAX_BODY",
    "MAX_FRAME",
    "OLD_COOKIE",
    "SESSION_COOKIE",
    "WEB_DIR",
    "HintGate",
    "create_app",
]

log = logging.getLogger(__name__)

#: The largest record file accepted for a replay, in bytes.
MAX_RECORD = 512 * 1024
#: The pages (served by routes, not ``/static``); ``/static`` serves what they load.
PAGES = ("index.html", "tables.html")
#: The most moves a replayed record may have (every step's view goes to the page).
MAX_REPLAY_MOVES = 5000


def client_address(connection: HTTPConnection) -> str:
    """The client's address, as the quotas per client count it (the work pools, the creation
    limit)."""
    return connection.client.host if connection.client else ""


# Where a request keeps its visitor and the cookies its response sets (the ASGI scope).
_VISITOR = "patience.visitor"
_COOKIES = "patience.cookies"


class CookieJar:
    """ASGI middleware: the cookies a handler queued (:func:`queue_cookie`) go out with the
    response, whichever response it is (an error's too)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        jar: dict[str, tuple[bytes, bytes]] = {}
        scope[_COOKIES] = jar

        async def send_with_cookies(message: Message) -> None:
            if message["type"] == "http.response.start" and jar:
                message = {**message, "headers": [*message.get("headers", []), *jar.values()]}
            await send(message)

        await self.app(scope, receive, send_with_cookies)


def queue_cookie(
    connection: HTTPConnection, name: str, value: str = "", *, max_age: int = 0
) -> None:
    """Set (``max_age`` > 0) or delete a cookie with the response to ``connection``: HttpOnly,
    SameSite=Lax (sent with a link followed from elsewhere, never with another site's POST),
    and Secure when the request came over TLS (``--proxy-headers`` lets a trusted proxy say
    so). A websocket has no response to carry cookies: nothing is set."""
    jar = connection.scope.get(_COOKIES)
    if jar is None:
        return
    carrier = Response()
    carrier.set_cookie(
        name,
        value,
        max_age=max_age,
        httponly=True,
        samesite="lax",
        secure=connection.url.scheme in {"https", "wss"},
    )
    jar[name] = carrier.raw_headers[-1]


async def read_body(request: Request, limit: int, what: str = "a request body") -> bytes:
    """The request's body, read up to ``limit`` bytes; a larger one is a :class:`CommandError`
    (413) that says the limit."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise CommandError(413, f"{what} has at most {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise CommandError(413, f"{what} has at most {limit} bytes")
    return bytes(body)


def replay_steps(text: str) -> dict[str, Any]:
    """A record read, checked and replayed, as the replay page shows it: its facts and, for
    every step (the start, then after each move), what changed in the view.

    Only views reach the page: face-down cards are ``null`` at every step, as at a table. A
    step sends only the piles that changed since the step before (the first step sends all),
    so a long record stays small. Refused with a :class:`CommandError`: 422 for a record that
    is malformed or does not replay (the reader's message names the line and move), or for a
    game of several players or more than :data:`MAX_REPLAY_MOVES` moves.
    """
    try:
        rec = record.read_record(text)
        # Counted before any move is replayed: a long record costs nothing more than reading.
        if len(rec.moves) > MAX_REPLAY_MOVES:
            raise CommandError(
                422,
                f"this record has {len(rec.moves)} moves; a replay has at most {MAX_REPLAY_MOVES}",
            )
        game = rec.replay()
    except record.RecordError as error:
        raise CommandError(422, f"this record cannot be replayed: {error}") from None
    except CommandError:
        raise
    except ValueError as error:  # a bad option or deal met while replaying
        raise CommandError(422, f"this record cannot be replayed: {error}") from None
    if game.rules.players != 1:
        raise CommandError(
            422,
            f"{game.name} is played by {game.rules.players}: replays here are of one-player games",
        )
    moves = [move.text() for move in game.move_stack]
    # Walk back from the end, taking each step's view, then put the steps in order.
    views = [game.view(0)]
    if game.resigned:
        game.take_back_resignation()
    while game.move_stack:
        game.pop()
        views.append(game.view(0))
    views.reverse()
    steps: list[dict[str, Any]] = []
    previous: dict[str, Any] = {}
    for index, view in enumerate(views):
        piles = view["piles"]
        changed = {name: pile for name, pile in piles.items() if previous.get(name) != pile}
        steps.append(
            {
                "move": moves[index - 1] if index else None,
                "piles": changed,
                "outcome": view["outcome"],
            }
        )
        previous = piles
    rules = game.rules
    return {
        "game": game.name,
        "title": rules.title,
        "options": dict(rules.options),
        "options_text": rules.options_text(),
        "deal": rec.deal,
        "players": rec.players,
        "result": rec.result,
        "reason": rec.reason,
        "steps": steps,
    }


def create_app(
    db_path: str | Path,
    *,
    deal_picker: DealPicker | None = None,
    hinter: Hinter | None = None,
    rules_dirs: Sequence[Traversable] | None = None,
    creations_per_minute: int | None = CREATIONS_PER_MINUTE,
    hints_at_once: int = HINTS_AT_ONCE,
    allowed_origins: Sequence[str] = (),
    allowed_hosts: Sequence[str] | None = None,
    worker_processes: bool = True,
    password_hasher: PasswordHasher | None = None,
    password_tries_per_minute: int | None = PASSWORD_TRIES_PER_MINUTE,
    sessions_per_minute: int | None = SESSIONS_PER_MINUTE,
    sockets_per_client: int | None = SOCKETS_PER_CLIENT,
    hold_limit: float = HOLD_LIMIT,
) -> Starlette:
    """The web app with its store at ``db_path`` (``":memory:"`` for tests).

    ``deal_picker`` and ``hinter`` are the hooks for the solver: the first chooses deal numbers
    (and makes "winnable deals only" possible), the second answers ``/api/tables/{id}/hint``.
    ``rules_dirs`` are the folders searched for ``GAME.md`` rules files (by default the
    package's, then the repository's ``docs/rules``). ``creations_per_minute`` bounds the
    tables one client address may create in a minute (None: no bound, for benchmarks);
    ``hints_at_once`` the hints worked out at the same time (:class:`HintGate`).
    ``allowed_origins`` are the origins (``https://example.org``) besides the server's own
    whose pages may open its websockets (:class:`OriginCheck`); ``allowed_hosts`` the names a
    request's ``Host`` may give (None: any), so that a page of another site whose name was
    made to point at this server (DNS rebinding) gets a 400, not our origin.
    ``worker_processes`` runs the work that holds the interpreter lock (bots' thinking, hints,
    replaying records) in processes of its own (server/pools.py); ``False`` keeps it in
    threads, for hooks that cannot be pickled (tests' stand-ins).
    ``password_hasher`` hashes the passwords of claimed names (argon2's defaults; tests give
    a cheaper one); ``password_tries_per_minute`` bounds the logins and claims one address
    may try in a minute (None: no bound), ``sessions_per_minute`` the new sessions stored for
    one address in a minute and ``sockets_per_client`` the websockets one address may hold
    open (None: no bound, for benchmarks whose every client is one address).
    ``hold_limit`` is the longest a shared table waits at the end of a deal for its people to
    go on (seconds; tests give a short one).
    """
    origins = checked_origins(allowed_origins)  # a bad one refused before anything opens
    store = Store(db_path)
    limit = CreationLimit(creations_per_minute)
    service = TableService(
        store,
        deal_picker=deal_picker,
        hinter=hinter,
        hints_at_once=hints_at_once,
        worker_processes=worker_processes,
        sockets_per_client=sockets_per_client,
        hold_limit=hold_limit,
    )
    sessions = Sessions(
        store,
        service,
        hasher=password_hasher,
        tries_per_minute=password_tries_per_minute,
        sessions_per_minute=sessions_per_minute,
    )
    rules_book = RulesBook(rules_dirs)

    # -- who is asking (server/sessions.py); the cookies go out with the response

    def remember(connection: HTTPConnection, visitor: Visitor) -> Visitor:
        """Keep the request's visitor; a new session token goes to the browser."""
        if connection.cookies.get(SESSION_COOKIE) != visitor.token or visitor.renew:
            queue_cookie(connection, SESSION_COOKIE, visitor.token, max_age=SESSION_MAX_AGE)
        connection.scope[_VISITOR] = visitor
        return visitor

    async def visitor_of(connection: HTTPConnection) -> Visitor:
        """The request's visitor, from the session cookie. A browser that still has the name
        cookie of the days before sessions takes over that name's tables, and loses that
        cookie (HTTP only: a websocket cannot delete a cookie)."""
        known = connection.scope.get(_VISITOR)
        if isinstance(known, Visitor):
            return known
        visitor = await sessions.visitor(
            connection.cookies.get(SESSION_COOKIE),
            client_address(connection),
            # Only a response renews the cookie: a websocket's visit is not noted as seen.
            seen=connection.scope["type"] == "http",
        )
        old = connection.cookies.get(OLD_COOKIE)
        if old is not None and connection.scope["type"] == "http":
            with contextlib.suppress(UnicodeDecodeError):  # a cookie that is not UTF-8: none
                visitor = await sessions.take_old_name(visitor, unquote(old, errors="strict"))
            queue_cookie(connection, OLD_COOKIE)
        return remember(connection, visitor)

    async def owner_of(connection: HTTPConnection) -> Visitor:
        """The visitor, with a stored session: before he owns something."""
        return remember(connection, await sessions.owner(await visitor_of(connection)))

    async def viewer(request: HTTPConnection) -> tuple[Table, int | None]:
        visitor = await visitor_of(request)
        return await service.enter(request.path_params["table_id"], visitor.account_id)

    async def seated(request: HTTPConnection) -> tuple[Table, int]:
        table, seat = await viewer(request)
        if seat is None:
            raise CommandError(403, "join a seat (or resume yours with its token) to play")
        return table, seat

    # -- pages

    async def page(request: Request) -> Response:
        await visitor_of(request)  # a new browser gets its session cookie with the page
        return page_response("index.html")

    async def shared_page(request: Request) -> Response:
        await visitor_of(request)
        return page_response("tables.html")

    def table_page(private: bool, filename: str, other: str) -> Any:
        """A table's page; the link of the other kind of table (``/table/ID`` of a one-player
        table, ``/play/ID`` of a shared one) redirects to the table's own page, so that either
        link of any table works. An unknown table gets the page, which says so."""

        async def show(request: Request) -> Response:
            table_id = request.path_params["table_id"]
            visitor = await visitor_of(request)
            try:
                table, _ = await service.enter(table_id, visitor.account_id)
            except CommandError:  # none, or another's private table: the same answer
                return page_response(filename, status_code=404)
            if table.settings.private != private:
                return RedirectResponse(f"{other}/{quote(table_id)}", status_code=307)
            return page_response(filename)

        return show

    # -- players, games, lists

    async def games(request: Request) -> Response:
        return JSONResponse(catalogue(deal_picker))

    async def shared_games(request: Request) -> Response:
        return JSONResponse(shared_catalogue())

    async def get_player(request: Request) -> Response:
        return JSONResponse((await visitor_of(request)).to_json())

    async def set_player(request: Request) -> Response:
        data = await read_json(request)
        visitor = await sessions.set_player(await visitor_of(request), data)
        return JSONResponse(remember(request, visitor).to_json())

    async def claim(request: Request) -> Response:
        data = await read_json(request)
        visitor = await sessions.claim(request, await visitor_of(request), data)
        return JSONResponse(remember(request, visitor).to_json())

    async def login(request: Request) -> Response:
        data = await read_json(request)
        visitor = await sessions.login(request, await visitor_of(request), data)
        return JSONResponse(remember(request, visitor).to_json())

    async def logout(request: Request) -> Response:
        visitor = await sessions.logout(await visitor_of(request))
        return JSONResponse(remember(request, visitor).to_json())

    async def list_tables(request: Request) -> Response:
        ongoing = request.query_params.get("ongoing") in {"1", "true", "yes"}
        visitor = await visitor_of(request)
        return JSONResponse(await service.tables_of(visitor.account_id, ongoing=ongoing))

    async def list_shared(request: Request) -> Response:
        visitor = await visitor_of(request)
        return JSONResponse(await service.shared_tables(visitor.account_id))

    async def lobby(request: Request) -> Response:
        return JSONResponse(await service.lobby())

    async def stats(request: Request) -> Response:
        visitor = await visitor_of(request)
        return JSONResponse(await sessions.stats(visitor, request.query_params.get("player")))

    async def rules(request: Request) -> Response:
        return JSONResponse({"html": rules_book.html(request.path_params["game"])})

    async def replay(request: Request) -> Response:
        body = await read_body(request, MAX_RECORD, "a record file")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise CommandError(400, "a record file is UTF-8 text (the text or JSON form)") from None
        if not text.strip():
            raise CommandError(400, "the record file is empty")
        visitor = await visitor_of(request)
        steps = await service.run("replay", visitor.quota, replay_steps, text)
        return JSONResponse(steps)

    # -- creating tables

    async def create_table(request: Request) -> Response:
        data = await read_json(request)
        if not isinstance(data, dict):
            raise CommandError(400, 'send {"game": "...", "options": {...}, "deal": N or null}')
        limit.check(request)
        visitor = await owner_of(request)
        assert visitor.account is not None
        table = await service.create(
            solo_request(
                data.get("game"),
                data.get("options"),
                data.get("deal"),
                visitor.name,
                owner=visitor.account.id,
                winnable=data.get("winnable") is True,
                grade=data.get("grade"),
            ),
            client=visitor.quota,
        )
        return JSONResponse(service.state(table, 0, Dialect.TABLES), status_code=201)

    async def new_deal(request: Request) -> Response:
        data = await read_json(request)
        if not isinstance(data, dict):
            raise CommandError(
                400, 'send {} or {"deal": N or null, "winnable": true or false, "grade": ...}'
            )
        table, _ = await seated(request)
        limit.check(request)
        visitor = await owner_of(request)
        assert visitor.account is not None
        fresh = await service.create(
            solo_request(
                table.game.name,
                table.game.options,
                data.get("deal"),
                visitor.name,
                owner=visitor.account.id,
                winnable=data.get("winnable") is True,
                grade=data.get("grade"),
            ),
            client=visitor.quota,
        )
        return JSONResponse(service.state(fresh, 0, Dialect.TABLES), status_code=201)

    async def create_shared(request: Request) -> Response:
        data = await read_json(request)
        new = shared_request(data)  # refused before anything is counted or stored
        limit.check(request)
        visitor = await owner_of(request)
        table = await service.create(replace(new, owner=visitor.account_id))
        body = {
            "table": table.id,
            "url": f"/table/{table.id}",
            "state": service.state(table, None, Dialect.SHARED),
        }
        return JSONResponse(body, status_code=201)

    # -- one table

    def looking(dialect: Dialect) -> Any:
        async def look(request: Request) -> Response:
            table, seat = await viewer(request)
            await service.ready(table)
            return JSONResponse(service.state(table, seat, dialect))

        return look

    async def run_command(request: Request, data: object) -> Response:
        table, seat = await seated(request)
        try:
            await service.command(table, seat, data)
        except CommandError as error:
            # The table as it now stands (rebuilt from the store if the store refused).
            state = service.state(table, seat, Dialect.TABLES)
            return JSONResponse(error_json(error, state), status_code=error.status)
        return JSONResponse(service.state(table, seat, Dialect.TABLES))

    async def command(request: Request) -> Response:
        return await run_command(request, await read_json(request))

    async def autofinish(request: Request) -> Response:
        data = await read_json(request)
        if not isinstance(data, dict):
            raise CommandError(400, 'send {} or {"events": N}')
        return await run_command(request, {**data, "command": "autofinish"})

    async def download_record(request: Request) -> Response:
        table, _ = await viewer(request)
        text, filename, media = service.record(table, request.query_params.get("format", "text"))
        return PlainTextResponse(
            text,
            media_type=media,
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    async def hint(request: Request) -> Response:
        table, _ = await seated(request)
        visitor = await visitor_of(request)
        return JSONResponse(await service.hint(table, visitor.quota))

    # -- websockets: one loop, two dialects

    async def serve_socket(socket: WebSocket, dialect: Dialect) -> None:
        """The service's loop; if it fails (the store could not read a table), the client is
        told why, in an error message and the close frame's reason, never just dropped."""
        try:
            visitor = await visitor_of(socket)
            await service.serve(
                socket,
                socket.path_params["table_id"],
                dialect,
                visitor.account_id,
                client_address(socket),
            )
        except Exception as error:
            log.exception("websocket of table %s failed", socket.path_params["table_id"])
            failed = failure(error)
            # Bounded like every send: a client that does not read cannot hold this either.
            with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError, TimeoutError):
                async with asyncio.timeout(service.send_timeout):
                    if socket.application_state == WebSocketState.CONNECTING:
                        await socket.accept()
                    await socket.send_json({"type": "error", **error_json(failed)})
                    # 1011: the server met a condition that stopped it (RFC 6455); a reason has
                    # at most 123 bytes.
                    reason = failed.message.encode("utf-8")[:120].decode("utf-8", "ignore")
                    await socket.close(code=1011, reason=reason)

    async def table_socket(socket: WebSocket) -> None:
        await serve_socket(socket, Dialect.TABLES)

    async def shared_socket(socket: WebSocket) -> None:
        await serve_socket(socket, Dialect.SHARED)

    async def command_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, CommandError)
        return JSONResponse(error_json(exc), status_code=exc.status)

    async def store_error(request: Request, exc: Exception) -> Response:
        # The store failed (disk full, read-only file): the one error shape, 503.
        log.error("the store failed on %s %s: %s", request.method, request.url.path, exc)
        failed = failure(exc)
        return JSONResponse(error_json(failed), status_code=failed.status)

    async def server_error(request: Request, exc: Exception) -> Response:
        # Starlette's last resort, outside the middleware: the headers are set here (Starlette
        # logs the exception).
        failed = failure(exc)
        return JSONResponse(error_json(failed), status_code=failed.status, headers=SECURITY_HEADERS)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        # Sessions unused for a year go when the server starts, and every day after.
        expiry = asyncio.get_running_loop().create_task(sessions.expire_regularly())
        yield
        expiry.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await expiry
        service.close()
        store.close()

    routes = [
        # pages
        Route("/", page),
        Route("/play/{table_id}", table_page(True, "index.html", "/table")),
        Route("/stats", page),
        Route("/replay", page),
        Route("/tables", shared_page),
        Route("/table/{table_id}", table_page(False, "tables.html", "/play")),
        # players, games, statistics, rules, replays
        Route("/api/games", games),
        Route("/api/shared/games", shared_games, methods=["GET"]),
        Route("/api/player", get_player, methods=["GET"]),
        Route("/api/player", set_player, methods=["POST"]),
        Route("/api/player/claim", claim, methods=["POST"]),
        Route("/api/player/login", login, methods=["POST"]),
        Route("/api/player/logout", logout, methods=["POST"]),
        Route("/api/stats", stats),
        Route("/api/lobby", lobby),
        Route("/api/rules/{game}", rules, methods=["GET"]),
        Route("/api/replay", replay, methods=["POST"]),
        # tables
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/shared", create_shared, methods=["POST"]),
        Route("/api/shared", list_shared, methods=["GET"]),
        Route("/api/tables/{table_id}", looking(Dialect.TABLES), methods=["GET"]),
        Route("/api/shared/{table_id}", looking(Dialect.SHARED), methods=["GET"]),
        Route("/api/tables/{table_id}", command, methods=["POST"]),
        Route("/api/tables/{table_id}/autofinish", autofinish, methods=["POST"]),
        Route("/api/tables/{table_id}/new", new_deal, methods=["POST"]),
        Route("/api/tables/{table_id}/record", download_record, methods=["GET"]),
        Route("/api/shared/{table_id}/record", download_record, methods=["GET"]),
        Route("/api/tables/{table_id}/hint", hint, methods=["GET"]),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        WebSocketRoute("/ws/shared/{table_id}", shared_socket),
        Mount(
            "/static",
            PageFiles(directory=WEB_DIR, allowed=page_files(WEB_DIR, PAGES)),
            name="static",
        ),
    ]
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(SecurityHeaders),
            *(
                [Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))]
                if allowed_hosts is not None
                else []
            ),
            Middleware(OriginCheck, allowed=origins),
            Middleware(CookieJar),
        ],
        exception_handlers={
            CommandError: command_error,
            sqlite3.Error: store_error,
            Exception: server_error,
        },
        lifespan=lifespan,
    )
    app.state.store = store
    app.state.service = service
    app.state.sessions = sessions
    app.state.hint_gate = service.hint_gate
    return app
