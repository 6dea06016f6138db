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
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..options import OptionValue
from ..sqlite_schema import Migration, NewerSchema, migrate, statements

__all__ = [
    "EVENT_KINDS",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Account",
    "Event",
    "GameStats",
    "SharedSeat",
    "Snapshot",
    "Store",
    "StoreError",
    "TableRow",
    "name_key",
    "valid_player_name",
]


def name_key(name: str) -> str:
    """How names are compared everywhere: NFKC, then case folded (and NFKC again, since case
    folding can leave text that is not normalised), so that "STRASSE", "straße" and
    "Ｓｔｒａｓｓｅ" are one name. The store keeps this key beside the name as chosen."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _sessions_step(db: sqlite3.Connection) -> None:
    """Migration 5: sessions, and the names people claim with a password.

    An *account* owns tables: every browser's session has one (anonymous until a name is
    claimed: ``name_key`` and ``password`` NULL), and a claimed name is an account that
    sessions log in to. ``display`` is the name as chosen (NULL: none chosen), ``name_key``
    its :func:`name_key` (unique among claimed names), ``password`` an argon2 hash, and
    ``show_stats`` whether anybody may see its statistics. A session is kept as the SHA-256
    of its token (the token itself is never stored). A table's ``owner_id`` is the account it
    belongs to (a one-player table's player, a shared table's creator); tables stored before
    sessions have none and stay their old names' (``players``) until claimed (whether a shared
    table is listed in the lobby is one of its settings). ``players.name_key`` is the key of
    each old name, so that old tables can be found by a name compared the new way.
    """
    for statement in statements(
        """
        CREATE TABLE accounts (
            id INTEGER PRIMARY KEY,
            display TEXT,
            name_key TEXT UNIQUE,
            password TEXT,
            show_stats INTEGER NOT NULL DEFAULT 0,
            created REAL NOT NULL
        );
        CREATE TABLE sessions (
            token_hash TEXT PRIMARY KEY,
            account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
            created REAL NOT NULL
        );
        CREATE INDEX sessions_by_account ON sessions(account_id);
        ALTER TABLE tables ADD COLUMN owner_id INTEGER REFERENCES accounts(id);
        CREATE INDEX tables_by_owner ON tables(owner_id);
        ALTER TABLE players ADD COLUMN name_key TEXT;
        CREATE INDEX players_by_key ON players(name_key)
        """
    ):
        db.execute(statement)
    for player_id, name in db.execute("SELECT id, name FROM players").fetchall():
        db.execute("UPDATE players SET name_key = ? WHERE id = ?", (name_key(name), player_id))


def _last_seen_step(db: sqlite3.Connection) -> None:
    """Migration 7: when each session was last seen (``last_seen``, seconds since the epoch;
    written at most once a day per session), so that sessions unused for a long time can be
    removed (:meth:`Store.expire_sessions`). Sessions stored before it count as seen when the
    store is migrated: nothing says when they were last used, and none should go at once."""
    db.execute("ALTER TABLE sessions ADD COLUMN last_seen REAL NOT NULL DEFAULT 0")
    db.execute("UPDATE sessions SET last_seen = ?", (time.time(),))
    db.execute("CREATE INDEX sessions_by_last_seen ON sessions(last_seen)")


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
    # 5: sessions and claimed names (_sessions_step).
    _sessions_step,
    # 6: what an account last chose to play each one-player game with (the web app's start
    # page): {game: {"options": {...}, "winnable": bool, "scoring": str}}, as JSON.
    """
    ALTER TABLE accounts ADD COLUMN choices TEXT NOT NULL DEFAULT '{}';
    """,
    # 7: when each session was last seen, for removing the long unused (_last_seen_step).
    _last_seen_step,
)

SCHEMA_VERSION = len(MIGRATIONS)

#: Longest player name accepted.
MAX_NAME = 40


class StoreError(ValueError):
    """A request the store refuses (a bad player name, an unknown table, an event out of turn),
    or a database written by a newer version of the program."""


def valid_player_name(name: object) -> str:
    """The player name, trimmed, or :class:`StoreError` saying what a name may be.

    A name is 1 to 40 printable characters (a comma is fine: records write such a name as a
    JSON string in their Players tag) without U+FFFD, the replacement character, which stands
    for text that could not be decoded (a cookie of bytes that are not UTF-8, say), never for a
    name somebody chose.
    """
    if not isinstance(name, str):
        raise StoreError("a player name is text")
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise StoreError(f"a player name has 1 to {MAX_NAME} characters")
    if not name.isprintable():
        raise StoreError("a player name has no control characters (line breaks, tabs)")
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
    #: The account the table belongs to (None: stored before sessions, or by name).
    owner: int | None = None
    #: A table of several players (False: a one-player table).
    shared: bool = False


@dataclass(frozen=True)
class Account:
    """Who owns tables: a session's anonymous account, or a claimed name (``key`` and
    ``password`` set). ``display`` is the name as chosen (None: none chosen yet);
    ``show_stats``: anybody may see its statistics."""

    id: int
    display: str | None = None
    key: str | None = None
    password: str | None = None
    show_stats: bool = False
    #: What it last chose to play each one-player game with (the start page's settings).
    choices: dict[str, Any] = field(default_factory=dict)

    @property
    def claimed(self) -> bool:
        """True for a name claimed with a password."""
        return self.key is not None


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
        """The id of player ``name`` (compared without regard to case), created if new.

        Players known by name alone are how tables were owned before sessions (a name cookie):
        the server now stores tables under accounts (:meth:`new_session`)."""
        name = valid_player_name(name)
        with self._transaction() as db:
            row = db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
            if row is not None:
                return int(row["id"])
            cursor = db.execute(
                "INSERT INTO players (name, created, name_key) VALUES (?, ?, ?)",
                (name, time.time(), name_key(name)),
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
        *,
        owner: int | None = None,
    ) -> None:
        """Store a new table with its seats (player names, None for a seat nobody holds).

        With ``owner`` (an account's id) the table is that account's, and the names are only
        how its seats are shown (in records too); without, the seats are players known by
        name (:meth:`player_id`), as tables were before sessions."""
        ids = [
            None if name is None or owner is not None else self.player_id(name) for name in seats
        ]
        shown = [name if owner is not None else None for name in seats]
        now = time.time()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tables (id, game, options, deal, created, updated, owner_id) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (table_id, game, json.dumps(options), deal, now, now, owner),
            )
            db.executemany(
                "INSERT INTO seats (table_id, seat, player_id, guest) VALUES (?, ?, ?, ?)",
                [
                    (table_id, seat, player, name)
                    for seat, (player, name) in enumerate(zip(ids, shown, strict=True))
                ],
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
            # A one-player seat's name: its player's (stored by name) or the name shown (a
            # table of an account); a shared seat's people are read by shared_seats.
            seats = self._db.execute(
                "SELECT s.seat, COALESCE(p.name, CASE WHEN s.token_hash IS NULL AND s.bot IS NULL "
                "THEN s.guest END) AS name FROM seats s LEFT JOIN players p ON p.id = s.player_id "
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
        seat_results: Sequence[str] | None = None,
    ) -> float | None:
        """Store event number ``seq`` of a table and how the table stands after it, in one
        committed transaction. ``seq`` must be the next number: an event computed from a stale
        copy of the table is refused (:class:`StoreError`) and nothing is written.
        ``seat_results`` (a table of several players that has ended: "won", "lost" or "draw"
        per seat) is kept in the table's settings JSON as ``results``, for the statistics of
        the people who sat there (no new column: the settings are that table's own JSON).

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
            if seat_results is not None:
                db.execute(
                    "UPDATE tables SET shared = json_set(shared, '$.results', json(?)) "
                    "WHERE id = ? AND shared IS NOT NULL",
                    (json.dumps(list(seat_results)), table_id),
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
        *,
        owner: int | None = None,
    ) -> None:
        """Store a new table of several players: its seats (bots, or open), its settings
        (JSON) and its creator's account (``owner``), in one transaction."""
        now = time.time()
        with self._transaction() as db:
            db.execute(
                "INSERT INTO tables (id, game, options, deal, created, updated, shared, owner_id) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table_id,
                    game,
                    json.dumps(options),
                    deal,
                    now,
                    now,
                    json.dumps(settings),
                    owner,
                ),
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

    def listed_tables(self, limit: int = 50) -> list[tuple[TableRow, list[SharedSeat]]]:
        """The ongoing tables of several players their creators chose to list in the lobby
        (``"listed": true`` in their settings), the newest first, with their seats."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM tables WHERE shared IS NOT NULL AND result = 'ongoing' "
                "AND json_extract(shared, '$.listed') = 1 ORDER BY created DESC LIMIT ?",
                (limit,),
            ).fetchall()
        found = ((self.table(str(row["id"])), self.shared_seats(str(row["id"]))) for row in rows)
        return [(table, seats) for table, seats in found if table is not None]

    def tables_of(self, player: str, *, ongoing: bool = False, limit: int = 20) -> list[TableRow]:
        """The one-player tables stored under a player's name (before sessions, or by
        :meth:`create_table` without an owner), the most recently played first (only ongoing
        ones if asked)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT t.id FROM tables t JOIN seats s ON s.table_id = t.id "
                "JOIN players p ON p.id = s.player_id WHERE p.name = ? "
                + ("AND t.result = 'ongoing' " if ongoing else "")
                + "ORDER BY t.updated DESC LIMIT ?",
                (player, limit),
            ).fetchall()
        return self._rows(rows)

    def owned_tables(
        self, account: int, *, ongoing: bool = False, limit: int = 20
    ) -> list[TableRow]:
        """An account's one-player tables, the most recently played first (only ongoing ones
        if asked)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM tables WHERE owner_id = ? AND shared IS NULL "
                + ("AND result = 'ongoing' " if ongoing else "")
                + "ORDER BY updated DESC LIMIT ?",
                (account, limit),
            ).fetchall()
        return self._rows(rows)

    def shared_tables(self, account: int | None, *, limit: int = 50) -> list[TableRow]:
        """The tables of several players the lobby shows to ``account``: those their creators
        listed (``"listed": true`` in their settings), and the account's own (None: listed ones
        only), the latest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM tables WHERE shared IS NOT NULL "
                "AND (json_extract(shared, '$.listed') = 1 OR owner_id = ?) "
                "ORDER BY created DESC LIMIT ?",
                (account, limit),
            ).fetchall()
        return self._rows(rows)

    def _rows(self, rows: Sequence[sqlite3.Row]) -> list[TableRow]:
        found = (self.table(str(row["id"])) for row in rows)
        return [table for table in found if table is not None]

    # -- accounts and sessions ---------------------------------------------------------------

    def new_session(self, token_hash: str, display: str | None = None) -> Account:
        """The account of the session whose token has SHA-256 ``token_hash``: a new anonymous
        account if the session is new (two requests of one new session at once get one)."""
        with self._transaction() as db:
            row = db.execute(
                "SELECT a.* FROM sessions s JOIN accounts a ON a.id = s.account_id "
                "WHERE s.token_hash = ?",
                (token_hash,),
            ).fetchone()
            if row is not None:
                return _account(row)
            now = time.time()
            cursor = db.execute(
                "INSERT INTO accounts (display, created) VALUES (?, ?)", (display, now)
            )
            account = int(cursor.lastrowid or 0)
            db.execute(
                "INSERT INTO sessions (token_hash, account_id, created, last_seen) "
                "VALUES (?, ?, ?, ?)",
                (token_hash, account, now, now),
            )
        return Account(account, display)

    def session_account(self, token_hash: str) -> Account | None:
        """The account of a session (None: no such session)."""
        found = self.session(token_hash)
        return None if found is None else found[0]

    def session(self, token_hash: str) -> tuple[Account, float] | None:
        """The account of a session and when the session was last seen (seconds since the
        epoch, :meth:`seen_session`); None: no such session."""
        with self._lock:
            row = self._db.execute(
                "SELECT a.*, s.last_seen AS session_seen FROM sessions s "
                "JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = ?",
                (token_hash,),
            ).fetchone()
        return None if row is None else (_account(row), float(row["session_seen"]))

    def seen_session(self, token_hash: str, when: float | None = None) -> None:
        """Note that a session was seen ``when`` (now by default). The server does so at most
        once a day per session (server/sessions.py), so that a request rarely writes."""
        with self._transaction() as db:
            db.execute(
                "UPDATE sessions SET last_seen = max(last_seen, ?) WHERE token_hash = ?",
                (time.time() if when is None else when, token_hash),
            )

    def expire_sessions(self, unused_for: float, now: float | None = None) -> tuple[int, int]:
        """Remove the sessions not seen for ``unused_for`` seconds (before ``now``, the
        present by default), and the anonymous accounts they leave with no session and no
        table (nobody can reach them any more). An account that owns tables stays with them
        (a shared table may still be played by others; a one-player one stays in the store as
        played), and so does a claimed name, which its password reaches. Returns how many
        sessions and accounts were removed."""
        cutoff = (time.time() if now is None else now) - unused_for
        with self._transaction() as db:
            sessions = db.execute("DELETE FROM sessions WHERE last_seen < ?", (cutoff,)).rowcount
            accounts = db.execute(
                "DELETE FROM accounts WHERE name_key IS NULL "
                "AND id NOT IN (SELECT account_id FROM sessions) "
                "AND id NOT IN (SELECT owner_id FROM tables WHERE owner_id IS NOT NULL) "
                # A younger one may be on its way to a session or a name (new_claimed_account).
                "AND created < ?",
                (cutoff,),
            ).rowcount
        return sessions, accounts

    def account(self, account: int) -> Account | None:
        """The account ``account`` (None: none)."""
        with self._lock:
            row = self._db.execute("SELECT * FROM accounts WHERE id = ?", (account,)).fetchone()
        return None if row is None else _account(row)

    def claimed_account(self, name: str) -> Account | None:
        """The account that claimed ``name`` (compared by :func:`name_key`), if any."""
        with self._lock:
            row = self._db.execute(
                "SELECT * FROM accounts WHERE name_key = ?", (name_key(name),)
            ).fetchone()
        return None if row is None else _account(row)

    def update_account(
        self,
        account: int,
        *,
        display: str | None = None,
        show_stats: bool | None = None,
        choices: Mapping[str, Any] | None = None,
    ) -> Account:
        """Change an account's name as shown (the same name, for a claimed one: refused
        otherwise), its statistics setting, or its choices (``choices``: per game, replacing
        that game's, the other games' kept); the account as it now is."""
        with self._transaction() as db:
            row = db.execute("SELECT * FROM accounts WHERE id = ?", (account,)).fetchone()
            if row is None:
                raise StoreError(f"there is no account {account}")
            if display is not None:
                display = valid_player_name(display)
                if row["name_key"] is not None and name_key(display) != row["name_key"]:
                    raise StoreError(
                        f"{row['display']} is a claimed name: it is shown as spelled, in any "
                        "case, but it cannot become another name"
                    )
                db.execute("UPDATE accounts SET display = ? WHERE id = ?", (display, account))
            if show_stats is not None:
                db.execute(
                    "UPDATE accounts SET show_stats = ? WHERE id = ?", (int(show_stats), account)
                )
            if choices is not None:
                merged = {**json.loads(row["choices"]), **choices}
                db.execute(
                    "UPDATE accounts SET choices = ? WHERE id = ?", (json.dumps(merged), account)
                )
            row = db.execute("SELECT * FROM accounts WHERE id = ?", (account,)).fetchone()
        return _account(row)

    def claim_name(self, account: int, name: str, password_hash: str) -> Account:
        """Make ``account`` the claimed name ``name`` (shown as given) with a password's
        hash. Refused (:class:`StoreError`) when another account claimed that name (compared
        by :func:`name_key`) or this one has claimed a name already."""
        name = valid_player_name(name)
        key = name_key(name)
        with self._transaction() as db:
            row = db.execute("SELECT * FROM accounts WHERE id = ?", (account,)).fetchone()
            if row is None:
                raise StoreError(f"there is no account {account}")
            if row["name_key"] is not None:
                raise StoreError(f"you are {row['display']} already: log out to claim another name")
            taken = db.execute("SELECT 1 FROM accounts WHERE name_key = ?", (key,)).fetchone()
            if taken is not None:
                raise StoreError(f"the name {name} is claimed already: choose another")
            db.execute(
                "UPDATE accounts SET display = ?, name_key = ?, password = ? WHERE id = ?",
                (name, key, password_hash, account),
            )
            row = db.execute("SELECT * FROM accounts WHERE id = ?", (account,)).fetchone()
        return _account(row)

    def new_claimed_account(self, name: str, password_hash: str) -> Account:
        """A new account that claims ``name`` (refused if claimed already), with no session:
        for the administrator's ``patience admin claim-name``."""
        with self._transaction() as db:
            cursor = db.execute("INSERT INTO accounts (created) VALUES (?)", (time.time(),))
            account = int(cursor.lastrowid or 0)
        try:
            return self.claim_name(account, name, password_hash)
        except BaseException:
            with self._transaction() as db:
                db.execute("DELETE FROM accounts WHERE id = ?", (account,))
            raise

    def switch_session(self, old_hash: str | None, new_hash: str, account: int) -> list[str]:
        """End the session ``old_hash`` (if any) and start ``new_hash`` as ``account``'s (a
        login: the token changes). The old session's tables, if it was anonymous, become the
        account's, and its anonymous account goes. Returns the tables that moved."""
        moved: list[str] = []
        with self._transaction() as db:
            if old_hash is not None:
                row = db.execute(
                    "SELECT a.id, a.name_key FROM sessions s JOIN accounts a "
                    "ON a.id = s.account_id WHERE s.token_hash = ?",
                    (old_hash,),
                ).fetchone()
                db.execute("DELETE FROM sessions WHERE token_hash = ?", (old_hash,))
                if row is not None and row["name_key"] is None and row["id"] != account:
                    moved = [
                        str(found["id"])
                        for found in db.execute(
                            "SELECT id FROM tables WHERE owner_id = ?", (row["id"],)
                        ).fetchall()
                    ]
                    db.execute(
                        "UPDATE tables SET owner_id = ? WHERE owner_id = ?", (account, row["id"])
                    )
                    db.execute("DELETE FROM accounts WHERE id = ?", (row["id"],))
            now = time.time()
            db.execute(
                "INSERT INTO sessions (token_hash, account_id, created, last_seen) "
                "VALUES (?, ?, ?, ?)",
                (new_hash, account, now, now),
            )
        return moved

    def end_session(self, token_hash: str) -> None:
        """Forget a session (a logout); its account stays, with its tables."""
        with self._transaction() as db:
            db.execute("DELETE FROM sessions WHERE token_hash = ?", (token_hash,))

    # -- tables stored under names, before sessions -------------------------------------------

    def unclaimed_tables(self, name: str) -> list[str]:
        """The one-player tables stored under a name (compared by :func:`name_key`) before
        sessions, that no account has taken over yet."""
        with self._lock:
            rows = self._db.execute(
                "SELECT DISTINCT t.id FROM tables t JOIN seats s ON s.table_id = t.id "
                "JOIN players p ON p.id = s.player_id WHERE p.name_key = ? "
                "AND t.owner_id IS NULL AND t.shared IS NULL ORDER BY t.id",
                (name_key(name),),
            ).fetchall()
        return [str(row["id"]) for row in rows]

    def unclaimed_names(self) -> list[tuple[str, int]]:
        """Every old name with tables no account has taken over, and how many: ``(name,
        tables)`` in the order of the names (names that are one by :func:`name_key` are
        counted together, under the first)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT p.name, p.name_key, COUNT(DISTINCT t.id) AS n FROM tables t "
                "JOIN seats s ON s.table_id = t.id JOIN players p ON p.id = s.player_id "
                "WHERE t.owner_id IS NULL AND t.shared IS NULL GROUP BY p.id ORDER BY p.name"
            ).fetchall()
        found: dict[str, tuple[str, int]] = {}
        for row in rows:
            name, count = found.get(row["name_key"], (str(row["name"]), 0))
            found[row["name_key"]] = (name, count + int(row["n"]))
        return sorted(found.values())

    def take_over(self, name: str, account: int) -> list[str]:
        """Give ``account`` the tables stored under ``name`` (compared by :func:`name_key`)
        before sessions that nobody took over yet; which."""
        waiting = (
            "FROM tables WHERE owner_id IS NULL AND shared IS NULL AND id IN (SELECT s.table_id "
            "FROM seats s JOIN players p ON p.id = s.player_id WHERE p.name_key = ?)"
        )
        key = name_key(name)
        with self._transaction() as db:
            taken = [str(row["id"]) for row in db.execute(f"SELECT id {waiting}", (key,))]
            db.execute(
                f"UPDATE tables SET owner_id = ? WHERE id IN (SELECT id {waiting})", (account, key)
            )
        return taken

    # -- statistics ------------------------------------------------------------------------

    def stats(
        self,
        player: str,
        canonical: Callable[[str, dict[str, OptionValue]], dict[str, OptionValue]] | None = None,
    ) -> list[GameStats]:
        """``player``'s statistics for each game and set of options they have played, by game
        name then options: his one-player tables, and the ended tables of several players where
        a person of that name (``seats.guest``, any case) held a seat, with that seat's result.

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
        return _stats_of([*map(dict, rows), *self._shared_results(player)], canonical)

    def account_stats(
        self,
        account: int,
        canonical: Callable[[str, dict[str, OptionValue]], dict[str, OptionValue]] | None = None,
        *,
        claimed: str | None = None,
    ) -> list[GameStats]:
        """An account's statistics, as :meth:`stats` counts them: its one-player tables, and
        with ``claimed`` (the account's claimed name) the ended tables of several players where
        a person of that name (compared by :func:`name_key`) held a seat, with that seat's
        result. Only a claimed name counts there: nobody else can sit under it, while anybody
        may take an unclaimed name at a shared table."""
        with self._lock:
            rows = self._db.execute(
                "SELECT t.game, t.options, t.result, t.created, t.finished, t.moves FROM tables t "
                "WHERE t.owner_id = ? AND t.shared IS NULL "
                "AND EXISTS (SELECT 1 FROM events e WHERE e.table_id = t.id) "
                "ORDER BY t.game, t.created, t.rowid",
                (account,),
            ).fetchall()
        played: list[dict[str, Any]] = [dict(row) for row in rows]
        if claimed is not None:
            played.extend(self._shared_results(claimed))
        return _stats_of(played, canonical)

    def _shared_results(self, name: str) -> list[dict[str, Any]]:
        """The ended tables of several players where a person of ``name`` (compared by
        :func:`name_key`) held a seat, each with that seat's result (kept when the game ended:
        :meth:`append_event`'s ``seat_results``) and no move count (the moves of a shared table
        are everybody's)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT t.game, t.options, t.created, t.finished, s.seat, s.guest, "
                "json_extract(t.shared, '$.results') AS results FROM tables t "
                "JOIN seats s ON s.table_id = t.id WHERE t.shared IS NOT NULL "
                "AND s.guest IS NOT NULL AND s.token_hash IS NOT NULL "
                "AND json_extract(t.shared, '$.results') IS NOT NULL"
            ).fetchall()
        key = name_key(name)
        found = []
        for row in rows:
            results = json.loads(row["results"])
            seat = int(row["seat"])
            if name_key(str(row["guest"])) != key:
                continue
            if isinstance(results, list) and 0 <= seat < len(results):
                found.append({**dict(row), "result": str(results[seat]), "moves": None})
        return found


def _stats_of(
    rows: Sequence[Mapping[str, Any]],
    canonical: Callable[[str, dict[str, OptionValue]], dict[str, OptionValue]] | None,
) -> list[GameStats]:
    """Statistics per game and options of the tables ``rows``, by game name then options; the
    tables of each in the order they were started."""
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for row in rows:
        game = str(row["game"])
        options = json.loads(row["options"])
        if canonical is not None:
            options = canonical(game, options)
        key = json.dumps(options, sort_keys=True, separators=(",", ":"))
        groups.setdefault((game, key), []).append(row)
    return [
        _game_stats(game, json.loads(key), sorted(tables, key=lambda row: row["created"]))
        for (game, key), tables in sorted(groups.items())
    ]


def _game_stats(
    game: str, options: dict[str, OptionValue], tables: Sequence[Mapping[str, Any]]
) -> GameStats:
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
        best_moves=min(
            (int(row["moves"]) for row in won if row["moves"] is not None), default=None
        ),
    )


def _account(row: sqlite3.Row) -> Account:
    return Account(
        id=int(row["id"]),
        display=row["display"],
        key=row["name_key"],
        password=row["password"],
        show_stats=bool(row["show_stats"]),
        choices=json.loads(row["choices"]),
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
        owner=row["owner_id"],
        shared=row["shared"] is not None,
    )
