"""The table service: every table of the server, whoever plays at it and however they reach it.

The HTTP routes and both websocket addresses (``/ws/tables/ID``, ``/ws/shared/ID``) come here:
:class:`TableService` creates tables (``server/table.py`` says what they are made of), seats
people, applies commands, keeps tables in memory, rebuilds them from the store, lets bots play
and stand in for absent people, and tells every connection its own seat's state.

Commands (docs/web.md): ``move``, ``undo``, ``redo``, ``restart``, ``resign``, ``autofinish`` and
``autoplay`` (the solver's safe moves to the foundations);
a table says which it takes (:attr:`Settings.commands`: a one-player table takes them all, a
table of several players only moves). A command is tried on a copy of the game, the change is
written to the store, and only then does the table take the copy and anybody hear of it: memory
never runs ahead of the store, and a state sent meanwhile shows the table as stored. If the store
refuses (another process wrote first, or the disk failed), the table is rebuilt from the store.

Everything that blocks runs off the event loop, each kind on bounded workers of its own
(:data:`POOLS`, ``server/pools.py``), for every table alike: the store's writes (each commits
with fsync) and reads (:meth:`TableService.offload`), rebuilding a table by replaying its
events, searching for a winnable deal, replaying a record and the bots' thinking
(:meth:`TableService.run`; the last three in worker processes, as they hold the interpreter
lock); hints run on :class:`HintGate`'s own bounded pool of processes. No client is
ever awaited: each connection has its own outbox and writer task, and a client that does not
read is dropped (``server/table.py``'s :class:`Connection`). Tasks the service starts are kept
(:meth:`TableService.spawn`) until they end, so that none is collected mid-run.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import pickle
import secrets
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import replace
from typing import Any, ParamSpec, TypeVar

from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import record
from ..bots import BOTS
from ..engine import SPECTATOR, Game, IllegalMove, Rules
from ..games import get_rules
from ..moves import Move, MoveSyntaxError
from ..scoring import scores
from ..solve import SAFE_MOVE_GAMES, safe_moves
from ..store import Account, SharedSeat, Store, StoreError, valid_player_name
from . import snapshots
from .catalogue import (
    DealPicker,
    PicksApart,
    full_options,
    game_entry,
    option_phrases,
    shared_games,
    table_heading,
    variant_title,
)
from .errors import CommandError, error_json, failure
from .hints import HINTS_AT_ONCE, Hinter, HintGate
from .http import read_message
from .pools import Client, PoolLimits, WorkPool
from .table import (
    AUTOFINISH_LIMIT,
    COMMANDS,
    DEFAULT_ABSENCE,
    DEFAULT_STAND_IN,
    HOLD_LIMIT,
    MAX_ABSENCE,
    MAX_EVENTS,
    NOT_READING,
    OUTBOX_LIMIT,
    SEND_TIMEOUT,
    SOLO,
    Connection,
    Dialect,
    Hold,
    NewTable,
    Seat,
    Table,
    autofinish_moves,
    finish_possible,
    observe,
    refusal_reason,
    replay_event,
    seat_results,
    shared_settings,
    think,
    token_hash,
)

__all__ = [
    "BOT_RETRY",
    "POOLS",
    "SOCKETS_PER_CLIENT",
    "TABLES_IN_MEMORY",
    "TableService",
    "autoplay_moves",
    "shared_catalogue",
]

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

#: The messages a websocket client may send besides the commands: taking a seat, and going on
#: after the end of a deal (:class:`Hold`).
SEAT_MESSAGES = ("join", "resume", "go-on")
#: Seconds before a bot whose move failed is asked again.
BOT_RETRY = 1.0
#: Seconds a dropped connection's close may take before the service stops waiting for it.
CLOSE_BACKSTOP = 120.0
#: The workers and quotas of each kind of blocking work (:class:`WorkPool`), so that no kind can
#: take the workers of another: ``store`` (the store's reads and writes: every command's write
#: waits here, so it has threads of its own and never refuses), ``rebuild`` (replaying a table's
#: events to bring it back into memory: bounded by snapshots, and it needs the store), ``search``
#: (a search for a winnable deal: seconds of the solver each, so few at once and one per
#: client), ``replay`` (checking and replaying an uploaded record), ``bots`` (a bot's thinking:
#: one per table at a time already) and ``passwords`` (argon2's hashing of a claimed name's
#: password: tens of milliseconds and 64 MiB each, so one at a time; argon2 frees the
#: interpreter lock). Searches, replays and bots run Python for long (a search deals and sets
#: up in Python each deal it tries, and a deal picker may be any callable), so in processes of
#: their own (see server/pools.py), unless the service is made with ``worker_processes=False``.
#: A client's quota counts for its address and for its session alike.
POOLS: dict[str, PoolLimits] = {
    "store": PoolLimits(workers=4),
    "rebuild": PoolLimits(workers=2),
    "search": PoolLimits(workers=2, held=4, per_client=1, processes=True),
    "replay": PoolLimits(workers=1, held=4, per_client=2, processes=True),
    "bots": PoolLimits(workers=2, processes=True),
    "passwords": PoolLimits(workers=1, held=8, per_client=1),
    "finish": PoolLimits(workers=1),
}
#: What each pool's work is called in its refusals.
POOL_WORK = {
    "store": "store operations",
    "rebuild": "table rebuilds",
    "search": "searches for a winnable deal",
    "replay": "record replays",
    "bots": "bot moves",
    "passwords": "password checks",
    "finish": "automatic finishes worked out",
}
#: Websockets one client address may hold open at once (a page holds one per table): more are
#: refused (close code 4429), so that one client cannot hold every connection of the server.
SOCKETS_PER_CLIENT = 32
#: Tables kept in memory: beyond this, the least recently used tables that are idle (nobody
#: connected, no bot thinking, no command running) are forgotten; the store keeps them all and
#: :meth:`TableService.get` rebuilds one when it is next used.
TABLES_IN_MEMORY = 256

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


def autoplay_moves(game: Game) -> list[Move]:
    """The solver's safe moves to the foundations from here (:func:`safe_moves`), except right
    after a card came back from a foundation: the player took it down on purpose, and sending
    it straight back up would undo his move."""
    source = game.move_stack[-1].source if game.move_stack else None
    if source is not None and source.startswith("f") and source[1:].isdigit():
        return []
    return safe_moves(game)


def describe_seats(seats: list[SharedSeat]) -> list[dict[str, Any]]:
    """A shared table's seats as a list shows them: a bot (its name), a person (his name) or
    open."""
    return [
        {
            "seat": seat.seat,
            "kind": "bot"
            if seat.bot is not None
            else "person"
            if seat.token_hash is not None
            else "open",
            "name": seat.bot if seat.bot is not None else seat.guest,
        }
        for seat in seats
    ]


def check_picklable(deal_picker: DealPicker) -> None:
    """Refuse (``ValueError``, saying what to do) a deal picker that cannot be pickled: the
    searches for a winnable deal run in worker processes, which get the picker pickled."""
    try:
        pickle.dumps(deal_picker)
    except Exception as error:  # whatever the picker's pickling raises: a closure, a lock
        raise ValueError(
            f"the deal picker {deal_picker!r} cannot be pickled ({error}), and the searches "
            "for a winnable deal run in worker processes, which get it pickled: give a "
            "module-level function or an object of a module-level class (no locks, no "
            "closures), or run the search in threads (worker_processes=False, or "
            "pools={'search': PoolLimits(..., processes=False)})"
        ) from None


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
        send_timeout: float = SEND_TIMEOUT,
        pools: Mapping[str, PoolLimits] | None = None,
        worker_processes: bool = True,
        sockets_per_client: int | None = SOCKETS_PER_CLIENT,
        hold_limit: float = HOLD_LIMIT,
    ) -> None:
        """``worker_processes=False`` runs every kind of work in threads, hints too: for hooks
        (``deal_picker``, ``hinter``) and bots that cannot be pickled, as tests' stand-ins.
        A ``deal_picker`` that cannot be pickled is refused (``ValueError``) unless the
        ``search`` pool is of threads: it searches for winnable deals in worker processes
        (:meth:`create`). ``hold_limit``: the longest a shared table waits at the end of a
        deal for its people to go on (seconds, :class:`Hold`)."""
        if not hold_limit > 0:
            raise ValueError(f"hold_limit is a number of seconds above 0, not {hold_limit!r}")
        self.hold_limit = hold_limit
        self.store = store
        #: Websockets one client address may hold open at once (None: no bound).
        self.sockets_per_client = sockets_per_client
        self._sockets: Counter[str] = Counter()
        #: Seconds one message to a websocket may take before its client is dropped.
        self.send_timeout = send_timeout
        self.deal_picker = deal_picker
        self.hinter = hinter
        self.hint_gate = HintGate(hints_at_once, processes=worker_processes)
        unknown = set(pools or {}) - set(POOLS)
        if unknown:
            raise ValueError(f"unknown pools {sorted(unknown)}: the pools are {', '.join(POOLS)}")
        limits = {**POOLS, **(pools or {})}
        if not worker_processes:
            limits = {kind: replace(limit, processes=False) for kind, limit in limits.items()}
        if deal_picker is not None and limits["search"].processes:
            check_picklable(deal_picker)
        #: Each kind of blocking work's own workers (:data:`POOLS`).
        self.pools = {kind: WorkPool(POOL_WORK[kind], limits[kind]) for kind in POOLS}
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._loading: dict[str, asyncio.Task[Table]] = {}
        #: Every task the service started and that has not ended: kept, so that none is
        #: collected mid-run (the event loop holds only weak references to tasks).
        self.tasks: set[asyncio.Task[Any]] = set()
        self._closed = False

    # -- running things ----------------------------------------------------------------------

    async def offload(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``work(*args, **kwargs)`` on the store's threads, so the event loop goes on
        answering; the store's reads and writes run here (other blocking work, in
        :meth:`run`, has threads of its own)."""
        return await self.pools["store"].run(None, work, *args, **kwargs)

    async def run(
        self,
        kind: str,
        client: Client,
        work: Callable[P, T],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        """``work(*args, **kwargs)`` on the workers of ``kind`` (:data:`POOLS`), for
        ``client`` (an address, or an address and a session; None: the server's own work,
        under no quota): refused before any work (429, 503) beyond the pool's quotas."""
        return await self.pools[kind].run(client, work, *args, **kwargs)

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
            self._drop_hold(table)
        for task in list(self.tasks):
            task.cancel()
        self.hint_gate.close()
        for pool in self.pools.values():
            pool.close()

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
        self._drop_hold(table)
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
        table = await self.run("rebuild", None, self._load, table_id)
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
        if row.events > MAX_EVENTS:  # refused before any replaying (stored before the limit)
            raise CommandError(
                413,
                f"table {table_id!r} has {row.events} stored events, more than the "
                f"{MAX_EVENTS} a table may have: it cannot be opened",
            )
        stored = self.store.shared_settings(table_id)
        game, last, start = self._from_snapshot(table_id, row.events)
        if game is None:
            game = Game.create(get_rules(row.game, row.options), deal=row.deal)
        for event in self.store.events(table_id, start=start):
            last = replay_event(game, event)
        if stored is None:
            seats = [
                Seat(index, player=name, owner=row.owner) for index, name in enumerate(row.seats)
            ]
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
            settings = shared_settings(stored)
        return Table(
            row.id,
            game,
            seats,
            settings,
            row.created,
            row.events,
            row.finished,
            last=last,
            owner=row.owner,
        )

    def _from_snapshot(
        self, table_id: str, events: int
    ) -> tuple[Game | None, tuple[int, Move] | None, int]:
        """The table's game from its latest usable snapshot, the last move, and the number of
        the first event still to replay; ``(None, None, 0)`` when there is no usable one."""
        snapshot = self.store.snapshot(table_id)
        if snapshot is None or snapshot.events > events:
            return None, None, 0
        try:
            game, last = snapshots.restore(snapshot)
        except snapshots.SnapshotUnreadable as error:
            log.info("snapshot of table %s not used: %s", table_id, error)
            return None, None, 0
        return game, last, snapshot.events

    async def _reload(self, table: Table) -> None:
        """Make ``table`` (in place: its connections stay) what the store holds; if the store
        cannot even be read, the table leaves memory, to be rebuilt when next used."""
        try:
            fresh = await self.run("rebuild", None, self._load, table.id)
        except Exception:
            log.exception("table %s could not be read back from the store", table.id)
            self._forget(table)
            return
        if fresh is None:
            self._forget(table)
            return
        table.game, table.events, table.finished = fresh.game, fresh.events, fresh.finished
        table.last = fresh.last
        self._drop_hold(table)  # it showed the end of a deal of the game replaced

    # -- creating ----------------------------------------------------------------------------

    async def create(self, new: NewTable, *, client: Client = None) -> Table:
        """A new table, stored, in memory, its bots kicked; its deal chosen by the deal picker
        when the request leaves it to the server (a winnable one if asked: refused (400)
        without a picker, or when the picker finds none). A search for a winnable deal runs on
        the ``search`` pool, under its quota for ``client`` (an address and a session): in a
        worker process, on a copy of the picker (:class:`PicksApart` says how what it learns
        comes back); a worker that dies fails the request with 503."""
        if new.winnable and self.deal_picker is None:
            raise CommandError(
                400, "winnable deals need the solver, which this server does not have"
            )
        table_id = secrets.token_urlsafe(12)
        deal = new.deal
        try:
            if deal is None and new.winnable and self.deal_picker is not None:
                deal = await self._search(new.rules, new.grade, client)
            table = await self.offload(self._create, table_id, new, deal)
        except (StoreError, CommandError):  # a CommandError: the search pool's refusal
            raise
        except ValueError as error:  # the deal picker's refusal
            raise CommandError(400, str(error)) from None
        self._remember(table)
        self.kick(table)
        return table

    async def _search(self, rules: Rules[Any], grade: str | None, client: Client) -> int:
        # On the search pool: in a worker process, the picker is a copy, so a picker that can
        # pick apart is given a seed drawn here (picks vary, and repeat with a seeded picker)
        # and the wins the copy found are given back to the original, for later searches.
        # Only such a picker is asked for a grade (its pick takes one; a plain callable is
        # picker(rules, winnable)), and only when one is asked for.
        picker = self.deal_picker
        assert picker is not None
        if isinstance(picker, PicksApart):
            seed = picker.next_seed()
            graded = () if grade is None else (grade,)
            deal, found = await self.run("search", client, picker.pick, rules, True, seed, *graded)
            picker.remember(rules, found)
            return deal
        if grade is not None:
            raise CommandError(
                400, "this server's deal picker has no grades of winnable deals: leave 'grade' out"
            )
        return await self.run("search", client, picker, rules, True)

    def _create(self, table_id: str, new: NewTable, deal: int | None) -> Table:
        # On the store's threads: the store writes, and the deal picker may choose a deal at
        # random (a winnable one was searched for on the search pool already).
        if deal is None and new.picked and self.deal_picker is not None:
            deal = self.deal_picker(new.rules, False)
        game = Game.create(new.rules, deal=deal)
        stored = new.settings.stored()
        if stored is None:  # the seat of its owner's account, as in the statistics
            names = [seat.player for seat in new.seats]
            self.store.create_table(
                table_id, game.name, game.options, game.deal, names, owner=new.owner
            )
        else:  # seats of bots and of people who join with a token
            seats = [SharedSeat(seat.index, seat.bot) for seat in new.seats]
            self.store.create_shared_table(
                table_id,
                game.name,
                game.options,
                game.deal,
                seats,
                stored,
                owner=new.owner,
            )
        row = self.store.table(table_id)
        assert row is not None
        return Table(
            table_id,
            game,
            list(new.seats),
            new.settings,
            row.created,
            0,
            owner=new.owner,
        )

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
            # The web app's scores (patience.scoring): Klondike's standard and Vegas, Spider's.
            "scores": scores(game),
            "can_undo": "undo" in allowed and bool(game.move_stack),
            "can_redo": "redo" in allowed and game.can_redo(),
            "events": table.events,
            "seq": table.events,
            "elapsed": round(table.elapsed(now), 1),
            "can_autofinish": "autofinish" in allowed
            and seat == turn
            and self._finish_moves(table) is not None,
            # Whether this table makes the solver's safe moves to the foundations on request
            # (docs/solving.md), and which ones there are now (the command autoplay makes them).
            "has_safe_moves": "autoplay" in allowed and game.name in SAFE_MOVE_GAMES,
            "safe_moves": [move.text() for move in self._safe_moves(table)]
            if "autoplay" in allowed and seat == turn
            else [],
            # The end of a deal the table waits at (None: play goes on).
            "hold": self._hold_json(table, seat, now),
        }

    def _hold_json(self, table: Table, seat: int | None, now: float) -> dict[str, Any] | None:
        """The hold as ``seat`` (None: a spectator) is told of it: the seats it waits for,
        those gone on, when it ends (``until``, the server's clock; ``seconds`` left), and
        the deal's last position as the seat's view of it (never a card the seat may not
        know: the rules' view of that position, for that seat)."""
        hold = table.hold
        if hold is None:
            return None
        observer = SPECTATOR if seat is None else seat
        return {
            "waiting": table.hold_waiting(),
            "gone_on": sorted(hold.gone_on),
            "until": round(hold.until, 3),
            "seconds": round(max(0.0, hold.until - now), 1),
            "view": table.game.rules.view_json(hold.ended, observer),
        }

    async def ready(self, table: Table) -> None:
        """Work out, on the ``finish`` pool's thread, what a state shows that may take the
        solver (:func:`autofinish_moves`: up to tens of milliseconds of search), once per
        position, so that :meth:`state` only reads it and the event loop never waits on it."""
        game = table.game
        cached = table.finish
        if "autofinish" not in table.settings.commands or (
            cached is not None and cached[0] is game
        ):
            return
        if not finish_possible(game):  # the common case, told at once
            table.finish = (game, None)
            return
        # The table's game is never changed in place (a command works on a copy), so the
        # worker reads it while the table goes on.
        moves = await self.run("finish", None, autofinish_moves, game)
        if table.game is game:
            table.finish = (game, moves)

    def _finish_moves(self, table: Table) -> list[Move] | None:
        """:func:`autofinish_moves` of the table's game as :meth:`ready` worked it out; when
        it has not yet, None for now, and it is worked out meanwhile (everybody is told if it
        turns out to be there)."""
        cached = table.finish
        if cached is not None and cached[0] is table.game:
            return cached[1]
        if table.finishing is not table.game:
            table.finishing = table.game
            self.spawn(self._finish_later(table))
        return None

    async def _finish_later(self, table: Table) -> None:
        game = table.game
        try:
            await self.ready(table)
        except Exception:  # a failed search only leaves the button out
            log.exception("the automatic finish of table %s could not be worked out", table.id)
            return
        cached = table.finish
        if table.game is game and cached is not None and cached[1] is not None:
            self.broadcast(table)

    def _safe_moves(self, table: Table) -> list[Move]:
        """:func:`autoplay_moves` of the table's game."""
        return autoplay_moves(table.game)

    def message(self, table: Table, conn: Connection) -> dict[str, Any]:
        """The state message for a connection, in its dialect."""
        state = self.state(table, conn.seat, conn.dialect)
        return {"type": "state", "state": state} if conn.dialect is Dialect.TABLES else state

    def broadcast(self, table: Table) -> None:
        """Queue for every connection of the table its own seat's state; nobody is awaited (a
        connection whose client does not read is dropped)."""
        for conn in list(table.connections.values()):
            self.post(table, conn, self.message(table, conn))

    def post(self, table: Table, conn: Connection, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``conn``; a client that lets its outbox fill is dropped."""
        if not conn.post(message):
            self.drop(table, conn, f"not reading: {OUTBOX_LIMIT} messages are waiting")

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
        if isinstance(move, str) and move.strip().lower() == "resign" and kind == "move":
            # Typed in a move box: giving up is a command of its own, not a move of the rules.
            if "resign" not in table.settings.commands:
                raise CommandError(422, "this table takes no resign: play on, or leave the table")
            kind, move = "resign", None
        autoplay = data.get("autoplay", False)
        if not isinstance(autoplay, bool):
            raise CommandError(400, "'autoplay' is true or false")
        if autoplay and "autoplay" not in table.settings.commands:
            raise CommandError(422, "this table takes no autoplay")
        before = table.events
        try:
            async with table.lock:
                _count_given(table, data, kind)
                if table.waiting:
                    raise CommandError(
                        409, "waiting for players: play starts when every seat is taken"
                    )
                if table.hold is not None:
                    waiting = table.hold_waiting()
                    raise CommandError(
                        409,
                        "the table waits for everyone to go on after the end of the deal",
                        {"kind": "hold", "waiting": waiting},
                    )
                if kind == "autofinish":
                    await self._autofinish(table, seat)
                elif kind == "autoplay":
                    await self._autoplay(table, seat)
                else:
                    await self._apply(table, seat, kind, move)
                    if autoplay and kind == "move":
                        await self._autoplay(table, seat)
                # What the new state shows (the automatic finish), worked out before it is sent.
                await self.ready(table)
        finally:
            if table.events != before:
                self.broadcast(table)
                self.kick(table)
        # A command that changed nothing stored (the store refused, memory was rebuilt) was
        # refused above; here every connection has been told.

    async def _apply(
        self, table: Table, seat: int, kind: str, move: Move | str | Mapping[str, Any] | None
    ) -> None:
        """Make one command for ``seat`` and store it before anybody can see it (lock held)."""
        if table.full:
            raise CommandError(
                413,
                f"this table has {table.events} events, the most a table may have: "
                "start a new table",
            )
        game = table.game.copy()
        text: str | None = None
        try:
            if kind == "move":
                assert move is not None
                if game.is_over():
                    raise CommandError(422, "the game is over", {"kind": "game_over"})
                if game.current_player() != seat:
                    raise CommandError(
                        422,
                        f"it is not your turn: seat {game.current_player()} plays",
                        {"kind": "not_your_turn", "turn": game.current_player()},
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
        except IllegalMove as error:
            reason = refusal_reason(table.game, seat, error) if kind == "move" else None
            raise CommandError(422, str(error), reason) from None
        except MoveSyntaxError as error:
            raise CommandError(
                422, str(error), {"kind": "unreadable_move", "cards": [], "why": str(error)}
            ) from None
        await self._commit(table, game, seat, kind, text)

    async def _autofinish(self, table: Table, seat: int) -> None:
        """Play the moves of :func:`autofinish_moves` one by one as ``move`` commands (each
        stored, and undoable, like any move). Refused (422, nothing changed) unless only
        foundation moves remain."""
        if table.game.current_player() != seat:
            raise CommandError(422, "it is not your turn")
        await self.ready(table)
        moves = self._finish_moves(table)
        if moves is None:
            raise CommandError(
                422,
                "no automatic finish yet: it needs every card outside the stock and waste face "
                "up, and a win that foundation moves alone make or that the solver proves",
            )
        for move in moves:
            await self._apply(table, seat, "move", move)

    async def _autoplay(self, table: Table, seat: int) -> None:
        """Play the solver's safe moves to the foundations (:meth:`_safe_moves`) one by one as
        ``move`` commands, each stored and undoable like any move, until there is none; a safe
        move that the repetition rule forbids ends it. Nothing to play is no error."""
        if table.game.current_player() != seat:
            raise CommandError(422, "it is not your turn")
        for _ in range(AUTOFINISH_LIMIT):
            moves = self._safe_moves(table)
            if not moves:
                return
            for move in moves:
                if not table.game.is_legal(move):
                    return
                await self._apply(table, seat, "move", move)

    async def _commit(
        self, table: Table, game: Game, seat: int, kind: str, text: str | None
    ) -> None:
        """Store the event that made ``game`` from the table's game, then make it the table's
        (lock held). If the store refuses, the table is rebuilt from the store."""
        outcome = game.outcome()
        before = table.game
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
                # A shared table's end: each seat's result, for its people's statistics.
                seat_results=None
                if table.settings.private
                else seat_results(outcome, len(table.seats)),
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
        self._drop_hold(table)  # none is held while commands come (refused), but to be sure
        if kind == "move":
            self._begin_hold(table, before, game)
        if snapshots.due(table.events):
            await self._snapshot(table)

    async def _snapshot(self, table: Table) -> None:
        """Keep a snapshot of the table as it stands (lock held, so the game cannot change
        while it is pickled). A snapshot is a cache: failing to keep one loses nothing."""
        try:
            await self.offload(self._save_snapshot, table.id, table.game, table.last, table.events)
        except Exception:
            log.exception("no snapshot of table %s after %d events", table.id, table.events)

    def _save_snapshot(
        self, table_id: str, game: Game, last: tuple[int, Move] | None, events: int
    ) -> None:
        self.store.save_snapshot(table_id, snapshots.take(game, last, events))

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
        claimed = await self.offload(self.store.claimed_account, name)
        if claimed is not None and claimed.id != conn.account:
            raise CommandError(
                409, f"{name} is a claimed name: log in as {claimed.display} to sit as it"
            )
        token = secrets.token_urlsafe(24)
        hashed = token_hash(token)
        async with table.lock:
            seat = table.seats[index]
            # The seat as data too: a page names it its own way (counting from 1).
            taken = {"kind": "seat_taken", "seat": index}
            if seat.kind != "open":
                raise CommandError(409, f"seat {index} is taken", taken)
            if not await self.offload(self.store.claim_seat, table.id, index, name, hashed):
                raise CommandError(409, f"seat {index} is taken", taken)
            seat.player, seat.token_hash = name, hashed
            self._seat(table, conn, seat)
        self.post(table, conn, {"type": "joined", "seat": index, "token": token, "name": name})
        self.broadcast(table)
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
        self.post(table, conn, {"type": "joined", "seat": seat.index, "name": seat.player})
        self.broadcast(table)
        self.kick(table)

    def _seat(self, table: Table, conn: Connection, seat: Seat) -> None:
        conn.seat = seat.index
        seat.absent_since = None

    # -- holds at the end of a deal ----------------------------------------------------------

    def _begin_hold(self, table: Table, before: Game, after: Game) -> None:
        """Hold a shared table whose last move (lock held, just stored) ended a deal and the
        match goes on (the rules' ``deal_end``), if a person connected to his seat is there
        to look at it: bots wait, and people's moves are refused, until every such person
        has gone on or :attr:`hold_limit` seconds have passed. Nobody to wait for: no hold."""
        if table.settings.private:  # a one-player table's page knows no hold
            return
        rules = after.rules
        ended = rules.deal_end(before.state, after.move_stack[-1], after.state)
        if ended is None:
            return
        hold = Hold(ended, table.events, time.time() + self.hold_limit)
        table.hold = hold
        if not table.hold_waiting():
            table.hold = None
            return
        loop = asyncio.get_running_loop()
        hold.timer = loop.call_later(self.hold_limit, self._hold_due, table, hold)

    def _drop_hold(self, table: Table) -> None:
        """Forget the table's hold, if any, and its timer (nobody is told)."""
        hold = table.hold
        if hold is None:
            return
        if hold.timer is not None:
            hold.timer.cancel()
        table.hold = None

    def _hold_due(self, table: Table, hold: Hold) -> None:
        if table.hold is hold:  # its time is up: play goes on, whoever has not gone on
            self._release(table)

    def _release(self, table: Table) -> None:
        """End the table's hold: everybody is told, and the bots play on."""
        self._drop_hold(table)
        self.broadcast(table)
        self.kick(table)

    async def go_on(self, table: Table, conn: Connection, data: Mapping[str, Any]) -> None:
        """``{"type": "go-on", "seq": N}``: the connection's person has looked at the end of
        the deal. The table goes on once nobody connected is left to wait for; meanwhile
        everybody is told who still is. A go-on sent again by a seat that went on already
        changes nothing and is not answered; one from a spectator is refused (403), and one
        when the table is not held, or with the ``seq`` of another state (a hold already
        over), is stale (409, with the state as it stands)."""
        if conn.seat is None:
            raise CommandError(403, "only the players at the table go on; spectators watch")
        seq = data.get("seq")
        if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int) or seq < 0):
            raise CommandError(400, f"'seq' is the seq of the state you saw, not {seq!r}")
        hold = table.hold
        if hold is None or (seq is not None and seq != hold.events):
            raise CommandError(
                409,
                "nothing to go on from: the table is not waiting at the end of a deal now",
                {"kind": "not_held"},
            )
        if conn.seat in hold.gone_on:
            return  # a second click, or a second page of the same seat: harmless
        hold.gone_on.add(conn.seat)
        if table.hold_waiting():
            self.broadcast(table)
        else:
            self._release(table)

    # -- connections -------------------------------------------------------------------------

    async def enter(self, table_id: str, account: int | None) -> tuple[Table, int | None]:
        """The table and the seat ``account`` (the session's; None: a session that owns
        nothing) holds there (None: he looks on). A private table (a one-player table) is
        another account's business: refused as if it did not exist (404), so that nobody
        learns which tables there are."""
        table = await self.get(table_id)
        seat = table.seat_of_owner(account)
        if seat is None and table.settings.private:
            if table.owner is None and not table.in_use:
                # A table of the days before sessions: nobody's until taken over, perhaps by
                # `patience admin claim-name` in another process; read afresh next time.
                self._forget(table)
            raise CommandError(404, f"there is no table {table_id!r}")
        return table, seat

    async def serve(
        self,
        socket: WebSocket,
        table_id: str,
        dialect: Dialect,
        account: int | None,
        client: str | None = None,
    ) -> None:
        """The one websocket loop, for both addresses: the connection holds the seat of
        ``account`` (the session's) if there is one, else it watches (another's private table
        is refused, 404) until it joins or resumes a seat; every message is a command or a
        seat message, and a refused one gets the error (with the state for a 409) and changes
        nothing. ``client`` (an address) holds at most :attr:`sockets_per_client` websockets:
        one more is refused (429)."""
        await socket.accept()
        bound = self.sockets_per_client
        counted = client is not None and (bound is None or self._sockets[client] < bound)
        try:
            if client is not None and not counted:
                raise CommandError(
                    429,
                    f"one address may hold {self.sockets_per_client} websockets at once: "
                    "close a table's page first",
                )
            if counted and client is not None:
                self._sockets[client] += 1
            try:
                await self._serve(socket, table_id, dialect, account)
            finally:
                if counted and client is not None:
                    self._sockets[client] -= 1
                    if self._sockets[client] <= 0:
                        del self._sockets[client]
        except CommandError as error:
            await self._refuse(socket, error)

    async def _refuse(self, socket: WebSocket, error: CommandError) -> None:
        """Tell a websocket why it is refused, and close it (code 4000 + the status)."""
        # Not even a refusal may wait on a client that does not read.
        with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError, TimeoutError):
            async with asyncio.timeout(self.send_timeout):
                await socket.send_json({"type": "error", **error_json(error)})
                await socket.close(code=4000 + error.status)

    async def _serve(
        self, socket: WebSocket, table_id: str, dialect: Dialect, account: int | None
    ) -> None:
        table, seat = await self.enter(table_id, account)  # a refusal: serve() tells why
        conn = Connection(socket, seat, dialect, account=account)
        self.connect(table, conn)
        dropped = asyncio.ensure_future(conn.closed.wait())
        try:
            while True:
                receiving = asyncio.ensure_future(socket.receive())
                await asyncio.wait({receiving, dropped}, return_when=asyncio.FIRST_COMPLETED)
                if not receiving.done():  # the server dropped the connection
                    receiving.cancel()
                    break
                message = receiving.result()
                if message["type"] == "websocket.disconnect":
                    break
                try:
                    await self.handle(table, conn, message.get("text"))
                except CommandError as error:
                    state = self.state(table, conn.seat, dialect) if error.status == 409 else None
                    self.post(table, conn, {"type": "error", **error_json(error, state)})
                except Exception as error:  # never let one message take the connection down
                    log.exception("message failed at table %s", table.id)
                    failed = failure(error)
                    self.post(table, conn, {"type": "error", **error_json(failed)})
        except WebSocketDisconnect:
            pass
        finally:
            dropped.cancel()
            self.disconnect(table, conn)

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
        elif kind == "go-on":
            await self.go_on(table, conn, data)
        elif kind in COMMANDS:
            await self.command(table, conn.seat, data)
        else:
            known = ", ".join((*SEAT_MESSAGES, *COMMANDS))
            raise CommandError(400, f"unknown message type {kind!r}: use one of {known}")

    def connect(self, table: Table, conn: Connection) -> None:
        """A new connection: its writer started, told the table's state; the bots of a table
        nobody watched were waiting, and play on now."""
        table.connections[conn.socket] = conn
        conn.writer = self.spawn(self._write(table, conn))
        if conn.seat is not None:
            table.seats[conn.seat].absent_since = None
        self.post(table, conn, self.message(table, conn))
        self.kick(table)

    def disconnect(self, table: Table, conn: Connection) -> None:
        """A connection went away (or was dropped); a person left without any connection is
        now absent. Its writer ends."""
        if table.connections.get(conn.socket) is not conn:
            return  # told already
        del table.connections[conn.socket]
        conn.drop("gone")
        if conn.seat is not None and not table.connected(conn.seat):
            table.seats[conn.seat].absent_since = time.time()
            if table.hold is not None and not table.hold_waiting():
                self._release(table)  # he was the last the hold waited for
                return
            self.broadcast(table)
            self.kick(table)

    def drop(self, table: Table, conn: Connection, reason: str) -> None:
        """Disconnect a client that does not read: the table forgets it at once, and the
        socket is closed (code :data:`NOT_READING`, with the reason) within the send
        timeout."""
        if conn.dropped is not None:
            return
        log.warning("dropped a connection at table %s: %s", table.id, reason)
        conn.drop(reason)
        self.disconnect(table, conn)
        writer = conn.writer
        if writer is not None and writer is not asyncio.current_task():
            writer.cancel()  # it may be stuck in a send
        self.spawn(self._close(conn, reason))

    async def _write(self, table: Table, conn: Connection) -> None:
        """Send the connection's outbox, each message within the send timeout."""
        while True:
            message = await conn.next()
            if message is None or not conn.open:
                return
            try:
                async with asyncio.timeout(self.send_timeout):
                    await conn.socket.send_json(message)
            except TimeoutError:
                self.drop(table, conn, f"not reading: a message waited {self.send_timeout:g} s")
                return
            except (RuntimeError, WebSocketDisconnect, OSError):
                return  # the client went away: its receiving loop ends and tells the table

    async def _close(self, conn: Connection, reason: str) -> None:
        # The server's own close is bounded (uvicorn's websockets wait 10 s for the close frame
        # to go, then abort the connection): cutting it short would leave the connection open
        # with its unread bytes, so this bound is only a backstop, well beyond it.
        with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError, TimeoutError):
            async with asyncio.timeout(CLOSE_BACKSTOP):
                await conn.socket.close(code=NOT_READING, reason=reason)

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
        self.broadcast(table)

    async def _bot_move(self, table: Table) -> None:
        failed = False
        try:
            seat = table.bot_seat(time.time())
            if seat is None:
                return
            seq = table.events
            view = observe(table.game, table.last, seat).view
            bot = table.bot_for(seat)
            # The rules travel with the bot: a game registered in this process only
            # (games.register) is unknown to a worker by name, but its class pickles by module.
            bot.rules_for(view)
            move, thought = await self.run("bots", None, think, bot, view)
            if table.bots.get(seat) is bot:
                # The bot as it left its move (its random generator moved on), should it have
                # thought in another process.
                table.bots[seat] = thought
            async with table.lock:
                # The person came back, the table moved on, or everybody left, while the bot
                # thought.
                if table.events != seq or table.bot_seat(time.time()) != seat or not table.attended:
                    return
                await self._apply(table, seat, "move", move)
            self.broadcast(table)
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

    async def hint(self, table: Table, client: Client = None) -> dict[str, Any]:
        """The hinter's answer for the table's position, worked out on a copy in
        :class:`HintGate`'s threads while the table goes on taking commands, under the gate's
        quota for ``client`` (an address and a session)."""
        if self.hinter is None:
            raise CommandError(501, "hints come with the solver, which this server does not have")
        snapshot = copy.deepcopy(table.game)
        try:
            return await self.hint_gate.run(table.id, self.hinter, snapshot, client)
        except CommandError:
            raise
        except Exception as error:  # the solver's failure must not take the server down
            raise CommandError(500, f"the hint failed: {error}") from None

    def give(self, table_ids: list[str], account: int) -> None:
        """Tables the store has just given to ``account`` (a name's tables taken over, an
        anonymous session's joining the name it logged in as): those in memory follow."""
        for table_id in table_ids:
            table = self._tables.get(table_id)
            if table is None:
                continue
            table.owner = account
            if table.settings.private:
                for seat in table.seats:
                    if seat.bot is None and seat.token_hash is None:
                        seat.owner = account

    async def tables_of(self, account: int | None, *, ongoing: bool) -> list[dict[str, Any]]:
        """An account's one-player tables, latest first (none for a session that owns
        nothing)."""
        if account is None:
            return []
        rows = await self.offload(self.store.owned_tables, account, ongoing=ongoing)
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

    async def shared_tables(self, account: int | None) -> list[dict[str, Any]]:
        """The tables of several players that ``account`` may see listed: those their
        creators listed in the lobby, and its own; latest first. A table's seats are shown as
        its spectators see them."""

        def read() -> list[tuple[Any, list[SharedSeat], dict[str, Any]]]:
            return [
                (row, self.store.shared_seats(row.id), self.store.shared_settings(row.id) or {})
                for row in self.store.shared_tables(account)
            ]

        listed = []
        for row, seats, settings in await self.offload(read):
            listed.append(
                {
                    "table": row.id,
                    "url": f"/table/{row.id}",
                    "game": row.game,
                    "title": variant_title(row.game, row.options),
                    "options": row.options,
                    "seats": describe_seats(seats),
                    "result": row.result,
                    "listed": settings.get("listed") is True,
                    "mine": account is not None and row.owner == account,
                    "created": row.created,
                }
            )
        return listed

    async def lobby(self) -> dict[str, Any]:
        """The lobby: the ongoing shared tables their creators chose to list, the newest first,
        each with its game, heading, seats (bot, person or open) and how many are free."""
        found = await self.offload(self.store.listed_tables)
        tables = []
        for row, seats in found:
            try:
                heading = table_heading(get_rules(row.game, row.options))
            except ValueError:  # a game or option this server no longer knows
                continue
            described = describe_seats(seats)
            tables.append(
                {
                    "table": row.id,
                    "url": f"/table/{row.id}",
                    "game": row.game,
                    "title": variant_title(row.game, row.options),
                    "heading": heading,
                    "seats": described,
                    "open": sum(seat["kind"] == "open" for seat in described),
                    "bots": sum(seat["kind"] == "bot" for seat in described),
                    "created": row.created,
                }
            )
        return {"tables": tables}

    async def stats(self, account: Account | None, shown: str) -> dict[str, Any]:
        """An account's statistics (None: a session that owns nothing has none), one entry per
        game and options, named by its title; ``shown`` is the name they are shown under. A
        claimed name's include its ended shared tables."""
        found = (
            []
            if account is None
            else await self.offload(
                self.store.account_stats,
                account.id,
                full_options,
                claimed=account.display if account.claimed else None,
            )
        )
        entries = [
            {**entry.to_json(), "title": variant_title(entry.game, entry.options)}
            for entry in found
        ]
        entries.sort(key=lambda entry: (entry["game"], entry["title"]))
        return {
            "player": shown,
            "games": entries,
            "public": account is not None and account.show_stats,
        }
