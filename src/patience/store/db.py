"""The store itself: a SQLite database reached through the standard library's ``sqlite3``.

Writes are few and small (one row per event), so one connection guarded by a lock serves a
whole server. Every write commits before the method returns, with ``synchronous=FULL``: once
:meth:`Store.append_event` has returned, the event survives a crash of the server or the machine.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..options import OptionValue
from ..sqlite_schema import Migration, NewerSchema, migrate

__all__ = [
    "EVENT_KINDS",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Event",
    "GameStats",
    "SharedSeat",
    "Snapshot",
    "Store",
    "StoreError",
    "TableRow",
    "valid_player_name",
]

#: What can happen at a table. ``move`` carries the move's text; the others carry nothing.
EVENT_KINDS = ("move", "undo", "redo", "restart", "resign")

#: The schema, one step per version: ``MIGRATIONS[n]`` takes a store from version n to n + 1.
#: Never edit a step that has shipped; add a new one.
MIGRATIONS: tuple[Migration, ...] = (
    # 1: players, tables with their seats, and the event log of each table.
    """
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        created REAL NOT NULL
    );
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        deal INTEGER,
        created REAL NOT NULL,
        updated REAL NOT NULL,
        result TEXT NOT NULL DEFAULT 'ongoing',
        reason TEXT NOT NULL DEFAULT '',
        finished REAL,
        moves INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE seats (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        player_id INTEGER REFERENCES players(id),
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX seats_by_player ON seats(player_id);
    CREATE TABLE events (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        move TEXT,
        at REAL NOT NULL,
        PRIMARY KEY (table_id, seq)
    );
    """,
    # 2: a one-player game's score (Accordion's piles left), kept for statistics.
    """
    ALTER TABLE tables ADD COLUMN score INTEGER;
    """,
    # 3: tables of several players (server/service.py): the table's settings (JSON; NULL for a
    # one-player table), and per seat the bot that sits there, or the name of the person who
    # joined and the SHA-256 of his secret seat token. Such seats leave player_id NULL, so
    # shared tables stay out of the one-player statistics and lists.
    """
    ALTER TABLE tables ADD COLUMN shared TEXT;
    ALTER TABLE seats ADD COLUMN bot TEXT;
    ALTER TABLE seats ADD COLUMN guest TEXT;
    ALTER TABLE seats ADD COLUMN token_hash TEXT;
    """,
    # 4: a snapshot of a table's game after its first ``events`` events (server/snapshots.py),
    # so that a rebuild replays only the events after it. A cache: the event log stays the
    # record, and a snapshot another version of the program wrote (``fingerprint``) is ignored.
    """
    CREATE TABLE snapshots (
        table_id TEXT PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
        events INTEGER NOT NULL,
        fingerprint TEXT NOT NULL,
        data BLOB NOT NULL,
        at REAL NOT NULL
    );
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)

#: Longest player name accepted.
MAX_NAME = 40


class StoreError(ValueError):
    """A request the store refuses (a bad player name, an unknown table, an event out of turn),
    or a database written by a newer version of the program."""


def valid_player_name(name: object) -> str:
    """The player name, trimmed, or :class:`StoreError` saying what a name may be.

    A name is 1 to 40 printable characters without commas (records list players with commas)
    and without U+FFFD, the replacement character, which stands for text that could not be
    decoded (a cookie of bytes that are not UTF-8, say), never for a name somebody chose.
    """
    if not isinstance(name, str):
        raise StoreError("a player name is text")
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise StoreError(f"a player name has 1 to {MAX_NAME} characters")
    if "," in name or not name.isprintable():
        raise StoreError("a player name has no commas and no control characters")
    if "\ufffd" in name:
        raise StoreError("a player name has no replacement characters (U+FFFD)")
    return name


@dataclass(frozen=True)
class Event:
    """One thing done at a table: ``seq`` counts from 0; ``move`` is set for ``kind="move"``."""

    seq: int
    seat: int
    kind: str
    move: str | None
    at: float


@dataclass(frozen=True)
class TableRow:
    """A table as stored: the game, its options and deal, the seats' player names (None for an
    empty seat), how it stands, and its timestamps (seconds since the epoch)."""

    id: str
    game: str
    options: dict[str, OptionValue]
    deal: int | None
    seats: list[str | None]
    created: float
    updated: float
    result: str
    reason: str
    finished: float | None
    moves: int
    score: int | None
    events: int


@dataclass(frozen=True)
class Snapshot:
    """A table's game saved after its first ``events`` events, by the program whose code has
    ``fingerprint``; ``data`` is opaque to the store."""

    events: int
    fingerprint: str
    data: bytes


@dataclass(frozen=True)
class SharedSeat:
    """A seat of a table of several players: a ``bot`` (its name), or a person who joined
    (``guest``, his name, and ``token_hash``, the SHA-256 of his secret seat token), or open
    (all None)."""

    seat: int
    bot: str | None = None
    guest: str | None = None
    token_hash: str | None = None


@dataclass(frozen=True)
class GameStats:
    """One player's statistics for one game played with one set of ``options`` (Spider with
    1 suit and with 4 suits are counted apart).

    ``played`` counts tables where the player did anything; ``won`` those won. Streaks run over
    the played tables in the order they were started: a table given up while ongoing (not the
    player's latest of that game) counts as a loss, the latest one while ongoing not at all.
    ``best_seconds`` is the shortest time from the start of a table to its win, ``best_moves``
    the fewest moves on the stack at a win.
    """

    game: str
    played: int
    won: int
    current_streak: int
    best_streak: int
    best_seconds: float | None
    best_moves: int | None
    options: dict[str, OptionValue] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        """Won divided by played (0.0 when nothing was played)."""
        return self.won / self.played if self.played else 0.0

    def to_json(self) -> dict[str, Any]:
        """The statistics as JSON, win rate included."""
        return {
            "game": self.game,
            "options": dict(self.options),
            "played": self.played,
            "won": self.won,
            "win_rate": round(self.win_rate, 4),
            "current_streak": self.current_streak,
            "best_streak": self.best_streak,
            "best_seconds": None if self.best_seconds is None else round(self.best_seconds, 1),
            "best_moves": self.best_moves,
        }


class Store:
    """A patience database at ``path`` (created, or upgraded to :data:`SCHEMA_VERSION`).

    ``":memory:"`` gives a private in-memory store, for tests.
    """

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        self.path = str(path)
        self._lock = threading.RLock()
        # Autocommit mode: transactions are opened explicitly in _transaction.
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA foreign_keys = ON")
        self._db.execute("PRAGMA busy_timeout = 5000")
        if self.path != ":memory:":
            self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = FULL")
        self.migrate()

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def check_writable(self) -> None:
        """Make sure the store can be written (a read-only file, a read-only mount): a write
        that is rolled back, so nothing changes. Raises :class:`sqlite3.Error` (``attempt to
        write a readonly database``) when it cannot."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                # Writes the database's header page, which every store has.
                version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
                self._db.execute(f"PRAGMA user_version = {version}")
                self._db.execute("CREATE TABLE patience_write_check (x)")
            finally:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")

    # -- schema ----------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The schema version of the database."""
        with self._lock:
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def migrate(self, target: int = SCHEMA_VERSION) -> None:
        """Run the migrations from the database's version up to ``target``, each in its own
        transaction (:func:`patience.sqlite_schema.migrate`); refuse a database newer than
        this program."""
        with self._lock:
            try:
                migrate(self._db, MIGRATIONS, target)
            except NewerSchema as error:
                raise StoreError(f"the database {self.path} has {error}") from None

    # -- players ---------------------------------------------------------------------------

    def player_id(self, name: str) -> int:
        """The id of player ``name`` (compared without regard to case), created if new."""
        name = valid_player_name(name)
        with self._transaction() as db:
            row = db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
            if row is not None:
                return int(row["id"])
            cursor = db.execute(
                "INSERT INTO players (name, created) VALUES (?, ?)", (name, time.time())
            )
            return int(cursor.lastrowid or 0)

    def players(self) -> list[str]:
        """Every player's name, alphabetically."""
        with self._lock:
            rows = self._db.execute("SELECT name FROM players ORDER BY name").fetchall()
        return [str(row["name"]) for row in rows]

    # -- tables ----------------------------------------------------------------------------

    def create_table(
        self,
        table_id: str,
        game: str,
        options: dict[str, OptionValue],
        deal: int | None,
        seats: Sequence[str | None],
    ) -> None:
        """Store a new table with its seats (player names, None for a seat nobody holds)."""
        ids = [None if name is None else self.player_id(name) for name in seats]
        now = time.time()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tables (id, game, options, deal, created, updated) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, game, json.dumps(options), deal, now, now),
            )
            db.executemany(
                "INSERT INTO seats (table_id, seat, player_id) VALUES (?, ?, ?)",
                [(table_id, seat, player) for seat, player in enumerate(ids)],
            )

    def table(self, table_id: str) -> TableRow | None:
        """The table ``table_id``, or None if there is none."""
        with self._lock:
            row = self._db.execute(
                "SELECT t.*, (SELECT COUNT(*) FROM events e WHERE e.table_id = t.id) AS events "
                "FROM tables t WHERE t.id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                return None
            seats = self._db.execute(
                "SELECT s.seat, p.name FROM seats s LEFT JOIN players p ON p.id = s.player_id "
                "WHERE s.table_id = ? ORDER BY s.seat",
                (table_id,),
            ).fetchall()
        return _table_row(row, [seat["name"] for seat in seats])

    def events(self, table_id: str, *, start: int = 0) -> list[Event]:
        """Every event of a table from number ``start`` on, in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, seat, kind, move, at FROM events WHERE table_id = ? AND seq >= ? "
                "ORDER BY seq",
                (table_id, start),
            ).fetchall()
        return [Event(row["seq"], row["seat"], row["kind"], row["move"], row["at"]) for row in rows]

    def append_event(
        self,
        table_id: str,
        seq: int,
        seat: int,
        kind: str,
        move: str | None,
        *,
        result: str,
        reason: str,
        moves: int,
        score: int | None = None,
    ) -> float | None:
        """Store event number ``seq`` of a table and how the table stands after it, in one
        committed transaction. ``seq`` must be the next number: an event computed from a stale
        copy of the table is refused (:class:`StoreError`) and nothing is written.

        Returns the table's finishing time as stored (None while the game goes on), so that the
        table in memory shows the same time as the statistics will."""
        if kind not in EVENT_KINDS:
            raise StoreError(f"unknown event {kind!r}: use one of {', '.join(EVENT_KINDS)}")
        if (kind == "move") != (move is not None):
            raise StoreError("a move event carries its move, and only a move event does")
        now = time.time()
        with self._transaction() as db:
            row = db.execute(
                "SELECT t.finished, (SELECT COUNT(*) FROM events e WHERE e.table_id = t.id) AS n "
                "FROM tables t WHERE t.id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                raise StoreError(f"there is no table {table_id!r}")
            if row["n"] != seq:
                raise StoreError(
                    f"table {table_id} has {row['n']} events; event {seq} is out of turn"
                )
            db.execute(
                "INSERT INTO events (table_id, seq, seat, kind, move, at) VALUES (?,?,?,?,?,?)",
                (table_id, seq, seat, kind, move, now),
            )
            # The finishing time is when the game first reached its present end; taking a
            # losing move back (an undo) makes it ongoing again.
            finished = None if result == "ongoing" else (row["finished"] or now)
            db.execute(
                "UPDATE tables SET updated = ?, result = ?, reason = ?, finished = ?, moves = ?, "
                "score = ? WHERE id = ?",
                (now, result, reason, finished, moves, score, table_id),
            )
        return None if finished is None else float(finished)

    def save_snapshot(self, table_id: str, snapshot: Snapshot) -> None:
        """Keep ``snapshot`` as the table's (replacing an older one); refused if the table has
        fewer events than the snapshot claims to cover."""
        with self._transaction() as db:
            row = db.execute(
                "SELECT COUNT(*) AS n FROM events WHERE table_id = ?", (table_id,)
            ).fetchone()
            if row["n"] < snapshot.events:
                raise StoreError(
                    f"table {table_id} has {row['n']} events, not the {snapshot.events} "
                    "the snapshot covers"
                )
            db.execute(
                "INSERT OR REPLACE INTO snapshots (table_id, events, fingerprint, data, at) "
                "VALUES (?, ?, ?, ?, ?)",
                (table_id, snapshot.events, snapshot.fingerprint, snapshot.data, time.time()),
            )

    def snapshot(self, table_id: str) -> Snapshot | None:
        """The table's latest snapshot, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT events, fingerprint, data FROM snapshots WHERE table_id = ?", (table_id,)
            ).fetchone()
        if row is None:
            return None
        return Snapshot(int(row["events"]), str(row["fingerprint"]), bytes(row["data"]))

    # -- tables of several players ----------------------------------------------------------

    def create_shared_table(
        self,
        table_id: str,
        game: str,
        options: dict[str, OptionValue],
        deal: int | None,
        seats: Sequence[SharedSeat],
        settings: dict[str, Any],
    ) -> None:
        """Store a new table of several players: its seats (bots, or open) and its settings
        (JSON), in one transaction."""
        now = time.time()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tables (id, game, options, deal, created, updated, shared) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (table_id, game, json.dumps(options), deal, now, now, json.dumps(settings)),
            )
            db.executemany(
                "INSERT INTO seats (table_id, seat, bot, guest, token_hash) VALUES (?, ?, ?, ?, ?)",
                [(table_id, s.seat, s.bot, s.guest, s.token_hash) for s in seats],
            )

    def shared_settings(self, table_id: str) -> dict[str, Any] | None:
        """The settings of a table of several players, or None (no such table, or a one-player
        table)."""
        with self._lock:
            row = self._db.execute("SELECT shared FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None or row["shared"] is None:
            return None
        settings = json.loads(row["shared"])
        return settings if isinstance(settings, dict) else None

    def shared_seats(self, table_id: str) -> list[SharedSeat]:
        """The seats of a table of several players, in seat order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seat, bot, guest, token_hash FROM seats WHERE table_id = ? ORDER BY seat",
                (table_id,),
            ).fetchall()
        return [
            SharedSeat(row["seat"], row["bot"], row["guest"], row["token_hash"]) for row in rows
        ]

    def claim_seat(self, table_id: str, seat: int, guest: str, token_hash: str) -> bool:
        """Give an open seat to ``guest`` with his token's hash; False (nothing written) when
        the seat is not open any more (somebody else was quicker)."""
        with self._transaction() as db:
            cursor = db.execute(
                "UPDATE seats SET guest = ?, token_hash = ? WHERE table_id = ? AND seat = ? "
                "AND bot IS NULL AND token_hash IS NULL AND player_id IS NULL",
                (guest, token_hash, table_id, seat),
            )
            return cursor.rowcount == 1

    def tables_of(self, player: str, *, ongoing: bool = False, limit: int = 20) -> list[TableRow]:
        """A player's tables, the most recently played first (only ongoing ones if asked)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT t.id FROM tables t JOIN seats s ON s.table_id = t.id "
                "JOIN players p ON p.id = s.player_id WHERE p.name = ? "
                + ("AND t.result = 'ongoing' " if ongoing else "")
                + "ORDER BY t.updated DESC LIMIT ?",
                (player, limit),
            ).fetchall()
        found = (self.table(str(row["id"])) for row in rows)
        return [table for table in found if table is not None]

    # -- statistics ------------------------------------------------------------------------

    def stats(
        self,
        player: str,
        canonical: Callable[[str, dict[str, OptionValue]], dict[str, OptionValue]] | None = None,
    ) -> list[GameStats]:
        """``player``'s statistics for each game and set of options they have played, by game
        name then options.

        ``canonical(game, options)`` gives the options a stored table counts under (the server
        fills in the defaults, so that a table stored before an option existed counts with the
        tables that have its default); without it, the options as stored.
        """
        with self._lock:
            rows = self._db.execute(
                "SELECT t.game, t.options, t.result, t.created, t.finished, t.moves FROM tables t "
                "JOIN seats s ON s.table_id = t.id JOIN players p ON p.id = s.player_id "
                "WHERE p.name = ? AND EXISTS (SELECT 1 FROM events e WHERE e.table_id = t.id) "
                "ORDER BY t.game, t.created, t.rowid",
                (player,),
            ).fetchall()
        groups: dict[tuple[str, str], list[sqlite3.Row]] = {}
        for row in rows:
            game = str(row["game"])
            options = json.loads(row["options"])
            if canonical is not None:
                options = canonical(game, options)
            key = json.dumps(options, sort_keys=True, separators=(",", ":"))
            groups.setdefault((game, key), []).append(row)
        return [
            _game_stats(game, json.loads(key), tables)
            for (game, key), tables in sorted(groups.items())
        ]


def _game_stats(game: str, options: dict[str, OptionValue], tables: list[sqlite3.Row]) -> GameStats:
    won = [row for row in tables if row["result"] == "won"]
    streak = best = 0
    for index, row in enumerate(tables):
        if row["result"] == "won":
            streak += 1
            best = max(best, streak)
        elif row["result"] == "ongoing" and index == len(tables) - 1:
            continue  # still being played: it neither extends nor breaks the streak
        else:
            streak = 0
    return GameStats(
        game=game,
        options=options,
        played=len(tables),
        won=len(won),
        current_streak=streak,
        best_streak=best,
        best_seconds=min((row["finished"] - row["created"] for row in won), default=None),
        best_moves=min((int(row["moves"]) for row in won), default=None),
    )


def _table_row(row: sqlite3.Row, seats: list[str | None]) -> TableRow:
    return TableRow(
        id=str(row["id"]),
        game=str(row["game"]),
        options=json.loads(row["options"]),
        deal=row["deal"],
        seats=seats,
        created=float(row["created"]),
        updated=float(row["updated"]),
        result=str(row["result"]),
        reason=str(row["reason"]),
        finished=row["finished"],
        moves=int(row["moves"]),
        score=row["score"],
        events=int(row["events"]),
    )
