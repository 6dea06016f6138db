"""`patience study run` refuses bad input with a message saying what is allowed."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.cli import main


def run(tmp_path: Path, *args: str, db: str = "s.sqlite3") -> tuple[int, str]:
    result = CliRunner().invoke(
        main, ["study", "run", "klondike", *args, "--db", str(tmp_path / db)]
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, " ".join(result.output.split())


@pytest.mark.parametrize("budget", ["nan", "inf", "-inf", "0", "-1"])
def test_a_budget_must_be_a_finite_positive_number(tmp_path: Path, budget: str) -> None:
    code, output = run(tmp_path, "--range", "1-2", "--budget", budget)
    assert code == 2
    assert f"{budget} is not a budget" in output
    assert "a finite number above 0" in output
    assert not (tmp_path / "s.sqlite3").exists()


@pytest.mark.parametrize(
    ("deals", "message"),
    [
        ("-5", "the range '-5' has no first deal (deal numbers are never negative)"),
        ("1-", "the range '1-' has no last deal"),
        ("1--3", "has more than one '-'"),
        ("1-2-3", "has more than one '-'"),
        ("x", "deal number 'x' is not an integer"),
        ("1-9007199254740992", "deal number 9007199254740992 is out of range"),
    ],
)
def test_a_bad_range_is_named_with_what_is_allowed(
    tmp_path: Path, deals: str, message: str
) -> None:
    code, output = run(tmp_path, "--range", deals, "--nodes", "10")
    assert code == 2
    assert message in output
    assert "a range is A-B with 0 <= A <= B <= 9007199254740991 (2**53 - 1)" in output
    assert "''" not in output  # never "deal number '' is not an integer"


def test_a_db_under_a_file_says_the_file_is_not_a_folder(tmp_path: Path) -> None:
    (tmp_path / "a.sqlite3").write_bytes(b"")
    code, output = run(tmp_path, "--range", "1-2", "--nodes", "10", db="a.sqlite3/x.sqlite3")
    assert code == 2
    assert f"{tmp_path / 'a.sqlite3'} is a file, not a folder" in output
    assert "Errno" not in output
