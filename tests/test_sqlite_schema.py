"""Numbered migrations (patience.sqlite_schema), shared by the store and the study files: old
study files, the repository's among them, migrate and keep every row."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from patience.sqlite_schema import NewerSchema, migrate, schema_version
from patience.study import Budget, DealResult, StudyDB, StudyDBError
from patience.study.db import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parent.parent
REPOSITORY_STUDY = ROOT / "studies" / "winnability.sqlite3"

#: A results table as the first study files had it: no 'cpu-seconds' budgets, no cpu_seconds.
FIRST_TABLE = (
    "CREATE TABLE results (game TEXT NOT NULL, options TEXT NOT NULL, deal INTEGER NOT NULL,"
    " budget_kind TEXT NOT NULL CHECK (budget_kind IN ('seconds', 'nodes')),"
    " budget REAL NOT NULL, solver INTEGER NOT NULL, result TEXT NOT NULL CHECK (result IN"
    " ('won', 'unwinnable', 'unknown')), seconds REAL NOT NULL, nodes INTEGER NOT NULL,"
    " length INTEGER NOT NULL, solved_at REAL NOT NULL,"
    " PRIMARY KEY (game, options, deal, budget_kind, budget, solver))"
)


def _table(path: Path) -> list[tuple[object, ...]]:
    connection = sqlite3.connect(path)
    try:
        return connection.execute("PRAGMA table_info(results)").fetchall()
    finally:
        connection.close()


def _old_file(path: Path, user_version: int = 0) -> None:
    connection = sqlite3.connect(path)
    connection.execute(FIRST_TABLE)
    connection.executemany(
        "INSERT INTO results VALUES (?, '{}', ?, 'nodes', 1000, 2, ?, 0.5, 40, 120, 0)",
        [("klondike", deal, "won" if deal % 2 else "unknown") for deal in range(1, 51)],
    )
    connection.execute(f"PRAGMA user_version = {user_version}")
    connection.commit()
    connection.close()


@pytest.mark.parametrize("user_version", [0, 1])
def test_an_old_study_file_migrates_step_by_step_and_keeps_its_rows(
    tmp_path: Path, user_version: int
) -> None:
    # 0: made before the schema was numbered; 1: numbered, before budgets in CPU seconds.
    path = tmp_path / "old.sqlite3"
    _old_file(path, user_version)
    with StudyDB(path, create=False) as db:
        before = db.rows()
    assert len(before) == 50
    with StudyDB(path) as db:
        assert schema_version(db.connection) == SCHEMA_VERSION
        assert db.rows() == before
        db.write_chunk(
            "klondike",
            "{}",
            Budget("cpu-seconds", 5),
            2,
            [DealResult(60, "won", 1, 9, 99, 1.5)],
            engine="python",
        )
        assert len(db.rows()) == 51
    fresh = tmp_path / "fresh.sqlite3"
    StudyDB(fresh).close()
    assert _table(path) == _table(fresh)


def test_the_repository_study_migrates_and_keeps_every_row(tmp_path: Path) -> None:
    path = tmp_path / "winnability.sqlite3"
    shutil.copyfile(REPOSITORY_STUDY, path)
    with StudyDB(path, create=False) as db:
        before = db.rows()
        old_version = schema_version(db.connection)
    assert before
    with StudyDB(path) as db:
        # The committed file is at some version up to today's (at today's once a study has
        # written to it since the last step was added): it comes to today's either way.
        assert schema_version(db.connection) == SCHEMA_VERSION >= old_version
        assert db.rows() == before
    with StudyDB(path) as db:  # opened again: nothing left to do
        assert db.rows() == before


def test_a_study_file_from_a_newer_program_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    StudyDB(path).close()
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    for create in (True, False):
        with pytest.raises(StudyDBError, match="newer than this program's"):
            StudyDB(path, create=create)
    connection = sqlite3.connect(path)
    assert schema_version(connection) == SCHEMA_VERSION + 1
    connection.close()


def test_a_step_that_fails_leaves_the_file_at_the_version_before(tmp_path: Path) -> None:
    def broken(connection: sqlite3.Connection) -> None:
        connection.execute("CREATE TABLE half (x INTEGER)")
        raise RuntimeError("the step broke")

    connection = sqlite3.connect(tmp_path / "f.sqlite3", isolation_level=None)
    steps = ["CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1)", broken]
    with pytest.raises(RuntimeError, match="the step broke"):
        migrate(connection, steps)
    assert schema_version(connection) == 1
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert tables == {"a"}
    assert migrate(connection, steps, target=1) == 1
    with pytest.raises(NewerSchema, match="schema version 1, newer than this program's 0"):
        migrate(connection, [])
    connection.close()
