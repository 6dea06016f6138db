"""Commands that meet a bad file or store say what happened, without a traceback: `patience
serve` on a store it cannot write, `patience study report` on a damaged file, `patience replay`
on a path that is not a record file."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.cli import web as cli_web
from patience.cli.common import MAX_RECORD_FILE
from patience.server import serving
from patience.store import Store
from patience.study import Budget, DealResult, StudyDB


def test_serve_refuses_a_store_it_cannot_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store.sqlite3"
    Store(path).close()
    real_connect = sqlite3.connect

    def read_only(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        # As a read-only file or mount would (the tests may run as root, whom chmod binds not).
        return real_connect(f"file:{database}?mode=ro", *args, uri=True, **kwargs)

    monkeypatch.setattr("patience.store.db.sqlite3.connect", read_only)
    monkeypatch.setattr("uvicorn.Server.run", lambda self: pytest.fail("the server started"))
    result = CliRunner().invoke(main, ["serve", "--db", str(path)])
    assert result.exit_code == 1, result.output
    assert f"cannot write the store {path}: attempt to write a readonly database" in result.output
    assert "Traceback" not in result.output


def test_serve_refuses_a_bad_allowed_origin(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["serve", "--db", str(tmp_path / "s.sqlite3"), "--allowed-origin", "example.org"]
    )
    assert result.exit_code == 2
    assert "like https://example.org" in result.output


def test_the_commands_defaults_are_the_servers() -> None:
    assert cli_web.REQUEST_TIMEOUT == serving.REQUEST_TIMEOUT
    assert cli_web.MAX_CONNECTIONS == serving.MAX_CONNECTIONS
    assert cli_web.CONNECTIONS_PER_CLIENT == serving.CONNECTIONS_PER_CLIENT


def test_a_damaged_study_file_is_reported_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "study.sqlite3"
    with StudyDB(path) as db:
        results = [DealResult(deal, "won", 0.1, 10, 5) for deal in range(2000)]
        db.write_chunk("klondike", "{}", Budget("cpu-seconds", 5), 2, results, engine="python")
    data = bytearray(path.read_bytes())
    assert len(data) > 3 * 4096
    data[4096:] = b"\xa5" * (len(data) - 4096)  # every page but the first (the schema's)
    path.write_bytes(bytes(data))
    result = CliRunner().invoke(main, ["study", "report", "--db", str(path)])
    assert result.exit_code == 1, result.output
    assert str(path) in result.output
    assert "malformed" in result.output
    assert "Traceback" not in result.output


def test_replay_refuses_what_is_not_a_regular_file_before_reading_it(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["replay", "/dev/zero"])  # read, it would never end
    assert result.exit_code == 1
    assert "/dev/zero is not a regular file" in result.output
    big = tmp_path / "big.txt"
    with big.open("wb") as file:
        file.truncate(MAX_RECORD_FILE + 1)  # sparse: nothing is written
    result = CliRunner().invoke(main, ["replay", str(big)])
    assert result.exit_code == 1
    assert f"has {MAX_RECORD_FILE + 1} bytes: a record file has at most" in result.output
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "none.txt")])
    assert result.exit_code == 1
    assert "there is no file" in result.output


def test_a_server_on_loopback_answers_only_to_its_own_names() -> None:
    assert cli_web.host_names("127.0.0.1", ()) == ["127.0.0.1", "localhost"]
    assert cli_web.host_names("0.0.0.0", ()) is None
    assert cli_web.host_names("0.0.0.0", ("play.example.org",)) == ["play.example.org"]
