"""Tables of several players (Leopard, Double Solitaire): people and bots over websockets.

A *shared table* is created with its game, options and seats (a bot's name, or ``open``). Its
link (``/table/ID``) is shared; a person joins an open seat over the table's websocket and gets a
secret *seat token*, which the browser keeps and sends again to get the seat back after a reload
or a lost connection. The store keeps only the token's SHA-256.

The server holds the game and checks every move: a seat may act only through a connection that
joined or resumed it, only on its turn, and only on the table it has seen (``seq``, the number of
stored moves). Every connection is sent its own seat's view (``Game.view(seat)``) after each
change; a spectator gets the public view (no hand, no face-down card, no deal number before the
end). Each move is stored before anybody is told of it.

Bots play their seats, and stand in for a person whose connections have all been gone longer than
the table's ``absence`` (seconds, 120 by default); the seat is his again as soon as he returns.
A bot thinks in a worker thread (``asyncio.to_thread``) on a copy of its seat's view, so the
server keeps answering while it does; a move it finds after the table has changed is dropped.

Protocol (websocket ``/ws/shared/ID``; every message is a JSON object, at most 16 KiB):

* server to client: ``{"type": "state", ...}`` (see :meth:`SharedTables.state`), ``{"type":
  "joined", "seat", "token"}`` and ``{"type": "error", "status", "error"}`` (400 malformed, 403
  wrong token or no seat, 404 no such table, 409 stale or not yet possible, 413 too large, 422
  against the rules or out of turn); a refused message changes nothing.
* client to server: ``{"type": "join", "seat": N, "name": "Ann"}``, ``{"type": "resume",
  "token": "..."}``, ``{"type": "move", "move": MOVE, "seq": N}`` (the move in text or JSON
  form, ``seq`` the ``seq`` of the last state seen).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .. import record
from ..bots import BOTS, Bot
from ..bots import get as get_bot
from ..cards import Card, CardError
from ..deals import check_deal
from ..engine import Game, IllegalMove, Rules
from ..games import GAMES, get_rules, resolve_name
from ..moves import Move, MoveSyntaxError
from ..store import SharedSeat, Store, StoreError, valid_player_name
from .http import CreationLimit, page_response, read_json, read_message
from .tables import CommandError, game_entry

__all__ = [
    "DEFAULT_ABSENCE",
    "MAX_ABSENCE",
    "SharedTable",
    "SharedTables",
    "shared_catalogue",
    "shared_games",
    "shared_routes",
    "table_heading",
    "token_hash",
]

log = logging.getLogger(__name__)

#: Seconds a person may be gone before a bot plays his seat.
DEFAULT_ABSENCE = 120.0
#: The longest absence a table may set (a day).
MAX_ABSENCE = 24 * 3600.0
#: The bot that stands in for an absent person, unless the table chooses another.
DEFAULT_STAND_IN = "greedy"
#: Seconds before a bot whose move failed is asked again.
BOT_RETRY = 1.0
#: Tables held in memory before the idle ones (nobody connected, no bot moving) are forgotten
#: when another is created or rebuilt; the store keeps them all.
MAX_TABLES_IN_MEMORY = 1000
#: What a seat may be at creation besides a bot's name.
OPEN_SEATS = ("open", "human")


def token_hash(token: str) -> str:
    """The SHA-256 of a seat token, as stored (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def shared_games() -> list[str]:
    """The games of several players: the ones shared tables deal."""
    return [name for name, rules in GAMES.items() if rules().players > 1]


#: What the create form calls each option (its key, as the API takes it, is shown beside).
OPTION_LABELS: dict[str, dict[str, str]] = {
    "leopard": {"players": "Players", "deals": "Deals in a match", "target": "Target score"},
    "double-solitaire": {
        "passes": "Passes through the stock",
        "auto_stop": "Call stop automatically",
    },
}


def _option_label(game: str, option: str) -> str:
    label = OPTION_LABELS.get(game, {}).get(option)
    return label or option.replace("_", " ").capitalize()


def _shared_entry(name: str) -> dict[str, Any]:
    """A game's catalogue entry, with readable option labels and, for a game whose defaults
    depend on the number of players (Leopard: 6 deals with three), every option's default for
    each number of players (``defaults_by_players``)."""
    entry = game_entry(name)
    for option in entry["options"]:
        option["label"] = _option_label(name, option["name"])
    players = next((o for o in entry["options"] if o["name"] == "players"), None)
    if players is not None:
        entry["defaults_by_players"] = {
            str(count): dict(get_rules(name, {"players": count}).options)
            for count in players["choices"]
        }
    return entry


def shared_catalogue() -> dict[str, Any]:
    """The games of several players with their options, the bots that can take a seat, and
    the absence settings (default and limits) a table may choose."""
    return {
        "games": [_shared_entry(name) for name in shared_games()],
        "bots": [{"name": name, "summary": cls.summary} for name, cls in BOTS.items()],
        "absence": DEFAULT_ABSENCE,
        "max_absence": MAX_ABSENCE,
        "stand_in": DEFAULT_STAND_IN,
    }


def _plural(count: object, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def table_heading(rules: Rules[Any]) -> str:
    """A table's game and options as a person reads them: "Leopard · 4 players · 8 deals a
    match", "Double Solitaire · 1 pass through the stock · automatic stop"."""
    options = rules.options
    parts = [rules.title]
    if rules.name == "leopard":
        parts.append(f"{options['players']} players")
        if options["deals"] != "off":
            parts.append(f"{_plural(options['deals'], 'deal')} a match")
        if options["target"] != "off":
            parts.append(f"first to {options['target']} points")
    elif rules.name == "double-solitaire":
        parts.append(f"{_plural(options['passes'], 'pass', 'passes')} through the stock")
        parts.append("automatic stop" if options["auto_stop"] else "stop called by the players")
    else:
        parts.extend(f"{_option_label(rules.name, key)} {value}" for key, value in options.items())
    return " · ".join(parts)


@dataclass
class Seat:
    """A seat at a shared table: who sits there and, for a person, his live connections."""

    index: int
    bot: str | None = None
    guest: str | None = None
    token_hash: str | None = None
    sockets: set[WebSocket] = field(default_factory=set, repr=False)
    #: When the last connection of a person who joined went away (None while connected).
    absent_since: float | None = None

    @property
    def kind(self) -> str:
        """``bot``, ``person`` (somebody joined it) or ``open``."""
        if self.bot is not None:
            return "bot"
        return "person" if self.token_hash is not None else "open"


@dataclass
class SharedTable:
    """A shared table in memory: its game, seats, settings and connections."""

    id: str
    game: Game
    seats: list[Seat]
    absence: float
    stand_in: str
    deal_chosen: bool
    created: float
    events: int
    finished: float | None = None
    #: The bots' seed: seat ``i``'s bot is seeded ``"SEED:i"`` (as ``patience match`` does).
    seed: str = ""
    #: The last move made and its seat (shown to everybody, hidden cards blanked).
    last: tuple[int, Move] | None = None
    watchers: set[WebSocket] = field(default_factory=set, repr=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    bots: dict[int, Bot] = field(default_factory=dict, repr=False)
    bot_task: asyncio.Task[None] | None = field(default=None, repr=False)
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)

    @property
    def waiting(self) -> bool:
        """True while a seat is open: play starts when every seat is taken."""
        return any(seat.kind == "open" for seat in self.seats)

    def bot_for(self, seat: int) -> Bot:
        """The bot that plays ``seat`` (its own bot, or the stand-in), made once per seat."""
        bot = self.bots.get(seat)
        if bot is None:
            name = self.seats[seat].bot or self.stand_in
            bot = self.bots[seat] = get_bot(name, seed=f"{self.seed or self.id}:{seat}")
        return bot

    def stood_in(self, seat: Seat, now: float) -> bool:
        """True when a bot plays for the person of ``seat`` (gone longer than the absence)."""
        return (
            seat.kind == "person"
            and not seat.sockets
            and seat.absent_since is not None
            and now - seat.absent_since >= self.absence
        )

    def bot_seat(self, now: float) -> int | None:
        """The seat a bot must play now, if any."""
        if self.waiting or self.game.is_over():
            return None
        turn = self.game.current_player()
        seat = self.seats[turn]
        return turn if seat.kind == "bot" or self.stood_in(seat, now) else None

    def seat_of_socket(self, socket: WebSocket) -> int | None:
        """The seat a connection holds, or None for a spectator."""
        for seat in self.seats:
            if socket in seat.sockets:
                return seat.index
        return None

    @property
    def attended(self) -> bool:
        """True while somebody (a person in his seat, or a spectator) is connected."""
        return bool(self.watchers) or any(seat.sockets for seat in self.seats)

    def connections(self) -> list[tuple[WebSocket, int | None]]:
        """Every connection with the seat it holds (None: a spectator)."""
        found: list[tuple[WebSocket, int | None]] = [(s, None) for s in self.watchers]
        for seat in self.seats:
            found.extend((socket, seat.index) for socket in seat.sockets)
        return found


def _view_strings(data: object) -> set[str]:
    """Every string among the values of a view (the cards it shows, and other words)."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, Mapping):
        return {text for value in data.values() for text in _view_strings(value)}
    if isinstance(data, list):
        return {text for value in data for text in _view_strings(value)}
    return set()


def _card_text(text: str) -> str | None:
    """``text`` as a card's canonical text (``Th``), or None if it names no card."""
    try:
        return str(Card.parse(text))
    except CardError:
        return None


def _public_move(
    table: SharedTable, viewer: int | None, view: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The last move as ``viewer`` (whose ``view`` it is) may know it: a face-down Leopard card
    laid by another seat is ``null`` (the view shows only its back). In any other game a card
    the move names is ``null`` to the other seats unless their view shows it now, so that a game
    added later cannot leak a card through its moves."""
    if table.last is None:
        return None
    seat, move = table.last
    data: dict[str, Any] = dict(move.to_json())
    if table.game.name == "leopard":
        face_down = str(move.arg("card"))[:1] in ("J", "Q")
        if move.action == "play" and face_down and viewer != seat:
            data["card"] = None
    elif viewer != seat:
        shown = _view_strings(view)
        for key, value in data.items():
            card = _card_text(value) if isinstance(value, str) and key != "action" else None
            if card is not None and card not in shown:
                data[key] = None
    return {"seat": seat, "move": data}


class SharedTables:
    """Every shared table of a server: created here, kept in memory, rebuilt from the store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._tables: dict[str, SharedTable] = {}

    # -- creating and finding ---------------------------------------------------------------

    def create(self, data: object) -> SharedTable:
        """A new shared table from ``{"game", "options", "seats", "absence", "stand_in",
        "deal", "seed"}`` (a chosen deal and the bots' seed make a table reproducible, for
        tests; both are optional); anything wrong is a :class:`CommandError` (400) saying what
        is allowed."""
        if not isinstance(data, Mapping):
            raise CommandError(400, 'send {"game": ..., "options": {...}, "seats": [...]}')
        name = data.get("game")
        games = shared_games()
        if not isinstance(name, str):
            raise CommandError(400, f"'game' must be one of {', '.join(games)}")
        options = data.get("options") or {}
        if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
            raise CommandError(400, "'options' must be an object of option name -> value")
        try:
            rules = get_rules(resolve_name(name), dict(options))
        except ValueError as error:
            raise CommandError(400, str(error)) from None
        if rules.name not in games:
            raise CommandError(400, f"{rules.name} is played alone: shared tables deal {games}")
        seats_given = data.get("seats")
        if seats_given is None:
            seats_given = ["open"] + [DEFAULT_STAND_IN] * (rules.players - 1)
        if not isinstance(seats_given, list) or len(seats_given) != rules.players:
            raise CommandError(
                400, f"'seats' must list {rules.players} seats: 'open' or a bot's name each"
            )
        seats: list[Seat] = []
        for index, entry in enumerate(seats_given):
            text = entry.strip().lower() if isinstance(entry, str) else ""
            if text in OPEN_SEATS:
                seats.append(Seat(index))
            elif text in BOTS:
                seats.append(Seat(index, bot=text))
            else:
                raise CommandError(
                    400, f"seat {index}: {entry!r} is neither 'open' nor a bot ({', '.join(BOTS)})"
                )
        absence = data.get("absence", DEFAULT_ABSENCE)
        if (
            isinstance(absence, bool)
            or not isinstance(absence, int | float)
            or not 0 < absence <= MAX_ABSENCE
        ):
            raise CommandError(
                400, f"'absence' is a number of seconds, more than 0 and at most {MAX_ABSENCE:g}"
            )
        stand_in = data.get("stand_in", DEFAULT_STAND_IN)
        if not isinstance(stand_in, str) or stand_in.strip().lower() not in BOTS:
            raise CommandError(400, f"'stand_in' is a bot: one of {', '.join(BOTS)}")
        deal = data.get("deal")
        try:
            deal = None if deal is None or deal == "" else check_deal(deal)
        except (TypeError, ValueError) as error:
            raise CommandError(400, f"'deal': {error}") from None
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise CommandError(400, "'seed' (the bots' random seed) is a whole number")
        game = Game.create(rules, deal=deal)
        table_id = secrets.token_urlsafe(12)
        stand_in = stand_in.strip().lower()
        settings = {
            "absence": float(absence),
            "stand_in": stand_in,
            "deal_chosen": deal is not None,
            "seed": "" if seed is None else str(seed),
        }
        self.store.create_shared_table(
            table_id,
            game.name,
            game.options,
            game.deal,
            [SharedSeat(seat.index, seat.bot) for seat in seats],
            settings,
        )
        row = self.store.table(table_id)
        assert row is not None
        table = SharedTable(
            table_id,
            game,
            seats,
            float(absence),
            stand_in,
            deal is not None,
            row.created,
            0,
            seed="" if seed is None else str(seed),
        )
        self._make_room()
        self._tables[table_id] = table
        self.kick(table)
        return table

    def _make_room(self) -> None:
        """Forget idle tables (created but never joined, say) once memory holds too many."""
        if len(self._tables) >= MAX_TABLES_IN_MEMORY:
            for table in list(self._tables.values()):
                self._forget_if_idle(table)

    def get(self, table_id: str) -> SharedTable:
        """The shared table ``table_id``, from memory or rebuilt from the store (404 if none)."""
        table = self._tables.get(table_id)
        if table is not None:
            return table
        settings = self.store.shared_settings(table_id)
        row = self.store.table(table_id) if settings is not None else None
        if settings is None or row is None:
            raise CommandError(404, f"there is no shared table {table_id!r}")
        game = Game.create(get_rules(row.game, row.options), deal=row.deal)
        last: tuple[int, Move] | None = None
        for event in self.store.events(table_id):
            if event.kind == "move" and event.move is not None:
                game.push(Move.parse(event.move))
                last = (event.seat, game.move_stack[-1])
        now = time.time()
        seats = [
            Seat(
                s.seat,
                s.bot,
                s.guest,
                s.token_hash,
                # After a restart, a person has the full absence to come back.
                absent_since=now if s.token_hash is not None else None,
            )
            for s in self.store.shared_seats(table_id)
        ]
        table = SharedTable(
            row.id,
            game,
            seats,
            float(settings.get("absence", DEFAULT_ABSENCE)),
            str(settings.get("stand_in", DEFAULT_STAND_IN)),
            bool(settings.get("deal_chosen", False)),
            row.created,
            row.events,
            row.finished,
            last=last,
            seed=str(settings.get("seed", "")),
        )
        self._make_room()
        self._tables[table_id] = table
        self.kick(table)
        return table

    # -- what each connection is sent ---------------------------------------------------------

    def state(self, table: SharedTable, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) is sent: its view and the table's facts."""
        game = table.game
        if seat is None:
            # Seat -1 holds nothing: every hand and face-down card is hidden, no legal moves.
            view = game.view(-1)
            view["seat"] = None
        else:
            view = game.view(seat)
        now = time.time()
        over = game.is_over()
        return {
            "type": "state",
            "table": table.id,
            "game": game.name,
            "title": game.rules.title,
            "options": game.options,
            "options_text": game.rules.options_text(),
            "heading": table_heading(game.rules),
            "players": game.rules.players,
            "seats": [
                {
                    "seat": s.index,
                    "kind": s.kind,
                    "name": s.bot if s.bot is not None else s.guest,
                    "connected": bool(s.sockets),
                    "stand_in": table.stood_in(s, now),
                }
                for s in table.seats
            ],
            "seat": seat,
            "turn": None if over else game.current_player(),
            "seq": table.events,
            "waiting": table.waiting,
            "absence": table.absence,
            "stand_in": table.stand_in,
            # The deal number gives every hidden card: it is told once the game is over.
            "deal": game.deal if over else None,
            "deal_chosen": table.deal_chosen,
            "last": _public_move(table, seat, view),
            "view": view,
            "outcome": view["outcome"],
        }

    async def broadcast(self, table: SharedTable) -> None:
        """Send every connection of the table its own seat's state."""
        for socket, seat in table.connections():
            await _send(socket, self.state(table, seat))

    # -- messages from a connection -----------------------------------------------------------

    async def handle(self, table: SharedTable, socket: WebSocket, text: str | None) -> None:
        """Act on one message (None: a binary one); a refused one raises :class:`CommandError`
        and changes nothing."""
        data = read_message(text)
        if not isinstance(data, dict):
            raise CommandError(400, 'a message is a JSON object like {"type": "move", ...}')
        kind = data.get("type")
        if kind == "join":
            await self._join(table, socket, data)
        elif kind == "resume":
            await self._resume(table, socket, data)
        elif kind == "move":
            await self._move(table, socket, data)
        else:
            raise CommandError(400, f"unknown message type {kind!r}: use join, resume or move")

    async def _join(self, table: SharedTable, socket: WebSocket, data: dict[str, Any]) -> None:
        if table.seat_of_socket(socket) is not None:
            raise CommandError(409, "this connection holds a seat already")
        index = data.get("seat")
        if isinstance(index, bool) or not isinstance(index, int):
            raise CommandError(400, "'seat' is a seat number")
        if not 0 <= index < len(table.seats):
            raise CommandError(400, f"seats are 0 to {len(table.seats) - 1}")
        try:
            name = valid_player_name(data.get("name"))
        except StoreError as error:
            raise CommandError(400, str(error)) from None
        token = secrets.token_urlsafe(24)
        hashed = token_hash(token)
        async with table.lock:
            seat = table.seats[index]
            if seat.kind != "open":
                raise CommandError(409, f"seat {index} is taken")
            if not await asyncio.to_thread(self.store.claim_seat, table.id, index, name, hashed):
                raise CommandError(409, f"seat {index} is taken")
            seat.guest, seat.token_hash = name, hashed
            self._attach(table, seat, socket)
        await _send(socket, {"type": "joined", "seat": index, "token": token, "name": name})
        await self.broadcast(table)
        self.kick(table)

    async def _resume(self, table: SharedTable, socket: WebSocket, data: dict[str, Any]) -> None:
        token = data.get("token")
        if not isinstance(token, str) or not 0 < len(token) <= 200:
            raise CommandError(400, "'token' is the seat token given when you joined")
        hashed = token_hash(token)
        seat = next(
            (
                s
                for s in table.seats
                if s.token_hash is not None and secrets.compare_digest(s.token_hash, hashed)
            ),
            None,
        )
        if seat is None:
            raise CommandError(403, "no seat of this table has that token")
        held = table.seat_of_socket(socket)
        if held is not None and held != seat.index:
            raise CommandError(409, "this connection holds another seat")
        self._attach(table, seat, socket)
        await _send(socket, {"type": "joined", "seat": seat.index, "name": seat.guest})
        await self.broadcast(table)
        self.kick(table)

    def _attach(self, table: SharedTable, seat: Seat, socket: WebSocket) -> None:
        table.watchers.discard(socket)
        seat.sockets.add(socket)
        seat.absent_since = None

    async def _move(self, table: SharedTable, socket: WebSocket, data: dict[str, Any]) -> None:
        index = table.seat_of_socket(socket)
        if index is None:
            raise CommandError(403, "join a seat (or resume yours with its token) to play")
        move = data.get("move")
        if not isinstance(move, str | dict):
            raise CommandError(400, "'move' is a move's text or JSON form")
        if isinstance(move, str) and len(move) > 200:
            raise CommandError(400, "a move's text has at most 200 characters")
        seq = data.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise CommandError(400, "'seq' is the seq of the last state you saw")
        async with table.lock:
            if seq != table.events:
                raise CommandError(409, "stale: the table has changed since that state")
            if table.waiting:
                raise CommandError(409, "waiting for players: play starts when every seat is taken")
            game = table.game
            if game.is_over():
                raise CommandError(422, "the game is over")
            if game.current_player() != index:
                raise CommandError(422, f"it is not your turn: seat {game.current_player()} plays")
            await self._apply(table, index, move)
        await self.broadcast(table)
        self.kick(table)

    async def _apply(
        self, table: SharedTable, seat: int, move: Move | str | dict[str, Any]
    ) -> None:
        """Make a move for ``seat``, storing it before anybody can see it (lock held)."""
        game = table.game
        try:
            game.push(move)
        except (IllegalMove, MoveSyntaxError) as error:
            raise CommandError(422, str(error)) from None
        made = game.move_stack[-1]
        outcome = game.outcome()
        # Other connections' states are built while the store writes (off the event loop): they
        # must show the table as stored, so the move is taken back until the write is done.
        game.pop()
        try:
            await asyncio.to_thread(
                self.store.append_event,
                table.id,
                table.events,
                seat,
                "move",
                made.text(),
                result=outcome.result,
                reason=outcome.reason,
                moves=len(game.move_stack) + 1,
            )
        except Exception as error:
            raise CommandError(409, f"the move could not be stored: {error}") from None
        game.push(made)
        table.events += 1
        table.last = (seat, made)
        if outcome.is_over:
            table.finished = table.finished or time.time()

    # -- connections coming and going ---------------------------------------------------------

    async def connect(self, table: SharedTable, socket: WebSocket) -> None:
        """A new connection: a spectator until it joins or resumes a seat."""
        table.watchers.add(socket)
        await _send(socket, self.state(table, None))
        # The bots of a table nobody watched were waiting: they play on now.
        self.kick(table)

    async def disconnect(self, table: SharedTable, socket: WebSocket) -> None:
        """A connection went away; a person left without any connection is now absent."""
        table.watchers.discard(socket)
        index = table.seat_of_socket(socket)
        if index is None:
            self._forget_if_idle(table)
            return
        seat = table.seats[index]
        seat.sockets.discard(socket)
        if not seat.sockets:
            seat.absent_since = time.time()
            await self.broadcast(table)
            self.kick(table)
        self._forget_if_idle(table)

    def _forget_if_idle(self, table: SharedTable) -> None:
        # A table nobody is connected to and no bot is moving at leaves memory: the store keeps
        # every move and :meth:`get` rebuilds it when somebody comes (a person absent then
        # gets the whole absence time again, as after a restart). So memory holds only the
        # tables in use, however many are created.
        if not table.connections() and table.bot_task is None:
            if table.timer is not None:
                table.timer.cancel()
                table.timer = None
            self._tables.pop(table.id, None)

    # -- bots ---------------------------------------------------------------------------------

    def kick(self, table: SharedTable) -> None:
        """Let a bot move if one must now; else wake up when an absent person's time is up.
        Bots play only while somebody is connected: a table of bots alone (or one its people
        have all left) waits, so nobody can keep the server busy with tables nobody watches,
        and an idle table can leave memory. :meth:`connect` kicks again."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        if table.bot_task is not None:
            return  # it kicks again when its move is made
        if not table.attended:
            return
        now = time.time()
        if table.bot_seat(now) is not None:
            table.bot_task = asyncio.get_running_loop().create_task(self._bot_move(table))
            return
        if table.waiting or table.game.is_over():
            return
        # Wake when the next absent person's time is up, whether or not it is his turn: a bot
        # plays his seat from then on, and everybody is told so at once.
        due = [
            seat.absent_since + table.absence
            for seat in table.seats
            if seat.kind == "person" and not seat.sockets and seat.absent_since is not None
        ]
        due = [when for when in due if when > now]
        if due:
            delay = min(due) - now + 0.01
            table.timer = asyncio.get_running_loop().call_later(delay, self._wake, table)

    def _wake(self, table: SharedTable) -> None:
        table.timer = None
        self.kick(table)
        # Everybody sees that a bot now plays the absent seat.
        asyncio.get_running_loop().create_task(self.broadcast(table))

    async def _bot_move(self, table: SharedTable) -> None:
        failed = False
        try:
            seat = table.bot_seat(time.time())
            if seat is None:
                return
            seq = table.events
            view = table.game.view(seat)
            move = await asyncio.to_thread(table.bot_for(seat).choose, view)
            async with table.lock:
                # The person came back, the table moved on, or everybody left, while the bot
                # thought.
                if table.events != seq or table.bot_seat(time.time()) != seat or not table.attended:
                    return
                await self._apply(table, seat, move)
            await self.broadcast(table)
        except Exception:  # a bot's failure must not take the table down
            log.exception("bot move failed at table %s", table.id)
            failed = True
        finally:
            table.bot_task = None
            if failed:  # try again later, not in a tight loop
                loop = asyncio.get_running_loop()
                table.timer = loop.call_later(BOT_RETRY, self.kick, table)
            else:
                if not table.game.is_over():
                    self.kick(table)
                self._forget_if_idle(table)

    # -- records ------------------------------------------------------------------------------

    def record(self, table: SharedTable, form: str) -> str:
        """The record of a finished table (it holds every card, so not before the end)."""
        if not table.game.is_over():
            raise CommandError(
                409, "the record holds every card: it is ready when the game is over"
            )
        players = [
            f"{seat.bot} bot" if seat.bot is not None else (seat.guest or "open")
            for seat in table.seats
        ]
        return record.dumps(table.game, form, players=players)


async def _send(socket: WebSocket, message: dict[str, Any]) -> None:
    if socket.application_state != WebSocketState.CONNECTED:
        return
    # A connection that went away is dropped when its receive loop ends.
    with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
        await socket.send_json(message)


def shared_routes(store: Store, limit: CreationLimit | None = None) -> list[BaseRoute]:
    """The routes of shared tables, to add to the app's: pages ``/tables`` (create a table)
    and ``/table/ID``, the HTTP API under ``/api/shared`` and the websocket ``/ws/shared/ID``."""
    tables = SharedTables(store)

    async def page(request: Request) -> Response:
        return page_response("tables.html")

    async def catalogue(request: Request) -> Response:
        return JSONResponse(shared_catalogue())

    async def create(request: Request) -> Response:
        data = await read_json(request)
        if limit is not None:
            limit.check(request)
        table = tables.create(data)
        body = {"table": table.id, "url": f"/table/{table.id}", "state": tables.state(table, None)}
        return JSONResponse(body, status_code=201)

    async def show(request: Request) -> Response:
        table = tables.get(request.path_params["table_id"])
        return JSONResponse(tables.state(table, None))

    async def download(request: Request) -> Response:
        table = tables.get(request.path_params["table_id"])
        form = request.query_params.get("format", "text")
        if form not in {"text", "json"}:
            raise CommandError(400, "format is text or json")
        text = tables.record(table, form)
        suffix = "json" if form == "json" else "rec"
        filename = f"{table.game.name}-{table.game.deal}-{table.id}.{suffix}"
        return PlainTextResponse(
            text,
            media_type="application/json" if form == "json" else "text/plain",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    async def socket_endpoint(socket: WebSocket) -> None:
        await socket.accept()
        try:
            table = tables.get(socket.path_params["table_id"])
        except CommandError as error:
            await _send(socket, {"type": "error", "status": error.status, "error": error.message})
            await socket.close(code=4000 + error.status)
            return
        await tables.connect(table, socket)
        try:
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                try:
                    await tables.handle(table, socket, message.get("text"))
                except CommandError as error:
                    reply: dict[str, Any] = {
                        "type": "error",
                        "status": error.status,
                        "error": error.message,
                    }
                    if error.status == 409:
                        reply["state"] = tables.state(table, table.seat_of_socket(socket))
                    await _send(socket, reply)
                except Exception:  # never let one message take the connection down
                    log.exception("message failed at table %s", table.id)
                    await _send(
                        socket, {"type": "error", "status": 500, "error": "the server failed"}
                    )
        except WebSocketDisconnect:
            pass
        finally:
            await tables.disconnect(table, socket)

    return [
        Route("/tables", page),
        Route("/table/{table_id}", page),
        Route("/api/shared/games", catalogue, methods=["GET"]),
        Route("/api/shared", create, methods=["POST"]),
        Route("/api/shared/{table_id}", show, methods=["GET"]),
        Route("/api/shared/{table_id}/record", download, methods=["GET"]),
        WebSocketRoute("/ws/shared/{table_id}", socket_endpoint),
    ]
