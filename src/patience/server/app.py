"""The Starlette application: pages, the JSON API over HTTP, and the same protocol over websockets.

HTTP (every answer is JSON; errors are ``{"error": "..."}`` with a fitting status):

* ``GET /api/games``: the games, their summaries, options and how winnable deals are dealt;
* ``GET /api/player``, ``POST /api/player {"name"}``: who is playing (a cookie holds the name);
* ``POST /api/tables {"game", "options", "deal"}``: a new table (``deal`` null: a random deal);
* ``GET /api/tables``: the player's tables, latest first (``?ongoing=1``: unfinished ones);
* ``GET /api/tables/{id}``: the table's state for the player's seat;
* ``POST /api/tables/{id} {"command", "move", "events"}``: a command (docs/web.md);
* ``POST /api/tables/{id}/autofinish {"events"}``: the foundation moves that win, one by one;
* ``POST /api/tables/{id}/new {"deal"}``: a new table of the same game and options;
* ``GET /api/tables/{id}/record?format=text|json``: the record, as a download;
* ``GET /api/stats?player=NAME``: statistics per game and options (the cookie's player by
  default);
* ``GET /api/rules/{game}``: the game's rules as HTML, ``{"html": ...}`` (404 if unknown);
* ``POST /api/replay`` (a record file as the body): the record checked, and its views step by step.

Websocket ``/ws/tables/{id}``: the server sends ``{"type": "state", "state": ...}`` on connecting
and to every connection of the table after each change; a client sends commands (the same JSON as
the HTTP command) and gets ``{"type": "error", "status", "error"}`` when one is refused. This is
where tables of several players (one connection per seat, each sent its own view) plug in.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import record
from ..engine import Game
from ..store import Store, StoreError, valid_player_name
from ..web import WEB_DIR
from .http import (
    CREATIONS_PER_MINUTE,
    MAX_BODY,
    MAX_FRAME,
    CreationLimit,
    page_response,
    read_json,
    read_message,
)
from .rules import RulesBook
from .shared import shared_routes
from .tables import (
    CommandError,
    DealPicker,
    Table,
    Tables,
    catalogue,
    full_options,
    variant_title,
)

__all__ = [
    "COOKIE",
    "DEFAULT_PLAYER",
    "HINTS_AT_ONCE",
    "MAX_BODY",
    "MAX_FRAME",
    "WEB_DIR",
    "HintGate",
    "create_app",
]

#: The cookie that holds the player's name.
COOKIE = "patience_player"
#: The player of a browser that has not chosen a name.
DEFAULT_PLAYER = "guest"
#: The largest record file accepted for a replay, in bytes.
MAX_RECORD = 512 * 1024
#: The most moves a replayed record may have (every step's view goes to the page).
MAX_REPLAY_MOVES = 5000

#: A hint for a table's current position; the hook for the solver's honest hint.
Hinter = Callable[[Game], dict[str, Any]]

#: Hints worked out at once, over every table. The solver spends about 2 s of one core on a
#: hint; beyond this a hint request is refused (503) rather than queued, so that a burst of
#: requests cannot take every core from the games being played.
HINTS_AT_ONCE = 2


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


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def player_of(connection: HTTPConnection) -> str:
    """The player named by the cookie, or :data:`DEFAULT_PLAYER` (a bad cookie counts as none).

    The cookie is decoded strictly: percent-escapes that are not UTF-8 (``%ff%fe``) make it a
    bad cookie, never a player named with replacement characters."""
    raw = connection.cookies.get(COOKIE)
    if raw:
        try:
            return valid_player_name(unquote(raw, errors="strict"))
        except (StoreError, UnicodeDecodeError):
            pass
    return DEFAULT_PLAYER


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
        rec, game = record.load_record(text)
    except record.RecordError as error:
        raise CommandError(422, f"this record cannot be replayed: {error}") from None
    except ValueError as error:  # a bad option or deal met while replaying
        raise CommandError(422, f"this record cannot be replayed: {error}") from None
    if game.rules.players != 1:
        raise CommandError(
            422,
            f"{game.name} is played by {game.rules.players}: replays here are of one-player games",
        )
    if len(game.move_stack) > MAX_REPLAY_MOVES:
        raise CommandError(
            422,
            f"this record has {len(game.move_stack)} moves; a replay has at most "
            f"{MAX_REPLAY_MOVES}",
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


class Hub:
    """The websocket connections of each table, and which seat each one holds."""

    def __init__(self) -> None:
        self._rooms: dict[str, dict[WebSocket, int]] = {}

    def join(self, table_id: str, socket: WebSocket, seat: int) -> None:
        """Add a connection to a table's room."""
        self._rooms.setdefault(table_id, {})[socket] = seat

    def leave(self, table_id: str, socket: WebSocket) -> None:
        """Remove a connection from a table's room."""
        room = self._rooms.get(table_id, {})
        room.pop(socket, None)
        if not room:
            self._rooms.pop(table_id, None)

    async def broadcast(self, table: Table) -> None:
        """Send every connection of the table its own seat's state."""
        for socket, seat in list(self._rooms.get(table.id, {}).items()):
            try:
                await socket.send_json({"type": "state", "state": table.state(seat)})
            except (RuntimeError, WebSocketDisconnect):
                self.leave(table.id, socket)


def create_app(
    db_path: str | Path,
    *,
    deal_picker: DealPicker | None = None,
    hinter: Hinter | None = None,
    rules_dirs: Sequence[Traversable] | None = None,
    creations_per_minute: int | None = CREATIONS_PER_MINUTE,
    hints_at_once: int = HINTS_AT_ONCE,
) -> Starlette:
    """The web app with its store at ``db_path`` (``":memory:"`` for tests).

    ``deal_picker`` and ``hinter`` are the hooks for the solver: the first chooses deal numbers
    (and makes "winnable deals only" possible), the second answers ``/api/tables/{id}/hint``.
    ``rules_dirs`` are the folders searched for ``GAME.md`` rules files (by default the
    package's, then the repository's ``docs/rules``). ``creations_per_minute`` bounds the
    tables one client address may create in a minute (None: no bound, for benchmarks);
    ``hints_at_once`` the hints worked out at the same time (:class:`HintGate`).
    """
    store = Store(db_path)
    limit = CreationLimit(creations_per_minute)
    tables = Tables(store, deal_picker)
    hub = Hub()
    rules_book = RulesBook(rules_dirs)
    hint_gate = HintGate(hints_at_once)

    async def page(request: Request) -> Response:
        return page_response("index.html")

    async def games(request: Request) -> Response:
        return JSONResponse(catalogue(deal_picker))

    async def get_player(request: Request) -> Response:
        return JSONResponse({"name": player_of(request)})

    async def set_player(request: Request) -> Response:
        data = await read_json(request)
        if not isinstance(data, dict):
            raise CommandError(400, 'send {"name": "..."}')
        try:
            name = valid_player_name(data.get("name"))
        except StoreError as error:
            raise CommandError(400, str(error)) from None
        store.player_id(name)
        response = JSONResponse({"name": name})
        response.set_cookie(
            COOKIE, quote(name), max_age=10 * 365 * 24 * 3600, httponly=True, samesite="strict"
        )
        return response

    async def create_table(request: Request) -> Response:
        data = await read_json(request)
        if not isinstance(data, dict):
            raise CommandError(400, 'send {"game": "...", "options": {...}, "deal": N or null}')
        limit.check(request)
        # The deal picker may solve deals on demand ("winnable deals only"): off the event loop.
        table = await asyncio.to_thread(
            tables.create,
            data.get("game"),
            data.get("options"),
            data.get("deal"),
            player_of(request),
            winnable=data.get("winnable") is True,
        )
        return JSONResponse(table.state(0), status_code=201)

    async def list_tables(request: Request) -> Response:
        ongoing = request.query_params.get("ongoing") in {"1", "true", "yes"}
        rows = store.tables_of(player_of(request), ongoing=ongoing)
        return JSONResponse(
            [
                {
                    "table": row.id,
                    "game": row.game,
                    "title": variant_title(row.game, row.options),
                    "options": row.options,
                    "deal": row.deal,
                    "moves": row.moves,
                    "result": row.result,
                    "updated": row.updated,
                }
                for row in rows
            ]
        )

    def seated(request: Request) -> tuple[Table, int]:
        table = tables.get(request.path_params["table_id"])
        return table, table.seat_of(player_of(request))

    async def get_table(request: Request) -> Response:
        table, seat = seated(request)
        return JSONResponse(table.state(seat))

    async def command(request: Request) -> Response:
        data = await read_json(request)
        table, seat = seated(request)
        async with table.lock:
            try:
                tables.command(table, seat, data)
            except CommandError as error:
                # The table as it now stands (rebuilt from the store if the store refused).
                current = tables.get(table.id)
                body = {"error": error.message, "state": current.state(seat)}
                return JSONResponse(body, status_code=error.status)
        await hub.broadcast(table)
        return JSONResponse(table.state(seat))

    async def autofinish(request: Request) -> Response:
        data = await read_json(request)
        table, seat = seated(request)
        async with table.lock:
            try:
                tables.autofinish(table, seat, data)
            except CommandError as error:
                current = tables.get(table.id)
                body = {"error": error.message, "state": current.state(seat)}
                # Some moves may be stored already if the store refused one midway.
                await hub.broadcast(current)
                return JSONResponse(body, status_code=error.status)
        await hub.broadcast(table)
        return JSONResponse(table.state(seat))

    async def new_deal(request: Request) -> Response:
        data = await read_json(request)
        if not isinstance(data, dict):
            raise CommandError(400, 'send {} or {"deal": N or null, "winnable": true or false}')
        table, _ = seated(request)
        limit.check(request)
        deal = data.get("deal")
        winnable = data.get("winnable") is True
        fresh = await asyncio.to_thread(
            tables.create,
            table.game.name,
            table.game.options,
            deal,
            player_of(request),
            winnable=winnable,
        )
        return JSONResponse(fresh.state(0), status_code=201)

    async def download_record(request: Request) -> Response:
        table, _ = seated(request)
        form = request.query_params.get("format", "text")
        if form not in {"text", "json"}:
            raise CommandError(400, "format is text or json")
        players = [name or DEFAULT_PLAYER for name in table.seats]
        text = record.dumps(table.game, form, players=players)
        suffix = "json" if form == "json" else "rec"
        filename = f"{table.game.name}-{table.game.deal}-{table.id}.{suffix}"
        return PlainTextResponse(
            text,
            media_type="application/json" if form == "json" else "text/plain",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    async def hint(request: Request) -> Response:
        table, _ = seated(request)
        if hinter is None:
            raise CommandError(501, "hints come with the solver, which this server does not have")
        # The solver works on a copy, in a worker thread: the table goes on taking commands.
        snapshot = copy.deepcopy(table.game)
        try:
            answer = await hint_gate.run(table.id, hinter, snapshot)
        except CommandError:
            raise
        except Exception as error:  # the solver's failure must not take the server down
            raise CommandError(500, f"the hint failed: {error}") from None
        return JSONResponse(answer)

    async def replay(request: Request) -> Response:
        body = await read_body(request, MAX_RECORD, "a record file")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise CommandError(400, "a record file is UTF-8 text (the text or JSON form)") from None
        if not text.strip():
            raise CommandError(400, "the record file is empty")
        return JSONResponse(await run_in_threadpool(replay_steps, text))

    async def stats(request: Request) -> Response:
        name = request.query_params.get("player") or player_of(request)
        try:
            name = valid_player_name(name)
        except StoreError as error:
            raise CommandError(400, str(error)) from None
        # One entry per game and options, named by its title ("Spider, 1 suit").
        entries = [
            {**entry.to_json(), "title": variant_title(entry.game, entry.options)}
            for entry in store.stats(name, full_options)
        ]
        entries.sort(key=lambda entry: (entry["game"], entry["title"]))
        return JSONResponse({"player": name, "games": entries})

    async def rules(request: Request) -> Response:
        return JSONResponse({"html": rules_book.html(request.path_params["game"])})

    async def table_socket(socket: WebSocket) -> None:
        await socket.accept()
        try:
            table = tables.get(socket.path_params["table_id"])
            seat = table.seat_of(player_of(socket))
        except CommandError as error:
            await socket.send_json(
                {"type": "error", "status": error.status, "error": error.message}
            )
            await socket.close(code=4000 + error.status)
            return
        hub.join(table.id, socket, seat)
        try:
            await socket.send_json({"type": "state", "state": table.state(seat)})
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                try:
                    data = read_message(message.get("text"))
                    # The table may have been rebuilt from the store since this socket joined.
                    table = tables.get(table.id)
                    async with table.lock:
                        tables.command(table, seat, data)
                except CommandError as error:
                    await socket.send_json(
                        {"type": "error", "status": error.status, "error": error.message}
                    )
                    continue
                await hub.broadcast(table)
        except WebSocketDisconnect:
            pass
        finally:
            hub.leave(table.id, socket)

    async def command_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, CommandError)
        return _error(exc.status, exc.message)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        yield
        hint_gate.close()
        store.close()

    routes = [
        Route("/", page),
        Route("/play/{table_id}", page),
        Route("/stats", page),
        Route("/replay", page),
        Route("/api/games", games),
        Route("/api/player", get_player, methods=["GET"]),
        Route("/api/player", set_player, methods=["POST"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{table_id}", get_table, methods=["GET"]),
        Route("/api/tables/{table_id}", command, methods=["POST"]),
        Route("/api/tables/{table_id}/autofinish", autofinish, methods=["POST"]),
        Route("/api/tables/{table_id}/new", new_deal, methods=["POST"]),
        Route("/api/tables/{table_id}/record", download_record, methods=["GET"]),
        Route("/api/tables/{table_id}/hint", hint, methods=["GET"]),
        Route("/api/stats", stats),
        Route("/api/rules/{game}", rules, methods=["GET"]),
        Route("/api/replay", replay, methods=["POST"]),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        *shared_routes(store, limit),  # tables of several players (server/shared.py)
        Mount("/static", StaticFiles(directory=WEB_DIR), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={CommandError: command_error},
        lifespan=lifespan,
    )
    app.state.store = store
    app.state.tables = tables
    app.state.hint_gate = hint_gate
    return app
