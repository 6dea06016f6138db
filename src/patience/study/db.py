"""The results of studies: one SQLite file, written by the driver alone.

A row is one solver run on one deal: keyed by (game, options, deal, budget kind, budget, engine,
solver version), with the result, the seconds (as the budget counts them), the CPU seconds and nodes
spent and the length of the solution. Each chunk of deals is written in one transaction, so a
crash or an interrupt never leaves half a chunk; WAL mode lets ``study report`` read (opening
the file read-only) while a study writes. The schema is numbered as the store's is
(:mod:`patience.sqlite_schema`): opening a file for writing brings it to :data:`SCHEMA_VERSION`.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..options import OptionValue
from ..solve.search import Verdict
from ..sqlite_schema import Migration, NewerSchema, migrate, schema_version

__all__ = [
    "BUDGET_KINDS",
    "MIGRATIONS",
    "RESULTS",
    "SCHEMA_VERSION",
    "Budget",
    "DealResult",
    "ResultRow",
    "StudyDB",
    "StudyDBError",
    "engine_of_row",
    "options_key",
]

#: A solver's three answers.
RESULTS = tuple(Verdict)

#: What a budget counts: wall-clock seconds per deal, CPU seconds of the worker per deal (the
#: same work for each deal however busy the machine), or nodes (reproducible).
BUDGET_KINDS = ("seconds", "cpu-seconds", "nodes")

#: The columns every study file has (the first ones had only these; cpu_seconds came later).
_BEFORE_CPU_COLUMNS = (
    "game",
    "options",
    "deal",
    "budget_kind",
    "budget",
    "solver",
    "result",
    "seconds",
    "nodes",
    "length",
    "solved_at",
)

#: The results table as schema version 2 has it (version 1 lacked 'cpu-seconds' in the check).
_RESULTS_V2 = """
CREATE TABLE results (
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    deal INTEGER NOT NULL,
    budget_kind TEXT NOT NULL CHECK (budget_kind IN ('seconds', 'cpu-seconds', 'nodes')),
    budget REAL NOT NULL,
    solver INTEGER NOT NULL,
    result TEXT NOT NULL CHECK (result IN ('won', 'unwinnable', 'unknown')),
    seconds REAL NOT NULL,
    nodes INTEGER NOT NULL,
    length INTEGER NOT NULL,
    solved_at REAL NOT NULL,
    PRIMARY KEY (game, options, deal, budget_kind, budget, solver)
)
"""


def _columns(connection: sqlite3.Connection) -> set[str]:
    """The columns of the ``results`` table (none when there is no such table)."""
    return {row[1] for row in connection.execute("PRAGMA table_info(results)")}


def _allow_cpu_seconds(connection: sqlite3.Connection) -> None:
    """Version 2: budgets in CPU seconds. A table whose check refuses that kind is copied, rows
    and all, into one made with the new check (SQLite cannot change a check in place)."""
    row = connection.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'results'"
    ).fetchone()
    if "cpu-seconds" in row[0]:
        return  # a file from before the numbering that had this step already
    connection.execute("ALTER TABLE results RENAME TO results_before_cpu")
    connection.execute(_RESULTS_V2)
    # Named columns: the old table lacks the later cpu_seconds column.
    columns = ", ".join(_BEFORE_CPU_COLUMNS)
    connection.execute(f"INSERT INTO results ({columns}) SELECT {columns} FROM results_before_cpu")
    connection.execute("DROP TABLE results_before_cpu")


def _add_cpu_seconds(connection: sqlite3.Connection) -> None:
    """Version 3: the CPU seconds of every run, in a new column, empty in the rows before it
    (:meth:`StudyDB.rows` reads their CPU seconds from ``seconds`` where their budget counts CPU
    seconds, so that rule stands in one place)."""
    if "cpu_seconds" not in _columns(connection):
        connection.execute("ALTER TABLE results ADD COLUMN cpu_seconds REAL")


#: The Python adapters' solver versions when study rows began to record their engine (schema
#: version 4). Every version above one of these was the compiled core's (its versions were
#: numbered above the adapter's), so older rows get their engine from it. Frozen: later
#: versions of either engine are stored with their engine.
_PYTHON_VERSIONS_BEFORE_ENGINE = {
    "klondike": 2,
    "double-solitaire": 2,
    "spider": 5,
    "canfield": 4,
    "accordion": 2,
    "napoleon": 3,
    "leonis-own": 2,
    "leopard": 2,
}

#: The games the compiled core searched when rows began to record their engine.
_CORE_GAMES_BEFORE_ENGINE = (
    "klondike",
    "canfield",
    "leonis-own",
    "accordion",
    "napoleon",
    "spider",
)


def engine_of_row(game: str, solver: int) -> str:
    """The engine that made a row stored before rows recorded it (schema version 3 and older):
    ``core`` for a version above the Python adapter's of that time, else ``python``."""
    python = _PYTHON_VERSIONS_BEFORE_ENGINE.get(game)
    if game in _CORE_GAMES_BEFORE_ENGINE and python is not None and solver > python:
        return "core"
    return "python"


#: The results table from schema version 4 on: the engine is part of the key.
_RESULTS_V4 = """
CREATE TABLE results (
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    deal INTEGER NOT NULL,
    budget_kind TEXT NOT NULL CHECK (budget_kind IN ('seconds', 'cpu-seconds', 'nodes')),
    budget REAL NOT NULL,
    engine TEXT NOT NULL CHECK (engine IN ('core', 'python')),
    solver INTEGER NOT NULL,
    result TEXT NOT NULL CHECK (result IN ('won', 'unwinnable', 'unknown')),
    seconds REAL NOT NULL,
    nodes INTEGER NOT NULL,
    length INTEGER NOT NULL,
    solved_at REAL NOT NULL,
    cpu_seconds REAL,
    PRIMARY KEY (game, options, deal, budget_kind, budget, engine, solver)
)
"""


def _add_engine(connection: sqlite3.Connection) -> None:
    """Version 4: the engine (``core`` or ``python``) in every row and in its key, so that the
    two engines' rows never mix whatever their version numbers. Rows stored before get theirs
    from :func:`engine_of_row`. The table is copied (SQLite cannot change a primary key)."""
    connection.create_function("engine_of_row", 2, engine_of_row, deterministic=True)
    columns = ", ".join((*_BEFORE_CPU_COLUMNS, "cpu_seconds"))
    connection.execute("ALTER TABLE results RENAME TO results_before_engine")
    connection.execute(_RESULTS_V4)
    connection.execute(
        f"INSERT INTO results ({columns}, engine) "
        f"SELECT {columns}, engine_of_row(game, solver) FROM results_before_engine"
    )
    connection.execute("DROP TABLE results_before_engine")


#: The schema, one step per version (:mod:`patience.sqlite_schema`): ``MIGRATIONS[n]`` takes a
#: study file from version n to n + 1. Files made before the schema was numbered have version 0
#: whatever they hold, so steps 1 to 3 first look at what is there. Never edit a step that has
#: shipped; add a new one.
MIGRATIONS: tuple[Migration, ...] = (
    # 1: one row per solver run on one deal (budgets in seconds or nodes).
    """
    CREATE TABLE IF NOT EXISTS results (
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        deal INTEGER NOT NULL,
        budget_kind TEXT NOT NULL CHECK (budget_kind IN ('seconds', 'nodes')),
        budget REAL NOT NULL,
        solver INTEGER NOT NULL,
        result TEXT NOT NULL CHECK (result IN ('won', 'unwinnable', 'unknown')),
        seconds REAL NOT NULL,
        nodes INTEGER NOT NULL,
        length INTEGER NOT NULL,
        solved_at REAL NOT NULL,
        PRIMARY KEY (game, options, deal, budget_kind, budget, solver)
    )
    """,
    # 2: budgets in CPU seconds.
    _allow_cpu_seconds,
    # 3: the CPU seconds every run spent.
    _add_cpu_seconds,
    # 4: the engine in every row's key.
    _add_engine,
)

SCHEMA_VERSION = len(MIGRATIONS)

#: The CPU seconds of a row stored without them: known only where its budget counts them.
_CPU_SECONDS_BEFORE = "CASE WHEN budget_kind = 'cpu-seconds' THEN seconds END"


class StudyDBError(RuntimeError):
    """The results file cannot be opened or is not a study database."""


def options_key(options: Mapping[str, OptionValue]) -> str:
    """The canonical JSON of a game's full options (defaults filled in): sorted keys, no
    spaces, so that ``-o draw=3`` and the default draw 3 are one study."""
    return json.dumps(dict(options), sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Budget:
    """How much search each deal gets: ``kind`` is ``seconds`` or ``nodes``."""

    kind: str
    amount: float

    def __post_init__(self) -> None:
        if self.kind not in BUDGET_KINDS or not self.amount > 0:
            raise ValueError(f"a budget is a positive number of seconds or nodes, not {self}")

    def text(self) -> str:
        """``10 s``, ``10 CPU s`` or ``200000 nodes``."""
        if self.kind == "seconds":
            return f"{self.amount:g} s"
        if self.kind == "cpu-seconds":
            return f"{self.amount:g} CPU s"
        return f"{int(self.amount)} nodes"


@dataclass(frozen=True)
class DealResult:
    """What a worker sends back for one deal."""

    deal: int
    result: str
    #: Seconds as the budget counts them (wall-clock, or CPU for a budget in CPU seconds).
    seconds: float
    nodes: int
    length: int
    #: CPU seconds the worker spent on the deal (None: not measured).
    cpu_seconds: float | None = None


@dataclass(frozen=True)
class ResultRow:
    """One stored row."""

    game: str
    options: str
    deal: int
    budget: Budget
    solver: int
    result: str
    seconds: float
    nodes: int
    length: int
    #: CPU seconds spent; None for rows stored before they were measured, with a wall-clock
    #: budget (rows with a budget in CPU seconds have them in ``seconds``).
    cpu_seconds: float | None
    #: The engine that searched: ``core`` or ``python``.
    engine: str


class StudyDB:
    """A study's results file.

    With ``create`` (the default) it is opened for writing: created with its parent folder
    when missing, switched to WAL and brought to today's columns. Without, an existing file is
    opened read-only and left exactly as it is (for reports): it must already be a study
    database, and it may be one that a running study is writing.
    """

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = path
        self._cpu_column = False  # whether the file has the cpu_seconds column (see rows)
        self._engine_column = False  # whether the file has the engine column (see rows)
        if not create and not Path(path).is_file():
            raise StudyDBError(f"there is no study database {path}")
        connection: sqlite3.Connection | None = None
        try:
            if create:
                if str(path) != ":memory:":
                    Path(path).parent.mkdir(parents=True, exist_ok=True)
                connection = sqlite3.connect(str(path), timeout=30)
            else:
                # mode=ro: nothing is written, not even the journal mode. A file in WAL mode
                # being written by a running study stays readable (SQLite shares its -shm).
                uri = Path(path).resolve().as_uri() + "?mode=ro"
                connection = sqlite3.connect(uri, uri=True, timeout=30)
            self.connection = connection
            self._check_columns(create)
            if create:
                # Outside the migrations' transactions: SQLite changes these only outside one.
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("PRAGMA synchronous=NORMAL")
                migrate(connection, MIGRATIONS)
                self._cpu_column = self._engine_column = True
            elif schema_version(connection) > SCHEMA_VERSION:
                raise NewerSchema(schema_version(connection), SCHEMA_VERSION)
        except BaseException as error:
            if connection is not None:
                connection.close()
            if isinstance(error, NewerSchema):
                raise StudyDBError(f"the study database {path} has {error}") from None
            if not isinstance(error, (OSError, sqlite3.Error)):
                raise
            if isinstance(error, sqlite3.DatabaseError) and "not a database" in str(error):
                raise StudyDBError(f"{path} is not a study database: {error}") from None
            raise StudyDBError(f"cannot open the study database {path}: {error}") from None

    def _check_columns(self, create: bool) -> None:
        """Refuse a file whose ``results`` table is not a study's (or, read-only, that has
        none): its table would be changed, or read as what it is not."""
        columns = _columns(self.connection)
        if not columns and create:
            return  # a new file, or another SQLite file: the study adds its table
        missing = [column for column in _BEFORE_CPU_COLUMNS if column not in columns]
        if missing:
            what = "a results table" if columns else "no results table"
            lacking = f" without the columns {', '.join(missing)}" if columns else ""
            raise StudyDBError(
                f"{self.path} is not a study database: it has {what}{lacking} "
                "(give the file that patience study run writes)"
            )
        self._cpu_column = "cpu_seconds" in columns
        self._engine_column = "engine" in columns
        if not self._engine_column:
            # Read-only files older than schema version 4 get each row's engine as step 4 would.
            self.connection.create_function("engine_of_row", 2, engine_of_row, deterministic=True)

    def close(self) -> None:
        """Close the file."""
        self.connection.close()

    def __enter__(self) -> StudyDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def done_deals(
        self,
        game: str,
        options: str,
        budget: Budget,
        solver: int,
        deals: Iterable[int],
        *,
        engine: str,
    ) -> set[int]:
        """The deals among ``deals`` that need no run: proved (won or unwinnable) by this
        engine's solver version, or left ``unknown`` by it with a budget of the same kind at
        least as large."""
        wanted = set(deals)
        rows = self.connection.execute(
            "SELECT deal FROM results WHERE game = ? AND options = ? AND engine = ? AND "
            "solver = ? AND (result != 'unknown' OR (budget_kind = ? AND budget >= ?))",
            (game, options, engine, solver, budget.kind, budget.amount),
        )
        return {deal for (deal,) in rows if deal in wanted}

    def write_chunk(
        self,
        game: str,
        options: str,
        budget: Budget,
        solver: int,
        results: Sequence[DealResult],
        *,
        engine: str,
    ) -> None:
        """Store one chunk's results, made by ``engine``'s solver version ``solver``, in one
        transaction (all rows or none)."""
        now = time.time()
        with self.connection:
            self.connection.executemany(
                "INSERT OR REPLACE INTO results (game, options, deal, budget_kind, budget, "
                "engine, solver, result, seconds, nodes, length, solved_at, cpu_seconds) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game,
                        options,
                        r.deal,
                        budget.kind,
                        budget.amount,
                        engine,
                        solver,
                        r.result,
                        r.seconds,
                        r.nodes,
                        r.length,
                        now,
                        r.cpu_seconds,
                    )
                    for r in results
                ],
            )

    def rows(self, game: str | None = None, options: str | None = None) -> list[ResultRow]:
        """Every stored row (of ``game`` and ``options`` when given), by game, options, deal."""
        query = "SELECT game, options, deal, budget_kind, budget, solver, result, seconds, "
        # A file opened read-only may be older than the cpu_seconds column, and a study run by
        # an older version may still add rows without it: such rows know their CPU seconds
        # only with a budget in CPU seconds.
        cpu = (
            f"COALESCE(cpu_seconds, {_CPU_SECONDS_BEFORE})"
            if self._cpu_column
            else _CPU_SECONDS_BEFORE
        )
        engine = "engine" if self._engine_column else "engine_of_row(game, solver)"
        query += f"nodes, length, {cpu}, {engine} FROM results"
        clauses: list[str] = []
        values: list[object] = []
        if game is not None:
            clauses.append("game = ?")
            values.append(game)
        if options is not None:
            clauses.append("options = ?")
            values.append(options)
        if clauses:
            query += " WHERE " + " AND ".join(clauses)
        query += " ORDER BY game, options, deal, 12, solver, budget_kind, budget"
        return [
            ResultRow(g, o, d, Budget(kind, amount), s, r, sec, n, length, cpu, engine)
            for g, o, d, kind, amount, s, r, sec, n, length, cpu, engine in (
                self.connection.execute(query, values)
            )
        ]

    def won_deals(self, game: str, options: str) -> list[int]:
        """The deals proved winnable (by any engine and solver version: every win was
        replayed)."""
        rows = self.connection.execute(
            "SELECT DISTINCT deal FROM results WHERE game = ? AND options = ? AND result = 'won' "
            "ORDER BY deal",
            (game, options),
        )
        return [deal for (deal,) in rows]
