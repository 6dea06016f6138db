"""CPU time: measured per deal, stored, summed by the report; older files keep working."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.games import get_rules
from patience.study import Budget, DealResult, StudyDB, run_study
from patience.study.report import summarise
from patience.study.runner import ChunkTask, solve_chunk
from study_helpers import SerialBackend

KLONDIKE = get_rules("klondike")

#: The results table of files made after budgets in CPU seconds, before CPU seconds were stored.
BEFORE_CPU_SECONDS = (
    "CREATE TABLE results (game TEXT NOT NULL, options TEXT NOT NULL, deal INTEGER NOT NULL,"
    " budget_kind TEXT NOT NULL CHECK (budget_kind IN ('seconds', 'cpu-seconds', 'nodes')),"
    " budget REAL NOT NULL, solver INTEGER NOT NULL,"
    " result TEXT NOT NULL CHECK (result IN ('won', 'unwinnable', 'unknown')),"
    " seconds REAL NOT NULL, nodes INTEGER NOT NULL, length INTEGER NOT NULL,"
    " solved_at REAL NOT NULL, PRIMARY KEY (game, options, deal, budget_kind, budget, solver));"
)


def test_every_deal_solved_has_its_cpu_seconds_stored_and_summed(tmp_path: Path) -> None:
    with StudyDB(tmp_path / "s.sqlite3") as db:
        summary = run_study(db, KLONDIKE, range(1, 4), Budget("nodes", 3000), SerialBackend())
        rows = db.rows()
    cpu = [row.cpu_seconds for row in rows]
    assert len(cpu) == 3
    assert all(seconds is not None and seconds > 0 for seconds in cpu)
    # The closing line's "CPU s" are these, not the seconds the budget counts.
    assert summary.seconds == pytest.approx(sum(s for s in cpu if s is not None))


def make_file_before_cpu_seconds(path: Path) -> None:
    old = sqlite3.connect(path)
    old.executescript(
        BEFORE_CPU_SECONDS
        + "INSERT INTO results VALUES ('klondike', '{}', 1, 'seconds', 10, 2, 'won', 4.0, 40,"
        " 120, 0);"
        "INSERT INTO results VALUES ('klondike', '{}', 2, 'cpu-seconds', 10, 2, 'unknown', 10.0,"
        " 900, 0, 0);"
    )
    old.commit()
    old.close()


def test_a_file_from_before_cpu_seconds_gets_them_where_its_rows_know_them(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    make_file_before_cpu_seconds(path)
    with StudyDB(path) as db:
        # A wall-clock row does not know its CPU time; a CPU-seconds row counted it.
        assert [(row.deal, row.seconds, row.cpu_seconds) for row in db.rows()] == [
            (1, 4.0, None),
            (2, 10.0, 10.0),
        ]
        db.write_chunk(
            "klondike",
            "{}",
            Budget("seconds", 10),
            2,
            [DealResult(3, "won", 3.0, 9, 99, 2.5)],
            engine="python",
        )
    with StudyDB(path) as db:  # opened again: migrated once, nothing lost
        assert [row.cpu_seconds for row in db.rows()] == [None, 10.0, 2.5]
    with StudyDB(path) as db:
        (report,) = summarise(db.rows())
    # 2.5 + 10 CPU seconds, and the wall-clock 4 s of the older run that has none.
    assert report.cpu_seconds == pytest.approx(16.5)
    assert report.cpu_unmeasured == 1
    assert report.cpu_text() == "CPU 0.005 h (wall-clock for 1 older run)"


def test_the_report_says_how_many_runs_lack_cpu_time(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    make_file_before_cpu_seconds(path)
    result = CliRunner().invoke(main, ["study", "report", "--db", str(path), "--json"])
    assert result.exit_code == 0, result.output
    (report,) = json.loads(result.output)
    assert report["cpu_hours"] == pytest.approx(14 / 3600)
    assert report["cpu_unmeasured_runs"] == 1


def test_the_cpu_time_of_a_deal_is_that_of_its_solver() -> None:
    (result,) = solve_chunk(
        ChunkTask("klondike", dict(KLONDIKE.options), (1,), None, 20_000, cpu_time=False)
    )
    assert result.cpu_seconds is not None
    # Never far above the wall-clock seconds of the search (dealing and set-up add a little).
    assert 0 < result.cpu_seconds <= result.seconds + 0.5
