"""`patience study run` stopped by Ctrl-C or SIGTERM exits as a shell expects (130, 143)."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.cli import study as cli_study

MESSAGE = "interrupted: every finished chunk is stored; run the same command again to resume"


def stop_with(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, stop: Any) -> tuple[int, str]:
    def run_study(*args: Any, **kwargs: Any) -> None:
        stop()

    monkeypatch.setattr(cli_study, "run_study", run_study)
    args = ["study", "run", "klondike", "--range", "1-2", "--nodes", "10", "--jobs", "1"]
    result = CliRunner().invoke(main, [*args, "--db", str(tmp_path / "s.sqlite3")])
    return result.exit_code, result.output


def test_ctrl_c_exits_130_with_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def interrupt() -> None:
        raise KeyboardInterrupt

    code, output = stop_with(monkeypatch, tmp_path, interrupt)
    assert code == 130
    assert output.splitlines()[-1] == f"Error: {MESSAGE}"


def test_sigterm_exits_143_with_the_same_line_and_the_handler_is_restored(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    before = signal.getsignal(signal.SIGTERM)

    def terminate() -> None:
        # Python runs the handler study run installed in this (the main) thread at once.
        os.kill(os.getpid(), signal.SIGTERM)

    code, output = stop_with(monkeypatch, tmp_path, terminate)
    assert code == 143
    assert output.splitlines()[-1] == f"Error: {MESSAGE}"
    assert signal.getsignal(signal.SIGTERM) == before
