"""Opening a study file for reading only: it is left as it is, and must be a study's."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from patience.study import Budget, DealResult, StudyDB, StudyDBError

NODES = Budget("nodes", 300)


def write(db: StudyDB, *deals: int) -> None:
    db.write_chunk(
        "klondike",
        "{}",
        NODES,
        1,
        [DealResult(d, "won", 1.0, 9, 99) for d in deals],
        engine="python",
    )


def test_a_study_being_written_is_read_as_it_goes(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    with StudyDB(path) as writer:
        write(writer, 1)
        with StudyDB(path, create=False) as reader:
            assert [row.deal for row in reader.rows()] == [1]
            write(writer, 2)  # committed to the WAL, not yet to the file
            assert [row.deal for row in reader.rows()] == [1, 2]
            with pytest.raises(sqlite3.OperationalError, match="readonly"):
                write(reader, 3)
    # Closed by the study (its WAL checkpointed away): still readable.
    with StudyDB(path, create=False) as reader:
        assert [row.deal for row in reader.rows()] == [1, 2]


def test_reading_leaves_an_older_study_file_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    # A table from before the cpu_seconds column (no checks: reading does not need them).
    old.execute(
        "CREATE TABLE results (game TEXT, options TEXT, deal INTEGER, budget_kind TEXT, "
        "budget REAL, solver INTEGER, result TEXT, seconds REAL, nodes INTEGER, "
        "length INTEGER, solved_at REAL)"
    )
    old.execute(
        "INSERT INTO results VALUES ('klondike', '{}', 4, 'cpu-seconds', 10, 1, 'won', 2.0, 9, "
        "99, 0)"
    )
    old.commit()
    old.close()
    before = path.read_bytes()
    with StudyDB(path, create=False) as db:
        (row,) = db.rows()
    # No column added, not switched to WAL; the CPU seconds are known from the budget's kind.
    assert path.read_bytes() == before
    assert (row.deal, row.cpu_seconds) == (4, 2.0)


def test_only_an_existing_study_database_is_opened_for_reading(tmp_path: Path) -> None:
    with pytest.raises(StudyDBError, match="there is no study database"):
        StudyDB(tmp_path / "none.sqlite3", create=False)
    assert not (tmp_path / "none.sqlite3").exists()
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all, but long enough to have a header of its own\n" * 3)
    with pytest.raises(StudyDBError, match="is not a study database"):
        StudyDB(text, create=False)
    other = tmp_path / "other.sqlite3"
    connection = sqlite3.connect(other)
    connection.execute("CREATE TABLE notes (text TEXT)")
    connection.commit()
    connection.close()
    before = other.read_bytes()
    with pytest.raises(StudyDBError, match="is not a study database: it has no results table"):
        StudyDB(other, create=False)
    assert other.read_bytes() == before  # not switched to WAL, no table added


@pytest.mark.parametrize("create", [True, False])
def test_a_results_table_of_something_else_is_refused_and_left_alone(
    tmp_path: Path, create: bool
) -> None:
    path = tmp_path / "other.sqlite3"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE results (race TEXT, winner TEXT)")
    connection.commit()
    connection.close()
    before = path.read_bytes()
    with pytest.raises(StudyDBError, match=r"is not a study database: .* without the columns game"):
        StudyDB(path, create=create)
    assert path.read_bytes() == before
