"""`patience study run`'s progress: readable on narrow terminals, and in logs."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from patience.cli import main
from patience.cli.study import StudyProgress
from patience.study import DealResult, RunSummary


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def results(won: int, unknown: int, lost: int) -> list[DealResult]:
    kinds = ["won"] * won + ["unknown"] * unknown + ["unwinnable"] * lost
    return [DealResult(deal, kind, 0.1, 10, 0) for deal, kind in enumerate(kinds)]


def plain(text: str) -> list[str]:
    """The lines a terminal shows last on each row: escape codes out, carriage returns and
    cursor moves taken as overwriting."""
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    return [line.split("\r")[-1] for line in text.split("\n") if line.strip()]


@pytest.mark.parametrize("width", [80, 60])
def test_the_bar_shows_count_time_left_and_win_rate_without_wrapping(width: int) -> None:
    out = StringIO()
    console = Console(file=out, width=width, force_terminal=True, highlight=False)
    clock = Clock()
    progress = StudyProgress(console, "klondike", clock=clock)
    with progress:
        summary = RunSummary(skipped=0, todo=1024)
        progress.start(summary)
        batch = results(won=256, unknown=100, lost=156)
        summary.add(batch)
        clock.now += 256  # 512 deals in 256 s: 2 deals/s, 512 left take 256 s
        progress.chunk(summary, batch)
    last = plain(out.getvalue())[-1]
    assert "512/1024" in last
    assert "2.00 deals/s" in last
    assert "0:04:16 left" in last
    assert "won 256 (50.0%)" in last
    assert "…" not in last
    assert len(last) <= width
    assert ("klondike" in last) == (width == 80)  # narrow: the name is on the title line only


def test_without_a_terminal_a_plain_line_is_printed_every_few_seconds_and_at_the_end() -> None:
    out = StringIO()
    console = Console(file=out, width=80, force_terminal=False, highlight=False)
    clock = Clock()
    progress = StudyProgress(console, "klondike", clock=clock, every=10)
    summary = RunSummary(skipped=0, todo=40)
    with progress:
        progress.start(summary)
        for seconds in (2, 4, 8, 8, 2):  # chunks done at 2, 6, 14, 22 and 24 s
            clock.now += seconds
            batch = results(won=4, unknown=2, lost=2)
            summary.add(batch)
            progress.chunk(summary, batch)
    lines = out.getvalue().splitlines()
    assert lines == [
        "klondike: 8/40 deals in 0:00:02, 4.00 deals/s, 0:00:08 left; won 4 (50.0%), unknown 2",
        "klondike: 24/40 deals in 0:00:14, 1.71 deals/s, 0:00:09 left; won 12 (50.0%), unknown 6",
        "klondike: 40/40 deals in 0:00:24, 1.67 deals/s, 0:00:00 left; won 20 (50.0%), unknown 10",
    ]


def test_slow_studies_count_deals_a_minute() -> None:
    out = StringIO()
    console = Console(file=out, width=80, force_terminal=False)
    clock = Clock()
    progress = StudyProgress(console, "spider", clock=clock)
    summary = RunSummary(skipped=0, todo=200)
    progress.start(summary)
    batch = results(won=4, unknown=1, lost=0)
    summary.add(batch)
    clock.now += 150  # 5 deals in 150 s, 195 left
    progress.chunk(summary, batch)
    assert "2.00 deals/min, 1:37:30 left" in out.getvalue()


def test_study_run_into_a_log_shows_the_title_and_progress(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite3")
    args = ["study", "run", "klondike", "--range", "1-3", "--nodes", "300", "--jobs", "1"]
    result = CliRunner().invoke(main, [*args, "--db", db], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert (
        lines[0]
        == "klondike draw=3,passes=unlimited,from_foundation=on, deals 1-3, 300 nodes a deal"
    )
    assert any(line.startswith("klondike: 3/3 deals in ") for line in lines), lines
