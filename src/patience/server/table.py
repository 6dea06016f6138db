"""Tables and what they are made of: seats and who holds them, a table's settings, the
connections watching it, what each seat sees, and the requests that make a new table.

A *table* is a game with its seats. A one-player game is a table with one seat, held by an
*account* (a browser's session, or the name it logged in as: ``server/sessions.py``); a table of
several players (Leopard, Double Solitaire) has seats that are open, held by a bot, or held by a
person who joined over the table's websocket and got a secret *seat token* (the store keeps only
its SHA-256), and belongs to the account that created it (the lobby lists it if he chose so).
:class:`~.service.TableService` owns the tables: it creates them, applies their commands and
tells their connections.
"""

from __future__ import annotations

import asyncio
import enum
import hashlib
import secrets
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from ..bots import BOTS, Bot
from ..bots import get as get_bot
from ..deals import check_deal
from ..engine import SPECTATOR, Game, IllegalMove, Outcome, Rules, State, ViewJSON
from ..games import get_rules, resolve_name
from ..moves import Move
from ..store import Event
from ..study.winnable import GRADES
from .catalogue import one_player_games, shared_games
from .errors import CommandError

__all__ = [
    "AUTOFINISH_LIMIT",
    "COMMANDS",
    "DEFAULT_ABSENCE",
    "DEFAULT_STAND_IN",
    "HOLD_LIMIT",
    "MAX_ABSENCE",
    "MAX_EVENTS",
    "NOT_READING",
    "OUTBOX_LIMIT",
    "SEND_TIMEOUT",
    "SOLO",
    "Connection",
    "Dialect",
    "Hold",
    "NewTable",
    "Observation",
    "Seat",
    "Settings",
    "Table",
    "autofinish_moves",
    "finish_possible",
    "observe",
    "refusal_reason",
    "replay_event",
    "seat_results",
    "shared_request",
    "shared_settings",
    "solo_request",
    "think",
    "token_hash",
]

#: Every command a table may take; ``move`` carries the move (text or JSON form).
COMMANDS = ("move", "undo", "redo", "restart", "resign", "autofinish", "autoplay")
#: The most events a table's log may hold: a command beyond it is refused (413) before any work,
#: so that rebuilding a table replays at most this many events.
MAX_EVENTS = 10_000
#: Seconds a person may be gone before a bot plays his seat.
DEFAULT_ABSENCE = 120.0
#: The longest absence a table may set (a day).
MAX_ABSENCE = 24 * 3600.0
#: The bot that stands in for an absent person, unless the table chooses another.
DEFAULT_STAND_IN = "greedy"
#: The longest (seconds) a shared table waits at the end of a deal for its people to go on
#: (:class:`Hold`): an idle person cannot stall the others for longer.
HOLD_LIMIT = 60.0
#: What a seat may be at creation besides a bot's name.
OPEN_SEATS = ("open", "human")
#: Piles that must be empty (when a game has them) before an automatic finish is offered.
STOCK_PILES = ("stock", "waste")
#: More foundation moves than any game's pack has cards: a bound on the automatic finish.
AUTOFINISH_LIMIT = 1000
#: The solver's node budget for proving that a position with nothing hidden is won (the
#: automatic finish when foundation moves alone do not do it): such positions are small
#: searches, and a table's state is worked out while the table waits.
FINISH_NODES = 20_000


def token_hash(token: str) -> str:
    """The SHA-256 of a seat token, as stored (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# -- tables, seats and connections ------------------------------------------------------------


@dataclass
class Seat:
    """A seat and who holds it: a bot, a person, or nobody yet (open).

    A person is known by his account (a one-player table's seat: ``owner``, the account's id,
    from his session) or by the seat token given when he joined (``token_hash`` set). The
    name is only what the seat is shown as.
    """

    index: int
    bot: str | None = None
    #: The person's name as shown (the account's name, or the name given when joining).
    player: str | None = None
    token_hash: str | None = None
    #: The account that holds the seat (a one-player table's player).
    owner: int | None = None
    #: When the last connection of the person went away (None while connected, or never).
    absent_since: float | None = None

    @property
    def kind(self) -> str:
        """``bot``, ``person`` or ``open``."""
        if self.bot is not None:
            return "bot"
        if self.player is not None or self.token_hash is not None or self.owner is not None:
            return "person"
        return "open"

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
    #: Its creator chose to list it in the lobby (``GET /api/lobby``) while seats are open.
    listed: bool = False

    def stored(self) -> dict[str, Any] | None:
        """The settings as a shared table's store row keeps them; None for a private table,
        whose seats are players known by name (the store's one-player tables)."""
        if self.private:
            return None
        return {
            "absence": self.absence,
            "stand_in": self.stand_in,
            "deal_chosen": self.deal_chosen,
            "seed": self.seed,
            "listed": self.listed,
        }


#: A one-player table's settings.
SOLO = Settings(commands=frozenset(COMMANDS), private=True, stand_in=None)


def seat_results(outcome: Outcome, seats: int) -> list[str] | None:
    """Each seat's result of a finished game of ``seats`` seats ("won", "lost" or "draw"), for
    the statistics; None while it goes on. A game that scores sides (Leopard of four: the
    outcome's ``scores`` has fewer entries than seats) names a side as the winner: seat ``s``
    is of side ``s % sides``."""
    if outcome.result == "ongoing":
        return None
    if outcome.result == "draw" or outcome.winner is None:
        return ["draw" if outcome.result == "draw" else str(outcome.result)] * seats
    sides = len(outcome.scores) if outcome.scores else seats
    return ["won" if seat % sides == outcome.winner else "lost" for seat in range(seats)]


def shared_settings(stored: Mapping[str, Any]) -> Settings:
    """A shared table's settings from what its store row keeps."""
    return Settings(
        commands=frozenset({"move"}),
        private=False,
        stand_in=str(stored.get("stand_in") or DEFAULT_STAND_IN),
        absence=float(stored.get("absence", DEFAULT_ABSENCE)),
        deal_chosen=bool(stored.get("deal_chosen", False)),
        seed=str(stored.get("seed", "")),
        listed=stored.get("listed") is True,
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


#: Messages besides its latest state a connection may have waiting to be sent: a client that
#: lets more pile up does not read, and is disconnected (a state supersedes any state still
#: waiting, since a state is complete, so states alone never fill it).
OUTBOX_LIMIT = 32
#: Seconds one message may take to be sent: a client that takes longer does not read, and is
#: disconnected (close code :data:`NOT_READING`) while its table goes on.
SEND_TIMEOUT = 10.0
#: The close code of a connection dropped because its client does not read (policy violation).
NOT_READING = 1008


@dataclass(eq=False)
class Connection:
    """A websocket at a table: the seat it holds (None: a spectator), its dialect, and its
    outbox.

    Nobody awaits a client: messages are :meth:`post`-ed to the connection's own bounded
    outbox, and its own writer task (:meth:`TableService.connect
    <patience.server.service.TableService.connect>` starts it) sends them one by one, each
    within a time limit. A client that does not read is dropped and its table goes on.
    """

    socket: WebSocket
    seat: int | None
    dialect: Dialect
    outbox: deque[dict[str, Any]] = field(default_factory=deque, repr=False)
    #: Set when the outbox has something, or the connection was dropped.
    ready: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    #: Why the server dropped the connection (None while it is open).
    dropped: str | None = None
    #: Set once the server drops the connection: its receiving loop ends.
    closed: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    #: The task that sends the outbox (None until the service starts it).
    writer: asyncio.Task[None] | None = field(default=None, repr=False)
    #: The account of the connection's session (None: a session that owns nothing).
    account: int | None = None

    def post(self, message: dict[str, Any]) -> bool:
        """Queue ``message``; a state replaces any state still queued. False (nothing queued)
        when :data:`OUTBOX_LIMIT` messages wait already: the client does not read."""
        if self.dropped is not None:
            return True
        if message.get("type") == "state" and any(m.get("type") == "state" for m in self.outbox):
            self.outbox = deque(m for m in self.outbox if m.get("type") != "state")
        if len(self.outbox) >= OUTBOX_LIMIT:
            return False
        self.outbox.append(message)
        self.ready.set()
        return True

    async def next(self) -> dict[str, Any] | None:
        """The next message to send, once there is one; None once the connection is dropped."""
        while not self.outbox and self.dropped is None:
            self.ready.clear()
            await self.ready.wait()
        return None if self.dropped is not None else self.outbox.popleft()

    def drop(self, reason: str) -> bool:
        """Mark the connection dropped (its loop and writer end); False if it was already."""
        if self.dropped is not None:
            return False
        self.dropped = reason
        self.outbox.clear()
        self.ready.set()
        self.closed.set()
        return True

    @property
    def open(self) -> bool:
        """True while the socket is connected and the server has not dropped it."""
        return self.dropped is None and self.socket.application_state == WebSocketState.CONNECTED


@dataclass
class Hold:
    """A shared table held at the end of a deal, so that its people can look at the deal's
    last position (the rules' :meth:`~patience.engine.Rules.deal_end`) before play goes on.

    A pause of the table, not a phase of the rules: the game has dealt the next deal already,
    but bots do not move and people's moves are refused until every person connected to his
    seat has gone on (the websocket message ``go-on``), or until ``until``. Seats held by bots,
    and people with no connection, are not waited for; neither are spectators.
    """

    #: The deal's last position, as the rules scored it (what every connection is shown).
    ended: State
    #: The table's event count when the hold began: the ``seq`` of the states it shows.
    events: int
    #: When the hold ends whoever has not gone on (the server's clock, seconds since the epoch).
    until: float
    #: The seats whose people have gone on.
    gone_on: set[int] = field(default_factory=set)
    #: The call that ends the hold at ``until``.
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)


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
    #: The account the table belongs to (a one-player table's player, a shared table's
    #: creator; None: a table stored before sessions, that nobody has taken over).
    owner: int | None = None
    #: The automatic finish worked out for a game (the game object itself, and its moves or
    #: None): worked out once per position (:meth:`TableService.state` asks for every state).
    finish: tuple[Game, list[Move] | None] | None = field(default=None, repr=False)
    #: The game whose automatic finish is being worked out, if any.
    finishing: Game | None = field(default=None, repr=False)
    #: The hold at the end of a deal, while the table waits for its people to go on.
    hold: Hold | None = field(default=None, repr=False)

    # -- who sits where

    def seat_of_owner(self, account: int | None) -> int | None:
        """The seat held by ``account`` (None: somebody without a session holds none)."""
        if account is None:
            return None
        for seat in self.seats:
            if seat.token_hash is None and seat.owner == account:
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
    def full(self) -> bool:
        """True once the table's log holds :data:`MAX_EVENTS` events: it takes no more."""
        return self.events >= MAX_EVENTS

    @property
    def waiting(self) -> bool:
        """True while a seat is open: play starts when every seat is taken."""
        return any(seat.kind == "open" for seat in self.seats)

    def hold_waiting(self) -> list[int]:
        """The seats the hold waits for: people connected to their seats who have not gone
        on (none when the table is not held)."""
        hold = self.hold
        if hold is None:
            return []
        return [
            seat.index
            for seat in self.seats
            if seat.kind == "person"
            and seat.index not in hold.gone_on
            and self.connected(seat.index)
        ]

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
        """The seat a bot must play now, if any (none while the table is held)."""
        if self.waiting or self.full or self.hold is not None or self.game.is_over():
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

    view: ViewJSON
    last: dict[str, Any] | None


def observe(game: Game, last: tuple[int, Move] | None, seat: int | None) -> Observation:
    """What ``seat`` (None: a spectator) may see of ``game``, and of the last move.

    The one place where the server decides what a seat or a spectator sees: the states sent,
    the bots' views and the last move all come from here, and all of it is asked of the rules
    (:meth:`Game.view` and :meth:`Rules.move_view`; a spectator is the engine's
    :data:`SPECTATOR`, never a seat number).
    """
    observer = SPECTATOR if seat is None else seat
    view = game.view(observer)
    shown: dict[str, Any] | None = None
    if last is not None:
        by, move = last
        shown = {"seat": by, "move": game.rules.move_view(game.state, move, by, observer)}
    return Observation(view, shown)


# -- the automatic finish ---------------------------------------------------------------------


def _is_foundation(pile: str | None) -> bool:
    return pile is not None and pile.startswith("f") and pile[1:].isdigit()


def finish_possible(game: Game) -> bool:
    """Whether :func:`autofinish_moves` may find a finish: the game goes on and nothing is
    hidden from the player, or what is hidden can lie only one way (the last card face down
    is the one card seen nowhere); quick to tell, unlike the finish itself."""
    if game.outcome().is_over:
        return False
    view = game.view(0)
    # The stock's cards count as known once the player has been through it (a pass made).
    seen = STOCK_PILES if getattr(game.state, "redeals", 0) > 0 else ("waste",)
    return game.rules.hidden_cards_known(view) or not any(
        name not in seen and any(card is None for card in (*pile["down"], *pile["up"]))
        for name, pile in view["piles"].items()
    )


def autofinish_moves(game: Game) -> list[Move] | None:
    """The moves that win the game from here when the player has nothing left to find out;
    else None.

    Offered for any one-player game when nothing is hidden from the player (no card face down
    or covered in a squared pile, the waste apart; the stock's cards count as seen once the
    player has turned the waste over; a hidden card that can only be the one card seen nowhere
    counts as seen), and either making legal moves to foundations (f1, f2,
    ...) only, the first candidate each time, ends in a win (the stock and waste, if the game
    has them, being empty), or, in a game of hidden cards, the solver proves a win within
    :data:`FINISH_NODES` nodes (its moves, the stock's turns included). The game itself is not
    touched.
    """
    if not finish_possible(game):
        return None
    rules, state = game.rules, game.state
    if any(state.piles.get(name) for name in STOCK_PILES):
        return _solved_finish(game)
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
    if outcome is not None and outcome.result == "won":
        return moves
    return _solved_finish(game)


def _hidden_cards(game: Game) -> bool:
    """True if ``game``'s rules deal cards the player cannot see outside the stock and waste
    (face down, or covered in a squared pile): a game of hidden cards, where the last hidden
    card turned up is what leaves only the mechanical part. Read from a deal of the same rules
    (deal 1), so that a game set up from a position counts as its rules do."""
    start = Game.create(game.rules, deal=1)
    return any(
        card is None
        for name, pile in start.view(0)["piles"].items()
        if name not in STOCK_PILES
        for card in (*pile["down"], *pile["up"])
    )


def _solved_finish(game: Game) -> list[Move] | None:
    """The solver's winning moves from here within :data:`FINISH_NODES` nodes, or None. Only
    in games of hidden cards: in a game dealt all face up (Accordion, Napoleon at St Helena's
    columns) the solver would play the whole puzzle for the player."""
    # Imported here: the solver is a large package that only this needs at this level.
    from ..solve import SolverError, Verdict, solve

    if game.rules.players != 1 or not _hidden_cards(game):
        return None
    try:
        solution = solve(game, nodes=FINISH_NODES)
    except (SolverError, ValueError):
        return None
    return list(solution.moves) if solution.result is Verdict.WON and solution.moves else None


def refusal_reason(game: Game, seat: int, error: IllegalMove) -> dict[str, Any]:
    """A refused move as data for a page to put in words (docs/web.md, "Errors"): ``kind``
    (``illegal_move``, or ``unreadable_move`` for text that is no move), ``move`` (its text),
    ``from`` and ``to`` (the piles of a card move), ``card`` (the lowest card that would move)
    and ``onto`` (the card it would go on), each null unless the seat sees it face up (never a
    hidden card), ``cards`` (those of the two that are known), and ``why`` (the rules' reason,
    in the notation's words)."""
    move = error.move if isinstance(error.move, Move) else None
    reason: dict[str, Any] = {
        "kind": "illegal_move" if error.move is not None else "unreadable_move",
        "move": move.text() if move is not None else error.move,
        "cards": [],
        "why": error.reason,
    }
    if move is None or move.is_action or move.source is None or move.target is None:
        return reason
    reason["from"], reason["to"] = move.source, move.target
    piles = game.view(seat)["piles"]
    source, target = piles.get(move.source), piles.get(move.target)
    card = onto = None
    if source is not None:
        seen = [*source["down"], *source["up"]]
        if 1 <= move.count <= len(seen) and seen[-move.count] is not None:
            card = str(seen[-move.count])
    if target is not None:
        seen = [*target["down"], *target["up"]]
        if seen and seen[-1] is not None:
            onto = str(seen[-1])
    reason["card"], reason["onto"] = card, onto
    reason["cards"] = [known for known in (card, onto) if known is not None]
    return reason


def think(bot: Bot, view: Mapping[str, Any]) -> tuple[Move, Bot]:
    """The bot's move for ``view``, and the bot as it is after choosing it: run in a worker
    process, the bot there is a copy, and its random generator must go on from where it
    stopped, not start again at every move."""
    return bot.choose(view), bot


def replay_event(game: Game, event: Event) -> tuple[int, Move] | None:
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


# -- new tables -------------------------------------------------------------------------------


@dataclass(frozen=True)
class NewTable:
    """A table to create, checked: its rules, deal, seats and settings."""

    rules: Rules[Any]
    #: The deal number; None: a random one, or the server's deal picker's when ``picked``.
    deal: int | None
    seats: list[Seat]
    settings: Settings
    #: The server's deal picker chooses the deal (when it has one and no deal is given).
    picked: bool = False
    #: Only a deal the picker proved winnable.
    winnable: bool = False
    #: With ``winnable``: a grade of the picker's graded winnable deals (``easy``, ...), or any.
    grade: str | None = None
    #: The account it belongs to (its player's, or its creator's).
    owner: int | None = None


def solo_request(
    game_name: object,
    options: object,
    deal: object,
    player: str,
    *,
    owner: int,
    winnable: bool = False,
    grade: object = None,
) -> NewTable:
    """A new one-player table of ``game_name`` for the account ``owner``, shown as
    ``player``, checked; a bad game, option, deal number or ``grade`` (null, or one of
    :data:`~patience.study.winnable.GRADES` with ``winnable``) is a :class:`CommandError`
    (400) saying what is allowed."""
    if grade is not None:
        if not isinstance(grade, str) or grade not in GRADES:
            raise CommandError(
                400,
                f"'grade' is one of {', '.join(GRADES)}, or null for any winnable deal "
                f"(not {grade!r})",
            )
        if not winnable:
            raise CommandError(400, "a 'grade' goes with winnable deals only (\"winnable\": true)")
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
        chosen = None if deal is None or deal == "" else check_deal(deal)
    except ValueError as error:  # an unknown game or option, a bad deal number
        raise CommandError(400, str(error)) from None
    if rules.players != 1:
        raise CommandError(
            400,
            f"{rules.name} is played by {rules.players}; this server deals the one-player "
            f"games: {', '.join(one_player_games())}",
        )
    if chosen is not None and winnable:
        raise CommandError(400, "choose a deal number or winnable deals, not both")
    return NewTable(
        rules,
        chosen,
        [Seat(0, player=player, owner=owner)],
        SOLO,
        picked=chosen is None,
        winnable=winnable,
        grade=grade,
        owner=owner,
    )


def shared_request(data: object, owner: int | None = None) -> NewTable:
    """A new table of several players from ``{"game", "options", "seats", "absence",
    "stand_in", "deal", "seed", "listed"}`` (a chosen deal and the bots' seed make a table
    reproducible, for tests; both are optional; ``listed``: the lobby lists it, false by
    default) created by the account ``owner``, checked; anything wrong is a
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
    listed = data.get("listed", False)
    if not isinstance(listed, bool):
        raise CommandError(400, "'listed' (show the table in the lobby) is true or false")
    settings = shared_settings(
        {
            "absence": float(absence),
            "stand_in": stand_in.strip().lower(),
            "deal_chosen": deal is not None,
            "seed": "" if seed is None else str(seed),
            "listed": listed,
        }
    )
    return NewTable(rules, deal, seats, settings, owner=owner)
