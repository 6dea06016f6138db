"""``patience study``: winnability studies over ranges of deals (docs/studies.md).

``study run`` solves deals in chunks on a local process pool, a Dask cluster or Ray and stores
the results in SQLite (resumable); ``study report`` sums them up; ``study export-winnable``
writes the proved-winnable deals that the web app's "winnable deals only" deals from.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from .cli import _echo_json, _game_name, data_dir, json_option, main, option_option
from .deals import DealError, check_deal
from .engine import Rules
from .games import get_rules
from .options import OptionError, parse_option_pairs
from .solve import SolverError
from .study import BACKENDS, Budget, DealResult, RunSummary, StudyDB, StudyDBError, options_key
from .study.report import plot_resolved, summarise
from .study.runner import BackendError, make_backend, run_study
from .study.winnable import write_list

__all__ = ["DB_NAME", "default_db_path", "parse_range", "study_group"]

#: The results file's name in the data directory.
DB_NAME = "studies.sqlite3"
DEFAULT_SECONDS = 10.0
#: Deals a study may cover in one command (a range is listed in memory).
MAX_RANGE = 10_000_000


def default_db_path() -> Path:
    """``studies.sqlite3`` in the data directory ($PATIENCE_HOME, else the user data dir)."""
    return data_dir() / DB_NAME


def parse_range(text: str) -> range:
    """``A-B`` (both included) or ``N``, as deal numbers; ValueError saying what is wrong."""
    first, sep, last = text.strip().partition("-")
    try:
        start = check_deal(first)
        stop = check_deal(last) if sep else start
    except DealError as error:
        raise ValueError(f"{error} (a range is A-B, as in 1-1000)") from None
    if stop < start:
        raise ValueError(f"the range {text} is empty: write A-B with A <= B")
    if stop - start + 1 > MAX_RANGE:
        raise ValueError(f"the range {text} is too long: at most {MAX_RANGE} deals per command")
    return range(start, stop + 1)


def _range_option(ctx: click.Context, param: click.Parameter, value: str) -> range:
    try:
        return parse_range(value)
    except ValueError as error:
        raise click.BadParameter(str(error), ctx=ctx, param=param) from None


def _rules(game_name: str, option_pairs: Sequence[str]) -> Rules[Any]:
    name = _game_name(game_name)
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
    try:
        return StudyDB(path or default_db_path())
    except StudyDBError as error:
        raise click.ClickException(str(error)) from None


db_option = click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The results file (default: studies.sqlite3 in the data directory).",
)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@main.group("study")
def study_group() -> None:
    """Winnability studies: solve ranges of deals, resumably, and report on them."""


@study_group.command("run")
@click.argument("game_name", metavar="GAME")
@option_option
@click.option(
    "--range",
    "deals",
    metavar="A-B",
    required=True,
    callback=_range_option,
    help="Deal numbers to solve, both ends included.",
)
@click.option(
    "--budget",
    "seconds",
    type=click.FloatRange(min=0, min_open=True),
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
    default=2_000_000,
    show_default=True,
    help="Memory bound per deal: most states the solver's table may hold.",
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
    max_states: int,
) -> None:
    """Solve deals --range A-B of GAME and store the results; run it again to resume.

    Deals already stored for the same game, options, budget and solver version are skipped;
    a larger budget retries only the deals left unknown. Ctrl-C loses at most the chunks in
    progress.
    """
    rules = _rules(game_name, options)
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
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[wins]}"),
        console=console,
        transient=False,
    )
    task: TaskID | None = None
    started = time.monotonic()

    def on_start(summary: RunSummary) -> None:
        nonlocal task
        task = progress.add_task(title, total=summary.todo, rate="", wins="")

    def on_chunk(summary: RunSummary, results: Sequence[DealResult]) -> None:
        assert task is not None
        elapsed = max(time.monotonic() - started, 1e-9)
        won = summary.counts["won"]
        progress.update(
            task,
            advance=len(results),
            rate=f"{summary.done / elapsed:.2f} deals/s",
            wins=f"won {won}/{summary.done} ({100 * won / summary.done:.1f}%), "
            f"unknown {summary.counts['unknown']}",
        )

    summary: RunSummary | None = None
    # A driver killed by SIGTERM (kill, a job scheduler) stops as Ctrl-C does: the pool's
    # workers are stopped with it (else they would go on solving chunks nobody stores).
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        with progress:
            summary = run_study(
                db,
                rules,
                deals,
                budget,
                runner,
                chunk=chunk,
                max_states=max_states,
                on_start=on_start,
                on_chunk=on_chunk,
            )
    except KeyboardInterrupt:
        raise click.ClickException(
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
        f"{title}, deals {deals.start}-{deals.stop - 1}, {budget.text()} a deal: "
        f"{summary.skipped} already stored, {summary.done} solved now "
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
def report_command(db_path: Path | None, as_json: bool, plot_path: Path | None) -> None:
    """Per game, options and solver version: won, unwinnable, unknown, the win rate's 95%
    interval (unknown deals counted both ways), CPU-hours and the time per deal."""
    path = db_path or default_db_path()
    if not path.exists():
        raise click.ClickException(f"there is no study database {path}: run patience study run")
    with _open_db(path) as db:
        reports = summarise(db.rows())
    if plot_path is not None:
        try:
            plot_resolved(reports, plot_path)
        except ImportError:
            raise click.ClickException(
                "--plot needs matplotlib: pip install 'patience[plot]'"
            ) from None
        except OSError as error:
            raise click.ClickException(f"cannot write {plot_path}: {error}") from None
    if as_json:
        _echo_json([report.to_json() for report in reports])
        return
    console = Console(highlight=False)
    if not reports:
        console.print(f"{path} holds no results yet")
        return
    for report in reports:
        data = report.to_json()
        seconds = data["seconds"]
        within = ", ".join(
            f"{100 * fraction:.0f}% in {mark} s"
            for mark, fraction in data["resolved_within"].items()
        )
        console.print(
            f"[bold]{report.title()}[/bold]  "
            f"(solver {report.solver}; budgets: {', '.join(report.budgets)})"
        )
        console.print(
            f"  {report.deals} deals: won {report.won}, unwinnable {report.unwinnable}, "
            f"unknown {report.unknown}"
        )
        console.print(
            f"  win rate {100 * report.low:.2f}% to {100 * report.high:.2f}% "
            "(95% Wilson, unknown deals counted lost and won)"
        )
        console.print(
            f"  CPU {report.cpu_seconds / 3600:.3f} h; seconds a deal: median "
            f"{seconds['median']:.2f}, p90 {seconds['p90']:.2f}, max {seconds['max']:.2f}; "
            f"resolved: {within}"
        )
    if plot_path is not None:
        console.print(f"plot written to {plot_path}")


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
    if not path.exists():
        raise click.ClickException(f"there is no study database {path}: run patience study run")
    key = options_key(rules.options)
    with _open_db(path) as db:
        won = db.won_deals(rules.name, key)
        studied = len({row.deal for row in db.rows(rules.name, key)})
    if not won:
        raise click.ClickException(
            f"{path} has no won deal of {_title(rules)} ({studied} deals studied): nothing "
            "written; study more deals or a larger budget first"
        )
    if out_path is None:
        out_path = Path(__file__).parent / "data" / "winnable" / f"{rules.name}.json"
    try:
        write_list(out_path, rules.name, dict(rules.options), won, studied)
    except (OSError, ValueError) as error:
        raise click.ClickException(f"cannot write {out_path}: {error}") from None
    click.echo(f"{len(won)} winnable deals of {studied} studied written to {out_path}")
