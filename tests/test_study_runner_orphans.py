"""A study driver killed outright (SIGKILL: nothing of it runs) leaves no process behind."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from study_helpers import pool_workers, spider_study_command


def test_a_killed_driver_leaves_no_worker_behind(tmp_path: Path) -> None:
    psutil = pytest.importorskip("psutil")
    command = spider_study_command(tmp_path / "study.sqlite3")
    # Its own session, as a driver started from a shell and killed alone; files, not pipes, so
    # that a process left behind cannot hang the test on a pipe.
    driver = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    descendants: list[Any] = []
    try:
        descendants, workers = pool_workers(psutil, driver)
        assert workers, "the study started no worker process"
        driver.kill()
        driver.wait(timeout=10)
        # The workers, then the forkserver and resource tracker (which end once nothing holds
        # their pipes) are gone within seconds.
        _, alive = psutil.wait_procs(descendants, timeout=10)
    finally:
        if driver.poll() is None:
            driver.kill()
        for process in descendants:
            if process.is_running():
                os.kill(process.pid, signal.SIGKILL)
    assert not alive, [(process.pid, process.cmdline()) for process in alive]
