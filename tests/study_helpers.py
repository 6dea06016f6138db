"""What the study tests share: a backend that solves in the test's process, and a real study
driver started as a user starts it, with a way to find its pool's worker processes."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Generator, Iterable
from pathlib import Path
from typing import Any

from patience.study import DealResult
from patience.study.runner import ChunkTask, solve_chunk


class SerialBackend:
    """The chunks solved in this process, one after another: the fastest way to test the
    driver (the real backends are tested against it)."""

    name = "serial"
    workers = 1

    def run(
        self, tasks: Iterable[ChunkTask], in_flight: int
    ) -> Generator[tuple[ChunkTask, list[DealResult]], None, None]:
        for task in tasks:
            yield task, solve_chunk(task)

    def close(self) -> None:
        pass


def spider_study_command(db: Path) -> list[str]:
    """`patience study run` on four-suit Spider deals from 1298 (the core's search runs the
    whole minute on it: docs/winnability.md), a deal a chunk, one worker: a driver that is still
    busy when a test stops it. (Deals 1-4, used before, are each won within a second now, and
    the driver could finish before the test stopped it on a quiet machine.)"""
    return [
        str(Path(sys.executable).with_name("patience")),
        *("study", "run", "spider", "--range", "1298-1301", "--budget", "60"),
        *("--jobs", "1", "--chunk", "1", "--db", str(db)),
    ]


def pool_workers(psutil: Any, driver: subprocess.Popen[bytes]) -> tuple[list[Any], list[Any]]:
    """The driver's descendants and, among them, its pool's workers (the forkserver's children,
    the driver's grandchildren), once there is one (at most a minute)."""
    deadline = time.monotonic() + 60
    descendants: list[Any] = []
    workers: list[Any] = []
    while not workers and time.monotonic() < deadline:
        time.sleep(0.5)
        descendants = psutil.Process(driver.pid).children(recursive=True)
        workers = [process for process in descendants if process.ppid() != driver.pid]
    return descendants, workers
