"""``patience study``: winnability studies over ranges of deals (docs/studies.md).

``study run`` solves deals in chunks on a local process pool, a Dask cluster or Ray and stores
the results in SQLite (resumable); ``study report`` sums them up; ``study export-winnable``
writes the proved-winnable deals that the web app's "winnable deals only" deals from.
"""

from __future__ import annotations

import math
import os
import random
import signal
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Column

from ..engine import Rules
from ..games import get_rules
from ..options import OptionError, parse_option_pairs
from ..solve import ENGINES, SolverError
from ..solve.core import CORE_MAX_STATES
from ..solve.search import Budget as SearchBudget
from ..study import BACKENDS, Budget, DealResult, RunSummary, StudyDB, StudyDBError, options_key
from ..study.report import agreements, plot_resolved, plot_win_rates, summarise
from ..study.runner import BackendError, make_backend, run_study
from ..study.winnable import ListFileError, grade_deals, list_path, write_list
from .common import (
    data_dir,
    echo_json,
    json_option,
    missing_extra,
    option_option,
    range_option,
    resolve_game,
)

__all__ = ["DB_NAME", "StudyProgress", "default_db_path", "study_group"]

#: The results file's name in the data directory.
DB_NAME = "studies.sqlite3"
DEFAULT_SECONDS = 10.0
#: Seconds between progress lines when stderr is not a terminal (a log file, nohup).
LOG_EVERY = 10.0
#: Terminals narrower than this get a progress bar without the game name and elapsed time.
NARROW = 72


def default_db_path() -> Path:
    """``studies.sqlite3`` in the data directory ($PATIENCE_HOME, else the user data dir)."""
    return data_dir() / DB_NAME


def _budget_option(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    # click's FloatRange lets nan (every comparison is false) and inf through.
    if value is not None and not (math.isfinite(value) and value > 0):
        raise click.BadParameter(
            f"{value:g} is not a budget: give the seconds per deal as a finite number above 0, "
            "as in 10 or 0.5",
            ctx=ctx,
            param=param,
        )
    return value


def _rules(game_name: str, option_pairs: Sequence[str]) -> Rules[Any]:
    name = resolve_game(game_name)
    try:
        rules = get_rules(name, parse_option_pairs(option_pairs))
    except OptionError as error:
        raise click.BadParameter(str(error), param_hint="'-o' / '--option'") from None
    if rules.players != 1:
        raise click.BadParameter(
            f"{name} is not a one-player game: studies run the solver, which plays patience only",
            param_hint="'GAME'",
        )
    return rules


def _title(rules: Rules[Any]) -> str:
    return f"{rules.name} {rules.options_text()}".strip()


def _open_db(path: Path | None) -> StudyDB:
    path = path or default_db_path()
    # StudyDB makes the missing folders; a file where a folder should be fails there with a
    # bare "[Errno 17] File exists", so name it here.
    for folder in path.parents:
        if folder.exists():
            if not folder.is_dir():
                raise click.BadParameter(
                    f"{folder} is a file, not a folder: {path} cannot be made in it",
                    param_hint="'--db'",
                )
            break
    try:
        return StudyDB(path)
    except StudyDBError as error:
        raise click.ClickException(str(error)) from None


def _read_db(path: Path | None) -> StudyDB:
    """An existing study database, opened read-only: a report leaves any file as it was (a
    foreign SQLite file gets no table, no WAL mode) and can read one a study is writing."""
    path = path or default_db_path()
    if not path.exists():
        raise click.ClickException(f"there is no study database {path}: run patience study run")
    try:
        return StudyDB(path, create=False)
    except StudyDBError as error:
        raise click.ClickException(str(error)) from None


db_option = click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The results file (default: studies.sqlite3 in the data directory).",
)


#: The exit codes of a study stopped by Ctrl-C (SIGINT) and by SIGTERM: 128 + the signal's
#: number, as a shell reports a process the signal killed.
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_TERMINATED = 128 + signal.SIGTERM


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C raises KeyboardInterrupt so that it stops a study the same
    way, and told apart by its exit code."""


def _terminate(signum: int, frame: object) -> None:
    raise _Terminated


class _InterruptedExit(click.ClickException):
    exit_code = EXIT_INTERRUPTED


class _TerminatedExit(click.ClickException):
    exit_code = EXIT_TERMINATED


def _clock_text(seconds: float) -> str:
    """``H:MM:SS`` (hours not capped at a day: a long study's time left stays one number)."""
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


def _rate_text(per_second: float) -> str:
    """Deals a second, or a minute when fewer than one a second (studies at 10-60 s a deal)."""
    if per_second >= 1:
        return f"{per_second:.2f} deals/s"
    return f"{60 * per_second:.2f} deals/min"


class StudyProgress:
    """The progress of ``study run`` on its console (stderr): deals done, the rate, the time
    left and the running win rate.

    On a terminal it is a rich progress bar whose columns never wrap (the bar shrinks first;
    below :data:`NARROW` columns the game name and the elapsed time are left out). Elsewhere (a
    log file, nohup) rich would print nothing until the end, so a plain line with the same
    facts is printed after a chunk, at most one every ``every`` seconds, and after the last.
    """

    def __init__(
        self,
        console: Console,
        game: str,
        *,
        every: float = LOG_EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.console = console
        self.game = game
        self.every = every
        self.clock = clock
        self.started = clock()
        self.logged_at = -math.inf
        self.live = console.is_terminal and not console.is_dumb_terminal
        self.task: TaskID | None = None

        def text(template: str) -> TextColumn:
            return TextColumn(template, table_column=Column(no_wrap=True))

        columns: list[ProgressColumn] = [
            text("[bold]{task.description}"),
            # The one column that gives way when the terminal is narrow.
            BarColumn(bar_width=None, table_column=Column(ratio=1, min_width=3)),
            text("{task.completed}/{task.total}"),
            text("{task.fields[rate]}"),
            text("{task.fields[left]} left"),
            text("{task.fields[wins]}"),
            TimeElapsedColumn(table_column=Column(no_wrap=True)),
        ]
        if console.width < NARROW:
            # The game is on the title line above the bar, and the elapsed time is a nicety.
            columns = columns[1:-1]
        self.progress = Progress(
            *columns, console=console, expand=True, transient=False, disable=not self.live
        )

    def __enter__(self) -> StudyProgress:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def start(self, summary: RunSummary) -> None:
        """The work is known (``run_study``'s ``on_start``)."""
        self.started = self.clock()
        if summary.skipped:
            self.console.print(f"{summary.skipped} deals already stored", soft_wrap=True)
        if summary.todo:
            self.task = self.progress.add_task(
                self.game, total=summary.todo, rate="- deals/s", left="-:--:--", wins="won 0"
            )

    def facts(self, summary: RunSummary) -> dict[str, str]:
        """The rate, the time left and the wins so far, as text."""
        elapsed = max(self.clock() - self.started, 1e-9)
        per_second = summary.done / elapsed
        won = summary.counts["won"]
        percent = 100 * won / summary.done if summary.done else 0.0
        return {
            "elapsed": _clock_text(elapsed),
            "rate": _rate_text(per_second),
            "left": _clock_text((summary.todo - summary.done) / per_second)
            if per_second > 0
            else "-:--:--",
            "wins": f"won {won} ({percent:.1f}%)",
            "unknown": str(summary.counts["unknown"]),
        }

    def chunk(self, summary: RunSummary, results: Sequence[DealResult]) -> None:
        """A chunk is stored (``run_study``'s ``on_chunk``)."""
        facts = self.facts(summary)
        if self.live:
            assert self.task is not None
            self.progress.update(
                self.task,
                completed=summary.done,
                rate=facts["rate"],
                left=facts["left"],
                wins=facts["wins"],
            )
            return
        now = self.clock()
        if now - self.logged_at < self.every and summary.done < summary.todo:
            return
        self.logged_at = now
        self.console.print(
            f"{self.game}: {summary.done}/{summary.todo} deals in {facts['elapsed']}, "
            f"{facts['rate']}, {facts['left']} left; {facts['wins']}, "
            f"unknown {facts['unknown']}",
            markup=False,
            soft_wrap=True,
        )


@click.group("study")
def study_group() -> None:
    """Winnability studies: solve ranges of deals, resumably, and report on them."""


@study_group.command("run")
@click.argument("game_name", metavar="GAME")
@option_option
@range_option("solve")
@click.option(
    "--budget",
    "seconds",
    type=float,
    callback=_budget_option,
    help=f"Seconds per deal (default {DEFAULT_SECONDS:g} unless --nodes is given).",
)
@click.option(
    "--nodes",
    type=click.IntRange(min=1),
    help="Nodes per deal: reproducible results on every machine and backend.",
)
@click.option(
    "--cpu",
    is_flag=True,
    help="Count --budget in CPU seconds of the worker: each deal gets the same work however "
    "busy the machine is (a study of its own, apart from wall-clock budgets).",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (local backend, or a local Dask/Ray cluster); default: CPU count.",
)
@db_option
@click.option(
    "--backend",
    type=click.Choice(BACKENDS),
    default="local",
    show_default=True,
    help="Where chunks run: a local process pool, dask.distributed or Ray.",
)
@click.option(
    "--address",
    default=None,
    metavar="URL",
    help="The Dask scheduler (tcp://host:8786) or Ray cluster (auto, ray://host:10001); "
    "without it a local cluster is started.",
)
@click.option(
    "--chunk",
    type=click.IntRange(min=1),
    default=None,
    help="Deals per chunk (default: a few chunks per worker, at most 25 deals).",
)
@click.option(
    "--max-states",
    type=click.IntRange(min=1),
    default=None,
    help="Memory bound per deal: most states the solver's table may hold "
    f"[default: {CORE_MAX_STATES:,} in the core, {SearchBudget.max_states:,} in Python].",
)
@click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default=None,
    help="Search in the compiled core or in the Python adapters [default: the core where it "
    "knows the game]; each row records its engine.",
)
@click.option(
    "--sample",
    type=click.IntRange(min=1),
    default=None,
    help="Solve only this many deals drawn at random from --range (the same ones for the "
    "same --seed): to check one engine against the other on part of a study.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="The random seed that draws --sample's deals.",
)
def run_command(
    game_name: str,
    options: tuple[str, ...],
    deals: range,
    seconds: float | None,
    nodes: int | None,
    cpu: bool,
    jobs: int | None,
    db_path: Path | None,
    backend: str,
    address: str | None,
    chunk: int | None,
    max_states: int | None,
    engine: str | None,
    sample: int | None,
    seed: int,
) -> None:
    """Solve deals --range A-B of GAME and store the results; run it again to resume.

    Deals already stored for the same game, options, budget, engine and solver version are
    skipped; a larger budget retries only the deals left unknown. Ctrl-C loses at most the
    chunks in progress.
    """
    rules = _rules(game_name, options)
    chosen: Sequence[int] = deals
    if sample is not None:
        if sample > len(deals):
            raise click.UsageError(
                f"--sample {sample} is more deals than --range holds ({len(deals)})"
            )
        chosen = sorted(random.Random(seed).sample(deals, sample))
    if seconds is not None and nodes is not None:
        raise click.UsageError("give at most one of --budget and --nodes")
    if cpu and nodes is not None:
        raise click.UsageError("--cpu counts --budget in CPU seconds; it does not go with --nodes")
    if nodes is not None:
        budget = Budget("nodes", nodes)
    else:
        budget = Budget("cpu-seconds" if cpu else "seconds", seconds or DEFAULT_SECONDS)
    if backend == "local" and address is not None:
        raise click.UsageError("--address is for --backend dask or ray")
    db = _open_db(db_path)
    console = Console(stderr=True, highlight=False)
    try:
        runner = make_backend(backend, jobs or os.cpu_count() or 1, address)
    except BackendError as error:
        db.close()
        raise click.ClickException(str(error)) from None
    title = _title(rules)
    which = f"deals {deals.start}-{deals.stop - 1}"
    if sample is not None:
        which = f"{sample} deals drawn from {which} (seed {seed})"
    console.print(f"{title}, {which}, {budget.text()} a deal", markup=False, soft_wrap=True)
    progress = StudyProgress(console, rules.name)
    summary: RunSummary | None = None
    # A driver killed by SIGTERM (kill, a job scheduler) stops as Ctrl-C does: the pool's
    # workers are stopped with it (else they would go on solving chunks nobody stores).
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        with progress:
            summary = run_study(
                db,
                rules,
                chosen,
                budget,
                runner,
                chunk=chunk,
                max_states=max_states,
                engine=engine,
                on_start=progress.start,
                on_chunk=progress.chunk,
            )
    except KeyboardInterrupt as stop:
        interrupted = _TerminatedExit if isinstance(stop, _Terminated) else _InterruptedExit
        raise interrupted(
            "interrupted: every finished chunk is stored; run the same command again to resume"
        ) from None
    except BackendError as error:
        raise click.ClickException(str(error)) from None
    except sqlite3.Error as error:
        raise click.ClickException(f"cannot write the study database: {error}") from None
    except SolverError as error:  # a bug in a solver, never a result: nothing of it is stored
        raise click.ClickException(f"a solver failed, please report it: {error}") from None
    finally:
        signal.signal(signal.SIGTERM, previous)
        runner.close()
        db.close()
    counts = summary.counts
    click.echo(
        f"{title}, {which}, {budget.text()} a deal: {summary.skipped} already stored, "
        f"{summary.done} solved now "
        f"(won {counts['won']}, unwinnable {counts['unwinnable']}, unknown {counts['unknown']}; "
        f"{summary.seconds:.1f} CPU s)"
    )


@study_group.command("report")
@db_option
@json_option
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also draw the fraction of deals resolved against time spent, as a PNG file.",
)
@click.option(
    "--rates-plot",
    "rates_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also draw each row's win rate with its 95% interval, as a PNG file.",
)
def report_command(
    db_path: Path | None, as_json: bool, plot_path: Path | None, rates_path: Path | None
) -> None:
    """Per game, options, engine and solver version: won, unwinnable, unknown, the win rate's
    95% interval (unknown deals counted both ways), CPU-hours and the time per deal; per game
    and options, the deals both engines resolved and any deal won by one run and proved
    unwinnable by another."""
    path = db_path or default_db_path()
    with _read_db(path) as db:
        try:
            rows = db.rows()
        except sqlite3.DatabaseError as error:  # "database disk image is malformed"
            raise click.ClickException(
                f"{path} is damaged and cannot be read ({error}): run the study again into "
                "a new file, or restore a copy"
            ) from None
        reports = summarise(rows)
        checks = {(a.game, options_key(a.options)): a for a in agreements(rows)}
    plots = ((plot_resolved, "--plot", plot_path), (plot_win_rates, "--rates-plot", rates_path))
    for draw, flag, out in plots:
        if out is None:
            continue
        try:
            draw(reports, out)
        except ImportError as error:
            missing_extra(error, "plot", flag, ("matplotlib",))
            raise
        except OSError as error:
            raise click.ClickException(f"cannot write {out}: {error}") from None
    if as_json:
        echo_json(
            [
                {
                    **report.to_json(),
                    "agreement": checks[report.game, options_key(report.options)].to_json(),
                }
                for report in reports
            ]
        )
        return
    console = Console(highlight=False)
    # Piped or redirected, a line stays one line (grep, diff); a terminal wraps it by words.
    console.soft_wrap = not console.is_terminal
    if not reports:
        console.print(f"{path} holds no results yet", markup=False)
        return
    for report in reports:
        data = report.to_json()
        seconds = data["seconds"]
        within = ", ".join(
            f"{100 * fraction:.0f}% in {mark} s"
            for mark, fraction in data["resolved_within"].items()
        )
        console.print(f"[bold]{escape(report.heading())}[/bold]")
        console.print(
            f"  {report.deals} deals: won {report.won}, unwinnable {report.unwinnable}, "
            f"unknown {report.unknown}"
        )
        console.print(
            f"  win rate {100 * report.low:.2f}% to {100 * report.high:.2f}% "
            "(95% Wilson, unknown deals counted lost and won)"
        )
        console.print(
            f"  {report.cpu_text()}; seconds a deal: median "
            f"{seconds['median']:.2f}, p90 {seconds['p90']:.2f}, max {seconds['max']:.2f}; "
            f"resolved: {within}"
        )
    console.print("[bold]Agreement[/bold]")
    for check in checks.values():
        console.print(f"  {check.text()}", markup=False)
    for out in (plot_path, rates_path):
        if out is not None:
            console.print(f"plot written to {out}", markup=False)


@study_group.command("export-winnable")
@click.argument("game_name", metavar="GAME")
@option_option
@db_option
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The list file (default: the package's data/winnable/GAME.json).",
)
def export_winnable_command(
    game_name: str, options: tuple[str, ...], db_path: Path | None, out_path: Path | None
) -> None:
    """Write the deals of GAME (with its options) proved winnable in the study database into
    the list that the web app deals "winnable deals only" from."""
    rules = _rules(game_name, options)
    path = db_path or default_db_path()
    key = options_key(rules.options)
    with _read_db(path) as db:
        won = db.won_deals(rules.name, key)
        rows = db.rows(rules.name, key)
    studied = len({row.deal for row in rows})
    grading = grade_deals(rows)
    if not won:
        raise click.ClickException(
            f"{path} has no won deal of {_title(rules)} ({studied} deals studied): nothing "
            "written; study more deals or a larger budget first"
        )
    if out_path is None:
        out_path = list_path(rules.name)
    try:
        write_list(out_path, rules.name, dict(rules.options), won, studied, grading)
    except ListFileError as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:
        raise click.ClickException(f"cannot write {out_path}: {error}") from None
    graded = (
        f", graded by the core's solver {grading.solver} ("
        + ", ".join(f"{len(deals)} {grade}" for grade, deals in grading.grades.items())
        + ")"
        if grading
        else ""
    )
    click.echo(f"{len(won)} winnable deals of {studied} studied written to {out_path}{graded}")
