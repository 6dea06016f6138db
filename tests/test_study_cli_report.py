"""`patience study report` (and export-winnable): lines that grep can find when piped; other
files than study databases named and left alone."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.games import get_rules
from patience.study import Budget, DealResult, StudyDB, options_key


def test_report_lines_are_not_wrapped_when_piped(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    key = options_key(get_rules("klondike").options)
    with StudyDB(path) as db:
        results = [DealResult(deal, "won", 0.05 * deal, 100, 90) for deal in range(1, 5)]
        db.write_chunk("klondike", key, Budget("cpu-seconds", 0.5), 1, results, engine="python")
        db.write_chunk("klondike", key, Budget("nodes", 3000), 1, results, engine="python")
    result = CliRunner().invoke(main, ["study", "report", "--db", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    # Both are longer than 80 columns: a console 80 wide used to break them in two.
    assert any(line.endswith("(python solver 1; budgets: 0.5 CPU s, 3000 nodes)") for line in lines)
    assert any(
        line.startswith("  CPU ") and line.endswith("100% in 10 s, 100% in 60 s") for line in lines
    ), lines
    assert len(lines) == 6  # the group's four lines, then "Agreement" and its one line


@pytest.mark.parametrize(
    "command", [["report"], ["export-winnable", "klondike", "--out", "F.json"]]
)
def test_a_foreign_sqlite_file_is_named_and_left_unchanged(
    tmp_path: Path, command: list[str]
) -> None:
    path = tmp_path / "other.sqlite3"
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
        connection.execute("INSERT INTO notes VALUES ('mine')")
    content = path.read_bytes()
    args = ["study", command[0], "--db", str(path), *command[1:]]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 1
    assert f"{path} is not a study database" in result.output
    assert path.read_bytes() == content
    assert sorted(tmp_path.iterdir()) == [path]  # no -wal, -shm or list file
