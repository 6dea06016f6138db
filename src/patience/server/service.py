"""The table service: every table of the server, whoever plays at it and however they reach it.

A *table* is a game with its seats. A one-player game is a table with one seat, held by the player
named by the browser's cookie; a table of several players (Leopard, Double Solitaire) has seats
that are open, held by a bot, or held by a person who joined over the table's websocket and got a
secret *seat token* (the store keeps only its SHA-256). The HTTP routes and both websocket
addresses (``/ws/tables/ID``, ``/ws/shared/ID``) come here: this module creates tables, seats
people, applies commands, keeps tables in memory, rebuilds them from the store, lets bots play
and stand in for absent people, and tells every connection its own seat's state.

Commands (docs/web.md): ``move``, ``undo``, ``redo``, ``restart``, ``resign`` and ``autofinish``;
a table says which it takes (:attr:`Settings.commands`: a one-player table takes them all, a
table of several players only moves). A command is tried on a copy of the game, the change is
written to the store, and only then does the table take the copy and anybody hear of it: memory
never runs ahead of the store, and a state sent meanwhile shows the table as stored. If the store
refuses (another process wrote first, or the disk failed), the table is rebuilt from the store.

Everything that blocks runs off the event loop through :meth:`TableService.offload`, for every
table alike: the store's writes (each commits with fsync) and reads, rebuilding a table by
replaying its events, choosing a deal (the solver may search for a winnable one) and the bots'
thinking; hints run on :class:`HintGate`'s own bounded pool. Tasks the service starts are kept
(:meth:`TableService.spawn`) until they end, so that none is collected mid-run.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import enum
import hashlib
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .. import record
from ..bots import BOTS, Bot
from ..bots import get as get_bot
from ..deals import check_deal
from ..engine import Game, IllegalMove, Rules
from ..games import get_rules, resolve_name
from ..moves import Move, MoveSyntaxError
from ..store import Event, SharedSeat, Store, StoreError, valid_player_name
from .catalogue import (
    DealPicker,
    full_options,
    game_entry,
    one_player_games,
    option_phrases,
    shared_games,
    table_heading,
    variant_title,
)
from .errors import CommandError, error_json
from .http import read_message

__all__ = [
    "COMMANDS",
    "DEFAULT_ABSENCE",
    "DEFAULT_PLAYER",
    "DEFAULT_STAND_IN",
    "HINTS_AT_ONCE",
    "MAX_ABSENCE",
    "SOLO",
    "TABLES_IN_MEMORY",
    "Connection",
    "Dialect",
    "HintGate",
    "Hinter",
    "Observation",
    "Seat",
    "Settings",
    "Table",
    "TableService",
    "autofinish_moves",
    "observe",
    "shared_catalogue",
    "token_hash",
]

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

#: Every command a table may take; ``move`` carries the move (text or JSON form).
COMMANDS = ("move", "undo", "redo", "restart", "resign", "autofinish")
#: The messages a websocket client may send besides the commands.
SEAT_MESSAGES = ("join", "resume")
#: The player of a browser that has not chosen a name.
DEFAULT_PLAYER = "guest"
#: Seconds a person may be gone before a bot plays his seat.
DEFAULT_ABSENCE = 120.0
#: The longest absence a table may set (a day).
MAX_ABSENCE = 24 * 3600.0
#: The bot that stands in for an absent person, unless the table chooses another.
DEFAULT_STAND_IN = "greedy"
#: Seconds before a bot whose move failed is asked again.
BOT_RETRY = 1.0
#: Tables kept in memory: beyond this, the least recently used tables that are idle (nobody
#: connected, no bot thinking, no command running) are forgotten; the store keeps them all and
#: :meth:`TableService.get` rebuilds one when it is next used.
TABLES_IN_MEMORY = 256
#: What a seat may be at creation besides a bot's name.
OPEN_SEATS = ("open", "human")
#: Piles that must be empty (when a game has them) before an automatic finish is offered.
STOCK_PILES = ("stock", "waste")
#: More foundation moves than any game's pack has cards: a bound on the automatic finish.
AUTOFINISH_LIMIT = 1000
#: Hints worked out at once, over every table. The solver spends about 2 s of one core on a
#: hint; beyond this a hint request is refused (503) rather than queued, so that a burst of
#: requests cannot take every core from the games being played.
HINTS_AT_ONCE = 2

#: A hint for a table's current position; the hook for the solver's honest hint.
Hinter = Callable[[Game], dict[str, Any]]


def token_hash(token: str) -> str:
    """The SHA-256 of a seat token, as stored (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# -- tables, seats and connections ------------------------------------------------------------


@dataclass
class Seat:
    """A seat and who holds it: a bot, a person, or nobody yet (open).

    A person is known by the player name of the browser's cookie (a one-player table's seat,
    ``token_hash`` None) or by the seat token given when he joined (``token_hash`` set). Both
    are ways of proving who one is; another (a login session) would be one more field here and
    one more ``seat_of_*`` lookup on :class:`Table`.
    """

    index: int
    bot: str | None = None
    #: The person's name (the cookie's player, or the name given when joining).
    player: str | None = None
    token_hash: str | None = None
    #: When the last connection of the person went away (None while connected, or never).
    absent_since: float | None = None

    @property
    def kind(self) -> str:
        """``bot``, ``person`` or ``open``."""
        if self.bot is not None:
            return "bot"
        return "person" if self.player is not None or self.token_hash is not None else "open"

    @property
    def record_name(self) -> str:
        """How the seat's player is named in a record."""
        if self.bot is not None:
            return f"{self.bot} bot"
        return self.player or "open"


@dataclass(frozen=True)
class Settings:
    """What a table allows: its commands, whether only its players may look, and its bots."""

    #: The commands the table takes (one-player tables: every one; shared tables: moves).
    commands: frozenset[str]
    #: Only the players of its seats may look (no spectators), as at a one-player table.
    private: bool
    #: The bot that plays for a person gone longer than ``absence``; None: nobody stands in.
    stand_in: str | None
    absence: float = DEFAULT_ABSENCE
    #: The deal was chosen at creation (shown to everybody, for reproducible tables).
    deal_chosen: bool = False
    #: The bots' seed: seat ``i``'s bot is seeded ``"SEED:i"`` (as ``patience match`` does).
    seed: str = ""

    def stored(self) -> dict[str, Any]:
        """The settings as a shared table's store row keeps them."""
        return {
            "absence": self.absence,
            "stand_in": self.stand_in,
            "deal_chosen": self.deal_chosen,
            "seed": self.seed,
        }


#: A one-player table's settings.
SOLO = Settings(commands=frozenset(COMMANDS), private=True, stand_in=None)


def _shared_settings(stored: Mapping[str, Any]) -> Settings:
    return Settings(
        commands=frozenset({"move"}),
        private=False,
        stand_in=str(stored.get("stand_in") or DEFAULT_STAND_IN),
        absence=float(stored.get("absence", DEFAULT_ABSENCE)),
        deal_chosen=bool(stored.get("deal_chosen", False)),
        seed=str(stored.get("seed", "")),
    )


class Dialect(enum.Enum):
    """How a client reads states: the two addresses of today, one service behind them.

    ``TABLES`` (``/api/tables``, ``/ws/tables``): a websocket state comes as ``{"type":
    "state", "state": STATE}`` and ``seats`` lists the seats' player names. ``SHARED``
    (``/api/shared``, ``/ws/shared``): the state's fields are the message itself and ``seats``
    lists objects ``{"seat", "kind", "name", "connected", "stand_in"}``.
    """

    TABLES = "tables"
    SHARED = "shared"


@dataclass(eq=False)
class Connection:
    """A websocket at a table: the seat it holds (None: a spectator) and its dialect."""

    socket: WebSocket
    seat: int | None
    dialect: Dialect

    async def send(self, message: dict[str, Any]) -> None:
        """Send a message; a connection that went away is dropped when its loop ends."""
        if self.socket.application_state != WebSocketState.CONNECTED:
            return
        with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
            await self.socket.send_json(message)


@dataclass
class Table:
    """A table in memory: its game, seats, settings, connections and bots."""

    id: str
    game: Game
    seats: list[Seat]
    settings: Settings
    created: float
    #: Stored events: a client names the state it saw by this count (``events``, ``seq``).
    events: int
    finished: float | None = None
    #: The last move made and its seat (shown to everybody as each may know it).
    last: tuple[int, Move] | None = None
    connections: dict[WebSocket, Connection] = field(default_factory=dict, repr=False)
    #: Serialises changes at this table: one is applied and stored before the next starts.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    bots: dict[int, Bot] = field(default_factory=dict, repr=False)
    bot_task: asyncio.Task[None] | None = field(default=None, repr=False)
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)

    # -- who sits where

    def seat_of_player(self, player: str) -> int | None:
        """The seat held by the cookie's ``player`` (names compared without regard to case)."""
        for seat in self.seats:
            if (
                seat.token_hash is None
                and seat.player is not None
                and seat.player.casefold() == player.casefold()
            ):
                return seat.index
        return None

    def seat_of_token(self, token: str) -> Seat | None:
        """The seat whose token is ``token``."""
        hashed = token_hash(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, hashed):
                return seat
        return None

    def connected(self, index: int) -> bool:
        """True while some connection holds seat ``index``."""
        return any(conn.seat == index for conn in self.connections.values())

    @property
    def waiting(self) -> bool:
        """True while a seat is open: play starts when every seat is taken."""
        return any(seat.kind == "open" for seat in self.seats)

    @property
    def attended(self) -> bool:
        """True while somebody (a player or a spectator) is connected."""
        return bool(self.connections)

    @property
    def in_use(self) -> bool:
        """True while the table must stay in memory: somebody connected, a bot thinking, or a
        change being made."""
        return self.attended or self.bot_task is not None or self.lock.locked()

    # -- bots

    def bot_for(self, seat: int) -> Bot:
        """The bot that plays ``seat`` (its own bot, or the stand-in), made once per seat."""
        bot = self.bots.get(seat)
        if bot is None:
            name = self.seats[seat].bot or self.settings.stand_in or DEFAULT_STAND_IN
            bot = self.bots[seat] = get_bot(name, seed=f"{self.settings.seed or self.id}:{seat}")
        return bot

    def stood_in(self, seat: Seat, now: float) -> bool:
        """True when a bot plays for the person of ``seat`` (gone longer than the absence)."""
        return (
            self.settings.stand_in is not None
            and seat.kind == "person"
            and not self.connected(seat.index)
            and seat.absent_since is not None
            and now - seat.absent_since >= self.settings.absence
        )

    def bot_seat(self, now: float) -> int | None:
        """The seat a bot must play now, if any."""
        if self.waiting or self.game.is_over():
            return None
        turn = self.game.current_player()
        seat = self.seats[turn]
        return turn if seat.kind == "bot" or self.stood_in(seat, now) else None

    def elapsed(self, now: float | None = None) -> float:
        """Seconds from the table's start to its end, or to now while it goes on."""
        end = self.finished if self.finished is not None else (now or time.time())
        return max(0.0, end - self.created)


# -- what each seat sees ----------------------------------------------------------------------


@dataclass(frozen=True)
class Observation:
    """What one seat (or a spectator) is shown: the view and the last move as it may know it."""

    view: dict[str, Any]
    last: dict[str, Any] | None


def observe(game: Game, last: tuple[int, Move] | None, seat: int | None) -> Observation:
    """What ``seat`` (None: a spectator) may see of ``game``, and of the last move.

    The one place where the server decides what a seat or a spectator sees: the states sent,
    the bots' views and the last move all come from here. A Leopard jack or queen laid face
    down by another seat is ``null`` in the last move (the view shows only its back).
    """
    if seat is None:
        # Seat -1 holds nothing: every hand and face-down card is hidden, no legal moves.
        view = game.view(-1)
        view["seat"] = None
    else:
        view = game.view(seat)
    shown: dict[str, Any] | None = None
    if last is not None:
        by, move = last
        data: dict[str, Any] = dict(move.to_json())
        face_down = game.name == "leopard" and str(move.arg("card"))[:1] in ("J", "Q")
        if move.action == "play" and face_down and seat != by:
            data["card"] = None
        shown = {"seat": by, "move": data}
    return Observation(view, shown)


# -- the automatic finish ---------------------------------------------------------------------


def _is_foundation(pile: str | None) -> bool:
    return pile is not None and pile.startswith("f") and pile[1:].isdigit()


def autofinish_moves(game: Game) -> list[Move] | None:
    """The foundation moves that win the game from here, when only such moves are needed; else
    None.

    Offered for any game when no card anywhere is face down, the stock and waste (if the game has
    them) are empty, and making legal moves to foundations (f1, f2, ...) only, the first
    candidate each time, ends in a win. The game itself is not touched: the moves are tried on
    copies of its state.
    """
    if game.outcome().is_over:
        return None
    rules, state = game.rules, game.state
    if any(state.down.get(name, 0) for name in state.piles):
        return None
    if any(state.piles.get(name) for name in STOCK_PILES):
        return None
    moves: list[Move] = []
    while rules.finished(state) is None and len(moves) < AUTOFINISH_LIMIT:
        move = next(
            (
                candidate
                for candidate in rules.candidate_moves(state)
                if not candidate.is_action and _is_foundation(candidate.target)
            ),
            None,
        )
        if move is None:
            return None
        state, _ = rules.perform(state, move)
        moves.append(move)
    outcome = rules.finished(state)
    return moves if outcome is not None and outcome.result == "won" else None


# -- hints ------------------------------------------------------------------------------------


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


# -- the catalogue of shared tables -----------------------------------------------------------


def shared_catalogue() -> dict[str, Any]:
    """The games of several players with their options, the bots that can take a seat, and
    the absence settings (default and limits) a table may choose."""
    return {
        "games": [game_entry(name) for name in shared_games()],
        "bots": [{"name": name, "summary": cls.summary} for name, cls in BOTS.items()],
        "absence": DEFAULT_ABSENCE,
        "max_absence": MAX_ABSENCE,
        "stand_in": DEFAULT_STAND_IN,
    }


# -- reading requests -------------------------------------------------------------------------


def _count_given(table: Table, data: Mapping[str, Any], kind: str) -> None:
    """Refuse a command whose count of events (``events``, or ``seq``: the same number) is
    malformed (400: ``true`` or ``"0"`` must not pass) or out of date (409). A move at a table
    of several seats must carry it: a move chosen from an old state must not land."""
    key = "seq" if "seq" in data else "events"
    known = data.get(key)
    if known is None:
        if kind == "move" and len(table.seats) > 1:
            raise CommandError(400, "'seq' is the seq of the last state you saw: a move needs it")
        return
    if isinstance(known, bool) or not isinstance(known, int) or known < 0:
        raise CommandError(
            400, f"'{key}' is a whole number (the state's {key} count), not {known!r}"
        )
    if known != table.events:
        raise CommandError(
            409, "stale: the table has changed since you last saw it: here is how it stands now"
        )


def _move_given(data: Mapping[str, Any]) -> str | Mapping[str, Any]:
    move = data.get("move")
    if not isinstance(move, str | Mapping):
        raise CommandError(400, "'move' must be a move's text (t7-f1) or JSON form")
    if isinstance(move, str) and len(move) > 200:
        raise CommandError(400, "a move's text has at most 200 characters")
    return move


def _replay(game: Game, event: Event) -> tuple[int, Move] | None:
    """Apply a stored event to ``game``; the last move it leaves (None after a take-back)."""
    if event.kind == "move":
        assert event.move is not None
        game.push(Move.parse(event.move))
    elif event.kind == "undo":
        game.pop()
        return None
    elif event.kind == "redo":
        game.redo()
    elif event.kind == "restart":
        while game.move_stack:
            game.pop()
        return None
    elif event.kind == "resign":
        game.resign()
        return None
    return event.seat, game.move_stack[-1]


# -- the service ------------------------------------------------------------------------------


class TableService:
    """Every table of a server: creating, finding, seating, commands, bots and connections."""

    def __init__(
        self,
        store: Store,
        *,
        deal_picker: DealPicker | None = None,
        hinter: Hinter | None = None,
        hints_at_once: int = HINTS_AT_ONCE,
    ) -> None:
        self.store = store
        self.deal_picker = deal_picker
        self.hinter = hinter
        self.hint_gate = HintGate(hints_at_once)
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._loading: dict[str, asyncio.Task[Table]] = {}
        #: Every task the service started and that has not ended: kept, so that none is
        #: collected mid-run (the event loop holds only weak references to tasks).
        self.tasks: set[asyncio.Task[Any]] = set()
        self._closed = False

    # -- running things ----------------------------------------------------------------------

    async def offload(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``work(*args, **kwargs)`` in a worker thread: the one way anything that blocks
        (the store, replays, searches, bots) runs, so the event loop goes on answering."""
        return await asyncio.to_thread(work, *args, **kwargs)

    def spawn(self, work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Run ``work`` as a task, kept until it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def close(self) -> None:
        """Stop: timers and bots end, hints are no longer taken."""
        self._closed = True
        for table in self._tables.values():
            if table.timer is not None:
                table.timer.cancel()
        for task in list(self.tasks):
            task.cancel()
        self.hint_gate.close()

    # -- memory ------------------------------------------------------------------------------

    @property
    def in_memory(self) -> int:
        """How many tables are held in memory."""
        return len(self._tables)

    def _remember(self, table: Table) -> None:
        self._tables[table.id] = table
        self._tables.move_to_end(table.id)
        if len(self._tables) <= TABLES_IN_MEMORY:
            return
        for idle in [t for t in self._tables.values() if not t.in_use and t is not table]:
            if len(self._tables) <= TABLES_IN_MEMORY:
                break
            self._forget(idle)

    def _forget(self, table: Table) -> None:
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        self._tables.pop(table.id, None)

    async def get(self, table_id: str) -> Table:
        """The table ``table_id``, from memory or rebuilt from the store (404 if none)."""
        table = self._tables.get(table_id)
        if table is not None:
            self._tables.move_to_end(table_id)
            return table
        # One rebuild per table, however many ask for it meanwhile.
        loading = self._loading.get(table_id)
        if loading is None:
            loading = self.spawn(self._rebuild(table_id))
            self._loading[table_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _rebuild(self, table_id: str) -> Table:
        table = await self.offload(self._load, table_id)
        if table is None:
            raise CommandError(404, f"there is no table {table_id!r}")
        self._remember(table)
        self.kick(table)
        return table

    def _load(self, table_id: str) -> Table | None:
        """The table as stored, its events replayed (in a worker thread)."""
        row = self.store.table(table_id)
        if row is None:
            return None
        stored = self.store.shared_settings(table_id)
        game = Game.create(get_rules(row.game, row.options), deal=row.deal)
        last: tuple[int, Move] | None = None
        for event in self.store.events(table_id):
            last = _replay(game, event)
        if stored is None:
            seats = [Seat(index, player=name) for index, name in enumerate(row.seats)]
            settings = SOLO
        else:
            now = time.time()
            seats = [
                Seat(
                    s.seat,
                    bot=s.bot,
                    player=s.guest,
                    token_hash=s.token_hash,
                    # After a restart, a person has the full absence to come back.
                    absent_since=now if s.token_hash is not None else None,
                )
                for s in self.store.shared_seats(table_id)
            ]
            settings = _shared_settings(stored)
        return Table(
            row.id, game, seats, settings, row.created, row.events, row.finished, last=last
        )

    async def _reload(self, table: Table) -> None:
        """Make ``table`` (in place: its connections stay) what the store holds."""
        fresh = await self.offload(self._load, table.id)
        if fresh is None:
            return
        table.game, table.events, table.finished = fresh.game, fresh.events, fresh.finished
        table.last = fresh.last

    # -- creating ----------------------------------------------------------------------------

    async def create_solo(
        self,
        game_name: object,
        options: object,
        deal: object,
        player: str,
        *,
        winnable: bool = False,
    ) -> Table:
        """A new one-player table of ``game_name`` for ``player``; a bad game, option or deal
        number is a :class:`CommandError` (400) saying what is allowed."""
        if not isinstance(game_name, str):
            raise CommandError(
                400, f"'game' must be a game name: one of {', '.join(one_player_games())}"
            )
        if options is None:
            options = {}
        if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
            raise CommandError(400, "'options' must be an object of option name -> value")
        if deal is not None and (isinstance(deal, bool) or not isinstance(deal, int | str)):
            raise CommandError(400, "'deal' must be a whole number, or null for a random deal")
        try:
            rules = get_rules(resolve_name(game_name), dict(options))
        except ValueError as error:  # an unknown game or option
            raise CommandError(400, str(error)) from None
        if rules.players != 1:
            raise CommandError(
                400,
                f"{rules.name} is played by {rules.players}; this server deals the one-player "
                f"games: {', '.join(one_player_games())}",
            )
        if deal is not None and deal != "" and winnable:
            raise CommandError(400, "choose a deal number or winnable deals, not both")
        if winnable and self.deal_picker is None:
            raise CommandError(
                400, "winnable deals need the solver, which this server does not have"
            )
        table_id = secrets.token_urlsafe(12)
        try:
            table = await self.offload(
                self._create_solo, table_id, rules, deal, [player], winnable=winnable
            )
        except StoreError:
            raise
        except ValueError as error:  # a bad deal number, or the picker's refusal
            raise CommandError(400, str(error)) from None
        self._remember(table)
        return table

    def _create_solo(
        self, table_id: str, rules: Rules[Any], deal: object, seats: list[str], *, winnable: bool
    ) -> Table:
        # In a worker thread: the deal picker may search for a winnable deal, and the store
        # writes.
        if deal is None or deal == "":
            chosen = None if self.deal_picker is None else self.deal_picker(rules, winnable)
        else:
            chosen = check_deal(deal)
        game = Game.create(rules, deal=chosen)
        self.store.create_table(table_id, game.name, game.options, game.deal, seats)
        row = self.store.table(table_id)
        assert row is not None
        return Table(
            table_id, game, [Seat(i, player=name) for i, name in enumerate(seats)], SOLO,
            row.created, 0,
        )  # fmt: skip

    async def create_shared(self, data: object) -> Table:
        """A new table of several players from ``{"game", "options", "seats", "absence",
        "stand_in", "deal", "seed"}`` (a chosen deal and the bots' seed make a table
        reproducible, for tests; both are optional); anything wrong is a
        :class:`CommandError` (400) saying what is allowed."""
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
        settings = _shared_settings(
            {
                "absence": float(absence),
                "stand_in": stand_in.strip().lower(),
                "deal_chosen": deal is not None,
                "seed": "" if seed is None else str(seed),
            }
        )
        table_id = secrets.token_urlsafe(12)
        table = await self.offload(self._create_shared, table_id, rules, deal, seats, settings)
        self._remember(table)
        self.kick(table)
        return table

    def _create_shared(
        self,
        table_id: str,
        rules: Rules[Any],
        deal: int | None,
        seats: list[Seat],
        settings: Settings,
    ) -> Table:
        game = Game.create(rules, deal=deal)
        self.store.create_shared_table(
            table_id,
            game.name,
            game.options,
            game.deal,
            [SharedSeat(seat.index, seat.bot) for seat in seats],
            settings.stored(),
        )
        row = self.store.table(table_id)
        assert row is not None
        return Table(table_id, game, seats, settings, row.created, 0)

    # -- what each connection is sent --------------------------------------------------------

    def state(self, table: Table, seat: int | None, dialect: Dialect) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) is sent: its view and the table's facts."""
        game = table.game
        rules = game.rules
        seen = observe(game, table.last, seat)
        view = seen.view
        over = game.is_over()
        now = time.time()
        allowed = table.settings.commands
        turn = None if over else game.current_player()
        seats: list[Any]
        if dialect is Dialect.TABLES:
            seats = [s.player for s in table.seats]
        else:
            seats = [
                {
                    "seat": s.index,
                    "kind": s.kind,
                    "name": s.bot if s.bot is not None else s.player,
                    "connected": table.connected(s.index),
                    "stand_in": table.stood_in(s, now),
                }
                for s in table.seats
            ]
        return {
            "type": "state",
            "table": table.id,
            "game": game.name,
            "title": rules.title,
            "options": view.get("options", game.options),
            "options_text": rules.options_text(),
            "options_words": ", ".join(option_phrases(rules)) or "default options",
            "heading": table_heading(rules),
            "players": rules.players,
            "seats": seats,
            "seat": seat,
            "turn": turn,
            # A one-player table shows its deal number (it can be copied and dealt again); a
            # table of several players must not send it before the end, since the deal number
            # gives every hidden card.
            "deal": game.deal if len(table.seats) == 1 or over else None,
            "deal_chosen": table.settings.deal_chosen,
            "waiting": table.waiting,
            "absence": table.settings.absence,
            "stand_in": table.settings.stand_in,
            "view": view,
            "outcome": view["outcome"],
            "last": seen.last,
            "moves": len(game.move_stack),
            "can_undo": "undo" in allowed and bool(game.move_stack),
            "can_redo": "redo" in allowed and game.can_redo(),
            "events": table.events,
            "seq": table.events,
            "elapsed": round(table.elapsed(now), 1),
            "can_autofinish": "autofinish" in allowed
            and seat == turn
            and autofinish_moves(game) is not None,
        }

    def message(self, table: Table, conn: Connection) -> dict[str, Any]:
        """The state message for a connection, in its dialect."""
        state = self.state(table, conn.seat, conn.dialect)
        return {"type": "state", "state": state} if conn.dialect is Dialect.TABLES else state

    async def broadcast(self, table: Table) -> None:
        """Send every connection of the table its own seat's state."""
        for conn in list(table.connections.values()):
            await conn.send(self.message(table, conn))

    # -- commands ----------------------------------------------------------------------------

    async def command(self, table: Table, seat: int | None, data: object) -> None:
        """Apply a command (``{"command": ..., "move": ..., "events": N}``; ``type`` and
        ``seq`` are the same as ``command`` and ``events``) from ``seat``, store it, and tell
        every connection. Raises :class:`CommandError` and changes nothing when the command is
        malformed, out of date, not taken by this table or against the rules."""
        if not isinstance(data, Mapping):
            raise CommandError(400, 'a command is a JSON object like {"command": "undo"}')
        kind = data.get("command", data.get("type"))
        if kind not in COMMANDS:
            raise CommandError(400, f"unknown command {kind!r}: use one of {', '.join(COMMANDS)}")
        if kind not in table.settings.commands:
            taken = ", ".join(c for c in COMMANDS if c in table.settings.commands)
            raise CommandError(422, f"this table takes no {kind}: only {taken}")
        if seat is None:
            raise CommandError(403, "join a seat (or resume yours with its token) to play")
        move = _move_given(data) if kind == "move" else None
        before = table.events
        try:
            async with table.lock:
                _count_given(table, data, kind)
                if table.waiting:
                    raise CommandError(
                        409, "waiting for players: play starts when every seat is taken"
                    )
                if kind == "autofinish":
                    await self._autofinish(table, seat)
                else:
                    await self._apply(table, seat, kind, move)
        finally:
            if table.events != before:
                await self.broadcast(table)
                self.kick(table)
        # A command that changed nothing stored (the store refused, memory was rebuilt) was
        # refused above; here every connection has been told.

    async def _apply(
        self, table: Table, seat: int, kind: str, move: Move | str | Mapping[str, Any] | None
    ) -> None:
        """Make one command for ``seat`` and store it before anybody can see it (lock held)."""
        game = table.game.copy()
        text: str | None = None
        try:
            if kind == "move":
                assert move is not None
                if game.is_over():
                    raise CommandError(422, "the game is over")
                if game.current_player() != seat:
                    raise CommandError(
                        422, f"it is not your turn: seat {game.current_player()} plays"
                    )
                game.push(move)
                text = game.move_stack[-1].text()
            elif kind == "undo":
                game.pop()
            elif kind == "redo":
                game.redo()
            elif kind == "restart":
                if not game.move_stack:
                    raise CommandError(422, "the game is at its start already")
                while game.move_stack:
                    game.pop()
            else:
                game.resign()
        except (IllegalMove, MoveSyntaxError) as error:
            raise CommandError(422, str(error)) from None
        await self._commit(table, game, seat, kind, text)

    async def _autofinish(self, table: Table, seat: int) -> None:
        """Play the moves of :func:`autofinish_moves` one by one as ``move`` commands (each
        stored, and undoable, like any move). Refused (422, nothing changed) unless only
        foundation moves remain."""
        if table.game.current_player() != seat:
            raise CommandError(422, "it is not your turn")
        moves = autofinish_moves(table.game)
        if moves is None:
            raise CommandError(
                422,
                "no automatic finish yet: it needs every card face up, the stock and waste empty, "
                "and every card able to go to the foundations by foundation moves alone",
            )
        for move in moves:
            await self._apply(table, seat, "move", move)

    async def _commit(
        self, table: Table, game: Game, seat: int, kind: str, text: str | None
    ) -> None:
        """Store the event that made ``game`` from the table's game, then make it the table's
        (lock held). If the store refuses, the table is rebuilt from the store."""
        outcome = game.outcome()
        try:
            finished = await self.offload(
                self.store.append_event,
                table.id,
                table.events,
                seat,
                kind,
                text,
                result=outcome.result,
                reason=outcome.reason,
                moves=len(game.move_stack),
                score=outcome.score,
            )
        except StoreError as error:
            # Another process stored an event first: memory is out of date.
            await self._reload(table)
            raise CommandError(409, f"the table changed elsewhere: {error}") from None
        except Exception as error:
            log.exception("the store refused an event of table %s", table.id)
            await self._reload(table)
            raise CommandError(503, f"the change could not be stored: {error}") from None
        table.game = game
        table.events += 1
        # The stored finishing time, not this process's clock: the end-of-game banner and the
        # statistics' best time come from the same two timestamps.
        table.finished = finished
        table.last = (seat, game.move_stack[-1]) if kind in ("move", "redo") else None

    # -- seats -------------------------------------------------------------------------------

    async def join(self, table: Table, conn: Connection, data: Mapping[str, Any]) -> None:
        """Give the connection an open seat (``{"seat": N, "name": "Ann"}``) and a new token."""
        if conn.seat is not None:
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
            if not await self.offload(self.store.claim_seat, table.id, index, name, hashed):
                raise CommandError(409, f"seat {index} is taken")
            seat.player, seat.token_hash = name, hashed
            self._seat(table, conn, seat)
        await conn.send({"type": "joined", "seat": index, "token": token, "name": name})
        await self.broadcast(table)
        self.kick(table)

    async def resume(self, table: Table, conn: Connection, data: Mapping[str, Any]) -> None:
        """Give the connection back the seat of a token (``{"token": "..."}``)."""
        token = data.get("token")
        if not isinstance(token, str) or not 0 < len(token) <= 200:
            raise CommandError(400, "'token' is the seat token given when you joined")
        seat = table.seat_of_token(token)
        if seat is None:
            raise CommandError(403, "no seat of this table has that token")
        if conn.seat is not None and conn.seat != seat.index:
            raise CommandError(409, "this connection holds another seat")
        self._seat(table, conn, seat)
        await conn.send({"type": "joined", "seat": seat.index, "name": seat.player})
        await self.broadcast(table)
        self.kick(table)

    def _seat(self, table: Table, conn: Connection, seat: Seat) -> None:
        conn.seat = seat.index
        seat.absent_since = None

    # -- connections -------------------------------------------------------------------------

    async def enter(self, table_id: str, player: str) -> tuple[Table, int | None]:
        """The table and the seat the cookie's ``player`` holds there (None: he looks on); a
        private table refuses anybody without a seat (403)."""
        table = await self.get(table_id)
        seat = table.seat_of_player(player)
        if seat is None and table.settings.private:
            raise CommandError(403, f"{player} has no seat at this table")
        return table, seat

    async def serve(self, socket: WebSocket, table_id: str, dialect: Dialect, player: str) -> None:
        """The one websocket loop, for both addresses: the connection holds the seat of the
        cookie's ``player`` if there is one, else it watches (a private table refuses it, 403)
        until it joins or resumes a seat; every message is a command or a seat message, and a
        refused one gets the error (with the state for a 409) and changes nothing."""
        await socket.accept()
        try:
            table, seat = await self.enter(table_id, player)
        except CommandError as error:
            with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
                await socket.send_json({"type": "error", **error_json(error)})
                await socket.close(code=4000 + error.status)
            return
        conn = Connection(socket, seat, dialect)
        await self.connect(table, conn)
        try:
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                try:
                    await self.handle(table, conn, message.get("text"))
                except CommandError as error:
                    state = self.state(table, conn.seat, dialect) if error.status == 409 else None
                    await conn.send({"type": "error", **error_json(error, state)})
                except Exception:  # never let one message take the connection down
                    log.exception("message failed at table %s", table.id)
                    failed = CommandError(500, "the server failed")
                    await conn.send({"type": "error", **error_json(failed)})
        except WebSocketDisconnect:
            pass
        finally:
            await self.disconnect(table, conn)

    async def handle(self, table: Table, conn: Connection, text: str | None) -> None:
        """Act on one websocket message (None: a binary one)."""
        data = read_message(text)
        if not isinstance(data, dict):
            raise CommandError(400, 'a message is a JSON object like {"type": "move", ...}')
        kind = data.get("command", data.get("type"))
        if kind == "join":
            await self.join(table, conn, data)
        elif kind == "resume":
            await self.resume(table, conn, data)
        elif kind in COMMANDS:
            await self.command(table, conn.seat, data)
        else:
            known = ", ".join((*SEAT_MESSAGES, *COMMANDS))
            raise CommandError(400, f"unknown message type {kind!r}: use one of {known}")

    async def connect(self, table: Table, conn: Connection) -> None:
        """A new connection: told the table's state; the bots of a table nobody watched were
        waiting, and play on now."""
        table.connections[conn.socket] = conn
        if conn.seat is not None:
            table.seats[conn.seat].absent_since = None
        await conn.send(self.message(table, conn))
        self.kick(table)

    async def disconnect(self, table: Table, conn: Connection) -> None:
        """A connection went away; a person left without any connection is now absent."""
        table.connections.pop(conn.socket, None)
        if conn.seat is not None and not table.connected(conn.seat):
            table.seats[conn.seat].absent_since = time.time()
            await self.broadcast(table)
            self.kick(table)

    # -- bots --------------------------------------------------------------------------------

    def kick(self, table: Table) -> None:
        """Let a bot move if one must now; else wake up when an absent person's time is up.
        Bots play only while somebody is connected: a table of bots alone (or one its people
        have all left) waits, so nobody can keep the server busy with tables nobody watches,
        and an idle table can leave memory. :meth:`connect` kicks again."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        if table.bot_task is not None:
            return  # it kicks again when its move is made
        if not table.attended or self._closed:
            return
        now = time.time()
        if table.bot_seat(now) is not None:
            table.bot_task = self.spawn(self._bot_move(table))
            return
        if table.waiting or table.game.is_over() or table.settings.stand_in is None:
            return
        # Wake when the next absent person's time is up, whether or not it is his turn: a bot
        # plays his seat from then on, and everybody is told so at once.
        due = [
            seat.absent_since + table.settings.absence
            for seat in table.seats
            if seat.kind == "person"
            and not table.connected(seat.index)
            and seat.absent_since is not None
        ]
        due = [when for when in due if when > now]
        if due:
            delay = min(due) - now + 0.01
            table.timer = asyncio.get_running_loop().call_later(delay, self._wake, table)

    def _wake(self, table: Table) -> None:
        table.timer = None
        self.kick(table)
        # Everybody sees that a bot now plays the absent seat.
        self.spawn(self.broadcast(table))

    async def _bot_move(self, table: Table) -> None:
        failed = False
        try:
            seat = table.bot_seat(time.time())
            if seat is None:
                return
            seq = table.events
            view = observe(table.game, table.last, seat).view
            move = await self.offload(table.bot_for(seat).choose, view)
            async with table.lock:
                # The person came back, the table moved on, or everybody left, while the bot
                # thought.
                if table.events != seq or table.bot_seat(time.time()) != seat or not table.attended:
                    return
                await self._apply(table, seat, "move", move)
            await self.broadcast(table)
        except Exception:  # a bot's failure must not take the table down
            log.exception("bot move failed at table %s", table.id)
            failed = not self._closed
        finally:
            table.bot_task = None
            if failed:  # try again later, not in a tight loop
                loop = asyncio.get_running_loop()
                table.timer = loop.call_later(BOT_RETRY, self.kick, table)
            elif not table.game.is_over():
                self.kick(table)

    # -- records, hints, lists ---------------------------------------------------------------

    def record(self, table: Table, form: str) -> tuple[str, str, str]:
        """The table's record as a download: ``(text, filename, media type)``. A table of
        several seats gives it only once the game is over (it holds every card)."""
        if form not in {"text", "json"}:
            raise CommandError(400, "format is text or json")
        game = table.game
        if len(table.seats) > 1 and not game.is_over():
            raise CommandError(
                409, "the record holds every card: it is ready when the game is over"
            )
        players = [seat.record_name for seat in table.seats]
        text = record.dumps(game, form, players=players)
        suffix = "json" if form == "json" else "rec"
        media = "application/json" if form == "json" else "text/plain"
        return text, f"{game.name}-{game.deal}-{table.id}.{suffix}", media

    async def hint(self, table: Table) -> dict[str, Any]:
        """The hinter's answer for the table's position, worked out on a copy in
        :class:`HintGate`'s threads while the table goes on taking commands."""
        if self.hinter is None:
            raise CommandError(501, "hints come with the solver, which this server does not have")
        snapshot = copy.deepcopy(table.game)
        try:
            return await self.hint_gate.run(table.id, self.hinter, snapshot)
        except CommandError:
            raise
        except Exception as error:  # the solver's failure must not take the server down
            raise CommandError(500, f"the hint failed: {error}") from None

    async def add_player(self, name: object) -> str:
        """Check a player's name and make sure the store knows him."""
        try:
            checked = valid_player_name(name)
        except StoreError as error:
            raise CommandError(400, str(error)) from None
        await self.offload(self.store.player_id, checked)
        return checked

    async def tables_of(self, player: str, *, ongoing: bool) -> list[dict[str, Any]]:
        """The player's one-player tables, latest first."""
        rows = await self.offload(self.store.tables_of, player, ongoing=ongoing)
        return [
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

    async def stats(self, name: object) -> dict[str, Any]:
        """A player's statistics, one entry per game and options, named by its title."""
        try:
            player = valid_player_name(name)
        except StoreError as error:
            raise CommandError(400, str(error)) from None
        found = await self.offload(self.store.stats, player, full_options)
        entries = [
            {**entry.to_json(), "title": variant_title(entry.game, entry.options)}
            for entry in found
        ]
        entries.sort(key=lambda entry: (entry["game"], entry["title"]))
        return {"player": player, "games": entries}
