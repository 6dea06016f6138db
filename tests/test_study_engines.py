"""Study rows record their engine (schema version 4); the report checks the runs against each
other; export-winnable grades the core's wins; study run --sample draws deals at random."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.games import get_rules
from patience.sqlite_schema import schema_version
from patience.study import Budget, DealResult, StudyDB, options_key
from patience.study.db import SCHEMA_VERSION, engine_of_row
from patience.study.report import agreements
from patience.study.winnable import grade_deals

NODES = Budget("nodes", 1000)


def _version_3_file(path: Path) -> None:
    """A study file as schema version 3 left it: no engine column; Klondike rows of the
    Python adapter's version 2 and of the core's version 4."""
    with StudyDB(path) as db:
        db.connection.execute("DROP TABLE results")
        db.connection.execute(
            "CREATE TABLE results (game TEXT NOT NULL, options TEXT NOT NULL, deal INTEGER NOT "
            "NULL, budget_kind TEXT NOT NULL, budget REAL NOT NULL, solver INTEGER NOT NULL, "
            "result TEXT NOT NULL, seconds REAL NOT NULL, nodes INTEGER NOT NULL, length "
            "INTEGER NOT NULL, solved_at REAL NOT NULL, cpu_seconds REAL, PRIMARY KEY (game, "
            "options, deal, budget_kind, budget, solver))"
        )
        db.connection.executemany(
            "INSERT INTO results VALUES ('klondike', '{}', ?, 'nodes', 1000, ?, 'won', 1, 9, "
            "99, 0, 1)",
            [(1, 2), (1, 4), (2, 4)],
        )
        db.connection.execute("PRAGMA user_version = 3")
        db.connection.commit()


def test_rows_before_version_4_get_their_engine_from_the_solver_version(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _version_3_file(path)
    with StudyDB(path, create=False) as reader:  # read-only: the file is left at version 3
        before = reader.rows()
        assert schema_version(reader.connection) == 3
    assert [(row.deal, row.solver, row.engine) for row in before] == [
        (1, 4, "core"),
        (1, 2, "python"),
        (2, 4, "core"),
    ]
    with StudyDB(path) as db:
        assert schema_version(db.connection) == SCHEMA_VERSION
        assert db.rows() == before
    assert engine_of_row("leopard", 9) == "python"  # a game the core never searched


def test_the_engine_is_part_of_the_key(tmp_path: Path) -> None:
    with StudyDB(tmp_path / "s.sqlite3") as db:
        for engine in ("core", "python"):
            db.write_chunk(
                "klondike", "{}", NODES, 7, [DealResult(3, "won", 1, 9, 99)], engine=engine
            )
        assert sorted(row.engine for row in db.rows()) == ["core", "python"]
        assert db.done_deals("klondike", "{}", NODES, 7, [3, 4], engine="core") == {3}
        db.connection.execute("DELETE FROM results WHERE engine = 'core'")
        assert db.done_deals("klondike", "{}", NODES, 7, [3, 4], engine="core") == set()
        # An older program writing without the engine is refused, not stored as either.
        with pytest.raises(sqlite3.IntegrityError, match="engine"):
            db.connection.execute(
                "INSERT INTO results (game, options, deal, budget_kind, budget, solver, result, "
                "seconds, nodes, length, solved_at) VALUES ('klondike', '{}', 5, 'nodes', 9, 1, "
                "'won', 1, 1, 1, 0)"
            )


def test_the_report_lists_contradictions_and_the_deals_both_engines_resolved(
    tmp_path: Path,
) -> None:
    with StudyDB(tmp_path / "s.sqlite3") as db:
        db.write_chunk(
            "klondike",
            "{}",
            NODES,
            4,
            [DealResult(1, "won", 1, 9, 9), DealResult(2, "unwinnable", 1, 9, 0)],
            engine="core",
        )
        db.write_chunk(
            "klondike",
            "{}",
            NODES,
            2,
            [
                DealResult(1, "won", 1, 9, 9),
                DealResult(2, "won", 1, 9, 9),
                DealResult(3, "unknown", 1, 9, 0),
            ],
            engine="python",
        )
        db.write_chunk("accordion", "{}", NODES, 3, [DealResult(1, "won", 1, 9, 9)], engine="core")
        (accordion, klondike) = agreements(db.rows())
    assert (klondike.compared, klondike.contradictions) == (2, (2,))
    assert "CONTRADICTED (won and proved unwinnable): deals 2" in klondike.text()
    assert (accordion.compared, accordion.contradictions) == (0, ())
    assert "no deal won in one run and proved unwinnable in another" in accordion.text()


def test_the_report_json_names_the_engine_and_the_agreement(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    with StudyDB(path) as db:
        db.write_chunk("accordion", "{}", NODES, 3, [DealResult(1, "won", 1, 9, 9)], engine="core")
    result = CliRunner().invoke(main, ["study", "report", "--db", str(path), "--json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.output)
    assert row["engine"] == "core"
    assert row["agreement"] == {
        "game": "accordion",
        "options": {},
        "compared": 0,
        "contradictions": [],
    }
    text = CliRunner().invoke(main, ["study", "report", "--db", str(path)]).output
    assert "accordion dealing=one (core solver 3; budgets: 1000 nodes)" in text
    assert "Agreement" in text


def test_grades_are_thirds_of_the_cores_wins_by_nodes_at_its_newest_version(
    tmp_path: Path,
) -> None:
    with StudyDB(tmp_path / "s.sqlite3") as db:
        wins = [DealResult(deal, "won", 1, 1000 - deal * 10, 50) for deal in range(1, 10)]
        db.write_chunk("klondike", "{}", NODES, 4, wins, engine="core")
        # Older versions, the other engine and deals not won are not graded.
        db.write_chunk("klondike", "{}", NODES, 3, [DealResult(20, "won", 1, 1, 9)], engine="core")
        db.write_chunk(
            "klondike", "{}", NODES, 9, [DealResult(21, "won", 1, 1, 9)], engine="python"
        )
        db.write_chunk(
            "klondike", "{}", NODES, 4, [DealResult(22, "unwinnable", 1, 1, 0)], engine="core"
        )
        grading = grade_deals(db.rows())
    assert grading is not None
    assert grading.solver == 4
    # Deal 9 took the fewest nodes, deal 1 the most.
    assert grading.grades == {"easy": [7, 8, 9], "medium": [4, 5, 6], "hard": [1, 2, 3]}
    assert grade_deals([]) is None


def test_export_winnable_writes_the_grades(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    key = options_key(get_rules("accordion").options)
    with StudyDB(path) as db:
        wins = [DealResult(deal, "won", 1, deal * 100, 50) for deal in range(1, 7)]
        db.write_chunk("accordion", key, NODES, 3, wins, engine="core")
    out = tmp_path / "accordion.json"
    args = ["study", "export-winnable", "accordion", "--db", str(path), "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "graded by the core's solver 3 (2 easy, 2 medium, 2 hard)" in result.output
    (entry,) = json.loads(out.read_text())["lists"]
    assert entry["grades"] == {"easy": [1, 2], "medium": [3, 4], "hard": [5, 6]}
    assert entry["graded_by"] == {"engine": "core", "solver": 3}


def test_study_run_sample_solves_the_same_random_deals_for_the_same_seed(tmp_path: Path) -> None:
    def run(db: Path, seed: int) -> list[int]:
        args = ["study", "run", "accordion", "--range", "1-50", "--sample", "4", "--seed"]
        args += [str(seed), "--nodes", "50", "--jobs", "1", "--db", str(db)]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        assert "4 deals drawn from deals 1-50" in result.output
        with StudyDB(db, create=False) as study:
            return [row.deal for row in study.rows()]

    first = run(tmp_path / "a.sqlite3", 1)
    assert len(first) == 4
    assert all(1 <= deal <= 50 for deal in first)
    assert run(tmp_path / "b.sqlite3", 1) == first
    assert run(tmp_path / "c.sqlite3", 2) != first
    result = CliRunner().invoke(
        main, ["study", "run", "accordion", "--range", "1-3", "--sample", "4", "--nodes", "5"]
    )
    assert result.exit_code == 2
    assert "--sample 4 is more deals than --range holds (3)" in result.output
