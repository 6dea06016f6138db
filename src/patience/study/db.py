"""The results of studies: one SQLite file, written by the driver alone.

A row is one solver run on one deal: keyed by (game, options, deal, budget kind, budget, solver
version), with the result, the seconds and nodes spent and the length of the solution. Each
chunk of deals is written in one transaction, so a crash or an interrupt never leaves half a
chunk; WAL mode lets ``study report`` read while a study writes.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..options import OptionValue

__all__ = [
    "BUDGET_KINDS",
    "RESULTS",
    "Budget",
    "DealResult",
    "ResultRow",
    "StudyDB",
    "StudyDBError",
    "options_key",
]

#: A solver's three answers.
RESULTS = ("won", "unwinnable", "unknown")

#: What a budget counts: wall-clock seconds per deal, CPU seconds of the worker per deal (the
#: same work for each deal however busy the machine), or nodes (reproducible).
BUDGET_KINDS = ("seconds", "cpu-seconds", "nodes")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
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
);
"""


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
    seconds: float
    nodes: int
    length: int


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


class StudyDB:
    """A study's results file (created with its parent folder when missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = path
        try:
            if str(path) != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            self.connection = sqlite3.connect(str(path), timeout=30)
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.execute("PRAGMA synchronous=NORMAL")
            self.connection.executescript(_SCHEMA)
            self._allow_cpu_seconds()
        except (OSError, sqlite3.Error) as error:
            raise StudyDBError(f"cannot open the study database {path}: {error}") from None

    def _allow_cpu_seconds(self) -> None:
        """Files made before budgets in CPU seconds refuse that kind in their check: copy their
        rows into a table made with today's check (SQLite cannot change a check in place)."""
        row = self.connection.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'results'"
        ).fetchone()
        if row is None or "cpu-seconds" in row[0]:
            return
        # One transaction (DDL too): a crash half-way leaves the file as it was.
        self.connection.execute("BEGIN IMMEDIATE")
        try:
            self.connection.execute("ALTER TABLE results RENAME TO results_before_cpu")
            self.connection.execute(_SCHEMA)
            self.connection.execute("INSERT INTO results SELECT * FROM results_before_cpu")
            self.connection.execute("DROP TABLE results_before_cpu")
        except BaseException:
            self.connection.rollback()
            raise
        self.connection.commit()

    def close(self) -> None:
        """Close the file."""
        self.connection.close()

    def __enter__(self) -> StudyDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def done_deals(
        self, game: str, options: str, budget: Budget, solver: int, deals: Iterable[int]
    ) -> set[int]:
        """The deals among ``deals`` that need no run: proved (won or unwinnable) by this solver
        version, or left ``unknown`` by it with a budget of the same kind at least as large."""
        wanted = set(deals)
        rows = self.connection.execute(
            "SELECT deal FROM results WHERE game = ? AND options = ? AND solver = ? AND "
            "(result != 'unknown' OR (budget_kind = ? AND budget >= ?))",
            (game, options, solver, budget.kind, budget.amount),
        )
        return {deal for (deal,) in rows if deal in wanted}

    def write_chunk(
        self,
        game: str,
        options: str,
        budget: Budget,
        solver: int,
        results: Sequence[DealResult],
    ) -> None:
        """Store one chunk's results in one transaction (all rows or none)."""
        now = time.time()
        with self.connection:
            self.connection.executemany(
                "INSERT OR REPLACE INTO results (game, options, deal, budget_kind, budget, "
                "solver, result, seconds, nodes, length, solved_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game,
                        options,
                        r.deal,
                        budget.kind,
                        budget.amount,
                        solver,
                        r.result,
                        r.seconds,
                        r.nodes,
                        r.length,
                        now,
                    )
                    for r in results
                ],
            )

    def rows(self, game: str | None = None, options: str | None = None) -> list[ResultRow]:
        """Every stored row (of ``game`` and ``options`` when given), by game, options, deal."""
        query = "SELECT game, options, deal, budget_kind, budget, solver, result, seconds, "
        query += "nodes, length FROM results"
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
        query += " ORDER BY game, options, deal, solver, budget_kind, budget"
        return [
            ResultRow(g, o, d, Budget(kind, amount), s, r, sec, n, length)
            for g, o, d, kind, amount, s, r, sec, n, length in self.connection.execute(
                query, values
            )
        ]

    def won_deals(self, game: str, options: str) -> list[int]:
        """The deals proved winnable (by any solver version: every win was replayed)."""
        rows = self.connection.execute(
            "SELECT DISTINCT deal FROM results WHERE game = ? AND options = ? AND result = 'won' "
            "ORDER BY deal",
            (game, options),
        )
        return [deal for (deal,) in rows]
